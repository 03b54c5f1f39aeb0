"""Which selected event gets the paired bound (pure claims), from the selection draws alone.

The selection (:mod:`~dpverify.auditing.blackbox.selection`) holds back the last ``VALIDATION_SHARE`` of
its draws; the events chosen on the rest are ranked here by the paired bound each is predicted to get
(:func:`held_out_paired`: the held-out discordant pairs' odds ratio at its ``HELD_OUT_LEVEL`` lower
bound, so rare events do not win on their noise, minus the certification's penalty and the margin
correction). An unfitted event (a half-line, a count past medians) is ranked on all the selection pairs
(:func:`all_draws_paired`); when some score's paired rank z (:func:`paired_rank_z`) reaches
``RANK_Z_MIN``, only such scores compete. Each threshold event also competes in a version whose
threshold maximises that prediction on the fitting draws (:func:`paired_alternatives`, at
``PAIRED_THRESHOLD_LEVEL``). The winner's threshold is then chosen for the paired bound: for a half-line
or a score without fitted weights, from a two-parameter logistic calibration of its score on all the
selection draws (:func:`calibrated_threshold`, :func:`calibrated_tails`). The Mann-Whitney rule
(:func:`rank_top`) only when no prediction is finite. :func:`discordant_overlap` tells whether the
other direction's best event carries evidence of its own (``SECOND_OVERLAP_MAX``).

Every function here reads selection draws only, never certification draws, so the bounds certified
afterwards stay valid.
"""
from __future__ import annotations

import math

import numpy as np
from scipy import special

from .event_families import HalfLine, OutputTable, ScoreAbove
from .learned import LogisticScore
from .scores import NaiveBayesScore, thresholds

__all__ = ["FITTED_SCORES", "RANK_Z_CUT", "HELD_OUT_LEVEL", "RANK_GRID", "RANK_Z_MIN", "SECOND_OVERLAP_MAX",
           "PAIRED_THRESHOLD_LEVEL", "counts_of", "rank_z", "held_out_paired", "calibrated_tails",
           "calibrated_threshold", "paired_alternatives", "score_values", "unfitted", "discordant_overlap",
           "paired_rank_z", "all_draws_paired", "rank_paired", "rank_top"]

#: Events whose score's held-out z is at least this share of the best one compete on their
#: held-out predicted epsilon for the paired bound.
RANK_Z_CUT = 0.8
#: Level of the lower bound on a held-out odds ratio used to rank events for the paired bound
#: (about 2.3 standard errors below the estimate: the best of a dozen candidates' held-out
#: estimates is biased up by about two of its own standard errors, and rare events have large ones).
HELD_OUT_LEVEL = 0.01
#: Thresholds (distinct values or pooled quantiles) per score over which an unfitted event's paired
#: bound is predicted on all the selection draws (:func:`all_draws_paired`).
RANK_GRID = 256
#: Paired rank z (:func:`paired_rank_z`) an event's score needs to be ranked for the paired bound
#: when some event reaches it (a score with no signal does with probability 0.00135).
RANK_Z_MIN = 3.0
#: The other direction's event gets a second paired bound only when at most this share of its (or the
#: first event's, whichever has fewer) discordant selection pairs are discordant for both
#: (:func:`discordant_overlap`): otherwise the two bounds carry the same evidence.
SECOND_OVERLAP_MAX = 0.5
#: The same level when a threshold is chosen for the paired bound on the fitting draws (nested
#: tails of one score, so less winner's curse than across candidates; chosen on a simulation of the
#: count-score thresholds of LaplaceParallel, never on audit draws).
PAIRED_THRESHOLD_LEVEL = 0.05


