"""Mechanisms of ``zhou-compression`` (Zhou, Ligett, Wasserman, *Differential Privacy with
Compression*, 2009).

**Data model** (Section 3). A database is ``X`` of shape ``(n, p)``: n records (rows), p
attributes (columns), with columns normalised to ||X_j||_2^2 = n (eq. (4)), so that
Sigma = X^T X / n has unit diagonal; the paper needs p < n. The release is the compressed
database ``Xc = Phi X`` with Phi an ``m x n`` matrix of i.i.d. N(0, 1/n) entries, redrawn for
every release. Given X, the rows of ``Xc`` are i.i.d. N(0, Sigma) (density (11)).

**The set of databases** S_n (Section 3, eqs. (5)-(6)) is fixed by a *reference* database X_1
(Sigma_1 = X_1^T X_1 / n, "w.l.o.g. we choose Sigma_1 to be a reference point", Procedure 4.1) and
the bound ``delta_max`` = Delta_max(S_n) on max_{l,k} |Sigma_i(l,k) - Sigma_1(l,k)|. Data outside
S_n (wrong shape, unnormalised columns, entries of Sigma farther than Delta_max from Sigma_1)
raises InvalidArgument; nothing is normalised or clipped silently (:func:`normalise_columns` is
offered for callers who want the paper's first sanitisation step, eq. (4), explicitly).
Neighbours (Definition 2.3): databases of S_n differing in one row; Theorem 4.6 bounds the
comparison of every X_i with the reference X_1, so :meth:`check_neighbours` requires one of the
two to be the reference (for two non-reference databases Remark 4.7 gives twice the bound).

**Truncation** (Procedure 4.1, condition (12); event E of (13)): an output is kept only if
max_{j,k} |(Xc^T Xc / m)_{jk} - Sigma_1(j,k)| <= C sqrt(ln(2np)/m) + Delta_max; otherwise Phi is
redrawn. Procedure 4.2 renormalises the density on the kept set: f'(Xc) = f(Xc) / (1 - P[E])
(eq. (14)). Both procedures define the *same output law* (rejection sampling of a density gives
the renormalised density); the two classes differ in how they draw it:

* :class:`ZhouTruncation` (Procedure 4.1): draws Phi and computes Phi X, redrawing Phi while
  (12) fails. ``phi=PhiDraw.FULL`` (default) draws the whole ``m x n`` matrix, as the paper says;
  ``phi=PhiDraw.REDUCED`` draws only Phi Q for an orthonormal basis Q of the column space of X
  (X = Q R), which has exactly the same law (i.i.d. Gaussian matrices are rotation invariant), at
  a cost of m p instead of m n normals per release.
* :class:`ZhouRenormalised` (Procedure 4.2): draws from the renormalised density (14) directly
  (rows N(0, Sigma) by a Cholesky factor, rejection on E).

**Constants** (every one used):

* C_1 = 4e/sqrt(6 pi) ~ 2.5044 and C_2 = sqrt(8) e ~ 7.6885: Lemma B.1 (cited from [23]).
* C = sqrt(2 (C_1 + C_2)) ~ 4.5153 in (12). The converted text reads "for C = sqrt 2(C1 + C2)"
  with the root sign displaced; the reading sqrt(2(C_1 + C_2)) is the one the proof of Lemma 4.4
  uses (tau = sqrt(2 (C_1 + C_2) ln(2np) / m)). The other reading, C = 2 (C_1 + C_2) ~ 20.39,
  would truncate less and multiply the first term of alpha by about 4.5.
* m >= 2 (C_1 + C_2) ln(2np): Lemma 4.4 (needed for P[E] <= 1/n^2 and for tau <= 1).
* ||Delta||_F <= p Delta_max: eq. (7) (the worst case Theorem 3.2 plugs into (15)).
* lambda_min(Sigma_i) >= lambda_min(Sigma_1) - p Delta_max: Lemma 3.3 with ||Delta||_2 <=
  ||Delta||_F; requires p Delta_max < lambda_min(Sigma_1) (Assumption 1).
* The o(1) term of (15) is unspecified in the paper: it is **set to 0** (a labelled choice: the
  claim is then the paper's explicit bound; any positive o(1) would only loosen it). The
  normalisation factor (1 - P_2[E])/(1 - P_1[E]) of Remark 4.3, which the paper "safely ignores"
  (O(1/n^2)), is not added to the claim either; it is part of the exact ``log_density``.

**Claim**: ``PrivacyClaim(alpha, 0)`` with alpha = :func:`theorem_4_6_alpha` (Theorem 4.6, (15)):

    alpha = m p F / (2 l_i l_1) * (C sqrt(ln(2np)/m) + Delta_max + 2 F ||Sigma_1||_2^2 / (p l_i l_1))

with F = p Delta_max, l_1 = lambda_min(Sigma_1), l_i = l_1 - F. The paper's "delta" in alpha(m, delta)
is its constraint on the distance V between databases (Definition 2.3); here it is Delta_max.

**Exact log density** (both classes), w.r.t. Lebesgue measure on R^{m x p}:
log f_Sigma(Xc) - log(1 - P_Sigma[E]) on the kept set, ``-inf`` on E. P_Sigma[E] has no closed
form; it is bracketed rigorously by :func:`truncation_probability_bounds`: the lower end is the
largest exact probability of one diagonal event (m S_jj / Sigma_jj ~ chi^2_m), the upper end the
union bound over all p(p+1)/2 entries (diagonal: exact chi^2 tails; off-diagonal: a Chernoff bound
for the difference of two scaled chi^2_m variables that m S_jk is). ``log_density`` uses the
midpoint of the resulting interval for -log(1 - P[E]), so it is exact up to
:meth:`log_density_error` (half the interval's width; about 1e-9 at the registry's defaults).
A privacy loss computed from it is within the sum of the two datasets' errors of the true loss;
the audit's verdicts and bounds move by at most that much (far below its epsilon grid spacing).
"""
from __future__ import annotations

