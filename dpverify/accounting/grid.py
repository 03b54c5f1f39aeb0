"""Putting one privacy-loss distribution on the grid ``l_j = j h``: the pessimistic (and the
optimistic) discretisation, with every floating-point error bounded.

The per-event distributions (:mod:`.losses`) call the two routines here: :func:`split_atoms` for
point masses and :func:`ctd_mixture` for a loss that is a monotone function of a variable with a
Gaussian-mixture density; the masses collect in a :class:`Bins` and come out as a
:class:`~dpverify.accounting.pmf.LossPMF`. Imports no event and no method.

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
the profile.

The optimistic mode (:data:`ROUND_DOWN`, for the lower bound of
:meth:`PLDComposition.bounds <dpverify.accounting.pld.PLDComposition.bounds>`) rounds losses down
and merges adjacent intervals onto the grid (:func:`merge_down`); it drops the tails.

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
FFT round-off is bounded in :mod:`dpverify.accounting.spectral`; the whole chain of
inequalities is in :mod:`dpverify.accounting.pld`.
"""
from __future__ import annotations

import enum
import math

import numpy as np
from numpy.polynomial.legendre import leggauss
from scipy.special import ndtr

from ..errors import NumericalError
from .pmf import U, LossPMF

__all__ = ["Bins", "Discretisation", "MAX_REL_INFLATION", "ROUND_DOWN", "ctd_mixture", "merge_down",
           "split_atoms"]

_NODES = 8
_GL_T, _GL_W = leggauss(_NODES)
_CRAMER = 1.0865


class Discretisation(enum.Enum):
    """How continuous losses are put on the grid (both are pessimistic; see module docstring)."""

    CONNECT_DOTS = "connect-dots"
    ROUND_UP = "round-up"


#: Mode of the optimistic (lower-bound) pipeline, not offered to users: every loss rounded *down*
#: to the grid, tails below the grid and above it dropped (moved to -inf); see
#: :meth:`PLDComposition.bounds <dpverify.accounting.pld.PLDComposition.bounds>`.
ROUND_DOWN = "round-down"
#: Upper bound on the relative inflation of one leaf's bins (quadrature rho + bincount + the final
#: rounding); checked where rho is computed. The lower bound deflates by it, once per leaf copy.
MAX_REL_INFLATION = 1e-10


class Bins:
    """Accumulates masses at grid indices, an inf mass and an error bound; :meth:`pmf` turns them
    into a :class:`LossPMF` (inflating each bin by its summation error)."""

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
        lmax = max(abs(lo), abs(lo + probs.size)) * h
        # bincount's summation error is relative to each bin's own mass: inflate the bins (H is
        # increasing in every mass) instead of charging an absolute error to delta; the location
        # error of the losses (4u(|l| + 1)) becomes the loss shift (applied as H(eps - shift))
        probs = probs * (1 + (len(self.idx) + 6) * U)
        return LossPMF(h, lo, probs, min(1.0, self.inf * (1 + 4 * U)), self.error, 4 * U * (lmax + 1))


def split_atoms(bins: Bins, losses, masses, h: float, mode: Discretisation) -> None:
    """Put point masses ``masses`` at ``losses`` on the grid of step ``h``: rounded up, rounded down
    (optimistic mode), or split between the two grid points around each loss (connect the dots:
    both the P- and the Q-mass kept).  The split fraction's round-off joins ``bins.error``."""
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
    if mode is ROUND_DOWN:
        bins.add(j, masses)
        return
    p_b = masses * (np.expm1(-r) / math.expm1(-h))
    bins.add(j + 1, p_b)
    bins.add(j, masses - p_b)
    # the split fraction carries a relative error ~4u: transport by at most h (an atom on a grid
    # point, r = 0 or r = h, is not split: its fraction is exactly 0 or 1)
    split = (r > 0) & (r < h)
    bins.error += 8 * U * h * float(np.sum(masses[split]))


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


