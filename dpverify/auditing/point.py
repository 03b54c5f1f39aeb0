"""The audit of one (eps, delta) claim: plan -> executor -> tester -> result.

:func:`audit_point` is :func:`dpverify.audit` for a plain claim (a curve claim is audited point by
point by :mod:`dpverify.auditing.curve`, which calls it). It reads as its stages:

1. :func:`supervised` -- with ``time_budget`` and not yet bounded, the whole audit runs again under
   :mod:`dpverify.auditing.deadline` (a killable child process, or bounded waits with a note);
2. :func:`dpverify.auditing.intake.plan_audit` -- the frozen :class:`~dpverify.auditing.intake.AuditPlan`;
3. :func:`executor_for` -- whether the sampler honours ``rng`` (the probe), and what that allows of the
   caller's executor (with notes);
4. the tester -- :func:`run_white_box` or :func:`run_black_box` (which chooses the audit's own pool
   with :func:`dpverify.auditing.executor.auto_pool` when the caller gave no executor), called with the
   same keyword arguments as ever, unpacked from the plan's option values;
5. :func:`with_checks` -- the result with the neighbour checks, the rng probe and the notes.
"""
from __future__ import annotations

import dataclasses
from concurrent.futures import ProcessPoolExecutor
from typing import Any, Callable

from ..claims import PrivacyClaim
from . import deadline, distributed
from .draws import honours_rng, plan_samples
from .executor import auto_pool, stop_executor
from .intake import AuditPlan, needs_supervision, options_of, plan_audit
from .options import AuditOptions
from .pairs import UNCHECKED
from .result import AuditResult

__all__ = ["audit_point", "supervised", "executor_for", "run_white_box", "run_black_box", "with_checks"]


def audit_point(mechanism: Any, pairs: Any, *, claim: PrivacyClaim, rng: Any = None, **keywords: Any) -> AuditResult:
    """Audit ``mechanism`` against the plain claim ``claim`` (a :class:`~dpverify.PrivacyClaim`) on ``pairs``.

    ``keywords`` are :func:`dpverify.audit`'s options (``samples``, ``confidence``, ``executor``, the
    white-box and black-box options, ``time_budget``), with the same meaning and defaults.
    """
    options = options_of(**keywords)
    if needs_supervision(options.time_budget):
        return supervised(audit_point, mechanism, pairs, claim, rng, options)
    plan = plan_audit(mechanism, pairs, claim, rng, options)
    executor, honest, notes = executor_for(plan)
    if plan.white_box:
        result = run_white_box(plan, executor)
    else:
        result = run_black_box(plan, executor, honest, notes)
    return with_checks(result, plan.checks, honest, notes)


def supervised(func: Callable[..., AuditResult], mechanism: Any, pairs: Any, claim: PrivacyClaim, rng: Any,
               options: AuditOptions) -> AuditResult:
    """``func`` (an audit taking :func:`dpverify.audit`'s keywords) with ``time_budget`` enforced from outside
    every call of the mechanism: in a supervised, killable child process (:mod:`dpverify.auditing.deadline`),
    or, where that is impossible (a caller's executor, no ``fork``), with bounded waits for the executor's
    batches and a note saying so."""
    kwargs = dict(options.keywords(), mechanism=mechanism, pairs=pairs, claim=claim, rng=rng)
    ok, why = deadline.can_supervise(options.executor)
    if ok:
        return deadline.supervise(func, kwargs, time_budget=options.time_budget, rng=rng,
                                   progress=options.white.progress)
    with deadline.bounded_wait(options.time_budget):
        result = func(**kwargs)
    return dataclasses.replace(result, notes=tuple(result.notes) + (why,))


def executor_for(plan: AuditPlan) -> tuple[Any, bool | None, list]:
    """(executor to use, whether the sampler honours rng, notes): a sampler that ignores ``rng`` never runs
    on a caller's process pool (its workers could repeat one another's draws); on Dask the workers must
    run the caller's mechanism."""
    executor = plan.options.executor
    honest = honours_rng(plan.mechanism, plan.pairs[0][0])
    notes: list[str] = []
    if honest is False:
        notes.append("the sampler ignores rng (two generators from one seed gave different outputs): this run "
                     "cannot be repeated from its seed; it never ran on workers sharing a generator state")
        if isinstance(executor, ProcessPoolExecutor):
            executor = None
            notes.append("ran serially instead of on the given process pool: its workers could repeat one "
                         "another's draws of a sampler that ignores rng")
        elif executor is not None and distributed.is_dask_client(executor):
            notes.append("on Dask, a sampler that ignores rng draws from each worker process's own state (a retried "
                         "batch draws afresh); workers must not be forked from one parent (Dask's default "
                         "multiprocessing method, spawn, is safe)")
    elif honest and executor is not None and distributed.is_dask_client(executor):
        notes.extend(distributed.check_workers_agree(executor, plan.mechanism, *plan.pairs[0]))
    return executor, honest, notes


def run_white_box(plan: AuditPlan, executor: Any) -> AuditResult:
    """The white-box tester on the plan (soft deadline: the supervised child's, when ``time_budget`` is set)."""
    from .whitebox import audit_white_box  # deferred: the tester's bounds import scipy, which import dpverify must not pay for

    budget = plan.options.time_budget
    return audit_white_box(plan.mechanism, list(plan.pairs), claim=plan.claim, samples=plan.samples,
                           confidence=plan.confidence, rng=plan.rng, executor=executor, search=plan.search,
                           time_budget=budget, deadline=deadline.soft_deadline() if budget is not None else None,
                           **plan.white.tester_keywords())


def run_black_box(plan: AuditPlan, executor: Any, honest: bool | None, notes: list) -> AuditResult:
    """The black-box tester on the plan, on the caller's executor or the audit's own pool (chosen here, after
    the up-front refusals of :func:`~dpverify.auditing.draws.plan_samples`; a note says why it is serial),
    which is shut down, or stopped at once on Ctrl-C, when the tester returns."""
    from .blackbox import audit_black_box  # deferred: the tester's bounds import scipy, which import dpverify must not pay for

    pairs = list(plan.pairs)
    max_samples = plan.white.max_samples  # black-box audits take it too (the cap of samples)
    own = None
    if executor is None:
        sizes = plan_samples(plan.samples, max_samples, streams=2 * len(pairs))
        own, why = auto_pool(2 * sizes.samples * len(pairs), plan.mechanism, pairs, honest)
        executor = own
        if why:
            notes.append(why)
    try:
        return audit_black_box(plan.mechanism, pairs, claim=plan.claim, samples=plan.samples,
                               confidence=plan.confidence, rng=plan.rng, executor=executor, search=plan.search,
                               max_samples=max_samples, **plan.black.tester_keywords())
    except KeyboardInterrupt:
        if own is not None:
            stop_executor(own)
            own = None
        raise
    finally:
        if own is not None:
            own.shutdown()


def with_checks(result: AuditResult, checks: tuple, honest: bool | None = None,
                extra_notes: list | None = None) -> AuditResult:
    """The result with how each pair's neighbourhood was checked (and a note for unchecked pairs),
    whether the sampler honours rng, and the entry point's notes."""
    notes = result.notes + tuple(extra_notes or ())
    unchecked = [i for i, c in enumerate(checks) if c == UNCHECKED]
    if unchecked:
        notes = notes + (f"pairs {unchecked} unchecked: neither their records nor a neighbourhood stated by the "
                         "mechanism could confirm they are neighbours; the bounds hold for these pairs as given",)
    return dataclasses.replace(result, neighbour_checks=checks, notes=notes, reproducible=honest)
