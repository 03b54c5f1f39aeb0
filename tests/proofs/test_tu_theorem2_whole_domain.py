"""tu-projections Theorem 2 (derived sigma) on its whole domain (round 12).

The conclusion no longer rests on Lemma 3's box certificate (k <= 20): Theorem 2's derived sigma dominates Theorem 1's
derived sigma for every 0 < eps <= 1, 0 < delta <= 1/2, k >= 1 (sympy), and Theorem 1's derived reading is proved for
every k. These tests attack the comparison: Theorem 2's sigma halved is below Theorem 1's at a point (computed here
independently with mpmath from the derivations), and the check must then not be proved. Deterministic (sympy, fixed
points): no false-failure rate to state.
"""
from __future__ import annotations

import importlib

import mpmath
import pytest

from dpverify.symbolic import ProofVerdict, get_derivation
from dpverify.symbolic.numeric import projected_delta_lower

T = importlib.import_module("dpverify_proofs.tu_projections")


def _sigma(did, factor, eps, delta, k):
    der = get_derivation(did)
    syms = {x.name: x for x in der.expression.free_symbols}
    val = der.expression.subs({syms["B"]: 1, syms["sigma_p"]: 1, syms["epsilon"]: eps, syms["delta"]: delta,
                               syms["k"]: k})
    with mpmath.workdps(40):
        return factor * mpmath.mpf(str(val.evalf(40)))


def test_comparison_is_proved_and_holds_on_a_grid():
    res = T.t2_derived_dominates_t1()
    assert res.verdict is ProofVerdict.PROVED, res.evidence
    # independent numeric check over corners of the domain, including k far beyond Lemma 3's box (k <= 20)
    for eps in ("1e-6", "0.5", "0.999"):
        for delta in ("1e-40", "1e-5", "0.4999"):
            for k in (1, 7, 10**4):
                assert _sigma("tu-projections/theorem-2", 1, eps, delta, k) >= _sigma("tu-projections/theorem-1", 1, eps,
                                                                                    delta, k)


def test_halved_sigma_is_not_proved_and_is_false_at_a_point():
    res = T.t2_derived_dominates_t1(sigma2_factor="1/2")
    assert res.verdict is not ProofVerdict.PROVED
    # the halved comparison is false near eps -> 0, delta -> 1/2, k = 1: the check had to fail
    assert _sigma("tu-projections/theorem-2", mpmath.mpf(1) / 2, "1e-6", "0.4999", 1) < \
        _sigma("tu-projections/theorem-1", 1, "1e-6", "0.4999", 1)


def test_claim_is_whole_domain_and_names_its_route():
    reports = {r.id: r for r in T.theorem_2()}
    rep = reports["tu-projections/theorem-2/derived"]
    assert rep.conclusion.verdict is ProofVerdict.PROVED
    assert rep.strength == "proved", rep.strength
    assert "Theorem 1" in rep.conclusion.evidence
    # the printed reading is below Theorem 1's derived sigma near delta = 1/2, but above its sqrt-closed sigma
    printed = reports["tu-projections/theorem-2"]
    assert printed.strength == "certified", printed.strength_label
    assert "sqrt-closed" in printed.conclusion.evidence


@pytest.mark.parametrize("eps,delta,k", [("1e-6", "0.4999", 1)])
def test_printed_reading_is_not_dominated(eps, delta, k):
    """Why the printed reading keeps its box: its sigma is below Theorem 1's derived sigma there."""
    der = get_derivation("tu-projections/theorem-2")
    expr = der.printed["as-printed"]
    syms = {x.name: x for x in expr.free_symbols}
    printed = mpmath.mpf(str(expr.subs({syms["B"]: 1, syms["sigma_p"]: 1, syms["epsilon"]: eps, syms["delta"]: delta,
                                        syms["k"]: k}).evalf(30)))
    assert printed < _sigma("tu-projections/theorem-1", 1, eps, delta, k)


# ---------------------------------------------------------------- Theorem 1, sqrt-closed reading, whole domain
flint = pytest.importorskip("flint")


def test_sqrt_closed_gaussian_step_is_certified_on_the_whole_domain():
    res = T.sqrt_closed_whole_domain()
    assert res.verdict is ProofVerdict.CERTIFIED and res.domain == "whole", res.evidence
    concl = T.theorem_1_sqrt_closed_whole_domain()
    assert concl.verdict is ProofVerdict.CERTIFIED and concl.domain == "whole" and not concl.premises


def test_sqrt_closed_sigma_too_small_is_not_certified_and_is_false():
    """sigma / 10 (c_var = 2/100): the argument fails (named), and the mechanism is not (eps, delta)-DP at a point
    (a rigorous lower bound on the exact profile, mpmath)."""
    res = T.sqrt_closed_whole_domain(c_var="1/50")
    assert res.verdict is not ProofVerdict.CERTIFIED
    assert "c_var >= 2" in res.evidence
    expr = get_derivation("tu-projections/theorem-1").printed["sqrt-closed"]
    syms = {x.name: x for x in expr.free_symbols}
    sigma = mpmath.mpf(str(expr.subs({syms["B"]: 1, syms["sigma_p"]: 1, syms["epsilon"]: 1, syms["delta"]: "0.3",
                                       syms["k"]: 1}).evalf(30)))
    assert projected_delta_lower(1.0, 1, sigma / 10, cells=200) > mpmath.mpf("0.3")


def test_sqrt_closed_claim_is_whole_domain():
    reports = {r.id: r for r in T.theorem_1()}
    rep = reports["tu-projections/theorem-1/sqrt-closed"]
    assert rep.strength == "certified", rep.strength_label
    assert any(n.startswith("cross-check: the Arb certificate") for n in rep.notes)


def test_printed_theorem_2_comparison_and_its_adversary():
    assert T.t2_printed_dominates_sqrt_closed().verdict is ProofVerdict.PROVED
    res = T.t2_printed_dominates_sqrt_closed(sigma2_factor="1/2")
    assert res.verdict is not ProofVerdict.PROVED and "eps = 0" in res.evidence
    # the halved comparison is false: at eps -> 1, delta -> 1/2, k = 1 the ratio is about 1.23, so halved it is < 1
    der2, der1 = get_derivation("tu-projections/theorem-2"), get_derivation("tu-projections/theorem-1")

    def value(expr, eps, delta, k):
        syms = {x.name: x for x in expr.free_symbols}
        return mpmath.mpf(str(expr.subs({syms["B"]: 1, syms["sigma_p"]: 1, syms["epsilon"]: eps, syms["delta"]: delta,
                                         syms["k"]: k}).evalf(30)))
    s2 = value(der2.printed["as-printed"], "0.999", "0.4999", 1)
    s1 = value(der1.printed["sqrt-closed"], "0.999", "0.4999", 1)
    assert s2 >= s1 > s2 / 2
