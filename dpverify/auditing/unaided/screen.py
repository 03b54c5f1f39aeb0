"""The screen of an unaided audit: which candidate pair is most likely to show a violation, on cheap draws.

:func:`screen_candidates` ranks :class:`~dpverify.auditing.unaided.candidates.Candidate` pairs by successive halving:
every candidate gets a few draws per dataset, the better half gets twice as many more, and so on until
``keep`` remain; the draws are all on the search's own *selection* stream, so nothing here enters the
certified bound (the winner is certified afterwards on fresh draws).

Candidates are ranked first by :func:`certifiable_score`: the black-box tester's own events (half-lines, exact
outcomes, outcome branches, the naive-Bayes score), chosen on the first half of a candidate's draws, and the
certified epsilon each predicts at the audit's sample size from its counts on the second half, minus the claim's
epsilon -- the candidate whose violation the certification is most likely to confirm. Ties (-inf: nothing
predicts a certified violation) are broken by the z-score below. Before round 14 the z-score alone ranked, and
the redrawn-threshold SVTs of ``dpverify_mechanisms.faulty`` were not found unaided: their violation lives in the
naive-Bayes score of the outcome branch and the released value, which no single feature's event shows.

The z-score of a pair (:func:`violation_score`) is the largest z-statistic of a violation of its claim over a
family of events, both directions: for an event E with frequencies p1 (on D) and p2 (on D'),
``(p1 - e^eps p2 - delta) / sqrt(var1/n1 + e^(2 eps) var2/n2)``. The events are half-lines and exact
values of every output feature (the first coordinates, their sum, minimum and maximum, the output's size),
non-finite outputs, and "``sample`` raised" -- an exception is an observable outcome of a dataset, so a
record that makes the mechanism raise on one dataset and not on the other is a distinguishing event.
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field

import numpy as np

from ...errors import DPVerifyError, MechanismError
from ...messages import describe

__all__ = ["SideDraws", "draw_side", "violation_score", "certifiable_score", "screen_candidates", "Screened",
           "CERTIFY_LEVEL"]

#: At most this many output coordinates become features (then sum, min, max and size).
MAX_COORDINATES = 16
#: Half-line thresholds per feature when a feature takes many values (quantiles of the pooled draws).
THRESHOLDS = 31
#: A feature with at most this many distinct values also gets its exact values as events.
EXACT_VALUES = 24
#: Draws per dataset when ``sample`` raised on a batch (they are then drawn one at a time).
SINGLE_DRAWS = 32
#: Level of the one-sided bounds on the held-out frequencies in :func:`certifiable_score` (about one standard error:
#: small held-out counts do not predict large epsilons, large ones are read nearly at their value).
CERTIFY_LEVEL = 0.16
#: A z-score at least this large ranks a candidate by its z-score (module docstring); below, the prediction decides.
Z_EVIDENCE = 2.0


@dataclass
class SideDraws:
    """The screen's draws of one dataset: feature rows of the outputs, and how many draws raised (per type)."""

    rows: list = field(default_factory=list)
    raised: dict = field(default_factory=dict)
    total: int = 0
    outputs: list = field(default_factory=list)  # the outputs themselves (for certifiable_score)

    def add(self, outputs, raised: dict, n: int, items=None) -> None:
        if outputs is not None and len(outputs):
            self.rows.append(outputs)
        if items is not None and len(items):
            self.outputs.extend(list(items))
        for k, v in raised.items():
            self.raised[k] = self.raised.get(k, 0) + v
        self.total += n

    @property
    def raised_count(self) -> int:
        return sum(self.raised.values())


def _element(x) -> float:
    """One output element as a number: itself, NaN for None, else a category code of its text (CRC-32, the same in
    every process, so a seed reproduces the search)."""
    if x is None:
        return math.nan
    if isinstance(x, (bool, np.bool_)):
        return float(x)
    try:
        return float(x)
    except (TypeError, ValueError):
        return float(zlib.crc32(repr(x).encode()))  # a stable code: Python's str hash changes per process


def _flat(o) -> np.ndarray:
    try:
        return np.asarray(o, dtype=float).ravel()
    except (TypeError, ValueError):
        pass
    try:
        elements = np.asarray(o, dtype=object).ravel()
    except Exception:  # an output numpy cannot even hold: one category per value
        elements = [o]
    return np.array([_element(x) for x in elements], dtype=float)


