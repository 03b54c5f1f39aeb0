"""Automatic mutation campaign over the encoded statements of the proof files.

For every claim whose encoded statement (``statements()`` of a proof module: claim ID -> :class:`Lemma`
or :class:`ReducedStatement`) is PROVED or CERTIFIED, :func:`mutants` perturbs the statement:

* each named constant (``constants``) x 9/10 and x 11/10, and set to 0 (the boundary of a positive constant);
* each numeric literal of the conclusion (other than 0, 1, -1) x 9/10 and x 11/10, wherever the statement carries
  it, and -- when it occurs on both sides -- on one side only (sympy collects terms, so a literal changed on both
  sides of an identity can leave it true: an *equivalent* mutant);
* the inequality flipped (``a <= b`` -> ``a >= b``; identities are not flipped);
* each hypothesis dropped (for a ReducedStatement: from its residual and its witness together).

:func:`numerically_false` decides independently of the checker whether a mutant is false, on the statement's
*whole domain*: the box's corners and seeded draws, then every symbol's assumption domain (positive reals over
10^-9 .. 10^9 with corner values, nonnegative adds 0, integers >= 1 up to 10^3, ...), restricted only by the
hypotheses; screening at 30 digits, a failing point confirmed by sympy at 40 and at 80 digits. A box is where a
certificate is computed, not part of a claim: a box end that the claim assumes must be a hypothesis. The one exception
is a lemma class that never looks beyond its box (``search_outside_box = False``, a certificate whose every point is a
quadrature): its verdict names the box and claims nothing beyond it, so it is judged on the box.

**Local search.** Sampling alone misses a false region that is narrow (zhou-compression Proposition 3.4's statement
as first written, with its own symbol for <B, P^ - P>_F: the mutant c_delta x 11/10 is false only in a thin slab and
was called true). So when no sampled point fails, :func:`_local_search` starts from the (at most
:data:`SEARCH_STARTS`) sampled points of smallest relative margin -- (rhs - lhs)/(|lhs| + |rhs|) for ``<=``, its
negative for ``>=``, -|rhs - lhs|/(...) for an identity -- and minimises that margin: scipy's Nelder-Mead, then a
compass search, in log-magnitude coordinates (each symbol keeps its start's sign; integer symbols rounded, +-1 steps;
reals within 10^-12 .. 10^12, integers up to 10^3 or the box's end), at most :data:`SEARCH_EVALS` evaluations per
start (:data:`SEARCH_SECONDS` per statement only as a safety net). A point where a hypothesis does not hold, or where
the statement has no finite real value, scores worse than any margin: it is rejected, never counted. A candidate is
confirmed exactly like a sampled point (:func:`_fails_at`: sympy at 40 and 80 digits, every hypothesis holding), so
the search can add false verdicts only where the confirmation agrees: it cannot call a true statement false any more
than the screen could. Such a point is a :class:`SearchedPoint` and the campaign's table says "found by the local
search". The search is local: a false region far from every sampled point, with no descent of the margin towards
it, can still be missed (tests/symbolic/test_symbolic_mutation_search.py holds the adversaries it does find).

**Points where every hypothesis is tight.** A statement with a reparametrisation (``reparam``: each entry turns one
hypothesis margin into a fresh slack t >= 0) also gets points built through it (:func:`_reparam_points`): slacks
drawn or set to 0, the substituted symbols computed at 50 digits and rounded up into the hypothesis region. Sampling
each symbol on its own almost never makes five hypotheses tight at once, which is where zhou-compression Theorem
4.6's assembly is false under c_two x 9/10 or c_half x 11/10. These points are candidates only, confirmed like any
other (every hypothesis re-evaluated exactly).

**Not evaluable means "does not hold".** A hypothesis that is NaN or zoo at a point (a constant mutated to 0 under a
division: ``c/(c + c^2)`` at c = 0) does not hold there, in this check (:func:`_holds`) and in the checker
(``Lemma._hyp_ok``): the point is skipped, never counted, and nothing crashes. A mutant is
*killed* when its checker verdict (a fresh ``check()`` of the mutated object) is not PROVED/CERTIFIED. The kill
rate is killed / false mutants; a false mutant that stays PROVED/CERTIFIED is a survivor (a soundness defect of
the checker). A mutant whose statement has no finite real value at any sampled point (:func:`evaluable`; e.g. a
constant set to 0 under a division) is reported as not evaluable, neither true nor false. Mutants found true are
counted separately; those that sympy shows identical to the original are flagged ``equivalent``.

**Time limits.** sympy's ``simplify`` of some mutants does not finish in minutes (e.g. a literal of the Wishart
normaliser of ``jiang-wishart/definition-2`` changed). :func:`run_campaign` gives each mutant's fresh check and each
numeric check ``time_limit`` seconds (SIGALRM in the main thread; no limit elsewhere). A check that runs out of time
has no verdict: the mutant is *timed out* and is **never counted as killed** (``Outcome.killed`` is False), so a false
mutant whose check timed out is a survivor. A numeric check that runs out of time leaves the mutant's truth
*undecided*: it is not counted as false, and the report lists it apart (``undecided``) with its checker verdict.
"""
from __future__ import annotations

