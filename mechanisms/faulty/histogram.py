"""Laplace histograms: the correct one (scale 1/eps) and the classic bug (scale eps).

Reference: Dwork, McSherry, Nissim, Smith (2006) / Dwork & Roth (2014), Sec. 3.3 (histogram
queries, l1 sensitivity 1 under adding or removing one record); Ding et al. (CCS 2018, StatDP),
whose "histogram with scale eps" is the faulty control here.

``data`` is the vector of bin counts; a neighbour adds or removes one record, so one count moves
by 1 (the claim's relation is ADD_REMOVE_ONE). Output: float array (size, bins).
"""
from __future__ import annotations

import numpy as np

from dpverify import NeighbourRelation, PrivacyClaim
from dpverify import validation as v

from ._common import ControlBase, queries

__all__ = ["LaplaceHistogram", "HistogramScaleEpsilon"]


class _Histogram(ControlBase):
    def __init__(self, epsilon: float):
        self.epsilon = v.positive("epsilon", epsilon, fix="The Laplace histogram needs eps > 0.")
        self.claim = PrivacyClaim(self.epsilon, 0.0, NeighbourRelation.ADD_REMOVE_ONE)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(epsilon={self.epsilon!r})"

    def neighbour_space(self):
        return None  # counts, not an l-inf ball: see check_neighbours

    def check_neighbours(self, data, data_prime) -> None:
        """InvalidArgument unless the count vectors differ in one bin by exactly 1 (one record added
        or removed)."""
        from dpverify import InvalidArgument

        a, b = queries(data), queries(data_prime)
        if a.shape != b.shape:
            raise InvalidArgument(f"count vectors of shapes {a.shape} and {b.shape} have different numbers of "
                                  "bins; neighbours share the bins.")
        diff = b - a
        moved = np.flatnonzero(diff != 0)
        if moved.size != 1 or abs(float(diff[moved[0]])) != 1.0:
            raise InvalidArgument(
                f"the count vectors differ by {diff.tolist()}; adding or removing one record changes one "
                "count by exactly 1."
            )

    def sample(self, data, size, rng):
        q = queries(data)
        return q + self._rng(rng).laplace(0.0, self.scale, (self._size(size), q.size))


class LaplaceHistogram(_Histogram):
    """Counts + Lap(1/eps) each. True privacy: exactly eps (a one-count change shifts one
    coordinate by 1; the Laplace tail ratio attains e^eps). A *correct* control."""

    @property
    def scale(self) -> float:
        return 1.0 / self.epsilon

    def true_epsilon(self, k: int) -> float:
        return self.epsilon


class HistogramScaleEpsilon(_Histogram):
    """Counts + Lap(eps) each (scale eps instead of 1/eps). True privacy: exactly 1/eps, so the
    claim eps is violated whenever eps < 1 (by a factor 1/eps^2). A *faulty* control."""

    @property
    def scale(self) -> float:
        return self.epsilon

    def true_epsilon(self, k: int) -> float:
        return 1.0 / self.epsilon
