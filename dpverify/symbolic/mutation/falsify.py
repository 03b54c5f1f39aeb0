"""The mutation campaign's numeric check: is a statement false somewhere on its domain?

:func:`numerically_false` decides independently of the checker: the sampled screen
(:func:`~dpverify.symbolic.mutation.points.sample_points`), then -- when no sampled point fails -- the local search
(:func:`~dpverify.symbolic.mutation.search.local_search`); every candidate confirmed by
:func:`~dpverify.symbolic.mutation.evaluate.fails_at` (sympy at 40 and 80 digits, every hypothesis holding).
:func:`evaluable` says whether a statement has a finite real value at any sampled point; :func:`equivalent` whether
sympy shows a mutant identical to its original. Each point is limited to
:data:`~dpverify.symbolic.mutation.evaluate.POINT_LIMIT` seconds.
"""
from __future__ import annotations

import sympy as sp

from ..dp_statements import ReducedStatement
from ..lemma import Lemma
from ..timeouts import time_limit
from . import evaluate
from .evaluate import PointTimeout, fails_at, fast_sides, lambdified, relative_margin
from .points import free_names, sample_points
from .search import local_search

__all__ = ["numerically_false", "evaluable", "equivalent", "lemma_false", "box_filter"]


def lemma_false(lem: Lemma, n: int, seed: int, search: bool = True):
    """A point of the statement's whole domain where it fails (:func:`~dpverify.symbolic.mutation.evaluate.fails_at`), or None; each point is limited to
    :data:`~dpverify.symbolic.mutation.evaluate.POINT_LIMIT` seconds (a slower point is skipped, as a point where the statement does not evaluate).

    First the sampled screen (:func:`~dpverify.symbolic.mutation.points.sample_points`); when no sampled point fails and ``search`` is set, a local search
    (:func:`local_search`) from the :data:`~dpverify.symbolic.mutation.search.SEARCH_STARTS` sampled points of smallest relative margin. Every
    candidate of either stage is confirmed by :func:`fails_at` (sympy at 40 and 80 digits, every hypothesis
    holding), so the search can only add confirmed failing points, never call a true statement false."""
    lem = lem.substituted()
    syms = {s.name: s for s in lem.symbols}
    names = free_names(lem)
    fast = lambdified(lem, names)
    inside = box_filter(lem, names)
    seen = set()
    screened = []  # (relative margin, point) of the sampled points where the fast evaluation gave real values
    for pt in sample_points(lem, n, seed):
        key = tuple(pt.get(nm) for nm in names)
        if key in seen or not inside(pt):
            continue
        seen.add(key)
        try:
            with time_limit(evaluate.POINT_LIMIT, PointTimeout):
                sides = fast_sides(fast, syms, names, pt) if fast is not None else None
                if sides is not None:
                    m = relative_margin(lem.conclusion, *sides)
                    if m is not None:
                        screened.append((m, pt))
                if fails_at(lem, syms, names, fast, pt, sides):
                    return pt
        except PointTimeout:
            continue
    if not search or fast is None or not names:
        return None
    return local_search(lem, syms, names, fast, screened, inside)


def box_filter(lem: Lemma, names):
    """Which points the statement is judged at: its whole domain, except for a lemma class that checks its box only
    (``search_outside_box = False``, e.g. a certificate whose every point is a quadrature): its verdict names the box
    and claims nothing beyond it, so it is judged on the box."""
    if getattr(type(lem), "search_outside_box", True) or not lem.box:
        return lambda pt: True
    box = {nm: lem.box[nm] for nm in names if nm in lem.box}
    return lambda pt: all(r.lo <= pt[nm] <= r.hi for nm, r in box.items())


def numerically_false(statement, n: int = 300, seed: int = 7919, search: bool = True):
    """A point where the statement fails (independent check: sampled screen, then -- unless ``search`` is False -- a
    local search from the smallest-margin sampled points; every point confirmed at 40 and 80 digits), or None."""
    if isinstance(statement, Lemma):
        return lemma_false(statement, n, seed, search)
    if isinstance(statement, ReducedStatement):
        s = statement.with_constants()
        for lem in (s.witness, s.residual):
            if lem is not None:
                pt = lemma_false(lem, n, seed, search)
                if pt is not None:
                    return pt
        return None
    raise TypeError(type(statement).__name__)


def evaluable(statement, n: int = 300, seed: int = 7919) -> bool:
    """Does the statement have finite real sides at some point of :func:`~dpverify.symbolic.mutation.points.sample_points` (the numeric check's sample)?
    True when that cannot be told (no fast numeric form): only a statement shown to have no value anywhere counts
    as not evaluable."""
    if isinstance(statement, ReducedStatement):
        s = statement.with_constants()
        return any(evaluable(lem, n, seed) for lem in (s.witness, s.residual) if lem is not None)
    lem = statement.substituted()
    if lem.conclusion.has(sp.zoo, sp.nan):  # e.g. c/0 after a constant set to 0: no value at any point
        return False
    syms = {x.name: x for x in lem.symbols}
    names = free_names(lem)
    fast = lambdified(lem, names)
    if fast is None or not names:
        return True
    for pt in sample_points(lem, n, seed):
        try:
            with time_limit(evaluate.POINT_LIMIT, PointTimeout):
                if fast_sides(fast, syms, names, pt) is not None:
                    return True
        except PointTimeout:
            continue
    return False


def _lemma_equivalent(a: Lemma, b: Lemma) -> bool:
    a, b = a.substituted(), b.substituted()
    if type(a.conclusion) is not type(b.conclusion) or {str(h) for h in a.hypotheses} != {str(h) for h in b.hypotheses}:
        return False
    if a.conclusion == b.conclusion:
        return True
    try:
        d = sp.expand((a.conclusion.lhs - a.conclusion.rhs) - (b.conclusion.lhs - b.conclusion.rhs))
    except Exception:  # noqa: BLE001 - not an arithmetic difference: not shown equivalent
        return False
    return d == 0


def equivalent(original, mutant) -> bool:
    """sympy shows the mutant's statement identical to the original's (same relation, hypotheses and margin)."""
    if isinstance(original, Lemma) and isinstance(mutant, Lemma):
        return _lemma_equivalent(original, mutant)
    if isinstance(original, ReducedStatement) and isinstance(mutant, ReducedStatement):
        o, m = original.with_constants(), mutant.with_constants()
        return all((x is None and y is None) or (x is not None and y is not None and _lemma_equivalent(x, y))
                   for x, y in ((o.residual, m.residual), (o.witness, m.witness)))
    return False


