"""Automatic mutation campaign over the encoded statements of the proof files.

For every claim whose encoded statement (``statements()`` of a proof module: claim ID -> :class:`Lemma`
or :class:`ReducedStatement`) is PROVED or CERTIFIED, :func:`mutants` perturbs the statement:

* each named constant (``constants``) x 9/10 and x 11/10, and set to 0 (the boundary of a positive constant);
* each numeric literal of the conclusion (other than 0, 1, -1) x 9/10 and x 11/10;
* the inequality flipped (``a <= b`` -> ``a >= b``; identities are not flipped);
* each hypothesis dropped.

:func:`numerically_false` decides independently of the checker whether a mutant is false: seeded random
and corner points of the box (or the symbols' assumption domains), its own mpmath evaluation at 30 digits,
hypotheses checked by sympy. A mutant is *killed* when its checker verdict is not PROVED/CERTIFIED. The
campaign's kill rate is killed / false mutants; a false mutant that stays PROVED/CERTIFIED is a survivor
(a soundness defect of the checker). Mutants that the numeric check finds true are counted separately
(they may be equivalent to the original, e.g. a larger noise scale).
"""
from __future__ import annotations

import importlib
import math
from dataclasses import dataclass, replace
from typing import Iterable, Mapping

import mpmath
import numpy as np
import sympy as sp

from .dp_statements import ReducedStatement
from .lemma import Lemma, _domain
from .verdicts import ProofVerdict

__all__ = ["Mutant", "Outcome", "CampaignReport", "mutants", "numerically_false", "run_campaign", "proof_statements"]

GOOD = (ProofVerdict.PROVED, ProofVerdict.CERTIFIED)
_FLIP = {sp.LessThan: sp.GreaterThan, sp.StrictLessThan: sp.StrictGreaterThan,
         sp.GreaterThan: sp.LessThan, sp.StrictGreaterThan: sp.StrictLessThan}


@dataclass(frozen=True)
class Mutant:
    claim: str
    description: str
    statement: object


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    false: bool
    verdict: ProofVerdict
    witness: Mapping | None

    @property
    def killed(self) -> bool:
        return self.verdict not in GOOD


@dataclass(frozen=True)
class CampaignReport:
    claims: tuple[str, ...]
    outcomes: tuple[Outcome, ...]

    @property
    def false_mutants(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.false]

    @property
    def survivors(self) -> list[Outcome]:
        return [o for o in self.false_mutants if not o.killed]

    @property
    def kill_rate(self) -> float:
        f = self.false_mutants
        return 1.0 if not f else sum(o.killed for o in f) / len(f)

    def summary(self) -> str:
        f = self.false_mutants
        return (f"{len(self.claims)} proved/certified encoded claims, {len(self.outcomes)} mutants, {len(f)} false by "
                f"the numeric check, {sum(o.killed for o in f)} killed (kill rate {100 * self.kill_rate:.1f}%), "
                f"{len(self.outcomes) - len(f)} found true (not counted)")


def _rel(cls, lhs, rhs):
    return cls(lhs, rhs, evaluate=False)


def _literals(expr: sp.Basic) -> list[sp.Number]:
    out = []
    for a in sorted(expr.atoms(sp.Number), key=str):
        if a in (0, 1, -1) or not a.is_finite:
            continue
        out.append(a)
    return out


def _lemma_mutants(claim: str, lem: Lemma) -> Iterable[Mutant]:
    for name, val in lem.constants.items():
        for tag, new in (("x 9/10", val * sp.Rational(9, 10)), ("x 11/10", val * sp.Rational(11, 10)), ("= 0", 0)):
            if new == val:
                continue
            yield Mutant(claim, f"constant {name} {tag}", replace(lem, constants={**lem.constants, name: new}))
    c = lem.conclusion
    for lit in _literals(c):
        for tag, f in (("x 9/10", sp.Rational(9, 10)), ("x 11/10", sp.Rational(11, 10))):
            new = _rel(type(c), c.lhs.xreplace({lit: lit * f}), c.rhs.xreplace({lit: lit * f}))
            # the same literal wherever the statement carries it (a profile certificate's sigma, a reparametrisation)
            prof = None if lem.profile is None else {k: v.xreplace({lit: lit * f}) for k, v in lem.profile.items()}
            rep = None if lem.reparam is None else {k: v.xreplace({lit: lit * f}) for k, v in lem.reparam.items()}
            yield Mutant(claim, f"literal {lit} {tag}", replace(lem, conclusion=new, profile=prof, reparam=rep))
    if type(c) in _FLIP:
        yield Mutant(claim, "inequality flipped", replace(lem, conclusion=_rel(_FLIP[type(c)], c.lhs, c.rhs)))
    for i, h in enumerate(lem.hypotheses):
        yield Mutant(claim, f"hypothesis {h} dropped", replace(lem, hypotheses=lem.hypotheses[:i] + lem.hypotheses[i + 1:]))


