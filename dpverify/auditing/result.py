"""Audit results: immutable values with a JSON-ready ``to_dict``.

:class:`AuditResult` is what :func:`dpverify.audit` returns. Its fields that take a fixed set of
values are ``str``-valued enums (:class:`AuditMethod`, :class:`Direction`: they compare equal to,
and serialise as, the plain strings), and its structured reports are frozen values with a
``to_dict`` (:class:`SearchRecord`, what a neighbour search did; :class:`ConsistencyCheck`, the
white-box density-sampler check) that also read like the dicts they serialise to
(``result.search["method"]``). The testers may hand in the plain strings and dicts: the result
turns them into these values when it is built.
"""
from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Iterator

import numpy as np

from ..rounding import fmt_lower
from ..claims import PrivacyClaim, Verdict

__all__ = ["AuditResult", "DirectionResult", "AuditMethod", "Direction", "SearchRecord", "ConsistencyCheck",
           "jsonable"]


def jsonable(x: Any) -> Any:
    """Plain JSON types: infinities become the strings "inf" / "-inf", arrays become lists, ``str``-valued
    enums their value."""
    if isinstance(x, str) and isinstance(x, enum.Enum):
        return x.value
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


class AuditMethod(str, enum.Enum):
    """How an audit computed its bounds (``AuditResult.method``): the white-box tester with plain draws,
    importance sampling or both (in different directions), or the black-box tester."""

    WHITE_BOX = "white-box"
    WHITE_BOX_IMPORTANCE = "white-box (importance sampling)"
    WHITE_BOX_MIXED = "white-box (importance sampling, plain)"
    BLACK_BOX = "black-box"
    GREY_BOX = "grey-box"

    def __str__(self) -> str:
        return self.value


class Direction(str, enum.Enum):
    """Which way a pair was tested: outputs drawn from D against D' (``D->D'``), or the reverse."""

    D_TO_D_PRIME = "D->D'"
    D_PRIME_TO_D = "D'->D"

    def __str__(self) -> str:
        return self.value


class _Record(Mapping):
    """A frozen report that also reads as the dict it serialises to (``record["key"]``, ``.get``)."""

    def to_dict(self) -> dict:  # pragma: no cover - every record defines it
        raise NotImplementedError

    def __getitem__(self, key: str) -> Any:
        return self.to_dict()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self.to_dict())

    def __len__(self) -> int:
        return len(self.to_dict())


@dataclass(frozen=True, eq=False)
class SearchRecord(_Record):
    """What a neighbour generator did before certification (``AuditResult.search``).

    ``report`` is the generator's own report (``NeighbourGenerator.report()``: ``generator``, ``space``
    and, for :class:`~dpverify.auditing.search.AdversarialSearch`, the method, evaluations and the
    selected candidates), kept in its order; ``certified_pairs`` the number of pairs handed to the
    tester; ``multiplicity`` how the confidence was split over them.
    """

    report: tuple = ()
    certified_pairs: int = 0
    multiplicity: str = ""

    @classmethod
    def from_dict(cls, d: Mapping) -> "SearchRecord":
        d = dict(d)
        certified = d.pop("certified_pairs")
        multiplicity = d.pop("multiplicity")
        return cls(tuple(d.items()), certified, multiplicity)

    @property
    def generator(self) -> str | None:
        return dict(self.report).get("generator")

    @property
    def space(self) -> Any:
        return dict(self.report).get("space")

    def to_dict(self) -> dict:
        return {**dict(self.report), "certified_pairs": self.certified_pairs, "multiplicity": self.multiplicity}


@dataclass(frozen=True, eq=False)
class ConsistencyCheck(_Record):
    """The white-box density-sampler consistency check (``AuditResult.consistency``; see
    :mod:`dpverify.auditing.whitebox.consistency`): whether ``log_density`` agreed with ``sample``, at which
    false-alarm rate, on which thresholds and draws, the failures, and (when the audit found a
    violation) the re-check of the violating event on fresh draws (``violating_event``, else None)."""

    consistent: bool
    false_alarm_rate: float
    thresholds: Any
    draws_per_direction: Any
    identity: str
    failures: Any
    checks: int
    violating_event: Any = None

    _KEYS = ("consistent", "false_alarm_rate", "thresholds", "draws_per_direction", "identity", "failures",
             "checks", "violating_event")

    @classmethod
    def from_dict(cls, d: Mapping) -> "ConsistencyCheck":
        unknown = sorted(set(d) - set(cls._KEYS))
        if unknown:
            raise TypeError(f"ConsistencyCheck has no fields {unknown}")
        return cls(**d)

    def to_dict(self) -> dict:
        d = {k: getattr(self, k) for k in self._KEYS[:-1]}
        if self.violating_event is not None:
            d["violating_event"] = self.violating_event
        return d


