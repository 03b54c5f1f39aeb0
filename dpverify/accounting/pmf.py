"""Discretised privacy-loss distributions with a certified floating-point error.

A :class:`LossPMF` holds P-masses ``probs[j]`` at the losses ``(offset + j) * h`` plus a mass
``inf_mass`` at ``+inf``, and ``error``: a bound on the L1 distance between ``probs`` and the
vector that exact arithmetic would have produced by the same pipeline. Its hockey-stick value

    delta(eps) = inf_mass + sum_j probs[j] * (1 - exp(eps - l_j))_+            (H)

is monotone in every mass and every loss, and each weight lies in [0, 1], so

    delta_exact_pipeline(eps) <= delta_computed(eps) + error + (summation round-off).   (R)

See :mod:`dpverify.accounting.pld` for why the exact pipeline upper-bounds the true profile.

Convolutions (``convolve``) and self-compositions (``self_compose``) are FFTs whose round-off
is bounded in :mod:`dpverify.accounting.spectral` (a convolution whose concentrated factor's core is
convolved by overlap-add where that at least halves the bound: :mod:`dpverify.accounting.blockconv`;
the Cooley--Tukey bound, the power paths:
float64, double-word low frequencies, atoms apart with an a-posteriori bound, extended
precision); the bound of the path taken joins ``error``.

The window of the circular result is chosen by a Chernoff bound
``P(S >= t) <= M(lam)^k e^{-lam t}`` so that at most ``tail_mass`` lies beyond each end;
wrap-around could move that mass down or out of the window, so ``2 tail_mass`` is added to the
mass at +inf. Input errors propagate as ``err(x * y) <= err_x |y|_1 + err_y |x|_1 + err_x err_y``
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
from . import spectral as sp
from .blockconv import split_convolve
from .spectral import U

__all__ = ["LossPMF", "U"]

_DIRECT_LIMIT = 20_000  # len(x) * len(y) below which the direct convolution is used
_DIRECT_SHORT = 32  # ... and the length of the shorter one at or below which it is used too


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
    shift: float = 0.0  # loss-location slack: the exact pipeline's losses are <= computed + shift

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
        if x.size * y.size <= _DIRECT_LIMIT or min(x.size, y.size) <= _DIRECT_SHORT:
            z = np.convolve(x, y)
            # each output is a sum of <= min(n, m) non-negative products
            fft_err = (min(x.size, y.size) + 2) * U * float(np.sum(x)) * float(np.sum(y)) * 1.01
        else:
            n = scipy.fft.next_fast_len(m_out, real=True)
            fft_err = sp.fft_error_l1(x, y, n, m_out)
            split = split_convolve(x, y, m_out, fft_err)  # a concentrated core by overlap-add (blockconv)
            if split is not None:
                z, fft_err = split
            else:
                z = scipy.fft.irfft(scipy.fft.rfft(x, n) * scipy.fft.rfft(y, n), n)[:m_out]
        np.maximum(z, 0.0, out=z)
        mx, my = self.mass, other.mass
        error = self.error * my + other.error * mx + self.error * other.error + fft_err
        inf_mass = sp.up(self.inf_mass + other.inf_mass - self.inf_mass * other.inf_mass)
        return LossPMF(self.h, self.offset + other.offset, z, min(inf_mass, 1.0), error,
                       self.shift + other.shift).truncated(tail)

    def self_compose(self, count: int, tail: float, budget: float = None) -> "LossPMF":
        """The ``count``-fold composition, by exponentiation in the frequency domain in extended
        precision (see the module docstring for the error bound and the wrap-around argument)."""
        if count == 1:
            return self
        x = self.probs
        n = x.size
        k = int(count)
        r = float(np.sum(x)) * (1 + (math.log2(max(n, 2)) + 2) * U)  # >= ||x||_1
        # window of relative indices [s_lo, s_hi] of the k-fold sum (indices 0 .. k (n-1))
        s_lo, s_hi, above = sp.chernoff_window(x, self.offset, self.h, k, tail)
        size = s_hi - s_lo + 1
        N = scipy.fft.next_fast_len(max(size, n), real=True)
        if N > sp.MAX_FFT:
            raise NumericalError(
                f"the {k}-fold composition needs an FFT of length {N} > {sp.MAX_FFT}; use a coarser "
                "value_discretisation"
            )
        mults = sp.multiplications(k)
        budget = sp.DOUBLE_BUDGET if budget is None else budget
        # float64 when its a-priori error bound is already negligible; else the double-word low
        # frequencies, the atoms' a-posteriori path, extended precision (spectral.power_spectrum)
        P, err, shift = sp.power_spectrum(x, N, k, mults, r, budget)
        y = scipy.fft.irfft(P, N)
        start = (s_lo - k * shift) % N  # relative index s sits at (s - k shift) mod N
        y = np.concatenate([y[start:], y[:start]])
        out = np.asarray(y[:size], dtype=float)
        np.maximum(out, 0.0, out=out)
        # rounding an extended result to float64 is relative per entry: inflate the entries
        out *= 1 + 4 * U
        prop = ((r + self.error) ** k - r ** k) if self.error > 0 else 0.0  # input error, k-fold
        inf_mass = -math.expm1(k * math.log1p(-self.inf_mass)) if self.inf_mass < 1 else 1.0
        inf_mass = min(1.0, sp.up(sp.up(inf_mass) + above))
        pmf = LossPMF(self.h, k * self.offset + s_lo, out, inf_mass, err + prop, k * self.shift)
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
        inf_mass = min(1.0, sp.up(self.inf_mass + top_mass * (1 + n_err)))
        error = self.error + n_err * low_mass
        return LossPMF(self.h, self.offset + lo, q, inf_mass, error, self.shift)

    # ------------------------------------------------------------------ queries
    def delta(self, epsilon: float, certified: bool = True) -> float:
        """An upper bound on (H) for the exact pipeline, including every round-off term
        (``certified=False``: the computed value of (H) alone, without the error terms; used to
        report how much of a result is numerical slack).

        The loss-location slack ``shift`` is applied as ``H(epsilon - shift)`` (every exact loss is
        at most the computed one plus ``shift``, and (H) is increasing in each loss); the rounding
        of the computed losses (``4 u |l|``) is charged to the mass at and above epsilon only."""
        eps = epsilon - self.shift if certified else epsilon
        n = self.probs.size
        j0 = self._first_above(eps)
        if j0 >= n:
            s = 0.0
            lmax = 0.0
            m_above = float(self.probs[-1]) if n else 0.0
        else:
            l = (self.offset + np.arange(j0, n)) * self.h  # the losses l_j > eps, increasing
            terms = self.probs[j0:] * -np.expm1(eps - l)
            s = float(np.sum(terms))
            lmax = max(abs(float(l[0])), abs(float(l[-1])))
            m_above = float(np.sum(self.probs[max(j0 - 1, 0):]))
        if not certified:
            return min(1.0, self.inf_mass + s)
        slack = ((math.log2(max(n, 2)) + 40) * U * s
                 + (8 + 4 * (abs(eps) + lmax + self.h)) * U * m_above * (1 + (n + 2) * U))
        return min(1.0, sp.up(self.inf_mass + s + self.error + slack))

    def _first_above(self, epsilon: float) -> int:
        """The first index j with ``losses[j] > epsilon`` (``probs.size`` if none); the losses,
        computed as in :attr:`losses`, are increasing in j."""
        n = self.probs.size
        h, off = self.h, self.offset
        if not (epsilon < (off + n - 1) * h):
            return n
        j = min(max(int(math.floor(epsilon / h)) - off, 0), n - 1)
        while j > 0 and (off + j - 1) * h > epsilon:
            j -= 1
        while j < n and (off + j) * h <= epsilon:
            j += 1
        return j

    def epsilon(self, delta: float, certified: bool = True) -> float:
        """The smallest epsilon >= 0 with ``self.delta(epsilon) <= delta`` (up to the summation
        slack of :meth:`delta` and a relative 1e-12 nudge, both on the safe side: the value
        returned always satisfies ``self.delta(eps) <= delta``); ``inf`` when no finite
        epsilon works. ``certified=False`` inverts the computed (H) without error terms."""
        loss_shift = self.shift if certified else 0.0
        if self.delta(0.0, certified) <= delta:
            return 0.0
        l = self.losses
        top = float(l[-1]) if l.size else 0.0
        if self.delta(max(top, 0.0) + loss_shift, certified) > delta:
            return math.inf
        # approximate the solution from suffix sums (only the losses >= the last one <= 0
        # matter, as epsilon > 0 here), then verify and nudge up
        k0 = max(self._first_above(0.0) - 1, 0)
        p = self.probs[k0:]
        l = l[k0:]
        with np.errstate(divide="ignore"):
            logp = np.log(p)
        w = logp - l
        shift = float(np.max(w[np.isfinite(w)])) if np.any(np.isfinite(w)) else 0.0
        s_suffix = np.cumsum(p[::-1])[::-1]
        t_suffix = np.cumsum(np.exp(w - shift)[::-1])[::-1]
        # the summation slack that delta() adds, bounded above, so that the first check succeeds
        base = self.inf_mass + (self.error if certified else 0.0)
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
        eps = lo_eps + loss_shift
        step = 1e-12 * max(1.0, abs(eps))
        bad = None
        for _ in range(200):
            if self.delta(eps, certified) <= delta:
                break
            bad = eps
            eps += step
            step *= 2.0
        else:
            raise NumericalError(f"could not certify an epsilon for delta={delta!r}")  # pragma: no cover
        if bad is not None:
            # the doubling steps may overshoot (far past the solution when the suffix-sum
            # approximation was poor, e.g. losses of 10^4 and more): bisect back between the last
            # failing and the first passing point; the value returned always passes the check
            for _ in range(100):
                if eps - bad <= 1e-12 * max(1.0, abs(eps)):
                    break
                mid = 0.5 * (bad + eps)
                if self.delta(mid, certified) <= delta:
                    eps = mid
                else:
                    bad = mid
        return eps


    def delta_lower(self, epsilon: float, moved: float, deflate: float) -> float:
        """For an *optimistic* PMF (losses rounded down, tails dropped): a lower bound on the true
        delta(epsilon). The computed (H) at ``epsilon + shift`` (exact losses are at least the
        computed ones minus ``shift``) is deflated by ``deflate`` (the bins' relative inflation),
        and the summation slack, the round-off ``error`` and the mass ``moved`` that truncation
        may have moved up are subtracted; the mass at +inf is ignored (a lower bound may drop it)."""
        e = epsilon + self.shift
        n = self.probs.size
        j0 = self._first_above(e)
        if j0 >= n:
            return 0.0
        l = (self.offset + np.arange(j0, n)) * self.h
        s = float(np.sum(self.probs[j0:] * -np.expm1(e - l)))
        lmax = max(abs(float(l[0])), abs(float(l[-1])))
        m_above = float(np.sum(self.probs[max(j0 - 1, 0):]))
        slack = ((math.log2(max(n, 2)) + 40) * U * s
                 + (8 + 4 * (abs(e) + lmax + self.h)) * U * m_above * (1 + (n + 2) * U))
        return max(0.0, s * deflate * (1 - 4 * U) - slack - self.error - moved)

    def epsilon_lower(self, delta: float, moved: float, deflate: float) -> float:
        """The largest epsilon (by bisection, rounded down) with ``delta_lower(epsilon) > delta``:
        the true epsilon(delta) is at least this (0.0 when even epsilon = 0 does not exceed)."""
        if not self.delta_lower(0.0, moved, deflate) > delta:
            return 0.0
        lo, hi = 0.0, float(self.losses[-1]) + 1.0
        for _ in range(100):
            mid = 0.5 * (lo + hi)
            if self.delta_lower(mid, moved, deflate) > delta:
                lo = mid
            else:
                hi = mid
            if hi - lo <= 1e-12 * max(1.0, hi):
                break
        return lo


