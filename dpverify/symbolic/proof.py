"""Helpers for proof files: combine step results, build verdicts, exact privacy-profile checks.

* :func:`chain` -- the verdict of a proof from its steps: REFUTED if a step is refuted (the first
  failing step named, its counterexample kept), else the weakest verdict of the steps.
* :func:`proved`, :func:`certified`, :func:`tested`, :func:`unknown`, :func:`refuted` -- one-line constructors.
  ``proved``/``certified`` only for a result that a computation of the caller decided (sympy, mpmath).
* :func:`stated` -- UNKNOWN for a step that is cited, definitional or stated in the paper and not
  machine-checked: a chain containing it is at best UNKNOWN, so the verdict shows it.
* :func:`weakest`, :func:`rests_on` -- weakest-premise semantics: a conclusion drawn from premises is
  no stronger than its weakest premise (order PROVED ~ CERTIFIED > TESTED > UNKNOWN; a REFUTED
  premise leaves the conclusion UNKNOWN unless the conclusion has its own counterexample).
* :func:`gaussian_profile_search` -- exact Gaussian privacy profile (Balle & Wang) against a claimed
  delta at grid points; a violation is re-evaluated at 50 digits.
"""
from __future__ import annotations

import math
from typing import Callable, Iterable, Mapping, Sequence

import mpmath

from ..errors import InvalidArgument
from .numeric import DPS, decimal, gaussian_delta
from .verdicts import WHOLE, CheckResult, Premise, PremiseKind, ProofVerdict

__all__ = ["chain", "proved", "certified", "tested", "unknown", "refuted", "stated", "weakest", "rests_on", "search_refute",
           "gaussian_profile_search", "ratio_at_most_one", "given", "fact", "published", "merge_domains"]

_ORDER = [ProofVerdict.KERNEL_CHECKED, ProofVerdict.PROVED, ProofVerdict.CERTIFIED, ProofVerdict.TESTED, ProofVerdict.UNKNOWN]


def proved(evidence: str, *details: str) -> CheckResult:
    return CheckResult(ProofVerdict.PROVED, evidence, details=details)


def certified(evidence: str, *details: str, domain: str = WHOLE) -> CheckResult:
    """CERTIFIED on ``domain`` (:data:`WHOLE`, or the box in words: then the strength is ``certified on B``)."""
    return CheckResult(ProofVerdict.CERTIFIED, evidence, details=details, domain=domain)


def fact(name: str, reference: str = "") -> Premise:
    """A standard mathematical fact that no check here establishes (the spectral theorem, the laws of det, ...)."""
    return Premise(name, PremiseKind.FACT, reference=reference)


def published(name: str, reference: str) -> Premise:
    """A cited published theorem (``reference``: authors, year, label)."""
    return Premise(name, PremiseKind.PUBLISHED, reference=reference)


def given(result: CheckResult, *premises: Premise) -> CheckResult:
    """``result`` holding *given* ``premises`` (facts or published theorems the checks do not establish): a PROVED,
    CERTIFIED or KERNEL_CHECKED verdict becomes ``... given P1; P2`` (its strength is no longer unconditional). A
    REFUTED, TESTED or UNKNOWN result is returned with the premises recorded (its verdict is already not strong)."""
    if not premises:
        return result
    if any(not isinstance(p, Premise) for p in premises):
        raise InvalidArgument(f"premises={premises!r} must be Premise values (dpverify.symbolic.proof.fact/published).")
    if result.verdict is ProofVerdict.REFUTED:
        return result
    names = "; ".join(p.label() for p in premises)
    return CheckResult(result.verdict, f"{result.evidence}; given (not machine-checked): {names}",
                       counterexample=result.counterexample, details=result.details,
                       premises=result.premises + tuple(premises), domain=result.domain)


def merge_domains(*results: CheckResult) -> str:
    """:data:`WHOLE` when every result holds on its whole domain, else the distinct boxes joined by '; '."""
    boxes = list(dict.fromkeys(r.domain for r in results if r.domain != WHOLE))
    return "; ".join(boxes) if boxes else WHOLE


def _premises(*results: CheckResult) -> tuple:
    return tuple(dict.fromkeys(p for r in results for p in r.premises))


