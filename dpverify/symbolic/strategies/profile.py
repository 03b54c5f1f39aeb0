"""``PROFILE`` -> CERTIFIED: the exact Gaussian privacy profile below a bound, by branch and bound with Arb balls.

``lemma.profile`` = {"epsilon": sympy expression of eps, "sigma": sympy expression of sigma / sensitivity}, and the
conclusion's ``lhs`` must be exactly :func:`~dpverify.symbolic.profiles.gaussian_profile_expr` at them. delta_BW(eps;
1, sigma) is nonincreasing in eps and in sigma (lemmas std/gaussian-profile-monotone-epsilon and -sensitivity: it
depends on sensitivity/sigma and grows with it); the directions of eps, sigma and rhs in each variable are
established by sympy, or by ``mpmath.iv`` on the cell, so each cell is bounded by one evaluation at its smallest eps
and smallest sigma (taken separately: a relaxation), enclosed in Arb balls.
"""
from __future__ import annotations

import sympy as sp

from ..arb import NOT_INSTALLED, PREC_BITS, arb_eval, ball, flint_or_none, gaussian_delta_arb
from ..monotonicity import Directions
from ..profiles import gaussian_profile_expr
from ..verdicts import CheckResult, ProofVerdict
from .certify import run_box
from .registry import Strategy, register

__all__ = ["profile"]


@register(Strategy.PROFILE)
def profile(lemma):
    """Certify delta_BW(eps; ratio) <= rhs on the box (see the module docstring)."""
    prof = lemma.profile or {}
    eps_expr, ratio = prof.get("epsilon"), prof.get("sigma")
    if eps_expr is None or ratio is None:
        return "PROFILE needs profile={'epsilon': expr, 'sigma': expr}"
    names, cells = lemma.initial_cells()
    syms = lemma.symbols_by_name()
    signs = Directions(lemma.box, syms)
    dirs = {}
    for n in names:
        if lemma.box[n].scale == "int":
            continue
        dirs[n] = (signs.sign(eps_expr, syms[n], names), signs.sign(ratio, syms[n], names),
                   signs.sign(lemma.rhs, syms[n], names))
    # the certificate encloses the Balle-Wang profile at (eps, sigma): the conclusion's lhs must be exactly that
    if lemma.lhs != gaussian_profile_expr(eps_expr, 1, ratio) and \
            sp.simplify(lemma.lhs - gaussian_profile_expr(eps_expr, 1, ratio)) != 0:
        return "the conclusion's lhs is not the Gaussian profile at the PROFILE's (epsilon, sigma)"
    if flint_or_none() is None:
        return NOT_INSTALLED
    sy = [syms[n] for n in names]

    def certify(cell) -> bool:
        # smallest eps and smallest sigma over the cell (taken separately: a relaxation)
        eps_at, ratio_at, low_r = [], [], []
        for n, (lo, hi) in zip(names, cell):
            if lemma.box[n].scale == "int":
                for lst in (eps_at, ratio_at, low_r):
                    lst.append(int(lo))
                continue
            de, dr, dh = (dd if dd is not None else signs.sign(ex, syms[n], names, cell)
                          for dd, ex in zip(dirs[n], (eps_expr, ratio, lemma.rhs)))
            if None in (de, dr, dh):
                return False  # a direction undecided on this cell: split it
            eps_at.append(lo if de >= 0 else hi)
            ratio_at.append(lo if dr >= 0 else hi)
            low_r.append(lo if dh >= 0 else hi)
        L = gaussian_delta_arb(arb_eval(eps_expr, {k: ball(v) for k, v in zip(sy, eps_at)}),
                               arb_eval(ratio, {k: ball(v) for k, v in zip(sy, ratio_at)}))
        R = arb_eval(lemma.rhs, {k: ball(v) for k, v in zip(sy, low_r)})
        return (R - L).lower() > 0

    run, failed = run_box(lemma, names, cells, certify, refute=False)
    if run is None:
        return failed
    return CheckResult(ProofVerdict.CERTIFIED,
                       f"{lemma.id}: exact Gaussian profile <= bound certified on {lemma.box_text()} "
                       f"(monotone enclosure: profile decreasing in eps and in sigma; "
                       f"directions by sympy or mpmath.iv per cell; {run.visited} cells, each margin an Arb ball > 0, "
                       f"{PREC_BITS}-bit python-flint)", domain=lemma.certified_domain())