def _dense_features(block: np.ndarray) -> np.ndarray:
    """:func:`_features` of outputs that form one float array (n, k): the same columns, computed at once."""
    n, k = block.shape
    width = min(MAX_COORDINATES, k)
    out = np.full((n, MAX_COORDINATES + 4), np.nan)
    out[:, :width] = block[:, :width]
    if k:
        with np.errstate(all="ignore"):
            seen = ~np.isnan(block)
            any_seen = seen.any(axis=1)
            out[:, MAX_COORDINATES] = np.nansum(block, axis=1)
            lo = np.where(seen, block, np.inf).min(axis=1)
            hi = np.where(seen, block, -np.inf).max(axis=1)
            out[:, MAX_COORDINATES + 1] = np.where(any_seen, lo, np.nan)
            out[:, MAX_COORDINATES + 2] = np.where(any_seen, hi, np.nan)
    out[:, MAX_COORDINATES + 3] = k
    return out


def _features(outputs) -> np.ndarray:
    """(n, MAX_COORDINATES + 4) float features of ``n`` outputs: the first coordinates, sum, min, max, size; NaN
    where absent (None elements are NaN, other non-numbers a category code). One width for every output, so
    outputs of different sizes (a histogram with a new partition's bin) compare column by column."""
    if isinstance(outputs, np.ndarray) and outputs.dtype.kind in "biuf" and outputs.ndim >= 1:
        return _dense_features(outputs.reshape(outputs.shape[0], -1).astype(float))
    flat = [_flat(o) for o in outputs]
    out = np.full((len(flat), MAX_COORDINATES + 4), np.nan)
    for i, a in enumerate(flat):
        k = min(MAX_COORDINATES, a.size)
        out[i, :k] = a[:k]
        if a.size:
            with np.errstate(all="ignore"):
                seen = a[~np.isnan(a)]
                out[i, MAX_COORDINATES:MAX_COORDINATES + 3] = (
                    np.nansum(a), seen.min() if seen.size else np.nan, seen.max() if seen.size else np.nan)
        out[i, MAX_COORDINATES + 3] = a.size
    return out


def draw_side(mechanism, data, n: int, rng: np.random.Generator) -> tuple:
    """``(features or None, raised counts, draws, outputs)``: ``n`` draws of ``sample(data, n, rng)``; when that
    raises, :data:`SINGLE_DRAWS` draws one at a time, each raise counted by exception type (``outputs``: the draws
    that returned, as a list)."""
    try:
        out = mechanism.sample(data, n, rng)
        if isinstance(out, np.ndarray) and out.dtype.kind in "biuf" and out.ndim >= 1 and out.shape[0] == n:
            return _features(out), {}, n, list(out)
        items = _as_items(mechanism, out, n)
        return _features(items), {}, n, items
    except DPVerifyError:
        raise
    except Exception:  # an exception is an outcome of this dataset: count it draw by draw
        pass
    rows, raised = [], {}
    for _ in range(SINGLE_DRAWS):
        try:
            rows.extend(_as_items(mechanism, mechanism.sample(data, 1, rng), 1))
        except DPVerifyError:
            raise
        except Exception as exc:
            raised[type(exc).__name__] = raised.get(type(exc).__name__, 0) + 1
    return (_features(rows) if rows else None), raised, SINGLE_DRAWS, rows


def _as_items(mechanism, out, n: int) -> list:
    """The ``n`` outputs of one ``sample`` call as a list; MechanismError (the tester's rule, with its words) when
    the call returned another number of outputs -- the screen never makes up draws."""
    if isinstance(out, np.ndarray) and out.ndim >= 1 and out.shape[0] == n:
        return list(out)
    items = list(out) if hasattr(out, "__len__") and not isinstance(out, (str, bytes)) else [out]
    if len(items) != n:
        raise MechanismError(f"{describe(mechanism)}.sample(size={n}) returned {len(items)} outputs; it must return "
                             f"{n} outputs stacked on axis 0; unaided search, screen draws.")
    return items


