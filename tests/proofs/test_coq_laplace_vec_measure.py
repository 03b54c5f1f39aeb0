"""Events on R^K (round 14, issue 33): proofs/coq/LaplaceVecMeasure.v proves, with mathcomp-analysis's Lebesgue integral
and its product measure (the K-fold product of the Lebesgue measure of R), that the K-dimensional Laplace mechanism
satisfies P(A(S) in E) <= e^eps P(A(S') in E) for every measurable E of R^K: lecture21-dp/lemma-2 (scale B/eps) and
jiang-wishart/theorem-1 (scale lam > s1/eps) lose their integration premise. proofs/coq/MeasureDP.v holds the step on
any measure space (dp_of_pointwise_measure) the normalisation of zhou-compression/procedure-4.2's truncated density
(truncated_density_normalised, the additivity of the integral over E and its complement) and the three facts of
probability of zhou-compression/lemma-4.4's Chernoff route (chernoff_route_facts).

Tests: the files compile with allowed axioms only; coqc rejects false variants (the factor e^eps dropped; the
sensitivity relaxed; the scale halved; the truncated density not renormalised; P[E] = 1 allowed; the Chernoff bound
without lam >= 0; a sum for the product of two expectations); Lemma 4.4's route has no premise; the two claims are
kernel-checked with no premise; procedure-4.2's normalisation step is kernel-checked and the claim proved with no
premise; the step theorem's hypotheses are satisfiable (its witness, which kernel_step does not run); without
mathcomp-analysis the pointwise theorems' verdicts (with the integration premise) and the additivity premise stand.
Skipped cleanly without coqc or mathcomp-analysis. Deterministic."""
from __future__ import annotations

import importlib

import pytest

from dpverify.symbolic import ProofVerdict, coq

from _coq_checks import assert_compiles_classically, assert_mutant_rejected, needs_coq

L = importlib.import_module("dpverify_proofs.lecture21_dp")
J = importlib.import_module("dpverify_proofs.jiang_wishart")
Z = importlib.import_module("dpverify_proofs.zhou_compression")

FILE, STEP_FILE = "LaplaceVecMeasure.v", "MeasureDP.v"
needs_analysis = pytest.mark.skipif(
    coq.coqc_path() is None or bool(coq.missing_libraries(
        "From mathcomp.analysis Require Import Rstruct lebesgue_integral.\n")),
    reason="needs coqc and mathcomp-analysis (Debian: libcoq-mathcomp-analysis)")
NO_ANALYSIS = ("From mathcomp.analysis Require Import Rstruct",
               "From mathcomp.analysis Require Import dpverify_no_such_module Rstruct")

MUTANTS = [
    (FILE, "laplace_vec_dp_lebesgue", "(exp eps)%:E * \\int", "\\int",
     "without e^eps: K = 1, mu = 0, mu' = B, E = [0, oo): P = 1/2 > e^-eps/2"),
    (FILE, "laplace_vec_dp_lebesgue", "Rabs (mu i - mu' i)) K) B", "Rabs (mu i - mu' i)) K) (2 * B)",
     "l1 distance 2B: the loss is 2 eps on a half-line"),
    (FILE, "laplace_jiang_dp_lebesgue", "Rgt lam (s1 / eps)", "Rgt lam (s1 / (2 * eps))",
     "lam just above s1/(2 eps): the loss nears 2 eps on a half-line"),
    (STEP_FILE, "truncated_density_normalised", "Rdiv (f x) (Rminus 1 p)", "f x",
     "not renormalised: f = 1 on [0, 1], E = [0, 1/2]: the integral is 1/2"),
    (STEP_FILE, "truncated_density_normalised", "Rlt p 1", "Rle p 1",
     "P[E] = 1: f/(1 - P[E]) is f/0, which Coq's R reads as 0, integrating to 0"),
    (STEP_FILE, "chernoff_bound", "Rle 0 lam ->", "",
     "lam = -1, X = t + 1 on a probability space: mu[X >= t] = 1 > e^-1"),
    (STEP_FILE, "product_expectation", "\\int[m1]_x (f x)%:E * \\int", "\\int[m1]_x (f x)%:E + \\int",
     "two probabilities, f = g = 1: the integral over the product is 1, not 1 + 1"),
]


