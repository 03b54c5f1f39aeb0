"""The trade-off test of a whole curve claim (mu-GDP, f-DP, an accountant's curve), black-box, scalar outputs.

A curve claim is a trade-off function f (Dong, Roth & Su 2022): every test telling M(D) from M(D') with type I
error a has type II error at least f(a). For an event E (reject "D" when the output is in E), a = P_D(E) and
b = 1 - P_D'(E). One chosen event gives one point (a, b); the claim is violated when b < f(a).

**Method.** Outputs of each dataset are split into *selection* draws (``SELECTION_SHARE``) and
*certification* draws (the rest), from independent seeds. On the selection draws the test scans half-lines
{x > t} and {x <= t} of the output at ``THRESHOLDS`` pooled quantiles, in both roles (D as the null and D' as
the null), and keeps the one event maximising the estimated gap f(a) - b in standard errors -- where on the
curve to test is chosen from the selection draws only -- with its estimated a* and the slope c = |f'(a*)|. On
the certification draws, at level alpha / m per pair (m pairs), split in two:

* **exact rule** (``EXACT_SHARE`` x alpha): Clopper-Pearson upper bounds a_up on a and b_up on b (each at half
  of it); because
  f is non-increasing, b_up < f(a_up) certifies b < f(a);
* **tangent rule** (the rest of alpha): f is convex, so the whole claim lies above its tangent at a*:
  b + c a >= f(a*) + c a* for every (a, b) the claim allows. The statistic b_hat + c a_hat (two independent
  binomial proportions) is compared with that line by a one-sided z-test (normal approximation, plug-in
  variance), used only when every count in and out of the event is at least ``MIN_COUNT``. It spends the draws
  better than two separate bounds (one root-sum-square margin instead of two margins); its level is
  asymptotic, and its false-alarm rate is measured in ``benchmarks/bench_tradeoff.py`` at the boundary (a
  mechanism whose curve *is* the claim).

Either rule's violation of the one event is a violation of the **whole curve**: no Bonferroni over points of
the curve, one test per pair.

f is the claim's own trade-off function where it has one (GDP: Phi(Phi^-1(1 - a) - mu); f-DP: the function
given); for a curve given as delta(eps) (an accountant's, or a profile) it is
f(a) = max over a grid of eps of max(0, 1 - delta(eps) - e^eps a, e^-eps (1 - delta(eps) - a)), which is
below the exact conversion (a maximum over fewer eps), so the test stays on the safe side.

The result's ``epsilon_lower`` is the largest eps at which the certified point violates (eps, claim.delta)
(ln((1 - b_upper - delta) / a_upper)), ``delta_lower`` the delta the point certifies at claim.epsilon
(1 - b_upper - e^eps a_upper), and the notes give the certified point and f there.
"""
from __future__ import annotations

import dataclasses
import math
import time
from typing import Any, Callable

import numpy as np
from scipy import special

from ..claims import ClaimForm, PrivacyClaim, Verdict
from ..errors import InvalidArgument
from ..mechanism import is_white_box
from .bounds import clopper_pearson_lower, clopper_pearson_upper
from .draws import root_seed, scalar_outputs
from .intake import plan_audit
from .pairs import normalise_pairs
from .point import with_checks
from .result import AuditMethod, AuditResult, Direction, DirectionResult

__all__ = ["tradeoff_of", "audit_tradeoff", "audit_whole_curve", "applies", "SELECTION_SHARE", "THRESHOLDS", "EXACT_SHARE",
           "MIN_COUNT"]

#: Share of each dataset's draws that chooses the event (the rest certify it).
SELECTION_SHARE = 0.1
#: Pooled quantiles scanned as thresholds on the selection draws (few: a maximum over many noisy gaps drifts to the
#: tails, where the gap is small: benchmarks/bench_tradeoff.py measures the power and false alarms of this choice).
THRESHOLDS = 9
#: The share of alpha spent on the exact rule (the tangent rule gets the rest).
EXACT_SHARE = 0.1
#: The tangent (normal-approximation) rule is used only when every count in and out of the event is at least this.
MIN_COUNT = 50
#: The eps grid of the conversion delta(eps) -> f for curves given as delta(eps).
_EPS_GRID = np.concatenate([np.linspace(0.0, 2.0, 81)[:-1], np.linspace(2.0, 20.0, 73)])


def applies(claim: PrivacyClaim, mechanism: Any) -> bool:
    """Whether :func:`dpverify.audit` runs this test: a GDP, f-DP or accountant-curve claim and a black-box
    mechanism (the white-box tester audits such claims point by point through their delta(eps))."""
    return claim.form in (ClaimForm.GDP, ClaimForm.FDP, ClaimForm.CURVE) and not is_white_box(mechanism)


