"""Stage 2, select (the selection draws): the selection draws of one round of one pair choose the events to certify.

:func:`choose_events` draws ``selection`` outputs per dataset (batches of the probe's size, on the executor),
keeps them, and chooses events on them. For the direction "D->D'" (events favouring D) each *family*
(:mod:`~dpverify.auditing.blackbox.scores`, :mod:`~dpverify.auditing.blackbox.learned`) gives one event
maximising the predicted certified epsilon and one maximising the predicted delta at
``claim.epsilon``: half-lines on every 1-D feature (coordinates, differences, sum, max, min, float
granularity), sets of exact outcomes, outcome branches (structured outputs), a naive-Bayes histogram
score, and - for vectors - learned scores (counts past the selection medians, a logistic regression on
engineered features), each thresholded at the best of every distinct value. "D'->D" is the same with
the roles swapped. At most the layout's ``slots`` events per direction are kept.

Pure claims (delta = 0, a final part, at least ``VALIDATION_MIN`` selection draws): the last
``VALIDATION_SHARE`` of the selection draws is held out from the threshold scans, and the best one or
two events get a paired bound in certification, ranked and re-thresholded by
:mod:`~dpverify.auditing.blackbox.ranking`. The result is a frozen
:class:`~dpverify.auditing.blackbox.values.Selection`.
"""
from __future__ import annotations

import math

import numpy as np

from ..executor import run_batches
from .budget import Round
from .outputs import conform_names, merge, table, take
from .event_families import HalfLine, ScoreAbove
from .ranking import (FITTED_SCORES, RANK_Z_MIN, SECOND_OVERLAP_MAX, all_draws_paired, calibrated_threshold,
                      counts_of, discordant_overlap, paired_alternatives, paired_rank_z, rank_paired, rank_top,
                      score_values, unfitted)
from .scores import predicted, scan, select_both
from .values import Layout, SelectedEvent, Selection

__all__ = ["choose_events", "selection_tables", "VALIDATION_SHARE", "VALIDATION_MIN"]

#: Pure claims: share of the selection draws held out to rank the candidates for the paired
#: bound (thresholds are chosen on the rest), when there are at least VALIDATION_MIN of them.
VALIDATION_SHARE = 0.2
VALIDATION_MIN = 1_000


def selection_tables(mechanism, pair, wheres, layout: Layout, size: int, seeds, float_bits: bool, executor):
    """The selection tables of D and of D': ``size`` outputs each, in batches of ``layout.per``
    (``seeds``: D's and D''s selection seeds; ``wheres``: their :class:`~.values.Where`)."""
    tasks, which = [], []
    for side, (data, where, sel_seed) in enumerate(zip(pair, wheres, seeds)):
        full, r = divmod(size, layout.per)
        sizes = [layout.per] * full + ([r] if r else [])
        for b, bs in zip(sizes, sel_seed.spawn(len(sizes))):
            tasks.append((mechanism, data, b, bs, where, layout.structured, layout.names, float_bits))
            which.append(side)
    parts = run_batches(table, tasks, executor)
    return merge([t for t, w in zip(parts, which) if w == 0]), merge([t for t, w in zip(parts, which) if w == 1])


