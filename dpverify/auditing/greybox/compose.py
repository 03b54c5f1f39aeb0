"""The grey-box model beyond one family and one scale (issue 31): several calls, several scales, mixed families,
and scales that depend on the data.

**Model.** Every draw is a Laplace or Gaussian draw (any call, any loc and scale), its elements concatenated in call
order are as many as the output's, and output element j is ``c_j + k_j n_j`` with ``n_j = draw_j - loc_j`` -- one
noise element per output element, in order. Three seeds identify it: ``k_j`` and ``c_j`` are fitted on the first two
(on D and on D' separately), and the third must satisfy the same affine relation (to ``REL_FIT`` of the element's
magnitude). So an element that mixes two noise draws (``[x, x + y]``), clips, or takes a maximum is refused, except
by coincidence on three seeds. Every ``loc`` and ``scale`` must be the same on the three seeds (a location or scale
drawn from the noise is not modelled). The *released* noise of element j is ``family(0, |k_j| b_j)`` on D and
``family(0, |k'_j| b'_j)`` on D', the elements independent.

**Exact privacy of the pair** (:func:`judge`). With equal released scales the pair is a product of shifts
``Delta_j = c_j(D') - c_j(D)``:

* Laplace only: pure ``eps = sum_j |Delta_j| / s_j`` (exact); against an (eps, delta) or curve claim, the 1-D closed
  form when one element moves, else a certified lower bound of delta(eps) from the PLD accountant's optimistic side
  (:meth:`~dpverify.accounting.pld.PLDComposition.bounds`, ``lower``);
* Gaussian only: ``mu = sqrt(sum_j (Delta_j / s_j)^2)``-GDP exactly;
* mixed: the accountant's certified lower bound of the composed curve (and no pure eps at all when a Gaussian
  element moves).

An element whose released scale differs between D and D' (by more than ``SCALE_CHANGED`` relative) has an unbounded
privacy loss: against a pure claim the pair's eps is infinite; otherwise its 1-D delta(eps) is bounded from below
(:func:`hockey_stick_lower`) and the pair's delta is at least the largest such bound over its parts (a part of the
output is a post-processing of the whole).

**Where the floats could lie, the numbers are lowered.** Each shift is lowered by ``REL_SHIFT`` of its element's
magnitude and each scale raised by ``REL_SCALE`` before any comparison (a smaller shift or a wider noise is less
privacy loss, so the lowered privacy is still a lower bound), and a finding needs the lower bound above the claim.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...claims import GDPCurve, PrivacyClaim

__all__ = ["Elements", "fit", "fit_error", "judge", "gdp_delta_lower", "hockey_stick_lower", "per_call", "REL_FIT",
           "REL_SHIFT", "REL_SCALE", "REL_K", "SCALE_SAME", "SCALE_CHANGED"]

#: The third seed's residual allowed in ``out_j = c_j + k_j n_j``, relative to the element's magnitude.
REL_FIT = 1e-9
#: The error allowed on each shift Delta_j, relative to its element's magnitude (ten times the fit).
REL_SHIFT = 1e-8
#: The relative error allowed on each released scale |k_j| b_j.
REL_SCALE = 1e-8
#: The largest relative float error of a fitted k the model accepts (else not modelled: output too large for its noise).
REL_K = 1e-9
_U = 2.0 ** -53
#: Released scales closer than this (relative) are one scale (today's tolerance on k); further than
#: ``SCALE_CHANGED`` they differ; in between the pair is not modelled.
SCALE_SAME, SCALE_CHANGED = 1e-7, 1e-6
_TOL = 1e-9
FAMILIES = ("laplace", "normal")
_NAME = {"laplace": "Laplace", "normal": "Gaussian"}


@dataclass(frozen=True)
class Elements:
    """The fitted model, one entry per output element (module docstring): its family, the call that drew it, the
    released scale on D and on D', the shift c(D') - c(D) and the error allowed on that shift."""

    family: tuple
    call: np.ndarray
    scale: np.ndarray
    scale_prime: np.ndarray
    shift: np.ndarray
    error: np.ndarray

    @property
    def changed(self) -> np.ndarray:
        """Elements whose released scale differs between D and D'."""
        return np.abs(self.scale - self.scale_prime) > SCALE_CHANGED * np.maximum(self.scale, self.scale_prime)

    def low_shift(self) -> np.ndarray:
        """|Delta_j| lowered by its error (never below 0)."""
        return np.maximum(np.abs(self.shift) - self.error, 0.0)

    def high_scale(self) -> np.ndarray:
        return self.scale * (1 + REL_SCALE)