def ctd_mixture(bins: Bins, h: float, mode: Discretisation, *, y_lo: float, y_hi: float,
                L_of_y, y_of_t, comps_p, comps_q, scale: float, loc_err=None) -> None:
    """Discretise a loss L(y), increasing in y, where y has the P-density ``comps_p`` and the
    Q-density ``comps_q`` (Gaussian mixtures of common ``scale``), restricted to
    ``(y_lo, y_hi]``; P(y <= y_lo) is lumped up, P(y > y_hi) goes to +inf. ``loc_err(t, y)``,
    when given, bounds the absolute error of the computed ``L`` at the nodes of each interval
    (arrays: ``t`` the largest ``|L|`` and ``y`` the largest ``|y|`` on the interval); otherwise
    ``4 u (t_max + 1)`` with ``t_max`` the largest ``|L|`` on the range.

    Steps: the grid intervals and their ranges of y (:func:`_intervals`); the two tails
    (:func:`_add_tails`); intervals too wide for quadrature, rounded via CDFs (:func:`_add_wide`);
    the loss-location error per interval (:func:`_location_error`); per number of pieces, the
    Gauss--Legendre masses put on the grid (:func:`_add_quadrature`) with the quadrature remainder
    bound (:func:`_quadrature_remainder`); in the optimistic mode, the merge (:func:`merge_down`)."""
    t_lo, t_hi = float(L_of_y(np.array([y_lo]))[0]), float(L_of_y(np.array([y_hi]))[0])
    j_lo, j_hi, j, a, ya, yb = _intervals(h, t_lo, t_hi, y_lo, y_hi, y_of_t)
    _add_tails(bins, mode, j_lo, y_lo, y_hi, comps_p, scale)
    width = (yb - ya) / scale
    wide = width > 16.0
    if np.any(wide):
        _add_wide(bins, mode, j[wide], ya[wide], yb[wide], comps_p, scale)
    sub = _pieces(width, wide)
    eta_hs = _location_error(h, a, ya, yb, max(abs(t_lo), abs(t_hi), abs(j_lo * h), abs(j_hi * h)), loc_err)
    merge = (np.zeros(j.size), np.zeros(j.size), np.full(j.size, np.inf)) if mode is ROUND_DOWN else None
    for s in np.unique(sub[sub > 0]):
        sel = np.nonzero(sub == s)[0]
        _add_quadrature(bins, mode, h, int(s), sel, j[sel], a[sel], ya[sel], yb[sel], eta_hs[sel], L_of_y,
                        comps_p, comps_q, scale, merge)
    if merge is not None:
        merge_P, merge_E, merge_D = merge
        keep = merge_P > 0
        beta = merge_down(merge_E[keep], merge_D[keep], j[keep])
        bins.add(j[keep], merge_P[keep] * (1 - beta))
        bins.add(j[keep] + 1, merge_P[keep] * beta)


def _intervals(h: float, t_lo: float, t_hi: float, y_lo: float, y_hi: float, y_of_t):
    """The grid intervals ``(a, a + h]``, ``a = j h``, covering the losses ``[t_lo, t_hi]``, and the
    range ``[ya, yb]`` of y mapped into each (clipped to ``[y_lo, y_hi]``):
    ``(j_lo, j_hi, j, a, ya, yb)`` with ``j = j_lo .. j_hi - 1``."""
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
    return j_lo, j_hi, j, a, ya, yb


def _add_tails(bins: Bins, mode, j_lo: int, y_lo: float, y_hi: float, comps_p, scale: float) -> None:
    """P(y <= y_lo) lumped up into the first grid point above, P(y > y_hi) sent to +inf (both
    dropped in the optimistic mode)."""
    cdf_lo, _ = _mix_cdf(np.array([y_lo]), comps_p, scale)
    _, sf_hi = _mix_cdf(np.array([y_hi]), comps_p, scale)
    if mode is not ROUND_DOWN:
        bins.add([j_lo + 1], [cdf_lo[0]])
        bins.inf += float(sf_hi[0])


def _add_wide(bins: Bins, mode, j: np.ndarray, ya: np.ndarray, yb: np.ndarray, comps_p, scale: float) -> None:
    """Intervals wider than 16 scales (only near an asymptote of L): their mass, from CDFs, rounded
    up to the grid (down in the optimistic mode)."""
    cw_a, sw_a = _mix_cdf(ya, comps_p, scale)
    cw_b, sw_b = _mix_cdf(yb, comps_p, scale)
    use_sf = cw_b > 0.5
    m = np.where(use_sf, sw_a - sw_b, cw_b - cw_a)
    bins.add(j + (0 if mode is ROUND_DOWN else 1), m)
    bins.error += 8 * U * float(np.sum(np.minimum(cw_b, sw_a) + np.minimum(cw_a, sw_b)))


def _pieces(width: np.ndarray, wide: np.ndarray) -> np.ndarray:
    """Number of quadrature pieces per interval (0 for wide or empty ones): pieces of width <= 1/4
    scale, rounded up to a power of two."""
    narrow = ~wide & (width > 0)
    sub = np.where(narrow, np.maximum(1, np.ceil(width * 4.0)), 0).astype(np.int64)
    return np.where(sub > 1, 2 ** np.ceil(np.log2(np.maximum(sub, 1))).astype(np.int64), sub)


