"""Identities (a conclusion ``Eq(lhs, rhs)``), settled whatever the lemma's strategy names.

``simplify(lhs - rhs) == 0`` -> PROVED; else the point search first (a counterexample, re-checked at 50 digits, is
REFUTED: cheaper than sympy's ``equals``, whose solve/factor can take minutes on a false identity), then
``(lhs - rhs).equals(0)``: True -> PROVED; False without a counterexample -> UNKNOWN (never TESTED); undecided ->
TESTED with the number of points evaluated, or UNKNOWN if there were none.
"""
from __future__ import annotations

import sympy as sp

from ..point_search import search
from ..verdicts import CheckResult, ProofVerdict

__all__ = ["prove_identity"]


def prove_identity(lemma) -> CheckResult:
    diff = lemma.lhs - lemma.rhs
    if sp.simplify(diff) == 0:
        return CheckResult(ProofVerdict.PROVED, f"{lemma.id}: simplify(lhs - rhs) == 0")
    # the (cheap) counterexample search before sympy's equals, whose solve/factor can take minutes on a false
    # identity (a literal of the Wishart normaliser changed); a counterexample is re-evaluated at 50 digits
    found = search(lemma, identity=True)
    if found.counterexample is not None:
        return found.counterexample
    n = found.evaluated
    eq = diff.equals(0)
    if eq is True:
        return CheckResult(ProofVerdict.PROVED, f"{lemma.id}: (lhs - rhs).equals(0) is True")
    if eq is False:
        # sympy decided the identity is false, but no sampled point shows it: never TESTED
        return CheckResult(ProofVerdict.UNKNOWN,
                           f"{lemma.id}: sympy's (lhs - rhs).equals(0) is False, but no counterexample was found "
                           f"among {n} evaluated points of {lemma.domain_text()}")
    if n == 0:
        return CheckResult(ProofVerdict.UNKNOWN,
                           f"{lemma.id}: sympy could not decide (equals -> {eq}) and no point of "
                           f"{lemma.domain_text()} could be evaluated")
    return CheckResult(ProofVerdict.TESTED,
                       f"{lemma.id}: sympy could not decide (equals -> {eq}); lhs == rhs at "
                       f"{n} evaluated points of {lemma.domain_text()}")
