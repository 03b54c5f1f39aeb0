"""White-box runs of directions: the batches of every direction, through the executor, into estimators.

Two paths, chosen by the engine (:mod:`dpverify.auditing.whitebox.engine`):

* **streaming** (plain Monte Carlo without ``profile``): :func:`stream_directions` runs every
  direction's batches interleaved (batch i of every direction before batch i + 1), each batch a
  fixed-size summary merged exactly into its direction's
  :class:`~dpverify.auditing.streaming.DirectionStats` (memory does not grow with ``samples``); on
  a Dask client, groups of consecutive batches travel as one task
  (:func:`~dpverify.auditing.whitebox.losses.stream_group`, handed to
  :func:`dpverify.auditing.distributed.stream_tasks`);
* **kept** (importance sampling, or ``profile=True``): :func:`direction` keeps every loss of one
  direction (plain draws, or proposal draws with weights, :mod:`dpverify.auditing.importance`) and
  returns its estimator; :func:`refuse_if_too_large` refuses, with the estimate, a run that would
  not fit in memory.

``delta_resolution`` chooses the sample count from an independent pilot (:func:`plain_pilot`).

Where the proposal comes from (:func:`proposal_source`): the mechanism's own ``proposal``, or, for a
white-box mechanism without one, the automatic translation tilt (:mod:`dpverify.auditing.tilt`),
chosen per direction from pilot draws of its own (:func:`choose_tilts`).
"""
from __future__ import annotations

import enum
import time

import numpy as np

from ...claims import PrivacyClaim
from ...errors import InvalidArgument
from .. import distributed
from ...messages import describe
from ..draws import NO_ORIGIN, Origin, available_memory, batch_plan
from ..executor import progress_ticker, progress_wanted, run_batches
from ..importance import get_proposal, samples_for_resolution, weighted_direction_sample
from ..streaming import DirectionStats
from ..tilt import choose_tilt
from .estimators import LossProfile, PlainEstimates, WeightedEstimates
from .losses import direction_losses, probe_elements, stream_batch, stream_group

__all__ = ["AUTO_PROPOSAL_MAX_DELTA", "PILOT_SAMPLES", "BYTES_PER_KEPT_SAMPLE", "ProposalSource", "stream_directions",
           "direction", "plain_pilot", "proposal_source", "choose_tilts", "refuse_if_too_large"]

#: ``proposal='auto'`` uses importance sampling only for claims with 0 < delta <= this.
AUTO_PROPOSAL_MAX_DELTA = 1e-3
#: Pilot draws (independent of the certification draws) for B and for ``delta_resolution``.
PILOT_SAMPLES = 20_000
#: Bytes per sample and direction kept by the non-streaming paths (measured: ~35 plain, more with weights).
BYTES_PER_KEPT_SAMPLE = 48


def stream_directions(mechanism, directions, eval_eps, thresholds, executor, precision, deadline, progress):
    """Stream every direction's batches, interleaved (batch i of every direction before batch i + 1),
    merging each into its direction's summary; stop early (between chunks) at ``deadline``
    (time.monotonic(), or None). ``directions`` is a list of (x, y, samples, seed, origin). Returns
    (list of DirectionStats, stopped early?)."""
    plans = []
    for x, y, n, seed, origin in directions:
        probe_seed, batches_seed = seed.spawn(2)
        probe = probe_elements(mechanism, x, probe_seed, origin)
        plan = batch_plan(n, probe)
        plans.append(list(zip(plan.sizes, batches_seed.spawn(len(plan.sizes)))))
    tasks = []
    for i in range(max((len(p) for p in plans), default=0)):
        for j, plan in enumerate(plans):
            if i < len(plan):
                x, y, origin = directions[j][0], directions[j][1], directions[j][4]
                tasks.append((j, (mechanism, x, y, plan[i][0], plan[i][1], precision, eval_eps, thresholds, origin)))
    stats = [DirectionStats.empty(eval_eps.size, thresholds.size) for _ in directions]
    if distributed.is_dask_client(executor):
        return _stream_on_dask(executor, mechanism, directions, plans, stats, eval_eps, thresholds, precision,
                               deadline, progress)
    workers = getattr(executor, "_max_workers", 1) if executor is not None else 1
    chunk = 1 if executor is None else max(2, 2 * int(workers or 1))
    bar = progress_ticker(progress, len(tasks))
    stopped = False
    try:
        for start in range(0, len(tasks), chunk):
            part = tasks[start:start + chunk]
            outs = run_batches(stream_batch, [t for _, t in part], executor)
            for (j, _), st in zip(part, outs):
                stats[j] = stats[j].merge(st)
            if bar is not None:
                bar(start + len(part), len(tasks))
            if deadline is not None and time.monotonic() >= deadline and start + chunk < len(tasks):
                stopped = True
                break
    finally:
        if bar is not None:
            bar(None, None)
    return stats, stopped


