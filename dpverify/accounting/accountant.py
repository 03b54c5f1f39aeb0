"""The privacy accountant: a ledger of composed events and a composition method.

``Accountant(method)`` records events with ``compose(event, count=1)`` and answers
``epsilon(delta)`` / ``delta(epsilon)``: certified **upper bounds** from the chosen method.
``compose`` is atomic: the whole new ledger is checked by the method's ``plan`` traversal (the
same code that computes) *before* the ledger changes, so a rejected event (invalid count,
unsupported by the method, other neighbour relation) leaves the accountant exactly as it was.
"""
from __future__ import annotations


from .. import _validate as v
from ..claims import NeighbourRelation
from ..errors import InvalidArgument
from ._method import CompositionMethod, Method
from .events import Composed, DpEvent, SelfComposed

__all__ = ["Accountant"]


class Accountant:
    """Compose events and report certified upper bounds on (epsilon, delta).

    ``method`` is a :class:`Method` (default options) or a method instance such as
    ``PLDComposition(value_discretisation=1e-4)``.
    """

    def __init__(self, method: Method | CompositionMethod = Method.PLD) -> None:
        if isinstance(method, Method):
            method = method.default()
        if not isinstance(method, CompositionMethod):
            raise InvalidArgument(
                f"method={method!r} must be a Method (e.g. Method.PLD) or a composition method instance "
                "(e.g. PLDComposition()); strings are not accepted.")
        self._method = method
        self._entries: tuple[DpEvent, ...] = ()

    @property
    def method(self) -> CompositionMethod:
        return self._method

    @property
    def ledger(self) -> Composed | None:
        """Everything composed so far, as one event (None when empty)."""
        return Composed(self._entries) if self._entries else None

    @property
    def relation(self) -> NeighbourRelation | None:
        return self._entries[0].relation if self._entries else None

    def compose(self, event: DpEvent, count: int = 1) -> "Accountant":
        """Record ``event`` run ``count`` times; returns self. Atomic (see module docstring)."""
        if not isinstance(event, DpEvent):
            raise InvalidArgument(f"event={event!r} must be a DpEvent (e.g. Gaussian(sigma=1.0)), "
                                  f"not {type(event).__name__}.")
        count = v.integer("count", count, minimum=1, fix="Compose an event at least once.")
        entry = event if count == 1 else SelfComposed(event, count)
        candidate = self._entries + (entry,)
        ledger = Composed(candidate)  # rejects a mix of neighbour relations
        self._method.plan(ledger)  # raises UnsupportedEvent naming the leaf; nothing changed yet
        self._entries = candidate
        return self

    def epsilon(self, delta: float) -> float:
        """Certified upper bound on epsilon at ``delta`` in (0, 1) (``inf``: none certified)."""
        delta = v.open_unit("delta", delta, fix="Ask for epsilon at a delta strictly between 0 and 1.")
        if not self._entries:
            return 0.0
        return self._method.epsilon(self.ledger, delta)

    def delta(self, epsilon: float) -> float:
        """Certified upper bound on delta at ``epsilon`` >= 0."""
        epsilon = v.nonnegative("epsilon", epsilon, fix="Ask for delta at a finite epsilon >= 0.")
        if not self._entries:
            return 0.0
        return self._method.delta(self.ledger, epsilon)

    def __repr__(self) -> str:
        return f"Accountant(method={self._method!r}, events={len(self._entries)})"


