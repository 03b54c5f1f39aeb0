"""Confidence bounds for means of [0, 1]-valued samples and for binomial proportions.

The white-box audit estimates delta(eps) = E[(1 - exp(eps - L))_+], the mean of a variable in
[0, 1]. Its bounds come from **Hoeffding's (1963) Theorem 1** in its Chernoff/KL form: for
i.i.d. X_i in [0, 1] with mean mu and empirical mean m,

    P(m >= mu + t) <= exp(-n * kl(mu + t || mu)),   P(m <= mu - t) <= exp(-n * kl(mu - t || mu)),

where kl(p || q) = p log(p/q) + (1-p) log((1-p)/(1-q)) is the Bernoulli KL divergence. Hence

    lower(m) = inf{ mu <= m : n * kl(m || mu) <= log(1/alpha) }

is a lower confidence bound at level 1 - alpha (and symmetrically ``kl_upper``). For Bernoulli
samples this is the Chernoff bound, within a few percent of Clopper-Pearson; it needs no
variance estimate and is valid for every [0, 1]-valued law.

``clopper_pearson_lower`` / ``_upper`` are the exact binomial bounds (via the beta quantile).

``paired_log_ratio_lower`` is a *joint* lower bound on log(p1 / p2) for one event E with
p1 = P_D(E), p2 = P_D'(E), from paired draws: the i-th output of D and the i-th output of D'
form an i.i.d. pair, and of the N pairs where exactly one is in E, the number ``n10`` with the
D-output in E is, given N, Binomial(N, theta) with theta / (1 - theta) = p1 (1 - p2) / (p2 (1 - p1))
(the odds ratio; McNemar's conditional argument, exact). So, with theta_L the Clopper-Pearson
lower bound on theta at level ``alpha``, and p1_up, p2_low the Clopper-Pearson bounds on the
marginal counts at ``alpha_margin / 2`` each,

    log(p1 / p2) = log(OR) - log((1 - p2) / (1 - p1))
                >= log(theta_L / (1 - theta_L)) - log((1 - p2_low) / (1 - p1_up))

with probability >= 1 - alpha - alpha_margin. One bound on the ratio instead of a lower bound on
p1 and an upper bound on p2 at alpha / 2 each: the statistical penalty is about
sqrt(1/k1 + 1/k2) z_alpha instead of (1/sqrt(k1) + 1/sqrt(k2)) z_(alpha/2), i.e. 40 % smaller
at alpha = 0.05 for p1 ~ p2.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import special

from ..validation import integer, open_unit
from ..errors import InvalidArgument

__all__ = ["kl_bernoulli", "kl_lower", "kl_upper", "clopper_pearson_lower", "clopper_pearson_upper",
           "paired_log_ratio_lower"]

_ITERATIONS = 200  # bisection steps; the interval shrinks to machine precision well before this


def kl_bernoulli(p: np.ndarray, q: np.ndarray) -> np.ndarray:
    """Bernoulli KL divergence kl(p || q) for p, q in [0, 1] (inf where q hits 0 or 1 and p does not)."""
    p = np.asarray(p, dtype=float)
    q = np.asarray(q, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        a = special.xlogy(p, p) - special.xlogy(p, q)
        b = special.xlogy(1 - p, 1 - p) - special.xlogy(1 - p, 1 - q)
    return np.where(np.isnan(a + b), np.inf, a + b)


def _check(mean, n, alpha):
    n = integer("n", n, minimum=1)
    alpha = open_unit("alpha", alpha)
    m = np.asarray(mean, dtype=float)
    if not np.all((m >= 0) & (m <= 1)):
        raise InvalidArgument(f"mean={mean!r} must lie in [0, 1] (it is the mean of [0, 1]-valued samples).")
    return m, n, alpha


def kl_lower(mean, n: int, alpha: float) -> np.ndarray:
    """Lower (1 - alpha) confidence bound on the mean of [0, 1]-valued samples (Hoeffding-KL).

    Vectorised over ``mean``. Returns 0 where ``mean`` is 0. Never above ``mean``.
    """
    m, n, alpha = _check(mean, n, alpha)
    level = np.log(1.0 / alpha) / n
    lo = np.zeros_like(m)
    hi = m.copy()
    for _ in range(_ITERATIONS):
        mid = 0.5 * (lo + hi)
        inside = kl_bernoulli(m, mid) <= level  # mid is still plausible: the bound is below it
        hi = np.where(inside, mid, hi)
        lo = np.where(inside, lo, mid)
        if np.all(hi - lo <= 1e-300 + 1e-15 * hi):
            break
    # `lo` is implausible (or 0): returning it errs on the low side, as a lower bound must.
    return np.where(m > 0, lo, 0.0)


def kl_upper(mean, n: int, alpha: float) -> np.ndarray:
    """Upper (1 - alpha) confidence bound on the mean of [0, 1]-valued samples (Hoeffding-KL)."""
    m, n, alpha = _check(mean, n, alpha)
    level = np.log(1.0 / alpha) / n
    lo = m.copy()
    hi = np.ones_like(m)
    for _ in range(_ITERATIONS):
        mid = 0.5 * (lo + hi)
        inside = kl_bernoulli(m, mid) <= level
        lo = np.where(inside, mid, lo)
        hi = np.where(inside, hi, mid)
        if np.all(hi - lo <= 1e-15 * hi):
            break
    return np.where(m < 1, hi, 1.0)


def _binomial_arguments(successes, n: int, alpha: float) -> tuple[np.ndarray, int, float]:
    """(successes as floats, n, alpha), validated for the Clopper-Pearson bounds."""
    n = integer("n", n, minimum=1)
    alpha = open_unit("alpha", alpha)
    k = np.asarray(successes, dtype=float)
    if not np.all((k >= 0) & (k <= n) & (k == np.floor(k))):
        raise InvalidArgument(f"successes={successes!r} must be whole numbers in [0, n={n}].")
    return k, n, alpha


def clopper_pearson_lower(successes, n: int, alpha: float) -> np.ndarray:
    """Exact one-sided lower (1 - alpha) bound on a binomial proportion."""
    k, n, alpha = _binomial_arguments(successes, n, alpha)
    with np.errstate(invalid="ignore"):
        out = special.betaincinv(k, n - k + 1, alpha)
    return np.where(k > 0, out, 0.0)


def clopper_pearson_upper(successes, n: int, alpha: float) -> np.ndarray:
    """Exact one-sided upper (1 - alpha) bound on a binomial proportion."""
    k, n, alpha = _binomial_arguments(successes, n, alpha)
    with np.errstate(invalid="ignore"):
        out = special.betaincinv(k + 1, n - k, 1 - alpha)
    return np.where(k < n, out, 1.0)


def paired_log_ratio_lower(n10, n01, k1, k2, n: int, alpha: float, alpha_margin: float) -> float:
    """Lower (1 - alpha - alpha_margin) bound on log(P_D(E) / P_D'(E)) from n paired draws.

    ``n10`` (``n01``): pairs whose D-output (D'-output) alone is in E; ``k1``, ``k2``: the
    marginal counts of E among the n outputs of D and of D'. See the module docstring. Returns
    ``-inf`` when no discordant pair favours D (nothing certified); never NaN.
    """
    n = integer("n", n, minimum=1)
    alpha = open_unit("alpha", alpha)
    alpha_margin = open_unit("alpha_margin", alpha_margin)
    vals = {"n10": n10, "n01": n01, "k1": k1, "k2": k2}
    for name, val in vals.items():
        if not (isinstance(val, (int, np.integer)) and 0 <= val <= n):
            raise InvalidArgument(f"{name}={val!r} must be a whole number in [0, n={n}] (a count of pairs).")
    if n10 + n01 > n or n10 > k1 or n01 > k2:
        raise InvalidArgument(f"n10={n10!r}, n01={n01!r} are inconsistent with k1={k1!r}, k2={k2!r}, n={n!r}: "
                              "discordant pairs are at most n and at most the marginal count of their side.")
    if n10 == 0:
        return -np.inf
    theta = float(special.betaincinv(n10, n01 + 1, alpha))  # Clopper-Pearson lower bound on theta
    if not theta > 0.0:
        return -np.inf
    p1_up = float(clopper_pearson_upper(k1, n, alpha_margin / 2))
    p2_low = float(clopper_pearson_lower(k2, n, alpha_margin / 2))
    if p1_up >= 1.0:
        return -np.inf
    log_or = np.inf if theta >= 1.0 else math.log(theta) - math.log1p(-theta)
    return float(log_or - (math.log1p(-p2_low) - math.log1p(-p1_up)))
