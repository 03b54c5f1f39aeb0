"""Mapping mutants: the link between a claim and its Coq theorem, attacked (issue 33).

The residual mutants of :mod:`dpverify.symbolic.mutation` change a claim's encoded sympy statement; these change the
*mapping* from a claim to the Coq theorem that makes it ``kernel-checked`` (``dpverify.symbolic.coq.MANIFEST``). For each
``CLAIM`` entry that is ``kernel-checked`` unmutated (the control, run in the same scratch setting), four mutants:

* ``statement``: the claim's formal statement (``CoqEntry.checks``) changed while the ``.v`` file stays (its last
  relation made strict or negated: ``<=`` to ``<``, ``>=`` to ``>``, ``=`` to ``<>``);
* ``theorem``: the reverse -- the theorem's conclusion in the ``.v`` file changed (``/\\ True`` appended) while the
  claim's statement stays;
* ``contradictory``: the theorem replaced by one with contradictory hypotheses ``0 < s -> s < 0 ->`` in front of the
  original statement (proved from the contradiction, so ``coqc`` accepts it), *and* the claim's statement changed to
  match it, so that only the witness check stands between it and ``kernel-checked``;
* ``no-witness``: the theorem's witness lemma removed from its ``Witnesses*.v`` file.

Each mutant runs :func:`dpverify.symbolic.coq.apply_kernel_checks` on a copy of ``proofs/coq/`` in a fresh build
directory (:func:`check_mapping`) and must lose the strong verdict (anything but ``kernel-checked``).
:func:`run_mapping_campaign` returns the outcomes; the kill rate is killed / mutants (every mapping mutant is wrong by
construction). The full campaign, with progress lines, is the benchmark script ``benchmarks/mapping_campaign.py``.
"""
from __future__ import annotations

import re
import time
from dataclasses import dataclass, replace
from typing import Callable, Iterable

from ..errors import InvalidArgument
from . import coq
from .verdicts import CheckResult, ClaimReport, ProofVerdict

__all__ = ["MappingMutant", "MappingOutcome", "MappingReport", "mapping_mutants", "check_mapping",
           "run_mapping_campaign", "KINDS"]

KINDS = ("statement", "theorem", "contradictory", "no-witness")


@dataclass(frozen=True)
class MappingMutant:
    entry: coq.CoqEntry  # the entry as the mutant has it
    kind: str
    description: str
    edits: tuple[tuple[str, str], ...] = ()  # (file name in proofs/coq/, new content)


@dataclass(frozen=True)
class MappingOutcome:
    mutant: MappingMutant
    verdict: ProofVerdict
    evidence: str
    seconds: float

    @property
    def killed(self) -> bool:
        return self.verdict is not ProofVerdict.KERNEL_CHECKED


@dataclass(frozen=True)
class MappingReport:
    controls: tuple[tuple[str, ProofVerdict], ...]  # (theorem, verdict of the unmutated entry in the same setting)
    outcomes: tuple[MappingOutcome, ...]

    @property
    def kill_rate(self) -> float:
        return 1.0 if not self.outcomes else sum(o.killed for o in self.outcomes) / len(self.outcomes)

    @property
    def survivors(self) -> list[MappingOutcome]:
        return [o for o in self.outcomes if not o.killed]

    def reasons(self) -> dict[str, int]:
        """Why each killed mutant lost: the first refusal its evidence names."""
        out: dict[str, int] = {}
        for o in self.outcomes:
            if o.killed:
                why = next((w for w in _REASONS if w in o.evidence), "other")
                out[why] = out.get(why, 0) + 1
        return out

    def summary(self) -> str:
        bad = [t for t, v in self.controls if v is not ProofVerdict.KERNEL_CHECKED]
        return (f"{len(self.controls)} kernel-checked claim theorems (controls not kernel-checked: {bad or 'none'}), "
                f"{len(self.outcomes)} mapping mutants, {sum(o.killed for o in self.outcomes)} lost the strong verdict "
                f"(kill rate {100 * self.kill_rate:.1f}%); survivors: "
                + (", ".join(f"{o.mutant.entry.theorem}:{o.mutant.kind}" for o in self.survivors) or "none")
                + "; refused by: " + ", ".join(f"{k} {v}" for k, v in self.reasons().items()))


_REASONS = ("did NOT compile", "STATEMENT MISMATCH", "NOT shown satisfiable", "Print Assumptions", "capped")


def _statement_span(src: str, theorem: str) -> tuple[int, int, int]:
    """(start of ``Theorem name``, start of its statement after ':', the final '.' of the statement)."""
    m = re.search(rf"^\s*(Theorem|Lemma)\s+{re.escape(theorem)}\b", src, flags=re.M)
    if m is None:
        raise InvalidArgument(f"theorem={theorem!r}: no 'Theorem {theorem}' or 'Lemma {theorem}' in the file.")
    colon = src.index(":", m.end())
    proof = src.index("Proof.", colon)
    dot = src.rindex(".", colon, proof)
    return m.start(), colon + 1, dot


