"""Tests of proofs/zhou_compression.py: refuted counterexamples re-checked at 50 digits; proved verdicts
of the file's own checks change when a constant of the statement is mutated."""
from __future__ import annotations

import importlib
import math

import mpmath
import pytest
import sympy as sp

from dpverify.symbolic import ProofVerdict



# The proof file as the installed package `dpverify_proofs` holds it: the same module
# object that `dpverify prove` runs (no second copy of its lemmas and caches).
Z = importlib.import_module("dpverify_proofs.zhou_compression")


@pytest.fixture(scope="module")
def reports():
    return {r.id: r for r in Z.claims()}


def test_every_claim_present_with_reasons(reports):
    labels = {"theorem-2.5", "proposition-3.1", "theorem-3.2", "lemma-3.3", "proposition-3.4", "theorem-3.5",
              "corollary-3.7", "procedure-4.1", "procedure-4.2", "remark-4.3", "lemma-4.4", "lemma-4.5",
              "theorem-4.6", "remark-4.7", "theorem-5.1", "lemma-b.1", "proposition-c.1", "lemma-c.2",
              "proposition-d.1", "theorem-d.2"}
    assert labels <= {rid.split("/")[1] for rid in reports}
    for r in reports.values():
        if ProofVerdict.UNKNOWN in (r.steps.verdict, r.conclusion.verdict):
            assert r.reason.strip()
        for res in (r.steps, r.conclusion):
            if res.verdict is ProofVerdict.REFUTED:
                assert res.counterexample, r.id


def test_theorem_4_6_steps_are_decided(reports):
    """Theorem 4.6's trace step was 'not machine-checked' (its text named Coq lemmas): with ZhouTheorem46.trace_l1_bound
    behind kernel_step every step of the chain is decided (certified with coqc: Remark 4.3 is the weakest; tested
    without, where the premises C.1 and C.2 fall back to their instance checks)."""
    rep = reports["zhou-compression/theorem-4.6"]
    assert "not machine-checked" not in rep.steps.evidence
    assert rep.steps.verdict in (ProofVerdict.CERTIFIED, ProofVerdict.TESTED), rep.steps.evidence


def test_proposition_d_1_counterexample_at_50_digits(reports):
    ce = reports["zhou-compression/proposition-d.1"].conclusion.counterexample
    p, n, f = int(ce["p"]), sp.Integer(ce["n"]), int(ce["flipped"])
    x = sp.Matrix([1] * p)
    y = sp.Matrix([-1 if i < f else 1 for i in range(p)])
    D = (x * x.T - y * y.T) / n
    fro = sp.sqrt(sum(e**2 for e in D))
    assert sp.simplify(fro - 2 * sp.sqrt(2 * f * (p - f)) / n) == 0
    assert fro > sp.Integer(p) / n
    assert abs(mpmath.mpf(ce["frobenius"]) - mpmath.mpf(str(sp.N(fro, 45)))) < mpmath.mpf(10) ** -35
    # the spectral-norm half of the statement does hold
    assert max(abs(e) for e in D.eigenvals()) <= sp.Integer(p) / n


def test_theorem_5_1_theta_step_counterexample(reports):
    ce = reports["zhou-compression/theorem-5.1/theta-reading"].steps.counterexample
    with mpmath.workdps(60):
        c = mpmath.sqrt(2 * (4 * mpmath.e / mpmath.sqrt(6 * mpmath.pi) + mpmath.sqrt(8) * mpmath.e))
        assert abs(c - mpmath.mpf(ce["p_tau_floor"])) < mpmath.mpf(10) ** -25
        K = mpmath.mpf(ce["K"])
        for n, p in ((10**3, 5), (10**9, 40), (10**30, 10**4)):
            L = mpmath.log(2 * mpmath.mpf(n) * p)
            m = K * p**2 * L
            assert abs(p * c * mpmath.sqrt(L / m) - c / mpmath.sqrt(K)) < mpmath.mpf(10) ** -40


