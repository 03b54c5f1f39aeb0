"""Verdict rules of the proof checker: honest point counts, no-box identities, weakest-premise semantics.

* ``Lemma.check`` never claims points it did not evaluate: TESTED reports the number of points at which
  the conclusion was actually evaluated (finite, real, hypotheses holding); with none, UNKNOWN.
* An identity sympy declares false (``.equals(0) is False``) is REFUTED only with a counterexample
  re-evaluated at 50 digits; without one it is UNKNOWN, never TESTED.
* ``chain`` / ``rests_on`` / ``weakest``: a result is no stronger than its weakest premise
  (PROVED ~ CERTIFIED > TESTED > UNKNOWN; REFUTED dominates in a chain); ``stated`` steps are UNKNOWN.

All checks are deterministic (symbolic, or seeded searches): no false-failure rate to state.
"""
from __future__ import annotations

import re

import mpmath
import pytest
import sympy as sp

from dpverify.symbolic import CheckResult, ClaimReport, Lemma, ProofVerdict, Range, Strategy
from dpverify.symbolic.point_search import points, search
from dpverify.symbolic.proof import chain, proved, rests_on, stated, unknown, weakest
from dpverify.symbolic import proof as pf  # pf.tested: a bare name "tested" would be collected by pytest

x = sp.Symbol("x", positive=True)
P, C, T, U, R = (ProofVerdict.PROVED, ProofVerdict.CERTIFIED, ProofVerdict.TESTED, ProofVerdict.UNKNOWN,
                 ProofVerdict.REFUTED)


def _lemma(conclusion, **kw):
    return Lemma(id="test/lemma", source="test", statement="test", symbols=(x,), conclusion=conclusion, **kw)


def _count(evidence: str) -> int:
    return int(re.search(r"(\d+) evaluated points", evidence).group(1))


# ------------------------------------------------------------------ identities without a box
def test_false_identity_without_box_is_refuted_with_a_50_digit_counterexample():
    """log(x^2) == 3 log(x) for x > 0 is false; sympy's simplify does not zero it, .equals says False."""
    lem = _lemma(sp.Eq(sp.log(x**2), 3 * sp.log(x), evaluate=False))
    assert (lem.lhs - lem.rhs).equals(0) is False
    res = lem.check()
    assert res.verdict is R, res.evidence
    with mpmath.workdps(60):
        v = mpmath.mpf(res.counterexample["x"])
        assert v > 0  # inside the symbol's assumption domain
        assert abs(mpmath.log(v**2) - 3 * mpmath.log(v)) > mpmath.mpf(10) ** -10


def test_sympy_false_without_counterexample_is_unknown_not_tested():
    """x == x + exp(-10^6 x - 10^4): false, but the difference is below every sampled resolution."""
    lem = _lemma(sp.Eq(x, x + sp.exp(-10**6 * x - 10**4), evaluate=False))
    res = lem.check()
    assert res.verdict is U, res.evidence
    assert "equals(0) is False" in res.evidence and "no counterexample" in res.evidence
    assert _count(res.evidence) == search(lem).evaluated > 0


def test_undecided_true_identity_without_box_counts_the_points_it_evaluated():
    """asinh(x) == log(x + sqrt(x^2 + 1)): sympy's simplify and .equals do not decide it."""
    lem = _lemma(sp.Eq(sp.asinh(x), sp.log(x + sp.sqrt(x**2 + 1)), evaluate=False), samples=50)
    res = lem.check()
    assert res.verdict is T, res.evidence
    # every point of the no-box search (fixed points of (0, oo), then 50 seeded ones) evaluates here
    n_points = len(list(points(lem)))
    assert _count(res.evidence) == n_points == search(lem).evaluated
    assert 50 < n_points < 70
    assert "(no box" in res.evidence


def test_points_violating_a_hypothesis_are_not_counted():
    lem = _lemma(sp.Le(x, x + 1, evaluate=False), hypotheses=(sp.Le(x, 1),), box={"x": Range(0.01, 10)}, samples=100)
    res = lem.check()
    assert res.verdict is T
    inside = sum(1 for pt in points(lem) if pt["x"] <= 1)
    assert 0 < inside < len(list(points(lem)))
    assert _count(res.evidence) == inside


def test_no_evaluable_point_gives_unknown():
    """Every point violates the hypothesis x >= 2000 (the no-box search samples x in [1e-3, 1e3])."""
    lem = _lemma(sp.Le(x, x + 1, evaluate=False), hypotheses=(sp.Ge(x, 2000),))
    res = lem.check()
    assert res.verdict is U, res.evidence
    assert "could be evaluated" in res.evidence


def test_false_inequality_without_box_is_refuted():
    y = sp.Symbol("y", real=True)
    lem = Lemma(id="test/sin", source="test", statement="sin y <= 9/10", symbols=(y,),
                conclusion=sp.Le(sp.sin(y), sp.Rational(9, 10)), strategy=Strategy.SAMPLED)
    res = lem.check()
    assert res.verdict is R
    with mpmath.workdps(60):
        assert mpmath.sin(mpmath.mpf(res.counterexample["y"])) > mpmath.mpf("0.9")


# ------------------------------------------------------------------ weakest-premise semantics
def test_weakest_order():
    assert weakest(proved("a"), certified_(), pf.tested("c")) is T
    assert weakest(proved("a"), unknown("u")) is U
    assert weakest(proved("a"), CheckResult(R, "r", counterexample={"x": "1"})) is R
    assert weakest(proved("a"), certified_()) is C
    assert weakest() is U


def certified_():
    return CheckResult(C, "certified")


def test_chain_is_no_stronger_than_its_weakest_step():
    assert chain([("a", proved("a")), ("b", pf.tested("b"))]).verdict is T
    res = chain([("a", proved("a")), ("b", stated("cited")), ("c", pf.tested("c"))])
    assert res.verdict is U and "first undecided step: b" in res.evidence and "not machine-checked" in res.evidence
    bad = CheckResult(R, "bad", counterexample={"x": "1"})
    res = chain([("a", stated("cited")), ("b", bad)])
    assert res.verdict is R and res.counterexample == {"x": "1"} and "first failing step: b" in res.evidence


@pytest.mark.parametrize("premise, expected", [
    (proved("p"), P), (certified_(), C), (pf.tested("t"), T), (unknown("u"), U), (stated("s"), U),
    (CheckResult(R, "r", counterexample={"x": "1"}), U),
], ids=["proved", "certified", "tested", "unknown", "stated", "refuted-premise"])
def test_rests_on_caps_a_proved_result(premise, expected):
    res = rests_on(proved("own computation"), ("premise", premise))
    assert res.verdict is expected
    assert "premise" in res.evidence


def test_rests_on_keeps_an_own_refutation():
    own = CheckResult(R, "own counterexample", counterexample={"x": "2"})
    assert rests_on(own, ("premise", pf.tested("t"))).verdict is R


def test_stated_is_unknown_and_reports_carry_the_reason():
    s = stated("Boole's inequality")
    assert s.verdict is U and "not machine-checked" in s.evidence
    report = ClaimReport("p/l", "statement", steps=chain([("union bound", s)]), conclusion=pf.tested("t"))
    assert "Boole's inequality" in report.reason
