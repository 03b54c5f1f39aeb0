"""An anytime-valid black-box test of an (eps, delta) claim: it stops as soon as it knows (issue 30).

**Method.** A pilot of ``PILOT`` draws per dataset chooses one event E (a half-line of the scalar output at
the pilot's pooled deciles, either orientation, favouring D or D'), where the pilot estimate of
E[Z] / sd(Z) is largest for

    Z = 1{X in E} - e^eps 1{Y in E} - delta,    X ~ M(D), Y ~ M(D')    (roles swapped for the other direction).

If the mechanism keeps its claim, P(X in E) <= e^eps P(Y in E) + delta, so E[Z] <= 0. On fresh paired draws the
test bets against that: its wealth K_t = prod_i (1 + lambda_i Z_i), with each lambda_i in [0, 1/(2 (e^eps + delta)))
chosen from the draws before i only (a plug-in of the running mean and variance of Z), is a nonnegative
supermartingale under the claim, so by Ville's inequality P(sup_t K_t >= 1/alpha) <= alpha: the audit may look
after every batch and stop at the first t where K_t >= 1/alpha, with the type I error still at most alpha
(optional stopping is free). Nothing here is asymptotic.

It stops with ``violated`` at the first such t, or with ``not-violated`` when ``max_samples`` draws per
dataset are spent. A violated verdict certifies only that the claim fails (eps_lower = claim.epsilon,
delta_lower = claim.delta, each strictly exceeded at the stated confidence); how far it fails is the fixed-size
audit's question. ``result.samples`` is the draws per dataset spent, pilot included.
"""
from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from ..claims import PrivacyClaim, Verdict
from ..errors import InvalidArgument
from ..validation import integer
from .draws import as_scalars, root_seed, scalar_outputs
from .intake import plan_audit
from .pairs import normalise_pairs
from .point import with_checks
from .result import AuditMethod, AuditResult, Direction, DirectionResult

__all__ = ["audit_anytime", "audit_sequential", "sequential_of", "PILOT", "BATCH"]

#: Pilot draws per dataset that choose the event (not counted in the wealth).
PILOT = 100
#: Paired draws per look.
BATCH = 16


def _scalar(outputs: Any, where: str) -> np.ndarray:
    return scalar_outputs(outputs, where, "the anytime test", "audit without sequential=True.")


def _choose(x: np.ndarray, y: np.ndarray, growth: float, delta: float) -> tuple:
    """(favours D, upper, threshold) of the half-line with the largest pilot E[Z] / sd(Z)."""
    cuts = np.unique(np.quantile(np.concatenate([x, y]), np.linspace(0.1, 0.9, 9)))
    best = (-math.inf, (True, True, float(cuts[0])))
    for upper in (True, False):
        for t in cuts:
            ex, ey = ((x > t), (y > t)) if upper else ((x <= t), (y <= t))
            for favours_d, (a, b) in ((True, (ex, ey)), (False, (ey, ex))):
                z = a.astype(float) - growth * b.astype(float) - delta
                score = z.mean() / (z.std() + 1e-9)
                if score > best[0]:
                    best = (score, (favours_d, upper, float(t)))
    return best[1]


def audit_anytime(mechanism: Any, pairs: Any, *, claim: PrivacyClaim, max_samples: int, confidence: float,
                  rng: Any = None) -> AuditResult:
    """The anytime-valid test (module docstring) on one pair, at most ``max_samples`` draws per dataset."""
    start = time.time()
    pairs = normalise_pairs(pairs)
    if len(pairs) != 1:
        raise InvalidArgument(f"sequential=True tests one pair; got {len(pairs)}. Give one pair (D, D').")
    max_samples = integer("max_samples", max_samples, minimum=PILOT + BATCH,
                          fix=f"The anytime test needs at least {PILOT + BATCH} draws per dataset.")
    d, dp = pairs[0]
    alpha = 1.0 - confidence
    growth = math.exp(claim.epsilon)
    pilot, stream = (np.random.default_rng(s) for s in root_seed(rng).spawn(2))
    first = (mechanism.sample(d, PILOT, pilot), mechanism.sample(dp, PILOT, pilot))
    x, y = as_scalars(first[0]), as_scalars(first[1])
    if claim.is_curve or x is None or y is None:
        return _learned_result(mechanism, d, dp, first, stream, claim, alpha, max_samples, confidence, pairs[0], start)
    favours_d, upper, t = _choose(x, y, growth, claim.delta)
    cap = 1.0 / (2.0 * (growth + claim.delta))
    log_wealth, total, s1, s2, n = 0.0, PILOT, 0.0, 0.0, 0
    stopped = False
    while total + BATCH <= max_samples and not stopped:
        a = _scalar(mechanism.sample(d, BATCH, stream), "D")
        b = _scalar(mechanism.sample(dp, BATCH, stream), "D'")
        ia, ib = ((a > t), (b > t)) if upper else ((a <= t), (b <= t))
        if not favours_d:
            ia, ib = ib, ia
        for z in ia.astype(float) - growth * ib.astype(float) - claim.delta:
            mean = s1 / n if n else 0.0
            var = s2 / n - mean * mean if n else 1.0
            lam = min(max(mean / (var + mean * mean + 1e-12), 0.0), cap) if n >= 2 else 0.0
            log_wealth += math.log1p(lam * z)
            s1, s2, n = s1 + z, s2 + z * z, n + 1
            if log_wealth >= math.log(1.0 / alpha):
                stopped = True
                break
        total += BATCH
    verdict = Verdict.VIOLATED if stopped else Verdict.NOT_VIOLATED
    direction = Direction.D_TO_D_PRIME if favours_d else Direction.D_PRIME_TO_D
    event = f"output {'>' if upper else '<='} {t:.6g}"
    eps_lower, delta_lower = (claim.epsilon, claim.delta) if stopped else (0.0, 0.0)
    note = (f"anytime-valid test (betting e-process): event {event} chosen on {PILOT} pilot draws per dataset; "
            f"wealth {math.exp(min(log_wealth, 700)):.4g} after {n} paired draws against 1/alpha = {1 / alpha:.4g}"
            + ("; stopped: the claim fails (eps_lower and delta_lower are the claim's, strictly exceeded)" if stopped
               else f"; {max_samples} draws per dataset spent without evidence against the claim"))
    dirs = (DirectionResult(0, direction, total, eps_lower, delta_lower, 0.0, 0, {"event": event}),)
    return AuditResult(verdict, eps_lower, delta_lower, 0.0, confidence, total, claim, 0, pairs[0], direction,
                       AuditMethod.BLACK_BOX, time.time() - start, dirs, (note,), event=event, stopped_early=stopped)


