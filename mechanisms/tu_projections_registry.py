"""Registry entries for ``tu-projections`` Theorems 1 and 2 (both readings of P).

Defaults: n = 3 users, k = 5, B = sigma_p = 1, delta = 1e-5; eps = 1 for Theorem 1 and
eps = 0.5 for Theorem 2 (which needs eps < 1). Under the FRESH reading the privacy loss of a
pair depends on the differing row only through ``||z P||`` with ``z = X_i - X'_i``, whose law
(``||z||^2 sigma_p^2 chi^2_k``) does not depend on d or on the direction of z, so d = 10 keeps the
outputs (P is part of each output) small. Under the FIXED reading d matters: the worst difference
chosen after P is known reaches ``||zP|| = B s_max(P)``, about ``B sigma_p (sqrt(d) + sqrt(k))``,
so d = 100 (outputs stay n x k).

Pairs: the pair a reviewer tries first (row 0 goes from ``+z/2`` to ``-z/2`` with
``z = B e_1``; every row has norm <= B; the other rows are random of norm B/2), and, under
FIXED, the ADVERSARIAL pair chosen after P is known (z = B u_1, u_1 the top left singular vector
of P), which Lemma 1 does not cover (it bounds ``||zP||`` for z fixed before P is drawn).

The module also holds the conformance suite's tables (see ``tests/mechanisms/test_conformance.py``):
``BAD_ARGUMENTS`` (constructor calls that must raise InvalidArgument) and ``BAD_DATA``
(datasets that ``sample`` and ``log_density`` must reject).
"""
from __future__ import annotations

import math

import numpy as np

from dpverify.registry import RegistryEntry

from .tu_projections import (
    ProjectionReading,
    Theorem1Reading,
    TuCompositionProjection,
    TuDirectProjection,
    top_singular_direction,
)

N_USERS = 3
K = 5
DELTA = 1e-5
EPS_T1 = 1.0
EPS_T2 = 0.5
D_FRESH = 10
D_FIXED = 100
SEED_P = 0  # seed of the FIXED P


def _pair(d: int, direction: np.ndarray | None = None, bound: float = 1.0):
    """X, X' with rows of norm <= B, differing in row 0 by B * direction (default e_1)."""
    rng = np.random.default_rng(12345)
    x = rng.standard_normal((N_USERS, d))
    x *= 0.5 * bound / np.linalg.norm(x, axis=1, keepdims=True)
    u = np.eye(d)[0] if direction is None else np.asarray(direction, dtype=float)
    x[0] = 0.5 * bound * u
    xp = x.copy()
    xp[0] = -0.5 * bound * u
    return x, xp


def _t1_fresh():
    return TuDirectProjection(EPS_T1, DELTA, D_FRESH, K, reading=ProjectionReading.FRESH)


def _t1_fixed():
    return TuDirectProjection(EPS_T1, DELTA, D_FIXED, K, reading=ProjectionReading.FIXED, seed=SEED_P)


def _t2_fresh():
    return TuCompositionProjection(EPS_T2, DELTA, D_FRESH, K, reading=ProjectionReading.FRESH)


def _t2_fixed():
    return TuCompositionProjection(EPS_T2, DELTA, D_FIXED, K, reading=ProjectionReading.FIXED, seed=SEED_P)


def _fixed_pairs(factory):
    """The a-priori pair and the adversarial pair (z along the top left singular vector of P)."""
    mech = factory()
    return [_pair(D_FIXED), _pair(D_FIXED, top_singular_direction(mech.projection))]


