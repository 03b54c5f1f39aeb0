"""Mechanisms of ``jiang-wishart`` (Jiang, Xie, Zhang, *Wishart Mechanism for Differentially
Private Principal Components Analysis*, AAAI 2016).

Data model (paper, Section 2 and "Privacy guarantee"): ``X`` is a ``d x n`` matrix whose ``n``
columns x_i have l2 norm at most 1; neighbours replace one column (x_i -> x_i_hat). Both
algorithms release a noisy version of the sample covariance A = X X^T / n.

* :class:`LaplaceCovariance` -- Algorithm 1 (Laplace input perturbation): d(d+1)/2 i.i.d.
  Lap(0, 2d/(n eps)) samples in the upper triangle of a symmetric L, A_hat = A + L. The paper
  claims (eps, 0)-DP (Theorem 3). The scale corresponds to an l1 sensitivity of 2d/n for the
  upper triangle; the true maximum of sum_{i<=j} |v_i v_j - u_i u_j| over ||v||, ||u|| <= 1 is at
  most (||v||_1^2 + ||v||_2^2)/2 + (same for u) <= d + 1 <= 2d (numerically sqrt(5) for d = 2, about
  2.87 for d = 3), so the scale is on the safe side and the privacy loss is at most
  (d + 1) eps / (2d).
* :class:`WishartCovariance` -- Algorithm 2 (Wishart input perturbation): W ~ W_d(d + 1, C) with
  C = 3/(2 n eps) I, A_hat = A + W. The paper claims (eps, 0)-DP (Theorem 4). Its proof compares
  the two Wishart densities at W0 and W0 + Delta (Delta = A - A_hat) but omits the indicator of
  the support: the density of A_hat under a neighbour is zero wherever A_hat - A' is not positive
  definite, which happens with positive probability (e.g. for a zero column replaced by a unit
  column, P = 1 - exp(-eps/3) exactly, since 1/(e^T Z^{-1} e) ~ chi^2_2 for Z ~ W_d(d+1, I)). The
  mechanism follows the paper; :meth:`WishartCovariance.log_density` is exact, so the audit sees
  the infinite privacy loss.

**Output representation.** Every output is the released ``d x d`` symmetric matrix itself
(``sample`` returns shape ``(size, d, d)``), exactly symmetric (the lower triangle is a copy of
the upper one). ``log_density`` is with respect to Lebesgue measure on the d(d+1)/2 entries of
the upper triangle (the usual base measure of the Wishart density), the same for both classes;
an output whose lower triangle is not an exact copy of its upper triangle is outside the support
(log density ``-inf``).

**Data.** ``data`` is ``X`` of shape ``(d, n)`` with finite entries and column norms <= 1 (up to a
rounding tolerance of 1e-12); a column of larger norm raises InvalidArgument (never clipped).
"""
from __future__ import annotations

import enum
import math

import numpy as np
from scipy import special, stats

from dpverify import InvalidArgument, PrivacyClaim
from dpverify import validation as v

__all__ = [
    "LaplaceCovariance",
    "WishartCovariance",
    "WishartSampler",
    "covariance",
    "wishart_logpdf",
    "wishart_sample_bartlett",
    "wishart_sample_scipy",
]

PAPER = "jiang-wishart"
#: Column norms may exceed 1 by this much (rounding of a normalised column), never more.
NORM_TOLERANCE = 1e-12
_LOG2 = math.log(2.0)


class WishartSampler(enum.Enum):
    """How :class:`WishartCovariance` draws its Wishart noise (both give the same law)."""

    #: Bartlett's decomposition (:func:`wishart_sample_bartlett`).
    BARTLETT = "bartlett"
    #: ``scipy.stats.wishart.rvs`` (:func:`wishart_sample_scipy`).
    SCIPY = "scipy"


def _mirror_upper(m: np.ndarray) -> np.ndarray:
    """Copy the upper triangle of (a stack of) square matrices onto the lower one: exact symmetry."""
    d = m.shape[-1]
    il = np.tril_indices(d, -1)
    out = np.array(m, dtype=float, copy=True)
    out[..., il[0], il[1]] = out[..., il[1], il[0]]
    return out


