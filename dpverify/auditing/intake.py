"""The audit's intake: (mechanism, pairs, claim, options) in, one frozen :class:`AuditPlan` out.

Every check that needs no output of the mechanism happens here, before any sampling, in this order
(the first broken rule is the error): the claim (:func:`claim_of`), ``time_budget``
(:func:`time_budget_of`), the mechanism's ``sample``, ``samples``, ``consistency``, ``confidence``;
then the pairs are read once (:func:`dpverify.auditing.pairs.normalise_pairs`, or a neighbour
generator's candidates on a selection stream of their own: :func:`resolve_pairs`); options that do
not apply to the mechanism's tester are refused; every pair is checked once against the claim's
neighbour relation and the mechanism's stated neighbourhood (:func:`dpverify.auditing.pairs.check_pairs`;
a generator's candidates are checked against its space by :func:`resolve_pairs`); and, on a Dask
client, everything sent to the workers must pickle. The plan then holds the pairs, the search record,
the neighbour checks, the claim, the certification randomness, the options and the tester to run.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ..messages import describe
from ..validation import open_unit, positive
from ..claims import PrivacyClaim, claim_of
from ..errors import InvalidArgument
from ..mechanism import is_white_box
from . import deadline, distributed
from .draws import root_seed, validate_samples
from .generators import NeighbourGenerator, mechanism_check
from .options import DEFAULT_SAMPLES, AuditOptions, BlackBoxOptions, WhiteBoxOptions
from .pairs import StatedPairs, check_pairs, normalise_pairs
from .result import SearchRecord
from .space import NeighbourSpace
from .unaided import SearchedPairs

__all__ = ["AuditPlan", "plan_audit", "claim_of", "with_neighbours", "time_budget_of", "needs_supervision", "options_of",
           "resolve_pairs"]

#: How the confidence is split when a generator chose the pairs (the search record says so).
SEARCH_MULTIPLICITY = ("Bonferroni over the certified pairs only (2 directions each); selection used "
                       "an independent seed stream")


@dataclass(frozen=True)
class AuditPlan:
    """One audit, ready to run: everything the tester needs, read and checked once.

    ``pairs`` are the pairs to certify (the given ones, or a generator's candidates); ``rng`` the
    certification randomness (the caller's ``rng`` for given pairs, the certification stream after a
    search); ``search`` what the generator did (None for given pairs); ``checks`` how each pair was
    confirmed to be neighbouring; ``white_box`` which tester runs.
    """

    mechanism: Any
    pairs: tuple
    claim: PrivacyClaim
    rng: Any
    samples: int
    confidence: float
    options: AuditOptions
    white_box: bool
    search: SearchRecord | None
    checks: tuple

    @property
    def white(self) -> WhiteBoxOptions:
        return self.options.white

    @property
    def black(self) -> BlackBoxOptions:
        return self.options.black


def with_neighbours(pairs: Any, neighbours: Any) -> Any:
    """``pairs`` with the caller's ``neighbours=`` space (a :class:`~dpverify.auditing.pairs.StatedPairs`), or
    ``pairs`` unchanged without one; InvalidArgument for a space that is not one, or with searched pairs."""
    if neighbours is None:
        return pairs
    if not isinstance(neighbours, NeighbourSpace):
        raise InvalidArgument(f"neighbours={describe(neighbours)} must be a NeighbourSpace, e.g. "
                              "NeighbourSpace(Unit.WHOLE, Norm.LINF, 1.0) for answer vectors at most 1 apart "
                              "in every coordinate.")
    if isinstance(pairs, SearchedPairs):
        raise InvalidArgument("neighbours= states how given pairs are neighbours; without pairs, state the "
                              "domain to search: domain=InputDomain.answers(length, sensitivity=..., norm=...).")
    return StatedPairs(pairs, neighbours)


def time_budget_of(time_budget: Any) -> float | None:
    """``time_budget`` validated (seconds > 0), or None."""
    if time_budget is None:
        return None
    return positive("time_budget", time_budget, fix="Give the seconds the audit may take, e.g. time_budget=60.")


def needs_supervision(time_budget: float | None) -> bool:
    """True when an audit with ``time_budget`` is not yet bounded (not inside a supervised child, nor a
    bounded wait): it must be run under :mod:`dpverify.auditing.deadline` first."""
    return time_budget is not None and deadline.soft_deadline() is None and deadline.hard_deadline() is None


def options_of(*, samples: Any = DEFAULT_SAMPLES, confidence: Any = 0.95, executor: Any = None,
               time_budget: Any = None, proposal: Any = "auto",
               delta_resolution: Any = None, max_samples: Any = None, progress: Any = None, precision: Any = None,
               profile: Any = False, consistency: Any = True, **black_box: Any) -> AuditOptions:
    """:func:`dpverify.audit`'s keyword options as one frozen value (``time_budget`` validated)."""
    return AuditOptions(samples=samples, confidence=confidence, executor=executor,
                        time_budget=time_budget_of(time_budget),
                        white=WhiteBoxOptions(proposal, delta_resolution, max_samples, progress, precision, profile,
                                              consistency),
                        black=BlackBoxOptions.of(black_box))


def resolve_pairs(pairs: Any, mechanism: Any, claim: PrivacyClaim, rng: Any):
    """(pair list, rng for certification, :class:`~dpverify.auditing.result.SearchRecord` or None).

    Plain pairs are read by :func:`~dpverify.auditing.pairs.normalise_pairs` and pass with the same
    rng. For a generator, the root seed is split into a selection and a certification stream; every
    candidate is checked against the generator's space and the mechanism's ``check_neighbours``
    (InvalidArgument for a non-neighbour or an empty candidate list).
    """
    if isinstance(pairs, SearchedPairs):  # chosen by the unaided search (dpverify.auditing.unaided)
        return list(pairs.pairs), pairs.rng, pairs.record
    if isinstance(pairs, StatedPairs):
        return normalise_pairs(pairs.pairs), rng, None
    if not isinstance(pairs, NeighbourGenerator):
        return normalise_pairs(pairs), rng, None
    root = root_seed(rng)
    selection, certification = root.spawn(2)
    cands = pairs.candidates(mechanism, claim, np.random.default_rng(selection))
    if not cands:
        raise InvalidArgument(f"{type(pairs).__name__} produced no candidate pair: the search space is empty.")
    cands = normalise_pairs(list(cands))
    for i, (a, b) in enumerate(cands):
        pairs.space.check(a, b, where=f"{type(pairs).__name__} candidate {i}")
        mechanism_check(mechanism, (a, b))
    record = SearchRecord(tuple(pairs.report().items()), len(cands), SEARCH_MULTIPLICITY)
    return cands, np.random.default_rng(certification), record


def _generator_checks(search: SearchRecord, count: int) -> tuple:
    """The neighbour check of a generator's candidates: its space (checked by :func:`resolve_pairs`)."""
    space = search.space
    label = (f"generator space: {space['relation']} {space['unit']}" if isinstance(space, dict)
             else "generator space")
    return tuple(label for _ in range(count))


def _refuse_foreign_options(mechanism: Any, white_box: bool, options: AuditOptions) -> None:
    """InvalidArgument for options the mechanism's tester does not take."""
    if white_box:
        if options.black:
            raise InvalidArgument(f"{options.black.describe()}: these options apply to black-box audits only, and the "
                                  "mechanism has log_density. Drop them.")
        return
    given = options.white.refused_by_black_box()
    if given:
        raise InvalidArgument(
            f"{', '.join(f'{k}={v!r}' for k, v in given.items())}: these options apply to white-box "
            f"audits only, and mechanism={describe(mechanism)} has no log_density. Drop them."
        )


def _check_dask_payload(executor: Any, mechanism: Any, pairs: list) -> None:
    """On a Dask client everything sent to the workers must pickle: say what does not."""
    if executor is not None and distributed.is_dask_client(executor):
        distributed.check_picklable("mechanism", mechanism)
        for i, pair in enumerate(pairs):
            distributed.check_picklable(f"pairs[{i}]" if len(pairs) > 1 else "pairs", pair)


def plan_audit(mechanism: Any, pairs: Any, claim: PrivacyClaim, rng: Any, options: AuditOptions) -> AuditPlan:
    """Validate one (eps, delta) audit and read its pairs once (see the module docstring for the order)."""
    if not callable(getattr(mechanism, "sample", None)):
        raise InvalidArgument(
            f"mechanism={describe(mechanism)} has no sample(data, size, rng) method; it does not "
            "follow the dpverify.Mechanism protocol."
        )
    samples = validate_samples(options.samples)
    consistency = options.white.consistency
    if not isinstance(consistency, bool):
        raise InvalidArgument(f"consistency={consistency!r} must be True or False.")
    confidence = open_unit("confidence", options.confidence, fix="Use e.g. confidence=0.95.")
    pair_list, rng, search = resolve_pairs(pairs, mechanism, claim, rng)
    white_box = is_white_box(mechanism)
    if white_box:
        _refuse_foreign_options(mechanism, white_box, options)
    if isinstance(pairs, SearchedPairs):
        checks = pairs.checks
    elif search is None:
        checks = check_pairs(pair_list, mechanism, claim.relation,
                             pairs.space if isinstance(pairs, StatedPairs) else None)
    else:
        checks = _generator_checks(search, len(pair_list))
    _check_dask_payload(options.executor, mechanism, pair_list)
    if not white_box:
        _refuse_foreign_options(mechanism, white_box, options)
    return AuditPlan(mechanism, tuple(pair_list), claim, rng, samples, confidence, options, white_box, search, checks)
