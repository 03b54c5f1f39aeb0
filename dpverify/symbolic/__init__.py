"""The lemma library and the proof checker (see ``docs/proofs.md``).

* :class:`ProofVerdict`, :class:`CheckResult`, :class:`ClaimReport`: verdict values.
* :class:`Lemma`, :class:`Strategy`, :class:`Range`: checkable sympy statements. ``Lemma.check()`` runs the point
  search (``point_search``), then the handler registered for the lemma's strategy (``strategies``; the box
  certifiers share ``branch_bound``).
* ``LEMMAS`` / :func:`get_lemma`: the shared library (``dpverify.symbolic.library``).
* :class:`Derivation`, ``DERIVATIONS``, :func:`get_derivation`: noise parameters derived from lemmas.
* :func:`run_proofs`: run the proof files (``dpverify prove``).
"""
from __future__ import annotations

from .derivations import DERIVATIONS, Derivation, get_derivation
from .lemma import Lemma, Range, Strategy
from .library import LEMMAS, get_lemma
from .runner import run_proofs
from .verdicts import CheckResult, ClaimReport, ProofVerdict

__all__ = [
    "CheckResult",
    "ClaimReport",
    "DERIVATIONS",
    "Derivation",
    "LEMMAS",
    "Lemma",
    "ProofVerdict",
    "Range",
    "Strategy",
    "get_derivation",
    "get_lemma",
    "run_proofs",
]