def _scale_cholesky(scale, d: int) -> np.ndarray:
    c = v.finite_array("scale", scale, ndim=2)
    if c.shape != (d, d) or not np.array_equal(c, c.T):
        raise InvalidArgument(f"scale has shape {c.shape}; it must be a symmetric ({d}, {d}) matrix.")
    try:
        return np.linalg.cholesky(c)
    except np.linalg.LinAlgError:
        raise InvalidArgument("scale must be positive definite (its Cholesky factorisation failed).") from None


def wishart_sample_bartlett(df: float, scale, size: int, rng) -> np.ndarray:
    """``size`` draws of W_d(df, scale) by Bartlett's decomposition, shape ``(size, d, d)``.

    W = L T T^T L^T with L = chol(scale), T lower triangular, T_ii = sqrt(chi^2_{df - i}) for
    i = 0..d-1, T_ij ~ N(0, 1) below the diagonal (Bartlett 1933; needs df > d - 1, real df
    allowed). The result is exactly symmetric.
    """
    scale = np.asarray(scale, dtype=float)
    d = scale.shape[0] if scale.ndim == 2 else -1
    chol = _scale_cholesky(scale, d)
    df = v.real("df", df)
    if not df > d - 1:
        raise InvalidArgument(f"df={df!r} must be > d - 1 = {d - 1} for a Wishart distribution.")
    size = v.integer("size", size, minimum=1)
    gen = v.as_rng(rng)
    t = np.zeros((size, d, d))
    idx = np.arange(d)
    t[:, idx, idx] = np.sqrt(gen.chisquare(df - idx, size=(size, d)))
    il = np.tril_indices(d, -1)
    if il[0].size:
        t[:, il[0], il[1]] = gen.standard_normal((size, il[0].size))
    lt = chol @ t
    return _mirror_upper(lt @ np.swapaxes(lt, -1, -2))


def wishart_sample_scipy(df: float, scale, size: int, rng) -> np.ndarray:
    """``size`` draws of W_d(df, scale) from ``scipy.stats.wishart.rvs``, shape ``(size, d, d)``."""
    scale = np.asarray(scale, dtype=float)
    d = scale.shape[0] if scale.ndim == 2 else -1
    _scale_cholesky(scale, d)
    size = v.integer("size", size, minimum=1)
    draws = stats.wishart.rvs(df=df, scale=scale, size=size, random_state=v.as_rng(rng))
    return _mirror_upper(np.asarray(draws, dtype=float).reshape(size, d, d))


