"""zhou-compression Proposition C.1 and Lemma C.2 for every p: the Coq theorems of proofs/coq/ZhouLogDet.v (classical
reals only; false variants of their statements rejected by coqc with the same proof script), the encoded sympy
statements (proved; their adversaries are not), the claims' verdicts (kernel-checked with coqc, tested without), and
numeric checks that the Coq statement's objects are the paper's (A as the integral of the Kronecker double sum equals
sum_k (d_k - ln(1 + d_k)) and ln|Sigma_2| - ln|Sigma_1| + tr(Gamma Sigma_1)). Deterministic (seeded draws, no
statistical test)."""
from __future__ import annotations

import importlib
from dataclasses import replace

import mpmath
import numpy as np
import sympy as sp

from dpverify.symbolic import ProofVerdict, coq

from _coq_checks import coq_file_tests, needs_coq

Z = importlib.import_module("dpverify_proofs.zhou_compression")

FILE = "ZhouLogDet.v"
THEOREMS = ("zhou_prop_c_1", "zhou_prop_c_1_explicit", "zhou_c1_c2", "zhou_lemma_c_2_lower", "zhou_lemma_c_2",
            "scalar_integral", "scalar_upper")
_UP = "(2 * ((1 - s * g) * (1 - s * g)))"
_LO = "(2 * ((1 + l * g) * (1 + l * g)))"

# (theorem, old, new, why the mutated statement is false); witnesses at p = 1, Theta_1 = Sigma_1 = 1, Gamma = d
# (M = Mi = 1, l = s = 1, g = |d|), checked numerically in test_mutant_witnesses_are_false
MUTANTS = [
    ("zhou_prop_c_1", "(fun v => (1 - v) * kronsum", "(fun v => (1 + v) * kronsum",
     "weight 1 + v: p = 1, d = 1: -ln 2 != int_0^1 (1 + v)/(1 + v)^2 dv - 1 = ln 2 - 1"),
]
SLOW_MUTANTS = [
    ("zhou_lemma_c_2", _UP, _UP.replace("(2 *", "(4 *"),
     "upper bound halved: p = 1, d = 1/10: A = d - ln(1 + d) = 0.00469 > d^2/(4 (1 - d)^2) = 0.00309"),
    ("zhou_prop_c_1", "- sumn p (fun i => mul p", "- 2 * sumn p (fun i => mul p",
     "tr(Gamma Sigma_1) doubled: p = 1, d = 1: -ln 2 != (1 - ln 2) - 2"),
    ("zhou_lemma_c_2", _LO, _LO.replace("(2 * ", "("),
     "lower bound doubled: p = 1, d = 1/10: d^2/(1 + d)^2 = 0.00826 > A = 0.00469"),
    ("zhou_c1_c2", "(2 * ((1 - s * g) * (1 - s * g)))", "(4 * ((1 - s * g) * (1 - s * g)))",
     "the exported upper bound halved: the witness of the zhou_lemma_c_2 mutant"),
    ("scalar_upper", "d * d / (2 * ((1 - c) * (1 - c)))", "d * d / (4 * ((1 - c) * (1 - c)))",
     "d = c = 1/10: d - ln(1 + d) = 0.00469 > 0.00309"),
]

test_logdet_compiles_with_classical_reals_only, test_logdet_mutant_is_rejected, test_more_logdet_mutants_are_rejected = \
    coq_file_tests(FILE, THEOREMS, MUTANTS, SLOW_MUTANTS)


def test_mutant_witnesses_are_false():
    """The witnesses of the mutants at p = 1 (Theta_1 = 1, Gamma = d), at 30 digits."""
    with mpmath.workdps(30):
        d = mpmath.mpf(1)
        lhs = -mpmath.log(1 + d)
        assert abs(lhs - (mpmath.quad(lambda v: (1 + v) * d**2 / (1 + v * d) ** 2, [0, 1]) - d)) > 0.3
        assert abs(lhs - ((d - mpmath.log(1 + d)) - 2 * d)) > 0.9
        d = mpmath.mpf(1) / 10
        A = d - mpmath.log(1 + d)
        assert abs(A - mpmath.quad(lambda v: (1 - v) * d**2 / (1 + v * d) ** 2, [0, 1])) < mpmath.mpf(10) ** -25
        assert A > d**2 / (4 * (1 - d) ** 2)  # the halved upper bound fails (F = d^2, s = 1, g = d)
        assert d**2 / (1 + d) ** 2 > A  # the doubled lower bound fails (l = 1)
        assert d**2 / (2 * (1 + d) ** 2) <= A <= d**2 / (2 * (1 - d) ** 2)  # the true bounds hold


def test_manifest_decides_both_claims():
    entries = {e.theorem: e for e in coq.MANIFEST if e.file == FILE}
    assert set(entries) == {"zhou_prop_c_1", "zhou_lemma_c_2"}
    assert all(e.coverage is coq.Coverage.CLAIM for e in entries.values())
    assert entries["zhou_prop_c_1"].claim_id == "zhou-compression/proposition-c.1"
    assert entries["zhou_lemma_c_2"].claim_id == "zhou-compression/lemma-c.2"
    assert "Rayleigh definitions" in entries["zhou_lemma_c_2"].statement
    assert "2 (1 - ||Sigma_1||_2 ||Gamma||_2)^2" in entries["zhou_lemma_c_2"].statement
    assert "det(AB) = det A det B" in entries["zhou_prop_c_1"].statement  # the determinant's properties, hypotheses
    assert "congruence diagonalisation" in entries["zhou_prop_c_1"].statement
    assert "det by its properties" in entries["zhou_lemma_c_2"].statement
    assert FILE in (coq.coq_dir() / "_CoqProject").read_text().split()


