"""Verdict values of the proof checker: :class:`ProofVerdict`, :class:`CheckResult`, :class:`ClaimReport`.

A claim of a source paper is judged twice (``ClaimReport.steps``: the proof as written, the
first failing step named; ``ClaimReport.conclusion``: is the stated result true, by any means).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..errors import InvalidArgument

__all__ = ["ProofVerdict", "CheckResult", "ClaimReport", "CLAIM_KINDS", "verdict_label", "conclusion_summary",
           "PremiseKind", "Premise", "Strength", "STRONG_STRENGTHS", "WHOLE", "strength_counts", "COUNT_COLUMNS",
           "rows_counts", "rows_share"]

#: Kinds of a ClaimReport (see ``ClaimReport.kind``).
CLAIM_KINDS = ("theorem", "definition", "instance")


class ProofVerdict(str, enum.Enum):
    """How a statement was settled.

    * ``KERNEL_CHECKED``: a Coq theorem under ``proofs/coq/`` that states the claim's conclusion in its
      own parameters was accepted by ``coqc`` (axioms: the classical reals only); the evidence names
      the theorem and file (``dpverify.symbolic.coq``). The strongest verdict.
    * ``PROVED``: sympy establishes it (an identity by ``simplify``/``.equals``, an inequality by
      a stated strategy: sign of a derivative, a sum of nonnegative terms, monotonicity).
    * ``CERTIFIED``: rigorous numerics on a stated parameter box (``mpmath.iv`` interval
      arithmetic, or monotone enclosures evaluated with mpmath at 50 digits, with branch and bound).
    * ``TESTED``: no counterexample among N sampled points; says nothing beyond them.
    * ``REFUTED``: a concrete counterexample, re-evaluated at >= 50 digits.
    * ``UNKNOWN``: none of the above; the report carries the reason.
    """

    KERNEL_CHECKED = "kernel-checked"
    PROVED = "proved"
    CERTIFIED = "certified"
    TESTED = "tested"
    REFUTED = "refuted"
    UNKNOWN = "unknown"


def _one_line(text: str) -> str:
    return " ".join(str(text).split())


#: ``CheckResult.domain`` of a result that holds on the statement's whole domain.
WHOLE = "whole"


class PremiseKind(str, enum.Enum):
    """What an undischarged premise of a verdict is."""

    FACT = "fact"  # a standard mathematical fact that no check here establishes (spectral theorem, det laws, ...)
    PUBLISHED = "published"  # a cited published theorem (``reference`` says which)
    CLAIM = "claim"  # another claim of the papers, with *its* verdict (``verdict``)


@dataclass(frozen=True)
class Premise:
    """An undischarged premise of a verdict: the verdict holds *given* it.

    ``name`` says what is assumed; ``reference`` the source (a published theorem, a textbook); for a ``CLAIM``
    premise ``claim_id`` and ``verdict`` (that claim's strength label, e.g. ``certified on B``)."""

    name: str
    kind: PremiseKind = PremiseKind.FACT
    reference: str = ""
    claim_id: str = ""
    verdict: str = ""

    def __post_init__(self):
        if not isinstance(self.kind, PremiseKind):
            raise InvalidArgument(f"kind={self.kind!r} must be a PremiseKind member (FACT, PUBLISHED or CLAIM).")
        if not isinstance(self.name, str) or not self.name.strip():
            raise InvalidArgument("name must be a non-empty string (say what is assumed).")
        if self.kind is PremiseKind.CLAIM and not (self.claim_id and self.verdict):
            raise InvalidArgument(f"a CLAIM premise ({self.name!r}) needs claim_id and verdict (that claim's verdict).")
        if self.kind is PremiseKind.PUBLISHED and not self.reference.strip():
            raise InvalidArgument(f"a PUBLISHED premise ({self.name!r}) needs its reference.")
        object.__setattr__(self, "name", _one_line(self.name))

    def label(self) -> str:
        if self.kind is PremiseKind.CLAIM:
            return f"{self.name} [{self.claim_id}: {self.verdict}]"
        if self.kind is PremiseKind.PUBLISHED:
            return f"{self.name} ({self.reference})"
        return self.name

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind.value, "reference": self.reference, "claim_id": self.claim_id,
                "verdict": self.verdict, "label": self.label()}


