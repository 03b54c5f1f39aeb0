"""What a black-box audit spends: its samples (:class:`SamplePlan`) and its alpha (:class:`AlphaBudget`).

Both are computed once, before any selection draw, and passed down to the stages:

- :class:`SamplePlan`: per dataset, the pilot round's outputs (``stop_early`` only), then the main
  round's selection outputs (``min(SELECTION_CAP, selection_fraction * rest)``) and certification
  outputs (the rest).
- :class:`AlphaBudget`: ``alpha = 1 - confidence`` split into the pilot round's sequential looks
  (``PILOT_SHARE``), the main round's sequential looks (``SEQUENTIAL_SHARE``) and the final
  Clopper-Pearson part (the rest; all of alpha without ``stop_early``), each over the ``K`` event
  slots fixed by the probe. :meth:`AlphaBudget.rounds` gives each round its :class:`RoundBudget`,
  which holds every level the round uses (selection scans, the paired bound's share
  ``PAIRED_SHARE`` + ``PAIRED_MARGIN_SHARE`` for pure claims, the separate bounds' level).
"""
from __future__ import annotations

from dataclasses import dataclass

from .. import draws

__all__ = ["SamplePlan", "AlphaBudget", "RoundBudget", "Round", "SELECTION_FRACTION", "MIN_SAMPLES",
           "SELECTION_CAP", "PILOT_SELECTION", "PILOT_LOOKS", "PILOT_SHARE", "SEQUENTIAL_SHARE",
           "PILOT_MIN_SAMPLES", "PAIRED_SHARE", "PAIRED_MARGIN_SHARE"]

#: Share of the samples used to choose events (the rest certify them).
SELECTION_FRACTION = 0.4
#: Fewest samples per dataset a black-box audit accepts.
MIN_SAMPLES = 20
#: Selection outputs kept per dataset at most (the rest of the budget certifies).
SELECTION_CAP = 100_000
#: Early stopping: pilot selection size, pilot certification looks, shares of alpha.
PILOT_SELECTION = 2_000
PILOT_LOOKS = (1_000, 1_000, 2_000, 4_000)
PILOT_SHARE = 0.1
SEQUENTIAL_SHARE = 0.1
#: Smallest budget (per dataset) for which stop_early runs a pilot round.
PILOT_MIN_SAMPLES = 40_000
#: Pure-DP claims: share of a pair's final alpha given to the paired (joint) bound on the log
#: ratio of its top event (the candidate with the best predicted epsilon), and to that bound's
#: margin correction; the rest is split evenly over every event's two Clopper-Pearson bounds.
#: Weights fixed from the selection draws alone (weighted Bonferroni), so the union bound holds.
PAIRED_SHARE = 0.85
PAIRED_MARGIN_SHARE = 0.01


@dataclass(frozen=True)
class SamplePlan:
    """Outputs per dataset of each pair: ``samples`` in all (after the ``max_samples`` cap), of which
    the pilot round takes ``PILOT_SELECTION + sum(PILOT_LOOKS)`` when ``pilot``, and the main round
    ``selection`` + ``certification``."""

    samples: int
    pilot: bool
    selection: int
    certification: int
    #: the cap's note (None when ``samples`` was not capped)
    note: str | None

    @classmethod
    def make(cls, capped: draws.SamplesPlan, selection_fraction: float, stop_early: bool) -> "SamplePlan":
        """The plan for the (capped) samples of ``capped`` (:func:`dpverify.auditing.draws.plan_samples`),
        ``selection_fraction`` already validated."""
        samples = capped.samples
        pilot = bool(stop_early) and samples >= PILOT_MIN_SAMPLES
        n_pilot = PILOT_SELECTION + sum(PILOT_LOOKS) if pilot else 0
        rest = samples - n_pilot
        n_sel = min(SELECTION_CAP, rest - 1, max(1, int(round(rest * selection_fraction))))
        return cls(samples, pilot, n_sel, rest - n_sel, capped.note if capped.capped else None)