def _draws(calls) -> tuple | None:
    """(family per element, call per element, noise, loc, scale) of a run whose every draw is Laplace or Gaussian."""
    fams, idx, noise, locs, scales = [], [], [], [], []
    for c in calls:
        if c.family not in FAMILIES:
            return None
        out = np.asarray(c.output, dtype=float)
        loc, scale = c.loc_scale()
        try:
            loc = np.broadcast_to(np.asarray(loc, dtype=float), out.shape).ravel()
            scale = np.broadcast_to(np.asarray(scale, dtype=float), out.shape).ravel()
        except (TypeError, ValueError):
            return None
        fams += [c.family] * out.size
        idx.append(np.full(out.size, c.index))
        noise.append(out.ravel() - loc)
        locs.append(loc)
        scales.append(scale)
    if not fams:
        return None
    cat = np.concatenate
    return tuple(fams), cat(idx), cat(noise), cat(locs), cat(scales)


def fit_error(o0, o1, n0, n1, loc, k) -> tuple:
    """(err_k, err_c): generous bounds (16 units of round-off per term) on the float error, element by element, of
    ``k = (o0 - o1) / (n0 - n1)`` and ``c = o0 - k n0``, where the noise ``n = x - loc`` is itself known to a few units
    of ``|n| + |loc|``. A large output against a small noise (f = 1e8, Laplace(1)) makes k and c uncertain to about
    1e-7: without these bounds a correct mechanism's eps = 1 read as 1.000000003 (a false alarm)."""
    gap = np.abs(n0 - n1)
    ak = np.abs(k)
    err_k = 16 * _U * (np.abs(o0) + np.abs(o1) + ak * (np.abs(n0) + np.abs(n1) + 2 * np.abs(loc))) / gap
    err_c = 16 * _U * (np.abs(o0) + ak * (np.abs(n0) + np.abs(loc))) + np.abs(n0) * err_k
    return err_k, err_c


def _fit_one(draws: list, outs: list) -> tuple:
    """(c, k, magnitude, why) of ``out = c + k noise`` elementwise for one dataset on three seeds."""
    (_, _, n0, loc, _), (_, _, n1, _, _), (_, _, n2, _, _) = draws
    o0, o1, o2 = outs
    gap = n0 - n1
    if np.any(gap == 0):
        return None, None, None, "a noise element drawn equal on two seeds"
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        k = (o0 - o1) / gap
        c = o0 - k * n0
        mag = np.max(np.abs(np.stack([o0, o1, o2, k * n0, k * n1, k * n2])), axis=0)
        resid = np.abs(o2 - (c + k * n2))
    if not (np.all(np.isfinite(k)) and np.all(np.isfinite(c)) and np.all(np.isfinite(mag))) or np.any(k == 0):
        return None, None, None, "the output is not a fixed part plus a multiple of the drawn noise"
    err_k, _ = fit_error(o0, o1, n0, n1, loc, k)
    if np.any(err_k > REL_K * np.abs(k)):
        return None, None, None, "an output too large against its noise to fit k to 1e-9"
    if np.any(resid > REL_FIT * mag + 1e-300):
        return None, None, None, ("the output is not a fixed part plus a multiple of the drawn noise element by "
                                  "element (checked on a third seed)")
    return c, k, mag, None


