"""lecture21-dp Lemma 1 for events (round 12): proofs/coq/LaplaceMeasure.v proves, with mathcomp-analysis's Lebesgue
integral, that the Laplace mechanism's probabilities of every measurable event satisfy P(A(S) in E) <= e^eps
P(A(S') in E); the integration premise of the pointwise theorem (Laplace.v) is discharged and the claim is
kernel-checked unconditionally, the verdict naming the axioms (classical reals, Hilbert's epsilon, mathcomp's boolp).

Tests: the file compiles with allowed axioms only; coqc rejects false variants (the factor e^eps dropped; the
sensitivity bound relaxed to 2M); the claim's verdict; without mathcomp-analysis the entry is refused with the
missing modules named and the pointwise theorem's verdict (with its premise) stands. Skipped cleanly without coqc or
mathcomp-analysis. Deterministic."""
from __future__ import annotations

import importlib

import pytest

from dpverify.symbolic import ProofVerdict, coq

from _coq_checks import assert_compiles_classically, assert_mutant_rejected, needs_coq

L = importlib.import_module("dpverify_proofs.lecture21_dp")

FILE = "LaplaceMeasure.v"
needs_analysis = pytest.mark.skipif(
    coq.coqc_path() is None or bool(coq.missing_libraries(
        "From mathcomp.analysis Require Import Rstruct lebesgue_integral.\n")),
    reason="needs coqc and mathcomp-analysis (Debian: libcoq-mathcomp-analysis)")

MUTANTS = [
    ("laplace_dp_lebesgue", "(exp eps)%:E * \\int", "\\int",
     "without e^eps: mu = 0, mu' = M, E = [0, oo): P = 1/2 > e^-eps/2"),
    ("laplace_dp_lebesgue", "Rle (Rabs (mu - mu')) M", "Rle (Rabs (mu - mu')) (2 * M)",
     "|mu - mu'| = 2M: the loss is 2 eps at x <= mu"),
]


@needs_coq
@needs_analysis
def test_compiles_with_allowed_axioms_named():
    assert_compiles_classically(FILE, ("lap_continuous", "lap_pointwise", "laplace_dp_lebesgue"))
    ax = coq.assumptions([(FILE, "laplace_dp_lebesgue")])
    names = ax[(FILE, "laplace_dp_lebesgue")]
    assert set(coq.BOOLP_AXIOMS) <= set(names)
    phrase = coq.axioms_phrase(names)
    assert "Hilbert's epsilon" in phrase and "boolp" in phrase


@needs_coq
@needs_analysis
@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: m[3][:30])
def test_false_variants_are_rejected(mutant):
    assert_mutant_rejected(FILE, *mutant)


@needs_coq
@needs_analysis
def test_claim_is_kernel_checked_without_the_integration_premise():
    rep = L.lemma_1()
    [out] = coq.apply_kernel_checks([rep])
    c = out.conclusion
    assert c.verdict is ProofVerdict.KERNEL_CHECKED, c.evidence
    assert "laplace_dp_lebesgue" in c.evidence and not c.premises
    assert out.strength == "kernel-checked"


@needs_coq
def test_without_the_library_the_pointwise_route_stands():
    text = (coq.coq_dir() / FILE).read_text()
    edited = text.replace("From mathcomp.analysis Require Import Rstruct",
                          "From mathcomp.analysis Require Import dpverify_no_such_module Rstruct", 1)
    assert edited != text
    rep = L.lemma_1()
    with coq.scratch_tree([(FILE, edited)]):
        [out] = coq.apply_kernel_checks([rep])
    c = out.conclusion
    assert c.verdict is ProofVerdict.KERNEL_CHECKED and coq.INTEGRATION in c.premises, c.evidence
    assert "not installed" in c.evidence
