"""epsilon(delta) and delta(epsilon) curves per method, and the PLD's upper and lower bounds:
plain functions, arrays in and arrays out (for plots and reports).

* :func:`epsilon_curve` ``(event, deltas, method)``: certified upper bounds on epsilon at each
  delta (``inf`` where the method certifies nothing); unsupported events raise
  :class:`~dpverify.errors.UnsupportedEvent`.
* :func:`delta_curve` ``(event, epsilons, method)``: certified upper bounds on delta.
* :func:`pld_bounds` ``(event, deltas)``: a :class:`~dpverify.accounting.pld.PLDBounds` with the
  certified ``upper``, the optimistic ``lower`` (the true epsilon is at least this), the
  ``estimate`` without round-off terms and the ``numerical_slack``.
* :func:`dpsgd` ``(rate, sigma, steps)``: the DP-SGD event (Poisson-subsampled Gaussian with
  clipping norm 1 under add/remove-one, composed ``steps`` times).
"""
from __future__ import annotations

import numpy as np

from .. import validation as v
from ..claims import NeighbourRelation
from ..errors import InvalidArgument
from .base import CompositionMethod, as_event, nonneg_array, unit_array
from .events import DpEvent, Gaussian, PoissonSubsampled, SelfComposed
from .pld import PLDComposition
from .registry import Method

__all__ = ["delta_curve", "dpsgd", "epsilon_curve", "pld_bounds"]


def _method(method) -> CompositionMethod:
    if isinstance(method, Method):
        return method.default()
    if isinstance(method, CompositionMethod):
        return method
    raise InvalidArgument(f"method={method!r} must be a Method (e.g. Method.PLD) or a composition method instance.")


def epsilon_curve(event: DpEvent, deltas, method: Method | CompositionMethod = Method.PLD) -> np.ndarray:
    """Certified upper bounds on epsilon at each of ``deltas`` (array of the same shape)."""
    return _curve(event, method, unit_array("deltas", deltas), "epsilons", "_epsilon")


def delta_curve(event: DpEvent, epsilons, method: Method | CompositionMethod = Method.PLD) -> np.ndarray:
    """Certified upper bounds on delta at each of ``epsilons`` (array of the same shape)."""
    return _curve(event, method, nonneg_array("epsilons", epsilons), "deltas", "_delta")


def _curve(event: DpEvent, method, points: np.ndarray, pld_call: str, point_call: str) -> np.ndarray:
    """A method's bound at every point: the PLD's vectorised query, else one query per point."""
    m = _method(method)
    event = as_event(event)
    if isinstance(m, PLDComposition):
        return getattr(m, pld_call)(event, points)
    plan = m.plan(event)
    one = getattr(m, point_call)
    return np.array([one(plan, float(x)) for x in points.ravel()]).reshape(points.shape)


def pld_bounds(event: DpEvent, deltas, method=None):
    """Upper and lower bounds on epsilon(delta) from the PLD (see :meth:`PLDComposition.bounds`)."""
    m = PLDComposition() if method is None else method
    if not isinstance(m, PLDComposition):
        raise InvalidArgument(f"method={method!r} must be a PLDComposition (or None for the default).")
    return m.bounds(as_event(event), deltas)


def dpsgd(rate: float, sigma: float, steps: int) -> DpEvent:
    """The DP-SGD event: ``steps`` Poisson-subsampled Gaussian steps (sampling ``rate``, noise
    multiplier ``sigma``, clipping norm 1) under add/remove-one (Abadi et al. 2016)."""
    steps = v.integer("steps", steps, minimum=1, fix="Give the number of steps (>= 1).")
    inner = Gaussian(sigma, 1.0, relation=NeighbourRelation.ADD_REMOVE_ONE)
    ev = PoissonSubsampled(inner, rate)
    return ev if steps == 1 else SelfComposed(ev, steps)
