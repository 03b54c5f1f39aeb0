"""The showkatbakhsh-regression Coq theorem for Lemma 4 (31) (proofs/coq/ShowkatbakhshRidge.v): it compiles with the
classical reals only, it decides the claim (kernel-checked), and false variants of its statement are rejected by coqc
with the same proof script. Deterministic (no sampling)."""
from __future__ import annotations

import importlib

import pytest

from dpverify.symbolic import ProofVerdict

from _coq_checks import coq_file_tests, needs_coq

SK = importlib.import_module("dpverify_proofs.showkatbakhsh_regression")

FILE = "ShowkatbakhshRidge.v"
THEOREMS = ("ridge_error_bound", "ridge_relative_error")

# (theorem, old, new, why the mutated statement is false)
MUTANTS = [
    ("ridge_error_bound", "lam / (s + lam)", "lam / (2 * s + lam)",
     "n = 2, d = 1, X = (a, 0), y = (y1, 0): X theta* = y, the error is lam |y1|/(a^2 + lam), exactly the bound with "
     "s = a^2, so a smaller factor fails"),
]
SLOW_MUTANTS = [
    ("ridge_error_bound", "(forall x, s * dot d x x <= dot n (mv n d X x) (mv n d X x)) ->\n", "",
     "without the Rayleigh bound s is arbitrary: s -> infinity makes the bound ||X theta* - y|| alone"),
    ("ridge_relative_error", "1 + lam / (s + lam) *", "1 + lam / (s + lam) / 2 *",
     "the same tight instance as the first mutant"),
]


test_ridge_theorems_compile_with_classical_reals_only, test_ridge_mutant_is_rejected, test_more_ridge_mutants_are_rejected = \
    coq_file_tests(FILE, THEOREMS, MUTANTS, SLOW_MUTANTS, compile_slow=False)


def test_tight_instance_of_the_first_mutant():
    """The instance named by the first mutant: the bound (31) holds with equality, so a smaller factor is false."""
    import numpy as np

    a, y1, lam = 1.3, 0.7, 0.4
    X, y = np.array([[a], [0.0]]), np.array([y1, 0.0])
    th_rr = np.linalg.solve(X.T @ X + lam * np.eye(1), X.T @ y)
    err = np.linalg.norm(X @ th_rr - y)
    assert err == pytest.approx(lam / (a * a + lam) * y1, rel=1e-12)
    assert err > lam / (2 * a * a + lam) * y1


@needs_coq
def test_lemma_4_is_kernel_checked():
    from dpverify.symbolic.coq import apply_kernel_checks

    rep = SK.lemma_4()
    assert rep.conclusion.verdict is ProofVerdict.TESTED  # without Coq: the sampled check, the core proved
    (out,) = apply_kernel_checks([rep])
    assert out.conclusion.verdict is ProofVerdict.KERNEL_CHECKED, out.conclusion.evidence
    assert "ridge_relative_error" in out.conclusion.evidence


def test_ridge_core_statement_and_its_mutants():
    from dataclasses import replace

    st = SK.ridge_core_statement()
    assert st.check().verdict is ProofVerdict.PROVED
    for c in (0.9, 0.5):
        r = replace(st, constants={"c_ridge": c}).check()
        assert r.verdict is ProofVerdict.REFUTED and r.counterexample, (c, r.evidence)
