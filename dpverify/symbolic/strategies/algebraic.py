"""Strategies that prove an inequality by sympy's sign reasoning on its margin ``rhs - lhs`` (PROVED).

* ``NONNEG_TERMS`` -- every term of the expanded margin is nonnegative under the symbols' assumptions (one positive
  for a strict inequality), or the margin is a fraction with such a numerator over a positive denominator, or a
  square-root rule applies (:func:`~dpverify.symbolic.signs.nonneg_proof`);
* ``CASES`` -- for each substitution of ``lemma.cases`` (together covering every sign pattern) the margin expands into
  nonnegative terms;
* ``REPARAM`` -- each hypothesis parametrised exactly by a fresh nonnegative symbol (``lemma.reparam``), then the
  rewritten margin shown >= 0.
"""
from __future__ import annotations

import sympy as sp

from ..signs import nonneg_proof
from ..verdicts import CheckResult, ProofVerdict
from .registry import Strategy, register

__all__ = ["nonneg_terms", "cases", "reparam"]


@register(Strategy.NONNEG_TERMS)
def nonneg_terms(lemma):
    m = sp.expand(lemma.margin)
    terms = sp.Add.make_args(m)
    undecided = [t for t in terms if t.is_nonnegative is not True]
    if undecided and nonneg_proof(lemma.margin, strict=lemma.strict):
        return CheckResult(ProofVerdict.PROVED,
                           f"{lemma.id}: rhs - lhs = {sp.factor(sp.together(lemma.margin))}: over a positive "
                           f"denominator its expanded numerator is a sum of nonnegative terms (or a square-root "
                           f"rule applies) under the symbols' assumptions")
    if undecided:
        return f"terms not shown nonnegative: {undecided[:3]}"
    if lemma.strict and not any(t.is_positive for t in terms):
        return "no term shown positive (strict inequality)"
    return CheckResult(ProofVerdict.PROVED,
                       f"{lemma.id}: rhs - lhs expands into {len(terms)} terms, each nonnegative under the "
                       f"symbols' assumptions")


@register(Strategy.CASES)
def cases(lemma):
    if not lemma.cases:
        return "CASES needs a tuple of substitutions"
    for i, case in enumerate(lemma.cases):
        m = sp.expand(sp.simplify(lemma.margin.subs(case, simultaneous=True)))
        terms = sp.Add.make_args(m)
        bad = [t for t in terms if t.is_nonnegative is not True]
        if bad:
            return f"case {i} ({case}): terms not shown nonnegative: {bad[:3]}"
    return CheckResult(ProofVerdict.PROVED,
                       f"{lemma.id}: {len(lemma.cases)} cases cover every sign pattern; in each the margin "
                       f"rhs - lhs is a sum of nonnegative terms")


def _parametrised_hypothesis(lemma, v, e, t, done: dict, used: set) -> int | None:
    """The index of an unused inequality hypothesis whose margin (after ``done``) increases in ``v`` and becomes
    exactly ``t`` when ``v = e``; None if there is none."""
    for i, h in enumerate(lemma.hypotheses):
        if i in used or not isinstance(h, (sp.GreaterThan, sp.StrictGreaterThan, sp.LessThan, sp.StrictLessThan)):
            continue
        hm = h.lhs - h.rhs if isinstance(h, (sp.GreaterThan, sp.StrictGreaterThan)) else h.rhs - h.lhs
        hm = hm.subs(done)
        if v not in hm.free_symbols or sp.diff(hm, v).is_positive is not True:
            continue
        if sp.simplify(hm.subs(v, e) - t) == 0:
            return i
    return None


@register(Strategy.REPARAM)
def reparam(lemma):
    """Each substituted symbol v = e(others, t) must turn one hypothesis margin (increasing in v) into
    exactly the fresh symbol t >= 0, so the substitution covers the hypothesis region; then the margin
    of the conclusion, rewritten, must be shown >= 0 (> 0 if strict) for all fresh values. The entries are
    taken in order: an entry may use the symbols substituted before it (their expressions are substituted
    into it and into the hypotheses), and each entry introduces one fresh symbol of its own."""
    if not lemma.reparam:
        return "REPARAM needs reparam={symbol: expression}"
    targets = set(lemma.reparam)
    used = set()
    done: dict = {}
    fresh_seen: set = set()
    for v, e in lemma.reparam.items():
        e = e.subs(done)
        if e.free_symbols & targets:
            return f"reparam of {v} uses a symbol substituted after it (or itself)"
        fresh = [t for t in e.free_symbols if t not in set(lemma.symbols) and t not in fresh_seen]
        if len(fresh) != 1 or fresh[0].is_nonnegative is not True:
            return f"reparam of {v} must use exactly one fresh nonnegative symbol of its own"
        t = fresh[0]
        hit = _parametrised_hypothesis(lemma, v, e, t, done, used)
        if hit is None:
            return f"no hypothesis is parametrised exactly by {v} = {e}"
        used.add(hit)
        fresh_seen.add(t)
        done[v] = e
    m = lemma.margin.subs(done)
    if nonneg_proof(m, strict=lemma.strict):
        hyps = "; ".join(str(lemma.hypotheses[i]) for i in sorted(used))
        return CheckResult(ProofVerdict.PROVED,
                           f"{lemma.id}: hypotheses {hyps} parametrised exactly ({done}); the margin "
                           f"rhs - lhs becomes {sp.simplify(m)}, shown >= 0 under the symbols' assumptions")
    return f"margin {sp.simplify(m)} not shown >= 0 after the reparametrisation"


@register(Strategy.SAMPLED)
def sampled(lemma):
    """The sampled search alone (it has already run): nothing more to try."""
    return None
