"""The privacy-loss distribution (PLD) of each event, discretised: the pairs, not their composition.

**Model.** For a dominating pair (P, Q) of an event and the privacy loss L = log(dP/dQ), the
profile is ``delta(eps) = E_P[(1 - e^{eps - L})_+] + P(L = +inf)`` (Meiser--Mohammadi 2018,
Koskela et al. 2020), and composition adds independent losses:
``H_t(P1 x P2 || Q1 x Q2) = E_{P2}[ H_{t e^{-L2}}(P1 || Q1) ]`` (H_t the hockey-stick
divergence, t = e^eps). Hence replacing any factor by a pair that dominates it at *every*
t >= 0 can only increase the composed profile.

Each supported leaf has its dominating pair here and is put on the grid by :mod:`.grid`:
the Gaussian (a Gaussian loss), Laplace (two atoms and a closed-form interior), randomized
response, pure and approximate DP black boxes, the discrete Laplace and discrete Gaussian (atoms
from :mod:`.atoms`), Poisson subsampling of each (the "remove" and "add" pairs; the subsampled
Gaussian as a Gaussian mixture, the subsampled atoms exactly, the subsampled Laplace finely
cut), and sampling without replacement (the symmetrised "remove" pair). :func:`leaf_pmf` is the
dispatcher; :func:`privacy_loss_pmf` its keyword form; :func:`loss_moments` sizes the grid and
:func:`is_symmetric` says when one direction suffices. The composition is :mod:`.pld`.

The Laplace interior is integrated in closed form (``P_I = 1/2 e^{(c-eps0)/2} expm1((d-c)/2)``,
``integral f (1 - e^{a-l}) = 2 e^{(a-eps0)/2} sinh((d'+c')/4) sinh((d'-c')/4)``); atoms (randomized
response, discrete mechanisms, black boxes) are split exactly with ``expm1``.
"""
from __future__ import annotations

import math

import numpy as np
from scipy.special import ndtri

from ..errors import UnsupportedEvent
from .atoms import discrete_gaussian_atoms, discrete_laplace_atoms, rr_atoms
from .events import (
    ApproxDP,
    DiscreteGaussian,
    DiscreteLaplace,
    DpEvent,
    Gaussian,
    Laplace,
    PoissonSubsampled,
    PureDP,
    RandomAllocation,
    RandomizedResponse,
    SampledWithoutReplacement,
)
from .allocation import allocation_pmf
from .grid import MAX_REL_INFLATION, ROUND_DOWN, Bins, Discretisation, ctd_mixture, split_atoms
from .pmf import U, LossPMF

__all__ = ["is_symmetric", "leaf_pmf", "loss_moments", "privacy_loss_pmf"]


def _gauss_pmf(mu: float, h: float, tail: float, mode: Discretisation) -> LossPMF:
    """P = N(0,1), Q = N(mu,1): L ~ N(mu^2/2, mu^2) under P, N(-mu^2/2, mu^2) under Q."""
    z = -float(ndtri(tail / 4))
    m, s = mu * mu / 2, mu
    bins = Bins()
    ident = lambda y: y  # noqa: E731
    ctd_mixture(bins, h, mode, y_lo=m - z * s, y_hi=m + z * s, L_of_y=ident, y_of_t=ident,
                comps_p=[(1.0, m)], comps_q=[(1.0, -m)], scale=s)
    return bins.pmf(h)


def _laplace_pmf(eps0: float, h: float, mode: Discretisation) -> LossPMF:
    """P = Lap(0, b), Q = Lap(Delta, b): atoms +eps0 (1/2), -eps0 (e^{-eps0}/2), and the
    interior density e^{(l - eps0)/2} / 4 on (-eps0, eps0)."""
    bins = Bins()
    split_atoms(bins, [eps0, -eps0], [0.5, 0.5 * math.exp(-eps0)], h, mode)
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
    elif mode is ROUND_DOWN:
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
    bins = Bins()
    # the masses are accurate to a few ulps each: inflate them (relative) instead of an absolute term
    split_atoms(bins, losses, np.asarray(masses, dtype=float) * (1 + 16 * U), h, mode)
    bins.inf += inf_mass
    bins.error += err
    return bins.pmf(h)


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
    if mode is ROUND_DOWN:
        raise UnsupportedEvent("no optimistic discretisation of sampling without replacement is implemented",
                               event=ev, method="pld")
    if ev.rate == 1.0:
        return leaf_pmf(ev.event, 0, h, tail, mode)  # the inner pairs are symmetric
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
    s = (s + r.inf_mass) * (1 - 2 * MAX_REL_INFLATION) * (1 - (out.size + 8) * U) - 2 * r.error
    out[top] = max(0.0, 1.0 - s) * (1 + 4 * U) + 4 * U
    return LossPMF(h, -top, out, r.inf_mass, 2 * r.error, r.shift)


