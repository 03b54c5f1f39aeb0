"""Mechanisms that state an input domain, for the tests of the unaided audit (dpverify.auditing.unaided).

Each faulty one has a correct twin; everything is module-level so that it pickles for worker pools.
"""
from __future__ import annotations

import math
from functools import partial

import numpy as np

from dpverify import InputDomain, PrivacyClaim
from dpverify.claims import NeighbourRelation


class BoundedSum:
    """Sum of records clamped to [0, 1], plus Laplace(1/eps): (eps, 0)-DP under add/remove.
    ``clip=False`` is the forgotten clamp: a record of -largest-float moves the sum by ~1e308."""

    def __init__(self, epsilon: float = 1.0, clip: bool = True):
        self.epsilon, self.clip = epsilon, clip
        self.claim = PrivacyClaim(epsilon)

    def sample(self, data, size, rng):
        x = np.asarray(data, dtype=float)
        if self.clip:
            x = np.clip(np.nan_to_num(x, nan=0.0), 0.0, 1.0)
        return np.full(size, float(np.sum(x))) + rng.laplace(0.0, 1.0 / self.epsilon, size)

    def input_domain(self):
        return InputDomain.records(nan=True, values=(0.0, 1.0))


class BinnedCount:
    """A noisy histogram over bin edges 0..4 (Laplace(2/eps) per bin, (eps, 0)-DP under add/remove).
    ``strict=True`` raises ValueError on a record below the smallest edge (the reported bug class: the
    exception reveals the record); the fixed version clamps it into the first bin."""

    EDGES = np.arange(0.0, 5.0)

    def __init__(self, epsilon: float = 1.0, strict: bool = False):
        self.epsilon, self.strict = epsilon, strict
        self.claim = PrivacyClaim(epsilon)

    def sample(self, data, size, rng):
        x = np.asarray(data, dtype=float)
        x = x[~np.isnan(x)]
        if self.strict and np.any(x < self.EDGES[0]):
            raise ValueError(f"value {x.min()} is below the smallest bin edge {self.EDGES[0]}")
        idx = np.clip(np.searchsorted(self.EDGES, x, side="right") - 1, 0, len(self.EDGES) - 2)
        counts = np.bincount(idx, minlength=len(self.EDGES) - 1).astype(float)
        return counts + rng.laplace(0.0, 2.0 / self.epsilon, (size, counts.size))

    def input_domain(self):
        return InputDomain.records(low=-math.inf, high=math.inf)


def claim_linear(epsilon: float, d: int) -> PrivacyClaim:
    """The group-privacy map a library states: eps x d."""
    return PrivacyClaim(epsilon * d)


class GroupCount:
    """A count of records plus Laplace(1/eps), where the library's map claims eps x d at distance d.
    ``square=True`` is the faulty one: the count is weighted so that d added records move it by d^2
    (right at d = 1, wrong above)."""

    def __init__(self, epsilon: float = 1.0, square: bool = False):
        self.epsilon, self.square = epsilon, square
        self.claim = PrivacyClaim(epsilon)

    def sample(self, data, size, rng):
        n = len(np.asarray(data))
        value = float(n * n) if self.square else float(n)
        return np.full(size, value) + rng.laplace(0.0, 1.0 / self.epsilon, size)

    def input_domain(self):
        return InputDomain.records(low=0.0, high=1.0, sizes=(0, 1), distances=(1, 2, 4),
                                   claim_at=partial(claim_linear, self.epsilon))


class ScalarAnswer:
    """A scalar query answer plus Laplace(scale): (1/scale)-DP for answers 1 apart; ``scale`` too small is faulty."""

    def __init__(self, scale: float = 1.0):
        self.scale = scale
        self.claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        return float(np.asarray(data).reshape(-1)[0]) + rng.laplace(0.0, self.scale, size)

    def input_domain(self):
        return InputDomain.answers(1, sensitivity=1.0)


class NoisyArgmax:
    """Report-noisy-max over a score vector (Laplace(2/eps) noise): eps-DP when every score moves by at most 1.
    No neighbour_space(): the caller states the answers' neighbourhood with ``neighbours=``."""

    def __init__(self, epsilon: float = 1.0):
        self.claim = PrivacyClaim(epsilon)
        self.epsilon = epsilon

    def sample(self, data, size, rng):
        scores = np.asarray(data, dtype=float)
        noisy = scores + rng.laplace(0.0, 2.0 / self.epsilon, (size, scores.size))
        return np.argmax(noisy, axis=1)


class ReplaceMean:
    """The mean of n = 10 records in [0, 1] plus Laplace(1/(n eps)), replace-one: (eps, 0)-DP."""

    def __init__(self, epsilon: float = 1.0):
        self.claim = PrivacyClaim(epsilon, relation=NeighbourRelation.REPLACE_ONE)
        self.epsilon = epsilon

    def sample(self, data, size, rng):
        x = np.clip(np.asarray(data, dtype=float), 0, 1)
        return np.full(size, x.mean()) + rng.laplace(0.0, 1.0 / (len(x) * self.epsilon), size)

    def input_domain(self):
        return InputDomain.records(low=0.0, high=1.0, sizes=(10,), relation=NeighbourRelation.REPLACE_ONE)


class NoDomain:
    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        return rng.laplace(0.0, 1.0, size)


class BrokenDomain(NoDomain):
    def input_domain(self):
        raise RuntimeError("no domain today")


class RefusesEverything(BoundedSum):
    def check_neighbours(self, d, dp):
        raise ValueError("not neighbours")


def forgotten_clamp() -> BoundedSum:
    """A zero-argument factory for the CLI (``dpverify audit unaided_mechanisms:forgotten_clamp``)."""
    return BoundedSum(clip=False)


class WidthSum:
    """Sum of records clamped to [lower, upper] plus Laplace(sensitivity/eps) under add/remove. ``width=True`` is
    the faulty one: it takes the interval's width upper - lower as the sensitivity, which is right only when
    the interval touches 0 (an added record moves the sum by up to max(|lower|, |upper|)); a degenerate
    interval makes the noise vanish."""

    def __init__(self, lower: float = 0.0, upper: float = 1.0, epsilon: float = 1.0, width: bool = False):
        if lower > upper:
            raise ValueError(f"lower={lower} > upper={upper}")
        self.lower, self.upper, self.epsilon = lower, upper, epsilon
        self.sensitivity = (upper - lower) if width else max(abs(lower), abs(upper))
        self.claim = PrivacyClaim(epsilon)

    def sample(self, data, size, rng):
        s = float(np.sum(np.clip(np.asarray(data, dtype=float), self.lower, self.upper)))
        scale = self.sensitivity / self.epsilon
        return np.full(size, s) + (rng.laplace(0.0, scale, size) if scale > 0 else np.zeros(size))

    def input_domain(self):
        return InputDomain.records(values=(self.lower, self.upper))


def width_sum(lower: float, upper: float) -> WidthSum:
    return WidthSum(lower, upper, width=True)


def max_sum(lower: float, upper: float) -> WidthSum:
    return WidthSum(lower, upper)


class HangsOnInfinity(BoundedSum):
    """Never returns when a record is infinite (a native loop, a lock): the search must stay under time_budget."""

    def sample(self, data, size, rng):
        import time
        if np.any(np.isinf(np.asarray(data, dtype=float))):
            while True:
                time.sleep(0.05)
        return super().sample(data, size, rng)
