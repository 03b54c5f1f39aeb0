"""The privacy accountant: a ledger of composed events and a composition method.

``Accountant(method)`` records events with ``compose(event, count=1)`` (or ``step(event)`` in a
training loop) and answers ``epsilon(delta)`` / ``delta(epsilon)``: certified **upper bounds**
from the chosen method.

**Cost.** The ledger is kept *grouped*: equal events share one entry whose count grows, so a
run of 10^6 identical DP-SGD steps is one entry, and recording an event costs time in the size
of that event only (never in the size of the ledger). Composition is commutative, so the grouped
ledger has the same privacy as the sequence of events. The PLD method also keeps the composed
distribution of the ledger it last answered for and, when the ledger has only grown since,
convolves only the new entries (:meth:`PLDComposition.composed_pmfs`), so a loop that asks for
epsilon after every step pays for each step once.

**Atomicity.** ``compose`` checks the new event with the method's ``plan`` traversal (the same
code that computes) *before* the ledger changes, so a rejected event (invalid count, unsupported
by the method, other neighbour relation) leaves the accountant exactly as it was. Methods whose
plan is a per-leaf traversal (``per_leaf = True``: PLD, RDP, basic, advanced) check the new event
alone; the others (KOV, which needs every leaf to carry one guarantee) re-check the grouped
ledger, whose size is the number of *distinct* events.

**State.** ``state()`` is a JSON-ready dict (the method with its options and the grouped ledger)
and ``Accountant.from_state(state)`` rebuilds an equal accountant, re-validating every value.
"""
from __future__ import annotations

from .. import _validate as v
from ..claims import NeighbourRelation
from ..errors import InvalidArgument
from ._method import CompositionMethod, Method
from .events import Composed, DpEvent, SelfComposed, grouped

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
        self._groups: dict[DpEvent, int] = {}  # leaf -> total count, in first-seen order
        self._relation: NeighbourRelation | None = None
        self._steps = 0

    @property
    def method(self) -> CompositionMethod:
        return self._method

    @property
    def ledger(self) -> Composed | None:
        """Everything composed so far, as one event: the distinct leaf events in the order first
        seen, each as ``SelfComposed(leaf, total count)`` when its count exceeds one (None when
        empty)."""
        if not self._groups:
            return None
        return Composed(tuple(l if c == 1 else SelfComposed(l, c) for l, c in self._groups.items()))

    @property
    def relation(self) -> NeighbourRelation | None:
        return self._relation

    @property
    def events(self) -> int:
        """The number of leaf events composed so far (counts included)."""
        return self._steps

    @property
    def distinct_events(self) -> int:
        """The number of distinct leaf events in the ledger."""
        return len(self._groups)

    def compose(self, event: DpEvent, count: int = 1) -> "Accountant":
        """Record ``event`` run ``count`` times; returns self. Atomic (see module docstring)."""
        if not isinstance(event, DpEvent):
            raise InvalidArgument(f"event={event!r} must be a DpEvent (e.g. Gaussian(sigma=1.0)), "
                                  f"not {type(event).__name__}.")
        count = v.integer("count", count, minimum=1, fix="Compose an event at least once.")
        if self._relation is not None and event.relation is not self._relation:
            raise InvalidArgument(
                f"event={event!r} is declared under {event.relation.value} but the ledger holds events under "
                f"{self._relation.value}; a composition is accounted under one relation. Declare every event "
                "under the same NeighbourRelation.")
        parts = grouped(event)
        if getattr(self._method, "per_leaf", False):
            self._method.plan(event)  # raises UnsupportedEvent naming the leaf; nothing changed yet
        else:
            new = dict(self._groups)
            for leaf, c in parts:
                new[leaf] = new.get(leaf, 0) + c * count
            self._method.plan(Composed(tuple(l if c == 1 else SelfComposed(l, c) for l, c in new.items())))
        for leaf, c in parts:
            self._groups[leaf] = self._groups.get(leaf, 0) + c * count
            self._steps += c * count
        self._relation = event.relation
        return self

    def step(self, event: DpEvent) -> "Accountant":
        """Record one run of ``event`` (a training step); returns self. The same as
        ``compose(event)``: its cost does not grow with the ledger (module docstring)."""
        return self.compose(event)

    def epsilon(self, delta: float) -> float:
        """Certified upper bound on epsilon at ``delta`` in (0, 1) (``inf``: none certified)."""
        delta = v.open_unit("delta", delta, fix="Ask for epsilon at a delta strictly between 0 and 1.")
        if not self._groups:
            return 0.0
        return self._method.epsilon(self.ledger, delta)

    def delta(self, epsilon: float) -> float:
        """Certified upper bound on delta at ``epsilon`` >= 0."""
        epsilon = v.nonnegative("epsilon", epsilon, fix="Ask for delta at a finite epsilon >= 0.")
        if not self._groups:
            return 0.0
        return self._method.delta(self.ledger, epsilon)

    # ------------------------------------------------------------------ saving and restoring
    def state(self) -> dict:
        """A JSON-ready dict of the method (with its options) and the grouped ledger; restore it
        with :meth:`from_state`."""
        from .state import STATE_VERSION, event_to_dict, method_to_dict

        return {"version": STATE_VERSION, "method": method_to_dict(self._method),
                "ledger": [{"event": event_to_dict(l), "count": c} for l, c in self._groups.items()]}

    @classmethod
    def from_state(cls, state: dict) -> "Accountant":
        """The accountant saved by :meth:`state` (every event and option validated again)."""
        from .state import STATE_VERSION, event_from_dict, method_from_dict

        if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
            raise InvalidArgument(f"state={state!r:.200} is not an accountant state of version {STATE_VERSION} "
                                  "(a dict written by Accountant.state()).")
        if not isinstance(state.get("ledger"), list):
            raise InvalidArgument("state['ledger'] must be a list of {'event': ..., 'count': ...} entries.")
        acc = cls(method_from_dict(state.get("method")))
        for i, entry in enumerate(state["ledger"]):
            if not isinstance(entry, dict) or set(entry) != {"event", "count"}:
                raise InvalidArgument(f"state['ledger'][{i}]={entry!r} must be a dict with keys 'event' and 'count'.")
            acc.compose(event_from_dict(entry["event"]), entry["count"])
        return acc

    def __repr__(self) -> str:
        return (f"Accountant(method={self._method!r}, events={self._steps}, "
                f"distinct={len(self._groups)})")
