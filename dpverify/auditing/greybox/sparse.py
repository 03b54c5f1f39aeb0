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
    """The recovered SVT on D and D' (module docstring): codes (TOP, BOTTOM, after the cutoff), cutoff (None: no
    cutoff within the k queries), u and beta per query with their errors; ``beta`` None without query noise."""

    codes: tuple
    cutoff: int | None
    u: np.ndarray
    u_prime: np.ndarray
    beta: float | None
    err_u: np.ndarray
    err_u_prime: np.ndarray
    err_beta: float


def _fit_side(prober, k: int, has_nu: bool) -> tuple:
    m = 1 + k if has_nu else 1
    z = np.zeros(m)
    z[0] = BIG
    bottom = prober(z)
    if not np.all(bottom == bottom[0]):
        raise ProbeFailed("a threshold noise of +1e9 does not make every answer one value")
    z[0] = -BIG
    top = prober(z)
    v_top, v_bot = float(top[0]), float(bottom[0])
    if v_top == v_bot:
        raise ProbeFailed("the threshold noise does not change the first answer")
    lead = int(np.argmax(top != v_top)) if np.any(top != v_top) else k
    rest = top[lead:]
    if lead < k and not np.all(rest == rest[0]):
        raise ProbeFailed("the answers after the leading TOPs are not one value")
    cutoff = lead if lead < k else None
    v_dead = float(rest[0]) if lead < k else None
    u, err_u, betas, err_b = np.zeros(k), np.zeros(k), [], 0.0
    for i in range(k):
        thetas = []
        for v in ((0.0, 1.0) if has_nu else (0.0,)):
            base = np.zeros(m)
            if has_nu:
                base[1:1 + i] = -BIG
                base[1 + i] = v

            def pred(r, i=i, base=base):
                zz = base.copy()
                zz[0] = r
                out = prober(zz)
                if has_nu and np.any(out[:i] != v_bot):
                    raise ProbeFailed(f"queries before {i} not held at BOTTOM by their noise at -1e9")
                if out[i] not in (v_top, v_bot):
                    raise ProbeFailed(f"query {i} is not answered TOP or BOTTOM on a probe")
                return bool(out[i] == v_top)

            lo, hi = flip_point(pred, 0.0)
            if not (pred(lo) and not pred(hi)):
                raise ProbeFailed(f"query {i} is not TOP below a threshold on rho and BOTTOM above it")
            mid = lo + (hi - lo) / 2
            thetas.append((mid, (hi - lo) / 2 + FUZZ * (1 + abs(mid))))
        u[i], err_u[i] = thetas[0]
        if has_nu:
            b = thetas[1][0] - thetas[0][0]
            if not b > 0:
                raise ProbeFailed(f"query {i}'s noise does not raise it towards TOP")
            betas.append(b)
            err_b = max(err_b, thetas[0][1] + thetas[1][1])
    beta = None
    if has_nu:
        bs = np.array(betas)
        if not np.all(np.abs(bs - bs[0]) <= 1e-7 * bs[0]):
            raise ProbeFailed("query noises of different scales (one scale is modelled)")
        beta = float(np.mean(bs))
        err_b = err_b + float(np.max(np.abs(bs - beta)))
    return (v_top, v_bot, v_dead), cutoff, u, err_u, beta, err_b


def _predict(z, codes, cutoff, u, err_u, beta, err_b, k) -> list | None:
    v_top, v_bot, v_dead = codes
    r = z[0]
    out, count = [], 0
    for i in range(k):
        if cutoff is not None and count >= cutoff:
            out.append(v_dead)
            continue
        lhs = u[i] + (beta * z[1 + i] if beta is not None else 0.0)
        tol = err_u[i] + (err_b * abs(z[1 + i]) if beta is not None else 0.0) + FUZZ * (1 + abs(r) + abs(lhs))
        if abs(lhs - r) <= tol:
            return None
        top = lhs >= r
        out.append(v_top if top else v_bot)
        count += top
    return out


def fit(make_prober, std_runs: list, k: int) -> tuple:
    """(SVTModel, None) or (None, why); arguments as :func:`.noisymax.fit`."""
    fams = std_runs[0][0][0][0]
    m = len(fams)
    if any(f != "laplace" for f in fams) or m not in (1, 1 + k):
        return None, "not one threshold noise (and one noise per query) of Laplace draws"
    has_nu = m == 1 + k
    sides = []
    for side in (0, 1):
        prober = make_prober(side)
        try:
            codes, cutoff, u, err_u, beta, err_b = _fit_side(prober, k, has_nu)
        except ProbeFailed as exc:
            return None, f"sparse vector not recognised: {exc}"
        rng = np.random.default_rng(161803)
        points = [(r[side][0][1], r[side][1]) for r in std_runs]
        for p in range(PROBES):
            z = rng.laplace(0.0, 1.0 + 2.0 * (p % 3 == 2), m)
            if p % 2 == 0:
                z[0] = float(rng.choice(u)) + 0.5 * rng.laplace()
            points.append((z, None))
        skipped = 0
        for z, out in points:
            pred = _predict(z, codes, cutoff, u, err_u, beta, err_b, k)
            if pred is None:
                skipped += 1
                continue
            try:
                got = out if out is not None else prober(z)
            except ProbeFailed as exc:
                return None, f"sparse vector not recognised: {exc}"
            if not np.array_equal(np.asarray(got, dtype=float), np.asarray(pred, dtype=float)):
                return None, ("the answers are not those of one noisy threshold against the queries' noisy answers "
                              f"(a {'recorded' if out is not None else 'probe'} draw disagrees with the model)")
        if skipped > len(points) // 2:
            return None, "too many checks fell on near-ties"
        sides.append((codes, cutoff, u, err_u, beta, err_b))
    (c0, k0, u0, e0, b0, eb0), (c1, k1, u1, e1, b1, eb1) = sides
    if c0 != c1 or k0 != k1:
        return None, "answer values or cutoff that differ between D and D'"
    if (b0 is None) != (b1 is None) or (b0 is not None and abs(b0 - b1) > 1e-7 * b0):
        return None, "query noise of a scale that differs between D and D'"
    return SVTModel(c0, k0, u0, u1, b0, e0, e1, max(eb0, eb1)), None


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