def _event_matrix(f1: np.ndarray, f2: np.ndarray) -> tuple:
    """Indicator matrices (n1, E) and (n2, E) of the event family on the pooled features."""
    cols1, cols2 = [], []
    for j in range(f1.shape[1] if f1.size else f2.shape[1]):
        a, b = f1[:, j], f2[:, j]
        for test in (np.isnan, lambda x: x == np.inf, lambda x: x == -np.inf):
            cols1.append(test(a))
            cols2.append(test(b))
        pooled = np.concatenate([a, b])
        pooled = pooled[np.isfinite(pooled)]
        if pooled.size == 0:
            continue
        values = np.unique(pooled)
        if values.size <= EXACT_VALUES:
            for v in values:
                cols1.append(a == v)
                cols2.append(b == v)
            cuts = values[:-1]
        else:
            cuts = np.unique(np.quantile(pooled, np.linspace(0, 1, THRESHOLDS + 2)[1:-1]))
        for t in cuts:
            cols1.append(a <= t)
            cols2.append(b <= t)
    return np.stack(cols1, axis=1), np.stack(cols2, axis=1)


def violation_score(side1: SideDraws, side2: SideDraws, epsilon: float, delta: float) -> float:
    """The largest z-statistic of a violation of (``epsilon``, ``delta``) over the event family, both
    directions (see the module docstring); raised draws are the event "raised" (and in no value event)."""
    n1, n2 = side1.total, side2.total
    if n1 == 0 or n2 == 0:
        return -math.inf
    f1 = np.concatenate(side1.rows) if side1.rows else None
    f2 = np.concatenate(side2.rows) if side2.rows else None
    width = MAX_COORDINATES + 4 if (f1 is not None or f2 is not None) else 0  # every feature row has this width
    f1 = f1 if f1 is not None else np.empty((0, width))
    f2 = f2 if f2 is not None else np.empty((0, width))
    k1 = np.zeros(0)
    k2 = np.zeros(0)
    if width:
        e1, e2 = _event_matrix(f1, f2)
        k1, k2 = e1.sum(axis=0).astype(float), e2.sum(axis=0).astype(float)
    k1 = np.append(k1, side1.raised_count)
    k2 = np.append(k2, side2.raised_count)
    best = -math.inf
    growth = math.exp(min(epsilon, 700.0))
    for a, na, b, nb in ((k1, n1, k2, n2), (k2, n2, k1, n1)):
        for ka, kb in ((a, b), (na - a, nb - b)):  # each event and its complement
            pa, pb = ka / na, kb / nb
            va = (ka + 0.5) / (na + 1) * (1 - (ka + 0.5) / (na + 1)) / na
            vb = (kb + 0.5) / (nb + 1) * (1 - (kb + 0.5) / (nb + 1)) / nb
            z = (pa - growth * pb - delta) / np.sqrt(va + growth**2 * vb)
            best = max(best, float(np.max(z)))
    return best


def certifiable_score(side1: SideDraws, side2: SideDraws, points, samples: int) -> float:
    """How far above its epsilon the black-box tester's own events predict the certified epsilon, at the best of the
    claim's ``points`` (``(epsilon, delta)`` pairs): the events of
    :func:`~dpverify.auditing.blackbox.scores.select_both` (half-lines, exact outcomes, outcome branches and the
    naive-Bayes score, without the fitted linear scores) chosen on the first half of these draws, each one's
    epsilon read from its counts on the second half (so a threshold that fits noise does not predict its own luck;
    bounds at :data:`CERTIFY_LEVEL`), the best minus that point's epsilon; -inf when none predicts a certified
    epsilon, or when the outputs do not form one table. ``samples`` (the certification's draws per dataset) sizes
    the selection's own predictions. The table is built once for all the points."""
    from ..blackbox.event_families import to_table  # deferred: scipy (beta quantiles), only once an audit screens
    from ..blackbox.outputs import as_outputs, take  # deferred: as above
    from ..blackbox.scores import predicted, select_both  # deferred: as above

    o1, o2 = side1.outputs, side2.outputs
    if len(o1) < 4 or len(o2) < 4:
        return -math.inf
    h1, h2 = len(o1) // 2, len(o2) // 2
    best = -math.inf
    try:
        t = to_table(as_outputs(list(o1) + list(o2)), "unaided screen")
        f1, v1 = take(t, slice(0, h1)), take(t, slice(h1, len(o1)))
        f2, v2 = take(t, slice(len(o1), len(o1) + h2)), take(t, slice(len(o1) + h2, None))
        for epsilon, delta in points:
            cands = select_both(f1, f2, (h1, h2, samples, samples), CERTIFY_LEVEL, delta, epsilon, False)
            for d, side in enumerate(cands):
                fav, oth = (v1, v2) if d == 0 else (v2, v1)
                for c in side:
                    if c.goal != "epsilon" or not math.isfinite(c.predicted):
                        continue
                    a = int(np.sum(c.event.contains(fav)))
                    b = int(np.sum(c.event.contains(oth)))
                    e, _ = predicted(a, b, fav.size, oth.size, fav.size, oth.size, CERTIFY_LEVEL, delta, epsilon)
                    if math.isfinite(float(e)):
                        best = max(best, float(e) - epsilon)
    except DPVerifyError:
        raise
    except Exception:  # outputs the tester's tables do not hold (e.g. arrays of two shapes): no prediction
        return -math.inf
    return best


