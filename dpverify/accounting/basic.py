"""Basic composition (``lecture21-dp/lemma-5``): epsilons and deltas add.

Supports events that carry an (epsilon, delta) guarantee by themselves (pure/approximate
black boxes, Laplace, randomized response, discrete Laplace, Poisson-subsampled Laplace with
its amplified epsilon). Gaussian-type events have no single (epsilon, delta), so they are
unsupported here (use ``rdp`` or ``pld``). Heterogeneous compositions are fine. Cost: O(#events).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from .base import CompositionMethod
from .events import DpEvent, grouped, is_pure_or_approx

__all__ = ["BasicComposition", "dp_guarantees"]


def dp_guarantees(method: CompositionMethod, event: DpEvent) -> list[tuple[float, float, int]]:
    """``[(epsilon_i, delta_i, count_i)]`` for the leaves, or UnsupportedEvent from ``method``."""
    out = []
    for leaf, count in grouped(event):
        g = is_pure_or_approx(leaf)
        if g is None:
            raise method.unsupported(leaf, "it has no single (epsilon, delta) guarantee; use rdp or pld")
        out.append((g[0], g[1], count))
    return out


@dataclass(frozen=True)
class BasicComposition(CompositionMethod):
    """(sum eps_i, sum delta_i): an upper bound for any adaptive composition."""

    name: str = "basic"
    per_leaf = True  # class attribute, not a dataclass field

    def plan(self, event: DpEvent):
        return dp_guarantees(self, event)

    def _epsilon(self, plan, delta: float) -> float:
        total_delta = math.fsum(d * c for _, d, c in plan)
        if total_delta > delta:
            return math.inf
        return math.fsum(e * c for e, _, c in plan) * (1 + 1e-15)

    def _delta(self, plan, epsilon: float) -> float:
        if math.fsum(e * c for e, _, c in plan) * (1 + 1e-15) > epsilon:
            return 1.0
        return min(1.0, math.fsum(d * c for _, d, c in plan) * (1 + 1e-15))