def _learned_result(mechanism, d, dp, first, stream, claim, alpha, max_samples, confidence, pair, start):
    """:func:`audit_anytime` for outputs that are not one number (:mod:`.anytime_learned`)."""
    from .anytime_learned import curve_points, run_learned  # deferred: the black-box encoding loads scipy

    bet = run_learned(mechanism, d, dp, first, stream, claim=claim, alpha=alpha, max_samples=max_samples,
                      start_total=PILOT)
    verdict = Verdict.VIOLATED if bet.stopped else Verdict.NOT_VIOLATED
    direction = Direction.D_TO_D_PRIME if bet.favours_d else Direction.D_PRIME_TO_D
    eps_lower, delta_lower = (claim.epsilon, claim.delta) if bet.stopped and not claim.is_curve else (0.0, 0.0)
    if claim.is_curve:
        points = curve_points(claim)
        where = (f"; the claimed curve is bet on at {len(points)} points eps' in [{points[0]:.4g}, {points[-1]:.4g}] "
                 f"(each batch's eps' chosen with its event; the last was {bet.epsilon:.4g})")
        stop = ("; stopped: the claimed curve fails at some eps' bet on (the wealth mixes them, so no single eps' is "
                "certified and eps_lower, delta_lower stay 0; the fixed-size curve audit says where and by how much)")
    else:
        where = ""
        stop = "; stopped: the claim fails (eps_lower and delta_lower are the claim's, strictly exceeded)"
    note = (f"anytime-valid test (betting e-process) with events learned from the draws so far (re-chosen "
            f"{bet.plans} times: exact-outcome sets in likelihood-ratio order and feature half-lines){where}; event "
            f"in force at the end: {bet.event}; wealth {math.exp(min(bet.log_wealth, 700)):.4g} after {bet.bets} "
            f"paired draws bet on, against 1/alpha = {1 / alpha:.4g}"
            + (stop if bet.stopped else f"; {max_samples} draws per dataset spent without evidence against the claim"))
    dirs = (DirectionResult(0, direction, bet.total, eps_lower, delta_lower, 0.0, 0, {"event": bet.event}),)
    return AuditResult(verdict, eps_lower, delta_lower, 0.0, confidence, bet.total, claim, 0, pair, direction,
                       AuditMethod.BLACK_BOX, time.time() - start, dirs, (note,), event=bet.event,
                       stopped_early=bet.stopped)


def sequential_of(keywords: dict) -> bool:
    """The ``sequential`` option popped from an audit's keyword options (False when absent; InvalidArgument
    unless True or False)."""
    sequential = keywords.pop("sequential", False)
    if not isinstance(sequential, bool):
        raise InvalidArgument(f"sequential={sequential!r} must be True or False.")
    return sequential


def audit_sequential(mechanism: Any, pairs: Any, claim: PrivacyClaim, rng: Any, options: Any) -> AuditResult:
    """:func:`dpverify.audit` with ``sequential=True``: the pairs read and checked by the intake, then
    :func:`audit_anytime` with ``samples`` as the most draws per dataset (other black-box options refused)."""
    if options.black:
        raise InvalidArgument(f"{options.black.describe()}: sequential=True takes no other black-box options. Drop them.")
    plan = plan_audit(mechanism, pairs, claim, rng, options)
    result = audit_anytime(plan.mechanism, list(plan.pairs), claim=claim, max_samples=plan.samples,
                           confidence=plan.confidence, rng=plan.rng)
    return with_checks(result, plan.checks)
