"""The local search after the sampled screen: narrow false regions that sampling alone misses.

From the sampled points of smallest relative margin (:func:`~dpverify.symbolic.mutation.evaluate.relative_margin`),
:func:`local_search` minimises the margin -- scipy's Nelder-Mead, then a compass search -- in log-magnitude coordinates
(:func:`coordinate`). A point where a hypothesis does not hold, or where the statement has no finite real value, scores
worse than any margin; the first point whose margin fails is confirmed by
:func:`~dpverify.symbolic.mutation.evaluate.fails_at` and returned as a :class:`SearchedPoint`. Bounded by
:data:`SEARCH_STARTS`, :data:`SEARCH_EVALS` and (a safety net) :data:`SEARCH_SECONDS`.
"""
from __future__ import annotations

import math
import time

import mpmath
import numpy as np
import sympy as sp

from ..lemma import Lemma
from ..timeouts import time_limit
from . import evaluate
from .evaluate import PointTimeout, exact_value, fails, fails_at, fast_sides, holds, relative_margin
from .points import TightPoint

__all__ = ["SEARCH_STARTS", "SEARCH_EVALS", "SEARCH_SECONDS", "SearchedPoint", "coordinate", "hypothesis_checker",
           "local_search"]

#: the local search after the sampled screen: starts (the sampled points of smallest relative margin, at most one
#: per distinct margin) and objective evaluations per start (Nelder-Mead, then a compass search) bound it
#: deterministically; the seconds per statement are only a safety net (a statement slow to evaluate), so that the
#: result does not depend on the machine's load in ordinary cases
SEARCH_STARTS = 5
SEARCH_EVALS = 150
#: (30 s: the full campaign's searches all finish well within it -- with 600 s it gives the same outcome in the
#: same time -- while 5 s, the earlier value, could be reached on a loaded machine and cut a search short)
SEARCH_SECONDS = 30.0
#: magnitudes the search may reach (natural log): reals 10^-12 .. 10^12; integers up to 10^3 (or the box's end)
_LOG_REAL = math.log(1e12)
_INT_MAX = 1000


class SearchedPoint(dict):
    """A failing point found by the local search after the sampled screen (not by the screen itself); confirmed
    exactly like a screened point. The campaign's table marks such mutants ``found by the local search``."""


class _Found(Exception):
    def __init__(self, pt):
        super().__init__()
        self.pt = pt


class _OutOfSearch(Exception):
    pass


def coordinate(sym: sp.Symbol, v: float, box=None):
    """(u0, to_x) of one axis of the search: a log-magnitude coordinate u with the start's sign (x = sign * e^u;
    a start at 0 searches the positive side, or the negative side of a nonpositive symbol), integers rounded and
    kept in their assumption domain (>= 1, >= 0 ...) and at most 10^3 (or the box's end)."""
    neg = v < 0 or (v == 0 and (sym.is_nonpositive or sym.is_negative))
    sign = -1.0 if neg else 1.0
    mag = abs(v)
    if sym.is_integer:
        top = max(_INT_MAX, abs(box.hi) if box is not None else 0, abs(box.lo) if box is not None else 0)
        lo_int = 1 if (sym.is_positive or sym.is_negative) else 0

        def to_x(u):
            k = int(round(math.exp(min(max(u, -30.0), math.log(top)))))
            return sign * float(min(max(k, lo_int), top))
        return math.log(max(mag, 1.0)), to_x

    def to_x(u):
        return sign * math.exp(min(max(u, -_LOG_REAL), _LOG_REAL))
    return math.log(mag) if mag > 0 else -_LOG_REAL / 2, to_x


