"""Mechanisms of ``tu-projections`` (S. Tu, Differentially private random projections).

* :class:`KenthapadiGaussian` -- Lemma 2 (Kenthapadi et al., Lemma 1): f(D) + G with
  G ~ N(0, 2 Delta_2^2 (log(1/(2 delta)) + eps) / eps^2), claims (eps, delta) for delta < 1/2.
  The text prints ``log(1/2δ)``; the reading used is log(1/(2δ)) (the one Kenthapadi et al.
  state); the other reading, log(1/2)/δ... is judged by the proof checker.
* :class:`TuDirectProjection` -- Theorem 1: M_P(X) = XP + G, sigma from Lemma 1 and Lemma 2.
* :class:`TuCompositionProjection` -- Theorem 2: the same release, sigma from Lemma 4, Lemma 2
  and Lemma 3 (advanced composition over the k columns), eps_1 from the quadratic formula.

**Data and neighbours.** X is an ``(n, d)`` array; the note's neighbours differ in one row i
with ``||X_i - X'_i|| <= B``. Every row must have l2 norm at most B (the data domain of the
mechanism; checked in ``sample`` and ``log_density``, never clipped; a relative tolerance of
``1e-12`` absorbs the rounding of a row built as ``B * unit_vector``). :meth:`check_neighbours`
checks the note's relation for a pair.

**The two readings of "Fix a randomized gaussian projection matrix P"** (:class:`ProjectionReading`):

* ``FRESH``: P (``d x k``, i.i.d. N(0, sigma_p^2)) is drawn afresh for every release and
  published with it. An output is the ``(d + n, k)`` array whose first d rows are P and whose
  last n rows are XP + G. ``log_density`` is log N(P; 0, sigma_p^2 I) + log N(XP + G; XP,
  sigma^2 I); the P part is the same under every dataset and cancels in a privacy loss, but it
  is included so the density is the density of the whole output.
* ``FIXED``: P is drawn once, at construction, from ``seed``, and reused; an output is the
  ``(n, k)`` array XP + G. The mechanism exposes P (:attr:`projection`) so that a neighbouring
  pair can be chosen after P is known: Lemma 1 bounds ``||zP||`` for a difference z fixed
  *before* P is drawn, and gives nothing for z chosen with knowledge of P (the largest
  ``||zP||`` over ``||z|| <= B`` is ``B s_max(P)``, about ``B sigma_p (sqrt(d) + sqrt(k))``).

The claim is the note's (eps, delta) under both readings.
"""
from __future__ import annotations

import enum
import math
from typing import Any

import numpy as np

from dpverify import InvalidArgument, PrivacyClaim
from dpverify import validation as v

from ._base import LOG_SQRT_2PI, GaussianNoise

__all__ = [
    "KenthapadiGaussian",
    "kenthapadi_sigma",
    "ProjectionReading",
    "Theorem1Reading",
    "Theorem2Reading",
    "lemma1_bound",
    "theorem1_sigma",
    "theorem2_epsilon1",
    "theorem2_sigma",
    "top_singular_direction",
    "TuDirectProjection",
    "TuCompositionProjection",
]

PAPER = "tu-projections"

#: Relative tolerance of the row-norm check (rounding of rows built as B * unit vector).
ROW_NORM_RTOL = 1e-12


def kenthapadi_sigma(epsilon: float, delta: float, sensitivity: float) -> float:
    """sigma with sigma^2 = 2 Delta^2 (log(1/(2 delta)) + eps) / eps^2 (``tu-projections`` Lemma 2)."""
    return sensitivity * math.sqrt(2 * (math.log(1 / (2 * delta)) + epsilon)) / epsilon