def counts_of(t: OutputTable, events: list) -> np.ndarray:
    """The count of each event among the outputs of ``t``."""
    cache: dict[int, np.ndarray] = {}
    out = np.empty(len(events), dtype=np.int64)
    for i, ev in enumerate(events):
        if isinstance(ev, ScoreAbove):
            if id(ev.score) not in cache:
                cache[id(ev.score)] = ev.score(t)
            x = cache[id(ev.score)]
            out[i] = np.count_nonzero(x >= ev.threshold if ev.upper else x <= ev.threshold)
        else:
            out[i] = np.count_nonzero(ev.contains(t))
    return out


FITTED_SCORES = (NaiveBayesScore, LogisticScore)


def rank_z(s1: np.ndarray, s2: np.ndarray) -> float:
    """Mann-Whitney z statistic (ties corrected) that ``s1`` tends to exceed ``s2``."""
    n1, n2 = s1.size, s2.size
    pooled = np.concatenate([s1, s2])
    _, inv, cnt = np.unique(pooled, return_inverse=True, return_counts=True)
    # average rank of each distinct value
    ends = np.cumsum(cnt)
    avg = ends - (cnt - 1) / 2.0
    u = float(avg[inv[:n1]].sum()) - n1 * (n1 + 1) / 2.0
    big_n = n1 + n2
    ties = float(np.sum(cnt.astype(float) ** 3 - cnt))
    var = n1 * n2 / 12.0 * ((big_n + 1) - ties / (big_n * (big_n - 1)))
    return (u - n1 * n2 / 2.0) / math.sqrt(var) if var > 0 else 0.0


def held_out_paired(n10, n01, k1, k2, nv: int, n: int, alpha: float, level: float | None = None) -> np.ndarray:
    """Predicted paired bound (:func:`bounds.paired_log_ratio_lower` at level ``alpha``) on ``n``
    certification pairs of events whose ``nv`` held-out pairs gave ``n10`` / ``n01`` discordant
    pairs and marginal counts ``k1`` (favoured side), ``k2``: the held-out log odds ratio at its
    HELD_OUT_LEVEL (or ``level``) lower bound (so a rare event's few discordant pairs, whose odds ratio is mostly
    noise, do not win on it), minus the certification's statistical penalty at the expected counts,
    minus the margin correction at the held-out frequencies. Vectorised; ``-inf`` where nothing
    favours the event."""
    n10, n01, k1, k2 = (np.asarray(x, dtype=float) for x in (n10, n01, k1, k2))
    with np.errstate(divide="ignore", invalid="ignore"):
        t_ho = special.betaincinv(np.maximum(n10, 1e-300), n01 + 1, HELD_OUT_LEVEL if level is None else level)
        big10, big01 = n10 * (n / nv), n01 * (n / nv)
        t_hat = (big10 + 0.5) / (big10 + big01 + 1.0)
        t_cert = special.betaincinv(np.maximum(big10, 1e-300), big01 + 1, alpha)
        logit = lambda t: np.log(t) - np.log1p(-t)  # noqa: E731
        out = logit(t_ho) - (logit(t_hat) - logit(t_cert)) - (np.log1p(-k2 / nv) - np.log1p(-k1 / nv))
    ok = (n10 > 0) & (k1 < nv) & np.isfinite(out) & (t_ho > 0) & (t_cert > 0)
    return np.where(ok, out, -np.inf)


