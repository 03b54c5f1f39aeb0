"""The sparse vector technique in a grey-box replay (issue 31): TOP/BOTTOM answers against one noisy threshold.

**Shape.** Every draw is Laplace, the output has k >= 2 elements, and the noise elements are either ``1 + k``
(element 0 the threshold noise rho, element 1 + i the noise nu_i of query i, in call order) or ``1`` (rho alone,
no query noise). In standardised noise (:mod:`.probe`) the hypothesis is Lyu, Su & Li's Algorithm 1 form: query i
is answered TOP when ``u_i + beta_i z_i >= z_rho`` (``u_i = (q_i - T) / b_rho``, ``beta_i = b_nu / b_rho``; with no
query noise TOP when ``u_i >= z_rho``), BOTTOM otherwise, until the c-th TOP, after which every answer is a third
value (or none of them when there is no cutoff).

**Recovered by probe replays.** rho = +1e9 gives the BOTTOM value, rho = -1e9 the TOP value, the cutoff c (the
number of leading TOPs) and the value after it; then for each query i, with the earlier queries' noise at -1e9
(so they answer BOTTOM), bisection on z_rho brackets where query i flips (``u_i``) and, with ``z_i = 1``, ``u_i +
beta_i``. The hypothesis stands only if it predicts the recorded outputs on three seeds and :data:`PROBES`
probe replays per dataset (points closer to a flip than the parameters' error are skipped), and every query has
one ``beta`` on D and D'. Otherwise: not modelled, and the statistical audit decides. Not modelled either:
a threshold redrawn after each TOP (Dwork & Roth's Alg. 2), released noisy values (Alg. 3, numerical SVT), a
data-dependent number of draws (a loop that stops drawing at the cutoff diverges on D').

**Exact privacy of the pair.** For each output pattern o (at most :data:`MAX_OUTPUTS`)
``P(o) = int f(r) prod_{i answered} P(o_i | r) dr``: between consecutive ``u_i`` every factor is ``1/2 e^{+-(r - u_i)
/ beta}`` or one minus it, so the integrand is a sum of exponentials in r (a Laurent polynomial in ``e^{r / beta}``
times ``e^{+-r}``), integrated in closed form; with no query noise ``P(o)`` is the Laplace mass of the interval of
rho consistent with o. A float quadrature of every pattern picks the candidates; the few best are computed in
mpmath interval arithmetic, widened by ``sum_i (err_u_i / 2 + err_beta_i) / beta`` (parameters wrong by their error
move the law by at most that in total variation), and the certified lower bound of ``max_o |log P(o) / P'(o)|``
is what a finding rests on.

**What the trace implies for the mechanism** (an upper bound, reported, never a finding): Lyu et al., Theorem 2
(Alg. 1): ``eps <= Delta / b_rho + 2 c Delta / b_nu``, read as ``D + 2 c D / beta`` with ``D = max_i |u'_i - u_i|``
the observed sensitivity in units of ``b_rho``; without a cutoff c is the number of queries; with no query noise
no bound holds.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .probe import FUZZ, ProbeFailed, flip_point, float_high, float_low, interval, judge_law

__all__ = ["SVTModel", "fit", "judge", "pattern_probabilities", "PROBES", "MAX_OUTPUTS", "BIG"]

PROBES = 24
#: The most output patterns whose law is computed (else not modelled).
MAX_OUTPUTS = 5000
#: The noise value that forces a comparison (standardised).
BIG = 1e9
#: Patterns computed rigorously after the float screen (per direction and per criterion).
CANDIDATES = 6
_TOL = 1e-9


@dataclass(frozen=True)
class SVTModel:
    """The recovered SVT on D and D' (module docstring): its layout (``none``, ``basic``, ``redraw``, ``answer``),
    codes (TOP -- None when TOP releases a value --, BOTTOM, after the cutoff), cutoff (None: no cutoff within the k
    queries), u and beta per query with their errors (``beta`` None without query noise); ``gamma`` = b_rho / b_redraw
    (redraw); ``answer`` = (centres on D, on D', released scale per query, their error) (answer)."""

    codes: tuple
    cutoff: int | None
    u: np.ndarray
    u_prime: np.ndarray
    beta: float | None
    err_u: np.ndarray
    err_u_prime: np.ndarray
    err_beta: float
    layout: str = "basic"
    gamma: float | None = None
    answer: tuple | None = None


#: The answer noise of the answer layout during probes (any value off 0 will do).
_A0 = 0.1234567


class _Layout:
    """Where the noise elements are: rho at 0; ``nu(i)`` the noise of query i (None: none); ``extra(i)`` the element
    drawn after query i (a redrawn threshold, or the noise of its released answer)."""

    def __init__(self, name: str, k: int):
        self.name, self.k = name, k
        self.m = {"none": 1, "basic": 1 + k}.get(name, 1 + 2 * k)

    def nu(self, i: int):
        return None if self.name == "none" else (1 + i if self.name == "basic" else 1 + 2 * i)

    def extra(self, i: int):
        return 2 + 2 * i if self.name in ("redraw", "answer") else None

    def base(self) -> np.ndarray:
        z = np.zeros(self.m)
        if self.name == "answer":
            z[2::2] = _A0
        return z


def _fit_side(prober, lay: _Layout) -> tuple:
    k = lay.k
    z = lay.base()
    z[0] = BIG
    if lay.name == "redraw":
        z[2::2] = BIG
    bottom = prober(z)
    if not np.all(bottom == bottom[0]):
        raise ProbeFailed("a threshold noise of +1e9 does not make every answer one value")
    v_bot = float(bottom[0])
    z[0] = -BIG
    if lay.name == "redraw":
        z[2::2] = -BIG
    top = prober(z)
    if lay.name == "answer":
        z2 = z.copy()
        z2[2::2] = _A0 + 1
        moved = prober(z2) != top
        lead = int(np.argmin(moved)) if not np.all(moved) else k
        if np.any(moved[lead:]) or np.any(top[:lead] == v_bot):
            raise ProbeFailed("the released answers are not the leading TOPs")
        v_top = None
    else:
        v_top = float(top[0])
        lead = int(np.argmax(top != v_top)) if np.any(top != v_top) else k
    if lead == 0 or (v_top is not None and v_top == v_bot):
        raise ProbeFailed("the threshold noise does not change the first answer")
    rest = top[lead:]
    if lead < k and not np.all(rest == rest[0]):
        raise ProbeFailed("the answers after the leading TOPs are not one value")
    cutoff = lead if lead < k else None
    v_dead = float(rest[0]) if lead < k else None

    def is_top(x):
        return bool(x == v_top) if v_top is not None else bool(x != v_bot)

    u, err_u, betas, err_b = np.zeros(k), np.zeros(k), [], 0.0
    for i in range(k):
        thetas = []
        nu = lay.nu(i)
        for v in ((0.0, 1.0) if nu is not None else (0.0,)):
            base = lay.base()
            if nu is not None:
                for j in range(i):
                    base[lay.nu(j)] = -BIG
                base[nu] = v

            def pred(r, i=i, base=base):
                zz = base.copy()
                zz[0] = r
                out = prober(zz)
                if nu is not None and np.any(out[:i] != v_bot):
                    raise ProbeFailed(f"queries before {i} not held at BOTTOM by their noise at -1e9")
                if v_top is not None and out[i] not in (v_top, v_bot):
                    raise ProbeFailed(f"query {i} is not answered TOP or BOTTOM on a probe")
                return is_top(out[i])

            lo, hi = flip_point(pred, 0.0)
            if not (pred(lo) and not pred(hi)):
                raise ProbeFailed(f"query {i} is not TOP below a threshold on rho and BOTTOM above it")
            mid = lo + (hi - lo) / 2
            thetas.append((mid, (hi - lo) / 2 + FUZZ * (1 + abs(mid))))
        u[i], err_u[i] = thetas[0]
        if nu is not None:
            b = thetas[1][0] - thetas[0][0]
            if not b > 0:
                raise ProbeFailed(f"query {i}'s noise does not raise it towards TOP")
            betas.append(b)
            err_b = max(err_b, thetas[0][1] + thetas[1][1])
    beta = None
    if betas:
        bs = np.array(betas)
        if not np.all(np.abs(bs - bs[0]) <= 1e-7 * bs[0]):
            raise ProbeFailed("query noises of different scales (one scale is modelled)")
        beta = float(np.mean(bs))
        err_b = err_b + float(np.max(np.abs(bs - beta)))
    answer = _fit_answers(prober, lay, u, err_u, v_bot) if lay.name == "answer" else None
    return (v_top, v_bot, v_dead), cutoff, u, err_u, beta, err_b, answer


def _fit_answers(prober, lay: _Layout, u, err_u, v_bot) -> tuple:
    """(centre, released scale, error) of each query's released answer: TOP forced (earlier queries BOTTOM, rho
    below the query's threshold), its answer noise at _A0 and _A0 + 1."""
    k = lay.k
    a, s, err = np.zeros(k), np.zeros(k), np.zeros(k)
    for i in range(k):
        z = lay.base()
        for j in range(i):
            z[lay.nu(j)] = -BIG
        z[0] = u[i] - 1.0 - 2 * err_u[i]
        o1 = float(prober(z)[i])
        z[lay.extra(i)] = _A0 + 1
        o2 = float(prober(z)[i])
        if o1 == v_bot or o2 == v_bot or not o2 > o1 or not (math.isfinite(o1) and math.isfinite(o2)):
            raise ProbeFailed(f"query {i}'s released answer does not rise with its answer noise")
        s[i] = o2 - o1
        a[i] = o1 - s[i] * _A0
        err[i] = 1e-8 * max(abs(o1), abs(o2), s[i])
    return a, s, err


def _predict(z, lay: _Layout, side: tuple, gamma) -> tuple | None:
    """(predicted outputs, tolerance per output) of one standardised noise vector, or None near a flip."""
    (v_top, v_bot, v_dead), cutoff, u, err_u, beta, err_b, answer = side
    thr, scale = 0, 1.0
    out, tol, count = [], [], 0
    for i in range(lay.k):
        if cutoff is not None and count >= cutoff:
            out.append(v_dead)
            tol.append(0.0)
            continue
        nu = lay.nu(i)
        zi = z[nu] if nu is not None else 0.0
        r = z[thr]
        lhs = scale * (u[i] + (beta * zi if beta is not None else 0.0))
        slack = scale * (err_u[i] + (err_b * abs(zi) if beta is not None else 0.0)) + FUZZ * (1 + abs(r) + abs(lhs))
        if abs(lhs - r) <= slack:
            return None
        top = lhs >= r
        if top and answer is not None:
            a, s, err = answer
            x = a[i] + s[i] * z[lay.extra(i)]
            out.append(x)
            tol.append(1e-9 * (abs(x) + abs(s[i] * z[lay.extra(i)]) + abs(a[i])) + err[i] * (1 + abs(z[lay.extra(i)])))
        else:
            out.append(v_top if top else v_bot)
            tol.append(0.0)
        count += top
        if top and lay.name == "redraw":
            thr, scale = lay.extra(i), gamma
    return out, tol


def _verify(prober, lay: _Layout, side: tuple, gamma, recorded: list) -> str | None:
    rng = np.random.default_rng(161803)
    u = side[2]
    points = list(recorded)
    for p in range(PROBES):
        z = rng.laplace(0.0, 1.0 + 2.0 * (p % 3 == 2), lay.m)
        if p % 2 == 0:
            z[0] = float(rng.choice(u)) + 0.5 * rng.laplace()
        points.append((z, None))
    skipped = 0
    for z, out in points:
        pred = _predict(z, lay, side, gamma)
        if pred is None:
            skipped += 1
            continue
        got = np.asarray(out if out is not None else prober(z), dtype=float)
        want, tol = np.asarray(pred[0], dtype=float), np.asarray(pred[1])
        with np.errstate(invalid="ignore"):  # inf - inf where both are infinite: decided by got == want
            same = (got == want) | (np.isfinite(got) & np.isfinite(want) & (np.abs(got - want) <= tol))
        if not np.all(same):
            return ("the answers are not those of one noisy threshold against the queries' noisy answers "
                    f"(a {'recorded' if out is not None else 'probe'} draw disagrees with the model)")
    if skipped > len(points) // 2:
        return "too many checks fell on near-ties"
    return None


def fit(make_prober, std_runs: list, k: int) -> tuple:
    """(SVTModel, None) or (None, why); arguments as :func:`.noisymax.fit`."""
    fams, scales = std_runs[0][0][0][0], std_runs[0][0][0][2]
    m = len(fams)
    if any(f != "laplace" for f in fams):
        return None, "draws other than Laplace"
    names = {1: ("none",), 1 + k: ("basic",), 1 + 2 * k: ("redraw", "answer")}.get(m)
    if names is None:
        return None, "not one threshold noise and zero, one or two noises per query"
    whys = []
    for name in names:
        got, why = _fit_layout(make_prober, std_runs, _Layout(name, k), scales)
        if got is not None:
            return got, None
        whys.append(f"{name}: {why}" if len(names) > 1 else why)
    return None, "; ".join(whys)


def _fit_layout(make_prober, std_runs, lay: _Layout, scales) -> tuple:
    gamma = None
    if lay.name == "redraw":
        redraw = scales[2::2]
        if not np.all(redraw == redraw[0]):
            return None, "redrawn thresholds of different scales"
        gamma = float(scales[0] / redraw[0])
    sides = []
    for side in (0, 1):
        prober = make_prober(side)
        try:
            fitted = _fit_side(prober, lay)
            why = _verify(prober, lay, fitted, gamma, [(r[side][0][1], r[side][1]) for r in std_runs])
        except ProbeFailed as exc:
            return None, f"sparse vector not recognised: {exc}"
        if why:
            return None, why
        sides.append(fitted)
    (c0, k0, u0, e0, b0, eb0, a0), (c1, k1, u1, e1, b1, eb1, a1) = sides
    if c0 != c1 or k0 != k1:
        return None, "answer values or cutoff that differ between D and D'"
    if (b0 is None) != (b1 is None) or (b0 is not None and abs(b0 - b1) > 1e-7 * b0):
        return None, "query noise of a scale that differs between D and D'"
    answer = None
    if a0 is not None:
        if not np.allclose(a0[1], a1[1], rtol=1e-7):
            return None, "released answers whose noise scale differs between D and D'"
        answer = (a0[0], a1[0], a0[1], np.maximum(a0[2], a1[2]))
    return SVTModel(c0, k0, u0, u1, b0, e0, e1, max(eb0, eb1), lay.name, gamma, answer), None


# -- the law -----------------------------------------------------------------------------------------------------------


def _patterns(k: int, cutoff: int | None) -> np.ndarray | None:
    """Every output pattern: rows of 1 (TOP), 0 (BOTTOM), -1 (after the cutoff)."""
    rows = [[]]
    for _ in range(k):
        nxt = []
        for r in rows:
            if cutoff is not None and sum(x == 1 for x in r) >= cutoff:
                nxt.append(r + [-1])
            else:
                nxt += [r + [1], r + [0]]
        rows = nxt
        if len(rows) > MAX_OUTPUTS:
            return None
    return np.array(rows, dtype=int)


def _log_cdf(w):
    return np.where(w < 0, w - math.log(2), np.log1p(-0.5 * np.exp(-np.abs(w))))


def _screen(pats: np.ndarray, u: np.ndarray, beta: float | None) -> np.ndarray:
    """log P(o) per pattern, in floats (a screen: the candidates are then computed rigorously)."""
    if beta is None:
        return np.array([_no_noise_log(p, u) for p in pats])
    width = max(beta, 1.0)
    bps = np.unique(np.concatenate([u, [0.0], [u.min() - 60 * width - 60, u.max() + 60 * width + 60]]))
    x, w = np.polynomial.legendre.leggauss(32)
    nodes, logw = [], []
    for lo, hi in zip(bps, bps[1:]):  # every piece smooth, cut into parts no wider than the integrand's scale
        cuts = np.linspace(lo, hi, int(np.ceil((hi - lo) / width)) + 1)
        for a, b in zip(cuts, cuts[1:]):
            nodes.append(a + (b - a) * (x + 1) / 2)
            logw.append(np.log(w * (b - a) / 2))
    r, lw = np.concatenate(nodes), np.concatenate(logw)
    W = (r[None, :] - u[:, None]) / beta
    bottom, top = _log_cdf(W), _log_cdf(-W)
    base = -np.abs(r) - math.log(2) + lw
    L = (pats == 1).astype(float) @ top + (pats == 0).astype(float) @ bottom + base[None, :]
    mx = L.max(axis=1, keepdims=True)
    return (mx + np.log(np.exp(L - mx).sum(axis=1, keepdims=True))).ravel()


def _no_noise_bounds(p, u) -> tuple:
    tops, bots = u[p == 1], u[p == 0]
    hi = float(tops.min()) if tops.size else math.inf
    lo = float(bots.max()) if bots.size else -math.inf
    return lo, hi


def _no_noise_log(p, u) -> float:
    lo, hi = _no_noise_bounds(p, u)
    if not hi > lo:
        return -math.inf

    def cdf(x):
        if x == math.inf:
            return 1.0
        if x == -math.inf:
            return 0.0
        return 0.5 * math.exp(x) if x < 0 else 1 - 0.5 * math.exp(-x)
    mass = cdf(hi) - cdf(lo)
    return math.log(mass) if mass > 0 else -700.0


def _int_exp(iv, lam, lo: float, hi: float):
    if lam.a == 0 and lam.b == 0:
        return iv.mpf(hi) - iv.mpf(lo)
    if lam.a <= 0 <= lam.b:  # an interval exponent around 0 (finite piece): the integrand's range times the width
        return (iv.mpf(hi) - iv.mpf(lo)) * iv.exp(lam * iv.mpf([lo, hi]))
    top = iv.mpf(0) if hi == math.inf else iv.exp(lam * iv.mpf(hi))
    bottom = iv.mpf(0) if lo == -math.inf else iv.exp(lam * iv.mpf(lo))
    return (top - bottom) / lam


def _rigorous(iv, p: np.ndarray, u: np.ndarray, beta: float | None):
    if beta is None:
        lo, hi = _no_noise_bounds(p, u)
        if not hi > lo:
            return iv.mpf(0)

        def cdf(x):
            if x == math.inf:
                return iv.mpf(1)
            if x == -math.inf:
                return iv.mpf(0)
            X = iv.mpf(x)
            return iv.exp(X) / 2 if x < 0 else 1 - iv.exp(-X) / 2
        return cdf(hi) - cdf(lo)
    answered = [i for i in range(len(p)) if p[i] >= 0]
    bps = sorted(set([float(u[i]) for i in answered] + [0.0]))
    edges = [-math.inf] + bps + [math.inf]
    B = iv.mpf(beta)
    half = iv.mpf(1) / 2
    total = iv.mpf(0)
    for lo, hi in zip(edges, edges[1:]):
        if not lo < hi:
            continue
        poly = {0: iv.mpf(1)}
        for i in answered:
            e = iv.exp(iv.mpf(float(u[i])) / B)
            if lo >= u[i]:  # r > u_i: F = 1 - e^{u/beta} X^-1 / 2
                factor = {-1: half * e} if p[i] == 1 else {0: iv.mpf(1), -1: -half * e}
            else:  # r < u_i: F = X / (2 e^{u/beta})
                factor = {1: half / e} if p[i] == 0 else {0: iv.mpf(1), 1: -half / e}
            nxt: dict = {}
            for a, ca in poly.items():
                for b, cb in factor.items():
                    nxt[a + b] = nxt.get(a + b, iv.mpf(0)) + ca * cb
            poly = nxt
        d = -1 if lo >= 0 else 1
        for power, coef in poly.items():
            total = total + half * coef * _int_exp(iv, iv.mpf(power) / B + d, lo, hi)
    return total


def pattern_probabilities(pats: np.ndarray, u: np.ndarray, beta: float | None) -> list:
    """Float bounds (lo, hi) of P(o) for each pattern o (rows of 1/0/-1), in mpmath interval arithmetic."""
    with interval() as iv:
        out = []
        for p in pats:
            x = _rigorous(iv, p, u, beta)
            out.append((max(0.0, float_low(x)), min(1.0, float_high(x))))
        return out


def _margin(err_u: np.ndarray, beta: float | None, err_b: float) -> float:
    if beta is None:
        return 0.5 * float(np.sum(err_u))
    return float(np.sum(0.5 * err_u / beta + err_b / beta))


def redraw_probabilities(pats: np.ndarray, u: np.ndarray, beta: float, gamma: float) -> list:
    """Float bounds of P(o) when the threshold is redrawn after each TOP (scale b_rho / gamma): the product over the
    segments that end at a TOP (each with its own threshold noise) of the segment's probability."""
    k = u.size
    cache: dict = {}
    out = []
    with interval() as iv:
        for p in pats:
            segs, cur = [], []
            for i in range(k):
                if p[i] < 0:
                    break
                cur.append(i)
                if p[i] == 1:
                    segs.append((cur[0], i, True))
                    cur = []
            if cur:
                segs.append((cur[0], cur[-1], False))
            total = iv.mpf(1)
            for n, (a, b, t) in enumerate(segs):
                key = (a, b, t, n > 0)
                if key not in cache:
                    row = np.full(k, -1)
                    row[a:b + 1] = 0
                    if t:
                        row[b] = 1
                    cache[key] = _rigorous(iv, row, u * gamma, beta * gamma) if n else _rigorous(iv, row, u, beta)
                total = total * cache[key]
            out.append((max(0.0, float_low(total)), min(1.0, float_high(total))))
    return out


def _candidates(pats, model: SVTModel, claim, extra: np.ndarray) -> np.ndarray:
    """The patterns computed rigorously: all of them with a redrawn threshold (segments are few and cached), else
    the float screen's best (by |log ratio| plus ``extra``; by mass too for an (eps, delta) claim)."""
    if model.layout == "redraw":
        return np.arange(len(pats))
    lp, lq = _screen(pats, model.u, model.beta), _screen(pats, model.u_prime, model.beta)
    with np.errstate(invalid="ignore"):
        ratio = lp - lq
    finite = np.isfinite(lp) | np.isfinite(lq)
    ratio = np.where(np.isfinite(ratio), ratio, np.where(np.isfinite(lp), np.inf, -np.inf))
    ratio = np.where(finite, ratio, 0.0)
    chosen = set(np.argsort(-(ratio + extra))[:CANDIDATES].tolist()) | \
        set(np.argsort(ratio - extra)[:CANDIDATES].tolist())
    if not (claim.delta == 0 and not claim.is_curve):
        chosen |= set(np.argsort(-lp)[:4 * CANDIDATES].tolist()) | set(np.argsort(-lq)[:4 * CANDIDATES].tolist())
    return np.array(sorted(chosen))


def _theorem(model: SVTModel, k: int) -> tuple:
    D = float(np.max(np.abs(model.u_prime - model.u)))
    c = model.cutoff if model.cutoff is not None else k
    tail = "" if model.cutoff is not None else " (no cutoff: c = the number of queries)"
    if model.beta is None:
        return math.inf, D, "no theorem bound holds without query noise"
    if model.layout == "redraw":
        thm = D + (c - 1) * D * model.gamma + 2 * c * D / model.beta
        form = "Dwork & Roth's Alg. 2 as Lyu et al. analyse it: Delta / b_rho + (c - 1) Delta / b_redraw + 2 c Delta / b_nu"
    elif model.layout == "answer":
        a, ap, sa, _ = model.answer
        thm = D + 2 * c * D / model.beta + c * float(np.max(np.abs(ap - a) / sa))
        form = "Lyu et al. Alg. 7 (numerical SVT): Delta / b_rho + 2 c Delta / b_nu + c Delta / b_answer"
    else:
        thm = D + 2 * c * D / model.beta
        form = "Lyu et al. Alg. 1: Delta / b_rho + 2 c Delta / b_nu"
    return thm, D, f"the theorem bound the trace implies ({form}, c = {c}{tail}; an upper bound) is {thm:.6g}"


def judge(model: SVTModel, claim, grid) -> tuple:
    """(implied text, certified lower bound of eps, finding or None, details) of a fitted SVT."""
    k = model.u.size
    pats = _patterns(k, model.cutoff)
    if pats is None:
        return None, None, None, {"why": f"more than {MAX_OUTPUTS} output patterns"}
    pure = claim.delta == 0 and not claim.is_curve
    extra = extra_low = np.zeros(len(pats))
    if model.layout == "answer":  # each released answer adds up to |Delta a_i| / s_i, attained on a half-line
        a, ap, sa, err = model.answer
        gain = np.abs(ap - a) / sa
        gain_low = np.maximum(np.abs(ap - a) - 2 * err, 0.0) / (sa * (1 + 1e-8))
        extra, extra_low = (pats == 1) @ gain, (pats == 1) @ gain_low
    chosen = _candidates(pats, model, claim, extra)
    sel = pats[chosen]
    if model.layout == "redraw":
        p = redraw_probabilities(sel, model.u, model.beta, model.gamma)
        q = redraw_probabilities(sel, model.u_prime, model.beta, model.gamma)
    else:
        p = pattern_probabilities(sel, model.u, model.beta)
        q = pattern_probabilities(sel, model.u_prime, model.beta)
    w, wp = _margin(model.err_u, model.beta, model.err_beta), _margin(model.err_u_prime, model.beta, model.err_beta)
    events = [(f"pattern {_show(row)}", (max(0.0, a_[0] - w), min(1.0, a_[1] + w)),
               (max(0.0, b_[0] - wp), min(1.0, b_[1] + wp))) for row, a_, b_ in zip(sel, p, q)]
    if model.layout == "answer":
        eps_low, point, hit = 0.0, None, None
        for (name, (pl, ph), (ql, qh)), add in zip(events, extra_low[chosen]):
            for num, den, way in ((pl, qh, "D over D'"), (ql, ph, "D' over D")):
                if num > 0:
                    val = (math.inf if den <= 0 else math.log(num) - math.log(den)) + add
                    val = val - abs(val) * 1e-15 if math.isfinite(val) else val
                    if val > eps_low:
                        eps_low, point = val, f"{name} with its released answers in their tails ({way})"
        nominal = max(_mid_ratio(a_, b_) + x for a_, b_, x in zip(p, q, extra[chosen]))
    else:
        eps_low, point, hit = judge_law(events, claim, grid, disjoint=True)
        nominal = max(_mid_ratio(a_, b_) for a_, b_ in zip(p, q))
    thm, D, thm_text = _theorem(model, k)
    noise = {"none": "no query noise", "basic": "Laplace query noise",
             "redraw": "Laplace query noise, threshold redrawn after each TOP",
             "answer": "Laplace query noise, TOP answered with a fresh noisy value"}[model.layout]
    what = (f"sparse vector ({k} queries, {noise}, "
            f"{'cutoff ' + str(model.cutoff) if model.cutoff is not None else 'no cutoff'})")
    how = "every pattern computed exactly" if model.layout == "redraw" else \
        "the float screen's best patterns computed exactly"
    text = (f"{what}: the exact law of the output gives eps = {nominal:.6g} on this pair ({how}; certified lower "
            f"bound {eps_low:.6g}, at {point}); {thm_text}")
    if model.layout == "answer" and not pure:
        text += " (an (eps, delta) or curve claim is judged for the pure eps only: no finding from it)"
    finding = None
    if pure:
        if eps_low > claim.epsilon * (1 + _TOL) + 1e-12:
            finding = (f"the exact law of the sparse vector's output at the recovered thresholds gives eps >= "
                       f"{eps_low:.6g} on this pair (certified lower bound, at {point}), above the claim {claim!r}")
    elif hit is not None:
        e, got, bound = hit
        finding = (f"the exact law of the sparse vector's answers gives delta({e:g}) >= {got:.4g} on this pair "
                   f"(certified lower bound), above the claim's {bound:.4g}")
    return text, eps_low, finding, {"model": f"sparse-vector/{model.layout}", "cutoff": model.cutoff,
                                    "beta": model.beta, "gamma": model.gamma, "exact_eps": nominal,
                                    "eps_lower": eps_low, "theorem_eps": thm, "observed_sensitivity": D,
                                    "u": model.u.tolist(), "u_prime": model.u_prime.tolist()}


def _mid_ratio(a, b) -> float:
    x, y = 0.5 * (a[0] + a[1]), 0.5 * (b[0] + b[1])
    if x > 0 and y > 0:
        return abs(math.log(x / y))
    return 0.0 if x == y else math.inf


def _show(row) -> str:
    return "".join({1: "T", 0: "B", -1: "-"}[int(x)] for x in row)