import enum
import math

import numpy as np
from scipy import optimize, stats

from dpverify import InvalidArgument, NumericalError, PrivacyClaim
from dpverify import validation as v

__all__ = [
    "C1",
    "C2",
    "C_TRUNCATION",
    "PhiDraw",
    "ZhouRenormalised",
    "ZhouTruncation",
    "chernoff_difference_of_chi2",
    "m_minimum",
    "normalise_columns",
    "theorem_4_6_alpha",
    "truncation_probability_bounds",
]

PAPER = "zhou-compression"

#: Lemma B.1: C_1 = 4e / sqrt(6 pi).
C1 = 4.0 * math.e / math.sqrt(6.0 * math.pi)
#: Lemma B.1: C_2 = sqrt(8) e.
C2 = math.sqrt(8.0) * math.e
#: Condition (12): C = sqrt(2 (C_1 + C_2)) (the reading the proof of Lemma 4.4 uses).
C_TRUNCATION = math.sqrt(2.0 * (C1 + C2))
#: Column norms ||X_j||^2 must equal n within this relative tolerance (rounding of a normalisation).
NORM_TOLERANCE = 1e-9
#: max |Sigma - Sigma_1| may exceed delta_max by this relative amount (rounding), never more.
SET_TOLERANCE = 1e-12
_LOG_2PI = math.log(2.0 * math.pi)
_MAX_ROUNDS = 1000
_PHI_ELEMENTS = 1 << 22  # normals per chunk when drawing the full Phi


class PhiDraw(enum.Enum):
    """How :class:`ZhouTruncation` draws Phi (both give exactly the law of Phi X)."""

    #: The whole m x n matrix Phi, as Procedure 4.1 states it.
    FULL = "full"
    #: Only Phi Q (m x p) for an orthonormal basis Q of the column space of X (same law).
    REDUCED = "reduced"


def m_minimum(n: int, p: int) -> float:
    """The smallest m Lemma 4.4 allows: 2 (C_1 + C_2) ln(2 n p) (``zhou-compression/lemma-4.4``)."""
    return 2.0 * (C1 + C2) * math.log(2.0 * n * p)


