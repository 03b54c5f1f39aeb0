"""A certified lower bound for several shuffled epochs of Gaussian DP-SGD (issue 32).

**The pair.** One shuffled epoch of ``T`` batches, Gaussian noise of standard deviation ``sigma``
(the noise multiplier; clipping norm 1), with the linear query of Chua, Ghazi, Kamath, Kumar,
Manurangsi, Sinha and Zhang (2024, "How private are DP-SGD implementations?", ICML; and
"Scalable DP-SGD: shuffling vs. Poisson subsampling", NeurIPS 2024): every other record's
gradient is ``-1`` and the public sum ``-b`` of a batch of ``b`` records is subtracted, so a
batch without the target shows pure noise and the target's batch ``t*`` (uniform) shows a
spike ``g - (-1) = g + 1`` where ``g`` is the target's gradient. The epoch releases
``x_t = h 1[t = t*] + sigma Z_t``; call its law ``MoG(h)``. Neighbouring datasets give:

* zero-out (the target replaced by a record of gradient 0, the usual way to state add/remove-one
  for a loader whose dataset size is fixed; for Poisson sampling it *is* add/remove, so this
  compares like with like against Poisson accounting at sensitivity 1): ``g = 1`` against
  ``g = 0``, i.e. ``MoG(2)`` against ``MoG(1)``, and the reverse order;
* replace-one (``g = 1`` against ``g' = -1``): ``MoG(2)`` against ``MoG(0)`` (pure noise), and
  the reverse order; the zero-out pair is a replace-one pair too (a record of gradient 0), and the
  larger of the two is reported.

Each epoch reshuffles (independent permutations), so ``E`` epochs of this non-adaptive query
release ``E`` independent copies; the pair of ``E``-fold products is a pair of outputs of
shuffled DP-SGD on neighbouring datasets.

**The statistic.** Any post-processing of a pair can only lower its hockey-stick divergence, so
for every epoch we keep only the cell of a fixed partition of the real line that contains
``M = max_t x_t``. Its law is exact: ``P(M <= c) = Phi((c - h)/sigma) Phi(c/sigma)^(T-1)``, so
each epoch becomes a finite pair ``(p_k, q_k)`` and the ``E`` epochs its ``E``-fold product, whose
hockey-stick divergence is a **lower bound** on the delta(eps) of ``E`` shuffled epochs, and the
largest eps at which it exceeds delta a lower bound on their epsilon(delta). The maximum over the
two orders of the pair is reported (each is a lower bound).

**Arithmetic (what is certified, and the assumptions).** The cell masses are computed with
mpmath at 40 significant digits (the assumption, stated as in :mod:`.samplers`: mpmath's
``ncdf`` is accurate to its working precision); each is rounded *down* to float64 and each
cell's privacy loss ``log(p_k/q_k)`` is rounded *down* to the grid ``h Z``; cells whose loss is
below ``-30`` are dropped. Each of these steps can only lower the hockey-stick value
``sum_k p_k (1 - e^(eps - l_k))_+`` of the composed pair (it is increasing in every mass and
every loss), so the pair composed is dominated by the exact one. The ``E``-fold composition is
:meth:`LossPMF.self_compose <dpverify.accounting.pmf.LossPMF.self_compose>` with its certified
FFT round-off, and the value is read with :meth:`~dpverify.accounting.pmf.LossPMF.delta_lower`,
which subtracts the round-off, the summation slack and the mass that truncation may have moved
up, as the PLD accountant's own lower bound does (:meth:`PLDComposition.bounds
<dpverify.accounting.pld.PLDComposition.bounds>`). No Monte Carlo anywhere.

**Not covered.** Persistent shuffling (one permutation reused by every epoch) is *less* private:
its lower bound is one epoch at ``sigma / sqrt(E)`` (:func:`~dpverify.accounting.samplers.shuffled_gaussian_epsilon_lower`
with ``sigma / sqrt(E)`` and ``sensitivity=2`` applies for replace-one; this module's zero-out pair
with ``epochs=1`` and ``sigma / sqrt(E)`` for zero-out). Upper bounds with amplification for
shuffling: none is implemented (:class:`~dpverify.accounting.events.Shuffled` is accounted with
none).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import mpmath
import numpy as np

from .. import validation as v
from ..claims import NeighbourRelation
from ..errors import InvalidArgument
from .pmf import U, LossPMF

__all__ = ["ShuffledLowerBound", "allocation_epoch_pmf", "allocation_epochs_epsilon_lower", "shuffled_epochs_delta_lower",
           "shuffled_epochs_epsilon_lower", "cell_masses", "cells_to_pmf"]

#: the spike heights (under D, under D') of the pair, per neighbour relation (module docstring)
_PAIRS = {
    NeighbourRelation.ADD_REMOVE_ONE: ((2.0, 1.0),),
    # a record of gradient 0 is a record too, so the zero-out pair is a replace-one pair as well
    NeighbourRelation.REPLACE_ONE: ((2.0, 0.0), (2.0, 1.0)),
}
_DPS = 40
_LOSS_FLOOR = -30.0  # cells with a smaller loss are dropped (sound: a lower bound may drop mass)
_TAIL = 1e-300  # truncation mass inside the self-composition (kept tiny: it is subtracted)


@dataclass(frozen=True)
class ShuffledLowerBound:
    """The result of :func:`shuffled_epochs_epsilon_lower`: ``epsilon`` (the true epsilon(delta) of
    ``epochs`` shuffled epochs is at least this), the ``heights`` ``(a, b)`` of the pair and order
    that gave it (``MoG(a)`` against ``MoG(b)``), the number of ``cells`` per epoch and the loss grid
    step ``h``."""

    epsilon: float
    delta: float
    heights: tuple
    cells: int
    h: float

    def to_dict(self) -> dict:
        return {"epsilon": self.epsilon, "delta": self.delta, "heights": list(self.heights),
                "cells": self.cells, "h": self.h}


def _check(sigma, batches, epochs, relation, cell_step, h):
    sigma = v.positive("sigma", sigma, fix="Give the noise multiplier sigma (> 0; noise std / clipping norm).")
    T = v.integer("batches", batches, minimum=1, fix="Give the number of batches in an epoch (>= 1).")
    E = v.integer("epochs", epochs, minimum=1, fix="Give the number of epochs (>= 1).")
    if not isinstance(relation, NeighbourRelation) or relation not in _PAIRS:
        raise InvalidArgument(f"relation={relation!r} must be NeighbourRelation.ADD_REMOVE_ONE (zero-out: the "
                              "record's gradient against 0) or NeighbourRelation.REPLACE_ONE.")
    cell_step = v.positive("cell_step", cell_step, fix="Give the loss change per cell, e.g. 0.01.")
    h = v.positive("value_discretisation", h, fix="Give the loss grid step, e.g. 1e-3.")
    if not (cell_step <= 1.0 and h <= 0.1):
        raise InvalidArgument(f"cell_step={cell_step!r} must be <= 1 and value_discretisation={h!r} <= 0.1: "
                              "coarser cells or grids make the lower bound uselessly loose. Use 0.01 and 1e-3.")
    return sigma, T, E, _PAIRS[relation], cell_step, h


def _thresholds(a: float, b: float, sigma: float, T: int, cell_step: float) -> np.ndarray:
    """Cell boundaries on M (any partition gives a valid bound; this one is a heuristic for
    tightness): a uniform grid whose step changes the far-tail loss ``(a - b) c / sigma^2`` by
    ``cell_step``, from where ``P(M <= c) < e^-80`` under both laws (float64 bisection) to ten
    noise standard deviations above the noise maximum and the spike; at most 20,000 cells (a
    coarser step when more would be needed)."""
    from scipy.special import log_ndtr

    top = max(a, b)

    def log_cdf_hi(c):  # the smaller of the two CDFs (the larger spike)
        return float(log_ndtr((c - top) / sigma) + (T - 1) * log_ndtr(c / sigma))

    lo, up = min(a, b, 0.0) - 40.0 * sigma, top
    for _ in range(200):
        mid = 0.5 * (lo + up)
        if log_cdf_hi(mid) < -80.0:
            lo = mid
        else:
            up = mid
        if up - lo < 1e-6 * sigma:
            break
    hi = top + sigma * (math.sqrt(2 * math.log(max(T, 2))) + 10.0)
    step = cell_step * sigma * sigma / abs(a - b)
    n = min(int(math.ceil((hi - lo) / step)), 20_000)
    return np.linspace(lo, hi, n + 1)


def _log_cdf(c, m, sigma, T):
    """log P(M <= c) under MoG(m), in mpmath."""
    x = (c - m) / sigma
    y = c / sigma
    return _log_ncdf(x) + (T - 1) * _log_ncdf(y)


def _log_ncdf(x):
    if x < 0:
        return mpmath.log(mpmath.ncdf(x))
    return mpmath.log1p(-mpmath.ncdf(-x))


def cell_masses(m: float, sigma: float, T: int, cuts) -> list:
    """Exact (40-digit) masses of the cells (-inf, c_0], (c_0, c_1], ..., (c_n, inf) of M under
    MoG(m): differences of the CDF below its median, of the survival function above it."""
    m = mpmath.mpf(m)
    logF = [_log_cdf(mpmath.mpf(float(c)), m, sigma, T) for c in cuts]
    F = [mpmath.exp(l) for l in logF]
    S = [-mpmath.expm1(l) for l in logF]
    out = [F[0]]
    for i in range(1, len(cuts)):
        out.append(F[i] - F[i - 1] if F[i] <= 0.5 else S[i - 1] - S[i])
    out.append(S[-1])
    return out


def cells_to_pmf(p, q, h: float) -> LossPMF:
    """The pair (cells of M) as a LossPMF of P-masses at losses log(p/q), both rounded down."""
    idx, mass = [], []
    hh = mpmath.mpf(h)
    for pk, qk in zip(p, q):
        if not (pk > 0 and qk > 0):
            continue  # a cell without P-mass adds nothing; Q-mass 0 does not occur (Gaussians)
        loss = mpmath.log(pk) - mpmath.log(qk)
        if loss < _LOSS_FLOOR:
            continue  # dropped: sound for a lower bound
        j = int(mpmath.floor(loss / hh - mpmath.mpf("1e-25")))  # rounded down, with a margin
        pf = float(pk)
        pf = float(np.nextafter(pf, 0.0)) if pf > 0 else 0.0  # below the 40-digit value
        if pf > 0:
            idx.append(j)
            mass.append(pf)
    if not idx:
        return LossPMF(h, 0, np.zeros(1), 0.0, 0.0)
    idx = np.asarray(idx)
    off = int(idx.min())
    probs = np.zeros(int(idx.max()) - off + 1)
    np.add.at(probs, idx - off, np.asarray(mass))
    # np.add.at sums in float64: a sum of n positive terms may exceed the exact sum by a relative
    # n U; deflate every bin by that (n <= 20,002 cells)
    probs *= 1 - 2 * 20_002 * U
    return LossPMF(h, off, probs, 0.0, 0.0)


def _epoch_pmfs(a: float, b: float, sigma: float, T: int, cell_step: float, h: float):
    """Both orders of the one-epoch pair, (MoG(a), MoG(b)) and (MoG(b), MoG(a)), and the number of
    cells."""
    cuts = _thresholds(a, b, sigma, T, cell_step)
    with mpmath.workdps(_DPS):
        p = cell_masses(a, sigma, T, cuts)
        q = cell_masses(b, sigma, T, cuts)
        return {(a, b): cells_to_pmf(p, q, h), (b, a): cells_to_pmf(q, p, h)}, len(cuts) + 1


def _lower_pmfs(a, b, sigma, T, E, cell_step, h, budget):
    """[(heights, composed optimistic PMF)] for both orders, with the truncation mass that may have
    moved up and the relative deflation to apply (as :meth:`PLDComposition.bounds`)."""
    epoch, n = _epoch_pmfs(a, b, sigma, T, cell_step, h)
    out = []
    for key, pmf in epoch.items():
        if E > 1:
            pmf = pmf.self_compose(E, _TAIL, budget)
        out.append((key, pmf))
    moved = 4 * _TAIL
    deflate = math.exp(-E * 256 * U)
    return out, moved, deflate, n


def shuffled_epochs_delta_lower(epsilon: float, sigma: float, batches: int, epochs: int = 1, *,
                                relation: NeighbourRelation = NeighbourRelation.ADD_REMOVE_ONE,
                                cell_step: float = 0.01, value_discretisation: float = 1e-3) -> float:
    """A certified **lower bound** on delta(epsilon) of ``epochs`` shuffled epochs of ``batches``
    Gaussian DP-SGD steps (noise multiplier ``sigma``, clipping norm 1, each epoch reshuffled),
    under ``relation`` (zero-out for ``ADD_REMOVE_ONE``; see the module docstring): the largest of
    the two orders of each pair. ``cell_step`` (loss change per cell of the max statistic) and
    ``value_discretisation`` (loss grid step) trade time for tightness, never soundness."""
    eps = v.nonnegative("epsilon", epsilon, fix="Give a finite epsilon >= 0.")
    sigma, T, E, pairs, cs, h = _check(sigma, batches, epochs, relation, cell_step, value_discretisation)
    best = 0.0
    for a, b in pairs:
        pmfs, moved, defl, _ = _lower_pmfs(a, b, sigma, T, E, cs, h, 1e-15)
        best = max([best] + [pmf.delta_lower(eps, moved, defl) for _, pmf in pmfs])
    return best


def shuffled_epochs_epsilon_lower(delta: float, sigma: float, batches: int, epochs: int = 1, *,
                                  relation: NeighbourRelation = NeighbourRelation.ADD_REMOVE_ONE,
                                  cell_step: float = 0.01,
                                  value_discretisation: float = 1e-3) -> ShuffledLowerBound:
    """A certified **lower bound** on epsilon(delta) of ``epochs`` shuffled epochs (see
    :func:`shuffled_epochs_delta_lower`): the true epsilon is at least ``.epsilon`` of the result
    (0.0 when even epsilon = 0 is not excluded); ``.heights`` names the pair and order that gave it."""
    delta = v.open_unit("delta", delta, fix="Give a delta strictly between 0 and 1.")
    sigma, T, E, pairs, cs, h = _check(sigma, batches, epochs, relation, cell_step, value_discretisation)
    return _epsilon_lower(delta, pairs, sigma, T, E, cs, h)


def allocation_epochs_epsilon_lower(delta: float, sigma: float, steps: int, epochs: int = 1, *,
                                    cell_step: float = 0.01, value_discretisation: float = 1e-3) -> ShuffledLowerBound:
    """A certified **lower bound** on epsilon(delta) of ``epochs`` independent 1-out-of-``steps`` random allocations
    ("balls in bins") of a Gaussian with noise multiplier ``sigma`` (sensitivity 1) under add/remove. The pair is
    ``MoG(1)`` against pure noise ``MoG(0)``: every other record's gradient 0, the target's 1 at its uniformly
    allocated step (the dominating pair of :mod:`~dpverify.accounting.allocation`, realised by this linear query),
    each epoch's maximum cell kept as for shuffling (module docstring), both orders."""
    delta = v.open_unit("delta", delta, fix="Give a delta strictly between 0 and 1.")
    sigma, T, E, _, cs, h = _check(sigma, steps, epochs, NeighbourRelation.ADD_REMOVE_ONE, cell_step,
                                   value_discretisation)
    return _epsilon_lower(delta, ((1.0, 0.0),), sigma, T, E, cs, h)


