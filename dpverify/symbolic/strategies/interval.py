"""``INTERVAL`` -> CERTIFIED: the margin ``rhs - lhs`` enclosed in an Arb ball on each cell of a branch and bound.

Integer axes are enumerated; a cell counts when the ball of the margin on the whole cell is >= 0 (> 0 for a strict
inequality). A cell that fails when it cannot be split, or when the cell budget runs out, is evaluated at its centre
(REFUTED there if it violates the statement).
"""
from __future__ import annotations

from ..arb import NOT_INSTALLED, PREC_BITS, arb_eval, ball, flint_or_none
from ..verdicts import CheckResult, ProofVerdict
from .certify import run_box
from .registry import Strategy, register

__all__ = ["interval"]


@register(Strategy.INTERVAL)
def interval(lemma):
    names, cells = lemma.initial_cells()
    syms = lemma.symbols_by_name()
    if flint_or_none() is None:
        return NOT_INSTALLED

    def certify(cell) -> bool:
        val = arb_eval(lemma.margin, {syms[n]: ball(lo, hi) for n, (lo, hi) in zip(names, cell)})
        return (val.lower() > 0) if lemma.strict else (val.lower() >= 0)

    run, failed = run_box(lemma, names, cells, certify)
    if run is None:
        return failed
    return CheckResult(ProofVerdict.CERTIFIED,
                       f"{lemma.id}: certified on {lemma.box_text()} by branch and bound with Arb balls "
                       f"({PREC_BITS}-bit python-flint): the margin's enclosure is >= 0 on each of {run.visited} cells",
                       domain=lemma.certified_domain())
