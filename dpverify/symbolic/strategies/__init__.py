"""Proof strategies: one handler per strategy, registered in :mod:`~dpverify.symbolic.strategies.registry`.

=================  ==========================================================  ==========================
strategy           handler (module)                                            verdict when it succeeds
=================  ==========================================================  ==========================
``NONNEG_TERMS``   :func:`~.algebraic.nonneg_terms`                              PROVED
``CASES``          :func:`~.algebraic.cases`                                     PROVED
``REPARAM``        :func:`~.algebraic.reparam`                                   PROVED
``SAMPLED``        :func:`~.algebraic.sampled` (the point search alone)          TESTED at best
``DERIVATIVE``     :func:`~.calculus.derivative`                                 PROVED
``CONCAVE``        :func:`~.calculus.concave`                                    PROVED
``MONOTONE``       :func:`~.monotone.monotone` (branch and bound, Arb)           CERTIFIED
``INTERVAL``       :func:`~.interval.interval` (branch and bound, Arb)           CERTIFIED
``PROFILE``        :func:`~.profile.profile` (branch and bound, Arb)             CERTIFIED
=================  ==========================================================  ==========================

Identities are settled by :func:`~.identity.prove_identity` whatever the strategy. Importing this package loads the
built-in handlers; a new strategy is a new module that registers its handler with
``@register("my-strategy")`` (or ``@register(Strategy.X, MyLemma)`` to refine a built-in one for a statement class)
and is imported before the lemmas that name it are checked. :class:`~dpverify.symbolic.lemma.Lemma` never names a
handler.
"""
from __future__ import annotations

from . import algebraic, calculus, interval, monotone, profile  # noqa: F401 - each registers its handlers
from .identity import prove_identity
from .registry import Handler, Strategy, describe, handler_for, is_registered, register, registered, unregister

__all__ = ["Strategy", "Handler", "register", "unregister", "handler_for", "is_registered", "describe", "registered",
           "prove_identity"]
