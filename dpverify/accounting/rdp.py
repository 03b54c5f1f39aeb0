"""Rényi DP composition (Mironov 2017) with the tight conversion to (epsilon, delta).

RDP of order alpha adds under composition. Per-event curves (upper bounds, exact where stated):

* Gaussian: ``alpha mu^2 / 2`` (exact; Mironov 2017 Prop. 7).
* Laplace (lambda = scale/sensitivity): Mironov 2017 Prop. 6 (exact),
  ``1/(alpha-1) log(alpha/(2alpha-1) e^{(alpha-1)/lambda} + (alpha-1)/(2alpha-1) e^{-alpha/lambda})``.
* Randomized response, PureDP (as binary randomized response, its dominating pair), discrete
  Laplace: exact ``1/(alpha-1) log E_P[e^{(alpha-1) L}]`` over the loss atoms.
* Discrete Gaussian: ``alpha Delta^2 / (2 sigma^2)`` (Canonne--Kamath--Steinke 2020, Prop. 5:
  it is (Delta^2/(2 sigma^2))-concentrated DP).
* Poisson-subsampled Gaussian, integer and fractional orders (:func:`sgm_rdp`, below: a certified
  bracket on Mironov--Talwar--Zhang 2019's ``A_alpha``, whose upper end bounds both directions,
  their Thm 5; fractional orders by the split series of their Sec. 3.3 with the alternating
  tail bracketed by Euler's transform).
* ApproxDP with delta > 0 and subsampled Laplace: unsupported.

Conversion (Canonne--Kamath--Steinke 2020 Prop. 12; = Balle et al. 2020 Thm 21, tighter than
Mironov's ``tau + log(1/delta)/(alpha-1)``)::

    delta = exp((alpha-1)(tau - eps)) / alpha * (1 - 1/alpha)^(alpha-1)
    eps   = tau + log(1 - 1/alpha) - (log delta + log alpha) / (alpha - 1)

minimised over the orders grid :data:`DEFAULT_ORDERS` (dp-accounting's default orders 1.1, 1.2,
..., 10.9, 11, ..., 63, 128, 256, 512, 1024, this module's earlier ones 1.25, 1.75, ..., 1024, and
1.01 ... 1.07: a superset of both), together with the KL bound that dp-accounting also uses:
``delta(0) = TV <= sqrt(1 - exp(-KL))`` (Bretagnolle--Huber) and ``KL <= RDP(alpha)`` for
alpha > 1, so ``delta(eps) <= sqrt(-expm1(-RDP(alpha)))`` at every eps >= 0.
Asoodeh et al. (2021) give the optimal conversion; it gains little over CKS and is not used.
Cost: O(#orders x #events).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

import numpy as np
from scipy.special import gammaln, log_ndtr

from .. import validation as v
from ..errors import InvalidArgument
from .atoms import discrete_laplace_atoms, rr_atoms
from .base import CompositionMethod
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
    ZCDP,
    grouped,
)

__all__ = ["DEFAULT_ORDERS", "EULER_TERMS", "RDPComposition", "rdp_curve", "sgm_log_a", "sgm_rdp"]

_EARLIER_ORDERS = (1.25, 1.75, 2.25, 2.75, 3.5, 4.5, 5.5, 64.0, 80.0, 96.0, 160.0, 192.0, 384.0, 768.0)
_NEAR_ONE = (1.01, 1.02, 1.03, 1.05, 1.07)  # for very long compositions (10^12 steps: the optimum is near 1)
#: The orders alpha at which RDP is tracked: dp-accounting 0.6.0's default orders (1.1 ... 10.9 in
#: steps of 0.1, 11 ... 63, 128, 256, 512, 1024), the earlier ones of this module not among them,
#: and five orders between 1.01 and 1.07.
DEFAULT_ORDERS = tuple(sorted({round(1 + x / 10, 10) for x in range(1, 100)} | {float(a) for a in range(11, 64)}
                              | {128.0, 256.0, 512.0, 1024.0} | set(_EARLIER_ORDERS) | set(_NEAR_ONE)))


def _atoms_rdp(losses, masses, alphas):
    losses = np.asarray(losses, dtype=float)
    logm = np.log(np.asarray(masses, dtype=float))
    out = []
    for a in alphas:
        z = logm + (a - 1) * losses
        c = float(np.max(z))
        out.append((c + math.log(float(np.sum(np.exp(z - c))))) / (a - 1))
    return np.array(out)


#: J: the number of Euler-transformed tail terms past the first one (width 2^-(J+1) of the tail).
EULER_TERMS = 40
_U = 2.0 ** -53
_FUNC_ULPS = 64


def _euler_weights(J: int) -> np.ndarray:
    """w_k = (-1)^k sum_{j=k}^{J} 2^-(j+1) C(j, k): sum_j 2^-(j+1) (j-th forward difference at 0)
    written as weights on a_0 .. a_J (exact rationals, rounded once)."""
    return np.array([float((-1) ** k * sum(Fraction(math.comb(j, k), 2 ** (j + 1)) for j in range(k, J + 1)))
                     for k in range(J + 1)])


_EULER_WEIGHTS = _euler_weights(EULER_TERMS)
_LOG_FACT = gammaln(np.arange(1, 2050, dtype=float))  # log k! for k = 0 .. 2048


def _term_error(*parts) -> np.ndarray:
    """Bound on the absolute error of a log-term computed as the sum of ``parts``: ``64 u``
    times the sum of their magnitudes (each part's own error and the additions)."""
    return _FUNC_ULPS * _U * sum(np.abs(p) for p in parts)


def _log_abs_binom(alpha: float, i: np.ndarray) -> np.ndarray:
    return gammaln(alpha + 1) - gammaln(i + 1) - gammaln(alpha - i + 1)


def _log_expm1(x: np.ndarray) -> np.ndarray:
    """log(expm1(x)) for x > 0, stable for small and large x."""
    return x + np.log(-np.expm1(-x))


def _log1p_exp(t: np.ndarray) -> np.ndarray:
    """log(1 + e^t), elementwise."""
    return np.where(t > 0, t + np.log1p(np.exp(-np.abs(t))), np.log1p(np.exp(np.minimum(t, 0.0))))


def _log_a_integer(q: float, s: float, alphas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Brackets on log A at integer orders ``alphas`` (all of one size class), as rows of a
    matrix: ``A - 1 = sum_{k>=2} ...`` (:func:`sgm_log_a`), every term positive."""
    amax = int(np.max(alphas))
    k = np.arange(2, amax + 1, dtype=float)[None, :]
    a = alphas[:, None]
    live = k <= a
    x = (k * k - k) / (2 * s * s)
    with np.errstate(invalid="ignore", divide="ignore"):
        if amax < _LOG_FACT.size:  # log C(a, k) from one table of log k! (scipy's gammaln at integers)
            ai, ki = a.astype(int), k.astype(int)
            logc = _LOG_FACT[ai] - _LOG_FACT[ki] - _LOG_FACT[np.maximum(ai - ki, 0)]
        else:
            logc = _log_abs_binom(a, k)
        parts = (np.where(live, logc, 0.0), (a - k) * math.log1p(-q), k * math.log(q),
                 _log_expm1(x))
    lt = np.where(live, sum(parts), -np.inf)
    m = np.max(lt, axis=1)
    t = np.exp(lt - m[:, None])
    total = np.sum(t, axis=1)
    # each term's relative error (its log-term's error, the exp, the sum: amax additions)
    slack = np.sum(t * np.expm1(np.minimum(_term_error(*parts, x) + 4 * _U, 700.0)), axis=1) + (amax + 2) * _U * total
    with np.errstate(divide="ignore"):
        lo = m + np.log(np.maximum(total - slack, 0.0))
    hi = m + np.log(total + slack)
    return _log1p_exp(lo) * (1 - 4 * _U), _log1p_exp(hi) * (1 + 4 * _U)


def _side_terms(q: float, s: float, alphas: np.ndarray, n: int):
    """Log-magnitudes of the first ``n`` terms of both sides at each order (rows), with bounds
    on their absolute errors."""
    i = np.arange(n, dtype=float)[None, :]
    a = alphas[:, None]
    j = a - i
    z0 = s * s * (math.log1p(-q) - math.log(q)) + 0.5
    lc = _log_abs_binom(a, i)
    out = []
    for x, mag, rest in (((z0 - i) / s, abs(z0) + i, ((a - i) * math.log1p(-q), i * math.log(q),
                                                       (i * i - i) / (2 * s * s))),
                         ((j - z0) / s, abs(z0) + np.abs(j), (j * math.log(q), i * math.log1p(-q),
                                                              (j * j - j) / (2 * s * s)))):
        ln = log_ndtr(x)
        # the argument x is off by <= 5u (|z0| + |i or j|)/s; |d log Phi/dx| <= 1 - x (x < 0), <= 2 phi(x) (x >= 0)
        slope = np.where(x < 0, 1 - x, 2 * np.exp(-0.5 * np.minimum(x * x, 1e300)))
        parts = (lc,) + rest + (ln,)
        out.append((sum(parts), np.minimum(_term_error(*parts) + slope * 5 * _U * mag / s, 700.0)))
    return out


def _side_bracket(a: np.ndarray, rel: np.ndarray, npos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """[lower, upper] on one side's sum per row (terms ``a`` scaled, relative errors ``rel``):
    positive terms 0..npos, then the alternating tail from npos + 1 bracketed by its Euler
    transform (:func:`sgm_log_a`)."""
    cols = np.arange(a.shape[1])[None, :]
    head = cols <= npos[:, None]
    pos = np.sum(np.where(head, a, 0.0), axis=1)
    pos_err = np.sum(np.where(head, a * rel, 0.0), axis=1) + (npos + 2) * _U * pos
    idx = npos[:, None] + 1 + np.arange(EULER_TERMS + 1)[None, :]
    d = np.take_along_axis(a, idx, axis=1)
    t_rel = np.max(np.take_along_axis(rel, idx, axis=1), axis=1)
    a0 = d[:, 0]
    # sum_{j<=J} 2^-(j+1) b_j = sum_k w_k a_{i0+k}: |w_k| <= 1, so an input error t_rel per term
    # costs <= (J+1) t_rel a0 and the float dot product and weights <= 2 (J+2)^2 u a0
    euler = d @ _EULER_WEIGHTS
    jj = EULER_TERMS
    e_err = (jj + 1) * t_rel * a0 + 2 * (jj + 2) ** 2 * _U * a0
    t_lo = np.maximum(0.0, euler - e_err)
    t_hi = np.minimum(a0 * (1 + t_rel), euler + e_err + 2.0 ** -(jj + 1) * a0 * (1 + t_rel))
    return pos - pos_err - t_hi, pos + pos_err - t_lo


def _log_a_fractional(q: float, s: float, alphas: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    npos = np.ceil(alphas).astype(int)
    n = int(np.max(npos)) + EULER_TERMS + 3
    live = np.arange(n)[None, :] <= (npos + EULER_TERMS + 2)[:, None]
    sides = [(np.where(live, la, -np.inf), err) for la, err in _side_terms(q, s, alphas, n)]
    m = np.maximum(np.max(sides[0][0], axis=1), np.max(sides[1][0], axis=1))
    # both sides as one matrix of 2R rows (one Euler pass)
    la = np.concatenate([sides[0][0], sides[1][0]]) - np.concatenate([m, m])[:, None]
    err = np.concatenate([sides[0][1], sides[1][1]])
    l_, h_ = _side_bracket(np.exp(la), np.expm1(err + 2 * _U), np.concatenate([npos, npos]))
    r = alphas.size
    lo, hi = l_[:r] + l_[r:], h_[:r] + h_[r:]
    log_hi = m + np.log(hi * (1 + 8 * _U))
    with np.errstate(divide="ignore", invalid="ignore"):
        log_lo = np.where(lo > 0, m + np.log(np.maximum(lo, 1e-300) * (1 - 8 * _U)), 0.0)
    return np.maximum(0.0, log_lo - 4 * _U * np.abs(log_lo)), log_hi + 4 * _U * np.abs(log_hi)


def _size_classes(alphas: np.ndarray):
    """Index arrays grouping orders of similar size (a matrix per group wastes little)."""
    keys = np.floor(np.log2(np.maximum(alphas, 64.0))).astype(int)  # every order below 64 in one group
    return [np.flatnonzero(keys == k) for k in np.unique(keys)]


def sgm_log_a(rate: float, sigma: float, alphas) -> tuple[np.ndarray, np.ndarray]:
    """Certified ``(lower, upper)`` arrays on ``log A_alpha`` of the Poisson-subsampled Gaussian
    with sampling rate ``rate`` in (0, 1] and noise ``sigma`` (sensitivity 1), at each order
    ``alpha > 1`` of ``alphas``; ``log A_alpha >= 0``.

    With ``mu0 = N(0, s^2)``, ``mu1 = N(1, s^2)`` (``s = sigma / sensitivity``) and
    ``mu = (1-q) mu0 + q mu1``, the "remove" direction has ``D_alpha(mu || mu0) = log A_alpha / (alpha-1)``,

        A_alpha = E_{z ~ mu0} [ (1 - q + q y(z))^alpha ],   y(z) = exp((2z - 1) / (2 s^2)),

    and Mironov--Talwar--Zhang 2019 ("Rényi Differential Privacy of the Sampled Gaussian
    Mechanism", arXiv:1908.10530, Thm 5) show that the "add" direction ``D_alpha(mu0 || mu)`` is
    never larger for alpha >= 1, so ``log A_alpha / (alpha-1)`` bounds both (the tests check the
    reverse direction by quadrature at fractional orders too).

    **Integer alpha** (MTZ Sec. 3.1): ``A - 1 = sum_{k>=2} C(a,k) (1-q)^{a-k} q^k expm1((k^2-k)/(2s^2))``,
    a sum of positive terms, so ``log A = log1p(A - 1)`` keeps its relative accuracy also when the
    RDP is tiny (the plain log-sum-exp of the binomial terms loses it there: its absolute error
    ``~u alpha q`` exceeds ``log A`` itself at q = 0.01, s = 5000).

    **Fractional alpha** (MTZ Sec. 3.3): split at ``z0 = s^2 log(1/q - 1) + 1/2`` where
    ``q y = 1 - q``; on each side expand the binomial series (side 0: in ``r = q y/(1-q) <= 1``;
    side 1: in ``w = (1-q)/(q y) <= 1``). Every term has a closed form with ``Phi``:

        side 0:  |C(a,i)| (1-q)^{a-i} q^i  exp((i^2-i)/(2s^2)) Phi((z0 - i)/s)
        side 1:  |C(a,i)| q^{a-i} (1-q)^i  exp((j^2-j)/(2s^2)) Phi((j - z0)/s),   j = a - i.

    The coefficients are positive for ``i <= ceil(a)`` and alternate from ``i0 = ceil(a) + 1`` on.
    For ``i > a``, ``|C(a,i)| = |sin(pi a)|/pi * B(i - a, a + 1)`` is a moment sequence, and so is
    each side's ``E[r^i]`` (``r`` in [0, 1]); their product is ``a_i = int x^i dnu(x)`` for a positive
    measure ``nu`` on [0, 1]. Hence the alternating tail is

        T = sum_k (-1)^k a_{i0+k} = int x^{i0} / (1 + x) dnu = sum_{j>=0} 2^{-(j+1)} b_j,
        b_j = int x^{i0} (1-x)^j dnu = (j-th forward difference of a at i0) >= 0, non-increasing,

    (Euler's transform, ``1/(1+x) = sum_j (1-x)^j / 2^{j+1}`` on [0, 1]), so ``T`` lies in
    ``[sum_{j<=J} 2^{-(j+1)} b_j,  that + 2^{-(J+1)} b_J]``: a certified bracket from ``J + 2``
    tail terms, with ``J = 40`` (width ``<= 2^-41 a_{i0}``). dp-accounting 0.6.0 sums the
    *absolute values* of the series (an upper bound, up to 43 % above the exact RDP at alpha = 1.3,
    q = 0.1, s = 2) and drops an order whose series has not converged after 1000 terms.

    **Round-off** (stated assumptions): scipy's ``gammaln``, ``log_ndtr``, ``log1p``, ``expm1``,
    ``exp``, ``log`` are accurate to 64 ulps of their result (``u = 2^-53``); the error of each
    log-term is then at most ``64 u`` times the sum of the magnitudes of its parts, which bounds the
    relative error of each term; forward differences and sums add ``u`` per operation on the
    magnitudes involved. The bracket returned widens by all of these (``_term_error``).
    """
    rate = v.probability("rate", rate, low_open=True, high_open=False, fix="The sampling rate must lie in (0, 1].")
    sigma = v.positive("sigma", sigma, fix="Pass the noise standard deviation at sensitivity 1 (> 0, finite).")
    try:
        al = np.atleast_1d(np.asarray(alphas, dtype=float))
    except (TypeError, ValueError):
        al = np.array([np.nan])
    if al.ndim != 1 or not np.all(al > 1) or not np.all(np.isfinite(al)):
        raise InvalidArgument(f"alphas={alphas!r} must be finite orders > 1 (a number or a 1-d sequence).")
    lo, hi = np.empty_like(al), np.empty_like(al)
    if rate == 1.0:
        exact = al * (al - 1) / (2 * sigma * sigma)  # q = 1: the Gaussian
        return exact * (1 - 2 * _U), exact * (1 + 2 * _U)
    integer = al == np.floor(al)
    for mask, fn in ((integer, _log_a_integer), (~integer, _log_a_fractional)):
        idx = np.flatnonzero(mask)
        for group in _size_classes(al[idx]) if idx.size else []:
            sel = idx[group]
            lo[sel], hi[sel] = fn(rate, sigma, al[sel])
    return lo, hi


def sgm_rdp(rate: float, sigma: float, alphas) -> tuple[np.ndarray, np.ndarray]:
    """Certified lower and upper bounds on the RDP ``log A_alpha / (alpha - 1)`` at each of
    ``alphas`` (both neighbour directions; MTZ 2019 Thm 5)."""
    lo, hi = sgm_log_a(rate, sigma, alphas)
    al = np.atleast_1d(np.asarray(alphas, dtype=float))
    return lo / (al - 1) * (1 - 2 * _U), hi / (al - 1) * (1 + 2 * _U)


@lru_cache(maxsize=4096)
def _cached_curve(method: "RDPComposition", leaf: DpEvent) -> np.ndarray:
    """``rdp_curve`` at the method's orders, cached per leaf (an accountant asked after every
    step then pays for each distinct leaf once); the array is never written."""
    out = rdp_curve(method, leaf, np.asarray(method.orders))
    out.setflags(write=False)
    return out


def rdp_curve(method: "RDPComposition", leaf: DpEvent, alphas) -> np.ndarray:
    """Upper bounds on the RDP of ``leaf`` at ``alphas`` (both directions), or UnsupportedEvent."""
    al = np.asarray(alphas, dtype=float)
    if isinstance(leaf, Gaussian):
        return al * leaf.mu ** 2 / 2
    if isinstance(leaf, DiscreteGaussian):
        return al * leaf.sensitivity ** 2 / (2 * leaf.sigma ** 2)
    if isinstance(leaf, ZCDP):  # Bun--Steinke 2016 Def. 1.1: RDP(alpha) <= rho alpha
        return al * leaf.rho
    if isinstance(leaf, Laplace):
        lam = 1 / leaf.epsilon
        out = []
        for a in al:
            t1 = math.log(a / (2 * a - 1)) + (a - 1) / lam
            t2 = math.log((a - 1) / (2 * a - 1)) - a / lam
            out.append(np.logaddexp(t1, t2) / (a - 1))
        return np.array(out)
    if isinstance(leaf, RandomizedResponse):
        return _atoms_rdp(*rr_atoms(leaf.epsilon, leaf.categories), al)
    if isinstance(leaf, PureDP) or (isinstance(leaf, ApproxDP) and leaf.delta == 0):
        if leaf.epsilon == 0:
            return np.zeros_like(al)
        return _atoms_rdp(*rr_atoms(leaf.epsilon, 2), al)
    if isinstance(leaf, DiscreteLaplace):
        return _atoms_rdp(*discrete_laplace_atoms(leaf.scale, leaf.sensitivity), al)
    if isinstance(leaf, PoissonSubsampled) and isinstance(leaf.event, Gaussian):
        return sgm_rdp(leaf.rate, 1 / leaf.event.mu, al)[1]
    if isinstance(leaf, ApproxDP):
        raise method.unsupported(leaf, "an (epsilon, delta>0) black box has no finite Rényi divergence")
    raise method.unsupported(leaf, "no Rényi-DP bound is implemented for it")


@dataclass(frozen=True)
class RDPComposition(CompositionMethod):
    """RDP accounting over ``orders`` with the CKS conversion; certified upper bounds."""

    orders: tuple = DEFAULT_ORDERS
    name: str = "rdp"
    per_leaf = True  # class attribute, not a dataclass field

    def __post_init__(self) -> None:
        try:
            orders = tuple(float(v.real("orders[i]", a)) for a in self.orders)
        except TypeError:
            raise InvalidArgument(f"orders={self.orders!r} must be a sequence of numbers > 1.") from None
        if not orders or not all(a > 1 for a in orders):
            raise InvalidArgument(f"orders={self.orders!r} must be a non-empty sequence of numbers > 1.")
        object.__setattr__(self, "orders", orders)

    def plan(self, event: DpEvent) -> np.ndarray:
        al = np.asarray(self.orders)
        total = np.zeros_like(al)
        for leaf, count in grouped(event):
            total = total + count * _cached_curve(self, leaf)
        return total * (1 + 1e-12)

    def _epsilon(self, plan, delta: float) -> float:
        al = np.asarray(self.orders)
        with np.errstate(invalid="ignore"):
            eps = plan + np.log1p(-1 / al) - (math.log(delta) + np.log(al)) / (al - 1)
        eps = eps[np.isfinite(eps)]
        if _kl_delta(plan) <= delta:
            return 0.0
        if eps.size == 0:
            return math.inf
        return max(0.0, float(np.min(eps)) * (1 + 1e-12) + 1e-15)

    def _delta(self, plan, epsilon: float) -> float:
        al = np.asarray(self.orders)
        with np.errstate(invalid="ignore", over="ignore"):
            logd = (al - 1) * (plan - epsilon) + (al - 1) * np.log1p(-1 / al) - np.log(al)
        logd = logd[np.isfinite(logd)]
        best = _kl_delta(plan)
        if logd.size:
            best = min(best, math.exp(float(np.min(logd))) * (1 + 1e-10))
        return min(1.0, best)


def _kl_delta(plan) -> float:
    """``sqrt(1 - exp(-r))`` at the smallest RDP ``r`` of the plan: a certified bound on
    ``delta(0) = TV >= delta(eps)`` (Bretagnolle--Huber; ``KL <= RDP(alpha)`` for alpha > 1)."""
    r = float(np.min(plan))
    if not (r >= 0):
        return 1.0
    return min(1.0, math.sqrt(-math.expm1(-r)) * (1 + 1e-12))
