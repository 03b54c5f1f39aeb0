"""The snapping mechanism: Laplace noise in floating point made safe by clamping and rounding.

Reference: I. Mironov, *On Significance of the Least Significant Bits for Differential Privacy*,
CCS 2012 (paper key ``mironov-lsb``), Section 5.2. With sensitivity 1, noise parameter
``lam = 1/eps`` and bound ``B``:

    snap(f(D)) = clamp_B( round_L( clamp_B(f(D)) + S * lam * LN(U*) ) ),

where ``U*`` is uniform on the doubles of (0, 1) (each double with probability its share of the
interval, i.e. a 53-bit mantissa and a geometric exponent, not a multiple of 2^-53), ``S`` a
uniform sign, ``LN`` the floating-point natural logarithm, ``L`` the smallest power of two
>= ``lam``, ``round_L`` rounding to the nearest multiple of L, and ``clamp_B`` clamping to
[-B, B]. Mironov's Theorem 1: for ``lam < B < 2^46 lam`` the output is
``(1 + 12 B eta) / lam``-DP, with eta = 2^-53 the machine epsilon of the logarithm's rounding
(as we read the theorem: the ``1/lam`` of the ideal Laplace plus a ``12 B eta / lam`` term for the
rounding of LN). The claim is that epsilon.

:class:`SnappingMechanism` is black-box (no ``log_density``).
"""
from __future__ import annotations

import math

import numpy as np

from dpverify import InvalidArgument, PrivacyClaim
from dpverify import validation as v

__all__ = ["SnappingMechanism", "uniform_double"]

PAPER = "mironov-lsb"
ETA = 2.0 ** -53


def uniform_double(rng: np.random.Generator, n: int) -> np.ndarray:
    """n draws of U*: uniform on (0, 1) over all doubles (mantissa 53 bits, exponent geometric)."""
    g = rng.geometric(0.5, n) - 1  # P(g = j) = 2^-(j+1): U* in [2^-(j+1), 2^-j)
    m = rng.integers(0, 1 << 52, n, dtype=np.int64)
    u = np.ldexp((m + (1 << 52)).astype(np.float64), -53 - g)
    return np.where(u > 0, u, np.finfo(float).tiny)  # g past the exponent range: probability < 2^-1000


class SnappingMechanism:
    """Mironov's snapping mechanism for a scalar query of sensitivity 1 (see the module docstring)."""

    paper = f"{PAPER}/snapping"

    def __init__(self, epsilon: float, bound: float):
        self.epsilon_ideal = v.positive("epsilon", epsilon)
        self.bound = v.positive("bound", bound)
        self.lam = 1.0 / self.epsilon_ideal
        if not (self.lam < self.bound < 2.0 ** 46 * self.lam):
            raise InvalidArgument(f"bound={bound!r} must satisfy 1/epsilon < bound < 2^46/epsilon "
                                  f"(Mironov 2012, Theorem 1); here 1/epsilon = {self.lam!r}.")
        self.granule = 2.0 ** math.ceil(math.log2(self.lam))
        self.claim = PrivacyClaim((1 + 12 * self.bound * ETA) / self.lam)

    def __repr__(self) -> str:
        return f"SnappingMechanism(epsilon={self.epsilon_ideal!r}, bound={self.bound!r})"

    def sample(self, data, size, rng):
        f = v.real("data", data, fix="Pass the scalar query answer f(D).")
        n = v.integer("size", size, minimum=1)
        rng = v.as_rng(rng)
        sign = np.where(rng.integers(0, 2, n) == 1, 1.0, -1.0)
        x = min(max(f, -self.bound), self.bound) + sign * self.lam * np.log(uniform_double(rng, n))
        snapped = np.round(x / self.granule) * self.granule  # division and product by 2^k are exact
        return np.clip(snapped, -self.bound, self.bound)

    def true_epsilon(self, k: int = 1) -> float:
        return self.claim.epsilon
