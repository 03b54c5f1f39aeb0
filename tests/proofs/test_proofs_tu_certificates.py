"""tu-projections Theorems 1 (sqrt-closed) and 2: the conclusion certified on a box by Arb branch and bound.

The certificate (``ProjectedProfileLemma``) encloses the exact privacy profile of the release (P, XP + G), a chi2_k
mixture of Gaussian profiles, with Arb balls. These tests run it on a small box (a few seconds) and attack it: a
sigma ten times too small must be refuted by an Arb lower bound (re-checked here with mpmath), the enclosures must
bracket an independent quadrature, and every false mutant of the mutation campaign must be killed. All checks are
deterministic (Arb balls, fixed grids, seeded searches): no false-failure rate to state.
"""
from __future__ import annotations

import importlib

import mpmath
import pytest
import sympy as sp

from dpverify.symbolic import ProofVerdict, Range, get_derivation
from dpverify.symbolic.mutation import mutants, numerically_false, run_campaign
from dpverify.symbolic.numeric import projected_delta, projected_delta_lower

flint = pytest.importorskip("flint")
T = importlib.import_module("dpverify_proofs.tu_projections")

SMALL = {"epsilon": Range(0.1, 1, "log"), "delta": Range(1e-6, 0.5, "log"), "k": Range(1, 2, "int")}
CASES = [("tu-projections/theorem-1", "sqrt-closed"), ("tu-projections/theorem-2", "as-printed")]


@pytest.mark.parametrize("did,reading", CASES)
def test_small_box_is_certified_and_named(did, reading):
    res = T.projected_statement(did, reading, SMALL).check()
    assert res.verdict is ProofVerdict.CERTIFIED, res.evidence
    assert "epsilon in [0.1, 1], delta in [1e-06, 0.5], k in [1, 2] (integers)" in res.evidence


@pytest.mark.parametrize("did,reading,factor", [(*CASES[0], 10), (*CASES[1], 100)])
def test_sigma_too_small_is_refuted_and_the_point_rechecks(did, reading, factor):
    """The adversary: the same statement with sigma/factor (Theorem 2's sigma has more slack). The certificate must
    not certify it; its counterexample (an Arb lower bound above delta) is re-evaluated here by mpmath's rigorous
    lower bound at 30 digits."""
    res = T.projected_statement(did, reading, SMALL, sigma_factor=sp.Rational(1, factor)).check()
    assert res.verdict is ProofVerdict.REFUTED, res.evidence
    ce = res.counterexample
    e, d, k = mpmath.mpf(ce["epsilon"]), mpmath.mpf(ce["delta"]), int(float(ce["k"]))
    expr = get_derivation(did).printed[reading]
    syms = {x.name: x for x in expr.free_symbols}
    sigma = sp.N(expr.subs({syms["B"]: 1, syms["sigma_p"]: 1, syms["epsilon"]: sp.Float(ce["epsilon"], 30),
                            syms["delta"]: sp.Float(ce["delta"], 30), syms["k"]: k}) / factor, 30)
    with mpmath.workdps(30):
        assert projected_delta_lower(e, k, mpmath.mpf(str(sigma)), cells=200) > d


@pytest.mark.parametrize("eps,k,sigma", [(0.1, 1, 12.0), (1.0, 2, 3.0), (0.5, 5, 2.0), (0.01, 3, 400.0)])
def test_arb_enclosures_bracket_the_quadrature(eps, k, sigma):
    """A lying enclosure (or a wrong chi2 mass) would put the quadrature outside [lower, upper]."""
    flint.ctx.prec = 64
    lo, hi = T._mixture_bounds(flint.arb(str(eps)), k, flint.arb(str(sigma)), 1e-12, cells=T.QUAD_CELLS)
    exact = projected_delta(eps, k, sigma, dps=15)
    assert float(lo.lower()) <= float(exact) <= float(hi.upper())
    fl = T.projected_delta_float(eps, k, sigma)
    assert abs(fl / float(exact) - 1) < 1e-7  # the mutation campaign's independent evaluation


def test_rationalised_is_the_same_function():
    expr = get_derivation("tu-projections/theorem-2").printed["as-printed"]
    r = T.rationalised(expr)
    assert r != expr  # the difference of square roots was rewritten
    syms = {x.name: x for x in expr.free_symbols}
    for e, d, k in [(0.5, 1e-5, 3), (0.01, 0.4, 1), (0.9, 1e-12, 20)]:
        vals = {syms["epsilon"]: sp.Float(e, 40), syms["delta"]: sp.Float(d, 40), syms["k"]: k, syms["B"]: 1,
                syms["sigma_p"]: 1}
        a, b = sp.N(expr.subs(vals), 30), sp.N(r.subs(vals), 30)
        assert abs(a - b) <= sp.Float(10) ** -25 * abs(a)


def test_flipped_statement_is_false_and_refuted():
    """The default suite's share of the campaign below: the flipped inequality (exact delta(eps) >= delta), on
    Theorem 2 (the cheaper re-evaluation; the slow campaign covers both)."""
    for did, reading in CASES[1:]:
        st = T.projected_statement(did, reading, SMALL)
        flip = next(m for m in mutants(did, st) if m.description == "inequality flipped")
        assert numerically_false(flip.statement, n=10) is not None
        assert flip.statement.check().verdict is ProofVerdict.REFUTED


@pytest.mark.slow
def test_mutation_campaign_kills_every_false_mutant():
    sts = {f"{did}/{reading}": T.projected_statement(did, reading, SMALL) for did, reading in CASES}
    rep = run_campaign(sts, n=20)
    assert len(rep.claims) == 2
    assert len(rep.false_mutants) >= 2  # at least the flipped inequalities
    assert not rep.survivors, [(o.mutant.claim, o.mutant.description) for o in rep.survivors]


def test_a_violation_between_the_search_points_is_not_certified():
    """The adversary the corner search cannot see: the claimed delta dips by a factor 1e-6 in a narrow band
    around eps = 0.3 (none of the searched corners or centres). The branch and bound must not certify it."""
    st = T.projected_statement(*CASES[0], SMALL)
    e = next(s for s in st.symbols if s.name == "epsilon")
    d = next(s for s in st.symbols if s.name == "delta")
    dip = 1 - (1 - sp.Rational(1, 10**6)) * sp.exp(-1000 * (sp.log(e) - sp.log(sp.Rational(3, 10))) ** 2)
    bad = st.mutated(conclusion=sp.Le(st.conclusion.lhs, d * dip, evaluate=False), max_cells=3000)
    at = {e: sp.Rational(3, 10), d: sp.Rational(1, 10), next(s for s in st.symbols if s.name == "k"): 1}
    assert sp.N(bad.conclusion.lhs.subs(at), 15) > sp.N(bad.conclusion.rhs.subs(at), 15)  # false there
    assert bad.check().verdict is not ProofVerdict.CERTIFIED
