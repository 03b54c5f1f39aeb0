"""Verdict values, derivations (the interface the calibration code uses), numerics."""
from __future__ import annotations

import math

import mpmath
import pytest

from dpverify.errors import InvalidArgument
from dpverify.symbolic import (DERIVATIONS, CheckResult, ClaimReport, ProofVerdict, get_derivation)
from dpverify.symbolic.derivations import compare
from dpverify.symbolic.numeric import (gaussian_delta, gaussian_delta_float, optimal_composition_delta,
                                       projected_delta, projected_delta_lower, projected_delta_upper)

REQUIRED = {
    "lecture21-dp/lemma-1": ("scale", ("epsilon", "sensitivity")),
    "lecture21-dp/lemma-6": ("sigma", ("epsilon", "delta", "sensitivity")),
    "tu-projections/lemma-2": ("sigma", ("epsilon", "delta", "sensitivity")),
    "tu-projections/theorem-1": ("sigma", ("epsilon", "delta", "k", "B", "sigma_p")),
    "tu-projections/theorem-2": ("sigma", ("epsilon", "delta", "k", "B", "sigma_p")),
    "jiang-wishart/algorithm-1": ("scale", ("epsilon", "n", "d")),
    "jiang-wishart/algorithm-2": ("C", ("epsilon", "n")),
    "showkatbakhsh-regression/lemma-1": ("sigma_AN", ("epsilon",)),
    "showkatbakhsh-regression/lemma-2": ("sigma_RP", ("epsilon", "n_prime", "f2")),
}
POINT = dict(epsilon=0.5, delta=1e-5, sensitivity=1.0, k=10, B=1.0, sigma_p=1.0, n=100, d=5, n_prime=50, f2=3.0)


@pytest.mark.parametrize("did", sorted(REQUIRED))
def test_required_derivations(did):
    der = get_derivation(did)
    assert (der.parameter, der.inputs) == REQUIRED[did]
    assert der.lemmas and der.steps and "as-printed" in der.printed
    val = der.evaluate(**{n: POINT[n] for n in der.inputs})
    assert math.isfinite(val) and val >= 0


def test_known_closed_forms():
    assert get_derivation("lecture21-dp/lemma-1").evaluate(epsilon=0.5, sensitivity=1.0) == 2.0
    s = get_derivation("lecture21-dp/lemma-6").evaluate(epsilon=1.0, delta=1e-5, sensitivity=1.0)
    assert s == pytest.approx(math.sqrt(2 * math.log(1.25e5)), rel=1e-15)
    s = get_derivation("showkatbakhsh-regression/lemma-1").evaluate(epsilon=0.5)
    assert s == pytest.approx(1.0, rel=1e-15)  # 1/(2^1 - 1) = 1
    assert get_derivation("jiang-wishart/algorithm-2").evaluate(epsilon=1.0, n=10) == pytest.approx(0.1)
    assert get_derivation("jiang-wishart/algorithm-2").evaluate_printed("as-printed", epsilon=1.0, n=10) == pytest.approx(0.15)
    assert get_derivation("showkatbakhsh-regression/lemma-2").evaluate(epsilon=0.5, n_prime=4, f2=9.0) == 0.0


def test_theorem_2_eps1_matches_printed_and_printed_sigma_differs():
    der = get_derivation("tu-projections/theorem-2")
    cmp = compare(der, POINT)
    assert cmp["as-printed"]["equal"] is False
    assert cmp["as-printed"]["printed"] < cmp["as-printed"]["derived"]


def test_theorem_1_readings_differ_from_derivation():
    der = get_derivation("tu-projections/theorem-1")
    cmp = compare(der, POINT)
    assert set(cmp) == {"as-printed", "sqrt-closed", "sqrt-closed-literal"}
    assert all(not c["equal"] for c in cmp.values())