@dataclass(frozen=True)
class Screened:
    """The screen's outcome: the candidates' indices best first (``order``), their z-scores, the draws per
    dataset spent in all, the rounds, the exception types seen (type -> candidates where it raised), which
    screen ranked them (``method``: "statistical", or "grey-box" when replays showed exact violations), and the
    statistical screen's first ranking key, :func:`certifiable_score` (``predicted``)."""

    order: tuple
    scores: tuple
    draws: int
    rounds: int
    raised: tuple
    method: str = "statistical"
    predicted: tuple = ()  # per candidate: certifiable_score (the ranking's first key), -inf where none


def _rank(z: float, cert: float, i: int) -> tuple:
    """The screen's order: a z-score of at least :data:`Z_EVIDENCE` first (largest first, as before round 14); below
    it, where single-feature events show no violation beyond noise, :func:`certifiable_score` decides."""
    return (-max(z, Z_EVIDENCE), -cert, -z, i)


def screen_candidates(units: list, cands: list, rng: np.random.Generator, budget: int, *, samples: int,
                      keep: int = 1) -> Screened:
    """Successive halving over ``cands`` within about ``budget`` draws in all, both datasets of every candidate
    counted, and at least 16 per dataset and round (see the module docstring). ``units`` are the
    ``(mechanism, domain)`` pairs the candidates belong to (``candidate.unit`` indexes them: one per
    configuration of a parameter sweep, else one). ``samples``: the audit's draws per dataset, at which the winner
    is certified (:func:`certifiable_score`)."""
    count = len(cands)
    rounds = max(1, math.ceil(math.log2(max(count / keep, 1))) + 1)
    alive = list(range(count))
    sides = [(SideDraws(), SideDraws()) for _ in cands]
    scores = [-math.inf] * count
    certs = [-math.inf] * count
    spent, raised_by = 0, {}
    for r in range(rounds):
        n = max(16, budget // (2 * rounds * max(len(alive), 1)))
        for i in alive:
            mechanism, domain = units[cands[i].unit]
            d, dp = cands[i].pair(domain)
            for side, data in zip(sides[i], (d, dp)):
                feats, raised, drawn, items = draw_side(mechanism, data, n, rng)
                side.add(feats, raised, drawn, items)
                spent += drawn
                for t in raised:
                    raised_by.setdefault(t, set()).add(i)
            scores[i] = max(violation_score(sides[i][0], sides[i][1], e, dl)
                            for e, dl in cands[i].claim.audit_points(3))
            certs[i] = certifiable_score(sides[i][0], sides[i][1], cands[i].claim.audit_points(3), samples)
        alive.sort(key=lambda i: _rank(scores[i], certs[i], i))
        if len(alive) <= keep:
            break
        alive = alive[:max(keep, (len(alive) + 1) // 2)]
    rest = sorted((i for i in range(count) if i not in set(alive)), key=lambda i: _rank(scores[i], certs[i], i))
    order = tuple(alive) + tuple(rest)  # the last round's survivors first: they have the most draws
    return Screened(order, tuple(scores), spent, r + 1, tuple((t, len(v)) for t, v in sorted(raised_by.items())),
                    predicted=tuple(certs))