REGISTRY = [
    RegistryEntry(
        name="tu-theorem1-fresh",
        paper="tu-projections/theorem-1",
        factory=_t1_fresh,
        pairs=lambda: [_pair(D_FRESH)],
        samples=200_000,
        parameters=f"eps={EPS_T1:g}, delta={DELTA:g}, n={N_USERS}, d={D_FRESH}, k={K}, B=sigma_p=1, P fresh+published",
        description="XP + G, sigma of Theorem 1 (printed, split root); P drawn per release and released",
    ),
    RegistryEntry(
        name="tu-theorem1-fixed",
        paper="tu-projections/theorem-1",
        factory=_t1_fixed,
        pairs=lambda: _fixed_pairs(_t1_fixed),
        samples=200_000,
        parameters=f"eps={EPS_T1:g}, delta={DELTA:g}, n={N_USERS}, d={D_FIXED}, k={K}, B=sigma_p=1, P fixed (seed {SEED_P})",
        description="XP + G, sigma of Theorem 1; P drawn once; a-priori pair and pair along top singular vector of P",
    ),
    RegistryEntry(
        name="tu-theorem2-fresh",
        paper="tu-projections/theorem-2",
        factory=_t2_fresh,
        pairs=lambda: [_pair(D_FRESH)],
        samples=200_000,
        parameters=f"eps={EPS_T2:g}, delta={DELTA:g}, n={N_USERS}, d={D_FRESH}, k={K}, B=sigma_p=1, P fresh+published",
        description="XP + G, sigma of Theorem 2 (printed); P drawn per release and released",
    ),
    RegistryEntry(
        name="tu-theorem2-fixed",
        paper="tu-projections/theorem-2",
        factory=_t2_fixed,
        pairs=lambda: _fixed_pairs(_t2_fixed),
        samples=200_000,
        parameters=f"eps={EPS_T2:g}, delta={DELTA:g}, n={N_USERS}, d={D_FIXED}, k={K}, B=sigma_p=1, P fixed (seed {SEED_P})",
        description="XP + G, sigma of Theorem 2; P drawn once; a-priori and adversarial pairs",
    ),
]

_OK = dict(epsilon=0.5, delta=1e-5, dimension=4, projection_dim=2)


def _kw(**changes):
    out = dict(_OK)
    out.update(changes)
    return out


#: (factory, kwargs, reason): ``factory(**kwargs)`` must raise InvalidArgument.
BAD_ARGUMENTS = []
for _cls in (TuDirectProjection, TuCompositionProjection):
    BAD_ARGUMENTS += [
        (_cls, _kw(epsilon=0.0), "eps-zero"),
        (_cls, _kw(epsilon=-1.0), "eps-negative"),
        (_cls, _kw(epsilon=math.nan), "eps-nan"),
        (_cls, _kw(epsilon=math.inf), "eps-inf"),
        (_cls, _kw(delta=0.0), "delta-zero"),
        (_cls, _kw(delta=0.5), "delta-half"),
        (_cls, _kw(delta=0.7), "delta-above-half"),
        (_cls, _kw(delta=math.nan), "delta-nan"),
        (_cls, _kw(dimension=0), "d-zero"),
        (_cls, _kw(dimension=2.5), "d-fractional"),
        (_cls, _kw(projection_dim=0), "k-zero"),
        (_cls, _kw(sigma_p=0.0), "sigma-p-zero"),
        (_cls, _kw(sigma_p=math.inf), "sigma-p-inf"),
        (_cls, _kw(bound=-1.0), "bound-negative"),
        (_cls, _kw(bound=math.nan), "bound-nan"),
        (_cls, _kw(reading="fresh"), "reading-string"),
        (_cls, _kw(formula="printed"), "formula-string"),
        (_cls, _kw(seed=3), "seed-with-fresh"),
        (_cls, _kw(reading=ProjectionReading.FIXED, seed=-1), "seed-negative"),
    ]
BAD_ARGUMENTS += [
    (TuCompositionProjection, _kw(epsilon=1.0), "thm2-eps-one"),
    (TuCompositionProjection, _kw(epsilon=2.0), "thm2-eps-above-one"),
    (TuDirectProjection, _kw(formula=Theorem1Reading.SPLIT_PRINTED.value), "thm1-formula-value"),
]

_good = np.full((2, 4), 0.25)
_row_too_long = _good.copy()
_row_too_long[1] = [1.0, 0.5, 0.0, 0.0]  # norm 1.118 > B = 1
_nan = _good.copy()
_nan[0, 0] = math.nan
_small = dict(epsilon=0.5, delta=1e-5, dimension=4, projection_dim=2)

#: (mechanism factory, good data, bad data, reason): sample(bad) and log_density(., bad) must raise.
BAD_DATA = []
for _name, _make in (
    ("thm1-fresh", lambda: TuDirectProjection(**_small)),
    ("thm1-fixed", lambda: TuDirectProjection(**_small, reading=ProjectionReading.FIXED, seed=1)),
    ("thm2-fresh", lambda: TuCompositionProjection(**_small)),
    ("thm2-fixed", lambda: TuCompositionProjection(**_small, reading=ProjectionReading.FIXED, seed=1)),
):
    BAD_DATA += [
        (_make, _good, _row_too_long, f"{_name}-row-norm-above-B"),
        (_make, _good, _nan, f"{_name}-nan-entry"),
        (_make, _good, np.full((2, 3), 0.25), f"{_name}-wrong-d"),
        (_make, _good, np.full(4, 0.25), f"{_name}-1d-data"),
    ]
