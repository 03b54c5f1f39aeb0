"""Black-box audit: certified lower bounds on epsilon from samples of M(D) and M(D') alone.

**Pipeline** (one pair at a time, so memory does not grow with the sample count):

1. *Probe*: ``PROBE_OUTPUTS`` outputs per dataset (their own seeds) fix the layout (numeric arrays
   of one shape, else structured outputs; the feature names) and so the number of candidate events
   per direction (:func:`scores.slots`); the multiplicity ``K`` is fixed before any selection draw.
   A later batch that does not fit a numeric layout stops the audit with a MechanismError.
2. *Selection*: ``min(SELECTION_CAP, selection_fraction * samples)`` outputs per dataset are
   drawn, kept, and used to choose events. For the direction "D->D'" (events favouring D) each
   *family* (:mod:`dpverify.auditing.scores`, :mod:`dpverify.auditing.learned`) gives one event
   maximising the predicted certified epsilon and one maximising the predicted delta at
   ``claim.epsilon``: half-lines on every 1-D feature (coordinates, differences, sum, max, min,
   float granularity), sets of exact outcomes, outcome branches (structured outputs), a
   naive-Bayes histogram score, and - for vectors - learned scores (counts past the selection
   medians, a logistic regression on engineered features), each thresholded at the best of every
   distinct value. "D'->D" is the same with the roles swapped.
3. *Certification*: fresh outputs are drawn in batches; each batch is reduced at once to the
   counts of every chosen event (a few bytes per event; counts merge by addition, so any executor
   gives the same result) and dropped.
4. *Bounds*: each event E gets a lower bound on P_D(E) and an upper bound on P_D'(E) at level
   ``alpha_c / (2K)`` (``alpha = 1 - confidence``): 2K bounds in all, simultaneous by the union
   bound. For an (eps, delta)-DP mechanism P_D(E) <= e^eps P_D'(E) + delta, so

       epsilon_lower = log((p1_low - delta) / p2_up),     delta_lower(eps) = p1_low - e^eps p2_up.

   The whole profile eps -> delta_lower(eps) over a grid is reported (``delta_curve`` of each
   direction): it is the maximum over the same certified events, so it holds for every eps of
   the grid at once.

   *Paired bound* (pure claims, delta = 0): the i-th certification output of D and the i-th of
   D' form an i.i.d. pair, so the event with the best predicted epsilon (chosen on selection
   draws) also gets a joint lower bound on log(P_D(E) / P_D'(E)) from its discordant pairs
   (:func:`dpverify.auditing.bounds.paired_log_ratio_lower`), about 40 % tighter than the two
   separate bounds. Weighted union bound: of each pair's share of the final alpha,
   ``PAIRED_SHARE`` goes to that bound, ``PAIRED_MARGIN_SHARE`` to its margin correction and the
   rest to the 2K Clopper-Pearson bounds (each at ``0.25 alpha / (2K)``); the weights depend on
   the selection draws only, which are independent of the certification draws.
   The event is ranked on the last ``VALIDATION_SHARE`` of the selection draws, held out from
   the threshold scans (an unfitted event - a half-line, a count past medians - on all the
   selection pairs, :func:`_all_draws_paired`; and when some score's paired rank z reaches
   ``RANK_Z_MIN``, only such scores compete), by the paired bound it is predicted to get
   (:func:`_held_out_paired`:
   the held-out discordant pairs' odds ratio at its ``HELD_OUT_LEVEL`` lower bound, so rare
   events do not win on their noise, minus the certification's penalty and the margin
   correction). Each threshold event also competes in a version whose threshold maximises that
   prediction on the fitting draws (``PAIRED_THRESHOLD_LEVEL``). The winner's threshold is then
   chosen for the paired bound: for a half-line or a score without fitted weights, from a
   two-parameter logistic calibration of its score on all the selection draws
   (:func:`_calibrated_tails`: the far tails, where the best paired event of a small
   per-coordinate loss lives, are too noisy to choose from by counts); for a fitted score, again
   on the held-out draws. The Mann-Whitney rule (:func:`_rank_top`) only when no prediction is
   finite. The other direction's best event also gets a paired bound when its score's z reaches
   ``RANK_Z_MIN`` and at most ``SECOND_OVERLAP_MAX`` of its discordant selection pairs are the
   first's (:func:`_discordant_overlap`); the paired share is then split evenly between the two
   (weighted union bound).

**Early stopping** (``stop_early=True``): a pilot round (2,000 selection + up to 8,000
certification outputs per dataset, at ``alpha/10``) and the main round (``alpha/10``) look at the
counts after every batch with anytime-valid confidence sequences
(:mod:`dpverify.auditing.sequential`), and the audit stops as soon as one certifies a violation;
the final counts of the main round are certified with Clopper-Pearson at the remaining
``0.8 alpha``. The bounds stay valid under this optional stopping (Ville's inequality, union
bound over the three parts). Without it (the default) all of ``alpha`` goes to Clopper-Pearson.

**Verdict.** ``violated`` when a certified bound contradicts the claim (or, for a claim that
offers ``delta_at(eps)``, the certified curve exceeds it somewhere on the grid);
``inconclusive`` when some event shows *evidence* against the claim short of certification: its
bounds at the overall level ``EVIDENCE_ALPHA = 0.5`` (each bound at ``0.5 / (2K)``) already
contradict the claim, i.e. the data would be a violation at confidence 0.5 (so a 3-vs-0 count of
a rare outcome, which carries no evidence, does not make a delta = 0 claim inconclusive, and a
correct mechanism is inconclusive with probability at most 0.5, usually far less unless its claim
is tight); ``not-violated`` otherwise.

**Errors are outcomes.** When ``sample`` raises on a batch, the batch is drawn again one output
at a time with the same generator; each output whose draw raises is the outcome
``error:<TypeName>``, counted per dataset like any other (a mechanism that fails only on D' is
caught by the event "sample raised"). Wrong output counts and NaN remain MechanismError. The
draws that raised are counted per dataset (``AuditResult.raised_draws``, and a note); a pair on
whose two datasets more than ``MOSTLY_RAISED_SHARE`` of the draws raised gets no privacy verdict
unless a violation was certified: MechanismError (the audit saw the exception on both sides, not
the mechanism), raised already after the probe when every probe draw of both raised one type.

**Float bits** (``float_bits=True``): float outputs also get the granularity feature of
:mod:`dpverify.auditing.floatbits` (Mironov 2012), which exposes textbook floating-point noise at
full 53-bit precision. It is off by default because it flags *every* mechanism that adds
floating-point noise to differing values (the correct controls included): the verdict is then
about the implementation's bits, not the idealised real-valued mechanism.

**Randomness and workers.** Every (pair, stage, dataset) gets a child of the root SeedSequence and
every batch a grandchild; batch sizes depend only on the output size, so the result depends on
the seed alone, never on the number of workers. Without an ``executor``, runs of at least
:data:`AUTO_POOL_MIN_OUTPUTS` outputs use a forked process pool of ``min(2, cpu count)`` workers when the
mechanism and pairs can be pickled and the sampler honours ``rng`` or draws independently in the workers
(serial otherwise; a note says so:
:func:`dpverify.auditing._runner.auto_executor`).
"""
from __future__ import annotations

import math
import os
import pickle
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any

import numpy as np
from scipy import special

from .._validate import open_unit
from ..claims import PrivacyClaim, Verdict
from ..errors import InvalidArgument, MechanismError
from . import _runner
from ._runner import InlineExecutor  # noqa: F401  (public here too: tests and benchmarks force a serial audit)
from .bounds import clopper_pearson_lower, clopper_pearson_upper, paired_log_ratio_lower
from .events import HalfLine, OutputTable, RaisedDraw, ScoreAbove, to_table, with_errors
from .result import AuditResult, DirectionResult
from .learned import LogisticScore
from .scores import NaiveBayesScore, _thresholds, predicted, scan, select_both, slots
from .sequential import cs_lower, cs_upper

__all__ = ["audit_black_box", "InlineExecutor", "AUTO_POOL_MIN_OUTPUTS", "SELECTION_FRACTION", "MIN_SAMPLES",
           "SELECTION_CAP"]