class Strength(str, enum.Enum):
    """What a verdict says was checked (``CheckResult.strength``, ``ClaimReport.strength``).

    Unconditional and on the whole domain: ``kernel-checked``, ``proved``, ``certified`` (the *strong* ones).
    ``... given`` -- the same check, resting on named premises (``CheckResult.premises``); ``certified on B`` --
    rigorous numerics on a box smaller than the statement's domain (``CheckResult.domain``); ``step`` -- a machine
    check covers a step of the proof, never the claim (the conclusion is otherwise undecided)."""

    KERNEL_CHECKED = "kernel-checked"
    PROVED = "proved"
    CERTIFIED = "certified"
    KERNEL_CHECKED_GIVEN = "kernel-checked given"
    PROVED_GIVEN = "proved given"
    CERTIFIED_GIVEN = "certified given"
    CERTIFIED_ON_BOX = "certified on B"
    STEP = "step"
    TESTED = "tested"
    REFUTED = "refuted"
    UNKNOWN = "unknown"


STRONG_STRENGTHS = (Strength.KERNEL_CHECKED, Strength.PROVED, Strength.CERTIFIED)
_GIVEN = {ProofVerdict.KERNEL_CHECKED: Strength.KERNEL_CHECKED_GIVEN, ProofVerdict.PROVED: Strength.PROVED_GIVEN,
          ProofVerdict.CERTIFIED: Strength.CERTIFIED_GIVEN}


@dataclass(frozen=True)
class CheckResult:
    """The outcome of one check.

    ``evidence`` is one line; ``counterexample`` (REFUTED only) maps parameter names to decimal
    strings that a test can re-evaluate at >= 50 digits; ``details`` holds further lines.
    """

    verdict: ProofVerdict
    evidence: str
    counterexample: Mapping[str, str] | None = None
    details: tuple[str, ...] = ()
    #: undischarged premises: the verdict holds *given* them (empty: unconditional)
    premises: tuple[Premise, ...] = ()
    #: where the verdict holds: :data:`WHOLE` (the statement's whole domain) or the box, in words
    domain: str = WHOLE

    def __post_init__(self):
        if not isinstance(self.verdict, ProofVerdict):
            raise InvalidArgument(f"verdict={self.verdict!r} must be a ProofVerdict member.")
        prem = tuple(self.premises)
        if any(not isinstance(p, Premise) for p in prem):
            raise InvalidArgument(f"premises={self.premises!r} must be Premise values.")
        object.__setattr__(self, "premises", tuple(dict.fromkeys(prem)))
        if not isinstance(self.domain, str) or not self.domain.strip():
            raise InvalidArgument(f"domain={self.domain!r} must be {WHOLE!r} or the box, in words.")
        object.__setattr__(self, "domain", _one_line(self.domain))
        if not isinstance(self.evidence, str) or not self.evidence.strip():
            raise InvalidArgument("evidence must be a non-empty string (say what established the verdict).")
        object.__setattr__(self, "evidence", _one_line(self.evidence))
        if self.verdict is ProofVerdict.REFUTED and not self.counterexample:
            raise InvalidArgument("a REFUTED CheckResult needs a counterexample (parameter name -> decimal string).")
        if self.counterexample is not None:
            ce = dict(self.counterexample)
            for k, val in ce.items():
                if not isinstance(k, str) or not isinstance(val, str):
                    raise InvalidArgument(
                        f"counterexample[{k!r}]={val!r}: names and values must be strings (decimal strings)."
                    )
            object.__setattr__(self, "counterexample", ce)
        object.__setattr__(self, "details", tuple(str(d) for d in self.details))

    @property
    def strength(self) -> Strength:
        """What was checked: the verdict, conditional on :attr:`premises`, limited to :attr:`domain`."""
        v = self.verdict
        if v in (ProofVerdict.REFUTED, ProofVerdict.TESTED, ProofVerdict.UNKNOWN):
            return Strength(v.value)
        if self.premises:
            return _GIVEN[v]  # the label also names the box when there is one
        if self.domain != WHOLE:  # a check on a box only (a proof of a box-limited step caps the chain the same way)
            return Strength.CERTIFIED_ON_BOX
        return Strength(v.value)

    @property
    def strength_label(self) -> str:
        """``kernel-checked``, ``certified on B (k in [1, 20], ...)``, ``kernel-checked given P1; P2``..."""
        v = self.verdict
        if v in (ProofVerdict.REFUTED, ProofVerdict.TESTED, ProofVerdict.UNKNOWN):
            return v.value
        text = v.value + (f" on B ({self.domain})" if self.domain != WHOLE else "")
        if self.premises:
            text += " given " + "; ".join(p.label() for p in self.premises)
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "evidence": self.evidence,
            "counterexample": None if self.counterexample is None else dict(self.counterexample),
            "details": list(self.details),
            "strength": self.strength.value,
            "strength_label": self.strength_label,
            "premises": [p.to_dict() for p in self.premises],
            "domain": self.domain,
        }


