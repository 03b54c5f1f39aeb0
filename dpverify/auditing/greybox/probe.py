"""Probe replays (issue 31): run a mechanism on chosen noise, and the rigorous arithmetic of selection laws.

The models of report-noisy-max (:mod:`.noisymax`) and of the sparse vector technique (:mod:`.sparse`) read a
mechanism as a deterministic function of its *standardised* noise: every draw of a location-scale family (or an
exponential draw) is written ``x = loc + scale z`` (``x = scale z`` for ``exponential``), and a :class:`Prober`
runs ``sample(data, 1, rng)`` with a replaying :class:`~.recorder.Recorder` whose frozen draws are built from a
chosen ``z`` -- the recorded calls of the run on D with their outputs replaced. On D' the recorder keeps ``z`` and
takes D''s own loc and scale (for the location-scale families); an exponential draw is returned as built, so the
models require the draws' parameters to be the same on D and D' (no changed parameter at all).

A probe that leaves the recorded control flow (:class:`~.recorder.Diverged`), raises, or returns an output that is
not numbers of the recorded size is a :class:`ProbeFailed`: the caller reports the pair as not modelled.

The rigorous part: :func:`interval` arithmetic is mpmath's ``iv`` context at :data:`DPS` digits (outward rounding,
so every probability it returns encloses the exact one at the given parameters); :func:`judge_law` turns enclosed
probabilities of events on D and D' into a certified lower bound of the pair's eps and delta(eps).
"""
from __future__ import annotations

import dataclasses
import math
from contextlib import contextmanager
from typing import Any

import numpy as np

from .recorder import Diverged, Recorder

__all__ = ["standardise", "Prober", "ProbeFailed", "flip_point", "interval", "judge_law", "float_low", "float_high",
           "DPS", "MAX_PROBES", "FUZZ"]

#: Digits of the interval arithmetic.
DPS = 60
#: The most probe runs one dataset of one pair may spend (else not modelled).
MAX_PROBES = 20_000
#: Relative float fuzz allowed on every recovered parameter beyond its bisection bracket: the mechanism computes
#: ``q + s z`` in floats, so the point where its output flips is the real-number model's to a few units of round-off;
#: 1e-9 is far above them.
FUZZ = 1e-9
_TOL = 1e-9

_FAMILY = {"laplace": "laplace", "normal": "normal", "gumbel": "gumbel", "logistic": "logistic",
           "standard_normal": "normal", "exponential": "exponential", "standard_exponential": "exponential"}


class ProbeFailed(Exception):
    """A probe replay left the model (diverged, raised, or gave no numbers of the recorded size)."""


def _loc_scale(call) -> tuple:
    if call.method in ("standard_normal", "standard_exponential"):
        return 0.0, 1.0
    if call.method == "exponential":
        return 0.0, call.param("scale", 1.0)
    return call.loc_scale()


def standardise(calls) -> tuple | None:
    """(families per element, z, scale per element, call per element) of a run whose every draw is a location-scale
    or exponential draw, or None. Elements are the calls' outputs flattened, concatenated in call order."""
    fams, zs, scales, idx = [], [], [], []
    for c in calls:
        fam = _FAMILY.get(c.method)
        if fam is None:
            return None
        out = np.asarray(c.output, dtype=float)
        loc, scale = _loc_scale(c)
        try:
            loc = np.broadcast_to(np.asarray(loc, dtype=float), out.shape).ravel()
            scale = np.broadcast_to(np.asarray(scale, dtype=float), out.shape).ravel()
        except (TypeError, ValueError):
            return None
        if not np.all(scale > 0) or not np.all(np.isfinite(scale)):
            return None
        fams += [fam] * out.size
        zs.append((out.ravel() - loc) / scale)
        scales.append(scale)
        idx.append(np.full(out.size, c.index))
    if not fams:
        return None
    return tuple(fams), np.concatenate(zs), np.concatenate(scales), np.concatenate(idx)


def _numbers(out: Any) -> np.ndarray | None:
    try:
        return np.asarray(out, dtype=float).ravel()
    except (TypeError, ValueError):
        return None


class Prober:
    """``Prober(mechanism, calls, data)(z)``: the output (flat floats) of ``sample(data, 1, rng)`` when its draws are
    ``calls`` (the run on D) with standardised noise ``z`` (module docstring). Counts its runs (``count``)."""

    def __init__(self, mechanism: Any, calls: list, data: Any, size: int):
        self.mechanism, self.calls, self.data, self.size = mechanism, list(calls), data, size
        self.count = 0
        self._shapes = [np.shape(c.output) for c in self.calls]

    def __call__(self, z: np.ndarray) -> np.ndarray:
        self.count += 1
        if self.count > MAX_PROBES:
            raise ProbeFailed(f"more than {MAX_PROBES} probe runs")
        built, start = [], 0
        for c, shape in zip(self.calls, self._shapes):
            n = int(np.prod(shape)) if shape else 1
            part = np.asarray(z[start:start + n], dtype=float).reshape(shape)
            start += n
            loc, scale = _loc_scale(c)
            x = np.asarray(loc, dtype=float) + part * np.asarray(scale, dtype=float)
            built.append(dataclasses.replace(c, output=x if shape else x[()]))
        rec = Recorder(np.random.default_rng(0), replay=built)
        try:
            out = self.mechanism.sample(self.data, 1, rec)
        except Diverged as exc:
            raise ProbeFailed(f"a probe replay diverged: {exc}") from None
        except Exception as exc:  # noqa: BLE001 - any raise at a chosen noise leaves the model
            raise ProbeFailed(f"a probe replay raised {type(exc).__name__}") from None
        if len(rec.calls) != len(built):
            raise ProbeFailed("a probe replay made fewer draws than the recorded run")
        got = _numbers(out)
        if got is None or got.size != self.size:
            raise ProbeFailed("a probe replay gave an output that is not numbers of the recorded size")
        return got


