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

**Tightest over methods.** Every method's result is a certified upper bound, so their minimum
is one too. By default (``fallback=True``) each query is also answered by the other methods that
support the ledger (RDP, KOV, advanced, basic; skipped when unsupported) and the smallest value
is returned; ``epsilon_answer`` / ``delta_answer`` return an :class:`Answer` that names the
method that gave it and lists every method's value. This is how the accountant stays finite when
the PLD's round-off budget cannot be met (10-fold Laplace at delta = 1e-14: the PLD gives inf,
KOV 9.99999999999977) and how it answers 10^12 DP-SGD steps (PLD 6.3e11, RDP 8.5e7), and
says so. ``fallback=False`` keeps the chosen method alone.

**State.** ``state()`` is a JSON-ready dict (the method with its options and the grouped ledger)
and ``Accountant.from_state(state)`` rebuilds an equal accountant, re-validating every value.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .. import validation as v
from ..claims import NeighbourRelation
from ..errors import InvalidArgument, UnsupportedEvent
from .base import CompositionMethod
from .events import Composed, DpEvent, SelfComposed, grouped
from .registry import Method
from .state import STATE_VERSION, event_from_dict, event_to_dict, method_from_dict, method_to_dict

__all__ = ["Accountant", "Answer"]

_FALLBACK = (Method.RDP, Method.KOV, Method.ADVANCED, Method.BASIC)


@dataclass(frozen=True)
class Answer:
    """One query: ``value`` is the tightest certified upper bound on ``quantity`` ("epsilon" or
    "delta") at ``at`` over the methods tried; ``method`` names the method that gave it (the
    primary one on a tie); ``values`` maps every method tried to its value (None: it does not
    support the ledger); ``primary`` is the accountant's own method."""

    quantity: str
    at: float
    value: float
    method: str
    primary: str
    values: dict = field(default_factory=dict)

    @property
    def note(self) -> str:
        """One line for a report: which method answered, and what the primary method gave."""
        if self.method == self.primary:
            return f"{self.quantity} from {self.method}"
        return (f"{self.quantity} from {self.method}, tighter than {self.primary} "
                f"({self.values.get(self.primary)!r})")

    def to_dict(self) -> dict:
        return {"quantity": self.quantity, "at": self.at, "value": self.value, "method": self.method,
                "primary": self.primary, "values": dict(self.values)}


class Accountant:
    """Compose events and report certified upper bounds on (epsilon, delta).

    ``method`` is a :class:`Method` (default options) or a method instance such as
    ``PLDComposition(value_discretisation=1e-4)``.
    """

    def __init__(self, method: Method | CompositionMethod = Method.PLD, *, fallback=True) -> None:
        method = _as_method("method", method)
        if fallback is True:
            others = tuple(m.default() for m in _FALLBACK if not isinstance(method, type(m.default())))
        elif fallback is False or fallback is None:
            others = ()
        elif isinstance(fallback, (tuple, list)):
            others = tuple(_as_method(f"fallback[{i}]", m) for i, m in enumerate(fallback))
        else:
            raise InvalidArgument(f"fallback={fallback!r} must be True (the other methods), False (none) or a "
                                  "tuple of Method values / method instances.")
        self._method = method
        self._fallback = others
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
        parts = grouped(event, allocation=True)  # random allocation stays a leaf (events.leaves)
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

    @property
    def fallback(self) -> tuple:
        """The other methods consulted at each query (module docstring)."""
        return self._fallback

    def epsilon(self, delta: float) -> float:
        """Certified upper bound on epsilon at ``delta`` in (0, 1) (``inf``: none certified): the
        smallest over the method and its fallbacks (:meth:`epsilon_answer` says which)."""
        return self.epsilon_answer(delta).value

    def delta(self, epsilon: float) -> float:
        """Certified upper bound on delta at ``epsilon`` >= 0 (smallest over the methods)."""
        return self.delta_answer(epsilon).value

    def epsilon_answer(self, delta: float) -> Answer:
        """:meth:`epsilon` with the method that gave it and every method's value."""
        delta = v.open_unit("delta", delta, fix="Ask for epsilon at a delta strictly between 0 and 1.")
        return self._answer("epsilon", delta, 0.0, lambda m, ev: m.epsilon(ev, delta))

    def delta_answer(self, epsilon: float) -> Answer:
        """:meth:`delta` with the method that gave it and every method's value."""
        epsilon = v.nonnegative("epsilon", epsilon, fix="Ask for delta at a finite epsilon >= 0.")
        return self._answer("delta", epsilon, 0.0, lambda m, ev: m.delta(ev, epsilon))

    def _answer(self, quantity: str, at: float, empty: float, ask) -> Answer:
        name = self._method.name
        if not self._groups:
            return Answer(quantity, at, empty, name, name, {name: empty})
        ledger = self.ledger
        best = ask(self._method, ledger)  # the primary method supports the ledger (compose checked it)
        values = {name: best}
        winner = name
        for m in self._fallback:
            try:
                val = ask(m, ledger)
            except UnsupportedEvent:
                values[m.name] = None
                continue
            values[m.name] = val
            if val < best or (math.isnan(best) and not math.isnan(val)):
                best, winner = val, m.name
        return Answer(quantity, at, best, winner, name, values)

    # ------------------------------------------------------------------ saving and restoring
    def state(self) -> dict:
        """A JSON-ready dict of the method (with its options) and the grouped ledger; restore it
        with :meth:`from_state`."""
        return {"version": STATE_VERSION, "method": method_to_dict(self._method),
                "fallback": [method_to_dict(m) for m in self._fallback],
                "ledger": [{"event": event_to_dict(l), "count": c} for l, c in self._groups.items()]}

    @classmethod
    def from_state(cls, state: dict) -> "Accountant":
        """The accountant saved by :meth:`state` (every event and option validated again)."""
        if not isinstance(state, dict) or state.get("version") != STATE_VERSION:
            raise InvalidArgument(f"state={state!r:.200} is not an accountant state of version {STATE_VERSION} "
                                  "(a dict written by Accountant.state()).")
        if not isinstance(state.get("ledger"), list):
            raise InvalidArgument("state['ledger'] must be a list of {'event': ..., 'count': ...} entries.")
        fb = state.get("fallback", [])
        if not isinstance(fb, list):
            raise InvalidArgument(f"state['fallback']={fb!r} must be a list of methods (as written by state()).")
        acc = cls(method_from_dict(state.get("method")), fallback=tuple(method_from_dict(m) for m in fb))
        for i, entry in enumerate(state["ledger"]):
            if not isinstance(entry, dict) or set(entry) != {"event", "count"}:
                raise InvalidArgument(f"state['ledger'][{i}]={entry!r} must be a dict with keys 'event' and 'count'.")
            acc.compose(event_from_dict(entry["event"]), entry["count"])
        return acc

    def __repr__(self) -> str:  # noqa: D105
        return (f"Accountant(method={self._method!r}, events={self._steps}, "
                f"distinct={len(self._groups)})")


def _as_method(name: str, method) -> CompositionMethod:
    if isinstance(method, Method):
        method = method.default()
    if not isinstance(method, CompositionMethod):
        raise InvalidArgument(
            f"{name}={method!r} must be a Method (e.g. Method.PLD) or a composition method instance "
            "(e.g. PLDComposition()); strings are not accepted.")
    return method