@dataclass(frozen=True)
class ClaimReport:
    """A labelled claim of a source paper, judged twice.

    ``id`` is ``<paper-key>/<label>`` (a reading of an ambiguous text adds ``/<reading>``).
    ``reason`` says why a verdict is UNKNOWN; left empty, it is filled with the evidence of the UNKNOWN
    part(s) (always non-empty: a CheckResult's evidence is).
    """

    id: str
    statement: str
    steps: CheckResult
    conclusion: CheckResult
    reason: str = ""
    notes: tuple[str, ...] = field(default=())
    #: what the conclusion is: a general ``theorem``; a ``definition`` (nothing to prove: reported, never
    #: counted as a proved claim); an ``instance`` (settled for fixed dimensions only, e.g. d = 2 or 3).
    kind: str = "theorem"
    #: non-empty: the claim is not decidable as stated (an asymptotic rate, an unspecified constant, an informal
    #: comparison, another paper's algorithm), and this says why; it is then left out of the strong share's denominator
    undecidable: str = ""
    #: machine-checked steps of the proof that are not the claim (e.g. a Coq theorem of ``Coverage.STEP``), one line each
    checked_steps: tuple[str, ...] = field(default=())

    def __post_init__(self):
        if not isinstance(self.undecidable, str):
            raise InvalidArgument(f"undecidable={self.undecidable!r} must be a string (empty: decidable as stated).")
        object.__setattr__(self, "undecidable", _one_line(self.undecidable))
        object.__setattr__(self, "checked_steps", tuple(str(x) for x in self.checked_steps))
        if self.kind not in CLAIM_KINDS:
            raise InvalidArgument(f"kind={self.kind!r} must be one of {CLAIM_KINDS}.")
        if not isinstance(self.id, str) or self.id.count("/") < 1 or any(not p for p in self.id.split("/")):
            raise InvalidArgument(f"id={self.id!r} must be '<paper-key>/<label>' (optionally '/<reading>').")
        if not isinstance(self.steps, CheckResult) or not isinstance(self.conclusion, CheckResult):
            raise InvalidArgument(f"{self.id}: steps and conclusion must be CheckResult values.")
        unknown = ProofVerdict.UNKNOWN in (self.steps.verdict, self.conclusion.verdict)
        if unknown and not (isinstance(self.reason, str) and self.reason.strip()):
            # the UNKNOWN results' own evidence says why (e.g. a step stated in the paper, not machine-checked)
            why = [f"{part}: {r.evidence}" for part, r in (("steps", self.steps), ("conclusion", self.conclusion))
                   if r.verdict is ProofVerdict.UNKNOWN]
            object.__setattr__(self, "reason", "; ".join(why))
        object.__setattr__(self, "statement", _one_line(self.statement))
        object.__setattr__(self, "notes", tuple(self.notes))

    @property
    def paper(self) -> str:
        return self.id.split("/")[0]

    @property
    def decidable(self) -> bool:
        return not self.undecidable

    @property
    def strength(self) -> Strength:
        """The conclusion's :attr:`CheckResult.strength`; ``step`` when the conclusion is undecided but a step of its proof
        is machine-checked (``checked_steps``)."""
        s = self.conclusion.strength
        return Strength.STEP if s is Strength.UNKNOWN and self.checked_steps else s

    @property
    def strength_label(self) -> str:
        if self.strength is Strength.STEP:
            return f"step ({len(self.checked_steps)} machine-checked; the claim is not)"
        return self.conclusion.strength_label

    @property
    def evidence(self) -> str:
        """One line: the conclusion's evidence, then the steps' evidence when it differs."""
        if self.steps.evidence == self.conclusion.evidence:
            return self.conclusion.evidence
        return f"conclusion: {self.conclusion.evidence} | steps: {self.steps.evidence}"

    def to_dict(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "statement": self.statement,
            "steps": self.steps.verdict.value,
            "conclusion": self.conclusion.verdict.value,
            "evidence": self.evidence,
            "reason": self.reason,
            "steps_detail": self.steps.to_dict(),
            "conclusion_detail": self.conclusion.to_dict(),
            "notes": list(self.notes),
            "kind": self.kind,
            "strength": self.strength.value,
            "strength_label": self.strength_label,
            "premises": [p.to_dict() for p in self.conclusion.premises],
            "domain": self.conclusion.domain,
            "decidable": self.decidable,
            "decidable_reason": self.undecidable,
            "checked_steps": list(self.checked_steps),
        }