def _stream_on_dask(client, mechanism, directions, plans, stats, eval_eps, thresholds, precision, deadline,
                    progress):
    """:func:`stream_directions` on a Dask cluster (:mod:`dpverify.auditing.distributed`): groups of
    consecutive batches of one direction per task, interleaved like the batches; same statistics."""
    threads = distributed.total_threads(client)
    sizes = [distributed.group_size(len(plan), threads) for plan in plans]
    groups = [[plan[i:i + g] for i in range(0, len(plan), g)] for plan, g in zip(plans, sizes)]
    # the mechanism and the evaluation epsilons (a few KB to tens of KB) travel once per audit, not per task
    shared = [distributed.share(client, mechanism), distributed.share(client, eval_eps)]
    tasks = []
    for i in range(max((len(g) for g in groups), default=0)):
        for j, g in enumerate(groups):
            if i < len(g):
                x, y, origin = directions[j][0], directions[j][1], directions[j][4]
                tasks.append((j, (shared[0], x, y, g[i], precision, shared[1], thresholds, origin)))

    def merge(j, st):
        stats[j] = stats[j].merge(st)

    bar = progress_ticker(progress, len(tasks))
    try:
        stopped = distributed.stream_tasks(client, tasks, merge, deadline, bar, func=stream_group, threads=threads)
    finally:
        for fut in shared:
            fut.release()
        if bar is not None:
            bar(None, None)
    return stats, stopped


class ProposalSource(enum.Enum):
    """Where a white-box audit's importance proposal comes from."""

    NONE = "none"            # plain Monte Carlo
    MECHANISM = "mechanism"  # the mechanism's own proposal(data, data_prime, epsilon)
    TILT = "tilt"            # the automatic translation tilt (dpverify.auditing.tilt)


def proposal_source(mechanism, claim: PrivacyClaim, proposal) -> ProposalSource:
    """The proposal an audit uses: ``proposal`` False/None: none; True: the mechanism's (InvalidArgument
    when it offers none); ``'tilt'``: the automatic translation tilt, at any delta; ``'auto'``: for
    0 < claim.delta <= :data:`AUTO_PROPOSAL_MAX_DELTA`, the mechanism's when it offers one, else the
    tilt; outside that range, none."""
    if proposal is False or proposal is None:
        return ProposalSource.NONE
    offered = callable(getattr(mechanism, "proposal", None))
    if proposal is True:
        if not offered:
            raise InvalidArgument(
                f"proposal=True but mechanism={describe(mechanism)} has no proposal(data, data_prime, "
                "epsilon) method; use proposal='auto' or False, or add one (see docs/auditing.md)."
            )
        return ProposalSource.MECHANISM
    if isinstance(proposal, str) and proposal == "tilt":
        return ProposalSource.TILT
    if isinstance(proposal, str) and proposal == "auto":
        if not 0 < claim.delta <= AUTO_PROPOSAL_MAX_DELTA:
            return ProposalSource.NONE
        return ProposalSource.MECHANISM if offered else ProposalSource.TILT
    raise InvalidArgument(f"proposal={proposal!r} must be 'auto', 'tilt', True or False.")


def choose_tilts(mechanism, dirs, claim: PrivacyClaim, seeds, origins):
    """The translation tilt of every direction ``(x, y)`` (:func:`dpverify.auditing.tilt.choose_tilt`), each
    from its own pilot seed: a list of TiltChoice (``proposal`` None where the tilt does not apply)."""
    return [choose_tilt(mechanism, x, y, claim.epsilon, s, origin=o) for (x, y), s, o in zip(dirs, seeds, origins)]