class KenthapadiGaussian(GaussianNoise):
    """``tu-projections`` Lemma 2: f(D) + N(0, 2 Delta_2^2 (log(1/(2 delta)) + eps)/eps^2); (eps, delta)-DP.

    Needs eps > 0 and 0 < delta < 1/2 ("provided delta < 1/2"); ``sensitivity`` is Delta_2(f).
    """

    paper = f"{PAPER}/lemma-2"

    def __init__(self, epsilon: float, delta: float, sensitivity: float = 1.0, query=None):
        super().__init__(query)
        self.epsilon = v.positive("epsilon", epsilon, fix="The Gaussian mechanism needs eps > 0.")
        self.delta = v.real("delta", delta)
        if not 0 < self.delta < 0.5:
            raise v.InvalidArgument(
                f"delta={delta!r} must lie in (0, 1/2): Lemma 2 holds 'provided delta < 1/2'."
            )
        self.sensitivity = v.positive("sensitivity", sensitivity, fix="Delta_2(f) must be > 0.")
        self.sigma = kenthapadi_sigma(self.epsilon, self.delta, self.sensitivity)
        self.claim = PrivacyClaim(self.epsilon, self.delta)

    def __repr__(self) -> str:
        return (f"KenthapadiGaussian(epsilon={self.epsilon!r}, delta={self.delta!r}, "
                f"sensitivity={self.sensitivity!r})")


# --------------------------------------------------------------------------------------------
# Readings
# --------------------------------------------------------------------------------------------


class ProjectionReading(enum.Enum):
    """How "Fix a randomized gaussian projection matrix P" is read (see the module docstring)."""

    #: P drawn afresh for every release and published with the output.
    FRESH = "fresh"
    #: P drawn once at construction (from ``seed``) and reused for every release.
    FIXED = "fixed"


class Theorem1Reading(enum.Enum):
    """Readings of the sigma printed in ``tu-projections`` Theorem 1.

    The note prints ``σ = Bσ_p √(k + 2√(k log(2/δ)) + 2 log(2/δ) √(2(log(1/2δ) + ε))/ε)``, which
    is ambiguous in two places. With ``R(x) = k + 2 sqrt(k x) + 2 x`` (Lemma 1's radicand at
    ``x = log(1/δ_1)``) and ``L`` the logarithm inside Lemma 2's factor:

    * where the outer square root ends: SPLIT -- it closes after ``2 log(2/δ)``, so
      ``σ = Bσ_p sqrt(R(log(2/δ))) * sqrt(2(L + ε))/ε`` (Lemma 1's bound on ``||XP - X'P||_F``
      at δ/2, times Lemma 2's factor: what the proof "invoking both Lemma 1 and Lemma 2 with
      δ/2" builds); ONE -- it spans the whole expression,
      ``σ = Bσ_p sqrt(R(log(2/δ)) - 2 log(2/δ) + 2 log(2/δ) sqrt(2(L + ε))/ε)`` (the literal
      typesetting; σ then grows like ε^{-1/2}, not ε^{-1}, as ε -> 0);
    * which logarithm: PRINTED -- ``L = log(1/(2δ))`` (``log(1/2δ)`` read as Lemma 2 prints it,
      i.e. Lemma 2 invoked at δ); PROOF -- ``L = log(1/δ)`` (Lemma 2 invoked at δ/2, as the
      proof says: log(1/(2 * δ/2)) = log(1/δ)).

    A fifth reading, ``log(1/2δ) = log(δ/2)``, gives a negative radicand ``log(δ/2) + ε`` for
    every δ < 2 e^{-ε} (all of (0, 1/2) when ε < log 4): it defines no mechanism and is not
    offered.

    **Default: SPLIT_PRINTED** -- the printed formula under the parenthesisation the proof
    supports. Note that the printed logarithm disagrees with the proof: invoking Lemma 2 "with
    δ/2" gives log(1/δ) (SPLIT_PROOF), and the printed log(1/(2δ)) is Lemma 2 at δ, so the
    printed σ spends δ/2 + δ = 3δ/2 by the proof's own accounting. The mechanism follows the
    printed formula; the proof checker judges every reading.
    """

    SPLIT_PRINTED = "split-printed"
    SPLIT_PROOF = "split-proof"
    ONE_PRINTED = "one-printed"
    ONE_PROOF = "one-proof"


