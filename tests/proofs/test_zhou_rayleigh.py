"""zhou-compression Lemma 3.3 and Proposition 3.1 under the Rayleigh definitions of lambda_min and ||.||_2: the Coq
theorems of proofs/coq/ZhouRayleigh.v (classical reals only; false variants of their statements rejected by coqc with
the same proof script) and the encoded sympy statements (proved; their adversaries are not). Deterministic (no
sampling beyond the seeded counterexample searches of the lemmas)."""
from __future__ import annotations

import importlib

import numpy as np
import pytest
import sympy as sp
from dataclasses import replace

from dpverify.symbolic import ProofVerdict, coq

from _coq_checks import assert_compiles_classically, assert_mutant_rejected, needs_coq
from dpverify.symbolic.strategies.algebraic import reparam

Z = importlib.import_module("dpverify_proofs.zhou_compression")

FILE = "ZhouRayleigh.v"
THEOREMS = ("zhou_lemma_3_3", "zhou_lemma_3_3_lmin", "zhou_prop_3_1_inverse", "zhou_prop_3_1")

# (theorem, old, new, why the mutated statement is false)
MUTANTS = [
    ("zhou_lemma_3_3", "(l1 - d) * sq p x.", "(l1 - d / 2) * sq p x.",
     "p = 1, Sigma_1 = l1, Delta = d > 0: x^T (Sigma_1 - Delta) x = (l1 - d) x^2 < (l1 - d/2) x^2"),
    ("zhou_prop_3_1_inverse", "((l1 * lj) * (l1 * lj))", "((l1 * lj) * (l1 * lj) * 2)",
     "p = 1, Sigma_1 = 2, Sigma_j = 1, l's = the entries: Gamma^2 (l1 lj)^2 = 1/4 * 4 = 1 = Delta^2, doubled 2 > 1"),
]


@needs_coq
def test_rayleigh_theorems_compile_with_classical_reals_only():
    assert_compiles_classically(FILE, THEOREMS)


@needs_coq
@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: f"{m[0]}:{m[3][:30]}")
def test_rayleigh_mutant_is_rejected(mutant):
    assert_mutant_rejected(FILE, *mutant)


def test_prop_3_1_doubled_mutant_is_false_at_p_1():
    """The witness of the second mutant: p = 1, Sigma_1 = 2, Sigma_j = 1 makes (8) an equality."""
    s1, sj = sp.Integer(2), sp.Integer(1)
    gamma, delta = 1 / sj - 1 / s1, s1 - sj
    assert gamma**2 * (s1 * sj) ** 2 == delta**2
    assert 2 * gamma**2 * (s1 * sj) ** 2 > delta**2


def test_manifest_decides_the_two_claims():
    entries = {e.theorem: e for e in coq.MANIFEST if e.file == FILE}
    assert set(entries) == {"zhou_lemma_3_3_lmin", "zhou_prop_3_1"}
    assert all(e.coverage is coq.Coverage.CLAIM for e in entries.values())
    assert {e.claim_id for e in entries.values()} == {"zhou-compression/lemma-3.3", "zhou-compression/proposition-3.1"}
    assert all("Rayleigh definitions" in e.statement for e in entries.values())
    assert "ZhouRayleigh.v" in (coq.coq_dir() / "_CoqProject").read_text().split()


# ---------------------------------------------------------------- the sympy side
def test_statements_are_proved_for_every_p():
    for st in (Z.lemma_3_3_statement(), Z.inverse_difference_statement()):
        assert st.check().verdict is ProofVerdict.PROVED, st.id
    for step in (Z.quadratic_form_linearity(), Z.inverse_identity(), Z.amgm_identity(), Z.entry_frobenius_step()):
        assert step.verdict is ProofVerdict.PROVED, step.evidence
    assert "symbolic" in Z.entry_frobenius_step().evidence