# ---------------------------------------------------------------- the sympy side
def test_statements_are_proved_and_in_the_campaign():
    st = Z.statements()  # the campaign's input (one statement per claim: C.2's upper bound, the '2 - o(1)' reading)
    assert st["zhou-compression/proposition-c.1"].id == Z.logdet_statement().id
    assert st["zhou-compression/lemma-c.2"].id == Z.c2_upper_statement().id
    for fn in (Z.logdet_statement, Z.c2_upper_statement, Z.c2_lower_statement):
        assert fn().check().verdict is ProofVerdict.PROVED, fn.__name__


def test_statement_adversaries_are_not_proved():
    weak = (ProofVerdict.PROVED, ProofVerdict.CERTIFIED)
    c1 = Z.logdet_statement()
    assert replace(c1, constants={"c_tr": sp.Rational(11, 10)}).check().verdict is ProofVerdict.REFUTED
    up = Z.c2_upper_statement()
    assert replace(up, constants={"c_two": sp.Rational(22, 10)}).check().verdict not in weak
    assert replace(up, hypotheses=up.hypotheses[:1]).check().verdict not in weak  # sum d_k^2 <= s^2 F dropped
    lo = Z.c2_lower_statement()
    assert replace(lo, constants={"c_two": sp.Rational(18, 10)}).check().verdict not in weak
    assert replace(lo, hypotheses=lo.hypotheses[1:]).check().verdict not in weak  # the lambda_max step dropped


def test_claims_without_coq_are_tested(monkeypatch):
    monkeypatch.setenv("DPVERIFY_COQC", "")
    reps = coq.apply_kernel_checks([Z.proposition_c_1(), Z.lemma_c_2()])
    for r in reps:
        assert r.conclusion.verdict is ProofVerdict.TESTED, (r.id, r.conclusion.evidence)
        assert "Coq not available" in r.conclusion.evidence
    assert any("2 (1 - ||Sigma_1||_2 ||Gamma||_2)^2" in n for n in reps[1].notes)
    assert any("fails at p = 1" in n for n in reps[1].notes)  # the o(1) = 0 reading, computed


@needs_coq
def test_claims_are_kernel_checked_with_coq():
    reps = coq.apply_kernel_checks([Z.proposition_c_1(), Z.lemma_c_2()])
    for r, thm in zip(reps, ("zhou_prop_c_1", "zhou_lemma_c_2")):
        assert r.conclusion.verdict is ProofVerdict.KERNEL_CHECKED, (r.id, r.conclusion.evidence)
        # with mathcomp-algebra the real-determinant theorem (zhou_prop_c_1_det, ...) decides, resting also on
        # Hilbert's epsilon (tests/proofs/test_coq_zhou_det_mathcomp.py); without it, this file's theorem
        ev = r.conclusion.evidence
        assert thm in ev and ("classical reals only" in ev or "Hilbert's epsilon" in ev), ev


# ---------------------------------------------------------------- the Coq statement's objects are the paper's
def test_coq_objects_match_the_paper_numerically():
    """For random (Sigma_1, Sigma_2) (p = 2..4): the Kronecker double sum sum_ijkl G_ij B_ik B_jl G_kl is
    vec(G)^T (B (x) B) vec(G) (numpy's kron, column-stacking vec), A by quadrature of it equals
    sum_k (d_k - ln(1 + d_k)) over the eigenvalues d_k of L^-1 Gamma L^-1 (L L = Theta_1, as zhou_c1_c2 states) and
    ln|Sigma_2| - ln|Sigma_1| + tr(Gamma Sigma_1) (Proposition C.1, _A_exact)."""
    rng = np.random.default_rng(7)
    for _ in range(3):
        p = int(rng.integers(2, 5))
        X = rng.normal(size=(p, p)); S1 = X @ X.T / p + 0.4 * np.eye(p)
        Y = rng.normal(size=(p, p)); S2 = Y @ Y.T / p + 0.4 * np.eye(p)
        T1 = np.linalg.inv(S1); G = np.linalg.inv(S2) - T1
        B = np.linalg.inv(T1 + 0.3 * G)
        vec = G.reshape(-1, order="F")
        kron = vec @ np.kron(B, B) @ vec
        dsum = np.einsum("ij,ik,jl,kl->", G, B, B, G)
        assert abs(kron - dsum) < 1e-9 * max(1.0, abs(kron))
        w, V = np.linalg.eigh(T1); L = V @ np.diag(np.sqrt(w)) @ V.T; Li = np.linalg.inv(L)
        d = np.linalg.eigvalsh(Li @ G @ Li)
        explicit = float(np.sum(d - np.log1p(d)))
        quad = float(Z._c1_integral(T1, G))
        A, _ = Z._A_exact(S1, S2)
        assert abs(quad - explicit) < 1e-9 * max(1.0, explicit)
        assert abs(A - explicit) < 1e-9 * max(1.0, explicit)
        assert explicit >= 0
