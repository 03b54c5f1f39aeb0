"""The statement that was checked is the statement shown, and witnesses decide (issue 33).

A ``CLAIM`` theorem makes its claim ``kernel-checked`` only when its type, as ``coqc`` prints it, is the claim's formal
statement (``CoqEntry.checks``) and its non-vacuity witness passes. The adversaries: a vacuous theorem (contradictory
hypotheses ``0 < s -> s < 0`` and a false conclusion, 1/2 changed to 1/4), a theorem weaker than the claim's statement
(an extra factor 2 in the sensitivity hypothesis), a manifest entry pointing at the wrong theorem, and the witness check
switched off. Each is refused ``kernel-checked``; the positive control (the real entry) is promoted, with its premise
named. Cost: Laplace.v and its witness file (a few seconds of coqc), plus one scratch file."""
from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from dpverify.symbolic import coq
from dpverify.symbolic.proof import proved
from dpverify.symbolic.verdicts import ClaimReport, ProofVerdict, Strength

from _coq_checks import needs_coq

pytestmark = needs_coq

CLAIM = "lecture21-dp/lemma-1"


def _report(cid=CLAIM):
    r = proved("the proof file's own verdict")
    return ClaimReport(cid, "a claim", steps=r, conclusion=r)


def _entry(**kw):
    """Laplace.v's pointwise entry of the claim (the claim also has LaplaceMeasure.v's, for events, where
    mathcomp-analysis is installed: tests/proofs/test_coq_laplace_measure.py); these tests pin the manifest to it."""
    [e] = [e for e in coq.MANIFEST if e.claim_id == CLAIM and e.file == "Laplace.v"]
    return replace(e, **kw)


def _with_manifest(*entries):
    return coq.using_manifest(entries)


def test_the_real_entry_is_kernel_checked_given_its_premise():
    with _with_manifest(_entry()):
        [out] = coq.apply_kernel_checks([_report()])
    c = out.conclusion
    assert c.verdict is ProofVerdict.KERNEL_CHECKED, c.evidence
    assert out.strength is Strength.KERNEL_CHECKED_GIVEN  # the integration step is named, not hidden
    assert c.premises == (coq.INTEGRATION,)
    # the type coqc printed is in the evidence, and it is the entry's statement
    assert _entry().checks in c.evidence and "hypotheses shown satisfiable" in c.evidence


def test_the_manifest_pointing_at_the_wrong_theorem_is_refused():
    with _with_manifest(_entry(theorem="laplace_loss_vector")):  # compiles, has a witness, is another statement
        [out] = coq.apply_kernel_checks([_report()])
    assert out.conclusion.verdict is ProofVerdict.PROVED
    assert "STATEMENT MISMATCH" in out.conclusion.evidence


def test_a_changed_claim_statement_is_refused():
    e = _entry()
    with _with_manifest(replace(e, checks=e.checks.replace("<= eps", "<= eps / 2"))):
        [out] = coq.apply_kernel_checks([_report()])
    assert out.conclusion.verdict is ProofVerdict.PROVED and "STATEMENT MISMATCH" in out.conclusion.evidence


def test_without_the_witness_check_nothing_is_promoted():
    [out] = coq.apply_kernel_checks([_report()], witnesses=False)  # every entry of the claim, none promoted
    assert out.conclusion.verdict is ProofVerdict.PROVED
    assert "not kernel-checked" in out.conclusion.evidence


SCRATCH = """From Coq Require Import Reals Lra.
From DPVerify Require Import Laplace.
Open Scope R_scope.

(* the vacuous adversary: contradictory hypotheses, and a false conclusion (1/2 changed to 1/4) *)
Theorem vacuous_half : forall s : R, 0 < s -> s < 0 -> s / 4 = s * / 2.
Proof. intros s H1 H2. exfalso. exact (Rlt_asym _ _ H1 H2). Qed.

(* weaker than lecture21-dp Lemma 1: the sensitivity bound is M/2, not M *)
Theorem laplace_weaker : forall eps M mu mu' x : R, 0 < eps -> 0 < M -> Rabs (mu - mu') <= M / 2 ->
  ln (lap_density (M / eps) mu x) - ln (lap_density (M / eps) mu' x) <= eps.
Proof.
  intros eps M mu mu' x He HM Hd. apply laplace_loss_scalar; try assumption. lra.
Qed.
"""


@pytest.fixture
def scratch_dir(tmp_path):
    src = tmp_path / "coq"
    shutil.copytree(coq.coq_dir(), src)
    (src / "Scratch.v").write_text(SCRATCH)
    with coq.using_tree(src):  # a fresh build directory for the copied tree
        res = coq.compile_file("Scratch.v")
        assert res.ok, res.message[-800:]
        yield src


