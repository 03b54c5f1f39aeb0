"""Mechanisms of ``lecture21-dp`` (Lecture 21: Differential Privacy, course notes).

* :class:`ScalarLaplace` -- Lemma 1: A(S) = f(S) + (M/eps) X, X ~ Laplace(0, 1), claims (eps, 0).
* :class:`VectorLaplace` -- Lemma 2: the same with K coordinates and l1 sensitivity B.
* :class:`ClassicalGaussian` -- Lemma 6: A(S) = F(S) + (c B/eps) N(0, I), c = sqrt(2 log(1.25/delta)),
  claims (eps, delta). The notes put **no bound on eps**; the classical analysis (Dwork & Roth,
  Thm A.1) needs eps < 1. The mechanism follows the notes and accepts any eps > 0, so the audit
  can show what happens for eps >= 1.

``data`` is the query answer f(S) itself unless a ``query`` callable is given; ``sensitivity`` is
the paper's M (Lemma 1), B (l1, Lemma 2) or B (l2, Lemma 6), which the caller vouches for.
"""
from __future__ import annotations

import math

from dpverify import PrivacyClaim
from dpverify import validation as v

from ._base import GaussianNoise, LaplaceNoise

__all__ = ["ScalarLaplace", "VectorLaplace", "ClassicalGaussian"]

PAPER = "lecture21-dp"


class ScalarLaplace(LaplaceNoise):
    """``lecture21-dp`` Lemma 1: f(S) + (M/eps) Laplace(0, 1) for a real-valued f; (eps, 0)-DP.

    ``scale = sensitivity / epsilon``. ``data`` is the scalar f(S) (or use ``query``).
    """

    paper = f"{PAPER}/lemma-1"
    shape = ()

    def __init__(self, epsilon: float, sensitivity: float = 1.0, query=None):
        super().__init__(query)
        self.epsilon = v.positive("epsilon", epsilon, fix="The Laplace mechanism needs eps > 0.")
        self.sensitivity = v.positive("sensitivity", sensitivity, fix="M = max |f(S) - f(S')| must be > 0.")
        self.scale = self.sensitivity / self.epsilon
        self.claim = PrivacyClaim(self.epsilon, 0.0)

    def __repr__(self) -> str:
        return f"ScalarLaplace(epsilon={self.epsilon!r}, sensitivity={self.sensitivity!r})"


class VectorLaplace(LaplaceNoise):
    """``lecture21-dp`` Lemma 2: F(S) + (B/eps)(X_1..X_K), X_i ~ Laplace(0, 1); (eps, 0)-DP.

    ``sensitivity`` is the l1 sensitivity B; ``dimension`` is K (data has shape (K,)).
    """

    paper = f"{PAPER}/lemma-2"

    def __init__(self, epsilon: float, dimension: int, sensitivity: float = 1.0, query=None):
        super().__init__(query)
        self.epsilon = v.positive("epsilon", epsilon, fix="The Laplace mechanism needs eps > 0.")
        self.dimension = v.integer("dimension", dimension, minimum=1)
        self.sensitivity = v.positive("sensitivity", sensitivity, fix="B = max ||F(S) - F(S')||_1 must be > 0.")
        self.shape = (self.dimension,)
        self.scale = self.sensitivity / self.epsilon
        self.claim = PrivacyClaim(self.epsilon, 0.0)

    def __repr__(self) -> str:
        return (f"VectorLaplace(epsilon={self.epsilon!r}, dimension={self.dimension!r}, "
                f"sensitivity={self.sensitivity!r})")


def classical_sigma(epsilon: float, delta: float, sensitivity: float) -> float:
    """sigma = c B / eps with c = sqrt(2 log(1.25/delta)) (``lecture21-dp`` Lemma 6)."""
    return math.sqrt(2 * math.log(1.25 / delta)) * sensitivity / epsilon


class ClassicalGaussian(GaussianNoise):
    """``lecture21-dp`` Lemma 6: F(S) + (cB/eps) N(0, I_K), c = sqrt(2 log(1.25/delta)); claims (eps, delta).

    Any eps > 0 and delta in (0, 1) are accepted, as in the notes (no eps < 1 condition).
    ``sensitivity`` is the l2 sensitivity B; data of any shape (noise is i.i.d. per entry).
    """

    paper = f"{PAPER}/lemma-6"

    def __init__(self, epsilon: float, delta: float, sensitivity: float = 1.0, query=None):
        super().__init__(query)
        self.epsilon = v.positive("epsilon", epsilon, fix="The Gaussian mechanism needs eps > 0.")
        self.delta = v.open_unit("delta", delta, fix="Lemma 6 needs 0 < delta < 1.")
        self.sensitivity = v.positive("sensitivity", sensitivity, fix="B = max ||F(S) - F(S')||_2 must be > 0.")
        self.sigma = classical_sigma(self.epsilon, self.delta, self.sensitivity)
        self.claim = PrivacyClaim(self.epsilon, self.delta)

    def __repr__(self) -> str:
        return (f"ClassicalGaussian(epsilon={self.epsilon!r}, delta={self.delta!r}, "
                f"sensitivity={self.sensitivity!r})")