def theorem_4_6_alpha(m: int, n: int, p: int, delta_max: float, lambda_min_ref: float,
                      norm_ref: float) -> float:
    """alpha(m, delta) of ``zhou-compression/theorem-4.6`` (15), with the constants of the module docstring.

    ``lambda_min_ref`` and ``norm_ref`` are lambda_min(Sigma_1) and ||Sigma_1||_2. The o(1) term is 0.
    """
    f = p * delta_max  # ||Delta||_F <= p Delta_max, eq. (7)
    l1 = lambda_min_ref
    li = l1 - f  # Lemma 3.3
    if not li > 0:
        raise InvalidArgument(
            f"delta_max={delta_max!r}: p * delta_max = {f!r} must be < lambda_min(Sigma_1) = {l1!r} "
            "(Assumption 1 / Lemma 3.3: every Sigma_i must stay positive definite). Use a smaller delta_max."
        )
    log_term = math.log(2.0 * n * p)
    inner = C_TRUNCATION * math.sqrt(log_term / m) + delta_max + 2.0 * f * norm_ref ** 2 / (p * li * l1)
    return m * p * f / (2.0 * li * l1) * inner


def normalise_columns(x) -> np.ndarray:
    """X with every column rescaled to ||X_j||_2^2 = n (eq. (4), "the first step of our sanitization").

    An explicit, separate step: the mechanisms never rescale their input. A zero column raises.
    """
    arr = v.finite_array("x", x, ndim=2)
    norms = np.linalg.norm(arr, axis=0)
    if np.any(norms == 0):
        j = int(np.flatnonzero(norms == 0)[0])
        raise InvalidArgument(f"x column {j} is zero; it cannot be normalised to ||X_j||^2 = n.")
    return arr * (math.sqrt(arr.shape[0]) / norms)


def chernoff_difference_of_chi2(a: float, b: float, s: float, m: int) -> float:
    """An upper bound on P(a A - b B > s) for independent A, B ~ chi^2_m, a > 0, b >= 0.

    Chernoff: P <= exp(-lam s) (1 - 2 lam a)^(-m/2) (1 + 2 lam b)^(-m/2) for 0 < lam < 1/(2a); the
    exponent is convex in lam and minimised by a root finder. Every lam gives a valid bound, so an
    inexact root only loosens it. Returns 1 when s is not above the mean m (a - b).
    """
    if not (a > 0 and b >= 0):
        raise InvalidArgument(f"a={a!r}, b={b!r}: need a > 0 and b >= 0.")
    if s <= m * (a - b):
        return 1.0

    def exponent(lam):
        return -lam * s - 0.5 * m * math.log1p(-2 * lam * a) - 0.5 * m * math.log1p(2 * lam * b)

    def slope(lam):
        return -s + m * a / (1 - 2 * lam * a) - m * b / (1 + 2 * lam * b)

    hi = (1 - 1e-12) / (2 * a)
    lam = optimize.brentq(slope, 0.0, hi, xtol=1e-15, maxiter=500) if slope(hi) > 0 else hi
    return min(1.0, math.exp(exponent(lam)))


def truncation_probability_bounds(sigma, sigma_ref, threshold: float, m: int) -> tuple[float, float]:
    """(lower, upper) bounds on P_Sigma[E], E = {max_jk |(Xc^T Xc/m)_jk - Sigma_ref(j,k)| > threshold}.

    Rows of Xc i.i.d. N(0, sigma). Lower: the largest exact probability of one diagonal event
    (m S_jj / sigma_jj ~ chi^2_m). Upper: the union bound over the p(p+1)/2 entries, with exact
    chi^2 tails on the diagonal and :func:`chernoff_difference_of_chi2` off it (m S_jk =
    sqrt(s_jj s_kk) ((1+rho)/2 A - (1-rho)/2 B), A, B i.i.d. chi^2_m).
    """
    sigma = np.asarray(sigma, dtype=float)
    ref = np.asarray(sigma_ref, dtype=float)
    p = sigma.shape[0]
    diag = []
    for j in range(p):
        s = sigma[j, j]
        hi = m * (ref[j, j] + threshold) / s
        lo = m * (ref[j, j] - threshold) / s
        prob = float(stats.chi2.sf(hi, m)) + (float(stats.chi2.cdf(lo, m)) if lo > 0 else 0.0)
        diag.append(prob)
    off = 0.0
    for j in range(p):
        for k in range(j + 1, p):
            scale = math.sqrt(sigma[j, j] * sigma[k, k])
            rho = sigma[j, k] / scale
            c1, c2 = (1 + rho) / 2, (1 - rho) / 2
            s_up = m * (ref[j, k] + threshold) / scale
            s_lo = m * (ref[j, k] - threshold) / scale
            off += chernoff_difference_of_chi2(c1, c2, s_up, m)   # m S_jk / scale > s_up
            off += chernoff_difference_of_chi2(c2, c1, -s_lo, m)  # m S_jk / scale < s_lo
    lower = max(diag) if diag else 0.0
    upper = min(1.0, sum(diag) + off)
    return lower, upper


