"""The spectral theorem in Coq (proofs/coq/Spectral.v) and the claims it makes unconditional (JiangSpectral.v,
ZhouSpectral.v, ShowkatSpectral.v, ZhouSpectralMC.v): the files compile with the classical reals only, false variants
of the statements are rejected by coqc with the same proof script, the claims become ``kernel-checked`` with no premise,
and a tree whose spectral theorem is only admitted gives them back their premises. Deterministic.

Why each mutant is false (checked with numpy in ``test_mutant_witnesses_are_false``):
- spectral_exists without symmetry (the hypothesis made trivially true): A = [[0, 1], [0, 0]] has no orthonormal
  eigendecomposition (A = Q diag(lam) Q^T would be symmetric);
- spectral_exists with every eigenvalue >= 0: A = -I (d = 1: A = (-1)) has the eigenvalue -1;
- zhou_lemma_3_3_spectral with ||Delta||_2 halved: p = 1, Sigma_1 = (0), Delta = (1): lambda_min(-1) = -1 < -1/2;
- jiang_weyl_spectral with the upper bound nu_i + rho_d: d = 2, H = 0, P = diag(1, 0): mu_1 = 1 > 0 + 0.
"""
from __future__ import annotations

import importlib

import numpy as np
import pytest

from dpverify.symbolic import ProofVerdict, coq

from _coq_checks import assert_compiles_classically, assert_mutant_rejected, needs_coq

J = importlib.import_module("dpverify_proofs.jiang_wishart")
Z = importlib.import_module("dpverify_proofs.zhou_compression")
S = importlib.import_module("dpverify_proofs.showkatbakhsh_regression")

FILES = {
    "Spectral.v": ("spectral_exists",),
    "JiangSpectral.v": ("jiang_theorem_6_spectral", "jiang_davis_kahan_spectral", "jiang_weyl_spectral"),
    "ZhouSpectral.v": ("zhou_lemma_3_3_spectral", "zhou_prop_3_1_spectral", "zhou_prop_3_4_spectral"),
    "ShowkatSpectral.v": ("wedin_relative_error_spectral", "ridge_relative_error_spectral"),
}

# (file, theorem, old, new, why the mutated statement is false)
MUTANTS = [
    ("Spectral.v", "spectral_exists", "A a b = A b a) ->", "A a b = A a b) ->",
     "A = [[0, 1], [0, 0]] is not symmetric and has no orthonormal eigendecomposition"),
    ("Spectral.v", "spectral_exists", "orth_eig d A V lam.",
     "orth_eig d A V lam /\\ (forall j, (j < d)%nat -> 0 <= lam j).", "A = (-1) has the eigenvalue -1"),
    ("ZhouSpectral.v", "zhou_lemma_3_3_spectral", "- Rmax (Rabs (dl 0%nat)) (Rabs (dl (p - 1)%nat))).",
     "- Rmax (Rabs (dl 0%nat)) (Rabs (dl (p - 1)%nat)) / 2).", "Sigma_1 = (0), Delta = (1): -1 < -1/2"),
    ("JiangSpectral.v", "jiang_weyl_spectral", "mu i <= nu i + rho 0%nat).", "mu i <= nu i + rho (d - 1)%nat).",
     "H = 0, P = diag(1, 0): mu_1 = 1 > 0"),
]


@needs_coq
@pytest.mark.parametrize("file", sorted(FILES))
def test_compiles_with_classical_reals_only(file):
    assert_compiles_classically(file, FILES[file])


@needs_coq
@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: f"{m[1]}:{m[4][:30]}")
def test_mutant_is_rejected(mutant):
    assert_mutant_rejected(*mutant)


def test_mutant_witnesses_are_false():
    a = np.array([[0.0, 1.0], [0.0, 0.0]])
    assert not np.allclose(a, a.T)  # any Q diag(lam) Q^T is symmetric
    assert np.linalg.eigvalsh(np.array([[-1.0]]))[0] < 0
    s1, dl = np.array([[0.0]]), np.array([[1.0]])
    assert np.linalg.eigvalsh(s1 - dl).min() < np.linalg.eigvalsh(s1).min() - np.abs(np.linalg.eigvalsh(dl)).max() / 2
    h, p = np.zeros((2, 2)), np.diag([1.0, 0.0])
    mu, nu, rho = (np.sort(np.linalg.eigvalsh(x))[::-1] for x in (h + p, h, p))
    assert mu[0] > nu[0] + rho[-1]


@needs_coq
def test_the_matrix_claims_are_kernel_checked_without_premises():
    reps = coq.apply_kernel_checks([J.lemma_3(), J.lemma_4(), J.theorem_6(), Z.lemma_3_3(), Z.proposition_3_1(),
                                    Z.proposition_3_4(), S.lemma_3(), S.lemma_4()])
    for r in reps:
        c = r.conclusion
        assert c.verdict is ProofVerdict.KERNEL_CHECKED and c.premises == (), (r.id, c.evidence[:400])
        assert "_spectral" in c.evidence and r.strength_label == "kernel-checked"


@needs_coq
def test_an_admitted_spectral_theorem_gives_the_premises_back():
    """The adversary: Spectral.v with the same statement but its proof admitted. Print Assumptions then shows
    spectral_exists as an axiom, the new theorems are refused, and the claims keep the older theorems' verdicts,
    which name the spectral theorem / Rayleigh-Ritz as premises."""
    src = (coq.coq_dir() / "Spectral.v").read_text()
    head = src[: src.index("Theorem spectral_exists")]
    stub = head + ("Theorem spectral_exists : forall (d : nat) (A : nat -> nat -> R),\n"
                   "  (forall a b, (a < d)%nat -> (b < d)%nat -> A a b = A b a) ->\n"
                   "  exists (V : nat -> nat -> R) (lam : nat -> R), orth_eig d A V lam.\nAdmitted.\n")
    with coq.scratch_tree([("Spectral.v", stub)]):
        r1, r2 = coq.apply_kernel_checks([Z.lemma_3_3(), J.lemma_3()])
    for r, premise in ((r1, coq.RAYLEIGH), (r2, coq.SPECTRAL)):
        assert premise in r.conclusion.premises, (r.id, r.conclusion.evidence[:400])
        assert r.strength_label.startswith("kernel-checked given")
        assert "Spectral.spectral_exists" in " ".join(r.notes + r.conclusion.details)
