"""Optimal homogeneous composition (Kairouz--Oh--Viswanath 2015, Theorem 3.3).

For k-fold adaptive composition of (eps, delta)-DP mechanisms, the exact (optimal) profile is
that of the k-fold product of the dominating pair (randomized response plus a delta atom):

    delta_k(eps') = 1 - (1-delta)^k + (1-delta)^k sum_{l=0}^{k} C(k,l) (p^{k-l} q^l - e^{eps'} q^{k-l} p^l)_+

with p = e^eps/(1+e^eps), q = 1 - p. At eps' = (k - 2i) eps this is KOV's
``1 - (1-delta)^k (1 - delta_i)``. Supports compositions in which every leaf carries the *same*
(eps, delta) guarantee (heterogeneous optimal composition is #P-hard; Murtagh--Vadhan 2016);
otherwise UnsupportedEvent. Cost: O(k) per evaluation, O(k log) for epsilon(delta).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln

from .base import CompositionMethod
from .basic import dp_guarantees
from .events import DpEvent

__all__ = ["KOVComposition", "kov_delta"]


def kov_delta(epsilon: float, delta: float, k: int, epsilon_total: float) -> float:
    """The exact k-fold delta at ``epsilon_total`` (float value, see the module docstring)."""
    base = -math.expm1(k * math.log1p(-delta)) if delta > 0 else 0.0
    keep = math.exp(k * math.log1p(-delta)) if delta > 0 else 1.0
    if epsilon == 0:
        return base
    l = np.arange(k + 1)
    gain = (k - 2 * l) * epsilon  # loss of the outcome with l "flips"
    m = gain > epsilon_total
    l, gain = l[m], gain[m]
    logp = -math.log1p(math.exp(-epsilon))
    logq = -math.log1p(math.exp(epsilon)) if epsilon < 700 else -epsilon
    logc = gammaln(k + 1) - gammaln(l + 1) - gammaln(k - l + 1)
    terms = np.exp(logc + (k - l) * logp + l * logq) * -np.expm1(epsilon_total - gain)
    return base + keep * float(np.sum(terms))


@dataclass(frozen=True)
class KOVComposition(CompositionMethod):
    """KOV optimal homogeneous composition; a certified upper bound (exact up to rounding)."""

    name: str = "kov"

    def plan(self, event: DpEvent):
        gs = dp_guarantees(self, event)
        pairs = {(e, d) for e, d, _ in gs}
        if len(pairs) > 1:
            raise self.unsupported(event, f"its leaves have different guarantees {sorted(pairs)}; KOV is for "
                                    "k-fold composition of one (epsilon, delta); use pld for heterogeneous")
        (e, d), = pairs
        return e, d, sum(c for _, _, c in gs)

    def _delta_val(self, plan, epsilon: float) -> float:
        e, d, k = plan
        val = kov_delta(e, d, k, epsilon)
        return min(1.0, val * (1 + 1e-9 + k * 1e-15))  # log-space terms: relative error << 1e-9 + k 1e-15

    def _delta(self, plan, epsilon: float) -> float:
        return self._delta_val(plan, epsilon)

    def _epsilon(self, plan, delta: float) -> float:
        e, d, k = plan
        if self._delta_val(plan, 0.0) <= delta:
            return 0.0
        hi = k * e
        if self._delta_val(plan, hi) > delta:
            return math.inf
        lo = 0.0
        for _ in range(200):
            mid = (lo + hi) / 2
            if mid <= lo or mid >= hi:
                break
            if self._delta_val(plan, mid) <= delta:
                hi = mid
            else:
                lo = mid
        return hi
