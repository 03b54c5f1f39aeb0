"""Composition by privacy-loss distributions (PLD), by FFT: a certified upper bound on delta(eps).

:class:`PLDComposition` takes the discretised PLD of each leaf (:mod:`.losses`, put on the grid
by :mod:`.grid`), composes them (:mod:`.pmf`, FFT round-off bounded in :mod:`.spectral`) and
answers ``epsilon(delta)`` / ``delta(epsilon)`` from the composed distribution's hockey-stick
value. Composition adds independent losses, and each leaf's discretised pair dominates the
true one at every ``t = e^eps``, so the composed profile is an upper bound; both directions of
the neighbour relation are composed (each event sees the same direction of a given neighbouring
pair) and the larger delta is reported. Altogether::

    delta_true(eps) <= delta_discretised_exact(eps) <= delta_computed(eps) + error + summation bound.

The grid step is chosen from the events (:meth:`PLDComposition.grid_step`).

**Self-composition** raises the FFT of the leaf PMF to the k-th power
(:meth:`LossPMF.self_compose <dpverify.accounting.pmf.LossPMF.self_compose>`): float64 when a
certified L1 round-off bound within the budget (1e-12, or 1e-3 delta when smaller) is
available, a-priori, with the amplified low frequencies in double-word arithmetic, or
a-posteriori with the large point masses (e.g. the two atoms of the Laplace loss) transformed
exactly apart from the FFT; extended precision otherwise (:func:`~dpverify.accounting.spectral.power_spectrum`).
The bound of the path taken joins ``error``. Heterogeneous compositions convolve the per-event
results (new entries as a balanced tree, large PMFs one after the other), each convolution with
its own bound. ``merge_gaussians=True`` is a fast path that replaces all Gaussian leaves by the
single Gaussian with ``mu = sqrt(sum k_i mu_i^2)`` (exact).

**Caches.** The leaf PMFs and the composed PMFs of the last plans are cached (keyed by the
method, the plan, the mode and the round-off budget), and a plan that extends the last one
composes only its new entries; results are identical to a fresh computation.
:func:`clear_caches` empties them (tests that measure a fresh composition call it).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from .. import validation as v
from ..claims import NeighbourRelation
from ..errors import InvalidArgument, UnsupportedEvent
from .base import CompositionMethod, as_event, nonneg_array, unit_array
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
    RandomAllocation,
    SampledWithoutReplacement,
    Shuffled,
    amplified_allocation,
    grouped,
)
from . import allocation
from .grid import MAX_REL_INFLATION, ROUND_DOWN, Discretisation
from .losses import is_symmetric, leaf_pmf, loss_moments
from .pmf import U, LossPMF

__all__ = ["Discretisation", "PLDBounds", "PLDComposition", "clear_caches"]


@dataclass(frozen=True)
class PLDComposition(CompositionMethod):
    """Composition by privacy-loss distributions (module docstring). Returns certified upper
    bounds. ``value_discretisation`` is the loss grid step h (None: chosen from the events,
    ``min(1e-4, scale/200)`` where ``scale`` is the smallest loss spread among the leaves);
    ``tail_mass`` the mass sent to +inf (or lumped up) at each truncation;
    ``merge_gaussians`` (on by default) replaces all Gaussian leaves by the one Gaussian they
    compose to exactly (``mu = sqrt(sum k_i mu_i^2)``, i.e. ``1/sigma^2 = sum k_i/sigma_i^2`` at
    sensitivity 1): exact, and one discretisation instead of one per leaf."""

    value_discretisation: float | None = None
    tail_mass: float = 1e-15
    discretisation: Discretisation = Discretisation.CONNECT_DOTS
    merge_gaussians: bool = True
    name: str = "pld"
    per_leaf = True  # class attribute, not a dataclass field

    def __post_init__(self) -> None:
        if self.value_discretisation is not None:
            object.__setattr__(self, "value_discretisation", v.positive(
                "value_discretisation", self.value_discretisation, fix="Use a small grid step such as 1e-4."))
        t = v.open_unit("tail_mass", self.tail_mass, fix="Use a tiny tail mass such as 1e-15.")
        if not t <= 1e-6:
            raise InvalidArgument(f"tail_mass={self.tail_mass!r} must be <= 1e-6; it is added to delta at "
                                  "every truncation. Use e.g. 1e-15.")
        if not isinstance(self.discretisation, Discretisation):
            raise InvalidArgument(f"discretisation={self.discretisation!r} must be a Discretisation "
                                  "(e.g. Discretisation.CONNECT_DOTS).")

    def plan(self, event: DpEvent):
        groups = grouped(event, allocation=True)
        supported = (Gaussian, Laplace, RandomizedResponse, PureDP, ApproxDP, DiscreteLaplace,
                     DiscreteGaussian, PoissonSubsampled, SampledWithoutReplacement, RandomAllocation)
        for leaf, _ in groups:
            if not isinstance(leaf, supported):
                raise self.unsupported(leaf, "no privacy-loss distribution is known for it")
        if self.merge_gaussians:
            gs = [(l, c) for l, c in groups if isinstance(l, Gaussian)]
            if len(gs) > 1 or (gs and gs[0][1] > 1):
                mu = math.sqrt(sum(c * l.mu ** 2 for l, c in gs))
                merged = Gaussian(1.0 / mu, 1.0, relation=event.relation)
                # last, so that a ledger that grows by other events keeps its composed prefix
                groups = [(l, c) for l, c in groups if not isinstance(l, Gaussian)] + [(merged, 1)]
        return tuple(groups)

    def grid_step(self, plan) -> float:
        """The loss grid step h. Default rule: ``min(1e-4, scale/200)`` over the leaves (``scale``
        the loss spread of a Gaussian or Laplace leaf); for a subsampled leaf (``scale = q
        sensitivity / sigma``) ``min(max(5e-5, scale/200), scale/100)``: the connect-the-dots bias
        is second order in ``h / scale`` whatever the size of the loss (issue 32: a fixed floor
        5e-5 left q = 0.01, sigma = 5000 with a lower bound of 0 and an upper bound 5.5x too
        large), then coarsened if needed so that the composed loss
        (mean + 16 standard deviations, from :func:`~dpverify.accounting.losses.loss_moments`) spans at most 2^20 bins
        (large total losses: the relative bias of a coarser step is still far below 1e-4); finally,
        when the atom-valued leaves share one epsilon, the step is made to divide it (or be a
        multiple of it) so that their atoms sit on the grid."""
        if self.value_discretisation is not None:
            return self.value_discretisation
        h = 1e-4
        mean = 0.0
        var = 0.0
        for leaf, count in plan:
            if isinstance(leaf, Gaussian):
                h = min(h, leaf.mu / 200)
            elif isinstance(leaf, (Laplace, DiscreteLaplace)):
                h = min(h, leaf.epsilon / 200)
            elif isinstance(leaf, (RandomizedResponse, PureDP, ApproxDP)) and leaf.epsilon > 0:
                # atoms at +-eps split between grid points: the same relative rule (issue 32)
                h = min(h, leaf.epsilon / 200)
            elif isinstance(leaf, RandomAllocation):  # the loss log S: its spread sqrt(Var S) (loss_moments)
                h = min(h, math.sqrt(loss_moments(leaf)[1]) / 200)
            elif isinstance(leaf, (PoissonSubsampled, SampledWithoutReplacement)):
                inner = leaf.event
                if isinstance(inner, (Gaussian, Laplace, DiscreteLaplace)):
                    scale = leaf.rate * inner.sensitivity / getattr(inner, "sigma", getattr(inner, "scale", 1.0))
                else:
                    scale = leaf.rate * max(inner.epsilon, 1e-3)
                # the connect-the-dots bias of a subsampled leaf is second order in h / scale (about
                # 0.3 (h / scale)^2 relative in epsilon, measured): scale / 100 keeps it near 3e-5;
                # the older floor max(5e-5, scale / 200) is kept where it is finer (never looser)
                h = min(h, max(5e-5, scale / 200), scale / 100)
            m1, v1 = loss_moments(leaf)
            mean += count * m1
            var += count * v1
        span = mean + 16 * math.sqrt(var)
        h = max(h, span / 2 ** 20)
        # atom-valued leaves (randomized response, pure / approximate DP black boxes) with one
        # common epsilon have every loss on the lattice eps0 Z: a step that divides eps0 (or a
        # multiple of it, when the size cap asks for a coarser step) puts every atom on a grid
        # point, so they are not split at all (issue 32: 10^5-fold RR was 6 % above exact)
        atoms = {leaf.epsilon for leaf, _ in plan
                 if isinstance(leaf, (RandomizedResponse, PureDP, ApproxDP)) and leaf.epsilon > 0}
        if len(atoms) == 1:
            (eps0,) = atoms
            only_atoms = all(isinstance(leaf, (RandomizedResponse, PureDP, ApproxDP)) for leaf, _ in plan)
            if only_atoms:  # nothing needs a finer grid than the lattice itself
                h = eps0 * max(1, math.ceil(span / 2 ** 20 / eps0))
            else:
                h = eps0 / math.ceil(eps0 / h) if h <= eps0 else eps0 * math.ceil(h / eps0)
        return h

    def composed_pmfs(self, event: DpEvent) -> list[LossPMF]:
        """The composed PMF for each direction that needs one (one for symmetric events)."""
        plan = self.plan(event)
        return self._pmfs(plan)

    def _pmfs(self, plan, mode=None, delta: float = 1e-9) -> list[LossPMF]:
        # the FFT round-off budget follows the smallest delta asked for (<= 1e-3 delta), so that a
        # small delta forces the extended-precision paths instead of paying in slack (and in the
        # upward bias of clipped float64 noise)
        budget = _budget(delta)
        return _cached_pmfs(self, plan, self.discretisation if mode is None else mode, budget)

    def _epsilon(self, plan, delta: float) -> float:
        return max(p.epsilon(delta) for p in self._pmfs(plan, delta=delta))

    def _delta(self, plan, epsilon: float) -> float:
        return max(p.delta(epsilon) for p in self._pmfs(plan))

    # ------------------------------------------------------------------ arrays and bounds
    def epsilons(self, event: DpEvent, deltas) -> np.ndarray:
        """Certified upper bounds on epsilon at each delta of ``deltas`` (array in, array out;
        the composed PLD is computed once)."""
        ds = unit_array("deltas", deltas)
        pmfs = self._pmfs(self.plan(as_event(event)), delta=float(np.min(ds)))
        return np.array([max(p.epsilon(float(d)) for p in pmfs) for d in ds.ravel()]).reshape(ds.shape)

    def deltas(self, event: DpEvent, epsilons) -> np.ndarray:
        """Certified upper bounds on delta at each epsilon of ``epsilons`` (array in, array out)."""
        es = nonneg_array("epsilons", epsilons)
        pmfs = self._pmfs(self.plan(as_event(event)))
        return np.array([max(p.delta(float(e)) for p in pmfs) for e in es.ravel()]).reshape(es.shape)

    def bounds(self, event: DpEvent, deltas) -> "PLDBounds":
        """Upper and lower bounds on the true epsilon(delta) of ``event`` at each delta.

        * ``upper``: the certified upper bound (as :meth:`epsilon`);
        * ``estimate``: the same pessimistic PLD's epsilon without the numerical error terms, so
          ``upper - estimate`` (``numerical_slack``) is how much of ``upper`` is round-off slack;
        * ``lower``: a lower bound on the true epsilon from the *optimistic* PLD (every loss
          rounded down to the grid, tails dropped), with its own round-off, the mass that
          truncation could have moved up and the bins' relative inflation all subtracted:
          the true epsilon(delta) is at least ``lower``. ``upper - lower`` shows how tight the
          certificate is. 0.0 where no optimistic PLD is implemented (subsampled Laplace, sampling
          without replacement) and for events containing ``Shuffled``, a ``RandomAllocation`` accounted
          without amplification, or a k-out-of-t allocation with k > 1 (their runs' optimistic PLD bounds
          nothing from below), except
          ``Shuffled(Gaussian(...))`` under replace-one, whose lower bound is that of
          :mod:`~dpverify.accounting.shuffle_lower` (E reshuffled epochs, certified). An amplified random
          allocation's optimistic PLD is its maximum statistic's cells
          (:func:`~dpverify.accounting.shuffle_lower.allocation_epoch_pmf`), composed with the other leaves.
          Continuous losses (Gaussian, subsampled Gaussian) are merged onto the grid
          (:func:`~dpverify.accounting.grid.merge_down`, second order in h); atoms are rounded down.
        """
        ds = unit_array("deltas", deltas)
        event = as_event(event)
        plan = self.plan(event)
        pess = self._pmfs(plan, delta=float(np.min(ds)))
        upper = np.array([max(p.epsilon(float(d)) for p in pess) for d in ds.ravel()])
        estimate = np.array([max(p.epsilon(float(d), certified=False) for p in pess) for d in ds.ravel()])
        try:
            # Shuffled and un-amplified RandomAllocation are accounted as plain runs of their event (an
            # upper bound without amplification), and k-out-of-t allocation as k runs of 1-out-of-t/k (an
            # upper bound): the optimistic PLD of those runs is no lower bound on the sampled mechanism
            # (issue 32); a 1-out-of-t allocation is a leaf with its own optimistic PLD (losses.leaf_pmf)
            opt = None if _unamplified_sampler(event) else self._pmfs(plan, ROUND_DOWN, delta=float(np.min(ds)))
        except UnsupportedEvent:
            opt = None
        shuffled = _shuffled_lower(event, ds)
        if shuffled is not None:
            lower = shuffled
        elif opt is None:
            lower = np.zeros_like(upper)
        else:
            copies = sum(c for _, c in plan)
            # each truncation lumps at most `tail` up; the pipeline truncates at
            # tail = min(tail_mass, budget) (the budget follows the smallest delta asked for)
            moved = 4 * min(self.tail_mass, _budget(float(np.min(ds)))) * len(plan)
            defl = math.exp(-copies * (MAX_REL_INFLATION + 256 * U))
            lower = np.array([max(p.epsilon_lower(float(d), moved, defl) for p in opt) for d in ds.ravel()])
        lower = np.minimum(lower, upper)
        shape = ds.shape
        return PLDBounds(ds, upper.reshape(shape), lower.reshape(shape), estimate.reshape(shape),
                         (upper - estimate).reshape(shape), self.grid_step(plan))


@dataclass(frozen=True, eq=False)
class PLDBounds:
    """``epsilon(delta)`` bounds from :meth:`PLDComposition.bounds` (arrays aligned with
    ``deltas``): ``upper`` (certified), ``lower`` (the true value is at least this),
    ``estimate`` (pessimistic PLD without error terms), ``numerical_slack = upper - estimate``,
    and the grid step ``h`` used."""

    deltas: np.ndarray
    upper: np.ndarray
    lower: np.ndarray
    estimate: np.ndarray
    numerical_slack: np.ndarray
    h: float

    def to_dict(self) -> dict:
        return {"deltas": self.deltas.tolist(), "upper": self.upper.tolist(), "lower": self.lower.tolist(),
                "estimate": self.estimate.tolist(), "numerical_slack": self.numerical_slack.tolist(),
                "h": self.h}


def _shuffled_lower(event: DpEvent, ds: np.ndarray) -> np.ndarray | None:
    """The certified lower bound of :mod:`~dpverify.accounting.shuffle_lower` for ``Shuffled(Gaussian(...))`` under
    replace-one (each delta of ``ds``), else None. Its pairs are replace-one neighbours of a clipped-sum query with
    clipping norm C = sensitivity / 2 (every other record's gradient -C; the target's C against -C or 0), so the
    noise multiplier is 2 sigma / sensitivity. Not under add/remove: the module's zero-out pair (C against 0) is two
    add/remove steps apart, so it bounds nothing there."""
    if not (isinstance(event, Shuffled) and isinstance(event.event, Gaussian)
            and event.event.relation is NeighbourRelation.REPLACE_ONE):
        return None
    from .shuffle_lower import shuffled_epochs_epsilon_lower  # deferred: mpmath, for this event only

    g = event.event
    return np.array([shuffled_epochs_epsilon_lower(float(d), 2.0 * g.sigma / g.sensitivity, event.batches_per_epoch,
                                                   event.epochs, relation=NeighbourRelation.REPLACE_ONE).epsilon
                     for d in ds.ravel()])


def _unamplified_sampler(event: DpEvent) -> bool:
    """Whether ``event`` contains a sampler whose PLD leaves bound nothing from below: a Shuffled event, a
    RandomAllocation the PLD accounts as plain runs of its event (not
    :func:`~dpverify.accounting.events.amplified_allocation`), or a k-out-of-t allocation with k > 1 (accounted as k
    runs of 1-out-of-t/k, Feldman--Shenfeld's Lemma 3.2: an upper bound only)."""
    if isinstance(event, Shuffled):
        return True
    if isinstance(event, RandomAllocation):
        return not amplified_allocation(event) or event.participations > 1
    inner = getattr(event, "events", None)
    if inner is not None:
        return any(_unamplified_sampler(e) for e in inner)
    sub = getattr(event, "event", None)
    return isinstance(sub, DpEvent) and _unamplified_sampler(sub)


def _budget(delta: float) -> float:
    """FFT round-off budget for a query at ``delta``: 1e-12, or 1e-3 delta when smaller, rounded
    down to a power of ten (so that nearby deltas share the cached PMFs)."""
    b = min(1e-12, 1e-3 * delta)
    return 10.0 ** math.floor(math.log10(b))


#: PMFs with more bins than this are composed one after the other, smaller ones as a tree
_TREE_MAX = 2048

#: The last composition per (method, mode, budget, h, directions): (plan, [composed PMF per
#: direction]). A plan that extends it (same entries first, then new ones) starts from it, so a
#: ledger that grows by new events is composed incrementally (the result is identical to a fresh
#: run: the same convolutions in the same order).
_LAST: dict = {}
_LAST_MAX = 8


@lru_cache(maxsize=8)
def _cached_pmfs(method: "PLDComposition", plan, mode, budget: float = 1e-12) -> list:
    h = method.grid_step(plan)
    both = not all(is_symmetric(l) for l, _ in plan)
    key = (method, mode, budget, h, both)
    start, accs = 0, None
    last = _LAST.get(key)
    if last is not None and len(last[0]) <= len(plan) and plan[:len(last[0])] == last[0]:
        start, accs = len(last[0]), last[1]
    out = []
    tail = min(method.tail_mass, budget)
    for i, direction in enumerate((0, 1) if both else (0,)):
        acc = accs[i] if accs is not None else None
        # the new entries are composed as a balanced binary tree (a binary counter of partial
        # products, O(log n) of them alive): n small PMFs then cost about n log n times their size
        # instead of n times the size of the whole composition; every convolution carries its own
        # error bound and truncation, whatever the order
        stack: list[tuple[int, LossPMF]] = []
        for leaf, count in plan[start:]:
            # a leaf's tail goes to +inf in each of its `count` copies: keep count x leaf tail
            # within the budget (the Gaussian grids then reach a few more standard deviations)
            leaf_tail = min(method.tail_mass, max(budget / count, 1e-300))
            pmf = _cached_leaf(leaf, direction if not is_symmetric(leaf) else 0, h, leaf_tail, mode)
            pmf = pmf.self_compose(count, tail, budget)
            if pmf.probs.size > _TREE_MAX:
                # a large PMF goes straight into the running composition: convolving two large
                # spread-out PMFs (as the tree would) costs more certified FFT round-off (measured:
                # 50 subsampled steps, upper +2.5e-6) and saves nothing
                acc = pmf if acc is None else acc.convolve(pmf, tail)
                continue
            level = 0
            while stack and stack[-1][0] == level:
                pmf = stack.pop()[1].convolve(pmf, tail)
                level += 1
            stack.append((level, pmf))
        while len(stack) > 1:
            top = stack.pop()[1]
            lvl, below = stack.pop()
            stack.append((lvl, below.convolve(top, tail)))
        if stack:
            acc = stack[0][1] if acc is None else acc.convolve(stack[0][1], tail)
        out.append(acc)
    if len(_LAST) >= _LAST_MAX and key not in _LAST:
        _LAST.pop(next(iter(_LAST)))
    _LAST[key] = (plan, out)
    return out


@lru_cache(maxsize=256)
def _cached_leaf(leaf, direction, h, tail, mode) -> LossPMF:
    return leaf_pmf(leaf, direction, h, tail, mode)


def clear_caches() -> None:
    """Forget the cached leaf PMFs, composed PMFs and the last composition per key (the next query
    composes from scratch; its result is the same)."""
    _cached_pmfs.cache_clear()
    _cached_leaf.cache_clear()
    _LAST.clear()
    allocation.clear_cache()