class _ZhouCompression:
    """Shared parts of both procedures: parameters, S_n membership, truncation, exact density."""

    paper = f"{PAPER}/theorem-4.6"

    def __init__(self, reference, m: int, delta_max: float):
        ref = v.finite_array("reference", reference, ndim=2,
                             fix="Pass the reference database X_1 as an (n, p) array (records in rows).")
        n, p = ref.shape
        if not (p >= 1 and n > p):
            raise InvalidArgument(
                f"reference has shape {ref.shape}; the paper needs p < n (n records, p attributes; "
                "'in order to guarantee differential privacy, p < n is required')."
            )
        self._check_normalised("reference", ref)
        self.reference = ref.copy()
        self.reference.setflags(write=False)
        self.n, self.p = n, p
        self.sigma_ref = self._sigma(ref)
        eig = np.linalg.eigvalsh(self.sigma_ref)
        self.lambda_min_ref = float(eig[0])
        self.norm_ref = float(eig[-1])
        if not self.lambda_min_ref > 0:
            raise InvalidArgument(
                f"reference: Sigma_1 = X_1^T X_1 / n has lambda_min = {self.lambda_min_ref!r}; it must be "
                "positive definite (linearly independent columns)."
            )
        self.m = v.integer("m", m, minimum=1)
        m_min = m_minimum(n, p)
        if self.m < m_min:
            raise InvalidArgument(
                f"m={m!r} must be >= 2 (C1 + C2) ln(2np) = {m_min:.4f} for n={n}, p={p} (Lemma 4.4, "
                f"required by Theorem 4.6). Use m >= {math.ceil(m_min)}."
            )
        self.delta_max = v.real("delta_max", delta_max)
        if not 0 < self.delta_max < 1:
            raise InvalidArgument(
                f"delta_max={delta_max!r} must lie in (0, 1) (Delta_max of eqs. (5)-(6); Theorem 3.2 "
                "takes Delta_max < 1)."
            )
        if not self.p * self.delta_max < self.lambda_min_ref:
            raise InvalidArgument(
                f"delta_max={delta_max!r}: p * delta_max = {self.p * self.delta_max!r} must be < "
                f"lambda_min(Sigma_1) = {self.lambda_min_ref!r} (Assumption 1 / Lemma 3.3). Use a smaller "
                "delta_max."
            )
        self.threshold = C_TRUNCATION * math.sqrt(math.log(2.0 * n * p) / self.m) + self.delta_max
        self.alpha = theorem_4_6_alpha(self.m, n, p, self.delta_max, self.lambda_min_ref, self.norm_ref)
        self.claim = PrivacyClaim(self.alpha, 0.0)
        self._cache: dict = {}

    # -- data -------------------------------------------------------------------------------

    @staticmethod
    def _check_normalised(name: str, x: np.ndarray) -> None:
        n = x.shape[0]
        sq = np.einsum("ij,ij->j", x, x)
        bad = np.flatnonzero(np.abs(sq - n) > NORM_TOLERANCE * n)
        if bad.size:
            j = int(bad[0])
            raise InvalidArgument(
                f"{name} column {j} has ||X_j||^2 = {sq[j]!r}; eq. (4) requires every column normalised "
                f"to ||X_j||^2 = n = {n}. Normalise explicitly (dpverify_mechanisms.zhou_compression."
                "normalise_columns); the mechanism never rescales its input."
            )

    @staticmethod
    def _sigma(x: np.ndarray) -> np.ndarray:
        s = x.T @ x / x.shape[0]
        iu = np.triu_indices(s.shape[0], 1)
        s[iu[1], iu[0]] = s[iu]
        return s

    def _state(self, data):
        """(Sigma, cholesky(Sigma), log normaliser, its error) for ``data``, after validation."""
        x = v.finite_array("data", data, ndim=2,
                           fix=f"Pass a database of shape (n, p) = ({self.n}, {self.p}), records in rows.")
        key = x.tobytes() if x.shape == (self.n, self.p) else None
        if key is not None and key in self._cache:
            return self._cache[key]
        if x.shape != (self.n, self.p):
            raise InvalidArgument(
                f"data has shape {x.shape}; this mechanism's databases have shape (n, p) = ({self.n}, {self.p}) "
                "(the reference's shape)."
            )
        self._check_normalised("data", x)
        sigma = self._sigma(x)
        dev = float(np.max(np.abs(sigma - self.sigma_ref)))
        if dev > self.delta_max * (1 + SET_TOLERANCE):
            raise InvalidArgument(
                f"data: max |Sigma - Sigma_1| = {dev!r} exceeds delta_max={self.delta_max!r}; the database is "
                "outside the set S_n this mechanism (and its claim) covers (eq. (6))."
            )
        chol = np.linalg.cholesky(sigma)  # positive definite by Lemma 3.3 (p delta_max < lambda_min)
        lo, hi = truncation_probability_bounds(sigma, self.sigma_ref, self.threshold, self.m)
        if not hi < 1:
            raise NumericalError(f"the bound on P[E] is {hi!r}; the truncated density cannot be normalised.")
        a, b = -math.log1p(-lo), -math.log1p(-hi)  # -log(1 - P[E]) lies in [a, b]
        state = (sigma, chol, 0.5 * (a + b), 0.5 * (b - a), (lo, hi))
        if len(self._cache) >= 16:
            self._cache.pop(next(iter(self._cache)))
        self._cache[key] = state
        return state

    def truncation_probability(self, data) -> tuple[float, float]:
        """Rigorous (lower, upper) bounds on P_Sigma[E] for ``data`` (see :func:`truncation_probability_bounds`)."""
        return self._state(data)[4]

    def log_density_error(self, data) -> float:
        """A bound on |log_density(., data) - true log density| (from the bracket on P[E])."""
        return self._state(data)[3]

    def check_neighbours(self, data, data_prime) -> None:
        """InvalidArgument unless both are in S_n, differ in exactly one row, and one is the reference."""
        self._state(data)
        self._state(data_prime)
        x, y = np.asarray(data, dtype=float), np.asarray(data_prime, dtype=float)
        rows = np.flatnonzero(np.any(x != y, axis=1))
        if rows.size != 1:
            raise InvalidArgument(
                f"data and data_prime differ in {rows.size} rows; neighbours differ in exactly one row "
                "(Definition 2.3, d(D, E) = 1)."
            )
        if not (np.array_equal(x, self.reference) or np.array_equal(y, self.reference)):
            raise InvalidArgument(
                "neither dataset is the reference X_1; Theorem 4.6 bounds the comparison of X_i with X_1 "
                "(Remark 4.7 doubles the bound for two other databases)."
            )

    # -- outputs ----------------------------------------------------------------------------

    def kept(self, outputs) -> np.ndarray:
        """True where an output satisfies condition (12), i.e. lies outside the truncated event E."""
        return self._kept_gram(self._gram(self._outputs(outputs)))

    @staticmethod
    def _gram(out: np.ndarray) -> np.ndarray:
        return np.swapaxes(out, 1, 2) @ out  # Xc^T Xc per output

    def _kept_gram(self, gram: np.ndarray) -> np.ndarray:
        dev = np.max(np.abs(gram / self.m - self.sigma_ref), axis=(1, 2))
        return dev <= self.threshold

    def _outputs(self, outputs) -> np.ndarray:
        out = np.asarray(outputs, dtype=float)
        if out.ndim != 3 or out.shape[1:] != (self.m, self.p):
            raise InvalidArgument(
                f"outputs has shape {out.shape}; it must be (size, {self.m}, {self.p}): compressed "
                "databases Phi X stacked on axis 0."
            )
        return out

    def log_density(self, outputs, data):
        """Exact (up to :meth:`log_density_error`) log density of the truncated, renormalised law (14)."""
        sigma, chol, log_norm, _, _ = self._state(data)
        out = self._outputs(outputs)
        finite = np.all(np.isfinite(out), axis=(1, 2))
        gram = self._gram(np.where(finite[:, None, None], out, 0.0))
        chol_inv = np.linalg.inv(chol)
        precision = chol_inv.T @ chol_inv  # Sigma^{-1}
        quad = np.einsum("jk,njk->n", precision, gram)  # sum_r x_r^T Sigma^{-1} x_r
        logdet = 2.0 * float(np.log(np.diag(chol)).sum())
        logf = -0.5 * quad - 0.5 * self.m * logdet - 0.5 * self.m * self.p * _LOG_2PI
        return np.where(finite & self._kept_gram(gram), logf + log_norm, -np.inf)

    def sample(self, data, size, rng):
        self._state(data)
        size = v.integer("size", size, minimum=1)
        gen = v.as_rng(rng)
        x = np.asarray(data, dtype=float)
        out = self._draw(x, size, gen)
        todo = np.flatnonzero(~self.kept(out))
        rounds = 0
        while todo.size:  # Procedure 4.1: redraw while (12) fails
            rounds += 1
            if rounds > _MAX_ROUNDS:
                raise NumericalError(
                    f"{todo.size} outputs still fail condition (12) after {_MAX_ROUNDS} redraws; "
                    "P[E] is far above the 1/n^2 of Lemma 4.4."
                )
            out[todo] = self._draw(x, todo.size, gen)
            todo = todo[~self.kept(out[todo])]
        return out

    def _draw(self, x, size, gen) -> np.ndarray:  # pragma: no cover - overridden
        raise NotImplementedError

    def _params(self) -> str:
        return f"reference=<({self.n}, {self.p}) array>, m={self.m!r}, delta_max={self.delta_max!r}"