def fit(runs: list) -> tuple:
    """(Elements, None) or (None, why) from three runs ``(rec, rep, out, out_p, diverged)`` (module docstring)."""
    if len(runs) < 3:
        return None, "fewer than three seeds"
    fitted = []
    for side, o in ((0, 2), (1, 3)):
        draws = [_draws(r[side].calls) for r in runs[:3]]
        if any(d is None for d in draws):
            return None, "draws other than Laplace or Gaussian families"
        outs = [r[o] for r in runs[:3]]
        first = draws[0]
        for d, out in zip(draws, outs):
            if d[0] != first[0] or not np.array_equal(d[1], first[1]):
                return None, "the draws differ between seeds"
            if not (np.array_equal(d[3], first[3]) and np.array_equal(d[4], first[4])):
                return None, "a loc or scale that changes between seeds (drawn from the noise)"
            if d[2].size != out.size:
                return None, f"{d[2].size} noise elements for {out.size} output elements"
        c, k, mag, why = _fit_one(draws, outs)
        if why:
            return None, why
        fitted.append((first, c, k, mag))
    (d0, c0, k0, m0), (d1, c1, k1, m1) = fitted
    if d0[0] != d1[0]:
        return None, "the draws differ between D and D'"
    s0, s1 = np.abs(k0) * d0[4], np.abs(k1) * d1[4]
    if not (np.all(s0 > 0) and np.all(s1 > 0) and np.all(np.isfinite(s0)) and np.all(np.isfinite(s1))):
        return None, "a released noise scale that is zero or not finite"
    gap = np.abs(s0 - s1) / np.maximum(s0, s1)
    if np.any((gap > SCALE_SAME) & (gap <= SCALE_CHANGED)):
        return None, "released scales on D and D' that differ by a rounding-sized amount"
    return Elements(d0[0], d0[1], s0, np.where(gap <= SCALE_SAME, s0, s1), c1 - c0,
                    REL_SHIFT * np.maximum(m0, m1)), None


# -- exact privacy ---------------------------------------------------------------------------------------------------


def per_call(el: Elements) -> tuple:
    """Per call: {call, family, scale (on D; scale_prime when it differs), shift_norm (L1 for Laplace, L2 for
    Gaussian), eps or mu}."""
    out = []
    for i in dict.fromkeys(el.call.tolist()):
        m = el.call == i
        fam = el.family[int(np.flatnonzero(m)[0])]
        s, sp, d = el.scale[m], el.scale_prime[m], el.shift[m]
        row = {"call": int(i), "family": fam, "scale": _one(s)}
        if np.any(el.changed[m]):
            row["scale_prime"] = _one(sp)
        if fam == "laplace":
            row["shift_norm"] = float(np.sum(np.abs(d)))
            row["eps"] = math.inf if np.any(el.changed[m]) else float(np.sum(np.abs(d) / s))
        else:
            row["shift_norm"] = float(np.linalg.norm(d))
            row["mu"] = math.inf if np.any(el.changed[m]) else float(np.linalg.norm(d / s))
        out.append(row)
    return tuple(out)


def _one(values: np.ndarray):
    u = np.unique(values)
    return float(u[0]) if u.size == 1 else [float(x) for x in values]


def _points(claim: PrivacyClaim, grid) -> list:
    """(eps, claim's delta) where a delta lower bound is compared: the claim's eps (plain claims) or the grid
    (curves), each where the claim's delta is below 1."""
    es = [float(e) for e in grid] if claim.is_curve else [claim.epsilon]
    return [(e, claim.delta_at(e)) for e in es if claim.delta_at(e) < 1.0]


def _above(got: float, bound: float) -> bool:
    return got > bound * (1 + _TOL) + 1e-15


