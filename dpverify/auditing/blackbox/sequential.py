"""Anytime-valid confidence bounds for binomial proportions (confidence sequences).

For i.i.d. Bernoulli(p) indicators with ``k`` successes in the first ``n``, the beta-mixture
likelihood ratio (Robbins 1970; the "mixture method" of Howard, Ramdas, McAuliffe & Sekhon,
*Time-uniform, nonparametric, nonasymptotic confidence sequences*, Ann. Statist. 2021)

    M_n(p) = B(a + k, b + n - k) / (B(a, b) p^k (1 - p)^(n - k))

is a nonnegative martingale with M_0 = 1 under p (it is the likelihood ratio of the
Beta(a, b)-mixture of Bernoulli laws against Bernoulli(p), i.e. an e-process: the wealth of a
bettor against p). By Ville's inequality P(exists n: M_n(p) >= 1/alpha) <= alpha, so

    { p : M_n(p) < 1/alpha }

holds for **all n simultaneously** with probability >= 1 - alpha: the bounds stay valid when the
audit looks after every batch and stops as soon as a violation is certified (optional stopping).
The set is an interval (log M_n is convex in p) containing the MLE k/n (M_n(k/n) <= 1); its ends
are found by bisection, each returned on the safe side (the lower end is never above the true
infimum, the upper end never below the supremum).

Price: about (1/2) log(n) nats of extra evidence against a fixed-n Clopper-Pearson bound; the
black-box audit therefore spends a small share of alpha on the sequential looks and certifies
the final counts with Clopper-Pearson on the rest (a union bound over the two).
"""
from __future__ import annotations

import numpy as np
from scipy import special

__all__ = ["mixture_log_wealth", "cs_lower", "cs_upper"]

#: Beta prior of the mixture (Jeffreys).
PRIOR = (0.5, 0.5)
_ITER = 80


def mixture_log_wealth(k, n, p, prior=PRIOR) -> np.ndarray:
    """log M_n(p) for k successes in n trials (vectorised)."""
    a, b = prior
    k = np.asarray(k, dtype=float)
    n = np.asarray(n, dtype=float)
    p = np.asarray(p, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        ll = special.xlogy(k, p) + special.xlog1py(n - k, -p)
    return special.betaln(a + k, b + n - k) - special.betaln(a, b) - ll


def cs_lower(k, n, alpha: float) -> np.ndarray:
    """Anytime-valid lower (1 - alpha) bound on p from k successes in n (0 where k = 0)."""
    k = np.asarray(k, dtype=float)
    n = np.broadcast_to(np.asarray(n, dtype=float), k.shape)
    level = np.log(1.0 / alpha)
    lo = np.zeros_like(k)              # outside the set (or 0)
    hi = np.where(n > 0, k / np.maximum(n, 1), 0.0)  # inside the set
    for _ in range(_ITER):
        mid = 0.5 * (lo + hi)
        inside = mixture_log_wealth(k, n, mid) < level
        hi = np.where(inside, mid, hi)
        lo = np.where(inside, lo, mid)
    return np.where(k > 0, lo, 0.0)


def cs_upper(k, n, alpha: float) -> np.ndarray:
    """Anytime-valid upper (1 - alpha) bound on p from k successes in n (1 where n = 0)."""
    k = np.asarray(k, dtype=float)
    n = np.broadcast_to(np.asarray(n, dtype=float), k.shape)
    level = np.log(1.0 / alpha)
    lo = np.where(n > 0, k / np.maximum(n, 1), 1.0)  # inside
    hi = np.ones_like(k)                              # outside (or 1)
    for _ in range(_ITER):
        mid = 0.5 * (lo + hi)
        inside = mixture_log_wealth(k, n, mid) < level
        lo = np.where(inside, mid, lo)
        hi = np.where(inside, hi, mid)
    return np.where(k < n, hi, 1.0)