class Theorem2Reading(enum.Enum):
    """Readings of the sigma printed in ``tu-projections`` Theorem 2.

    Printed: ``σ = (Bσ_p/ε_1) sqrt(4 log²(k/δ) + 2 ε_1 log(2k/δ))`` with
    ``ε_1 = (sqrt(2k log(2/δ) + 8kε) - sqrt(2k log(2/δ))) / (4k)``. The ε_1 formula is the
    positive root of ``2k ε_1² + sqrt(2k log(2/δ)) ε_1 = ε`` (Lemma 3 with δ' = δ/2 and
    exp(ε_1) <= 1 + 2ε_1); it is typeset unambiguously and has one reading.

    * PRINTED (**default**): ``log²(k/δ) = (log(k/δ))²``, as printed. It is the proof's
      σ_1 = (Bσ_p/ε_1) sqrt(4 log²(1/2δ_1) + 2ε_1 log(1/δ_1)) at δ_1 = δ/(2k), reading
      ``log(1/2δ_1)`` as log(1/(2δ_1)) = log(k/δ).
    * LOG_OF_SQUARE: ``log²(k/δ)`` read as ``log((k/δ)²) = 2 log(k/δ)``.
    * LEMMAS: σ_1 re-derived from the lemmas the proof invokes, each at δ_1/2 (Lemma 4:
      ``|<z, P_i>| <= Bσ_p sqrt(2 log(2/δ_1))``; Lemma 2 at δ_1/2: factor
      ``sqrt(2(log(1/δ_1) + ε_1))/ε_1``), so
      ``σ = (Bσ_p/ε_1) sqrt(4 log(4k/δ) log(2k/δ) + 4 ε_1 log(4k/δ))``.

    The printed σ_1 matches no split of δ_1 between Lemma 4 and Lemma 2 (its ε_1 term is
    ``2ε_1 log(1/δ_1)`` where any split gives ``4ε_1 log(1/δ_a)``); it is smaller than the
    LEMMAS value. The mechanism follows the printed formula; the proof checker judges them all.
    """

    PRINTED = "printed"
    LOG_OF_SQUARE = "log-of-square"
    LEMMAS = "lemmas"


# --------------------------------------------------------------------------------------------
# Calibrations
# --------------------------------------------------------------------------------------------


def _check_common(epsilon, delta, k, sigma_p, bound):
    eps = v.positive("epsilon", epsilon, fix="The note's theorems need eps > 0.")
    dl = v.real("delta", delta)
    if not 0 < dl < 0.5:
        raise InvalidArgument(
            f"delta={delta!r} must lie in (0, 1/2): Theorems 1 and 2 of tu-projections assume "
            "0 < delta < 1/2 (Lemma 2 holds 'provided delta < 1/2')."
        )
    kk = v.integer("projection_dim", k, minimum=1, fix="k is the number of columns of P.")
    sp = v.positive("sigma_p", sigma_p, fix="P has i.i.d. N(0, sigma_p^2) entries; sigma_p must be > 0.")
    b = v.positive("bound", bound, fix="B bounds ||X_i - X'_i||; it must be > 0.")
    return eps, dl, kk, sp, b


def lemma1_bound(k: int, delta: float, sigma_p: float = 1.0, bound: float = 1.0) -> float:
    """``tu-projections/lemma-1``: B sigma_p sqrt(k + 2 sqrt(k log(1/delta)) + 2 log(1/delta)).

    With probability at least 1 - delta over P, ``||XP - X'P||_F`` is at most this value, for a
    difference z = X_i - X'_i (``||z|| <= B``) fixed before P is drawn.
    """
    kk = v.integer("k", k, minimum=1)
    dl = v.open_unit("delta", delta)
    sp = v.positive("sigma_p", sigma_p)
    b = v.positive("bound", bound)
    x = math.log(1 / dl)
    return b * sp * math.sqrt(kk + 2 * math.sqrt(kk * x) + 2 * x)


def theorem1_sigma(epsilon: float, delta: float, k: int, sigma_p: float = 1.0, bound: float = 1.0,
                   reading: Theorem1Reading = Theorem1Reading.SPLIT_PRINTED) -> float:
    """sigma of ``tu-projections/theorem-1`` under ``reading`` (see :class:`Theorem1Reading`)."""
    eps, dl, kk, sp, b = _check_common(epsilon, delta, k, sigma_p, bound)
    if not isinstance(reading, Theorem1Reading):
        raise InvalidArgument(
            f"reading={reading!r} must be a Theorem1Reading (e.g. Theorem1Reading.SPLIT_PRINTED), "
            f"not {type(reading).__name__}."
        )
    x = math.log(2 / dl)
    if reading in (Theorem1Reading.SPLIT_PRINTED, Theorem1Reading.ONE_PRINTED):
        log_term = math.log(1 / (2 * dl))
    else:
        log_term = math.log(1 / dl)
    factor = math.sqrt(2 * (log_term + eps)) / eps
    if reading in (Theorem1Reading.SPLIT_PRINTED, Theorem1Reading.SPLIT_PROOF):
        return b * sp * math.sqrt(kk + 2 * math.sqrt(kk * x) + 2 * x) * factor
    return b * sp * math.sqrt(kk + 2 * math.sqrt(kk * x) + 2 * x * factor)


