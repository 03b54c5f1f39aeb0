"""Report-noisy-max in a grey-box replay (issue 31): the argmax, or the max, of noisy scores.

**Shape.** Every draw is of one family -- Laplace, exponential (``exponential``/``standard_exponential``) or Gumbel
(argmax only) -- with one scale for every element, m >= 2 elements in all, and the output is one number. Write the
draws in standardised form ``z`` (:mod:`.probe`). Two hypotheses are tried, on D and on D' separately:

* **argmax**: the output is ``argmax_j (a_j + z_j)`` (an index 0..m-1, elements in call order) for some centres a
  (in units of the noise scale; only their differences matter). Probe replays recover them: at ``z = 0`` the
  output is the top index t; for every other i, ``z = s e_i`` flips the output from t to i exactly when
  ``s > a_t - a_i``, and bisection on s brackets ``a_t - a_i`` between adjacent floats.
* **max** (value): the output is ``max_j (c_j + s_j z_j)``; for each j the probes ``z = T e_j`` with T large give
  ``c_j + s_j T`` (two slopes that agree to 1e-9 fix ``s_j`` and ``c_j``).

**Verified, never guessed.** A hypothesis stands only if it predicts the output of the recorded draws on three
seeds and of :data:`PROBES` further probe replays (half of them with the centres levelled, so that every index
wins some), exactly for an argmax (points whose top two are closer than the parameters' error are skipped), to
``REL_FIT`` for a max. Anything else -- an index outside 0..m-1, a flip that is not to i, a probe that diverges or
raises -- is not modelled, and the statistical audit decides.

**Exact privacy of the pair** (the output law at the recovered parameters, in mpmath interval arithmetic):

* argmax, Laplace: ``P(j) = int f(x - a_j) prod_{i != j} F(x - a_i) dx`` in closed form (between consecutive
  centres each factor is ``e^{+-x}`` times a constant or ``1 - w e^{-x}``: a sum of exponentials);
  exponential: ``P(j) = e^{a_j - M} sum_k (-1)^k e_k(w) / (1 + k)`` (``M = max a``, ``w_i = e^{a_i - M}``, ``e_k``
  the elementary symmetric polynomials); Gumbel: the softmax ``e^{a_j} / sum_i e^{a_i}``. The pair's eps is
  ``max_j |log P(j) / P'(j)|`` and delta(eps) the sum of the positive parts; each P(j) is widened by
  ``sup f x sum_i err_i`` (a centre wrong by err moves the law by at most that in total variation).
* max, Laplace or exponential: the events ``{max <= t}`` and ``{max > t}`` on a grid of t (the lower tail below
  every centre gives the Laplace limit ``sum_j (c'_j - c_j) / s_j`` exactly), the centres and scales as intervals
  of their error; with exponential noise, centres whose largest differs put the two laws on different supports
  (eps infinite). This is a lower bound; the post-processing bound ``sum_j |Delta_j| / s_j`` (Laplace) is
  reported beside it as the upper one.

**What the trace implies for the mechanism** (an upper bound from the theorems, reported, never a finding):
argmax with Laplace, exponential or Gumbel noise is ``2 Delta_inf / b``-DP (Dwork & Roth, Claim 3.9; McKenna &
Sheldon 2020; the exponential mechanism): the smallest ``Delta_inf / b`` consistent with the recovered
differences is half their range, so the bound read from the pair is ``range(a' - a)``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .probe import FUZZ, ProbeFailed, flip_point, float_high, float_low, interval, judge_law

__all__ = ["ArgmaxModel", "ValueModel", "fit", "judge", "argmax_probabilities", "PROBES", "REL_FIT"]

ARGMAX_FAMILIES = ("laplace", "exponential", "gumbel")
VALUE_FAMILIES = ("laplace", "exponential")
#: Probe replays that check a fitted hypothesis, per dataset.
PROBES = 24
#: A max's residual allowed on a check, relative to the magnitudes involved.
REL_FIT = 1e-9
#: Relative error allowed on a max's fitted centre (of its magnitude) and scale.
REL_PARAM = 1e-8
_SUP_DENSITY = {"laplace": 0.5, "exponential": 1.0, "gumbel": 1.0 / math.e}
_TOL = 1e-9


@dataclass(frozen=True)
class ArgmaxModel:
    """argmax_j (a_j + z_j) on D (``a``) and D' (``a_prime``), each relative to its top index; ``err`` bounds each."""

    family: str
    a: np.ndarray
    a_prime: np.ndarray
    err: np.ndarray
    err_prime: np.ndarray


