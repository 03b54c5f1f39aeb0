"""Black-box audit: certified lower bounds on epsilon from samples of M(D) and M(D') alone.

**Pipeline** (one pair at a time, so memory does not grow with the sample count):

1. *Probe*: one output per dataset fixes the layout (numeric array or structured outputs, the
   feature names) and so the number of candidate events per direction (:func:`scores.slots`);
   the multiplicity ``K`` is fixed before any selection draw.
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
caught by the event "sample raised"). Wrong output counts and NaN remain MechanismError.

**Float bits** (``float_bits=True``): float outputs also get the granularity feature of
:mod:`dpverify.auditing.floatbits` (Mironov 2012), which exposes textbook floating-point noise at
full 53-bit precision. It is off by default because it flags *every* mechanism that adds
floating-point noise to differing values (the correct controls included): the verdict is then
about the implementation's bits, not the idealised real-valued mechanism.

**Randomness and workers.** Every (pair, stage, dataset) gets a child of the root SeedSequence and
every batch a grandchild; batch sizes depend only on the output size, so the result depends on
the seed alone, never on the number of workers. Without an ``executor``, runs of at least
:data:`AUTO_POOL_MIN_OUTPUTS` outputs use a process pool of ``min(2, cpu count)`` workers when the
mechanism and pairs can be pickled (serial otherwise; a note says so).
"""
from __future__ import annotations

import math
import os
import pickle
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any

import numpy as np

from .._validate import open_unit
from ..claims import PrivacyClaim, Verdict
from ..errors import InvalidArgument, MechanismError
from . import _runner
from .bounds import clopper_pearson_lower, clopper_pearson_upper
from .events import OutputTable, ScoreAbove, to_table, with_errors
from .result import AuditResult, DirectionResult
from .scores import select_both, slots
from .sequential import cs_lower, cs_upper

__all__ = ["audit_black_box", "InlineExecutor", "AUTO_POOL_MIN_OUTPUTS", "SELECTION_FRACTION", "MIN_SAMPLES",
           "SELECTION_CAP"]

#: Total outputs (over pairs and datasets) from which the default run uses a process pool.
AUTO_POOL_MIN_OUTPUTS = 400_000
#: Share of the samples used to choose events (the rest certify them).
SELECTION_FRACTION = 0.4
#: Fewest samples per dataset a black-box audit accepts.
MIN_SAMPLES = 20
#: Outputs per batch at most (fewer for large outputs); fixed, so results do not depend on workers.
BATCH_OUTPUTS = 1 << 16
STRUCTURED_BATCH_OUTPUTS = 1 << 14
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
#: Points of the reported delta(eps) grid.
CURVE_POINTS = 33


class InlineExecutor(Executor):
    """An executor that runs every task at once in the calling process (forces a serial audit)."""

    def submit(self, fn, /, *args, **kwargs):
        f: Future = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, as a pool would
            f.set_exception(exc)
        return f


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
            return to_table(outputs, where, structured=structured, float_bits=float_bits)
        if structured:
            obj = np.empty(size, dtype=object)
            for i, (o, e) in enumerate(zip(outputs, errors)):
                obj[i] = _error_instance(e) if e is not None else (
                    o[0].tolist() if isinstance(o[0], np.ndarray) else o[0])
            return to_table(obj, where, structured=True)
        good = [o for o in outputs if o is not None]
        t = to_table(np.concatenate(good), where, structured=False, float_bits=float_bits) if good else None
        if t is not None and t.names != names:
            raise MechanismError(f"outputs of different shapes in one run (the features {t.names[:3]} ... "
                                 f"against {names[:3]} ...); {where}.")
        return with_errors(t, errors, names)
    except MechanismError as exc:
        raise MechanismError(f"{_runner.describe(mechanism)}.sample returned a bad output: {exc}") from None


def _counts(mechanism, data, size, seed, where, structured, names, float_bits, events) -> np.ndarray:
    """Worker task: draw one certification batch and return the count of each event (int64)."""
    t = _table(mechanism, data, size, seed, where, structured, names, float_bits)
    if structured:
        t = _conform_names(t, names)
    cache: dict[int, np.ndarray] = {}  # each learned score is evaluated once per batch
    out = np.empty(len(events), dtype=np.int64)
    for i, ev in enumerate(events):
        if isinstance(ev, ScoreAbove):
            key = id(ev.score)
            if key not in cache:
                cache[key] = ev.score(t)
            x = cache[key]
            out[i] = np.count_nonzero(x >= ev.threshold if ev.upper else x <= ev.threshold)
        else:
            out[i] = np.count_nonzero(ev.contains(t))
    return out


#: Certification batches per task on a Dask cluster (one dataset's consecutive batches; counts add exactly).
DASK_GROUP = 4


