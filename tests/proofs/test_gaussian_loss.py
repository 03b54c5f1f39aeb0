"""proofs/coq/GaussianLoss.v (lecture21-dp Lemma 6's deterministic steps, every dimension K): it compiles with the
classical reals only, false variants are rejected by coqc (each shown false at an explicit point here), and the steps
reach Lemma 6's chain through kernel_step (kernel-checked with coqc, with their sympy/tested fallback without).
Deterministic (seeded)."""
from __future__ import annotations

import importlib

from dpverify.symbolic import ProofVerdict

from _coq_checks import coq_file_tests, needs_coq

L = importlib.import_module("dpverify_proofs.lecture21_dp")

FILE = "GaussianLoss.v"
THEOREMS = ("gaussian_expansion", "gaussian_cs_step")
MUTANTS = [
    ("gaussian_expansion", "+ 2 * sumn K", "+ sumn K", "K = 1, x = 1, F(S) = 0, F(S') = -1: 4 = ||x - F(S')||^2 != 1 + 1 + 1"),
    ("gaussian_cs_step", "<= sqrt (nrm2 K (fun i => x i - f i)) * B.", "<= sqrt (nrm2 K (fun i => x i - f i)) * B / 2.",
     "K = 1, x = 1, F(S) = 0, F(S') = -1, B = 1: u.dF = 1 > 1/2"),
]

test_gaussian_loss_compiles_with_classical_reals_only, test_gaussian_loss_mutant_is_rejected, _ = \
    coq_file_tests(FILE, THEOREMS, MUTANTS, [], compile_slow=False)


def test_mutants_are_false_at_their_points():
    x, f, fp, B = 1.0, 0.0, -1.0, 1.0
    u, dF = x - f, f - fp
    assert (x - fp) ** 2 == u**2 + dF**2 + 2 * u * dF != u**2 + dF**2 + u * dF
    assert u * dF <= abs(u) * B and u * dF > abs(u) * B / 2


@needs_coq
def test_lemma_6_steps_are_kernel_checked():
    """The expansion and Cauchy-Schwarz were 'not machine-checked' steps; the chain now shows them kernel-checked and
    fails at the tail step only (the refutation of Lemma 6's steps is unchanged)."""
    for rep in L.lemma_6():
        assert "not machine-checked" not in rep.steps.evidence
        assert rep.steps.verdict is ProofVerdict.REFUTED and "first failing step: tail step" in rep.steps.evidence
    assert L.expansion_step().verdict is ProofVerdict.KERNEL_CHECKED
    assert "gaussian_cs_step (GaussianLoss.v)" in L.cauchy_schwarz_step().evidence


def test_steps_without_coq_keep_their_fallbacks_and_say_why(monkeypatch):
    monkeypatch.setenv("DPVERIFY_COQC", "")  # no coqc
    exp, cs = L.expansion_step(), L.cauchy_schwarz_step()
    assert exp.verdict is ProofVerdict.PROVED and "expands to 0" in exp.evidence and "Coq not available" in exp.evidence
    assert cs.verdict is ProofVerdict.TESTED and "max u.dF/(||u|| B)" in cs.evidence and "Coq not available" in cs.evidence