@dataclass(frozen=True)
class ValueModel:
    """max_j (c_j + s_j z_j) on D and D' (released centres and scales) with their errors."""

    family: str
    c: np.ndarray
    s: np.ndarray
    c_prime: np.ndarray
    s_prime: np.ndarray
    err: np.ndarray
    err_prime: np.ndarray


def _index(out: np.ndarray, m: int) -> int:
    v = float(out[0])
    if not (v == round(v) and 0 <= v < m):
        raise ProbeFailed(f"an output {v!r} that is not an index of the {m} noise elements")
    return int(v)


def _draw(rng, family: str, m: int) -> np.ndarray:
    if family == "laplace":
        return rng.laplace(0.0, 1.0, m)
    if family == "exponential":
        return rng.exponential(1.0, m)
    return rng.gumbel(0.0, 1.0, m)


def _fit_argmax(prober, family: str, m: int) -> tuple:
    z0 = np.zeros(m)
    top = _index(prober(z0), m)
    a, err = np.zeros(m), np.zeros(m)
    for i in range(m):
        if i == top:
            continue

        def pred(s, i=i):
            z = z0.copy()
            z[i] = s
            j = _index(prober(z), m)
            if j not in (i, top):
                raise ProbeFailed(f"raising noise element {i} made the output {j}, neither {i} nor {top}")
            return j == i

        lo, hi = flip_point(pred, 0.0)
        if lo < 0 or pred(lo) or not pred(hi):
            raise ProbeFailed(f"the output does not flip to {i} as noise element {i} rises")
        theta = lo + (hi - lo) / 2
        a[i], err[i] = -theta, (hi - lo) / 2 + FUZZ * (1 + abs(theta))
    return a, err


def _check_argmax(prober, family: str, m: int, a, err, recorded) -> str | None:
    rng = np.random.default_rng(314159)
    points = list(recorded) + [(_draw(rng, family, m) + ((a.max() - a) if p % 2 == 0 else 0.0), None)
                               for p in range(PROBES)]
    skipped = 0
    for z, out in points:
        v = a + z
        order = np.argsort(-v, kind="stable")
        if v[order[0]] - v[order[1]] <= 2 * err.sum() + FUZZ * (1 + np.max(np.abs(v))):
            skipped += 1
            continue
        got = _index(out if out is not None else prober(z), m)
        if got != int(order[0]):
            return (f"the output is not argmax_j (a_j + z_j) of the recovered centres (a {'recorded' if out is not None else 'probe'} "
                    f"draw gave index {got}, the model {int(order[0])})")
    if skipped > len(points) // 2:
        return "too many checks fell on near-ties"
    return None


def _fit_value(prober, m: int) -> tuple:
    c, s, mag = np.zeros(m), np.zeros(m), np.zeros(m)
    for j in range(m):
        t = 1.0
        while True:
            if t > 1e12:
                raise ProbeFailed(f"raising noise element {j} never makes the output affine in it")
            o = []
            for f in (1.0, 2.0, 4.0):
                z = np.zeros(m)
                z[j] = f * t
                o.append(float(prober(z)[0]))
            s1, s2 = (o[1] - o[0]) / t, (o[2] - o[1]) / (2 * t)
            if s1 > 0 and abs(s1 - s2) <= REL_FIT * s1:
                s[j], c[j] = s2, o[2] - s2 * 4 * t
                mag[j] = max(abs(o[2]), abs(s2 * 4 * t))
                break
            t *= 4
    return c, s, REL_PARAM * mag


