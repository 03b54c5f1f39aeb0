"""Audit results: immutable values with a JSON-ready ``to_dict``."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from .._format import fmt_lower
from ..claims import PrivacyClaim, Verdict

__all__ = ["AuditResult", "DirectionResult", "jsonable"]


def jsonable(x: Any) -> Any:
    """Plain JSON types: infinities become the strings "inf" / "-inf", arrays become lists."""
    if isinstance(x, (bool, np.bool_)):
        return bool(x)
    if isinstance(x, (int, np.integer)):
        return int(x)
    if isinstance(x, (float, np.floating)):
        f = float(x)
        if math.isnan(f):  # never produced by dpverify; kept explicit rather than silent
            return "nan"
        if math.isinf(f):
            return "inf" if f > 0 else "-inf"
        return f
    if isinstance(x, np.ndarray):
        if x.size > 10_000:
            return {"shape": list(x.shape), "dtype": str(x.dtype), "note": "too large to list"}
        return jsonable(x.tolist())
    if isinstance(x, dict):
        return {str(k): jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [jsonable(v) for v in x]
    if hasattr(x, "to_dict"):
        return jsonable(x.to_dict())
    if x is None or isinstance(x, str):
        return x
    return repr(x)


@dataclass(frozen=True)
class DirectionResult:
    """What one direction (D vs D') of one pair showed."""

    pair_index: int
    direction: str  # "D->D'" (outputs drawn from D) or "D'->D"
    samples: int
    epsilon_lower: float
    delta_lower: float
    delta_estimate: float
    infinite_loss_count: int
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        d = {
            "pair_index": self.pair_index,
            "direction": self.direction,
            "samples": self.samples,
            "epsilon_lower": self.epsilon_lower,
            "delta_lower": self.delta_lower,
            "delta_estimate": self.delta_estimate,
            "infinite_loss_count": self.infinite_loss_count,
        }
        d.update(self.extra)
        return jsonable(d)


@dataclass(frozen=True)
class AuditResult:
    """The outcome of :func:`dpverify.audit`.

    ``epsilon_lower`` is a lower confidence bound on the smallest epsilon for which the mechanism
    is (epsilon, claim.delta)-DP on the pairs tested (``inf`` when the loss is infinite with
    probability above claim.delta); ``delta_lower`` is a lower confidence bound on
    delta(claim.epsilon). Both hold simultaneously, with probability at least ``confidence``,
    over every pair and direction tried. ``pair``/``direction`` name where the bound came from.
    """

    verdict: Verdict
    epsilon_lower: float
    delta_lower: float
    delta_estimate: float
    confidence: float
    samples: int
    claim: PrivacyClaim
    pair_index: int
    pair: tuple
    direction: str
    method: str
    seconds: float
    directions: tuple[DirectionResult, ...]
    notes: tuple[str, ...] = ()
    #: What a neighbour search did (candidates tried, selected, certified), or None without one.
    search: dict | None = None
    #: Black-box audits: the best certified event in words (with its certification counts).
    event: str | None = None
    #: How each pair was confirmed to be neighbouring (see :mod:`dpverify.auditing.pairs`), one
    #: entry per pair; ``"unchecked"`` when nothing could confirm it.
    neighbour_checks: tuple[str, ...] = ()
    #: White-box audits: the density-sampler consistency check (see
    #: :mod:`dpverify.auditing.consistency`), or None when it was not run.
    consistency: dict | None = None
    #: True when the run stopped at ``time_budget`` before drawing every requested sample.
    stopped_early: bool = False
    #: Whether the sampler honours ``rng`` (same seed -> same outputs), so that the run can be
    #: repeated from its seed; None when not probed.
    reproducible: bool | None = None
    #: Black-box audits: per pair, ``(draws of D, draws of D')`` whose ``sample`` call raised (each
    #: such draw is the outcome ``error:<TypeName>``; a note says so whenever one is not zero). Empty
    #: for white-box audits, where a raising sampler is a MechanismError.
    raised_draws: tuple[tuple[int, int], ...] = ()

    @property
    def passed(self) -> bool:
        """The CI rule: True unless the audit found a significant violation or an inconsistent
        density. A mechanism that keeps its claim fails with probability at most
        ``false_alarm_rate`` (it can never be *proved* private by a test: ``passed`` means only
        that no violation was found)."""
        return self.verdict in (Verdict.NOT_VIOLATED, Verdict.INCONCLUSIVE)

    @property
    def false_alarm_rate(self) -> float:
        """Upper bound on P(passed is False) for a mechanism that keeps the claim: 1 - confidence
        (plus the consistency check's 1e-6 for white-box audits)."""
        extra = 0.0 if self.consistency is None else float(self.consistency.get("false_alarm_rate", 0.0))
        return (1.0 - self.confidence) + extra

    @property
    def tightness(self) -> float | None:
        """How much of the claim the audit confirmed: epsilon_lower / claim.epsilon, capped at 1
        for a passing audit (None when claim.epsilon is 0). 1.0 means the lower bound reached
        the claim: the claim cannot be lowered much on these pairs."""
        if not self.claim.epsilon > 0:
            return None
        t = self.epsilon_lower / self.claim.epsilon
        return min(t, 1.0) if self.passed else t

    def to_dict(self) -> dict:
        return jsonable({
            "verdict": self.verdict.value,
            "epsilon_lower": self.epsilon_lower,
            "delta_lower": self.delta_lower,
            "delta_estimate": self.delta_estimate,
            "confidence": self.confidence,
            "samples": self.samples,
            "claim": self.claim.to_dict(),
            "pair_index": self.pair_index,
            "pair": list(self.pair),
            "direction": self.direction,
            "method": self.method,
            "seconds": self.seconds,
            "directions": [d.to_dict() for d in self.directions],
            "notes": list(self.notes),
            "search": self.search,
            "event": self.event,
            "neighbour_checks": list(self.neighbour_checks),
            "passed": self.passed,
            "false_alarm_rate": self.false_alarm_rate,
            "tightness": self.tightness,
            "consistency": self.consistency,
            "stopped_early": self.stopped_early,
            "reproducible": self.reproducible,
            "raised_draws": [list(r) for r in self.raised_draws],
        })

    def __str__(self) -> str:
        c = self.claim
        return (
            f"{self.verdict.value}: claim (eps={c.epsilon:g}, delta={c.delta:g}); "
            f"epsilon_lower={fmt_lower(self.epsilon_lower, 6)}, delta_lower={fmt_lower(self.delta_lower, 3)} "
            f"(estimate {self.delta_estimate:.3g}) at confidence {self.confidence:g}, "
            f"{self.samples} samples per direction, pair {self.pair_index} {self.direction}, "
            f"{self.method}, {self.seconds:.2f} s"
            + ("" if self.tightness is None or not self.passed else
               f"; passed (false-alarm rate <= {self.false_alarm_rate:.3g}), tightness {self.tightness:.3f}")
        )