def mapping_mutants(entry: coq.CoqEntry) -> list[MappingMutant]:
    """The four mapping mutants of one ``CLAIM`` entry (see the module docstring)."""
    if entry.coverage is not coq.Coverage.CLAIM or not entry.checks:
        raise InvalidArgument(f"entry={entry.theorem!r} must be a CLAIM entry with its formal statement (checks).")
    out = []
    checks = entry.checks
    # the relation that occurs last (the conclusion's, in every entry): '<=' -> '<', '>=' -> '>', '=' -> '<>'
    rel = max((checks.rfind(r), r) for r in (" <= ", " >= ", " = "))
    if rel[0] < 0:
        raise InvalidArgument(f"entry={entry.theorem!r}: its statement has no '<=', '>=' or '=' to mutate.")
    i, r = rel
    new_rel = {" <= ": " < ", " >= ": " > ", " = ": " <> "}[r]
    changed = checks[:i] + new_rel + checks[i + len(r):]
    what = f"its last '{r.strip()}' made '{new_rel.strip()}'"
    out.append(MappingMutant(replace(entry, checks=changed), "statement",
                             f"the claim's formal statement changed ({what}); the .v file unchanged"))
    src = (coq.coq_dir() / entry.file).read_text()
    start, body, dot = _statement_span(src, entry.theorem)
    weakened = src[:dot] + " /\\ True" + src[dot:]
    out.append(MappingMutant(entry, "theorem", "the theorem's conclusion changed in the .v file (/\\ True appended); "
                             "the claim's statement unchanged", ((entry.file, weakened),)))
    orig = f"{entry.theorem}_dpverify_original"
    renamed = src[:start] + src[start:body].replace(entry.theorem, orig, 1) + src[body:]
    vacuous = (renamed.rstrip() + f"\n\nTheorem {entry.theorem} : forall dpverify_s : R, (0 < dpverify_s)%R -> "
               f"(dpverify_s < 0)%R -> {entry.checks}.\nProof. intros s H1 H2. exfalso. exact (Rlt_asym _ _ H1 H2). "
               "Qed.\n")
    out.append(MappingMutant(replace(entry, checks=f"forall dpverify_s : R, 0 < dpverify_s -> dpverify_s < 0 -> {checks}"),
                             "contradictory", "the theorem given contradictory hypotheses 0 < s -> s < 0 (proved from "
                             "them) and the claim's statement changed to match: only the witness can refuse it",
                             ((entry.file, vacuous),)))
    wit = coq.witness_for(entry.theorem)
    if wit is not None:
        wfile, wname = wit
        wsrc = (coq.coq_dir() / wfile).read_text()
        m = re.search(rf"^\s*(Lemma|Example|Theorem)\s+{re.escape(wname)}\b", wsrc, flags=re.M)
        end = re.compile(r"\b(Qed|Defined)\.").search(wsrc, m.end())
        dropped = wsrc[:m.start()] + wsrc[end.end():]
        out.append(MappingMutant(entry, "no-witness", f"the witness {wname} removed from {wfile}",
                                 ((wfile, dropped),)))
    return out


def check_mapping(entry: coq.CoqEntry, edits: Iterable[tuple[str, str]] = ()) -> CheckResult:
    """The conclusion :func:`dpverify.symbolic.coq.apply_kernel_checks` gives ``entry``'s claim when the manifest is
    ``entry`` alone and ``edits`` (``(file name, new content)``) are applied to a scratch copy of ``proofs/coq/``
    (:func:`dpverify.symbolic.coq.scratch_tree`). The claim's own verdict is a ``proved`` stand-in and the claims the
    theorem takes as hypotheses are ``kernel-checked`` stand-ins, so that only the mapping decides: ``kernel-checked``
    for an unmutated entry (the control), anything else for a mutant that is caught."""
    edits = tuple(edits)
    base = CheckResult(ProofVerdict.PROVED, "the claim's own verdict (a stand-in, so that only the Coq check can promote)")
    report = ClaimReport(entry.claim_id, "mapping mutant", steps=base, conclusion=base)
    # the claims the theorem takes as hypotheses, as kernel-checked stand-ins: only the mapping decides the verdict
    kc = CheckResult(ProofVerdict.KERNEL_CHECKED, "a stand-in premise (mapping campaign)")
    context = [ClaimReport(cid, "stand-in premise", steps=kc, conclusion=kc) for cid in entry.claim_premises]
    with coq.using_manifest((entry,)):
        if not edits:  # the .v files unchanged: the manifest alone is mutated (the process's compiled files are reused)
            return coq.apply_kernel_checks([report], context=context)[0].conclusion
        with coq.scratch_tree(edits):
            return coq.apply_kernel_checks([report], context=context)[0].conclusion


def run_mapping_campaign(entries: Iterable[coq.CoqEntry] | None = None, *,
                         progress: Callable[[str], None] | None = None) -> MappingReport:
    """Every mapping mutant of ``entries`` (default: every ``CLAIM`` entry of the manifest), after its control."""
    if coq.coqc_path() is None:
        raise InvalidArgument(f"the mapping campaign needs coqc: {coq.INSTALL_HINT}.")
    entries = [e for e in coq.MANIFEST if e.coverage is coq.Coverage.CLAIM] if entries is None else list(entries)
    controls, outcomes = [], []
    for e in entries:
        t0 = time.perf_counter()
        ctrl = check_mapping(e)
        controls.append((e.theorem, ctrl.verdict))
        if progress is not None:
            progress(f"{e.claim_id} ({e.theorem}): control {ctrl.verdict.value} ({time.perf_counter() - t0:.1f} s)")
        if ctrl.verdict is not ProofVerdict.KERNEL_CHECKED:
            continue  # nothing to lose
        for m in mapping_mutants(e):
            t0 = time.perf_counter()
            res = check_mapping(m.entry, m.edits)
            outcomes.append(MappingOutcome(m, res.verdict, res.evidence, time.perf_counter() - t0))
            if progress is not None:
                progress(f"  {m.kind}: {res.verdict.value} ({outcomes[-1].seconds:.1f} s): {m.description}")
    return MappingReport(tuple(controls), tuple(outcomes))
