"""Neighbouring datasets: the public face of the neighbour spaces, the generators and the adversarial search.

``dpverify.audit(mechanism, pairs)`` accepts, instead of fixed pairs, a :class:`NeighbourGenerator`;
its candidates are chosen on a selection stream independent of the certifying draws (see
:mod:`dpverify.auditing.generators` for the argument, and ``docs/auditing.md``). The names are
defined, one concern per module, in

* :mod:`dpverify.auditing.space` -- :class:`Unit`, :class:`Norm`, :class:`NeighbourSpace` (a leaf:
  the value type every other stage speaks);
* :mod:`dpverify.auditing.generators` -- :class:`NeighbourGenerator`, :class:`FixedPairs`,
  :class:`QueryPatterns`, :class:`UnitChanges`, :data:`STATDP_PATTERNS`;
* :mod:`dpverify.auditing.search` -- :class:`AdversarialSearch` and :func:`search_for` (above the
  white-box tester, whose losses score the candidates);
* :mod:`dpverify.auditing.intake` -- :func:`resolve_pairs`, which splits the seed and checks every
  candidate when the audit's intake builds its plan.

This module only gathers them (nothing in :mod:`dpverify.auditing` imports it), so that
``from dpverify.auditing.neighbours import NeighbourSpace, AdversarialSearch`` keeps working.
"""
from __future__ import annotations

from .generators import STATDP_PATTERNS, FixedPairs, NeighbourGenerator, QueryPatterns, UnitChanges
from .search import AdversarialSearch, search_for
from .space import NeighbourSpace, Norm, Unit

__all__ = [
    "Unit",
    "Norm",
    "NeighbourSpace",
    "NeighbourGenerator",
    "FixedPairs",
    "QueryPatterns",
    "UnitChanges",
    "AdversarialSearch",
    "search_for",
    "STATDP_PATTERNS",
]