def wishart_logpdf(w, df: float, scale) -> np.ndarray:
    """Log density of W_d(df, scale) at each matrix of ``w`` (shape ``(N, d, d)``), closed form.

    ``jiang-wishart/definition-2``: log p(W) = (df - d - 1)/2 log|W| - tr(scale^{-1} W)/2
    - (df d/2) log 2 - (df/2) log|scale| - log Gamma_d(df/2), with respect to Lebesgue measure on
    the upper triangle. Log-determinants come from Cholesky factors; ``-inf`` where W is not
    exactly symmetric or not positive definite (outside the support).
    """
    w = np.asarray(w, dtype=float)
    if w.ndim != 3 or w.shape[1] != w.shape[2]:
        raise InvalidArgument(f"w has shape {w.shape}; it must be a stack of square matrices, shape (N, d, d).")
    d = w.shape[1]
    chol_c = _scale_cholesky(scale, d)
    df = v.real("df", df)
    if not df > d - 1:
        raise InvalidArgument(f"df={df!r} must be > d - 1 = {d - 1} for a Wishart distribution.")
    out = np.full(w.shape[0], -np.inf)
    finite = np.all(np.isfinite(w), axis=(1, 2))
    sym = finite & np.all(w == np.swapaxes(w, 1, 2), axis=(1, 2))
    if not sym.any():
        return out
    ws = w[sym]
    # Positive definiteness: a Cholesky factorisation per matrix (all-or-nothing in numpy, so
    # screen with eigenvalues first and factor the positive ones).
    pd = np.linalg.eigvalsh(ws)[:, 0] > 0
    good = np.flatnonzero(sym)[pd]
    ws = ws[pd]
    if ws.shape[0] == 0:
        return out
    try:
        lw = np.linalg.cholesky(ws)
    except np.linalg.LinAlgError:  # eigenvalue > 0 but Cholesky fails: do it one by one
        keep, factors = [], []
        for i, m in enumerate(ws):
            try:
                factors.append(np.linalg.cholesky(m))
                keep.append(i)
            except np.linalg.LinAlgError:
                pass
        good = good[keep]
        if not keep:
            return out
        lw = np.stack(factors)
        ws = ws[keep]
    logdet_w = 2.0 * np.log(np.diagonal(lw, axis1=1, axis2=2)).sum(axis=1)
    # tr(C^{-1} W) = ||L_C^{-1} L_W||_F^2
    z = np.linalg.solve(chol_c, lw)  # broadcasts the (d, d) factor over the stack
    trace = np.einsum("nij,nij->n", z, z)
    logdet_c = 2.0 * float(np.log(np.diag(chol_c)).sum())
    const = -0.5 * df * d * _LOG2 - 0.5 * df * logdet_c - float(special.multigammaln(0.5 * df, d))
    out[good] = 0.5 * (df - d - 1) * logdet_w - 0.5 * trace + const
    return out


def covariance(x: np.ndarray) -> np.ndarray:
    """A = X X^T / n, exactly symmetric (``jiang-wishart`` Section 2)."""
    return _mirror_upper(x @ x.T / x.shape[1])


class _CovarianceRelease:
    """Shared parts: parameters, data validation, output checks."""

    paper: str

    def __init__(self, epsilon: float, d: int, n: int):
        self.epsilon = v.positive("epsilon", epsilon, fix="The paper's privacy parameter must be a finite eps > 0.")
        self.d = v.integer("d", d, minimum=1, fix="d is the dimension of a data point (rows of X).")
        self.n = v.integer("n", n, minimum=1, fix="n is the number of data points (columns of X).")
        self.claim = PrivacyClaim(self.epsilon, 0.0)

    def covariance(self, data) -> np.ndarray:
        """A = X X^T / n after checking ``data`` (shape (d, n), finite, column norms <= 1)."""
        x = v.finite_array("data", data, ndim=2,
                           fix=f"Pass X as a ({self.d}, {self.n}) array, one data point per column.")
        if x.shape != (self.d, self.n):
            raise InvalidArgument(
                f"data has shape {x.shape}; this mechanism was built for X of shape (d, n) = "
                f"({self.d}, {self.n}) (one data point per column)."
            )
        norms = np.sqrt(np.einsum("ij,ij->j", x, x))
        bad = np.flatnonzero(norms > 1.0 + NORM_TOLERANCE)
        if bad.size:
            j = int(bad[0])
            raise InvalidArgument(
                f"data column {j} has l2 norm {norms[j]!r} > 1; the paper assumes ||x_i||_2 <= 1 for every "
                "column (Section 2). Rescale your data; it is never clipped."
            )
        return covariance(x)

    def check_neighbours(self, data, data_prime) -> None:
        """InvalidArgument unless both datasets are valid and differ in exactly one column (Section 2)."""
        self.covariance(data)
        self.covariance(data_prime)
        x, y = np.asarray(data, dtype=float), np.asarray(data_prime, dtype=float)
        cols = np.flatnonzero(np.any(x != y, axis=0))
        if cols.size != 1:
            raise InvalidArgument(
                f"data and data_prime differ in {cols.size} columns; adjacent datasets replace exactly one "
                "column x_i by x_i_hat != x_i (Section 2)."
            )

    def _outputs(self, outputs) -> np.ndarray:
        out = np.asarray(outputs, dtype=float)
        if out.ndim != 3 or out.shape[1:] != (self.d, self.d):
            raise InvalidArgument(
                f"outputs has shape {out.shape}; it must be ({'size'}, {self.d}, {self.d}): released "
                "d x d matrices stacked on axis 0."
            )
        return out