def calibrated_tails(x1: np.ndarray, x2: np.ndarray, v: np.ndarray, upper: bool):
    """Expected counts of ``x >= t`` (``upper``; else ``x <= t``) among ``x1.size`` outputs of D and of
    D' for each threshold t in ``v``, smoothed by a one-dimensional logistic calibration of the
    score (Platt scaling): fit P(D | x) = sigmoid(a + b x) on the pooled values (equal sizes), then
    P_D(tail) = sum of sigmoid over the pooled tail / n and P_D'(tail) the same with 1 - sigmoid.
    Two parameters instead of a count per threshold, so the far tails are estimated from the
    whole sample (the log ratio of a count of coordinates past their medians is linear in the
    count). None when the values do not allow a fit."""
    pooled = np.concatenate([x1, x2])
    fin = pooled[np.isfinite(pooled)]
    if fin.size < 2 or x1.size != x2.size:
        return None
    # the distinct (clipped) values, then their standardised scores: one score per distinct value, so the
    # counts below line up with raw_v even where two values standardise to the same float
    raw_v, inv = np.unique(np.clip(pooled, fin.min(), fin.max()), return_inverse=True)
    with np.errstate(over="ignore", invalid="ignore"):
        sd, mean = float(fin.std()), float(fin.mean())
    scale = 1.0
    if not (np.isfinite(sd) and np.isfinite(mean)):  # outputs near the largest float: standardise a scaled copy
        scale = float(np.max(np.abs(fin)))
        sd, mean = float((fin / scale).std()), float((fin / scale).mean())
    if not sd > 0:
        return None
    vals = (raw_v / scale - mean) / sd
    w1 = np.bincount(inv[: x1.size], minlength=vals.size).astype(float)
    w0 = np.bincount(inv[x1.size:], minlength=vals.size).astype(float)
    w = w1 + w0
    theta = np.zeros(2)
    for _ in range(50):  # Newton's method on the weighted log-likelihood (a tiny ridge keeps it finite)
        q = special.expit(theta[0] + theta[1] * vals)
        g = np.array([np.sum(w1 - w * q), np.sum((w1 - w * q) * vals)]) - 1e-6 * theta
        h = w * q * (1 - q)
        hess = np.array([[h.sum(), (h * vals).sum()], [(h * vals).sum(), (h * vals * vals).sum()]]) + 1e-6 * np.eye(2)
        step = np.linalg.solve(hess, g)
        theta = theta + step
        if np.max(np.abs(step)) < 1e-10:
            break
    if not np.all(np.isfinite(theta)):
        return None
    q = special.expit(theta[0] + theta[1] * vals)
    e1, e0 = w * q, w * (1 - q)  # expected D and D' counts at each distinct value
    c1, c0 = np.cumsum(e1), np.cumsum(e0)
    vv = np.clip(v, fin.min(), fin.max())
    if upper:
        idx = np.searchsorted(raw_v, vv, side="left")
        t1 = c1[-1] - np.where(idx > 0, c1[np.maximum(idx - 1, 0)], 0.0)
        t0 = c0[-1] - np.where(idx > 0, c0[np.maximum(idx - 1, 0)], 0.0)
    else:
        idx = np.searchsorted(raw_v, vv, side="right")
        t1 = np.where(idx > 0, c1[np.maximum(idx - 1, 0)], 0.0)
        t0 = np.where(idx > 0, c0[np.maximum(idx - 1, 0)], 0.0)
    return t1, t0


def calibrated_threshold(ev, fav_owner: int, t1s: list, t2s: list, n: int, alpha: float):
    """The event ``ev`` (a half-line or a tail of an unfitted score) with the threshold that
    maximises the paired bound predicted from :func:`calibrated_tails` on the selection tables
    ``t1s`` (of D) and ``t2s`` (of D'); None when the calibration does not fit or predicts nothing."""
    if isinstance(ev, HalfLine):
        x1 = np.concatenate([t.features[:, ev.feature] for t in t1s])
        x2 = np.concatenate([t.features[:, ev.feature] for t in t2s])
    else:
        x1 = np.concatenate([np.asarray(ev.score(t), dtype=float) for t in t1s])
        x2 = np.concatenate([np.asarray(ev.score(t), dtype=float) for t in t2s])
    if x1.size != x2.size or x1.size == 0:
        return None
    v = thresholds(np.unique(np.concatenate([x1, x2])))
    cal = calibrated_tails(x1, x2, v, ev.upper)
    if cal is None:
        return None
    a, b = cal if fav_owner == 0 else cal[::-1]
    nf = x1.size
    pred = held_out_paired(a * (1 - b / nf), b * (1 - a / nf), a, b, nf, n, alpha, 0.5)
    j = int(np.argmax(pred))
    if not np.isfinite(pred[j]):
        return None
    t = float(v[j])
    return HalfLine(ev.feature, ev.name, t, ev.upper) if isinstance(ev, HalfLine) else ScoreAbove(ev.score, t, ev.upper)


