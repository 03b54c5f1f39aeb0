"""Empirical privacy testers: :func:`audit` dispatches to the white-box or black-box tester."""
from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any

from .._validate import open_unit
from ..claims import PrivacyClaim
from ..errors import InvalidArgument
from ..mechanism import is_white_box
from . import _deadline, _runner
from .pairs import UNCHECKED, check_pairs
from ._runner import SamplesPlan, plan_samples
from .result import AuditResult, DirectionResult

__all__ = ["audit", "AuditResult", "DirectionResult", "DEFAULT_SAMPLES", "plan_samples", "SamplesPlan"]

#: Outputs drawn per direction of each pair when ``samples`` is not given.
DEFAULT_SAMPLES = 200_000

_WHITE_BOX_DEFAULTS = {"proposal": "auto", "delta_resolution": None, "max_samples": None, "progress": None,
                       "precision": None, "profile": False}


def audit(mechanism: Any, pairs: Any, *, claim: PrivacyClaim | None = None, samples: int = DEFAULT_SAMPLES,
          confidence: float = 0.95, rng: Any = None, executor: Any = None, proposal: Any = "auto",
          delta_resolution: float | None = None, max_samples: int | None = None, progress: Any = None,
          precision: Any = None, profile: bool = False, time_budget: float | None = None,
          consistency: bool = True, **black_box: Any) -> AuditResult:
    """Test whether ``mechanism`` keeps ``claim`` (default: ``mechanism.claim``) on ``pairs``.

    ``pairs`` is one pair ``(D, D_prime)`` (a tuple), a list of such tuples, or a neighbour
    generator (:class:`dpverify.auditing.neighbours.NeighbourGenerator`: built-in patterns or an
    adversarial search), whose candidates are chosen on draws independent of the certifying ones
    (see ``docs/auditing.md``). Both directions of every pair are tested.
    The white-box options ``proposal``, ``delta_resolution``, ``max_samples``, ``progress``,
    ``precision`` and ``profile`` are described at :func:`dpverify.auditing.whitebox.audit_white_box`
    (``max_samples=None`` means its default). ``rng`` is a ``numpy.random.Generator``, an int seed,
    or None; ``black_box`` options (``stop_early``, ``float_bits``, ``learned``, ``selection_fraction``) go to
    :func:`dpverify.auditing.blackbox.audit_black_box`;
    ``executor`` an optional ``concurrent.futures.Executor`` over which batches are spread (the
    result depends only on the seed, not on the executor).

    ``time_budget`` (seconds, white-box and black-box) bounds the whole audit, every call of the
    mechanism included: the audit runs in a supervised child process that is killed, with its workers,
    ``time_budget + 5`` s after the start (:class:`~dpverify.errors.DeadlineExceeded`; a call that never
    returns cannot hang it). White-box plain draws also stop at ``time_budget``, between batches, and
    report the bounds reached so far (``result.stopped_early``); black-box audits do not stop early.
    With a caller's ``executor`` only the waits for its batches are bounded (a note says so); see
    :mod:`dpverify.auditing._deadline`. ``max_samples`` (default 10**8) caps ``samples`` up front,
    white-box and black-box, with a note (:func:`plan_samples`). ``consistency`` (white-box, default True): check
    ``log_density`` against ``sample``; an inconsistent mechanism gets the verdict
    ``inconsistent``, never a privacy verdict (:mod:`dpverify.auditing.consistency`).

    **Randomness.** Before sampling, the audit checks that the sampler honours ``rng`` (same
    seed, same outputs); ``result.reproducible`` says so. A sampler that ignores it is still
    audited, but never on workers that could repeat one another's draws: pools started by the
    audit fork their workers (a script needs no ``if __name__ == "__main__":`` guard: nothing re-imports
    it) and reseed each one's global generators; such samplers get them only after a probe shows the
    workers' draws independent, and never a caller's process pool (a note says why; see
    :func:`dpverify.auditing._runner.auto_executor`).

    White-box when the mechanism has ``log_density`` (see :mod:`dpverify.auditing.whitebox` for the
    estimator and the inequality behind each bound); black-box otherwise.

    The result's ``epsilon_lower`` and ``delta_lower`` are **lower** confidence bounds, valid
    simultaneously over all pairs and directions with probability >= ``confidence``. The verdict
    is ``violated`` when they contradict the claim, ``inconclusive`` when the point estimate of
    delta(claim.epsilon) exceeds claim.delta without significance, ``not-violated`` otherwise.
    """
    if claim is None:
        claim = getattr(mechanism, "claim", None)
        if claim is None:
            raise InvalidArgument(
                f"mechanism={_runner.describe(mechanism)} has no `claim` and claim=None; pass "
                "claim=PrivacyClaim(epsilon, delta)."
            )
    if not isinstance(claim, PrivacyClaim):
        raise InvalidArgument(
            f"claim={_runner.describe(claim)} must be a dpverify.PrivacyClaim, e.g. PrivacyClaim(1.0, 1e-5)."
        )
    if time_budget is not None:
        from .._validate import positive

        time_budget = positive("time_budget", time_budget, fix="Give the seconds the audit may take, e.g. time_budget=60.")
        if _deadline.soft_deadline() is None and _deadline.hard_deadline() is None:  # not yet bounded: bound it
            options = dict(claim=claim, samples=samples, confidence=confidence, rng=rng, executor=executor,
                           proposal=proposal, delta_resolution=delta_resolution, max_samples=max_samples,
                           progress=progress, precision=precision, profile=profile, time_budget=time_budget,
                           consistency=consistency, **black_box)
            return _bounded(mechanism, pairs, options)
    if claim.is_curve:  # zCDP / Renyi / profile claims: audited at several points (auditing/curve.py)
        from .curve import audit_curve
        return audit_curve(mechanism, pairs, claim=claim, samples=samples, confidence=confidence, rng=rng,
                           executor=executor, proposal=proposal, delta_resolution=delta_resolution,
                           max_samples=max_samples, progress=progress, precision=precision, profile=profile,
                           time_budget=time_budget, consistency=consistency, **black_box)
    if not callable(getattr(mechanism, "sample", None)):
        raise InvalidArgument(
            f"mechanism={_runner.describe(mechanism)} has no sample(data, size, rng) method; it does not "
            "follow the dpverify.Mechanism protocol."
        )
    samples = _runner.validate_samples(samples)
    if not isinstance(consistency, bool):
        raise InvalidArgument(f"consistency={consistency!r} must be True or False.")
    confidence = open_unit("confidence", confidence, fix="Use e.g. confidence=0.95.")
    # White-box options that differ from their defaults (black-box audits refuse them).
    white_box = {k: v for k, v in (("proposal", proposal), ("delta_resolution", delta_resolution),
                                   ("max_samples", max_samples), ("progress", progress),
                                   ("precision", precision), ("profile", profile))
                 if v is not _WHITE_BOX_DEFAULTS[k] and v != _WHITE_BOX_DEFAULTS[k]}
    from .neighbours import resolve_pairs

    pair_list, rng, search = resolve_pairs(pairs, mechanism, claim, rng)
    if is_white_box(mechanism) and black_box:
        raise InvalidArgument(f"{', '.join(f'{k}={v!r}' for k, v in black_box.items())}: these options apply to "
                              "black-box audits only, and the mechanism has log_density. Drop them.")
    if search is None:
        checks = check_pairs(pair_list, mechanism, claim.relation)
    else:
        checks = tuple(f"generator space: {search['space']['relation']} {search['space']['unit']}"
                       if isinstance(search.get("space"), dict) else "generator space" for _ in pair_list)
    if executor is not None:
        from . import distributed

        if distributed.is_dask_client(executor):  # everything sent to workers must pickle: say what does not
            distributed.check_picklable("mechanism", mechanism)
            for i, pair in enumerate(pair_list):
                distributed.check_picklable(f"pairs[{i}]" if len(pair_list) > 1 else "pairs", pair)
    honest = _runner.honours_rng(mechanism, pair_list[0][0])
    notes: list[str] = []
    if honest is False:
        notes.append("the sampler ignores rng (two generators from one seed gave different outputs): this run "
                     "cannot be repeated from its seed; it never ran on workers sharing a generator state")
        if isinstance(executor, ProcessPoolExecutor):
            executor = None
            notes.append("ran serially instead of on the given process pool: its workers could repeat one "
                         "another's draws of a sampler that ignores rng")
        elif executor is not None and _is_dask(executor):
            notes.append("on Dask, a sampler that ignores rng draws from each worker process's own state (a retried "
                         "batch draws afresh); workers must not be forked from one parent (Dask's default "
                         "multiprocessing method, spawn, is safe)")
    elif honest and executor is not None:
        from . import distributed

        if distributed.is_dask_client(executor):  # the workers must run the caller's mechanism
            notes.extend(distributed.check_workers_agree(executor, mechanism, *pair_list[0]))
    if is_white_box(mechanism):
        from .whitebox import audit_white_box

        result = audit_white_box(mechanism, pair_list, claim=claim, samples=samples,
                                 confidence=confidence, rng=rng, executor=executor, search=search,
                                 time_budget=time_budget, consistency=consistency,
                                 deadline=_deadline.soft_deadline() if time_budget is not None else None, **white_box)
        return _with_checks(result, checks, honest, notes)
    max_samples = white_box.pop("max_samples", None)  # black-box audits take it too (the cap of samples)
    if white_box or consistency is not True:
        given = dict(white_box, **({"consistency": consistency} if consistency is not True else {}))
        raise InvalidArgument(
            f"{', '.join(f'{k}={v!r}' for k, v in given.items())}: these options apply to white-box "
            f"audits only, and mechanism={_runner.describe(mechanism)} has no log_density. Drop them."
        )
    from .blackbox import audit_black_box

    own = None
    if executor is None:
        plan = _runner.plan_samples(samples, max_samples, streams=2 * len(pair_list))  # (refusals before any pool)
        own, why = _runner.auto_pool(2 * plan.samples * len(pair_list), mechanism, pair_list, honest)
        executor = own
        if why:
            notes.append(why)
    try:
        result = audit_black_box(mechanism, pair_list, claim=claim, samples=samples, confidence=confidence,
                                 rng=rng, executor=executor, search=search, max_samples=max_samples, **black_box)
    except KeyboardInterrupt:
        if own is not None:
            _runner.stop_executor(own)
            own = None
        raise
    finally:
        if own is not None:
            own.shutdown()
    return _with_checks(result, checks, honest, notes)