def test_lemma_3_3_adversaries_are_not_proved():
    st = Z.lemma_3_3_statement()
    q1, qd, s, l1, d = st.symbols
    half = replace(st, conclusion=sp.Ge(q1 - qd, (l1 - d / 2) * s))  # half the perturbation: false
    assert half.check().verdict is ProofVerdict.REFUTED
    no_bound = replace(st, hypotheses=st.hypotheses[:1])  # no bound on Delta
    assert no_bound.check().verdict not in (ProofVerdict.PROVED, ProofVerdict.CERTIFIED)


def test_prop_3_1_adversaries_are_not_proved():
    st = Z.inverse_difference_statement()
    g2, n2, d2, l1, lj = st.symbols[:5]
    squared_once = replace(st, conclusion=sp.Le(g2 * (l1 * lj) ** 3, d2))  # (l1 lj)^3: false for l's > 1
    assert squared_once.check().verdict not in (ProofVerdict.PROVED, ProofVerdict.CERTIFIED)
    no_amgm = replace(st, hypotheses=st.hypotheses[:3])  # the columns' AM-GM bound dropped
    assert no_amgm.check().verdict not in (ProofVerdict.PROVED, ProofVerdict.CERTIFIED)


def test_prop_3_1_bound_is_tight_and_holds_on_matrices():
    """Numeric sanity of the statement on matrices (numpy): ||Gamma||_F l_1 l_j <= ||Delta||_F with l = lambda_min,
    equality at p = 1; a random sample of symmetric positive definite pairs (seeded, deterministic)."""
    rng = np.random.default_rng(31)
    worst = 0.0
    for _ in range(200):
        p = int(rng.integers(1, 6))
        G = rng.normal(size=(p, p)); S1 = G @ G.T + 0.1 * np.eye(p)
        H = rng.normal(size=(p, p)); Sj = H @ H.T + 0.1 * np.eye(p)
        gam = np.linalg.inv(Sj) - np.linalg.inv(S1)
        lhs = np.linalg.norm(gam, "fro") * np.linalg.eigvalsh(S1)[0] * np.linalg.eigvalsh(Sj)[0]
        worst = max(worst, lhs / np.linalg.norm(S1 - Sj, "fro"))
    assert worst <= 1 + 1e-9


def test_claims_carry_the_rayleigh_reading():
    for rep in (Z.lemma_3_3(), Z.proposition_3_1()):
        assert rep.conclusion.verdict is ProofVerdict.PROVED, rep.conclusion.evidence
        assert any("Rayleigh definitions" in n for n in rep.notes), rep.id
    assert "Rayleigh definitions" in Z.lemma_3_3().conclusion.evidence


# ---------------------------------------------------------------- the REPARAM rule the statements use
def test_reparam_entries_in_turn_each_with_its_own_fresh_symbol():
    from dpverify.symbolic import Lemma, Strategy

    x, y = sp.symbols("x y", real=True)
    t, u = sp.symbols("t u", nonnegative=True)
    hyps = (sp.Ge(x, 0), sp.Ge(y, x))
    # in turn: x = t, then y = x + u (uses the earlier x): covers {x >= 0, y >= x} exactly; y >= 0 follows
    ok = Lemma(id="t/seq", source="test", statement="", symbols=(x, y), hypotheses=hyps, conclusion=sp.Ge(y, 0),
               strategy=Strategy.REPARAM, reparam={x: t, y: x + u})
    # (x appears only in the hypotheses: the counterexample search gives it no value, and a point where a hypothesis
    # cannot be evaluated is skipped; before, y = -1 was reported as a counterexample of this true statement)
    assert ok.check().verdict is ProofVerdict.PROVED
    # the adversary: one fresh symbol shared by two entries covers only the diagonal x = y (here the false y <= x
    # would follow); the rule refuses it (the method itself, not the counterexample search, is tested)
    shared = replace(ok, conclusion=sp.Le(y, x), reparam={x: t, y: x + t})
    assert isinstance(reparam(shared), str)
    # an entry that uses a symbol substituted after it is refused
    later = replace(ok, reparam={y: x + u, x: t})
    assert isinstance(reparam(later), str)
