"""The hook of ``dpverify prove``: Coq theorems applied to the claims' reports.

* :func:`apply_kernel_checks` -- a claim whose ``CLAIM`` theorem compiles with allowed axioms
  (:func:`~dpverify.symbolic.coq.queries.assumptions`), whose type as ``coqc`` prints it is the claim's formal
  statement (``CoqEntry.checks``, :func:`~dpverify.symbolic.coq.queries.theorem_types`) and whose non-vacuity witness
  passes (:func:`~dpverify.symbolic.coq.witnesses.check_witnesses`) is reported ``kernel-checked`` naming the theorem,
  the file and the printed type -- ``given`` the entry's ``premises`` and capped by its ``claim_premises`` -- unless the
  claim's own verdict is ``refuted`` (then the contradiction is reported in the evidence, never hidden). Otherwise the
  claim keeps its verdict and the evidence says why (Coq not available, did not compile, other axioms, STATEMENT
  MISMATCH, hypotheses NOT shown satisfiable). A ``STEP`` theorem adds a kernel-checked step to the claim's notes.
* :func:`kernel_premise` -- for a proof file whose claim rests on another claim: that claim's conclusion as
  :func:`apply_kernel_checks` reports it (kernel-checked only when its Coq theorem is actually checked in this run).
* :func:`kernel_step` -- one step of a claim's proof settled by a named Coq theorem, else the step's own check.
* :class:`kernel_premises` -- ``with kernel_premises(False)``: both of the above return the proof files' own verdicts
  (``run_proofs(kernel_check=False)``).
"""
from __future__ import annotations

import contextvars
from dataclasses import replace
from typing import Sequence

from ...errors import InvalidArgument
from ..proof import merge_domains, weakest
from ..verdicts import CheckResult, ClaimReport, ProofVerdict
from .build import (DEFAULT_TIMEOUT, INSTALL_HINT, CoqResult, coq_dir, coqc_path, compile_file, compile_files,
                    missing_libraries)
from .manifest import CoqEntry, Coverage, entries_for
from .queries import assumptions, axioms_phrase, disallowed_axioms, first_error, theorem_types
from .witnesses import WitnessCheck, check_witnesses

__all__ = ["apply_kernel_checks", "kernel_premise", "kernel_premises", "kernel_step"]


def apply_kernel_checks(reports: Sequence[ClaimReport], *, timeout: float = DEFAULT_TIMEOUT,
                        witnesses: bool | None = None, context: Sequence[ClaimReport] = ()) -> list[ClaimReport]:
    """``reports`` with the manifest's Coq theorems applied (see the module docstring of :mod:`dpverify.symbolic.coq.kernel`).

    A ``CLAIM`` theorem makes its claim ``kernel-checked`` only when, in this run: its file compiles; ``Print
    Assumptions`` shows only :data:`ALLOWED_AXIOMS`; its type as ``coqc`` prints it is the entry's ``checks`` (the
    claim's formal statement; :func:`theorem_types`); and its non-vacuity witness passes (:func:`check_witnesses`).
    The verdict then names the entry's ``premises`` (``kernel-checked given ...``) and is capped by the verdicts of its
    ``claim_premises`` (looked up in ``reports`` and ``context``; a claim premise found in neither caps it at
    ``unknown``). ``witnesses``: True (default; None means True) runs the witness check; False skips it, and then no
    claim is promoted (a theorem whose hypotheses are not shown satisfiable is never ``kernel-checked``)."""
    if witnesses is None:
        witnesses = True
    if not isinstance(witnesses, bool):
        raise InvalidArgument(f"witnesses={witnesses!r} must be True, False or None (None: True).")
    reports = list(reports)
    wanted = [(r, entries_for(r.id)) for r in reports]
    if not any(es for _, es in wanted):
        return reports
    coqc = coqc_path()
    files = sorted({e.file for _, es in wanted for e in es})
    compiled = compile_files(files, timeout=timeout, coqc=coqc) if coqc else {}
    axioms: dict | CoqResult = {}
    types: dict | CoqResult = {}
    # Print Assumptions, Check and the witnesses for the theorems that decide a verdict (CLAIM); Print Assumptions is
    # slow on the Interval library's reflexive proofs, so STEP theorems are only compiled here (tests/symbolic/test_coq.py
    # checks them all).
    claim_entries = [e for _, es in wanted for e in es if coqc and e.coverage is Coverage.CLAIM and compiled[e.file].ok]
    ok_items = list(dict.fromkeys((e.file, e.theorem) for e in claim_entries))
    if ok_items:
        axioms = assumptions(ok_items, timeout=timeout, coqc=coqc)
        types = theorem_types(ok_items, timeout=timeout, coqc=coqc)
    wit = check_witnesses(claim_entries, timeout=timeout, coqc=coqc) if witnesses and ok_items else {}
    known = {r.id: r for r in context}
    known.update({r.id: r for r in reports})
    out = []
    for report, entries in wanted:
        for e in entries:
            report = _apply_one(report, e, coqc, compiled.get(e.file), axioms, wit.get((e.file, e.theorem)),
                                types, known, witnesses)
        out.append(report)
    return out


