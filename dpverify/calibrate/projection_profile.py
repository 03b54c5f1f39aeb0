"""Exact privacy profile of the random projection release XP + G (``tu-projections``).

X, X' differ in row i by z = X_i - X'_i. Conditionally on P the release is a Gaussian mechanism
with sensitivity ||zP|| (only row i of XP - X'P is non-zero), so

* FIXED-P reading (P given, not random): delta_P(eps) is the Gaussian profile with
  Delta = ||zP||; over all ||z|| <= B the worst case is Delta = B s_max(P).
* FRESH-P reading (P drawn with i.i.d. N(0, sigma_p^2) entries, as in the theorems' proofs, which
  spend part of delta on a bad P): ||zP||^2 = ||z||^2 sigma_p^2 W with W ~ chi^2_k, and the
  profile of the pair is the average delta(eps) = E_W[g(t sqrt W)], t = ||z|| sigma_p / sigma,
  g(r) the Gaussian profile at Delta/sigma = r. This is exact when P is released with the output
  and an upper bound when it is not (joint convexity of the hockey-stick divergence). g is
  increasing in r, so the worst pair has ||z|| = B.

The average is bracketed rigorously, without quadrature error: g(t sqrt w) is increasing in w,
so on cells 0 = w_0 < w_1 < ... < w_N < w_{N+1} = inf with chi^2_k probabilities p_j,

    sum_j p_j g(t sqrt w_j)  <=  delta(eps)  <=  sum_j p_j g(t sqrt w_{j+1})     (g(inf) = 1).

The cells are refined where p_j (g_{j+1} - g_j) is largest until the bracket is within a
relative ``rtol``; both sums are monotone in sigma on a fixed grid, so solving each for delta
gives sigma_lo <= sigma* <= sigma_hi. sigma_hi (the returned value) is re-checked at 30 digits
with mpmath (cell probabilities by ``mpmath.gammainc``, g with ``erfc``), outward-rounded.
"""
from __future__ import annotations

import functools
import math

import mpmath
import numpy as np
from scipy import optimize, special

from ._numeric import round_up
from ..errors import NumericalError
from . import gaussian_profile

__all__ = ["fresh_bounds", "fresh_minimal_sigma", "fresh_delta_certified"]

_MP_DPS = 30
_NEGLIGIBLE = 1e-280


def _g(epsilon: float, r: np.ndarray) -> np.ndarray:
    """Gaussian delta(eps) at Delta/sigma = r (vectorised, log space); g(0) = 0, g(inf) = 1."""
    r = np.asarray(r, dtype=float)
    out = np.zeros_like(r)
    pos = (r > 0) & np.isfinite(r)
    rp = r[pos]
    x = rp / 2 - epsilon / rp
    y = -rp / 2 - epsilon / rp
    a = special.log_ndtr(x)
    b = epsilon + special.log_ndtr(y)
    d = np.minimum(b - a, 0.0)
    with np.errstate(divide="ignore"):
        out[pos] = np.exp(a + np.log(-np.expm1(d)))
    out[np.isinf(r)] = 1.0
    return out


def _cell_probs(k: int, w: np.ndarray) -> np.ndarray:
    """chi^2_k probabilities of [w_j, w_{j+1}] for the edges w (w[0] = 0, last edge = inf)."""
    a = k / 2
    half = w / 2
    lower = special.gammainc(a, half)
    upper = special.gammaincc(a, half)
    # differences of whichever tail is smaller, to avoid cancellation
    p_low = np.diff(lower)
    p_up = -np.diff(upper)
    use_up = lower[:-1] > 0.5
    p = np.where(use_up, p_up, p_low)
    return np.maximum(p, 0.0)


def _initial_grid(k: int, n: int = 400) -> np.ndarray:
    a = k / 2
    w_lo = 2 * special.gammaincinv(a, 1e-40)
    w_hi = 2 * special.gammainccinv(a, 1e-40)
    inner = np.geomspace(max(w_lo, 1e-300), w_hi, n)
    return np.concatenate(([0.0], inner, [np.inf]))


