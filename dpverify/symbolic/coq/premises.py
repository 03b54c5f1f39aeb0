"""Premises that Coq theorems take as hypotheses: standard mathematical facts, named in a verdict.

A Coq theorem that assumes, say, the spectral theorem (it takes the eigendecompositions as hypotheses) makes its claim
``kernel-checked given`` that fact (``CoqEntry.premises``). These are results of linear algebra and measure theory
shared by the proof files of several papers, not claims of any one of them; a proof file names them in its ``COQ``
declarations.
"""
from __future__ import annotations

from ..proof import fact

__all__ = ["SPECTRAL", "RAYLEIGH", "DET_LAWS", "INTEGRATION", "LAPLACE_BRIDGE", "SPECTRAL_PROVED"]

#: Premises the Coq theorems take as hypotheses (named in the verdict: ``kernel-checked given ...``).
SPECTRAL = fact("spectral theorem: every real symmetric matrix has an orthonormal eigendecomposition (the theorem takes "
                "the decompositions as hypotheses)", "e.g. Horn & Johnson, Matrix Analysis, Thm 4.1.5")
RAYLEIGH = fact("Rayleigh-Ritz: lambda_min(S) |x|^2 <= x^T S x, |x^T D x| <= ||D||_2 |x|^2, sigma_min(X)^2 |x|^2 <= |Xx|^2 "
                "for all x (the theorem takes these bounds as hypotheses)", "e.g. Horn & Johnson, Matrix Analysis, Thm 4.2.2")
DET_LAWS = fact("laws of the determinant: det(AB) = det A det B, det(diag f) = prod f_i, det(A^T) = det A (the theorem takes "
                "any function with these laws)")
INTEGRATION = fact("a pointwise bound on the log density ratio integrates to P(M(S) in E) <= e^eps P(M(S') in E) for every "
                   "measurable E (monotonicity of the integral; its finite-space form is FiniteDP.dp_of_pointwise)")
#: the end of a pointwise Laplace statement: what the Coq theorem does not cover (the integration step)
LAPLACE_BRIDGE = ("at every output; integrating the pointwise bound over an event gives the DP inequality "
                  "(that measure-theoretic step is not in Coq; its finite-space form is FiniteDP.dp_of_pointwise)")
#: what the statement of a theorem built on the proved spectral theorem (proofs/coq/Spectral.v) says of the
#: eigendecompositions it quantifies over (the end of such a ``CoqEntry.statement``; the entry has no premise)
SPECTRAL_PROVED = ("the spectral theorem is proved (Spectral.spectral_exists: every real symmetric matrix has an orthonormal "
                   "eigendecomposition with nonincreasing eigenvalues), so the statement says that the decompositions exist "
                   "and that the conclusion holds for every one of them")