def flip_point(pred, start: float = 0.0, limit: float = 1e12) -> tuple:
    """(lo, hi) with ``pred(lo) != pred(hi)``, adjacent floats (or as close as 200 halvings get), for a ``pred`` of one
    real number that changes value once: searched outward from ``start`` by doubling steps up to ``limit``. Raises
    :class:`ProbeFailed` when it does not change within ``limit``."""
    p0 = pred(start)
    step = 1.0
    for direction in (1.0, -1.0):
        step = 1.0
        while step <= limit:
            t = start + direction * step
            if pred(t) != p0:
                lo = start + direction * step / 2 if step > 1 else start  # pred(lo) == p0: checked last step
                return _bisect(pred, lo, t, p0)
            step *= 2
    raise ProbeFailed(f"the output does not change within {limit:g} noise scales of {start:g}")


def _bisect(pred, a: float, b: float, pa) -> tuple:
    for _ in range(200):
        mid = a + (b - a) / 2
        if mid == a or mid == b:
            break
        if pred(mid) == pa:
            a = mid
        else:
            b = mid
    return (a, b) if a < b else (b, a)


# -- rigorous arithmetic -----------------------------------------------------------------------------------------------


@contextmanager
def interval():
    """mpmath's ``iv`` context at :data:`DPS` digits (restored on exit)."""
    from mpmath import iv  # lazily: ``import dpverify`` loads no mpmath

    old = iv.prec
    iv.dps = DPS
    try:
        yield iv
    finally:
        iv.prec = old


def float_low(x) -> float:
    """A float at or below the interval (or mpf) ``x``: its lower end rounded to nearest, then one float down."""
    v = x.a if hasattr(x, "a") else x
    return 0.0 if v == 0 else float(np.nextafter(float(v), -math.inf))


def float_high(x) -> float:
    """A float at or above the interval (or mpf) ``x``."""
    v = x.b if hasattr(x, "b") else x
    return 0.0 if v == 0 else float(np.nextafter(float(v), math.inf))


def judge_law(events: list, claim, grid, *, disjoint: bool) -> tuple:
    """(eps_low, point, (e, delta_low, claim_delta) or None) from ``events``: a list of ``(name, (P_lo, P_hi),
    (Q_lo, Q_hi))`` -- float bounds of one event's probability on D and on D'.

    ``eps_low`` is a certified lower bound of the pair's eps (``log(P_lo / Q_hi)`` or ``log(Q_lo / P_hi)`` of the best
    event; ``inf`` when an event has a positive lower bound on one side and 0 on the other); ``point`` names it. The
    third item is the first (eps, lower bound of delta(eps), claim's delta) where that lower bound exceeds the claim's
    delta: with ``disjoint`` events (the outcomes of a discrete output) the positive parts ``P_lo - e^eps Q_hi`` add
    up (their union is one event), otherwise the best single event counts."""
    eps_low, point = 0.0, None
    for name, (p_lo, p_hi), (q_lo, q_hi) in events:
        for a_lo, b_hi, way in ((p_lo, q_hi, "D over D'"), (q_lo, p_hi, "D' over D")):
            if a_lo > 0:
                val = math.inf if b_hi <= 0 else math.log(a_lo) - math.log(b_hi)
                val = val - abs(val) * 1e-15 if math.isfinite(val) else val
                if val > eps_low:
                    eps_low, point = val, f"{name} ({way})"
    pure = claim.delta == 0 and not claim.is_curve
    if pure:
        return eps_low, point, None
    es = [float(e) for e in grid] if claim.is_curve else [claim.epsilon]
    for e in es:
        bound = claim.delta_at(e)
        if not bound < 1.0:
            continue
        ee = math.exp(e) * (1 + 1e-15)
        best = 0.0
        for first in (True, False):
            parts = [(p[0] - ee * q[1]) if first else (q[0] - ee * p[1]) for _, p, q in events]
            got = sum(x for x in parts if x > 0) if disjoint else max(parts + [0.0])
            best = max(best, got * (1 - 1e-12))
        if best > bound * (1 + _TOL) + 1e-15:
            return eps_low, point, (e, best, bound)
    return eps_low, point, None
