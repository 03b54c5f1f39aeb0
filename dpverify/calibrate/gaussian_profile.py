"""Exact privacy profile of the Gaussian mechanism and its minimal sigma.

Balle & Wang (2018), "Improving the Gaussian mechanism", Theorem 8: the mechanism
f(x) + N(0, sigma^2 I) with l2 sensitivity Delta is (eps, delta)-DP iff

    delta >= Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta).

Float evaluation is in log space (``scipy.special.log_ndtr`` and a log-subtraction), never
Phi = (1 + erf)/2. The certificate is a 50-digit mpmath evaluation (with ``erfc``) plus an
explicit error bound.
"""
from __future__ import annotations

import math

import mpmath
import numpy as np
from scipy import optimize, special

from ._numeric import round_up
from ..errors import NumericalError

__all__ = [
    "log_delta",
    "delta_float",
    "delta_mp",
    "certified_delta",
    "minimal_sigma",
    "CERT_DPS",
    "minimal_sigma_bisection_mp",
]

#: Working precision (decimal digits) of the certificate.
CERT_DPS = 50

#: Largest relative upward nudge tried before giving up (the root is normally certified with
#: a nudge of a few ulps).
_MAX_NUDGE = 1e-9


def log_delta(epsilon: float, ratio: float) -> float:
    """log delta(eps) of the Gaussian mechanism with sigma/Delta = ``ratio`` (float64, log space).

    log delta = a + log(-expm1(b - a)), a = log Phi(x), b = eps + log Phi(y),
    x = 1/(2 r) - eps r, y = -1/(2 r) - eps r. Returns -inf when delta underflows or rounds
    to 0 (b >= a in floating point).
    """
    x = 0.5 / ratio - epsilon * ratio
    y = -0.5 / ratio - epsilon * ratio
    a = float(special.log_ndtr(x))
    b = epsilon + float(special.log_ndtr(y))
    d = b - a
    if not d < 0:
        return -math.inf
    return a + math.log(-math.expm1(d))


def delta_float(epsilon: float, sigma: float, sensitivity: float = 1.0) -> float:
    """delta(eps) of the Gaussian mechanism in float64 (log space); not a certificate."""
    return math.exp(log_delta(epsilon, sigma / sensitivity))


def _phi_mp(x):
    # Phi(x) = erfc(-x / sqrt 2) / 2: accurate in both tails (no 1 + erf cancellation).
    return mpmath.erfc(-x / mpmath.sqrt(2)) / 2


def delta_mp(epsilon, sigma, sensitivity=1.0, dps: int = CERT_DPS):
    """(delta, error_bound) at ``dps`` digits as mpmath numbers, from the exact binary inputs.

    The error bound covers the evaluation: each of Phi(x), e^eps Phi(y) is computed to a relative
    error below 10^(2-dps) times the condition number (1 + x^2) of Phi at its argument (the
    arguments themselves carry a relative error of a few units in 10^-dps); the subtraction
    adds the absolute errors.
    """
    with mpmath.workdps(dps + 10):
        eps = mpmath.mpf(epsilon)
        r = mpmath.mpf(sigma) / mpmath.mpf(sensitivity)
        x = 1 / (2 * r) - eps * r
        y = -1 / (2 * r) - eps * r
        t1 = _phi_mp(x)
        t2 = mpmath.exp(eps) * _phi_mp(y)
        d = t1 - t2
        err = (t1 + t2) * (10 + x * x + y * y) * mpmath.mpf(10) ** (2 - dps)
        return d, err


def certified_delta(epsilon: float, sigma: float, sensitivity: float = 1.0) -> tuple[float, float]:
    """(upper bound on delta(eps), tolerance) as floats, rounded up; the bound includes the error."""
    d, err = delta_mp(epsilon, sigma, sensitivity)
    up, tol = round_up(d + err), round_up(err)
    return max(up, 0.0), tol


def _bracket(f, u0: float) -> tuple[float, float]:
    """[lo, hi] in u = log(sigma/Delta) with f(lo) > 0 > f(hi); f decreasing."""
    lo = hi = u0
    step = 1.0
    for _ in range(200):
        if f(lo) > 0:
            break
        lo -= step
        step *= 2
    else:  # pragma: no cover - delta -> 1 as sigma -> 0, so this cannot happen for delta < 1
        raise NumericalError(f"could not bracket the Gaussian root from below (u0={u0}).")
    step = 1.0
    for _ in range(200):
        if f(hi) < 0:
            break
        hi += step
        step *= 2
    else:  # pragma: no cover
        raise NumericalError(f"could not bracket the Gaussian root from above (u0={u0}).")
    return lo, hi


