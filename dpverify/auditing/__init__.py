"""Empirical privacy testers: :func:`audit` is the front door of the audit pipeline.

One audit runs through stage modules that exchange frozen values:
:mod:`~dpverify.auditing.intake` (claim, options and pairs, read and checked once, into an
:class:`AuditPlan`; the options are :class:`AuditOptions`, :class:`WhiteBoxOptions` and
:class:`BlackBoxOptions`) -> :mod:`~dpverify.auditing.point` (executor choice and notes, then the tester:
:mod:`~dpverify.auditing.whitebox` or :mod:`~dpverify.auditing.blackbox`) -> :mod:`~dpverify.auditing.result`
(:class:`AuditResult`). A curve claim is audited at several points by :mod:`~dpverify.auditing.curve`;
``time_budget`` is enforced by :mod:`~dpverify.auditing.deadline`. Neighbour spaces, generators and the
adversarial search are gathered in :mod:`~dpverify.auditing.neighbours`.
"""
from __future__ import annotations

from functools import partial
from typing import Any

from ..claims import ClaimForm, PrivacyClaim
from ..mechanism import is_white_box
from ..errors import InvalidArgument
from ..messages import describe
from .draws import validate_samples
from .unaided import search_for_pair
from .domain import InputDomain
from .draws import SamplesPlan, plan_samples
from .anytime import audit_sequential, sequential_of
from .curve import audit_curve
from .greybox.engine import audit_grey_box, mode_of
from .intake import AuditPlan, claim_of, needs_supervision, options_of, time_budget_of, with_neighbours
from .options import DEFAULT_SAMPLES, AuditOptions, BlackBoxOptions, WhiteBoxOptions
from .point import audit_point, supervised
from .result import AuditMethod, AuditResult, ConsistencyCheck, Direction, DirectionResult, SearchRecord

#: Claim forms a black-box audit tests as one trade-off test of the whole curve (dpverify.auditing.tradeoff).
WHOLE_CURVE_FORMS = (ClaimForm.GDP, ClaimForm.FDP, ClaimForm.CURVE)

__all__ = ["audit", "AuditResult", "DirectionResult", "DEFAULT_SAMPLES", "plan_samples", "SamplesPlan",
           "AuditPlan", "AuditOptions", "WhiteBoxOptions", "BlackBoxOptions", "AuditMethod", "Direction",
           "SearchRecord", "ConsistencyCheck", "InputDomain"]