def _check_value(prober, family: str, m: int, c, s, err, recorded) -> str | None:
    rng = np.random.default_rng(271828)
    level = (c.max() - c) / s
    points = list(recorded) + [(_draw(rng, family, m) + (level if p % 2 == 0 else 0.0), None) for p in range(PROBES)]
    for z, out in points:
        pred = float(np.max(c + s * z))
        got = float((out if out is not None else prober(z))[0])
        mag = max(abs(got), float(np.max(np.abs(s * z))), float(np.max(np.abs(c))))
        if not abs(got - pred) <= REL_FIT * mag + float(np.max(err + REL_PARAM * np.abs(s * z))):
            return ("the output is not max_j (c_j + s_j z_j) of the recovered centres and scales (a "
                    f"{'recorded' if out is not None else 'probe'} draw gave {got!r}, the model {pred!r})")
    return None


def fit(make_prober, std_runs: list) -> tuple:
    """(model, None) or (None, why). ``make_prober(side)`` gives the :class:`~.probe.Prober` of D (side 0) or D'
    (side 1); ``std_runs`` is, per seed, ``((fams, z, scales, call), out)`` for D and for D' (three seeds)."""
    fams0 = std_runs[0][0][0][0]
    family = fams0[0]
    m = len(fams0)
    if any(f != family for f in fams0) or m < 2:
        return None, "not one family of at least two noise elements"
    scales = np.concatenate([r[side][0][2] for r in std_runs for side in (0, 1)])
    if not np.all(scales == scales[0]):
        return None, "noise elements of different scales"
    outs = [float(r[side][1][0]) for r in std_runs for side in (0, 1)]
    argmax = all(o == round(o) and 0 <= o < m for o in outs)
    if argmax and family not in ARGMAX_FAMILIES:
        return None, f"an argmax of {family} noise (only Laplace, exponential and Gumbel are modelled)"
    if not argmax and family not in VALUE_FAMILIES:
        return None, f"a max of {family} noise (only Laplace and exponential are modelled)"
    fitted = []
    for side in (0, 1):
        prober = make_prober(side)
        recorded = [(r[side][0][1], r[side][1]) for r in std_runs]
        try:
            if argmax:
                a, err = _fit_argmax(prober, family, m)
                why = _check_argmax(prober, family, m, a, err, recorded)
                fitted.append((a, err))
            else:
                c, s, err = _fit_value(prober, m)
                scale = std_runs[0][side][0][2][0]
                why = _check_value(prober, family, m, c, s, err, recorded)
                fitted.append((c, s * scale, err, s))
        except ProbeFailed as exc:
            return None, f"{'argmax' if argmax else 'max'} of noisy scores not recognised: {exc}"
        if why:
            return None, why
    if argmax:
        (a, e), (ap, ep) = fitted
        return ArgmaxModel(family, a, ap, e, ep), None
    (c, _, e, s), (cp, _, ep, sp) = fitted
    return ValueModel(family, c, s, cp, sp, e, ep), None


# -- the exact law -----------------------------------------------------------------------------------------------------


def _elementary(iv, ws: list) -> list:
    """Coefficients of prod_i (1 - w_i y) in powers of y."""
    poly = [iv.mpf(1)]
    for w in ws:
        nxt = poly + [iv.mpf(0)]
        for k in range(len(poly)):
            nxt[k + 1] = nxt[k + 1] - w * poly[k]
        poly = nxt
    return poly


def _int_exp(iv, lam: int, lo: float, hi: float):
    """int_lo^hi e^{lam x} dx (lo may be -inf when lam > 0, hi inf when lam < 0)."""
    if lam == 0:
        return iv.mpf(hi) - iv.mpf(lo)
    top = iv.mpf(0) if hi == math.inf else iv.exp(lam * iv.mpf(hi))
    bottom = iv.mpf(0) if lo == -math.inf else iv.exp(lam * iv.mpf(lo))
    return (top - bottom) / lam


