"""The points the mutation campaign's numeric check samples: the symbols' whole assumption domains.

:func:`axis` gives one symbol's corner values and sampler (positive reals over 10^-9 .. 10^9, integers up to 10^3,
...); :func:`sample_points` the seeded sequence of points of a statement (its box's corners and draws, every
combination of corner values or random ones, log-uniform draws, then :func:`reparam_points`: points where chosen
hypotheses are tight, built through the statement's reparametrisation, each a :class:`TightPoint`).
"""
from __future__ import annotations

import itertools
import math

import mpmath
import numpy as np
import sympy as sp

from ..lemma import Lemma

__all__ = ["axis", "free_names", "sample_points", "round_up", "in_domain", "TightPoint", "reparam_points"]

#: corner values of a real axis's magnitude in the full-domain check: many decades on both sides of 1
_MAGNITUDES = (1e-9, 1e-6, 1e-3, 0.01, 0.1, 0.25, 0.5, 0.9, 1.0, 1.1, 2.0, 3.0, 10.0, 100.0, 1e3, 1e6, 1e9)
_DECADES = 9  # log-uniform draws of a magnitude over 10^-9 .. 10^9
#: integers up to 10^3: statements evaluated by a k-term sum (optimal composition) cost ~k per point
_INTS = (1, 2, 3, 4, 5, 7, 10, 30, 100, 300, 1000)


def axis(sym: sp.Symbol, rng_box=None):
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


def free_names(lem: Lemma) -> list[str]:
    free = {s.name for s in lem.conclusion.free_symbols} | {s.name for h in lem.hypotheses for s in h.free_symbols}
    return [s.name for s in lem.symbols if s.name in free]


def sample_points(lem: Lemma, n: int, seed: int):
    """Seeded, deterministic points: the box's corners and draws (when the statement has a box), then the symbols'
    whole assumption domains (:func:`axis`): every combination of corner values (or, when there are too many, ``4 n``
    random combinations), then ``n`` draws mixing corner values and log-uniform magnitudes over 18 decades, then (a
    statement with a reparametrisation) ``2 n`` points where chosen hypotheses are tight (:func:`reparam_points`).

    The statement's falseness is judged on its whole domain (the hypotheses are the only restriction): a box is where
    a certificate is computed, not part of the claim (a box end that is a hypothesis of the claim must be written as
    a hypothesis)."""
    rng = np.random.default_rng(seed)
    syms = {s.name: s for s in lem.symbols}
    names = free_names(lem)
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
    doms = [axis(syms[nm], lem.box.get(nm)) for nm in names]
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
    yield from reparam_points(lem, names, n, seed)


def round_up(x, sym: sp.Symbol) -> float | None:
    """A float whose shortest decimal (what :func:`~dpverify.symbolic.mutation.evaluate.exact_value` confirms at) is >= the real number ``x`` and next to it
    (the smallest integer >= ``x`` on an integer axis), or None when ``x`` is not a finite real."""
    if not isinstance(x, mpmath.mpf) or not mpmath.isfinite(x):
        return None
    if sym.is_integer:
        return float(int(mpmath.ceil(x)))
    f = float(x)
    # the point is confirmed at the float's shortest decimal (``exact_value``), which may lie below the binary value
    while math.isfinite(f) and mpmath.mpf(repr(f)) < x:
        f = math.nextafter(f, math.inf)
    return f if math.isfinite(f) else None


def in_domain(v: float, sym: sp.Symbol) -> bool:
    """Does ``v`` lie in the symbol's assumption domain (sign, integrality)?"""
    if sym.is_integer and v != int(v):
        return False
    return not ((sym.is_positive and not v > 0) or (sym.is_nonnegative and not v >= 0)
                or (sym.is_negative and not v < 0) or (sym.is_nonpositive and not v <= 0))


class TightPoint(dict):
    """A point built through the statement's reparametrisation (:func:`reparam_points`)."""


def reparam_points(lem: Lemma, names, n: int, seed: int):
    """Points on and near the boundary of the hypothesis region, for a statement that carries a reparametrisation
    (``reparam``: each entry v = e(others, t) turns one hypothesis margin into a fresh slack t >= 0). The free symbols
    and the slacks are drawn (a slack is 0 -- the hypothesis tight -- in half of the points, and in every slack at
    once in a quarter of them), and each substituted symbol is computed in order at 50 digits and rounded *up* to a
    float: its hypothesis margin increases with it (what the REPARAM strategy, ``strategies.algebraic.reparam``, requires), so rounding cannot leave the
    hypothesis region. Sampling every symbol independently almost never lands where all hypotheses are tight at once
    (zhou-compression Theorem 4.6's assembly is false only at such a corner when a constant is mutated); these points
    do. They only add candidates: every failing point is confirmed by :func:`~dpverify.symbolic.mutation.evaluate.fails_at` with every hypothesis
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
    doms = {s: axis(s, lem.box.get(s.name)) for s in [*base, *fresh]}

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
                r = round_up(x, v)
                if r is None or not in_domain(r, v):
                    ok = False
                    break
                done[v] = mpmath.mpf(repr(r))  # the values the confirmation will see (``exact_value``)
                pt[v.name] = r
        if ok:
            yield TightPoint({nm: pt[nm] for nm in names if nm in pt})