import importlib
import itertools
import math
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Iterable, Mapping

import mpmath
import numpy as np
import sympy as sp

from .dp_statements import ReducedStatement
from .lemma import Lemma
from .verdicts import ProofVerdict

__all__ = ["Mutant", "Outcome", "CampaignReport", "MutantTimeout", "SearchedPoint", "mutants", "numerically_false", "evaluable",
           "run_campaign", "proof_statements", "equivalent"]

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
    #: sympy shows the mutant's conclusion and hypotheses identical to the original's (e.g. a literal that sympy had
    #: collected on both sides of an identity, changed on both): a true mutant by construction
    equivalent: bool = False
    #: the mutant's fresh check ran out of the campaign's time limit: no verdict (``verdict`` is UNKNOWN), and the
    #: mutant is never counted as killed
    check_timed_out: bool = False
    #: the numeric (falseness) check ran out of time: the mutant's truth is undecided (``false`` is False)
    false_timed_out: bool = False
    #: seconds spent on this mutant (numeric check and fresh check)
    seconds: float = 0.0
    #: the numeric check found no failing point because the statement has no finite real value at any sampled point
    #: (e.g. a constant set to 0 under a division: ``zoo <= epsilon``): neither true nor false
    not_evaluable: bool = False

    @property
    def killed(self) -> bool:
        return not self.check_timed_out and self.verdict not in GOOD

    @property
    def found_by_search(self) -> bool:
        """The failing point came from the local search (the sampled screen alone called this mutant true)."""
        return isinstance(self.witness, SearchedPoint)

    @property
    def undecided(self) -> bool:
        """The numeric check ran out of time and the checker did not kill it: possibly a false mutant that stays
        PROVED/CERTIFIED (or a check that timed out too)."""
        return self.false_timed_out and not self.killed


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

    @property
    def undecided(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.undecided]

    @property
    def timed_out(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.check_timed_out or o.false_timed_out]

    def summary(self) -> str:
        f = self.false_mutants
        eq = sum(o.equivalent for o in self.outcomes)
        to = self.timed_out
        ne = [o for o in self.outcomes if o.not_evaluable]
        ne_text = (f"; {len(ne)} not evaluable at any sampled point (neither true nor false; checks: "
                   + ", ".join(f"{v} {sum(o.verdict.value == v for o in ne)}" for v in sorted({o.verdict.value for o in ne}))
                   + ")") if ne else ""
        return (f"{len(self.claims)} proved/certified encoded claims, {len(self.outcomes)} mutants, {len(f)} false by "
                f"the numeric check (whole domain, or the box of a box-limited certificate; {sum(o.found_by_search for o in f)} of them found by the local "
                f"search, not by the sampled screen), {sum(o.killed for o in f)} killed (kill rate "
                f"{100 * self.kill_rate:.1f}%), {len(self.outcomes) - len(f) - len(ne)} found true (not counted; {eq} "
                f"of them equivalent to the original by sympy){ne_text}; {len(to)} ran out of the time limit "
                f"({sum(o.check_timed_out for o in to)} checks, never counted as killed; "
                f"{sum(o.false_timed_out for o in to)} numeric checks), {len(self.undecided)} undecided")

    def per_claim(self) -> list[tuple[str, int, int, int, int, int, float]]:
        """(claim, mutants, false, killed, survivors, timed out, seconds) per claim."""
        rows = []
        for cid in self.claims:
            os_ = [o for o in self.outcomes if o.mutant.claim == cid]
            f = [o for o in os_ if o.false]
            rows.append((cid, len(os_), len(f), sum(o.killed for o in f), sum(not o.killed for o in f),
                         sum(o.check_timed_out or o.false_timed_out for o in os_), sum(o.seconds for o in os_)))
        return rows

    def table(self) -> str:
        """One line per mutant: claim, mutation, false/true (equivalent), checker verdict, killed/SURVIVOR."""
        rows = []
        for o in self.outcomes:
            truth = (("false (found by the local search at " + ", ".join(f"{k} = {v:.10g}" for k, v in o.witness.items())
                      + ")") if o.found_by_search else "false") if o.false else (
                "undecided (numeric check timed out)" if o.false_timed_out else "true (equivalent)" if o.equivalent
                else "not evaluable at any sampled point" if o.not_evaluable else "true")
            verdict = "check timed out" if o.check_timed_out else o.verdict.value
            fate = ("killed" if o.killed else "SURVIVOR") if o.false else ("UNDECIDED" if o.undecided else "")
            rows.append(f"{o.mutant.claim}: {o.mutant.description}: {truth}, {verdict} {fate}".rstrip())
        return "\n".join(rows)


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