#: Total outputs (over pairs and datasets) from which the default run uses a process pool.
AUTO_POOL_MIN_OUTPUTS = _runner.AUTO_POOL_MIN_OUTPUTS
#: Share of the samples used to choose events (the rest certify them).
SELECTION_FRACTION = 0.4
#: Fewest samples per dataset a black-box audit accepts.
MIN_SAMPLES = 20
#: Outputs per batch at most (fewer for large outputs); fixed, so results do not depend on workers.
BATCH_OUTPUTS = 1 << 16
STRUCTURED_BATCH_OUTPUTS = 1 << 14
#: Outputs per dataset drawn (from their own seeds) to fix the output layout before any batch.
PROBE_OUTPUTS = 64
#: Selection outputs kept per dataset at most (the rest of the budget certifies).
SELECTION_CAP = 100_000
#: Early stopping: pilot selection size, pilot certification looks, shares of alpha.
PILOT_SELECTION = 2_000
PILOT_LOOKS = (1_000, 1_000, 2_000, 4_000)
PILOT_SHARE = 0.1
SEQUENTIAL_SHARE = 0.1
#: Smallest budget (per dataset) for which stop_early runs a pilot round.
PILOT_MIN_SAMPLES = 40_000
#: First certification batch of a sequential round (batches then double up to the batch size).
FIRST_LOOK = 1_024
#: Overall level of the "evidence" test behind the inconclusive verdict (union bound over the 2K
#: bounds, like the certification): a correct mechanism is called inconclusive with probability
#: at most this.
EVIDENCE_ALPHA = 0.5
#: A pair on whose two datasets more than this share of the draws raised (probe, selection and
#: certification draws together) gets no privacy verdict unless a violation was certified: the
#: error outcomes are then most of what the audit saw, and an exception on both sides is far more
#: often a broken harness (a wrong ``sample`` signature, an adapter keyword the installed library
#: rejects, a wrong data parameter) than a release. A mechanism that raises on some inputs only is
#: unaffected: on a pair where one side raises and the other does not, the error outcome is a
#: privacy signal and stays one. The probe rule is the same with no draw to spare: when every probe
#: draw (PROBE_OUTPUTS per dataset) raised one exception type on both datasets, the audit stops
#: there (a sampler raising on at most half its draws does so with probability below 2^-128).
MOSTLY_RAISED_SHARE = 0.5
#: Points of the reported delta(eps) grid.
CURVE_POINTS = 33
#: Pure-DP claims: share of a pair's final alpha given to the paired (joint) bound on the log
#: ratio of its top event (the candidate with the best predicted epsilon), and to that bound's
#: margin correction; the rest is split evenly over every event's two Clopper-Pearson bounds.
#: Weights fixed from the selection draws alone (weighted Bonferroni), so the union bound holds.
PAIRED_SHARE = 0.85
PAIRED_MARGIN_SHARE = 0.01
#: Pure claims: share of the selection draws held out to rank the candidates for the paired
#: bound (thresholds are chosen on the rest), when there are at least VALIDATION_MIN of them.
VALIDATION_SHARE = 0.2
VALIDATION_MIN = 1_000
#: Events whose score's held-out z is at least this share of the best one compete on their
#: held-out predicted epsilon for the paired bound.
RANK_Z_CUT = 0.8
#: Level of the lower bound on a held-out odds ratio used to rank events for the paired bound
#: (about 2.3 standard errors below the estimate: the best of a dozen candidates' held-out
#: estimates is biased up by about two of its own standard errors, and rare events have large ones).
HELD_OUT_LEVEL = 0.01
#: Thresholds (distinct values or pooled quantiles) per score over which an unfitted event's paired
#: bound is predicted on all the selection draws (:func:`_all_draws_paired`).
RANK_GRID = 256
#: Paired rank z (:func:`_paired_rank_z`) an event's score needs to be ranked for the paired bound
#: when some event reaches it (a score with no signal does with probability 0.00135).
RANK_Z_MIN = 3.0
#: The other direction's event gets a second paired bound only when at most this share of its (or the
#: first event's, whichever has fewer) discordant selection pairs are discordant for both
#: (:func:`_discordant_overlap`): otherwise the two bounds carry the same evidence.
SECOND_OVERLAP_MAX = 0.5
#: The same level when a threshold is chosen for the paired bound on the fitting draws (nested
#: tails of one score, so less winner's curse than across candidates; chosen on a simulation of the
#: count-score thresholds of LaplaceParallel, never on audit draws).
PAIRED_THRESHOLD_LEVEL = 0.05


def _where(k: int, data: Any, data_prime: Any, which: str) -> str:
    return (f"pair {k} (data={_runner.describe(data, 40)}, data_prime={_runner.describe(data_prime, 40)}), "
            f"outputs drawn from {which}")


def _as_outputs(out: Any) -> Any:
    """Lists of equal-length numeric rows become arrays (the fast path); others object arrays."""
    if isinstance(out, (list, tuple)) and not isinstance(out, np.ndarray):
        try:
            arr = np.asarray(out)
            if arr.dtype.kind in "biuf" and arr.ndim >= 1:
                return arr
        except (ValueError, TypeError):
            pass
        arr = np.empty(len(out), dtype=object)
        arr[:] = list(out) if not all(isinstance(o, (tuple, list)) for o in out) else [tuple(o) for o in out]
        return arr
    return out


_ERROR_TYPES: dict = {}


def _error_instance(name: str) -> BaseException:
    """An exception instance whose type is named ``name`` (the outcome ``error:<name>``)."""
    if name not in _ERROR_TYPES:
        _ERROR_TYPES[name] = type(name, (Exception,), {})
    return _ERROR_TYPES[name]()


def _draw(mechanism: Any, data: Any, size: int, seed: np.random.SeedSequence, where: str):
    """``(outputs, errors)``: the batch, and None or, when ``sample`` raised on the batch, the list
    of exception type names per output (None where the one-output draw succeeded; ``outputs`` is
    then the list of those one-output arrays, None at errors)."""
    rng = np.random.default_rng(seed)
    try:
        out = mechanism.sample(data, size, rng)
    except MechanismError:
        raise
    except Exception:
        out = None
    if out is not None:
        return _runner.check_outputs(mechanism, _as_outputs(out), size, where), None
    rows, errors = [], []
    for _ in range(size):
        try:
            o = mechanism.sample(data, 1, rng)
        except MechanismError:
            raise
        except Exception as exc:
            rows.append(None)
            errors.append(type(exc).__name__)
            continue
        rows.append(_runner.check_outputs(mechanism, _as_outputs(o), 1, where))
        errors.append(None)
    return rows, errors


def _table(mechanism, data, size, seed, where, structured, names, float_bits) -> OutputTable:
    """Worker task: draw one batch and turn it into an OutputTable (``names``: numeric layout)."""
    outputs, errors = _draw(mechanism, data, size, seed, where)
    try:
        if errors is None:
            t = to_table(outputs, where, structured=structured, float_bits=float_bits)
            if not structured and t.names != names:
                raise MechanismError(_changed_form(outputs, names, t.names, where))
            return t
        if structured:
            obj = np.empty(size, dtype=object)
            for i, (o, e) in enumerate(zip(outputs, errors)):
                obj[i] = _error_instance(e) if e is not None else (
                    o[0].tolist() if isinstance(o[0], np.ndarray) else o[0])
            t = to_table(obj, where, structured=True)
            t.raised = np.empty(size, dtype=object)
            t.raised[:] = list(errors)
            return t
        good = [o for o in outputs if o is not None]
        t = to_table(np.concatenate(good), where, structured=False, float_bits=float_bits) if good else None
        if t is not None and t.names != names:
            raise MechanismError(f"outputs of different shapes in one run (the features {t.names[:3]} ... "
                                 f"against {names[:3]} ...); {where}.")
        return with_errors(t, errors, names)
    except MechanismError as exc:
        raise MechanismError(f"{_runner.describe(mechanism)}.sample returned a bad output: {exc}") from None


def _types_text(raised: list, where: str = "probe and selection draws") -> str:
    """``raised`` (per dataset, exception type name -> count, over ``where``) in words."""
    parts = []
    for label, r in zip(("D", "D'"), raised):
        if r:
            parts.append(f"{label}: " + ", ".join(f"{n} x{c}" for n, c in sorted(r.items(), key=lambda x: -x[1])))
    return "; ".join(parts) + (f" in the {where}" if parts else f"none of the {where} raised")


