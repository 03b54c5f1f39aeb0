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