#: corner values of a real axis's magnitude in the full-domain check: many decades on both sides of 1
_MAGNITUDES = (1e-9, 1e-6, 1e-3, 0.01, 0.1, 0.25, 0.5, 0.9, 1.0, 1.1, 2.0, 3.0, 10.0, 100.0, 1e3, 1e6, 1e9)
_DECADES = 9  # log-uniform draws of a magnitude over 10^-9 .. 10^9
#: integers up to 10^3: statements evaluated by a k-term sum (optimal composition) cost ~k per point
_INTS = (1, 2, 3, 4, 5, 7, 10, 30, 100, 300, 1000)


def _axis(sym: sp.Symbol, rng_box=None):
    """(corner values, sampler) of one symbol over its whole assumption domain (not the check box): positive reals
    -> magnitudes 10^-9 .. 10^9 (corners and log-uniform draws), nonnegative adds 0, negative/nonpositive mirrored,
    real both signs and 0; integers >= 1 -> 1 .. 10^3 (small values, then log-uniform), >= 0 adds 0, else both
    signs. The box's ends (when given) are added to the corners, so the box's boundary is probed too."""
    extra = [] if rng_box is None else [rng_box.lo, rng_box.hi]
    if sym.is_integer:
        pos = list(_INTS)

        def ipos(rng):
            if rng.random() < 0.5:
                return float(rng.integers(1, 61))
            return float(round(10 ** rng.uniform(0, 3)))
        if sym.is_positive:
            return sorted(set(map(float, pos + extra))), ipos
        if sym.is_nonnegative:
            return sorted(set(map(float, [0] + pos + extra))), lambda r: ipos(r) if r.random() < 0.9 else 0.0
        if sym.is_negative:
            return sorted(set(map(float, [-v for v in pos] + extra))), lambda r: -ipos(r)
        if sym.is_nonpositive:
            return sorted(set(map(float, [0] + [-v for v in pos] + extra))), lambda r: -ipos(r)
        return (sorted(set(map(float, [0] + pos + [-v for v in pos] + extra))),
                lambda r: (1 if r.random() < 0.5 else -1) * ipos(r))

    def mag(rng):
        return float(10 ** rng.uniform(-_DECADES, _DECADES))
    mags = list(_MAGNITUDES)
    if sym.is_positive:
        return sorted(set(mags + extra)), mag
    if sym.is_nonnegative:
        return sorted(set([0.0] + mags + extra)), lambda r: mag(r) if r.random() < 0.95 else 0.0
    if sym.is_negative:
        return sorted(set([-v for v in mags] + extra)), lambda r: -mag(r)
    if sym.is_nonpositive:
        return sorted(set([0.0] + [-v for v in mags] + extra)), lambda r: -mag(r)
    return (sorted(set([0.0] + mags + [-v for v in mags] + extra)),
            lambda r: (1 if r.random() < 0.5 else -1) * mag(r) if r.random() < 0.97 else 0.0)


def _free_names(lem: Lemma) -> list[str]:
    free = {s.name for s in lem.conclusion.free_symbols} | {s.name for h in lem.hypotheses for s in h.free_symbols}
    return [s.name for s in lem.symbols if s.name in free]


def _points(lem: Lemma, n: int, seed: int):
    """Seeded, deterministic points: the box's corners and draws (when the statement has a box), then the symbols'
    whole assumption domains (``_axis``): every combination of corner values (or, when there are too many, ``4 n``
    random combinations), then ``n`` draws mixing corner values and log-uniform magnitudes over 18 decades, then (a
    statement with a reparametrisation) ``2 n`` points where chosen hypotheses are tight (:func:`_reparam_points`).

    The statement's falseness is judged on its whole domain (the hypotheses are the only restriction): a box is where
    a certificate is computed, not part of the claim (a box end that is a hypothesis of the claim must be written as
    a hypothesis)."""
    rng = np.random.default_rng(seed)
    syms = {s.name: s for s in lem.symbols}
    names = _free_names(lem)
    if not names:
        yield {}
        return
    if lem.box and set(names) <= set(lem.box):
        axes = [(lem.box[nm].lo, lem.box[nm].hi, lem.box[nm].scale) for nm in names]
        for idx in range(2 ** len(names)):
            yield {nm: (axes[i][0], axes[i][1])[(idx >> i) & 1] for i, nm in enumerate(names)}
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
    doms = [_axis(syms[nm], lem.box.get(nm)) for nm in names]
    corners = [d[0] for d in doms]
    total = math.prod(len(c) for c in corners)
    if total <= 4 * n:
        for combo in itertools.product(*corners):
            yield dict(zip(names, combo))
    else:
        for _ in range(4 * n):
            yield {nm: c[int(rng.integers(len(c)))] for nm, c in zip(names, corners)}
    for _ in range(n):
        yield {nm: (c[int(rng.integers(len(c)))] if rng.random() < 0.25 else d[1](rng))
               for nm, c, d in zip(names, corners, doms)}
    yield from _reparam_points(lem, names, n, seed)


