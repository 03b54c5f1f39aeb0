"""``MONOTONE`` -> CERTIFIED: a monotone enclosure checked by branch and bound with Arb balls.

The sign of every partial derivative of ``lhs`` and ``rhs`` in each continuous variable is established on the box
(sympy, or ``mpmath.iv``: :class:`~dpverify.symbolic.monotonicity.Directions`; an integer axis is enumerated). On each
cell the largest ``lhs`` and the smallest ``rhs`` are then taken at the cell's corners and enclosed in Arb balls
(python-flint, 256 bits); a cell counts only if the ball of ``rhs - lhs`` is > 0. A cell that fails when it cannot be
split, or when the cell budget runs out, is evaluated at its centre (REFUTED there if it violates the statement).
"""
from __future__ import annotations

from ..arb import NOT_INSTALLED, PREC_BITS, arb_eval, ball, flint_or_none
from ..monotonicity import Directions
from ..verdicts import CheckResult, ProofVerdict
from .certify import run_box
from .registry import Strategy, register

__all__ = ["monotone"]


def _arrow(d: int) -> str:
    return "up" if d > 0 else "down" if d < 0 else "flat"


@register(Strategy.MONOTONE)
def monotone(lemma):
    names, cells = lemma.initial_cells()
    syms = lemma.symbols_by_name()
    signs = Directions(lemma.box, syms)
    dirs = {}
    for n in names:
        if lemma.box[n].scale == "int":
            continue
        dl = signs.sign(lemma.lhs, syms[n], names)
        dr = signs.sign(lemma.rhs, syms[n], names)
        if dl is None or dr is None:
            return f"monotonicity in {n} not established (lhs: {dl}, rhs: {dr})"
        dirs[n] = (dl, dr)
    if flint_or_none() is None:
        return NOT_INSTALLED

    def certify(cell) -> bool:
        hi_l, lo_r = {}, {}
        for n, (lo, hi) in zip(names, cell):
            if lemma.box[n].scale == "int":
                hi_l[syms[n]] = lo_r[syms[n]] = ball(int(lo))
                continue
            dl, dr = dirs[n]
            hi_l[syms[n]] = ball(hi if dl >= 0 else lo)
            lo_r[syms[n]] = ball(lo if dr >= 0 else hi)
        L, R = arb_eval(lemma.lhs, hi_l), arb_eval(lemma.rhs, lo_r)
        # certified sign of the cell: the ball of R - L lies strictly above 0
        return (R - L).lower() > 0

    run, failed = run_box(lemma, names, cells, certify)
    if run is None:
        return failed
    directions = ", ".join(f"{n}: lhs {_arrow(a)}, rhs {_arrow(b)}" for n, (a, b) in dirs.items())
    return CheckResult(ProofVerdict.CERTIFIED,
                       f"{lemma.id}: certified on {lemma.box_text()} by monotone enclosure ({directions}; directions "
                       f"by sympy or mpmath.iv); {run.visited} cells, each corner margin an Arb ball > 0 "
                       f"({PREC_BITS}-bit python-flint)", domain=lemma.certified_domain())
