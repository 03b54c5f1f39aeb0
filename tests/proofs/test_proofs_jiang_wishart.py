"""Tests of proofs/jiang_wishart.py: refuted counterexamples re-checked at 50 digits by independent
computations; every proved verdict of the file's own checks fails when a constant is mutated."""
from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from dpverify.symbolic import ProofVerdict



# The proof file as the installed package `dpverify_proofs` holds it: the same module
# object that `dpverify prove` runs (no second copy of its lemmas and caches).
J = importlib.import_module("dpverify_proofs.jiang_wishart")


@pytest.fixture(scope="module")
def reports():
    return {r.id: r for r in J.claims()}


def test_every_claim_has_two_verdicts_and_reasons(reports):
    labels = {"definition-1", "definition-2", "theorem-1", "theorem-2", "theorem-3", "theorem-4", "theorem-5",
              "theorem-6", "theorem-7", "theorem-8", "theorem-9", "theorem-10", "lemma-1", "lemma-2", "lemma-3",
              "lemma-4", "lemma-5", "algorithm-1", "algorithm-2"}
    seen = {rid.split("/")[1] for rid in reports}
    assert labels <= seen
    for r in reports.values():
        if ProofVerdict.UNKNOWN in (r.steps.verdict, r.conclusion.verdict):
            assert r.reason.strip()


def test_every_refuted_has_a_counterexample(reports):
    for r in reports.values():
        for res in (r.steps, r.conclusion):
            if res.verdict is ProofVerdict.REFUTED:
                assert res.counterexample, r.id


def test_key_verdicts(reports):
    assert reports["jiang-wishart/theorem-4"].conclusion.verdict is ProofVerdict.REFUTED
    assert reports["jiang-wishart/algorithm-2"].conclusion.verdict is ProofVerdict.REFUTED
    assert reports["jiang-wishart/theorem-3"].conclusion.verdict is ProofVerdict.PROVED
    assert reports["jiang-wishart/lemma-2"].conclusion.verdict is ProofVerdict.REFUTED
    assert reports["jiang-wishart/theorem-2/as-printed"].conclusion.verdict is ProofVerdict.REFUTED
    assert reports["jiang-wishart/theorem-6"].steps.verdict is ProofVerdict.REFUTED
    assert reports["jiang-wishart/theorem-6"].conclusion.verdict is ProofVerdict.TESTED


# ---------------------------------------------------------------- refuted: independent 50-digit re-checks
def test_theorem_2_counterexample_at_50_digits(reports):
    ce = reports["jiang-wishart/theorem-2/as-printed"].conclusion.counterexample
    with mpmath.workdps(60):
        e, dl, c, s, D = (mpmath.mpf(ce[k]) for k in ("epsilon", "delta", "c", "sigma", "sensitivity"))
        assert c**2 > 2 * mpmath.log(mpmath.mpf("1.25") / dl)
        assert s > c * D / e
        # exact delta(eps) as an integral of the hockey-stick divergence (independent of the closed form)
        f = lambda y: max(mpmath.npdf(y, 0, s) - mpmath.exp(e) * mpmath.npdf(y, D, s), 0)  # noqa: E731
        cut = D / 2 - e * s**2 / D  # the integrand is positive exactly left of this point
        exact = mpmath.quad(f, [-mpmath.inf, cut])
        assert exact > dl


def test_theorem_4_counterexample_at_50_digits(reports):
    ce = reports["jiang-wishart/theorem-4"].conclusion.counterexample
    with mpmath.workdps(60):
        eps, n = mpmath.mpf(ce["epsilon"]), mpmath.mpf(ce["n"])
        c = mpmath.mpf(3) / (2 * n * eps)
        # W ~ W_1(2, c) = c chi^2_2: density exp(-w/(2c))/(2c); P[W <= 1/n] by quadrature
        p_hat = mpmath.quad(lambda w: mpmath.exp(-w / (2 * c)) / (2 * c), [0, 1 / n])
        assert abs(p_hat - mpmath.mpf(ce["P_hat_S"])) < mpmath.mpf(10) ** -35
        # M(X) = 1/n + W with W > 0 a.s.: P[M(X) <= 1/n] = 0
        assert p_hat > mpmath.exp(eps) * 0
    ce2 = J.wishart_indefinite_counterexample().counterexample
    with mpmath.workdps(60):
        # W_11 ~ c chi^2_3: density of chi^2_3 integrated to 2 eps/3
        dens = lambda t: t ** mpmath.mpf(0.5) * mpmath.exp(-t / 2) / (2 ** mpmath.mpf(1.5) * mpmath.gamma(1.5))  # noqa: E731
        assert abs(mpmath.quad(dens, [0, mpmath.mpf(2) / 3]) - mpmath.mpf(ce2["P_hat_S"])) < mpmath.mpf(10) ** -35