def theorem2_epsilon1(epsilon: float, delta: float, k: int) -> float:
    """eps_1 = (sqrt(2k log(2/delta) + 8k eps) - sqrt(2k log(2/delta))) / (4k) (``tu-projections/theorem-2``).

    Computed as 2 eps / (sqrt(a + 8k eps) + sqrt(a)), a = 2k log(2/delta) (the same number
    without cancellation).
    """
    eps, dl, kk, _, _ = _check_common(epsilon, delta, k, 1.0, 1.0)
    a = 2 * kk * math.log(2 / dl)
    return 2 * eps / (math.sqrt(a + 8 * kk * eps) + math.sqrt(a))


def theorem2_sigma(epsilon: float, delta: float, k: int, sigma_p: float = 1.0, bound: float = 1.0,
                   reading: Theorem2Reading = Theorem2Reading.PRINTED) -> float:
    """sigma of ``tu-projections/theorem-2`` under ``reading`` (see :class:`Theorem2Reading`).

    Needs 0 < eps < 1 (the theorem's hypothesis) and 0 < delta < 1/2.
    """
    eps, dl, kk, sp, b = _check_common(epsilon, delta, k, sigma_p, bound)
    if not eps < 1:
        raise InvalidArgument(
            f"epsilon={epsilon!r} must lie in (0, 1): Theorem 2 of tu-projections assumes 0 < eps < 1. "
            "Use TuDirectProjection (Theorem 1) for eps >= 1."
        )
    if not isinstance(reading, Theorem2Reading):
        raise InvalidArgument(
            f"reading={reading!r} must be a Theorem2Reading (e.g. Theorem2Reading.PRINTED), "
            f"not {type(reading).__name__}."
        )
    e1 = theorem2_epsilon1(eps, dl, kk)
    if reading is Theorem2Reading.PRINTED:
        rad = 4 * math.log(kk / dl) ** 2 + 2 * e1 * math.log(2 * kk / dl)
    elif reading is Theorem2Reading.LOG_OF_SQUARE:
        rad = 4 * (2 * math.log(kk / dl)) + 2 * e1 * math.log(2 * kk / dl)
    else:
        rad = 4 * math.log(4 * kk / dl) * math.log(2 * kk / dl) + 4 * e1 * math.log(4 * kk / dl)
    return b * sp / e1 * math.sqrt(rad)


def top_singular_direction(projection: Any) -> np.ndarray:
    """The unit vector u in R^d maximising ``||u P||`` (top left singular vector of P, d x k)."""
    p = v.finite_array("projection", projection, ndim=2)
    u, _, _ = np.linalg.svd(p, full_matrices=False)
    return u[:, 0].copy()


# --------------------------------------------------------------------------------------------
# Mechanisms
# --------------------------------------------------------------------------------------------