def _sums(epsilon: float, t: float, k: int, w: np.ndarray, p: np.ndarray | None = None):
    if p is None:
        p = _cell_probs(k, w)
    g = _g(epsilon, t * np.sqrt(w))
    lower = float(np.sum(p * g[:-1]))
    upper = float(np.sum(p * g[1:]))
    return lower, upper, p, g


def _refine(epsilon: float, t: float, k: int, w: np.ndarray, rtol: float, max_cells: int = 200_000) -> np.ndarray:
    """Split the cells with the largest gaps until (upper - lower) <= rtol * upper."""
    for _ in range(60):
        lower, upper, p, g = _sums(epsilon, t, k, w)
        gaps = p * (g[1:] - g[:-1])
        total = float(np.sum(gaps))
        if total <= rtol * upper or upper <= _NEGLIGIBLE:
            # (an upper sum below 1e-280 is returned as is: far below any delta of interest; the
            # 30-digit re-check, which does not underflow, still decides the certificate)
            return w
        if len(w) > max_cells:
            break
        order = np.argsort(gaps)[::-1]
        cum = np.cumsum(gaps[order])
        m = int(np.searchsorted(cum, 0.5 * total)) + 1
        split = np.sort(order[: max(m, 1)])
        new = []
        for j in split:
            lo, hi = w[j], w[j + 1]
            if lo == 0.0:
                new.append(hi / 16)
            elif math.isinf(hi):
                new.append(lo * 2)
            else:
                new.append(math.sqrt(lo * hi))
        w = np.unique(np.concatenate((w, new)))
    raise NumericalError(
        f"the random-projection profile bracket did not reach rtol={rtol} with {len(w)} cells "
        f"(epsilon={epsilon!r}, t={t!r}, k={k!r})."
    )


def fresh_bounds(epsilon: float, sigma: float, k: int, norm: float, sigma_p: float, rtol: float = 1e-3):
    """(lower, upper) float bounds on the FRESH-P delta(eps) of XP + N(0, sigma^2) for ||z|| = norm."""
    t = norm * sigma_p / sigma
    w = _refine(epsilon, t, k, _initial_grid(k), rtol)
    lower, upper, _, _ = _sums(epsilon, t, k, w)
    return lower, upper


def _mp_upper(epsilon: float, sigma: float, k: int, c: float, w: np.ndarray) -> tuple[float, float]:
    """30-digit upper sum (outward rounded to float) and the evaluation error bound included.

    Cell probabilities are differences of the regularised incomplete gamma function at the edges,
    of the lower tail P below the median and of the upper tail Q above it (no cancellation of
    1 - P); each tail value carries a relative error below 10^(2 - dps), which the bound adds.
    """
    with mpmath.workdps(_MP_DPS):
        a = mpmath.mpf(k) / 2
        n = len(w)
        median = 2 * float(special.gammaincinv(k / 2, 0.5))
        upper_tail = [bool(x > median) for x in w]
        tails = []
        for x, up in zip(w, upper_tail):
            if math.isinf(x):
                tails.append(mpmath.mpf(0))
            elif x == 0.0:
                tails.append(mpmath.mpf(0) if not up else mpmath.mpf(1))
            elif up:
                tails.append(mpmath.gammainc(a, mpmath.mpf(float(x)) / 2, mpmath.inf, regularized=True))
            else:
                tails.append(mpmath.gammainc(a, 0, mpmath.mpf(float(x)) / 2, regularized=True))
        rel = mpmath.mpf(10) ** (2 - _MP_DPS)
        total = mpmath.mpf(0)
        err = mpmath.mpf(0)
        for j in range(n - 1):
            lo_up, hi_up = upper_tail[j], upper_tail[j + 1]
            t_lo, t_hi = tails[j], tails[j + 1]
            if not lo_up and not hi_up:
                p = t_hi - t_lo
            elif lo_up and hi_up:
                p = t_lo - t_hi
            else:  # the cell containing the median: 1 - P(lo) - Q(hi)
                p = 1 - t_lo - t_hi
            p = max(p, mpmath.mpf(0))
            perr = (abs(t_lo) + abs(t_hi)) * rel
            if math.isinf(w[j + 1]):
                gv, gerr = mpmath.mpf(1), mpmath.mpf(0)
            else:
                gv, gerr = gaussian_profile.delta_mp(epsilon, mpmath.mpf(sigma), mpmath.mpf(c) * mpmath.sqrt(mpmath.mpf(float(w[j + 1]))),
                                              dps=_MP_DPS)
                gv = max(gv, mpmath.mpf(0))
            total += p * gv
            err += p * gerr + perr * (gv + gerr) + abs(p * gv) * rel
        up, tol = round_up(total + err), round_up(err)
        return up, tol