@dataclass(frozen=True)
class RoundBudget:
    """The alpha of one round: ``sequential`` for its anytime-valid looks (0: none) and ``final`` for
    its final Clopper-Pearson (and paired) bounds (0: none), over ``slots`` (K) event slots."""

    sequential: float
    final: float
    slots: int

    def selection_level(self) -> float:
        """Level at which the selection scans predict each event's bounds."""
        return (self.final or self.sequential) / (8 * self.slots)

    def pair_share(self, pair_slots: int) -> float:
        """A pair's part of the final alpha (its ``2 * pair_slots`` of the K slots)."""
        return self.final * 2 * pair_slots / self.slots

    def paired_selection(self, pair_slots: int) -> float:
        """The paired bound's alpha as the selection predicts it (``PAIRED_SHARE`` of the pair's part)."""
        return PAIRED_SHARE * self.final * 2 * pair_slots / self.slots

    def paired_bound(self, pair_slots: int, events: int) -> tuple[float, float]:
        """``(alpha, margin alpha)`` of each of ``events`` paired bounds of a pair (weighted union
        bound: the paired share split evenly)."""
        share = self.pair_share(pair_slots)
        return PAIRED_SHARE * share / events, PAIRED_MARGIN_SHARE * share / events

    def separate(self, paired: bool) -> float:
        """The final alpha left to the 2K Clopper-Pearson bounds (less the paired shares when ``paired``)."""
        return self.final * (1.0 - PAIRED_SHARE - PAIRED_MARGIN_SHARE) if paired else self.final

    def final_level(self, paired: bool) -> float:
        """Level of each final Clopper-Pearson bound."""
        return self.separate(paired) / (2 * self.slots)

    def sequential_level(self) -> float:
        """Level of each anytime-valid bound of a look."""
        return self.sequential / (2 * self.slots)


@dataclass(frozen=True)
class Round:
    """One round of every pair: ``label`` (``"pilot"`` or ``"main"``), the index of its seed among a
    pair's children, its selection and certification sizes, its fixed looks (pilot) and its alpha."""

    label: str
    seed_index: int
    selection: int
    certification: int
    looks: tuple[int, ...] | None
    alpha: RoundBudget


@dataclass(frozen=True)
class AlphaBudget:
    """``alpha = 1 - confidence`` split once: ``pilot`` + ``sequential`` + ``final`` = ``alpha``, over
    ``slots`` (K) event slots (both directions of every pair)."""

    alpha: float
    pilot: float
    sequential: float
    final: float
    slots: int

    @classmethod
    def split(cls, confidence: float, stop_early: bool, pilot: bool, slots: int) -> "AlphaBudget":
        alpha = 1.0 - confidence
        a_pilot = alpha * PILOT_SHARE if pilot else 0.0
        a_seq = alpha * SEQUENTIAL_SHARE if stop_early else 0.0
        return cls(alpha, a_pilot, a_seq, alpha - a_pilot - a_seq, slots)

    def rounds(self, plan: SamplePlan) -> tuple[Round, ...]:
        """The pilot round (when the plan has one) and the main round."""
        main = Round("main", 3, plan.selection, plan.certification, None,
                     RoundBudget(self.sequential, self.final, self.slots))
        if not plan.pilot:
            return (main,)
        return (Round("pilot", 2, PILOT_SELECTION, sum(PILOT_LOOKS), PILOT_LOOKS,
                      RoundBudget(self.pilot, 0.0, self.slots)), main)

    def default_level(self) -> float:
        """Level of each final bound of a pair whose main round certified nothing."""
        return self.final / (2 * self.slots)

    def evidence_level(self, evidence_alpha: float) -> float:
        """Level of each bound of the evidence test at overall level ``evidence_alpha``."""
        return evidence_alpha / (2 * self.slots)