def hypothesis_checker(lem: Lemma, syms, names):
    """A function point -> bool: every hypothesis holds at 30 digits (lambdified relationals; a NaN, complex or
    non-evaluable side means it does not hold), or by :func:`~dpverify.symbolic.mutation.evaluate.holds` (sympy) when a hypothesis is not a plain
    inequality. Only a screen for the search: a candidate is confirmed by :func:`fails_at`."""
    args = [syms[nm] for nm in names]
    fs, slow = [], []
    for h in lem.hypotheses:
        if isinstance(h, (sp.LessThan, sp.StrictLessThan, sp.GreaterThan, sp.StrictGreaterThan)):
            try:
                fs.append((type(h), sp.lambdify(args, h.lhs - h.rhs, modules="mpmath")))
                continue
            except Exception:  # noqa: BLE001 - no printer: sympy decides
                pass
        slow.append(h)

    def ok(pt):
        with mpmath.workdps(30):
            a = [int(pt[nm]) if syms[nm].is_integer else mpmath.mpf(pt[nm]) for nm in names]
            for kind, f in fs:
                try:
                    d = mpmath.mpmathify(f(*a))
                except Exception:  # noqa: BLE001 - not evaluable: does not hold there
                    return False
                if isinstance(d, mpmath.mpc) or not mpmath.isfinite(d):
                    return False
                if kind is sp.LessThan and not d <= 0 or kind is sp.StrictLessThan and not d < 0 or \
                        kind is sp.GreaterThan and not d >= 0 or kind is sp.StrictGreaterThan and not d > 0:
                    return False
        if slow:
            sub = {syms[k]: exact_value(v, syms[k]) for k, v in pt.items()}
            return all(holds(h, sub) is True for h in slow)
        return True
    return ok


def _search_starts(screened, hyp_ok, deadline: float) -> list[dict]:
    """Up to :data:`SEARCH_STARTS` starts among the sampled points (smallest margin first, one per distinct margin, each
    where the hypotheses hold), then up to as many among the points built through the reparametrisation
    (:class:`~dpverify.symbolic.mutation.points.TightPoint`): their margins are the smallest, and taking them first
    would crowd out the sampled starts from which false regions away from the tight corner are found."""
    starts, margins = [], set()
    for group in (False, True):
        taken = 0
        for m, pt in sorted(screened, key=lambda t: t[0]):
            if isinstance(pt, TightPoint) is not group:
                continue
            if taken >= SEARCH_STARTS or time.monotonic() > deadline:
                break
            mk = round(m, 12)
            if mk in margins:
                continue  # one start per distinct margin: a flat region gives one start, not five copies
            try:
                with time_limit(evaluate.POINT_LIMIT, PointTimeout):
                    if not hyp_ok(pt):
                        continue
            except PointTimeout:
                continue
            margins.add(mk)
            starts.append(dict(pt))
            taken += 1
    return starts


class _Objective:
    """The search's objective at a point, shared by every start: its relative margin where the hypotheses hold and the
    statement has finite real sides, else :attr:`REJECTED` (worse than any margin); a point whose margin fails at 30
    digits is confirmed once (:func:`~dpverify.symbolic.mutation.evaluate.fails_at`) and ends the search
    (:class:`_Found`). Values are cached per point; past ``deadline`` it raises :class:`_OutOfSearch`."""

    REJECTED = 4.0  # worse than any margin (margins lie in [-1, 1])

    def __init__(self, lem: Lemma, syms, names, fast, hyp_ok, deadline: float):
        self.lem, self.syms, self.names, self.fast, self.hyp_ok, self.deadline = lem, syms, names, fast, hyp_ok, deadline
        self.cache: dict = {}
        self.tried: set = set()

    def __call__(self, pt) -> float:
        key = tuple(pt[nm] for nm in self.names)
        if key in self.cache:
            return self.cache[key]
        if time.monotonic() > self.deadline:
            raise _OutOfSearch
        c = self.lem.conclusion
        val = self.REJECTED
        try:
            with time_limit(evaluate.POINT_LIMIT, PointTimeout):
                if self.hyp_ok(pt):
                    sides = fast_sides(self.fast, self.syms, self.names, pt)
                    if sides is not None:
                        m = relative_margin(c, *sides)
                        if m is not None:
                            val = m
                            with mpmath.workdps(30):
                                bad = fails(c, *sides, digits=20)
                            if bad and key not in self.tried:
                                self.tried.add(key)
                                if fails_at(self.lem, self.syms, self.names, self.fast, pt, sides):
                                    raise _Found(SearchedPoint(pt))
        except PointTimeout:
            val = self.REJECTED
        self.cache[key] = val
        return val


