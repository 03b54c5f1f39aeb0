"""Registry entries for the ``lecture21-dp`` mechanisms and ``tu-projections`` Lemma 2."""
from __future__ import annotations

import numpy as np

from dpverify.registry import RegistryEntry

from .lecture21_dp import ClassicalGaussian, ScalarLaplace, VectorLaplace
from .tu_projections import KenthapadiGaussian

REGISTRY = [
    RegistryEntry(
        name="laplace-scalar",
        paper="lecture21-dp/lemma-1",
        factory=lambda: ScalarLaplace(epsilon=1.0, sensitivity=1.0),
        pairs=lambda: [(0.0, 1.0)],
        samples=200_000,
        parameters="eps=1, M=1",
        description="f(S) + (M/eps) Laplace(0,1) on f(S)=0 vs 1",
    ),
    RegistryEntry(
        name="laplace-vector",
        paper="lecture21-dp/lemma-2",
        factory=lambda: VectorLaplace(epsilon=1.0, dimension=3, sensitivity=1.0),
        # one-differ and all-differ patterns, both at l1 distance B = 1
        pairs=lambda: [(np.zeros(3), np.array([1.0, 0.0, 0.0])), (np.zeros(3), np.full(3, 1 / 3))],
        samples=200_000,
        parameters="eps=1, K=3, B=1",
        description="F(S) + (B/eps) Laplace^K; one-differ and all-differ pairs",
    ),
    RegistryEntry(
        name="gaussian-classical",
        paper="lecture21-dp/lemma-6",
        factory=lambda: ClassicalGaussian(epsilon=1.0, delta=1e-5, sensitivity=1.0),
        pairs=lambda: [(0.0, 1.0)],
        samples=1_000_000,
        parameters="eps=1, delta=1e-5, B=1",
        description="F(S) + (cB/eps) N(0,1), c = sqrt(2 log(1.25/delta))",
    ),
    RegistryEntry(
        name="gaussian-kenthapadi",
        paper="tu-projections/lemma-2",
        factory=lambda: KenthapadiGaussian(epsilon=1.0, delta=1e-5, sensitivity=1.0),
        pairs=lambda: [(0.0, 1.0)],
        samples=1_000_000,
        parameters="eps=1, delta=1e-5, Delta=1",
        description="f(D) + N(0, 2 Delta^2 (log(1/(2 delta)) + eps)/eps^2)",
    ),
]

# Tables of the conformance suite (tests/mechanisms/test_conformance.py).
_NAN, _INF = float("nan"), float("inf")

#: (factory, kwargs, reason): ``factory(**kwargs)`` must raise InvalidArgument.
BAD_ARGUMENTS = [
    (ScalarLaplace, dict(epsilon=0.0), "scalar-eps-zero"),
    (ScalarLaplace, dict(epsilon=-1.0), "scalar-eps-negative"),
    (ScalarLaplace, dict(epsilon=_NAN), "scalar-eps-nan"),
    (ScalarLaplace, dict(epsilon=_INF), "scalar-eps-inf"),
    (ScalarLaplace, dict(epsilon=1.0, sensitivity=0.0), "scalar-sensitivity-zero"),
    (ScalarLaplace, dict(epsilon=1.0, query="sum"), "scalar-query-not-callable"),
    (VectorLaplace, dict(epsilon=1.0, dimension=0), "vector-dimension-zero"),
    (VectorLaplace, dict(epsilon=1.0, dimension=2.5), "vector-dimension-fractional"),
    (VectorLaplace, dict(epsilon=_NAN, dimension=3), "vector-eps-nan"),
    (VectorLaplace, dict(epsilon=1.0, dimension=3, sensitivity=_INF), "vector-sensitivity-inf"),
    (ClassicalGaussian, dict(epsilon=0.0, delta=1e-5), "classical-eps-zero"),
    (ClassicalGaussian, dict(epsilon=_INF, delta=1e-5), "classical-eps-inf"),
    (ClassicalGaussian, dict(epsilon=1.0, delta=0.0), "classical-delta-zero"),
    (ClassicalGaussian, dict(epsilon=1.0, delta=1.0), "classical-delta-one"),
    (ClassicalGaussian, dict(epsilon=1.0, delta=_NAN), "classical-delta-nan"),
    (ClassicalGaussian, dict(epsilon=1.0, delta=1e-5, sensitivity=-1.0), "classical-sensitivity-negative"),
    (KenthapadiGaussian, dict(epsilon=0.0, delta=1e-5), "kenthapadi-eps-zero"),
    (KenthapadiGaussian, dict(epsilon=_NAN, delta=1e-5), "kenthapadi-eps-nan"),
    (KenthapadiGaussian, dict(epsilon=1.0, delta=0.5), "kenthapadi-delta-half"),
    (KenthapadiGaussian, dict(epsilon=1.0, delta=0.0), "kenthapadi-delta-zero"),
    (KenthapadiGaussian, dict(epsilon=1.0, delta=_NAN), "kenthapadi-delta-nan"),
    (KenthapadiGaussian, dict(epsilon=1.0, delta=1e-5, sensitivity=0.0), "kenthapadi-sensitivity-zero"),
]

#: (mechanism factory, good data, bad data, reason): sample(bad) and log_density(., bad) must raise.
#: These mechanisms take the query answer itself, with no norm bound: only non-finite entries and
#: wrong shapes are bad data.
BAD_DATA = [
    (lambda: ScalarLaplace(1.0), 0.0, _NAN, "scalar-nan"),
    (lambda: ScalarLaplace(1.0), 0.0, np.zeros(2), "scalar-vector-data"),
    (lambda: VectorLaplace(1.0, 3), np.zeros(3), np.array([0.0, _INF, 0.0]), "vector-inf"),
    (lambda: VectorLaplace(1.0, 3), np.zeros(3), np.zeros(4), "vector-wrong-length"),
    (lambda: ClassicalGaussian(1.0, 1e-5), 0.0, _NAN, "classical-nan"),
    (lambda: KenthapadiGaussian(1.0, 1e-5), np.zeros(2), np.array([_INF, 0.0]), "kenthapadi-inf"),
]
