"""White-box losses: draw a batch from M(D) and evaluate L = log p_D - log p_D'.

For a pair (D, D') and a direction, outputs o_i ~ M(D) give losses
L_i = log p_D(o_i) - log p_D'(o_i) (``+inf`` where o_i is impossible under D'), computed per batch
(:func:`loss_batch_parts`) from the batch's own seed (:mod:`dpverify.auditing.draws`).

**Floating point, safe side.** Each computed loss is lowered by an error bound
``64 * eps_machine * (max |log p_D| + max |log p_D'| + 1)`` (maxima over the batch) before use
(assumption: ``log_density`` is accurate to 32 ulps of its magnitude), so a lower bound built on
them never rises because of rounding. Imprecise or underflowed losses are recomputed with mpmath
when the mechanism offers ``log_density_mp`` (:mod:`dpverify.auditing.precision`).

A batch leaves this stage either as its losses (:func:`loss_batch`, kept by the paths that need every
loss) or as a mergeable summary (:func:`stream_batch`, a
:class:`~dpverify.auditing.streaming.DirectionStats`); :func:`stream_group` is the Dask task (several
consecutive batches of one direction, merged on the worker), passed to
:func:`dpverify.auditing.distributed.stream_tasks` by the tester.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import MechanismError, NumericalError
from ...messages import describe
from ..draws import NO_ORIGIN, Origin, batch_plan, call_sampler, check_outputs, root_seed, validate_samples
from ..executor import run_batches
from ..precision import has_mp, refine_losses, underflow_rescue
from ..streaming import batch_stats

__all__ = ["ULP_FACTOR", "loss_batch", "loss_batch_parts", "stream_batch", "stream_group", "probe_elements",
           "direction_losses", "privacy_losses"]

#: Relative error assumed of each log density (32 ulps of its magnitude, twice: one per dataset).
ULP_FACTOR = 64 * np.finfo(float).eps


def loss_batch(mechanism: Any, data: Any, data_prime: Any, size: int, seed: np.random.SeedSequence,
               precision: Any = None, origin: Origin = NO_ORIGIN):
    """Draw ``size`` outputs from M(data); return (losses lowered by their error bound, number
    recomputed at high precision, number still imprecise) -- see :mod:`dpverify.auditing.precision`."""
    return loss_batch_parts(mechanism, data, data_prime, size, seed, precision, origin)[:3]


def stream_batch(mechanism: Any, data: Any, data_prime: Any, size: int, seed: np.random.SeedSequence,
                 precision: Any, eval_eps: np.ndarray, thresholds: np.ndarray, origin: Origin = NO_ORIGIN):
    """One batch as a mergeable summary (:class:`~dpverify.auditing.streaming.DirectionStats`)."""
    loss, recomputed, imprecise, a, b, outputs = loss_batch_parts(mechanism, data, data_prime, size, seed,
                                                                  precision, origin)
    return batch_stats(loss, a - b, eval_eps, thresholds, a, b, outputs, recomputed, imprecise)


def loss_batch_parts(mechanism: Any, data: Any, data_prime: Any, size: int, seed: np.random.SeedSequence,
                     precision: Any = None, origin: Origin = NO_ORIGIN):
    """(lowered losses, recomputed, imprecise, log p_D, log p_D', outputs) for ``size`` draws.

    A MechanismError raised here carries ``origin``'s pair and direction."""
    rng = np.random.default_rng(seed)
    where = f"data={describe(data)}, data_prime={describe(data_prime)}"
    outputs = call_sampler(mechanism, lambda: mechanism.sample(data, size, rng), where, origin=origin)
    outputs = check_outputs(mechanism, outputs, size, where, origin=origin)
    a = _call_log_density(mechanism, outputs, data, "data", where, origin)
    b = _call_log_density(mechanism, outputs, data_prime, "data_prime", where, origin)
    for name, arr in (("data", a), ("data_prime", b)):
        if arr.shape != (size,):
            raise MechanismError(
                f"{describe(mechanism)}.log_density returned shape {arr.shape} for {size} "
                f"outputs under {name}; it must return one value per output, shape ({size},); {where}.",
                **origin.fields())
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
    err = ULP_FACTOR * (a_abs + b_abs + 1.0)
    loss = a - b  # +inf where b = -inf
    loss -= err
    loss, recomputed, imprecise = refine_losses(mechanism, outputs, data, data_prime, a, b, loss, err, precision,
                                                origin=origin)
    return loss, recomputed + under, imprecise, a, b, outputs


def _call_log_density(mechanism: Any, outputs: np.ndarray, data: Any, name: str, where: str,
                      origin: Origin) -> np.ndarray:
    """``log_density(outputs, data)`` as a float array; MechanismError (naming the pair and the dataset)
    when it raises or returns something that is not numbers."""
    try:
        value = mechanism.log_density(outputs, data)
    except MechanismError:
        raise
    except Exception as exc:
        raise MechanismError(f"{describe(mechanism)}.log_density(outputs, {name}) raised "
                             f"{type(exc).__name__}: {exc}; {where}.", **origin.fields()) from exc
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise MechanismError(f"{describe(mechanism)}.log_density(outputs, {name}) returned "
                             f"{describe(value)}, which is not an array of numbers ({exc}); it must return "
                             f"one log density (a float, -inf outside the support) per output; {where}.",
                             **origin.fields()) from None
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
        f"{describe(mechanism)}: {what}, at output {describe(np.asarray(outputs[i]))}; {where}. "
        "A log density must be finite on the support and -inf outside it; NaN is never valid."
    )