def test_key_verdicts(reports):
    assert reports["zhou-compression/theorem-4.6"].conclusion.verdict is ProofVerdict.TESTED
    assert reports["zhou-compression/theorem-d.2"].steps.verdict is ProofVerdict.REFUTED
    # Lemma B.1 is false for small tau (x = y); the paper's proof of Lemma 4.4 cites it at a failing point
    assert reports["zhou-compression/lemma-b.1"].conclusion.verdict is ProofVerdict.REFUTED
    assert reports["zhou-compression/lemma-4.4"].steps.verdict is ProofVerdict.REFUTED
    # P[E] <= 1/n^2 itself by the Chernoff route: certified (Arb residual), and the claims resting on it follow
    l44 = reports["zhou-compression/lemma-4.4"].conclusion
    assert l44.verdict is ProofVerdict.CERTIFIED and "Chernoff route" in l44.evidence and "axioms of probability" in l44.evidence
    assert reports["zhou-compression/procedure-4.1"].conclusion.verdict is ProofVerdict.CERTIFIED
    assert reports["zhou-compression/remark-4.3"].conclusion.verdict is ProofVerdict.CERTIFIED
    for reading in ("theta-reading", "omega-reading"):
        assert reports[f"zhou-compression/theorem-5.1/{reading}"].conclusion.verdict is ProofVerdict.CERTIFIED
    # "(14) is a density": kernel-checked where mathcomp-analysis is installed (MeasureDP.truncated_density_normalised,
    # the additivity of the integral included); else the division by sympy, the additivity named as its premise
    p42 = reports["zhou-compression/procedure-4.2"]
    assert p42.steps.verdict is ProofVerdict.PROVED
    if "normalisation (kernel-checked)" in p42.steps.evidence:
        assert not p42.steps.premises, p42.steps.premises
    else:
        assert any("additivity" in str(p) for p in p42.steps.premises), p42.steps.premises


def _chi2_upper_tail(m, tau):
    with mpmath.workdps(60):
        return mpmath.gammainc(mpmath.mpf(m) / 2, m * (1 + mpmath.mpf(tau)) / 2, mpmath.inf, regularized=True)


def test_lemma_b_1_counterexample_rechecked_independently(reports):
    """x = y unit: (n/m)<Phi x, Phi x> = chi2_m/m; the upper tail alone exceeds the claimed two-sided bound."""
    ce = reports["zhou-compression/lemma-b.1"].conclusion.counterexample
    m, tau = int(ce["m"]), sp.Rational(ce["tau"])
    with mpmath.workdps(60):
        t = mpmath.mpf(tau.p) / tau.q
        bound = 2 * mpmath.exp(-m * t**2 / (4 * mpmath.e / mpmath.sqrt(6 * mpmath.pi) + mpmath.sqrt(8) * mpmath.e * t))
        assert _chi2_upper_tail(m, t) > 10 * bound
    # scipy, independent of mpmath and Arb
    from scipy.stats import chi2
    assert chi2.sf(m * (1 + float(tau)), m) > 10 * float(bound)


def test_lemma_4_4_paper_step_counterexample(reports):
    ce = reports["zhou-compression/lemma-4.4"].steps.counterexample
    n, p, m = int(ce["n"]), int(ce["p"]), int(ce["m"])
    c12 = 4 * math.e / math.sqrt(6 * math.pi) + math.sqrt(8) * math.e
    assert m >= 2 * c12 * math.log(2 * n * p)  # inside Lemma 4.4's hypothesis
    tau = math.sqrt(2 * c12 * math.log(2 * n * p) / m)
    assert tau <= 1 and abs(tau - float(ce["tau"])) < 1e-12
    from scipy.stats import chi2
    cited = 2 * math.exp(-m * tau**2 / (4 * math.e / math.sqrt(6 * math.pi) + math.sqrt(8) * math.e * tau))
    assert chi2.sf(m * (1 + tau), m) > cited
    # the step's final bound 2/(2np)^2 does hold there (the slack the Chernoff route uses)
    assert chi2.sf(m * (1 + tau), m) + chi2.cdf(m * (1 - tau), m) < 2 / (2 * n * p) ** 2


def test_lemma_b_1_with_gaussian_rate_constants_not_refuted_on_the_diagonal():
    """Adversary for the search: with C1 = 4, C2 = 16 (a Bernstein-type bound that holds for chi2) the diagonal
    search finds nothing, so the refutation is not an artefact of the evaluation."""
    assert Z.lemma_b_1_diagonal(c1=sp.Integer(4), c2=sp.Integer(16)) is None


