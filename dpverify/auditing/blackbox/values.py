"""The frozen values the black-box stages exchange (probe -> select -> certify -> verdict).

- :class:`Where`: which pair and dataset a batch was drawn from (the text every MechanismError of a
  draw ends with, and its ``pair`` / ``direction`` fields).
- :class:`Layout`: what the probe draws fixed for one pair (output kind, features, batch size,
  candidate events per direction).
- :class:`RaisedDraws`: the draws of D and D' whose ``sample`` call raised, per exception type.
- :class:`SelectedEvent` and :class:`Selection`: the events chosen on the selection draws of one
  round of one pair, and which of them get the paired bound.
- :class:`CertifiedEvent` and :class:`Certification`: the counts and bounds of those events on the
  certification draws.
- :class:`PairRecord`: everything the rounds gave for one pair, which the verdict reads.

The alpha budget is :class:`dpverify.auditing.blackbox.budget.AlphaBudget`. Every value here is
immutable; a stage returns new values and never changes the ones it was given.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Where", "Layout", "RaisedDraws", "SelectedEvent", "Selection", "CertifiedEvent", "Certification",
           "PairRecord", "direction_name"]


def direction_name(j: int) -> str:
    """``"D->D'"`` for direction 0 (events favouring D), ``"D'->D"`` for direction 1."""
    return "D->D'" if j == 0 else "D'->D"


@dataclass(frozen=True)
class Where:
    """Pair ``pair``, dataset ``dataset`` (``"D"`` or ``"D'"``): ``str()`` is ``text``, the phrase every
    error about a draw of this dataset ends with."""

    pair: int
    dataset: str
    text: str

    def __str__(self) -> str:
        return self.text

    def probe(self) -> "Where":
        """The same dataset, for the probe draws."""
        return Where(self.pair, self.dataset, self.text + " (probe draws)")

    def fields(self) -> dict:
        """The structured fields of a MechanismError about these draws."""
        return {"pair": self.pair, "direction": self.dataset}


def error_fields(where: Any) -> dict:
    """``pair`` / ``direction`` keywords for a MechanismError about draws at ``where`` (a
    :class:`Where`; a plain string, as in a hand-built certification task, gives None for both)."""
    return where.fields() if isinstance(where, Where) else {"pair": None, "direction": None}


@dataclass(frozen=True)
class Layout:
    """What the probe draws fixed for one pair, before any selection draw."""

    #: outputs are encoded as structured values (else numeric arrays of one shape)
    structured: bool
    #: numbers per output (1 for structured outputs)
    elements: int
    #: the numeric feature names (None for structured outputs)
    names: tuple | None
    #: outputs per batch (fixed from the layout, never from the number of workers)
    per: int
    #: candidate events per direction (:func:`~dpverify.auditing.blackbox.scores.slots`)
    slots: int


@dataclass(frozen=True)
class RaisedDraws:
    """Draws of D and of D' whose ``sample`` call raised: per exception type name over the probe and
    selection draws (``types``, in the order first seen), and the count over the certification draws
    (``certification``; types not kept there)."""

    types: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] = ((), ())
    certification: tuple[int, int] = (0, 0)

    def as_dicts(self) -> list[dict[str, int]]:
        """``types`` as one dict per dataset (type name -> count)."""
        return [dict(t) for t in self.types]

    def with_types(self, more: list[dict[str, int]]) -> "RaisedDraws":
        """These draws plus ``more`` (per dataset, type name -> count)."""
        out = []
        for have, add in zip(self.as_dicts(), more):
            for name, c in add.items():
                have[name] = have.get(name, 0) + c
            out.append(tuple(have.items()))
        return RaisedDraws((out[0], out[1]), self.certification)

    def with_certification(self, d: int, d_prime: int) -> "RaisedDraws":
        """These draws plus ``d`` / ``d_prime`` certification draws that raised."""
        return RaisedDraws(self.types, (self.certification[0] + d, self.certification[1] + d_prime))

    def counts(self) -> tuple[int, int]:
        """Draws that raised on D and on D', all stages."""
        d = self.as_dicts()
        return (sum(d[0].values()) + self.certification[0], sum(d[1].values()) + self.certification[1])


@dataclass(frozen=True)
class SelectedEvent:
    """One event chosen on the selection draws, to be certified."""

    #: the output event (:mod:`~dpverify.auditing.blackbox.event_families`: HalfLine, OutcomeSet, ScoreAbove)
    event: Any
    family: str
    #: ``"epsilon"`` or ``"delta"``: the bound it was chosen to maximise
    goal: str
    #: the event in words (family, event, how its threshold was chosen)
    text: str
    #: 0: favours D (direction D->D'); 1: favours D'
    direction: int


@dataclass(frozen=True)
class Selection:
    """What the selection draws of one round of one pair chose."""

    events: tuple[SelectedEvent, ...]
    #: indices into ``events`` of those that also get a paired bound (pure claims; at most two)
    paired: tuple[int, ...]
    #: the feature names of the certification tables (structured: the selection's widest number block)
    names: tuple
    #: selection outputs drawn per dataset
    drawn: int
    #: the one outcome every selection draw of both datasets gave, else None
    constant: str | None
    #: exception type name -> count per dataset, over the selection draws
    raised: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]]


@dataclass(frozen=True)
class CertifiedEvent:
    """One event's counts on the certification draws of one round and its certified bounds. ``k1``,
    ``p1`` belong to the favoured side (D for direction 0, D' for 1), ``k2``, ``p2`` to the other."""

    family: str
    goal: str
    text: str
    #: the round that certified it (``"pilot"`` or ``"main"``)
    stage: str
    direction: int
    k1: int
    k2: int
    n: int
    #: lower bound on P_fav(E), upper bound on P_oth(E) (best over the round's looks)
    p1: float
    p2: float
    #: paired lower bound on log(P_fav(E) / P_oth(E)) (0 without one)
    joint: float
    #: (n10, n01) discordant pairs when the paired bound was computed, else None
    discordant: tuple[int, int] | None


@dataclass(frozen=True)
class Certification:
    """The certification draws of one round of one pair."""

    events: tuple[CertifiedEvent, ...]
    #: certification outputs drawn per dataset
    drawn: int
    #: certification draws of D and of D' that raised
    raised: tuple[int, int]
    #: level of each final Clopper-Pearson bound (None when the round has no final part)
    level: float | None
    #: a sequential look certified a violation (the audit stops)
    stopped: bool


@dataclass(frozen=True)
class PairRecord:
    """What the rounds of one pair gave, for the verdict."""

    #: the certified events of every round, in round order
    events: tuple[CertifiedEvent, ...]
    #: selection and certification outputs drawn per dataset (probe draws not included)
    drawn: int
    #: level of each final Clopper-Pearson bound of the main round (None when it certified nothing)
    level: float | None
    #: the one outcome every selection draw of both datasets gave in some round, else None
    constant: str | None
    raised: RaisedDraws