def privacy_losses(mechanism, data, data_prime, samples: int, rng=None, executor=None) -> np.ndarray:
    """Losses L = log p_D(o) - log p_D'(o) for ``samples`` outputs o ~ M(data), rounded down."""
    samples = validate_samples(samples)
    root = root_seed(rng)
    return direction_losses(mechanism, data, data_prime, samples, root, executor)[0]


def direction_losses(mechanism, data, data_prime, samples, seed, executor, precision=None, progress=None,
                     origin: Origin = NO_ORIGIN):
    """(losses, recomputed, imprecise) for ``samples`` outputs drawn from M(data) in batches (a probe
    draw first, from its own child of ``seed``, sizes the batches; each batch has its own grandchild)."""
    probe_seed, batches_seed = seed.spawn(2)
    probe = probe_elements(mechanism, data, probe_seed, origin)
    plan = batch_plan(samples, probe)
    seeds = batches_seed.spawn(len(plan.sizes))
    tasks = [(mechanism, data, data_prime, size, s, precision, origin) for size, s in zip(plan.sizes, seeds)]
    parts = run_batches(loss_batch, tasks, executor, progress)
    return (np.concatenate([p[0] for p in parts]), sum(p[1] for p in parts), sum(p[2] for p in parts))


def probe_elements(mechanism, data, seed, origin: Origin = NO_ORIGIN) -> int:
    """Elements per output, from one probe draw (which does not touch the batches' streams)."""
    where = f"data={describe(data)} (probe draw)"
    out = call_sampler(mechanism, lambda: mechanism.sample(data, 1, np.random.default_rng(seed)), where,
                       origin=origin)
    arr = check_outputs(mechanism, out, 1, where, origin=origin)
    return max(1, int(arr[0].size) if arr.ndim > 1 else 1)


def stream_group(mechanism, data, data_prime, batches, precision, eval_eps, thresholds, origin: Origin = NO_ORIGIN):
    """Dask task: the merged summary of consecutive white-box batches ``[(size, seed), ...]`` of one
    direction (:func:`stream_batch` of each, merged in order; merging is exact)."""
    out = None
    for size, seed in batches:
        st = stream_batch(mechanism, data, data_prime, size, seed, precision, eval_eps, thresholds, origin)
        out = st if out is None else out.merge(st)
    return out