def test_chernoff_exponent_statement_and_its_mutants():
    st = Z.entry_exponent_statement()
    assert st.check().verdict is ProofVerdict.CERTIFIED
    # c_sum = 8 is the edge of the residual (R >= 1/8 at rho = 1, tau = 1); 7 makes the residual false there
    assert st.with_constants(c_sum=7).check().verdict not in (ProofVerdict.CERTIFIED, ProofVerdict.PROVED)
    # a smaller constant than the exponent allows is refuted on the witness (the exact exponent)
    bad = st.with_constants(c_sum=sp.Rational(3)).check()
    assert bad.verdict is ProofVerdict.REFUTED
    rho, tau = mpmath.mpf(bad.counterexample["rho"]), mpmath.mpf(bad.counterexample["tau"])
    with mpmath.workdps(50):
        lam = tau / 4
        g = lam * tau + lam * rho + mpmath.log(1 - (1 + rho) * lam) / 2 + mpmath.log(1 + (1 - rho) * lam) / 2
        assert tau**2 / 3 > g


def test_gaussian_product_mgf_and_pointwise_steps():
    assert Z.gaussian_product_mgf().verdict is ProofVerdict.PROVED
    assert Z.chernoff_pointwise().verdict is ProofVerdict.PROVED


def test_chernoff_route_matches_the_exact_tail():
    """The per-entry bound 2 exp(-m tau^2/(C1 + C2)) against the exact two-sided tail of chi2_m/m (rho = 1) and of
    the product sum at rho = 0 (quadrature), at tau <= 1: the certified inequality is not vacuous, and true."""
    c12 = Z.C1 + Z.C2
    for m, tau, rho in ((20, 1.0, 1), (200, 0.3, 1), (5000, 0.05, 1), (20, 1.0, 0), (200, 0.3, 0)):
        exact = Z._dev_tail(m, rho, tau)  # rho = 1: closed form; rho = 0: one quadrature
        assert exact <= 2 * math.exp(-m * tau**2 / c12)


# ---------------------------------------------------------------- mutations
def test_theorem_2_5_mutation():
    assert Z.theorem_2_5().verdict is ProofVerdict.PROVED
    assert Z.theorem_2_5(def_23_needs_single_row=False).verdict is ProofVerdict.REFUTED


def test_renormalisation_bound_mutation():
    assert Z.renormalisation_bound().verdict is ProofVerdict.PROVED
    bad = Z.renormalisation_bound(const=1)
    assert bad.verdict is ProofVerdict.REFUTED
    with mpmath.workdps(60):
        assert -mpmath.log(1 - mpmath.mpf(bad.counterexample["x"])) > mpmath.mpf(bad.counterexample["x"])


def test_lemma_4_4_algebra_mutation():
    assert Z.lemma_4_4_algebra().verdict is ProofVerdict.PROVED
    assert Z.lemma_4_4_algebra(union_factor=sp.Integer(4)).verdict is ProofVerdict.REFUTED


def test_lemma_b_1_mutation_is_refuted_at_50_digits():
    bad = Z.lemma_b_1(c1=Z.C1 / 100, c2=Z.C2 / 100, grid=[(100, 1, 0.5)])
    assert bad.verdict is ProofVerdict.REFUTED
    ce = bad.counterexample
    with mpmath.workdps(60):
        m, tau = int(ce["m"]), mpmath.mpf(ce["tau"])
        tail = mpmath.gammainc(mpmath.mpf(m) / 2, m * (1 + tau) / 2, mpmath.inf, regularized=True) + \
            mpmath.gammainc(mpmath.mpf(m) / 2, 0, m * (1 - tau) / 2, regularized=True)
        bound = 2 * mpmath.exp(-m * tau**2 / (mpmath.mpf(ce["C1"]) + mpmath.mpf(ce["C2"]) * tau))
        assert tail > bound


def test_proposition_d_1_correct_constant_not_refuted():
    assert Z.proposition_d_1(factor=math.sqrt(2) + 1e-12).verdict is ProofVerdict.TESTED


