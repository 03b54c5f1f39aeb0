"""Rényi DP composition (Mironov 2017) with the tight conversion to (epsilon, delta).

RDP of order alpha adds under composition. Per-event curves (upper bounds, exact where stated):

* Gaussian: ``alpha mu^2 / 2`` (exact; Mironov 2017 Prop. 7).
* Laplace (lambda = scale/sensitivity): Mironov 2017 Prop. 6 (exact),
  ``1/(alpha-1) log(alpha/(2alpha-1) e^{(alpha-1)/lambda} + (alpha-1)/(2alpha-1) e^{-alpha/lambda})``.
* Randomized response, PureDP (as binary randomized response, its dominating pair), discrete
  Laplace: exact ``1/(alpha-1) log E_P[e^{(alpha-1) L}]`` over the loss atoms.
* Discrete Gaussian: ``alpha Delta^2 / (2 sigma^2)`` (Canonne--Kamath--Steinke 2020, Prop. 5:
  it is (Delta^2/(2 sigma^2))-concentrated DP).
* Poisson-subsampled Gaussian, integer orders only (Mironov--Talwar--Zhang 2019, Thm 4/5:
  ``A_alpha = sum_k C(alpha,k) (1-q)^{alpha-k} q^k exp((k^2-k) mu^2/2)`` bounds both directions);
  fractional orders are skipped for it.
* ApproxDP with delta > 0 and subsampled Laplace: unsupported.

Conversion (Canonne--Kamath--Steinke 2020 Prop. 12; = Balle et al. 2020 Thm 21, tighter than
Mironov's ``tau + log(1/delta)/(alpha-1)``)::

    delta = exp((alpha-1)(tau - eps)) / alpha * (1 - 1/alpha)^(alpha-1)
    eps   = tau + log(1 - 1/alpha) - (log delta + log alpha) / (alpha - 1)

minimised over the orders grid :data:`DEFAULT_ORDERS` (1.25 ... 1024, dense below 20).
Asoodeh et al. (2021) give the optimal conversion; it gains little over CKS and is not used.
Cost: O(#orders x #events).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy.special import gammaln

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

__all__ = ["DEFAULT_ORDERS", "RDPComposition", "rdp_curve"]

#: The orders alpha at which RDP is tracked.
DEFAULT_ORDERS = tuple(
    [1.25, 1.5, 1.75, 2.0, 2.25, 2.5, 2.75, 3.0, 3.5, 4.0, 4.5, 5.0, 5.5, 6.0, 7.0, 8.0, 9.0, 10.0, 11.0, 12.0,
     14.0, 16.0, 18.0, 20.0, 24.0, 28.0, 32.0, 40.0, 48.0, 56.0, 64.0, 80.0, 96.0, 128.0, 160.0, 192.0, 256.0,
     384.0, 512.0, 768.0, 1024.0])


def _atoms_rdp(losses, masses, alphas):
    losses = np.asarray(losses, dtype=float)
    logm = np.log(np.asarray(masses, dtype=float))
    out = []
    for a in alphas:
        z = logm + (a - 1) * losses
        c = float(np.max(z))
        out.append((c + math.log(float(np.sum(np.exp(z - c))))) / (a - 1))
    return np.array(out)


def _subsampled_gaussian_rdp(q: float, mu: float, alpha: float) -> float:
    if alpha != int(alpha):
        return math.inf
    a = int(alpha)
    k = np.arange(a + 1)
    logc = gammaln(a + 1) - gammaln(k + 1) - gammaln(a - k + 1)
    log1q = math.log1p(-q) if q < 1 else -math.inf
    with np.errstate(invalid="ignore"):
        z = logc + np.where(a - k > 0, (a - k) * log1q, 0.0) + k * math.log(q) + (k * k - k) * mu * mu / 2
    z = z[np.isfinite(z)]
    c = float(np.max(z))
    return (c + math.log(float(np.sum(np.exp(z - c))))) / (alpha - 1)


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
        return np.array([_subsampled_gaussian_rdp(leaf.rate, leaf.event.mu, a) for a in al])
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
        if eps.size == 0:
            return math.inf
        return max(0.0, float(np.min(eps)) * (1 + 1e-12) + 1e-15)

    def _delta(self, plan, epsilon: float) -> float:
        al = np.asarray(self.orders)
        with np.errstate(invalid="ignore", over="ignore"):
            logd = (al - 1) * (plan - epsilon) + (al - 1) * np.log1p(-1 / al) - np.log(al)
        logd = logd[np.isfinite(logd)]
        if logd.size == 0:
            return 1.0
        return min(1.0, math.exp(float(np.min(logd))) * (1 + 1e-10))
