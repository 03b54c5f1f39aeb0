"""zhou-compression Proposition 3.4 (Zwald-Blanchard) for every finite p: the Coq theorem of proofs/coq/ZhouSubspace.v
(classical reals only; false variants of its statements rejected by coqc with the same proof script), the encoded
sympy statement (proved; its adversaries are not), and the sampled cross-check. Deterministic (seeded searches)."""
from __future__ import annotations

import importlib

import numpy as np
import sympy as sp
from dataclasses import replace

from dpverify.symbolic import ProofVerdict, coq

from _coq_checks import coq_file_tests

Z = importlib.import_module("dpverify_proofs.zhou_compression")

FILE = "ZhouSubspace.v"
THEOREMS = ("key_trace_gap", "zhou_prop_3_4")
_DELTA = "((lam (D - 1)%nat - lam D) / 2) * ((lam (D - 1)%nat - lam D) / 2)"

# (theorem, old, new, why the mutated statement is false); the witness is SHARP below
MUTANTS = [
    ("zhou_prop_3_4", _DELTA, _DELTA.replace("/ 2)", "* 11 / 20)"),
     "p = 2, D = 1, A = diag(1, -1), A + B = 0 with V the swapped axes: delta_D^2 F = 2 = ||B||_F^2, x 1.21 > 2"),
]
SLOW_MUTANTS = [
    ("key_trace_gap", "(m - m') * fro2", "(m - m') * 2 * fro2",
     "A = diag(1, -1), V the swapped axes, m = 1, m' = -1: <A, P_U - P_V> = 2 = (m - m') F / 2 with F = 2"),
    ("zhou_prop_3_4", "(forall i j, (i <= j)%nat -> (j < p)%nat -> mu j <= mu i) ->\n", "",
     "B = 0, V the swapped axes with mu = (-1, 1) (not nonincreasing): P_V is the wrong projector, F = 2 > 0"),
]


test_subspace_theorems_compile_with_classical_reals_only, test_subspace_mutant_is_rejected, test_more_subspace_mutants_are_rejected = \
    coq_file_tests(FILE, THEOREMS, MUTANTS, SLOW_MUTANTS)


def _proj_top(M, D):
    w, V = np.linalg.eigh(M)
    return V[:, -D:] @ V[:, -D:].T


def test_the_constant_is_sharp_without_the_hypothesis():
    """The witness of the mutants: A = diag(1, -1), A + B = 0 (every unit vector is a top eigenvector of 0; take e_2):
    ||P_D(A) - P_D(A + B)||_F^2 delta_D^2 = 2 = ||B||_F^2, exactly; the paper's ||B||_F <= delta_D/2 excludes it."""
    A = sp.diag(1, -1)
    B = -A
    P, Ph = sp.diag(1, 0), sp.diag(0, 1)
    delta = sp.Rational(1, 2) * (1 - (-1))
    F = sum(x**2 for x in (P - Ph))
    assert delta**2 * F == sum(x**2 for x in B) == 2
    assert (sp.Rational(11, 10) * delta) ** 2 * F > sum(x**2 for x in B)
    # numerically close to it: A + B = eps diag(-1, 1), a unique top eigenvector e_2
    eps = 1e-6
    Af, Bf = np.diag([1.0, -1.0]), np.diag([-1.0 - eps, 1.0 + eps])
    ratio = np.linalg.norm(_proj_top(Af, 1) - _proj_top(Af + Bf, 1)) * 1.0 / np.linalg.norm(Bf)
    assert 0.999 < ratio <= 1


def test_manifest_decides_the_claim():
    entries = [e for e in coq.MANIFEST if e.file == FILE]
    assert [(e.claim_id, e.theorem, e.coverage) for e in entries] == \
        [("zhou-compression/proposition-3.4", "zhou_prop_3_4", coq.Coverage.CLAIM)]
    assert "spectral theorem" in entries[0].statement and "every finite dimension p" in entries[0].statement
    assert FILE in (coq.coq_dir() / "_CoqProject").read_text().split()


# ---------------------------------------------------------------- the sympy side
def test_statement_is_proved_and_in_the_campaign():
    st = Z.subspace_statement()
    assert st.check().verdict is ProofVerdict.PROVED
    assert Z.statements()["zhou-compression/proposition-3.4"].constants == {"c_delta": sp.Rational(1, 2)}


def test_subspace_adversaries_are_not_proved():
    st = Z.subspace_statement()
    # delta_D = lambda_D - lambda_D+1 (no 1/2): false, refuted by the search
    assert replace(st, constants={"c_delta": 1}).check().verdict is ProofVerdict.REFUTED
    # 11/20: false (the witness above): refuted
    assert replace(st, constants={"c_delta": sp.Rational(11, 20)}).check().verdict is ProofVerdict.REFUTED
    # without the trace-gap and AM-GM steps nothing bounds F
    assert replace(st, hypotheses=()).check().verdict is ProofVerdict.REFUTED


def test_sampled_check_detects_a_smaller_constant():
    rep = Z.proposition_3_4()
    assert rep.conclusion.verdict in (ProofVerdict.TESTED, ProofVerdict.KERNEL_CHECKED)
    # factor 0.5: the pairs without the paper's hypothesis reach lhs/rhs ~0.6 > 0.5, so the ratio check fails
    assert Z.proposition_3_4.__wrapped__(factor=0.5).conclusion.verdict is ProofVerdict.UNKNOWN
