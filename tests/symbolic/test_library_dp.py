"""Full-domain proofs of ``dpverify.symbolic.library_dp`` and the claims built on them (lecture21-dp Lemma 3,
tu-projections Lemmas 1-3 and Theorem 1 derived), with their adversaries: every step fails when its
statement is made false, every encoded statement stops being proved when a constant makes it false, and
the Bernoulli Coq file rejects false variants.

All checks are deterministic (sympy, seeded searches re-evaluated at 50 digits, Arb balls): no false-failure
rate to state.
"""
from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from dpverify.symbolic import ProofVerdict, coq
from dpverify.symbolic import library_dp as L
from dpverify.symbolic.mutation import numerically_false, run_campaign

GOOD = (ProofVerdict.PROVED, ProofVerdict.CERTIFIED)


# ------------------------------------------------------------------ constant-free steps and their mutants
@pytest.mark.parametrize("step", [L.bernoulli_induction(), L.gaussian_half_tail(), L.erfc_positive(),
                                  L.mixture_profile(), L.chernoff_pointwise(), L.chi_square_log_mgf_bound()],
                         ids=lambda s: s.id)
def test_steps_are_proved(step):
    r = step.check()
    assert r.verdict is ProofVerdict.PROVED, r.evidence


def test_false_steps_are_not_proved():
    # Bernoulli with a remainder that is not there: (1 - Kq)(1 - q) - (1 - (K+1)q) - q = K q^2 - q < 0 for small q
    assert L.bernoulli_induction(slack=1).check().verdict is not ProofVerdict.PROVED
    # P(N(0,1) > t) <= e^(-t^2/2)/4 is false at t = 0 (1/2 > 1/4)
    assert L.gaussian_half_tail(factor=sp.Rational(1, 4)).check().verdict is not ProofVerdict.PROVED
    # the log-MGF bound flipped is false for every t in (0, 1/2)
    lem = L.chi_square_log_mgf_bound()
    flipped = lem.mutated(conclusion=sp.Ge(lem.conclusion.lhs, lem.conclusion.rhs, evaluate=False))
    assert flipped.check().verdict is ProofVerdict.REFUTED


# ------------------------------------------------------------------ encoded statements
def test_full_domain_statements_are_proved():
    for build in (L.laplace_max_tail_statement, L.chi_square_tail_statement, L.kenthapadi_statement):
        r = L.checked(build)
        assert r.verdict is ProofVerdict.PROVED, r.evidence


@pytest.mark.parametrize("build, constant, value", [
    (L.laplace_max_tail_statement, "c_scale", sp.Rational(11, 10)),   # more noise than the threshold covers
    (L.laplace_max_tail_statement, "c_thr", sp.Rational(9, 10)),
    pytest.param(L.chi_square_tail_statement, "c_sqrt", sp.Rational(9, 5), marks=pytest.mark.slow),
    pytest.param(L.chi_square_tail_statement, "c_exp", sp.Rational(11, 10), marks=pytest.mark.slow),
    pytest.param(L.kenthapadi_statement, "c_half", sp.Rational(11, 5), marks=pytest.mark.slow),
    pytest.param(L.kenthapadi_statement, "c_var", sp.Rational(9, 5), marks=pytest.mark.slow),
])
def test_false_constants_are_killed(build, constant, value):
    st = build().with_constants(**{constant: value})
    assert numerically_false(st, n=60) is not None  # the mutant is false (independent sampled check)
    assert st.check().verdict not in GOOD


def test_the_exact_tail_witnesses_refute():
    """A false Lemma 3 (noise 10% larger than the threshold's scale) is refuted on the exact tail with a
    counterexample that re-evaluates above delta at 50 digits."""
    r = L.laplace_max_tail_statement().with_constants(c_scale=sp.Rational(11, 10)).check()
    assert r.verdict is ProofVerdict.REFUTED
    ce = r.counterexample
    with mpmath.workdps(50):
        K, dl = int(ce["K"]), mpmath.mpf(ce["delta"])
        q = (dl / K) ** (mpmath.mpf(10) / 11)
        assert 1 - (1 - q) ** K > dl


@pytest.mark.slow
def test_campaign_on_lemma_3_kills_every_false_mutant():
    rep = run_campaign({"lecture21-dp/lemma-3": L.laplace_max_tail_statement()}, n=60)
    assert rep.claims == ("lecture21-dp/lemma-3",)
    assert len(rep.false_mutants) >= 3
    assert not rep.survivors, [(o.mutant.description, o.witness) for o in rep.survivors]


@pytest.mark.slow
def test_campaign_on_the_full_domain_statements():
    tu = importlib.import_module("dpverify_proofs.tu_projections")
    sts = {"lecture21-dp/lemma-3": L.laplace_max_tail_statement(), **tu.statements()}
    rep = run_campaign(sts)
    assert not rep.survivors, [(o.mutant.claim, o.mutant.description, o.witness) for o in rep.survivors]


# ------------------------------------------------------------------ advanced composition (Arb)
def test_advanced_composition_certified_on_a_small_box():
    r = L.advanced_composition_statement(k_max=4).check()
    assert r.verdict is ProofVerdict.CERTIFIED, r.evidence
    assert "k in [1, 4]" in r.evidence


def test_advanced_composition_without_the_sqrt_term_is_not_certified():
    """eps' = k eps (e^eps - 1) alone (the sqrt(2k log(1/delta')) term dropped) is false: k = 4, eps = 1."""
    st = L.advanced_composition_statement(k_max=4)
    T, e, k = st.conclusion.lhs.args
    dp = sp.Symbol("delta_prime", positive=True)
    bad = st.mutated(conclusion=sp.Le(L.DELTA_OPT(T.subs(sp.log(1 / dp), 0), e, k), dp, evaluate=False))
    assert numerically_false(bad, n=40) is not None
    assert bad.check().verdict is ProofVerdict.REFUTED


# ------------------------------------------------------------------ Coq: Bernoulli.v
needs_coq = pytest.mark.skipif(coq.coqc_path() is None, reason=f"coqc not on the PATH: {coq.INSTALL_HINT}")


@needs_coq
@pytest.mark.slow  # compiles, assumptions: tests/symbolic/test_coq.py (Bernoulli.v is in the manifest)
@pytest.mark.parametrize("old, new", [
    ("1 - (1 - exp (- ln (INR K / delta))) ^ K <= delta.", "1 - (1 - exp (- ln (INR K / delta))) ^ K <= delta / 2."),
    ("1 - INR n * q <= (1 - q) ^ n.", "1 - INR n * q / 2 <= (1 - q) ^ n."),
])
def test_bernoulli_v_rejects_false_statements(old, new):
    src = (coq.coq_dir() / "Bernoulli.v").read_text()
    assert old in src
    res = coq.compile_source(src.replace(old, new), module="Mutant_Bernoulli")
    assert res.status is coq.CoqStatus.FAILED
    assert "Syntax error" not in res.message, res.message[-600:]
