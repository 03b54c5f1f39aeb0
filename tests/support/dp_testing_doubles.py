"""Test doubles for the privacy-testing tests: mechanisms whose claims are exactly tight (the
hardest case for false alarms) and one with a halved noise scale (the regression to catch).

Not shipped mechanisms: they live in tests/ only.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np

from dpverify import PrivacyClaim
from dpverify_mechanisms.lecture21_dp import ScalarLaplace, VectorLaplace

LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


def _round_up(x: mpmath.mpf) -> float:
    """A float >= x (x computed at 50 digits)."""
    f = float(x)
    while mpmath.mpf(f) < x:
        f = math.nextafter(f, math.inf)
    return f


def exact_gaussian_delta(epsilon: float, sigma: float, sensitivity: float = 1.0) -> float:
    """delta(eps) of the Gaussian mechanism, exactly (Balle & Wang 2018, Theorem 8), rounded up:
    Phi(D/(2s) - eps s/D) - e^eps Phi(-D/(2s) - eps s/D)."""
    with mpmath.workdps(50):
        e, s, d = mpmath.mpf(epsilon), mpmath.mpf(sigma), mpmath.mpf(sensitivity)
        x = mpmath.ncdf(d / (2 * s) - e * s / d) - mpmath.exp(e) * mpmath.ncdf(-d / (2 * s) - e * s / d)
        return _round_up(x)


class TightGaussian:
    """x + N(0, sigma^2) on a scalar x, claiming exactly its delta(eps) for |x - x'| <= 1."""

    def __init__(self, epsilon: float, sigma: float):
        self.sigma = sigma
        self.claim = PrivacyClaim(epsilon, exact_gaussian_delta(epsilon, sigma))

    def sample(self, data, size, rng):
        return float(data) + self.sigma * rng.standard_normal(size)

    def log_density(self, outputs, data):
        z = (np.asarray(outputs, dtype=float) - float(data)) / self.sigma
        return -0.5 * z * z - math.log(self.sigma) - LOG_SQRT_2PI

    def __repr__(self):
        return f"TightGaussian(epsilon={self.claim.epsilon!r}, sigma={self.sigma!r})"


class GaussianSum(TightGaussian):
    """sum(x) + N(0, sigma^2) for records x_i in [0, 1] (replace-one sensitivity 1)."""

    def sample(self, data, size, rng):
        return super().sample(float(np.sum(data)), size, rng)

    def log_density(self, outputs, data):
        return super().log_density(outputs, float(np.sum(data)))

    def __repr__(self):
        return f"GaussianSum(epsilon={self.claim.epsilon!r}, sigma={self.sigma!r})"


class RandomisedResponse:
    """Reports the bit with probability p, its flip otherwise; claims eps = log(p / (1 - p)) exactly
    (rounded up)."""

    def __init__(self, p: float):
        self.p = p
        with mpmath.workdps(50):
            eps = _round_up(mpmath.log(mpmath.mpf(p) / (1 - mpmath.mpf(p))))
        self.claim = PrivacyClaim(eps, 0.0)

    def sample(self, data, size, rng):
        keep = rng.random(size) < self.p
        return np.where(keep, int(data), 1 - int(data))

    def log_density(self, outputs, data):
        return np.where(np.asarray(outputs) == int(data), math.log(self.p), math.log1p(-self.p))

    def __repr__(self):
        return f"RandomisedResponse(p={self.p!r})"


class HalvedLaplace(ScalarLaplace):
    """The bug a privacy regression test must catch: Laplace noise at HALF the scale M/eps, with
    the claim unchanged (the true epsilon is 2 eps)."""

    def __init__(self, epsilon: float, sensitivity: float = 1.0):
        super().__init__(epsilon, sensitivity)
        self.scale = self.sensitivity / self.epsilon / 2

    def __repr__(self):
        return f"HalvedLaplace(epsilon={self.epsilon!r}, sensitivity={self.sensitivity!r})"


class HalvedVectorLaplace(VectorLaplace):
    """VectorLaplace with half the scale B/eps (claim unchanged)."""

    def __init__(self, epsilon: float, dimension: int, sensitivity: float = 1.0):
        super().__init__(epsilon, dimension, sensitivity)
        self.scale = self.sensitivity / self.epsilon / 2