_PREMISES = contextvars.ContextVar("dpverify_kernel_premises", default=True)


class kernel_premises:  # noqa: N801 (a context manager used like a function)
    """``with kernel_premises(False): ...`` -- :func:`kernel_premise` returns the proof files' own verdicts
    inside the block (what ``run_proofs(kernel_check=False)`` uses)."""

    def __init__(self, enabled: bool):
        if not isinstance(enabled, bool):
            raise InvalidArgument(f"enabled={enabled!r} must be True or False.")
        self.enabled = enabled

    def __enter__(self):
        self._token = _PREMISES.set(self.enabled)
        return self

    def __exit__(self, *exc):
        _PREMISES.reset(self._token)
        return False


def kernel_premise(report: ClaimReport, *, timeout: float = DEFAULT_TIMEOUT,
                   context: Sequence[ClaimReport] = ()) -> CheckResult:
    """The conclusion of ``report`` after its manifest Coq theorems, as ``dpverify prove`` shows it.

    For a claim that rests on another claim (``report``): when that claim's ``CLAIM`` theorem compiles here
    with allowed axioms, the premise is ``kernel-checked``; without ``coqc``, with a failing theorem, or inside
    ``kernel_premises(False)``, it is the proof file's own verdict, and the evidence says why. A refuted
    premise stays refuted. ``context``: the reports of the claims the Coq theorem takes as premises
    (``CoqEntry.claim_premises``). Compilation and ``Print Assumptions`` are cached per file content in this process."""
    if not isinstance(report, ClaimReport):
        raise InvalidArgument(f"report={report!r} must be a ClaimReport (the premise claim's report).")
    if not _PREMISES.get():
        return report.conclusion
    return apply_kernel_checks([report], timeout=timeout, context=context)[0].conclusion