def minimal_sigma(epsilon: float, delta: float, sensitivity: float = 1.0) -> tuple[float, float, float, int]:
    """The smallest float sigma (up to a few ulps) with delta_true(eps) <= delta, certified.

    Returns ``(sigma, achieved_delta_upper, tolerance, nudges)``; ``nudges == -1`` means the float
    root could not be certified and a 50-digit bisection (rounded up to a float, certified) was used. Steps: brentq on
    u -> log delta(e^u) - log delta in u = log(sigma/Delta) (well conditioned: both sides
    logarithmic), then the 50-digit re-check of sigma = e^u Delta (the float actually returned),
    nudged upward by growing relative steps until the certified upper bound is <= delta.
    When no sigma within a relative 1e-9 of the float root can be certified, falls back to the
    50-digit bisection; raises NumericalError if that cannot be certified either.
    Arguments are assumed validated (eps > 0 finite, 0 < delta < 1, Delta > 0 finite).
    """
    log_target = math.log(delta)

    def f(u: float) -> float:
        v = log_delta(epsilon, math.exp(u))
        return (v if v > -1e300 else -1e300) - log_target

    u0 = math.log(math.sqrt(2 * math.log(1.25 / delta)) / epsilon)
    lo, hi = _bracket(f, u0)
    u = optimize.brentq(f, lo, hi, xtol=1e-15, rtol=4 * np.finfo(float).eps, maxiter=200)
    base = math.exp(u) * sensitivity
    if not (math.isfinite(base) and base > 0):
        raise NumericalError(
            f"the Gaussian root for epsilon={epsilon!r}, delta={delta!r}, sensitivity={sensitivity!r} "
            f"is not a positive finite float (sigma={base!r})."
        )
    sigma = base
    nudges = 0
    step = 0.0
    while True:
        achieved, tol = certified_delta(epsilon, sigma, sensitivity)
        if achieved <= delta:
            return sigma, achieved, tol, nudges
        nudges += 1
        step = 4 * np.finfo(float).eps if step == 0 else step * 4
        if step > _MAX_NUDGE:
            # the float root is off (float64 cannot resolve the profile here): fall back to a
            # 50-digit bisection, rounded up to a float, and certify that instead
            fallback = _fallback(epsilon, delta, sensitivity)
            if fallback is not None:
                return fallback[0], fallback[1], fallback[2], -1
            raise NumericalError(
                f"could not certify a Gaussian sigma for epsilon={epsilon!r}, delta={delta!r}, "
                f"sensitivity={sensitivity!r}: at sigma={sigma!r} the 50-digit delta is {achieved!r} > {delta!r} "
                f"after relative nudges up to {_MAX_NUDGE}."
            )
        sigma = math.nextafter(base * (1 + step), math.inf)


def _fallback(epsilon: float, delta: float, sensitivity: float):
    star = minimal_sigma_bisection_mp(epsilon, delta, sensitivity, rel=1e-13)
    sigma = float(star)
    for _ in range(64):
        achieved, tol = certified_delta(epsilon, sigma, sensitivity)
        if achieved <= delta:
            return sigma, achieved, tol
        sigma = math.nextafter(sigma, math.inf)
    return None


def minimal_sigma_bisection_mp(epsilon, delta, sensitivity=1.0, rel: float = 1e-14, dps: int = CERT_DPS):
    """The exact minimal sigma by mpmath bisection at ``dps`` digits (slow; a reference for tests).

    Independent of :func:`minimal_sigma`: its own bracket (doubling from Delta/eps), plain
    bisection on the 50-digit profile, no float arithmetic. Returns an mpf within a relative
    ``rel`` of the minimum.
    """
    with mpmath.workdps(dps):
        target = mpmath.mpf(delta)

        def over(s):  # delta(s) > target
            d, _ = delta_mp(epsilon, s, sensitivity, dps=dps)
            return d > target

        s = mpmath.mpf(sensitivity) / mpmath.mpf(epsilon)
        lo, hi = s, s
        while over(hi) is True and hi < mpmath.mpf(10) ** 30:
            hi *= 2
        while over(lo) is False and lo > mpmath.mpf(10) ** -30:
            lo /= 2
        while hi / lo - 1 > rel:
            mid = mpmath.sqrt(lo * hi)
            if over(mid):
                lo = mid
            else:
                hi = mid
        return hi
