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

**The violating event, before a violation verdict.** The thresholds above come from pilot
draws, which never reach a far tail: a density wrong only there (a correct Laplace sampler whose
density under D' is too flat beyond 12 scale units) passes them, and one tail draw whose loss the
density puts above epsilon is enough for a white-box ``violated`` under a pure-DP claim. So when
the white-box bounds exceed the claim in a direction x -> y, :func:`confirm_violations` draws
``max(samples, CONFIRM_SAMPLES)`` fresh outputs from x and from y (independent of every other
draw of the audit) and looks at exactly the event that makes the verdict, A = {L > t} with t the
claim's epsilon (moved off the loss's atoms, see :func:`violation_threshold`; delta(eps) > claim.delta
needs mass on {L > eps}, and {L > eps} is the event of the hockey-stick divergence at eps):

* the identity (*) with g = 1_A, E_x[1_A exp(-L)] = P_y(A), both sides with their intervals as
  above: disjoint intervals make the audit ``inconsistent``;
* the support of the verdict: at least ``MIN_EVENT_DRAWS`` of the fresh x draws must fall in A.
  A verdict resting on fewer outputs of the violating event rests on the density where the
  sampler has not been seen, and nothing at this sample size can tell a density that lies there
  from a sampler that really puts that mass there (the identity needs draws in A on both sides).
  Such an audit is ``inconclusive``, and its note says why and what to do (more samples).

**How many fresh draws.** ``max(samples, CONFIRM_SAMPLES)`` per dataset, except in an
importance-sampled direction of the automatic tilt, or of a mechanism's own proposal whose weighted
estimate p of P_x(L > eps) (from the certifying draws) says fewer than ``MIN_EVENT_DRAWS`` of them
would fall in the event: there the check draws ``CONFIRM_EXPECTED_EVENTS / p`` (at most ``max_samples`` and ``CONFIRM_MAX_FACTOR`` times the default,
:func:`confirmation_sizes`), so that the sampler is expected in the event about fifty times. The
count is fixed before the check's draws, which are independent of it; a density that overstates
P_x(A) only shrinks the count (fewer events seen: no verdict), one that understates it is held by
the caps.

**The mass of the event (importance-sampled directions).** An importance-sampled bound also rests
on the density's *mass* of A, sum w 1_A / n, not only on its ratio p_x / p_y: a density too heavy in
a tail the sampler rarely visits inflates it, and the identity (*) (a ratio check) cannot see that.
For an honest mechanism that weighted mass estimates P_x(A) (at most P_x(A): a proposal only loses
mass), which the fresh x draws count. So when the importance-sampled lower bound on the density's
mass of A (truncated KL / empirical Bernstein, from the certifying draws) exceeds the Clopper-Pearson
upper bound on P_x(A) from the fresh draws, each at ``MASS_CHECK_ALPHA / (2 x directions)``, the
density puts more mass on the violating event than the sampler does, and the violation is not
confirmed (``inconclusive``, with a note). An honest mechanism loses a violation this way with
probability at most ``MASS_CHECK_ALPHA`` per audit.

A violation is kept only when all three hold in some violating direction and the identity holds in
every one. This only ever turns a ``violated`` into ``inconclusive`` or ``inconsistent``, so it
cannot raise the audit's false-alarm rate; it costs power on real violations whose event has mass
below about MIN_EVENT_DRAWS / samples (for those the note asks for more samples). It is a guard,
not a proof: a density that lies on a region the sampler reaches fewer than ~MIN_EVENT_DRAWS times
in ``samples`` draws cannot be caught by any test of that size.

