"""The one branch-and-bound routine of the certifiers (dpverify.symbolic.branch_bound).

All checks are deterministic (exact rationals or Arb balls): no false-failure rate to state.
"""
from __future__ import annotations

from fractions import Fraction

import pytest
import sympy as sp

from dpverify.symbolic import Lemma, ProofVerdict, Range, Strategy
from dpverify.symbolic.branch_bound import Outcome, bisect, branch_and_bound, initial_cells


def _upper(cell) -> Fraction:
    """A rigorous upper bound of f(x) = x (1 - x) on [a, b] with 0 <= a <= b: f <= b - a^2."""
    (a, b), = cell
    a, b = Fraction(a), Fraction(b)
    return b - a * a


BOX = {"x": Range(0, 1)}


def _run(bound, max_cells=10_000, log=None):
    names, cells = initial_cells(BOX)

    def certify(cell):
        if log is not None:
            log.append(cell[0])
        return _upper(cell) <= bound
    return branch_and_bound(cells, certify, lambda c: bisect(BOX, names, c), max_cells)


def test_a_known_bound_is_certified_and_a_false_one_is_not():
    """max of x (1 - x) on [0, 1] is 1/4 (at 1/2): 1/4 + 1/100 is certified, 0.24 is not."""
    ok = _run(Fraction(1, 4) + Fraction(1, 100))
    assert ok.outcome is Outcome.CERTIFIED and ok.certified and ok.cell is None and ok.visited > 1
    bad = _run(Fraction(24, 100))
    assert not bad.certified and bad.outcome is Outcome.UNSPLITTABLE
    (a, b), = bad.cell  # it stops at the edge of the region where x (1 - x) > 0.24, i.e. (0.4, 0.6)
    assert b - a < 1e-8 and 0.4 - 1e-6 <= a <= b <= 0.6 + 1e-6
    assert _upper(bad.cell) > Fraction(24, 100)
    short = _run(Fraction(24, 100), max_cells=50)
    assert short.outcome is Outcome.BUDGET and short.visited == 51


def test_cells_are_visited_depth_first_last_cell_first():
    """Certify only cells of width <= 1/4: the visit is [0, 1], then the upper half first, each to the end."""
    log = []
    names, cells = initial_cells(BOX)
    res = branch_and_bound(cells, lambda c: (log.append(c[0]) or c[0][1] - c[0][0] <= 0.25),
                           lambda c: bisect(BOX, names, c), 100)
    assert res.outcome is Outcome.CERTIFIED and res.visited == 7
    assert log == [(0, 1), (0.5, 1), (0.75, 1), (0.5, 0.75), (0, 0.5), (0.25, 0.5), (0, 0.25)]


def test_budget_and_unsplittable_cells_end_the_run():
    names, cells = initial_cells(BOX)
    never = branch_and_bound(cells, lambda c: False, lambda c: bisect(BOX, names, c), 3)
    assert never.outcome is Outcome.BUDGET and never.visited == 4
    stuck = branch_and_bound(cells, lambda c: False, lambda c: None, 3)
    assert stuck.outcome is Outcome.UNSPLITTABLE and stuck.visited == 1 and stuck.cell == [(0, 1)]


def test_integer_axes_are_enumerated_and_never_split():
    box = {"k": Range(1, 3, "int"), "x": Range(1, 100, "log")}
    names, cells = initial_cells(box)
    assert names == ["k", "x"] and [c[0] for c in cells] == [(1.0, 1.0), (2.0, 2.0), (3.0, 3.0)]
    lo, hi = bisect(box, names, cells[0])
    assert lo[0] == hi[0] == (1.0, 1.0)
    assert lo[1] == (1, pytest.approx(10.0)) and hi[1] == (pytest.approx(10.0), 100)  # geometric middle
    assert bisect(box, names, [(1.0, 1.0), (5.0, 5.0)]) is None


def test_the_interval_strategy_runs_on_it():
    """Through a lemma: the same known function, certified at 1/4 + 1/100 and refuted at 0.24 (the failed cell's
    centre is a counterexample; samples=0 so the point search does not find it first)."""
    pytest.importorskip("flint")
    x = sp.Symbol("x", real=True)
    hyp = (sp.Ge(x, 0), sp.Le(x, 1))
    true = Lemma(id="t/bb", source="test", statement="x (1 - x) <= 1/4 + 1/100", symbols=(x,), hypotheses=hyp,
                 conclusion=sp.Le(x * (1 - x), sp.Rational(1, 4) + sp.Rational(1, 100)), strategy=Strategy.INTERVAL,
                 box={"x": Range(0, 1)}, samples=0, max_cells=2000)
    res = true.check()
    assert res.verdict is ProofVerdict.CERTIFIED, res.evidence
    false = true.mutated(conclusion=sp.Le(x * (1 - x), sp.Rational(24, 100)))
    res = false.check()
    assert res.verdict is ProofVerdict.REFUTED, res.evidence
    v = float(res.counterexample["x"])
    assert v * (1 - v) > 0.24
