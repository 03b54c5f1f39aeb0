"""Samplers as events: the certified lower bound for shuffled batches (issue 32).

Shuffled DP-SGD (each epoch a random permutation cut into batches) is usually accounted as if it
were Poisson-subsampled at rate ``batch/n``. Chua, Ghazi, Kamath, Kumar, Manurangsi, Sinha and
Zhang (2024, "How private are DP-SGD implementations?") show that this can understate epsilon
badly: with every other record's gradient 0 and the target's 1 (against 0 in the neighbouring
dataset, a replace-one pair), one epoch of ``T`` batches releases ``x_t = 1[t = t*] + sigma Z_t``,
``t*`` uniform, against pure noise. Any post-processing of this pair is dominated by it, so the
hockey-stick divergence of the law of ``M = max_t x_t`` under both datasets is a **lower bound**
on the delta of shuffled DP-SGD (and of random allocation of one step in ``T``), and for every
threshold ``tau``::

    delta(eps) >= P(M > tau) - e^eps Q(M > tau),
    P(M > tau) = 1 - Phi((tau - Delta)/sigma) Phi(tau/sigma)^(T-1),   Q(M > tau) = 1 - Phi(tau/sigma)^T.

:func:`shuffled_gaussian_epsilon_lower` maximises this over ``tau`` and returns the largest eps
whose bound exceeds delta: the true epsilon(delta) of one shuffled epoch is at least that.

**Arithmetic**: mpmath at 60 significant digits, and each delta bound is lowered by ``1e-40``
before it is compared with delta (the assumption, stated: mpmath's ``ncdf`` is accurate to its
working precision). One epoch only; several reshuffled epochs, and Chua et al.'s stronger zero-out
pair (the other records' gradients -1), are in :mod:`.shuffle_lower`.
"""
from __future__ import annotations

import math

import mpmath

from .. import validation as v

__all__ = ["shuffled_gaussian_delta_lower", "shuffled_gaussian_epsilon_lower"]

_MARGIN = mpmath.mpf("1e-40")


def _delta_at(eps, tau, sigma, sens, T):
    phi0 = mpmath.ncdf(tau / sigma)
    phia = mpmath.ncdf((tau - sens) / sigma)
    p = 1 - phia * phi0 ** (T - 1)
    q = 1 - phi0 ** T
    return p - mpmath.exp(eps) * q


def _best(eps, sigma, sens, T):
    """max over tau of the threshold bound (a grid, then golden-section refinement; any tau
    gives a valid bound, so the search need not find the exact maximum)."""
    eps = mpmath.mpf(eps)
    center = sens / 2 + sigma ** 2 * (eps + math.log(T)) / sens  # where the likelihood ratio is e^eps
    grid = [center + sigma * (k / 8.0) for k in range(-64, 65)]
    vals = [_delta_at(eps, mpmath.mpf(t), sigma, sens, T) for t in grid]
    i = max(range(len(vals)), key=lambda j: vals[j])
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    g = (math.sqrt(5) - 1) / 2
    a, b = lo, hi
    best = vals[i]
    for _ in range(40):
        c, d = b - g * (b - a), a + g * (b - a)
        fc, fd = _delta_at(eps, mpmath.mpf(c), sigma, sens, T), _delta_at(eps, mpmath.mpf(d), sigma, sens, T)
        best = max(best, fc, fd)
        if fc > fd:
            b = d
        else:
            a = c
    return best


def shuffled_gaussian_delta_lower(epsilon: float, sigma: float, batches: int, sensitivity: float = 1.0) -> float:
    """A certified lower bound on delta(epsilon) of one shuffled epoch of ``batches`` Gaussian steps
    (noise ``sigma``, per-record sensitivity ``sensitivity``) under replace-one (module docstring)."""
    eps = v.nonnegative("epsilon", epsilon, fix="Give a finite epsilon >= 0.")
    sigma = v.positive("sigma", sigma, fix="Give the Gaussian noise sigma (> 0).")
    sens = v.positive("sensitivity", sensitivity, fix="Give the per-record sensitivity (> 0).")
    T = v.integer("batches", batches, minimum=1, fix="Give the number of batches in the epoch (>= 1).")
    with mpmath.workdps(60):
        d = _best(eps, sigma, sens, T) - _MARGIN
        return max(0.0, float(mpmath.nstr(d, 30)) if d > 0 else 0.0) * (1 - 1e-15)


def _float_delta(eps, tau, sigma, sens, T):
    """float64 version of the threshold bound, for the search only (never returned)."""
    from scipy.special import log_ndtr

    l0 = log_ndtr(tau / sigma)
    la = log_ndtr((tau - sens) / sigma)
    p = -math.expm1(la + (T - 1) * l0)
    q = -math.expm1(T * l0)
    return p - math.exp(eps) * q


def _float_best(eps, sigma, sens, T):
    from scipy.optimize import minimize_scalar

    center = sens / 2 + sigma ** 2 * (eps + math.log(T)) / sens
    grid = [center + sigma * k / 4.0 for k in range(-32, 33)]
    vals = [_float_delta(eps, t, sigma, sens, T) for t in grid]
    i = max(range(len(vals)), key=lambda j: vals[j])
    lo, hi = grid[max(i - 1, 0)], grid[min(i + 1, len(grid) - 1)]
    r = minimize_scalar(lambda t: -_float_delta(eps, t, sigma, sens, T), bounds=(lo, hi), method="bounded",
                        options={"xatol": 1e-10 * max(1.0, abs(center))})
    return (float(r.x), -float(r.fun)) if -r.fun > vals[i] else (grid[i], vals[i])


def shuffled_gaussian_epsilon_lower(delta: float, sigma: float, batches: int, sensitivity: float = 1.0) -> float:
    """A certified lower bound on epsilon(delta) of one shuffled epoch (module docstring): the
    true epsilon is at least the value returned (0.0 when even epsilon = 0 is not excluded).

    The search (the threshold and epsilon) runs in float64; the value returned is then checked
    in mpmath at 60 digits with the threshold found (any threshold gives a valid bound), and
    lowered until that check passes."""
    delta = v.open_unit("delta", delta, fix="Give a delta strictly between 0 and 1.")
    sigma = v.positive("sigma", sigma, fix="Give the Gaussian noise sigma (> 0).")
    sens = v.positive("sensitivity", sensitivity, fix="Give the per-record sensitivity (> 0).")
    T = v.integer("batches", batches, minimum=1, fix="Give the number of batches in the epoch (>= 1).")

    def exceeds(e):
        return _float_best(e, sigma, sens, T)[1] > delta

    if not exceeds(0.0):
        return _certify(0.0, sigma, sens, T, delta)
    lo, hi = 0.0, 1.0
    while exceeds(hi) and hi < 1e6:
        lo, hi = hi, 2 * hi
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        if exceeds(mid):
            lo = mid
        else:
            hi = mid
        if hi - lo <= 1e-10 * max(1.0, hi):
            break
    return _certify(lo, sigma, sens, T, delta)


def _certify(eps: float, sigma, sens, T, delta) -> float:
    """The largest of eps, eps (1 - 1e-9 2^k) ... whose bound, evaluated in mpmath, exceeds delta."""
    target = mpmath.mpf(delta)
    step = 1e-9 * max(eps, 1e-6)
    with mpmath.workdps(60):
        for _ in range(60):
            if eps <= 0:
                return 0.0
            tau, _ = _float_best(eps, sigma, sens, T)
            if _delta_at(mpmath.mpf(eps), mpmath.mpf(tau), sigma, sens, T) - _MARGIN > target:
                return eps
            eps -= step
            step *= 2
    return 0.0
