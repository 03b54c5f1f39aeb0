"""proofs/coq/ZhouOpFrob.v (||Gamma||_2 <= ||Gamma||_F, Rayleigh ||.||_2, every p), the step of zhou-compression Theorem 3.2
that meets Theorem 4.6's hypothesis ||Sigma_1|| ||Gamma||_2 <= 1/2: it compiles with the classical reals only, false
variants are rejected by coqc, and the step reaches Theorem 3.2's chain through kernel_step (kernel-checked with coqc,
tested without). Deterministic (seeded)."""
from __future__ import annotations

import importlib

from dpverify.symbolic import ProofVerdict

from _coq_checks import coq_file_tests, needs_coq

Z = importlib.import_module("dpverify_proofs.zhou_compression")

FILE = "ZhouOpFrob.v"
THEOREMS = ("opnorm_le_frobenius", "quad_amgm")
MUTANTS = [
    # p = 1, G = 1, x = 1: |x^T G x| = 1 > 1/2 = (c/2) |x|^2 with c = ||G||_F = 1
    ("opnorm_le_frobenius", "Rabs (quad p G x) <= c * sq p x.", "Rabs (quad p G x) <= c / 2 * sq p x.",
     "p = 1, G = 1, c = 1, x = 1: 1 > 1/2"),
]
SLOW_MUTANTS = [
    # p = 1, G = 1, x = 1, lam = 1: 2 * 1 > 1 * 1 + 1 * 1 / 2 (the |x|^4 term halved)
    ("quad_amgm", "sq p x * sq p x / lam.", "sq p x * sq p x / (2 * lam).", "p = 1, G = x = lam = 1: 2 > 3/2"),
]

test_opfrob_compiles_with_classical_reals_only, test_opfrob_mutant_is_rejected, test_more_opfrob_mutants_are_rejected = \
    coq_file_tests(FILE, THEOREMS, MUTANTS, SLOW_MUTANTS)


@needs_coq
def test_step_is_kernel_checked_and_reaches_theorem_3_2():
    step = Z.opnorm_frobenius_step()
    assert step.verdict is ProofVerdict.KERNEL_CHECKED and "ZhouOpFrob.v" in step.evidence
    for rep in Z.theorem_3_2():
        assert "||Gamma||_2 <= ||Gamma||_F" in rep.conclusion.evidence
        assert "(kernel-checked)" in rep.conclusion.evidence


def test_step_without_coq_is_tested_and_says_why(monkeypatch):
    monkeypatch.setenv("DPVERIFY_COQC", "")  # no coqc
    step = Z.opnorm_frobenius_step.__wrapped__()
    assert step.verdict is ProofVerdict.TESTED
    assert "Coq not available" in step.evidence and "max |x^T G x|" in step.evidence
