"""The "laws of the determinant" premise discharged (round 12): proofs/coq/ZhouLogDetMC.v defines the real determinant
of a p x p matrix as mathcomp's (detR), proves its four laws from mathcomp-algebra, and restates Proposition C.1 and
Lemma C.2 with it; ZhouTheorem46MC.v does the same for Theorem 4.6. Each such claim is then kernel-checked given the
spectral theorem (and the Rayleigh bounds) only, and the evidence names the extra axiom (Hilbert's epsilon, which
mathcomp's ring structure on R needs).

Tests: the files compile with the allowed axioms, and epsilon is among them (so the verdict must name it); coqc rejects
false variants of the laws and of the restated theorems (a law that is false for the real determinant, C.1 with the
weight 1 + v); the claims' verdicts no longer name the determinant premise; where a required library is missing, the
entry is refused and the claim keeps the abstract-det theorem's verdict, saying why. Skipped cleanly without coqc or
without mathcomp-algebra. Deterministic (no statistical test)."""
from __future__ import annotations

import importlib

import pytest

from dpverify.symbolic import ProofVerdict, coq

from _coq_checks import assert_compiles_classically, assert_mutant_rejected, needs_coq

Z = importlib.import_module("dpverify_proofs.zhou_compression")

FILE = "ZhouLogDetMC.v"
FILE46 = "ZhouTheorem46MC.v"
THEOREMS = ("detR_mul", "detR_diag", "detR_tp", "detR_ext", "zhou_prop_c_1_det", "zhou_lemma_c_2_det")

needs_mathcomp = pytest.mark.skipif(
    coq.coqc_path() is None or bool(coq.missing_libraries("From mathcomp Require Import ssralg matrix.\n")),
    reason="needs coqc and mathcomp-algebra (Debian: libcoq-mathcomp-algebra)")

# (theorem, old, new, why the mutated statement is false)
MUTANTS = [
    ("detR_diag", "= prodn p f", "= sumn p f",
     "det(diag f) is the product: p = 2, f = (1, 1): det I = 1, the sum is 2"),
    ("zhou_prop_c_1_det", "(fun v => (1 - v) * kronsum", "(fun v => (1 + v) * kronsum",
     "weight 1 + v: p = 1, d = 1: -ln 2 != int_0^1 (1 + v)/(1 + v)^2 dv - 1 = ln 2 - 1"),
]
SLOW_MUTANTS = [
    ("detR_mul", "= detR p A * detR p B", "= detR p A + detR p B",
     "p = 0: the empty determinant is 1, and 1 != 1 + 1"),
    ("detR_tp", "detR p (tp A) = detR p A", "detR p (tp A) = - detR p A",
     "p = 0: 1 != -1"),
]


@needs_coq
@needs_mathcomp
def test_files_compile_with_allowed_axioms_and_name_epsilon():
    assert_compiles_classically(FILE, THEOREMS)
    assert_compiles_classically(FILE46, ("zhou_theorem_4_6_det",))
    ax = coq.assumptions([(FILE, "zhou_prop_c_1_det"), (FILE46, "zhou_theorem_4_6_det")])
    assert isinstance(ax, dict), ax
    for names in ax.values():
        assert coq.EPSILON_AXIOM in names  # mathcomp's choice structure on R: the verdict must say so
        assert "Hilbert's epsilon" in coq.axioms_phrase(names)
    assert coq.axioms_phrase(["Classical_Prop.classic"]) == "classical reals only"


@needs_coq
@needs_mathcomp
@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: f"{m[0]}:{m[3][:30]}")
def test_false_variants_are_rejected(mutant):
    assert_mutant_rejected(FILE, *mutant)


@needs_coq
@needs_mathcomp
@pytest.mark.slow
@pytest.mark.parametrize("mutant", SLOW_MUTANTS, ids=lambda m: f"{m[0]}:{m[3][:30]}")
def test_more_false_variants_are_rejected(mutant):
    assert_mutant_rejected(FILE, *mutant)