def tradeoff_of(claim: PrivacyClaim) -> Callable[[np.ndarray], np.ndarray]:
    """The claim's trade-off function, vectorised over type I errors a in [0, 1] (see the module docstring)."""
    curve = claim.curve
    if claim.form is ClaimForm.GDP:
        mu = curve.mu
        return lambda a: special.ndtr(special.ndtri(1.0 - np.clip(a, 0.0, 1.0)) - mu)
    if claim.form is ClaimForm.FDP:
        fn = curve.function
        return lambda a: np.array([float(fn(float(x))) for x in np.ravel(a)]).reshape(np.shape(a))
    deltas = np.array([claim.delta_at(float(e)) for e in _EPS_GRID])
    growth = np.exp(_EPS_GRID)

    def f(a):
        a = np.asarray(a, dtype=float)[..., None]
        one = 1.0 - deltas - growth * a
        two = (1.0 - deltas - a) / growth
        return np.clip(np.max(np.maximum(one, two), axis=-1), 0.0, 1.0)
    return f


def _scalar(outputs: Any, where: str) -> np.ndarray:
    return scalar_outputs(outputs, where, "the trade-off test of a curve claim", "audit the claim's points with dpverify.audit_curve(mechanism, pairs, claim=claim) instead.")


def _choose(x0: np.ndarray, x1: np.ndarray, f) -> tuple:
    """(upper, threshold, null index) of the half-line with the largest estimated gap f(a) - b in standard errors."""
    pooled = np.concatenate([x0, x1])
    cuts = np.unique(np.quantile(pooled, np.linspace(0, 1, THRESHOLDS + 2)[1:-1]))
    s0, s1 = np.sort(x0), np.sort(x1)
    best = (-math.inf, None)
    for upper in (True, False):
        # P(x > t) or P(x <= t) on each dataset, for every threshold
        p0 = (s0.size - np.searchsorted(s0, cuts, "right")) / s0.size if upper else np.searchsorted(s0, cuts, "right") / s0.size
        p1 = (s1.size - np.searchsorted(s1, cuts, "right")) / s1.size if upper else np.searchsorted(s1, cuts, "right") / s1.size
        for null, (pn, pa, n_alt) in enumerate(((p0, p1, s1.size), (p1, p0, s0.size))):
            b = 1.0 - pa
            gap = f(pn) - b
            se = np.sqrt(np.maximum(b * (1 - b), 1.0 / n_alt) / n_alt + np.maximum(pn * (1 - pn), 1.0 / n_alt) / n_alt)
            z = gap / se
            k = int(np.argmax(z))
            if z[k] > best[0]:
                best = (float(z[k]), (upper, float(cuts[k]), null))
    return best[1]


def _count(x: np.ndarray, upper: bool, t: float) -> int:
    return int(np.sum(x > t) if upper else np.sum(x <= t))


def _slope(f, a: float) -> float:
    """|f'(a)| by a central difference (f is non-increasing and convex: a valid tangent slope at a)."""
    h = 1e-4
    lo, hi = max(a - h, 0.0), min(a + h, 1.0)
    return max(0.0, float((f(np.array([lo]))[0] - f(np.array([hi]))[0]) / (hi - lo)))


def _one_pair(mechanism, pair, claim, f, n_sel, n_cert, seeds, alpha) -> dict:
    d, dp = pair
    s0, s1, c0, c1 = (np.random.default_rng(s) for s in seeds)
    x0 = _scalar(mechanism.sample(d, n_sel, s0), "D")
    x1 = _scalar(mechanism.sample(dp, n_sel, s1), "D'")
    upper, t, null = _choose(x0, x1, f)
    a_star = _count((x0, x1)[null], upper, t) / n_sel
    c = _slope(f, a_star)
    line = float(f(np.array([a_star]))[0]) + c * a_star  # the tangent at a*: b + c a >= line on the whole claim
    y = (_scalar(mechanism.sample(d, n_cert, c0), "D"), _scalar(mechanism.sample(dp, n_cert, c1), "D'"))
    k_null, k_alt = _count(y[null], upper, t), _count(y[1 - null], upper, t)
    a_hat, b_hat = k_null / n_cert, 1.0 - k_alt / n_cert
    var = (max(b_hat * (1 - b_hat), 1.0 / n_cert) + c * c * max(a_hat * (1 - a_hat), 1.0 / n_cert)) / n_cert
    z = (line - (b_hat + c * a_hat)) / math.sqrt(var)
    enough = min(k_null, n_cert - k_null, k_alt, n_cert - k_alt) >= MIN_COUNT
    a_up = float(clopper_pearson_upper(k_null, n_cert, EXACT_SHARE * alpha / 2))
    b_up = 1.0 - float(clopper_pearson_lower(k_alt, n_cert, EXACT_SHARE * alpha / 2))
    f_at = float(f(np.array([a_up]))[0])
    exact = b_up < f_at
    violated = exact or (enough and z > float(special.ndtri(1.0 - (1 - EXACT_SHARE) * alpha)))
    return {"upper": upper, "threshold": t, "null": null, "a_upper": a_up, "b_upper": b_up, "f": f_at,
            "a_hat": a_hat, "b_hat": b_hat, "z": z, "slope": c, "line": line, "exact": exact, "enough": enough,
            "violated": violated}