def judge(el: Elements, claim: PrivacyClaim, grid) -> tuple:
    """(implied text, eps or None, finding or None) for the fitted elements against ``claim`` (module docstring)."""
    lap = np.array([f == "laplace" for f in el.family])
    changed = el.changed
    moved = (el.shift != 0) | changed
    eps_nom = float(np.sum(np.abs(el.shift[lap & ~changed]) / el.scale[lap & ~changed]))
    mu_nom = float(np.linalg.norm(el.shift[~lap & ~changed] / el.scale[~lap & ~changed]))
    text = _describe(el, lap, changed, eps_nom, mu_nom)
    pure = claim.delta == 0 and not claim.is_curve
    low = el.low_shift() / el.high_scale()
    eps_low = float(np.sum(low[lap & ~changed]))
    mu_low = float(np.linalg.norm(low[~lap & ~changed]))
    if np.any(changed):
        j = int(np.flatnonzero(changed)[0])
        if pure:
            return text, math.inf, (f"{_scale_change(el, j)}: two {_NAME[el.family[j]]} laws of different scales "
                                    "have an unbounded privacy loss (the log density ratio grows without bound in the "
                                    f"tails), so no finite eps holds on this pair, above the claim {claim!r}")
    if not np.any(moved):
        return text, 0.0 if not np.any(~lap) else None, None
    if pure and mu_low > 0:
        return text, math.inf, (f"the drawn Gaussian noise moves by mu = {mu_nom:.6g} on this pair: a Gaussian shift "
                                f"has delta(eps) > 0 at every eps, so no pure eps holds, above the claim {claim!r}")
    if pure:  # Laplace only, equal scales: the exact pure eps
        if eps_low > claim.epsilon * (1 + _TOL) + 1e-12:
            return text, eps_nom, (f"the drawn Laplace noise gives eps = {eps_nom:.6g} on this pair, above the claim "
                                   f"{claim!r}")
        return text, eps_nom, None
    eps_out = eps_nom if not np.any(~lap & moved) and not np.any(changed) else None
    if not np.any(lap & moved) and not np.any(changed):  # Gaussian only: exact GDP
        for e in grid:
            bound, got = claim.delta_at(float(e)), gdp_delta_lower(mu_low, float(e))
            if bound < 1.0 and got > bound * (1 + _TOL):
                return text, None, (f"the drawn Gaussian noise gives mu = {mu_nom:.6g}-GDP on this pair: delta({e:g}) "
                                    f">= {got:.4g} > the claim's {bound:.4g}")
        return text, None, None
    points = _points(claim, grid)
    shifts = ~changed & (low > 0)
    if np.any(shifts):
        lap_parts = [(float(el.low_shift()[j]), float(el.high_scale()[j])) for j in np.flatnonzero(shifts & lap)]
        if len(lap_parts) == 1 and mu_low == 0:  # one Laplace element: the 1-D closed form
            from ...accounting.profiles import laplace_delta  # deferred: scipy (import dpverify loads the grey-box)

            ratio = lap_parts[0][0] / lap_parts[0][1]
            for e, bound in points:
                got = laplace_delta(ratio, e)
                if _above(got, bound):
                    return text, eps_out, (f"the drawn Laplace noise gives delta({e:g}) = {got:.4g} on this pair "
                                           f"(eps = {eps_nom:.6g}), above the claim's {bound:.4g}")
        else:
            hit = _accountant_hit(lap_parts, mu_low, points)
            if hit is not None:
                (e, bound), eps_lower = hit
                return text, eps_out, (f"the drawn noise gives delta({e:g}) > the claim's {bound:.4g} on this pair: "
                                       f"the PLD accountant's certified lower bound of its eps(delta = {bound:.4g}) "
                                       f"is {eps_lower:.6g} > {e:g}")
    for j in np.flatnonzero(changed):
        for e, bound in points:
            got = hockey_stick_lower(el.family[j], 0.0, float(el.scale[j]), float(el.shift[j]),
                                     float(el.scale_prime[j]), e, float(el.error[j]))
            if _above(got, bound):
                return text, eps_out, (f"{_scale_change(el, j)}: that element alone gives delta({e:g}) >= {got:.4g} "
                                       f"on this pair (a certified lower bound), above the claim's {bound:.4g}")
    return text, eps_out, None


def _scale_change(el: Elements, j: int) -> str:
    return (f"call {int(el.call[j])} draws {_NAME[el.family[j]]} noise of scale {el.scale[j]:.6g} on D and "
            f"{el.scale_prime[j]:.6g} on D'")


def _describe(el: Elements, lap, changed, eps: float, mu: float) -> str:
    calls = len(set(el.call.tolist()))
    parts = [f"{calls} noise call(s), {len(el.family)} element(s), each output element c + k x its noise"]
    if np.any(lap & ~changed):
        parts.append(f"Laplace shifts: eps = sum |Delta_j| / s_j = {eps:.6g}")
    if np.any(~lap & ~changed):
        parts.append(f"Gaussian shifts: mu = {mu:.6g} (GDP)")
    for j in np.flatnonzero(changed):
        parts.append(f"call {int(el.call[j])}: {_NAME[el.family[j]]} scale {el.scale[j]:.6g} on D, "
                     f"{el.scale_prime[j]:.6g} on D'")
    return "; ".join(parts)


