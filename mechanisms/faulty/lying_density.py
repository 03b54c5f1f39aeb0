"""A white-box trust adversary (issue 27, item 2): not a black-box control of the registry.

:class:`FarTailLiar` samples a correct Laplace(1) around its data (so the mechanism *is* (1, 0)-DP
on neighbours at distance 1), but its ``log_density`` under data = 1 decays at half the rate beyond
``knee`` scale units: the density lies only in a far tail that pilot draws never reach. A white-box
audit must answer ``inconsistent`` or give no privacy verdict (never ``violated``). Used by
``tests/auditing/whitebox/test_consistency_tail.py`` and ``benchmarks/bench_consistency_trust.py``.
"""
from __future__ import annotations

import math

import numpy as np

from dpverify import PrivacyClaim


class FarTailLiar:
    """Correct Laplace(1) sampler; log_density under data = 1 is too flat beyond ``knee`` scale units."""

    claim = PrivacyClaim(1.0)

    def __init__(self, knee: float = 12.0):
        self.knee = knee

    def sample(self, data, size, rng):
        return float(data) + rng.laplace(0.0, 1.0, size)

    def log_density(self, outputs, data):
        z = np.abs(np.asarray(outputs, dtype=float) - float(data))
        if float(data) == 1.0:
            z = np.where(z > self.knee, self.knee + (z - self.knee) / 2, z)
        return -math.log(2.0) - z
