"""Verdict values of the proof checker: :class:`ProofVerdict`, :class:`CheckResult`, :class:`ClaimReport`.

A claim of a source paper is judged twice (``ClaimReport.steps``: the proof as written, the
first failing step named; ``ClaimReport.conclusion``: is the stated result true, by any means).
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..errors import InvalidArgument

__all__ = ["ProofVerdict", "CheckResult", "ClaimReport", "CLAIM_KINDS", "verdict_label", "conclusion_summary"]

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

    def __post_init__(self):
        if not isinstance(self.verdict, ProofVerdict):
            raise InvalidArgument(f"verdict={self.verdict!r} must be a ProofVerdict member.")
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

    def to_dict(self) -> dict[str, Any]:
        return {
            "verdict": self.verdict.value,
            "evidence": self.evidence,
            "counterexample": None if self.counterexample is None else dict(self.counterexample),
            "details": list(self.details),
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

    def __post_init__(self):
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
