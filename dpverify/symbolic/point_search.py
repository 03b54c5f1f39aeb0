"""The point search of a lemma: a hunt for a counterexample that runs before every proof strategy.

:func:`search` evaluates the conclusion at the points :func:`points` yields and returns a
:class:`SearchOutcome`: the REFUTED result of the first violation that survives a re-check at 50 digits
(:func:`refute`), and the number of points actually evaluated (finite real value, every hypothesis holding).

* Points of the box: every corner/midpoint combination, then ``samples`` seeded random points (log-uniform on a
  ``log`` axis, integers on an ``int`` axis), then points of the symbols' assumption domains outside the box
  (:func:`outside_points`; not for a lemma with an ``evaluate`` hook, nor for a lemma class with
  ``search_outside_box = False``).
* Without a box: fixed and seeded random points of each free symbol's assumption domain (:func:`domain`).
* Hypotheses: plain inequalities evaluated by lambdify at 30 digits, anything else by sympy
  (:class:`HypothesisTest`); a point where a hypothesis does not hold, or cannot be shown to, is skipped.

The functions take the lemma (a :class:`~dpverify.symbolic.lemma.Lemma`) as their first argument and read its
public fields only; nothing is stored on it.
"""
from __future__ import annotations

import contextlib

import math
import itertools
from dataclasses import dataclass
from typing import Iterator, Mapping

import mpmath
import numpy as np
import sympy as sp

from .numeric import DPS, decimal, mp_value
from .verdicts import CheckResult, ProofVerdict

__all__ = ["SearchOutcome", "search", "points", "outside_points", "assumption_points", "domain", "scale",
           "HypothesisTest", "hypotheses_hold", "refute", "eval_pair"]


@dataclass(frozen=True)
class SearchOutcome:
    """What a point search found: ``counterexample`` (a REFUTED :class:`CheckResult`, or None) and ``evaluated``
    (points at which the conclusion was evaluated to a finite real value with every hypothesis holding; points that
    raise, are complex, or violate a hypothesis are not counted)."""

    counterexample: CheckResult | None
    evaluated: int


def domain(sym: sp.Symbol):
    """``(scale, fixed points, description, sampler)`` of a symbol's assumption domain (no-box searches).

    integer: positive -> 1..60, nonnegative -> 0..60, else -60..60; positive -> (0, oo) sampled
    log-uniformly on [1e-3, 1e3]; nonnegative -> the same plus 0; negative / nonpositive -> mirrored;
    real (or no assumption: only real points are sampled) -> [-1e3, 1e3] with sign and magnitude
    sampled separately. The fixed points include 1/2, 1, 2 and the domain's boundary.
    """
    if sym.is_integer:
        lo = 1 if sym.is_positive else 0 if sym.is_nonnegative else -60
        hi = -1 if sym.is_negative else 0 if sym.is_nonpositive else 60
        fixed = [float(v) for v in (1, 2, 3, 0, -1, 5, 10) if lo <= v <= hi] or [float(lo)]
        return "int", fixed, f"integers in [{lo}, {hi}]", lambda rng: float(rng.integers(lo, hi + 1))

    def pos(rng):
        return float(math.exp(rng.uniform(math.log(1e-3), math.log(1e3))))

    if sym.is_positive:
        return "lin", [1.0, 0.5, 2.0, 1e-3, 1e3, 0.1, 10.0], "in (0, oo) (sampled on [1e-3, 1e3])", pos
    if sym.is_nonnegative:
        return "lin", [1.0, 0.5, 2.0, 0.0, 1e3, 0.1, 10.0], "in [0, oo) (sampled on [0, 1e3])", pos
    if sym.is_negative:
        return "lin", [-1.0, -0.5, -2.0, -1e-3, -1e3], "in (-oo, 0) (sampled on [-1e3, -1e-3])", lambda r: -pos(r)
    if sym.is_nonpositive:
        return "lin", [-1.0, -0.5, -2.0, 0.0, -1e3], "in (-oo, 0] (sampled on [-1e3, 0])", lambda r: -pos(r)
    what = "real" if sym.is_real else "with no real assumption (only real points sampled)"
    return ("lin", [1.0, -1.0, 0.5, -2.0, 0.0, 3.0, -0.1], f"{what} (sampled on [-1e3, 1e3])",
            lambda rng: float((1 if rng.random() < 0.5 else -1) * pos(rng)))