class _ProjectionRelease:
    """M_P(X) = XP + G (shared by Theorem 1 and Theorem 2); subclasses set ``sigma`` and ``claim``."""

    paper: str

    def _init_common(self, epsilon, delta, dimension, projection_dim, sigma_p, bound, reading, seed):
        self.epsilon, self.delta, self.projection_dim, self.sigma_p, self.bound = _check_common(
            epsilon, delta, projection_dim, sigma_p, bound)
        self.dimension = v.integer("dimension", dimension, minimum=1, fix="d is the number of columns of X.")
        if not isinstance(reading, ProjectionReading):
            raise InvalidArgument(
                f"reading={reading!r} must be a ProjectionReading (ProjectionReading.FRESH or "
                f"ProjectionReading.FIXED), not {type(reading).__name__}."
            )
        self.reading = reading
        self._projection = None
        if reading is ProjectionReading.FIXED:
            rng = v.as_rng(seed, name="seed")
            p = self.sigma_p * rng.standard_normal((self.dimension, self.projection_dim))
            p.flags.writeable = False
            self._projection = p
        elif seed is not None:
            raise InvalidArgument(
                f"seed={seed!r} is only used with reading=ProjectionReading.FIXED (P drawn once); with "
                "ProjectionReading.FRESH, P is drawn from the rng given to sample(). Pass seed=None."
            )
        self.seed = seed

    # -- public helpers ------------------------------------------------------------------------

    @property
    def projection(self) -> np.ndarray:
        """P (read-only) under ``ProjectionReading.FIXED``; InvalidArgument under FRESH."""
        if self._projection is None:
            raise InvalidArgument(
                "projection is undefined under reading=ProjectionReading.FRESH (P is drawn per release "
                "and is part of each output: rows [:d] of an output)."
            )
        return self._projection

    def _out_shape(self, n: int) -> tuple[int, int]:
        if self.reading is ProjectionReading.FRESH:
            return (self.dimension + n, self.projection_dim)
        return (n, self.projection_dim)

    def neighbour_space(self):
        """The note's neighbours for ``dpverify check``'s search: one row, ``||X_i - X'_i||_2 <= B``."""
        try:
            from dpverify.auditing.neighbours import NeighbourSpace, Norm, Unit
        except ImportError:  # pragma: no cover - search not available: dpverify infers the space
            return None
        return NeighbourSpace(Unit.ROW, Norm.L2, self.bound)

    def check_data(self, data: Any) -> np.ndarray:
        """``data`` as an (n, d) float array with finite entries and rows of norm <= B, or InvalidArgument."""
        x = v.finite_array("data", data, ndim=2, fix="X is an (n, d) array, one row per user.")
        if x.shape[0] < 1 or x.shape[1] != self.dimension:
            raise InvalidArgument(
                f"data has shape {x.shape}; this mechanism takes X of shape (n, d) with n >= 1 and "
                f"d = dimension = {self.dimension}."
            )
        norms = np.sqrt(np.einsum("ij,ij->i", x, x))
        limit = self.bound * (1 + ROW_NORM_RTOL)
        bad = np.flatnonzero(~(norms <= limit))
        if bad.size:
            i = int(bad[0])
            raise InvalidArgument(
                f"data row {i} has l2 norm {norms[i]!r} > bound B={self.bound!r}: rows of X must have "
                "norm <= B (tu-projections). Rescale the data; it is never clipped."
            )
        return x

    def check_neighbours(self, data: Any, data_prime: Any) -> None:
        """InvalidArgument unless X, X' differ in at most one row i, with ``||X_i - X'_i|| <= B``."""
        x, y = self.check_data(data), self.check_data(data_prime)
        if x.shape != y.shape:
            raise InvalidArgument(f"data has shape {x.shape} and data_prime {y.shape}; neighbours have one shape.")
        rows = np.flatnonzero(np.any(x != y, axis=1))
        if rows.size > 1:
            raise InvalidArgument(
                f"data and data_prime differ in rows {rows.tolist()}; tu-projections neighbours differ in one row."
            )
        if rows.size:
            dist = float(np.linalg.norm(x[rows[0]] - y[rows[0]]))
            if not dist <= self.bound * (1 + ROW_NORM_RTOL):
                raise InvalidArgument(
                    f"||X_i - X'_i|| = {dist!r} > B={self.bound!r} in row {int(rows[0])}: the note's "
                    "neighbours satisfy ||X_i - X'_i|| <= B."
                )

    # -- protocol ------------------------------------------------------------------------------

    def sample(self, data, size, rng):
        x = self.check_data(data)
        m = v.integer("size", size, minimum=1)
        gen = v.as_rng(rng)
        n, d, k = x.shape[0], self.dimension, self.projection_dim
        if self.reading is ProjectionReading.FRESH:
            p = self.sigma_p * gen.standard_normal((m, d, k))
            out = np.empty((m, d + n, k))
            out[:, :d] = p
            out[:, d:] = np.matmul(x, p) + self.sigma * gen.standard_normal((m, n, k))
            return out
        return (x @ self._projection) + self.sigma * gen.standard_normal((m, n, k))

    def log_density(self, outputs, data):
        x = self.check_data(data)
        n, d, k = x.shape[0], self.dimension, self.projection_dim
        shape = self._out_shape(n)
        out = v.finite_array("outputs", outputs, ndim=3)
        if out.shape[1:] != shape:
            raise InvalidArgument(
                f"outputs has shape {out.shape}; for data with n={n} rows it must have shape "
                f"(size, {shape[0]}, {shape[1]}) (reading={self.reading.name})."
            )
        if self.reading is ProjectionReading.FRESH:
            p = out[:, :d]
            resid = out[:, d:] - np.matmul(x, p)
            zp = (p / self.sigma_p).reshape(out.shape[0], -1)
            lp = -0.5 * np.einsum("ij,ij->i", zp, zp) - d * k * (math.log(self.sigma_p) + LOG_SQRT_2PI)
        else:
            resid = out - x @ self._projection
            lp = 0.0
        zr = (resid / self.sigma).reshape(out.shape[0], -1)
        return lp - 0.5 * np.einsum("ij,ij->i", zr, zr) - n * k * (math.log(self.sigma) + LOG_SQRT_2PI)

    def _repr_args(self) -> str:
        seed = f", seed={self.seed!r}" if self.reading is ProjectionReading.FIXED else ""
        return (f"epsilon={self.epsilon!r}, delta={self.delta!r}, dimension={self.dimension!r}, "
                f"projection_dim={self.projection_dim!r}, sigma_p={self.sigma_p!r}, bound={self.bound!r}, "
                f"reading=ProjectionReading.{self.reading.name}{seed}")


