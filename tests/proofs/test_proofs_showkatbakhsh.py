"""showkatbakhsh-regression proofs: Proposition 2 (MI-DP => TV), Lemma 1 (maximum entropy via Gibbs), Theorem 1's
monotonicity step, Remark 1 in Coq; each verdict-producing path with its adversary.

All checks are deterministic (sympy, seeded searches re-evaluated at 50 digits, coqc): no false-failure rate.
"""
from __future__ import annotations

import importlib
import re
from dataclasses import replace

import pytest
import sympy as sp

from dpverify.symbolic import ProofVerdict, coq
from dpverify.symbolic import info_theory as info
from dpverify.symbolic.mutation import numerically_false, run_campaign
from dpverify.symbolic.proof import tested as _tested
from dpverify.symbolic.verdicts import ClaimReport

SK = importlib.import_module("dpverify_proofs.showkatbakhsh_regression")
GOOD = (ProofVerdict.PROVED, ProofVerdict.CERTIFIED, ProofVerdict.KERNEL_CHECKED)
needs_coq = pytest.mark.skipif(coq.coqc_path() is None, reason=f"coqc not on the PATH: {coq.INSTALL_HINT}")


# ------------------------------------------------------------------ the information-theory lemmas and their adversaries
def test_pinsker_binary_is_proved_from_its_pieces():
    r = info.pinsker_binary()
    assert r.verdict is ProofVerdict.PROVED, r.evidence
    assert "mean value theorem" in r.evidence


def test_pinsker_pieces_fail_when_wrong():
    p, q = sp.symbols("p q", positive=True)
    der = info.pinsker_derivative()
    # the derivative identity with the factor (1 - 2q)^2 replaced by (1 - q)^2 is false: not proved
    bad = replace(der, conclusion=sp.Eq(der.lhs, (q - p) * (1 - q) ** 2 / (q * (1 - q)), evaluate=False))
    assert bad.check().verdict is ProofVerdict.REFUTED
    fac = info.pinsker_factor_sign()
    w = fac.symbols[0]
    neg = replace(fac, conclusion=sp.Le(0, -fac.rhs, evaluate=False))
    assert neg.check().verdict is ProofVerdict.REFUTED
    # a margin that is not >= 0 everywhere is never accepted by the sign reasoning (w - 1 changes sign)
    odd = replace(fac, conclusion=sp.Le(0, (w - 1) / w, evaluate=False))
    assert odd.check().verdict is ProofVerdict.REFUTED


def test_gibbs_pieces_and_adversary():
    assert info.gibbs_log_le().verdict is ProofVerdict.PROVED
    lem = info.log_le_above_one()
    t = lem.symbols[0]
    bad = replace(lem, conclusion=sp.Le(sp.log(1 + t), t / 2, evaluate=False))  # ln(1 + t) <= t/2: false
    assert bad.check().verdict is ProofVerdict.REFUTED


@pytest.mark.slow
def test_log_sum_identity_and_a_wrong_one():
    lem = info.log_sum_identity()
    assert lem.check().verdict is ProofVerdict.PROVED
    bad = replace(lem, conclusion=sp.Eq(lem.lhs, 2 * lem.rhs, evaluate=False), samples=5)
    assert bad.check().verdict is not ProofVerdict.PROVED


# ------------------------------------------------------------------ Proposition 2
def test_proposition_2_is_proved_with_the_bridge_stated():
    r = SK.proposition_2()
    assert r.conclusion.verdict is ProofVerdict.PROVED, r.conclusion.evidence
    assert any("every output space" in n and "kl_binary_data_processing_ext" in n for n in r.notes)  # the scope, said


@needs_coq
def test_proposition_2_rests_on_the_kernel_checked_partition_step():
    """With Coq: the data-processing step on general output spaces is MeasureKL's theorem (type and witness checked),
    so no premise is left; without it (kernel_premises(False)) the step is the cited fact and the verdict says so."""
    r = SK.proposition_2()
    assert r.conclusion.premises == () and r.strength_label == "proved", r.conclusion.evidence
    assert "(kernel-checked)" in r.conclusion.evidence
    with coq.kernel_premises(False):
        r0 = SK.proposition_2()
    assert r0.strength_label.startswith("proved given KL divergence is the supremum"), r0.strength_label