def _laplace_argmax(iv, a: np.ndarray) -> list:
    m = len(a)
    A = [iv.mpf(float(x)) for x in a]
    pts = sorted(set(float(x) for x in a))
    edges = [-math.inf] + pts + [math.inf]
    probs = [iv.mpf(0) for _ in range(m)]
    half = iv.mpf(1) / 2
    for lo, hi in zip(edges, edges[1:]):
        if not lo < hi:
            continue
        below = {i for i in range(m) if a[i] <= lo}  # x > a_i on (lo, hi)
        for j in range(m):
            above = [i for i in range(m) if i not in below and i != j]
            d = -1 if j in below else 1
            k_const = half * (iv.exp(A[j]) if j in below else iv.exp(-A[j]))
            for i in above:
                k_const = k_const * half * iv.exp(-A[i])
            poly = _elementary(iv, [half * iv.exp(A[i]) for i in below if i != j])
            total = iv.mpf(0)
            for k, coef in enumerate(poly):
                total = total + coef * _int_exp(iv, len(above) + d - k, lo, hi)
            probs[j] = probs[j] + k_const * total
    return probs


def _exponential_argmax(iv, a: np.ndarray) -> list:
    top = float(np.max(a))
    M = iv.mpf(top)
    out = []
    for j in range(len(a)):
        ws = [iv.exp(iv.mpf(float(a[i])) - M) for i in range(len(a)) if i != j]
        poly = _elementary(iv, ws)
        total = iv.mpf(0)
        for k, coef in enumerate(poly):
            total = total + coef / (1 + k)
        out.append(iv.exp(iv.mpf(float(a[j])) - M) * total)
    return out


def argmax_probabilities(family: str, a: np.ndarray) -> list:
    """P(argmax_j (a_j + z_j) = j) for standard ``family`` noise z: mpmath intervals enclosing the exact values at
    ``a`` (module docstring)."""
    with interval() as iv:
        if family == "laplace":
            probs = _laplace_argmax(iv, a)
        elif family == "exponential":
            probs = _exponential_argmax(iv, a)
        else:
            top = float(np.max(a))
            ex = [iv.exp(iv.mpf(float(x)) - top) for x in a]
            tot = iv.mpf(0)
            for e in ex:
                tot = tot + e
            probs = [e / tot for e in ex]
        # an enclosure: [0, 1] always holds
        return [(max(0.0, float_low(p)), min(1.0, float_high(p))) for p in probs]


def _theorem_argmax(model: ArgmaxModel) -> float:
    shift = model.a_prime - model.a
    return float(shift.max() - shift.min())


def _judge_argmax(model: ArgmaxModel, claim, grid) -> tuple:
    p = argmax_probabilities(model.family, model.a)
    q = argmax_probabilities(model.family, model.a_prime)
    sup = _SUP_DENSITY[model.family]
    w, wp = sup * float(np.sum(model.err)), sup * float(np.sum(model.err_prime))
    events = [(f"argmax = {j}", (max(0.0, pl - w), min(1.0, ph + w)), (max(0.0, ql - wp), min(1.0, qh + wp)))
              for j, ((pl, ph), (ql, qh)) in enumerate(zip(p, q))]
    eps_low, point, hit = judge_law(events, claim, grid, disjoint=True)
    mids = [(0.5 * (pl + ph), 0.5 * (ql + qh)) for (pl, ph), (ql, qh) in zip(p, q)]
    nominal = max((abs(math.log(x / y)) if x > 0 and y > 0 else (0.0 if x == y else math.inf)) for x, y in mids)
    bound = _theorem_argmax(model)
    name = {"laplace": "Laplace", "exponential": "exponential", "gumbel": "Gumbel"}[model.family]
    text = (f"report-noisy-max (argmax of {len(model.a)} scores + {name} noise): the exact law of the argmax on D and "
            f"D' gives eps = {nominal:.6g} on this pair (certified lower bound {eps_low:.6g}, at {point}); the "
            f"theorem bound the trace implies (2 Delta_inf / b, an upper bound) is {bound:.6g}")
    finding = _finding(eps_low, point, hit, claim, "argmax")
    return text, eps_low, finding, {"model": "report-noisy-max/argmax", "family": model.family,
                                    "exact_eps": nominal, "eps_lower": eps_low, "theorem_eps": bound,
                                    "probabilities": [list(x) for x in mids]}


