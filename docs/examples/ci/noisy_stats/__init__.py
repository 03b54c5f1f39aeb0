"""noisy_stats: a tiny library that releases a differentially private mean.

This is the example project of dpverify's docs/testing.md: one mechanism, and a privacy
regression test in tests/test_privacy.py that fails if a change breaks the privacy claim.
"""
from __future__ import annotations

import math

import numpy as np

from dpverify import PrivacyClaim

__all__ = ["NoisyMean"]


class NoisyMean:
    """The mean of ``n`` values in [0, 1] plus Laplace noise of scale 1 / (n epsilon).

    Replacing one value moves the mean by at most 1/n (the sensitivity), so the release is
    (epsilon, 0)-DP for replace-one neighbours (the Laplace mechanism).
    """

    def __init__(self, epsilon: float, n: int):
        if not (epsilon > 0 and math.isfinite(epsilon)):
            raise ValueError(f"epsilon={epsilon!r} must be a finite number > 0.")
        if not (isinstance(n, int) and n >= 1):
            raise ValueError(f"n={n!r} must be an integer >= 1.")
        self.epsilon, self.n = float(epsilon), n
        self.scale = 1.0 / (n * self.epsilon)
        self.claim = PrivacyClaim(self.epsilon)

    def _mean(self, data) -> float:
        x = np.asarray(data, dtype=float)
        if x.shape != (self.n,) or not np.all((x >= 0) & (x <= 1)):
            raise ValueError(f"data must be {self.n} values in [0, 1]; got {x!r}. Values are never clipped.")
        return float(x.mean())

    def release(self, data, rng=None) -> float:
        """One private mean of ``data``."""
        return float(self.sample(data, 1, np.random.default_rng(rng))[0])

    # The dpverify mechanism protocol: sample (and, for a white-box audit, log_density).
    def sample(self, data, size, rng):
        return self._mean(data) + rng.laplace(0.0, self.scale, size=size)

    def log_density(self, outputs, data):
        return -math.log(2 * self.scale) - np.abs(np.asarray(outputs, dtype=float) - self._mean(data)) / self.scale

    def __repr__(self) -> str:
        return f"NoisyMean(epsilon={self.epsilon!r}, n={self.n!r})"
