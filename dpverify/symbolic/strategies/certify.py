"""What the box certifiers share: the failure of a branch and bound in words, and a refutation at a failed cell.

* :func:`unsettled` -- the reason a :class:`~dpverify.symbolic.branch_bound.BranchBound` did not certify (budget, or a
  cell too narrow to split), or, for the certifiers that allow it, REFUTED at that cell's centre;
* :func:`run_box` -- the branch and bound of a certifier over the lemma's cells, with those failures in words;
* :func:`centre_refutation` -- a failed cell's centre evaluated rigorously: REFUTED when every hypothesis holds there
  (exact rationals) and the margin's Arb ball lies strictly below 0.
"""
from __future__ import annotations

import sympy as sp

from ..arb import PREC_BITS, ArbUnsupported, arb_eval, ball, flint_or_none
from ..branch_bound import BranchBound, Outcome, branch_and_bound
from ..verdicts import CheckResult, ProofVerdict

__all__ = ["run_box", "unsettled", "centre_refutation"]


def run_box(lemma, names, cells, certify, refute: bool = True) -> tuple[BranchBound | None, CheckResult | str | None]:
    """``(run, None)`` when ``certify`` certifies every cell of the lemma's branch and bound (split by
    ``lemma.split_cell``, budget ``lemma.max_cells``); else ``(None, what the handler returns)``: ``"Arb: ..."`` when a
    cell cannot be put in balls, or :func:`unsettled`."""
    try:
        run = branch_and_bound(cells, certify, lambda cell: lemma.split_cell(names, cell), lemma.max_cells)
    except ArbUnsupported as exc:
        return None, f"Arb: {exc}"
    if not run.certified:
        return None, unsettled(lemma, names, run, refute=refute)
    return run, None


def unsettled(lemma, names, run: BranchBound, refute: bool = True) -> CheckResult | str:
    """Why ``run`` did not certify ``lemma``: ``"cell budget N exhausted"`` or ``"a cell of width ~0 near ... could
    not be certified"``; with ``refute``, a REFUTED result at the failed cell's centre when there is one."""
    if run.outcome is Outcome.BUDGET:
        why = f"cell budget {lemma.max_cells} exhausted"
    else:
        why = f"a cell of width ~0 near {dict(zip(names, run.cell))} could not be certified"
    if refute:
        return centre_refutation(lemma, names, run.cell) or why
    return why


def centre_refutation(lemma, names, cell) -> CheckResult | None:
    """When a certifier's cell fails: the cell's centre evaluated rigorously (exact rationals for the hypotheses, an
    Arb ball for the margin). REFUTED when every hypothesis holds there and the margin's ball lies strictly below 0
    (at or below 0 for a strict inequality): a refutation beats ``tested``. None otherwise."""
    if flint_or_none() is None:
        return None
    syms = lemma.symbols_by_name()
    point = {}
    for n, (lo, hi) in zip(names, cell):
        point[n] = int(lo) if lemma.box[n].scale == "int" else (float(lo) + float(hi)) / 2  # a float: exact in Arb
    sub = {syms[n]: sp.Rational(v) for n, v in point.items()}
    for h in lemma.hypotheses:
        try:
            if sp.sympify(h).xreplace(sub) is not sp.true:
                return None
        except (TypeError, ValueError):
            return None
    try:
        m = arb_eval(lemma.margin, {syms[n]: ball(v) for n, v in point.items()})
    except (ArbUnsupported, TypeError, ValueError, ZeroDivisionError):
        return None
    if not (m.upper() < 0 or (lemma.strict and m.upper() <= 0)):
        return None
    ce = {n: repr(v) for n, v in point.items()}
    ce["margin_upper"] = str(float(m.upper()))
    return CheckResult(ProofVerdict.REFUTED, f"{lemma.id}: a certifier's cell failed and its centre {ce} violates the "
                                             f"statement: the margin rhs - lhs is an Arb ball below 0 (upper end "
                                             f"{float(m.upper()):.6g}, {PREC_BITS}-bit python-flint)",
                       counterexample=ce)
