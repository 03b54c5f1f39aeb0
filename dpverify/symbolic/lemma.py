"""Lemmas as sympy statements that can be checked: :class:`Lemma`, :class:`Range` (and :class:`Strategy`).

A lemma is: symbols (with sympy assumptions), hypotheses (relationals), a conclusion (a
relational ``lhs <= rhs``, ``lhs < rhs``, ``>=``, ``>`` or ``Eq``), its source, and a strategy
that says how ``check()`` should try to settle it. ``check()`` returns a
:class:`~dpverify.symbolic.verdicts.CheckResult` in three stages:

1. identities (``Eq``) go to :func:`~dpverify.symbolic.strategies.identity.prove_identity`
   (``simplify``, the point search, ``.equals``), whatever the strategy;
2. otherwise the point search (:mod:`dpverify.symbolic.point_search`) hunts for a counterexample over the box
   (random and boundary points, and points of the symbols' domains beyond it; without a box, fixed and seeded
   random points of each symbol's assumption domain): a violation re-evaluated at 50 digits gives REFUTED;
3. then the handler registered for the lemma's strategy (:mod:`dpverify.symbolic.strategies`; looked up by
   strategy and lemma class, never named here) tries to prove it: ``NONNEG_TERMS``, ``CASES``, ``REPARAM``,
   ``DERIVATIVE``, ``CONCAVE`` -> PROVED; ``MONOTONE``, ``INTERVAL``, ``PROFILE`` -> CERTIFIED (branch and bound with
   Arb balls, :mod:`dpverify.symbolic.branch_bound`; without python-flint no strategy gives CERTIFIED and the
   evidence says "python-flint not installed"). A handler that does not settle the lemma leaves it TESTED with the
   number of points actually evaluated (finite, real, hypotheses holding), or UNKNOWN if there were none.

This module keeps the statement and its bookkeeping: the sides and margin, named constants, the box and the
texts verdicts quote (the box, the domain searched, the domain a certificate covers).

sympy's ``None`` ("don't know") never counts as true or false.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from typing import Callable, Mapping

import sympy as sp

from ..errors import InvalidArgument
from .branch_bound import bisect, initial_cells
from .point_search import domain, search
from .strategies import Strategy, describe, handler_for, is_registered, prove_identity
from .verdicts import WHOLE, CheckResult, ProofVerdict

__all__ = ["Strategy", "Range", "Lemma"]


@dataclass(frozen=True)
class Range:
    """A parameter range of a check box: ``[lo, hi]``, split linearly, geometrically (``log``) or by integers (``int``)."""

    lo: float
    hi: float
    scale: str = "lin"

    def __post_init__(self):
        if self.scale not in ("lin", "log", "int"):
            raise InvalidArgument(f"scale={self.scale!r} must be 'lin', 'log' or 'int'.")
        if not (math.isfinite(self.lo) and math.isfinite(self.hi) and self.lo <= self.hi):
            raise InvalidArgument(f"Range({self.lo!r}, {self.hi!r}) needs finite lo <= hi.")
        if self.scale == "log" and not self.lo > 0:
            raise InvalidArgument(f"Range({self.lo!r}, {self.hi!r}, 'log') needs lo > 0.")

    def describe(self) -> str:
        return f"[{self.lo:g}, {self.hi:g}]" + (" (integers)" if self.scale == "int" else "")


@dataclass(frozen=True)
class Lemma:
    """A checkable statement. See the module docstring for the stages and verdicts.

    ``strategy`` is a :class:`Strategy` member or the name of a strategy registered with
    :func:`dpverify.symbolic.strategies.register`. ``box`` maps symbol names to :class:`Range` (the parameter box
    of numeric checks and of certificates); ``var``/``interval`` name the variable and interval of
    ``DERIVATIVE``/``CONCAVE``.
    """

    id: str
    source: str
    statement: str
    symbols: tuple[sp.Symbol, ...]
    conclusion: sp.Basic
    hypotheses: tuple[sp.Basic, ...] = ()
    strategy: Strategy | str = Strategy.SAMPLED
    box: Mapping[str, Range] = field(default_factory=dict)
    var: sp.Symbol | None = None
    interval: tuple | None = None
    samples: int = 400
    seed: int = 20240601
    max_cells: int = 3000
    note: str = ""
    cases: tuple = ()
    evaluate: Callable | None = None
    profile: Mapping | None = None
    #: named numeric constants of the statement (symbol name -> exact value), substituted before checking;
    #: the mutation campaign perturbs them (``dpverify.symbolic.mutation``).
    constants: Mapping[str, object] = field(default_factory=dict)
    #: REPARAM: symbol -> expression in fresh nonnegative symbols that parametrises a hypothesis exactly.
    reparam: Mapping | None = None

    def __post_init__(self):
        if not isinstance(self.conclusion, (sp.Rel, sp.Eq)):
            raise InvalidArgument(f"{self.id}: conclusion={self.conclusion!r} must be a sympy relational.")
        if isinstance(self.strategy, str):
            if not is_registered(self.strategy):
                raise InvalidArgument(f"{self.id}: strategy={self.strategy!r} is not a registered strategy name; "
                                      "use a Strategy member, or register a handler for the name first "
                                      "(dpverify.symbolic.strategies.register).")
        elif not isinstance(self.strategy, Strategy):
            raise InvalidArgument(f"{self.id}: strategy={self.strategy!r} must be a Strategy member.")
        names = {s.name for s in self.symbols}
        extra = set(self.box) - names
        if extra:
            raise InvalidArgument(f"{self.id}: box names {sorted(extra)} are not symbols of the lemma.")
        object.__setattr__(self, "box", dict(self.box))
        object.__setattr__(self, "constants", {k: sp.nsimplify(v) for k, v in dict(self.constants).items()})

    # ------------------------------------------------------------------ pieces
    @property
    def is_identity(self) -> bool:
        return isinstance(self.conclusion, sp.Equality)

    @property
    def lhs(self) -> sp.Expr:
        c = self.conclusion
        return c.lhs if isinstance(c, (sp.LessThan, sp.StrictLessThan, sp.Equality)) else c.rhs

    @property
    def rhs(self) -> sp.Expr:
        c = self.conclusion
        return c.rhs if isinstance(c, (sp.LessThan, sp.StrictLessThan, sp.Equality)) else c.lhs

    @property
    def strict(self) -> bool:
        return isinstance(self.conclusion, (sp.StrictLessThan, sp.StrictGreaterThan))

    @property
    def margin(self) -> sp.Expr:
        """``rhs - lhs``: the conclusion holds where the margin is >= 0 (> 0 if strict; == 0 for identities)."""
        return self.rhs - self.lhs

    def mutated(self, **changes) -> "Lemma":
        """A copy with fields replaced (e.g. ``conclusion=...``): used to check that a check can fail."""
        return replace(self, **changes)

    def symbols_by_name(self) -> dict[str, sp.Symbol]:
        """The lemma's symbols by name."""
        return {s.name: s for s in self.symbols}

    def free_names(self) -> list[str]:
        """Names of the symbols the conclusion depends on (the coordinates of a no-box search)."""
        free = {s.name for s in self.conclusion.free_symbols}
        return [s.name for s in self.symbols if s.name in free]

    def coords(self) -> list[str]:
        """The coordinates of a point of the search: the box's names, else :meth:`free_names`."""
        return list(self.box) if self.box else self.free_names()

    # ------------------------------------------------------------------ check
    def substituted(self) -> "Lemma":
        """The lemma with its named constants replaced by their values (itself when it has none)."""
        if not self.constants:
            return self
        exprs = [self.conclusion, *self.hypotheses, *(self.reparam or {}).values(), *(self.profile or {}).values()]
        exprs += [v for c in self.cases for v in c.values()]
        free = set().union(*(e.free_symbols for e in exprs if isinstance(e, sp.Basic)))
        sub = {s: self.constants[s.name] for s in free if s.name in self.constants}

        def f(e):
            if isinstance(e, sp.Rel):  # keep the relation unevaluated (eps <= eps must stay a statement)
                return type(e)(e.lhs.xreplace(sub), e.rhs.xreplace(sub), evaluate=False)
            return e.xreplace(sub) if isinstance(e, sp.Basic) else e

        return replace(self, constants={}, conclusion=f(self.conclusion),
                       hypotheses=tuple(f(h) for h in self.hypotheses),
                       reparam=None if self.reparam is None else {k: f(v) for k, v in self.reparam.items()},
                       profile=None if self.profile is None else {k: f(v) for k, v in self.profile.items()},
                       cases=tuple({k: f(v) for k, v in c.items()} for c in self.cases))

    def check(self) -> CheckResult:
        """Settle the lemma; never raises for a false lemma (that is a REFUTED result)."""
        if self.constants:
            sub = self.substituted()
            if sub.conclusion.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
                return CheckResult(ProofVerdict.UNKNOWN, f"{self.id}: with constants {self.constants} the statement is "
                                                         f"degenerate ({sub.conclusion})")
            res = sub.check()
            consts = ", ".join(f"{k} = {v}" for k, v in self.constants.items())
            return replace(res, evidence=f"{res.evidence} [statement constants: {consts}]")
        if self.is_identity:
            return prove_identity(self)
        found = search(self)
        if found.counterexample is not None:
            return found.counterexample
        result = handler_for(self.strategy, type(self))(self)
        if isinstance(result, CheckResult):
            return result
        why = f" ({result})" if isinstance(result, str) else ""
        unsettled = f"; {describe(self.strategy)} did not settle it{why}" if self.strategy is not Strategy.SAMPLED else ""
        n = found.evaluated
        if n == 0:
            return CheckResult(ProofVerdict.UNKNOWN,
                               f"{self.id}: no point of {self.domain_text()} could be evaluated{unsettled}")
        return CheckResult(ProofVerdict.TESTED,
                           f"{self.id}: no counterexample at {n} evaluated points of {self.domain_text()}{unsettled}")

    # ------------------------------------------------------------------ the box and the texts verdicts quote
    def initial_cells(self) -> tuple[list[str], list[list]]:
        """``(names, cells)`` a certifier starts from: integer ranges enumerated, continuous ranges whole."""
        return initial_cells(self.box)

    def split_cell(self, names, cell):
        """The two halves of a certifier's ``cell`` (:func:`~dpverify.symbolic.branch_bound.bisect` on the box), or
        None when it cannot be split; a statement class may split its own way."""
        return bisect(self.box, names, cell)

    def box_text(self) -> str:
        """The box in words, e.g. ``x in [0, 1], k in [1, 5] (integers)``; ``(no box)`` without one."""
        return ", ".join(f"{k} in {r.describe()}" for k, r in self.box.items()) or "(no box)"

    def domain_text(self) -> str:
        """The points the search covers, in words (the box and beyond it, or the symbols' assumption domains)."""
        if self.box:
            return self.box_text() + " (and points of the symbols' domains outside the box)"
        return ("the symbols' assumption domains (no box: " + ", ".join(
            f"{n} {domain(s)[2]}" for n, s in self.symbols_by_name().items() if n in self.free_names()) + ")")

    def certified_domain(self) -> str:
        """``WHOLE`` when the box covers the statement's whole domain on every axis -- the symbol's assumption domain cut
        by the hypotheses that involve that symbol alone (sympy ``solveset``) -- else the box in words. Undecided (a
        hypothesis sympy cannot solve, an unbounded domain) counts as not covered: ``certified on B``."""
        syms = self.symbols_by_name()
        for name, rng in self.box.items():
            sym = syms.get(name)
            if sym is None:
                return self.box_text()
            dom = sp.S.Reals
            if sym.is_positive:
                dom = sp.Interval.open(0, sp.oo)
            elif sym.is_nonnegative:
                dom = sp.Interval(0, sp.oo)
            elif sym.is_negative:
                dom = sp.Interval.open(-sp.oo, 0)
            for h in self.hypotheses:
                if not isinstance(h, sp.Basic) or h.free_symbols != {sym}:
                    continue
                try:
                    sol = sp.solveset(h, sym, sp.S.Reals)
                except Exception:  # noqa: BLE001 - sympy cannot solve it: undecided, the box stays
                    return self.box_text()
                dom = dom.intersect(sol)
            try:
                inf, sup = dom.inf, dom.sup
            except (AttributeError, NotImplementedError):
                return self.box_text()
            if not (inf.is_finite and sup.is_finite):
                return self.box_text()
            lo_ok = (sp.Float(rng.lo) <= (sp.ceiling(inf) if sym.is_integer else inf)) == sp.true
            hi_ok = (sp.Float(rng.hi) >= (sp.floor(sup) if sym.is_integer else sup)) == sp.true
            if not (lo_ok and hi_ok):
                return self.box_text()
        return WHOLE if self.box else self.box_text()