def _mixture_pmf(inner: DpEvent, q: float, direction: int, h: float, tail: float, mode) -> LossPMF:
    """The pessimistic PLD of the subsampling pair of ``inner`` at rate ``q``: direction 0
    ("remove") ((1-q) Q + q P, Q), direction 1 ("add") (Q, (1-q) Q + q P)."""
    if q == 1.0:
        return leaf_pmf(inner, direction, h, tail, mode)
    log1mq = math.log1p(-q)
    if isinstance(inner, (PureDP, RandomizedResponse, DiscreteLaplace)):
        return _subsampled_atoms_pmf(inner, q, direction, h, mode)
    if isinstance(inner, Laplace):
        if mode is ROUND_DOWN:
            raise UnsupportedEvent("no optimistic discretisation of subsampled Laplace is implemented",
                                   event=inner, method="pld")
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
    bins = Bins()
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

    ctd_mixture(bins, h, mode, y_lo=y_lo, y_hi=y_hi, L_of_y=L_of_y, y_of_t=y_of_t,
                comps_p=comps_p, comps_q=comps_q, scale=1.0, loc_err=loc_err)
    return bins.pmf(h)


def _subsampled_atoms_pmf(inner: DpEvent, q: float, direction: int, h: float, mode) -> LossPMF:
    """Poisson subsampling of a pure atom-valued event with inner pair (P, Q), losses ``l`` and
    P-masses ``m_P`` (Q-masses ``m_P e^{-l}``): "remove" is ((1-q) Q + q P, Q) with losses
    ``log(1 - q + q e^l)`` and P-masses ``(1-q) m_Q + q m_P``; "add" is (Q, (1-q) Q + q P) with
    losses ``-log(1 - q + q e^l)`` and P-masses ``m_Q``. Exact atoms, then split as usual."""
    if isinstance(inner, PureDP):
        losses, masses = rr_atoms(inner.epsilon, 2) if inner.epsilon > 0 else ([0.0], [1.0])
    elif isinstance(inner, RandomizedResponse):
        losses, masses = rr_atoms(inner.epsilon, inner.categories)
    else:
        losses, masses = discrete_laplace_atoms(inner.scale, inner.sensitivity)
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
    bins = Bins()
    split_atoms(bins, losses, masses * (1 + 64 * U), h, mode)
    return bins.pmf(h)