@pytest.mark.parametrize("kwargs, match", [
    (dict(epsilon=0.5), "missing"),
    (dict(epsilon=0.5, delta=1e-5, sensitivity=1.0, extra=1), "unexpected"),
    (dict(epsilon=float("nan"), delta=1e-5, sensitivity=1.0), "finite"),
    (dict(epsilon=float("inf"), delta=1e-5, sensitivity=1.0), "finite"),
    (dict(epsilon=-1.0, delta=1e-5, sensitivity=1.0), "epsilon"),
    (dict(epsilon=0.5, delta=1.5, sensitivity=1.0), "delta"),
    (dict(epsilon=0.5, delta=1e-5, sensitivity="1"), "sensitivity"),
], ids=["missing", "extra", "nan", "inf", "negative-eps", "delta>1", "str"])
def test_evaluate_rejects_bad_inputs(kwargs, match):
    with pytest.raises(InvalidArgument, match=match):
        get_derivation("lecture21-dp/lemma-6").evaluate(**kwargs)


def test_evaluate_domain_checks():
    with pytest.raises(InvalidArgument, match="delta"):
        get_derivation("tu-projections/lemma-2").evaluate(epsilon=1.0, delta=0.6, sensitivity=1.0)
    with pytest.raises(InvalidArgument, match="k"):
        get_derivation("tu-projections/theorem-1").evaluate(epsilon=1.0, delta=1e-3, k=2.5, B=1.0, sigma_p=1.0)
    with pytest.raises(InvalidArgument, match="not a positive real"):
        get_derivation("tu-projections/lemma-2").evaluate_printed("literal-precedence", epsilon=1.0, delta=1e-5, sensitivity=1.0)
    with pytest.raises(InvalidArgument, match="reading"):
        get_derivation("tu-projections/lemma-2").evaluate_printed("nope", epsilon=1.0, delta=1e-5, sensitivity=1.0)


def test_unknown_derivation_lists_known():
    with pytest.raises(InvalidArgument, match="tu-projections/theorem-1"):
        get_derivation("nope/nope")
    assert set(REQUIRED) <= set(DERIVATIONS)


def test_check_result_and_claim_report_validation():
    with pytest.raises(InvalidArgument):
        CheckResult(ProofVerdict.REFUTED, "no counterexample")
    with pytest.raises(InvalidArgument):
        CheckResult("proved", "a string verdict")
    with pytest.raises(InvalidArgument):
        CheckResult(ProofVerdict.PROVED, "  ")
    ok = CheckResult(ProofVerdict.UNKNOWN, "undecided")
    # an UNKNOWN verdict without an explicit reason takes the UNKNOWN results' evidence as its reason
    assert ClaimReport("p/l", "s", ok, ok).reason == "steps: undecided; conclusion: undecided"
    assert ClaimReport("p/l", "s", ok, ok, reason="r").reason == "r"
    with pytest.raises(InvalidArgument, match="paper-key"):
        ClaimReport("nolabel", "s", ok, ok, reason="r")
    r = ClaimReport("p/l", "s", ok, ok, reason="why").to_dict()
    assert r["steps"] == "unknown" and r["reason"] == "why"


def test_gaussian_profile_float_matches_mpmath():
    for eps, sig in ((0.1, 0.5), (1.0, 4.0), (10.0, 0.9), (0.5, 30.0)):
        hi = gaussian_delta(eps, 1, sig)
        lo = gaussian_delta_float(eps, 1.0, sig)
        assert lo == pytest.approx(float(hi), rel=1e-9, abs=1e-300)


def test_projected_bounds_bracket_the_quadrature():
    q = projected_delta(0.5, 3, 4.0)
    assert projected_delta_lower(0.5, 3, 4.0, cells=200) <= q <= projected_delta_upper(0.5, 3, 4.0, cells=200)


def test_optimal_composition_single_mechanism_is_exact():
    # one (eps, 0) mechanism: delta(eps) = 0 and delta(0) = (e^eps - 1)/(e^eps + 1)
    assert optimal_composition_delta(1.0, 1.0, 1) == 0
    with mpmath.workdps(50):
        assert abs(optimal_composition_delta(0, 1, 1) - (mpmath.e - 1) / (mpmath.e + 1)) < mpmath.mpf(10) ** -45