def scale(lemma, name: str) -> str:
    """The scale of coordinate ``name``: its box range's, else its assumption domain's (``"int"`` or ``"lin"``)."""
    if name in lemma.box:
        return lemma.box[name].scale
    return domain(lemma.symbols_by_name()[name])[0]


def points(lemma) -> Iterator[dict]:
    """Boundary points (every corner/midpoint combination) then seeded random points."""
    names = list(lemma.box)
    rng = np.random.default_rng(lemma.seed)
    per_dim = []
    for n in names:
        r = lemma.box[n]
        mid = math.exp((math.log(r.lo) + math.log(r.hi)) / 2) if r.scale == "log" else (r.lo + r.hi) / 2
        if r.scale == "int":
            mid = float(round(mid))
        per_dim.append(sorted({r.lo, mid, r.hi}))
    if names:
        for combo in itertools.product(*per_dim):
            yield dict(zip(names, combo))
    if not names:
        yield from assumption_points(lemma)
        return
    box_pts = []
    for _ in range(lemma.samples):
        pt = {}
        for n in names:
            r = lemma.box[n]
            if r.scale == "log":
                pt[n] = float(math.exp(rng.uniform(math.log(r.lo), math.log(r.hi))))
            elif r.scale == "int":
                pt[n] = float(rng.integers(int(r.lo), int(r.hi) + 1))
            else:
                pt[n] = float(rng.uniform(r.lo, r.hi))
        box_pts.append(pt)
        yield pt
    # an evaluate hook is a numerical evaluator written for its box: not beyond it; nor for a lemma class whose
    # statement costs too much per point outside its box (``search_outside_box = False``; its verdict names the box)
    if lemma.evaluate is None and getattr(type(lemma), "search_outside_box", True):
        yield from outside_points(lemma, names, box_pts, rng)