def _round_up(x, sym: sp.Symbol) -> float | None:
    """A float whose shortest decimal (what :func:`_exact` confirms at) is >= the real number ``x`` and next to it
    (the smallest integer >= ``x`` on an integer axis), or None when ``x`` is not a finite real."""
    if not isinstance(x, mpmath.mpf) or not mpmath.isfinite(x):
        return None
    if sym.is_integer:
        return float(int(mpmath.ceil(x)))
    f = float(x)
    # the point is confirmed at the float's shortest decimal (``_exact``), which may lie below the binary value
    while math.isfinite(f) and mpmath.mpf(repr(f)) < x:
        f = math.nextafter(f, math.inf)
    return f if math.isfinite(f) else None


def _in_domain(v: float, sym: sp.Symbol) -> bool:
    """Does ``v`` lie in the symbol's assumption domain (sign, integrality)?"""
    if sym.is_integer and v != int(v):
        return False
    return not ((sym.is_positive and not v > 0) or (sym.is_nonnegative and not v >= 0)
                or (sym.is_negative and not v < 0) or (sym.is_nonpositive and not v <= 0))


class _TightPoint(dict):
    """A point built through the statement's reparametrisation (:func:`_reparam_points`)."""


def _reparam_points(lem: Lemma, names, n: int, seed: int):
    """Points on and near the boundary of the hypothesis region, for a statement that carries a reparametrisation
    (``reparam``: each entry v = e(others, t) turns one hypothesis margin into a fresh slack t >= 0). The free symbols
    and the slacks are drawn (a slack is 0 -- the hypothesis tight -- in half of the points, and in every slack at
    once in a quarter of them), and each substituted symbol is computed in order at 50 digits and rounded *up* to a
    float: its hypothesis margin increases with it (what ``Lemma._reparam`` requires), so rounding cannot leave the
    hypothesis region. Sampling every symbol independently almost never lands where all hypotheses are tight at once
    (zhou-compression Theorem 4.6's assembly is false only at such a corner when a constant is mutated); these points
    do. They only add candidates: every failing point is confirmed by :func:`_fails_at` with every hypothesis
    re-evaluated exactly, so a reparametrisation that is wrong cannot make a true statement look false."""
    if not getattr(lem, "reparam", None):
        return
    syms = {s.name: s for s in lem.symbols}
    order = list(lem.reparam.items())
    targets, own = {v for v, _ in order}, set(lem.symbols)
    fresh = sorted({t for _, e in order for t in e.free_symbols if t not in own}, key=str)
    base = [syms[nm] for nm in names if syms[nm] not in targets]
    base += sorted({s for _, e in order for s in e.free_symbols if s in own and s not in targets and s not in base},
                   key=str)
    try:
        fns = [(v, sp.lambdify([*base, *fresh, *[u for u, _ in order]], e, modules="mpmath")) for v, e in order]
    except Exception:  # noqa: BLE001 - no numeric form: no points of this kind
        return
    rng = np.random.default_rng(seed + 1)
    doms = {s: _axis(s, lem.box.get(s.name)) for s in [*base, *fresh]}

    def draw(s):
        c, sampler = doms[s]
        return c[int(rng.integers(len(c)))] if rng.random() < 0.25 else sampler(rng)
    for i in range(2 * n):
        vals = {s: draw(s) for s in base}
        all_tight = i % 4 == 0
        vals.update({t: 0.0 if all_tight or rng.random() < 0.5 else draw(t) for t in fresh})
        pt = {s.name: v for s, v in vals.items() if s in base}
        ok = True
        done: dict = {u: mpmath.mpf(0) for u, _ in order}  # placeholders: an entry uses only those before it
        with mpmath.workdps(50):
            for v, f in fns:
                try:
                    x = f(*[mpmath.mpf(repr(float(vals[s]))) for s in [*base, *fresh]], *done.values())
                except (ValueError, ZeroDivisionError, OverflowError, TypeError, ArithmeticError):
                    ok = False
                    break
                r = _round_up(x, v)
                if r is None or not _in_domain(r, v):
                    ok = False
                    break
                done[v] = mpmath.mpf(repr(r))  # the values the confirmation will see (``_exact``)
                pt[v.name] = r
        if ok:
            yield _TightPoint({nm: pt[nm] for nm in names if nm in pt})



def _exact(v: float, sym: sp.Symbol, dps: int = 80):
    """The point's coordinate as a sympy number: an Integer on an integer axis, else the float's decimal expansion
    as a ``dps``-digit Float (an exact Rational can make sympy expand a power like (11/20)^(10^9) exactly)."""
    return sp.Integer(int(v)) if sym.is_integer and float(v) == int(v) else sp.Float(repr(float(v)), dps)


