"""Conversions between privacy definitions: zCDP (rho), Gaussian DP (mu) and (epsilon, delta).

Array in, array out where it makes sense; every (epsilon, delta) value is an **upper bound** on
the privacy parameter it names unless the name says otherwise, and every argument is validated
(NaN and infinity refused with :class:`~dpverify.errors.InvalidArgument`).

* **zCDP** (Bun--Steinke 2016, "Concentrated differential privacy: simplifications, extensions,
  and lower bounds", Prop. 1.3): rho-zCDP implies ``(rho + 2 sqrt(rho log(1/delta)), delta)``-DP
  (:func:`zcdp_epsilon_bs`). The tighter conversion of Canonne--Kamath--Steinke 2020 (Prop. 12;
  any order alpha > 1 gives a valid bound, we minimise over alpha, so the root finder cannot
  land on the unsafe side) is :func:`zcdp_epsilon`. For the Gaussian mechanism itself
  (rho = Delta^2 / (2 sigma^2)) the exact profile is :func:`gaussian_epsilon_for_rho`
  (Balle--Wang 2018 Thm 8 with mu = sqrt(2 rho)); it is *not* valid for other rho-zCDP
  mechanisms.
* **Gaussian DP** (Dong--Roth--Su 2022, "Gaussian differential privacy", JRSS-B): the trade-off
  function ``G_mu(alpha) = Phi(Phi^{-1}(1 - alpha) - mu)`` (:func:`gdp_tradeoff`), the power of the
  best test at a false-positive rate (:func:`gdp_tpr_at_fpr`), the exact (epsilon, delta) curve
  (Cor. 2.13, :func:`gdp_delta` / :func:`gdp_epsilon`), ``mu`` of a composition of Gaussians
  ``sqrt(sum k_i mu_i^2)`` (Cor. 3.3, :func:`gdp_mu`), and the central-limit approximation of
  Poisson-subsampled Gaussian composition (Cor. 5.4 / Bu et al. 2020,
  :func:`clt_mu_dpsgd`) -- an *asymptotic* value, not a certified bound.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.optimize import minimize_scalar
from scipy.special import ndtr, ndtri

from .. import validation as v
from ..errors import InvalidArgument
from .events import Composed, DpEvent, Gaussian, SelfComposed, leaves
from .profiles import gaussian_delta

__all__ = [
    "zcdp_epsilon",
    "zcdp_epsilon_bs",
    "zcdp_delta",
    "gaussian_rho",
    "gaussian_epsilon_for_rho",
    "gdp_mu",
    "gdp_tradeoff",
    "gdp_tpr_at_fpr",
    "gdp_delta",
    "gdp_epsilon",
    "clt_mu_dpsgd",
]

_REL = 1e-12  # relative inflation covering the float evaluation of the closed forms


def _rho(rho) -> float:
    return v.nonnegative("rho", rho, fix="zCDP needs a finite rho >= 0.")


def _delta(delta) -> float:
    return v.open_unit("delta", delta, fix="Give delta strictly between 0 and 1, e.g. 1e-5.")


def zcdp_epsilon_bs(rho: float, delta: float) -> float:
    """Bun--Steinke 2016 Prop. 1.3: ``rho + 2 sqrt(rho log(1/delta))`` (an upper bound)."""
    rho, delta = _rho(rho), _delta(delta)
    return (rho + 2 * math.sqrt(rho * math.log(1 / delta))) * (1 + _REL)


def _cks_eps(rho: float, log_delta: float, a: float) -> float:
    return rho * a + math.log1p(-1 / a) - (log_delta + math.log(a)) / (a - 1)


def zcdp_epsilon(rho: float, delta: float) -> float:
    """Canonne--Kamath--Steinke 2020 Prop. 12 applied to the RDP curve ``rho alpha``:
    ``min_alpha rho alpha + log(1 - 1/alpha) - (log delta + log alpha)/(alpha - 1)``, an upper
    bound at every alpha (so the minimiser's result is safe); never above :func:`zcdp_epsilon_bs`."""
    rho, delta = _rho(rho), _delta(delta)
    if rho == 0:
        return 0.0
    ld = math.log(delta)
    a0 = 1 + math.sqrt(-ld / rho) if rho > 0 else 2.0
    res = minimize_scalar(lambda a: _cks_eps(rho, ld, a), bounds=(1 + 1e-9, max(4 * a0, 10.0)), method="bounded",
                          options={"xatol": 1e-10})
    best = min(_cks_eps(rho, ld, float(res.x)), _cks_eps(rho, ld, a0))
    best = max(best, 0.0) * (1 + _REL) + 1e-15
    return min(best, zcdp_epsilon_bs(rho, delta))


def zcdp_delta(rho: float, epsilon: float) -> float:
    """Upper bound on delta at ``epsilon`` for a rho-zCDP mechanism (CKS 2020 Prop. 12,
    ``min_alpha exp((alpha-1)(rho alpha - eps)) / alpha (1 - 1/alpha)^(alpha-1)``)."""
    rho = _rho(rho)
    epsilon = v.nonnegative("epsilon", epsilon, fix="Ask for delta at a finite epsilon >= 0.")
    if rho == 0:
        return 0.0

    def logd(a):
        return (a - 1) * (rho * a - epsilon) + (a - 1) * math.log1p(-1 / a) - math.log(a)

    a0 = max(1.0 + 1e-6, (epsilon + rho) / (2 * rho))
    res = minimize_scalar(logd, bounds=(1 + 1e-9, max(4 * a0, 10.0)), method="bounded", options={"xatol": 1e-10})
    best = min(logd(float(res.x)), logd(a0))
    return min(1.0, math.exp(best) * (1 + 1e-10))


def gaussian_rho(sigma: float, sensitivity: float = 1.0) -> float:
    """zCDP of the Gaussian mechanism: ``sensitivity^2 / (2 sigma^2)`` (Bun--Steinke 2016 Prop. 1.6)."""
    sigma = v.positive("sigma", sigma, fix="Gaussian noise needs a finite sigma > 0.")
    sensitivity = v.positive("sensitivity", sensitivity, fix="Give the query's L2 sensitivity (> 0).")
    return sensitivity ** 2 / (2 * sigma ** 2)


def gaussian_epsilon_for_rho(rho: float, delta: float) -> float:
    """The exact epsilon(delta) of the *Gaussian mechanism* whose zCDP is ``rho``
    (mu = sqrt(2 rho), Balle--Wang 2018 Thm 8), rounded up. Valid for the Gaussian only."""
    rho, delta = _rho(rho), _delta(delta)
    if rho == 0:
        return 0.0
    return gdp_epsilon(math.sqrt(2 * rho), delta)


# ---------------------------------------------------------------------------- Gaussian DP
def _mu(mu) -> float:
    return v.nonnegative("mu", mu, fix="Gaussian DP needs a finite mu >= 0.")


def gdp_mu(event: DpEvent) -> float:
    """mu of a composition of Gaussian events: ``sqrt(sum_i k_i (sensitivity_i / sigma_i)^2)``
    (Dong--Roth--Su 2022 Cor. 3.3: mu-GDP composes as the root sum of squares; k Gaussians of
    noise sigma give ``sqrt(k)/sigma``). Refuses events that are not Gaussians."""
    if not isinstance(event, DpEvent):
        raise InvalidArgument(f"event={event!r} must be a DpEvent (e.g. SelfComposed(Gaussian(2.0), 10)).")
    total = 0.0
    for leaf, count in leaves(event):
        if not isinstance(leaf, Gaussian):
            raise InvalidArgument(f"event contains {leaf!r}: gdp_mu is exact for Gaussian events only. "
                                  "Use clt_mu_dpsgd for subsampled Gaussians (asymptotic) or an Accountant.")
        total += count * leaf.mu ** 2
    return math.sqrt(total)


def _alpha_array(name, values) -> np.ndarray:
    arr = np.asarray(values, dtype=float)
    if arr.size == 0 or not np.all((arr >= 0) & (arr <= 1)):
        raise InvalidArgument(f"{name}={values!r} must be probabilities in [0, 1] (NaN rejected).")
    return arr


def gdp_tradeoff(mu: float, alpha):
    """The trade-off function of mu-GDP, ``beta = Phi(Phi^{-1}(1 - alpha) - mu)``: the smallest
    type-II error of any test at type-I error ``alpha`` (DRS 2022 Def. 2.7). Array in, array out."""
    mu = _mu(mu)
    a = _alpha_array("alpha", alpha)
    out = ndtr(ndtri(1 - a) - mu)
    return out if np.ndim(alpha) else float(out)


def gdp_tpr_at_fpr(mu: float, fpr):
    """The largest true-positive rate of a membership test at false-positive rate ``fpr``
    against a mu-GDP mechanism: ``1 - G_mu(fpr) = Phi(Phi^{-1}(fpr) + mu)``. Array in/out."""
    mu = _mu(mu)
    a = _alpha_array("fpr", fpr)
    out = ndtr(ndtri(a) + mu)
    return out if np.ndim(fpr) else float(out)


def gdp_delta(mu: float, epsilon):
    """Exact delta(epsilon) of mu-GDP (DRS 2022 Cor. 2.13 = Balle--Wang Thm 8), rounded up.
    Array in, array out."""
    mu = _mu(mu)
    eps = np.asarray(epsilon, dtype=float)
    if eps.size == 0 or not np.all(np.isfinite(eps) & (eps >= 0)):
        raise InvalidArgument(f"epsilon={epsilon!r} must be finite and >= 0 (NaN rejected).")
    if mu == 0:
        out = np.zeros_like(eps)
    else:
        out = np.array([min(1.0, gaussian_delta(mu, float(e)) * (1 + 1e-10)) for e in eps.ravel()]).reshape(eps.shape)
    return out if np.ndim(epsilon) else float(out)


def gdp_epsilon(mu: float, delta):
    """Exact epsilon(delta) of mu-GDP by bisection on :func:`gdp_delta`, rounded up (the
    returned epsilon satisfies ``gdp_delta(mu, eps) <= delta``). Array in, array out."""
    mu = _mu(mu)
    ds = np.asarray(delta, dtype=float)
    if ds.size == 0 or not np.all((ds > 0) & (ds < 1)):
        raise InvalidArgument(f"delta={delta!r} must lie strictly between 0 and 1 (NaN rejected).")
    out = []
    for d in ds.ravel():
        d = float(d)
        if mu == 0 or gdp_delta(mu, 0.0) <= d:
            out.append(0.0)
            continue
        lo, hi = 0.0, mu * mu / 2 + mu * (abs(float(ndtri(d))) + 2) + 1
        while gdp_delta(mu, hi) > d:
            hi *= 2
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if gdp_delta(mu, mid) > d:
                lo = mid
            else:
                hi = mid
            if hi - lo <= 1e-13 * hi:
                break
        out.append(hi)
    arr = np.array(out).reshape(ds.shape)
    return arr if np.ndim(delta) else float(arr)


def clt_mu_dpsgd(rate: float, sigma: float, steps: int) -> float:
    """Central-limit mu of ``steps`` Poisson-subsampled Gaussians (rate q, noise multiplier
    sigma): ``q sqrt(T (e^{1/sigma^2} Phi(3/(2 sigma)) + 3 Phi(-1/(2 sigma)) - 2))`` (Dong--Roth--Su
    2022 Cor. 5.4; Bu et al. 2020). **Asymptotic** (T -> inf, q sqrt(T) fixed): not a certified
    bound, and known to under-estimate epsilon at small delta; use an Accountant for a bound."""
    q = v.probability("rate", rate, low_open=True, high_open=False, fix="The sampling rate lies in (0, 1].")
    sigma = v.positive("sigma", sigma, fix="The noise multiplier must be a finite number > 0.")
    steps = v.integer("steps", steps, minimum=1, fix="Give the number of steps (>= 1).")
    inner = (math.exp(1 / sigma ** 2) * ndtr(1.5 / sigma) + 3 * ndtr(-0.5 / sigma) - 2)
    return q * math.sqrt(steps * inner)


del Composed, SelfComposed  # imported for documentation cross-references only