def test_theorem_4_ratio_step_counterexample():
    ce = J.theorem_4_and_algorithm_2()[0].steps.counterexample
    # Delta = (v^2 - v_hat^2)/n = -1, W0 = 1/2: W0 + Delta = -1/2 is outside the support (density 0)
    w = sp.Rational(ce["W0"]) + (sp.Rational(ce["v"]) ** 2 - sp.Rational(ce["v_hat"]) ** 2) / sp.Rational(ce["n"])
    assert w < 0 and mpmath.mpf(ce["formula"]) > 0


def test_lemma_2_counterexamples(reports):
    ce = reports["jiang-wishart/lemma-2"].conclusion.counterexample
    d, n = int(ce["d"]), sp.Integer(ce["n"])
    # s1 at d = 1 is max |p^2 - q^2| over [-1, 1]^2 <= max(p^2, q^2) <= 1: d/n < s1 would need s1 > 1/n
    assert d == 1 and mpmath.mpf(ce["s1_upper_bound"]) == mpmath.mpf(1) / int(n)
    assert not (sp.Integer(d) / n < sp.Integer(1) / n)
    st = reports["jiang-wishart/lemma-2"].steps.counterexample
    p1, q1 = sp.nsimplify(st["p1"]), sp.nsimplify(st["q1"])
    lhs = abs(p1**2 - q1**2)
    rhs = p1**2 + q1**2
    assert not lhs < rhs


def test_theorem_6_step_counterexample(reports):
    ce = reports["jiang-wishart/theorem-6"].steps.counterexample
    u = sp.Matrix([sp.sqrt(2) / 2, sp.sqrt(2) / 2])
    D = sp.Matrix([[1, 0], [0, 0]]) - u * u.T
    fro = sp.sqrt(sum(x**2 for x in D))
    spec = max(abs(e) for e in D.eigenvals())
    assert sp.simplify(fro - 1) == 0 and sp.simplify(spec - sp.sqrt(2) / 2) == 0
    assert fro > sp.sqrt(int(ce["k"])) * spec
    assert abs(mpmath.mpf(ce["frobenius"]) - 1) < mpmath.mpf(10) ** -35


def test_theorem_7_display_counterexample(reports):
    ce = reports["jiang-wishart/theorem-7/first-display-as-printed"].conclusion.counterexample
    t = sp.pi * sp.nsimplify(ce["angle_degrees"]) / 180
    v, w = sp.Matrix([1, 0]), sp.Matrix([sp.cos(t), sp.sin(t)])
    D = v * v.T - w * w.T
    fro = sp.sqrt(sum(x**2 for x in D))
    tr = (D * D.T).trace()
    assert sp.N(fro - tr, 50) != 0
    # the counterexample records 30 significant digits
    assert abs(mpmath.mpf(ce["frobenius"]) - mpmath.mpf(str(sp.N(fro, 45)))) < mpmath.mpf(10) ** -28


# ---------------------------------------------------------------- proved verdicts: mutate a constant
def test_definition_1_mutation():
    assert J.definition_1().verdict is ProofVerdict.PROVED
    assert J.definition_1(norm=sp.Integer(3)).verdict is ProofVerdict.REFUTED


def test_definition_2_mutation():
    assert J.definition_2().verdict is ProofVerdict.PROVED
    mutated = J.definition_2.__wrapped__(two_power=lambda m, d: 2 ** (m * d / 2 + 1))
    assert mutated.verdict is not ProofVerdict.PROVED