def test_theorem_4_6_relaxation_fails_when_bound_shrinks():
    worst, used = Z.theorem_4_6_instances(cases=60)
    assert used > 10 and worst <= 1
    worst_small, _ = Z.theorem_4_6_instances(cases=60, first_factor=worst / 4)
    assert worst_small > 1


def test_renormalisation_difference_step_and_mutant():
    assert Z.renormalisation_difference().verdict is ProofVerdict.PROVED
    bad = Z.renormalisation_difference(scale=sp.Rational(1, 2))  # |A - B| <= max(A, B)/2: false at B = 0
    assert bad.verdict is ProofVerdict.REFUTED
    A, B = mpmath.mpf(bad.counterexample["A"]), mpmath.mpf(bad.counterexample["B"])
    assert abs(A - B) > max(A, B) / 2


def test_expected_draws_bound_and_mutant():
    assert Z.expected_draws_bound().verdict is ProofVerdict.PROVED
    bad = Z.expected_draws_bound(target=lambda n: 1 + 1 / (2 * n**2))  # too small at q = 1/n^2
    assert bad.verdict is ProofVerdict.REFUTED
    n, q = sp.Integer(bad.counterexample["n"]), sp.Rational(bad.counterexample["q"])
    assert q <= 1 / n**2 and 1 / (1 - q) > 1 + 1 / (2 * n**2)


# ---------------------------------------------------------------- encoded statements (the mutation campaign's input)
def test_statements_are_strong_and_decide_their_claims(reports):
    """Each statement checks proved/certified, and the claim's reported conclusion is no stronger than it."""
    order = [ProofVerdict.PROVED, ProofVerdict.CERTIFIED, ProofVerdict.TESTED, ProofVerdict.UNKNOWN]
    sts = Z.statements()
    assert {"zhou-compression/theorem-2.5", "zhou-compression/procedure-4.1", "zhou-compression/remark-4.3",
            "zhou-compression/theorem-5.1/theta-reading", "zhou-compression/theorem-5.1/omega-reading",
            "zhou-compression/lemma-3.3", "zhou-compression/proposition-3.1"} <= set(sts)
    for cid, st in sts.items():
        v = st.check().verdict
        assert v in (ProofVerdict.PROVED, ProofVerdict.CERTIFIED), (cid, v)
        assert order.index(reports[cid].conclusion.verdict) >= order.index(v), cid


def _flipped(fn):
    from dataclasses import replace

    st = fn()
    c = st.conclusion
    flip = {sp.LessThan: sp.GreaterThan, sp.GreaterThan: sp.LessThan}[type(c)]
    return lambda: replace(st, conclusion=flip(c.lhs, c.rhs, evaluate=False))


def test_a_false_statement_does_not_leave_its_claim_strong(monkeypatch):
    """The adversary: each statement replaced by its flipped (false) version; the claim built from it is then
    refuted (the statement is the claim's inequality)."""
    for name in ("expected_draws_statement", "renormalisation_statement", "theorem_2_5_statement",
                 "lemma_3_3_statement", "inverse_difference_statement"):
        monkeypatch.setattr(Z, name, _flipped(getattr(Z, name)))
    claims = {r.id: r for r in [*Z.procedures(), Z.remark_4_3.__wrapped__(), Z.lemma_3_3.__wrapped__(),
                                Z.proposition_3_1.__wrapped__()]}
    for cid in ("procedure-4.1", "remark-4.3", "lemma-3.3", "proposition-3.1"):
        assert claims[f"zhou-compression/{cid}"].conclusion.verdict is ProofVerdict.REFUTED, cid
    assert Z.theorem_2_5_verdict().verdict is ProofVerdict.REFUTED


@pytest.mark.slow
def test_a_false_second_moment_statement_caps_theorem_5_1(monkeypatch):
    """Theorem 5.1's statement is a premise of its second-moment argument: flipped, no reading stays strong."""
    monkeypatch.setattr(Z, "second_moment_statement", _flipped(Z.second_moment_statement))
    for rep in Z.theorem_5_1():
        assert rep.conclusion.verdict not in (ProofVerdict.PROVED, ProofVerdict.CERTIFIED), rep.id
