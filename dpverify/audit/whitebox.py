"""White-box audit: Monte Carlo over the privacy loss, with Hoeffding-KL confidence bounds.

For a pair (D, D') and a direction, outputs o_i ~ M(D) give losses
L_i = log p_D(o_i) - log p_D'(o_i) (``+inf`` where o_i is impossible under D'). The privacy
profile is delta(eps) = E[(1 - exp(eps - L))_+], the mean of a [0, 1]-valued variable, so
Hoeffding's Theorem 1 (KL form, see :mod:`dpverify.audit.bounds`) gives confidence bounds.

**Floating point, safe side.** Each computed loss is lowered by an error bound
``64 * eps_machine * (max |log p_D| + max |log p_D'| + 1)`` (maxima over the batch) before use
(assumption: ``log_density`` is accurate to 32 ulps of its magnitude). The profile sums are formed in log space and their
round-off bound is subtracted. So a lower bound never rises because of rounding; a tight
mechanism (Laplace: L = eps exactly on half the mass) is not flagged by rounding noise.

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
from ..errors import MechanismError, NumericalError
from . import _runner
from .bounds import kl_lower
from .result import AuditResult, DirectionResult

__all__ = ["LossProfile", "EPSILON_GRID", "privacy_losses", "audit_white_box"]

#: The fixed grid of epsilons on which ``epsilon_lower`` is certified (data-independent).
EPSILON_GRID = np.exp(np.arange(math.log(1e-3), math.log(1e3), math.log(1.005)))
_ULP_FACTOR = 64 * np.finfo(float).eps


def _loss_batch(mechanism: Any, data: Any, data_prime: Any, size: int, seed: np.random.SeedSequence):
    """Draw ``size`` outputs from M(data) and return their losses, lowered by their error bound."""
    rng = np.random.default_rng(seed)
    where = f"data={_runner.describe(data)}, data_prime={_runner.describe(data_prime)}"
    try:
        outputs = mechanism.sample(data, size, rng)
    except MechanismError:
        raise
    except Exception as exc:
        raise MechanismError(
            f"{_runner.describe(mechanism)}.sample raised {type(exc).__name__}: {exc}; {where}."
        ) from exc
    outputs = _runner.check_outputs(mechanism, outputs, size, where)
    a = np.asarray(mechanism.log_density(outputs, data), dtype=float)
    b = np.asarray(mechanism.log_density(outputs, data_prime), dtype=float)
    for name, arr in (("data", a), ("data_prime", b)):
        if arr.shape != (size,):
            raise MechanismError(
                f"{_runner.describe(mechanism)}.log_density returned shape {arr.shape} for {size} "
                f"outputs under {name}; it must return one value per output, shape ({size},); {where}."
            )
    # Cheap screening by reductions (NaN propagates through sum/max); the detailed scan
    # runs only when something is off.
    a_sum, b_max = a.sum(), b.max()
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
    return loss


def _raise_bad_density(mechanism, outputs, a, b, where) -> None:
    bad = np.isnan(a) | np.isnan(b) | (a == np.inf) | (b == np.inf) | (a == -np.inf)
    i = int(np.argmax(bad))
    if a[i] == -np.inf:
        what = ("log_density(output, data) = -inf for an output sampled from data "
                "(the sampler and the density disagree on the support)")
    else:
        what = f"log_density returned {a[i]!r} under data and {b[i]!r} under data_prime"
    raise NumericalError(
        f"{_runner.describe(mechanism)}: {what}, at output {_runner.describe(outputs[i])}; {where}. "
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
    return _direction_losses(mechanism, data, data_prime, samples, root, executor)


def _direction_losses(mechanism, data, data_prime, samples, seed, executor) -> np.ndarray:
    probe_seed, batches_seed = seed.spawn(2)
    probe = _loss_probe_elements(mechanism, data, probe_seed)
    plan = _runner.batch_plan(samples, probe)
    seeds = batches_seed.spawn(len(plan.sizes))
    tasks = [(mechanism, data, data_prime, size, s) for size, s in zip(plan.sizes, seeds)]
    parts = _runner.run_batches(_loss_batch, tasks, executor)
    return np.concatenate(parts)


def _loss_probe_elements(mechanism, data, seed) -> int:
    """Elements per output, from one probe draw (which does not touch the batches' streams)."""
    where = f"data={_runner.describe(data)} (probe draw)"
    try:
        out = mechanism.sample(data, 1, np.random.default_rng(seed))
    except Exception as exc:
        raise MechanismError(
            f"{_runner.describe(mechanism)}.sample raised {type(exc).__name__}: {exc}; {where}."
        ) from exc
    arr = _runner.check_outputs(mechanism, out, 1, where)
    return max(1, int(arr[0].size) if arr.ndim > 1 else 1)


def _direction_bounds(profile: LossProfile, claim: PrivacyClaim, alpha_point: float, alpha_grid: float):
    """(epsilon_lower, delta_lower at claim.epsilon, delta_hat at claim.epsilon)."""
    n = profile.n
    d_hat = float(profile.delta_hat(claim.epsilon)[0])
    d_low = float(kl_lower(d_hat, n, alpha_point))
    # Infinite losses: delta(eps) >= P(L = inf) for every eps.
    inf_low = float(kl_lower(profile.infinite_fraction, n, alpha_grid))
    if inf_low > claim.delta:
        return math.inf, d_low, d_hat
    grid = EPSILON_GRID

    def violated_at(i: int) -> bool:
        dh = profile.delta_hat(grid[i])[0]
        return dh > claim.delta and float(kl_lower(dh, n, alpha_grid)) > claim.delta

    # delta_lower(eps) is non-increasing in eps: binary-search the last grid point violated.
    if not violated_at(0):
        return 0.0, d_low, d_hat
    lo, hi = 0, len(grid) - 1
    if violated_at(hi):
        return float(grid[hi]), d_low, d_hat
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if violated_at(mid):
            lo = mid
        else:
            hi = mid
    return float(grid[lo]), d_low, d_hat


def audit_white_box(mechanism, pairs, *, claim: PrivacyClaim, samples: int, confidence: float,
                    rng=None, executor=None) -> AuditResult:
    """White-box audit (see the module docstring); called by :func:`dpverify.audit`."""
    start = time.perf_counter()
    root = _runner.root_seed(rng)
    m = 2 * len(pairs)
    alpha = 1.0 - confidence
    alpha_point = alpha / (2 * m)
    alpha_grid = alpha / (2 * m * (len(EPSILON_GRID) + 1))
    seeds = root.spawn(len(pairs) * 2)
    results = []
    for k, (d, dp) in enumerate(pairs):
        for j, (x, y, name) in enumerate(((d, dp, "D->D'"), (dp, d, "D'->D"))):
            losses = _direction_losses(mechanism, x, y, samples, seeds[2 * k + j], executor)
            prof = LossProfile.from_losses(losses)
            eps_low, d_low, d_hat = _direction_bounds(prof, claim, alpha_point, alpha_grid)
            results.append(DirectionResult(k, name, samples, eps_low, d_low, d_hat, prof.infinite))
    best = max(results, key=lambda r: (r.epsilon_lower, r.delta_lower))
    worst_delta = max(results, key=lambda r: r.delta_lower)
    violated = any(r.delta_lower > claim.delta or r.epsilon_lower > claim.epsilon for r in results)
    if violated:
        verdict = Verdict.VIOLATED
    elif any(r.delta_estimate > claim.delta for r in results):
        verdict = Verdict.INCONCLUSIVE
    else:
        verdict = Verdict.NOT_VIOLATED
    k = best.pair_index
    return AuditResult(
        verdict=verdict,
        epsilon_lower=best.epsilon_lower,
        delta_lower=worst_delta.delta_lower,
        delta_estimate=max(r.delta_estimate for r in results),
        confidence=confidence,
        samples=samples,
        claim=claim,
        pair_index=k,
        pair=pairs[k],
        direction=best.direction,
        method="white-box",
        seconds=time.perf_counter() - start,
        directions=tuple(results),
    )
