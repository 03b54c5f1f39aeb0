"""Registry entries for the ``jiang-wishart`` mechanisms (Algorithms 1 and 2).

Default data: d = 2, n = 10, eps = 1; the n - 1 unchanged columns are fixed points of norm <= 1
(seeded); the replaced column (index 0) takes the values a reviewer would try first:

* ``e1 -> e2``: a unit column replaced by an orthogonal unit column (Delta = (e1 e1^T - e2 e2^T)/n);
* ``e1 -> -e1``: replaced by its negation (Delta = 0: identical output laws);
* ``0 -> e1``: a zero column replaced by a unit column (Delta = -e1 e1^T / n, rank one, the case
  the Wishart proof mishandles: A_hat - A' is not positive definite with probability 1 - exp(-eps/3));
* ``v -> v_perp`` (Algorithm 1 only): the orthogonal unit pair v = (cos t, sin t),
  u = (sin t, -cos t) with tan 2t = 1/2, which maximises the upper-triangle l1 change
  sum_{i<=j} |v_i v_j - u_i u_j| = sqrt(5) (over 2d = 4 assumed by the scale 2d/(n eps)).
"""
from __future__ import annotations

import math

import numpy as np

from dpverify.registry import RegistryEntry

from .jiang_wishart import LaplaceCovariance, WishartCovariance

__all__ = ["REGISTRY", "BAD_ARGUMENTS", "BAD_DATA", "base_data", "default_pairs"]

D, N, EPSILON = 2, 10, 1.0


def base_data(d: int = D, n: int = N, seed: int = 2016) -> np.ndarray:
    """Fixed data X (d, n): columns with uniform random directions and norms in [0.2, 1]."""
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((d, n))
    x /= np.linalg.norm(x, axis=0)
    return x * rng.uniform(0.2, 1.0, size=n)


def _replace(x: np.ndarray, column) -> np.ndarray:
    y = x.copy()
    y[:, 0] = column
    return y


def default_pairs(d: int = D, n: int = N, worst_laplace: bool = False) -> list:
    """Neighbouring pairs (X, X') differing in column 0 (see the module docstring)."""
    x = base_data(d, n)
    e1 = np.zeros(d)
    e1[0] = 1.0
    e2 = np.zeros(d)
    e2[1 % d] = 1.0
    pairs = [
        (_replace(x, e1), _replace(x, e2)),
        (_replace(x, e1), _replace(x, -e1)),
        (_replace(x, np.zeros(d)), _replace(x, e1)),
    ]
    if worst_laplace and d == 2:
        t = 0.5 * math.atan(0.5)
        vv = np.array([math.cos(t), math.sin(t)])
        uu = np.array([math.sin(t), -math.cos(t)])
        pairs.append((_replace(x, vv), _replace(x, uu)))
    return pairs


REGISTRY = [
    RegistryEntry(
        name="jiang-laplace",
        paper="jiang-wishart/algorithm-1",
        factory=lambda: LaplaceCovariance(epsilon=EPSILON, d=D, n=N),
        pairs=lambda: default_pairs(worst_laplace=True),
        samples=200_000,
        parameters="eps=1, d=2, n=10, scale 2d/(n eps)=0.4",
        description="XX^T/n + symmetric Laplace noise; pairs e1->e2, e1->-e1, 0->e1, worst l1 pair",
    ),
    RegistryEntry(
        name="jiang-wishart",
        paper="jiang-wishart/algorithm-2",
        factory=lambda: WishartCovariance(epsilon=EPSILON, d=D, n=N),
        pairs=lambda: default_pairs(),
        samples=100_000,
        parameters="eps=1, d=2, n=10, W_2(3, 3/(2 n eps) I)",
        description="XX^T/n + Wishart noise; pairs e1->e2, e1->-e1, 0->e1",
    ),
]

_GOOD = {"epsilon": 1.0, "d": 2, "n": 10}


def _bad(**change):
    kw = dict(_GOOD)
    kw.update(change)
    return kw


_BAD_KWARGS = [
    ("eps-zero", _bad(epsilon=0.0)),
    ("eps-negative", _bad(epsilon=-1.0)),
    ("eps-nan", _bad(epsilon=float("nan"))),
    ("eps-inf", _bad(epsilon=float("inf"))),
    ("eps-string", _bad(epsilon="1")),
    ("d-zero", _bad(d=0)),
    ("d-float", _bad(d=2.5)),
    ("n-zero", _bad(n=0)),
    ("n-bool", _bad(n=True)),
]

#: ``(factory, kwargs, reason)``: ``factory(**kwargs)`` must raise InvalidArgument.
BAD_ARGUMENTS = (
    [(LaplaceCovariance, kw, f"jiang-laplace-{rid}") for rid, kw in _BAD_KWARGS]
    + [(WishartCovariance, kw, f"jiang-wishart-{rid}") for rid, kw in _BAD_KWARGS]
    + [(WishartCovariance, _bad(sampler="bartlett"), "jiang-wishart-sampler-string")]
)


def _bad_data():
    good = base_data()
    long_col = good.copy()
    long_col[:, 3] = [0.8, 0.8]  # norm 1.131 > 1
    nan = good.copy()
    nan[1, 2] = float("nan")
    inf = good.copy()
    inf[0, 0] = float("inf")
    wide = np.hstack([good, good[:, :1]])  # n + 1 columns
    return [
        ("column-norm-above-1", long_col),
        ("nan-entry", nan),
        ("inf-entry", inf),
        ("transposed", good.T),
        ("extra-column", wide),
        ("vector", good[0]),
    ]


#: ``(make_mechanism, good_data, bad_data, reason)``: sample/log_density on bad_data must raise.
BAD_DATA = [
    (make, base_data(), bad, f"{name}-{rid}")
    for name, make in (("jiang-laplace", lambda: LaplaceCovariance(EPSILON, D, N)),
                       ("jiang-wishart", lambda: WishartCovariance(EPSILON, D, N)))
    for rid, bad in _bad_data()
]