def verdict_label(verdict: str, kind: str) -> str:
    """A conclusion's verdict as reported: a definition or an instance says so ("proved (instance)": settled for
    fixed dimensions only), so it is never read as a general theorem's ``proved``."""
    if kind not in CLAIM_KINDS:
        raise InvalidArgument(f"kind={kind!r} must be one of {CLAIM_KINDS} (a ClaimReport's kind).")
    return str(verdict) if kind == "theorem" else f"{verdict} ({kind})"


def conclusion_summary(rows) -> str:
    """"certified: 14, kernel-checked: 17, proved: 10, proved (definition): 4, ..." for ``(verdict, kind)`` pairs:
    the terminal table and the HTML report count the same way."""
    counts: dict[str, int] = {}
    for verdict, kind in rows:
        key = verdict_label(verdict, kind)
        counts[key] = counts.get(key, 0) + 1
    return ", ".join(f"{v}: {n}" for v, n in sorted(counts.items()))


#: The count columns of ``dpverify prove``, the HTML report and docs/findings.md, in order: a theorem counts in the
#: first that applies (``not decidable`` before everything; definitions and instances are counted apart by kind).
COUNT_COLUMNS = ("kernel-checked", "proved", "certified", "kernel-checked given", "proved given", "certified given",
                 "certified on B", "step", "tested", "unknown", "refuted", "not decidable")


def _column(strength: str, decidable: bool) -> str:
    return "not decidable" if not decidable else strength


def strength_counts(rows) -> dict[str, int]:
    """Counts per column of :data:`COUNT_COLUMNS` for ``(strength, kind, decidable)`` triples of *theorems* (other kinds
    are skipped: see :func:`conclusion_summary`). Every column is present (0 included)."""
    out = {c: 0 for c in COUNT_COLUMNS}
    for strength, kind, decidable in rows:
        if kind != "theorem":
            continue
        col = _column(str(strength), bool(decidable))
        if col not in out:
            raise InvalidArgument(f"strength={strength!r} is not a Strength value ({[s.value for s in Strength]}).")
        out[col] += 1
    return out


def rows_counts(rows) -> dict[str, int]:
    """:func:`strength_counts` of ``ClaimReport.to_dict()`` rows (the JSON of ``dpverify prove``)."""
    return strength_counts((r.get("strength", "unknown"), r.get("kind", "theorem"), r.get("decidable", True)) for r in rows)


def rows_share(rows) -> dict:
    """``{"strong": s, "decidable": n, "percent": p}`` of ``ClaimReport.to_dict()`` rows: unconditional kernel-checked,
    proved or whole-domain certified theorems among the decidable theorems whose conclusion is not refuted (the count of
    ``dpverify.symbolic.findings.strong_share``)."""
    strong_names = {s.value for s in STRONG_STRENGTHS}

    def concl(r):
        c = r.get("conclusion")
        return c.get("verdict") if isinstance(c, dict) else c

    thm = [r for r in rows if r.get("kind", "theorem") == "theorem" and r.get("decidable", True) and concl(r) != "refuted"]
    strong = sum(r.get("strength") in strong_names for r in thm)
    return {"strong": strong, "decidable": len(thm), "percent": round(100 * strong / len(thm), 1) if thm else None}