def paired_alternatives(events, goals, owner, f1: OutputTable | None, f2: OutputTable | None, n: int,
                         alpha: float) -> list:
    """For each epsilon-goal threshold event (half-line or score tail), the same feature or score
    with the threshold that maximises :func:`held_out_paired` (at PAIRED_THRESHOLD_LEVEL) on the
    fitting draws ``f1``, ``f2``
    (discordant counts at their expectation for independent pairs, a (1 - b/N) and b (1 - a/N));
    None where there is none or it is the event's own threshold. ``goals[i]`` is event i's goal
    (``"epsilon"`` or ``"delta"``), ``owner[i]`` its favoured side (0: D, 1: D')."""
    out: list = [None] * len(events)
    if f1 is None or f2 is None or f1.size == 0 or f1.size != f2.size:
        return out
    nf = f1.size
    cache: dict = {}
    for i, ev in enumerate(events):
        if goals[i] != "epsilon" or not isinstance(ev, (HalfLine, ScoreAbove)):
            continue
        key = ("f", ev.feature) if isinstance(ev, HalfLine) else ("s", id(ev.score))
        if key not in cache:
            x1, x2 = ((f1.features[:, ev.feature], f2.features[:, ev.feature]) if isinstance(ev, HalfLine)
                      else (ev.score(f1), ev.score(f2)))
            x1, x2 = np.sort(np.asarray(x1, dtype=float)), np.sort(np.asarray(x2, dtype=float))
            cache[key] = (x1, x2, thresholds(np.unique(np.concatenate([x1, x2]))))
        x1, x2, v = cache[key]
        fav, oth = (x1, x2) if owner[i] == 0 else (x2, x1)
        if ev.upper:
            a = nf - np.searchsorted(fav, v, side="left")
            b = nf - np.searchsorted(oth, v, side="left")
        else:
            a = np.searchsorted(fav, v, side="right")
            b = np.searchsorted(oth, v, side="right")
        a, b = a.astype(float), b.astype(float)
        pred = held_out_paired(a * (1 - b / nf), b * (1 - a / nf), a, b, nf, n, alpha, PAIRED_THRESHOLD_LEVEL)
        j = int(np.argmax(pred))
        if not np.isfinite(pred[j]) or float(v[j]) == ev.threshold:
            continue
        t = float(v[j])
        out[i] = HalfLine(ev.feature, ev.name, t, ev.upper) if isinstance(ev, HalfLine) else ScoreAbove(ev.score, t, ev.upper)
    return out


def score_values(ev, t: OutputTable) -> np.ndarray:
    """The values of the feature of a half-line, or of the score of a score tail, on ``t``."""
    if isinstance(ev, HalfLine):
        return np.asarray(t.features[:, ev.feature], dtype=float)
    return np.asarray(ev.score(t), dtype=float)


def unfitted(ev) -> bool:
    """A half-line, or a tail of a score without weights fitted on the selection draws (a count past
    medians): its values on the fitting draws are not optimistic, so every selection draw can rank it."""
    return isinstance(ev, HalfLine) or (isinstance(ev, ScoreAbove) and not isinstance(ev.score, FITTED_SCORES))


