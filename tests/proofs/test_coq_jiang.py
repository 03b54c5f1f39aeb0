"""The jiang-wishart Coq theorem for Lemma 4 (Weyl, proofs/coq/JiangWeyl.v): it compiles with the classical reals only,
it decides the claim (kernel-checked), false variants of its statement are rejected by coqc with the same proof script,
and the scalar core statement of the campaign is proved while its mutants are refuted. Deterministic (no sampling
beyond the seeded searches)."""
from __future__ import annotations

import importlib
from dataclasses import replace


from dpverify.symbolic import ProofVerdict

from _coq_checks import coq_file_tests, needs_coq

J = importlib.import_module("dpverify_proofs.jiang_wishart")

FILE = "JiangWeyl.v"
THEOREMS = ("jiang_weyl", "weyl_upper", "underdetermined")

# (theorem, old, new, why the mutated statement is false)
MUTANTS = [
    ("jiang_weyl", "mu i <= nu i + rho1.", "mu i <= nu i + rho1 / 2.",
     "d = 1, H = 0, P = rho1 = 1: mu = 1 > 1/2"),
]
SLOW_MUTANTS = [
    ("underdetermined", "(m < d)%nat ->", "(m <= d)%nat ->",
     "d equations e_1 .. e_d in d unknowns have only the zero solution"),
    ("weyl_upper", "spectral d A VA la -> spectral d B VB lb ->", "spectral d A VA la ->",
     "without B's decomposition lb is arbitrary"),
]


test_weyl_theorems_compile_with_classical_reals_only, test_weyl_mutant_is_rejected, test_more_weyl_mutants_are_rejected = \
    coq_file_tests(FILE, THEOREMS, MUTANTS, SLOW_MUTANTS, compile_slow=False)


@needs_coq
def test_lemma_4_is_kernel_checked():
    from dpverify.symbolic.coq import apply_kernel_checks

    rep = J.lemma_4()
    assert rep.conclusion.verdict is ProofVerdict.TESTED  # without Coq: sampled, its scalar core proved
    (out,) = apply_kernel_checks([rep])
    assert out.conclusion.verdict is ProofVerdict.KERNEL_CHECKED, out.conclusion.evidence
    assert "jiang_weyl" in out.conclusion.evidence


def test_weyl_core_statement_and_its_mutants():
    st = J.weyl_core_statement()
    assert st.check().verdict is ProofVerdict.PROVED
    for c in (0.9, 1.1):  # a smaller constant fails for rho_1 > 0, a larger one for rho_1 < 0
        r = replace(st, constants={"c_weyl": c}).check()
        assert r.verdict is ProofVerdict.REFUTED and r.counterexample, (c, r.evidence)