def _location_error(h: float, a: np.ndarray, ya: np.ndarray, yb: np.ndarray, t_max: float, loc_err) -> np.ndarray:
    """Location error of the computed losses and of the grid points ``a = j h`` (``u |a|`` each) per
    interval, divided by ``1 - e^{-h}`` (the scale of the split weights)."""
    if loc_err is None:
        eta = np.full(a.size, 4 * U * (t_max + 1))
    else:  # per interval: the losses lie in [a, a + h] (up to the error itself), y in [ya, yb]
        t_abs = np.maximum(np.abs(a), np.abs(a + h))
        eta = loc_err(t_abs, np.maximum(np.abs(ya), np.abs(yb))) + 4 * U * t_abs
    return eta / -math.expm1(-h)


def _add_quadrature(bins: Bins, mode, h: float, s: int, sel, js, aa, ya_s, yb_s, eta_h, L_of_y,
                    comps_p, comps_q, scale: float, merge) -> None:
    """The intervals ``sel`` (each cut into ``s`` pieces): P-mass ``P_I`` and ``N_I = integral of p
    (1 - e^{a - L})`` by Gauss--Legendre quadrature, their arithmetic error inflated into the bins,
    put on the grid by ``mode`` (or recorded in ``merge`` for the optimistic merge), and the
    quadrature remainder added to ``bins.error``."""
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
    # arithmetic error of the masses, relative to each interval's own mass: the bins are
    # inflated by it (H increases with every mass) rather than charged to delta absolutely
    rho = (zg * zg + 2 * _NODES * s + 48) * U
    if not rho <= MAX_REL_INFLATION:  # the lower bound (epsilon_lower) relies on this cap
        raise NumericalError(f"loss too large for the quadrature (relative error bound {rho:g}); "
                             "use a larger noise scale")
    if mode is Discretisation.ROUND_UP:
        bins.add(js + 1, P_I * (1 + rho))
    else:
        with np.errstate(over="ignore"):
            wt = np.clip(-np.expm1(aa[:, None, None] - L_of_y(y)), 0.0, 1.0)
        N_I = np.sum(np.sum(p * wt * lw, axis=2), axis=1)
        c = -math.expm1(-h)
        if mode is ROUND_DOWN:
            _record_round_down(merge, sel, h, P_I, N_I, rho, c, eta_h)
        else:
            # the weights 1 - e^{a - L} see the location error eta of L: |d wt| <= eta per node
            slack = rho * N_I / c + eta_h * P_I * (1 + rho)
            P_up = P_I * (1 + rho)
            pb_up = np.minimum(N_I / c + slack, P_up)
            pb_lo = np.clip(N_I / c - slack, 0.0, P_up)
            bins.add(js + 1, pb_up * (1 + 2 * U))
            bins.add(js, (P_up - pb_lo) * (1 + 2 * U))
    rem = _quadrature_remainder(s, w, aa, ya_s, yb_s, comps_p, comps_q, scale)
    bins.error += rem * (1 + 1e-6)


def _record_round_down(merge, sel, h: float, P_I, N_I, rho: float, c: float, eta_h) -> None:
    """Optimistic mode: keep the intervals' P-mass and a certified lower bound on their excess
    ``E+ = P_I - e^a Q_I`` and an upper bound on their deficit ``E- = e^{a+h} Q_I - P_I`` for the
    merging pass (see :func:`merge_down`)."""
    merge_P, merge_E, merge_D = merge
    err_n = 2 * (rho * N_I + c * eta_h * P_I * (1 + rho))
    e_lo = np.maximum(0.0, N_I - err_n) * (1 - 8 * U)
    d_hi = ((math.exp(h) * (1 + 4 * U) * (P_I * (1 + rho) - e_lo) - P_I * (1 - rho)) * (1 + 8 * U)
            + 8 * U * P_I)
    merge_P[sel] = P_I * (1 + rho)
    merge_E[sel] = e_lo
    merge_D[sel] = np.maximum(d_hi, 0.0)


def _quadrature_remainder(s: int, w, aa, ya_s, yb_s, comps_p, comps_q, scale: float) -> float:
    """Bound on the total quadrature remainder of the pieces: per piece ``|phi^(16)(z)| <=
    min(Cramer, Hermite)`` taken at the point of the piece closest to each mean (log space:
    ``e^a q`` may be ``e^{+500} e^{-500}``). The Cramer bound alone is valid (looser) and cheap:
    when its total is negligible (<= 1e-24, far below any delta asked for) it is used as it is,
    else the minimum of both."""
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
    return rem


def merge_down(e_lo: np.ndarray, d_hi: np.ndarray, j: np.ndarray) -> np.ndarray:
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
