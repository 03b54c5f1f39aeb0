"""Closed forms that the lemma library and the certifiers share (a leaf: sympy only).

* :func:`Phi` -- the standard normal CDF written with ``erfc`` (no ``1 + erf`` cancellation in the far left tail);
* :func:`gaussian_profile_expr` -- the Balle & Wang (2018, Thm 8) privacy profile of the Gaussian mechanism.

``dpverify.symbolic.library`` re-exports both (its lemmas are stated with them); the ``PROFILE`` strategy checks
that a conclusion's left side is exactly :func:`gaussian_profile_expr` before it certifies it.
"""
from __future__ import annotations

import sympy as sp

__all__ = ["Phi", "gaussian_profile_expr"]


def Phi(z):
    """Standard normal CDF written with erfc (no 1 + erf cancellation in the far left tail)."""
    return sp.erfc(-z / sp.sqrt(2)) / 2


def gaussian_profile_expr(epsilon, sensitivity, sigma):
    """Balle & Wang (2018) Thm 8: delta(eps) = Phi(D/(2s) - eps s/D) - e^eps Phi(-D/(2s) - eps s/D)."""
    return (Phi(sensitivity / (2 * sigma) - epsilon * sigma / sensitivity)
            - sp.exp(epsilon) * Phi(-sensitivity / (2 * sigma) - epsilon * sigma / sensitivity))