def _degenerate_message(mechanism, k: int, pair, raised: list, raised_cert: list, total: int, what: str) -> str:
    """The MechanismError text of a pair on whose two datasets ``what`` raised (see MOSTLY_RAISED_SHARE)."""
    first = ""
    try:  # the first exception's own message (the draws keep only its type)
        mechanism.sample(pair[0], 1, np.random.default_rng(0))
    except Exception as exc:  # noqa: BLE001 - reported, not handled
        msg = " ".join(str(exc).split())
        first = f" The first: {type(exc).__name__}: {msg[:200] + ('...' if len(msg) > 200 else '')}."
    counts = [sum(r.values()) + c for r, c in zip(raised, raised_cert)]
    return (f"{_runner.describe(mechanism)}.sample raised on {what} of both datasets of pair {k} "
            f"(data={_runner.describe(pair[0], 40)}, data_prime={_runner.describe(pair[1], 40)}): "
            f"{counts[0]} of {total} draws of D and {counts[1]} of {total} of D' "
            f"({_types_text(raised, 'probe draws' if total == PROBE_OUTPUTS else 'probe and selection draws')}).{first} "
            "The audit saw the exception, not the mechanism's outputs, so it gives no privacy verdict. Check "
            "that sample has the signature sample(data, size, rng), that an adapter's keywords suit the installed "
            "library version, and that the data reaches the mechanism in the form it expects.")


def _changed_form(outputs, names, got, where) -> str:
    arr = np.asarray(outputs)
    return (f"outputs of shape {arr.shape[1:]} (features {got[:3]} ...) after {PROBE_OUTPUTS} probe draws per "
            f"dataset gave numeric outputs with the features {names[:3]} ...; {where}. The black-box audit fixes "
            "the output layout from the probe draws: return one form throughout (arrays of one shape, or "
            "tuples/lists for outputs whose length or kind varies).")


def _counts(mechanism, data, size, seed, where, structured, names, float_bits, events, top=-1):
    """Worker task: draw one certification batch and return the count of each event (int64);
    with ``top >= 0``, ``(counts, boolean indicator of event top)`` (for the paired bound); with a
    tuple ``top`` of events, ``(counts, [indicator of each])``."""
    t = _table(mechanism, data, size, seed, where, structured, names, float_bits)
    if structured:
        t = _conform_names(t, names)
    cache: dict[int, np.ndarray] = {}  # each learned score is evaluated once per batch
    out = np.empty(len(events), dtype=np.int64)
    wanted = (top,) if isinstance(top, (int, np.integer)) else tuple(top)
    hits: dict[int, np.ndarray] = {}
    for i, ev in enumerate(events):
        if isinstance(ev, ScoreAbove):
            key = id(ev.score)
            if key not in cache:
                cache[key] = ev.score(t)
            x = cache[key]
            mask = x >= ev.threshold if ev.upper else x <= ev.threshold
        else:
            mask = ev.contains(t)
        out[i] = np.count_nonzero(mask)
        if i in wanted:
            hits[i] = np.asarray(mask, dtype=bool)
    if isinstance(top, (int, np.integer)):
        return out if top < 0 else (out, hits[top])
    return out, [hits[i] for i in wanted]


def _counts_of(t: OutputTable, events: list) -> np.ndarray:
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


def _rank_z(s1: np.ndarray, s2: np.ndarray) -> float:
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


def _held_out_paired(n10, n01, k1, k2, nv: int, n: int, alpha: float, level: float | None = None) -> np.ndarray:
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


def _calibrated_tails(x1: np.ndarray, x2: np.ndarray, v: np.ndarray, upper: bool):
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
    z = np.clip(pooled, fin.min(), fin.max())
    sd = float(fin.std())
    if not sd > 0:
        return None
    z = (z - float(fin.mean())) / sd
    vals, inv = np.unique(z, return_inverse=True)
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
    raw_v = np.unique(np.clip(pooled, fin.min(), fin.max()))  # the distinct values, same order as vals
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


def _calibrated_threshold(ev, fav_owner: int, t1s: list, t2s: list, n: int, alpha: float):
    """The event ``ev`` (a half-line or a tail of an unfitted score) with the threshold that
    maximises the paired bound predicted from :func:`_calibrated_tails` on the selection tables
    ``t1s`` (of D) and ``t2s`` (of D'); None when the calibration does not fit or predicts nothing."""
    if isinstance(ev, HalfLine):
        x1 = np.concatenate([t.features[:, ev.feature] for t in t1s])
        x2 = np.concatenate([t.features[:, ev.feature] for t in t2s])
    else:
        x1 = np.concatenate([np.asarray(ev.score(t), dtype=float) for t in t1s])
        x2 = np.concatenate([np.asarray(ev.score(t), dtype=float) for t in t2s])
    if x1.size != x2.size or x1.size == 0:
        return None
    v = _thresholds(np.unique(np.concatenate([x1, x2])))
    cal = _calibrated_tails(x1, x2, v, ev.upper)
    if cal is None:
        return None
    a, b = cal if fav_owner == 0 else cal[::-1]
    nf = x1.size
    pred = _held_out_paired(a * (1 - b / nf), b * (1 - a / nf), a, b, nf, n, alpha, 0.5)
    j = int(np.argmax(pred))
    if not np.isfinite(pred[j]):
        return None
    t = float(v[j])
    return HalfLine(ev.feature, ev.name, t, ev.upper) if isinstance(ev, HalfLine) else ScoreAbove(ev.score, t, ev.upper)


def _paired_alternatives(events, recs, owner, f1: OutputTable | None, f2: OutputTable | None, n: int,
                         alpha: float) -> list:
    """For each epsilon-goal threshold event (half-line or score tail), the same feature or score
    with the threshold that maximises :func:`_held_out_paired` (at PAIRED_THRESHOLD_LEVEL) on the
    fitting draws ``f1``, ``f2``
    (discordant counts at their expectation for independent pairs, a (1 - b/N) and b (1 - a/N));
    None where there is none or it is the event's own threshold."""
    out: list = [None] * len(events)
    if f1 is None or f2 is None or f1.size == 0 or f1.size != f2.size:
        return out
    nf = f1.size
    cache: dict = {}
    for i, ev in enumerate(events):
        if recs[i].goal != "epsilon" or not isinstance(ev, (HalfLine, ScoreAbove)):
            continue
        key = ("f", ev.feature) if isinstance(ev, HalfLine) else ("s", id(ev.score))
        if key not in cache:
            x1, x2 = ((f1.features[:, ev.feature], f2.features[:, ev.feature]) if isinstance(ev, HalfLine)
                      else (ev.score(f1), ev.score(f2)))
            x1, x2 = np.sort(np.asarray(x1, dtype=float)), np.sort(np.asarray(x2, dtype=float))
            cache[key] = (x1, x2, _thresholds(np.unique(np.concatenate([x1, x2]))))
        x1, x2, v = cache[key]
        fav, oth = (x1, x2) if owner[i] == 0 else (x2, x1)
        if ev.upper:
            a = nf - np.searchsorted(fav, v, side="left")
            b = nf - np.searchsorted(oth, v, side="left")
        else:
            a = np.searchsorted(fav, v, side="right")
            b = np.searchsorted(oth, v, side="right")
        a, b = a.astype(float), b.astype(float)
        pred = _held_out_paired(a * (1 - b / nf), b * (1 - a / nf), a, b, nf, n, alpha, PAIRED_THRESHOLD_LEVEL)
        j = int(np.argmax(pred))
        if not np.isfinite(pred[j]) or float(v[j]) == ev.threshold:
            continue
        t = float(v[j])
        out[i] = HalfLine(ev.feature, ev.name, t, ev.upper) if isinstance(ev, HalfLine) else ScoreAbove(ev.score, t, ev.upper)
    return out


def _score_values(ev, t: OutputTable) -> np.ndarray:
    """The values of the feature of a half-line, or of the score of a score tail, on ``t``."""
    if isinstance(ev, HalfLine):
        return np.asarray(t.features[:, ev.feature], dtype=float)
    return np.asarray(ev.score(t), dtype=float)


def _unfitted(ev) -> bool:
    """A half-line, or a tail of a score without weights fitted on the selection draws (a count past
    medians): its values on the fitting draws are not optimistic, so every selection draw can rank it."""
    return isinstance(ev, HalfLine) or (isinstance(ev, ScoreAbove) and not isinstance(ev.score, FITTED_SCORES))


