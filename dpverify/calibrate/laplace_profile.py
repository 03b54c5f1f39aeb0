"""Exact privacy profile of the scalar Laplace mechanism and its minimal scale.

For f(x) + Lap(0, b) with sensitivity Delta (``lecture21-dp/lemma-1``), the pair f(x) = 0,
f(x') = Delta is the worst case and the privacy loss at output y is
L(y) = (|y - Delta| - |y|)/b: Delta/b for y <= 0, (Delta - 2y)/b on [0, Delta], -Delta/b above.
For 0 <= eps < Delta/b the event {L > eps} is {y < t}, t = (Delta - eps b)/2 in (0, Delta], and

    delta(eps) = P_0(Y < t) - e^eps P_Delta(Y < t)
               = (1 - e^{-t/b}/2) - e^eps e^{(t - Delta)/b}/2
               = 1 - exp((eps - Delta/b)/2),

(both exponents equal (eps - Delta/b)/2), and delta(eps) = 0 for eps >= Delta/b. The profile is
symmetric in the two directions. Hence the minimal scale for an (eps, delta) target is

    b* = Delta / (eps - 2 log(1 - delta))          (= Delta/eps for delta = 0).

The tests check the profile against numerical integration of the densities (mpmath.quad).
"""
from __future__ import annotations

import math
from fractions import Fraction

import mpmath

from ._numeric import round_up
from ..errors import NumericalError

__all__ = ["delta_mp", "certified_delta", "minimal_scale"]

CERT_DPS = 50


def delta_mp(epsilon, scale, sensitivity=1.0, dps: int = CERT_DPS):
    """(delta(eps), error bound) of the Laplace mechanism at ``dps`` digits (mpmath numbers)."""
    # eps >= Delta/b decided exactly on the binary inputs (rationals), not at working precision
    if Fraction(epsilon) * Fraction(scale) >= Fraction(sensitivity):
        return mpmath.mpf(0), mpmath.mpf(0)
    with mpmath.workdps(dps + 10):
        eps = mpmath.mpf(epsilon)
        q = mpmath.mpf(sensitivity) / mpmath.mpf(scale)
        d = -mpmath.expm1((eps - q) / 2)
        return d, abs(d) * mpmath.mpf(10) ** (2 - dps)


def certified_delta(epsilon: float, scale: float, sensitivity: float = 1.0) -> tuple[float, float]:
    """(upper bound on delta(eps), tolerance) as floats rounded up."""
    d, err = delta_mp(epsilon, scale, sensitivity)
    up, tol = round_up(d + err), round_up(err)
    return up, tol


def minimal_scale(epsilon: float, delta: float, sensitivity: float = 1.0) -> tuple[float, float, float, int]:
    """(scale, achieved_delta_upper, tolerance, nudges): the closed form, certified at 50 digits.

    The float b = Delta / (eps - 2 log1p(-delta)) is re-checked with mpmath and moved up by ulps
    until the certified delta(eps) is <= delta (for delta = 0: until eps >= Delta/b exactly).
    """
    base = sensitivity / (epsilon - 2 * math.log1p(-delta))
    b = base
    for nudges in range(64):
        achieved, tol = certified_delta(epsilon, b, sensitivity)
        if achieved <= delta:
            return b, achieved, tol, nudges
        b = math.nextafter(b, math.inf)
    raise NumericalError(
        f"could not certify a Laplace scale for epsilon={epsilon!r}, delta={delta!r}, "
        f"sensitivity={sensitivity!r} within 64 ulps of {base!r}."
    )