def test_manifest_has_the_three_routes_for_each_claim():
    """The abstract-det theorem (with the determinant premise) first, the real-determinant one (without it, the
    spectral theorem still a premise) next, and last the one from the proved spectral theorem (no premise)."""
    for cid, thm in (("zhou-compression/proposition-c.1", "zhou_prop_c_1_det"),
                     ("zhou-compression/lemma-c.2", "zhou_lemma_c_2_det"),
                     ("zhou-compression/theorem-4.6", "zhou_theorem_4_6_det")):
        entries = [e for e in coq.MANIFEST if e.claim_id == cid and e.coverage is coq.Coverage.CLAIM]
        assert [e.theorem for e in entries][-2:] == [thm, thm.replace("_det", "_spectral")], entries
        assert coq.DET_LAWS in entries[0].premises and coq.DET_LAWS not in entries[-2].premises
        assert coq.SPECTRAL in entries[-2].premises and entries[-1].premises == ()
        assert "(det :" in entries[0].checks and "(det :" not in entries[-2].checks  # no abstract det bound
        assert "orth_eig" in entries[-1].checks or "exists Bf" in entries[-1].checks
    for f in (FILE, FILE46, "WitnessesZhouLogDetMC.v", "WitnessesZhouTheorem46MC.v", "ZhouSpectralMC.v",
              "WitnessesSpectralZhou.v", "Spectral.v"):
        assert f in (coq.coq_dir() / "_CoqProject").read_text().split()


@needs_coq
@needs_mathcomp
def test_claims_lose_the_determinant_premise():
    """The real-determinant route alone (the spectral-theorem entries left out): no determinant premise, the spectral
    theorem still one."""
    entries = tuple(e for e in coq.MANIFEST if not e.theorem.endswith("_spectral"))
    with coq.using_manifest(entries):
        reps = coq.apply_kernel_checks([Z.proposition_c_1(), Z.lemma_c_2()])
    for r, thm in zip(reps, ("zhou_prop_c_1_det", "zhou_lemma_c_2_det")):
        c = r.conclusion
        assert c.verdict is ProofVerdict.KERNEL_CHECKED, (r.id, c.evidence)
        assert thm in c.evidence and "Hilbert's epsilon" in c.evidence
        assert coq.DET_LAWS not in c.premises and coq.SPECTRAL in c.premises
        assert "laws of the determinant" not in r.strength_label and "spectral theorem" in r.strength_label


@needs_coq
@needs_mathcomp
def test_claims_lose_every_premise_with_the_spectral_theorem():
    reps = coq.apply_kernel_checks([Z.proposition_c_1(), Z.lemma_c_2()])
    for r, thm in zip(reps, ("zhou_prop_c_1_spectral", "zhou_lemma_c_2_spectral")):
        c = r.conclusion
        assert c.verdict is ProofVerdict.KERNEL_CHECKED and c.premises == (), (r.id, c.evidence)
        assert thm in c.evidence and r.strength_label == "kernel-checked"


@needs_coq
def test_a_missing_library_is_said_and_the_abstract_route_stands():
    """A copy of the tree whose real-determinant file needs a module that is not installed: the entry is refused
    (never kernel-checked without compiling), the claim keeps the abstract-det theorem's verdict and its premise."""
    text = (coq.coq_dir() / FILE).read_text()
    edited = text.replace("From mathcomp Require Import ssreflect",
                          "From mathcomp Require Import dpverify_no_such_module ssreflect", 1)
    assert edited != text
    with coq.scratch_tree([(FILE, edited)]) as src:
        assert "mathcomp.dpverify_no_such_module" in coq.missing_libraries((src / FILE).read_text())
        [rep] = coq.apply_kernel_checks([Z.proposition_c_1()])
    c = rep.conclusion
    assert c.verdict is ProofVerdict.KERNEL_CHECKED, c.evidence  # zhou_prop_c_1, the abstract det
    assert coq.DET_LAWS in c.premises
    assert "not installed" in c.evidence and "zhou_prop_c_1_det" in c.evidence