def _discordant_overlap(e1, e2, tabs1: list, tabs2: list) -> float:
    """Share of the selection pairs discordant for ``e1`` or ``e2`` (one output in the event, the other
    not) that are discordant for both, over the smaller set: 1 for an event and its complement, near
    0 for disjoint rare tails (whose paired bounds are then nearly independent)."""
    d1 = np.concatenate([np.asarray(e1.contains(a), dtype=bool) ^ np.asarray(e1.contains(b), dtype=bool)
                         for a, b in zip(tabs1, tabs2)])
    d2 = np.concatenate([np.asarray(e2.contains(a), dtype=bool) ^ np.asarray(e2.contains(b), dtype=bool)
                         for a, b in zip(tabs1, tabs2)])
    small = min(int(d1.sum()), int(d2.sum()))
    return float(np.count_nonzero(d1 & d2)) / small if small > 0 else 1.0


def _paired_rank_z(fav: np.ndarray, oth: np.ndarray, upper: bool) -> float:
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


def _all_draws_paired(ev, fav_owner: int, tabs1: list, tabs2: list, n: int, alpha: float):
    """``(prediction, threshold)`` for an unfitted event: :func:`_held_out_paired` at HELD_OUT_LEVEL on
    *all* the selection pairs (the i-th draws of D and D' in ``tabs1``, ``tabs2``), maximised over at
    most RANK_GRID thresholds of its score (its distinct values, or pooled quantiles), same tail.
    Five times the held-out pairs: the ranking of a weak per-output signal (LaplaceParallel's count,
    a log-odds signal of 0.05 against a held-out noise of 0.04) is no longer decided by the noise of
    20 % of the draws. ``(-inf, None)`` when nothing is predicted."""
    x1 = np.concatenate([_score_values(ev, t) for t in tabs1])
    x2 = np.concatenate([_score_values(ev, t) for t in tabs2])
    if x1.size != x2.size or x1.size == 0:
        return -np.inf, None, 0.0
    fav, oth = (x1, x2) if fav_owner == 0 else (x2, x1)
    z = _paired_rank_z(fav, oth, ev.upper)
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
    pred = _held_out_paired(k1 - both, k2 - both, k1, k2, nv, n, alpha)
    j = int(np.argmax(pred))
    return (float(pred[j]), float(v[j]), z) if np.isfinite(pred[j]) else (-np.inf, None, z)


def _rank_paired(events, recs, owner, v1: OutputTable, v2: OutputTable, n: int, alpha: float,
                 override: dict | None = None) -> int:
    """The epsilon-goal event with the best :func:`_held_out_paired` prediction on the held-out
    selection draws ``v1``, ``v2`` (their i-th outputs form a pair, like certification draws), or the
    prediction ``override[i]`` for an event ``i`` ranked otherwise (:func:`_all_draws_paired`);
    -1 when no prediction is finite."""
    idx = [i for i in range(len(events)) if recs[i].goal == "epsilon"]
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
    pred = _held_out_paired(st[0], st[1], st[2], st[3], v1.size, n, alpha)
    for j, i in enumerate(idx):
        if override and i in override:
            pred[j] = override[i]
    if not np.isfinite(pred).any():
        return -1
    return idx[int(np.argmax(pred))]