class TuDirectProjection(_ProjectionRelease):
    """``tu-projections/theorem-1``: XP + G with sigma from Lemma 1 and Lemma 2; claims (eps, delta).

    Parameters: ``epsilon`` > 0, ``delta`` in (0, 1/2), ``dimension`` d, ``projection_dim`` k,
    ``sigma_p`` (P entries N(0, sigma_p^2)), ``bound`` B, ``reading`` (:class:`ProjectionReading`,
    default FRESH), ``formula`` (:class:`Theorem1Reading`, default SPLIT_PRINTED: the printed
    formula under the parenthesisation the proof supports; see that class for every reading and
    the disagreement between the printed logarithm and the proof), ``seed`` (FIXED only: the seed
    P is drawn from at construction).
    """

    paper = f"{PAPER}/theorem-1"

    def __init__(self, epsilon: float, delta: float, dimension: int, projection_dim: int, sigma_p: float = 1.0,
                 bound: float = 1.0, reading: ProjectionReading = ProjectionReading.FRESH,
                 formula: Theorem1Reading = Theorem1Reading.SPLIT_PRINTED, seed: Any = None):
        self._init_common(epsilon, delta, dimension, projection_dim, sigma_p, bound, reading, seed)
        self.formula = formula
        self.sigma = theorem1_sigma(self.epsilon, self.delta, self.projection_dim, self.sigma_p, self.bound,
                                    reading=formula)
        self.claim = PrivacyClaim(self.epsilon, self.delta)

    def __repr__(self) -> str:
        return f"TuDirectProjection({self._repr_args()}, formula=Theorem1Reading.{self.formula.name})"


class TuCompositionProjection(_ProjectionRelease):
    """``tu-projections/theorem-2``: XP + G with sigma from Lemmas 4, 2 and 3; claims (eps, delta).

    Needs 0 < eps < 1 and 0 < delta < 1/2 (the theorem's hypotheses). ``epsilon1`` is the
    per-column eps_1 (quadratic formula). ``formula`` is a :class:`Theorem2Reading` (default
    PRINTED). Other parameters as :class:`TuDirectProjection`.
    """

    paper = f"{PAPER}/theorem-2"

    def __init__(self, epsilon: float, delta: float, dimension: int, projection_dim: int, sigma_p: float = 1.0,
                 bound: float = 1.0, reading: ProjectionReading = ProjectionReading.FRESH,
                 formula: Theorem2Reading = Theorem2Reading.PRINTED, seed: Any = None):
        self._init_common(epsilon, delta, dimension, projection_dim, sigma_p, bound, reading, seed)
        self.formula = formula
        self.sigma = theorem2_sigma(self.epsilon, self.delta, self.projection_dim, self.sigma_p, self.bound,
                                    reading=formula)
        self.epsilon1 = theorem2_epsilon1(self.epsilon, self.delta, self.projection_dim)
        self.claim = PrivacyClaim(self.epsilon, self.delta)

    def __repr__(self) -> str:
        return f"TuCompositionProjection({self._repr_args()}, formula=Theorem2Reading.{self.formula.name})"
