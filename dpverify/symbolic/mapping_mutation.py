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
directory and must lose the strong verdict (anything but ``kernel-checked``). :func:`run_mapping_campaign` returns the
outcomes; the kill rate is killed / mutants (every mapping mutant is wrong by construction).
"""
from __future__ import annotations

import hashlib
import re
import shutil
import tempfile
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Callable, Iterable

from ..errors import InvalidArgument
from . import coq
from .verdicts import CheckResult, ClaimReport, ProofVerdict

__all__ = ["MappingMutant", "MappingOutcome", "MappingReport", "mapping_mutants", "run_mapping_campaign", "KINDS"]

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


@contextmanager
def _scratch_tree(edits: Iterable[tuple[str, str]], entries: tuple[coq.CoqEntry, ...]):
    """``proofs/coq/`` copied with ``edits`` applied, a fresh build directory and the manifest ``entries``, for the block."""
    saved = (coq.coq_dir, dict(coq._BUILD), coq.MANIFEST)
    edits = list(edits)
    with tempfile.TemporaryDirectory(prefix="dpverify-mapping-") as tmp:
        src = Path(tmp) / "coq"
        shutil.copytree(saved[0](), src)
        for name, text in edits:
            (src / name).write_text(text)
        coq.coq_dir = lambda: src
        coq._BUILD.clear()
        coq.MANIFEST = entries
        _seed_unaffected(saved[1].get("dir"), src, {name for name, _ in edits})
        try:
            yield src
        finally:
            coq.coq_dir = saved[0]
            coq._BUILD.clear()
            coq._BUILD.update(saved[1])
            coq.MANIFEST = saved[2]


def _seed_unaffected(old_build, src: Path, edited: set) -> None:
    """Copy into the scratch build folder the compiled files of every ``.v`` file that neither was edited nor depends
    (transitively) on an edited one, and record them compiled, so a mutant recompiles only what it changed (coqc itself
    refuses a ``.vo`` whose dependencies changed). Nothing is seeded without a previous build folder."""
    if old_build is None or not Path(old_build).is_dir():
        return
    deps = {f.name: {f"{d}.v" for d in coq._deps(f.read_text())} for f in src.glob("*.v")}
    affected = set(edited)
    changed = True
    while changed:
        changed = False
        for name, ds in deps.items():
            if name not in affected and ds & affected:
                affected.add(name)
                changed = True
    build = coq._build_dir()
    coqc = coq.coqc_path()
    for name in deps:
        vo = Path(old_build) / f"{name[:-2]}.vo"
        if name in affected or not vo.is_file():
            continue
        shutil.copy2(vo, build / vo.name)
        source = (src / name).read_text()
        key = (coqc, str(build), name, hashlib.sha256(source.encode()).hexdigest())
        coq._CACHE[key] = coq.CoqResult(name, coq.CoqStatus.COMPILED, 0.0, "copied from the unmutated build",
                                        coq.coqc_version(coqc))


def _run(entry: coq.CoqEntry, edits=()) -> CheckResult:
    base = CheckResult(ProofVerdict.PROVED, "the claim's own verdict (a stand-in, so that only the Coq check can promote)")
    report = ClaimReport(entry.claim_id, "mapping mutant", steps=base, conclusion=base)
    # the claims the theorem takes as hypotheses, as kernel-checked stand-ins: only the mapping decides the verdict
    kc = CheckResult(ProofVerdict.KERNEL_CHECKED, "a stand-in premise (mapping campaign)")
    context = [ClaimReport(cid, "stand-in premise", steps=kc, conclusion=kc) for cid in entry.claim_premises]
    if not edits:  # the .v files unchanged: the manifest alone is mutated (the process's compiled files are reused)
        saved = coq.MANIFEST
        coq.MANIFEST = (entry,)
        try:
            return coq.apply_kernel_checks([report], context=context)[0].conclusion
        finally:
            coq.MANIFEST = saved
    with _scratch_tree(edits, (entry,)):
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
        ctrl = _run(e)
        controls.append((e.theorem, ctrl.verdict))
        if progress is not None:
            progress(f"{e.claim_id} ({e.theorem}): control {ctrl.verdict.value} ({time.perf_counter() - t0:.1f} s)")
        if ctrl.verdict is not ProofVerdict.KERNEL_CHECKED:
            continue  # nothing to lose
        for m in mapping_mutants(e):
            t0 = time.perf_counter()
            res = _run(m.entry, m.edits)
            outcomes.append(MappingOutcome(m, res.verdict, res.evidence, time.perf_counter() - t0))
            if progress is not None:
                progress(f"  {m.kind}: {res.verdict.value} ({outcomes[-1].seconds:.1f} s): {m.description}")
    return MappingReport(tuple(controls), tuple(outcomes))


def _main(argv=None) -> int:
    """``python -m dpverify.symbolic.mapping_mutation [THEOREM ...]``: the campaign (default: every claim theorem);
    progress on stderr, the summary on stdout; exit 1 when a mutant keeps ``kernel-checked`` or a control is not."""
    import sys

    argv = sys.argv[1:] if argv is None else argv
    entries = [e for e in coq.MANIFEST if e.coverage is coq.Coverage.CLAIM and (not argv or e.theorem in argv)]
    rep = run_mapping_campaign(entries, progress=lambda s: print(s, file=sys.stderr, flush=True))
    print(rep.summary())
    return 1 if rep.survivors or any(v is not ProofVerdict.KERNEL_CHECKED for _, v in rep.controls) else 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(_main())
