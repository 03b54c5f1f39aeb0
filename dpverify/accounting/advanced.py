"""Advanced composition (Dwork--Rothblum--Vadhan 2010, ``tu-projections/lemma-3``).

Form used (the one of ``tu-projections`` Lemma 3 = DRV Theorem III.3): k mechanisms, each
(eps, delta)-DP, compose to (eps', k delta + delta')-DP with

    eps' = sqrt(2 k log(1/delta')) eps + k eps (e^eps - 1).

Heterogeneous leaves use the same Azuma argument with ``sum eps_i^2`` and
``sum eps_i (e^eps_i - 1)`` (Kairouz--Oh--Viswanath 2015, Thm 3.5 form without their improved
constant), which reduces to Lemma 3 when all eps_i are equal. The tighter
``k eps (e^eps - 1)/(e^eps + 1)`` drift term is *not* used, so that this method is exactly the
lemma the paper relies on. ``epsilon(delta)`` spends ``delta' = delta - sum k_i delta_i``;
it is ``inf`` when that is not positive. Supports the same events as basic composition.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .base import CompositionMethod
from .basic import dp_guarantees
from .events import DpEvent

__all__ = ["AdvancedComposition", "advanced_epsilon"]


def advanced_epsilon(epsilon: float, delta_prime: float, k: int) -> float:
    """``tu-projections/lemma-3``: sqrt(2k log(1/delta')) eps + k eps (e^eps - 1)."""
    return math.sqrt(2 * k * math.log(1 / delta_prime)) * epsilon + k * epsilon * math.expm1(epsilon)


@dataclass(frozen=True)
class AdvancedComposition(CompositionMethod):
    """DRV advanced composition (module docstring); a certified upper bound."""

    name: str = "advanced"
    per_leaf = True  # class attribute, not a dataclass field

    def plan(self, event: DpEvent):
        return dp_guarantees(self, event)

    def _epsilon(self, plan, delta: float) -> float:
        dprime = delta - math.fsum(d * c for _, d, c in plan)
        if not dprime > 0:
            return math.inf
        s2 = math.fsum(c * e * e for e, _, c in plan)
        drift = math.fsum(c * e * math.expm1(e) for e, _, c in plan)
        return (math.sqrt(2 * s2 * math.log(1 / dprime)) + drift) * (1 + 1e-14)

    def _delta(self, plan, epsilon: float) -> float:
        base = math.fsum(d * c for _, d, c in plan)
        s2 = math.fsum(c * e * e for e, _, c in plan)
        drift = math.fsum(c * e * math.expm1(e) for e, _, c in plan) * (1 + 1e-14)
        if s2 == 0:
            return min(1.0, base)
        if not epsilon > drift:
            return 1.0
        dprime = math.exp(-((epsilon / (1 + 1e-14) - drift) ** 2) / (2 * s2))
        return min(1.0, (base + dprime) * (1 + 1e-14))
