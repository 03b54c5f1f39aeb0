"""Random allocation ("balls in bins") of the Gaussian mechanism: a certified PLD of its dominating pair.

**The pair** (a published reduction, taken as a premise): each record takes part in exactly one of ``t`` steps, chosen
uniformly at random, and every step is a Gaussian mechanism with ``mu = sensitivity / sigma`` under add/remove. By
Feldman and Shenfeld ("Privacy amplification by random allocation", 2025, Theorem 3.1; the same pair for DP-SGD in
Chua et al., "Balls-and-bins sampling for DP-SGD", 2025, Theorem 1) the adaptive ``t``-step algorithm is dominated by

    P = (1/t) sum_i N(mu e_i, I_t)   against   Q = N(0, I_t)      ("remove"; "add" is (Q, P)),

and ``k``-out-of-``t`` allocation by the ``k``-fold composition of 1-out-of-``floor(t/k)`` (their Lemma 3.2).

**Convex order.** ``dP/dQ = S = (1/t) sum_i Z_i`` with ``Z_i = exp(mu y_i - mu^2/2)`` i.i.d. lognormal of mean 1 under
Q. Composed with any independent losses of likelihood ratio W,

    remove: delta = E_Q[(S W - c)_+],        add: delta = E_Q[(1 - c S W)_+]          (c = e^eps),

both convex in S. So any S' of the same mean that is larger in the convex order (a mean-preserving spread) gives a pair
whose every composed profile is at least the true one. The construction:

1. *Truncation.* ``Z_c = Z 1{Z <= z_max}``, ``S_c`` its mean. ``(x - c)_+`` is increasing and 1-Lipschitz, so the
   remove profile is at most the one of ``S_c`` plus ``a = E[Z; Z > z_max]``, which goes to +inf as P-mass;
   ``(1 - c x)_+`` is decreasing, so the add profile of ``S_c`` bounds the true one as it is.
2. *Spread onto a grid.* The Q-mass of each cell ``(k g, (k+1) g]`` of ``Z_c`` is split between its two ends with the
   cell's partial mean kept (a mean-preserving spread), from closed forms (``c_k = Phi(b) - Phi(a)``,
   ``m_k = Phi(b - mu) - Phi(a - mu)`` in ``y``). Every mass is then raised by its rigorous floating-point error bound
   (both profiles increase with every mass, for fixed losses), so the computed vector is at least the exact split
   entrywise.
3. *The t-fold sum* by the certified FFT power (:func:`~dpverify.accounting.spectral.power_spectrum`), on a Chernoff
   window. Mass outside the window is missing from it (its P-mass, resp. Q-mass, bounded by Chernoff and sent to
   +inf) and may alias into it (extra mass: safe). The FFT's L1 bound on the Q-masses joins ``error``, times the
   largest S of the window for the remove direction's P-masses.
4. *Onto the loss grid.* Each value ``s`` of ``S`` is an atom at loss ``log s`` (remove; P-mass ``s q``) or
   ``-log s`` (add; mass ``q``; ``s = 0`` goes to +inf), put on the grid ``j h`` by connect-the-dots
   (:func:`~dpverify.accounting.grid.split_atoms`): again a mean-preserving spread of S.

The grid step ``g`` keeps the spread's variance ``g^2/4`` per record below ``1e-4`` of ``Var Z = e^{mu^2} - 1``
where the array sizes allow (at most ``2^22`` cells and a window of at most ``2^23`` bins); at large ``mu`` the cells
are coarser, the bound looser, still certified; where they are so coarse that S = 0 keeps more than 1e-12 of mass
(at t = 1000: sigma = 0.35, not sigma = 0.5) no pair is returned and the Gaussian itself is accounted. No optimistic
(lower-bound) version is built.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import scipy.fft
from scipy.special import ndtr, ndtri

from .. import validation as v
from ..errors import InvalidArgument, NumericalError
from . import spectral as sp
from .grid import ROUND_DOWN, Bins, Discretisation, split_atoms
from .pmf import U, LossPMF

__all__ = ["MAX_CELLS", "MAX_WINDOW", "allocation_pmf", "cell_step", "clear_cache", "spread_cells"]

MAX_CELLS = 2 ** 22
MAX_WINDOW = 2 ** 23
_ULPS = 16  # scipy's ndtr is accurate to a few ulps (relative, both tails): charged as 16 u per value


def cell_step(mu: float, steps: int, tail: float) -> tuple[float, int]:
    """``(g, K)``: the grid step of ``Z`` and the number of cells up to ``z_max`` (module docstring)."""
    var = math.expm1(min(mu * mu, 700.0))
    z_max = math.exp(mu * mu / 2 + mu * float(-ndtri(tail)))
    g = 0.02 * math.sqrt(var)  # spread variance g^2/4 = 1e-4 Var Z
    spread = 16 * math.sqrt(steps * var) + 2 * z_max  # the window's extent, roughly
    g = max(g, z_max / MAX_CELLS, spread / (MAX_WINDOW / 2))
    return g, int(math.ceil(z_max / g))


def spread_cells(mu: float, g: float, K: int):
    """Entrywise upper bounds on the spread Q-masses of ``Z_c`` at ``0, g, ..., K g`` and the tail ``E[Z; Z > K g]``."""
    k = np.arange(K + 1, dtype=float)
    z = k * g
    with np.errstate(divide="ignore"):
        y = (np.log(z) + mu * mu / 2) / mu  # y of the cell edges; y[0] = -inf
    # the edges' location error: log (and z = k g) to 4u (|log z| + 1), then the affine map: |dy| <= this
    dy = (4 * U * (np.abs(np.log(np.where(z > 0, z, 1.0))) + 1) + 4 * U * mu * mu) / mu + 4 * U * np.abs(y)
    dy[0] = 0.0

    def masses(shift):
        w = y - shift
        lo = ndtr(w)  # Phi at the edges
        hi = ndtr(-w)  # 1 - Phi at the edges
        upper = w[:-1] >= 0
        c = np.where(upper, hi[:-1] - hi[1:], lo[1:] - lo[:-1])
        used = np.where(upper, hi[:-1] + hi[1:], lo[:-1] + lo[1:])
        # the largest density on the cell (at the edge nearer 0, or phi(0) when it straddles 0) bounds the CDF's
        # change under the edges' location error
        dens = np.exp(-0.5 * np.minimum(w[:-1] ** 2, w[1:] ** 2)) / math.sqrt(2 * math.pi)
        dens = np.where((w[:-1] < 0) & (w[1:] > 0), 1 / math.sqrt(2 * math.pi), dens)
        err = (_ULPS + 2) * U * used + 1.01 * dens * (dy[:-1] + dy[1:])
        return np.maximum(c, 0.0), err

    c, ec = masses(0.0)  # Q(Z in cell)
    m, em = masses(mu)  # E[Z; cell]
    zlo = z[:-1]
    p_hi = (m - zlo * c) / g
    e_hi = (em + zlo * ec) / g + 4 * U * (m + zlo * c) / g
    p_lo = c - p_hi
    e_lo = ec + e_hi + 4 * U * c
    q = np.zeros(K + 1)
    q[:-1] += np.maximum(p_lo + e_lo, 0.0)
    q[1:] += np.maximum(p_hi + e_hi, 0.0)
    q *= 1 + 4 * U  # the two additions per entry
    w_top = y[-1] - mu
    a = float(ndtr(-w_top)) * (1 + _ULPS * U) + float(np.exp(-0.5 * w_top * w_top) / math.sqrt(2 * math.pi)) * dy[-1]
    return q, a


def _log_mgf(logq: np.ndarray, j: np.ndarray, lam: float) -> float:
    v = logq + lam * j
    c = float(np.max(v))
    return c + math.log(float(np.sum(np.exp(v - c))))


def _window(q: np.ndarray, t: int, g: float, tail: float):
    """``(s_lo, s_hi, p_up, q_up, q_lo)``: a window of the t-fold sum (in bins) and Chernoff bounds on the P-mass
    ``E[S; J > s_hi]``, the Q-masses ``Q(J > s_hi)`` and ``Q(J < s_lo)`` outside it."""
    n = q.size
    j = np.arange(n, dtype=float)
    with np.errstate(divide="ignore"):
        logq = np.log(q)
    logjq = logq + np.log(np.maximum(j, 1e-300))
    mean = float(np.sum(q * j))
    sd = math.sqrt(max(float(np.sum(q * (j - mean) ** 2)), 1e-12))
    total = t * (n - 1)
    margin = 1e-12
    best_hi, p_up, q_up = total, 0.0, 0.0
    best_lo, q_lo = 0, 0.0
    log_tail = math.log(tail)
    for lam in np.geomspace(1e-7, 1e2, 60) / (sd * math.sqrt(t)):
        lm = _log_mgf(logq, j, lam)
        lm1 = _log_mgf(logjq, j, lam)  # log E[J e^{lam J}]
        lm, lm1 = lm + margin * (1 + abs(lm)) + 4 * U * lam * n, lm1 + margin * (1 + abs(lm1)) + 4 * U * lam * n
        # P-mass above x: (g/t) E[J_T; J_T > x] <= g e^{-lam x} E[J e^{lam J}] M^{t-1}
        x_p = (math.log(g) + lm1 + (t - 1) * lm - log_tail) / lam
        x_q = (t * lm - log_tail) / lam
        x = math.ceil(max(x_p, x_q))
        if x < best_hi:
            best_hi = x
            p_up = math.exp(math.log(g) + lm1 + (t - 1) * lm - lam * x)
            q_up = math.exp(t * lm - lam * x)
        lml = _log_mgf(logq, j, -lam) + margin * (1 + 1.0) + 4 * U * lam * n
        xl = math.floor(-(t * lml - log_tail) / lam)
        if xl > best_lo:
            best_lo = xl
            q_lo = math.exp(t * lml + lam * xl)
    s_hi = min(total, max(best_hi, 0))
    s_lo = max(0, min(best_lo, s_hi))
    if s_hi == total:
        p_up = q_up = 0.0
    if s_lo == 0:
        q_lo = 0.0
    return s_lo, s_hi, p_up, q_up, q_lo


@dataclass(frozen=True)
class _SumLaw:
    """The spread Q-law of the t-fold sum (module docstring, steps 1-3), shared by both directions: bin indices
    ``bins`` (from ``s_lo``) and their masses, the grid step ``g``, the tail bounds and the FFT's L1 error on the
    masses."""

    g: float
    s_lo: int
    bins: np.ndarray
    masses: np.ndarray
    a: float
    p_up: float
    q_up: float
    q_lo: float
    error: float


@lru_cache(maxsize=8)
def _sum_law(mu: float, t: int, tail: float, budget: float, zero_mass: float) -> _SumLaw | None:
    """Steps 1-3 of the module docstring for one (mu, t, tail, budget): computed once for both directions; None
    (before any FFT) when the spread leaves more than ``zero_mass`` at S = 0 (:func:`allocation_pmf`)."""
    g, K = cell_step(mu, t, tail)
    q, a = spread_cells(mu, g, K)
    if t * math.log(max(float(q[0]), 1e-300)) > math.log(zero_mass):
        return None
    r = float(np.sum(q)) * (1 + (math.log2(max(q.size, 2)) + 2) * U)
    s_lo, s_hi, p_up, q_up, q_lo = _window(q, t, g, tail)
    size = s_hi - s_lo + 1
    N = scipy.fft.next_fast_len(max(size, q.size), real=True)
    if N > sp.MAX_FFT:
        raise NumericalError(f"random allocation needs an FFT of length {N} > {sp.MAX_FFT}")
    P, err, shift = sp.power_spectrum(q, N, t, sp.multiplications(t), r, budget)
    y = scipy.fft.irfft(P, N)
    start = (s_lo - t * shift) % N
    y = np.concatenate([y[start:], y[:start]])[:size]
    masses = np.maximum(np.asarray(y, dtype=float), 0.0) * (1 + 4 * U)
    bins = np.arange(s_lo, s_hi + 1, dtype=float)
    masses.flags.writeable = False
    bins.flags.writeable = False
    return _SumLaw(g, s_lo, bins, masses, a, p_up, q_up, q_lo, err)


def allocation_pmf(mu: float, steps: int, direction: int, h: float, tail: float,
                   mode: Discretisation = Discretisation.CONNECT_DOTS, budget: float = 1e-12,
                   zero_mass: float = 1e-12) -> LossPMF | None:
    """The pessimistic discretised PLD of 1-out-of-``steps`` random allocation of a Gaussian of ``mu`` (module
    docstring), ``direction`` 0 = remove, 1 = add, on the grid of step ``h``; None when the cells are so coarse
    (small sigma: the lognormal's tail forces a wide grid) that the spread leaves more than ``zero_mass`` at S = 0,
    where the add direction's loss is +inf: the caller then accounts the Gaussian itself (a record is used once)."""
    mu = v.positive("mu", mu, fix="Give the Gaussian's sensitivity / sigma (> 0).")
    t = v.integer("steps", steps, minimum=1, fix="Give the number of steps (>= 1).")
    if direction not in (0, 1):
        raise InvalidArgument(f"direction={direction!r} must be 0 (remove) or 1 (add).")
    h = v.positive("h", h, fix="Give the loss grid step, e.g. 1e-4.")
    tail = v.open_unit("tail", tail, fix="Give the truncated mass, e.g. 1e-15.")
    zero_mass = v.positive("zero_mass", zero_mass, fix="Give the largest mass at S = 0 accepted, e.g. 1e-12.")
    if mode is ROUND_DOWN:  # the optimistic leaf is shuffle_lower.allocation_epoch_pmf (losses.leaf_pmf)
        raise InvalidArgument("mode=ROUND_DOWN: allocation_pmf builds the pessimistic PLD only; the optimistic one is "
                              "dpverify.accounting.shuffle_lower.allocation_epoch_pmf.")
    law = _sum_law(mu, t, tail, budget, zero_mass)
    if law is None:
        return None  # cells so coarse that S = 0 (loss +inf in the add direction) keeps real mass: no useful pair
    J, qs, s_lo, g = law.bins, law.masses, law.s_lo, law.g
    s = J * g / t
    s_max = float(s[-1]) * (1 + 4 * U)
    a, p_up, q_up, q_lo, err = law.a, law.p_up, law.q_up, law.q_lo, law.error
    bins = Bins()
    pos = J > 0
    if direction == 0:
        # P-mass s q at loss log s; S = 0 has P-mass 0; the missing tails' P-masses and the truncation to +inf
        split_atoms(bins, np.log(s[pos]), s[pos] * qs[pos] * (1 + 4 * U), h, mode)
        bins.inf += sp.up(a + p_up + (s_lo * g / t) * q_lo)
        bins.error += err * s_max
    else:
        split_atoms(bins, -np.log(s[pos]), qs[pos], h, mode)
        bins.inf += sp.up(float(np.sum(qs[~pos])) + q_up + q_lo)
        bins.error += err
    return bins.pmf(h)


def clear_cache() -> None:
    """Forget the cached t-fold sums (both directions of a leaf share one; the next call computes it afresh, with
    the same result)."""
    _sum_law.cache_clear()
