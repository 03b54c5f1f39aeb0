"""High-precision numerics for the proof checker (internal helpers, documented in docs/proofs.md).

* Gaussian privacy profile (Balle & Wang 2018, Theorem 8), exact, in mpmath and in float log space.
* The privacy profile of the projected Gaussian mechanism with a fresh projection
  (``tu-projections``): the conditional-on-P profile averaged over ``||zP||^2 = ||z||^2 sigma_p^2 chi2_k``,
  with a rigorous monotone upper bound (``projected_profile_upper``).
* Exact optimal composition of k (eps, 0) mechanisms (Kairouz, Oh & Viswanath 2015, Thm 3.3).
* Evaluation of sympy expressions at 50 digits for counterexample re-checks.
"""
from __future__ import annotations

import math
from typing import Mapping

import mpmath
import sympy as sp
from scipy import special

from ..errors import InvalidArgument

__all__ = [
    "DPS",
    "mp_value",
    "gaussian_delta",
    "gaussian_delta_float",
    "chi2_sf",
    "projected_delta",
    "projected_delta_upper",
    "projected_delta_lower",
    "optimal_composition_delta",
    "decimal",
]

#: Working precision (decimal digits) of every re-check.
DPS = 50


def decimal(x, digits: int = 30) -> str:
    """A decimal string of ``x`` (mpf, float, int, sympy number) with ``digits`` significant digits."""
    if isinstance(x, sp.Basic):
        x = sp.N(x, digits + 5)
        return str(sp.Float(x, digits))
    with mpmath.workdps(max(DPS, digits + 5)):
        return mpmath.nstr(mpmath.mpf(x), digits, strip_zeros=True, min_fixed=-5, max_fixed=20)


def mp_value(expr: sp.Expr, values: Mapping, dps: int = DPS) -> mpmath.mpf:
    """``expr`` at ``values`` (symbol or name -> decimal string / number), evaluated at ``dps`` digits.

    Decimal strings are substituted as exact rationals, so the only rounding is sympy's
    evaluation at ``dps + 10`` digits.
    """
    subs = {}
    names = {s.name: s for s in expr.free_symbols}
    for key, val in values.items():
        sym = names.get(key if isinstance(key, str) else key.name)
        if sym is None:
            continue
        subs[sym] = sp.Rational(str(val)) if not isinstance(val, sp.Basic) else val
    missing = [s.name for s in expr.free_symbols if s not in subs]
    if missing:
        raise InvalidArgument(f"values is missing {sorted(missing)} needed to evaluate {expr}.")
    with mpmath.workdps(dps + 10):
        val = sp.N(expr.subs(subs), dps + 10)
        if not val.is_real:
            re, im = val.as_real_imag()
            if abs(sp.N(im, dps)) > 0:
                return mpmath.mpc(str(sp.N(re, dps + 10)), str(sp.N(im, dps + 10)))
        return mpmath.mpf(str(val))


def gaussian_delta(epsilon, sensitivity, sigma, dps: int = DPS) -> mpmath.mpf:
    """Exact delta(eps) of the Gaussian mechanism N(f(D), sigma^2 I) with l2 sensitivity ``sensitivity``.

    Balle & Wang (2018), Theorem 8: delta = Phi(D/(2s) - eps s/D) - e^eps Phi(-D/(2s) - eps s/D),
    evaluated at ``dps`` digits (mpmath; no float cancellation).
    """
    with mpmath.workdps(dps + 10):
        eps, d, s = mpmath.mpf(epsilon), mpmath.mpf(sensitivity), mpmath.mpf(sigma)
        if d == 0:
            return mpmath.mpf(0)
        a = d / (2 * s) - eps * s / d
        b = -d / (2 * s) - eps * s / d
        val = mpmath.ncdf(a) - mpmath.exp(eps) * mpmath.ncdf(b)
        return +val


def gaussian_delta_float(epsilon: float, sensitivity: float, sigma: float) -> float:
    """The same profile in float64 log space: log_ndtr(a) + log1p(-exp(eps + log_ndtr(b) - log_ndtr(a)))."""
    if sensitivity == 0:
        return 0.0
    a = sensitivity / (2 * sigma) - epsilon * sigma / sensitivity
    b = -sensitivity / (2 * sigma) - epsilon * sigma / sensitivity
    la, lb = special.log_ndtr(a), special.log_ndtr(b)
    r = epsilon + lb - la
    if r >= 0:
        return 0.0
    return math.exp(la + math.log1p(-math.exp(r)))


def chi2_sf(k, t, dps: int = DPS) -> mpmath.mpf:
    """P(chi2_k >= t) = Gamma(k/2, t/2) / Gamma(k/2) (regularised upper incomplete gamma), at ``dps`` digits."""
    with mpmath.workdps(dps + 10):
        if t <= 0:
            return mpmath.mpf(1)
        return mpmath.gammainc(mpmath.mpf(k) / 2, mpmath.mpf(t) / 2, mpmath.inf, regularized=True)


