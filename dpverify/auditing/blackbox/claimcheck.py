"""The claim's test, shared by certification (sequential looks) and the verdict.

For an (eps, delta)-DP mechanism P_D(E) <= e^eps P_D'(E) + delta for every event E, so a lower bound
``p1`` on P_D(E) and an upper bound ``p2`` on P_D'(E) give

    epsilon_lower = log((p1 - delta) / p2),     delta_lower(eps) = p1 - e^eps p2,

and contradict the claim when either exceeds it.
"""
from __future__ import annotations

import math

import numpy as np

__all__ = ["epsilon_lower", "contradicts", "growth"]


def growth(epsilon: float) -> float:
    """``e^epsilon`` (epsilon capped at 700, so it stays finite)."""
    return math.exp(min(epsilon, 700.0))


def epsilon_lower(p1, p2, delta):
    """``max(0, log((p1 - delta) / p2))`` elementwise (0 where ``p1 <= delta``)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.where(p1 > delta, np.log(np.maximum(p1 - delta, 1e-300)) - np.log(p2), 0.0)
    return np.maximum(e, 0.0)


def contradicts(p1, p2, claim) -> bool:
    """Whether some pair of bounds (``p1`` favoured side lower, ``p2`` other side upper) contradicts ``claim``."""
    return bool(np.any(epsilon_lower(p1, p2, claim.delta) > claim.epsilon)
                or np.any(p1 - growth(claim.epsilon) * p2 > claim.delta))
