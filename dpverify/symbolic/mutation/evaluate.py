"""Evaluating an encoded statement at a point, for the mutation campaign's numeric check.

* :func:`exact_value` -- a point's coordinate as a sympy number (an Integer on an integer axis, else the float's
  decimal expansion);
* :func:`side_values` / :func:`fails` -- a relation's two sides at a point by sympy at a given precision, and whether
  it fails there beyond a relative tolerance; :func:`holds` -- a hypothesis at an exact point (True, False, or None:
  not evaluable, the point is skipped);
* :func:`lambdified` / :func:`fast_sides` / :func:`relative_margin` -- the 30-digit screen (mpmath) and the margin the
  local search minimises;
* :func:`fails_at` -- the confirmation every failing point goes through: the conclusion fails at 40 and at 80 digits
  by sympy, every hypothesis holding.

:data:`POINT_LIMIT` bounds one point (:class:`PointTimeout`); :class:`MutantTimeout` is the campaign's limit per
mutant check (both :class:`~dpverify.symbolic.timeouts.TimeLimitExceeded`).
"""
from __future__ import annotations

import mpmath
import sympy as sp

from ..lemma import Lemma
from ..timeouts import TimeLimitExceeded

__all__ = ["MutantTimeout", "PointTimeout", "POINT_LIMIT", "exact_value", "side_values", "fails", "holds",
           "lambdified", "fast_sides", "relative_margin", "fails_at"]


class MutantTimeout(TimeLimitExceeded):
    """A mutant's check ran out of the campaign's time limit (a BaseException, so that no ``except Exception`` of a
    checker turns it into a verdict)."""


class PointTimeout(MutantTimeout):
    """One point of the numeric check ran out of its own limit (:data:`POINT_LIMIT`; e.g. exp(exp(10^9)) at an extreme
    corner): the point is skipped."""


#: seconds one point of the numeric check may take (a point that takes longer is skipped as not evaluable: e.g. an
#: exponential tower at eps = 10^9 that mpmath would evaluate for minutes)
POINT_LIMIT = 5.0


def exact_value(v: float, sym: sp.Symbol, dps: int = 80):
    """The point's coordinate as a sympy number: an Integer on an integer axis, else the float's decimal expansion
    as a ``dps``-digit Float (an exact Rational can make sympy expand a power like (11/20)^(10^9) exactly)."""
    return sp.Integer(int(v)) if sym.is_integer and float(v) == int(v) else sp.Float(repr(float(v)), dps)


def side_values(c, sub, dps):
    """(lhs, rhs) of relational ``c`` at the point ``sub``, by sympy at ``dps`` digits (None if not real)."""
    sub = {k: (sp.Float(v, dps + 10) if isinstance(v, sp.Float) else v) for k, v in sub.items()}
    try:
        with mpmath.workdps(dps):
            lhs = mpmath.mpmathify(sp.N(c.lhs.xreplace(sub), dps))
            rhs = mpmath.mpmathify(sp.N(c.rhs.xreplace(sub), dps))
    except Exception:  # noqa: BLE001 - not a number there (or no convergence): the point is skipped
        return None
    if isinstance(lhs, mpmath.mpc) or isinstance(rhs, mpmath.mpc) or not (mpmath.isfinite(lhs) and mpmath.isfinite(rhs)):
        return None
    return lhs, rhs


def fails(c, lhs, rhs, digits: int) -> bool:
    """Does relational ``c`` fail at these values, beyond a relative tolerance of 10^-digits?"""
    tol = mpmath.mpf(10) ** -digits * (1 + abs(lhs) + abs(rhs))
    m = rhs - lhs
    if isinstance(c, sp.Equality):
        return abs(m) > tol
    if isinstance(c, (sp.LessThan, sp.GreaterThan)):
        return (m if isinstance(c, sp.LessThan) else -m) < -tol
    return (m if isinstance(c, sp.StrictLessThan) else -m) <= tol


