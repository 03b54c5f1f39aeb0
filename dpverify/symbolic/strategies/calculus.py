"""Strategies that prove an inequality in one variable ``lemma.var`` on ``lemma.interval`` by calculus (PROVED).

* ``DERIVATIVE`` -- the margin is >= 0 at the lower end of the interval and its derivative is >= 0;
* ``CONCAVE`` -- the margin is >= 0 at both ends and its second derivative is <= 0.
"""
from __future__ import annotations

import sympy as sp

from ..verdicts import CheckResult, ProofVerdict
from .registry import Strategy, register

__all__ = ["derivative", "concave"]


@register(Strategy.DERIVATIVE)
def derivative(lemma):
    if lemma.var is None or lemma.interval is None:
        return "DERIVATIVE needs var and interval"
    g = lemma.margin
    a = lemma.interval[0]
    g_a = sp.simplify(g.subs(lemma.var, a))
    if g_a.is_nonnegative is not True:
        return f"margin at {lemma.var}={a} not shown >= 0 ({g_a})"
    dg = sp.simplify(sp.diff(g, lemma.var))
    if dg.is_nonnegative is not True:
        return f"derivative {dg} not shown >= 0"
    return CheckResult(ProofVerdict.PROVED,
                       f"{lemma.id}: margin at {lemma.var}={a} is {g_a} >= 0 and d/d{lemma.var} margin = {dg} >= 0")


@register(Strategy.CONCAVE)
def concave(lemma):
    if lemma.var is None or lemma.interval is None:
        return "CONCAVE needs var and interval"
    g = lemma.margin
    a, b = lemma.interval
    ends = [sp.simplify(g.subs(lemma.var, a)), sp.simplify(g.subs(lemma.var, b))]
    if any(e.is_nonnegative is not True for e in ends):
        return f"endpoint margins {ends} not shown >= 0"
    d2 = sp.simplify(sp.diff(g, lemma.var, 2))
    if d2.is_nonpositive is not True:
        return f"second derivative {d2} not shown <= 0"
    return CheckResult(ProofVerdict.PROVED,
                       f"{lemma.id}: on [{a}, {b}] the margin is concave (d2 = {d2} <= 0) and >= 0 at both "
                       f"ends ({ends[0]}, {ends[1]})")