@dataclass(frozen=True)
class DirectionResult:
    """What one direction (D vs D') of one pair showed."""

    pair_index: int
    direction: Direction  # D->D' (outputs drawn from D) or D'->D; given as the plain string or the enum
    samples: int
    epsilon_lower: float
    delta_lower: float
    delta_estimate: float
    infinite_loss_count: int
    extra: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "direction", Direction(self.direction))

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
    direction: Direction
    method: AuditMethod
    seconds: float
    directions: tuple[DirectionResult, ...]
    notes: tuple[str, ...] = ()
    #: What a neighbour search did (candidates tried, selected, certified), or None without one.
    search: SearchRecord | None = None
    #: Black-box audits: the best certified event in words (with its certification counts).
    event: str | None = None
    #: How each pair was confirmed to be neighbouring (see :mod:`dpverify.auditing.pairs`), one
    #: entry per pair; ``"unchecked"`` when nothing could confirm it.
    neighbour_checks: tuple[str, ...] = ()
    #: White-box audits: the density-sampler consistency check (see
    #: :mod:`dpverify.auditing.whitebox.consistency`), or None when it was not run.
    consistency: ConsistencyCheck | None = None
    #: True when the run stopped at ``time_budget`` before drawing every requested sample.
    stopped_early: bool = False
    #: Whether the sampler honours ``rng`` (same seed -> same outputs), so that the run can be
    #: repeated from its seed; None when not probed.
    reproducible: bool | None = None
    #: Black-box audits: per pair, ``(draws of D, draws of D')`` whose ``sample`` call raised (each
    #: such draw is the outcome ``error:<TypeName>``; a note says so whenever one is not zero). Empty
    #: for white-box audits, where a raising sampler is a MechanismError.
    raised_draws: tuple[tuple[int, int], ...] = ()

    def __post_init__(self) -> None:
        """The testers may give the plain strings and dicts: store them as the typed values."""
        object.__setattr__(self, "direction", Direction(self.direction))
        object.__setattr__(self, "method", AuditMethod(self.method))
        if isinstance(self.search, dict):
            object.__setattr__(self, "search", SearchRecord.from_dict(self.search))
        if isinstance(self.consistency, dict):
            object.__setattr__(self, "consistency", ConsistencyCheck.from_dict(self.consistency))

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
            "direction": self.direction.value,
            "method": self.method.value,
            "seconds": self.seconds,
            "directions": [d.to_dict() for d in self.directions],
            "notes": list(self.notes),
            "search": None if self.search is None else self.search.to_dict(),
            "event": self.event,
            "neighbour_checks": list(self.neighbour_checks),
            "passed": self.passed,
            "false_alarm_rate": self.false_alarm_rate,
            "tightness": self.tightness,
            "consistency": None if self.consistency is None else self.consistency.to_dict(),
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
            + self._found_text()
        )

    def _found_text(self) -> str:
        """The grey-box finding, and the unaided search's pair when it chose the pair ("" otherwise)."""
        grey = f"; {self.notes[0]}" if self.method is AuditMethod.GREY_BOX and self.notes else ""
        if self.search is None or self.search.generator != "unaided search":
            return grey
        report = dict(self.search.report)
        config = f", configuration {report['configuration']}" if "configuration" in report else ""
        at = f"distance {report['distance']}"
        found = str(report["found"])
        if found.endswith(f"({at})"):  # an answer pattern's label already names its distance
            found = found[: -len(at) - 2].rstrip()
        return grey + (f"; pair found by the unaided search among {report['candidates']} candidates: {found}"
                       f" ({at}{config})")