def holds(h, sub) -> bool | None:
    """A hypothesis at an exact point: True, False, or None (not evaluable: the point is skipped). A side that is
    NaN or zoo there (e.g. a constant mutated to 0 under a division) makes the hypothesis not evaluable."""
    try:
        v = h.xreplace(sub)
    except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):  # "Invalid NaN comparison"
        return None
    if v is sp.true or v is sp.false:
        return bool(v)
    if isinstance(v, sp.Rel) and not isinstance(v, sp.Ne):
        sv = side_values(v, {}, 40)
        if sv is None:
            return None
        return not fails(v, *sv, digits=35) if not isinstance(v, sp.Equality) else None
    return None


def lambdified(lem: Lemma, names):
    syms = {s.name: s for s in lem.symbols}
    args = [syms[nm] for nm in names]
    try:
        return (sp.lambdify(args, lem.conclusion.lhs, modules="mpmath"),
                sp.lambdify(args, lem.conclusion.rhs, modules="mpmath"))
    except Exception:  # noqa: BLE001 - no mpmath printer for some node: sympy evaluates every point
        return None


def fast_sides(fast, syms, names, pt):
    """(lhs, rhs) at 30 digits by the lambdified sides, or None (not evaluable; not a finite real there)."""
    try:
        with mpmath.workdps(30):
            args = [int(pt[nm]) if syms[nm].is_integer else mpmath.mpf(pt[nm]) for nm in names]
            lhs, rhs = mpmath.mpmathify(fast[0](*args)), mpmath.mpmathify(fast[1](*args))
    except Exception:  # noqa: BLE001 - not evaluable there (no convergence, a domain error): skipped
        return None
    if isinstance(lhs, mpmath.mpc) or isinstance(rhs, mpmath.mpc) or \
            not (mpmath.isfinite(lhs) and mpmath.isfinite(rhs)):
        return None
    return lhs, rhs


def relative_margin(c, lhs, rhs) -> float | None:
    """The relation's relative margin at these values, in [-1, 1], negative where it fails: (rhs - lhs) / (|lhs| +
    |rhs|) for ``<=``/``<``, (lhs - rhs) / (...) for ``>=``/``>``, -|rhs - lhs| / (...) for an identity (an identity's
    search looks for the largest relative discrepancy); None for any other relation."""
    with mpmath.workdps(30):
        den = abs(lhs) + abs(rhs)
        d = rhs - lhs
        if den == 0:
            return 0.0
        if isinstance(c, (sp.LessThan, sp.StrictLessThan)):
            return float(d / den)
        if isinstance(c, (sp.GreaterThan, sp.StrictGreaterThan)):
            return float(-d / den)
        if isinstance(c, sp.Equality):
            return float(-abs(d) / den)
    return None


def fails_at(lem: Lemma, syms, names, fast, pt, sides=None) -> bool:
    """Does the (substituted) statement fail at the point ``pt``?

    Screening at 30 digits (lambdify on mpmath -- ``sides`` when the caller has them -- else sympy), then confirmation
    by sympy at the point as exact rationals, at 40 and at 80 digits: a point counts only if the conclusion fails at
    both precisions beyond a relative 10^-20 (so cancellation at extreme magnitudes cannot make a true statement look
    false) and every hypothesis holds (evaluated by sympy; a hypothesis that cannot be evaluated skips the point)."""
    c = lem.conclusion
    sub = {syms[k]: exact_value(v, syms[k]) for k, v in pt.items()}
    if fast is not None:
        if sides is None:
            sides = fast_sides(fast, syms, names, pt)
        if sides is None:
            return False  # not a real value there: outside where the statement says anything
        with mpmath.workdps(30):
            if not fails(c, *sides, digits=20):
                return False
    if any(holds(h, sub) is not True for h in lem.hypotheses):
        return False
    for dps in (40, 80):
        sv = side_values(c, sub, dps)
        with mpmath.workdps(dps):
            if sv is None or not fails(c, *sv, digits=20):
                return False
    return True