def _bounds(r: dict, claim: PrivacyClaim) -> tuple:
    free = 1.0 - r["b_upper"]
    delta_lower = max(0.0, free - math.exp(claim.epsilon) * r["a_upper"])
    eps_lower = max(0.0, math.log((free - claim.delta) / r["a_upper"])) if free > claim.delta and r["a_upper"] > 0 \
        else (math.inf if free > claim.delta else 0.0)
    delta_est = max(0.0, (1.0 - r["b_hat"]) - math.exp(claim.epsilon) * r["a_hat"])
    return eps_lower, delta_lower, delta_est


def audit_tradeoff(mechanism: Any, pairs: Any, *, claim: PrivacyClaim, samples: int, confidence: float,
                   rng: Any = None) -> AuditResult:
    """The trade-off test of ``claim`` on every pair (module docstring); ``samples`` outputs per dataset."""
    start = time.time()
    pairs = normalise_pairs(pairs)
    n_sel = max(1, int(round(SELECTION_SHARE * samples)))
    n_cert = samples - n_sel
    if n_cert < 1:
        raise InvalidArgument(f"samples={samples}: the trade-off test needs at least 2 outputs per dataset.")
    f = tradeoff_of(claim)
    level = (1.0 - confidence) / len(pairs)  # per pair, split between the two rules (module docstring)
    seeds = root_seed(rng).spawn(4 * len(pairs))
    rows = [_one_pair(mechanism, p, claim, f, n_sel, n_cert, seeds[4 * i:4 * i + 4], level)
            for i, p in enumerate(pairs)]
    k = max(range(len(rows)), key=lambda i: (rows[i]["violated"], rows[i]["f"] - rows[i]["b_upper"]))
    r = rows[k]
    eps_lower, delta_lower, delta_est = _bounds(r, claim)
    direction = Direction.D_TO_D_PRIME if r["null"] == 0 else Direction.D_PRIME_TO_D
    event = f"output {'>' if r['upper'] else '<='} {r['threshold']:.6g}"
    note = (f"trade-off test of the whole curve {claim!r}: event {event} chosen on {n_sel} selection draws per "
            f"dataset; on {n_cert} fresh draws, type I error <= {r['a_upper']:.4g} and type II error <= "
            f"{r['b_upper']:.4g} (exact, each at level {EXACT_SHARE * level / 2:.3g}), against f = {r['f']:.4g} there; tangent "
            f"statistic b + {r['slope']:.3g} a = {r['b_hat'] + r['slope'] * r['a_hat']:.5g} against the claim's "
            f">= {r['line']:.5g}: z = {r['z']:.2f} (normal approximation at level {(1 - EXACT_SHARE) * level:.3g}"
            f"{'' if r['enough'] else ', not used: fewer than ' + str(MIN_COUNT) + ' draws in or out of the event'})")
    dirs = tuple(DirectionResult(i, Direction.D_TO_D_PRIME if row["null"] == 0 else Direction.D_PRIME_TO_D, samples,
                                 *_bounds(row, claim)[:3], 0, {"event": f"output {'>' if row['upper'] else '<='} "
                                                               f"{row['threshold']:.6g}"})
                 for i, row in enumerate(rows))
    verdict = Verdict.VIOLATED if r["violated"] else Verdict.NOT_VIOLATED
    return AuditResult(verdict, eps_lower, delta_lower, delta_est, confidence, samples, claim, k, pairs[k],
                       direction, AuditMethod.BLACK_BOX, time.time() - start, dirs, (note,), event=event)


def audit_whole_curve(mechanism: Any, pairs: Any, claim: PrivacyClaim, rng: Any, options: Any) -> AuditResult:
    """:func:`dpverify.audit` for a claim :func:`applies` to: the pairs read and checked by the intake, then
    :func:`audit_tradeoff` on them (black-box options are refused: this test takes none)."""
    if options.black:
        raise InvalidArgument(f"{options.black.describe()}: the trade-off test of a {claim.form.value} claim takes no "
                              "black-box options. Drop them, or audit points of the curve with dpverify.audit_curve.")
    plan = plan_audit(mechanism, pairs, claim, rng, options)
    result = audit_tradeoff(plan.mechanism, list(plan.pairs), claim=claim, samples=plan.samples,
                            confidence=plan.confidence, rng=plan.rng)
    if plan.search is not None:
        result = dataclasses.replace(result, search=plan.search)
    return with_checks(result, plan.checks)