def discordant_overlap(e1, e2, tabs1: list, tabs2: list) -> float:
    """Share of the selection pairs discordant for ``e1`` or ``e2`` (one output in the event, the other
    not) that are discordant for both, over the smaller set: 1 for an event and its complement, near
    0 for disjoint rare tails (whose paired bounds are then nearly independent)."""
    d1 = np.concatenate([np.asarray(e1.contains(a), dtype=bool) ^ np.asarray(e1.contains(b), dtype=bool)
                         for a, b in zip(tabs1, tabs2)])
    d2 = np.concatenate([np.asarray(e2.contains(a), dtype=bool) ^ np.asarray(e2.contains(b), dtype=bool)
                         for a, b in zip(tabs1, tabs2)])
    small = min(int(d1.sum()), int(d2.sum()))
    return float(np.count_nonzero(d1 & d2)) / small if small > 0 else 1.0


def paired_rank_z(fav: np.ndarray, oth: np.ndarray, upper: bool) -> float:
    """Paired z statistic that the favoured side's score exceeds the other's (``upper``; else falls
    below it): the mean over pairs of the difference of the pooled ranks (ties averaged, infinities
    allowed) over its standard error. Threshold-free, so a family whose scores separate D from D' only
    by noise scores about N(0, 1) whatever its tails do."""
    from scipy import stats

    n = fav.size
    if n < 2 or oth.size != n:
        return 0.0
    r = stats.rankdata(np.concatenate([fav, oth]))
    d = r[:n] - r[n:]
    sd = float(d.std(ddof=1))
    if not sd > 0:
        return 0.0
    z = float(d.mean()) / (sd / math.sqrt(n))
    return z if upper else -z


def all_draws_paired(ev, fav_owner: int, tabs1: list, tabs2: list, n: int, alpha: float):
    """``(prediction, threshold)`` for an unfitted event: :func:`held_out_paired` at HELD_OUT_LEVEL on
    *all* the selection pairs (the i-th draws of D and D' in ``tabs1``, ``tabs2``), maximised over at
    most RANK_GRID thresholds of its score (its distinct values, or pooled quantiles), same tail.
    Five times the held-out pairs: the ranking of a weak per-output signal (LaplaceParallel's count,
    a log-odds signal of 0.05 against a held-out noise of 0.04) is no longer decided by the noise of
    20 % of the draws. ``(-inf, None)`` when nothing is predicted."""
    x1 = np.concatenate([score_values(ev, t) for t in tabs1])
    x2 = np.concatenate([score_values(ev, t) for t in tabs2])
    if x1.size != x2.size or x1.size == 0:
        return -np.inf, None, 0.0
    fav, oth = (x1, x2) if fav_owner == 0 else (x2, x1)
    z = paired_rank_z(fav, oth, ev.upper)
    pooled = np.concatenate([fav, oth])
    v = np.unique(pooled[np.isfinite(pooled)])
    if v.size == 0:
        return -np.inf, None, z
    if v.size > RANK_GRID:
        v = np.unique(np.quantile(pooled[np.isfinite(pooled)], np.linspace(0.0, 1.0, RANK_GRID)))
    nv = fav.size
    if ev.upper:  # x >= t; both in E iff min >= t
        key = lambda y: nv - np.searchsorted(np.sort(y), v, side="left")  # noqa: E731
        k1, k2, both = key(fav), key(oth), key(np.minimum(fav, oth))
    else:  # x <= t; both in E iff max <= t
        key = lambda y: np.searchsorted(np.sort(y), v, side="right")  # noqa: E731
        k1, k2, both = key(fav), key(oth), key(np.maximum(fav, oth))
    pred = held_out_paired(k1 - both, k2 - both, k1, k2, nv, n, alpha)
    j = int(np.argmax(pred))
    return (float(pred[j]), float(v[j]), z) if np.isfinite(pred[j]) else (-np.inf, None, z)


