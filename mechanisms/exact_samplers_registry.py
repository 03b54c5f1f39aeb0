"""Registry entries of the exact-arithmetic samplers (CKS 2020 discrete Laplace and Gaussian,
Mironov's snapping mechanism): safe counterparts of the textbook floating-point Laplace."""
from __future__ import annotations

from dpverify.registry import RegistryEntry

from .canonne_discrete import DiscreteGaussianCKS, DiscreteLaplaceCKS
from .mironov_snapping import SnappingMechanism

REGISTRY = [
    RegistryEntry(name="discrete-laplace-cks", paper="cks-discrete/algorithm-2",
                  factory=lambda: DiscreteLaplaceCKS(1.0), pairs=lambda: [(0, 1)], samples=200_000,
                  parameters="eps=1, sensitivity 1", description="f(D) + discrete Laplace by exact sampling"),
    RegistryEntry(name="discrete-gaussian-cks", paper="cks-discrete/algorithm-3",
                  factory=lambda: DiscreteGaussianCKS(4.0, 1.0, 0.0073), pairs=lambda: [(0, 1)], samples=200_000,
                  parameters="sigma2=4, eps=1, delta=0.0073 (exact 0.00725)",
                  description="f(D) + discrete Gaussian by exact sampling"),
    RegistryEntry(name="snapping-mironov", paper="mironov-lsb/snapping",
                  factory=lambda: SnappingMechanism(1.0, 64.0), pairs=lambda: [(0.0, 1.0)], samples=200_000,
                  parameters="eps=1, B=64", description="clamped, snapped floating-point Laplace"),
]

_NAN, _INF = float("nan"), float("inf")

#: (class, keyword arguments, id): each must raise InvalidArgument (tests/mechanisms/test_conformance.py).
BAD_ARGUMENTS = [
    (DiscreteLaplaceCKS, dict(epsilon=0.0), "dlap-eps-zero"),
    (DiscreteLaplaceCKS, dict(epsilon=_NAN), "dlap-eps-nan"),
    (DiscreteLaplaceCKS, dict(epsilon=_INF), "dlap-eps-inf"),
    (DiscreteLaplaceCKS, dict(epsilon=1.0, sensitivity=0), "dlap-sensitivity-zero"),
    (DiscreteLaplaceCKS, dict(epsilon=1.0, sensitivity=1.5), "dlap-sensitivity-fractional"),
    (DiscreteGaussianCKS, dict(sigma2=0.0, epsilon=1.0, delta=0.01), "dgauss-sigma2-zero"),
    (DiscreteGaussianCKS, dict(sigma2=_NAN, epsilon=1.0, delta=0.01), "dgauss-sigma2-nan"),
    (DiscreteGaussianCKS, dict(sigma2=4.0, epsilon=1.0, delta=1e-9), "dgauss-delta-below-exact"),
    (SnappingMechanism, dict(epsilon=0.0, bound=64.0), "snap-eps-zero"),
    (SnappingMechanism, dict(epsilon=1.0, bound=_INF), "snap-bound-inf"),
    (SnappingMechanism, dict(epsilon=1.0, bound=0.5), "snap-bound-below-1-over-eps"),
]

#: (factory, data, data_prime, id): sampling on data_prime must raise InvalidArgument.
BAD_DATA = [
    (lambda: DiscreteLaplaceCKS(1.0), 0, 0.5, "dlap-fractional-data"),
    (lambda: DiscreteLaplaceCKS(1.0), 0, _NAN, "dlap-nan-data"),
    (lambda: DiscreteGaussianCKS(4.0, 1.0, 0.0073), 0, _INF, "dgauss-inf-data"),
    (lambda: SnappingMechanism(1.0, 64.0), 0.0, _NAN, "snap-nan-data"),
]
