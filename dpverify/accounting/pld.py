"""Privacy-loss distributions (PLD) composed by FFT: a certified upper bound on delta(eps).

**Model.** For a dominating pair (P, Q) of an event and the privacy loss L = log(dP/dQ), the
profile is ``delta(eps) = E_P[(1 - e^{eps - L})_+] + P(L = +inf)`` (Meiser--Mohammadi 2018,
Koskela et al. 2020), and composition adds independent losses:
``H_t(P1 x P2 || Q1 x Q2) = E_{P2}[ H_{t e^{-L2}}(P1 || Q1) ]`` (H_t the hockey-stick
divergence, t = e^eps). Hence replacing any factor by a pair that dominates it at *every*
t >= 0 can only increase the composed profile.

**Pessimistic discretisation** on the grid ``l_j = j h``. Two modes (:class:`Discretisation`):

* ``CONNECT_DOTS`` (default; Doroshenko--Ghazi--Kamath--Kumar--Manurangsi 2022): the P-mass of
  losses in ``(a, b] = (j h, (j+1) h]`` is split between ``a`` and ``b`` so that both the
  P- and the Q-mass are preserved, ``p_b = (e^{-a} P_I - Q_I) / (e^{-a} - e^{-b})``,
  ``p_a = P_I - p_b``. Per atom, ``t -> (p - t q)_+`` is convex and the split replaces it by its
  chord, so ``H_t(split) >= H_t(original)`` for every t: the discretised pair dominates.
  The bias is second order in h.
* ``ROUND_UP``: every loss is rounded up to the next grid point (moving P-mass to larger
  losses increases ``(1 - e^{eps-L})_+`` pointwise). The bias is first order in h.

In both modes the mass below the lowest grid point kept is lumped *up* into it, the mass above
the highest is sent to +inf (it joins delta), and after every convolution the top ``tail``
mass goes to +inf and the bottom ``tail`` mass is lumped up. All these moves only increase
the profile. Both directions of the neighbour relation are composed (each event sees the same
direction of a given neighbouring pair) and the larger delta is reported.

**Floating point.** The interval masses ``P_I`` and ``e^{a} P_I - e^{a} Q_I =
integral of p (1 - e^{a - L})`` are computed by Gauss--Legendre quadrature (8 nodes per piece,
pieces of width <= 1/4 of the Gaussian scale), never as differences of CDFs (which would
lose ``u / h`` relative accuracy). The integrand of ``P_I - e^a Q_I`` is a signed combination
of Gaussian densities, so the quadrature remainder is bounded with Cramér's inequality
``|phi^{(k)}(z)| <= 1.0865 sqrt(k!) e^{-z^2/4} / sqrt(2 pi)``::

    |E| <= w^{17} (8!)^4 / (17 (16!)^3) * s^{-17} * 1.0865 sqrt(16!) / sqrt(2 pi)
           * sum_i |c_i| e^{-z_i^2 / 4}        (per piece of width w; z_i its distance to mean i)

and added to the error. The arithmetic error of the masses (relative ``(z_max^2 + nodes + 20) u``)
and the loss-location error (``4 u (max|l| + 1)``, which moves mass by at most that much and
changes (H) by at most that times the mass, H being 1-Lipschitz in each loss) are added too.
FFT round-off is bounded in :mod:`dpverify.accounting._pmf`; altogether::

    delta_true(eps) <= delta_discretised_exact(eps) <= delta_computed(eps) + error + summation bound.

The Laplace interior is integrated in closed form (``P_I = 1/2 e^{(c-eps0)/2} expm1((d-c)/2)``,
``integral f (1 - e^{a-l}) = 2 e^{(a-eps0)/2} sinh((d'+c')/4) sinh((d'-c')/4)``); atoms (randomized
response, discrete mechanisms, black boxes) are split exactly with ``expm1``.

**Self-composition** raises the FFT of the leaf PMF to the k-th power
(:meth:`LossPMF.self_compose <dpverify.accounting._pmf.LossPMF.self_compose>`): float64 when a
certified L1 round-off bound of at most 1e-12 is available, either a-priori or a-posteriori with
the large point masses (e.g. the two atoms of the Laplace loss) transformed exactly apart from
the FFT; extended precision otherwise. The bound of the path taken joins ``error``.
Heterogeneous compositions convolve the per-event results, each convolution with its own bound. ``merge_gaussians=True`` is a fast path that replaces all
Gaussian leaves by the single Gaussian with ``mu = sqrt(sum k_i mu_i^2)`` (exact).
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from numpy.polynomial.legendre import leggauss
from scipy.special import ndtr, ndtri

from .. import _validate as v
from ..errors import InvalidArgument, NumericalError, UnsupportedEvent
from ._method import CompositionMethod
from ._pmf import U, LossPMF
from .events import (
    ApproxDP,
    DiscreteGaussian,
    DiscreteLaplace,
    DpEvent,
    Gaussian,
    Laplace,
    PoissonSubsampled,
    PureDP,
    RandomizedResponse,
    SampledWithoutReplacement,
    grouped,
)

__all__ = ["Discretisation", "PLDBounds", "PLDComposition", "privacy_loss_pmf"]

_NODES = 8
_GL_T, _GL_W = leggauss(_NODES)
_CRAMER = 1.0865
_GL_CONST = (math.factorial(_NODES) ** 4 / ((2 * _NODES + 1) * math.factorial(2 * _NODES) ** 3)
             * _CRAMER * math.sqrt(math.factorial(2 * _NODES)) / math.sqrt(2 * math.pi))


class Discretisation(enum.Enum):
    """How continuous losses are put on the grid (both are pessimistic; see module docstring)."""

    CONNECT_DOTS = "connect-dots"
    ROUND_UP = "round-up"


#: Internal mode for the optimistic (lower-bound) pipeline: every loss rounded *down* to the grid,
#: tails below the grid and above it dropped (moved to -inf); see :func:`epsilon_lower`.
_ROUND_DOWN = "round-down"
#: Upper bound on the relative inflation of one leaf's bins (quadrature rho + bincount + the final
#: rounding); checked where rho is computed. The lower bound deflates by it, once per leaf copy.
_MAX_REL_INFLATION = 1e-10


class _Bins:
    """Accumulates masses at grid indices, an inf mass and an error bound."""

    def __init__(self) -> None:
        self.idx: list[np.ndarray] = []
        self.mass: list[np.ndarray] = []
        self.inf = 0.0
        self.error = 0.0

    def add(self, idx, mass) -> None:
        idx = np.asarray(idx, dtype=np.int64).ravel()
        mass = np.asarray(mass, dtype=float).ravel()
        if idx.size:
            self.idx.append(idx)
            self.mass.append(np.maximum(mass, 0.0))

    def pmf(self, h: float) -> LossPMF:
        idx = np.concatenate(self.idx) if self.idx else np.zeros(1, dtype=np.int64)
        mass = np.concatenate(self.mass) if self.mass else np.zeros(1)
        lo = int(idx.min())
        probs = np.bincount(idx - lo, weights=mass)
        total = float(np.sum(probs))
        lmax = max(abs(lo), abs(lo + probs.size)) * h
        # bincount's summation error is relative to each bin's own mass: inflate the bins (H is
        # increasing in every mass) instead of charging an absolute error to delta; the location
        # error of the losses (4u(|l| + 1)) becomes the loss shift (applied as H(eps - shift))
        probs = probs * (1 + (len(self.idx) + 6) * U)
        return LossPMF(h, lo, probs, min(1.0, self.inf * (1 + 4 * U)), self.error, 4 * U * (lmax + 1))


# ---------------------------------------------------------------------------- atoms
def _split_atoms(bins: _Bins, losses, masses, h: float, mode: Discretisation) -> None:
    losses = np.asarray(losses, dtype=float)
    masses = np.asarray(masses, dtype=float)
    j = np.floor(losses / h).astype(np.int64)
    r = losses - j * h
    j = np.where(r < 0, j - 1, j)
    r = losses - j * h
    j = np.where(r > h, j + 1, j)
    r = np.clip(losses - j * h, 0.0, h)
    if mode is Discretisation.ROUND_UP:
        up = r > 0
        bins.add(j + up, masses)
        return
    if mode is _ROUND_DOWN:
        bins.add(j, masses)
        return
    p_b = masses * (np.expm1(-r) / math.expm1(-h))
    bins.add(j + 1, p_b)
    bins.add(j, masses - p_b)
    # the split fraction carries a relative error ~4u: transport by at most h (an atom on a grid
    # point, r = 0 or r = h, is not split: its fraction is exactly 0 or 1)
    split = (r > 0) & (r < h)
    bins.error += 8 * U * h * float(np.sum(masses[split]))


# ---------------------------------------------------------------------------- Gaussian mixtures
def _log_hermite16(z):
    """log of ``M(z) = E[(z^2 + Y^2)^8]`` (Y standard normal), an upper bound on the Hermite
    polynomial ``|He_16(z)| = |E[(z + iY)^16]|``, so ``|phi^(16)(z)| <= M(z) phi(z)``."""
    z2 = np.asarray(z, dtype=float) ** 2
    acc = np.zeros_like(z2)
    dfact = 1.0
    for j in range(9):
        if j:
            dfact *= 2 * j - 1
        acc = acc + math.comb(8, j) * dfact * z2 ** (8 - j)
    return np.log(acc)


_LOG_CRAMER16 = math.log(_CRAMER) + 0.5 * math.lgamma(2 * _NODES + 1)
_LOG_GL16 = (4 * math.lgamma(_NODES + 1) - math.log(2 * _NODES + 1) - 3 * math.lgamma(2 * _NODES + 1)
             - 0.5 * math.log(2 * math.pi))


def _phi(z):
    return np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)


def _mix_pdf(y, comps, scale):
    out = np.zeros_like(y)
    for c, m in comps:
        out += c * _phi((y - m) / scale)
    return out / scale


def _mix_cdf(y, comps, scale):
    """P(Y <= y) and P(Y > y) of a positive mixture (each accurate to a few ulps)."""
    cdf = np.zeros_like(y)
    sf = np.zeros_like(y)
    for c, m in comps:
        z = (y - m) / scale
        cdf += c * ndtr(z)
        sf += c * ndtr(-z)
    return cdf, sf


def _ctd_mixture(bins: _Bins, h: float, mode: Discretisation, *, y_lo: float, y_hi: float,
                 L_of_y, y_of_t, comps_p, comps_q, scale: float, loc_err=None) -> None:
    """Discretise a loss L(y), increasing in y, where y has the P-density ``comps_p`` and the
    Q-density ``comps_q`` (Gaussian mixtures of common ``scale``), restricted to
    ``(y_lo, y_hi]``; P(y <= y_lo) is lumped up, P(y > y_hi) goes to +inf. ``loc_err(t, y)``,
    when given, bounds the absolute error of the computed ``L`` at the nodes of each interval
    (arrays: ``t`` the largest ``|L|`` and ``y`` the largest ``|y|`` on the interval); otherwise
    ``4 u (t_max + 1)`` with ``t_max`` the largest ``|L|`` on the range."""
    t_lo, t_hi = float(L_of_y(np.array([y_lo]))[0]), float(L_of_y(np.array([y_hi]))[0])
    j_lo = math.floor(t_lo / h)
    j_hi = math.ceil(t_hi / h)
    if j_hi <= j_lo:
        j_hi = j_lo + 1
    j = np.arange(j_lo, j_hi)
    a = j * h
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        ya = np.maximum(y_of_t(a), y_lo)
        yb = np.minimum(y_of_t(a + h), y_hi)
    ya = np.where(np.isnan(ya), y_lo, ya)
    yb = np.where(np.isnan(yb), y_hi, yb)
    yb = np.maximum(yb, ya)
    # tails
    cdf_lo, _ = _mix_cdf(np.array([y_lo]), comps_p, scale)
    _, sf_hi = _mix_cdf(np.array([y_hi]), comps_p, scale)
    if mode is not _ROUND_DOWN:
        bins.add([j_lo + 1], [cdf_lo[0]])
        bins.inf += float(sf_hi[0])
    width = (yb - ya) / scale
    wide = width > 16.0
    # wide intervals (only near an asymptote of L): round their mass up via CDFs
    if np.any(wide):
        cw_a, sw_a = _mix_cdf(ya[wide], comps_p, scale)
        cw_b, sw_b = _mix_cdf(yb[wide], comps_p, scale)
        use_sf = cw_b > 0.5
        m = np.where(use_sf, sw_a - sw_b, cw_b - cw_a)
        bins.add(j[wide] + (0 if mode is _ROUND_DOWN else 1), m)
        bins.error += 8 * U * float(np.sum(np.minimum(cw_b, sw_a) + np.minimum(cw_a, sw_b)))
    narrow = ~wide & (width > 0)
    sub = np.where(narrow, np.maximum(1, np.ceil(width * 4.0)), 0).astype(np.int64)
    sub = np.where(sub > 1, 2 ** np.ceil(np.log2(np.maximum(sub, 1))).astype(np.int64), sub)
    zmax = 0.0
    total_p = 0.0
    if mode is _ROUND_DOWN:
        merge_P = np.zeros(j.size)
        merge_E = np.zeros(j.size)
        merge_D = np.full(j.size, np.inf)
    t_max = max(abs(t_lo), abs(t_hi), abs(j_lo * h), abs(j_hi * h))
    # location error of the computed losses and of the grid points a = j h (u |a| each)
    if loc_err is None:
        eta = np.full(j.size, 4 * U * (t_max + 1))
    else:  # per interval: the losses lie in [a, a + h] (up to the error itself), y in [ya, yb]
        t_abs = np.maximum(np.abs(a), np.abs(a + h))
        eta = loc_err(t_abs, np.maximum(np.abs(ya), np.abs(yb))) + 4 * U * t_abs
    eta_hs = eta / -math.expm1(-h)
    for s in np.unique(sub[sub > 0]):
        sel = np.nonzero(sub == s)[0]
        s = int(s)
        aa, ya_s, yb_s = a[sel], ya[sel], yb[sel]
        eta_h = eta_hs[sel]
        w = (yb_s - ya_s) / s
        # nodes: (len(sel), s, NODES)
        k = np.arange(s)[None, :, None]
        t = (_GL_T[None, None, :] + 1.0) / 2.0
        y = ya_s[:, None, None] + w[:, None, None] * (k + t)
        p = _mix_pdf(y, comps_p, scale)
        lw = _GL_W[None, None, :] * (w[:, None, None] / 2.0)
        P_I = np.sum(np.sum(p * lw, axis=2), axis=1)
        zg = 0.0
        for _, m in comps_p:  # the nodes lie inside [ya, yb]: the endpoints bound |y - m|
            zg = max(zg, float(np.max(np.maximum(np.abs(ya_s - m), np.abs(yb_s - m)))) / scale)
        zmax = max(zmax, zg)
        # arithmetic error of the masses, relative to each interval's own mass: the bins are
        # inflated by it (H increases with every mass) rather than charged to delta absolutely
        rho = (zg * zg + 2 * _NODES * s + 48) * U
        if not rho <= _MAX_REL_INFLATION:  # the lower bound (epsilon_lower) relies on this cap
            raise NumericalError(f"loss too large for the quadrature (relative error bound {rho:g}); "
                                 "use a larger noise scale")
        if mode is Discretisation.ROUND_UP:
            bins.add(j[sel] + 1, P_I * (1 + rho))
        elif mode is _ROUND_DOWN:
            # optimistic: keep the interval's P-mass and a certified lower bound on its excess
            # E+ = P_I - e^a Q_I and an upper bound on its deficit E- = e^{a+h} Q_I - P_I for the
            # merging pass below (see _merge_down)
            with np.errstate(over="ignore"):
                wt = np.clip(-np.expm1(aa[:, None, None] - L_of_y(y)), 0.0, 1.0)
            N_I = np.sum(np.sum(p * wt * lw, axis=2), axis=1)
            c = -math.expm1(-h)
            err_n = 2 * (rho * N_I + c * eta_h * P_I * (1 + rho))
            e_lo = np.maximum(0.0, N_I - err_n) * (1 - 8 * U)
            d_hi = ((math.exp(h) * (1 + 4 * U) * (P_I * (1 + rho) - e_lo) - P_I * (1 - rho)) * (1 + 8 * U)
                    + 8 * U * P_I)
            merge_P[sel] = P_I * (1 + rho)
            merge_E[sel] = e_lo
            merge_D[sel] = np.maximum(d_hi, 0.0)
        else:
            with np.errstate(over="ignore"):
                wt = np.clip(-np.expm1(aa[:, None, None] - L_of_y(y)), 0.0, 1.0)
            N_I = np.sum(np.sum(p * wt * lw, axis=2), axis=1)
            c = -math.expm1(-h)
            # the weights 1 - e^{a - L} see the location error eta of L: |d wt| <= eta per node
            slack = rho * N_I / c + eta_h * P_I * (1 + rho)
            P_up = P_I * (1 + rho)
            pb_up = np.minimum(N_I / c + slack, P_up)
            pb_lo = np.clip(N_I / c - slack, 0.0, P_up)
            bins.add(j[sel] + 1, pb_up * (1 + 2 * U))
            bins.add(j[sel], (P_up - pb_lo) * (1 + 2 * U))
        total_p += float(np.sum(P_I))
        # quadrature remainder per piece: |phi^(16)(z)| <= min(Cramer, Hermite) bound, taken
        # at the point of the piece closest to each mean (log space: e^a q may be e^{+500} e^{-500}).
        # The Cramer bound alone is a valid (looser) bound and cheap: when its total is negligible
        # (<= 1e-24, far below any delta asked for) it is used as it is, else the minimum of both
        coefs = [(math.log(abs(c_)), m, None) for c_, m in comps_p if c_ != 0] + [
            (math.log(abs(c_)), m, aa) for c_, m in comps_q if c_ != 0]
        log_w = math.log(s) + (2 * _NODES + 1) * np.log(w / scale) + _LOG_GL16
        rem = math.inf
        for hermite in (False, True):
            logs = []
            for lc, m, extra in coefs:
                near = np.maximum(0.0, np.maximum(ya_s - m, m - yb_s)) / scale
                lb = _LOG_CRAMER16 - near * near / 4
                if hermite:
                    far = np.maximum(np.abs(ya_s - m), np.abs(yb_s - m)) / scale
                    lb = np.minimum(lb, _log_hermite16(far) - near * near / 2)
                logs.append(lc + lb + (extra if extra is not None else 0.0))
            log_env = logs[0] if len(logs) == 1 else np.logaddexp.reduce(np.stack(logs), axis=0)
            with np.errstate(over="ignore", divide="ignore"):
                rem = min(rem, float(np.sum(np.exp(log_w + log_env))))
            if rem <= 1e-24:
                break
        bins.error += rem * (1 + 1e-6)
    del zmax, total_p
    if mode is _ROUND_DOWN:
        keep = merge_P > 0
        beta = _merge_down(merge_E[keep], merge_D[keep], j[keep])
        bins.add(j[keep], merge_P[keep] * (1 - beta))
        bins.add(j[keep] + 1, merge_P[keep] * beta)


def _merge_down(e_lo: np.ndarray, d_hi: np.ndarray, j: np.ndarray) -> np.ndarray:
    """Fractions ``beta_i`` of interval i sent *up* to grid point ``(j_i + 1) h`` for the optimistic
    (lower-bound) discretisation, second order in h instead of the first order of rounding down.

    Merging outputs is post-processing, so the merged pair is dominated by the original at every
    t (data processing for hockey-stick divergences). Interval i (losses in (a_i, a_i + h]) splits
    into a part ``beta_i`` and a part ``1 - beta_i``; at the grid point ``a = (j_i + 1) h`` the part
    ``beta_i`` of interval i (losses below a: deficit ``beta_i E-_i``) is merged with the part
    ``1 - beta_{i+1}`` of interval i+1 (losses above a: excess ``(1 - beta_{i+1}) E+_{i+1}``).
    Choosing, from the top down, ``beta_i = min(1, (1 - beta_{i+1}) E+_{i+1} / E-_i)`` (with a
    certified lower bound on E+ and upper bound on E-) keeps every merged excess >= 0, i.e. every
    merged loss at or above its grid point; rounding it down to the grid point keeps the P-mass
    and lowers the loss, which lowers H_t for every t. Where a merge is exact the grid point is
    the merged loss itself, which is why the bias is second order. Non-adjacent intervals (a gap
    in ``j``) are not merged."""
    n = e_lo.size
    beta = np.zeros(n)
    if n < 2:
        return beta
    nxt = np.append(j[1:] == j[:-1] + 1, False)
    el = e_lo.tolist()
    dh = d_hi.tolist()
    nx = nxt.tolist()
    b = [0.0] * n
    for i in range(n - 2, -1, -1):
        if not nx[i]:
            continue
        avail = (1.0 - b[i + 1]) * el[i + 1]
        d = dh[i]
        if d <= 0.0:
            b[i] = 1.0 if avail >= 0.0 else 0.0
        else:
            b[i] = min(1.0, avail / d * (1 - 4 * U))
    beta[:] = b
    return beta


# ---------------------------------------------------------------------------- per-event PMFs
def _gauss_pmf(mu: float, h: float, tail: float, mode: Discretisation) -> LossPMF:
    """P = N(0,1), Q = N(mu,1): L ~ N(mu^2/2, mu^2) under P, N(-mu^2/2, mu^2) under Q."""
    z = -float(ndtri(tail / 4))
    m, s = mu * mu / 2, mu
    bins = _Bins()
    ident = lambda y: y  # noqa: E731
    _ctd_mixture(bins, h, mode, y_lo=m - z * s, y_hi=m + z * s, L_of_y=ident, y_of_t=ident,
                 comps_p=[(1.0, m)], comps_q=[(1.0, -m)], scale=s)
    return bins.pmf(h)


def _laplace_pmf(eps0: float, h: float, mode: Discretisation) -> LossPMF:
    """P = Lap(0, b), Q = Lap(Delta, b): atoms +eps0 (1/2), -eps0 (e^{-eps0}/2), and the
    interior density e^{(l - eps0)/2} / 4 on (-eps0, eps0)."""
    bins = _Bins()
    _split_atoms(bins, [eps0, -eps0], [0.5, 0.5 * math.exp(-eps0)], h, mode)
    j = np.arange(math.floor(-eps0 / h), math.ceil(eps0 / h))
    a = j * h
    c = np.maximum(a, -eps0)
    d = np.minimum(a + h, eps0)
    keep = d > c
    j, a, c, d = j[keep], a[keep], c[keep], d[keep]
    P_I = 0.5 * np.exp((c - eps0) / 2) * np.expm1((d - c) / 2)
    rho = 32 * U  # relative error of the closed forms (a few ulps each), inflated into the bins
    eta_h = 4 * U * (eps0 + h + 1) / -math.expm1(-h)
    if mode is Discretisation.ROUND_UP:
        bins.add(j + 1, P_I * (1 + rho))
    elif mode is _ROUND_DOWN:
        bins.add(j, P_I * (1 + rho))
    else:
        cp, dp = c - a, d - a
        N_I = 2.0 * np.exp((a - eps0) / 2) * np.sinh((dp + cp) / 4) * np.sinh((dp - cp) / 4)
        cc = -math.expm1(-h)
        slack = rho * N_I / cc + eta_h * P_I * (1 + rho)
        P_up = P_I * (1 + rho)
        bins.add(j + 1, np.minimum(N_I / cc + slack, P_up) * (1 + 2 * U))
        bins.add(j, (P_up - np.clip(N_I / cc - slack, 0.0, P_up)) * (1 + 2 * U))
    return bins.pmf(h)


def _atoms_pmf(losses, masses, inf_mass: float, h: float, mode: Discretisation, err: float = 0.0) -> LossPMF:
    bins = _Bins()
    # the masses are accurate to a few ulps each: inflate them (relative) instead of an absolute term
    _split_atoms(bins, losses, np.asarray(masses, dtype=float) * (1 + 16 * U), h, mode)
    bins.inf += inf_mass
    bins.error += err
    return bins.pmf(h)


def _rr_atoms(eps: float, k: int):
    # P(true) = e^eps / (e^eps + k - 1); log-space for large eps
    log_den = eps + math.log1p((k - 1) * math.exp(-eps))
    ph = math.exp(eps - log_den)
    pl = math.exp(-log_den)
    losses = [eps, -eps] + ([0.0] if k > 2 else [])
    masses = [ph, pl] + ([(k - 2) * pl] if k > 2 else [])
    return losses, masses


def _discrete_laplace_atoms(t: float, d: int):
    a = math.exp(-1.0 / t)
    c = -math.expm1(-1.0 / t) / (1 + a)
    eps0 = d / t
    x = np.arange(1, d)
    losses = [eps0, -eps0] + list((d - 2 * x) / t)
    masses = [1 / (1 + a), a ** d / (1 + a)] + list(c * a ** x)
    return losses, masses


def _discrete_gaussian_atoms(sigma: float, d: int, tail: float):
    n = d + int(math.ceil(sigma * math.sqrt(2 * math.log(1 / tail)) + 2))
    x = np.arange(-n, n + 1)
    logw = -x.astype(float) ** 2 / (2 * sigma * sigma)
    # normaliser: a truncated sum is a lower bound on Z, so masses are over-estimated (safe)
    big = np.arange(-n - 60 * int(sigma + 1), n + 60 * int(sigma + 1) + 1)
    logz = float(np.logaddexp.reduce(-big.astype(float) ** 2 / (2 * sigma * sigma)))
    masses = np.exp(logw - logz)
    losses = (d * d - 2.0 * x * d) / (2 * sigma * sigma)
    # mass of |x| > n: sum_{x > n} e^{-x^2/2s^2} <= integral_n^inf = s sqrt(2 pi) Phi(-n/s); Z >= 1
    tail_mass = 2 * sigma * math.sqrt(2 * math.pi) * float(ndtr(-n / sigma))
    return losses, masses, tail_mass


def _subsampled_pmf(ev: PoissonSubsampled, direction: int, h: float, tail: float, mode: Discretisation) -> LossPMF:
    return _mixture_pmf(ev.event, ev.rate, direction, h, tail, mode)


def _wor_pmf(ev: SampledWithoutReplacement, h: float, tail: float, mode) -> LossPMF:
    """Sampling without replacement (replace-one): the symmetrised "remove" pair (see
    :class:`~dpverify.accounting.events.SampledWithoutReplacement`). From the pessimistic
    discretisation R~ of R = ((1-g) Q + g P, Q) (which dominates R at every t), the P-law
    keeps R~'s masses ``p_i`` at the losses ``l_i = i h > 0``, puts ``p_i e^{-l_i}`` (R~'s Q-mass)
    at ``-l_i``, R~'s mass at +inf at +inf, and the rest ``m0 = 1 - inf - sum p_i (1 + e^{-l_i})``
    at 0. Its hockey-stick equals R~'s for eps >= 0 and, the pair being symmetric,
    ``H_t = 1 - t + t H_{1/t}`` for t < 1, so it dominates the symmetrised R at every t: a
    pessimistic PLD of the subsampled mechanism in both orders of a neighbouring pair.

    Floating point: ``m0`` is computed from an upper bound (the computed masses may exceed the
    pipeline's by ``error`` in L1 and by the bins' relative inflation, each subtracted), so it is at
    least the exact pipeline's ``m0``; the mirror masses are inflated for the rounding of ``exp``;
    the L1 error of the finite part doubles (each entry appears twice, with weights <= 1). No
    optimistic (lower-bound) version: the symmetrised pair is an upper bound, not known to be
    attained, so a round-down of it would not bound the true epsilon from below."""
    if mode is _ROUND_DOWN:
        raise UnsupportedEvent("no optimistic discretisation of sampling without replacement is implemented")
    if ev.rate == 1.0:
        return _leaf_pmf(ev.event, 0, h, tail, mode)  # the inner pairs are symmetric
    r = _mixture_pmf(ev.event, ev.rate, 0, h, tail, mode)
    idx = r.offset + np.arange(r.probs.size)
    pos = idx > 0
    p = r.probs[pos]
    i = idx[pos]
    top = int(i[-1]) if i.size else 0
    out = np.zeros(2 * top + 1)
    if i.size:
        l = i * h
        lmax = float(l[-1])
        mirror = p * np.exp(-l) * (1 + 4 * U * (lmax + 2) + 8 * U)
        out[top + i] = p
        out[top - i] = mirror
        s = float(np.sum(p)) + float(np.sum(mirror))
    else:
        s = 0.0
    s = (s + r.inf_mass) * (1 - 2 * _MAX_REL_INFLATION) * (1 - (out.size + 8) * U) - 2 * r.error
    out[top] = max(0.0, 1.0 - s) * (1 + 4 * U) + 4 * U
    return LossPMF(h, -top, out, r.inf_mass, 2 * r.error, r.shift)


def _mixture_pmf(inner: DpEvent, q: float, direction: int, h: float, tail: float, mode) -> LossPMF:
    """The pessimistic PLD of the subsampling pair of ``inner`` at rate ``q``: direction 0
    ("remove") ((1-q) Q + q P, Q), direction 1 ("add") (Q, (1-q) Q + q P)."""
    if q == 1.0:
        return _leaf_pmf(inner, direction, h, tail, mode)
    log1mq = math.log1p(-q)
    if isinstance(inner, (PureDP, RandomizedResponse, DiscreteLaplace)):
        return _subsampled_atoms_pmf(inner, q, direction, h, mode)
    if isinstance(inner, Laplace):
        if mode is _ROUND_DOWN:
            raise UnsupportedEvent("no optimistic discretisation of subsampled Laplace is implemented")
        return _subsampled_laplace_pmf(inner.epsilon, q, direction, h, mode)
    mu = inner.mu
    z = -float(ndtri(tail / 8))
    # base pair N0 = N(0,1), N1 = N(mu,1); ell(x) = mu x - mu^2/2 = log N1/N0
    if direction == 0:  # remove: P = (1-q) N0 + q N1, Q = N0, L = log(1 - q + q e^ell), increasing in x

        def L_of_y(y):
            return np.log1p(q * np.expm1(mu * y - mu * mu / 2))

        def y_of_t(t):
            ell = np.log(np.expm1(t) + q) - math.log(q)
            return (ell + mu * mu / 2) / mu

        comps_p = [(1 - q, 0.0), (q, mu)]
        comps_q = [(1.0, 0.0)]
        y_lo, y_hi = -z, mu + z
    else:  # add: P = N0, Q = (1-q) N0 + q N1; with y = -x, L = -log(1 - q + q e^{-mu y - mu^2/2})

        def L_of_y(y):
            return -np.log1p(q * np.expm1(-mu * y - mu * mu / 2))

        def y_of_t(t):
            with np.errstate(invalid="ignore", divide="ignore"):
                ell = np.log(q + np.expm1(-t)) - math.log(q)
            y = -(ell + mu * mu / 2) / mu
            return np.where(t >= -log1mq, np.inf, y)

        comps_p = [(1.0, 0.0)]
        comps_q = [(1 - q, 0.0), (q, -mu)]
        y_lo, y_hi = -mu - z, z
    bins = _Bins()
    # error of the computed L = +-log1p(z), z = q expm1(x), x = +-mu y - mu^2/2, per interval:
    # x is computed to 3u (mu |y| + mu^2/2), and |dL/dx| = |1 - (1-q) e^{-+L}| <= q/(1-q) + |L|
    # (and <= 1); expm1, the product and log1p are accurate to a few ulps relative, and a relative
    # error e of z moves log1p(z) by <= e |z| / (1 + z) <= e |L| / (1 - q) (z > -q). Hence
    # |L~ - L| <= (2 + 3/(1-q)) u |L| + 3u (mu |y| + mu^2/2) min(1, q/(1-q) + |L|), bounded
    # generously by 8u (|L|/(1-q) + (mu |y| + mu^2) min(1, q/(1-q) + |L|)). Without it the absolute
    # floor 4u of the generic bound, divided by h in the split slack, inflated every bin by ~4u/h:
    # at sigma = 5000 (losses ~1e-5, h ~ 2e-8) ~1e-7 per bin per step, 1e-3 over 10^4 steps
    # (issue 32); where the mass is (|L| small) it is now far below 4u.
    def loc_err(t, y):
        return 8 * U * (t / (1 - q) + (mu * y + mu * mu) * np.minimum(1.0, q / (1 - q) + t))

    _ctd_mixture(bins, h, mode, y_lo=y_lo, y_hi=y_hi, L_of_y=L_of_y, y_of_t=y_of_t,
                 comps_p=comps_p, comps_q=comps_q, scale=1.0, loc_err=loc_err)
    return bins.pmf(h)


def _subsampled_atoms_pmf(inner: DpEvent, q: float, direction: int, h: float, mode) -> LossPMF:
    """Poisson subsampling of a pure atom-valued event with inner pair (P, Q), losses ``l`` and
    P-masses ``m_P`` (Q-masses ``m_P e^{-l}``): "remove" is ((1-q) Q + q P, Q) with losses
    ``log(1 - q + q e^l)`` and P-masses ``(1-q) m_Q + q m_P``; "add" is (Q, (1-q) Q + q P) with
    losses ``-log(1 - q + q e^l)`` and P-masses ``m_Q``. Exact atoms, then split as usual."""
    if isinstance(inner, PureDP):
        losses, masses = _rr_atoms(inner.epsilon, 2) if inner.epsilon > 0 else ([0.0], [1.0])
    elif isinstance(inner, RandomizedResponse):
        losses, masses = _rr_atoms(inner.epsilon, inner.categories)
    else:
        losses, masses = _discrete_laplace_atoms(inner.scale, inner.sensitivity)
    l = np.asarray(losses, dtype=float)
    mP = np.asarray(masses, dtype=float)
    mQ = mP * np.exp(-l)
    g = np.log1p(q * np.expm1(l))
    if direction == 0:
        out_l, out_m = g, (1 - q) * mQ + q * mP
    else:
        out_l, out_m = -g, mQ
    return _atoms_pmf(out_l, out_m, 0.0, h, mode)


def _subsampled_laplace_pmf(eps0: float, q: float, direction: int, h: float, mode: Discretisation) -> LossPMF:
    """Base pair N0 = Lap(0,1) scaled so that ell = log N1/N0 in [-eps0, eps0]; in the variable
    ell the base masses are: N0: atom -eps0 (1/2), atom +eps0 (e^{-eps0}/2), density
    e^{-(l+eps0)/2}/4 inside; N1 = N0 e^{ell}. L is a monotone function of ell."""
    # discretise ell finely into atoms on a grid of step h/8 via exact interval masses, then map
    # through L and split (each atom's loss is the image of the interval's upper end: an
    # over-estimate of L on the interval when L is increasing, so the P-law moves up: safe)
    g = h / 8
    edges = np.linspace(-eps0, eps0, max(2, int(math.ceil(2 * eps0 / g)) + 1))
    lo_e, hi_e = edges[:-1], edges[1:]
    n0 = 0.5 * np.exp(-(lo_e + eps0) / 2) * -np.expm1(-(hi_e - lo_e) / 2)  # N0 mass of (lo, hi)
    n1 = 0.5 * np.exp((hi_e - eps0) / 2) * -np.expm1(-(hi_e - lo_e) / 2)  # N1 mass of (lo, hi)
    ell = np.concatenate([[-eps0, eps0], hi_e])
    ell_lo = np.concatenate([[-eps0, eps0], lo_e])
    m0 = np.concatenate([[0.5, 0.5 * math.exp(-eps0)], n0])
    m1 = np.concatenate([[0.5 * math.exp(-eps0), 0.5], n1])
    if direction == 0:  # remove: P = (1-q) N0 + q N1, L = log(1 - q + q e^ell) increasing in ell
        losses = np.log1p(q * np.expm1(ell))
        masses = (1 - q) * m0 + q * m1
    else:  # add: P = N0, L = -log(1 - q + q e^ell) decreasing in ell: take the lower end
        losses = -np.log1p(q * np.expm1(ell_lo))
        masses = m0
    bins = _Bins()
    _split_atoms(bins, losses, masses * (1 + 64 * U), h, mode)
    return bins.pmf(h)


def _leaf_pmf(ev: DpEvent, direction: int, h: float, tail: float, mode: Discretisation) -> LossPMF:
    if isinstance(ev, Gaussian):
        return _gauss_pmf(ev.mu, h, tail, mode)
    if isinstance(ev, Laplace):
        return _laplace_pmf(ev.epsilon, h, mode)
    if isinstance(ev, RandomizedResponse):
        return _atoms_pmf(*_rr_atoms(ev.epsilon, ev.categories), 0.0, h, mode)
    if isinstance(ev, PureDP):
        return _atoms_pmf(*_rr_atoms(ev.epsilon, 2), 0.0, h, mode) if ev.epsilon > 0 else _atoms_pmf([0.0], [1.0], 0.0, h, mode)
    if isinstance(ev, ApproxDP):
        if ev.epsilon > 0:
            losses, masses = _rr_atoms(ev.epsilon, 2)
        else:
            losses, masses = [0.0], [1.0]
        return _atoms_pmf(losses, np.asarray(masses) * (1 - ev.delta), ev.delta, h, mode)
    if isinstance(ev, DiscreteLaplace):
        return _atoms_pmf(*_discrete_laplace_atoms(ev.scale, ev.sensitivity), 0.0, h, mode)
    if isinstance(ev, DiscreteGaussian):
        losses, masses, tail_mass = _discrete_gaussian_atoms(ev.sigma, ev.sensitivity, tail)
        return _atoms_pmf(losses, masses, 0.0 if mode is _ROUND_DOWN else tail_mass, h, mode)
    if isinstance(ev, PoissonSubsampled):
        return _subsampled_pmf(ev, direction, h, tail, mode)
    if isinstance(ev, SampledWithoutReplacement):
        return _wor_pmf(ev, h, tail, mode)
    raise UnsupportedEvent(f"pld composition does not support {ev!r}")  # pragma: no cover


def _symmetric(ev: DpEvent) -> bool:
    return not isinstance(ev, PoissonSubsampled) or ev.rate == 1.0


def privacy_loss_pmf(event: DpEvent, *, direction: int = 0, value_discretisation: float = 1e-4,
                     tail_mass: float = 1e-15, discretisation: Discretisation = Discretisation.CONNECT_DOTS) -> LossPMF:
    """The pessimistic discretised PLD of one leaf event (direction 0 = "remove"/forward,
    1 = "add"/reverse; the same for symmetric events). Internal building block, exposed for tests."""
    return _leaf_pmf(event, direction, value_discretisation, tail_mass, discretisation)


# ---------------------------------------------------------------------------- the method
@dataclass(frozen=True)
class PLDComposition(CompositionMethod):
    """Composition by privacy-loss distributions (module docstring). Returns certified upper
    bounds. ``value_discretisation`` is the loss grid step h (None: chosen from the events,
    ``min(1e-4, scale/200)`` where ``scale`` is the smallest loss spread among the leaves);
    ``tail_mass`` the mass sent to +inf (or lumped up) at each truncation;
    ``merge_gaussians`` (on by default) replaces all Gaussian leaves by the one Gaussian they
    compose to exactly (``mu = sqrt(sum k_i mu_i^2)``, i.e. ``1/sigma^2 = sum k_i/sigma_i^2`` at
    sensitivity 1): exact, and one discretisation instead of one per leaf."""

    value_discretisation: float | None = None
    tail_mass: float = 1e-15
    discretisation: Discretisation = Discretisation.CONNECT_DOTS
    merge_gaussians: bool = True
    name: str = "pld"
    per_leaf = True  # class attribute, not a dataclass field

    def __post_init__(self) -> None:
        if self.value_discretisation is not None:
            object.__setattr__(self, "value_discretisation", v.positive(
                "value_discretisation", self.value_discretisation, fix="Use a small grid step such as 1e-4."))
        t = v.open_unit("tail_mass", self.tail_mass, fix="Use a tiny tail mass such as 1e-15.")
        if not t <= 1e-6:
            raise InvalidArgument(f"tail_mass={self.tail_mass!r} must be <= 1e-6; it is added to delta at "
                                  "every truncation. Use e.g. 1e-15.")
        if not isinstance(self.discretisation, Discretisation):
            raise InvalidArgument(f"discretisation={self.discretisation!r} must be a Discretisation "
                                  "(e.g. Discretisation.CONNECT_DOTS).")

    def plan(self, event: DpEvent):
        groups = grouped(event)
        supported = (Gaussian, Laplace, RandomizedResponse, PureDP, ApproxDP, DiscreteLaplace,
                     DiscreteGaussian, PoissonSubsampled, SampledWithoutReplacement)
        for leaf, _ in groups:
            if not isinstance(leaf, supported):
                raise self._unsupported(leaf, "no privacy-loss distribution is known for it")
        if self.merge_gaussians:
            gs = [(l, c) for l, c in groups if isinstance(l, Gaussian)]
            if len(gs) > 1 or (gs and gs[0][1] > 1):
                mu = math.sqrt(sum(c * l.mu ** 2 for l, c in gs))
                merged = Gaussian(1.0 / mu, 1.0, relation=event.relation)
                # last, so that a ledger that grows by other events keeps its composed prefix
                groups = [(l, c) for l, c in groups if not isinstance(l, Gaussian)] + [(merged, 1)]
        return tuple(groups)

    def grid_step(self, plan) -> float:
        """The loss grid step h. Default rule: ``min(1e-4, scale/200)`` over the leaves (``scale``
        the loss spread of a Gaussian or Laplace leaf); for a subsampled leaf (``scale = q
        sensitivity / sigma``) ``min(max(5e-5, scale/200), scale/100)``: the connect-the-dots bias
        is second order in ``h / scale`` whatever the size of the loss (issue 32: a fixed floor
        5e-5 left q = 0.01, sigma = 5000 with a lower bound of 0 and an upper bound 5.5x too
        large), then coarsened if needed so that the composed loss
        (mean + 16 standard deviations, from :func:`_loss_moments`) spans at most 2^20 bins
        (large total losses: the relative bias of a coarser step is still far below 1e-4); finally,
        when the atom-valued leaves share one epsilon, the step is made to divide it (or be a
        multiple of it) so that their atoms sit on the grid."""
        if self.value_discretisation is not None:
            return self.value_discretisation
        h = 1e-4
        mean = 0.0
        var = 0.0
        for leaf, count in plan:
            if isinstance(leaf, Gaussian):
                h = min(h, leaf.mu / 200)
            elif isinstance(leaf, (Laplace, DiscreteLaplace)):
                h = min(h, leaf.epsilon / 200)
            elif isinstance(leaf, (RandomizedResponse, PureDP, ApproxDP)) and leaf.epsilon > 0:
                # atoms at +-eps split between grid points: the same relative rule (issue 32)
                h = min(h, leaf.epsilon / 200)
            elif isinstance(leaf, (PoissonSubsampled, SampledWithoutReplacement)):
                inner = leaf.event
                if isinstance(inner, (Gaussian, Laplace, DiscreteLaplace)):
                    scale = leaf.rate * inner.sensitivity / getattr(inner, "sigma", getattr(inner, "scale", 1.0))
                else:
                    scale = leaf.rate * max(inner.epsilon, 1e-3)
                # the connect-the-dots bias of a subsampled leaf is second order in h / scale (about
                # 0.3 (h / scale)^2 relative in epsilon, measured): scale / 100 keeps it near 3e-5;
                # the older floor max(5e-5, scale / 200) is kept where it is finer (never looser)
                h = min(h, max(5e-5, scale / 200), scale / 100)
            m1, v1 = _loss_moments(leaf)
            mean += count * m1
            var += count * v1
        span = mean + 16 * math.sqrt(var)
        h = max(h, span / 2 ** 20)
        # atom-valued leaves (randomized response, pure / approximate DP black boxes) with one
        # common epsilon have every loss on the lattice eps0 Z: a step that divides eps0 (or a
        # multiple of it, when the size cap asks for a coarser step) puts every atom on a grid
        # point, so they are not split at all (issue 32: 10^5-fold RR was 6 % above exact)
        atoms = {leaf.epsilon for leaf, _ in plan
                 if isinstance(leaf, (RandomizedResponse, PureDP, ApproxDP)) and leaf.epsilon > 0}
        if len(atoms) == 1:
            (eps0,) = atoms
            only_atoms = all(isinstance(leaf, (RandomizedResponse, PureDP, ApproxDP)) for leaf, _ in plan)
            if only_atoms:  # nothing needs a finer grid than the lattice itself
                h = eps0 * max(1, math.ceil(span / 2 ** 20 / eps0))
            else:
                h = eps0 / math.ceil(eps0 / h) if h <= eps0 else eps0 * math.ceil(h / eps0)
        return h

    def composed_pmfs(self, event: DpEvent) -> list[LossPMF]:
        """The composed PMF for each direction that needs one (one for symmetric events)."""
        plan = self.plan(event)
        return self._pmfs(plan)

    def _pmfs(self, plan, mode=None, delta: float = 1e-9) -> list[LossPMF]:
        # the FFT round-off budget follows the smallest delta asked for (<= 1e-3 delta), so that a
        # small delta forces the extended-precision paths instead of paying in slack (and in the
        # upward bias of clipped float64 noise)
        budget = _budget(delta)
        return _cached_pmfs(self, plan, self.discretisation if mode is None else mode, budget)

    def _epsilon(self, plan, delta: float) -> float:
        return max(p.epsilon(delta) for p in self._pmfs(plan, delta=delta))

    def _delta(self, plan, epsilon: float) -> float:
        return max(p.delta(epsilon) for p in self._pmfs(plan))

    # ------------------------------------------------------------------ arrays and bounds
    def epsilons(self, event: DpEvent, deltas) -> np.ndarray:
        """Certified upper bounds on epsilon at each delta of ``deltas`` (array in, array out;
        the composed PLD is computed once)."""
        ds = _unit_array("deltas", deltas)
        pmfs = self._pmfs(self.plan(_as_event(event)), delta=float(np.min(ds)))
        return np.array([max(p.epsilon(float(d)) for p in pmfs) for d in ds.ravel()]).reshape(ds.shape)

    def deltas(self, event: DpEvent, epsilons) -> np.ndarray:
        """Certified upper bounds on delta at each epsilon of ``epsilons`` (array in, array out)."""
        es = _nonneg_array("epsilons", epsilons)
        pmfs = self._pmfs(self.plan(_as_event(event)))
        return np.array([max(p.delta(float(e)) for p in pmfs) for e in es.ravel()]).reshape(es.shape)

    def bounds(self, event: DpEvent, deltas) -> "PLDBounds":
        """Upper and lower bounds on the true epsilon(delta) of ``event`` at each delta.

        * ``upper``: the certified upper bound (as :meth:`epsilon`);
        * ``estimate``: the same pessimistic PLD's epsilon without the numerical error terms, so
          ``upper - estimate`` (``numerical_slack``) is how much of ``upper`` is round-off slack;
        * ``lower``: a lower bound on the true epsilon from the *optimistic* PLD (every loss
          rounded down to the grid, tails dropped), with its own round-off, the mass that
          truncation could have moved up and the bins' relative inflation all subtracted:
          the true epsilon(delta) is at least ``lower``. ``upper - lower`` shows how tight the
          certificate is. 0.0 where no optimistic PLD is implemented (subsampled Laplace, sampling
          without replacement). Continuous losses (Gaussian, subsampled Gaussian) are merged
          onto the grid (:func:`_merge_down`, second order in h); atoms are rounded down.
        """
        ds = _unit_array("deltas", deltas)
        plan = self.plan(_as_event(event))
        pess = self._pmfs(plan, delta=float(np.min(ds)))
        upper = np.array([max(p.epsilon(float(d)) for p in pess) for d in ds.ravel()])
        estimate = np.array([max(p.epsilon(float(d), certified=False) for p in pess) for d in ds.ravel()])
        try:
            opt = self._pmfs(plan, _ROUND_DOWN, delta=float(np.min(ds)))
        except UnsupportedEvent:
            opt = None
        if opt is None:
            lower = np.zeros_like(upper)
        else:
            copies = sum(c for _, c in plan)
            # each truncation lumps at most `tail` up; the pipeline truncates at
            # tail = min(tail_mass, budget) (the budget follows the smallest delta asked for)
            moved = 4 * min(self.tail_mass, _budget(float(np.min(ds)))) * len(plan)
            defl = math.exp(-copies * (_MAX_REL_INFLATION + 256 * U))
            lower = np.array([max(p.epsilon_lower(float(d), moved, defl) for p in opt) for d in ds.ravel()])
        lower = np.minimum(lower, upper)
        shape = ds.shape
        return PLDBounds(ds, upper.reshape(shape), lower.reshape(shape), estimate.reshape(shape),
                         (upper - estimate).reshape(shape), self.grid_step(plan))


@dataclass(frozen=True, eq=False)
class PLDBounds:
    """``epsilon(delta)`` bounds from :meth:`PLDComposition.bounds` (arrays aligned with
    ``deltas``): ``upper`` (certified), ``lower`` (the true value is at least this),
    ``estimate`` (pessimistic PLD without error terms), ``numerical_slack = upper - estimate``,
    and the grid step ``h`` used."""

    deltas: np.ndarray
    upper: np.ndarray
    lower: np.ndarray
    estimate: np.ndarray
    numerical_slack: np.ndarray
    h: float

    def to_dict(self) -> dict:
        return {"deltas": self.deltas.tolist(), "upper": self.upper.tolist(), "lower": self.lower.tolist(),
                "estimate": self.estimate.tolist(), "numerical_slack": self.numerical_slack.tolist(),
                "h": self.h}


def _budget(delta: float) -> float:
    """FFT round-off budget for a query at ``delta``: 1e-12, or 1e-3 delta when smaller, rounded
    down to a power of ten (so that nearby deltas share the cached PMFs)."""
    b = min(1e-12, 1e-3 * delta)
    return 10.0 ** math.floor(math.log10(b))


#: PMFs with more bins than this are composed one after the other, smaller ones as a tree
_TREE_MAX = 2048

#: The last composition per (method, mode, budget, h, directions): (plan, [composed PMF per
#: direction]). A plan that extends it (same entries first, then new ones) starts from it, so a
#: ledger that grows by new events is composed incrementally (the result is identical to a fresh
#: run: the same convolutions in the same order).
_LAST: dict = {}
_LAST_MAX = 8


@lru_cache(maxsize=8)
def _cached_pmfs(method: "PLDComposition", plan, mode, budget: float = 1e-12) -> list:
    h = method.grid_step(plan)
    both = not all(_symmetric(l) for l, _ in plan)
    key = (method, mode, budget, h, both)
    start, accs = 0, None
    last = _LAST.get(key)
    if last is not None and len(last[0]) <= len(plan) and plan[:len(last[0])] == last[0]:
        start, accs = len(last[0]), last[1]
    out = []
    tail = min(method.tail_mass, budget)
    for i, direction in enumerate((0, 1) if both else (0,)):
        acc = accs[i] if accs is not None else None
        # the new entries are composed as a balanced binary tree (a binary counter of partial
        # products, O(log n) of them alive): n small PMFs then cost about n log n times their size
        # instead of n times the size of the whole composition; every convolution carries its own
        # error bound and truncation, whatever the order
        stack: list[tuple[int, LossPMF]] = []
        for leaf, count in plan[start:]:
            # a leaf's tail goes to +inf in each of its `count` copies: keep count x leaf tail
            # within the budget (the Gaussian grids then reach a few more standard deviations)
            leaf_tail = min(method.tail_mass, max(budget / count, 1e-300))
            pmf = _cached_leaf(leaf, direction if not _symmetric(leaf) else 0, h, leaf_tail, mode)
            pmf = pmf.self_compose(count, tail, budget)
            if pmf.probs.size > _TREE_MAX:
                # a large PMF goes straight into the running composition: convolving two large
                # spread-out PMFs (as the tree would) costs more certified FFT round-off (measured:
                # 50 subsampled steps, upper +2.5e-6) and saves nothing
                acc = pmf if acc is None else acc.convolve(pmf, tail)
                continue
            level = 0
            while stack and stack[-1][0] == level:
                pmf = stack.pop()[1].convolve(pmf, tail)
                level += 1
            stack.append((level, pmf))
        while len(stack) > 1:
            top = stack.pop()[1]
            lvl, below = stack.pop()
            stack.append((lvl, below.convolve(top, tail)))
        if stack:
            acc = stack[0][1] if acc is None else acc.convolve(stack[0][1], tail)
        out.append(acc)
    if len(_LAST) >= _LAST_MAX and key not in _LAST:
        _LAST.pop(next(iter(_LAST)))
    _LAST[key] = (plan, out)
    return out


def _as_event(event) -> DpEvent:
    from ._method import _event
    return _event(event)


def _unit_array(name: str, values) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if arr.size == 0 or not np.all((arr > 0) & (arr < 1)):
        raise InvalidArgument(f"{name}={values!r} must be a non-empty array of values strictly between 0 and 1 "
                              "(NaN rejected). Give e.g. [1e-5, 1e-10].")
    return arr


def _nonneg_array(name: str, values) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if arr.size == 0 or not np.all(np.isfinite(arr) & (arr >= 0)):
        raise InvalidArgument(f"{name}={values!r} must be a non-empty array of finite values >= 0 "
                              "(NaN rejected). Give e.g. [0.5, 1.0, 2.0].")
    return arr


def _loss_moments(leaf: DpEvent) -> tuple[float, float]:
    """Rough (mean, variance) of a leaf's privacy loss under P, for sizing the grid only (never
    for a bound): Gaussian ``(mu^2/2, mu^2)``; subsampled Gaussian ``(q^2 v, q^2 v)`` with
    ``v = e^{mu^2} - 1`` (the chi-square divergence), capped by the inner values; pure losses
    bounded by ``e``: ``(e^2/2, e^2)``."""
    if isinstance(leaf, Gaussian):
        return leaf.mu ** 2 / 2, leaf.mu ** 2
    if isinstance(leaf, (PoissonSubsampled, SampledWithoutReplacement)):
        inner_m, inner_v = _loss_moments(leaf.event)
        if isinstance(leaf.event, Gaussian):
            v = math.expm1(min(leaf.event.mu ** 2, 700.0))
        else:
            v = math.expm1(min(leaf.event.epsilon, 700.0)) ** 2
        q2 = leaf.rate ** 2
        return min(q2 * v, inner_m), min(q2 * v, inner_v)
    if isinstance(leaf, DiscreteGaussian):
        mu = leaf.sensitivity / leaf.sigma
        return mu ** 2 / 2, mu ** 2
    eps = getattr(leaf, "epsilon", 1.0)
    return eps ** 2 / 2, eps ** 2


@lru_cache(maxsize=256)
def _cached_leaf(leaf, direction, h, tail, mode) -> LossPMF:
    return _leaf_pmf(leaf, direction, h, tail, mode)
