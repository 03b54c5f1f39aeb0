"""The unaided audit: with no pairs given, find the neighbouring pair that violates the claim, then certify it.

``dpverify.audit(mechanism)`` without pairs runs here first. The stages:

1. :func:`domain_of` -- the :class:`~dpverify.auditing.domain.InputDomain` to search: the ``domain=``
   given to :func:`dpverify.audit`, else the mechanism's ``input_domain()``; nothing is guessed (no domain:
   InvalidArgument with the fix).
2. :func:`~dpverify.auditing.unaided.candidates.candidate_pairs` -- every kind of neighbouring pair the
   domain admits, at every distance with its own claim. Candidates the mechanism's own
   ``check_neighbours`` refuses (distance 1) are dropped and counted.
3. the grey-box screen first: every candidate replayed with its draws frozen (:mod:`dpverify.auditing.greybox`);
   candidates whose drawn noise shows an exact violation win (largest implied eps first) and the statistical
   screen is skipped; else
   :func:`~dpverify.auditing.unaided.screen.screen_candidates` -- successive halving on the *selection* stream, about
   ``SCREEN_SHARE`` x ``samples`` draws per dataset in all.
4. The winner is handed to the ordinary tester (white-box or black-box) as :class:`SearchedPairs`, with the
   *certification* stream: its bounds are computed on draws independent of the search, and only the
   certified pair enters the confidence split (the search record says so, with what the search covered).

The root seed is split as for a neighbour generator (:mod:`dpverify.auditing.generators`), so a seed
reproduces the search and the certification.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, replace
from itertools import product
from typing import Any

import numpy as np

from ...claims import PrivacyClaim, claim_of
from ...errors import DPVerifyError, InvalidArgument
from ...messages import describe
from ..domain import InputDomain
from ..draws import root_seed
from ..result import SearchRecord
from .candidates import Candidate, candidate_pairs
from ..greybox.replay import exact_findings, raises_apart
from .screen import Screened, screen_candidates

__all__ = ["SearchedPairs", "domain_of", "find_pair", "search_for_pair", "find_configured_pair", "configurations", "SCREEN_SHARE",
           "MULTIPLICITY", "MAX_CONFIGURATIONS"]

#: The screen's draws, in units of the audit's ``samples`` per dataset (both datasets of every candidate
#: counted): with the certification of one pair (2 x ``samples``), an unaided audit draws about
#: ``2 + SCREEN_SHARE`` times what the same audit given the winning pair draws.
SCREEN_SHARE = 2
#: The most configurations a parameter sweep screens.
MAX_CONFIGURATIONS = 64
MULTIPLICITY = ("the winner of the screen only (2 directions), certified on draws independent of the screen; "
                "the screened candidates do not enter the confidence split")


@dataclass(frozen=True)
class SearchedPairs:
    """Pairs chosen by the unaided search, ready for the intake: the pair(s), the certification stream, the
    search record, and how each pair is a neighbouring one (by construction in the domain)."""

    pairs: tuple
    rng: Any
    record: SearchRecord
    checks: tuple
    claim: PrivacyClaim
    mechanism: Any = None


def domain_of(mechanism: Any, domain: Any) -> InputDomain:
    """The domain to search: ``domain``, else ``mechanism.input_domain()`` (InvalidArgument when neither)."""
    if domain is None:
        own = getattr(mechanism, "input_domain", None)
        if not callable(own):
            raise InvalidArgument(
                f"pairs=None: mechanism={describe(mechanism)} states no input domain to search (it has no "
                "input_domain() method) and domain=None. Give the pairs to audit, e.g. audit(mechanism, (D, D')), "
                "or the domain to search, e.g. domain=dpverify.InputDomain.records(low=0, high=10) or "
                "InputDomain.answers(5, sensitivity=1.0) (docs/auditing.md, \"Audits without pairs\")."
            )
        try:
            domain = own()
        except DPVerifyError:
            raise
        except Exception as exc:
            raise InvalidArgument(f"mechanism.input_domain() raised {type(exc).__name__}: {exc}. Fix the method "
                                  "or give domain= to audit.") from None
        where = "mechanism.input_domain()"
    else:
        where = "domain"
    if not isinstance(domain, InputDomain):
        raise InvalidArgument(f"{where}={describe(domain)} must be a dpverify.InputDomain (InputDomain.records(...) "
                              "or InputDomain.answers(...)).")
    return domain


def _admitted(mechanism: Any, domain: InputDomain, cands: list) -> tuple:
    """(kept candidates, refused count): distance-1 candidates the mechanism's ``check_neighbours`` refuses
    are dropped (the mechanism states a narrower neighbourhood than its domain)."""
    check = getattr(mechanism, "check_neighbours", None)
    if not callable(check):
        return cands, 0
    kept, refused = [], 0
    for c in cands:
        if c.distance == 1:
            d, dp = c.pair(domain)
            try:
                check(d, dp)
            except Exception:
                refused += 1
                continue
        kept.append(c)
    return kept, refused


def _record(units: list, cands: list, refused: int, found: Screened, winner: Candidate,
            configs: list | None) -> SearchRecord:
    covered = Counter(c.category for c in cands)
    ranked = [cands[i] for i in found.order[:3]]
    domain = units[winner.unit][1]
    report = [
        ("generator", "unaided search"),
        ("domain", domain.to_dict()),
        ("candidates", len(cands)),
        ("covered", dict(sorted(covered.items()))),
        ("distances", list(domain.distances)),
        ("refused_by_check_neighbours", refused),
        ("screen", found.method),
        ("screen_draws", found.draws),
        ("screen_rounds", found.rounds),
        ("raised", dict(found.raised)),
        ("found", winner.label),
        ("distance", winner.distance),
        ("claim_at_distance", str(winner.claim)),
        ("screen_scores", [[c.label, round(found.scores[i], 3)] for c, i in zip(ranked, found.order[:3])]),
    ]
    if found.predicted:  # the statistical screen's first key (screen.certifiable_score)
        report.append(("screen_predicted", [[c.label, round(found.predicted[i], 3)]
                                            for c, i in zip(ranked, found.order[:3])]))
    if configs is not None:
        report += [("configurations", len(configs)), ("configuration", configs[winner.unit])]
    return SearchRecord(tuple(report), 1, MULTIPLICITY)


def _units_candidates(units: list, claims: list) -> tuple:
    """(candidates of every unit, each tagged with its unit; refused count)."""
    cands, refused = [], 0
    for k, ((mechanism, domain), claim) in enumerate(zip(units, claims)):
        kept, r = _admitted(mechanism, domain, candidate_pairs(domain, claim))
        cands += [replace(c, unit=k) for c in kept]
        refused += r
    return cands, refused


def _search(units: list, claims: list, rng: Any, samples: int, configs: list | None) -> SearchedPairs:
    cands, refused = _units_candidates(units, claims)
    if not cands:
        raise InvalidArgument(f"domain={units[0][1].describe()} gives no candidate pair the mechanism accepts "
                              f"({refused} refused by its check_neighbours). Widen the domain or give pairs.")
    selection, certification = root_seed(rng).spawn(2)
    exact, replayed = _grey_box_screen(units, cands)
    if exact is not None:  # replays showed exact violations: among those pairs only, the most certifiable
        found = _among_hits(units, cands, exact, np.random.default_rng(selection), samples)
    else:
        found = screen_candidates(units, cands, np.random.default_rng(selection), SCREEN_SHARE * 2 * samples,
                                  samples=samples)
        found = replace(found, draws=found.draws + replayed)
    winner = cands[found.order[0]]
    mechanism, domain = units[winner.unit]
    check = (f"unaided search: {domain.relation.value if domain.kind == 'records' else 'query answers'} at "
             f"distance {winner.distance}, by construction in the domain")
    return SearchedPairs((winner.pair(domain),), np.random.default_rng(certification),
                         _record(units, cands, refused, found, winner, configs), (check,), winner.claim, mechanism)


def _grey_box_screen(units: list, cands: list) -> tuple:
    """The grey-box screen: every candidate replayed with its draws frozen (dpverify.auditing.greybox); when some
    show an exact violation, a :class:`Screened` ranking them by the eps their drawn noise implies (largest first),
    with no statistical screen; a candidate whose replay raised and on which ``sample`` raises on one dataset under
    every seed and on the other under none (:func:`~dpverify.auditing.greybox.replay.raises_apart`) ranks first
    (eps infinite on the runs seen). ``(Screened or None when no candidate shows either, outputs drawn)``: every
    output the replays, their reruns and probe replays, and the raise checks asked ``sample`` for, counted."""
    hits, drawn, by_type = [], 0, {}
    for k, (plain, domain) in enumerate(units):
        mechanism = _Counted(plain)
        idx = [i for i, c in enumerate(cands) if c.unit == k]
        pairs, claims = [], []
        for i in idx:
            try:
                pairs.append(cands[i].pair(domain))
            except Exception:
                pairs.append(None)
            claims.append(cands[i].claim)
        kept = [(i, p, c) for i, p, c in zip(idx, pairs, claims) if p is not None]
        # without the selection models' probe replays (hundreds of outputs per candidate; and the infinite eps of
        # a report-noisy-max support shift says nothing of how many draws certify it): the statistical screen
        # ranks those mechanisms as before
        found, raised = exact_findings(mechanism, [p for _, p, _ in kept], [c for _, _, c in kept], probes=False)
        for j, check in found:
            hits.append((kept[j][0], check.epsilon if check.epsilon is not None else 0.0))
        for j in raised:
            name = raises_apart(mechanism, kept[j][1])
            if name:
                hits.append((kept[j][0], math.inf))
                by_type.setdefault(name, set()).add(kept[j][0])
        drawn += mechanism.outputs
    if not hits:
        return None, drawn
    hits.sort(key=lambda h: (-h[1], h[0]))
    order = tuple(i for i, _ in hits) + tuple(i for i in range(len(cands)) if i not in {h[0] for h in hits})
    scores = [float("-inf")] * len(cands)
    for i, e in hits:
        scores[i] = float(e)
    raised = tuple((t, len(v)) for t, v in sorted(by_type.items()))
    return Screened(order, tuple(scores), drawn, 0, raised, "grey-box"), drawn


class _Counted:
    """``mechanism`` with the outputs its ``sample`` was asked for counted (``outputs``); every other attribute is the
    mechanism's own."""

    def __init__(self, mechanism: Any):
        self._mechanism, self.outputs = mechanism, 0

    def sample(self, data: Any, size: Any, rng: Any) -> Any:
        self.outputs += int(size)
        return self._mechanism.sample(data, size, rng)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._mechanism, name)