def _counts_sum(tasks: list) -> np.ndarray:
    """Worker task: the summed event counts of several certification batches (exact integer sums)."""
    total = None
    for t in tasks:
        c = _counts(*t)
        total = c if total is None else total + c
    return total


def _run_counts(tasks: list, which: list, executor) -> list:
    """[(counts, side)] of the certification batches ``tasks``. On a Dask cluster, up to DASK_GROUP
    batches of one side travel as one task (a batch of a fast sampler is too short to pay Dask's
    per-task cost); the sums per side are the same integers either way."""
    from . import distributed

    if not distributed.is_dask_client(executor):
        return list(zip(_runner.run_batches(_counts, tasks, executor), which))
    groups = []
    for side in (0, 1):
        mine = [t for t, w in zip(tasks, which) if w == side]
        groups += [(side, mine[j:j + DASK_GROUP]) for j in range(0, len(mine), DASK_GROUP)]
    sums = _runner.run_batches(_counts_sum, [(g,) for _, g in groups], executor)
    return [(c, side) for c, (side, _) in zip(sums, groups)]


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
    return OutputTable(t0.kind, np.concatenate([t.codes for t in tables]),
                       np.concatenate([t.skeleton for t in tables]), np.concatenate(feats), names, examples)


def _conform_names(table: OutputTable, names: tuple) -> OutputTable:
    """A structured table with the number block of ``names`` (padded with -inf or cut)."""
    if table.kind != "structured" or table.names == names:
        return table
    width, w = len(names) - 2, table.features.shape[1] - 2
    block = np.full((table.size, width + 2), -np.inf)
    k = min(w, width)
    block[:, :k] = table.features[:, :k]
    block[:, width:] = table.features[:, w:]
    return OutputTable(table.kind, table.codes, table.skeleton, block, names, table.examples)


def _probe(mechanism, data, seed, where, float_bits):
    """(numeric?, output shape, elements per output, numeric feature names); None if the draw raised."""
    outputs, errors = _draw(mechanism, data, 1, seed, where + " (probe draw)")
    if errors is not None:
        return None
    arr = np.asarray(outputs)
    numeric = arr.dtype.kind in "biuf"
    try:
        names = to_table(arr, where, structured=False, float_bits=float_bits).names if numeric else None
    except MechanismError as exc:
        raise MechanismError(f"{_runner.describe(mechanism)}.sample returned a bad output: {exc}") from None
    return numeric, (arr.shape[1:] if numeric else None), max(1, int(arr[0].size) if arr.ndim > 1 else 1), names


def _auto_executor(total: int, mechanism: Any, pairs: list) -> tuple[Executor | None, str | None]:
    workers = min(2, os.cpu_count() or 1)
    if total < AUTO_POOL_MIN_OUTPUTS or workers < 2:
        return None, None
    try:
        pickle.dumps((mechanism, pairs))
    except Exception as exc:  # lambdas, open handles...: serial, said in the notes
        return None, f"ran serially: the mechanism or pairs cannot be pickled for worker processes ({type(exc).__name__})"
    import multiprocessing

    ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx), None


class _Layout:
    """What the probe draws fixed for one pair."""

    def __init__(self, mechanism, data, data_prime, seeds, where_d, where_dp, float_bits, learned):
        pr = [_probe(mechanism, data, seeds[0], where_d, float_bits),
              _probe(mechanism, data_prime, seeds[1], where_dp, float_bits)]
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

    __slots__ = ("family", "goal", "text", "k1", "k2", "n", "p1", "p2", "stage")

    def __init__(self, family, goal, text, stage):
        self.family, self.goal, self.text, self.stage = family, goal, text, stage
        self.k1 = self.k2 = self.n = 0
        self.p1, self.p2 = 0.0, 1.0

    def bound(self, p1: float, p2: float) -> None:
        self.p1, self.p2 = max(self.p1, p1), min(self.p2, p2)


def _eps(p1, p2, delta):
    with np.errstate(divide="ignore", invalid="ignore"):
        e = np.where(p1 > delta, np.log(np.maximum(p1 - delta, 1e-300)) - np.log(p2), 0.0)
    return np.maximum(e, 0.0)


