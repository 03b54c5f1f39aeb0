"""The mutants of an encoded statement (a :class:`~dpverify.symbolic.lemma.Lemma` or a
:class:`~dpverify.symbolic.dp_statements.ReducedStatement`): :func:`mutants`.

Each named constant x 9/10, x 11/10 and set to 0; each numeric literal of the conclusion (other than 0, 1, -1) x 9/10
and x 11/10 wherever the statement carries it, and on one side only when it occurs on both; the inequality flipped;
each hypothesis dropped (for a ReducedStatement: from its residual and its witness together).
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Iterable

import sympy as sp

from ..dp_statements import ReducedStatement
from ..lemma import Lemma

__all__ = ["Mutant", "mutants"]

_FLIP = {sp.LessThan: sp.GreaterThan, sp.StrictLessThan: sp.StrictGreaterThan,
         sp.GreaterThan: sp.LessThan, sp.StrictGreaterThan: sp.StrictLessThan}


@dataclass(frozen=True)
class Mutant:
    claim: str
    description: str
    statement: object


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
            # a literal on both sides (sympy collects e.g. -d - d into -2 d on the lhs too) changed on one side only:
            # changing it everywhere can leave an identity true (an equivalent mutant)
            if c.lhs.has(lit) and c.rhs.has(lit):
                for side in ("lhs", "rhs"):
                    args = (c.lhs.xreplace({lit: lit * f}), c.rhs) if side == "lhs" else (c.lhs, c.rhs.xreplace({lit: lit * f}))
                    yield Mutant(claim, f"literal {lit} {tag} on the {side} only", replace(lem, conclusion=_rel(type(c), *args)))
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
        # each hypothesis of the claim dropped (from the residual and the witness together: they state the same claim)
        st = statement.with_constants()
        hyps = []
        for lem in (st.residual, st.witness):
            for h in (lem.hypotheses if lem is not None else ()):
                if str(h) not in hyps:
                    hyps.append(str(h))
        for h in hyps:
            def drop(lem):
                return None if lem is None else replace(lem, hypotheses=tuple(x for x in lem.hypotheses if str(x) != h))
            out.append(Mutant(claim, f"hypothesis {h} dropped", replace(st, residual=drop(st.residual),
                                                                       witness=drop(st.witness))))
        return out
    raise TypeError(f"{claim}: no mutation rule for {type(statement).__name__}")