def tested(evidence: str, *details: str) -> CheckResult:
    return CheckResult(ProofVerdict.TESTED, evidence, details=details)


def unknown(evidence: str, *details: str) -> CheckResult:
    return CheckResult(ProofVerdict.UNKNOWN, evidence, details=details)


def stated(evidence: str, *details: str) -> CheckResult:
    """UNKNOWN: a step taken from the paper (or a standard fact, a definition) that no code here checks."""
    return CheckResult(ProofVerdict.UNKNOWN, f"not machine-checked (stated in the paper or a standard fact): {evidence}",
                       details=details)


def weakest(*results: CheckResult) -> ProofVerdict:
    """The weakest verdict of ``results``: REFUTED if any is refuted, else the last of PROVED, CERTIFIED,
    TESTED, UNKNOWN that occurs (UNKNOWN for no results)."""
    verdicts = [r.verdict for r in results]
    if ProofVerdict.REFUTED in verdicts:
        return ProofVerdict.REFUTED
    return max(verdicts, key=_ORDER.index, default=ProofVerdict.UNKNOWN)


def rests_on(result: CheckResult, *premises: tuple[str, CheckResult]) -> CheckResult:
    """``result`` capped by its premises ``(name, premise)``: never stronger than the weakest premise.

    A REFUTED ``result`` (its own counterexample) is kept. A refuted premise makes the result UNKNOWN
    (the route to it is broken; the statement itself may still hold). Otherwise the verdict is the
    weakest of ``result`` and the premises, with the premises named in the evidence.
    """
    if result.verdict is ProofVerdict.REFUTED or not premises:
        return result
    pv = [(name, r.verdict) for name, r in premises]
    names = ", ".join(f"{name} ({v.value})" for name, v in pv)
    details = result.details + tuple(f"premise {name}: {r.verdict.value}: {r.evidence}" for name, r in premises)
    broken = [name for name, v in pv if v is ProofVerdict.REFUTED]
    if broken:
        return CheckResult(ProofVerdict.UNKNOWN, f"{result.evidence}; rests on a refuted premise: {broken[0]}",
                           details=details)
    verdict = weakest(result, *(r for _, r in premises))
    # the premises' own premises and boxes carry over: a conclusion is never stronger than its weakest premise
    everything = (result, *(r for _, r in premises))
    carry = dict(premises=_premises(*everything), domain=merge_domains(*everything))
    names = ", ".join(f"{name} ({r.strength_label})" for name, r in premises)
    if verdict is result.verdict:
        return CheckResult(verdict, f"{result.evidence}; premises: {names}", details=details, **carry)
    return CheckResult(verdict, f"{result.evidence}; capped at {verdict.value} by its premises: {names}",
                       details=details, **carry)


def refuted(evidence: str, counterexample: Mapping[str, str], *details: str) -> CheckResult:
    return CheckResult(ProofVerdict.REFUTED, evidence, counterexample=dict(counterexample), details=details)


def ratio_at_most_one(worst: float, tested_evidence: str, fails: str) -> CheckResult:
    """A random-instance check of an inequality lhs <= rhs, summarised by the largest ratio lhs/rhs seen (``worst``):
    TESTED with ``tested_evidence`` when it is at most 1 (up to 1e-12 of rounding), else REFUTED -- "``fails`` on a
    random instance (ratio ...)", the ratio as its counterexample."""
    if not math.isfinite(worst):
        raise InvalidArgument(f"worst={worst!r} must be a finite ratio (a NaN or infinite ratio decides nothing).")
    if worst <= 1 + 1e-12:
        return tested(tested_evidence)
    return refuted(f"{fails} on a random instance (ratio {worst})", {"ratio": repr(float(worst))})


