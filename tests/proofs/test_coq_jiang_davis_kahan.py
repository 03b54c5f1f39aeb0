"""The jiang-wishart Coq theorems for Lemma 3 (Davis-Kahan sin theta, operator norm) and Theorem 6 (top-k subspace
closeness for PSD noise), proofs/coq/JiangDavisKahan.v: the file compiles with the classical reals only, it decides both
claims (kernel-checked), false variants of the statements are rejected by coqc with the same proof script, and the
scalar core statements of the campaign are proved while their false mutants are refuted. Deterministic.

Why each mutant is false (checked with numpy in ``test_mutant_witnesses_are_false``, so a mutant the kernel rejects is
not merely one the proof script cannot handle):
- Lemma 3 with the bound halved: d = 2, k = 1, A = e1 e1^T, A_hat = u u^T with u = (cos .3, sin .3): the gap is 1 and
  ||P - P_hat||_2 = ||A - A_hat||_2 = sin .3, so the stated bound is an equality;
- Theorem 6 with 2 sqrt(k) replaced by sqrt(k)/2: A = diag(1, 0), W = t [[1, 1], [1, 1]] (PSD), t = 1e-3: the ratio
  ||P - P_hat||_F g / (sqrt(k) ||W||_2) is 0.707 > 1/2;
- Theorem 6 without "W PSD": A = diag(1, 0), W = diag(-0.6, 0.6): ||P - P_hat||_F = sqrt 2 > 2 ||W||_2/g = 1.2;
- sylvester_bound with 2 delta^2: p = q = 1, X = Y = 1, a = delta = 1, b = 0, e = 1: |X x|^2 2 = 2 > 1 = e^2 |x|^2;
- Theorem 9's step (jiang_theorem_9_step) with lambda_k+1/2: W = 0, A = diag(1, 1/2), k = 1: ||A - A_1||_2 = 1/2 > 1/4;
  without "A_hat PSD": W = 0, A = diag(1, -2), k = 1: ||A - A_1||_2 = 2 > lambda_2 = -2."""
from __future__ import annotations

import importlib
from dataclasses import replace

import numpy as np
import pytest

from dpverify.symbolic import ProofVerdict

from _coq_checks import assert_compiles_classically, assert_mutant_rejected, coq_file_tests, needs_coq

J = importlib.import_module("dpverify_proofs.jiang_wishart")

FILE = "JiangDavisKahan.v"
THEOREMS = ("jiang_davis_kahan", "jiang_davis_kahan_bound", "jiang_theorem_6", "davis_kahan_sq", "dk_blocks",
            "sylvester_bound", "transpose_lower", "transpose_upper", "cauchy_schwarz")

# (theorem, old, new, why the mutated statement is false)
MUTANTS = [
    ("jiang_davis_kahan", "pn <= e / (l (k - 1)%nat - m k).", "pn <= e / (2 * (l (k - 1)%nat - m k)).",
     "A = e1 e1^T, A_hat = u u^T, u = (cos .3, sin .3): equality in the stated bound"),
]
SLOW_MUTANTS = [
    ("jiang_theorem_6", "<= 2 * sqrt (INR k) * w /", "<= sqrt (INR k) / 2 * w /",
     "A = diag(1, 0), W = t [[1, 1], [1, 1]]: ratio 0.707 > 1/2"),
    ("jiang_theorem_6", "  (forall x, 0 <= quad d W x) ->\n", "",
     "W = diag(-0.6, 0.6) closes the gap: sqrt 2 > 1.2"),
    ("sylvester_bound", "nrm2 p (mv q X x) * (delta * delta) <=", "nrm2 p (mv q X x) * (2 * (delta * delta)) <=",
     "p = q = 1, X = Y = 1, a = delta = 1, b = 0, e = 1"),
]
LOWRANK_MUTANTS = [
    ("jiang_theorem_9_step", "pn <= l k + 2 * w.", "pn <= l k / 2 + 2 * w.", "W = 0, A = diag(1, 1/2), k = 1"),
    ("jiang_theorem_9_step", "  (forall x, 0 <= quad d Ahat x) ->\n", "", "W = 0, A = diag(1, -2), k = 1"),
]


