"""sympy's sign reasoning on a margin, shared by the proof strategies (a leaf: sympy only).

* :func:`sign` -- +1 / -1 / 0 when sympy shows ``expr >= 0`` / ``<= 0`` / ``== 0``, None when undecided;
* :func:`nonneg_proof` -- sympy shows ``expr >= 0`` (``> 0`` if strict): directly, simplified, factored, or as a
  fraction whose expanded numerator is a sum of nonnegative terms over a positive denominator, or by
  :func:`sqrt_rule`;
* :func:`sqrt_rule` -- ``R + a sqrt(Q)`` with one square-root term, by squaring two nonnegative sides.

sympy's ``None`` ("don't know") never counts as true or false: every function here answers "shown" or "not shown".
"""
from __future__ import annotations

import sympy as sp

__all__ = ["sign", "nonneg_proof", "sqrt_rule"]


def sign(expr: sp.Expr) -> int | None:
    """+1 if sympy proves expr >= 0, -1 if <= 0, 0 if it is identically 0, None if undecided."""
    if expr == 0 or expr.is_zero is True:
        return 0
    if expr.is_nonnegative is True:
        return 1
    if expr.is_nonpositive is True:
        return -1
    s = sp.simplify(expr)
    if s == 0:
        return 0
    if s.is_nonnegative is True:
        return 1
    if s.is_nonpositive is True:
        return -1
    return None


def sqrt_rule(expr: sp.Expr, strict: bool) -> bool:
    """``R + a sqrt(Q)`` (one square-root term, ``Q`` shown >= 0) is >= 0 (> 0 if strict): for ``a > 0`` when
    ``R >= 0``, or ``-R >= 0`` and ``a^2 Q - R^2 >= 0``; for ``a < 0`` when ``R >= 0`` and ``R^2 - a^2 Q >= 0`` (squaring
    two nonnegative sides); each side condition shown by :func:`nonneg_proof`."""
    e = sp.expand(expr)
    roots = [t for t in sp.Add.make_args(e) if any(isinstance(f, sp.Pow) and f.exp == sp.S.Half
                                                  for f in sp.Mul.make_args(t))]
    qs = {f.base for t in roots for f in sp.Mul.make_args(t) if isinstance(f, sp.Pow) and f.exp == sp.S.Half}
    if len(qs) != 1:
        return False
    Q = qs.pop()
    a = sp.expand(sp.Add(*roots) / sp.sqrt(Q))
    R = sp.expand(e - sp.Add(*roots))
    if a.has(sp.sqrt(Q)) or R.has(sp.sqrt(Q)) or not nonneg_proof(Q):
        return False
    if a.is_positive is True:
        if nonneg_proof(R, strict):
            return True
        return nonneg_proof(-R) and nonneg_proof(sp.expand(a**2 * Q - R**2), strict)
    if a.is_negative is True:
        return nonneg_proof(R, strict) and nonneg_proof(sp.expand(R**2 - a**2 * Q), strict)
    return False


def nonneg_proof(expr: sp.Expr, strict: bool = False) -> bool:
    """True if sympy shows ``expr >= 0`` (``> 0`` if strict): directly, or as a fraction whose expanded
    numerator is a sum of nonnegative terms (one positive if strict) over a positive denominator."""
    want = "is_positive" if strict else "is_nonnegative"
    if sqrt_rule(expr, strict):
        return True
    for cand in (expr, sp.simplify(expr), sp.factor(expr)):
        if getattr(cand, want) is True:
            return True
        num, den = sp.fraction(sp.together(cand))
        den_terms = sp.Add.make_args(sp.expand(den))
        if not (den.is_positive is True or all(t.is_positive is True for t in den_terms)):
            continue
        terms = sp.Add.make_args(sp.expand(num))
        if all(t.is_nonnegative is True for t in terms) and (not strict or any(t.is_positive for t in terms)):
            return True
    return False