def rank_paired(events, goals, owner, v1: OutputTable, v2: OutputTable, n: int, alpha: float,
                 override: dict | None = None) -> int:
    """The epsilon-goal event with the best :func:`held_out_paired` prediction on the held-out
    selection draws ``v1``, ``v2`` (their i-th outputs form a pair, like certification draws), or the
    prediction ``override[i]`` for an event ``i`` ranked otherwise (:func:`all_draws_paired`);
    -1 when no prediction is finite."""
    idx = [i for i in range(len(events)) if goals[i] == "epsilon"]
    if not idx or v1.size == 0 or v1.size != v2.size:
        return -1
    cache: dict[int, np.ndarray] = {}

    def inside(t, ev, side):
        if isinstance(ev, ScoreAbove):
            key = (id(ev.score), side)
            if key not in cache:
                cache[key] = ev.score(t)
            x = cache[key]
            return x >= ev.threshold if ev.upper else x <= ev.threshold
        return np.asarray(ev.contains(t), dtype=bool)

    stats = []
    for i in idx:
        a, b = inside(v1, events[i], 0), inside(v2, events[i], 1)
        if owner[i] == 1:
            a, b = b, a
        stats.append((np.count_nonzero(a & ~b), np.count_nonzero(b & ~a), np.count_nonzero(a), np.count_nonzero(b)))
    st = np.array(stats, dtype=float).T
    pred = held_out_paired(st[0], st[1], st[2], st[3], v1.size, n, alpha)
    for j, i in enumerate(idx):
        if override and i in override:
            pred[j] = override[i]
    if not np.isfinite(pred).any():
        return -1
    return idx[int(np.argmax(pred))]


def rank_top(events, goals, owner, preds, v1: OutputTable, v2: OutputTable) -> int:
    """The event that gets the paired bound, chosen on the held-out selection draws ``v1``, ``v2``.

    Each epsilon-goal event is scored by how well its underlying score (the feature of a
    half-line, the learned score, the indicator of an outcome set) separates the held-out
    outputs of its favoured dataset from the other's: the Mann-Whitney z, oriented. Unlike the
    selection's predicted epsilon of a tail event (the best of thousands of scanned thresholds,
    often a handful of outputs), it is not inflated by the threshold search and uses every
    held-out output, so a score that tracks the likelihood ratio stands out even when each output
    carries little evidence. Among the events within RANK_Z_CUT of the best z, the one with the
    best ``preds`` (the smaller of the epsilon predicted from the held-out counts and from the
    selection counts) wins. -1 when none separates."""
    zs = {}
    best = -1
    key = None
    for i, ev in enumerate(events):
        if goals[i] != "epsilon":
            continue
        if isinstance(ev, HalfLine):
            tag, f1, f2, up = ("f", ev.feature), v1.features[:, ev.feature], v2.features[:, ev.feature], ev.upper
        elif isinstance(ev, ScoreAbove):
            tag, f1, f2, up = ("s", id(ev.score)), None, None, ev.upper
        else:
            tag, up = ("e", i), True
            f1, f2 = ev.contains(v1).astype(float), ev.contains(v2).astype(float)
        if tag not in zs:
            if tag[0] == "s":
                f1, f2 = ev.score(v1), ev.score(v2)
            zs[tag] = rank_z(np.asarray(f1, dtype=float), np.asarray(f2, dtype=float))
        z = zs[tag] * (1 if up else -1) * (1 if owner[i] == 0 else -1)
        if z > 0 and (key is None or z > key[0]):
            key = (z, i)
    if key is None:
        return best
    cut = RANK_Z_CUT * key[0]
    cand = [i for i in range(len(events)) if goals[i] == "epsilon" and i in _oriented(events, owner, zs, cut)
            and math.isfinite(preds[i])]
    return max(cand, key=lambda i: preds[i]) if cand else key[1]


def _oriented(events, owner, zs, cut) -> set:
    out = set()
    for i, ev in enumerate(events):
        if isinstance(ev, HalfLine):
            tag, up = ("f", ev.feature), ev.upper
        elif isinstance(ev, ScoreAbove):
            tag, up = ("s", id(ev.score)), ev.upper
        else:
            tag, up = ("e", i), True
        if tag in zs and zs[tag] * (1 if up else -1) * (1 if owner[i] == 0 else -1) >= cut:
            out.add(i)
    return out