def _search_from(start: dict, objective: _Objective, lem: Lemma, syms, names) -> None:
    """Minimise ``objective`` from ``start``: Nelder-Mead, then a compass search polishing the best point along each
    axis (steps 10^-1 .. 10^-7 in u, +-1 on an integer axis); at most :data:`SEARCH_EVALS` evaluations (then
    :class:`_OutOfSearch`). Ends by raising :class:`_Found` when a failing point is confirmed, else returns."""
    from scipy.optimize import minimize  # scipy only when a search runs

    coords = [coordinate(syms[nm], start[nm], lem.box.get(nm)) for nm in names]
    u0 = np.array([u for u, _ in coords])

    def to_pt(u):
        return {nm: f(float(x)) for nm, (_, f), x in zip(names, coords, u)}
    evals = [0]

    def obj(u):
        evals[0] += 1
        if evals[0] > SEARCH_EVALS:
            raise _OutOfSearch
        return objective(to_pt(u))
    best_u, best = u0, obj(u0)
    k = len(names)
    simplex = np.vstack([u0] + [u0 + 0.25 * np.eye(k)[i] for i in range(k)])
    res = minimize(obj, u0, method="Nelder-Mead",
                   options={"maxfev": max(SEARCH_EVALS // 2, 20), "xatol": 1e-12, "fatol": 0.0,
                            "initial_simplex": simplex})
    if res.fun < best:
        best_u, best = np.array(res.x, dtype=float), float(res.fun)
    # compass search: polish the best point along each axis (and +-1 on an integer axis)
    for step in (0.1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7):
        improved = True
        while improved:
            improved = False
            for i, nm in enumerate(names):
                if syms[nm].is_integer:
                    x = to_pt(best_u)[nm]
                    cands = [math.log(abs(x) + d) for d in (-1, 1) if abs(x) + d >= 1]
                else:
                    cands = [best_u[i] - step, best_u[i] + step]
                for ui in cands:
                    u = best_u.copy()
                    u[i] = ui
                    v = obj(u)
                    if v < best:
                        best_u, best, improved = u, v, True


def local_search(lem: Lemma, syms, names, fast, screened, inside=lambda pt: True):
    """Search for a failing point near the sampled points of smallest relative margin
    (:func:`~dpverify.symbolic.mutation.evaluate.relative_margin`; ``screened``: ``(margin, point)`` pairs of the
    screen): Nelder-Mead (scipy) over log-magnitude coordinates (:func:`coordinate`; integer axes rounded), then a
    compass search. A point where a hypothesis does not hold, or where the statement has no
    finite real value, scores worse than any margin (it is rejected, never counted). The first point whose 30-digit
    margin fails is confirmed by :func:`~dpverify.symbolic.mutation.evaluate.fails_at`; bounded by
    :data:`SEARCH_EVALS` evaluations per start and :data:`SEARCH_SECONDS` per statement. ``inside``: which points the
    statement is judged at. Returns the confirmed point (a :class:`SearchedPoint`) or None."""
    c = lem.conclusion
    if not isinstance(c, (sp.LessThan, sp.StrictLessThan, sp.GreaterThan, sp.StrictGreaterThan, sp.Equality)):
        return None
    hyp_holds = hypothesis_checker(lem, syms, names)

    def hyp_ok(pt):
        return inside(pt) and hyp_holds(pt)
    deadline = time.monotonic() + SEARCH_SECONDS
    starts = _search_starts(screened, hyp_ok, deadline)
    objective = _Objective(lem, syms, names, fast, hyp_ok, deadline)
    for start in starts:
        try:
            _search_from(start, objective, lem, syms, names)
        except _Found as f:
            return f.pt
        except _OutOfSearch:
            if time.monotonic() > deadline:
                return None
    return None
