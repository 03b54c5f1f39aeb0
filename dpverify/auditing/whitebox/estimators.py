"""White-box estimators: delta(eps) estimates and confidence bounds over the loss samples.

The privacy profile is delta(eps) = E[(1 - exp(eps - L))_+], the mean of a [0, 1]-valued variable, so
Hoeffding's Theorem 1 (KL form, :mod:`dpverify.auditing.bounds`) gives confidence bounds. Three
estimators take the losses of one direction, each with ``estimate(eps)``, ``lower(eps, alpha)``,
``upper(eps, alpha)``, ``infinite_lower(alpha)`` and ``infinite_report(alpha)``:

* :class:`PlainEstimates`: every loss kept (a :class:`LossProfile`), Hoeffding-KL bounds;
* :class:`StreamEstimates`: streamed summaries (:class:`~dpverify.auditing.streaming.DirectionStats`)
  at fixed evaluation epsilons, Hoeffding-KL bounds;
* :class:`WeightedEstimates`: importance-weighted draws (:mod:`dpverify.auditing.importance`),
  truncated KL / empirical Bernstein lower bounds, no upper bound.

Infinite losses get a Clopper-Pearson interval. :func:`epsilon_lower` certifies the epsilon lower
bound on the fixed grid :data:`EPSILON_GRID` (geometric, ratio 1.005, from 1e-3 to 1e3, fixed before
any sampling; delta_lower(eps) is non-increasing in eps, so a binary search over it is exact).
The round-off of the profile sums is bounded and subtracted (:meth:`LossProfile.delta_hat`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ...claims import PrivacyClaim
from ..bounds import clopper_pearson_lower, clopper_pearson_upper, kl_lower, kl_upper
from ..importance import truncated_lower

__all__ = ["EPSILON_GRID", "LossProfile", "PlainEstimates", "WeightedEstimates", "StreamEstimates",
           "infinite_report", "epsilon_lower", "profile_summary"]

#: The fixed grid of epsilons on which ``epsilon_lower`` is certified (data-independent).
EPSILON_GRID = np.exp(np.arange(math.log(1e-3), math.log(1e3), math.log(1.005)))


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


class PlainEstimates:
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
        return infinite_report(self.profile.infinite, self.n, alpha)

    def losses_for_plot(self) -> np.ndarray:
        return self.profile.positive

    def weights_for_plot(self) -> np.ndarray:
        return np.ones(self.profile.positive.size)


class WeightedEstimates:
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
        return truncated_lower(self.sample.infinite_values(), self.n, self.bound, alpha)

    def infinite_report(self, alpha: float) -> dict:
        vals = self.sample.infinite_values()
        return {"count": int(vals.size), "estimate": float(vals.sum()) / self.n,
                "lower": truncated_lower(vals, self.n, self.bound, alpha / 2), "upper": None,
                "level": 1 - alpha, "bound": "importance-weighted, truncated KL / empirical Bernstein"}

    def losses_for_plot(self) -> np.ndarray:
        return self.sample.loss

    def weights_for_plot(self) -> np.ndarray:
        return np.exp(self.sample.log_weight)


class StreamEstimates(PlainEstimates):
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
        return infinite_report(self.stats.infinite, self.n, alpha)


def infinite_report(k: int, n: int, alpha: float) -> dict:
    """The count of infinite losses with a two-sided Clopper-Pearson interval at level 1 - alpha."""
    return {"count": k, "estimate": k / n, "lower": float(clopper_pearson_lower(k, n, alpha / 2)),
            "upper": float(clopper_pearson_upper(k, n, alpha / 2)), "level": 1 - alpha,
            "bound": "Clopper-Pearson (exact binomial)"}


def epsilon_lower(est, claim: PrivacyClaim, alpha_grid: float) -> float:
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


def profile_summary(est, claim: PrivacyClaim, alpha_point: float, points: int = 48) -> dict:
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