def test_the_vacuous_adversary_is_refused(scratch_dir):
    """Even with the claim's statement written to match the vacuous theorem exactly, its hypotheses are not satisfiable,
    no witness exists, and the claim is not kernel-checked; with the intended statement, the statement check refuses."""
    types = coq.theorem_types([("Scratch.v", "vacuous_half")])
    assert isinstance(types, dict), types
    printed = types[("Scratch.v", "vacuous_half")]
    assert printed.startswith("forall s : R, 0 < s -> s < 0 ->")
    for checks, why in ((printed, "NOT shown satisfiable"), ("forall s : R, 0 < s -> s / 2 * 2 = s", "STATEMENT MISMATCH")):
        with _with_manifest(coq.CoqEntry("scratch/half", "Scratch.v", "vacuous_half", "s/2 doubled is s",
                                         coq.Coverage.CLAIM, checks=checks)):
            [out] = coq.apply_kernel_checks([_report("scratch/half")])
        assert out.conclusion.verdict is ProofVerdict.PROVED, out.conclusion.evidence
        assert why in out.conclusion.evidence


def test_a_theorem_weaker_than_the_claim_is_refused(scratch_dir):
    with _with_manifest(_entry(file="Scratch.v", theorem="laplace_weaker")):
        [out] = coq.apply_kernel_checks([_report()])
    assert out.conclusion.verdict is ProofVerdict.PROVED
    assert "STATEMENT MISMATCH" in out.conclusion.evidence and "M / 2" in out.conclusion.evidence


def test_every_claim_entry_states_its_formal_statement():
    for e in coq.MANIFEST:
        if e.coverage is coq.Coverage.CLAIM:
            assert e.checks.startswith("forall"), e.theorem


def test_theorem_types_rejects_bad_names():
    from dpverify.errors import InvalidArgument

    with pytest.raises(InvalidArgument, match="theorem"):
        coq.theorem_types([("Laplace.v", "x. Print All")])


def test_a_claim_premise_caps_the_verdict():
    """The weakest-premise rule across Coq and Python: a Coq theorem that takes another claim as a hypothesis is never
    stronger than that claim's verdict (zhou Theorem 4.6 takes Lemma 4.4; here Laplace's entry, with a stand-in premise).
    The claim's own route (here ``tested``) is kept when it is the stronger."""
    from dpverify.symbolic.proof import certified, tested

    with _with_manifest(_entry(claim_premises=("scratch/premise",))):
        own = ClaimReport(CLAIM, "a claim", steps=tested("own"), conclusion=tested("the proof file's own route"))
        boxed = ClaimReport("scratch/premise", "p", steps=certified("Arb", domain="n in [2, 100]"),
                            conclusion=certified("Arb", domain="n in [2, 100]"))
        [out] = coq.apply_kernel_checks([own], context=[boxed])
        assert out.conclusion.verdict is ProofVerdict.CERTIFIED and out.conclusion.domain == "n in [2, 100]"
        assert out.strength is Strength.CERTIFIED_GIVEN  # and the integration premise stays named
        assert "scratch/premise (certified on B (n in [2, 100]))" in out.conclusion.evidence
        weak = ClaimReport("scratch/premise", "p", steps=tested("20 points"), conclusion=tested("20 points"))
        [out] = coq.apply_kernel_checks([own], context=[weak])
        assert out.conclusion.verdict is ProofVerdict.TESTED
        [out] = coq.apply_kernel_checks([own])  # the premise claim not supplied: the Coq route is capped at unknown
        assert out.conclusion.verdict is ProofVerdict.TESTED and out.conclusion.evidence == "the proof file's own route"
        assert any("capped by its claim premises: unknown" in n for n in out.notes)


def test_the_persistent_build_cache_is_reused_only_for_the_same_source(monkeypatch, tmp_path):
    """`dpverify prove` keeps its builds across processes (cached by the content of every .v file): a second process
    finds the stamp and does not run coqc; a stamp that does not match the source (a stale or forged cache) is not
    trusted, and coqc runs again."""
    monkeypatch.setenv("DPVERIFY_COQ_CACHE", str(tmp_path))
    with coq.using_tree():  # the session's build folder is restored after the test
        coq.clear_caches()
        first = coq.compile_file("Laplace.v")
        assert first.ok and first.message != "cached build of this tree"
        build = coq.build_dir()
        assert build.parent == tmp_path and (build / "Laplace.v.dpverify-ok").is_file()
        coq.clear_caches()  # a new process: same tree, same folder
        again = coq.compile_file("Laplace.v")
        assert again.ok and again.message == "cached build of this tree" and coq.build_dir() == build
        (build / "Laplace.v.dpverify-ok").write_text("0" * 64 + " 1.0")  # a stamp of another source
        coq.clear_caches()
        third = coq.compile_file("Laplace.v")
        assert third.ok and third.message != "cached build of this tree"
        monkeypatch.setenv("DPVERIFY_COQ_CACHE", "0")  # off: a temporary folder
        coq.clear_caches()
        assert coq.build_dir().parent != tmp_path
