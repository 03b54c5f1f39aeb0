"""The campaign's falseness check (``mutation.numerically_false``) against adversaries.

A false mutant that the numeric check calls true never reaches the kill rate, so the check must find narrow false
regions; and it must never call a true statement false. Adversaries: statements false only in a window of relative
width ~1e-3 (one and two symbols, an integer symbol) or only next to a hypothesis boundary, which the sampled screen
alone (``search=False``) misses and the local search finds; true statements with a tight margin (equality on a
curve, at a hypothesis boundary, at the domain's end) that the search pushes against and must not call false. Also
the NaN crash of issue 14: a hypothesis that is NaN at a point (a constant mutated to 0 under 0/0) does not hold
there. Everything is deterministic (seeded screen, deterministic search, 40/80-digit confirmation): no
false-failure rate to state.
"""
from __future__ import annotations

import sympy as sp

from dpverify.symbolic import Lemma, ProofVerdict, Range, Strategy
from dpverify.symbolic.mutation import _fails_at, mutants, numerically_false, run_campaign

X = sp.Symbol("x", positive=True)
Y = sp.Symbol("y", positive=True)
K = sp.Symbol("k", integer=True, positive=True)
R = sp.Rational


def _lemma(conclusion, hypotheses=(), symbols=(X,), **kw):
    return Lemma(id="adversary", source="test", statement=str(conclusion), symbols=symbols, hypotheses=hypotheses,
                 conclusion=conclusion, strategy=Strategy.SAMPLED, **kw)


#: false only where |x - 2.7| < 1.35e-3 (relative width 1e-3 around 2.7, a value that is no corner of the screen)
WINDOW = _lemma(sp.Ge((X - R(27, 10)) ** 2, R(18225, 10 ** 10), evaluate=False))
#: false only in the disc of radius 1.35e-3 around (2.7, 3.7)
WINDOW_2D = _lemma(sp.Ge((X - R(27, 10)) ** 2 + (Y - R(37, 10)) ** 2, R(18225, 10 ** 10), evaluate=False),
                   symbols=(X, Y))
#: false only at k = 437
INT_WINDOW = _lemma(sp.Ge((K - 437) ** 2, R(1, 2), evaluate=False), symbols=(K,))
#: false only for 1/(1 + 1e-5) < x < 1, next to the boundary of the hypothesis x < 1
NEAR_BOUNDARY = _lemma(sp.Ge(1 - X, R(1, 10 ** 5) * X, evaluate=False), hypotheses=(sp.Lt(X, 1),))


def _assert_found(lem, inside):
    assert numerically_false(lem, search=False) is None  # the sampled screen alone misses it (the adversary bites)
    pt = numerically_false(lem)
    assert pt is not None and inside(pt), pt
    # the point is a confirmed failure (40 and 80 digits, hypotheses holding)
    sub = lem.substituted()
    syms = {s.name: s for s in sub.symbols}
    assert _fails_at(sub, syms, sorted(pt), None, pt)


def test_narrow_window_is_found():
    _assert_found(WINDOW, lambda p: abs(p["x"] - 2.7) < 1.35e-3)


def test_narrow_window_in_two_symbols_is_found():
    _assert_found(WINDOW_2D, lambda p: (p["x"] - 2.7) ** 2 + (p["y"] - 3.7) ** 2 < 1.35e-3 ** 2)


def test_single_integer_is_found():
    _assert_found(INT_WINDOW, lambda p: p["k"] == 437)


def test_false_region_next_to_a_hypothesis_boundary_is_found():
    _assert_found(NEAR_BOUNDARY, lambda p: 1 / (1 + 1e-5) < p["x"] < 1)


def test_tight_true_statements_are_not_called_false():
    """Equality on a curve (x = y), at a hypothesis boundary (x = 1), at the domain's end (x -> 0): the search
    drives the margin to 0 and must not report a failure."""
    true = [
        _lemma(sp.Ge(X ** 2 + Y ** 2, 2 * X * Y, evaluate=False), symbols=(X, Y)),
        _lemma(sp.Ge((X + Y) / 2, sp.sqrt(X * Y), evaluate=False), symbols=(X, Y)),
        _lemma(sp.Ge(1 - X, 0, evaluate=False), hypotheses=(sp.Le(X, 1),)),
        _lemma(sp.Ge(sp.exp(X), 1 + X, evaluate=False)),
        _lemma(sp.Eq((X + Y) ** 3, X ** 3 + 3 * X ** 2 * Y + 3 * X * Y ** 2 + Y ** 3, evaluate=False), symbols=(X, Y)),
        _lemma(sp.Ge((K - 437) ** 2, 0, evaluate=False), symbols=(K,)),
    ]
    for lem in true:
        assert numerically_false(lem) is None, lem.conclusion


def _nan_hypothesis_lemma():
    """x > c/(c + c^2) => 1/x <= 1 + c (c = 1: x > 1/2 => 1/x < 2); the mutant c = 0 makes the hypothesis 0/0."""
    c = sp.Symbol("c_nan", positive=True)
    return Lemma(id="nan", source="test", statement="x > c/(c + c^2) => 1/x <= 1 + c", symbols=(X,),
                 hypotheses=(sp.Gt(X, c / (c + c ** 2)),), conclusion=sp.Le(1 / X, 1 + c, evaluate=False),
                 strategy=Strategy.INTERVAL, box={"x": Range(0.6, 1e3, "log")}, samples=40, constants={"c_nan": 1})


def test_nan_hypothesis_does_not_hold_and_does_not_crash():
    """Issue 14: ``Lemma._hyp_ok`` raised "Invalid NaN comparison" when a mutated constant made a hypothesis 0/0,
    which crashed the campaign. A NaN hypothesis does not hold: the point is skipped, no verdict is earned from it."""
    lem = _nan_hypothesis_lemma()
    (zero,) = [m for m in mutants("nan", lem) if m.description == "constant c_nan = 0"]
    assert not zero.statement._hyp_ok({"x": 2.0})
    res = zero.statement.check()  # no crash; no point satisfies the hypothesis: nothing evaluated, no strong verdict
    assert res.verdict not in (ProofVerdict.PROVED, ProofVerdict.CERTIFIED), res.evidence
    assert numerically_false(zero.statement, n=40) is None  # no point where the hypothesis holds: never "false"
    rep = run_campaign({"nan": lem}, n=40)
    assert any(o.mutant.description == "constant c_nan = 0" for o in rep.outcomes)
    assert not rep.survivors, [(o.mutant.description, o.witness) for o in rep.survivors]