def plain_pilot(mechanism, x, y, seed, claim, n_pilot, precision, origin: Origin = NO_ORIGIN):
    """The sample variance of g = (1 - exp(eps - L))_+ at claim.epsilon on ``n_pilot`` independent plain
    draws (0.25, the largest possible, for a single draw): it sizes a run for ``delta_resolution``."""
    losses = direction_losses(mechanism, x, y, n_pilot, seed, None, precision, origin=origin)[0]
    g = np.where(losses > claim.epsilon, -np.expm1(np.minimum(claim.epsilon - losses, 0.0)), 0.0)
    return float(np.var(g, ddof=1)) if n_pilot > 1 else 0.25


def direction(mechanism, x, y, claim, samples, seed, pilot_seed, executor, use_is, delta_resolution,
              max_samples, alpha_point, alpha_grid, precision, progress, origin: Origin = NO_ORIGIN, proposal=None):
    """One direction, every loss kept: returns (estimates object, extra dict, samples used). ``proposal``:
    a ready proposal object (the tilt's); None: the mechanism's own when ``use_is``."""
    extra: dict = {}
    prop = proposal if proposal is not None else (get_proposal(mechanism, x, y, claim.epsilon, origin) if use_is
                                                  else None)
    if prop is None:
        if delta_resolution is not None:
            var = plain_pilot(mechanism, x, y, pilot_seed, claim, PILOT_SAMPLES, precision, origin)
            samples = samples_for_resolution(delta_resolution, var, 1.0, alpha_point)
            extra["pilot_samples"] = PILOT_SAMPLES
        capped = samples > max_samples
        samples = min(samples, max_samples)
        losses, recomputed, imprecise = direction_losses(mechanism, x, y, samples, seed, executor, precision,
                                                         progress_wanted(progress, samples), origin)
        est = PlainEstimates(LossProfile.from_losses(losses))
    else:
        n_pilot = PILOT_SAMPLES if delta_resolution is not None else min(max(2_000, samples // 16), PILOT_SAMPLES)
        pilot = weighted_direction_sample(mechanism, prop, x, y, n_pilot, pilot_seed, None, precision, None, origin)
        y_pilot = pilot.values(claim.epsilon)
        bound = 2.0 * float(y_pilot.max()) if y_pilot.size and y_pilot.max() > 0 else 1.0
        extra.update(pilot_samples=n_pilot, truncation=bound)
        w_event = np.exp(pilot.log_weight[pilot.loss > claim.epsilon])  # B of w 1{L > eps}, for the mass check
        extra["mass_truncation"] = 2.0 * float(w_event.max()) if w_event.size and w_event.max() > 0 else 1.0
        if delta_resolution is not None:
            full = np.zeros(n_pilot)
            full[: y_pilot.size] = y_pilot
            samples = samples_for_resolution(delta_resolution, float(np.var(full, ddof=1)), bound, alpha_point)
        capped = samples > max_samples
        samples = min(samples, max_samples)
        ws = weighted_direction_sample(mechanism, prop, x, y, samples, seed, executor, precision,
                                       progress_wanted(progress, samples), origin)
        est = WeightedEstimates(ws, bound)
        recomputed, imprecise = ws.recomputed, ws.imprecise
    if capped:
        extra["capped_at_max_samples"] = True
    extra.update(method=est.method, recomputed=recomputed, imprecise=imprecise)
    return est, extra, samples


def refuse_if_too_large(samples: int, directions: int, use_is: bool) -> None:
    """InvalidArgument, with the estimate, when the kept losses of a non-streaming run would take more
    than 80 % of the available memory."""
    need = BYTES_PER_KEPT_SAMPLE * samples * directions * (2 if use_is else 1)
    have = available_memory()
    if have is not None and need > 0.8 * have:
        raise InvalidArgument(
            f"samples={samples} would keep about {need / 2**30:.1f} GiB of losses in memory "
            f"({BYTES_PER_KEPT_SAMPLE} bytes x {directions} directions{' x 2 (importance weights)' if use_is else ''}), "
            f"more than the {have / 2**30:.1f} GiB available. Importance sampling and profile=True keep "
            "every loss; use proposal=False and profile=False (plain audits stream in fixed memory), or fewer samples."
        )