def projected_delta(epsilon, k: int, sigma, scale=1, dps: int = 30) -> mpmath.mpf:
    """delta(eps) of (P, XP + G), P with i.i.d. N(0, sigma_p^2) entries released, rows differing by z.

    Conditional on P the output is a Gaussian mechanism with sensitivity ||zP|| = scale * sqrt(U),
    U ~ chi2_k, ``scale = ||z|| sigma_p``; the joint profile is E_U[gaussian_delta(eps, scale sqrt(U), sigma)].
    Computed by mpmath quadrature at ``dps`` digits (an estimate; see ``projected_delta_upper``
    for a rigorous upper bound).
    """
    with mpmath.workdps(dps):
        kk = mpmath.mpf(k)
        logc = -(kk / 2) * mpmath.log(2) - mpmath.loggamma(kk / 2)

        def integrand(u):
            if u <= 0:
                return mpmath.mpf(0)
            dens = mpmath.exp(logc + (kk / 2 - 1) * mpmath.log(u) - u / 2)
            return gaussian_delta(epsilon, scale * mpmath.sqrt(u), sigma, dps=dps) * dens

        pts = [0, kk / 4, kk, kk + 4 * mpmath.sqrt(2 * kk), kk + 12 * mpmath.sqrt(2 * kk) + 40, mpmath.inf]
        return mpmath.quad(integrand, pts)


def projected_delta_upper(epsilon, k: int, sigma, scale=1, cells: int = 400, dps: int = 30) -> mpmath.mpf:
    """A rigorous upper bound on ``projected_delta``.

    g(u) = gaussian_delta(eps, scale sqrt(u), sigma) is nondecreasing in u (``std/gaussian-profile-
    monotone-sensitivity``), so E[g(U)] <= sum_j g(u_{j+1}) P(u_j <= U < u_{j+1}) + P(U >= u_max),
    with chi-square probabilities from the regularised incomplete gamma at ``dps`` digits (the
    rounding error is below 10^-(dps-5), far under the margins compared).
    """
    with mpmath.workdps(dps):
        kk = mpmath.mpf(k)
        u_max = kk + 30 * mpmath.sqrt(2 * kk) + 200
        # finer cells where the chi2 mass is
        grid = [u_max * (mpmath.mpf(j) / cells) ** 2 for j in range(cells + 1)]
        total = mpmath.mpf(0)
        prev_sf = mpmath.mpf(1)
        for j in range(1, len(grid)):
            sf = chi2_sf(k, grid[j], dps=dps)
            mass = prev_sf - sf
            total += gaussian_delta(epsilon, scale * mpmath.sqrt(grid[j]), sigma, dps=dps) * mass
            prev_sf = sf
        return total + prev_sf  # + P(U >= u_max) * 1


def optimal_composition_delta(epsilon_total, epsilon, k: int, dps: int = DPS) -> mpmath.mpf:
    """Smallest delta such that every k-fold composition of (eps, 0)-DP mechanisms is (eps_total, delta)-DP.

    Kairouz, Oh & Viswanath (2015), Theorem 3.3 (the worst case is k-fold randomized response):
    delta = sum_l C(k,l) (e^{eps (k-l)} - e^{eps_total} e^{eps l})_+ / (1 + e^eps)^k.
    """
    with mpmath.workdps(dps + 10):
        e, et = mpmath.mpf(epsilon), mpmath.mpf(epsilon_total)
        total = mpmath.mpf(0)
        for ell in range(k + 1):
            # the term is positive iff eps (k - l) > eps_total + eps l (exp increases): the others are 0 and are not
            # evaluated (exp of a huge eps_total, e.g. at eps = 100, would take mpmath minutes)
            if not e * (k - ell) > et + e * ell:
                continue
            term = mpmath.exp(e * (k - ell)) - mpmath.exp(et + e * ell)
            if term > 0:
                total += mpmath.binomial(k, ell) * term
        return total / (1 + mpmath.exp(e)) ** k


def projected_delta_lower(epsilon, k: int, sigma, scale=1, cells: int = 400, dps: int = 30) -> mpmath.mpf:
    """A rigorous lower bound on ``projected_delta``: sum_j g(u_j) P(u_j <= U < u_{j+1}) with g nondecreasing."""
    with mpmath.workdps(dps):
        kk = mpmath.mpf(k)
        u_max = kk + 30 * mpmath.sqrt(2 * kk) + 200
        grid = [u_max * (mpmath.mpf(j) / cells) ** 2 for j in range(cells + 1)]
        total = mpmath.mpf(0)
        prev_sf = mpmath.mpf(1)
        for j in range(1, len(grid)):
            sf = chi2_sf(k, grid[j], dps=dps)
            total += gaussian_delta(epsilon, scale * mpmath.sqrt(grid[j - 1]), sigma, dps=dps) * (prev_sf - sf)
            prev_sf = sf
        return total
