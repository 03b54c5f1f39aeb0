"""Importance sampling for small delta: a weighted estimator of delta(eps) with rigorous lower bounds.

**The estimator.** For a direction (D, D') the privacy profile is
delta(eps) = E_{o ~ p_D}[g_eps(o)] with g_eps = (1 - exp(eps - L))_+ and L = log p_D - log p_D'.
When delta is small (1e-6), plain Monte Carlo sees the event {L > eps} a handful of times. A
*proposal* q that puts its mass where g > 0 is sampled instead, and each draw carries the weight
w = p_D(o) / q(o):

    Y_i = w(o_i) g_eps(o_i),  o_i ~ q,    E_q[Y] = integral over {q > 0} of p_D g_eps  <=  delta(eps),

with equality when q > 0 wherever p_D g_eps > 0 (then the estimator is unbiased). A proposal that
misses part of the region only lowers the mean, so lower bounds stay valid for *any* proposal.

**The proposal protocol** (optional; documented in ``docs/auditing.md``): a mechanism may define
``proposal(data, data_prime, epsilon)`` returning an object with ``sample(size, rng)`` (outputs
stacked on axis 0, like ``Mechanism.sample``) and ``log_density(outputs)`` (log q, in the same base
measure as the mechanism's ``log_density``), or ``None`` when it has none for that pair.

**The bound (rigorous, no CLT).** The weights are unbounded in general, but a *lower* bound on a
mean of non-negative variables can truncate them: for a constant B > 0 chosen **before** the
certification sample (from an independent pilot sample), Z_i = min(Y_i, B) / B lies in [0, 1] and
E[Z] B <= E[Y]. Any lower confidence bound on E[Z] is therefore one on delta(eps). Two are used,
each at level alpha / 2, and the larger is reported (union bound):

* Hoeffding's Theorem 1, KL form (:func:`dpverify.auditing.bounds.kl_lower`), valid for every
  [0, 1]-valued law;
* the empirical Bernstein bound of Maurer & Pontil (2009, Theorem 4): for i.i.d. Z_i in [0, 1],
  n >= 2, with probability >= 1 - a,
  E Z >= mean(Z) - sqrt(2 V_n log(2/a) / n) - 7 log(2/a) / (3 (n - 1)), with V_n the sample
  variance (denominator n - 1). It adapts to the small variance that a good proposal achieves.

The pilot's only role is to choose B; a poor B (too small: truncation bias; too large: a wide
range term) costs power, never validity.

**Floating point, safe side.** Each log weight and each loss is lowered by the same kind of error
bound as in :mod:`dpverify.auditing.whitebox.losses`, so w and g are never overstated; the sums over the
sample subtract a round-off bound.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..errors import InvalidArgument, MechanismError, NumericalError
from ..messages import describe
from .bounds import kl_lower
from .draws import NO_ORIGIN, Origin, batch_plan, call_sampler, check_outputs
from .executor import run_batches
from .precision import refine_losses

__all__ = [
    "empirical_bernstein_lower",
    "WeightedSample",
    "weighted_direction_sample",
    "samples_for_resolution",
    "get_proposal",
    "truncated_lower",
]

_EPS = np.finfo(float).eps
_ULP_FACTOR = 64 * _EPS


def empirical_bernstein_lower(mean: float, variance: float, n: int, alpha: float) -> float:
    """Maurer & Pontil (2009, Thm 4) lower (1 - alpha) bound on E Z for i.i.d. Z in [0, 1].

    ``variance`` is the sample variance with denominator n - 1. Returns at least 0. For n < 2 the
    bound is void and 0 is returned.
    """
    if n < 2:
        return 0.0
    log_term = math.log(2.0 / alpha)
    width = math.sqrt(2.0 * max(variance, 0.0) * log_term / n) + 7.0 * log_term / (3.0 * (n - 1))
    return max(0.0, mean - width)


def truncated_lower(y: np.ndarray, n: int, bound: float, alpha: float) -> float:
    """Lower (1 - alpha) bound on E[Y] for Y >= 0 from ``y`` (the non-zero values of n draws).

    Truncates at ``bound`` (chosen independently of ``y``) and reports the larger of the
    Hoeffding-KL and the empirical Bernstein bounds, each at alpha / 2 (see the module docstring).
    """
    if y.size == 0:
        return 0.0
    z = np.minimum(y, bound) / bound
    s1 = float(z.sum())
    s2 = float(np.dot(z, z))
    round_off = (z.size + 4) * 2.5 * _EPS
    s1 = max(0.0, s1 * (1 - round_off))
    mean = min(1.0, s1 / n)
    var = max(0.0, (s2 * (1 + round_off) - n * mean * mean) / (n - 1)) if n > 1 else 0.0
    lo_kl = float(kl_lower(mean, n, alpha / 2))
    lo_eb = empirical_bernstein_lower(mean, var, n, alpha / 2)
    return bound * max(lo_kl, lo_eb)


def get_proposal(mechanism: Any, data: Any, data_prime: Any, epsilon: float, origin: Origin = NO_ORIGIN):
    """The mechanism's proposal for (data, data_prime) at ``epsilon``, or None if it offers none
    (a MechanismError, with ``origin``'s pair and direction, when it raises or returns no proposal)."""
    make = getattr(mechanism, "proposal", None)
    if not callable(make):
        return None
    try:
        prop = make(data, data_prime, epsilon)
    except Exception as exc:
        raise MechanismError(
            f"{describe(mechanism)}.proposal raised {type(exc).__name__}: {exc}; "
            f"data={describe(data)}, data_prime={describe(data_prime)}.", **origin.fields()
        ) from exc
    if prop is None:
        return None
    if not (callable(getattr(prop, "sample", None)) and callable(getattr(prop, "log_density", None))):
        raise MechanismError(
            f"{describe(mechanism)}.proposal returned {describe(prop)}, which lacks "
            "sample(size, rng) and log_density(outputs).", **origin.fields()
        )
    return prop


@dataclass(frozen=True)
class WeightedSample:
    """Losses and log weights of the draws with L > 0 (the others never contribute), out of ``n``.

    Both arrays are already lowered by their floating-point error bounds.
    """

    n: int
    loss: np.ndarray
    log_weight: np.ndarray
    recomputed: int = 0
    imprecise: int = 0

    def values(self, eps: float) -> np.ndarray:
        """Y = w g_eps for the draws with L > eps (the rest are 0)."""
        keep = self.loss > eps
        lo = self.loss[keep]
        with np.errstate(over="ignore", invalid="ignore"):
            g = np.where(lo == np.inf, 1.0, -np.expm1(eps - lo))
        return np.exp(self.log_weight[keep]) * g

    def estimate(self, eps: float) -> float:
        return float(self.values(eps).sum()) / self.n

    def lower(self, eps: float, bound: float, alpha: float) -> float:
        return truncated_lower(self.values(eps), self.n, bound, alpha)

    def infinite_values(self) -> np.ndarray:
        return np.exp(self.log_weight[self.loss == np.inf])

    def event_mass(self, eps: float) -> float:
        """The weighted estimate of P_D(L > eps), the probability of the violating event under D."""
        return float(np.exp(self.log_weight[self.loss > eps]).sum()) / self.n

    def variance(self, eps: float) -> float:
        """The sample variance (denominator n - 1) of Y = w g_eps over all n draws (zeros included)."""
        y = self.values(eps)
        if self.n < 2:
            return 0.0
        mean = float(y.sum()) / self.n
        return max(0.0, (float(np.dot(y, y)) - self.n * mean * mean) / (self.n - 1))

    def effective_sample_size(self, eps: float) -> float:
        """(sum Y)^2 / sum Y^2 over the draws, Y = w g_eps: the number of equally weighted draws of the
        event that the estimate of delta(eps) is worth (0 when no draw reached it)."""
        y = self.values(eps)
        s2 = float(np.dot(y, y))
        return float(y.sum()) ** 2 / s2 if s2 > 0 else 0.0


def _weighted_batch(mechanism, proposal, data, data_prime, size, seed, precision, origin: Origin = NO_ORIGIN):
    rng = np.random.default_rng(seed)
    where = f"data={describe(data)}, data_prime={describe(data_prime)} (proposal draws)"
    outputs = call_sampler(mechanism, lambda: proposal.sample(size, rng), where, what="proposal.sample",
                           origin=origin)
    outputs = check_outputs(mechanism, outputs, size, where, origin=origin)
    a = np.asarray(mechanism.log_density(outputs, data), dtype=float)
    b = np.asarray(mechanism.log_density(outputs, data_prime), dtype=float)
    q = np.asarray(proposal.log_density(outputs), dtype=float)
    for name, arr in (("log_density(., data)", a), ("log_density(., data_prime)", b), ("proposal.log_density", q)):
        if arr.shape != (size,):
            raise MechanismError(
                f"{describe(mechanism)}: {name} returned shape {arr.shape} for {size} outputs; "
                f"it must be ({size},); {where}.", **origin.fields()
            )
    bad = np.isnan(a) | np.isnan(b) | np.isnan(q) | (a == np.inf) | (b == np.inf) | (q == np.inf) | (q == -np.inf)
    if bad.any():
        i = int(np.argmax(bad))
        raise NumericalError(
            f"{describe(mechanism)}: at output {describe(np.asarray(outputs[i]))} the log "
            f"densities are {float(a[i])!r} (data), {float(b[i])!r} (data_prime), {float(q[i])!r} (proposal); {where}. NaN is never valid, "
            "and the proposal must give positive density to every output it samples."
        )
    fa, fb = np.isfinite(a), np.isfinite(b)
    a_abs = float(np.abs(a[fa]).max()) if fa.any() else 0.0
    b_abs = float(np.abs(b[fb]).max()) if fb.any() else 0.0
    q_abs = float(np.abs(q).max())
    err_l = _ULP_FACTOR * (a_abs + b_abs + 1.0)
    err_w = _ULP_FACTOR * (a_abs + q_abs + 1.0)
    with np.errstate(invalid="ignore"):
        loss = np.where(fa, a - b, -np.inf) - err_l  # outputs impossible under D never count (w = 0)
    log_w = np.where(fa, a - q, -np.inf) - err_w
    loss, recomputed, imprecise = refine_losses(mechanism, outputs, data, data_prime, a, b, loss, err_l,
                                                precision, origin=origin)
    keep = loss > 0
    return loss[keep], log_w[keep], recomputed, imprecise


def weighted_direction_sample(mechanism, proposal, data, data_prime, samples, seed, executor, precision,
                              progress=None, origin: Origin = NO_ORIGIN) -> WeightedSample:
    """Draw ``samples`` outputs from ``proposal`` in batches; keep the draws with L > 0 (``origin``: the
    direction's pair and name, for a MechanismError's fields)."""
    probe_seed, batches_seed = seed.spawn(2)
    probe = check_outputs(mechanism, proposal.sample(1, np.random.default_rng(probe_seed)), 1,
                          "proposal probe draw", origin=origin)
    per = max(1, int(probe[0].size) if probe.ndim > 1 else 1)
    plan = batch_plan(samples, per)
    seeds = batches_seed.spawn(len(plan.sizes))
    tasks = [(mechanism, proposal, data, data_prime, s, sd, precision, origin) for s, sd in zip(plan.sizes, seeds)]
    parts = run_batches(_weighted_batch, tasks, executor, progress)
    loss = np.concatenate([p[0] for p in parts])
    log_w = np.concatenate([p[1] for p in parts])
    return WeightedSample(samples, loss, log_w, sum(p[2] for p in parts), sum(p[3] for p in parts))


def samples_for_resolution(resolution: float, variance: float, bound: float, alpha: float) -> int:
    """Smallest n with sqrt(2 V log(2/a)/n) + 7 B log(2/a)/(3n) <= resolution (a = alpha/2), x 1.2.

    ``variance`` and ``bound`` describe Y = w g (or g for plain sampling) as a pilot saw them.
    """
    if not (resolution > 0):
        raise InvalidArgument(f"delta_resolution={resolution!r} must be > 0.")
    log_term = math.log(4.0 / alpha)
    a = 2.0 * max(variance, 0.0) * log_term
    b = 7.0 * bound * log_term / 3.0
    s = (-math.sqrt(a) + math.sqrt(a + 4.0 * b * resolution)) / (2.0 * b)
    return int(math.ceil(1.2 / (s * s))) + 2