def _side_values(c, sub, dps):
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


def _fails(c, lhs, rhs, digits: int) -> bool:
    """Does relational ``c`` fail at these values, beyond a relative tolerance of 10^-digits?"""
    tol = mpmath.mpf(10) ** -digits * (1 + abs(lhs) + abs(rhs))
    m = rhs - lhs
    if isinstance(c, sp.Equality):
        return abs(m) > tol
    if isinstance(c, (sp.LessThan, sp.GreaterThan)):
        return (m if isinstance(c, sp.LessThan) else -m) < -tol
    return (m if isinstance(c, sp.StrictLessThan) else -m) <= tol


def _holds(h, sub) -> bool | None:
    """A hypothesis at an exact point: True, False, or None (not evaluable: the point is skipped). A side that is
    NaN or zoo there (e.g. a constant mutated to 0 under a division) makes the hypothesis not evaluable."""
    try:
        v = h.xreplace(sub)
    except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):  # "Invalid NaN comparison"
        return None
    if v is sp.true or v is sp.false:
        return bool(v)
    if isinstance(v, sp.Rel) and not isinstance(v, sp.Ne):
        sv = _side_values(v, {}, 40)
        if sv is None:
            return None
        return not _fails(v, *sv, digits=35) if not isinstance(v, sp.Equality) else None
    return None


def _lambdified(lem: Lemma, names):
    syms = {s.name: s for s in lem.symbols}
    args = [syms[nm] for nm in names]
    try:
        return (sp.lambdify(args, lem.conclusion.lhs, modules="mpmath"),
                sp.lambdify(args, lem.conclusion.rhs, modules="mpmath"))
    except Exception:  # noqa: BLE001 - no mpmath printer for some node: sympy evaluates every point
        return None


#: seconds one point of the numeric check may take (a point that takes longer is skipped as not evaluable: e.g. an
#: exponential tower at eps = 10^9 that mpmath would evaluate for minutes)
POINT_LIMIT = 5.0


def _lemma_false(lem: Lemma, n: int, seed: int, search: bool = True):
    """A point of the statement's whole domain where it fails (:func:`_fails_at`), or None; each point is limited to
    :data:`POINT_LIMIT` seconds (a slower point is skipped, as a point where the statement does not evaluate).

    First the sampled screen (:func:`_points`); when no sampled point fails and ``search`` is set, a local search
    (:func:`_local_search`) from the :data:`SEARCH_STARTS` sampled points of smallest relative margin. Every
    candidate of either stage is confirmed by :func:`_fails_at` (sympy at 40 and 80 digits, every hypothesis
    holding), so the search can only add confirmed failing points, never call a true statement false."""
    lem = lem.substituted()
    syms = {s.name: s for s in lem.symbols}
    names = _free_names(lem)
    fast = _lambdified(lem, names)
    inside = _box_filter(lem, names)
    seen = set()
    screened = []  # (relative margin, point) of the sampled points where the fast evaluation gave real values
    for pt in _points(lem, n, seed):
        key = tuple(pt.get(nm) for nm in names)
        if key in seen or not inside(pt):
            continue
        seen.add(key)
        try:
            with _time_limit(POINT_LIMIT, _PointTimeout):
                sides = _fast_sides(fast, syms, names, pt) if fast is not None else None
                if sides is not None:
                    m = _rel_margin(lem.conclusion, *sides)
                    if m is not None:
                        screened.append((m, pt))
                if _fails_at(lem, syms, names, fast, pt, sides):
                    return pt
        except _PointTimeout:
            continue
    if not search or fast is None or not names:
        return None
    return _local_search(lem, syms, names, fast, screened, inside)


def _box_filter(lem: Lemma, names):
    """Which points the statement is judged at: its whole domain, except for a lemma class that checks its box only
    (``search_outside_box = False``, e.g. a certificate whose every point is a quadrature): its verdict names the box
    and claims nothing beyond it, so it is judged on the box."""
    if getattr(type(lem), "search_outside_box", True) or not lem.box:
        return lambda pt: True
    box = {nm: lem.box[nm] for nm in names if nm in lem.box}
    return lambda pt: all(r.lo <= pt[nm] <= r.hi for nm, r in box.items())


def _fast_sides(fast, syms, names, pt):
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


def _rel_margin(c, lhs, rhs) -> float | None:
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


def _coordinate(sym: sp.Symbol, v: float, box=None):
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


def _hyp_checkers(lem: Lemma, syms, names):
    """A function point -> bool: every hypothesis holds at 30 digits (lambdified relationals; a NaN, complex or
    non-evaluable side means it does not hold), or by :func:`_holds` (sympy) when a hypothesis is not a plain
    inequality. Only a screen for the search: a candidate is confirmed by :func:`_fails_at`."""
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
            sub = {syms[k]: _exact(v, syms[k]) for k, v in pt.items()}
            return all(_holds(h, sub) is True for h in slow)
        return True
    return ok


