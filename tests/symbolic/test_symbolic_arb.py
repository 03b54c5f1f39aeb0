"""Certificates are rigorous (Arb balls) and never claimed without python-flint or on a wrong monotonicity.

All checks are deterministic (symbolic or ball arithmetic): no false-failure rate to state.
"""
from __future__ import annotations

import sys

import pytest
import sympy as sp

from dpverify.symbolic import Lemma, ProofVerdict, Range, Strategy, get_lemma
from dpverify.symbolic.strategies import handler_for

flint = pytest.importorskip("flint")


def _integer_axis_trap() -> Lemma:
    """False: (2 - k) x <= 1 - (3/4)(k - 1) on x in [0, 1], k in {1, 2, 3}; at k = 3, x = 0: 0 > -1/2.

    d lhs/dx = 2 - k is positive at the integer axis's lower end (k = 1) and negative at k = 3: a certifier
    that fixes the integer axis at its lower end to decide the direction takes x = 1 as the worst case for
    every k and certifies it."""
    x = sp.Symbol("x", real=True)
    k = sp.Symbol("k", integer=True, positive=True)
    return Lemma(id="test/integer-axis-trap", source="test", statement="trap", symbols=(x, k),
                 conclusion=sp.Le((2 - k) * x, 1 - sp.Rational(3, 4) * (k - 1)), strategy=Strategy.MONOTONE,
                 box={"x": Range(0, 1), "k": Range(1, 3, "int")}, samples=0)


def test_integer_axis_is_not_fixed_at_its_lower_end():
    lem = _integer_axis_trap()
    res = handler_for(Strategy.MONOTONE)(lem)  # the certifier alone, without the search that would find the counterexample
    assert not (hasattr(res, "verdict") and res.verdict is ProofVerdict.CERTIFIED), res
    assert lem.check().verdict is ProofVerdict.REFUTED


def test_certified_only_with_python_flint(monkeypatch):
    lem = get_lemma("std/gaussian-tail")
    assert lem.check().verdict is ProofVerdict.CERTIFIED
    monkeypatch.setitem(sys.modules, "flint", None)  # `import flint` raises ImportError: python-flint not installed
    res = lem.check()
    assert res.verdict is ProofVerdict.TESTED
    assert "python-flint not installed" in res.evidence


def test_interval_certificate_refuses_a_false_tight_statement():
    """x e^-x <= x + 1/100 - x^2 ... : x^2 <= x + 1/100 holds on [0, 1] and fails on [0, 1.2] (at 1.2: 1.44 > 1.21).
    The statement says 0 <= x <= 1 as hypotheses: the box alone does not restrict it (the search also looks outside)."""
    x = sp.Symbol("x", real=True)
    concl = sp.Le(x**2, x + sp.Rational(1, 100))
    ok = Lemma(id="t/ok", source="t", statement="t", symbols=(x,), conclusion=concl, strategy=Strategy.INTERVAL,
               box={"x": Range(0, 1)}, samples=10, hypotheses=(sp.Ge(x, 0), sp.Le(x, 1)))
    bad = ok.mutated(box={"x": Range(0, 1.2)}, hypotheses=(sp.Ge(x, 0), sp.Le(x, sp.Rational(6, 5))))
    assert ok.check().verdict is ProofVerdict.CERTIFIED
    refused = handler_for(Strategy.INTERVAL)(bad)  # the certifier does not certify it: its failing cell's centre is a counterexample
    assert not isinstance(refused, str) and refused.verdict is ProofVerdict.REFUTED
    assert float(refused.counterexample["x"]) > 1
    assert bad.check().verdict is ProofVerdict.REFUTED


def test_certified_evidence_names_the_ball_arithmetic():
    res = get_lemma("std/laurent-massart").check()
    assert res.verdict is ProofVerdict.CERTIFIED and "Arb" in res.evidence
