"""The measure-theoretic steps of proofs/coq/MeasureKL.v (mathcomp-analysis) that discharge premises of
showkatbakhsh-regression Proposition 2 (data processing of KL onto {E, E^c}) and zhou-compression Theorem 5.1 (the
variance of a mean of independent rows, E[Y | F] <= E[Y]/P(F), Markov): the file compiles with the allowed axioms,
false variants are rejected by coqc with the same proof script (two of them under ``-m slow``: each recompiles the
file, about 25 s), a step is kernel-checked only with its stated type and its witness, and without Coq the claims
name the facts as premises. Deterministic.

Why each mutant is false (checked with numpy in ``test_mutant_witnesses_are_false``):
- Markov with 1/(2t): the Dirac mass, Y = 1, t = 1: mu[Y >= 1] = 1 > 1/2;
- the variance of a sum of k+1 rows as k Var f: k = 0, f = +-1 with probability 1/2 each: E f^2 = 1 > 0;
- the binary KL bounded by KL/2: the coin f = (0.9, 0.1), g = (0.5, 0.5), E = {heads}: the binary KL is the KL (> 0).
"""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from dpverify.errors import InvalidArgument
from dpverify.symbolic import ProofVerdict, coq
from dpverify.symbolic.proof import proved

from _coq_checks import assert_compiles_classically, assert_mutant_rejected, needs_coq

S = importlib.import_module("dpverify_proofs.showkatbakhsh_regression")
Z = importlib.import_module("dpverify_proofs.zhou_compression")

FILE = "MeasureKL.v"
THEOREMS = ("kl_binary_data_processing", "kl_binary_data_processing_ext", "markov_inequality",
            "restricted_expectation_le", "conditional_expectation_le", "variance_two_factors", "iid_variance_of_sum")

# -m slow: each recompiles the whole file (about 25 s)
SLOW_MUTANTS = [
    ("markov_inequality", "(Rinv t)%:E * \\int", "(Rinv (Rmult 2 t))%:E * \\int", "Dirac, Y = 1, t = 1: 1 > 1/2"),
    ("iid_variance_of_sum", "(INR k.+1)%:E *", "(INR k)%:E *", "k = 0, f = +-1: E f^2 = 1 > 0"),
]
MUTANTS = [
    ("kl_binary_data_processing_ext", "<= \\int[mu]_x (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E.",
     "<= \\int[mu]_x (Rmult (f x) (ln (Rdiv (f x) (g x))))%:E * (Rinv 2)%:E.",
     "coin (0.9, 0.1) against (0.5, 0.5), E = {heads}: the binary KL is the KL > KL/2"),
]


def _needs_mathcomp_analysis():
    return pytest.mark.skipif(bool(coq.coqc_path()) and bool(coq.missing_libraries((coq.coq_dir() / FILE).read_text())),
                              reason="mathcomp-analysis not installed")


needs_analysis = _needs_mathcomp_analysis()


@needs_coq
@needs_analysis
def test_compiles_with_allowed_axioms():
    assert_compiles_classically(FILE, THEOREMS)


@needs_coq
@needs_analysis
@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: f"{m[0]}:{m[3][:30]}")
def test_mutant_is_rejected(mutant):
    assert_mutant_rejected(FILE, *mutant)


@needs_coq
@needs_analysis
@pytest.mark.slow
@pytest.mark.parametrize("mutant", SLOW_MUTANTS, ids=lambda m: f"{m[0]}:{m[3][:30]}")
def test_more_mutants_are_rejected(mutant):
    assert_mutant_rejected(FILE, *mutant)


def test_mutant_witnesses_are_false():
    assert 1.0 > 0.5 * 1.0  # Markov at the Dirac mass
    f = np.array([1.0, -1.0])
    assert np.mean(f**2) > 0 * np.var(f)
    p, q = np.array([0.9, 0.1]), np.array([0.5, 0.5])
    kl = float(np.sum(p * np.log(p / q)))
    binary = 0.9 * np.log(0.9 / 0.5) + 0.1 * np.log(0.1 / 0.5)
    assert kl > 0 and binary > kl / 2