**False alarms.** Each threshold and direction gives four one-sided bounds; they are taken at
``CONSISTENCY_ALPHA / (8 x tests)``, and the violating-event identities at ``CONSISTENCY_ALPHA / (8 x
directions confirmed)``, so a consistent mechanism is called inconsistent with probability at most
``CONSISTENCY_ALPHA`` (1e-6) per audit, by the union bound. Correctness of the privacy bounds does
not depend on this test; it only withholds a privacy verdict.
"""
from __future__ import annotations

import math
import time

import numpy as np

from ..bounds import clopper_pearson_lower, clopper_pearson_upper, kl_lower, kl_upper
from ..draws import DIRECTIONS, NO_ORIGIN, Origin, batch_plan
from ..executor import run_batches
from ..streaming import DirectionStats
from .losses import loss_batch_parts, probe_elements

__all__ = ["CONSISTENCY_ALPHA", "MASS_TOLERANCE", "MIN_EVENT_DRAWS", "CONFIRM_SAMPLES", "CONFIRM_EXPECTED_EVENTS",
           "CONFIRM_MAX_FACTOR", "MASS_CHECK_ALPHA", "thresholds_for", "pair_consistency", "describe_failure", "violation_threshold",
           "event_batch", "confirmation_sizes", "confirm_violations"]

#: Probability, per audit, that a consistent mechanism is reported inconsistent (at most).
CONSISTENCY_ALPHA = 1e-6
#: Slack on the total mass of distinct outputs (float rounding of log-masses).
MASS_TOLERANCE = 1e-9
#: Largest threshold used (exp(-t) below ~1e-22 carries no information).
_MAX_THRESHOLD = 50.0
#: Fewest fresh draws of the violating event {L > epsilon} a ``violated`` verdict may rest on.
MIN_EVENT_DRAWS = 5
#: Fewest fresh draws per dataset for the check of the violating event (more when the audit drew more).
CONFIRM_SAMPLES = 200_000
#: Events expected in the check's fresh draws when an importance-sampled direction sizes it.
CONFIRM_EXPECTED_EVENTS = 50
#: Per audit: probability that the mass check withholds a true violation of an honest mechanism.
MASS_CHECK_ALPHA = 1e-3
#: Most draws of a sized check, as a multiple of the default ``max(samples, CONFIRM_SAMPLES)``.
CONFIRM_MAX_FACTOR = 100
_FIXED = float(2 ** 30)


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


def _nudge(t: float, seen: np.ndarray) -> float:
    """t moved up (by factors 1 + 7e-4) until no value of ``seen`` lies within 1e-9 (relative) of it."""
    for _ in range(50):
        if not seen.size or np.min(np.abs(seen - t)) > 1e-9 * (1.0 + abs(t)):
            break
        t *= 1.0007317
    return t


def violation_threshold(epsilon: float, pilot_losses: list[np.ndarray]) -> float:
    """The threshold t of the violating event {L > t}: epsilon (1e-9 above it, or 1e-12 when epsilon
    is 0), moved off every pilot loss as in :func:`thresholds_for` (a loss on an atom at t would fall
    on either side of t by rounding alone). Fixed before the confirmation draws."""
    seen = np.unique(np.concatenate([np.abs(x[np.isfinite(x)]) for x in pilot_losses])) if pilot_losses \
        else np.zeros(0)
    t = float(epsilon) * (1 + 1e-9) if epsilon > 0 else 1e-12
    return float(_nudge(t, seen))


def event_batch(mechanism, data, data_prime, size, seed, precision, threshold, origin: Origin = NO_ORIGIN):
    """One batch of the violating-event check: ``size`` outputs o ~ M(data), L = log p_data(o) -
    log p_data_prime(o) (as computed, not lowered), and returns the integers
    (draws, #{L > t}, floor(2^30 * sum of 1{L > t} exp(-(L - t))), #{L < -t}).
    Integers merge exactly, so the executor never changes the result."""
    _, _, _, a, b, _ = loss_batch_parts(mechanism, data, data_prime, size, seed, precision, origin)
    raw = a - b
    above = raw > threshold
    fin = above & (raw < np.inf)
    w = float(np.sum(np.exp(-(raw[fin] - threshold)))) * (1 - 1e-12)  # each term in (0, 1]
    return (int(raw.size), int(np.count_nonzero(above)), int(math.floor(max(w, 0.0) * _FIXED)),
            int(np.count_nonzero(raw < -threshold)))


def _event_counts(mechanism, x, y, n, seed, executor, precision, threshold, deadline, origin):
    """Summed :func:`event_batch` over ``n`` fresh draws from x (stops between chunks at ``deadline``)."""
    probe_seed, batches_seed = seed.spawn(2)
    plan = batch_plan(n, probe_elements(mechanism, x, probe_seed, origin))
    tasks = [(mechanism, x, y, size, s, precision, threshold, origin)
             for size, s in zip(plan.sizes, batches_seed.spawn(len(plan.sizes)))]
    workers = getattr(executor, "_max_workers", 1) if executor is not None else 1
    chunk = max(1, 2 * int(workers or 1))
    total = [0, 0, 0, 0]
    for start in range(0, len(tasks), chunk):
        for out in run_batches(event_batch, tasks[start:start + chunk], executor):
            total = [u + v for u, v in zip(total, out)]
        if deadline is not None and time.monotonic() >= deadline:
            break
    return total


def confirmation_sizes(directions, event_masses: dict, samples: int, max_samples: int, tilted=()) -> dict:
    """Fresh draws per dataset of the violating-event check: a dict (k, j) -> ceil(CONFIRM_EXPECTED_EVENTS
    / p), p = ``event_masses[(k, j)]`` the weighted estimate of P_x(L > eps) (None for plain directions),
    capped at ``max_samples`` and at ``CONFIRM_MAX_FACTOR`` times the default ``max(samples,
    CONFIRM_SAMPLES)``, never below the default. Directions of the automatic tilt (``tilted``) are always
    sized so (the mass check then has the power of ~50 expected events); those of a mechanism's own
    proposal only when the default would see fewer than ``MIN_EVENT_DRAWS`` events by p (so an audit
    that confirmed before draws exactly what it drew before)."""
    default = max(int(samples), CONFIRM_SAMPLES)
    tilted = {tuple(t) for t in tilted}
    out = {}
    for key in directions:
        p = event_masses.get(tuple(key))
        if p is None or (tuple(key) not in tilted and not p * default < MIN_EVENT_DRAWS):
            continue
        want = math.ceil(CONFIRM_EXPECTED_EVENTS / p) if p > 0 else math.inf
        n = min(want, int(max_samples), CONFIRM_MAX_FACTOR * default)
        if n > default:
            out[tuple(key)] = int(n)
    return out


def confirm_violations(mechanism, pairs, directions, claim, root, samples, executor, precision, pilot_losses,
                       deadline=None, sizes=None, masses=None) -> dict:
    """The check of the violating event before a ``violated`` verdict (see the module docstring).

    ``directions``: (pair index, 0 for D -> D' or 1 for D' -> D) of every direction whose bounds
    exceed the claim; ``root``: the audit's SeedSequence (fresh children are spawned from it).
    ``sizes``: draws per dataset for some directions ((k, j) -> n, :func:`confirmation_sizes`); the others
    draw ``max(samples, CONFIRM_SAMPLES)``. ``masses``: (k, j) -> {"threshold", "lower", "alpha"}, the
    importance-sampled lower bound on the density's mass of the event, for the mass check.
    Returns {"confirmed": bool, "failures": [...], "checks": [...], "threshold", "draws",
    "min_event_draws", "alpha_each", "note"}.
    """
    sizes, masses = sizes or {}, masses or {}
    mass_failed = []
    t = violation_threshold(claim.epsilon, pilot_losses)
    n = max(int(samples), CONFIRM_SAMPLES)
    alpha_each = CONSISTENCY_ALPHA / (8 * max(1, len(directions)))
    names = DIRECTIONS
    seeds = root.spawn(2 * len(directions))
    failures, checks = [], []
    confirmed = False
    for i, (k, j) in enumerate(directions):
        d, dp = pairs[k]
        x, y = (d, dp) if j == 0 else (dp, d)
        first, second = ("D", "D'") if j == 0 else ("D'", "D")
        n_dir = sizes.get((k, j), n)
        nx, above, w_fixed, _ = _event_counts(mechanism, x, y, n_dir, seeds[2 * i], executor, precision, t, deadline,
                                              Origin(k, names[j]))
        ny, _, _, below = _event_counts(mechanism, y, x, n_dir, seeds[2 * i + 1], executor, precision, t, deadline,
                                        Origin(k, names[1 - j]))
        if nx == 0 or ny == 0:
            continue
        scaled = min(w_fixed / _FIXED / nx, 1.0)  # mean of 1{L > t} exp(-(L - t)), in [0, 1]
        lo, hi = _mean_bounds(scaled, nx, alpha_each)
        scale = math.exp(-t)
        lo, hi = lo * scale, hi * scale
        p_lo = float(clopper_pearson_lower(below, ny, alpha_each))
        p_hi = float(clopper_pearson_upper(below, ny, alpha_each))
        rec = {"pair_index": k, "direction": names[j], "threshold": t,
               "test_function": f"g(o) = 1{{L(o) > {t:.6g}}} (the violating event), L = log p_{first} - log p_{second}",
               "density_side": scaled * scale, "density_side_interval": [lo, hi],
               "sampler_side": below / ny, "sampler_side_interval": [p_lo, p_hi],
               "event_draws": above, "draws": nx}
        mass = masses.get((k, j))
        mass_ok = True
        if mass is not None and mass["threshold"] == t:
            m_hi = float(clopper_pearson_upper(above, nx, mass["alpha"]))
            rec["mass_check"] = {"density_mass_lower": mass["lower"], "sampler_frequency": above / nx,
                                 "sampler_upper": m_hi, "alpha_each": mass["alpha"]}
            mass_ok = not mass["lower"] > m_hi
            if not mass_ok:
                mass_failed.append(rec)
        checks.append(rec)
        if lo > p_hi or hi < p_lo:
            failures.append(rec)
        elif above >= MIN_EVENT_DRAWS and mass_ok:
            confirmed = True
    note = None
    if not failures and not confirmed and mass_failed:
        c = mass_failed[0]["mass_check"]
        note = (f"the white-box bounds exceed the claim, but the density puts more mass on the violating event "
                f"{{L > {t:.6g}}} than the sampler does: importance-weighted lower bound {c['density_mass_lower']:.4g}, "
                f"while {mass_failed[0]['event_draws']} of {mass_failed[0]['draws']} fresh draws fell in it (upper bound "
                f"{c['sampler_upper']:.4g}); the violation rests on log_density where it overstates the sampler, so no "
                "privacy verdict is given (check log_density in that region)")
    elif not failures and not confirmed:
        most = max((c["event_draws"] for c in checks), default=0)
        drawn = max((c["draws"] for c in checks), default=0)
        note = (f"the white-box bounds exceed the claim, but in {drawn} fresh draws at most {most} output(s) fell in "
                f"the violating event {{L > {t:.6g}}} (fewer than {MIN_EVENT_DRAWS}): the violation rests on "
                "log_density in a region the sampler is too rarely seen in to check it there, so no privacy verdict "
                "is given (a correct density there would mean a real violation; audit with more samples, or check "
                "log_density in that region)")
    out = {"confirmed": confirmed and not failures, "failures": failures, "checks": checks, "threshold": t,
           "draws": n, "min_event_draws": MIN_EVENT_DRAWS, "alpha_each": alpha_each, "note": note}
    if sizes:
        out["sized_draws"] = [{"pair_index": k, "direction": names[j], "draws": m} for (k, j), m in sizes.items()]
    return out