@needs_coq
@pytest.mark.slow
def test_theorem_9_step_compiles_and_its_mutants_are_rejected():
    assert_compiles_classically(FILE, ("jiang_theorem_9_step", "tail_bound", "vnorm_triangle"))
    for mutant in LOWRANK_MUTANTS:
        assert_mutant_rejected(FILE, *mutant)


def test_theorem_9_step_mutant_witnesses_are_false():
    for A, k in ((np.diag([1.0, 0.5]), 1), (np.diag([1.0, -2.0]), 1)):  # W = 0: A_hat = A
        w_, V = np.linalg.eigh(A)
        Ak = V[:, -k:] @ np.diag(w_[-k:]) @ V[:, -k:].T
        lam = np.sort(w_)[::-1]
        err = np.linalg.norm(A - Ak, 2)
        assert err > (lam[k] / 2 if lam[k] > 0 else lam[k]) + 0.2


def _proj(M, k):
    w, V = np.linalg.eigh(M)
    return V[:, -k:] @ V[:, -k:].T


def test_mutant_witnesses_are_false():
    th = 0.3
    A = np.diag([1.0, 0.0])
    u = np.array([np.cos(th), np.sin(th)])
    Ah = np.outer(u, u)
    lhs = np.linalg.norm(_proj(A, 1) - _proj(Ah, 1), 2)
    gap = 1.0 - 0.0  # lambda_1(A) - lambda_2(A_hat)
    assert lhs > np.linalg.norm(A - Ah, 2) / (2 * gap) * 1.9  # halved bound: false by a wide margin
    W = 1e-3 * np.ones((2, 2))
    assert np.all(np.linalg.eigvalsh(W) >= -1e-15)
    ratio = np.linalg.norm(_proj(A, 1) - _proj(A + W, 1), "fro") * 1.0 / np.linalg.norm(W, 2)
    assert ratio > 0.7 > 0.5
    W = np.diag([-0.6, 0.6])
    assert np.linalg.norm(_proj(A, 1) - _proj(A + W, 1), "fro") > 2 * np.linalg.norm(W, 2) / 1.0 + 0.2


test_davis_kahan_theorems_compile_with_classical_reals_only, test_davis_kahan_mutant_is_rejected, test_more_davis_kahan_mutants_are_rejected = \
    coq_file_tests(FILE, THEOREMS, MUTANTS, SLOW_MUTANTS)


@needs_coq
def test_lemma_3_is_kernel_checked():
    from dpverify.symbolic.coq import apply_kernel_checks

    rep = J.lemma_3()
    assert rep.conclusion.verdict is ProofVerdict.TESTED, rep.conclusion.evidence  # without Coq: sampled, core proved
    (out,) = apply_kernel_checks([rep])
    assert out.conclusion.verdict is ProofVerdict.KERNEL_CHECKED, out.conclusion.evidence
    assert "jiang_davis_kahan_spectral" in out.conclusion.evidence and "operator norm" in out.conclusion.evidence
    assert out.conclusion.premises == ()  # the spectral theorem is proved (Spectral.v)


@needs_coq
@pytest.mark.slow
def test_theorem_6_is_kernel_checked():
    from dpverify.symbolic.coq import apply_kernel_checks

    rep = J.theorem_6()
    assert rep.conclusion.verdict is ProofVerdict.TESTED, rep.conclusion.evidence  # without Coq: searched, core proved
    (out,) = apply_kernel_checks([rep])
    assert out.conclusion.verdict is ProofVerdict.KERNEL_CHECKED, out.conclusion.evidence
    assert "jiang_theorem_6" in out.conclusion.evidence
    assert out.steps.verdict is ProofVerdict.REFUTED  # the paper's sqrt(k) step stays refuted


def test_core_statements_and_their_mutants():
    st = J.davis_kahan_core_statement()
    assert st.check().verdict is ProofVerdict.PROVED
    for c in (0.9, 0):  # a smaller constant than 1 is false (the slack v = 0 is attained)
        r = replace(st, constants={"c_dk": c}).check()
        assert r.verdict is ProofVerdict.REFUTED and r.counterexample, (c, r.evidence)
    st = J.theorem_6_core_statement()
    assert st.check().verdict is ProofVerdict.PROVED
    for c in (1.3, 0):  # the route proves every c_t6 >= sqrt(2); below it the core is false
        r = replace(st, constants={"c_t6": c}).check()
        assert r.verdict is ProofVerdict.REFUTED and r.counterexample, (c, r.evidence)