def _among_hits(units: list, cands: list, exact: Screened, rng: np.random.Generator, samples: int) -> Screened:
    """``exact`` (hits ranked by the eps their drawn noise implies), except when several candidates tie at an
    infinite eps: then the statistical screen runs among those only, with the share of the screen's budget the full
    screen would give them (an infinite eps -- a data-dependent scale, a support shift -- says the pair violates,
    not how many draws certify it), and they come first in its order."""
    top = max(exact.scores)
    # a raise on one dataset only (exact.raised) is certified by its error outcome at once: ranked first, no screen
    hits = [i for i in exact.order if exact.scores[i] == top] if top == math.inf and not exact.raised else []
    if len(hits) < 2:
        return exact
    # the budget the full screen would give these candidates: a grey-box hit never costs more than no hit
    budget = SCREEN_SHARE * 2 * samples
    stat = screen_candidates(units, [cands[i] for i in hits], rng, max(1, budget * len(hits) // len(cands)),
                             samples=samples)
    order = tuple(hits[j] for j in stat.order) + tuple(i for i in exact.order if i not in set(hits))
    return Screened(order, exact.scores, exact.draws + stat.draws, stat.rounds, exact.raised,
                    "grey-box, then statistical among its hits")


def find_pair(mechanism: Any, domain: InputDomain, claim: PrivacyClaim, rng: Any, samples: int) -> SearchedPairs:
    """Screen every candidate of ``domain`` and return the winner, ready to certify (module docstring)."""
    return _search([(mechanism, domain)], [claim], rng, samples, None)


def configurations(parameters: Any) -> list:
    """Every configuration of ``parameters`` (a dict: name -> list of values), in order; InvalidArgument for an
    empty or oversized grid (at most :data:`MAX_CONFIGURATIONS`)."""
    if not isinstance(parameters, dict) or not parameters:
        raise InvalidArgument(f"parameters={describe(parameters)} must be a non-empty dict of name -> list of values, "
                              "e.g. parameters={'lower': [-1, 0, 0.5], 'upper': [0.5, 1]}.")
    names, grids = [], []
    for name, values in parameters.items():
        values = list(values) if isinstance(values, (list, tuple, range, np.ndarray)) else None
        if not values:
            raise InvalidArgument(f"parameters[{name!r}] must be a non-empty list of values, e.g. [0, 0.5, 1].")
        names.append(name)
        grids.append(values)
    out = [dict(zip(names, combo)) for combo in product(*grids)]
    if len(out) > MAX_CONFIGURATIONS:
        raise InvalidArgument(f"parameters give {len(out)} configurations > {MAX_CONFIGURATIONS}: each is screened "
                              "separately; give fewer values.")
    return out


def find_configured_pair(factory: Any, parameters: Any, domain: Any, claim: Any, rng: Any,
                         samples: int) -> SearchedPairs:
    """The sweep: ``factory(**configuration)`` for every configuration of ``parameters``, each mechanism's domain
    (``domain`` or its ``input_domain()``) and claim (``claim`` or its own), one screen over all their candidates;
    the winner's mechanism and pair are certified (the record names the configuration). Configurations the
    factory refuses (it raises) are skipped and counted."""
    if not callable(factory):
        raise InvalidArgument(f"parameters= sweeps a factory: mechanism={describe(factory)} must be callable as "
                              "factory(**configuration) -> mechanism.")
    configs, units, claims, refused = [], [], [], []
    for config in configurations(parameters):
        try:
            mech = factory(**config)
        except DPVerifyError:
            raise
        except Exception as exc:
            refused.append(f"{config}: {type(exc).__name__}: {exc}")
            continue
        units.append((mech, domain_of(mech, domain)))
        claims.append(claim_of(mech, claim))
        configs.append(config)
    if not units:
        raise InvalidArgument(f"the factory refused every configuration of parameters ({refused[0]}...).")
    found = _search(units, claims, rng, samples, configs)
    record = SearchRecord(found.record.report + (("refused_configurations", refused),), 1, MULTIPLICITY)
    return replace(found, record=record)


def search_for_pair(mechanism: Any, pairs: Any, claim: Any, rng: Any, samples: int, domain: Any,
                    parameters: Any) -> tuple:
    """``(mechanism, SearchedPairs)`` for :func:`dpverify.audit` without pairs: the sweep of ``parameters``
    (``mechanism`` is then a factory; the winner's mechanism is returned) or the search of one mechanism's
    domain. InvalidArgument for pairs given with ``parameters``."""
    if parameters is not None:
        if pairs is not None:
            raise InvalidArgument("parameters= sweeps the configurations of a factory and searches each one's domain "
                                  "for the pair; drop pairs (or drop parameters= and audit one mechanism on them).")
        found = find_configured_pair(mechanism, parameters, domain, claim, rng, samples)
        return found.mechanism, found
    claim = claim_of(mechanism, claim)
    return mechanism, find_pair(mechanism, domain_of(mechanism, domain), claim, rng, samples)
