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