@pytest.mark.parametrize("c_tv", [sp.Rational(9, 5), sp.Rational(199, 100)])
def test_proposition_2_smaller_constant_is_refuted_on_the_witness(c_tv):
    """The constant 2 is tight (binary symmetric pair): any smaller one is refuted with a concrete pair."""
    r = SK.proposition_2_statement(c_tv=c_tv).check()
    assert r.verdict is ProofVerdict.REFUTED and "witness" in r.evidence, r.evidence
    assert float(r.counterexample["d"]) > 0


@pytest.mark.slow
def test_proposition_2_larger_constant_stays_true():
    st = SK.proposition_2_statement(c_tv=sp.Rational(11, 5))
    assert numerically_false(st, n=60) is None
    assert st.check().verdict is ProofVerdict.PROVED


def test_proposition_2_statement_decides_the_claim(monkeypatch):
    """The mutated object is the one behind the verdict: a false constant makes the claim's conclusion refuted."""
    orig = SK.proposition_2_statement
    monkeypatch.setattr(SK, "proposition_2_statement", lambda: orig(c_tv=sp.Rational(9, 5)))
    assert SK.proposition_2().conclusion.verdict is ProofVerdict.REFUTED


# ------------------------------------------------------------------ Lemma 1
def test_lemma_1_is_proved_and_its_statement_decides_it(monkeypatch):
    r = SK.lemma_1()
    assert r.conclusion.verdict is ProofVerdict.PROVED, r.conclusion.evidence
    assert r.steps.verdict is ProofVerdict.UNKNOWN  # (17), (18) are stated in the paper, not machine-checked
    assert any("not machine-checked" in n for n in r.notes)
    orig = SK.lemma_1_statement
    monkeypatch.setattr(SK, "lemma_1_statement", lambda: orig(c_sigma=sp.Rational(9, 10)))  # less noise: capacity > eps
    assert SK.lemma_1().conclusion.verdict is ProofVerdict.REFUTED


def test_lemma_1_without_a_checked_max_entropy_step_is_not_proved():
    from dpverify.symbolic.proof import rests_on, stated

    r = SK.lemma_1().conclusion
    capped = rests_on(r, ("maximum entropy", stated("cited")))
    assert capped.verdict is ProofVerdict.UNKNOWN


# ------------------------------------------------------------------ Theorem 1 (monotonicity step)
def test_theorem_1_monotonicity_step_proved_and_conclusion_capped_by_cited_lemmas():
    r = SK.theorem_1()
    assert "(26) increasing in Delta (proved)" in r.steps.evidence, r.steps.evidence
    # Lemma 3 (Wedin) and Proposition 3 are cited: the conclusion is no stronger than their tests
    assert r.conclusion.verdict is ProofVerdict.TESTED


# ------------------------------------------------------------------ the mutation campaign on this paper's statements
def test_campaign_proposition_2():
    rep = run_campaign({"showkatbakhsh-regression/proposition-2": SK.proposition_2_statement()}, n=30)
    assert len(rep.false_mutants) >= 3 and not rep.survivors, rep.summary()


@pytest.mark.slow
def test_campaign_all_statements():
    rep = run_campaign(SK.statements())
    assert len(rep.claims) == len(SK.statements())
    assert not rep.survivors, [(o.mutant.claim, o.mutant.description, o.witness) for o in rep.survivors]


# ------------------------------------------------------------------ Remark 1 (sympy, and in Coq)
def test_remark_1_proved_by_sympy_and_mutants_killed():
    st = SK.remark_1_statement()
    assert st.check().verdict is ProofVerdict.PROVED
    more_rows = replace(st, constants={"c_rows": sp.Rational(11, 10)})  # SNR 1.1 n'/s: false at n' = 1
    r = more_rows.check()
    assert r.verdict is ProofVerdict.REFUTED and r.counterexample, r.evidence



def test_remark_1_has_a_claim_theorem():
    es = coq.entries_for("showkatbakhsh-regression/remark-1")
    assert [e.coverage for e in es] == [coq.Coverage.CLAIM]
    src = (coq.coq_dir() / es[0].file).read_text()
    assert not re.search(r"\b(Admitted|admit|Axiom|Parameter)\b", src)


def _mutant(old: str, new: str) -> str:
    src = (coq.coq_dir() / "ShowkatRemark1.v").read_text()
    a = src.index("Theorem remark1_noncoherent_not_smaller")
    b = src.index("Proof.", a)
    assert old in src[a:b]
    return src[:a] + src[a:b].replace(old, new) + src[b:]


