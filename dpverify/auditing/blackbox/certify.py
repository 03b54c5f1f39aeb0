"""Stage 3, certify: fresh draws count the selected events of one round of one pair.

:func:`certify_events` draws ``certification`` outputs per dataset in batches (sizes from :func:`look_plan`,
fixed by the layout alone); each batch is reduced at once to the counts of every selected event (a few
bytes per event; counts merge by addition, so any executor gives the same result) and dropped. The
j-th batch of D and the j-th of D' are drawn in one task (:func:`pair_counts`), so the i-th outputs of
the two form an i.i.d. pair and the paired events' discordant pairs are counted too. Tasks group up to
``CERT_GROUP_MAX`` pairs of batches (:class:`Certifier` runs them inline, on a local pool, or on a Dask
cluster).

Each event then gets a lower bound on P_fav(E) and an upper bound on P_oth(E): at the round's final
level (:class:`~dpverify.auditing.blackbox.budget.RoundBudget`, Clopper-Pearson) and, with
``stop_early``, after every look at its sequential level (anytime-valid confidence sequences,
:mod:`~dpverify.auditing.blackbox.sequential`; the round stops as soon as one look contradicts the
claim). A paired event also gets the joint lower bound on log(P_fav(E) / P_oth(E)) from its discordant
pairs (:func:`dpverify.auditing.bounds.paired_log_ratio_lower`). The result is a frozen
:class:`~dpverify.auditing.blackbox.values.Certification`.
"""
from __future__ import annotations

import numpy as np

from .. import distributed
from ..executor import run_batches
from ..bounds import clopper_pearson_lower, clopper_pearson_upper, paired_log_ratio_lower
from .budget import Round
from .claimcheck import contradicts
from .outputs import conform_names, table
from .event_families import RaisedDraw, ScoreAbove
from .sequential import cs_lower, cs_upper
from .values import CertifiedEvent, Certification, Selection

__all__ = ["certify_events", "pair_counts", "look_plan", "Certifier", "CERT_GROUP_MAX", "CERT_TASKS_PER_THREAD",
           "FIRST_LOOK"]

#: First certification batch of a sequential round (batches then double up to the batch size).
FIRST_LOOK = 1_024


def _counts(mechanism, data, size, seed, where, structured, names, float_bits, events, top=-1):
    """Worker task: draw one certification batch and return the count of each event (int64);
    with ``top >= 0``, ``(counts, boolean indicator of event top)`` (for the paired bound); with a
    tuple ``top`` of events, ``(counts, [indicator of each])``."""
    t = table(mechanism, data, size, seed, where, structured, names, float_bits)
    if structured:
        t = conform_names(t, names)
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



CERT_GROUP_MAX = 16
CERT_TASKS_PER_THREAD = 8


def pair_counts(ctx: tuple, batches: list) -> tuple:
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
    if distributed.is_dask_client(executor):
        return distributed.total_threads(executor)
    return max(1, int(getattr(executor, "_max_workers", 1) or 1)) if executor is not None else 1


