"""Shared pieces of the negative controls (internal): query vectors and StatDP-style pairs."""
from __future__ import annotations

import enum
from typing import Any

import numpy as np

from dpverify import InvalidArgument
from dpverify import validation as v

__all__ = ["Pattern", "query_pairs", "queries", "ControlBase"]


class Pattern(enum.Enum):
    """Neighbouring query-answer vectors, in the style of StatDP (Ding et al., CCS 2018, Sec. 5).

    ``D`` is the all-ones vector (``X_SHAPE`` excepted); ``D'`` moves every query by at most 1.
    ``ONE_BELOW``/``ONE_ABOVE`` change one query (one-differ); the others change several
    (all-differ, for mechanisms whose queries may all move by the sensitivity).
    """

    ONE_BELOW = "one below"
    ONE_ABOVE = "one above"
    ONE_ABOVE_REST_BELOW = "one above, rest below"
    ONE_BELOW_REST_ABOVE = "one below, rest above"
    HALF_HALF = "half above, half below"
    ALL_ABOVE = "all above"
    ALL_BELOW = "all below"
    X_SHAPE = "x shape"


def _pair(k: int, p: Pattern) -> tuple[np.ndarray, np.ndarray]:
    d = np.ones(k)
    h = k // 2
    if p is Pattern.ONE_BELOW:
        dp = np.r_[0.0, np.ones(k - 1)]
    elif p is Pattern.ONE_ABOVE:
        dp = np.r_[2.0, np.ones(k - 1)]
    elif p is Pattern.ONE_ABOVE_REST_BELOW:
        dp = np.r_[2.0, np.zeros(k - 1)]
    elif p is Pattern.ONE_BELOW_REST_ABOVE:
        dp = np.r_[0.0, np.full(k - 1, 2.0)]
    elif p is Pattern.HALF_HALF:
        dp = np.r_[np.full(h, 2.0), np.zeros(k - h)]
    elif p is Pattern.ALL_ABOVE:
        dp = np.full(k, 2.0)
    elif p is Pattern.ALL_BELOW:
        dp = np.zeros(k)
    elif p is Pattern.X_SHAPE:
        d = np.r_[np.ones(h), np.zeros(k - h)]
        dp = np.r_[np.zeros(h), np.ones(k - h)]
    else:  # pragma: no cover - Enum is closed
        raise InvalidArgument(f"pattern={p!r} is not a Pattern.")
    return d, dp


def query_pairs(k: int, patterns) -> list[tuple[np.ndarray, np.ndarray]]:
    """The pairs of ``patterns`` (Pattern members) for ``k`` queries, as a list of tuples."""
    k = v.integer("k", k, minimum=2, fix="Use at least two queries.")
    out = []
    for p in patterns:
        if not isinstance(p, Pattern):
            raise InvalidArgument(f"pattern={p!r} must be a dpverify_mechanisms.faulty.Pattern member, e.g. Pattern.HALF_HALF.")
        out.append(_pair(k, p))
    return out


def queries(data: Any) -> np.ndarray:
    """``data`` as a 1-D finite vector of query answers."""
    q = v.finite_array("data", data, ndim=1, fix="Pass the vector of query answers q_1(D), ..., q_k(D).")
    if q.size < 1:
        raise InvalidArgument("data=[] is empty; pass at least one query answer.")
    return q


class ControlBase:
    """A black-box control: ``claim``, ``sample``; no ``log_density`` (audited black-box).

    ``true_epsilon(k)`` is the mechanism's true privacy on k queries (``math.inf`` when it is
    not epsilon-DP for any epsilon); its docstring gives the source.
    """

    claim: Any

    #: Every query answer may move by at most this much between neighbours (None: not stated).
    query_sensitivity: float | None = None

    def neighbour_space(self):
        """Neighbours as dpverify checks them: ``data`` is the vector of query answers, and each
        answer moves by at most the queries' sensitivity (l-infinity ball; the all-differ
        patterns of StatDP). None when the control states no query sensitivity."""
        sens = getattr(self, "sensitivity", None) or self.query_sensitivity
        if sens is None:
            return None
        from dpverify.auditing.neighbours import NeighbourSpace, Norm, Unit

        return NeighbourSpace(Unit.WHOLE, Norm.LINF, float(sens), self.claim.relation)

    def _size(self, size: Any) -> int:
        return v.integer("size", size, minimum=1)

    def _rng(self, rng: Any) -> np.random.Generator:
        return v.as_rng(rng)