def choose_events(mechanism, pair, wheres, layout: Layout, seeds, rnd: Round, claim, learned: bool, float_bits: bool,
           executor) -> Selection:
    """The events of one round (``rnd``) of one pair, chosen on its selection draws."""
    sel, cert = rnd.selection, rnd.certification
    t1, t2 = selection_tables(mechanism, pair, wheres, layout, sel, seeds, float_bits, executor)
    raised = (tuple(t1.raised_types().items()), tuple(t2.raised_types().items()))
    constant = None
    if t1.size and t2.size and np.all(t1.codes == t1.codes[0]) and np.all(t2.codes == t1.codes[0]):
        constant = t1.examples.get(int(t1.codes[0]), "one outcome")
    if layout.structured:
        merged = merge([t1, t2])
        t1, t2 = conform_names(t1, merged.names), conform_names(t2, merged.names)
    names = t1.names
    # pure claims: the last VALIDATION_SHARE of the selection draws is held out to rank the
    # candidates (their thresholds are chosen on the rest, so the best-looking of thousands of
    # scanned tails does not win on its own noise); the winner gets the paired bound
    paired = rnd.alpha.final > 0 and claim.delta == 0 and sel >= VALIDATION_MIN
    fit = sel - int(sel * VALIDATION_SHARE) if paired else sel
    v1, v2 = take(t1, slice(fit, None)), take(t2, slice(fit, None))
    t1, t2 = take(t1, slice(0, fit)), take(t2, slice(0, fit))
    cands = select_both(t1, t2, (fit, fit, cert, cert), rnd.alpha.selection_level(), claim.delta, claim.epsilon,
                        learned)
    events, families, goals, texts, owner, preds = [], [], [], [], [], []
    for j in (0, 1):
        for c in cands[j][: layout.slots]:
            if not math.isfinite(c.predicted):
                continue
            events.append(c.event)
            preds.append(c.predicted)
            families.append(c.family)
            goals.append(c.goal)
            texts.append(f"{c.family}: {c.event.describe()}")
            owner.append(j)
    tops: list[tuple[int, bool]] = []  # (slot, threshold from the fitting draws?) of the paired events
    if paired and events:
        a_p = rnd.alpha.paired_selection(layout.slots)
        tops = _paired_events(events, families, goals, texts, owner, preds, (t1, t2), (v1, v2), cert, a_p,
                              claim.epsilon)
    chosen = tuple(SelectedEvent(e, f, g, t, j) for e, f, g, t, j in zip(events, families, goals, texts, owner))
    return Selection(chosen, tuple(t for t, _ in tops), names, sel, constant, raised)


def _paired_events(events, families, goals, texts, owner, preds, fits, held, cert: int, a_p: float,
                   epsilon: float) -> list[tuple[int, bool]]:
    """Pure claims: the slots of the (one or two) events that get a paired bound, each with whether a
    threshold alternative won; ``events`` and ``texts`` are updated in place with their thresholds for
    the paired bound. ``fits``/``held``: the fitting and held-out selection tables of D and D'."""
    (f1, f2), (v1, v2) = fits, held
    cv1, cv2 = counts_of(v1, events), counts_of(v2, events)
    own_a = np.asarray(owner)
    pv, _ = predicted(np.where(own_a == 0, cv1, cv2), np.where(own_a == 0, cv2, cv1), v1.size, v2.size,
                      cert, cert, a_p, 0.0, epsilon)
    # rank by the paired bound each event is predicted to get from its held-out pairs
    # (pessimistic about the held-out estimate itself); the Mann-Whitney rule of
    # rank_top only when no event has a finite prediction
    picks, source, alts, grid_t = _rank_candidates(events, goals, owner, fits, held, cert, a_p)
    saved = {source[c]: (events[source[c]], texts[source[c]]) for c in picks}
    tops: list[tuple[int, bool]] = []
    for c in picks:
        slot = source[c]
        if c >= len(events):  # a threshold alternative won: it takes its event's slot
            events[slot] = alts[slot]
            texts[slot] = (f"{families[slot]}: {events[slot].describe()} (threshold for the paired "
                           "bound, from the fitting draws)")
        elif slot in grid_t and grid_t[slot] is not None and grid_t[slot] != events[slot].threshold:
            e0, t_new = events[slot], grid_t[slot]
            events[slot] = (HalfLine(e0.feature, e0.name, t_new, e0.upper) if isinstance(e0, HalfLine)
                            else ScoreAbove(e0.score, t_new, e0.upper))
            texts[slot] = (f"{families[slot]}: {events[slot].describe()} (threshold for the paired "
                           "bound, from all the selection draws)")
        tops.append((slot, c >= len(events)))
    if not tops:
        t = rank_top(events, goals, owner, list(np.minimum(pv, preds)), v1, v2)
        if t >= 0:
            tops.append((t, False))
    for top, alt_won in tops:
        _rethreshold(events, families, texts, owner, top, alt_won, fits, held, cert, a_p, epsilon)
    if len(tops) == 2 and discordant_overlap(events[tops[0][0]], events[tops[1][0]], [f1, v1],
                                             [f2, v2]) > SECOND_OVERLAP_MAX:
        # the second event's discordant pairs are mostly the first's (a complement, a nested
        # tail): the same evidence twice at half the alpha each; the first keeps it all
        slot = tops.pop()[0]
        events[slot], texts[slot] = saved[slot]
    return tops