def chain(steps: Sequence[tuple[str, CheckResult]]) -> CheckResult:
    """The verdict of a proof whose steps are ``(name, result)`` pairs, in the order of the text."""
    details = tuple(f"{name}: {r.verdict.value}: {r.evidence}" for name, r in steps)
    for name, r in steps:
        if r.verdict is ProofVerdict.REFUTED:
            return CheckResult(ProofVerdict.REFUTED, f"first failing step: {name}: {r.evidence}",
                               counterexample=r.counterexample, details=details)
    worst = max((r.verdict for _, r in steps), key=_ORDER.index, default=ProofVerdict.UNKNOWN)
    names = "; ".join(f"{name} ({r.strength_label})" for name, r in steps)
    carry = dict(premises=_premises(*(r for _, r in steps)), domain=merge_domains(*(r for _, r in steps)))
    if worst is ProofVerdict.UNKNOWN:
        if not steps:
            return CheckResult(worst, "no steps", details=details)
        first, why = next((name, r.evidence) for name, r in steps if r.verdict is ProofVerdict.UNKNOWN)
        return CheckResult(worst, f"first undecided step: {first} ({why}); steps: {names}", details=details, **carry)
    return CheckResult(worst, f"no step fails: {names}", details=details, **carry)


def gaussian_profile_search(claim_id: str, sigma: Callable[..., float], points: Iterable[Mapping[str, float]],
                            sensitivity: Callable[..., float] | None = None) -> CheckResult | None:
    """REFUTED at the first point where the exact delta_BW(eps) of N(0, sigma^2) exceeds the claimed delta.

    ``sigma(**point)`` gives the noise; ``sensitivity(**point)`` the l2 sensitivity (default
    ``point['sensitivity']``). Each point needs ``epsilon`` and ``delta``. None if no violation.
    """
    for pt in points:
        sens = sensitivity(**pt) if sensitivity else pt["sensitivity"]
        s = sigma(**pt)
        with mpmath.workdps(DPS):
            dl = gaussian_delta(pt["epsilon"], sens, s)
            if dl > mpmath.mpf(pt["delta"]) * (1 + mpmath.mpf(10) ** -30):
                ce = {k: decimal(v, 20) for k, v in pt.items()}
                ce["sigma"] = decimal(s, 30)
                return refuted(
                    f"{claim_id}: exact delta(eps) = {mpmath.nstr(dl, 6)} > delta = {pt['delta']:g} at "
                    f"{ {k: pt[k] for k in pt} } (Balle-Wang profile, {DPS} digits)", ce)
    return None


def _dec(v) -> str:
    if isinstance(v, bool):
        return str(v)
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        return repr(v)  # the shortest string that reads back as this float
    if isinstance(v, mpmath.mpf):
        return decimal(v, 30)
    return str(v)


def search_refute(claim_id: str, what: str, points: Iterable[Mapping], evaluate: Callable, *, strict: bool = False,
                  dps: int = DPS) -> CheckResult | None:
    """Search ``points`` for a violation of the claim ``lhs <= rhs`` (``lhs < rhs`` if ``strict``).

    ``evaluate(point)`` returns ``(lhs, rhs)`` or ``(lhs, rhs, extra)`` (extra: a dict of computed values to
    report) at the current mpmath precision; it raises ValueError where the claim's hypotheses fail (the point
    is skipped). A violation found at 30 digits is re-evaluated at ``dps`` digits and must exceed the rounding
    error there; REFUTED then carries the point and the computed values. None if no point violates the claim.
    """
    for pt in points:
        with mpmath.workdps(30):
            try:
                lhs, rhs = evaluate(pt)[:2]
            except (ValueError, ZeroDivisionError):
                continue
            bad = lhs >= rhs if strict else lhs > rhs
        if not bad:
            continue
        with mpmath.workdps(dps):
            out = evaluate(pt)
            lhs, rhs = mpmath.mpf(out[0]), mpmath.mpf(out[1])
            extra = out[2] if len(out) > 2 else {}
            tol = mpmath.mpf(10) ** -(dps - 10) * (abs(lhs) + abs(rhs))
            bad = (lhs - rhs >= -tol) if strict else (lhs - rhs > tol)
            if not bad:
                continue
            ce = {k: _dec(v) for k, v in pt.items()}
            ce.update({k: _dec(v) for k, v in extra.items()})
            ce.update({"lhs": decimal(lhs, 40), "rhs": decimal(rhs, 40)})
            rel = ">=" if strict else ">"
            return refuted(f"{claim_id}: {what} fails at {dict((k, _dec(v)) for k, v in pt.items())}: "
                           f"{mpmath.nstr(lhs, 10)} {rel} {mpmath.nstr(rhs, 10)} (re-evaluated at {dps} digits)", ce)
    return None
