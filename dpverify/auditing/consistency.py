"""Density-sampler consistency: does ``log_density`` describe what ``sample`` draws?

A white-box audit trusts ``log_density``; a sampler that adds no noise, or less noise than its
density says, would otherwise pass on the density's word. For a pair (D, D') let
L(o) = log p_D(o) - log p_D'(o) (+inf where p_D'(o) = 0). For every t >= 0 the
likelihood-ratio identity gives

    E_{o ~ M(D)} [ 1{L(o) > t} exp(-L(o)) ]  =  P_{o' ~ M(D')} ( L(o') > t )              (*)

exactly, whatever the supports (outputs outside D's support have L = -inf on the right and
are not counted; outputs outside D''s have exp(-L) = 0 on the left). The right side is the
probability that the *reverse* direction's loss L'(o') = -L(o') is below -t. With the roles of
D and D' exchanged this gives a second identity. The test functions g_t(o) = 1{L(o) > t} are
fixed before the certifying draws (thresholds from the claim's epsilon and from the loss
quantiles of independent pilot draws), and both sides are estimated from the audit's own
draws: the left one is the mean of a variable in [0, exp(-t)] (Hoeffding-KL bounds), the right
one a binomial proportion (Clopper-Pearson). The pair is **inconsistent** when the two
confidence intervals are disjoint.

For discrete (1-D integer) outputs the mass of the distinct outputs seen in one batch must not
exceed 1 under either dataset (checked exactly, up to 1e-9 for rounding).

**False alarms.** Each threshold and direction gives four one-sided bounds; they are taken at
``CONSISTENCY_ALPHA / (4 x tests)``, so a consistent mechanism is called inconsistent with
probability at most ``CONSISTENCY_ALPHA`` (1e-6) per audit, by the union bound. Correctness of
the privacy bounds does not depend on this test; it only withholds a privacy verdict.
"""
from __future__ import annotations

import math

import numpy as np

from .bounds import clopper_pearson_lower, clopper_pearson_upper, kl_lower, kl_upper
from .streaming import DirectionStats

__all__ = ["CONSISTENCY_ALPHA", "MASS_TOLERANCE", "thresholds_for", "pair_consistency"]

#: Probability, per audit, that a consistent mechanism is reported inconsistent (at most).
CONSISTENCY_ALPHA = 1e-6
#: Slack on the total mass of distinct outputs (float rounding of log-masses).
MASS_TOLERANCE = 1e-9
#: Largest threshold used (exp(-t) below ~1e-22 carries no information).
_MAX_THRESHOLD = 50.0


def thresholds_for(epsilon: float, pilot_losses: list[np.ndarray]) -> np.ndarray:
    """Thresholds t > 0, fixed before the certifying draws: about eps/80, eps/2, eps, 2 eps and the
    25/50/75/90% quantiles of |L| on independent pilot draws (both directions).

    Each is moved off the atoms of the loss: a loss equal to t up to float rounding would fall on
    either side of t by rounding alone (Laplace has L = eps exactly on half its mass, and the
    two sides of (*) are computed on different draws). So every t is scaled by a generic factor
    and nudged until no pilot |L| lies within 1e-9 (relative) of it.
    """
    e = epsilon if epsilon > 0 else 1.0
    base = [e / 81.0, e / 2, e, 2 * e]
    pilot = [np.abs(x[np.isfinite(x)]) for x in pilot_losses]
    qs = []
    for fin in pilot:
        fin = fin[fin > 0]
        if fin.size >= 20:
            qs.extend(float(q) for q in np.quantile(fin, [0.25, 0.5, 0.75, 0.9]))
    seen = np.unique(np.concatenate(pilot)) if pilot else np.zeros(0)
    out = []
    for t in base + qs:
        t = t * 1.0103271
        for _ in range(50):
            if not seen.size or np.min(np.abs(seen - t)) > 1e-9 * (1.0 + t):
                break
            t *= 1.0007317
        if 1e-4 * e <= t <= _MAX_THRESHOLD:
            out.append(t)
    kept: list[float] = []
    for t in sorted(out):
        if not kept or t > kept[-1] * (1 + 1e-6):
            kept.append(t)
    return np.array(kept, dtype=float)


def _mean_bounds(mean_scaled: float, n: int, alpha: float) -> tuple[float, float]:
    m = min(max(mean_scaled, 0.0), 1.0)
    return float(kl_lower(m, n, alpha)), float(kl_upper(m, n, alpha))


def pair_consistency(fwd: DirectionStats, bwd: DirectionStats, thresholds: np.ndarray, alpha_each: float,
                     pair_index: int) -> tuple[list[dict], list[dict]]:
    """(failures, checks) for one pair: each check compares both sides of (*) at one threshold
    and direction, with intervals at ``alpha_each`` per one-sided bound."""
    failures, checks = [], []
    for name, a, b, first, second in (("D->D'", fwd, bwd, "D", "D'"), ("D'->D", bwd, fwd, "D'", "D")):
        if a.n == 0 or b.n == 0:
            continue
        lhs_means = a.weighted_mean()
        for k, t in enumerate(thresholds):
            scale = math.exp(float(t))  # the variable lies in [0, exp(-t)]; scale it to [0, 1]
            lo, hi = _mean_bounds(lhs_means[k] * scale, a.n, alpha_each)
            lo, hi = lo / scale, hi / scale
            cnt = int(b.below[k])
            p_lo = float(clopper_pearson_lower(cnt, b.n, alpha_each))
            p_hi = float(clopper_pearson_upper(cnt, b.n, alpha_each))
            rec = {"pair_index": pair_index, "direction": name, "threshold": float(t),
                   "test_function": f"g(o) = 1{{L(o) > {float(t):.6g}}}, L = log p_{first} - log p_{second}",
                   "density_side": float(lhs_means[k]), "density_side_interval": [lo, hi],
                   "sampler_side": cnt / b.n, "sampler_side_interval": [p_lo, p_hi]}
            checks.append(rec)
            if lo > p_hi or hi < p_lo:
                failures.append(rec)
    for name, s, data in (("D->D'", fwd, "D"), ("D'->D", bwd, "D'")):
        if s.log_mass > MASS_TOLERANCE:
            failures.append({"pair_index": pair_index, "direction": name, "test_function": "total mass",
                             "density_side": math.exp(min(s.log_mass, 700.0)), "sampler_side": 1.0,
                             "what": f"the distinct outputs drawn from {data} have total mass "
                                     f"{math.exp(min(s.log_mass, 700.0)):.6g} > 1 under one dataset"})
    return failures, checks


def describe_failure(f: dict) -> str:
    """One sentence for a failure record."""
    if f.get("test_function") == "total mass":
        return f"pair {f['pair_index']} {f['direction']}: {f['what']}"
    lo, hi = f["density_side_interval"]
    p_lo, p_hi = f["sampler_side_interval"]
    return (f"pair {f['pair_index']} {f['direction']}, test function {f['test_function']}: the density predicts "
            f"{f['density_side']:.4g} [{lo:.4g}, {hi:.4g}] from E[g exp(-L)] under the first dataset, the sampler "
            f"gives {f['sampler_side']:.4g} [{p_lo:.4g}, {p_hi:.4g}] from the other dataset's draws")
