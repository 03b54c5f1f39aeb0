"""Discretised privacy-loss distributions with a certified floating-point error (internal).

A :class:`LossPMF` holds P-masses ``probs[j]`` at the losses ``(offset + j) * h`` plus a mass
``inf_mass`` at ``+inf``, and ``error``: a bound on the L1 distance between ``probs`` and the
vector that exact arithmetic would have produced by the same pipeline. Its hockey-stick value

    delta(eps) = inf_mass + sum_j probs[j] * (1 - exp(eps - l_j))_+            (H)

is monotone in every mass and every loss, and each weight lies in [0, 1], so

    delta_exact_pipeline(eps) <= delta_computed(eps) + error + (summation round-off).   (R)

See :mod:`dpverify.accounting.pld` for why the exact pipeline upper-bounds the true profile.

**FFT round-off.** A convolution ``z = x * y`` computed as ``irfft(rfft(x) rfft(y))`` has, by
the Cooley--Tukey error analysis (Higham, *Accuracy and Stability of Numerical Algorithms*,
2nd ed., Thm 24.2: ``||fl(Fx) - Fx||_2 <= a ||Fx||_2`` with ``a = L eta / (1 - L eta)``,
``L = ceil(log2 N)``, ``eta = mu + gamma_4 (sqrt 2 + mu)``, twiddle error ``mu``), and with
``||X||_inf <= ||x||_1``, ``||x * y||_2 <= ||x||_2 ||y||_1`` and complex products accurate to
``3u``::

    E_W  = ||W~ - W||_2 / sqrt(N) <= (1 + 3u) (a A + a^2 sqrt(N) B) + 3u ||x||_2 ||y||_1
    ||z~ - z||_2 <= E_W + (a + u) (||x||_2 ||y||_1 + E_W),
    A = ||x||_2 ||y||_1 + ||x||_1 ||y||_2,   B = ||x||_2 ||y||_2,

and ``||z~ - z||_1 <= sqrt(M) ||z~ - z||_2`` over the ``M`` entries kept. **Assumption**: we
take ``mu = u`` (pocketfft computes its twiddles accurately) and multiply ``a`` by 2 to cover the
radix-4 and real-input passes of pocketfft (the analysis above is for radix 2); this is checked
against exact (extended-precision) convolutions in the tests.

**Self-composition** ``x^{*k}`` is ``irfft(rfft(x)^k)`` with the power by binary exponentiation
(``m`` complex products, relative error ``(1 + 3.01u)^m - 1``) and
``|X~^k - X^k| <= k |X~ - X| (||x||_1 + ||X~ - X||)^(k-1)``, in extended precision
(``numpy.longdouble``) when the float64 bound would exceed 1e-12. The window of the circular
result is chosen by a Chernoff bound ``P(S >= t) <= M(lam)^k e^{-lam t}`` so that at most
``tail_mass`` lies beyond each end; wrap-around could move that mass down or out of the
window, so ``2 tail_mass`` is added to the mass at +inf. Input errors propagate as ``err(x * y) <= err_x |y|_1 + err_y |x|_1 + err_x err_y``
(convolution with a sub-probability vector does not expand L1 distances). Negative entries
produced by round-off are set to zero, which can only reduce the distance to the exact
(non-negative) vector.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import scipy.fft

from ..errors import NumericalError

U = 2.0 ** -53  # unit round-off of float64
_DIRECT_LIMIT = 20_000
_TWIDDLE_ERROR = U
_SAFETY = 2.0
_EXT = np.longdouble  # extended precision where the platform has it (x86: 64-bit mantissa)
U_EXT = float(np.finfo(_EXT).eps) / 2
_MAX_FFT = 2 ** 26
_DOUBLE_BUDGET = 1e-12  # largest float64 power-FFT error bound accepted before switching to _EXT  # len(x) * len(y) below which the direct convolution is used


@dataclass(frozen=True, eq=False)
class LossPMF:
    """P-law of a discretised privacy loss: ``probs[j]`` at ``(offset + j) * h``, ``inf_mass``
    at +inf, and ``error`` (L1 bound on the round-off in ``probs``). Immutable by convention:
    the array is never written after construction."""

    h: float
    offset: int
    probs: np.ndarray
    inf_mass: float
    error: float

    @property
    def losses(self) -> np.ndarray:
        return (self.offset + np.arange(self.probs.size)) * self.h

    @property
    def mass(self) -> float:
        """An upper bound on the finite mass of the exact vector."""
        return float(np.sum(self.probs)) * (1 + (math.log2(max(self.probs.size, 2)) + 2) * U) + self.error

    # ------------------------------------------------------------------ composition
    def convolve(self, other: "LossPMF", tail: float) -> "LossPMF":
        if self.h != other.h:
            raise NumericalError(f"cannot compose PMFs on grids h={self.h} and h={other.h}")
        x, y = self.probs, other.probs
        m_out = x.size + y.size - 1
        if x.size * y.size <= _DIRECT_LIMIT:
            z = np.convolve(x, y)
            # each output is a sum of <= min(n, m) non-negative products
            fft_err = (min(x.size, y.size) + 2) * U * float(np.sum(x)) * float(np.sum(y)) * 1.01
        else:
            n = scipy.fft.next_fast_len(m_out, real=True)
            z = scipy.fft.irfft(scipy.fft.rfft(x, n) * scipy.fft.rfft(y, n), n)[:m_out]
            fft_err = _fft_error_l1(x, y, n, m_out)
        np.maximum(z, 0.0, out=z)
        mx, my = self.mass, other.mass
        error = self.error * my + other.error * mx + self.error * other.error + fft_err
        inf_mass = _up(self.inf_mass + other.inf_mass - self.inf_mass * other.inf_mass)
        return LossPMF(self.h, self.offset + other.offset, z, min(inf_mass, 1.0), error).truncated(tail)

    def self_compose(self, count: int, tail: float) -> "LossPMF":
        """The ``count``-fold composition, by exponentiation in the frequency domain in extended
        precision (see the module docstring for the error bound and the wrap-around argument)."""
        if count == 1:
            return self
        x = self.probs
        n = x.size
        k = int(count)
        r = float(np.sum(x)) * (1 + (math.log2(max(n, 2)) + 2) * U)  # >= ||x||_1
        # window of relative indices [s_lo, s_hi] of the k-fold sum (indices 0 .. k (n-1))
        s_lo, s_hi, above = _chernoff_window(x, self.offset, self.h, k, tail)
        size = s_hi - s_lo + 1
        N = scipy.fft.next_fast_len(max(size, n), real=True)
        if N > _MAX_FFT:
            raise NumericalError(
                f"the {k}-fold composition needs an FFT of length {N} > {_MAX_FFT}; use a coarser "
                "value_discretisation"
            )
        mults = _multiplications(k)
        # float64 when its error bound is already negligible, extended precision otherwise
        err = _power_error_l1(x, N, k, mults, r, U)
        dtype = float
        if err > _DOUBLE_BUDGET:
            dtype = _EXT
            err = _power_error_l1(x, N, k, mults, r, U_EXT)
        xl = np.zeros(N, dtype=dtype)
        xl[:n] = x
        X = scipy.fft.rfft(xl)
        P, _ = _power(X, k)
        y = scipy.fft.irfft(P, N)
        y = np.concatenate([y[s_lo % N:], y[:s_lo % N]])
        out = np.asarray(y[:size], dtype=float)
        np.maximum(out, 0.0, out=out)
        err += U * float(np.sum(out))  # rounding the extended result to float64
        prop = ((r + self.error) ** k - r ** k) if self.error > 0 else 0.0  # input error, k-fold
        inf_mass = -math.expm1(k * math.log1p(-self.inf_mass)) if self.inf_mass < 1 else 1.0
        inf_mass = min(1.0, _up(_up(inf_mass) + above))
        pmf = LossPMF(self.h, k * self.offset + s_lo, out, inf_mass, err + prop)
        return pmf.truncated(tail)

    def truncated(self, tail: float) -> "LossPMF":
        """Send the top ``<= tail`` mass to +inf and lump the bottom ``<= tail`` mass up into the
        lowest kept bin (both only increase (H)); also drop zero bins at the ends."""
        p = self.probs
        if p.size == 0:
            return self
        c_lo = np.cumsum(p)
        c_hi = np.cumsum(p[::-1])
        lo = int(np.searchsorted(c_lo, tail, side="right"))  # bins [0, lo) have mass <= tail
        hi_cut = int(np.searchsorted(c_hi, tail, side="right"))  # top hi_cut bins have mass <= tail
        hi = p.size - hi_cut
        if lo >= hi:  # keep at least one bin
            lo = max(0, min(lo, hi) - 1)
            hi = lo + 1
            hi_cut = p.size - hi
        if lo == 0 and hi_cut == 0:
            return self
        q = p[lo:hi].copy()
        low_mass = float(c_lo[lo - 1]) if lo > 0 else 0.0
        top_mass = float(c_hi[hi_cut - 1]) if hi_cut > 0 else 0.0
        q[0] += low_mass
        n_err = (p.size + 2) * U  # sequential cumsum error bound (relative to the summed mass)
        inf_mass = min(1.0, _up(self.inf_mass + top_mass * (1 + n_err)))
        error = self.error + n_err * low_mass
        return LossPMF(self.h, self.offset + lo, q, inf_mass, error)

    # ------------------------------------------------------------------ queries
    def delta(self, epsilon: float) -> float:
        """An upper bound on (H) for the exact pipeline, including every round-off term."""
        l = self.losses
        mask = l > epsilon
        if not np.any(mask):
            s = 0.0
            lmax = 0.0
        else:
            terms = self.probs[mask] * -np.expm1(epsilon - l[mask])
            s = float(np.sum(terms))
            lmax = float(np.max(np.abs(l[mask])))
        slack = (math.log2(max(l.size, 2)) + 40 + 4 * (abs(epsilon) + lmax + self.h)) * U * (s + self.mass)
        return min(1.0, _up(self.inf_mass + s + self.error + slack))

    def epsilon(self, delta: float) -> float:
        """The smallest epsilon >= 0 with ``self.delta(epsilon) <= delta`` (up to a relative
        1e-12 nudge on the safe side); ``inf`` when no finite epsilon works."""
        if self.delta(0.0) <= delta:
            return 0.0
        l = self.losses
        top = float(l[-1]) if l.size else 0.0
        if self.delta(max(top, 0.0)) > delta:
            return math.inf
        # approximate the solution from suffix sums, then verify and nudge up
        p = self.probs
        with np.errstate(divide="ignore"):
            logp = np.log(p)
        w = logp - l
        shift = float(np.max(w[np.isfinite(w)])) if np.any(np.isfinite(w)) else 0.0
        s_suffix = np.cumsum(p[::-1])[::-1]
        t_suffix = np.cumsum(np.exp(w - shift)[::-1])[::-1]
        base = self.inf_mass + self.error
        # delta at grid point l_k (approx) = base + S_{k+1} - e^{l_k} T_{k+1}
        s_next = np.append(s_suffix[1:], 0.0)
        t_next = np.append(t_suffix[1:], 0.0)
        with np.errstate(over="ignore", divide="ignore"):
            d_grid = base + s_next - np.exp(l + shift + np.log(t_next))
        d_grid = np.where(t_next > 0, d_grid, base)
        idx = int(np.argmax(d_grid <= delta))  # first grid point where it holds (approximately)
        if idx == 0:
            lo_eps = 0.0
        else:
            # solve inside (l_{idx-1}, l_idx]: base + S_idx - e^eps T_idx = delta
            s_i, t_i = s_suffix[idx], t_suffix[idx]
            num = base + s_i - delta
            if num > 0 and t_i > 0:
                lo_eps = math.log(num) - shift - math.log(t_i)
            else:
                lo_eps = float(l[idx - 1])
            lo_eps = min(max(lo_eps, float(l[idx - 1]), 0.0), float(l[idx]))
        eps = lo_eps
        step = 1e-12 * max(1.0, abs(eps))
        for _ in range(200):
            if self.delta(eps) <= delta:
                return eps
            eps += step
            step *= 2.0
        raise NumericalError(f"could not certify an epsilon for delta={delta!r}")  # pragma: no cover


def _up(x: float) -> float:
    """Round a non-negative float sum up by a few ulps (the sum may have been rounded down)."""
    return x * (1 + 4 * U) + 1e-300 if x > 0 else x


def _fft_alpha(n: int, u: float) -> float:
    """Relative L2 error bound ``a`` of one FFT of length n in arithmetic with unit round-off u."""
    L = math.ceil(math.log2(max(n, 2)))
    mu = u if u == U else u * (_TWIDDLE_ERROR / U)
    gamma4 = 4 * u / (1 - 4 * u)
    eta = mu + gamma4 * (math.sqrt(2) + mu)
    return _SAFETY * L * eta / (1 - _SAFETY * L * eta)


def _power(X: np.ndarray, k: int) -> tuple[np.ndarray, int]:
    """X**k elementwise by binary exponentiation; returns (result, number of multiplications)."""
    result = None
    base = X
    mults = 0
    while k:
        if k & 1:
            if result is None:
                result = base.copy()
            else:
                result *= base
                mults += 1
        k >>= 1
        if k:
            base = base * base
            mults += 1
    return result, mults


def _multiplications(k: int) -> int:
    return max(0, k.bit_length() - 1) + max(0, bin(k).count("1") - 1)


def _power_error_l1(x: np.ndarray, N: int, k: int, mults: int, r: float, u: float) -> float:
    """L1 bound on ||irfft(fl(rfft(x)^k)) - x^{*k}||_1 over the N outputs (module docstring),
    for arithmetic with unit round-off ``u``."""
    a = _fft_alpha(N, u)
    x2 = float(np.linalg.norm(x)) * 1.01
    ex = a * math.sqrt(N) * x2  # ||X~ - X||_2 (and >= its sup norm)
    grow = (r + ex) ** (k - 1)
    ep = k * ex * grow  # ||X~^k - X^k||_2
    pk = math.sqrt(N) * x2 * r ** (k - 1)  # >= ||X^k||_2
    ep += ((1 + 3.01 * u) ** mults - 1) * (pk + ep)  # rounding in the powers
    e2 = ep / math.sqrt(N) + (a + u) * (pk + ep) / math.sqrt(N)
    return math.sqrt(N) * e2


def _chernoff_window(x: np.ndarray, offset: int, h: float, k: int, tail: float) -> tuple[int, int, float]:
    """Relative index window [s_lo, s_hi] holding the k-fold sum but for <= ``tail`` mass on each
    side, by Chernoff: P(S >= t) <= M(lam)^k e^{-lam t}. Returns the window and a certified
    upper bound on the mass above it (which wrap-around would move down, so it goes to +inf).
    The mass below the window wraps to its top, i.e. moves up: safe."""
    n = x.size
    j = np.arange(n, dtype=float)  # relative index of each leaf bin
    with np.errstate(divide="ignore"):
        logp = np.log(x)
    total_hi = k * (n - 1)
    best_hi = total_hi
    best_lo = 0
    mean = float(np.sum(x * j) / max(np.sum(x), 1e-300))
    sd = math.sqrt(max(float(np.sum(x * (j - mean) ** 2) / max(np.sum(x), 1e-300)), 1e-12))
    log_tail = math.log(tail)
    for lam in np.geomspace(1e-2, 1e2, 25) / (sd * math.sqrt(k)):
        # upper tail, in units of bins: log E[e^{lam J}] computed in float with a safety margin
        lm = _logsumexp(logp + lam * j)
        lm += 1e-12 * (1 + abs(lm)) + 4 * U * lam * n
        t = math.ceil((k * lm - log_tail) / lam)  # P(S >= t) <= tail
        if t < best_hi:
            best_hi = t
        lm_lo = _logsumexp(logp - lam * j)
        lm_lo += 1e-12 * (1 + abs(lm_lo)) + 4 * U * lam * n
        t_lo = math.floor(-(k * lm_lo - log_tail) / lam)  # P(S <= t_lo) <= tail
        if t_lo > best_lo:
            best_lo = t_lo
    s_hi = min(total_hi, max(best_hi, 0))
    s_lo = max(0, min(best_lo, s_hi))
    # mass above the window wraps down and mass below may wrap past the kept slice: both are
    # bounded by ``tail`` and sent to +inf (an over-count of at most 2 tail)
    above = (tail if s_hi < total_hi else 0.0) + (tail if s_lo > 0 else 0.0)
    return s_lo, s_hi, above


def _logsumexp(a: np.ndarray) -> float:
    c = float(np.max(a))
    if not math.isfinite(c):
        return c
    return c + math.log(float(np.sum(np.exp(a - c))))


def _fft_error_l1(x: np.ndarray, y: np.ndarray, n: int, m_out: int) -> float:
    """The bound of the module docstring on ||irfft(rfft x rfft y) - x * y||_1 (kept entries)."""
    a = _fft_alpha(n, U)
    x1, y1 = float(np.sum(x)) * 1.01, float(np.sum(y)) * 1.01
    x2, y2 = float(np.linalg.norm(x)) * 1.01, float(np.linalg.norm(y)) * 1.01
    A = x2 * y1 + x1 * y2
    B = x2 * y2
    ew = (1 + 3 * U) * (a * A + a * a * math.sqrt(n) * B) + 3 * U * x2 * y1
    e2 = ew + (a + U) * (x2 * y1 + ew)
    return math.sqrt(m_out) * e2