class ZhouTruncation(_ZhouCompression):
    """``zhou-compression/procedure-4.1``: Phi X, Phi_ij ~ N(0, 1/n), Phi redrawn until (12) holds.

    Claims (alpha, 0) with alpha of Theorem 4.6 (see the module docstring for every constant).
    ``phi`` chooses the full m x n draw (default, literal) or the equivalent reduced draw.
    """

    paper = f"{PAPER}/procedure-4.1"

    def __init__(self, reference, m: int, delta_max: float, phi: PhiDraw = PhiDraw.FULL):
        super().__init__(reference, m, delta_max)
        if not isinstance(phi, PhiDraw):
            raise InvalidArgument(f"phi={phi!r} must be a PhiDraw (PhiDraw.FULL or PhiDraw.REDUCED).")
        self.phi = phi

    def _draw(self, x, size, gen):
        sd = 1.0 / math.sqrt(self.n)
        if self.phi is PhiDraw.REDUCED:
            q, r = np.linalg.qr(x)  # x = q r, q (n, p) orthonormal columns
            g = gen.standard_normal((size, self.m, self.p)) * sd  # = Phi q in law
            return g @ r
        per = max(1, _PHI_ELEMENTS // (self.m * self.n))
        parts = []
        for start in range(0, size, per):
            k = min(per, size - start)
            phi = gen.standard_normal((k, self.m, self.n)) * sd
            parts.append(phi @ x)
        return np.concatenate(parts)

    def __repr__(self) -> str:
        extra = "" if self.phi is PhiDraw.FULL else f", phi={self.phi}"
        return f"ZhouTruncation({self._params()}{extra})"


class ZhouRenormalised(_ZhouCompression):
    """``zhou-compression/procedure-4.2``: the renormalised density (14), f_Sigma / (1 - P[E]) off E.

    Draws rows N(0, Sigma) with a Cholesky factor and rejects outputs in E (the same law as
    :class:`ZhouTruncation`). Claims (alpha, 0) with alpha of Theorem 4.6.
    """

    paper = f"{PAPER}/procedure-4.2"

    def _draw(self, x, size, gen):
        chol = self._state(x)[1]
        z = gen.standard_normal((size, self.m, self.p))
        return z @ chol.T

    def __repr__(self) -> str:
        return f"ZhouRenormalised({self._params()})"
