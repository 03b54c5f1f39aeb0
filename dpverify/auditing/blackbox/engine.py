"""The black-box audit as its four stages: probe -> select -> certify -> verdict.

:func:`audit_black_box` validates its options, fixes the sample plan, probes every pair (layout and
event slots, so the alpha budget is split once), runs the rounds (a pilot round with ``stop_early``,
then the main round; in each, every pair's selection then certification), and hands the certified
events to the verdict. The stages exchange frozen values (:mod:`~dpverify.auditing.blackbox.values`).
"""
from __future__ import annotations

import time

import numpy as np

from ...validation import open_unit
from ...claims import PrivacyClaim
from ...errors import InvalidArgument
from .. import draws
from ..executor import AUTO_POOL_MIN_OUTPUTS, auto_pool
from ..result import AuditResult
from .budget import MIN_SAMPLES, SELECTION_FRACTION, AlphaBudget, SamplePlan
from .certify import certify_events
from .outputs import where
from .probe import check_probes, probe_pair
from .selection import choose_events
from .values import PairRecord
from .verdict import decide

__all__ = ["audit_black_box", "AUTO_POOL_MIN_OUTPUTS"]

def _check_options(samples, max_samples, streams: int, selection_fraction, stop_early, float_bits,
                   learned) -> SamplePlan:
    """The sample plan; InvalidArgument for a bad option (in the order the arguments are checked)."""
    if samples < MIN_SAMPLES:
        raise InvalidArgument(
            f"samples={samples!r} is too few for a black-box audit: it needs at least {MIN_SAMPLES} outputs per "
            "dataset (split between selecting events and certifying them); use e.g. samples=200_000."
        )
    capped = draws.plan_samples(samples, max_samples, streams=streams)
    selection_fraction = open_unit("selection_fraction", selection_fraction, fix="Use e.g. 0.4.")
    for name, val in (("stop_early", stop_early), ("float_bits", float_bits), ("learned", learned)):
        if not isinstance(val, (bool, np.bool_)):
            raise InvalidArgument(f"{name}={val!r} must be True or False.")
    return SamplePlan.make(capped, selection_fraction, stop_early)


def audit_black_box(mechanism, pairs, *, claim: PrivacyClaim, samples: int, confidence: float, rng=None,
                    executor=None, search=None, selection_fraction: float = SELECTION_FRACTION,
                    stop_early: bool = False, float_bits: bool = False, learned: bool = True,
                    max_samples: int | None = None) -> AuditResult:
    """Black-box audit (see :mod:`dpverify.auditing.blackbox`); called by :func:`dpverify.audit`.

    ``samples`` outputs at most are drawn from each dataset of each pair (selection and
    certification together; fewer when ``stop_early`` certifies a violation first), capped up front at
    ``max_samples`` (default ``DEFAULT_MAX_SAMPLES``, 10**8) with a note (:func:`~dpverify.auditing.draws.plan_samples`). Raises
    MechanismError (naming the mechanism and the pair, with ``.pair`` and ``.direction``) when ``sample``
    returns the wrong number of outputs or NaN; an exception raised by ``sample`` is an outcome (see the
    package docstring).
    """
    start = time.perf_counter()
    plan = _check_options(samples, max_samples, 2 * len(pairs), selection_fraction, stop_early, float_bits, learned)
    notes: list[str] = [plan.note] if plan.note is not None else []
    own_pool = None
    if executor is None:
        executor, why = auto_pool(2 * plan.samples * len(pairs), mechanism, pairs)
        own_pool = executor
        if why:
            notes.append(why)
    pair_seeds = [s.spawn(4) for s in draws.root_seed(rng).spawn(len(pairs))]  # probe D, probe D', pilot, main
    wheres = [(where(k, d, dp, "D"), where(k, d, dp, "D'")) for k, (d, dp) in enumerate(pairs)]
    try:
        # 1. probe: each pair's layout, so the event slots K and the alpha budget, before any selection draw
        probes = [probe_pair(mechanism, d, dp, pair_seeds[k][:2], *wheres[k], float_bits, learned)
                  for k, (d, dp) in enumerate(pairs)]
        check_probes(mechanism, pairs, [r for _, r in probes])
        budget = AlphaBudget.split(confidence, stop_early, plan.pilot,
                                   max(1, sum(2 * lay.slots for lay, _ in probes)))
        # 2. select and 3. certify, round by round
        records, stopped = _rounds(mechanism, pairs, wheres, probes, pair_seeds, plan, budget, claim, learned,
                                   float_bits, executor)
    finally:
        if own_pool is not None:
            own_pool.shutdown()
    # 4. verdict
    return decide(mechanism, pairs, records, stopped, claim=claim, confidence=confidence, plan=plan, budget=budget,
                  stop_early=stop_early, notes=notes, search=search, start=start)


def _rounds(mechanism, pairs, wheres, probes, pair_seeds, plan, budget, claim, learned, float_bits, executor):
    """``(records, stopped)``: every pair's :class:`~.values.PairRecord` after the rounds, and
    ``(pair, round label)`` of the look that certified a violation (the audit stops there), else None."""
    events = [[] for _ in pairs]
    drawn = [0] * len(pairs)
    levels: list = [None] * len(pairs)
    constant: list = [None] * len(pairs)
    raised = [r for _, r in probes]
    stopped = None
    for rnd in budget.rounds(plan):
        for k, pair in enumerate(pairs):
            layout = probes[k][0]
            sel_seeds, cert_seeds = zip(*(ss.spawn(2) for ss in pair_seeds[k][rnd.seed_index].spawn(2)))
            sel = choose_events(mechanism, pair, wheres[k], layout, sel_seeds, rnd, claim, learned, float_bits, executor)
            raised[k] = raised[k].with_types([dict(t) for t in sel.raised])
            constant[k] = sel.constant if sel.constant is not None else constant[k]
            drawn[k] += sel.drawn
            if not sel.events:
                continue
            cert = certify_events(mechanism, pair, wheres[k], layout.structured, layout.per, sel, cert_seeds, rnd,
                           layout.slots, claim, float_bits, executor)
            events[k].extend(cert.events)
            drawn[k] += cert.drawn
            raised[k] = raised[k].with_certification(*cert.raised)
            levels[k] = cert.level if cert.level is not None else levels[k]
            if cert.stopped:
                stopped = (k, rnd.label)
                break
        if stopped is not None:
            break
    records = [PairRecord(tuple(events[k]), drawn[k], levels[k], constant[k], raised[k]) for k in range(len(pairs))]
    return records, stopped
