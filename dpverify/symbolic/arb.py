"""Rigorous ball arithmetic (Arb, through the optional ``python-flint``) for ``certified`` verdicts.

* :func:`flint_or_none` -- the ``flint`` module, or None when python-flint is not installed (then no verdict
  may be ``certified``: callers fall back to ``tested`` and say why).
* :func:`arb_eval` -- evaluate a sympy expression on Arb balls by walking its tree (no float conversion:
  integers and rationals are exact, decimal Floats are enclosed by Arb's string parser); raises
  ``ArbUnsupported`` for a function it does not know.
* :func:`ball` -- the ball that encloses ``[lo, hi]`` (exact endpoints).
* :func:`gaussian_delta_arb` -- an enclosure of the Balle-Wang profile delta(eps) of N(0, sigma^2) with
  sensitivity 1: Phi(1/(2 sigma) - eps sigma) - e^eps Phi(-1/(2 sigma) - eps sigma), Phi(x) = erfc(-x/sqrt 2)/2.

A certificate decides a sign only from a ball that excludes the other side (``ball.lower() > 0``, ...).
"""
from __future__ import annotations

import sympy as sp

__all__ = ["flint_or_none", "arb_eval", "ball", "gaussian_delta_arb", "ArbUnsupported", "PREC_BITS", "NOT_INSTALLED"]

#: working precision of certificates (bits)
PREC_BITS = 256
NOT_INSTALLED = "python-flint not installed: no rigorous ball arithmetic, so no 'certified' verdict (pip install 'dpverify[rigorous]')"


class ArbUnsupported(Exception):
    """The expression uses a function with no Arb enclosure here."""


def flint_or_none():
    try:
        import flint
    except ImportError:
        return None
    flint.ctx.prec = max(flint.ctx.prec, PREC_BITS)
    return flint


def ball(lo, hi=None):
    """The Arb ball enclosing [lo, hi] (``hi`` None: the exact point ``lo``); endpoints given as exact strings/ints."""
    import flint

    a = flint.arb(_exact_str(lo))
    if hi is None:
        return a
    return a.union(flint.arb(_exact_str(hi)))


def _exact_str(v) -> str:
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        # the float's exact binary value as a decimal string: the enclosure contains the float itself
        from decimal import Decimal
        return str(Decimal(v))
    return str(v)


def arb_eval(expr: sp.Basic, values: dict):
    """Enclosure of ``expr`` with ``values`` (symbol -> Arb ball). Raises ArbUnsupported for unknown nodes."""
    import flint

    arb = flint.arb

    def ev(e):
        if e in values:
            return values[e]
        if e.is_Integer:
            return arb(int(e))
        if e.is_Rational:
            return arb(int(e.p)) / arb(int(e.q))
        if e.is_Float:
            return arb(str(e))
        if e is sp.pi:
            return arb.pi()
        if e is sp.E:
            return arb(1).exp()
        if e.is_Add:
            out = arb(0)
            for a in e.args:
                out = out + ev(a)
            return out
        if e.is_Mul:
            out = arb(1)
            for a in e.args:
                out = out * ev(a)
            return out
        if e.is_Pow:
            b, x = e.args
            if x.is_Integer:
                base = ev(b)
                n = int(x)
                return base ** n if n >= 0 else arb(1) / (base ** (-n))
            if x == sp.S.Half:
                return ev(b).sqrt()
            if x == -sp.S.Half:
                return arb(1) / ev(b).sqrt()
            return (ev(x) * ev(b).log()).exp()
        fn = {sp.exp: lambda a: a.exp(), sp.log: lambda a: a.log(), sp.erfc: lambda a: a.erfc(),
              sp.erf: lambda a: a.erf(), sp.Abs: lambda a: abs(a), sp.gamma: lambda a: a.gamma(),
              sp.loggamma: lambda a: a.lgamma(), sp.sqrt: lambda a: a.sqrt()}.get(e.func)
        if fn is not None and len(e.args) == 1:
            return fn(ev(e.args[0]))
        if e.func is sp.uppergamma:
            s_, z = (ev(a) for a in e.args)
            return z.gamma_upper(s_)
        if e.func is sp.lowergamma:
            s_, z = (ev(a) for a in e.args)
            return z.gamma_lower(s_)
        if e.func in (sp.Max, sp.Min):
            vals = [ev(a) for a in e.args]
            out = vals[0]
            for v in vals[1:]:
                out = out.max(v) if e.func is sp.Max else out.min(v)
            return out
        raise ArbUnsupported(f"no Arb enclosure for {e.func.__name__}")

    return ev(sp.sympify(expr))


def gaussian_delta_arb(eps, sigma):
    """Enclosure of delta(eps) of the Gaussian mechanism N(0, sigma^2), sensitivity 1 (balls in, ball out)."""
    import flint

    arb = flint.arb
    r2 = arb(2).sqrt()

    def Phi(x):
        return (-x / r2).erfc() / 2

    return Phi(1 / (2 * sigma) - eps * sigma) - eps.exp() * Phi(-1 / (2 * sigma) - eps * sigma)