def _accountant_hit(laplace: list, mu: float, points: list):
    """((eps, claim's delta), eps_lower) of the first point where the PLD accountant's certified lower bound of the
    composed eps(delta) at the claim's delta d exceeds eps -- then delta(eps) > d, delta being non-increasing -- or
    None. Claims' deltas below 1e-12 are not compared (fewer comparisons: never a wrong finding)."""
    from ...accounting.events import Gaussian, Laplace  # deferred: scipy and mpmath (import dpverify loads the grey-box)

    ratios = _merged_ratios([d / b for d, b in laplace])
    return first_lower_hit([Laplace(1.0, r) for r in ratios] + ([Gaussian(1.0, mu)] if mu > 0 else []), points)


def first_lower_hit(events: list, points: list):
    """((eps, delta), eps_lower) of the first (eps, delta) of ``points`` at which the PLD accountant's certified lower
    bound of the composition of ``events``' eps(delta) exceeds eps, or None (also with no events; points whose delta
    is below 1e-12 or 1 and above are skipped). Shared by the discrete model (:mod:`.discrete`)."""
    from ...accounting.events import Composed  # deferred: scipy and mpmath (import dpverify loads the grey-box)
    from ...accounting.pld import PLDComposition  # deferred: as above

    if not events:
        return None
    event = events[0] if len(events) == 1 else Composed(tuple(events))
    usable = [p for p in points if 1e-12 <= p[1] < 1.0]
    if not usable:
        return None
    lower = PLDComposition().bounds(event, np.array([d for _, d in usable])).lower
    for (e, d), eps_lower in zip(usable, lower):
        if eps_lower > e * (1 + _TOL) + 1e-12:
            return (e, d), float(eps_lower)
    return None


def _merged_ratios(ratios: list) -> list:
    """The Laplace shifts |Delta_j| / s_j the accountant composes, each only ever *lowered* (less privacy loss, so
    the composed lower bound stays one): shifts below 1e-9 of the largest are dropped, and beyond 64 distinct values
    each is rounded down to a power of 1.01 (equal leaves then compose as one, by FFT powers)."""
    if not ratios:
        return []
    top = max(ratios)
    kept = [r for r in ratios if r > 1e-9 * top]
    if len(set(kept)) > 64:
        kept = [1.01 ** math.floor(math.log(r) / math.log(1.01)) for r in kept]
        kept = [r * (1 - 1e-12) for r in kept]  # the float power may round up
    return kept


def gdp_delta_lower(mu: float, eps: float) -> float:
    """A lower bound of the mu-GDP delta(eps): :class:`~dpverify.claims.GDPCurve` (an upper bound: it adds 1e-12 of
    its first term Phi(-eps/mu + mu/2)) lowered by 1e-6 relative and by 3e-12 of that term (its slack and the float
    error of the difference), so a delta far below its first term (tiny mu) is not over-read."""
    if not mu > 0:
        return 0.0
    first = 0.5 * math.erfc((eps / mu - mu / 2) / math.sqrt(2.0))
    return max(0.0, GDPCurve(mu).delta_at(eps) * (1 - 1e-6) - 3e-12 * first)


def hockey_stick_lower(family: str, loc: float, scale: float, loc_prime: float, scale_prime: float, eps: float,
                       shift_error: float = 0.0) -> float:
    """A lower bound of delta(eps) for the 1-D pair family(loc, scale) vs family(loc_prime, scale_prime), both
    directions (the larger).

    Any set S gives ``P(S) - e^eps Q(S) <= delta(eps)``: S is the set where the log-density ratio exceeds eps (found
    in floats; a rounded S is still a set), and ``P(S) - e^eps Q(S)`` is evaluated with mpmath at 60 digits, lowered
    by ``1e-40 + 1e-30 (P(S) + e^eps Q(S))`` (mpmath's exp and erfc are good to a few units in the 60th digit), and by
    ``(1 + e^eps) (shift_error / (2 min scale) + REL_SCALE)``: how far a shift wrong by ``shift_error`` or a scale
    wrong by ``REL_SCALE`` could move the two laws in total variation."""
    import mpmath  # lazily: ``import dpverify`` loads no mpmath

    best = 0.0
    with mpmath.mp.workdps(60):
        for a, s, b, t in ((loc, scale, loc_prime, scale_prime), (loc_prime, scale_prime, loc, scale)):
            sets = _laplace_set(a, s, b, t, eps) if family == "laplace" else _normal_set(a, s, b, t, eps)
            p = mpmath.fsum(_mass(family, a, s, u, v) for u, v in sets)
            q = mpmath.fsum(_mass(family, b, t, u, v) for u, v in sets)
            eq = mpmath.exp(mpmath.mpf(eps)) * q
            val = p - eq - mpmath.mpf(10) ** -40 - mpmath.mpf(10) ** -30 * (p + eq)
            best = max(best, float(val) * (1 - 1e-15))  # float() may round up by half a unit
    margin = (1 + math.exp(eps)) * (shift_error / (2 * min(scale, scale_prime)) + REL_SCALE)
    return max(0.0, best - margin)


