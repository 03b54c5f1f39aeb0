"""Registry entries for ``showkatbakhsh-regression`` (additive noise and random projection).

Defaults follow the paper's experiments at audit scale: eps = 0.5 bits (Figure 1), X with
entries uniform in [-1, 1] (Section V-A), small n so that an audit takes seconds. The claim
audited is Corollary 1's (0, sqrt(2 eps ln 2))-DP, i.e. a bound on the total variation distance
between the outputs on neighbouring datasets (delta = 0.8326 at eps = 0.5 bits).

Pairs flip one entry of X from -1 to +1 (the largest change |X_ij| <= 1 allows); y is the same
in both datasets (it is not part of D). For the projection, two responses are tried: y
independent of X (pure noise), and y = X theta + 0.1 * noise (a regression with a good fit,
the setting the paper targets). A third entry uses the paper's MNIST level eps = 0.2 bits
with y aligned with the flipped column (y_j = X_j1 + small noise), where eq. (13) gives
sigma_RP = 0.

The module also holds the conformance suite's tables ``BAD_ARGUMENTS`` and ``BAD_DATA``.
"""
from __future__ import annotations

import math

import numpy as np

from dpverify.registry import RegistryEntry

from .showkatbakhsh_regression import AdditiveNoiseRelease, RandomProjectionRelease

EPS_BITS = 0.5


def _additive_pairs():
    rng = np.random.default_rng(2018)
    x = rng.uniform(-1, 1, size=(10, 3))
    x[0, 0] = -1.0
    xp = x.copy()
    xp[0, 0] = 1.0
    return [(x, xp)]


def _projection_pairs():
    rng = np.random.default_rng(2018)
    n, d = 20, 2
    x = rng.uniform(-1, 1, size=(n, d))
    x[0, 0] = -1.0
    xp = x.copy()
    xp[0, 0] = 1.0
    y_noise = rng.standard_normal(n)
    y_fit = x @ np.ones(d) + 0.1 * rng.standard_normal(n)
    pairs = [(np.column_stack([x, y]), np.column_stack([xp, y])) for y in (y_noise, y_fit)]
    # a change that moves f(X) (column 0 attains the minimum): sigma_RP differs between D and D'
    col = int(np.argmin([np.sum(x[:, i] ** 2) - np.max(x[:, i] ** 2) for i in range(d)]))
    xq = x.copy()
    xq[1, col] = 0.0
    xqp = x.copy()
    xqp[1, col] = 1.0
    pairs.append((np.column_stack([xq, y_noise]), np.column_stack([xqp, y_noise])))
    return pairs


def _aligned_pairs():
    rng = np.random.default_rng(7)
    n, d = 60, 2
    x = rng.choice([-1.0, 1.0], size=(n, d))
    x[0, 0] = 1.0
    xp = x.copy()
    xp[0, 0] = -1.0
    y = x[:, 0] + 0.05 * rng.standard_normal(n)
    return [(np.column_stack([x, y]), np.column_stack([xp, y]))]


REGISTRY = [
    RegistryEntry(
        name="showkatbakhsh-additive",
        paper="showkatbakhsh-regression/lemma-1",
        factory=lambda: AdditiveNoiseRelease(EPS_BITS),
        pairs=_additive_pairs,
        samples=200_000,
        parameters="eps=0.5 bits (delta=0.833), X 10x3 uniform[-1,1]",
        description="X + sigma_AN N, sigma_AN^2 = 1/(2^{2eps}-1); one entry -1 -> +1",
    ),
    RegistryEntry(
        name="showkatbakhsh-projection",
        paper="showkatbakhsh-regression/lemma-2",
        factory=lambda: RandomProjectionRelease(EPS_BITS, 7),
        pairs=_projection_pairs,
        samples=50_000,
        parameters="eps=0.5 bits (delta=0.833), n=20, d=2, n'=7, X uniform[-1,1]",
        description="(SX + sigma_RP N, Sy), eq. (13); y noise / y = X theta + 0.1 noise",
    ),
    RegistryEntry(
        name="showkatbakhsh-projection-aligned",
        paper="showkatbakhsh-regression/lemma-2",
        factory=lambda: RandomProjectionRelease(0.2, 5),
        pairs=_aligned_pairs,
        samples=50_000,
        parameters="eps=0.2 bits (delta=0.527), n=60, d=2, n'=5, X in {-1,1}, y ~ column 1",
        description="(SX + sigma_RP N, Sy) with sigma_RP = 0 by eq. (13); y close to the flipped column",
    ),
]

#: (factory, kwargs, reason): ``factory(**kwargs)`` must raise InvalidArgument.
BAD_ARGUMENTS = [
    (AdditiveNoiseRelease, dict(epsilon=0.0), "an-eps-zero"),
    (AdditiveNoiseRelease, dict(epsilon=-0.1), "an-eps-negative"),
    (AdditiveNoiseRelease, dict(epsilon=math.nan), "an-eps-nan"),
    (AdditiveNoiseRelease, dict(epsilon=math.inf), "an-eps-inf"),
    (AdditiveNoiseRelease, dict(epsilon=0.75), "an-eps-vacuous-delta"),
    (AdditiveNoiseRelease, dict(epsilon="0.5"), "an-eps-string"),
    (RandomProjectionRelease, dict(epsilon=0.0, projection_dim=5), "rp-eps-zero"),
    (RandomProjectionRelease, dict(epsilon=math.nan, projection_dim=5), "rp-eps-nan"),
    (RandomProjectionRelease, dict(epsilon=math.inf, projection_dim=5), "rp-eps-inf"),
    (RandomProjectionRelease, dict(epsilon=1.0, projection_dim=5), "rp-eps-vacuous-delta"),
    (RandomProjectionRelease, dict(epsilon=0.5, projection_dim=0), "rp-nprime-zero"),
    (RandomProjectionRelease, dict(epsilon=0.5, projection_dim=2.0), "rp-nprime-float"),
]

_x = np.full((4, 2), 0.5)
_x_big = _x.copy()
_x_big[2, 1] = 1.5
_x_nan = _x.copy()
_x_nan[0, 0] = math.nan
_a = np.column_stack([_x, np.arange(4.0)])
_a_big = np.column_stack([_x_big, np.arange(4.0)])
_a_inf_y = _a.copy()
_a_inf_y[1, -1] = math.inf

#: (mechanism factory, good data, bad data, reason): sample(bad) and log_density(., bad) must raise.
BAD_DATA = [
    (lambda: AdditiveNoiseRelease(0.5), _x, _x_big, "an-entry-above-1"),
    (lambda: AdditiveNoiseRelease(0.5), _x, -_x_big, "an-entry-below-minus-1"),
    (lambda: AdditiveNoiseRelease(0.5), _x, _x_nan, "an-nan-entry"),
    (lambda: AdditiveNoiseRelease(0.5), _x, np.full(4, 0.5), "an-1d-data"),
    (lambda: RandomProjectionRelease(0.5, 3), _a, _a_big, "rp-entry-above-1"),
    (lambda: RandomProjectionRelease(0.5, 3), _a, _a_inf_y, "rp-inf-y"),
    (lambda: RandomProjectionRelease(0.5, 3), _a, np.full((4, 1), 0.5), "rp-no-y-column"),
    (lambda: RandomProjectionRelease(0.5, 3), _a, np.full(4, 0.5), "rp-1d-data"),
]