def kernel_step(file: str, theorem: str, statement: str, fallback: CheckResult, *,
                timeout: float = DEFAULT_TIMEOUT, checks: str = "") -> CheckResult:
    """One step of a claim's proof that the Coq theorem ``theorem`` of ``proofs/coq/<file>`` proves.

    ``kernel-checked`` when the file compiles here and the theorem rests on the classical reals only (``statement``
    says what it proves, in the claim's terms); otherwise ``fallback`` -- the proof file's own check of the step --
    with the reason appended to its evidence (Coq not available, the file does not compile, other axioms), and
    inside ``kernel_premises(False)`` the fallback as it is. A REFUTED fallback is returned as it is: the theorem and
    the step's own check then disagree, and the counterexample is what a reader must see.

    ``checks`` (for a step that discharges a premise of a claim's verdict): the theorem's type exactly as ``coqc``
    prints it, as :attr:`CoqEntry.checks`; when given, the step is ``kernel-checked`` only if the type is that one and
    the theorem's non-vacuity witness passes (:func:`check_witnesses`), as for a claim's own theorem."""
    for name, value in (("file", file), ("theorem", theorem), ("statement", statement)):
        if not isinstance(value, str) or not value.strip():
            raise InvalidArgument(f"{name}={value!r} must be a non-empty string.")
    if not isinstance(checks, str):
        raise InvalidArgument(f"checks={checks!r} must be a string (the theorem's type as coqc prints it), or ''.")
    if not isinstance(fallback, CheckResult):
        raise InvalidArgument(f"fallback={fallback!r} must be a CheckResult (the step's check without Coq).")
    if not _PREMISES.get() or fallback.verdict is ProofVerdict.REFUTED:
        return fallback  # a counterexample found by the step's own check is never hidden behind a Coq theorem

    def fall(why: str) -> CheckResult:
        return CheckResult(fallback.verdict, f"{fallback.evidence}; {why}", counterexample=fallback.counterexample,
                           details=fallback.details + (why,), premises=fallback.premises, domain=fallback.domain)

    where = f"{theorem} ({file})"
    coqc = coqc_path()
    if coqc is None:
        return fall(f"Coq not available: {INSTALL_HINT}; Coq theorem {where} not checked")
    res = compile_file(file, timeout=timeout, coqc=coqc)
    if not res.ok:
        return fall(f"Coq theorem {where} did NOT compile: {first_error(res.message)}")
    axioms = assumptions([(file, theorem)], timeout=timeout, coqc=coqc)
    if isinstance(axioms, CoqResult):
        return fall(f"Coq theorem {where} compiled but Print Assumptions failed: {first_error(axioms.message)}")
    bad = disallowed_axioms(axioms.get((file, theorem), ()))
    if bad:
        return fall(f"Coq theorem {where} compiled but rests on axioms outside the classical reals: {', '.join(bad)}")
    shown = ""
    if checks:
        types = theorem_types([(file, theorem)], timeout=timeout, coqc=coqc)
        got = types.get((file, theorem), "") if isinstance(types, dict) else ""
        if got != checks:
            return fall(f"STATEMENT MISMATCH: Coq theorem {where} compiled, but its type as coqc prints it is not the "
                        f"step's formal statement: coqc: {got or 'not read'} | the step: {checks}")
        entry = CoqEntry("(a step)", file, theorem, statement, Coverage.STEP)
        w = check_witnesses([entry], timeout=timeout, coqc=coqc).get((file, theorem))
        if w is None or not w.ok:
            why = "no witness result" if w is None else f"{w.status.value}: {w.message[:300]}"
            return fall(f"Coq theorem {where} compiled, but its hypotheses are NOT shown satisfiable ({why})")
        shown = f"; hypotheses shown satisfiable by {w.witness}; its type, as coqc prints it, is the step's statement"
    return CheckResult(ProofVerdict.KERNEL_CHECKED,
                       f"Coq theorem {where} accepted by coqc {res.coqc_version} in {res.seconds:.1f} s (Print "
                       f"Assumptions: {axioms_phrase(axioms.get((file, theorem), ()))}{shown}): {statement}")


def _keep(report: ClaimReport, why: str) -> ClaimReport:
    concl = report.conclusion
    return replace(report, conclusion=replace(concl, evidence=f"{concl.evidence}; {why}", details=concl.details + (why,)))


