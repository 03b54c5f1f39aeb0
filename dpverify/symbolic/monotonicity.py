"""Directions of monotonicity on a box: the sign of a partial derivative, by sympy or by an ``mpmath.iv`` enclosure.

:class:`Directions` answers ``sign(expr, sym, cell=None)``: +1 (nondecreasing), -1 (nonincreasing), 0 (flat) or None
(undecided). Without a cell sympy is asked first (:func:`~dpverify.symbolic.signs.sign` of the derivative); otherwise,
or when sympy cannot tell, the derivative is lambdified into interval arithmetic and evaluated on the cell (default:
the whole box) at 30 digits, every axis as its whole range (an integer axis too: its hull, never one end of it).
One :class:`Directions` serves one certifier run and keeps its lambdified derivatives.
"""
from __future__ import annotations

from typing import Mapping, Sequence

import sympy as sp
from mpmath import iv

from .signs import sign

__all__ = ["Directions", "IV_NAMESPACE", "iv_dps"]

#: the functions of a lambdified expression in ``mpmath.iv`` interval arithmetic
IV_NAMESPACE = {"exp": iv.exp, "log": iv.log, "sqrt": iv.sqrt, "mpf": iv.mpf, "e": iv.e, "E": iv.e, "pi": iv.pi,
                "expm1": iv.expm1, "log1p": iv.log1p}


class iv_dps:
    """Set ``mpmath.iv`` precision for a block (the interval context has no ``workdps``)."""

    def __init__(self, dps: int):
        self.dps = dps

    def __enter__(self):
        self.saved = iv.dps
        iv.dps = self.dps

    def __exit__(self, *exc):
        iv.dps = self.saved
        return False


class Directions:
    """Signs of partial derivatives on ``box`` (name -> range) for the symbols ``symbols`` (name -> sympy symbol)."""

    def __init__(self, box: Mapping, symbols: Mapping[str, sp.Symbol]):
        self.box = box
        self.symbols = symbols
        self._compiled: dict = {}

    def sign(self, expr: sp.Expr, sym: sp.Symbol, names: Sequence[str], cell=None) -> int | None:
        """Sign of d expr / d sym: sympy first, else an ``mpmath.iv`` enclosure on ``cell`` (default: the box)."""
        d = sp.diff(expr, sym)
        if cell is None:
            s = sign(d)
            if s is not None:
                return s
        key = (str(expr), sym.name)
        if key not in self._compiled:
            try:
                self._compiled[key] = sp.lambdify([self.symbols[n] for n in names], sp.simplify(d),
                                                  modules=[IV_NAMESPACE, "mpmath"])
            except Exception:  # noqa: BLE001
                self._compiled[key] = None
        f = self._compiled[key]
        if f is None:
            return None
        bounds = cell if cell is not None else [(self.box[n].lo, self.box[n].hi) for n in names]
        try:
            with iv_dps(30):
                # every axis as its whole range (an integer axis too: its hull, never one end of it)
                val = f(*[iv.mpf([lo, hi]) for n, (lo, hi) in zip(names, bounds)])
            if val.a >= 0:
                return 1
            if val.b <= 0:
                return -1
        except Exception:  # noqa: BLE001 - iv lacks the function: undecided
            return None
        return None
