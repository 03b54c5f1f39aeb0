"""The interface shared by composition methods (internal).

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

import enum

from .. import _validate as v
from ..errors import InvalidArgument, UnsupportedEvent
from .events import DpEvent


class Method(enum.Enum):
    """The composition methods, by name (``Method.PLD.value == "pld"``)."""

    BASIC = "basic"
    ADVANCED = "advanced"
    KOV = "kov"
    RDP = "rdp"
    PLD = "pld"

    def default(self) -> "CompositionMethod":
        """An instance of this method with its default options."""
        from .advanced import AdvancedComposition
        from .basic import BasicComposition
        from .kov import KOVComposition
        from .pld import PLDComposition
        from .rdp import RDPComposition

        return {
            Method.BASIC: BasicComposition,
            Method.ADVANCED: AdvancedComposition,
            Method.KOV: KOVComposition,
            Method.RDP: RDPComposition,
            Method.PLD: PLDComposition,
        }[self]()


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
        return self._epsilon(self.plan(_event(event)), delta)

    def delta(self, event: DpEvent, epsilon: float) -> float:
        """Certified upper bound on delta at ``epsilon`` (finite, >= 0)."""
        epsilon = v.nonnegative("epsilon", epsilon, fix="Ask for delta at a finite epsilon >= 0.")
        return self._delta(self.plan(_event(event)), epsilon)

    def _unsupported(self, leaf: DpEvent, why: str) -> UnsupportedEvent:
        return UnsupportedEvent(f"{self.name} composition does not support {leaf!r}: {why}")


def _event(event) -> DpEvent:
    if not isinstance(event, DpEvent):
        raise InvalidArgument(f"event={event!r} must be a DpEvent (e.g. Gaussian(sigma=1.0)), "
                              f"not {type(event).__name__}.")
    return event