# each mutated statement is false: flipped, it fails at n = 2, s = 1 (ln 3 < 2 ln 2); with 2 n'/s in the coherent
# bound it fails at n = 1, s = 1 (ln 3 > ln 2)
REMARK1_MUTANTS = [("<= INR n * ln", ">= INR n * ln"), ("ln (1 + INR n / s)", "ln (1 + 2 * INR n / s)")]


@needs_coq
@pytest.mark.parametrize("mutant", REMARK1_MUTANTS[:1], ids=lambda m: m[1])
def test_remark_1_coq_mutant_rejected(mutant):
    res = coq.compile_source(_mutant(*mutant), module="MutantShowkatRemark1")
    assert res.status is coq.CoqStatus.FAILED, mutant
    assert "Syntax error" not in res.message and "was not found" not in res.message, res.message[-400:]


@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize("mutant", REMARK1_MUTANTS[1:], ids=lambda m: m[1])
def test_remark_1_more_coq_mutants_rejected(mutant):
    res = coq.compile_source(_mutant(*mutant), module="MutantShowkatRemark1")
    assert res.status is coq.CoqStatus.FAILED, mutant
    assert "Syntax error" not in res.message and "was not found" not in res.message, res.message[-400:]


@needs_coq
@pytest.mark.slow
def test_remark_1_hook_reports_kernel_checked():
    lem = SK.remark_1()
    assert lem.conclusion.verdict is ProofVerdict.PROVED  # sympy alone (sign of a derivative)
    r = coq.apply_kernel_checks([lem])[0]
    assert r.conclusion.verdict is ProofVerdict.KERNEL_CHECKED, r.conclusion.evidence
    assert "remark1_noncoherent_not_smaller" in r.evidence


def test_remark_1_without_coq_keeps_its_verdict(monkeypatch):
    monkeypatch.setenv("DPVERIFY_COQC", "")
    rep = ClaimReport("showkatbakhsh-regression/remark-1", "s", steps=_tested("t"), conclusion=_tested("t"))
    r = coq.apply_kernel_checks([rep])[0]
    assert r.conclusion.verdict is ProofVerdict.TESTED and "Coq not available" in r.conclusion.evidence


# ------------------------------------------------------------------ Lemma 2, data-dependent sigma_RP: rigorous refutation
def test_lemma_2_data_dependent_refuted_rigorously():
    r = SK.projected_release_refutation()
    assert r is not None and r.verdict is ProofVerdict.REFUTED, r
    ce = r.counterexample
    assert float(ce["lhs"]) > float(ce["epsilon"]) and ce["n_prime"] == "1"


def test_quantised_mi_is_a_lower_bound_of_the_channel_mi():
    """The adversary of the refutation: the Arb value must never exceed the exact MI of the 1-D channel it quantises
    (data processing), which the independent mpmath quadrature computes."""
    import flint

    from dpverify.symbolic.arb import flint_or_none

    flint_or_none()
    for v0, v1 in ((0.95, 0.23), (1.0, 1.3), (4.0, 0.5)):
        cuts = [flint.arb(repr(c)) for c in (0.01, 0.1, 0.3, 0.7, 1.0, 1.5, 2.0, 3.0, 5.0)]
        q = SK._quantised_mi_bits(flint.arb(repr(v0)), flint.arb(repr(v1)), cuts)
        exact = SK._mi_variance_channel(v0, v1, 1)
        assert 0 <= q.lower() and float(q.upper()) <= float(exact) + 1e-12, (v0, v1, q, exact)


def test_no_refutation_where_the_projection_carries_little_information():
    import mpmath

    with mpmath.workdps(30):
        lhs, rhs, _ = SK._projected_release_mi({"epsilon": 1.0, "n_prime": 1, "a": 1.0, "x0": 0.0, "x1": 0.5})
    assert lhs < rhs  # I <= 0.14 bits < 1: the search must not call this a violation


def test_singular_release_refutes_both_readings_and_only_where_it_applies():
    for which in ("mi", "tv"):
        r = SK.singular_release_search(which)
        assert r is not None and r.verdict is ProofVerdict.REFUTED, which
        assert r.counterexample["gram_determinants"].count("'0'") == 1
    # the adversary: where no Gram matrix is singular, or sigma_RP > 0, the witness does not apply
    for pt in ({"epsilon": 0.1, "n_prime": 1, "a": 1.0, "x0": 0.0, "x1": 0.5},
               {"epsilon": 0.1, "n_prime": 16, "a": 1.0, "x0": 0.0, "x1": 1.0}):
        with pytest.raises(ValueError):
            SK._singular_release(pt)