def allocation_epoch_pmf(sigma: float, steps: int, direction: int, h: float, cell_step: float = 0.01) -> LossPMF:
    """The *optimistic* discretised PLD of one 1-out-of-``steps`` random allocation of a Gaussian (noise multiplier
    ``sigma``, sensitivity 1) under add/remove, on the grid ``h``: the maximum cells of ``MoG(1)`` against pure noise
    (direction 0, "remove") or the reverse (direction 1, "add"), masses and losses rounded down (module docstring).
    The PLD accountant's optimistic pipeline composes it like any leaf
    (:meth:`PLDComposition.bounds <dpverify.accounting.pld.PLDComposition.bounds>`)."""
    sigma, T, _, _, cell_step, h = _check(sigma, steps, 1, NeighbourRelation.ADD_REMOVE_ONE, cell_step, h)
    if direction not in (0, 1):
        raise InvalidArgument(f"direction={direction!r} must be 0 (remove: MoG(1) against noise) or 1 (add).")
    epoch, _ = _epoch_pmfs(1.0, 0.0, sigma, T, cell_step, h)
    return epoch[(1.0, 0.0) if direction == 0 else (0.0, 1.0)]


def _epsilon_lower(delta, pairs, sigma, T, E, cs, h) -> ShuffledLowerBound:
    budget = 10.0 ** math.floor(math.log10(min(1e-12, 1e-3 * delta)))
    best = None
    for a, b in pairs:
        pmfs, moved, defl, n = _lower_pmfs(a, b, sigma, T, E, cs, h, budget)
        for key, pmf in pmfs:
            e = pmf.epsilon_lower(delta, moved, defl)
            if best is None or e > best.epsilon:
                best = ShuffledLowerBound(e, delta, key, n, h)
    return best