def _local_search(lem: Lemma, syms, names, fast, screened, inside=lambda pt: True):
    """Search for a failing point near the sampled points of smallest relative margin (:func:`_rel_margin`):
    Nelder-Mead (scipy) over log-magnitude coordinates (:func:`_coordinate`; integer axes rounded), then a compass
    search (steps 10^-1 .. 10^-7 in u, and +-1 on integer axes). A point where a hypothesis does not hold, or where
    the statement has no finite real value, scores worse than any margin (it is rejected, never counted). The first
    point whose 30-digit margin fails is confirmed by :func:`_fails_at`; bounded by :data:`SEARCH_EVALS` evaluations
    per start and :data:`SEARCH_SECONDS` per statement. Returns the confirmed point or None."""
    from scipy.optimize import minimize

    c = lem.conclusion
    if not isinstance(c, (sp.LessThan, sp.StrictLessThan, sp.GreaterThan, sp.StrictGreaterThan, sp.Equality)):
        return None
    hyp_holds = _hyp_checkers(lem, syms, names)

    def hyp_ok(pt):
        return inside(pt) and hyp_holds(pt)
    deadline = time.monotonic() + SEARCH_SECONDS
    starts, margins = [], set()
    # up to SEARCH_STARTS starts among the sampled points, then up to as many among the points built through the
    # reparametrisation (_TightPoint): their margins are the smallest, and taking them first would crowd out the
    # sampled starts from which false regions away from the tight corner are found
    for group in (False, True):
        taken = 0
        for m, pt in sorted(screened, key=lambda t: t[0]):
            if isinstance(pt, _TightPoint) is not group:
                continue
            if taken >= SEARCH_STARTS or time.monotonic() > deadline:
                break
            mk = round(m, 12)
            if mk in margins:
                continue  # one start per distinct margin: a flat region gives one start, not five copies
            try:
                with _time_limit(POINT_LIMIT, _PointTimeout):
                    if not hyp_ok(pt):
                        continue
            except _PointTimeout:
                continue
            margins.add(mk)
            starts.append(dict(pt))
            taken += 1
    rejected = 4.0  # worse than any margin (margins lie in [-1, 1])
    tried = set()

    def objective_at(pt):
        key = tuple(pt[nm] for nm in names)
        if key in cache:
            return cache[key]
        if time.monotonic() > deadline:
            raise _OutOfSearch
        val = rejected
        try:
            with _time_limit(POINT_LIMIT, _PointTimeout):
                if hyp_ok(pt):
                    sides = _fast_sides(fast, syms, names, pt)
                    if sides is not None:
                        m = _rel_margin(c, *sides)
                        if m is not None:
                            val = m
                            with mpmath.workdps(30):
                                bad = _fails(c, *sides, digits=20)
                            if bad and key not in tried:
                                tried.add(key)
                                if _fails_at(lem, syms, names, fast, pt, sides):
                                    raise _Found(SearchedPoint(pt))
        except _PointTimeout:
            val = rejected
        cache[key] = val
        return val

    cache: dict = {}
    for start in starts:
        coords = [_coordinate(syms[nm], start[nm], lem.box.get(nm)) for nm in names]
        u0 = np.array([u for u, _ in coords])

        def to_pt(u):
            return {nm: f(float(x)) for nm, (_, f), x in zip(names, coords, u)}
        evals = [0]

        def obj(u):
            evals[0] += 1
            if evals[0] > SEARCH_EVALS:
                raise _OutOfSearch
            return objective_at(to_pt(u))
        try:
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
        except _Found as f:
            return f.pt
        except _OutOfSearch:
            if time.monotonic() > deadline:
                return None
    return None


def _fails_at(lem: Lemma, syms, names, fast, pt, sides=None) -> bool:
    """Does the (substituted) statement fail at the point ``pt``?

    Screening at 30 digits (lambdify on mpmath -- ``sides`` when the caller has them -- else sympy), then confirmation
    by sympy at the point as exact rationals, at 40 and at 80 digits: a point counts only if the conclusion fails at
    both precisions beyond a relative 10^-20 (so cancellation at extreme magnitudes cannot make a true statement look
    false) and every hypothesis holds (evaluated by sympy; a hypothesis that cannot be evaluated skips the point)."""
    c = lem.conclusion
    sub = {syms[k]: _exact(v, syms[k]) for k, v in pt.items()}
    if fast is not None:
        if sides is None:
            sides = _fast_sides(fast, syms, names, pt)
        if sides is None:
            return False  # not a real value there: outside where the statement says anything
        with mpmath.workdps(30):
            if not _fails(c, *sides, digits=20):
                return False
    if any(_holds(h, sub) is not True for h in lem.hypotheses):
        return False
    for dps in (40, 80):
        sv = _side_values(c, sub, dps)
        with mpmath.workdps(dps):
            if sv is None or not _fails(c, *sv, digits=20):
                return False
    return True


