"""White-box engine: :func:`audit_white_box` reads as its phases.

plan (validated options, the alpha budget, every seed stream spawned up front)
-> proposals (the automatic translation tilt of each direction, from pilots of its own, when the
mechanism offers no proposal at a small delta: :mod:`dpverify.auditing.tilt`)
-> consistency thresholds (independent pilot draws, :mod:`~dpverify.auditing.whitebox.consistency`)
-> certify each direction (:mod:`~dpverify.auditing.whitebox.directions`: streamed summaries or kept
losses, through the executor, into estimators, :mod:`~dpverify.auditing.whitebox.estimators`)
-> density-sampler consistency and the check of the violating event
-> verdict and notes -> :class:`~dpverify.auditing.result.AuditResult`.

**Multiplicity.** With alpha = 1 - confidence and m = 2 * (number of pairs) directions:
the verdict's bound on delta(claim.epsilon) uses alpha / (2m); the epsilon lower bound uses the
fixed grid of G epsilons (:data:`~dpverify.auditing.whitebox.estimators.EPSILON_GRID`, plus
"infinity" for the mass of infinite losses), each at alpha / (2m(G + 1)). By the union bound every
reported bound holds simultaneously with probability >= confidence. The alpha budget is one frozen
value (:class:`WhiteBoxPlan`), computed once and passed down.
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...claims import PrivacyClaim, Verdict
from ...validation import integer, positive
from ...errors import InvalidArgument
from ...messages import describe
from ..draws import DEFAULT_MAX_SAMPLES, DIRECTIONS, Origin, root_seed
from ..executor import progress_wanted
from ..importance import samples_for_resolution, truncated_lower
from ..precision import PrecisionPolicy
from ..result import AuditResult, DirectionResult
from .consistency import (CONSISTENCY_ALPHA, MASS_CHECK_ALPHA, confirm_violations, confirmation_sizes,
                          describe_failure, pair_consistency, thresholds_for, violation_threshold)
from .directions import (PILOT_SAMPLES, ProposalSource, choose_tilts, direction, plain_pilot, proposal_source,
                         refuse_if_too_large, stream_directions)
from .estimators import EPSILON_GRID, StreamEstimates, epsilon_lower, profile_summary
from .losses import direction_losses

__all__ = ["audit_white_box", "WhiteBoxPlan", "CONSISTENCY_PILOT", "CONSISTENCY_SAMPLES", "TILT_SPAWN_KEY"]

#: Pilot draws per direction that choose the consistency thresholds (independent of the audit's).
CONSISTENCY_PILOT = 2_000
#: Plain draws per direction for the consistency check when the audit itself does not stream.
CONSISTENCY_SAMPLES = 200_000
#: The tilt pilots' seeds are children of the root's child with this spawn key, which ``root.spawn`` never
#: reaches: the audit's other streams (and the violating-event check's) are those of an audit without tilt.
TILT_SPAWN_KEY = 0x74696C74


@dataclass(frozen=True)
class WhiteBoxPlan:
    """Everything an audit fixes before its first draw: validated options, the directions
    ``(x, y)`` (D -> D' then D' -> D for each pair), the alpha budget, and the seed streams (each a
    list with one SeedSequence per direction, spawned from ``root`` in this order: certification,
    pilots, plain draws under importance sampling, consistency pilots, consistency draws). ``source``
    says where the importance proposal comes from; under the automatic tilt, ``tilt_seeds`` are the
    tilt pilots' (outside the root's spawned children, :data:`TILT_SPAWN_KEY`) and ``tilts`` the
    choice of each direction (filled by :func:`_choose_proposals`, which also sets ``use_is`` and
    ``streaming``)."""

    claim: PrivacyClaim
    pairs: tuple
    dirs: tuple
    samples: int
    confidence: float
    alpha: float
    alpha_point: float
    alpha_grid: float
    use_is: bool
    streaming: bool
    delta_resolution: float | None
    max_samples: int
    precision: Any
    root: Any
    seeds: tuple
    pilot_seeds: tuple
    plain_seeds: tuple
    check_seeds: tuple
    consistency_seeds: tuple
    eval_eps: np.ndarray
    source: ProposalSource = ProposalSource.NONE
    tilt_seeds: tuple = ()
    tilts: tuple = ()


def _plan(mechanism, pairs, claim, samples, confidence, rng, proposal, delta_resolution, max_samples, precision,
          profile) -> WhiteBoxPlan:
    """Validate the white-box options and spawn every seed stream (no draw yet)."""
    if delta_resolution is not None:
        delta_resolution = positive("delta_resolution", delta_resolution,
                                    fix="Ask for e.g. delta_resolution=claim.delta / 2.")
    max_samples = integer("max_samples", max_samples, minimum=2)
    if precision is not None and not isinstance(precision, PrecisionPolicy):
        raise InvalidArgument(f"precision={describe(precision)} must be a PrecisionPolicy or None.")
    source = proposal_source(mechanism, claim, proposal)
    use_is = source is ProposalSource.MECHANISM
    root = root_seed(rng)
    m = 2 * len(pairs)
    tilt_seeds = ()
    if source is ProposalSource.TILT:
        tilt_root = np.random.SeedSequence(root.entropy, spawn_key=tuple(root.spawn_key) + (TILT_SPAWN_KEY,),
                                           pool_size=root.pool_size)
        tilt_seeds = tuple(tilt_root.spawn(m))
    alpha = 1.0 - confidence
    streams = [tuple(root.spawn(m)) for _ in range(5)]  # certification, pilots, plain, consistency pilots, consistency
    dirs = tuple((d, dp) if j == 0 else (dp, d) for d, dp in pairs for j in range(2))
    return WhiteBoxPlan(claim, tuple(pairs), dirs, samples, confidence, alpha, alpha / (2 * m),
                        alpha / (2 * m * (len(EPSILON_GRID) + 1)), use_is, not use_is and not profile,
                        delta_resolution, max_samples, precision, root, *streams,
                        np.unique(np.append(EPSILON_GRID, claim.epsilon)), source, tilt_seeds)


def _choose_proposals(mechanism, plan: WhiteBoxPlan, profile: bool) -> WhiteBoxPlan:
    """Under the automatic tilt: each direction's TiltChoice, from its own pilot draws. The audit
    importance-samples the directions with a tilt; when none has one it streams plain draws, exactly
    as with ``proposal=False`` (the notes say why)."""
    if plan.source is not ProposalSource.TILT:
        return plan
    tilts = tuple(choose_tilts(mechanism, plan.dirs, plan.claim, plan.tilt_seeds,
                               [Origin.of(i) for i in range(len(plan.dirs))]))
    use_is = any(t.proposal is not None for t in tilts)
    return dataclasses.replace(plan, tilts=tilts, use_is=use_is, streaming=not use_is and not profile)


def _certify_streaming(mechanism, plan: WhiteBoxPlan, thresholds, executor, deadline, progress):
    """Plain Monte Carlo, streamed: (results, samples used, DirectionStats per direction, stopped?)."""
    claim = plan.claim
    counts = []
    for i, (x, y) in enumerate(plan.dirs):
        n = plan.samples
        if plan.delta_resolution is not None:
            var = plain_pilot(mechanism, x, y, plan.pilot_seeds[i], claim, PILOT_SAMPLES, plan.precision, Origin.of(i))
            n = samples_for_resolution(plan.delta_resolution, var, 1.0, plan.alpha_point)
        counts.append(n)
    capped = [n > plan.max_samples for n in counts]
    counts = [min(n, plan.max_samples) for n in counts]
    stats, stopped = stream_directions(
        mechanism, [(x, y, n, s, Origin.of(i)) for i, ((x, y), n, s) in enumerate(zip(plan.dirs, counts, plan.seeds))],
        plan.eval_eps, thresholds, executor, plan.precision, deadline, progress_wanted(progress, max(counts)))
    results, used = [], []
    for i, st in enumerate(stats):
        k, j = divmod(i, 2)
        est = StreamEstimates(st, plan.eval_eps)
        extra = {"method": "plain", "recomputed": st.recomputed, "imprecise": st.imprecise}
        if plan.delta_resolution is not None:
            extra["pilot_samples"] = PILOT_SAMPLES
        if capped[i]:
            extra["capped_at_max_samples"] = True
        if st.n == 0:
            results.append(DirectionResult(k, DIRECTIONS[j], 0, 0.0, 0.0, 0.0, 0, extra))
            used.append(0)
            continue
        eps_low = epsilon_lower(est, claim, plan.alpha_grid)
        inf_report = est.infinite_report(plan.alpha)
        extra["infinite_loss_probability"] = inf_report
        used.append(st.n)
        results.append(DirectionResult(k, DIRECTIONS[j], st.n, eps_low, est.lower(claim.epsilon, plan.alpha_point),
                                       est.estimate(claim.epsilon), inf_report["count"], extra))
    return results, used, stats, stopped


def _certify_kept(mechanism, plan: WhiteBoxPlan, executor, progress, profile, event_t=None):
    """Importance sampling or ``profile=True``: every loss kept per direction. (results, samples used).
    ``event_t``: the threshold of the violating event (None without the consistency check)."""
    claim = plan.claim
    results, used = [], []
    for k in range(len(plan.pairs)):
        for j in range(2):
            i = 2 * k + j
            x, y = plan.dirs[i]
            tilt = plan.tilts[i].proposal if plan.tilts else None
            use_is = plan.use_is if not plan.tilts else tilt is not None
            est, extra, n_dir = direction(mechanism, x, y, claim, plan.samples, plan.seeds[i], plan.pilot_seeds[i],
                                          executor, use_is, plan.delta_resolution, plan.max_samples,
                                          plan.alpha_point, plan.alpha_grid, plan.precision, progress, Origin.of(i),
                                          proposal=tilt)
            d_hat = est.estimate(claim.epsilon)
            d_low = float(est.lower(claim.epsilon, plan.alpha_point))  # a weighted estimate gives np.float64
            if extra.get("method") == "importance":
                # The proposal is tilted towards claim.epsilon, so its bounds are weak elsewhere on
                # the grid: certify epsilon_lower also from an independent plain sample and keep
                # the larger bound (the grid's alpha is split between the two: union bound).
                plain, _, _ = direction(mechanism, x, y, claim, plan.samples, plan.plain_seeds[i], None, executor,
                                        False, None, plan.max_samples, plan.alpha_point, plan.alpha_grid,
                                        plan.precision, None, Origin.of(i))
                eps_low = max(epsilon_lower(est, claim, plan.alpha_grid / 2),
                              epsilon_lower(plain, claim, plan.alpha_grid / 2))
                extra["epsilon_lower_from"] = "max(importance, plain) at alpha_grid/2 each"
                _weighted_extra(extra, est, claim, d_hat, d_low, plan, event_t)
                if tilt is not None:
                    extra["proposal"] = plan.tilts[i].describe()
            else:
                eps_low = epsilon_lower(est, claim, plan.alpha_grid)
            inf_report = est.infinite_report(plan.alpha)
            extra["infinite_loss_probability"] = inf_report
            if profile:
                extra["profile"] = profile_summary(est, claim, plan.alpha_point)
            used.append(n_dir)
            results.append(DirectionResult(k, DIRECTIONS[j], n_dir, eps_low, d_low, d_hat,
                                           inf_report["count"], extra))
    return results, used


def _weighted_extra(extra: dict, est, claim: PrivacyClaim, d_hat: float, d_low: float, plan: WhiteBoxPlan,
                    event_t) -> None:
    """What an importance-sampled direction adds to its record: the effective sample size of Y = w g,
    the weighted estimate of the violating event's probability under the first dataset (it sizes the
    check of that event, :func:`~dpverify.auditing.whitebox.consistency.confirmation_sizes`) and a lower
    bound on it at ``MASS_CHECK_ALPHA / (2 x directions)`` (the mass check of that event), and, when the
    estimate is above claim.delta but the bound is not, the draws the empirical Bernstein bound would
    need at the variance of Y seen here (``samples_to_resolve``)."""
    ws = est.sample
    extra["effective_sample_size"] = ws.effective_sample_size(claim.epsilon)
    extra["event_mass_estimate"] = ws.event_mass(claim.epsilon)
    if event_t is not None:
        alpha = MASS_CHECK_ALPHA / (2 * len(plan.dirs))
        vals = np.exp(ws.log_weight[ws.loss > event_t])
        extra["event_mass_lower"] = {"threshold": float(event_t), "lower": truncated_lower(
            vals, ws.n, extra["mass_truncation"], alpha), "alpha": alpha}
    if d_hat > claim.delta >= d_low:
        extra["samples_to_resolve"] = samples_for_resolution(d_hat - claim.delta, ws.variance(claim.epsilon),
                                                             est.bound, plan.alpha_point)


def _sizing_mass(r):
    """The P_x(event) that sizes a direction's violating-event check: under the automatic tilt the
    importance lower bound on the density's mass (when positive), so that an honest sampler is expected
    in the event at least CONFIRM_EXPECTED_EVENTS times *against that bound* (the mass check's power);
    otherwise the weighted estimate (None for plain directions)."""
    low = r.extra.get("event_mass_lower")
    if "proposal" in r.extra and low is not None and low["lower"] > 0:
        return low["lower"]
    return r.extra.get("event_mass_estimate")


def _consistency_thresholds(mechanism, plan: WhiteBoxPlan):
    """(thresholds, pilot losses per direction) of the density-sampler check, from independent pilots."""
    pilots = [direction_losses(mechanism, x, y, CONSISTENCY_PILOT, s, None, plan.precision, origin=Origin.of(i))[0]
              for i, ((x, y), s) in enumerate(zip(plan.dirs, plan.check_seeds))]
    return thresholds_for(plan.claim.epsilon, pilots), pilots


def _check_consistency(mechanism, plan: WhiteBoxPlan, stats, thresholds, executor):
    """The likelihood-ratio identity on every pair: (report, failures). ``stats``: the certifying
    draws' summaries when they streamed, else None (plain draws are made for the check)."""
    if stats is None:  # the certifying draws were not plain: draw plain ones for the check
        n_check = min(plan.samples, CONSISTENCY_SAMPLES)
        stats, _ = stream_directions(
            mechanism, [(x, y, n_check, s, Origin.of(i)) for i, ((x, y), s) in enumerate(zip(plan.dirs,
                                                                                            plan.consistency_seeds))],
            plan.eval_eps, thresholds, executor, plan.precision, None, None)
    tests = max(1, 2 * thresholds.size * len(plan.pairs))
    alpha_each = CONSISTENCY_ALPHA / (8 * tests)  # half of CONSISTENCY_ALPHA; the rest for confirm_violations
    failures, checks = [], []
    for k in range(len(plan.pairs)):
        f, c = pair_consistency(stats[2 * k], stats[2 * k + 1], thresholds, alpha_each, k)
        failures.extend(f)
        checks.extend(c)
    report = {
        "consistent": not failures, "false_alarm_rate": CONSISTENCY_ALPHA,
        "thresholds": thresholds, "draws_per_direction": [st.n for st in stats],
        "identity": "E_D[1{L > t} exp(-L)] = P_D'(L > t), L = log p_D - log p_D'",
        "failures": failures, "checks": len(checks)}
    return report, failures


def _verdict(results, claim, violating, failures, confirmation, stopped, used) -> Verdict:
    if failures:
        return Verdict.INCONSISTENT
    if violating and (confirmation is None or confirmation["confirmed"]):
        return Verdict.VIOLATED
    if violating:
        return Verdict.INCONCLUSIVE
    if any(r.delta_estimate > claim.delta for r in results) or (stopped and min(used) == 0):
        return Verdict.INCONCLUSIVE
    return Verdict.NOT_VIOLATED


def _tilt_notes(results, plan: WhiteBoxPlan) -> list[str]:
    """What the automatic tilt did in each direction."""
    notes = []
    if plan.tilts:
        parts = []
        for r, t in zip(results, plan.tilts):
            where = f"pair {r.pair_index} {r.direction}"
            if t.proposal is None:
                parts.append(f"{where}: {t.describe()}")
            else:
                ess = r.extra.get("effective_sample_size", 0.0)
                parts.append(f"{where}: {t.describe()}; effective sample size of w g {ess:.4g} of {r.samples} draws")
        notes.append("automatic importance proposal (a translation tilt of the mechanism's own sampler, chosen on "
                     "independent pilot draws) -- " + "; ".join(parts))
    return notes


def _resolution_notes(results, plan: WhiteBoxPlan, verdict: Verdict) -> list[str]:
    """For an inconclusive audit: the samples per direction that would resolve each direction whose estimate of
    delta is above the claim and whose bound is not, if delta is as estimated."""
    notes = []
    if verdict is Verdict.INCONCLUSIVE:
        for r in results:
            need = r.extra.get("samples_to_resolve")
            if need is not None:
                notes.append(
                    f"pair {r.pair_index} {r.direction}: the importance-sampled estimate of delta({plan.claim.epsilon:g}) "
                    f"is {r.delta_estimate:.4g} > claim delta {plan.claim.delta:.4g}, its lower bound {r.delta_lower:.4g} "
                    f"is not; if delta is as estimated, the empirical Bernstein bound (at the variance of the weighted "
                    f"values w g seen here) would clear the claim at about samples={need} per direction "
                    f"({r.samples} drawn)")
            elif r.extra.get("method") != "importance" and r.delta_estimate > plan.claim.delta >= r.delta_lower:
                # plain draws: g = (1 - e^(eps - L))_+ lies in [0, 1], so its variance is at most d (1 - d)
                d = min(max(r.delta_estimate, 0.0), 1.0)
                need = samples_for_resolution(d - plan.claim.delta, d * (1.0 - d), 1.0, plan.alpha_point)
                notes.append(
                    f"pair {r.pair_index} {r.direction}: the estimate of delta({plan.claim.epsilon:g}) is "
                    f"{r.delta_estimate:.4g} > claim delta {plan.claim.delta:.4g}, its lower bound {r.delta_lower:.4g} "
                    f"is not; if delta is as estimated, about samples={need} per direction would clear the claim "
                    f"(the empirical Bernstein bound at the largest variance a [0, 1] value of that mean can have; "
                    f"{r.samples} drawn)")
    return notes


def _notes(results, plan: WhiteBoxPlan, failures, confirmation, stopped, used, time_budget) -> list[str]:
    notes = []
    if failures:
        notes.append("log_density does not describe sample (no privacy verdict; the bounds below rest on the "
                     "density and are not evidence): " + describe_failure(failures[0])
                     + (f" (+{len(failures) - 1} more)" if len(failures) > 1 else ""))
    if confirmation is not None and confirmation["note"]:
        notes.append(confirmation["note"])
    if stopped:
        notes.append(f"stopped by time_budget={time_budget:g} s after {min(used)}..{max(used)} draws per "
                     "direction (of the requested samples); the bounds are those reached so far")
    recomputed = sum(r.extra["recomputed"] for r in results)
    imprecise = sum(r.extra["imprecise"] for r in results)
    if recomputed:
        notes.append(f"{recomputed} losses recomputed with mpmath (float64 error bound above tolerance)")
    if imprecise:
        notes.append(f"{imprecise} losses kept float64 safe-side rounding above the precision tolerance "
                     "(no log_density_mp, or over the per-batch limit)")
    if any(r.extra.get("capped_at_max_samples") for r in results):
        notes.append(f"the requested delta_resolution needed more than max_samples={plan.max_samples}; capped"
                     if plan.delta_resolution is not None else
                     f"samples={plan.samples} is above max_samples={plan.max_samples}; capped (raise max_samples to "
                     "draw more)")
    return notes


def audit_white_box(mechanism, pairs, *, claim: PrivacyClaim, samples: int, confidence: float,
                    rng=None, executor=None, proposal: Any = "auto", delta_resolution: float | None = None,
                    max_samples: int = DEFAULT_MAX_SAMPLES, progress: Any = None, precision: Any = None,
                    profile: bool = False, search: dict | None = None, time_budget: float | None = None,
                    consistency: bool = True, deadline: float | None = None) -> AuditResult:
    """White-box audit (see the module docstring and :mod:`dpverify.auditing.whitebox`); called by
    :func:`dpverify.audit`.

    ``proposal``: ``'auto'`` (for 0 < claim.delta <= 1e-3, importance sampling with the mechanism's
    ``proposal`` when it offers one, else with the automatic translation tilt, :mod:`dpverify.auditing.tilt`,
    falling back to plain draws where the tilt does not apply), ``'tilt'`` (the automatic tilt at any
    delta), True (the mechanism's own, required) or False (plain Monte Carlo). ``delta_resolution``:
    choose the number of samples per direction from a pilot so that the lower bound on
    delta(claim.epsilon) is within about this much of the estimate (at most ``max_samples``).
    ``precision``: a :class:`~dpverify.auditing.precision.PrecisionPolicy` (None: the default).
    ``profile``: keep a small loss histogram and delta(eps) curve per direction (for plots).
    ``time_budget``: seconds after which the plain draws stop (between batches) and the bounds
    reached so far are reported (the stop depends on the clock only, never on the outputs).
    ``consistency``: check ``log_density`` against ``sample`` (:mod:`dpverify.auditing.whitebox.consistency`);
    an inconsistent mechanism gets the verdict ``inconsistent`` instead of a privacy verdict.

    Plain Monte Carlo (the default unless importance sampling applies or ``profile=True``)
    streams: each batch becomes a fixed-size summary (:mod:`dpverify.auditing.streaming`), so
    memory does not grow with ``samples``. The other paths keep the losses in memory and are
    refused, with the estimate, when they would not fit.
    """
    start = time.perf_counter()
    if deadline is None and time_budget is not None:  # (``deadline``: the supervised audit's, time.monotonic())
        deadline = time.monotonic() + time_budget
    plan = _plan(mechanism, pairs, claim, samples, confidence, rng, proposal, delta_resolution, max_samples,
                 precision, profile)
    plan = _choose_proposals(mechanism, plan, profile)
    if not plan.streaming and delta_resolution is None:  # (with a resolution the count is chosen later, capped)
        refuse_if_too_large(samples, len(plan.dirs), plan.use_is)
    thresholds, pilots = _consistency_thresholds(mechanism, plan) if consistency else (np.zeros(0), None)
    stats, stopped = None, False
    if plan.streaming:
        results, used, stats, stopped = _certify_streaming(mechanism, plan, thresholds, executor, deadline, progress)
    else:
        event_t = violation_threshold(claim.epsilon, pilots) if consistency and plan.use_is else None
        results, used = _certify_kept(mechanism, plan, executor, progress, profile, event_t)
    report, failures, confirmation = None, [], None
    if consistency:
        report, failures = _check_consistency(mechanism, plan, stats, thresholds, executor)
    violating = [(r.pair_index, j % 2) for j, r in enumerate(results)
                 if r.delta_lower > claim.delta or r.epsilon_lower > claim.epsilon]
    if consistency and violating and not failures:  # the violating event, on fresh draws (consistency.py)
        sizes = confirmation_sizes(violating, {(r.pair_index, j % 2): _sizing_mass(r) for j, r in enumerate(results)},
                                   max(used), plan.max_samples,
                                   tilted=[(r.pair_index, j % 2) for j, r in enumerate(results) if "proposal" in r.extra])
        masses = {(r.pair_index, j % 2): r.extra["event_mass_lower"] for j, r in enumerate(results)
                  if "event_mass_lower" in r.extra}
        confirmation = confirm_violations(mechanism, pairs, violating, claim, plan.root, max(used), executor,
                                          plan.precision, pilots, deadline, sizes=sizes, masses=masses)
        failures.extend(confirmation["failures"])
        report.update(consistent=not failures, violating_event=confirmation)
    best = max(results, key=lambda r: (r.epsilon_lower, r.delta_lower))
    methods = sorted({r.extra["method"] for r in results})
    verdict = _verdict(results, claim, violating, failures, confirmation, stopped, used)
    return AuditResult(
        verdict=verdict,
        epsilon_lower=best.epsilon_lower,
        delta_lower=max(results, key=lambda r: r.delta_lower).delta_lower,
        delta_estimate=max(r.delta_estimate for r in results),
        confidence=confidence,
        samples=max(used),
        claim=claim,
        pair_index=best.pair_index,
        pair=pairs[best.pair_index],
        direction=best.direction,
        method="white-box" + ("" if methods == ["plain"] else " (" + ", ".join(
            "importance sampling" if mth == "importance" else "plain" for mth in methods) + ")"),
        seconds=time.perf_counter() - start,
        directions=tuple(results),
        notes=tuple(_notes(results, plan, failures, confirmation, stopped, used, time_budget)
                    + _tilt_notes(results, plan) + _resolution_notes(results, plan, verdict)),
        search=search,
        consistency=report,
        stopped_early=stopped,
    )