def mutants(claim: str, statement) -> list[Mutant]:
    if isinstance(statement, Lemma):
        return list(_lemma_mutants(claim, statement))
    if isinstance(statement, ReducedStatement):
        out = []
        for name, val in statement.constants.items():
            for tag, new in (("x 9/10", val * sp.Rational(9, 10)), ("x 11/10", val * sp.Rational(11, 10)),
                             ("= 0", 0)):
                if new != val:
                    out.append(Mutant(claim, f"constant {name} {tag}", statement.with_constants(**{name: new})))
        if statement.witness is not None:
            w = statement.with_constants().witness
            c = w.conclusion
            if type(c) in _FLIP:
                flipped = replace(w, conclusion=_rel(_FLIP[type(c)], c.lhs, c.rhs))
                out.append(Mutant(claim, "inequality flipped (witness and residual)",
                                  replace(statement.with_constants(), witness=flipped,
                                          residual=replace(statement.with_constants().residual,
                                                           conclusion=_rel(_FLIP[type(statement.residual.conclusion)],
                                                                           *statement.with_constants().residual.conclusion.args)))))
        return out
    raise TypeError(f"{claim}: no mutation rule for {type(statement).__name__}")


def _points(lem: Lemma, n: int, seed: int):
    rng = np.random.default_rng(seed)
    syms = {s.name: s for s in lem.symbols}
    free = {s.name for s in lem.conclusion.free_symbols} | {s.name for h in lem.hypotheses for s in h.free_symbols}
    names = [nm for nm in syms if nm in free]
    if lem.box and set(names) <= set(lem.box):
        axes = []
        for nm in names:
            r = lem.box[nm]
            axes.append((r.lo, r.hi, r.scale))
        corners = [[lo, hi] for lo, hi, _ in axes]
        for idx in range(2 ** len(names)):
            yield {nm: corners[i][(idx >> i) & 1] for i, nm in enumerate(names)}
        for _ in range(n):
            pt = {}
            for nm, (lo, hi, sc) in zip(names, axes):
                if sc == "int":
                    pt[nm] = float(rng.integers(int(lo), int(hi) + 1))
                elif sc == "log":
                    pt[nm] = float(math.exp(rng.uniform(math.log(lo), math.log(hi))))
                else:
                    pt[nm] = float(rng.uniform(lo, hi))
            yield pt
        return
    doms = [_domain(syms[nm]) for nm in names]
    for _ in range(n):
        yield {nm: d[3](rng) for nm, d in zip(names, doms)}


def _lemma_false(lem: Lemma, n: int, seed: int):
    lem = lem.substituted()
    syms = {s.name: s for s in lem.symbols}
    c = lem.conclusion
    with mpmath.workdps(30):
        for pt in _points(lem, n, seed):
            sub = {syms[k]: sp.Float(v, 30) if float(v) != int(v) or not syms[k].is_integer else sp.Integer(int(v))
                   for k, v in pt.items()}
            if any(h.subs(sub) is sp.false for h in lem.hypotheses):
                continue
            try:
                lhs = mpmath.mpmathify(sp.N(c.lhs.subs(sub), 30))
                rhs = mpmath.mpmathify(sp.N(c.rhs.subs(sub), 30))
            except (TypeError, ValueError, ZeroDivisionError):
                continue
            if isinstance(lhs, mpmath.mpc) or isinstance(rhs, mpmath.mpc) or not (mpmath.isfinite(lhs) and mpmath.isfinite(rhs)):
                continue
            tol = mpmath.mpf(10) ** -20 * (1 + abs(lhs) + abs(rhs))
            m = rhs - lhs
            if isinstance(c, sp.Equality):
                bad = abs(m) > tol
            elif isinstance(c, (sp.LessThan, sp.GreaterThan)):
                m = m if isinstance(c, sp.LessThan) else -m
                bad = m < -tol
            else:
                m = m if isinstance(c, sp.StrictLessThan) else -m
                bad = m <= tol
            if bad:
                return pt
    return None


def numerically_false(statement, n: int = 300, seed: int = 7919):
    """A point where the statement fails (independent sampled check), or None."""
    if isinstance(statement, Lemma):
        return _lemma_false(statement, n, seed)
    if isinstance(statement, ReducedStatement):
        s = statement.with_constants()
        for lem in (s.witness, s.residual):
            if lem is not None:
                pt = _lemma_false(lem, n, seed)
                if pt is not None:
                    return pt
        return None
    raise TypeError(type(statement).__name__)


def proof_statements(modules=None) -> dict:
    """claim ID -> encoded statement, from ``statements()`` of every proof module that has it."""
    from .runner import proof_modules

    out = {}
    for mod in modules or proof_modules():
        fn = getattr(mod, "statements", None)
        if callable(fn):
            out.update(fn())
    return out


def run_campaign(statements: Mapping | None = None, *, n: int = 300, progress=None) -> CampaignReport:
    statements = proof_statements() if statements is None else statements
    claims, outcomes = [], []
    for cid, st in statements.items():
        if st.check().verdict not in GOOD:
            continue
        claims.append(cid)
        for m in mutants(cid, st):
            pt = numerically_false(m.statement, n=n)
            v = m.statement.check().verdict
            outcomes.append(Outcome(m, pt is not None, v, pt))
            if progress is not None:
                progress(f"{cid}: {m.description}: {'false' if pt is not None else 'true'}, {v.value}")
    return CampaignReport(tuple(claims), tuple(outcomes))
