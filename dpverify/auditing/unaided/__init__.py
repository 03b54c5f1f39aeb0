"""The unaided audit: with no pairs given, find the neighbouring pair that violates the claim, then certify it.

``dpverify.audit(mechanism)`` without pairs runs here first. The stages:

1. :func:`domain_of` -- the :class:`~dpverify.auditing.domain.InputDomain` to search: the ``domain=``
   given to :func:`dpverify.audit`, else the mechanism's ``input_domain()``; nothing is guessed (no domain:
   InvalidArgument with the fix).
2. :func:`~dpverify.auditing.unaided.candidates.candidate_pairs` -- every kind of neighbouring pair the
   domain admits, at every distance with its own claim. Candidates the mechanism's own
   ``check_neighbours`` refuses (distance 1) are dropped and counted.
3. :func:`~dpverify.auditing.unaided.screen.screen_candidates` -- successive halving on the *selection* stream, about
   ``SCREEN_SHARE`` x ``samples`` draws per dataset in all.
4. The winner is handed to the ordinary tester (white-box or black-box) as :class:`SearchedPairs`, with the
   *certification* stream: its bounds are computed on draws independent of the search, and only the
   certified pair enters the confidence split (the search record says so, with what the search covered).

The root seed is split as for a neighbour generator (:mod:`dpverify.auditing.generators`), so a seed
reproduces the search and the certification.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...claims import PrivacyClaim
from ...errors import DPVerifyError, InvalidArgument
from ...messages import describe
from ..domain import InputDomain
from ..draws import root_seed
from ..result import SearchRecord
from .candidates import Candidate, candidate_pairs
from .screen import Screened, screen_candidates

__all__ = ["SearchedPairs", "domain_of", "find_pair", "SCREEN_SHARE", "MULTIPLICITY"]

#: The screen's draws, in units of the audit's ``samples`` per dataset (both datasets of every candidate
#: counted): with the certification of one pair (2 x ``samples``), an unaided audit draws about
#: ``2 + SCREEN_SHARE`` times what the same audit given the winning pair draws.
SCREEN_SHARE = 2
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


def _record(domain: InputDomain, cands: list, refused: int, found: Screened, winner: Candidate) -> SearchRecord:
    covered = Counter(c.category for c in cands)
    ranked = [cands[i] for i in found.order[:3]]
    report = (
        ("generator", "unaided search"),
        ("domain", domain.to_dict()),
        ("candidates", len(cands)),
        ("covered", dict(sorted(covered.items()))),
        ("distances", list(domain.distances)),
        ("refused_by_check_neighbours", refused),
        ("screen_draws", found.draws),
        ("screen_rounds", found.rounds),
        ("raised", dict(found.raised)),
        ("found", winner.label),
        ("distance", winner.distance),
        ("claim_at_distance", str(winner.claim)),
        ("screen_scores", [[c.label, round(found.scores[i], 3)] for c, i in zip(ranked, found.order[:3])]),
    )
    return SearchRecord(report, 1, MULTIPLICITY)


def find_pair(mechanism: Any, domain: InputDomain, claim: PrivacyClaim, rng: Any, samples: int) -> SearchedPairs:
    """Screen every candidate of ``domain`` and return the winner, ready to certify (module docstring)."""
    cands, refused = _admitted(mechanism, domain, candidate_pairs(domain, claim))
    if not cands:
        raise InvalidArgument(f"domain={domain.describe()} gives no candidate pair the mechanism accepts "
                              f"({refused} refused by its check_neighbours). Widen the domain or give pairs.")
    selection, certification = root_seed(rng).spawn(2)
    found = screen_candidates(mechanism, domain, cands, np.random.default_rng(selection), SCREEN_SHARE * 2 * samples)
    winner = cands[found.order[0]]
    check = (f"unaided search: {domain.relation.value if domain.kind == 'records' else 'query answers'} at "
             f"distance {winner.distance}, by construction in the domain")
    return SearchedPairs((winner.pair(domain),), np.random.default_rng(certification),
                         _record(domain, cands, refused, found, winner), (check,), winner.claim)