def _rank_candidates(events, goals, owner, fits, held, cert: int, a_p: float):
    """``(picks, source, alts, grid_t)``: the winners of the paired ranking (indices among the events
    and their threshold alternatives; ``source`` maps each to its slot), the alternatives, and the
    thresholds of the unfitted events on all the selection draws."""
    (f1, f2), (v1, v2) = fits, held
    # Each threshold event also competes in a version whose threshold maximises that
    # prediction on the fitting draws (the scan's threshold maximises the separate bounds',
    # and its best tail is often a handful of outputs); a winning version takes the slot
    # of the event it came from.
    # An unfitted event (a half-line, a count past medians) is ranked on all the selection
    # pairs instead, at the best of its thresholds there (all_draws_paired); its threshold
    # alternative then adds nothing.
    alts = paired_alternatives(events, goals, owner, f1, f2, cert, a_p)
    override, grid_t, zs_ = {}, {}, {}
    for i, ev_i in enumerate(events):
        if goals[i] == "epsilon" and unfitted(ev_i):
            override[i], grid_t[i], zs_[i] = all_draws_paired(ev_i, owner[i], [f1, v1], [f2, v2], cert, a_p)
            alts[i] = None
        elif goals[i] == "epsilon":  # fitted scores, outcome sets: held-out pairs only
            fav_v, oth_v = (v1, v2) if owner[i] == 0 else (v2, v1)
            if isinstance(ev_i, ScoreAbove):
                zs_[i] = paired_rank_z(score_values(ev_i, fav_v), score_values(ev_i, oth_v), ev_i.upper)
            else:
                zs_[i] = paired_rank_z(np.asarray(ev_i.contains(fav_v), dtype=float),
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
    c_goals = goals + [goals[i] for i in ext]
    c_owner = owner + [owner[i] for i in ext]
    source = list(range(len(events))) + ext  # the slot each candidate belongs to
    first = rank_paired(c_events, c_goals, c_owner, v1, v2, cert, a_p, override)
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
        second = rank_paired(c_events, c_goals, c_owner, v1, v2, cert, a_p, ov)
        if second >= 0:
            picks.append(second)
    return picks, source, alts, grid_t


def _rethreshold(events, families, texts, owner, top: int, alt_won: bool, fits, held, cert: int, a_p: float,
                 epsilon: float) -> None:
    """The paired event ``top``'s threshold for the paired bound (``events``/``texts`` updated in place)."""
    (f1, f2), (v1, v2) = fits, held
    ev = events[top]
    fitted = isinstance(ev, ScoreAbove) and isinstance(ev.score, FITTED_SCORES)
    if isinstance(ev, (HalfLine, ScoreAbove)) and not fitted:
        # the winner's threshold for the paired bound, from a calibrated (two-parameter)
        # fit of its score on all the selection draws: the per-threshold counts of the
        # far tails, where the best paired event of a small per-coordinate loss lives, are
        # too noisy to choose from (a score without fitted weights is not optimistic on
        # its own draws)
        new = calibrated_threshold(ev, owner[top], [f1, v1], [f2, v2], cert, a_p)
        if new is not None and new.threshold != ev.threshold:
            events[top] = new
            texts[top] = (f"{families[top]}: {new.describe()} (threshold for the paired bound "
                          "from a calibrated fit of the score on the selection draws)")
    elif not alt_won and fitted:
        # a fitted score's tails on its own fitting draws are optimistic: its threshold is
        # chosen again on the held-out draws (still selection draws, so still valid)
        fav_t, oth_t = (v1, v2) if owner[top] == 0 else (v2, v1)
        (t_new, p_new), _ = scan(ev.score(fav_t), ev.score(oth_t), (fav_t.size, oth_t.size, cert, cert),
                                 a_p, 0.0, epsilon, ev.upper)
        if math.isfinite(p_new):
            events[top] = ScoreAbove(ev.score, t_new, ev.upper)
            texts[top] = (f"{families[top]}: {events[top].describe()} (threshold from held-out draws)")