def test_lemma_2_bounds_mutation():
    assert J.lemma_2_upper_bound().verdict is ProofVerdict.PROVED
    assert J.lemma_2_upper_bound(factor=sp.Integer(1)).verdict is ProofVerdict.REFUTED
    assert J.lemma_2_lower_family().verdict is ProofVerdict.PROVED
    assert J.lemma_2_lower_family(lower_factor=2).verdict is ProofVerdict.REFUTED


def test_algorithm_1_privacy_mutation():
    assert J.algorithm_1_privacy().verdict is ProofVerdict.PROVED
    bad = J.algorithm_1_privacy(scale_factor=1)
    assert bad.verdict is ProofVerdict.REFUTED
    # re-check: upper-triangle l1 distance of e1 e1^T - u u^T at the angle exceeds d/n = 2
    a = mpmath.mpf(bad.counterexample["angle"])
    with mpmath.workdps(60):
        c, s = mpmath.cos(a), mpmath.sin(a)
        assert abs(1 - c**2) + abs(c * s) + abs(s**2) > 2


def test_wishart_counterexample_disappears_with_no_shift():
    # sanity of the checker: the support argument needs Delta != 0
    res = J.wishart_support_counterexample(c_factor=sp.Rational(3, 2))
    assert res.verdict is ProofVerdict.REFUTED


def test_gaussian_search_does_not_refute_inside_eps_below_1():
    assert J.gaussian_counterexample(epsilon="0.5", c="4.85", sigma="9.71").verdict is ProofVerdict.TESTED


def test_frobenius_step_with_correct_factor_is_not_refuted():
    assert J.frobenius_vs_spectral_step(k_factor=2).verdict is ProofVerdict.TESTED


@pytest.mark.slow
def test_encoded_statements_agree_with_the_claims_checks():
    """The mutation campaign's statements for the claims settled by the functions above: the same verdict on the
    paper's constants, and not proved where the function's mutation hook refutes (the same mutated constant)."""
    st = J.statements()
    pairs = [("definition-1", J.definition_1(), {"c_norm": 3}),
             ("lemma-2/lower-bound-d-at-least-2", J.lemma_2_lower_family(), {"c_low": 2}),
             ("lemma-2/upper-bound", J.lemma_2_upper_bound(), {"c_up": 1}),
             ("algorithm-1", J.algorithm_1_privacy(), {"c_alg": 1})]
    from dataclasses import replace
    for label, fn_result, mutation in pairs:
        s = st[f"jiang-wishart/{label}"]
        assert s.check().verdict is fn_result.verdict is ProofVerdict.PROVED, label
        mutated = s.with_constants(**mutation) if hasattr(s, "with_constants") else replace(s, constants=mutation)
        assert mutated.check().verdict not in (ProofVerdict.PROVED, ProofVerdict.CERTIFIED), label
    assert st["jiang-wishart/theorem-3"].check().verdict is ProofVerdict.PROVED


def test_lemma_1_d1_route_is_proved_for_every_m_and_its_mutants_fail():
    """Lemma 1 at d = 1: Zhu's threshold (r = 1) >= Laurent-Massart's for every m, theta > 0 (sympy), and Laurent-Massart
    for every k: proved; the claim stays tested (d >= 2 is sampled). Mutants of the threshold constants that make
    Zhu's threshold smaller than Laurent-Massart's are refuted (the route then breaks: the d = 1 part is not proved)."""
    from dataclasses import replace

    from dpverify.symbolic import ProofVerdict

    d1 = J.lemma_1_d1()
    assert d1.verdict is ProofVerdict.PROVED, d1.evidence
    assert J.lemma_1().conclusion.verdict is ProofVerdict.TESTED
    st = J.lemma_1_d1_threshold_statement()
    for consts in ({"c_zhu": 1, "c_lin": 2}, {"c_zhu": 2, "c_lin": 1.8}):
        r = replace(st, constants=consts).check()
        assert r.verdict is ProofVerdict.REFUTED and r.counterexample, (consts, r.evidence)