def audit_black_box(mechanism, pairs, *, claim: PrivacyClaim, samples: int, confidence: float, rng=None,
                    executor=None, search=None, selection_fraction: float = SELECTION_FRACTION,
                    stop_early: bool = False, float_bits: bool = False, learned: bool = True) -> AuditResult:
    """Black-box audit (see the module docstring); called by :func:`dpverify.audit`.

    ``samples`` outputs at most are drawn from each dataset of each pair (selection and
    certification together; fewer when ``stop_early`` certifies a violation first). Raises
    MechanismError (naming the mechanism and the pair) when ``sample`` returns the wrong number of
    outputs or NaN; an exception raised by ``sample`` is an outcome (see the module docstring).
    """
    start = time.perf_counter()
    if samples < MIN_SAMPLES:
        raise InvalidArgument(
            f"samples={samples!r} is too few for a black-box audit: it needs at least {MIN_SAMPLES} outputs per "
            "dataset (split between selecting events and certifying them); use e.g. samples=200_000."
        )
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
    notes: list[str] = []
    own_pool = None
    if executor is None:
        executor, why = _auto_executor(2 * samples * len(pairs), mechanism, pairs)
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
    K = max(1, sum(2 * lay.slots for lay in layouts))
    # per (pair, direction): list of _Event
    table: dict[tuple[int, int], list[_Event]] = {(k, j): [] for k in range(len(pairs)) for j in (0, 1)}
    drawn = [0] * len(pairs)
    stopped = None  # (pair, stage, samples per dataset) when a sequential look certified a violation

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
        del parts
        if lay.structured:
            merged = _merge([t1, t2])
            t1, t2 = _conform_names(t1, merged.names), _conform_names(t2, merged.names)
        names = t1.names
        plan_alpha = (a_f or a_s) / (8 * K)
        cands = select_both(t1, t2, (sel, sel, cert, cert), plan_alpha, claim.delta, claim.epsilon, learned)
        del t1, t2
        events, recs, owner = [], [], []
        for j in (0, 1):
            for c in cands[j][: lay.slots]:
                if not math.isfinite(c.predicted):
                    continue
                events.append(c.event)
                recs.append(_Event(c.family, c.goal, f"{c.family}: {c.event.describe()}", label))
                owner.append(j)
        drawn[k] += sel
        if not events:
            return False
        plan = _plan(cert, lay.per, a_s > 0, looks)
        nb = sum(len(look) for look in plan)
        cseeds = [cs.spawn(nb) for cs in cert_seeds]
        c1 = np.zeros(len(events), dtype=np.int64)
        c2 = np.zeros(len(events), dtype=np.int64)
        n = 0
        i = 0
        own = np.asarray(owner)
        for look in plan:
            tasks, which = [], []
            for side, (data, where) in enumerate(sides):
                for b, bs in zip(look, cseeds[side][i: i + len(look)]):
                    tasks.append((mechanism, data, b, bs, where, lay.structured, names, float_bits, events))
                    which.append(side)
            i += len(look)
            for cnt, w in _run_counts(tasks, which, executor):
                if w == 0:
                    c1 += cnt
                else:
                    c2 += cnt
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
        fav = np.where(own == 0, c1, c2)
        oth = np.where(own == 0, c2, c1)
        if a_f > 0 and n > 0:
            p1 = clopper_pearson_lower(fav, n, a_f / (2 * K))
            p2 = clopper_pearson_upper(oth, n, a_f / (2 * K))
            for r, a, b in zip(recs, p1, p2):
                r.bound(float(a), float(b))
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
    best_e = max([float(_eps(np.array(r.p1), np.array(r.p2), claim.delta)) for r in all_events] or [0.0])
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
            e = float(_eps(np.array(r.p1), np.array(r.p2), claim.delta))
            dl = max(0.0, r.p1 - growth * r.p2)
            dh = max(0.0, (r.k1 - growth * r.k2) / r.n) if r.n else 0.0
            d_low, d_hat = max(d_low, dl), max(d_hat, dh)
            if r.n:
                w1 = float(clopper_pearson_lower(r.k1, r.n, EVIDENCE_ALPHA / (2 * K)))
                w2 = float(clopper_pearson_upper(r.k2, r.n, EVIDENCE_ALPHA / (2 * K)))
                evidence = evidence or violated_now(np.array([w1]), np.array([w2]))
            rows.append({"family": r.family, "goal": r.goal, "event": r.text, "stage": r.stage,
                         "count_D": r.k1, "count_D_prime": r.k2, "certification_samples": r.n,
                         "p_D_lower": r.p1, "p_D_prime_upper": r.p2, "epsilon_lower": e, "delta_lower": dl})
            if best is None or e > best[0] or (e == best[0] and dl > best[2]):
                best = (e, r, dl)
        text = "none certified" if best is None else (
            f"{best[1].text} (certified: P_{first}(E) >= {best[1].p1:.4g} from {best[1].k1}/{best[1].n}, "
            f"P_{second}(E) <= {best[1].p2:.4g} from {best[1].k2}/{best[1].n}, {best[1].stage} round)")
        cv = curve(evs)
        results.append(DirectionResult(k, name, drawn[k], best[0] if best else 0.0, d_low, d_hat, 0,
                                       extra={"event": text, "events": rows, "event_slots": K,
                                              "bound_level_final": a_fix / (2 * K),
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
             f"families and parts)",
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
    )