@needs_coq
@needs_analysis
def test_the_steps_need_their_type_and_witness():
    """The adversaries: the right theorem with a wrong formal statement, and a theorem with no witness, never make a
    kernel-checked step; the fallback (here a stand-in) is returned with the reason."""
    fallback = proved("stand-in for the step's own check")
    right = Z.THEOREM_5_1_TYPES["markov_inequality"]
    ok = coq.kernel_step(FILE, "markov_inequality", "Markov", fallback, checks=right)
    assert ok.verdict is ProofVerdict.KERNEL_CHECKED and "hypotheses shown satisfiable" in ok.evidence
    other = right.replace("<=", "<", 1)  # the hypothesis 0 <= Y x made 0 < Y x: a weaker theorem, another statement
    assert other != right and "0 < Y x" in other
    wrong = coq.kernel_step(FILE, "markov_inequality", "Markov", fallback, checks=other)
    assert wrong.verdict is ProofVerdict.PROVED and "STATEMENT MISMATCH" in wrong.evidence
    # a theorem of the file with its exact type but no witness (ln_gibbs_pointwise, a lemma) discharges nothing
    lemma = coq.theorem_types([(FILE, "ln_gibbs_pointwise")])[(FILE, "ln_gibbs_pointwise")]
    nowit = coq.kernel_step(FILE, "ln_gibbs_pointwise", "Gibbs", fallback, checks=lemma)
    assert nowit.verdict is ProofVerdict.PROVED and "NOT shown satisfiable" in nowit.evidence


@needs_coq
@needs_analysis
def test_theorem_5_1_is_certified_without_premises_and_names_them_without_coq():
    for r in Z.theorem_5_1():
        assert r.strength_label == "certified" and r.conclusion.premises == (), (r.id, r.conclusion.evidence[-500:])
    with coq.kernel_premises(False):
        for r in Z.theorem_5_1():
            assert r.strength_label.startswith("certified given Var of a mean"), r.strength_label


def test_kernel_step_rejects_a_non_string_checks():
    with pytest.raises(InvalidArgument, match="checks="):
        coq.kernel_step(FILE, "markov_inequality", "Markov", proved("x"), checks=None)


# ------------------------------------------------------------------ MeasureGibbs.v (showkatbakhsh Lemma 1)
GIBBS_FILE = "MeasureGibbs.v"
GIBBS_THEOREMS = ("gibbs_integrated", "mutual_information_golden", "gaussian_channel_mi_bound", "gaussian_channel_mi_eps")
# the capacity halved: false at low SNR, where the binary input +-1 gets about 1/(2 sigma^2) nats (computed below)
GIBBS_MUTANT = ("gaussian_channel_mi_bound", "<= (Rmult (Rinv 2) (ln (Rplus 1 (Rinv sigma2))))%:E.",
                "<= (Rmult (Rinv 4) (ln (Rplus 1 (Rinv sigma2))))%:E.",
                "sigma^2 = 10, X = +-1: I = 0.0476 nats > ln(1.1)/4 = 0.0238")


def _binary_awgn_mi(s2: float) -> float:
    """I(X; X + sigma N) in nats for X uniform on {-1, 1}, by the trapezoid rule on a wide grid."""
    y = np.linspace(-1 - 12 * np.sqrt(s2), 1 + 12 * np.sqrt(s2), 200001)
    phi = [np.exp(-(y - m) ** 2 / (2 * s2)) / np.sqrt(2 * np.pi * s2) for m in (-1.0, 1.0)]
    py = (phi[0] + phi[1]) / 2
    return float(sum(0.5 * np.trapezoid(f * np.log(f / py), y) for f in phi))


def test_gibbs_mutant_witness_is_false():
    mi = _binary_awgn_mi(10.0)
    assert mi > np.log(1 + 1 / 10.0) / 4 and mi <= np.log(1 + 1 / 10.0) / 2  # above the mutant, below the theorem


@needs_coq
@needs_analysis
def test_gibbs_file_compiles_and_rejects_the_halved_capacity():
    assert_compiles_classically(GIBBS_FILE, GIBBS_THEOREMS)
    assert_mutant_rejected(GIBBS_FILE, *GIBBS_MUTANT)


@needs_coq
@needs_analysis
def test_lemma_1_keeps_only_the_conditioning_premise():
    """With Coq the channel bound is MeasureGibbs's theorem (type and witness checked) with the Gaussian integrals by
    sympy: the verdict names only (17), the conditioning on the other entries; without Coq, both old premises."""
    r = S.lemma_1()
    assert r.strength_label.startswith("proved given (17): I(X_11; X_AN | X^-(1,1)) is the channel's"), r.strength_label
    assert len(r.conclusion.premises) == 1
    assert S.gaussian_integrals().verdict is ProofVerdict.PROVED
    with coq.kernel_premises(False):
        r0 = S.lemma_1()
    assert len(r0.conclusion.premises) == 2 and "Gibbs" in r0.strength_label
