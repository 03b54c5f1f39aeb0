"""Mechanisms of ``showkatbakhsh-regression`` (Showkatbakhsh, Karakus, Diggavi, ISIT 2018).

* :class:`AdditiveNoiseRelease` -- eq. (8)-(9), Lemma 1: X + sigma_AN N with
  sigma_AN^2 = 1 / (2^{2 eps} - 1); eps-MI-DP (eps in bits) for every entry of X.
* :class:`RandomProjectionRelease` -- eq. (12)-(13), Lemma 2: (S X + sigma_RP N, S y) with S an
  ``n' x n`` matrix of i.i.d. N(0, 1) entries, N an ``n' x d`` matrix of i.i.d. N(0, 1) entries,
  and sigma_RP^2 = (n' / (2^{2 eps} - 1) - f^2(X))_+ ; eps-MI-DP.

**Data and neighbours.** X in R^{n x d}, one row per user, with |X_ij| <= 1 (Section II); the
protected records are the *entries* of X (D = (X_11, ..., X_nd)), and neighbours differ in one
entry (Definition 2). y in R^n is the response; it is not part of D, so it is the same in both
datasets of a pair. :class:`AdditiveNoiseRelease` takes X (shape (n, d));
:class:`RandomProjectionRelease` takes ``[X | y]`` (shape (n, d + 1), y the last column). The
bound |X_ij| <= 1 is checked in ``sample`` and ``log_density`` and never clipped.

**f(X)** (Section II, "Notation"): f_i(X) = sqrt(sum_j X_{j,i}^2 - max_j X_{j,i}^2) for each
feature (column) i = 1..d, summing over the n users j (the paper's index i runs over
{1..d}, so the sum runs down column i), and f(X) = min_i f_i(X).

**Claims.** Both mechanisms claim eps-MI-DP (``mi_epsilon_bits``) and, through Proposition 2
(Cuff and Yu, Lemma 2) and Corollary 1, (0, delta)-DP with delta = sqrt(2 eps / log2(e)) =
sqrt(2 eps ln 2) (``claim``: ``PrivacyClaim(0, delta)``). When delta >= 1, i.e.
eps >= 1 / (2 ln 2) ~ 0.7213 bits, the DP guarantee is vacuous (every mechanism is (0, 1)-DP) and
cannot be written as a :class:`~dpverify.PrivacyClaim` (delta < 1): the constructors raise
InvalidArgument for such eps rather than clip delta. The MI-DP claim alone for larger eps is
outside what the audit can test.

**Density of the projection (derivation).** Fix the data A = [X | y] (n x (d + 1)) and write
row r of the output as o_r = s_r A + sigma (n_r, 0), with s_r (row r of S) ~ N(0, I_n) and
n_r (row r of N) ~ N(0, I_d), independent. o_r is a linear map of the Gaussian vector
(s_r, n_r), hence Gaussian with mean 0 and covariance

    Sigma(D) = A^T A + sigma^2 diag(1, ..., 1, 0)
             = [[X^T X + sigma^2 I_d, X^T y], [y^T X, y^T y]],

and the n' rows are independent (the rows of S and N are). So the joint log density of
(S X + sigma N, S y) is

    log p_D(O) = -n'(d+1)/2 log(2 pi) - n'/2 log det Sigma(D) - 1/2 tr(Sigma(D)^{-1} O^T O),

w.r.t. Lebesgue measure on R^{n' x (d+1)}, computed with a Cholesky factor. sigma = sigma_RP(X)
depends on the data through f(X): the density under D uses D's own sigma. When Sigma(D) is
singular (sigma = 0 and [X | y] of column rank < d + 1, e.g. y = 0 or y in the span of X's
columns) the release has no density w.r.t. this base measure; ``log_density`` raises
InvalidArgument naming the data (``sample`` still works).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy import linalg

from dpverify import InvalidArgument, PrivacyClaim
from dpverify import validation as v

from ._base import LOG_SQRT_2PI

__all__ = [
    "mi_dp_delta",
    "additive_noise_sigma",
    "projection_sigma",
    "f_of_x",
    "AdditiveNoiseRelease",
    "RandomProjectionRelease",
    "MAX_MI_EPSILON_BITS",
]

PAPER = "showkatbakhsh-regression"
LN2 = math.log(2.0)

#: The largest eps (bits) for which Proposition 2's delta = sqrt(2 eps ln 2) is below 1.
MAX_MI_EPSILON_BITS = 1 / (2 * LN2)


def mi_dp_delta(epsilon_bits: float) -> float:
    """delta = sqrt(2 eps / log2(e)) = sqrt(2 eps ln 2) (``showkatbakhsh-regression/proposition-2``)."""
    eps = v.positive("epsilon", epsilon_bits, fix="MI-DP needs eps > 0 bits.")
    return math.sqrt(2 * eps * LN2)


def _check_epsilon(epsilon: Any) -> tuple[float, float]:
    eps = v.positive("epsilon", epsilon, fix="eps is the MI-DP level in bits; it must be > 0.")
    delta = mi_dp_delta(eps)
    if not delta < 1:
        raise InvalidArgument(
            f"epsilon={epsilon!r} bits gives delta = sqrt(2 eps ln 2) = {delta!r} >= 1 in Proposition 2 / "
            f"Corollary 1: the (0, delta)-DP guarantee is vacuous and cannot be audited. Use "
            f"eps < 1/(2 ln 2) = {MAX_MI_EPSILON_BITS:.6f} bits."
        )
    return eps, delta


def additive_noise_sigma(epsilon_bits: float) -> float:
    """sigma_AN = (2^{2 eps} - 1)^{-1/2} (eq. (9); ``showkatbakhsh-regression/lemma-1``)."""
    eps = v.positive("epsilon", epsilon_bits, fix="MI-DP needs eps > 0 bits.")
    return 1.0 / math.sqrt(math.expm1(2 * eps * LN2))


def f_of_x(x: Any) -> float:
    """f(X) = min over columns i of sqrt(sum_j X_ji^2 - max_j X_ji^2) (Section II, "Notation")."""
    a = v.finite_array("X", x, ndim=2)
    sq = a * a
    fi2 = np.maximum(sq.sum(axis=0) - sq.max(axis=0), 0.0)  # >= 0 up to rounding
    return float(np.sqrt(fi2.min()))


def projection_sigma(epsilon_bits: float, projection_dim: int, x: Any) -> float:
    """sigma_RP = sqrt((n' / (2^{2 eps} - 1) - f^2(X))_+) (eq. (13); ``showkatbakhsh-regression/lemma-2``)."""
    eps = v.positive("epsilon", epsilon_bits, fix="MI-DP needs eps > 0 bits.")
    m = v.integer("projection_dim", projection_dim, minimum=1)
    f = f_of_x(x)
    return math.sqrt(max(m / math.expm1(2 * eps * LN2) - f * f, 0.0))


def _check_entries(x: np.ndarray, name: str) -> None:
    bad = np.argwhere(~(np.abs(x) <= 1.0))
    if bad.size:
        i, j = (int(t) for t in bad[0])
        raise InvalidArgument(
            f"{name}[{i}, {j}] = {x[i, j]!r} violates |X_ij| <= 1 (showkatbakhsh-regression, Section II). "
            "Rescale the data; it is never clipped."
        )


def _entry_space():
    """Definition 2's neighbours for ``dpverify check``'s search: one entry, changed by at most 2."""
    try:
        from dpverify.auditing.neighbours import NeighbourSpace, Norm, Unit
    except ImportError:  # pragma: no cover - search not available: dpverify infers the space
        return None
    return NeighbourSpace(Unit.ENTRY, Norm.LINF, 2.0)


class AdditiveNoiseRelease:
    """``showkatbakhsh-regression/lemma-1``: X + sigma_AN N, sigma_AN^2 = 1/(2^{2 eps} - 1).

    ``epsilon`` is the MI-DP level in bits, 0 < eps < 1/(2 ln 2) (see the module docstring for
    the upper limit). ``claim`` is PrivacyClaim(0, sqrt(2 eps ln 2)) (Proposition 2);
    ``mi_epsilon_bits`` is the MI-DP claim. Data: X of shape (n, d), |X_ij| <= 1; outputs have
    shape (size, n, d).
    """

    paper = f"{PAPER}/lemma-1"

    def __init__(self, epsilon: float):
        self.mi_epsilon_bits, delta = _check_epsilon(epsilon)
        self.epsilon = self.mi_epsilon_bits
        self.sigma = additive_noise_sigma(self.mi_epsilon_bits)
        self.claim = PrivacyClaim(0.0, delta)

    def __repr__(self) -> str:
        return f"AdditiveNoiseRelease(epsilon={self.mi_epsilon_bits!r})"

    def check_data(self, data: Any) -> np.ndarray:
        x = v.finite_array("data", data, ndim=2, fix="X is an (n, d) array, one row per user.")
        if x.size == 0:
            raise InvalidArgument(f"data has shape {x.shape}; X needs at least one entry.")
        _check_entries(x, "data")
        return x

    def neighbour_space(self):
        """One entry of X changes (|X_ij| <= 1, so by at most 2); used by ``dpverify check``'s search."""
        return _entry_space()

    def check_neighbours(self, data: Any, data_prime: Any) -> None:
        """InvalidArgument unless X and X' differ in at most one entry (Definition 2)."""
        _one_entry(self.check_data(data), self.check_data(data_prime))

    def sample(self, data, size, rng):
        x = self.check_data(data)
        m = v.integer("size", size, minimum=1)
        return x + self.sigma * v.as_rng(rng).standard_normal((m, *x.shape))

    def log_density(self, outputs, data):
        x = self.check_data(data)
        out = v.finite_array("outputs", outputs, ndim=3)
        if out.shape[1:] != x.shape:
            raise InvalidArgument(f"outputs has shape {out.shape}; for X of shape {x.shape} it must be "
                                  f"(size, {x.shape[0]}, {x.shape[1]}).")
        z = ((out - x) / self.sigma).reshape(out.shape[0], -1)
        return -0.5 * np.einsum("ij,ij->i", z, z) - x.size * (math.log(self.sigma) + LOG_SQRT_2PI)


def _one_entry(x: np.ndarray, xp: np.ndarray) -> None:
    if x.shape != xp.shape:
        raise InvalidArgument(f"data has shape {x.shape} and data_prime {xp.shape}; neighbours have one shape.")
    diff = np.argwhere(x != xp)
    if len(diff) > 1:
        raise InvalidArgument(
            f"data and data_prime differ in {len(diff)} entries (first {diff[0].tolist()}, "
            f"{diff[1].tolist()}); showkatbakhsh-regression neighbours differ in one entry of X."
        )


class RandomProjectionRelease:
    """``showkatbakhsh-regression/lemma-2``: (S X + sigma_RP N, S y), sigma_RP from eq. (13).

    ``epsilon``: MI-DP level in bits, 0 < eps < 1/(2 ln 2); ``projection_dim``: n' >= 1 (Lemma 2
    puts no condition on n'; Theorem 2's utility bound assumes n' < n). Data: ``[X | y]`` of
    shape (n, d + 1) with |X_ij| <= 1; outputs have shape (size, n', d + 1): columns 0..d-1 are
    S X + sigma_RP N, the last column is S y. sigma_RP is not released (footnote 3).
    ``claim`` is PrivacyClaim(0, sqrt(2 eps ln 2)) (Corollary 1); ``mi_epsilon_bits`` the MI-DP
    claim. The density is derived in the module docstring.
    """

    paper = f"{PAPER}/lemma-2"

    def __init__(self, epsilon: float, projection_dim: int):
        self.mi_epsilon_bits, delta = _check_epsilon(epsilon)
        self.epsilon = self.mi_epsilon_bits
        self.projection_dim = v.integer("projection_dim", projection_dim, minimum=1,
                                        fix="n' is the number of rows of S.")
        self.claim = PrivacyClaim(0.0, delta)

    def __repr__(self) -> str:
        return f"RandomProjectionRelease(epsilon={self.mi_epsilon_bits!r}, projection_dim={self.projection_dim!r})"

    def check_data(self, data: Any) -> tuple[np.ndarray, np.ndarray]:
        """(X, y) from ``[X | y]`` of shape (n, d + 1), d >= 1, |X_ij| <= 1; else InvalidArgument."""
        a = v.finite_array("data", data, ndim=2, fix="Pass [X | y]: shape (n, d + 1), y the last column.")
        if a.shape[0] < 1 or a.shape[1] < 2:
            raise InvalidArgument(
                f"data has shape {a.shape}; RandomProjectionRelease takes [X | y] of shape (n, d + 1) "
                "with n >= 1 and d >= 1 (y is the last column)."
            )
        x = a[:, :-1]
        _check_entries(x, "data")
        return x, a[:, -1]

    def neighbour_space(self):
        """One entry changes by at most 2 (candidates changing y are rejected by check_neighbours)."""
        return _entry_space()

    def check_neighbours(self, data: Any, data_prime: Any) -> None:
        """InvalidArgument unless the X parts differ in at most one entry and y is the same."""
        x, y = self.check_data(data)
        xp, yp = self.check_data(data_prime)
        _one_entry(x, xp)
        if not np.array_equal(y, yp):
            raise InvalidArgument("data and data_prime have different y; y is not part of D and is the same "
                                  "in neighbouring datasets.")

    def sigma_for(self, data: Any) -> float:
        """sigma_RP(X) of eq. (13) for this dataset."""
        x, _ = self.check_data(data)
        return projection_sigma(self.mi_epsilon_bits, self.projection_dim, x)

    def covariance(self, data: Any) -> np.ndarray:
        """Sigma(D) = [X|y]^T [X|y] + sigma_RP^2 diag(1..1, 0): the covariance of each output row."""
        x, y = self.check_data(data)
        a = np.column_stack([x, y])
        cov = a.T @ a
        s = projection_sigma(self.mi_epsilon_bits, self.projection_dim, x)
        idx = np.arange(x.shape[1])
        cov[idx, idx] += s * s
        return cov

    def sample(self, data, size, rng):
        x, y = self.check_data(data)
        m = v.integer("size", size, minimum=1)
        gen = v.as_rng(rng)
        n, d = x.shape
        sigma = projection_sigma(self.mi_epsilon_bits, self.projection_dim, x)
        a = np.column_stack([x, y])
        s = gen.standard_normal((m, self.projection_dim, n))
        out = np.matmul(s, a)
        out[:, :, :d] += sigma * gen.standard_normal((m, self.projection_dim, d))
        return out

    def log_density(self, outputs, data):
        x, _ = self.check_data(data)
        d1 = x.shape[1] + 1
        out = v.finite_array("outputs", outputs, ndim=3)
        if out.shape[1:] != (self.projection_dim, d1):
            raise InvalidArgument(f"outputs has shape {out.shape}; it must be (size, n'={self.projection_dim}, "
                                  f"d + 1 = {d1}).")
        cov = self.covariance(data)
        try:
            chol = linalg.cholesky(cov, lower=True)
        except linalg.LinAlgError:
            chol = None
        if chol is None or not np.all(np.diag(chol) > 0):
            raise InvalidArgument(
                f"data={_short(data)} gives a singular row covariance [X|y]^T[X|y] + sigma_RP^2 diag(I, 0) "
                "(sigma_RP = 0 and [X | y] not of full column rank): the release has no density w.r.t. "
                "Lebesgue measure, so log_density is undefined. Use data with [X | y] of full column rank."
            )
        logdet = 2 * np.log(np.diag(chol)).sum()
        rows = out.reshape(-1, d1).T  # (d+1, size*n')
        w = linalg.solve_triangular(chol, rows, lower=True)
        quad = np.einsum("ij,ij->j", w, w).reshape(out.shape[0], self.projection_dim).sum(axis=1)
        npr = self.projection_dim
        return -0.5 * quad - 0.5 * npr * logdet - npr * d1 * LOG_SQRT_2PI


def _short(data: Any) -> str:
    arr = np.asarray(data)
    return f"array(shape={arr.shape})"