def _bounded(mechanism: Any, pairs: Any, options: dict) -> AuditResult:
    """:func:`audit` with ``time_budget`` enforced from outside every call of the mechanism: in a supervised,
    killable child process (:mod:`dpverify.auditing._deadline`), or, where that is impossible (a caller's
    executor, no ``fork``), with bounded waits for the executor's batches and a note saying so."""
    import dataclasses

    budget = options["time_budget"]
    ok, why = _deadline.can_supervise(options["executor"])
    if ok:
        return _deadline.supervise(audit, dict(options, mechanism=mechanism, pairs=pairs), time_budget=budget,
                                   rng=options["rng"], progress=options["progress"])
    with _deadline.bounded_wait(budget):
        result = audit(mechanism, pairs, **options)
    return dataclasses.replace(result, notes=tuple(result.notes) + (why,))


def _with_checks(result: AuditResult, checks: tuple, honest: bool | None = None,
                 extra_notes: list | None = None) -> AuditResult:
    """The result with how each pair's neighbourhood was checked (and a note for unchecked pairs),
    whether the sampler honours rng, and the entry point's notes."""
    import dataclasses

    notes = result.notes + tuple(extra_notes or ())
    unchecked = [i for i, c in enumerate(checks) if c == UNCHECKED]
    if unchecked:
        notes = notes + (f"pairs {unchecked} unchecked: neither their records nor a neighbourhood stated by the "
                         "mechanism could confirm they are neighbours; the bounds hold for these pairs as given",)
    return dataclasses.replace(result, neighbour_checks=checks, notes=notes, reproducible=honest)


def _is_dask(executor: Any) -> bool:
    from .distributed import is_dask_client

    return is_dask_client(executor)