@needs_coq
@needs_analysis
def test_compiles_with_allowed_axioms_named():
    assert_compiles_classically(FILE, ("laplace_vec_events", "laplace_vec_dp_lebesgue", "laplace_jiang_dp_lebesgue"))
    assert_compiles_classically(STEP_FILE, ("dp_of_pointwise_measure", "truncated_density_normalised",
                                            "chernoff_route_facts"))
    ax = coq.assumptions([(FILE, "laplace_vec_dp_lebesgue")])
    phrase = coq.axioms_phrase(ax[(FILE, "laplace_vec_dp_lebesgue")])
    assert "Hilbert's epsilon" in phrase and "boolp" in phrase


@needs_coq
@needs_analysis
@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: f"{m[1]}:{m[4][:30]}")
def test_false_variants_are_rejected(mutant):
    assert_mutant_rejected(*mutant)


@needs_coq
@needs_analysis
@pytest.mark.parametrize("build, theorem", [(L.lemma_2, "laplace_vec_dp_lebesgue"),
                                            (J.theorem_1, "laplace_jiang_dp_lebesgue")],
                         ids=["lecture21-dp/lemma-2", "jiang-wishart/theorem-1"])
def test_claims_are_kernel_checked_without_the_integration_premise(build, theorem):
    [out] = coq.apply_kernel_checks([build()])
    c = out.conclusion
    assert c.verdict is ProofVerdict.KERNEL_CHECKED, c.evidence
    assert theorem in c.evidence and not c.premises
    assert out.strength == "kernel-checked"


@needs_coq
@needs_analysis
def test_truncation_step_is_kernel_checked_and_its_hypotheses_satisfiable():
    p42 = next(r for r in Z.procedures() if r.id.endswith("procedure-4.2"))
    assert p42.conclusion.verdict is ProofVerdict.PROVED and not p42.conclusion.premises, p42.conclusion.evidence
    assert "normalisation (kernel-checked)" in p42.conclusion.evidence
    assert any("truncated_density_normalised" in d for d in p42.conclusion.details), p42.conclusion.details
    got = coq.run_witness_checks([("MeasureDP.v:truncated_density_normalised", "MeasureDP.truncated_density_normalised",
                                   "WitnessesMeasureDP.truncated_density_normalised_hyps_satisfiable")],
                                 requires=["MeasureDP", "WitnessesMeasureDP"])
    assert isinstance(got, dict), got
    assert got["MeasureDP.v:truncated_density_normalised"].ok, got


@needs_coq
@needs_analysis
def test_lemma_4_4_route_rests_on_no_premise():
    """The Chernoff route of zhou-compression Lemma 4.4 (and so Procedure 4.1 and Remark 4.3, which rest on it): its
    three facts of probability kernel-checked (MeasureDP.chernoff_route_facts), the verdict certified with no premise;
    inside kernel_premises(False) the three facts are its premises again."""
    Z.lemma_4_4_chernoff.cache_clear()
    r = Z.lemma_4_4_chernoff()
    assert r.verdict is ProofVerdict.CERTIFIED and not r.premises, r.evidence
    assert "chernoff_route_facts" in r.evidence
    Z.lemma_4_4_chernoff.cache_clear()
    with coq.kernel_premises(False):
        r = Z.lemma_4_4_chernoff()
    Z.lemma_4_4_chernoff.cache_clear()
    assert {p.name for p in r.premises} == set(Z.PROBABILITY_FACTS)


@needs_coq
def test_without_the_library_the_premises_stand():
    reps = [L.lemma_2(), J.theorem_1()]
    text = (coq.coq_dir() / FILE).read_text()
    edited = text.replace(*NO_ANALYSIS, 1)
    assert edited != text
    with coq.scratch_tree([(FILE, edited)]):
        outs = coq.apply_kernel_checks(reps)
    for out in outs:
        c = out.conclusion
        assert c.verdict is ProofVerdict.KERNEL_CHECKED and coq.INTEGRATION in c.premises, c.evidence
        assert "not installed" in c.evidence
    step = (coq.coq_dir() / STEP_FILE).read_text()
    with coq.scratch_tree([(STEP_FILE, step.replace(*NO_ANALYSIS, 1))]):
        p42 = next(r for r in Z.procedures() if r.id.endswith("procedure-4.2"))
    assert p42.conclusion.verdict is ProofVerdict.PROVED
    assert any("additivity" in str(p) for p in p42.conclusion.premises), p42.conclusion.premises
