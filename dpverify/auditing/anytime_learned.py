"""The anytime-valid test for outputs that are not one number: events learned as the draws arrive (issue 30).

:mod:`dpverify.auditing.anytime` bets on one half-line chosen on a pilot, which needs scalar outputs. Here the
outputs may be vectors or structured values (tuples, None, booleans, strings: anything the black-box audit
encodes, :func:`~dpverify.auditing.blackbox.event_families.to_table`), and the event is **re-chosen before every
batch from all the draws so far**:

* sets of exact outcomes seen at least twice so far, in the order of their smoothed log ratio
  ``log((c' + 1/2)/(c + 1/2))`` of the counts so far (every prefix of that order is a candidate: for a discrete
  output the likelihood-ratio ordering, so a middle value of a coordinate, or the one outcome "no query answered",
  can be the event; continuous outputs, whose outcomes never recur, get no such event);
* for structured outputs, the same over *branches* (the output with every number masked, which branch the
  mechanism took);
* half-lines ``feature >= t`` and ``feature <= t`` of every feature of the black-box audit at 41 pooled quantiles
  of the draws so far: for numeric outputs the coordinates, their sum, max, min and consecutive differences; for
  structured outputs the first :data:`~dpverify.auditing.blackbox.event_families.MAX_NUMBERS` numbers in reading
  order (``-inf`` where missing), their sum and their count (at most :data:`FEATURE_DRAWS` draws per dataset are
  kept for this).

For a candidate E favouring D' (roles swapped for the other direction) the bet is on

    Z = 1{Y in E} - e^eps 1{X in E} - delta,     X ~ M(D), Y ~ M(D'),

whose mean is at most 0 for **every** E when the mechanism keeps its (eps, delta) claim. The batch's stake
``lambda = min(mu / var, 1/(2 (e^eps + delta)))`` comes from the counts so far, with ``mu`` the estimated mean
lowered by one standard error (so an event that only looks good by chance gets a small stake), and the
candidate with the largest estimated growth ``lambda mu - lambda^2 var / 2`` is bet on (no bet when none has
``mu > 0``). The wealth ``K_t = prod_i (1 + lambda_i Z_i)`` has each ``(E_i, lambda_i)`` fixed before draw i
is seen, so it is a nonnegative supermartingale under the claim and Ville's inequality gives
``P(sup_t K_t >= 1/alpha) <= alpha``: the test stops at the first draw where ``K_t >= 1/alpha``, the type I
error exact under optional stopping, whatever the events learned. Choosing E from the same draws that are bet
on later costs nothing in validity, only power while the counts are few.

Batches: ``max(256, total/8)`` draws per dataset (at most 8,192), so the events are re-chosen about thirty
times in a run of 10^5 draws.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from ..claims import _invert
from ..errors import MechanismError
from .blackbox.event_families import MAX_NUMBERS, OutputTable, to_table
from .blackbox.outputs import as_outputs

__all__ = ["LearnedBet", "run_learned", "curve_points", "FEATURE_DRAWS", "CURVE_POINTS"]

#: Draws per dataset whose features are kept for choosing half-lines (outcome counts use every draw).
FEATURE_DRAWS = 50_000
#: Quantile levels of the pooled feature values tried as half-line thresholds.
LEVELS = np.concatenate([[0.001, 0.005], np.linspace(0.01, 0.99, 37), [0.995, 0.999]])
#: Outcomes (in log-ratio order) whose prefixes are candidates.
MAX_PREFIX = 256
_MIN_BATCH, _MAX_BATCH = 256, 8192
#: eps' points of a curve claim bet on: eps' = 0 and where the claim's delta(eps') falls to these values.
CURVE_POINTS = tuple(10.0 ** -np.linspace(0.3, 9, 30))


def curve_points(claim) -> tuple:
    """The eps' the test may bet at: the claim's epsilon for an (eps, delta) claim; for a curve, 0 and the eps'
    where delta_claim falls to each of :data:`CURVE_POINTS` below delta_claim(0) (the claims' own inversion)."""
    if not claim.is_curve:
        return (float(claim.epsilon),)
    top = claim.delta_at(0.0)
    found = (_invert(claim.delta_at, target) for target in CURVE_POINTS if target < top)
    return tuple(sorted({0.0, *(e for e in found if e is not None)}))


@dataclass(frozen=True)
class LearnedBet:
    """What the learned test did: stopped (violated), draws per dataset, the final wealth, the event in force at
    the end, and how many times the event was chosen."""

    stopped: bool
    total: int
    log_wealth: float
    bets: int
    event: str
    favours_d: bool
    plans: int
    epsilon: float  # the eps' of the last bet (the claim's epsilon for an (eps, delta) claim)


#: Feature names of structured outputs: the first MAX_NUMBERS numbers in reading order, their sum and count.
STRUCTURED_NAMES = tuple(f"number[{j}]" for j in range(MAX_NUMBERS)) + ("sum of the numbers", "count of the numbers")


def features(t: OutputTable) -> np.ndarray:
    """The features of ``t`` in a layout fixed for the whole run: a numeric table's own; for structured outputs
    :data:`STRUCTURED_NAMES` (numbers a batch lacks are ``-inf``, as the black-box audit encodes missing numbers)."""
    if t.kind == "numeric":
        return t.features
    width = t.features.shape[1] - 2
    out = np.full((t.size, MAX_NUMBERS + 2), -np.inf)
    out[:, :width] = t.features[:, :width]
    out[:, MAX_NUMBERS:] = t.features[:, width:]
    return out


class _State:
    """Outcome and branch counts of every draw, and features of the first FEATURE_DRAWS, per dataset."""

    def __init__(self, t1: OutputTable, t2: OutputTable, structured: bool):
        self.structured = structured
        self.names = STRUCTURED_NAMES if structured else t1.names
        self.counts: dict = {}
        self.branches: dict = {}
        self.examples: dict = {}
        self.n = 0
        self.feats: tuple[list, list] = ([], [])
        self.kept = 0
        self.add(t1, t2)

    def add(self, t1: OutputTable, t2: OutputTable) -> None:
        for side, t in ((0, t1), (1, t2)):
            for store, keys in ((self.counts, t.codes), (self.branches, t.skeleton if self.structured else None)):
                if keys is None:
                    continue
                uniq, cnt = np.unique(keys, return_counts=True)
                for k, c in zip(uniq.tolist(), cnt.tolist()):
                    row = store.setdefault(k, [0, 0])
                    row[side] += c
            for k, text in t.examples.items():
                if len(self.examples) < 4096:
                    self.examples.setdefault(k, text)
        if self.kept < FEATURE_DRAWS:
            take = min(t1.size, FEATURE_DRAWS - self.kept)
            self.feats[0].append(features(t1)[:take])
            self.feats[1].append(features(t2)[:take])
            self.kept += take
        self.n += t1.size


def _stake(cf: np.ndarray, co: np.ndarray, n: int, g: np.ndarray, delta: np.ndarray, cap: np.ndarray):
    """(lambda, estimated growth), shape (points, events), of events with favoured/other counts ``cf``/``co`` over
    n draws, at every point (``g`` = e^eps', ``delta`` = delta_claim(eps'), ``cap``: arrays over the points)."""
    fav = (np.maximum(cf - np.sqrt(cf), 0.0) / n)[None, :]
    oth = np.minimum((co + 1 + np.sqrt(co + 1)) / n, 1.0)[None, :]
    g, delta, cap = g[:, None], delta[:, None], cap[:, None]
    mu = fav - g * oth - delta
    var = fav * (1 - fav) + g * g * oth * (1 - oth) + 1.0 / (n * n)
    lam = np.clip(mu / var, 0.0, cap)
    return lam, lam * mu - lam * lam * var / 2


def _best_of(lam: np.ndarray, grow: np.ndarray):
    """(point index, event index, growth, lambda) of the largest estimated growth."""
    k = int(np.argmax(grow))
    i, j = divmod(k, grow.shape[1])
    return i, j, float(grow[i, j]), float(lam[i, j])


def _plan(state: _State, g: np.ndarray, delta: np.ndarray, cap: np.ndarray):
    """The bet for the next batch: (growth, lambda, favours_d, contains(table) -> bool array, description, point
    index)."""
    n = state.n
    best = (0.0, 0.0, True, None, "no bet (no event with a positive estimated mean yet)", 0)
    for store, branch in ((state.counts, False), (state.branches, True)):
        if not store:
            continue
        keys = np.fromiter(store.keys(), dtype=np.uint64, count=len(store))
        c = np.array(list(store.values()), dtype=float).reshape(-1, 2)
        # an outcome seen once carries no evidence that it recurs (continuous outputs: none does), and a set of
        # such outcomes would be bet on and never hit again: only outcomes seen at least twice join
        seen = c.sum(axis=1) >= 2
        if not seen.any():
            continue
        keys, c = keys[seen], c[seen]
        for favours_d, (cf, co) in ((True, (c[:, 0], c[:, 1])), (False, (c[:, 1], c[:, 0]))):
            lr = np.log((cf + 0.5) / (co + 0.5))
            order = np.argsort(-lr, kind="stable")[:MAX_PREFIX]
            pt, i, growth, stake = _best_of(*_stake(np.cumsum(cf[order]), np.cumsum(co[order]), n, g, delta, cap))
            if growth > best[0]:
                chosen = keys[order[: i + 1]]
                if branch:
                    text = f"output (numbers masked) is one of {chosen.size} branch(es)"
                    test = lambda t, s=chosen: np.isin(t.skeleton, s)
                else:
                    shown = ", ".join(state.examples.get(int(k), f"<outcome {int(k):#x}>") for k in chosen[:3])
                    more = f", ... ({chosen.size} outcomes)" if chosen.size > 3 else ""
                    text = f"output is exactly one of {{{shown}{more}}}"
                    test = lambda t, s=chosen: np.isin(t.codes, s)
                best = (growth, stake, favours_d, test, text, pt)
    if state.feats[0]:
        f1, f2 = np.concatenate(state.feats[0]), np.concatenate(state.feats[1])
        m = f1.shape[0]
        for j, name in enumerate(state.names):
            a, b = np.sort(f1[:, j]), np.sort(f2[:, j])
            pooled = np.concatenate([a, b])
            finite = pooled[np.isfinite(pooled)]
            if finite.size == 0:
                continue
            ts = np.unique(np.quantile(finite, LEVELS))
            for upper in (True, False):
                if upper:
                    pa, pb = (m - np.searchsorted(a, ts, "left")) / m, (m - np.searchsorted(b, ts, "left")) / m
                else:
                    pa, pb = np.searchsorted(a, ts, "right") / m, np.searchsorted(b, ts, "right") / m
                for favours_d, (pf, po) in ((True, (pa, pb)), (False, (pb, pa))):
                    pt, i, growth, stake = _best_of(*_stake(pf * m, po * m, m, g, delta, cap))
                    if growth > best[0]:
                        t = float(ts[i])
                        best = (growth, stake, favours_d,
                                (lambda tab, j=j, t=t, u=upper: features(tab)[:, j] >= t if u else features(tab)[:, j] <= t),
                                f"{name} {'>=' if upper else '<='} {t:.6g}", pt)
    return best


def run_learned(mechanism, d, dp, first: tuple, stream, *, claim, alpha: float, max_samples: int,
                start_total: int) -> LearnedBet:
    """The learned anytime test (module docstring) after the pilot outputs ``first`` = (outputs of D, of D')."""
    eps_points = curve_points(claim)
    g = np.exp(np.asarray(eps_points, dtype=float))
    delta = np.array([claim.delta_at(e) if claim.is_curve else claim.delta for e in eps_points], dtype=float)
    cap = 1.0 / (2.0 * (g + delta))
    level = math.log(1.0 / alpha)
    first = (as_outputs(first[0]), as_outputs(first[1]))  # lists of tuples, dicts...: as the black-box audit reads them
    t1, t2 = to_table(first[0], "D"), to_table(first[1], "D'")
    structured = not (t1.kind == "numeric" and t2.kind == "numeric" and t1.names == t2.names)
    if structured and (t1.kind == "numeric" or t2.kind == "numeric"):
        t1, t2 = to_table(first[0], "D", structured=True), to_table(first[1], "D'", structured=True)
    state = _State(t1, t2, structured)
    total, log_wealth, bets, plans = start_total, 0.0, 0, 0
    event, favours_d, point = "no bet", True, float(eps_points[0])
    while True:
        batch = int(min(_MAX_BATCH, max(_MIN_BATCH, total // 8)))
        if total + batch > max_samples:
            batch = max_samples - total
        if batch <= 0:
            break
        growth, lam, fav, contains, text, pt = _plan(state, g, delta, cap)
        plans += 1
        a = to_table(as_outputs(mechanism.sample(d, batch, stream)), "D", structured=structured)
        b = to_table(as_outputs(mechanism.sample(dp, batch, stream)), "D'", structured=structured)
        if not structured and (a.names != state.names or b.names != state.names):
            raise MechanismError(f"a batch of outputs has the features {a.names if a.names != state.names else b.names}"
                                 f" where the first draws had {state.names}; the anytime test needs outputs of one "
                                 "shape throughout (or tuples/lists for outputs whose length varies).")
        if a.size != batch or b.size != batch:
            raise MechanismError(f"sample(data, {batch}, rng) returned {a.size if a.size != batch else b.size} "
                                 f"outputs; the anytime test asked for {batch}.")
        if contains is not None and lam > 0:
            event, favours_d, point = text, fav, float(eps_points[pt])
            ia, ib = contains(a), contains(b)
            if not fav:
                ia, ib = ib, ia
            z = ia.astype(float) - g[pt] * ib.astype(float) - delta[pt]
            path = log_wealth + np.cumsum(np.log1p(lam * z))
            hit = np.flatnonzero(path >= level)
            if hit.size:
                used = int(hit[0]) + 1
                return LearnedBet(True, total + used, float(path[hit[0]]), bets + used, event, favours_d, plans, point)
            log_wealth = float(path[-1])
            bets += batch
        state.add(a, b)
        total += batch
    return LearnedBet(False, total, log_wealth, bets, event, favours_d, plans, point)