def _groups(batches: list, threads: int) -> list[list]:
    """Consecutive runs of ``batches``: at most CERT_GROUP_MAX each, at least CERT_TASKS_PER_THREAD
    runs per thread when there are enough batches."""
    size = max(1, min(CERT_GROUP_MAX, -(-len(batches) // (CERT_TASKS_PER_THREAD * threads))))
    return [batches[j:j + size] for j in range(0, len(batches), size)]


class Certifier:
    """Runs :func:`pair_counts` over the batches of one stage on ``executor`` (None: inline) and
    sums the results. On a Dask cluster the stage's context (mechanism, datasets, events) travels
    once, as the result of one task that the scheduler can run again if the worker holding it dies,
    and the groups stream through a bounded window (:func:`~dpverify.auditing.distributed.stream_tasks`),
    merged as they complete (integer sums: any order gives the same totals)."""

    def __init__(self, executor, ctx: tuple, n_events: int):
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
            self.shared = distributed.share(self.executor, self.ctx)
        futures = [self.executor.submit(pair_counts, self.shared, g, pure=False) for g in groups]
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
            if self.shared is None:
                self.shared = distributed.share(self.executor, self.ctx)
            distributed.stream_tasks(self.executor, [(None, (self.shared, g)) for g in groups],
                                     lambda _, part: add(part), None, None, func=pair_counts,
                                     threads=self.threads)
        elif self.executor is None:
            for g in groups:
                add(pair_counts(self.ctx, g))
        else:
            for part in run_batches(pair_counts, [(self.ctx, g) for g in groups], self.executor):
                add(part)
        return tuple(total)

    def close(self) -> None:
        if self.running:
            self.executor.cancel(self.running)
            self.running = []
        if self.shared is not None:
            self.shared.release()
            self.shared = None



def look_plan(n: int, per: int, sequential: bool, looks: tuple[int, ...] | None = None) -> list[list[int]]:
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


def certify_events(mechanism, pair, wheres, structured: bool, per: int, selection: Selection, seeds, rnd: Round, slots: int,
            claim, float_bits: bool, executor) -> Certification:
    """Count and bound the events of ``selection`` on ``rnd.certification`` fresh outputs per dataset
    (``seeds``: D's and D''s certification seeds; ``per``: outputs per batch; ``slots``: the pair's
    event slots per direction, for its share of the paired alpha)."""
    sel = selection.events
    n_ev = len(sel)
    owner = [e.direction for e in sel]
    top_slots = selection.paired
    budget = rnd.alpha
    plan = look_plan(rnd.certification, per, budget.sequential > 0, rnd.looks)
    nb = sum(len(look) for look in plan)
    cseeds = [cs.spawn(nb) for cs in seeds]
    # without sequential looks nothing is examined between looks: one pass over every batch
    rounds = plan if budget.sequential > 0 else [[b for look in plan for b in look]]
    work = []  # per look: [(size, seed of D's batch, seed of D''s batch)]; the j-th batch of D is paired
    i = 0
    for look in rounds:  # with the j-th batch of D' (same size)
        work.append([(b, cseeds[0][i + m], cseeds[1][i + m]) for m, b in enumerate(look)])
        i += len(look)
    # the last counted event is "the draw raised" (reported, never certified)
    certifier = Certifier(executor, (mechanism, pair[0], pair[1], wheres[0], wheres[1], structured, selection.names,
                                     float_bits, [e.event for e in sel] + [RaisedDraw()], top_slots), n_ev + 1)
    bounds = _Bounds(n_ev)
    c1, c2, n10, n01, n, raised = _run_looks(certifier, work, rounds, owner, top_slots, bounds, budget, claim)
    own = np.asarray(owner)
    fav = np.where(own == 0, c1, c2)
    oth = np.where(own == 0, c2, c1)
    joint, discordant = [0.0] * n_ev, [None] * n_ev
    if budget.final > 0 and n > 0:
        level = budget.final_level(bool(top_slots))
        bounds.add(clopper_pearson_lower(fav, n, level), clopper_pearson_upper(oth, n, level))
        a_joint, a_margin = budget.paired_bound(slots, len(top_slots)) if top_slots else (0.0, 0.0)
        for m, t in enumerate(top_slots):  # weighted union bound: the paired share split evenly
            joint[t] = max(0.0, paired_log_ratio_lower(int(n10[m]), int(n01[m]), int(fav[t]), int(oth[t]), n,
                                                       a_joint, a_margin))
            discordant[t] = (int(n10[m]), int(n01[m]))
    events = tuple(CertifiedEvent(e.family, e.goal, e.text, rnd.label, e.direction, int(a), int(b), n, p1, p2, jt, dc)
                   for e, a, b, p1, p2, jt, dc in zip(sel, fav, oth, bounds.p1, bounds.p2, joint, discordant))
    stopped = budget.sequential > 0 and any(contradicts(np.array([e.p1]), np.array([e.p2]), claim) for e in events)
    return Certification(events, n, raised, budget.final_level(bool(top_slots)) if budget.final > 0 else None,
                         stopped)


class _Bounds:
    """Each event's best bounds over the looks and the final part of a round: the largest lower bound
    on P_fav(E) (``p1``, from 0) and the smallest upper bound on P_oth(E) (``p2``, from 1)."""

    def __init__(self, n: int):
        self.p1, self.p2 = [0.0] * n, [1.0] * n

    def add(self, p1, p2) -> None:
        for i, (a, b) in enumerate(zip(p1, p2)):
            self.p1[i], self.p2[i] = max(self.p1[i], float(a)), min(self.p2[i], float(b))


def _run_looks(certifier: Certifier, work: list, rounds: list, owner: list, top_slots: tuple, bounds: _Bounds,
               budget, claim):
    """``(c1, c2, n10, n01, n, raised)``: the counts of every look (stopping after a sequential look whose
    bounds contradict the claim), the paired events' discordant pairs oriented to their favoured side, the
    outputs per dataset, and the draws that raised on D and on D'."""
    n_ev = len(owner)
    c1 = np.zeros(n_ev, dtype=np.int64)
    c2 = np.zeros(n_ev, dtype=np.int64)
    n10 = np.zeros(len(top_slots), dtype=np.int64)  # per paired event: pairs with only the favoured /
    n01 = np.zeros(len(top_slots), dtype=np.int64)  # only the other side's output in it
    own = np.asarray(owner)
    n = 0
    raised = [0, 0]
    try:
        ahead = certifier.start(work[0]) if work else None
        for li, look in enumerate(rounds):
            # on a cluster the next look is already running while this one is examined (its counts
            # are used only if the audit does not stop here; otherwise it is cancelled)
            current, ahead = ahead, (certifier.start(work[li + 1]) if li + 1 < len(work) else None)
            a1, a2, x10, x01 = certifier.finish(current)
            c1 += a1[:-1]
            c2 += a2[:-1]
            raised[0] += int(a1[-1])
            raised[1] += int(a2[-1])
            for m, t in enumerate(top_slots):
                if owner[t] == 0:
                    n10[m], n01[m] = n10[m] + x10[m], n01[m] + x01[m]
                else:
                    n10[m], n01[m] = n10[m] + x01[m], n01[m] + x10[m]
            n += sum(look)
            if budget.sequential > 0:
                # favoured side's count: D for direction 0, D' for direction 1
                fav = np.where(own == 0, c1, c2)
                oth = np.where(own == 0, c2, c1)
                p1 = cs_lower(fav, n, budget.sequential_level())
                p2 = cs_upper(oth, n, budget.sequential_level())
                bounds.add(p1, p2)
                if contradicts(p1, p2, claim):
                    break
    finally:
        certifier.close()  # cancels a look started ahead and not used
    return c1, c2, n10, n01, n, (raised[0], raised[1])