def _apply_one(report: ClaimReport, e: CoqEntry, coqc, result: CoqResult | None, axioms,
               witness: WitnessCheck | None = None, types=None, known=None, witnesses: bool = True) -> ClaimReport:
    concl = report.conclusion
    if coqc is None:
        return _keep(report, f"Coq not available: {INSTALL_HINT}; Coq theorem {e.where} not checked")
    if not result.ok:
        missing = missing_libraries((coq_dir() / e.file).read_text(), coqc)
        if missing:
            return _keep(report, f"Coq theorem {e.where} not checked: it needs Coq modules not installed here "
                                 f"({', '.join(missing)}; Debian ships mathcomp's as libcoq-mathcomp-algebra, "
                                 f"-analysis, ...)")
        return _keep(report, f"Coq theorem {e.where} did NOT compile: {first_error(result.message)}")
    if e.coverage is Coverage.STEP:
        note = (f"kernel-checked step: Coq theorem {e.where} accepted by coqc {result.coqc_version} in "
                f"{result.seconds:.1f} s: {e.statement}")
        return replace(report, notes=report.notes + (note,), checked_steps=report.checked_steps + (note,),
                       conclusion=replace(concl, details=concl.details + (note,)))
    if isinstance(axioms, CoqResult):
        return _keep(report, f"Coq theorem {e.where} compiled but Print Assumptions failed: {first_error(axioms.message)}")
    bad = disallowed_axioms(axioms.get((e.file, e.theorem), ()))
    if bad:
        return _keep(report, f"Coq theorem {e.where} compiled but rests on axioms outside the classical reals: {', '.join(bad)}")
    if isinstance(types, CoqResult) or types is None:
        msg = first_error(types.message) if isinstance(types, CoqResult) else "not queried"
        return _keep(report, f"Coq theorem {e.where}: its type could not be read ({msg}); not kernel-checked")
    got = types.get((e.file, e.theorem), "")
    if not e.checks:
        return _keep(report, f"Coq theorem {e.where} compiled, but the claim states no formal statement (CoqEntry.checks) "
                             f"to compare its type with; not kernel-checked. coqc's type: {got}")
    if got != e.checks:
        return _keep(report, f"STATEMENT MISMATCH: Coq theorem {e.where} compiled, but its type as coqc prints it is not "
                             f"the claim's formal statement; not kernel-checked. coqc: {got} | the claim: {e.checks}")
    if not witnesses:
        return _keep(report, f"Coq theorem {e.where} compiled with the claim's statement, but its non-vacuity witness was "
                             f"not checked (witnesses=False); not kernel-checked")
    if witness is None or not witness.ok:
        why = "no witness result" if witness is None else f"{witness.status.value}: {witness.message[:300]}"
        return _keep(report, f"Coq theorem {e.where} compiled with the claim's statement, but its hypotheses are NOT shown "
                             f"satisfiable ({why}); not kernel-checked (a theorem with unsatisfiable hypotheses proves "
                             f"anything)")
    cached = " (a cached build of this exact tree)" if result.message == "cached build of this tree" else ""
    accepted = (f"Coq theorem {e.where} accepted by coqc {result.coqc_version} in {result.seconds:.1f} s{cached} (Print "
                f"Assumptions: {axioms_phrase(axioms.get((e.file, e.theorem), ()))}; hypotheses shown satisfiable by "
                f"{witness.witness}); its type, as "
                f"coqc prints it, is the claim's formal statement: {got} -- in words: {e.statement}")
    if concl.verdict is ProofVerdict.REFUTED:
        why = (f"CONTRADICTION: the machine refutes this claim while {accepted}; the statement of the Coq theorem "
               f"or the refutation is wrong and must be examined")
        return replace(report, notes=report.notes + (why,),
                       conclusion=replace(concl, evidence=f"{why} | {concl.evidence}", details=concl.details + (why,)))
    details = concl.details + (f"before the Coq check: {concl.strength_label}: {concl.evidence}",)
    result_ = CheckResult(ProofVerdict.KERNEL_CHECKED, accepted, details=details, premises=e.premises)
    # the weakest-premise rule: claims the theorem takes as hypotheses cap the verdict
    caps = []
    for cid in e.claim_premises:
        r = (known or {}).get(cid)
        if r is None:
            caps.append((cid, CheckResult(ProofVerdict.UNKNOWN, f"{cid}: not available in this check")))
        else:
            caps.append((cid, r.conclusion))
    if caps:
        if any(c.verdict is ProofVerdict.REFUTED for _, c in caps):
            broken = next(cid for cid, c in caps if c.verdict is ProofVerdict.REFUTED)
            return replace(report, conclusion=CheckResult(
                ProofVerdict.UNKNOWN, f"{accepted}; but it takes the claim {broken} as a hypothesis, and that claim is "
                                      f"refuted", details=details))
        v = weakest(result_, *(c for _, c in caps))
        names = ", ".join(f"{cid} ({c.strength_label})" for cid, c in caps)
        prem = tuple(dict.fromkeys(result_.premises + tuple(p for _, c in caps for p in c.premises)))
        ev = accepted + (f"; capped at {v.value} by the claims it takes as hypotheses: {names}" if v is not
                         ProofVerdict.KERNEL_CHECKED else f"; the claims it takes as hypotheses: {names}")
        result_ = CheckResult(v, ev, details=details, premises=prem,
                              domain=merge_domains(result_, *(c for _, c in caps)))
        if _rank(concl) < _rank(result_):  # the proof file's own route is stronger than the capped Coq route: keep it
            note = f"Coq route capped by its claim premises: {result_.strength_label}: {ev}"
            return replace(report, notes=report.notes + (note,), conclusion=replace(concl, details=concl.details + (note,)))
    return replace(report, conclusion=result_)


_RANK = [ProofVerdict.KERNEL_CHECKED, ProofVerdict.PROVED, ProofVerdict.CERTIFIED, ProofVerdict.TESTED,
         ProofVerdict.UNKNOWN, ProofVerdict.REFUTED]


def _rank(r: CheckResult) -> tuple:
    """Smaller is stronger: the verdict order first, then unconditional before conditional, whole domain before a box."""
    return (_RANK.index(r.verdict), bool(r.premises), r.domain != "whole")