def audit(mechanism: Any, pairs: Any = None, *, claim: PrivacyClaim | None = None, samples: int = DEFAULT_SAMPLES,
          confidence: float = 0.95, rng: Any = None, executor: Any = None, proposal: Any = "auto",
          delta_resolution: float | None = None, max_samples: int | None = None, progress: Any = None,
          precision: Any = None, profile: bool = False, time_budget: float | None = None,
          consistency: bool = True, domain: Any = None, neighbours: Any = None, parameters: Any = None,
          mode: Any = None, **black_box: Any) -> AuditResult:
    """Test whether ``mechanism`` keeps ``claim`` (default: ``mechanism.claim``) on ``pairs``.

    **Without pairs** (``pairs=None``) the audit searches for the violating pair itself, in ``domain`` (an
    :class:`~dpverify.InputDomain`) or the mechanism's ``input_domain()``: extreme and non-finite records,
    empty, singleton and duplicated datasets, new partitions, every distance at which the claim is stated
    (each against its own claim), a raise of ``sample`` counted as an outcome. A cheap screen on draws of its
    own picks the pair; the tester certifies it on fresh draws (:mod:`dpverify.auditing.unaided`), and
    ``result.search`` says what was searched and found.

    ``parameters`` (a dict: name -> list of values) makes ``mechanism`` a factory: every configuration
    ``mechanism(**configuration)`` is built and searched (its domain, its own claim unless ``claim`` is given),
    and the configuration of the pair found is certified and named in ``result.search``.

    ``mode="grey-box"`` (or ``"auto"``) replays every pair with the draws of D frozen
    (:mod:`dpverify.auditing.greybox`): an exact finding is the verdict; without one the audit runs as usual.

    ``neighbours`` (a :class:`~dpverify.auditing.space.NeighbourSpace`) states how the given pairs are
    neighbours, in place of the mechanism's ``neighbour_space()``: e.g. two query-answer vectors that differ
    in every coordinate, ``neighbours=NeighbourSpace(Unit.WHOLE, Norm.LINF, 1.0)`` (no subclass needed).

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
    :mod:`dpverify.auditing.deadline`. ``max_samples`` (default 10**8) caps ``samples`` up front,
    white-box and black-box, with a note (:func:`plan_samples`). ``consistency`` (white-box, default True): check
    ``log_density`` against ``sample``; an inconsistent mechanism gets the verdict
    ``inconsistent``, never a privacy verdict (:mod:`dpverify.auditing.whitebox.consistency`).

    **Randomness.** Before sampling, the audit checks that the sampler honours ``rng`` (same
    seed, same outputs); ``result.reproducible`` says so. A sampler that ignores it is still
    audited, but never on workers that could repeat one another's draws: pools started by the
    audit fork their workers (a script needs no ``if __name__ == "__main__":`` guard: nothing re-imports
    it) and reseed each one's global generators; such samplers get them only after a probe shows the
    workers' draws independent, and never a caller's process pool (a note says why; see
    :func:`dpverify.auditing.executor.auto_executor`).

    White-box when the mechanism has ``log_density`` (see :mod:`dpverify.auditing.whitebox` for the
    estimator and the inequality behind each bound); black-box otherwise.

    The result's ``epsilon_lower`` and ``delta_lower`` are **lower** confidence bounds, valid
    simultaneously over all pairs and directions with probability >= ``confidence``. The verdict
    is ``violated`` when they contradict the claim, ``inconclusive`` when the point estimate of
    delta(claim.epsilon) exceeds claim.delta without significance, ``not-violated`` otherwise.
    """
    keywords = dict(samples=samples, confidence=confidence, executor=executor, proposal=proposal,
                    delta_resolution=delta_resolution, max_samples=max_samples, progress=progress, precision=precision,
                    profile=profile, time_budget=time_budget, consistency=consistency, **black_box)
    if pairs is None or parameters is not None:  # the unaided audit: search, then certify (auditing/unaided)
        if needs_supervision(time_budget_of(time_budget)):  # the search runs under the deadline too
            return supervised(partial(audit, domain=domain, neighbours=neighbours, parameters=parameters),
                              mechanism, pairs, claim, rng, options_of(**keywords))
        mechanism, pairs = search_for_pair(mechanism, pairs, claim, rng, validate_samples(samples), domain, parameters)
        claim, rng = pairs.claim, pairs.rng
    elif domain is not None:
        raise InvalidArgument(f"domain={describe(domain)} is searched only when no pairs are given; drop domain= or "
                              "pairs.")
    claim = claim_of(mechanism, claim)
    pairs = with_neighbours(pairs, neighbours)
    if mode_of(mode) is not None:  # grey-box checks first (auditing/greybox), then the statistical audit
        return audit_grey_box(partial(audit, mechanism, pairs, claim=claim, rng=rng, **keywords), mechanism, pairs,
                              claim, rng, options_of(**{k: v for k, v in keywords.items() if k != "sequential"}))
    if sequential_of(keywords):  # the anytime-valid test (auditing/anytime.py)
        options = options_of(**keywords)
        if needs_supervision(options.time_budget):
            return supervised(partial(audit, sequential=True), mechanism, pairs, claim, rng, options)
        return audit_sequential(mechanism, pairs, claim, rng, options)
    if not claim.is_curve:  # one (eps, delta) point: plan -> executor -> tester -> result (auditing/point.py)
        return audit_point(mechanism, pairs, claim=claim, rng=rng, **keywords)
    options = options_of(**keywords)
    if needs_supervision(options.time_budget):  # the whole curve in one supervised run
        return supervised(audit, mechanism, pairs, claim, rng, options)
    if claim.form in WHOLE_CURVE_FORMS and not is_white_box(mechanism):  # one test of the whole curve
        from .tradeoff import audit_whole_curve  # deferred: scipy (import dpverify must not load it)
        return audit_whole_curve(mechanism, pairs, claim, rng, options)
    # zCDP / Renyi / profile claims: audited at several points (auditing/curve.py), each by audit_point
    return audit_curve(mechanism, pairs, claim=claim, rng=rng, **options.keywords())