def _finding(eps_low, point, hit, claim, what) -> str | None:
    if claim.delta == 0 and not claim.is_curve:
        if eps_low > claim.epsilon * (1 + _TOL) + 1e-12:
            return (f"the exact law of the {what} at the recovered centres gives eps >= {eps_low:.6g} on this pair "
                    f"(certified lower bound, at {point}), above the claim {claim!r}")
        return None
    if hit is not None:
        e, got, bound = hit
        return (f"the exact law of the {what} at the recovered centres gives delta({e:g}) >= {got:.4g} on this pair "
                f"(certified lower bound), above the claim's {bound:.4g}")
    return None


def _cdf(iv, family: str, w):
    """F(w) for an interval w (F increasing: evaluated at both ends where w straddles a branch)."""
    def one(x):
        if family == "laplace":
            return iv.exp(x) / 2 if x < 0 else 1 - iv.exp(-x) / 2
        return iv.mpf(0) if x <= 0 else 1 - iv.exp(-x)
    lo, hi = iv.mpf(w.a), iv.mpf(w.b)
    a, b = one(lo), one(hi)
    return iv.mpf([a.a, b.b])


def _value_events(model: ValueModel) -> list:
    c, s, cp, sp = model.c, model.s, model.c_prime, model.s_prime
    spread = float(max(s.max(), sp.max()))
    centres = np.unique(np.concatenate([c, cp]))
    ts = set()
    for x in centres:
        for k in (0.0, 0.25, 1.0, 3.0, 10.0, 30.0):
            ts.update((float(x - k * spread), float(x + k * spread)))
    ts.update(float((u + v) / 2) for u, v in zip(centres, centres[1:]))
    events = []
    with interval() as iv:
        def params(cc, ss, err):
            return ([iv.mpf([float(x - e), float(x + e)]) for x, e in zip(cc, err)],
                    [iv.mpf([float(x * (1 - REL_PARAM)), float(x * (1 + REL_PARAM))]) for x in ss])
        pc, ps = params(c, s, model.err)
        qc, qs = params(cp, sp, model.err_prime)
        for t in sorted(ts):
            T = iv.mpf(t)
            g, gp = iv.mpf(1), iv.mpf(1)
            for x, y in zip(pc, ps):
                g = g * _cdf(iv, model.family, (T - x) / y)
            for x, y in zip(qc, qs):
                gp = gp * _cdf(iv, model.family, (T - x) / y)
            for name, a, b in ((f"max <= {t:.6g}", g, gp), (f"max > {t:.6g}", 1 - g, 1 - gp)):
                events.append((name, (max(0.0, float_low(a)), min(1.0, float_high(a))),
                               (max(0.0, float_low(b)), min(1.0, float_high(b)))))
    return events


def _judge_value(model: ValueModel, claim, grid) -> tuple:
    events = _value_events(model)
    eps_low, point, hit = judge_law(events, claim, grid, disjoint=False)
    if model.family == "laplace" and np.allclose(model.s, model.s_prime, rtol=1e-7):
        upper = float(np.sum(np.abs(model.c_prime - model.c) / model.s))
        up_text = f"the post-processing bound sum_j |Delta_j| / s_j = {upper:.6g} (an upper bound)"
    else:
        upper = None
        up_text = "no finite post-processing bound (shifted exponential noise, or scales that differ)"
    name = "Laplace" if model.family == "laplace" else "exponential"
    text = (f"noisy max value (max of {len(model.c)} scores + {name} noise): events of the max give eps >= "
            f"{eps_low:.6g} on this pair (certified, at {point}); {up_text}")
    finding = _finding(eps_low, point, hit, claim, "max")
    return text, eps_low, finding, {"model": "report-noisy-max/value", "family": model.family, "eps_lower": eps_low,
                                    "eps_upper": upper, "shift": (model.c_prime - model.c).tolist(),
                                    "scale": model.s.tolist()}


def judge(model, claim, grid) -> tuple:
    """(implied text, certified lower bound of eps, finding or None, details) of a fitted model."""
    if isinstance(model, ArgmaxModel):
        return _judge_argmax(model, claim, grid)
    return _judge_value(model, claim, grid)