class LaplaceCovariance(_CovarianceRelease):
    """``jiang-wishart/algorithm-1``: A + L, L symmetric with i.i.d. Lap(0, 2d/(n eps)) upper triangle.

    Claims (eps, 0)-DP for neighbours replacing one column (Theorem 3). ``scale = 2d/(n eps)``.
    ``log_density`` is the Laplace density of the d(d+1)/2 upper-triangle entries (``-inf`` for a
    non-symmetric output).
    """

    paper = f"{PAPER}/algorithm-1"

    def __init__(self, epsilon: float, d: int, n: int):
        super().__init__(epsilon, d, n)
        self.scale = 2.0 * self.d / (self.n * self.epsilon)
        self._iu = np.triu_indices(self.d)

    def sample(self, data, size, rng):
        a = self.covariance(data)
        size = v.integer("size", size, minimum=1)
        gen = v.as_rng(rng)
        noise = np.zeros((size, self.d, self.d))
        noise[:, self._iu[0], self._iu[1]] = gen.laplace(0.0, self.scale, size=(size, self._iu[0].size))
        return a + _mirror_upper(noise)

    def log_density(self, outputs, data):
        a = self.covariance(data)
        out = self._outputs(outputs)
        k = self._iu[0].size
        dev = np.abs(out[:, self._iu[0], self._iu[1]] - a[self._iu]).sum(axis=1)
        logp = -k * math.log(2.0 * self.scale) - dev / self.scale
        sym = np.all(out == np.swapaxes(out, 1, 2), axis=(1, 2))
        return np.where(sym, logp, -np.inf)

    def __repr__(self) -> str:
        return f"LaplaceCovariance(epsilon={self.epsilon!r}, d={self.d!r}, n={self.n!r})"


class WishartCovariance(_CovarianceRelease):
    """``jiang-wishart/algorithm-2``: A + W with W ~ W_d(d + 1, C), C = 3/(2 n eps) I.

    Claims (eps, 0)-DP for neighbours replacing one column (Theorem 4) -- a claim the exact density
    contradicts through support mismatch (see the module docstring). ``sampler`` chooses Bartlett's
    decomposition (default) or scipy's sampler; both draw the same law.
    ``log_density`` is the Wishart log density of (output - A), ``-inf`` where it is not positive
    definite or the output is not exactly symmetric.
    """

    paper = f"{PAPER}/algorithm-2"

    def __init__(self, epsilon: float, d: int, n: int, sampler: WishartSampler = WishartSampler.BARTLETT):
        super().__init__(epsilon, d, n)
        if not isinstance(sampler, WishartSampler):
            raise InvalidArgument(
                f"sampler={sampler!r} must be a WishartSampler (WishartSampler.BARTLETT or WishartSampler.SCIPY)."
            )
        self.sampler = sampler
        self.df = float(self.d + 1)
        self.scale_value = 3.0 / (2.0 * self.n * self.epsilon)
        self.scale = self.scale_value * np.eye(self.d)

    def sample(self, data, size, rng):
        a = self.covariance(data)
        size = v.integer("size", size, minimum=1)
        if self.sampler is WishartSampler.BARTLETT:
            w = wishart_sample_bartlett(self.df, self.scale, size, rng)
        else:
            w = wishart_sample_scipy(self.df, self.scale, size, rng)
        return a + w  # both terms exactly symmetric, so is the sum

    def log_density(self, outputs, data):
        a = self.covariance(data)
        out = self._outputs(outputs)
        return wishart_logpdf(out - a, self.df, self.scale)

    def __repr__(self) -> str:
        extra = "" if self.sampler is WishartSampler.BARTLETT else f", sampler={self.sampler}"
        return f"WishartCovariance(epsilon={self.epsilon!r}, d={self.d!r}, n={self.n!r}{extra})"