def _rank_top(events, recs, owner, preds, v1: OutputTable, v2: OutputTable) -> int:
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
        if recs[i].goal != "epsilon":
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
            zs[tag] = _rank_z(np.asarray(f1, dtype=float), np.asarray(f2, dtype=float))
        z = zs[tag] * (1 if up else -1) * (1 if owner[i] == 0 else -1)
        if z > 0 and (key is None or z > key[0]):
            key = (z, i)
    if key is None:
        return best
    cut = RANK_Z_CUT * key[0]
    cand = [i for i in range(len(events)) if recs[i].goal == "epsilon" and i in _oriented(events, owner, zs, cut)
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


def _rows(t: OutputTable, sl: slice) -> OutputTable:
    """The outputs ``sl`` of a table."""
    return OutputTable(t.kind, t.codes[sl], t.skeleton[sl], t.features[sl], t.names, t.examples,
                       None if t.raised is None else t.raised[sl])


#: Certification: at most this many paired batches per task (a task then returns a few hundred
#: bytes of counts for up to 2 x 16 x 2^16 outputs), and at least this many tasks per worker thread
#: when there are enough batches (load balance; a worker that dies loses at most one task).
CERT_GROUP_MAX = 16
CERT_TASKS_PER_THREAD = 8


def _pair_counts(ctx: tuple, batches: list) -> tuple:
    """Worker task: ``(counts on D, counts on D', n10, n01)`` summed over the paired certification
    batches ``[(size, seed of D's batch, seed of D''s batch), ...]``: the j-th output of D's batch
    is paired with the j-th output of D''s, and ``n10`` (``n01``) counts the pairs where only the
    output of D (of D') is in the paired-bound event ``top`` (0 when there is none; with a tuple
    ``top`` of events, int64 arrays of those counts, one per event). ``ctx`` is
    ``(mechanism, data, data_prime, where_d, where_dp, structured, names, float_bits, events, top)``,
    the same for every task of a stage (sent once per stage on a Dask cluster). Only integer sums
    leave the task, so any grouping of the batches gives the same totals."""
    mechanism, data, data_prime, where_d, where_dp, structured, names, float_bits, events, top = ctx
    c1 = np.zeros(len(events), dtype=np.int64)
    c2 = np.zeros(len(events), dtype=np.int64)
    many = not isinstance(top, (int, np.integer))
    tops = tuple(top) if many else ((top,) if top >= 0 else ())
    n10 = np.zeros(len(tops), dtype=np.int64)
    n01 = np.zeros(len(tops), dtype=np.int64)
    for size, s1, s2 in batches:
        a = _counts(mechanism, data, size, s1, where_d, structured, names, float_bits, events, tops)
        b = _counts(mechanism, data_prime, size, s2, where_dp, structured, names, float_bits, events, tops)
        (a, h1), (b, h2) = a, b
        for m, t in enumerate(tops):
            both = int(np.count_nonzero(h1[m] & h2[m]))
            n10[m] += int(a[t]) - both
            n01[m] += int(b[t]) - both
        c1 += a
        c2 += b
    if many:
        return c1, c2, n10, n01
    return c1, c2, (int(n10[0]) if tops else 0), (int(n01[0]) if tops else 0)


def _threads(executor) -> int:
    from . import distributed

    if distributed.is_dask_client(executor):
        return distributed.total_threads(executor)
    return max(1, int(getattr(executor, "_max_workers", 1) or 1)) if executor is not None else 1


def _groups(batches: list, threads: int) -> list[list]:
    """Consecutive runs of ``batches``: at most CERT_GROUP_MAX each, at least CERT_TASKS_PER_THREAD
    runs per thread when there are enough batches."""
    size = max(1, min(CERT_GROUP_MAX, -(-len(batches) // (CERT_TASKS_PER_THREAD * threads))))
    return [batches[j:j + size] for j in range(0, len(batches), size)]


class _Certifier:
    """Runs :func:`_pair_counts` over the batches of one stage on ``executor`` (None: inline) and
    sums the results. On a Dask cluster the stage's context (mechanism, datasets, events) travels
    once, as the result of one task that the scheduler can run again if the worker holding it dies,
    and the groups stream through a bounded window (:func:`~dpverify.auditing.distributed.stream_tasks`),
    merged as they complete (integer sums: any order gives the same totals)."""

    def __init__(self, executor, ctx: tuple, n_events: int):
        from . import distributed

        self.executor, self.ctx, self.n_events = executor, ctx, n_events
        self.dask = distributed.is_dask_client(executor)
        self.threads = _threads(executor)
        self.shared = None
        self.running: list = []  # futures of a look started ahead (Dask)

    def start(self, batches: list):
        """Begin a look: on a Dask cluster with stop_early's small looks (at most one task per thread),
        submit its tasks now and return them; otherwise return the batches (run by :meth:`finish`)."""
        groups = _groups(batches, self.threads)
        if not self.dask or len(groups) > self.threads:
            return ("later", batches)
        if self.shared is None:
            from . import distributed

            self.shared = distributed.share(self.executor, self.ctx)
        futures = [self.executor.submit(_pair_counts, self.shared, g, pure=False) for g in groups]
        self.running.extend(futures)
        return ("running", futures)

    def finish(self, handle) -> tuple:
        """The summed counts of a look begun by :meth:`start`."""
        kind, what = handle
        if kind == "later":
            return self(what)
        total = [np.zeros(self.n_events, dtype=np.int64), np.zeros(self.n_events, dtype=np.int64), 0, 0]
        for fut in what:
            part = fut.result()
            for j in range(4):
                total[j] = total[j] + part[j]
            self.running.remove(fut)
            fut.release()
        return tuple(total)

    def __call__(self, batches: list) -> tuple:
        total = [np.zeros(self.n_events, dtype=np.int64), np.zeros(self.n_events, dtype=np.int64), 0, 0]

        def add(part) -> None:  # integer sums: exact in any order
            for j in range(4):
                total[j] = total[j] + part[j]

        groups = _groups(batches, self.threads)
        if self.dask:
            from . import distributed

            if self.shared is None:
                self.shared = distributed.share(self.executor, self.ctx)
            distributed.stream_tasks(self.executor, [(None, (self.shared, g)) for g in groups],
                                     lambda _, part: add(part), None, None, func=_pair_counts,
                                     threads=self.threads)
        elif self.executor is None:
            for g in groups:
                add(_pair_counts(self.ctx, g))
        else:
            for part in _runner.run_batches(_pair_counts, [(self.ctx, g) for g in groups], self.executor):
                add(part)
        return tuple(total)

    def close(self) -> None:
        if self.running:
            self.executor.cancel(self.running)
            self.running = []
        if self.shared is not None:
            self.shared.release()
            self.shared = None


def _merge(tables: list[OutputTable]) -> OutputTable:
    if len(tables) == 1:
        return tables[0]
    t0 = tables[0]
    if t0.kind == "structured":  # pad the number block of narrower batches with -inf
        width = max(t.features.shape[1] for t in tables) - 2
        feats = []
        for t in tables:
            w = t.features.shape[1] - 2
            block = np.full((t.size, width + 2), -np.inf)
            block[:, :w] = t.features[:, :w]
            block[:, width:] = t.features[:, w:]
            feats.append(block)
        names = tuple(f"number[{j}]" for j in range(width)) + t0.names[-2:]
    else:
        feats = [t.features for t in tables]
        names = t0.names
    examples: dict = {}
    for t in tables:
        for c, e in t.examples.items():
            if len(examples) < 256:
                examples.setdefault(c, e)
    raised = None
    if any(t.raised is not None for t in tables):
        raised = np.empty(sum(t.size for t in tables), dtype=object)
        at = 0
        for t in tables:
            if t.raised is not None:
                raised[at:at + t.size] = t.raised
            at += t.size
    return OutputTable(t0.kind, np.concatenate([t.codes for t in tables]),
                       np.concatenate([t.skeleton for t in tables]), np.concatenate(feats), names, examples, raised)


def _conform_names(table: OutputTable, names: tuple) -> OutputTable:
    """A structured table with the number block of ``names`` (padded with -inf or cut)."""
    if table.kind != "structured" or table.names == names:
        return table
    width, w = len(names) - 2, table.features.shape[1] - 2
    block = np.full((table.size, width + 2), -np.inf)
    k = min(w, width)
    block[:, :k] = table.features[:, :k]
    block[:, width:] = table.features[:, w:]
    return OutputTable(table.kind, table.codes, table.skeleton, block, names, table.examples, table.raised)


def _probe(mechanism, data, seed, where, float_bits):
    """``(layout, raised)``: ``layout`` is (numeric?, output shape, elements per output, numeric feature
    names) from PROBE_OUTPUTS draws, None if every draw raised; ``raised`` counts the draws that raised,
    per exception type name.

    The layout is numeric (the fast array path) only when every probe output is a number or a
    non-empty numeric array of one shape; anything else (strings, tuples of varying length, empty
    tuples, a mix) is structured. A later batch that does not fit a numeric layout is a
    MechanismError, never a silent re-encoding (see :func:`_table`)."""
    outputs, errors = _draw(mechanism, data, PROBE_OUTPUTS, seed, where + " (probe draws)")
    raised: dict[str, int] = {}
    if errors is not None:
        for e in errors:
            if e is not None:
                raised[e] = raised.get(e, 0) + 1
        good = [o for o in outputs if o is not None]
        if not good:
            return None, raised
        kinds = {(o.dtype.kind in "biuf", o.shape[1:]) for o in good}
        if len(kinds) != 1 or not next(iter(kinds))[0]:
            return (False, None, 1, None), raised
        outputs = np.concatenate(good)
    arr = np.asarray(outputs)
    numeric = arr.dtype.kind in "biuf" and arr.size > 0
    try:
        names = to_table(arr, where, structured=False, float_bits=float_bits).names if numeric else None
    except MechanismError as exc:
        raise MechanismError(f"{_runner.describe(mechanism)}.sample returned a bad output: {exc}") from None
    return (numeric, (arr.shape[1:] if numeric else None), max(1, int(arr[0].size) if arr.ndim > 1 else 1),
            names), raised


class _Layout:
    """What the probe draws fixed for one pair."""

    def __init__(self, mechanism, data, data_prime, seeds, where_d, where_dp, float_bits, learned):
        probes = [_probe(mechanism, data, seeds[0], where_d, float_bits),
                  _probe(mechanism, data_prime, seeds[1], where_dp, float_bits)]
        pr = [p for p, _ in probes]
        #: draws of D and of D' whose sample call raised, per exception type name (probe draws here;
        #: the audit adds its selection and certification draws)
        self.raised = [dict(r) for _, r in probes]
        self.raised_cert = [0, 0]  # certification draws that raised (counted, types not kept)
        known = [p for p in pr if p is not None]
        numeric = bool(known) and all(p[0] for p in known) and len({p[1] for p in known}) == 1
        self.structured = not numeric
        self.elements = max([p[2] for p in known] or [1])
        self.names = known[0][3] if numeric else None
        self.per = (STRUCTURED_BATCH_OUTPUTS if self.structured
                    else max(1, min(BATCH_OUTPUTS, _runner.BATCH_ELEMENTS // self.elements)))
        self.slots = slots("structured" if self.structured else "numeric", self.names or (), learned)


def _plan(n: int, per: int, sequential: bool, looks: tuple[int, ...] | None = None) -> list[list[int]]:
    """Certification batch sizes grouped into looks (the counts are examined after each look)."""
    out: list[list[int]] = []
    left = n
    if looks is not None:
        for s in looks:
            if left <= 0:
                break
            out.append([min(s, left)])
            left -= out[-1][0]
        return out
    size = min(FIRST_LOOK, per) if sequential else per
    group = 1 if sequential else 8
    while left > 0:
        look = []
        for _ in range(group):
            if left <= 0:
                break
            b = min(size, left)
            look.append(b)
            left -= b
        out.append(look)
        if size < per:
            size = min(per, 2 * size)
        elif sequential:
            group = 4
    return out


class _Event:
    """One certified event: counts, and its best bounds over the stages that tested it."""

    __slots__ = ("family", "goal", "text", "k1", "k2", "n", "p1", "p2", "stage", "joint", "discordant")

    def __init__(self, family, goal, text, stage):
        self.family, self.goal, self.text, self.stage = family, goal, text, stage
        self.k1 = self.k2 = self.n = 0
        self.p1, self.p2 = 0.0, 1.0
        self.joint = 0.0  # paired lower bound on log(P_fav(E) / P_oth(E)) (top event of a pure claim)
        self.discordant = None  # (n10, n01) when the paired bound was computed

    def bound(self, p1: float, p2: float) -> None:
        self.p1, self.p2 = max(self.p1, p1), min(self.p2, p2)


def _eps(p1, p2, delta):
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.where(p1 > delta, np.log(np.maximum(p1 - delta, 1e-300)) - np.log(p2), 0.0)
    return np.maximum(e, 0.0)


def audit_black_box(mechanism, pairs, *, claim: PrivacyClaim, samples: int, confidence: float, rng=None,
                    executor=None, search=None, selection_fraction: float = SELECTION_FRACTION,
                    stop_early: bool = False, float_bits: bool = False, learned: bool = True,
                    max_samples: int | None = None) -> AuditResult:
    """Black-box audit (see the module docstring); called by :func:`dpverify.audit`.

    ``samples`` outputs at most are drawn from each dataset of each pair (selection and
    certification together; fewer when ``stop_early`` certifies a violation first), capped up front at
    ``max_samples`` (default ``DEFAULT_MAX_SAMPLES``, 10**8) with a note (:func:`~dpverify.auditing._runner.plan_samples`). Raises
    MechanismError (naming the mechanism and the pair) when ``sample`` returns the wrong number of
    outputs or NaN; an exception raised by ``sample`` is an outcome (see the module docstring).
    """
    start = time.perf_counter()
    if samples < MIN_SAMPLES:
        raise InvalidArgument(
            f"samples={samples!r} is too few for a black-box audit: it needs at least {MIN_SAMPLES} outputs per "
            "dataset (split between selecting events and certifying them); use e.g. samples=200_000."
        )
    plan = _runner.plan_samples(samples, max_samples, streams=2 * len(pairs))
    samples = plan.samples
    selection_fraction = open_unit("selection_fraction", selection_fraction, fix="Use e.g. 0.4.")
    for name, val in (("stop_early", stop_early), ("float_bits", float_bits), ("learned", learned)):
        if not isinstance(val, (bool, np.bool_)):
            raise InvalidArgument(f"{name}={val!r} must be True or False.")
    alpha = 1.0 - confidence
    pilot = bool(stop_early) and samples >= PILOT_MIN_SAMPLES
    a_pilot = alpha * PILOT_SHARE if pilot else 0.0
    a_seq = alpha * SEQUENTIAL_SHARE if stop_early else 0.0
    a_fix = alpha - a_pilot - a_seq
    n_pilot = PILOT_SELECTION + sum(PILOT_LOOKS) if pilot else 0
    rest = samples - n_pilot
    n_sel = min(SELECTION_CAP, rest - 1, max(1, int(round(rest * selection_fraction))))
    n_cert = rest - n_sel
    notes: list[str] = [plan.note] if plan.capped else []
    own_pool = None
    if executor is None:
        executor, why = _runner.auto_pool(2 * samples * len(pairs), mechanism, pairs)
        own_pool = executor
        if why:
            notes.append(why)
    root = _runner.root_seed(rng)
    pair_seeds = [s.spawn(4) for s in root.spawn(len(pairs))]  # probe D, probe D', pilot, main
    growth = math.exp(min(claim.epsilon, 700.0))
    delta_at = getattr(claim, "delta_at", None)
    layouts = []
    for k, (d, dp) in enumerate(pairs):
        layouts.append(_Layout(mechanism, d, dp, pair_seeds[k][:2], _where(k, d, dp, "D"), _where(k, d, dp, "D'"),
                               float_bits, learned))
    for k, lay in enumerate(layouts):
        kinds = set(lay.raised[0]) | set(lay.raised[1])
        if (len(kinds) == 1 and sum(lay.raised[0].values()) == PROBE_OUTPUTS
                and sum(lay.raised[1].values()) == PROBE_OUTPUTS):
            raise MechanismError(_degenerate_message(mechanism, k, pairs[k], lay.raised, [0, 0],
                                                     PROBE_OUTPUTS, "every probe draw"))
    K = max(1, sum(2 * lay.slots for lay in layouts))
    # per (pair, direction): list of _Event
    table: dict[tuple[int, int], list[_Event]] = {(k, j): [] for k in range(len(pairs)) for j in (0, 1)}
    drawn = [0] * len(pairs)
    levels: dict[int, float] = {}  # pair -> level of each final Clopper-Pearson bound
    stopped = None  # (pair, stage, samples per dataset) when a sequential look certified a violation
    constant: dict[int, str] = {}  # pair -> the one outcome every selection draw of both datasets gave

    def violated_now(p1, p2) -> bool:
        return bool(np.any(_eps(p1, p2, claim.delta) > claim.epsilon) or np.any(p1 - growth * p2 > claim.delta))

    def stage(k: int, seed, sel: int, cert: int, looks, a_s: float, a_f: float, label: str) -> bool:
        d, dp = pairs[k]
        lay = layouts[k]
        sides = ((d, _where(k, d, dp, "D")), (dp, _where(k, d, dp, "D'")))
        s_seeds = seed.spawn(2)
        # selection
        tasks, which, cert_seeds = [], [], []
        for side, ((data, where), ss) in enumerate(zip(sides, s_seeds)):
            sel_seed, cert_seed = ss.spawn(2)
            cert_seeds.append(cert_seed)
            full, r = divmod(sel, lay.per)
            sizes = [lay.per] * full + ([r] if r else [])
            for b, bs in zip(sizes, sel_seed.spawn(len(sizes))):
                tasks.append((mechanism, data, b, bs, where, lay.structured, lay.names, float_bits))
                which.append(side)
        parts = _runner.run_batches(_table, tasks, executor)
        t1 = _merge([t for t, w in zip(parts, which) if w == 0])
        t2 = _merge([t for t, w in zip(parts, which) if w == 1])
        for side, t in enumerate((t1, t2)):
            for name, c in t.raised_types().items():
                lay.raised[side][name] = lay.raised[side].get(name, 0) + c
        if t1.size and t2.size and np.all(t1.codes == t1.codes[0]) and np.all(t2.codes == t1.codes[0]):
            constant[k] = t1.examples.get(int(t1.codes[0]), "one outcome")
        del parts
        if lay.structured:
            merged = _merge([t1, t2])
            t1, t2 = _conform_names(t1, merged.names), _conform_names(t2, merged.names)
        names = t1.names
        plan_alpha = (a_f or a_s) / (8 * K)
        # pure claims: the last VALIDATION_SHARE of the selection draws is held out to rank the
        # candidates (their thresholds are chosen on the rest, so the best-looking of thousands of
        # scanned tails does not win on its own noise); the winner gets the paired bound
        paired = a_f > 0 and claim.delta == 0 and sel >= VALIDATION_MIN
        fit = sel - int(sel * VALIDATION_SHARE) if paired else sel
        v1, v2 = _rows(t1, slice(fit, None)), _rows(t2, slice(fit, None))
        t1, t2 = _rows(t1, slice(0, fit)), _rows(t2, slice(0, fit))
        cands = select_both(t1, t2, (fit, fit, cert, cert), plan_alpha, claim.delta, claim.epsilon, learned)
        f1, f2 = (t1, t2) if paired else (None, None)  # kept for the paired thresholds below
        del t1, t2
        events, recs, owner, preds = [], [], [], []
        for j in (0, 1):
            for c in cands[j][: lay.slots]:
                if not math.isfinite(c.predicted):
                    continue
                events.append(c.event)
                preds.append(c.predicted)
                recs.append(_Event(c.family, c.goal, f"{c.family}: {c.event.describe()}", label))
                owner.append(j)
        drawn[k] += sel
        if not events:
            return False
        # pure claims: the candidate with the best epsilon predicted on the held-out selection
        # draws gets a paired (joint) bound
        tops: list[tuple[int, bool]] = []  # (slot, threshold from the fitting draws?) of the paired events
        if paired:
            cv1, cv2 = _counts_of(v1, events), _counts_of(v2, events)
            own_a = np.asarray(owner)
            pv, _ = predicted(np.where(own_a == 0, cv1, cv2), np.where(own_a == 0, cv2, cv1), v1.size, v2.size,
                              cert, cert, PAIRED_SHARE * a_f * 2 * lay.slots / K, 0.0, claim.epsilon)
            # rank by the paired bound each event is predicted to get from its held-out pairs
            # (pessimistic about the held-out estimate itself); the Mann-Whitney rule of
            # _rank_top only when no event has a finite prediction
            # Each threshold event also competes in a version whose threshold maximises that
            # prediction on the fitting draws (the scan's threshold maximises the separate bounds',
            # and its best tail is often a handful of outputs); a winning version takes the slot
            # of the event it came from.
            a_p = PAIRED_SHARE * a_f * 2 * lay.slots / K
            # An unfitted event (a half-line, a count past medians) is ranked on all the selection
            # pairs instead, at the best of its thresholds there (_all_draws_paired); its threshold
            # alternative then adds nothing.
            alts = _paired_alternatives(events, recs, owner, f1, f2, cert, a_p)
            override, grid_t, zs_ = {}, {}, {}
            for i, ev_i in enumerate(events):
                if recs[i].goal == "epsilon" and _unfitted(ev_i):
                    override[i], grid_t[i], zs_[i] = _all_draws_paired(ev_i, owner[i], [f1, v1], [f2, v2], cert, a_p)
                    alts[i] = None
                elif recs[i].goal == "epsilon":  # fitted scores, outcome sets: held-out pairs only
                    fav_v, oth_v = (v1, v2) if owner[i] == 0 else (v2, v1)
                    if isinstance(ev_i, ScoreAbove):
                        zs_[i] = _paired_rank_z(_score_values(ev_i, fav_v), _score_values(ev_i, oth_v), ev_i.upper)
                    else:
                        zs_[i] = _paired_rank_z(np.asarray(ev_i.contains(fav_v), dtype=float),
                                                np.asarray(ev_i.contains(oth_v), dtype=float), True)
            # families that separate D from D' beyond noise (z >= RANK_Z_MIN) are the only ones ranked,
            # when there are any: a null family's best tail can out-predict a weak real one
            strong = {i for i, z in zs_.items() if z >= RANK_Z_MIN}
            if strong:
                for i in zs_:
                    if i not in strong:
                        override[i] = -np.inf
                        alts[i] = None
            ext = [i for i, a in enumerate(alts) if a is not None]
            c_events = events + [alts[i] for i in ext]
            c_recs = recs + [recs[i] for i in ext]
            c_owner = owner + [owner[i] for i in ext]
            source = list(range(len(events))) + ext  # the slot each candidate belongs to
            first = _rank_paired(c_events, c_recs, c_owner, v1, v2, cert, a_p, override)
            picks = [first] if first >= 0 else []
            # the other direction's best also gets a paired bound (half the paired alpha each) when
            # its score separates beyond noise: two nearly independent shots at the same epsilon
            # (for LaplaceParallel the oracle event's chance of >= 0.3 x the true epsilon goes from
            # 0.68 to 0.79 in a simulation of the exact law, no audit draws)
            if first >= 0 and zs_.get(source[first], 0.0) >= RANK_Z_MIN:
                ov = dict(override)
                for c, o in enumerate(c_owner):
                    if o == c_owner[first] or zs_.get(source[c], 0.0) < RANK_Z_MIN:
                        ov[c] = -np.inf
                second = _rank_paired(c_events, c_recs, c_owner, v1, v2, cert, a_p, ov)
                if second >= 0:
                    picks.append(second)
            saved = {source[c]: (events[source[c]], recs[source[c]].text) for c in picks}
            for c in picks:
                slot = source[c]
                if c >= len(events):  # a threshold alternative won: it takes its event's slot
                    events[slot] = alts[slot]
                    recs[slot].text = (f"{recs[slot].family}: {events[slot].describe()} (threshold for the paired "
                                       "bound, from the fitting draws)")
                elif slot in grid_t and grid_t[slot] is not None and grid_t[slot] != events[slot].threshold:
                    e0, t_new = events[slot], grid_t[slot]
                    events[slot] = (HalfLine(e0.feature, e0.name, t_new, e0.upper) if isinstance(e0, HalfLine)
                                    else ScoreAbove(e0.score, t_new, e0.upper))
                    recs[slot].text = (f"{recs[slot].family}: {events[slot].describe()} (threshold for the paired "
                                       "bound, from all the selection draws)")
                tops.append((slot, c >= len(events)))
            if not tops:
                t = _rank_top(events, recs, owner, list(np.minimum(pv, preds)), v1, v2)
                if t >= 0:
                    tops.append((t, False))
            for top, alt_won in tops:
                ev = events[top]
                fitted = isinstance(ev, ScoreAbove) and isinstance(ev.score, FITTED_SCORES)
                if isinstance(ev, (HalfLine, ScoreAbove)) and not fitted:
                    # the winner's threshold for the paired bound, from a calibrated (two-parameter)
                    # fit of its score on all the selection draws: the per-threshold counts of the
                    # far tails, where the best paired event of a small per-coordinate loss lives, are
                    # too noisy to choose from (a score without fitted weights is not optimistic on
                    # its own draws)
                    new = _calibrated_threshold(ev, owner[top], [f1, v1], [f2, v2], cert, a_p)
                    if new is not None and new.threshold != ev.threshold:
                        events[top] = new
                        recs[top].text = (f"{recs[top].family}: {new.describe()} (threshold for the paired bound "
                                          "from a calibrated fit of the score on the selection draws)")
                elif not alt_won and fitted:
                    # a fitted score's tails on its own fitting draws are optimistic: its threshold is
                    # chosen again on the held-out draws (still selection draws, so still valid)
                    fav_t, oth_t = (v1, v2) if owner[top] == 0 else (v2, v1)
                    (t_new, p_new), _ = scan(ev.score(fav_t), ev.score(oth_t), (fav_t.size, oth_t.size, cert, cert),
                                             a_p, 0.0, claim.epsilon, ev.upper)
                    if math.isfinite(p_new):
                        events[top] = ScoreAbove(ev.score, t_new, ev.upper)
                        recs[top].text = (f"{recs[top].family}: {events[top].describe()} (threshold from held-out "
                                          "draws)")
            if len(tops) == 2 and _discordant_overlap(events[tops[0][0]], events[tops[1][0]], [f1, v1],
                                                      [f2, v2]) > SECOND_OVERLAP_MAX:
                # the second event's discordant pairs are mostly the first's (a complement, a nested
                # tail): the same evidence twice at half the alpha each; the first keeps it all
                slot = tops.pop()[0]
                events[slot], recs[slot].text = saved[slot]
        del v1, v2, f1, f2
        share = a_f * 2 * lay.slots / K  # this pair's part of the final alpha
        top_slots = tuple(t for t, _ in tops)
        a_sep = a_f * (1.0 - PAIRED_SHARE - PAIRED_MARGIN_SHARE) if top_slots else a_f
        if a_f > 0:
            levels[k] = a_sep / (2 * K)
        plan = _plan(cert, lay.per, a_s > 0, looks)
        nb = sum(len(look) for look in plan)
        cseeds = [cs.spawn(nb) for cs in cert_seeds]
        c1 = np.zeros(len(events), dtype=np.int64)
        c2 = np.zeros(len(events), dtype=np.int64)
        n = 0
        i = 0
        n10 = np.zeros(len(top_slots), dtype=np.int64)  # per paired event: pairs with only the favoured /
        n01 = np.zeros(len(top_slots), dtype=np.int64)  # only the other side's output in it
        own = np.asarray(owner)
        # without sequential looks nothing is examined between looks: one pass over every batch
        rounds = plan if a_s > 0 else [[b for look in plan for b in look]]
        # the last counted event is "the draw raised" (reported, never certified)
        certify = _Certifier(executor, (mechanism, d, dp, sides[0][1], sides[1][1], lay.structured, names,
                                        float_bits, events + [RaisedDraw()], top_slots), len(events) + 1)
        work = []  # per look: [(size, seed of D's batch, seed of D''s batch)]; the j-th batch of D is paired
        for look in rounds:  # with the j-th batch of D' (same size)
            work.append([(b, cseeds[0][i + m], cseeds[1][i + m]) for m, b in enumerate(look)])
            i += len(look)
        try:
            ahead = certify.start(work[0]) if work else None
            for li, look in enumerate(rounds):
                # on a cluster the next look is already running while this one is examined (its counts
                # are used only if the audit does not stop here; otherwise it is cancelled)
                current, ahead = ahead, (certify.start(work[li + 1]) if li + 1 < len(work) else None)
                a1, a2, x10, x01 = certify.finish(current)
                c1 += a1[:-1]
                c2 += a2[:-1]
                lay.raised_cert[0] += int(a1[-1])
                lay.raised_cert[1] += int(a2[-1])
                for m, t in enumerate(top_slots):
                    if owner[t] == 0:
                        n10[m], n01[m] = n10[m] + x10[m], n01[m] + x01[m]
                    else:
                        n10[m], n01[m] = n10[m] + x01[m], n01[m] + x10[m]
                n += sum(look)
                drawn[k] += sum(look)
                if a_s > 0:
                    # favoured side's count: D for direction 0, D' for direction 1
                    fav = np.where(own == 0, c1, c2)
                    oth = np.where(own == 0, c2, c1)
                    p1 = cs_lower(fav, n, a_s / (2 * K))
                    p2 = cs_upper(oth, n, a_s / (2 * K))
                    for r, a, b in zip(recs, p1, p2):
                        r.bound(float(a), float(b))
                    if violated_now(p1, p2):
                        break
        finally:
            certify.close()  # cancels a look started ahead and not used
        fav = np.where(own == 0, c1, c2)
        oth = np.where(own == 0, c2, c1)
        if a_f > 0 and n > 0:
            p1 = clopper_pearson_lower(fav, n, a_sep / (2 * K))
            p2 = clopper_pearson_upper(oth, n, a_sep / (2 * K))
            for r, a, b in zip(recs, p1, p2):
                r.bound(float(a), float(b))
            for m, t in enumerate(top_slots):  # weighted union bound: the paired share split evenly
                recs[t].joint = max(0.0, paired_log_ratio_lower(
                    int(n10[m]), int(n01[m]), int(fav[t]), int(oth[t]), n, PAIRED_SHARE * share / len(top_slots),
                    PAIRED_MARGIN_SHARE * share / len(top_slots)))
                recs[t].discordant = (int(n10[m]), int(n01[m]))
        for r, j, a, b in zip(recs, owner, fav, oth):
            r.k1, r.k2, r.n = int(a), int(b), n
            table[(k, j)].append(r)
        return a_s > 0 and any(violated_now(np.array([r.p1]), np.array([r.p2])) for r in recs)

    try:
        if pilot:
            for k in range(len(pairs)):
                if stage(k, pair_seeds[k][2], PILOT_SELECTION, sum(PILOT_LOOKS), PILOT_LOOKS, a_pilot, 0.0, "pilot"):
                    stopped = (k, "pilot")
                    break
        if stopped is None:
            for k in range(len(pairs)):
                if stage(k, pair_seeds[k][3], n_sel, n_cert, None, a_seq, a_fix, "main"):
                    stopped = (k, "main")
                    break
    finally:
        if own_pool is not None:
            own_pool.shutdown()
    # -- bounds, curve, verdict --------------------------------------------------------------------
    all_events = [r for v in table.values() for r in v]
    best_e = max([max(float(_eps(np.array(r.p1), np.array(r.p2), claim.delta)), r.joint) for r in all_events] or [0.0])
    top = max(2.0 * claim.epsilon, 1.0, 1.25 * best_e if math.isfinite(best_e) else 0.0)
    grid = np.union1d(np.linspace(0.0, min(top, 50.0), CURVE_POINTS), [claim.epsilon])

    def curve(evs):
        if not evs:
            return np.zeros_like(grid)
        p1 = np.array([r.p1 for r in evs])[:, None]
        p2 = np.array([r.p2 for r in evs])[:, None]
        return np.maximum(0.0, (p1 - np.exp(grid)[None, :] * p2).max(axis=0))

    results = []
    evidence = False
    for (k, j), evs in sorted(table.items()):
        name = "D->D'" if j == 0 else "D'->D"
        first, second = ("D", "D'") if j == 0 else ("D'", "D")
        rows, best = [], None
        d_low = d_hat = 0.0
        for r in evs:
            e = max(float(_eps(np.array(r.p1), np.array(r.p2), claim.delta)), r.joint)
            dl = max(0.0, r.p1 - growth * r.p2)
            dh = max(0.0, (r.k1 - growth * r.k2) / r.n) if r.n else 0.0
            d_low, d_hat = max(d_low, dl), max(d_hat, dh)
            if r.n:
                w1 = float(clopper_pearson_lower(r.k1, r.n, EVIDENCE_ALPHA / (2 * K)))
                w2 = float(clopper_pearson_upper(r.k2, r.n, EVIDENCE_ALPHA / (2 * K)))
                evidence = evidence or violated_now(np.array([w1]), np.array([w2]))
            # r.k1, r.p1 belong to the favoured (numerator) side: D for D->D', D' for D'->D; the
            # count keys name the dataset they were counted on, the bound keys the role
            k_d, k_dp = (r.k1, r.k2) if j == 0 else (r.k2, r.k1)
            rows.append({"family": r.family, "goal": r.goal, "event": r.text, "stage": r.stage,
                         "count_D": k_d, "count_D_prime": k_dp, "certification_samples": r.n,
                         "numerator": first, "denominator": second,
                         "p_numerator_lower": r.p1, "p_denominator_upper": r.p2,
                         "epsilon_lower": e, "delta_lower": dl,
                         "epsilon_lower_paired": r.joint if r.discordant is not None else None,
                         "discordant_pairs": r.discordant})
            if best is None or e > best[0] or (e == best[0] and dl > best[2]):
                best = (e, r, dl)
        text = "none certified" if best is None else (
            f"{best[1].text} (certified: P_{first}(E) >= {best[1].p1:.4g} from {best[1].k1}/{best[1].n}, "
            f"P_{second}(E) <= {best[1].p2:.4g} from {best[1].k2}/{best[1].n}, {best[1].stage} round)")
        if best is not None and best[1].discordant is not None and best[1].joint >= best[0] > 0:
            text += (f"; paired bound log(P_{first}(E)/P_{second}(E)) >= {best[1].joint:.4g} from "
                     f"{best[1].discordant[0]} vs {best[1].discordant[1]} discordant pairs")
        cv = curve(evs)
        results.append(DirectionResult(k, name, drawn[k], best[0] if best else 0.0, d_low, d_hat, 0,
                                       extra={"event": text, "events": rows, "event_slots": K,
                                              "bound_level_final": levels.get(k, a_fix / (2 * K)),
                                              "delta_curve": [[float(a), float(b)] for a, b in zip(grid, cv)]}))
    best_r = max(results, key=lambda r: (r.epsilon_lower, r.delta_lower))
    overall = curve(all_events)
    violated = any(r.delta_lower > claim.delta or r.epsilon_lower > claim.epsilon for r in results)
    if callable(delta_at):
        limits = np.array([float(delta_at(float(e))) for e in grid])
        over = overall > limits
        if over.any():
            violated = True
            i = int(np.argmax(over))
            notes.append(f"the certified privacy profile exceeds the claimed curve: delta_lower({grid[i]:.3g}) = "
                         f"{overall[i]:.3g} > claim.delta_at({grid[i]:.3g}) = {limits[i]:.3g}")
        evidence = evidence or bool(np.any(overall > limits))
    raised_draws = []
    for k, lay in enumerate(layouts):
        total = PROBE_OUTPUTS + drawn[k]
        r = [sum(lay.raised[j].values()) + lay.raised_cert[j] for j in (0, 1)]
        raised_draws.append((r[0], r[1]))
        if r[0] > MOSTLY_RAISED_SHARE * total and r[1] > MOSTLY_RAISED_SHARE * total and not violated:
            raise MechanismError(_degenerate_message(mechanism, k, pairs[k], lay.raised, lay.raised_cert, total,
                                                     "most draws"))
        if k in constant and not (r[0] or r[1]):
            notes.append(f"every selection output of both datasets of pair {k} was the same outcome, {constant[k]}: a "
                         "constant release is private, but if the mechanism should depend on its data, check that "
                         "the data reaches it (e.g. an adapter's data_param)")
        if r[0] or r[1]:
            notes.append(f"sample raised on {r[0]} of {total} draws of D and {r[1]} of {total} draws of D' (pair {k}; "
                         f"{_types_text(lay.raised)}): each such draw is the outcome error:<TypeName>")
    if violated:
        verdict = Verdict.VIOLATED
    elif evidence:
        verdict = Verdict.INCONCLUSIVE
    else:
        verdict = Verdict.NOT_VIOLATED
    used = max(drawn)
    if stopped is not None:
        notes.append(f"stopped early: a violation was certified in the {stopped[1]} round of pair {stopped[0]} "
                     f"after {used} outputs per dataset (anytime-valid confidence sequences)")
    split = (f"alpha split: pilot {a_pilot:.3g}, sequential looks {a_seq:.3g}, final {a_fix:.3g}; " if stop_early
             else "")
    notes = [f"best event (pair {best_r.pair_index}, {best_r.direction}): {best_r.extra['event']}",
             f"{n_sel} selection + up to {n_cert} certification outputs per dataset; {split}{K} event slots, each "
             f"event's two bounds at level alpha/(2K) of its part (union bound over all pairs, directions, "
             f"families and parts)" + (
                 f"; pure claim: in the final part, each pair's top event (and the other direction's, when its "
                 f"score separates) also gets a paired bound on its log ratio at {PAIRED_SHARE:g} + "
                 f"{PAIRED_MARGIN_SHARE:g} of that pair's share (split evenly), the Clopper-Pearson "
                 f"bounds the remaining {1 - PAIRED_SHARE - PAIRED_MARGIN_SHARE:g}" if claim.delta == 0 else ""),
             "delta_curve (each direction): certified lower bounds on delta(eps) over a grid of eps, valid "
             "simultaneously"] + notes
    kb = best_r.pair_index
    return AuditResult(
        verdict=verdict,
        epsilon_lower=best_r.epsilon_lower,
        delta_lower=max(r.delta_lower for r in results),
        delta_estimate=max(r.delta_estimate for r in results),
        confidence=confidence,
        samples=used,
        claim=claim,
        pair_index=kb,
        pair=pairs[kb],
        direction=best_r.direction,
        method="black-box",
        seconds=time.perf_counter() - start,
        directions=tuple(results),
        notes=tuple(notes),
        search=search,
        event=best_r.extra["event"],
        raised_draws=tuple(raised_draws),
    )