def numerically_false(statement, n: int = 300, seed: int = 7919, search: bool = True):
    """A point where the statement fails (independent check: sampled screen, then -- unless ``search`` is False -- a
    local search from the smallest-margin sampled points; every point confirmed at 40 and 80 digits), or None."""
    if isinstance(statement, Lemma):
        return _lemma_false(statement, n, seed, search)
    if isinstance(statement, ReducedStatement):
        s = statement.with_constants()
        for lem in (s.witness, s.residual):
            if lem is not None:
                pt = _lemma_false(lem, n, seed, search)
                if pt is not None:
                    return pt
        return None
    raise TypeError(type(statement).__name__)


def evaluable(statement, n: int = 300, seed: int = 7919) -> bool:
    """Does the statement have finite real sides at some point of :func:`_points` (the numeric check's sample)?
    True when that cannot be told (no fast numeric form): only a statement shown to have no value anywhere counts
    as not evaluable."""
    if isinstance(statement, ReducedStatement):
        s = statement.with_constants()
        return any(evaluable(lem, n, seed) for lem in (s.witness, s.residual) if lem is not None)
    lem = statement.substituted()
    if lem.conclusion.has(sp.zoo, sp.nan):  # e.g. c/0 after a constant set to 0: no value at any point
        return False
    syms = {x.name: x for x in lem.symbols}
    names = _free_names(lem)
    fast = _lambdified(lem, names)
    if fast is None or not names:
        return True
    for pt in _points(lem, n, seed):
        try:
            with _time_limit(POINT_LIMIT, _PointTimeout):
                if _fast_sides(fast, syms, names, pt) is not None:
                    return True
        except _PointTimeout:
            continue
    return False


def _lemma_equivalent(a: Lemma, b: Lemma) -> bool:
    a, b = a.substituted(), b.substituted()
    if type(a.conclusion) is not type(b.conclusion) or {str(h) for h in a.hypotheses} != {str(h) for h in b.hypotheses}:
        return False
    if a.conclusion == b.conclusion:
        return True
    try:
        d = sp.expand((a.conclusion.lhs - a.conclusion.rhs) - (b.conclusion.lhs - b.conclusion.rhs))
    except Exception:  # noqa: BLE001 - not an arithmetic difference: not shown equivalent
        return False
    return d == 0


def equivalent(original, mutant) -> bool:
    """sympy shows the mutant's statement identical to the original's (same relation, hypotheses and margin)."""
    if isinstance(original, Lemma) and isinstance(mutant, Lemma):
        return _lemma_equivalent(original, mutant)
    if isinstance(original, ReducedStatement) and isinstance(mutant, ReducedStatement):
        o, m = original.with_constants(), mutant.with_constants()
        return all((x is None and y is None) or (x is not None and y is not None and _lemma_equivalent(x, y))
                   for x, y in ((o.residual, m.residual), (o.witness, m.witness)))
    return False


def proof_statements(modules=None) -> dict:
    """claim ID -> encoded statement, from ``statements()`` of every proof module that has it."""
    from .runner import proof_modules

    out = {}
    for mod in modules or proof_modules():
        fn = getattr(mod, "statements", None)
        if callable(fn):
            out.update(fn())
    return out


class MutantTimeout(BaseException):
    """A mutant's check ran out of the campaign's time limit (a BaseException, so that no ``except Exception`` of a
    checker turns it into a verdict)."""


class _PointTimeout(MutantTimeout):
    """One point of the numeric check ran out of its own limit (e.g. exp(exp(10^9)) at an extreme corner): skipped."""


#: active limits, outermost first: (deadline on time.monotonic(), exception class)
_LIMITS: list[tuple[float, type]] = []


def _on_alarm(signum, frame):
    now = time.monotonic()
    for deadline, exc in _LIMITS:  # the outermost expired limit wins, so an inner handler cannot swallow it
        if deadline <= now + 1e-3:
            raise exc()
    _arm()


def _arm():
    if _LIMITS:
        left = min(d for d, _ in _LIMITS) - time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))
    else:
        signal.setitimer(signal.ITIMER_REAL, 0)


@contextmanager
def _time_limit(seconds: float | None, exc: type = MutantTimeout):
    """Raise ``exc`` in the block after ``seconds`` (SIGALRM; only in the main thread of a process with SIGALRM, else
    no limit). Limits nest: an inner limit never extends an outer one, and the outer one is re-armed on exit."""
    if not seconds or not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return
    outermost = not _LIMITS
    old = signal.signal(signal.SIGALRM, _on_alarm) if outermost else None
    entry = (time.monotonic() + float(seconds), exc)
    _LIMITS.append(entry)
    _arm()
    try:
        yield
    finally:
        _LIMITS.remove(entry)
        if outermost:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        else:
            _arm()