def judge(model: SVTModel, claim, grid) -> tuple:
    """(implied text, certified lower bound of eps, finding or None, details) of a fitted SVT."""
    k = model.u.size
    pats = _patterns(k, model.cutoff)
    if pats is None:
        return None, None, None, {"why": f"more than {MAX_OUTPUTS} output patterns"}
    lp, lq = _screen(pats, model.u, model.beta), _screen(pats, model.u_prime, model.beta)
    with np.errstate(invalid="ignore"):
        ratio = lp - lq
    finite = np.isfinite(lp) | np.isfinite(lq)
    ratio = np.where(np.isfinite(ratio), ratio, np.where(np.isfinite(lp), np.inf, -np.inf))
    ratio = np.where(finite, ratio, 0.0)
    chosen = set(np.argsort(-ratio)[:CANDIDATES].tolist()) | set(np.argsort(ratio)[:CANDIDATES].tolist())
    if not (claim.delta == 0 and not claim.is_curve):
        chosen |= set(np.argsort(-lp)[:4 * CANDIDATES].tolist()) | set(np.argsort(-lq)[:4 * CANDIDATES].tolist())
    chosen = sorted(chosen)
    sel = pats[chosen]
    p = pattern_probabilities(sel, model.u, model.beta)
    q = pattern_probabilities(sel, model.u_prime, model.beta)
    w, wp = _margin(model.err_u, model.beta, model.err_beta), _margin(model.err_u_prime, model.beta, model.err_beta)
    events = [(f"pattern {_show(row)}", (max(0.0, a[0] - w), min(1.0, a[1] + w)),
               (max(0.0, b[0] - wp), min(1.0, b[1] + wp))) for row, a, b in zip(sel, p, q)]
    eps_low, point, hit = judge_law(events, claim, grid, disjoint=True)
    nominal = max(_mid_ratio(a, b) for a, b in zip(p, q))
    D = float(np.max(np.abs(model.u_prime - model.u)))
    c = model.cutoff if model.cutoff is not None else k
    if model.beta is None:
        thm, thm_text = math.inf, "no theorem bound holds without query noise"
    else:
        thm = D + 2 * c * D / model.beta
        thm_text = (f"the theorem bound the trace implies (Lyu et al. Alg. 1: Delta / b_rho + 2 c Delta / b_nu with "
                    f"c = {c}{'' if model.cutoff is not None else ', no cutoff: the number of queries'}; an upper "
                    f"bound) is {thm:.6g}")
    what = (f"sparse vector ({k} queries, {'Laplace query noise' if model.beta is not None else 'no query noise'}, "
            f"{'cutoff ' + str(model.cutoff) if model.cutoff is not None else 'no cutoff'})")
    text = (f"{what}: the exact law of the answer pattern gives eps = {nominal:.6g} on this pair (the float "
            f"screen's best patterns computed exactly; certified lower bound {eps_low:.6g}, at {point}); {thm_text}")
    finding = None
    if claim.delta == 0 and not claim.is_curve:
        if eps_low > claim.epsilon * (1 + _TOL) + 1e-12:
            finding = (f"the exact law of the sparse vector's answers at the recovered thresholds gives eps >= "
                       f"{eps_low:.6g} on this pair (certified lower bound, at {point}), above the claim {claim!r}")
    elif hit is not None:
        e, got, bound = hit
        finding = (f"the exact law of the sparse vector's answers gives delta({e:g}) >= {got:.4g} on this pair "
                   f"(certified lower bound), above the claim's {bound:.4g}")
    return text, eps_low, finding, {"model": "sparse-vector", "cutoff": model.cutoff, "beta": model.beta,
                                    "exact_eps": nominal, "eps_lower": eps_low, "theorem_eps": thm,
                                    "observed_sensitivity": D, "u": model.u.tolist(),
                                    "u_prime": model.u_prime.tolist()}


def _mid_ratio(a, b) -> float:
    x, y = 0.5 * (a[0] + a[1]), 0.5 * (b[0] + b[1])
    if x > 0 and y > 0:
        return abs(math.log(x / y))
    return 0.0 if x == y else math.inf


def _show(row) -> str:
    return "".join({1: "T", 0: "B", -1: "-"}[int(x)] for x in row)