def fresh_delta_certified(epsilon: float, sigma: float, k: int, norm: float, sigma_p: float,
                          rtol: float = 1e-3, target: float | None = None) -> tuple[float, float, float]:
    """(certified upper bound, tolerance, float lower bound) of the FRESH-P delta(eps) at ``sigma``.

    With ``target``, a coarse grid (bracket 0.25) is tried first and used when its upper sum is
    below target/2 (then the certificate is looser but still an upper bound, and cheap).
    """
    c = norm * sigma_p
    t = c / sigma
    w = _refine(epsilon, t, k, _initial_grid(k), rtol)
    lower, _, _, _ = _sums(epsilon, t, k, w)
    wc = None
    if target is not None:
        coarse = _refine(epsilon, t, k, _initial_grid(k), max(0.25, rtol))
        if _sums(epsilon, t, k, coarse)[1] <= target / 2:
            wc = coarse
    if wc is None:
        wc = _refine(epsilon, t, k, _initial_grid(k), 4 * rtol)
    up, tol = _mp_upper(epsilon, sigma, k, c, wc)
    return up, tol, lower


@functools.lru_cache(maxsize=256)
def fresh_minimal_sigma(epsilon: float, delta: float, k: int, norm: float, sigma_p: float,
                        rtol: float = 1e-3):
    """The FRESH-P minimal sigma bracket, certified on the safe side.

    Returns ``(sigma_hi, sigma_lo, achieved_upper, tolerance, cells)``: sigma_lo <= sigma* <=
    sigma_hi, and delta(eps) at sigma_hi is <= achieved_upper <= delta (30-digit re-check).
    """
    c = norm * sigma_p
    # start from the Gaussian minimum at the median projected norm
    s0, _, _, _ = gaussian_profile.minimal_sigma(epsilon, delta, c * math.sqrt(k))
    w = _refine(epsilon, c / s0, k, _initial_grid(k), 0.05)
    log_target = math.log(delta)

    def solve(which: int, w: np.ndarray, guess: float, shrink: float = 1.0) -> float:
        p = _cell_probs(k, w)
        target = log_target + math.log(shrink)

        def f(u: float) -> float:
            s = math.exp(u)
            g = _g(epsilon, (c / s) * np.sqrt(w))
            val = float(np.sum(p * (g[1:] if which == 1 else g[:-1])))
            return (math.log(val) if val > 0 else -1e300) - target

        lo = hi = math.log(guess)
        step = 0.25
        while f(lo) <= 0:
            lo -= step
            step *= 2
        step = 0.25
        while f(hi) >= 0:
            hi += step
            step *= 2
        return math.exp(optimize.brentq(f, lo, hi, xtol=1e-13, rtol=1e-14))

    s1 = solve(1, w, s0)
    w = _refine(epsilon, c / s1, k, w, rtol)
    s_hi = solve(1, w, s1)
    s_lo = solve(0, w, s1)
    # certify at 30 digits on a coarser grid (bracket 4 rtol: about a quarter of the cells; its upper
    # sum is still an upper bound), solved for delta (1 - 1e-9) so that float rounding is absorbed
    wc = _refine(epsilon, c / s_hi, k, _initial_grid(k), 4 * rtol)
    s_hi = solve(1, wc, s_hi, 1 - 1e-9)
    sigma = s_hi
    for attempt in range(40):
        up, tol = _mp_upper(epsilon, sigma, k, c, wc)
        if up <= delta:
            return sigma, s_lo, up, tol, len(wc) - 1
        sigma = sigma * (1 + 1e-9 * 4 ** attempt)
    raise NumericalError(
        f"could not certify a random-projection sigma for epsilon={epsilon!r}, delta={delta!r}, k={k!r}."
    )