def leaf_pmf(ev: DpEvent, direction: int, h: float, tail: float, mode: Discretisation) -> LossPMF:
    """The discretised PLD of one leaf event on the grid of step ``h`` (``direction`` 0 = "remove",
    1 = "add"; ``tail`` the mass each truncation may move; ``mode`` a :class:`Discretisation` or
    :data:`~dpverify.accounting.grid.ROUND_DOWN`), or UnsupportedEvent."""
    if isinstance(ev, Gaussian):
        return _gauss_pmf(ev.mu, h, tail, mode)
    if isinstance(ev, Laplace):
        return _laplace_pmf(ev.epsilon, h, mode)
    if isinstance(ev, RandomizedResponse):
        return _atoms_pmf(*rr_atoms(ev.epsilon, ev.categories), 0.0, h, mode)
    if isinstance(ev, PureDP):
        return _atoms_pmf(*rr_atoms(ev.epsilon, 2), 0.0, h, mode) if ev.epsilon > 0 else _atoms_pmf([0.0], [1.0], 0.0, h, mode)
    if isinstance(ev, ApproxDP):
        if ev.epsilon > 0:
            losses, masses = rr_atoms(ev.epsilon, 2)
        else:
            losses, masses = [0.0], [1.0]
        return _atoms_pmf(losses, np.asarray(masses) * (1 - ev.delta), ev.delta, h, mode)
    if isinstance(ev, DiscreteLaplace):
        return _atoms_pmf(*discrete_laplace_atoms(ev.scale, ev.sensitivity), 0.0, h, mode)
    if isinstance(ev, DiscreteGaussian):
        losses, masses, tail_mass = discrete_gaussian_atoms(ev.sigma, ev.sensitivity, tail)
        return _atoms_pmf(losses, masses, 0.0 if mode is ROUND_DOWN else tail_mass, h, mode)
    if isinstance(ev, PoissonSubsampled):
        return _subsampled_pmf(ev, direction, h, tail, mode)
    if isinstance(ev, SampledWithoutReplacement):
        return _wor_pmf(ev, h, tail, mode)
    if isinstance(ev, RandomAllocation):  # 1-out-of-steps, Gaussian, add/remove (events.amplified_allocation)
        if mode is ROUND_DOWN:  # the maximum statistic's cells: a post-processing of the pair, rounded down
            from .shuffle_lower import allocation_epoch_pmf  # deferred: mpmath, for this leaf's lower bound only

            return allocation_epoch_pmf(ev.event.sigma / ev.event.sensitivity, ev.steps, direction, h)
        pmf = allocation_pmf(ev.event.mu, ev.steps, direction, h, tail, mode, budget=min(1e-12, 1e3 * tail))
        # None: no useful pair at this sigma; the allocation uses each record once, so the Gaussian bounds it
        return pmf if pmf is not None else _gauss_pmf(ev.event.mu, h, tail, mode)
    raise UnsupportedEvent(f"pld composition does not support {ev!r}", event=ev, method="pld")  # pragma: no cover


def is_symmetric(ev: DpEvent) -> bool:
    """Whether the event's pair is the same in both directions (all but Poisson subsampling at a
    rate below 1); then one composed PLD serves both orders of a neighbouring pair."""
    if isinstance(ev, RandomAllocation):
        return False
    return not isinstance(ev, PoissonSubsampled) or ev.rate == 1.0


def privacy_loss_pmf(event: DpEvent, *, direction: int = 0, value_discretisation: float = 1e-4,
                     tail_mass: float = 1e-15, discretisation: Discretisation = Discretisation.CONNECT_DOTS) -> LossPMF:
    """The pessimistic discretised PLD of one leaf event (direction 0 = "remove"/forward,
    1 = "add"/reverse; the same for symmetric events): :func:`leaf_pmf` with keyword options, for
    tests, benchmarks and inspection."""
    return leaf_pmf(event, direction, value_discretisation, tail_mass, discretisation)


def loss_moments(leaf: DpEvent) -> tuple[float, float]:
    """Rough (mean, variance) of a leaf's privacy loss under P, for sizing the grid only (never
    for a bound): Gaussian ``(mu^2/2, mu^2)``; subsampled Gaussian ``(q^2 v, q^2 v)`` with
    ``v = e^{mu^2} - 1`` (the chi-square divergence), capped by the inner values; pure losses
    bounded by ``e``: ``(e^2/2, e^2)``."""
    if isinstance(leaf, Gaussian):
        return leaf.mu ** 2 / 2, leaf.mu ** 2
    if isinstance(leaf, (PoissonSubsampled, SampledWithoutReplacement)):
        inner_m, inner_v = loss_moments(leaf.event)
        if isinstance(leaf.event, Gaussian):
            v = math.expm1(min(leaf.event.mu ** 2, 700.0))
        else:
            v = math.expm1(min(leaf.event.epsilon, 700.0)) ** 2
        q2 = leaf.rate ** 2
        return min(q2 * v, inner_m), min(q2 * v, inner_v)
    if isinstance(leaf, RandomAllocation):  # log S, Var S = (e^{mu^2} - 1)/t: about (Var S / 2, Var S)
        inner_m, inner_v = loss_moments(leaf.event)
        v = math.expm1(min(leaf.event.mu ** 2, 700.0)) / leaf.steps
        return min(v / 2, inner_m), min(v, inner_v)
    if isinstance(leaf, DiscreteGaussian):
        mu = leaf.sensitivity / leaf.sigma
        return mu ** 2 / 2, mu ** 2
    eps = getattr(leaf, "epsilon", 1.0)
    return eps ** 2 / 2, eps ** 2
