"""Event selection for the black-box audit: threshold scans and learned log density-ratio scores.

Everything here runs on the *selection* samples only. For a candidate event E with selection
counts ``a`` of ``n1`` (outputs of D) and ``b`` of ``n2`` (outputs of D'), the bound the
certification samples (sizes ``m1``, ``m2``) would give is *predicted* by plugging the expected
certification counts ``a m1 / n1`` and ``b m2 / n2`` into the one-sided Clopper-Pearson bounds at
the level each certified event gets:

    eps_pred = log((p1_low - delta) / p2_up),     delta_pred = p1_low - exp(eps) p2_up.

So the chosen threshold is the one that maximises the *certified* bound, not the empirical ratio
(which favours tiny events) and not a fixed event probability (which caps the reportable epsilon,
e.g. at ln 100 for a 1 % event). Every distinct score value is tried as a threshold; the scan
uses a Poisson-style approximation of the Clopper-Pearson bounds (Wilson-Hilferty cube root of
the chi-square quantile) and re-ranks its best candidates with the exact beta quantiles.

Scores (all fitted on the selection samples, oriented so that large means "more likely under
D"): the exact-outcome log ratio ``log((c1 + 1/2)/n1) - log((c2 + 1/2)/n2)`` of smoothed counts
(for discrete outputs: events are sets of outcomes), the same on number-masked outcomes, and a
naive-Bayes histogram score: the sum over features of the smoothed log ratio of the two
histograms of that feature (quantile bins of the pooled selection values; exact values when a
feature takes few values), plus the outcome-branch term for structured outputs. The histogram
score on a single feature is the "histogram cells" family: its super-level sets are unions of
cells.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy import special

from .event_families import HalfLine, OutcomeSet, OutputTable, ScoreAbove
from .learned import CountScore, feature_groups, fit_scores

__all__ = ["Candidate", "scan", "scan_both", "predicted", "NaiveBayesScore", "select_events", "select_both", "slots",
           "thresholds"]

#: Candidates per scan re-ranked with exact Clopper-Pearson quantiles.
EXACT_RERANK = 48
#: Histogram bins per feature for the naive-Bayes score.
BINS = 64
#: Threshold scans try every distinct value when there are at most this many; otherwise this
#: many evenly spaced (in rank) values plus every one of the TAIL_THRESHOLDS lowest and highest
#: (where the events with the largest epsilon live). The thresholds depend on selection only.
MAX_THRESHOLDS = 4096
TAIL_THRESHOLDS = 2048


def _cp_lower_real(k, n, alpha):
    k = np.asarray(k, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = special.betaincinv(np.maximum(k, 1e-300), n - k + 1, alpha)
    return np.where(k > 0, np.nan_to_num(out, nan=0.0), 0.0)


def _cp_upper_real(k, n, alpha):
    k = np.asarray(k, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        out = special.betaincinv(k + 1, np.maximum(n - k, 1e-300), 1 - alpha)
    return np.where(k < n, np.nan_to_num(out, nan=1.0), 1.0)


def _approx_lower(k, n, z):
    k = np.asarray(k, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        c = 1 - 1 / (9 * k) - z / (3 * np.sqrt(k))
        out = k * np.maximum(c, 0.0) ** 3 / n
    return np.where(k > 0, np.minimum(out, 1.0), 0.0)


def _approx_upper(k, n, z):
    k1 = np.asarray(k, dtype=float) + 1
    out = k1 * (1 - 1 / (9 * k1) + z / (3 * np.sqrt(k1))) ** 3 / n
    return np.minimum(out, 1.0)


def predicted(a, b, n1, n2, m1, m2, alpha, delta, eps, exact=True):
    """Predicted (eps_lower, delta_lower) for selection counts (a of n1, b of n2); see module doc."""
    A = np.asarray(a, dtype=float) * (m1 / n1)
    B = np.asarray(b, dtype=float) * (m2 / n2)
    if exact:
        lo, up = _cp_lower_real(A, m1, alpha), _cp_upper_real(B, m2, alpha)
    else:
        z = float(special.ndtri(1 - alpha))
        lo, up = _approx_lower(A, m1, z), _approx_upper(B, m2, z)
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.where(lo > delta, np.log(np.maximum(lo - delta, 1e-300)) - np.log(up), -np.inf)
        d = lo - math.exp(min(eps, 700.0)) * up
    return e, d


@dataclass(frozen=True)
class Candidate:
    """One selected event with its predicted bounds (selection samples only)."""

    family: str
    event: object
    goal: str  # "epsilon" or "delta"
    predicted: float


def scan(s1: np.ndarray, s2: np.ndarray, sizes, alpha: float, delta: float, eps: float, upper: bool):
    """Best thresholds of ``score >= t`` (``upper``) or ``score <= t`` over every distinct value.

    Returns ((t_eps, eps_pred), (t_delta, delta_pred)). ``sizes`` = (n1, n2, m1, m2).
    """
    n1, n2, m1, m2 = sizes
    v = thresholds(np.unique(np.concatenate([s1, s2])))
    a1, a2 = np.sort(s1), np.sort(s2)
    if upper:
        a = n1 - np.searchsorted(a1, v, side="left")
        b = n2 - np.searchsorted(a2, v, side="left")
    else:
        a = np.searchsorted(a1, v, side="right")
        b = np.searchsorted(a2, v, side="right")
    e, d = predicted(a, b, n1, n2, m1, m2, alpha, delta, eps, exact=False)
    out = []
    for arr in (e, d):
        k = min(EXACT_RERANK, arr.size)
        top = np.argpartition(-arr, k - 1)[:k] if arr.size > k else np.arange(arr.size)
        ee, dd = predicted(a[top], b[top], n1, n2, m1, m2, alpha, delta, eps, exact=True)
        best = ee if arr is e else dd
        i = int(np.argmax(best))
        out.append((float(v[top[i]]), float(best[i])))
    return out[0], out[1]


def _log_ratio(c1, c2, n1, n2):
    return np.log((c1 + 0.5) / n1) - np.log((c2 + 0.5) / n2)


class _Histogram:
    """Bins of one feature and the smoothed log ratio of the two selection histograms."""

    def __init__(self, x1: np.ndarray, x2: np.ndarray):
        pooled = np.concatenate([x1, x2])
        finite = pooled[np.isfinite(pooled)]
        distinct = np.unique(finite) if finite.size else finite
        if distinct.size <= 2 * BINS:
            # exact values: bin j holds values in [distinct[j-1], distinct[j]), ends hold +-inf
            edges = distinct
        else:
            edges = np.unique(np.quantile(finite, np.linspace(0, 1, BINS + 1)[1:-1]))
        self.edges = edges
        c1 = np.bincount(self.index(x1), minlength=edges.size + 1)
        c2 = np.bincount(self.index(x2), minlength=edges.size + 1)
        self.ratio = _log_ratio(c1, c2, x1.size, x2.size)

    def index(self, x: np.ndarray) -> np.ndarray:
        return np.searchsorted(self.edges, x, side="right")

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return self.ratio[self.index(x)]


class NaiveBayesScore:
    """Sum of per-feature histogram log ratios (+ the outcome-branch log ratio), from selection."""

    def __init__(self, t1: OutputTable, t2: OutputTable, features: list[int]):
        self.features = list(features)
        self.names = [t1.names[j] for j in self.features]
        self.hists = [_Histogram(t1.features[:, j], t2.features[:, j]) for j in self.features]
        self.branch = None
        if t1.kind == "structured":
            keys, inv = np.unique(np.concatenate([t1.skeleton, t2.skeleton]), return_inverse=True)
            if keys.size > 1:
                n1 = t1.size
                c1 = np.bincount(inv[:n1], minlength=keys.size)
                c2 = np.bincount(inv[n1:], minlength=keys.size)
                self.branch = (keys, _log_ratio(c1, c2, n1, t2.size), float(_log_ratio(0, 0, n1, t2.size)))

    def __call__(self, table: OutputTable) -> np.ndarray:
        s = np.zeros(table.size)
        for j, h in zip(self.features, self.hists):
            s += h(table.features[:, j])
        if self.branch is not None:
            keys, lr, unseen = self.branch
            pos = np.minimum(np.searchsorted(keys, table.skeleton), keys.size - 1)
            s += np.where(keys[pos] == table.skeleton, lr[pos], unseen)
        return s

    def describe(self) -> str:
        parts = ", ".join(self.names[:4]) + (f", ... ({len(self.names)} features)" if len(self.names) > 4 else "")
        branch = " + outcome-branch term" if self.branch is not None else ""
        return (f"naive-Bayes log density-ratio score (histograms of {parts}{branch}; fitted on the "
                "selection samples)")


def _outcome_candidates(family, keys1, keys2, examples, sizes, alpha, delta, eps, skeleton):
    n1 = keys1.size
    keys, inv = np.unique(np.concatenate([keys1, keys2]), return_inverse=True)
    c1 = np.bincount(inv[:n1], minlength=keys.size)
    c2 = np.bincount(inv[n1:], minlength=keys.size)
    # continuous outputs: no outcome recurs in the selection, and the set of D's selection outcomes
    # would look like a perfect event that certifies nothing (and costs a set lookup per output),
    # so there is no candidate; on a lattice (some outcome recurs) every seen outcome may join
    if keys.size < 2 or not np.any(c1 + c2 >= 2):
        return []
    single = np.zeros(keys.size, dtype=bool)
    lr = np.where(single, -np.inf, _log_ratio(c1, c2, n1, keys2.size))
    s1, s2 = lr[inv[:n1]], lr[inv[n1:]]
    (te, pe), (td, pd) = scan(s1, s2, sizes, alpha, delta, eps, upper=True)
    out = []
    for t, p, goal in ((te, pe, "epsilon"), (td, pd, "delta")):
        inside = (lr >= t) & ~single
        chosen = keys[inside]
        ex = tuple(examples.get(int(c), f"<outcome {int(c):#x}>") for c in chosen[np.argsort(-lr[inside])][:4])
        out.append(Candidate(family, OutcomeSet(chosen, ex, skeleton), goal, p))
    return out


def thresholds(v: np.ndarray) -> np.ndarray:
    """The candidate thresholds among the sorted distinct values ``v`` (see MAX_THRESHOLDS)."""
    if v.size <= MAX_THRESHOLDS + 2 * TAIL_THRESHOLDS:
        return v
    mid = np.linspace(TAIL_THRESHOLDS, v.size - 1 - TAIL_THRESHOLDS, MAX_THRESHOLDS).round().astype(np.int64)
    return np.concatenate([v[:TAIL_THRESHOLDS], v[np.unique(mid)], v[v.size - TAIL_THRESHOLDS:]])


def _counts(s1: np.ndarray, s2: np.ndarray):
    """Candidate thresholds of the pooled scores and, per value, the counts of ``>= v`` and ``<= v``."""
    v = thresholds(np.unique(np.concatenate([s1, s2])))
    a1, a2 = np.sort(s1), np.sort(s2)
    up1 = s1.size - np.searchsorted(a1, v, side="left")
    up2 = s2.size - np.searchsorted(a2, v, side="left")
    lo1 = np.searchsorted(a1, v, side="right")
    lo2 = np.searchsorted(a2, v, side="right")
    return v, up1, up2, lo1, lo2


def _best(v, a, b, sizes, alpha, delta, eps):
    """((t_eps, eps_pred), (t_delta, delta_pred)) for events with counts a (favoured side) and b."""
    n1, n2, m1, m2 = sizes
    e, d = predicted(a, b, n1, n2, m1, m2, alpha, delta, eps, exact=False)
    out = []
    for arr, is_e in ((e, True), (d, False)):
        k = min(EXACT_RERANK, arr.size)
        top = np.argpartition(-arr, k - 1)[:k] if arr.size > k else np.arange(arr.size)
        ee, dd = predicted(a[top], b[top], n1, n2, m1, m2, alpha, delta, eps, exact=True)
        best = ee if is_e else dd
        i = int(np.argmax(best))
        out.append((float(v[top[i]]), float(best[i])))
    return out[0], out[1]


def scan_both(s1, s2, sizes, alpha, delta, eps):
    """Best thresholds for both directions and both tails, from one sort of each sample.

    Returns ``{(direction, upper): ((t_eps, eps_pred), (t_delta, delta_pred))}`` where direction 0
    favours the first sample (sizes ``(n1, n2, m1, m2)``) and 1 the second.
    """
    n1, n2, m1, m2 = sizes
    v, up1, up2, lo1, lo2 = _counts(s1, s2)
    out = {}
    for upper, c1, c2 in ((True, up1, up2), (False, lo1, lo2)):
        out[(0, upper)] = _best(v, c1, c2, (n1, n2, m1, m2), alpha, delta, eps)
        out[(1, upper)] = _best(v, c2, c1, (n2, n1, m2, m1), alpha, delta, eps)
    return out


def slots(kind: str, names: tuple[str, ...], learned: bool = True) -> int:
    """How many candidate events :func:`select_both` can return per direction for a table of this
    layout (fixed before any selection draw, so the multiplicity correction is set in advance)."""
    n = 2 + 2  # half-line, exact outcome
    if kind == "structured":
        n += 2 + 2  # outcome branch, naive Bayes
        return n
    coords, diffs, _, _ = feature_groups(names)
    if coords:
        n += 2  # naive Bayes
    if learned and kind == "numeric" and len(names) >= 2:
        n += 2 * ((len(coords) > 1) + (len(diffs) > 1) + 1)
    return n


def select_both(t1: OutputTable, t2: OutputTable, sizes, alpha: float, delta: float, eps: float,
                learned: bool = True) -> tuple[list[Candidate], list[Candidate]]:
    """Candidates for the events favouring D (``t1``) and those favouring D' (``t2``).

    At most :func:`slots` candidates per direction: per family, one event for the epsilon goal
    and one for the delta goal. ``sizes`` = (n1, n2, m1, m2) as in :func:`scan`.
    """
    n1, n2, m1, m2 = sizes
    rev = (n2, n1, m2, m1)
    out: tuple[list, list] = ([], [])
    best: list[dict] = [{}, {}]
    for j, name in enumerate(t1.names):
        res = scan_both(t1.features[:, j], t2.features[:, j], sizes, alpha, delta, eps)
        for (d, upper), ((te, pe), (td, pd)) in res.items():
            for goal, t, p in (("epsilon", te, pe), ("delta", td, pd)):
                if goal not in best[d] or p > best[d][goal].predicted:
                    best[d][goal] = Candidate("half-line", HalfLine(j, name, t, upper), goal, p)
    for d in (0, 1):
        out[d].extend(best[d].values())
    ex = {**t2.examples, **t1.examples}
    out[0].extend(_outcome_candidates("exact outcome", t1.codes, t2.codes, ex, sizes, alpha, delta, eps, False))
    out[1].extend(_outcome_candidates("exact outcome", t2.codes, t1.codes, ex, rev, alpha, delta, eps, False))
    if t1.kind == "structured":
        out[0].extend(_outcome_candidates("outcome branch", t1.skeleton, t2.skeleton, {}, sizes, alpha, delta, eps, True))
        out[1].extend(_outcome_candidates("outcome branch", t2.skeleton, t1.skeleton, {}, rev, alpha, delta, eps, True))
        feats = [j for j, nm in enumerate(t1.names) if nm.startswith("number[")]
    else:
        feats = [j for j, nm in enumerate(t1.names) if nm.startswith("output")]
    scores: list[tuple[str, object, bool]] = []  # (family, score, oriented towards D)
    if feats or t1.kind == "structured":
        scores.append(("learned score", NaiveBayesScore(t1, t2, feats), True))
    if learned:
        for fam, sc in fit_scores(t1, t2):
            scores.append((fam, sc, not isinstance(sc, CountScore)))
    for fam, sc, oriented in scores:
        s1, s2 = sc(t1), sc(t2)
        res = scan_both(s1, s2, sizes, alpha, delta, eps)
        for d in (0, 1):
            # oriented scores: large favours D, so D's events are upper tails and D''s lower tails
            tails = ((d == 0),) if oriented else (True, False)
            for goal, gi in (("epsilon", 0), ("delta", 1)):
                t, p, up = max(((res[(d, u)][gi][0], res[(d, u)][gi][1], u) for u in tails), key=lambda r: r[1])
                out[d].append(Candidate(fam, ScoreAbove(sc, t, up), goal, p))
    return out


def select_events(t1: OutputTable, t2: OutputTable, sizes, alpha: float, delta: float, eps: float) -> list[Candidate]:
    """Candidates (one per family and goal) for the events favouring D (outputs ``t1``) over D'."""
    return select_both(t1, t2, sizes, alpha, delta, eps)[0]
