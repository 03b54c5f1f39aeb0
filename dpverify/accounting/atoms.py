"""Privacy-loss atoms of the atom-valued events: the losses and P-masses of randomized response,
the discrete Laplace and the discrete Gaussian mechanisms, exactly as the mechanisms define them.

A leaf: it imports no event class and no method. :mod:`.losses` discretises these atoms onto a
grid (the PLD); :mod:`.rdp` and :mod:`.profiles` evaluate their Rényi divergences and exact
profiles from the same atoms, so the three agree on what each mechanism is.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import ndtr

__all__ = ["discrete_gaussian_atoms", "discrete_laplace_atoms", "rr_atoms"]


def rr_atoms(eps: float, k: int):
    """Randomized response over ``k`` categories at ``eps`` (``PureDP``/``ApproxDP`` black boxes are
    its ``k = 2`` case): ``(losses, P-masses)``, losses ``+eps``, ``-eps`` (and 0 when ``k > 2``).
    P(true) = e^eps / (e^eps + k - 1), in log space for large eps."""
    log_den = eps + math.log1p((k - 1) * math.exp(-eps))
    ph = math.exp(eps - log_den)
    pl = math.exp(-log_den)
    losses = [eps, -eps] + ([0.0] if k > 2 else [])
    masses = [ph, pl] + ([(k - 2) * pl] if k > 2 else [])
    return losses, masses


def discrete_laplace_atoms(t: float, d: int):
    """The discrete Laplace mechanism of scale ``t`` at sensitivity ``d``: ``(losses, P-masses)``,
    losses ``(d - 2x)/t`` for ``x = 1 .. d-1`` and the two end atoms ``+-d/t``."""
    a = math.exp(-1.0 / t)
    c = -math.expm1(-1.0 / t) / (1 + a)
    eps0 = d / t
    x = np.arange(1, d)
    losses = [eps0, -eps0] + list((d - 2 * x) / t)
    masses = [1 / (1 + a), a ** d / (1 + a)] + list(c * a ** x)
    return losses, masses


def discrete_gaussian_atoms(sigma: float, d: int, tail: float):
    """The discrete Gaussian of ``sigma`` at sensitivity ``d``, cut at ``|x| <= n`` with ``n`` from
    ``tail``: ``(losses, P-masses, mass beyond the cut)``; the normaliser is a truncated sum (a
    lower bound), so the masses are over-estimated (safe for an upper bound on delta)."""
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