def _timed(fn, seconds):
    """(result, timed_out): ``fn()`` under the time limit."""
    try:
        with _time_limit(seconds):
            return fn(), False
    except MutantTimeout:
        return None, True


def run_campaign(statements: Mapping | None = None, *, n: int = 300, progress=None,
                 time_limit: float | None = 60.0) -> CampaignReport:
    """Mutate every PROVED/CERTIFIED statement and check each mutant afresh.

    ``time_limit`` (seconds, None for none) bounds each mutant's numeric check and its fresh check separately; a
    fresh check that runs out of time is never counted as killed, a numeric check that does leaves the mutant
    undecided (see the module docstring). The originals' checks are not limited."""
    statements = proof_statements() if statements is None else statements
    claims, outcomes = [], []
    for cid, st in statements.items():
        if st.check().verdict not in GOOD:
            continue
        claims.append(cid)
        for m in mutants(cid, st):
            t0 = time.perf_counter()
            pt, f_to = _timed(lambda: numerically_false(m.statement, n=n), time_limit)
            # a fresh check of the mutated object (no verdict is cached on it)
            res, c_to = _timed(lambda: m.statement.check(), time_limit)
            v = ProofVerdict.UNKNOWN if c_to else res.verdict
            eq = pt is None and not f_to and equivalent(st, m.statement)
            ne = pt is None and not f_to and not eq and not evaluable(m.statement, n=n)
            outcomes.append(Outcome(m, pt is not None, v, pt, equivalent=eq, check_timed_out=c_to,
                                    false_timed_out=f_to, seconds=time.perf_counter() - t0, not_evaluable=ne))
            if progress is not None:
                truth = ("false (local search: " + ", ".join(f"{k} = {v:.10g}" for k, v in pt.items()) + ")"
                         if isinstance(pt, SearchedPoint) else "false") if pt is not None else (
                    "undecided (numeric check timed out)" if f_to else "not evaluable at any sampled point" if ne else "true")
                progress(f"{cid}: {m.description}: {truth}, {'check timed out' if c_to else v.value} "
                         f"({outcomes[-1].seconds:.1f} s)")
    return CampaignReport(tuple(claims), tuple(outcomes))


def _main(argv=None) -> int:
    """``python -m dpverify.symbolic.mutation [--n N] [--time-limit S] [MODULE ...]``: the full campaign per proof
    file (default: every module of ``dpverify_proofs``), a progress line per mutant on stderr, and a table per claim
    and per file (mutants, false, killed, survivors, timed out, seconds) on stdout. Exit 1 when a false mutant
    survives or a mutant is undecided."""
    import argparse
    import sys

    from .runner import proof_modules

    ap = argparse.ArgumentParser(prog="python -m dpverify.symbolic.mutation")
    ap.add_argument("modules", nargs="*", help="proof modules (e.g. dpverify_proofs.jiang_wishart); default: all")
    ap.add_argument("--n", type=int, default=300, help="points of the numeric check per mutant")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per mutant check (0: none)")
    ap.add_argument("--table", action="store_true", help="also print one line per mutant")
    a = ap.parse_args(argv)
    mods = [importlib.import_module(m) for m in a.modules] if a.modules else list(proof_modules())
    bad = 0
    totals = [0, 0, 0, 0, 0, 0.0]
    print("| proof file | claim | mutants | false | killed | survivors | timed out | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    for mod in mods:
        t0 = time.perf_counter()
        sts = proof_statements([mod])
        rep = run_campaign(sts, n=a.n, time_limit=a.time_limit or None,
                           progress=lambda line: print(line, file=sys.stderr, flush=True))
        name = mod.__name__.rsplit(".", 1)[-1]
        file_tot = [0, 0, 0, 0, 0]
        for cid, nm, nf, nk, ns, nt, sec in rep.per_claim():
            print(f"| {name} | `{cid}` | {nm} | {nf} | {nk} | {ns} | {nt} | {sec:.1f} |")
            for i, v in enumerate((nm, nf, nk, ns, nt)):
                file_tot[i] += v
        sec = time.perf_counter() - t0
        print(f"| **{name}** | all ({len(rep.claims)} claims) | {file_tot[0]} | {file_tot[1]} | {file_tot[2]} | "
              f"{file_tot[3]} | {file_tot[4]} | {sec:.1f} |", flush=True)
        for i, v in enumerate(file_tot):
            totals[i] += v
        totals[5] += sec
        if a.table:
            print(rep.table())
        print(f"{name}: {rep.summary()}", file=sys.stderr, flush=True)
        bad += len(rep.survivors) + len(rep.undecided)
    print(f"| **all** | | {totals[0]} | {totals[1]} | {totals[2]} | {totals[3]} | {totals[4]} | {totals[5]:.1f} |")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(_main())
