"""The interface shared by composition methods: the base class and its argument checks.

This module imports no method: the five methods (:mod:`.basic`, :mod:`.advanced`, :mod:`.kov`,
:mod:`.rdp`, :mod:`.pld`) import it, and the registry of methods by name (:mod:`.registry`,
``Method``) sits above them.

A method is an immutable object with

* ``plan(event)``: the one traversal of the event tree. It returns a method-specific plan
  (what will be computed) or raises :class:`~dpverify.errors.UnsupportedEvent` naming the
  offending leaf and the method. ``supports`` and the computations both go through it.
* ``supports(event) -> bool``: ``plan`` succeeded.
* ``epsilon(event, delta)``: a certified **upper bound** on the epsilon at which the event is
  (epsilon, delta)-DP; ``inf`` when the method certifies no finite epsilon at that delta.
* ``delta(event, epsilon)``: a certified **upper bound** on delta at ``epsilon`` (1.0 when the
  method certifies nothing better).
"""
from __future__ import annotations

import numpy as np

from .. import validation as v
from ..errors import InvalidArgument, UnsupportedEvent
from .events import DpEvent

__all__ = ["CompositionMethod", "as_event", "nonneg_array", "unit_array"]


class CompositionMethod:
    """Base class; subclasses are frozen dataclasses and define ``name``, ``plan``,
    ``_epsilon(plan, delta)`` and ``_delta(plan, epsilon)``."""

    name: str = "?"
    #: True when ``plan`` of a composition succeeds exactly when ``plan`` of each of its leaves
    #: does (the accountant then checks a new event alone; see :mod:`.accountant`).
    per_leaf: bool = False

    def plan(self, event: DpEvent):  # pragma: no cover - abstract
        raise NotImplementedError

    def supports(self, event: DpEvent) -> bool:
        """Whether ``epsilon``/``delta`` can account for ``event`` (same traversal as they use)."""
        try:
            self.plan(event)
        except UnsupportedEvent:
            return False
        return True

    def epsilon(self, event: DpEvent, delta: float) -> float:
        """Certified upper bound on epsilon at ``delta`` (0 < delta < 1)."""
        delta = v.open_unit("delta", delta, fix="Ask for epsilon at a delta strictly between 0 and 1.")
        return self._epsilon(self.plan(as_event(event)), delta)

    def delta(self, event: DpEvent, epsilon: float) -> float:
        """Certified upper bound on delta at ``epsilon`` (finite, >= 0)."""
        epsilon = v.nonnegative("epsilon", epsilon, fix="Ask for delta at a finite epsilon >= 0.")
        return self._delta(self.plan(as_event(event)), epsilon)

    def unsupported(self, leaf: DpEvent, why: str) -> UnsupportedEvent:
        """The error ``plan`` raises for ``leaf``: its text names the method, the leaf and ``why``;
        its fields ``event`` (the leaf) and ``method`` (this method's name) say the same."""
        return UnsupportedEvent(f"{self.name} composition does not support {leaf!r}: {why}",
                                event=leaf, method=self.name)


def as_event(event) -> DpEvent:
    """``event`` itself when it is a :class:`DpEvent`; else :class:`InvalidArgument`."""
    if not isinstance(event, DpEvent):
        raise InvalidArgument(f"event={event!r} must be a DpEvent (e.g. Gaussian(sigma=1.0)), "
                              f"not {type(event).__name__}.")
    return event


def unit_array(name: str, values) -> np.ndarray:
    """``values`` as a float array, all strictly between 0 and 1 (NaN rejected), non-empty."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0 or not np.all((arr > 0) & (arr < 1)):
        raise InvalidArgument(f"{name}={values!r} must be a non-empty array of values strictly between 0 and 1 "
                              "(NaN rejected). Give e.g. [1e-5, 1e-10].")
    return arr


def nonneg_array(name: str, values) -> np.ndarray:
    """``values`` as a float array, all finite and >= 0 (NaN rejected), non-empty."""
    arr = np.asarray(values, dtype=float)
    if arr.size == 0 or not np.all(np.isfinite(arr) & (arr >= 0)):
        raise InvalidArgument(f"{name}={values!r} must be a non-empty array of finite values >= 0 "
                              "(NaN rejected). Give e.g. [0.5, 1.0, 2.0].")
    return arr
