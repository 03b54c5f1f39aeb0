"""The showkatbakhsh-regression Coq theorems for Lemma 3 (26) (proofs/coq/ShowkatbakhshWedin.v): they compile with the
classical reals only, they decide the claim (kernel-checked), false variants of their statements are rejected by coqc
with the same proof script, and the scalar core in statements() is proved while its false mutants are refuted.
Deterministic (no sampling beyond seeded searches)."""
from __future__ import annotations

import importlib
from dataclasses import replace

import numpy as np
import pytest
import sympy as sp

from dpverify.symbolic import ProofVerdict, coq

from _coq_checks import coq_file_tests, needs_coq

SK = importlib.import_module("dpverify_proofs.showkatbakhsh_regression")

FILE = "ShowkatbakhshWedin.v"
THEOREMS = ("cauchy_schwarz_sq", "wedin_error_bound", "wedin_relative_error")

# (theorem, old, new, why the mutated statement is false); the witness is PURE_RESIDUAL below
MUTANTS = [
    ("wedin_relative_error", "(S / s + nrm", "(nrm",
     "kappa dropped from (kappa + r): with X theta* = 0 (r = 0) the bound says ||X theta_AN - y|| <= ||y||, false"),
]
SLOW_MUTANTS = [
    ("wedin_error_bound", "s * nrm n (fun i => mv n d X th i - y i)", "(s - e) * nrm n (fun i => mv n d X th i - y i)",
     "the same instance with theta* = 0: (s - e) ||X theta_AN - y|| > (s - e) ||y||"),
    ("wedin_error_bound",
     "  (forall j, (j < d)%nat ->\n     tmv n d (fun a b => X a b + E a b) (fun i => mv n d (fun a b => X a b + E a b) th_an i - y i) j = 0) ->\n"
     "  (s - e) * nrm n (fun i => mv n d X th_an i - y i)",
     "  (s - e) * nrm n (fun i => mv n d X th_an i - y i)",
     "without the noisy normal equations theta_AN is any vector and the error is unbounded"),
]


test_wedin_theorems_compile_with_classical_reals_only, test_wedin_mutant_is_rejected, test_more_wedin_mutants_are_rejected = \
    coq_file_tests(FILE, THEOREMS, MUTANTS, SLOW_MUTANTS)


def test_pure_residual_instance_of_the_mutants():
    """n = 2, d = 1, X = (1, 0)^T (s = S = 1), E = (0, x)^T (e = x), y = (0, 1) orthogonal to range(X): theta* = 0,
    r = 0, and ||X theta_AN - y||^2 = 1 + (x/(1 + x^2))^2 > ||y||^2, so both mutants are false; (26) holds."""
    x = 0.5
    X, E, y = np.array([[1.0], [0.0]]), np.array([[0.0], [x]]), np.array([0.0, 1.0])
    th_an = np.linalg.lstsq(X + E, y, rcond=None)[0]
    F = np.linalg.norm(X @ th_an - y)
    assert F == pytest.approx(np.sqrt(1 + (x / (1 + x**2)) ** 2), rel=1e-12)
    assert F > np.linalg.norm(y) * (1 + 1e-3)  # the mutants' bound (1 - e/s cancels with theta* = 0)
    kd, kappa = x / 1.0, 1.0
    assert F / np.linalg.norm(y) <= 1 + kd / (1 - kd) * (kappa + 0.0)  # (26) itself


def test_manifest_decides_the_claim():
    entries = [e for e in coq.MANIFEST if e.file == FILE]
    assert [(e.claim_id, e.theorem, e.coverage) for e in entries] == \
        [("showkatbakhsh-regression/lemma-3", "wedin_relative_error", coq.Coverage.CLAIM)]
    assert "Rayleigh definitions" in entries[0].statement
    assert FILE in (coq.coq_dir() / "_CoqProject").read_text().split()


@needs_coq
def test_lemma_3_is_kernel_checked():
    rep = SK.lemma_3()
    assert rep.conclusion.verdict is ProofVerdict.TESTED  # without Coq: the sampled check, the core proved
    (out,) = coq.apply_kernel_checks([rep])
    assert out.conclusion.verdict is ProofVerdict.KERNEL_CHECKED, out.conclusion.evidence
    assert "wedin_relative_error" in out.conclusion.evidence


def test_wedin_core_statement_and_its_mutants():
    st = SK.wedin_core_statement()
    assert SK.statements()["showkatbakhsh-regression/lemma-3"].constants == {"c_wedin": 1}
    assert st.check().verdict is ProofVerdict.PROVED
    for c in (sp.Rational(9, 10), sp.Rational(1, 2)):
        r = replace(st, constants={"c_wedin": c}).check()
        assert r.verdict is ProofVerdict.REFUTED and r.counterexample, (c, r.evidence)
    # dropping kappa from (kappa + r) (the first Coq mutant) is refuted by the same search
    s_, a, k, t, w, R = st.symbols
    e, S = s_ * k / (1 + k), s_ + t
    F = (s_ * a + e * R - w) / (s_ - e)
    no_kappa = replace(st, constants={}, conclusion=sp.Le(F / a, 1 + (e / s_) / (1 - e / s_) * (R / a), evaluate=False))
    assert no_kappa.check().verdict is ProofVerdict.REFUTED