def outside_points(lemma, names, box_pts, rng) -> Iterator[dict]:
    """Points of the symbols' assumption domains outside the box (the box is where a certificate is computed;
    the statement claims its whole domain, restricted only by its hypotheses): on each axis, half the time a
    power of ten 10^-6 .. 10^6 (with the signs and 0 the assumptions allow; integers up to 10^2 and twice the box end) outside the box,
    else a draw just beyond one end of the box (up to a factor 10 beyond a positive end, or 3 box widths),
    put into box points one axis at a time and all axes at once. Nothing when the box is the domain (and nothing
    for a lemma with an ``evaluate`` hook: a numerical evaluator written for its box)."""
    syms = lemma.symbols_by_name()
    samplers = {}
    for n in names:
        r, sym = lemma.box[n], syms[n]
        if sym.is_integer:
            # integers up to 10^2 and 2 hi (a statement evaluated by a k-term sum, e.g. optimal composition, costs ~k)
            mags = [10.0 ** k for k in range(0, 3)] + [2.0, 3.0, 5.0, r.hi + 1, 2 * r.hi, r.lo - 1]
        else:
            mags = [10.0 ** k for k in range(-6, 7)] + [0.5, 2.0, 3.0, 0.9, 1.1]

        def allowed(v, sym=sym, r=r):
            if r.lo <= v <= r.hi or (sym.is_integer and v != int(v)):
                return False
            return not ((sym.is_positive and not v > 0) or (sym.is_nonnegative and not v >= 0) or
                        (sym.is_negative and not v < 0) or (sym.is_nonpositive and not v <= 0))
        fixed = [v for v in sorted({float(m) for mm in mags for m in (mm, -mm)} | {0.0}) if allowed(v)]

        def near(rng, r=r, sym=sym, allowed=allowed):
            for _ in range(4):
                up = rng.random() < 0.5
                w = max(r.hi - r.lo, 1e-9)
                if up:
                    v = r.hi * math.exp(rng.uniform(0, math.log(10))) if r.hi > 0 else r.hi + w * rng.uniform(0, 3)
                else:
                    v = r.lo * math.exp(-rng.uniform(0, math.log(10))) if r.lo > 0 else r.lo - w * rng.uniform(0, 3)
                if sym.is_integer:
                    v = float(math.ceil(v) if up else math.floor(v))
                if allowed(v):
                    return v
            return None
        if fixed or near(np.random.default_rng(0)) is not None:
            samplers[n] = (fixed, near)
    if not samplers or not box_pts:
        return

    def draw(n):
        fixed, near = samplers[n]
        v = near(rng) if (not fixed or rng.random() < 0.5) else None
        return v if v is not None else (fixed[int(rng.integers(len(fixed)))] if fixed else None)
    k = max(1, min(len(box_pts), lemma.samples // 2, 150))
    for i in range(k):
        base = box_pts[i]
        for n in samplers:
            v = draw(n)
            if v is not None:
                yield {**base, n: v}
        pt = {n: draw(n) for n in samplers}
        yield {**base, **{n: v for n, v in pt.items() if v is not None}}


def assumption_points(lemma) -> Iterator[dict]:
    """No box: fixed and seeded random points of each free symbol's assumption domain (see :func:`domain`)."""
    names = lemma.free_names()
    if not names:
        return
    rng = np.random.default_rng(lemma.seed)
    doms = [domain(lemma.symbols_by_name()[n]) for n in names]
    fixed = [d[1] for d in doms]
    for k in range(max(len(f) for f in fixed)):
        yield {n: f[k % len(f)] for n, f in zip(names, fixed)}
    for _ in range(lemma.samples):
        yield {n: d[3](rng) for n, d in zip(names, doms)}


class HypothesisTest:
    """Whether a lemma's hypotheses hold at a point (``holds(pt)``); keeps the lambdified inequalities of one search."""

    def __init__(self, lemma):
        self.lemma = lemma
        self._compiled: dict = {}

    def fast(self, pt: Mapping[str, float]) -> bool | None:
        """The hypotheses (strict or weak inequalities) evaluated by lambdify at 30 digits; None (let sympy
        decide) for any other hypothesis, a point that does not evaluate to a finite real, or a margin of 0."""
        names = tuple(sorted(pt))
        if names not in self._compiled:
            fs = []
            try:
                syms = [self.lemma.symbols_by_name()[n] for n in names]
                for h in self.lemma.hypotheses:
                    if not isinstance(h, (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan)):
                        raise TypeError(h)
                    less = isinstance(h, (sp.StrictLessThan, sp.LessThan))
                    fs.append((less, sp.lambdify(syms, h.lhs - h.rhs, modules="mpmath")))
            except Exception:  # noqa: BLE001 - not a plain inequality: sympy's subs decides
                fs = None
            self._compiled[names] = fs
        fs = self._compiled[names]
        if fs is None:
            return None
        with mpmath.workdps(30):
            args = [mpmath.mpf(pt[n]) for n in names]
            for less, f in fs:
                try:
                    m = f(*args)
                except Exception:  # noqa: BLE001 - a symbol without a value, a domain error: sympy decides
                    return None
                if not isinstance(m, mpmath.mpf) or not mpmath.isfinite(m) or m == 0:
                    return None
                if (m > 0) if less else (m < 0):
                    return False
        return True

    def holds(self, pt: Mapping[str, float]) -> bool:
        """Every hypothesis holds at ``pt`` (False where one fails, or cannot be evaluated to a finite comparison)."""
        fast = self.fast(pt)
        if fast is not None:
            return fast
        syms = self.lemma.symbols_by_name()
        for h in self.lemma.hypotheses:
            try:
                val = h.subs({syms[k]: sp.Float(v, 30) for k, v in pt.items() if k in syms})
            except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):
                # e.g. "Invalid NaN comparison": a side is NaN or zoo there (a constant mutated to 0 divides by
                # zero): the hypothesis does not hold at this point, which is skipped
                return False
            if val is sp.false:
                return False
            if isinstance(val, sp.Basic) and val.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
                return False  # not a finite real comparison there: not shown to hold, skipped
            if isinstance(val, sp.Basic) and val.free_symbols:
                return False  # a symbol of the hypothesis has no value at this point: not shown to hold, skipped
        return True


def hypotheses_hold(lemma, pt: Mapping[str, float]) -> bool:
    """``HypothesisTest(lemma).holds(pt)``: every hypothesis of ``lemma`` holds at the point ``pt``."""
    return HypothesisTest(lemma).holds(pt)


def _lambdified(lemma, expr):
    syms = [lemma.symbols_by_name()[n] for n in lemma.coords()]
    return sp.lambdify(syms, expr, modules="mpmath")


def eval_pair(lemma, values: Mapping[str, str], dps: int):
    """(lhs, rhs) at ``dps`` digits: the ``evaluate`` hook if given, else the sympy sides."""
    if lemma.evaluate is not None:
        with mpmath.workdps(dps + 10):
            return lemma.evaluate({k: mpmath.mpf(v) for k, v in values.items()})
    return mp_value(lemma.lhs, values, dps), mp_value(lemma.rhs, values, dps)


def _eval_pair_float(lemma, values: Mapping[str, str], dps: int):
    """(lhs, rhs) at ``dps`` digits with the point as ``dps + 10``-digit Floats (not exact rationals: at extreme
    magnitudes sympy would expand a power like (11/20)^(10^9) exactly)."""
    if lemma.evaluate is not None:
        return eval_pair(lemma, values, dps)
    syms = lemma.symbols_by_name()
    sub = {syms[k]: (sp.Integer(int(v)) if scale(lemma, k) == "int" else sp.Float(str(v), dps + 10))
           for k, v in values.items() if k in syms}
    with mpmath.workdps(dps + 10):
        out = []
        for e in (lemma.lhs, lemma.rhs):
            val = sp.N(e.xreplace(sub), dps + 10)
            if not val.is_real:
                re, im = val.as_real_imag()
                if abs(sp.N(im, dps)) > 0:
                    raise ValueError("not real")
                val = re
            out.append(mpmath.mpf(str(val)))
    return tuple(out)


def search(lemma, identity: bool = False) -> SearchOutcome:
    """Search the box (or, without a box, the symbols' assumption domains) for a counterexample.

    ``identity``: a point fails when ``|rhs - lhs| > 1e-20 (1 + |lhs|)``; else when the margin is < 0 (<= 0 if strict).
    """
    names = lemma.coords()
    if not names:
        return SearchOutcome(None, 0)
    if lemma.evaluate is not None:
        return _search_hook(lemma, names, identity)
    return _search_sympy(lemma, names, identity)


def _count_and_refute(lemma, identity: bool, judged) -> SearchOutcome:
    """Walk ``judged`` (``(point, bad)`` for each point where the margin could be evaluated): points outside the
    hypotheses are skipped, the others counted, and the first bad point that :func:`refute` confirms ends the
    search. ``judged`` is a generator, so what runs between its items runs in its precision context."""
    hyps = HypothesisTest(lemma) if lemma.hypotheses else None
    count = 0
    with contextlib.closing(judged):  # an early return closes it at once, restoring its precision context
        for pt, bad in judged:
            if hyps is not None and not hyps.holds(pt):
                continue
            count += 1
            if bad:
                res = refute(lemma, pt, identity)
                if res is not None:
                    return SearchOutcome(res, count)
    return SearchOutcome(None, count)


def _search_hook(lemma, names, identity: bool) -> SearchOutcome:
    """The search with the lemma's ``evaluate`` hook computing (lhs, rhs) at 30 digits (judged at the caller's
    precision)."""

    def judged():
        for pt in points(lemma):
            with mpmath.workdps(30):
                try:
                    lhs, rhs = lemma.evaluate({n: mpmath.mpf(pt[n]) for n in names})
                    m = rhs - lhs
                except Exception:  # noqa: BLE001 - not evaluable there (domain error, no convergence)
                    continue
                if not (mpmath.isfinite(m) and mpmath.im(m) == 0):
                    continue
            bad = (m <= 0) if lemma.strict else (m < 0)
            if identity:
                bad = abs(m) > mpmath.mpf(10) ** -20 * (1 + abs(lhs))
            yield pt, bad

    return _count_and_refute(lemma, identity, judged())


def _search_sympy(lemma, names, identity: bool) -> SearchOutcome:
    """The search with the margin (and, for an identity, the lhs) lambdified into mpmath at 30 digits (the whole
    walk, hypotheses and refutations included, at 30 digits)."""
    f = _lambdified(lemma, lemma.margin)
    flhs = _lambdified(lemma, lemma.lhs) if identity else None

    def judged():
        with mpmath.workdps(30):
            for pt in points(lemma):
                args = [mpmath.mpf(pt[n]) if scale(lemma, n) != "int" else int(pt[n]) for n in names]
                try:
                    m = f(*args)
                    ref = flhs(*args) if identity else 0
                except Exception:  # noqa: BLE001 - a domain error, an overflow, a series that does not converge
                    continue
                if isinstance(m, mpmath.mpc):
                    if abs(m.imag) > 0:
                        continue
                    m = m.real
                if isinstance(ref, mpmath.mpc):
                    ref = abs(ref)
                try:
                    if not mpmath.isfinite(m):
                        continue
                except TypeError:
                    continue
                yield pt, ((abs(m) > mpmath.mpf(10) ** -20 * (1 + abs(ref))) if identity else
                           (m <= 0 if lemma.strict else m < 0))

    return _count_and_refute(lemma, identity, judged())


def refute(lemma, pt: Mapping[str, float], identity: bool) -> CheckResult | None:
    """Re-evaluate at 50 digits with the point as exact decimals; REFUTED only if it still fails (None otherwise,
    also when the point is not a real number there or a series does not converge)."""
    try:
        return _refute_at(lemma, pt, identity)
    except Exception:  # noqa: BLE001 - not a real number there (or no convergence): no refutation
        return None


def _refute_at(lemma, pt: Mapping[str, float], identity: bool) -> CheckResult | None:
    values = {n: (str(int(v)) if scale(lemma, n) == "int" else decimal(v, 25)) for n, v in pt.items()}
    box = lemma.box
    out_of_box = any(not (box[n].lo <= float(v) <= box[n].hi) for n, v in pt.items() if n in box)
    if out_of_box:  # far from the box (extreme magnitudes): the failure must persist at twice the digits too
        lhs2, rhs2 = _eval_pair_float(lemma, values, 2 * DPS)
        with mpmath.workdps(2 * DPS):
            m2 = rhs2 - lhs2
            if isinstance(m2, mpmath.mpc) or not mpmath.isfinite(m2):
                return None
            tol2 = mpmath.mpf(10) ** -(DPS - 10) * (abs(lhs2) + abs(rhs2))
            if not ((abs(m2) > tol2) if identity else (m2 <= tol2) if lemma.strict else (m2 < -tol2)):
                return None
    lhs, rhs = _eval_pair_float(lemma, values, DPS) if out_of_box else eval_pair(lemma, values, DPS)
    with mpmath.workdps(DPS):
        m = rhs - lhs
        tol = mpmath.mpf(10) ** -(DPS - 10) * (abs(lhs) + abs(rhs))
        if identity:
            fails = abs(m) > tol
        else:
            fails = (m <= tol) if lemma.strict else (m < -tol)
        if not fails or isinstance(m, mpmath.mpc) or not mpmath.isfinite(m):
            return None
        return CheckResult(
            ProofVerdict.REFUTED,
            f"{lemma.id}: counterexample {values}: lhs = {mpmath.nstr(lhs, 12)}, rhs = {mpmath.nstr(rhs, 12)} "
            f"(at {DPS} digits{f' and {2 * DPS}; outside the check box {lemma.box_text()}' if out_of_box else ''})",
            counterexample=values,
        )
