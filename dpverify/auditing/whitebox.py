"""White-box audit: Monte Carlo over the privacy loss, with Hoeffding-KL confidence bounds.

For a pair (D, D') and a direction, outputs o_i ~ M(D) give losses
L_i = log p_D(o_i) - log p_D'(o_i) (``+inf`` where o_i is impossible under D'). The privacy
profile is delta(eps) = E[(1 - exp(eps - L))_+], the mean of a [0, 1]-valued variable, so
Hoeffding's Theorem 1 (KL form, see :mod:`dpverify.auditing.bounds`) gives confidence bounds.

**Floating point, safe side.** Each computed loss is lowered by an error bound
``64 * eps_machine * (max |log p_D| + max |log p_D'| + 1)`` (maxima over the batch) before use
(assumption: ``log_density`` is accurate to 32 ulps of its magnitude). The profile sums are formed in log space and their
round-off bound is subtracted. So a lower bound never rises because of rounding; a tight
mechanism (Laplace: L = eps exactly on half the mass) is not flagged by rounding noise.

**Small delta, precision.** With a mechanism ``proposal`` the draws come from it and carry
importance weights (:mod:`dpverify.auditing.importance`: truncated Hoeffding-KL / empirical Bernstein
bounds, rigorous for unbounded weights); imprecise or underflowed losses are recomputed with
mpmath when the mechanism offers ``log_density_mp`` (:mod:`dpverify.auditing.precision`); infinite
losses get a Clopper-Pearson interval. ``docs/auditing.md`` states every inequality.

**Multiplicity.** With alpha = 1 - confidence and m = 2 * (number of pairs) directions:
the verdict's bound on delta(claim.epsilon) uses alpha / (2m); the epsilon lower bound uses a
fixed grid of G epsilons (geometric, ratio 1.005, from 1e-3 to 1e3, plus "infinity" for the
mass of infinite losses), each at alpha / (2m(G + 1)). By the union bound every reported bound
holds simultaneously with probability >= confidence. The grid is fixed before any sampling, and
delta_lower(eps) is non-increasing in eps, so a binary search over it is exact.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..claims import PrivacyClaim, Verdict
from .._validate import integer, positive
from ..errors import InvalidArgument, MechanismError, NumericalError
from . import _runner
from ._progress import run_batches
from .bounds import clopper_pearson_lower, clopper_pearson_upper, kl_lower, kl_upper
from .precision import has_mp, refine_losses, underflow_rescue
from .result import AuditResult, DirectionResult

__all__ = ["LossProfile", "EPSILON_GRID", "privacy_losses", "audit_white_box"]

#: The fixed grid of epsilons on which ``epsilon_lower`` is certified (data-independent).
EPSILON_GRID = np.exp(np.arange(math.log(1e-3), math.log(1e3), math.log(1.005)))
_ULP_FACTOR = 64 * np.finfo(float).eps
#: ``proposal='auto'`` uses importance sampling only for claims with 0 < delta <= this.
AUTO_PROPOSAL_MAX_DELTA = 1e-3
#: Pilot draws (independent of the certification draws) for B and for ``delta_resolution``.
PILOT_SAMPLES = 20_000
#: Default cap on the samples per direction that ``delta_resolution`` may ask for.
DEFAULT_MAX_SAMPLES = _runner.DEFAULT_MAX_SAMPLES


def _loss_batch(mechanism: Any, data: Any, data_prime: Any, size: int, seed: np.random.SeedSequence,
                precision: Any = None):
    """Draw ``size`` outputs from M(data); return (losses lowered by their error bound, number
    recomputed at high precision, number still imprecise) -- see :mod:`dpverify.auditing.precision`."""
    return _loss_batch_parts(mechanism, data, data_prime, size, seed, precision)[:3]


def _stream_batch(mechanism: Any, data: Any, data_prime: Any, size: int, seed: np.random.SeedSequence,
                  precision: Any, eval_eps: np.ndarray, thresholds: np.ndarray):
    """One batch as a mergeable summary (:class:`~dpverify.auditing.streaming.DirectionStats`)."""
    from .streaming import batch_stats

    loss, recomputed, imprecise, a, b, outputs = _loss_batch_parts(mechanism, data, data_prime, size, seed,
                                                                   precision)
    return batch_stats(loss, a - b, eval_eps, thresholds, a, b, outputs, recomputed, imprecise)


def _loss_batch_parts(mechanism: Any, data: Any, data_prime: Any, size: int, seed: np.random.SeedSequence,
                      precision: Any = None):
    """(lowered losses, recomputed, imprecise, log p_D, log p_D', outputs) for ``size`` draws."""
    rng = np.random.default_rng(seed)
    where = f"data={_runner.describe(data)}, data_prime={_runner.describe(data_prime)}"
    outputs = _runner.call_sampler(mechanism, lambda: mechanism.sample(data, size, rng), where)
    outputs = _runner.check_outputs(mechanism, outputs, size, where)
    a = _call_log_density(mechanism, outputs, data, "data", where)
    b = _call_log_density(mechanism, outputs, data_prime, "data_prime", where)
    for name, arr in (("data", a), ("data_prime", b)):
        if arr.shape != (size,):
            raise MechanismError(
                f"{_runner.describe(mechanism)}.log_density returned shape {arr.shape} for {size} "
                f"outputs under {name}; it must return one value per output, shape ({size},); {where}."
            )
    # Cheap screening by reductions (NaN propagates through sum/max); the detailed scan
    # runs only when something is off.
    a_sum, b_max = a.sum(), b.max()
    under = 0
    if a_sum == -np.inf and has_mp(mechanism):  # a full-support density may underflow in a far tail
        a, under = underflow_rescue(mechanism, outputs, data, a, precision)
        a_sum = a.sum()
    if not (np.isfinite(a_sum) and not np.isnan(b_max) and b_max < np.inf):
        _raise_bad_density(mechanism, outputs, a, b, where)
    a_abs = max(-float(a.min()), float(a.max()))
    b_min = float(b.min())
    if b_min == -np.inf:  # support mismatch: those losses are +inf; bound the rest
        finite_b = b[np.isfinite(b)]
        b_abs = max(-float(finite_b.min()), float(b_max)) if finite_b.size else 0.0
    else:
        b_abs = max(-b_min, float(b_max))
    # Error bound of each loss (one scalar per batch, >= the per-output bound).
    err = _ULP_FACTOR * (a_abs + b_abs + 1.0)
    loss = a - b  # +inf where b = -inf
    loss -= err
    loss, recomputed, imprecise = refine_losses(mechanism, outputs, data, data_prime, a, b, loss, err, precision)
    return loss, recomputed + under, imprecise, a, b, outputs


def _call_log_density(mechanism: Any, outputs: np.ndarray, data: Any, name: str, where: str) -> np.ndarray:
    """``log_density(outputs, data)`` as a float array; MechanismError (naming the pair and the dataset)
    when it raises or returns something that is not numbers."""
    try:
        value = mechanism.log_density(outputs, data)
    except MechanismError:
        raise
    except Exception as exc:
        raise MechanismError(f"{_runner.describe(mechanism)}.log_density(outputs, {name}) raised "
                             f"{type(exc).__name__}: {exc}; {where}.") from exc
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise MechanismError(f"{_runner.describe(mechanism)}.log_density(outputs, {name}) returned "
                             f"{_runner.describe(value)}, which is not an array of numbers ({exc}); it must return "
                             f"one log density (a float, -inf outside the support) per output; {where}.") from None
    return arr


def _raise_bad_density(mechanism, outputs, a, b, where) -> None:
    bad = np.isnan(a) | np.isnan(b) | (a == np.inf) | (b == np.inf) | (a == -np.inf)
    i = int(np.argmax(bad))
    if a[i] == -np.inf:
        what = ("log_density(output, data) = -inf for an output sampled from data "
                "(the sampler and the density disagree on the support)")
    else:
        what = f"log_density returned {float(a[i])!r} under data and {float(b[i])!r} under data_prime"
    raise NumericalError(
        f"{_runner.describe(mechanism)}: {what}, at output {_runner.describe(np.asarray(outputs[i]))}; {where}. "
        "A log density must be finite on the support and -inf outside it; NaN is never valid."
    )


@dataclass(frozen=True)
class LossProfile:
    """The empirical privacy profile of one direction, from losses (already rounded down).

    ``delta_hat(eps)`` is the sample mean of (1 - exp(eps - L))_+ minus its round-off bound,
    computed from sorted positive losses and suffix log-sum-exps: O(log n) per epsilon.
    """

    n: int
    positive: np.ndarray  # sorted losses > 0 (may end in +inf)
    log_suffix: np.ndarray  # log sum_{j >= i} exp(-positive[j])
    infinite: int

    @classmethod
    def from_losses(cls, losses: np.ndarray) -> "LossProfile":
        pos = np.sort(losses[losses > 0])
        if pos.size:
            log_suffix = np.logaddexp.accumulate((-pos)[::-1])[::-1]
        else:
            log_suffix = pos.copy()
        return cls(int(losses.size), pos, log_suffix, int(np.count_nonzero(losses == np.inf)))

    def delta_hat(self, eps) -> np.ndarray:
        eps = np.atleast_1d(np.asarray(eps, dtype=float))
        out = np.zeros_like(eps)
        m = self.positive.size
        if m == 0:
            return out
        idx = np.searchsorted(self.positive, eps, side="right")
        cnt = m - idx
        has = cnt > 0
        safe_idx = np.minimum(idx, m - 1)
        with np.errstate(over="ignore"):
            tail = np.exp(eps + self.log_suffix[safe_idx])  # sum over L > eps of exp(eps - L), <= cnt
        tail = np.minimum(tail, cnt)
        roundoff = (m + 4) * 2.5 * np.finfo(float).eps * tail
        val = (cnt - tail - roundoff) / self.n
        out[has] = np.maximum(val[has], 0.0)
        return out

    @property
    def infinite_fraction(self) -> float:
        return self.infinite / self.n


def privacy_losses(mechanism, data, data_prime, samples: int, rng=None, executor=None) -> np.ndarray:
    """Losses L = log p_D(o) - log p_D'(o) for ``samples`` outputs o ~ M(data), rounded down."""
    samples = _runner.validate_samples(samples)
    root = _runner.root_seed(rng)
    return _direction_losses(mechanism, data, data_prime, samples, root, executor)[0]


def _direction_losses(mechanism, data, data_prime, samples, seed, executor, precision=None, progress=None):
    """(losses, recomputed, imprecise) for ``samples`` outputs drawn from M(data) in batches."""
    probe_seed, batches_seed = seed.spawn(2)
    probe = _loss_probe_elements(mechanism, data, probe_seed)
    plan = _runner.batch_plan(samples, probe)
    seeds = batches_seed.spawn(len(plan.sizes))
    tasks = [(mechanism, data, data_prime, size, s, precision) for size, s in zip(plan.sizes, seeds)]
    parts = run_batches(_loss_batch, tasks, executor, progress)
    return (np.concatenate([p[0] for p in parts]), sum(p[1] for p in parts), sum(p[2] for p in parts))


def _loss_probe_elements(mechanism, data, seed) -> int:
    """Elements per output, from one probe draw (which does not touch the batches' streams)."""
    where = f"data={_runner.describe(data)} (probe draw)"
    out = _runner.call_sampler(mechanism, lambda: mechanism.sample(data, 1, np.random.default_rng(seed)), where)
    arr = _runner.check_outputs(mechanism, out, 1, where)
    return max(1, int(arr[0].size) if arr.ndim > 1 else 1)


class _PlainEstimates:
    """delta(eps) estimates and Hoeffding-KL bounds from plain draws o ~ M(D)."""

    method = "plain"

    def __init__(self, profile: LossProfile):
        self.profile = profile
        self.n = profile.n

    def estimate(self, eps: float) -> float:
        return float(self.profile.delta_hat(eps)[0])

    def lower(self, eps: float, alpha: float) -> float:
        d = self.estimate(eps)
        return float(kl_lower(d, self.n, alpha)) if d > 0 else 0.0

    def upper(self, eps: float, alpha: float) -> float | None:
        return float(kl_upper(self.estimate(eps), self.n, alpha))

    def infinite_lower(self, alpha: float) -> float:
        return float(clopper_pearson_lower(self.profile.infinite, self.n, alpha))

    def infinite_report(self, alpha: float) -> dict:
        return _infinite_report(self.profile.infinite, self.n, alpha)

    def losses_for_plot(self) -> np.ndarray:
        return self.profile.positive

    def weights_for_plot(self) -> np.ndarray:
        return np.ones(self.profile.positive.size)


class _WeightedEstimates:
    """delta(eps) estimates and truncated KL / empirical-Bernstein bounds from proposal draws."""

    method = "importance"

    def __init__(self, sample, bound: float):
        self.sample = sample
        self.bound = bound
        self.n = sample.n

    def estimate(self, eps: float) -> float:
        return self.sample.estimate(eps)

    def lower(self, eps: float, alpha: float) -> float:
        return self.sample.lower(eps, self.bound, alpha)

    def upper(self, eps: float, alpha: float) -> float | None:
        return None  # unbounded weights: no finite-sample upper bound is claimed

    def infinite_lower(self, alpha: float) -> float:
        from .importance import truncated_lower

        return truncated_lower(self.sample.infinite_values(), self.n, self.bound, alpha)

    def infinite_report(self, alpha: float) -> dict:
        from .importance import truncated_lower

        vals = self.sample.infinite_values()
        return {"count": int(vals.size), "estimate": float(vals.sum()) / self.n,
                "lower": truncated_lower(vals, self.n, self.bound, alpha / 2), "upper": None,
                "level": 1 - alpha, "bound": "importance-weighted, truncated KL / empirical Bernstein"}

    def losses_for_plot(self) -> np.ndarray:
        return self.sample.loss

    def weights_for_plot(self) -> np.ndarray:
        return np.exp(self.sample.log_weight)


class _StreamEstimates(_PlainEstimates):
    """delta(eps) estimates and Hoeffding-KL bounds from streamed statistics (fixed eval points).

    ``estimate(eps)`` is the value at the smallest evaluation point >= eps (exact at the grid
    points and at claim.epsilon; elsewhere a lower value, since delta(eps) is non-increasing).
    """

    method = "plain"

    def __init__(self, stats, eval_eps: np.ndarray):
        self.stats = stats
        self.eval_eps = eval_eps
        self.means = stats.delta_mean()
        self.n = max(stats.n, 1)

    def estimate(self, eps: float) -> float:
        j = int(np.searchsorted(self.eval_eps, eps, side="left"))
        return float(self.means[j]) if j < self.means.size and self.stats.n else 0.0

    def infinite_lower(self, alpha: float) -> float:
        return float(clopper_pearson_lower(self.stats.infinite, self.n, alpha))

    def infinite_report(self, alpha: float) -> dict:
        return _infinite_report(self.stats.infinite, self.n, alpha)


def _infinite_report(k: int, n: int, alpha: float) -> dict:
    """The count of infinite losses with a two-sided Clopper-Pearson interval at level 1 - alpha."""
    return {"count": k, "estimate": k / n, "lower": float(clopper_pearson_lower(k, n, alpha / 2)),
            "upper": float(clopper_pearson_upper(k, n, alpha / 2)), "level": 1 - alpha,
            "bound": "Clopper-Pearson (exact binomial)"}


def _stream_directions(mechanism, directions, eval_eps, thresholds, executor, precision, deadline, progress):
    """Stream every direction's batches, interleaved (batch i of every direction before batch i + 1),
    merging each into its direction's summary; stop early (between chunks) at ``deadline``
    (time.monotonic(), or None). ``directions`` is a list of (x, y, samples, seed). Returns
    (list of DirectionStats, stopped early?)."""
    from .streaming import DirectionStats

    plans = []
    for x, y, n, seed in directions:
        probe_seed, batches_seed = seed.spawn(2)
        probe = _loss_probe_elements(mechanism, x, probe_seed)
        plan = _runner.batch_plan(n, probe)
        plans.append(list(zip(plan.sizes, batches_seed.spawn(len(plan.sizes)))))
    tasks = []
    for i in range(max((len(p) for p in plans), default=0)):
        for j, plan in enumerate(plans):
            if i < len(plan):
                x, y = directions[j][0], directions[j][1]
                tasks.append((j, (mechanism, x, y, plan[i][0], plan[i][1], precision, eval_eps, thresholds)))
    stats = [DirectionStats.empty(eval_eps.size, thresholds.size) for _ in directions]
    from . import distributed

    if distributed.is_dask_client(executor):
        return _stream_on_dask(executor, mechanism, directions, plans, stats, eval_eps, thresholds, precision,
                               deadline, progress)
    workers = getattr(executor, "_max_workers", 1) if executor is not None else 1
    chunk = 1 if executor is None else max(2, 2 * int(workers or 1))
    bar = _progress_bar(progress, len(tasks))
    stopped = False
    try:
        for start in range(0, len(tasks), chunk):
            part = tasks[start:start + chunk]
            outs = _runner.run_batches(_stream_batch, [t for _, t in part], executor)
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
    """:func:`_stream_directions` on a Dask cluster (:mod:`dpverify.auditing.distributed`): groups of
    consecutive batches of one direction per task, interleaved like the batches; same statistics."""
    from .distributed import group_size, share, stream_tasks, total_threads

    threads = total_threads(client)
    sizes = [group_size(len(plan), threads) for plan in plans]
    groups = [[plan[i:i + g] for i in range(0, len(plan), g)] for plan, g in zip(plans, sizes)]
    # the mechanism and the evaluation epsilons (a few KB to tens of KB) travel once per audit, not per task
    shared = [share(client, mechanism), share(client, eval_eps)]
    tasks = []
    for i in range(max((len(g) for g in groups), default=0)):
        for j, g in enumerate(groups):
            if i < len(g):
                x, y = directions[j][0], directions[j][1]
                tasks.append((j, (shared[0], x, y, g[i], precision, shared[1], thresholds)))

    def merge(j, st):
        stats[j] = stats[j].merge(st)

    bar = _progress_bar(progress, len(tasks))
    try:
        stopped = stream_tasks(client, tasks, merge, deadline, bar, threads=threads)
    finally:
        for fut in shared:
            fut.release()
        if bar is not None:
            bar(None, None)
    return stats, stopped


def _progress_bar(progress, total):
    """A ``tick(done, total)`` function (``tick(None, None)`` closes), or None for no progress."""
    if not progress:
        return None
    if callable(progress):
        return lambda done, tot: progress(done, tot) if done is not None else None
    from ._progress import _bar

    bar = _bar(total, "audit")
    if bar is None:
        return None
    state = {"done": 0}

    def tick(done, tot):
        if done is None:
            bar.close()
            return
        bar.update(done - state["done"])
        state["done"] = done

    return tick


def _epsilon_lower(est, claim: PrivacyClaim, alpha_grid: float) -> float:
    """Largest grid epsilon whose delta lower bound exceeds claim.delta (0 if none, inf for inf losses).

    delta_lower(eps) is non-increasing in eps (g_eps decreases pointwise and both bounds are
    monotone in the sample values), so a binary search over the fixed grid is exact.
    """
    if est.infinite_lower(alpha_grid) > claim.delta:
        return math.inf
    grid = EPSILON_GRID

    def violated_at(i: int) -> bool:
        return est.estimate(grid[i]) > claim.delta and est.lower(grid[i], alpha_grid) > claim.delta

    if not violated_at(0):
        return 0.0
    lo, hi = 0, len(grid) - 1
    if violated_at(hi):
        return float(grid[hi])
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if violated_at(mid):
            lo = mid
        else:
            hi = mid
    return float(grid[lo])


def _profile_summary(est, claim: PrivacyClaim, alpha_point: float, points: int = 48) -> dict:
    """A small description of the empirical loss distribution and delta(eps) curve, for plots."""
    losses = est.losses_for_plot()
    fin = np.isfinite(losses)
    finite, weights = losses[fin], est.weights_for_plot()[fin]
    top = max(2.0 * claim.epsilon, float(finite.max()) if finite.size else 1.0, 1e-2)
    eps = np.linspace(0.0, top, points)
    d_hat = [est.estimate(e) for e in eps]
    lo = [est.lower(e, alpha_point) for e in eps]
    up = [est.upper(e, alpha_point) for e in eps]
    if finite.size:
        hist, edges = np.histogram(finite, bins=60, weights=weights)
    else:
        hist, edges = np.zeros(0, dtype=int), np.zeros(0)
    return {"epsilon": eps, "delta_estimate": np.array(d_hat), "delta_lower": np.array(lo),
            "delta_upper": None if up[0] is None else np.array(up), "band_level": 1 - alpha_point,
            "histogram_counts": hist, "histogram_edges": edges, "histogram_total": est.n,
            "histogram_note": "P_D(L in bin), losses > 0" + ("; importance-weighted" if est.method == "importance" else "")}


def _want_proposal(mechanism, claim: PrivacyClaim, proposal) -> bool:
    if proposal is False or proposal is None:
        return False
    offered = callable(getattr(mechanism, "proposal", None))
    if proposal is True:
        if not offered:
            raise InvalidArgument(
                f"proposal=True but mechanism={_runner.describe(mechanism)} has no proposal(data, data_prime, "
                "epsilon) method; use proposal='auto' or False, or add one (see docs/auditing.md)."
            )
        return True
    if proposal == "auto":
        return offered and 0 < claim.delta <= AUTO_PROPOSAL_MAX_DELTA
    raise InvalidArgument(f"proposal={proposal!r} must be 'auto', True or False.")


def _plain_pilot(mechanism, x, y, seed, claim, n_pilot, precision):
    losses = _direction_losses(mechanism, x, y, n_pilot, seed, None, precision)[0]
    g = np.where(losses > claim.epsilon, -np.expm1(np.minimum(claim.epsilon - losses, 0.0)), 0.0)
    return float(np.var(g, ddof=1)) if n_pilot > 1 else 0.25


def _direction(mechanism, x, y, claim, samples, seed, pilot_seed, executor, use_is, delta_resolution,
               max_samples, alpha_point, alpha_grid, precision, progress):
    """One direction: returns (estimates object, extra dict, samples used)."""
    from .importance import get_proposal, samples_for_resolution, weighted_direction_sample

    extra: dict = {}
    prop = get_proposal(mechanism, x, y, claim.epsilon) if use_is else None
    if prop is None:
        if delta_resolution is not None:
            var = _plain_pilot(mechanism, x, y, pilot_seed, claim, PILOT_SAMPLES, precision)
            samples = samples_for_resolution(delta_resolution, var, 1.0, alpha_point)
            extra["pilot_samples"] = PILOT_SAMPLES
        capped = samples > max_samples
        samples = min(samples, max_samples)
        losses, recomputed, imprecise = _direction_losses(mechanism, x, y, samples, seed, executor, precision,
                                                          _progress_flag(progress, samples))
        est = _PlainEstimates(LossProfile.from_losses(losses))
    else:
        n_pilot = PILOT_SAMPLES if delta_resolution is not None else min(max(2_000, samples // 16), PILOT_SAMPLES)
        pilot = weighted_direction_sample(mechanism, prop, x, y, n_pilot, pilot_seed, None, precision)
        y_pilot = pilot.values(claim.epsilon)
        bound = 2.0 * float(y_pilot.max()) if y_pilot.size and y_pilot.max() > 0 else 1.0
        extra.update(pilot_samples=n_pilot, truncation=bound)
        if delta_resolution is not None:
            full = np.zeros(n_pilot)
            full[: y_pilot.size] = y_pilot
            samples = samples_for_resolution(delta_resolution, float(np.var(full, ddof=1)), bound, alpha_point)
        capped = samples > max_samples
        samples = min(samples, max_samples)
        ws = weighted_direction_sample(mechanism, prop, x, y, samples, seed, executor, precision,
                                       _progress_flag(progress, samples))
        est = _WeightedEstimates(ws, bound)
        recomputed, imprecise = ws.recomputed, ws.imprecise
    if capped:
        extra["capped_at_max_samples"] = True
    extra.update(method=est.method, recomputed=recomputed, imprecise=imprecise)
    return est, extra, samples


def _progress_flag(progress, samples):
    if progress is None:  # auto: long runs on an interactive terminal only
        import sys

        from ._progress import PROGRESS_THRESHOLD

        return samples >= PROGRESS_THRESHOLD and sys.stderr.isatty()
    return progress


def audit_white_box(mechanism, pairs, *, claim: PrivacyClaim, samples: int, confidence: float,
                    rng=None, executor=None, proposal: Any = "auto", delta_resolution: float | None = None,
                    max_samples: int = DEFAULT_MAX_SAMPLES, progress: Any = None, precision: Any = None,
                    profile: bool = False, search: dict | None = None, time_budget: float | None = None,
                    consistency: bool = True, deadline: float | None = None) -> AuditResult:
    """White-box audit (see the module docstring); called by :func:`dpverify.audit`.

    ``proposal``: ``'auto'`` (importance sampling when the mechanism offers ``proposal`` and
    0 < claim.delta <= 1e-3), True (required) or False (plain Monte Carlo). ``delta_resolution``:
    choose the number of samples per direction from a pilot so that the lower bound on
    delta(claim.epsilon) is within about this much of the estimate (at most ``max_samples``).
    ``precision``: a :class:`~dpverify.auditing.precision.PrecisionPolicy` (None: the default).
    ``profile``: keep a small loss histogram and delta(eps) curve per direction (for plots).
    ``time_budget``: seconds after which the plain draws stop (between batches) and the bounds
    reached so far are reported (the stop depends on the clock only, never on the outputs).
    ``consistency``: check ``log_density`` against ``sample`` (:mod:`dpverify.auditing.consistency`);
    an inconsistent mechanism gets the verdict ``inconsistent`` instead of a privacy verdict.

    Plain Monte Carlo (the default unless importance sampling applies or ``profile=True``)
    streams: each batch becomes a fixed-size summary (:mod:`dpverify.auditing.streaming`), so
    memory does not grow with ``samples``. The other paths keep the losses in memory and are
    refused, with the estimate, when they would not fit.
    """
    from .consistency import (CONSISTENCY_ALPHA, confirm_violations, describe_failure, pair_consistency,
                              thresholds_for)
    from .precision import PrecisionPolicy

    start = time.perf_counter()
    if deadline is None and time_budget is not None:  # (``deadline``: the supervised audit's, time.monotonic())
        deadline = time.monotonic() + time_budget
    if delta_resolution is not None:
        delta_resolution = positive("delta_resolution", delta_resolution,
                                    fix="Ask for e.g. delta_resolution=claim.delta / 2.")
    max_samples = integer("max_samples", max_samples, minimum=2)
    if precision is not None and not isinstance(precision, PrecisionPolicy):
        raise InvalidArgument(f"precision={_runner.describe(precision)} must be a PrecisionPolicy or None.")
    use_is = _want_proposal(mechanism, claim, proposal)
    streaming = not use_is and not profile
    root = _runner.root_seed(rng)
    m = 2 * len(pairs)
    alpha = 1.0 - confidence
    alpha_point = alpha / (2 * m)
    alpha_grid = alpha / (2 * m * (len(EPSILON_GRID) + 1))
    seeds = root.spawn(len(pairs) * 2)
    pilot_seeds = root.spawn(len(pairs) * 2)
    plain_seeds = root.spawn(len(pairs) * 2)  # plain draws for epsilon_lower under importance sampling
    check_seeds = root.spawn(len(pairs) * 2)  # pilots choosing the consistency thresholds
    consistency_seeds = root.spawn(len(pairs) * 2)  # consistency draws when the audit does not stream
    dirs = [(d, dp) if j == 0 else (dp, d) for d, dp in pairs for j in range(2)]
    names = ("D->D'", "D'->D")
    if not streaming and delta_resolution is None:  # (with a resolution the count is chosen later, capped)
        _refuse_if_too_large(samples, m, use_is)
    thresholds = np.zeros(0)
    if consistency:
        pilots = [_direction_losses(mechanism, x, y, CONSISTENCY_PILOT, s, None, precision)[0]
                  for (x, y), s in zip(dirs, check_seeds)]
        thresholds = thresholds_for(claim.epsilon, pilots)
    eval_eps = np.unique(np.append(EPSILON_GRID, claim.epsilon))
    results, used, stopped = [], [], False
    stream_stats = None
    if streaming:
        counts = []
        for i, (x, y) in enumerate(dirs):
            n = samples
            if delta_resolution is not None:
                var = _plain_pilot(mechanism, x, y, pilot_seeds[i], claim, PILOT_SAMPLES, precision)
                from .importance import samples_for_resolution

                n = samples_for_resolution(delta_resolution, var, 1.0, alpha_point)
            counts.append(n)
        capped = [n > max_samples for n in counts]
        counts = [min(n, max_samples) for n in counts]
        stream_stats, stopped = _stream_directions(
            mechanism, [(x, y, n, s) for (x, y), n, s in zip(dirs, counts, seeds)], eval_eps, thresholds,
            executor, precision, deadline, _progress_flag(progress, max(counts)))
        for i, st in enumerate(stream_stats):
            k, j = divmod(i, 2)
            est = _StreamEstimates(st, eval_eps)
            extra = {"method": "plain", "recomputed": st.recomputed, "imprecise": st.imprecise}
            if delta_resolution is not None:
                extra["pilot_samples"] = PILOT_SAMPLES
            if capped[i]:
                extra["capped_at_max_samples"] = True
            if st.n == 0:
                results.append(DirectionResult(k, names[j], 0, 0.0, 0.0, 0.0, 0, extra))
                used.append(0)
                continue
            eps_low = _epsilon_lower(est, claim, alpha_grid)
            inf_report = est.infinite_report(alpha)
            extra["infinite_loss_probability"] = inf_report
            used.append(st.n)
            results.append(DirectionResult(k, names[j], st.n, eps_low, est.lower(claim.epsilon, alpha_point),
                                           est.estimate(claim.epsilon), inf_report["count"], extra))
    else:
        for k, (d, dp) in enumerate(pairs):
            for j, (x, y) in enumerate(((d, dp), (dp, d))):
                est, extra, n_dir = _direction(mechanism, x, y, claim, samples, seeds[2 * k + j],
                                               pilot_seeds[2 * k + j], executor, use_is, delta_resolution,
                                               max_samples, alpha_point, alpha_grid, precision, progress)
                d_hat = est.estimate(claim.epsilon)
                d_low = est.lower(claim.epsilon, alpha_point)
                if extra.get("method") == "importance":
                    # The proposal is tilted towards claim.epsilon, so its bounds are weak elsewhere on
                    # the grid: certify epsilon_lower also from an independent plain sample and keep
                    # the larger bound (the grid's alpha is split between the two: union bound).
                    plain, _, _ = _direction(mechanism, x, y, claim, samples, plain_seeds[2 * k + j], None,
                                             executor, False, None, max_samples, alpha_point, alpha_grid,
                                             precision, None)
                    eps_low = max(_epsilon_lower(est, claim, alpha_grid / 2),
                                  _epsilon_lower(plain, claim, alpha_grid / 2))
                    extra["epsilon_lower_from"] = "max(importance, plain) at alpha_grid/2 each"
                else:
                    eps_low = _epsilon_lower(est, claim, alpha_grid)
                inf_report = est.infinite_report(alpha)
                extra["infinite_loss_probability"] = inf_report
                if profile:
                    extra["profile"] = _profile_summary(est, claim, alpha_point)
                used.append(n_dir)
                results.append(DirectionResult(k, names[j], n_dir, eps_low, d_low, d_hat,
                                               inf_report["count"], extra))
    # -- density-sampler consistency ----------------------------------------------------------
    consistency_report = None
    failures: list = []
    if consistency:
        if stream_stats is None:  # the certifying draws were not plain: draw plain ones for the check
            n_check = min(samples, CONSISTENCY_SAMPLES)
            stream_stats_c, _ = _stream_directions(
                mechanism, [(x, y, n_check, s) for (x, y), s in zip(dirs, consistency_seeds)], eval_eps,
                thresholds, executor, precision, None, None)
        else:
            stream_stats_c = stream_stats
        tests = max(1, 2 * thresholds.size * len(pairs))
        alpha_each = CONSISTENCY_ALPHA / (8 * tests)  # half of CONSISTENCY_ALPHA; the rest for confirm_violations
        checks = []
        for k in range(len(pairs)):
            f, c = pair_consistency(stream_stats_c[2 * k], stream_stats_c[2 * k + 1], thresholds, alpha_each, k)
            failures.extend(f)
            checks.extend(c)
        consistency_report = {
            "consistent": not failures, "false_alarm_rate": CONSISTENCY_ALPHA,
            "thresholds": thresholds, "draws_per_direction": [st.n for st in stream_stats_c],
            "identity": "E_D[1{L > t} exp(-L)] = P_D'(L > t), L = log p_D - log p_D'",
            "failures": failures, "checks": len(checks)}
    violating = [(r.pair_index, j % 2) for j, r in enumerate(results)
                 if r.delta_lower > claim.delta or r.epsilon_lower > claim.epsilon]
    confirmation = None
    if consistency and violating and not failures:  # the violating event, on fresh draws (consistency.py)
        confirmation = confirm_violations(mechanism, pairs, violating, claim, root, max(used), executor,
                                          precision, pilots, deadline)
        failures.extend(confirmation["failures"])
        consistency_report.update(consistent=not failures, violating_event=confirmation)
    if failures:
        verdict = Verdict.INCONSISTENT
    elif violating and (confirmation is None or confirmation["confirmed"]):
        verdict = Verdict.VIOLATED
    elif violating:
        verdict = Verdict.INCONCLUSIVE
    elif any(r.delta_estimate > claim.delta for r in results) or (stopped and min(used) == 0):
        verdict = Verdict.INCONCLUSIVE
    else:
        verdict = Verdict.NOT_VIOLATED
    best = max(results, key=lambda r: (r.epsilon_lower, r.delta_lower))
    worst_delta = max(results, key=lambda r: r.delta_lower)
    k = best.pair_index
    methods = sorted({r.extra["method"] for r in results})
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
        notes.append(f"the requested delta_resolution needed more than max_samples={max_samples}; capped"
                     if delta_resolution is not None else
                     f"samples={samples} is above max_samples={max_samples}; capped (raise max_samples to draw more)")
    return AuditResult(
        verdict=verdict,
        epsilon_lower=best.epsilon_lower,
        delta_lower=worst_delta.delta_lower,
        delta_estimate=max(r.delta_estimate for r in results),
        confidence=confidence,
        samples=max(used),
        claim=claim,
        pair_index=k,
        pair=pairs[k],
        direction=best.direction,
        method="white-box" + ("" if methods == ["plain"] else " (" + ", ".join(
            "importance sampling" if mth == "importance" else "plain" for mth in methods) + ")"),
        seconds=time.perf_counter() - start,
        directions=tuple(results),
        notes=tuple(notes),
        search=search,
        consistency=consistency_report,
        stopped_early=stopped,
    )


#: Pilot draws per direction that choose the consistency thresholds (independent of the audit's).
CONSISTENCY_PILOT = 2_000
#: Plain draws per direction for the consistency check when the audit itself does not stream.
CONSISTENCY_SAMPLES = 200_000
#: Bytes per sample and direction kept by the non-streaming paths (measured: ~35 plain, more with weights).
_BYTES_PER_KEPT_SAMPLE = 48


def available_memory() -> int | None:
    """Bytes of memory available to this process (MemAvailable on Linux), or None if unknown."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        import os

        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return None


def _refuse_if_too_large(samples: int, directions: int, use_is: bool) -> None:
    need = _BYTES_PER_KEPT_SAMPLE * samples * directions * (2 if use_is else 1)
    have = available_memory()
    if have is not None and need > 0.8 * have:
        raise InvalidArgument(
            f"samples={samples} would keep about {need / 2**30:.1f} GiB of losses in memory "
            f"({_BYTES_PER_KEPT_SAMPLE} bytes x {directions} directions{' x 2 (importance weights)' if use_is else ''}), "
            f"more than the {have / 2**30:.1f} GiB available. Importance sampling and profile=True keep "
            "every loss; use proposal=False and profile=False (plain audits stream in fixed memory), or fewer samples."
        )