def _laplace_set(a, s, b, t, eps) -> list:
    """Intervals where log Lap(a, s) - log Lap(b, t) > eps (piecewise linear, breakpoints a and b)."""
    lo_b, hi_b = min(a, b), max(a, b)
    pieces = [(-math.inf, lo_b), (lo_b, hi_b), (hi_b, math.inf)]
    out = []
    for lo, hi in pieces:
        if not lo < hi:
            continue
        if math.isfinite(lo) and math.isfinite(hi):
            x = 0.5 * (lo + hi)
        else:
            x = hi - 1.0 if math.isfinite(hi) else lo + 1.0
        slope = -np.sign(x - a) / s + np.sign(x - b) / t
        level = math.log(t / s) - abs(x - a) / s + abs(x - b) / t  # L(x) at x; L(y) = level + slope (y - x)
        if slope == 0:
            if level > eps:
                out.append((lo, hi))
            continue
        root = x + (eps - level) / slope
        u, v = (max(lo, root), hi) if slope > 0 else (lo, min(hi, root))
        if u < v:
            out.append((u, v))
    return out


def _normal_set(a, s, b, t, eps) -> list:
    """Intervals where log N(a, s^2) - log N(b, t^2) > eps (a quadratic in x)."""
    A = 1 / (2 * t * t) - 1 / (2 * s * s)
    B = a / (s * s) - b / (t * t)
    C = math.log(t / s) - a * a / (2 * s * s) + b * b / (2 * t * t) - eps
    if A == 0:
        if B == 0:
            return [(-math.inf, math.inf)] if C > 0 else []
        r = -C / B
        return [(r, math.inf)] if B > 0 else [(-math.inf, r)]
    disc = B * B - 4 * A * C
    if disc <= 0:
        return [(-math.inf, math.inf)] if A > 0 else []
    r1, r2 = sorted(((-B - math.sqrt(disc)) / (2 * A), (-B + math.sqrt(disc)) / (2 * A)))
    return [(-math.inf, r1), (r2, math.inf)] if A > 0 else [(r1, r2)]


def _cdf(family: str, m: float, s: float, x: float):
    import mpmath

    if x == -math.inf:
        return mpmath.mpf(0)
    if x == math.inf:
        return mpmath.mpf(1)
    z = (mpmath.mpf(x) - mpmath.mpf(m)) / mpmath.mpf(s)
    if family == "laplace":
        return mpmath.exp(z) / 2 if z < 0 else 1 - mpmath.exp(-z) / 2
    return mpmath.erfc(-z / mpmath.sqrt(2)) / 2


def _mass(family: str, m: float, s: float, u: float, v: float):
    """P([u, v]) under family(m, s), written as a difference of lower or of upper tails (no cancellation)."""
    if u >= m and family in FAMILIES:  # both in the upper half: 1 - F(u) - (1 - F(v)), upper tails
        return _upper(family, m, s, u) - _upper(family, m, s, v)
    return _cdf(family, m, s, v) - _cdf(family, m, s, u)


def _upper(family: str, m: float, s: float, x: float):
    import mpmath

    if x == math.inf:
        return mpmath.mpf(0)
    z = (mpmath.mpf(x) - mpmath.mpf(m)) / mpmath.mpf(s)
    if family == "laplace":
        return mpmath.exp(-z) / 2
    return mpmath.erfc(z / mpmath.sqrt(2)) / 2
