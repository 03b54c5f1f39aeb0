"""Privacy profiles of single events as values: delta(eps) and eps(delta), certified upper bounds.

``delta_for_epsilon(event, eps)`` is the hockey-stick divergence ``sup_S P(S) - e^eps Q(S)`` of
the event's dominating pair, maximised over both directions of the neighbour relation:

* :class:`Gaussian` (either relation; mu = sensitivity/sigma): Balle--Wang (2018) Theorem 8,
  ``Phi(mu/2 - eps/mu) - e^eps Phi(-mu/2 - eps/mu)``, in log space with ``log_ndtr``.
  ``SelfComposed``/``Composed`` of Gaussians only are one Gaussian with
  ``mu = sqrt(sum mu_i^2)`` (exact).
* :class:`Laplace` (eps0 = sensitivity/scale): ``1 - e^{(eps - eps0)/2}`` for eps < eps0, else 0.
* Atom-valued events (randomized response, discrete Laplace, discrete Gaussian, black boxes):
  ``P(L = inf) + sum_l P(L = l) (1 - e^{eps - l})_+`` over the exact loss atoms (the discrete
  Gaussian's tail beyond its truncation point is bounded and counted as infinite loss).
* :class:`PoissonSubsampled` (add/remove only), with ``H`` the inner profile:
  remove direction ``q H(log(1 + (e^eps - 1)/q))``; add direction
  ``(1 - e^eps (1-q)) H(-log(1 - (1 - e^{-eps})/q))`` for ``eps < -log(1-q)``, else 0.
* :class:`SampledWithoutReplacement` (replace-one only; g = sample_size/dataset_size):
  ``g H(log(1 + (e^eps - 1)/g))`` in both directions (Balle--Barthe--Gaboardi 2018).

Float safety: each value is inflated by a relative ``1e-10`` (the closed forms are accurate to
far better, see the tests against mpmath), so returned values never fall below the exact profile.
``epsilon_for_delta`` inverts with bisection and re-checks on the safe side.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import log_ndtr

from .. import validation as v
from ..errors import UnsupportedEvent
from .atoms import discrete_gaussian_atoms, discrete_laplace_atoms, rr_atoms
from .events import (
    ApproxDP,
    Composed,
    DiscreteGaussian,
    DiscreteLaplace,
    DpEvent,
    Gaussian,
    Laplace,
    PoissonSubsampled,
    PureDP,
    SampledWithoutReplacement,
    RandomizedResponse,
    SelfComposed,
    leaves,
)

__all__ = ["delta_for_epsilon", "epsilon_for_delta", "gaussian_delta", "laplace_delta"]

_REL = 1e-10


def gaussian_delta(mu: float, epsilon: float) -> float:
    """Exact hockey-stick of N(mu,1) vs N(0,1) at ``epsilon`` (Balle--Wang Thm 8), float value."""
    la = float(log_ndtr(mu / 2 - epsilon / mu))
    lb = epsilon + float(log_ndtr(-mu / 2 - epsilon / mu))
    if lb >= la:
        return 0.0
    return math.exp(la + math.log1p(-math.exp(lb - la)))


def laplace_delta(eps0: float, epsilon: float) -> float:
    """Exact hockey-stick of the Laplace pair with pure epsilon ``eps0`` at ``epsilon``."""
    if epsilon >= eps0:
        return 0.0
    return -math.expm1((epsilon - eps0) / 2)


def _atoms_delta(losses, masses, inf_mass, epsilon):
    losses = np.asarray(losses, dtype=float)
    masses = np.asarray(masses, dtype=float)
    m = losses > epsilon
    return inf_mass + float(np.sum(masses[m] * -np.expm1(epsilon - losses[m])))


def _subsampled(H, q: float, epsilon: float) -> float:
    if q == 1.0:
        return H(epsilon)
    remove = q * H(math.log1p(math.expm1(epsilon) / q))
    one_minus = -math.expm1(-epsilon)  # 1 - e^{-eps}
    if one_minus < q:
        ell = -math.log1p(-one_minus / q)
        add = (1 - math.exp(epsilon) * (1 - q)) * H(ell)
    else:
        add = 0.0
    return max(remove, add)


def _gaussian_mu(event: DpEvent) -> float | None:
    mus = []
    for leaf, count in leaves(event):
        if not isinstance(leaf, Gaussian):
            return None
        mus.append(count * leaf.mu ** 2)
    return math.sqrt(sum(mus))


def _raw_delta(event: DpEvent, epsilon: float) -> float:
    if isinstance(event, (SelfComposed, Composed)):
        mu = _gaussian_mu(event)
        if mu is None:
            raise UnsupportedEvent(
                f"no closed-form profile for {event!r}: only compositions of Gaussians have one. "
                "Use an Accountant (e.g. Accountant(Method.PLD)) for compositions.", event=event)
        return gaussian_delta(mu, epsilon)
    if isinstance(event, Gaussian):
        return gaussian_delta(event.mu, epsilon)
    if isinstance(event, Laplace):
        return laplace_delta(event.epsilon, epsilon)
    if isinstance(event, RandomizedResponse):
        return _atoms_delta(*rr_atoms(event.epsilon, event.categories), 0.0, epsilon)
    if isinstance(event, PureDP):
        return _atoms_delta(*rr_atoms(event.epsilon, 2), 0.0, epsilon) if event.epsilon > 0 else 0.0
    if isinstance(event, ApproxDP):
        if event.epsilon == 0:
            return event.delta
        losses, masses = rr_atoms(event.epsilon, 2)
        return _atoms_delta(losses, np.asarray(masses) * (1 - event.delta), event.delta, epsilon)
    if isinstance(event, DiscreteLaplace):
        return _atoms_delta(*discrete_laplace_atoms(event.scale, event.sensitivity), 0.0, epsilon)
    if isinstance(event, DiscreteGaussian):
        losses, masses, tail = discrete_gaussian_atoms(event.sigma, event.sensitivity, 1e-30)
        return _atoms_delta(losses, masses, tail, epsilon)
    if isinstance(event, PoissonSubsampled):
        inner = event.event
        if isinstance(inner, Gaussian):
            H = lambda e: gaussian_delta(inner.mu, e)  # noqa: E731
        elif isinstance(inner, Laplace):
            H = lambda e: laplace_delta(inner.epsilon, e)  # noqa: E731
        else:  # atom-valued pure inner events (their profile is symmetric)
            H = lambda e: _raw_delta(inner, e)  # noqa: E731
        return _subsampled(H, event.rate, epsilon)
    if isinstance(event, SampledWithoutReplacement):
        inner = event.event
        g = event.rate
        if g == 1.0:
            return _raw_delta(inner, epsilon)
        return g * _raw_delta(inner, math.log1p(math.expm1(epsilon) / g))
    raise UnsupportedEvent(f"no privacy profile is known for {event!r}", event=event)  # pragma: no cover


def delta_for_epsilon(event: DpEvent, epsilon: float) -> float:
    """Certified upper bound on the event's delta at ``epsilon`` (exact up to a 1e-10 relative
    inflation); raises UnsupportedEvent for compositions other than of Gaussians."""
    epsilon = v.nonnegative("epsilon", epsilon, fix="Ask for delta at a finite epsilon >= 0.")
    d = _raw_delta(event, epsilon)
    return min(1.0, d * (1 + _REL) + 1e-300 if d > 0 else 0.0)


def epsilon_for_delta(event: DpEvent, delta: float) -> float:
    """Certified upper bound on the smallest epsilon with ``delta_for_epsilon <= delta``;
    ``inf`` when no finite epsilon reaches ``delta`` (e.g. an ApproxDP event with a larger delta)."""
    delta = v.open_unit("delta", delta, fix="Ask for epsilon at a delta strictly between 0 and 1.")
    f = lambda e: delta_for_epsilon(event, e)  # noqa: E731
    if f(0.0) <= delta:
        return 0.0
    hi = 1.0
    while f(hi) > delta:
        hi *= 2
        if hi > 1e6:
            return math.inf
    lo = 0.0
    for _ in range(200):
        mid = (lo + hi) / 2
        if mid <= lo or mid >= hi:
            break
        if f(mid) <= delta:
            hi = mid
        else:
            lo = mid
    return hi
