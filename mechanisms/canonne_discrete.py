"""Discrete Laplace and discrete Gaussian noise by exact sampling.

Reference: C. Canonne, G. Kamath, T. Steinke, *The Discrete Gaussian for Differential Privacy*,
NeurIPS 2020 (paper key ``cks-discrete``), Section 5: Algorithm 1 (Bernoulli(exp(-gamma)) for
rational gamma, with only integer arithmetic), Algorithm 2 (discrete Laplace with scale s/t) and
Algorithm 3 (discrete Gaussian by rejection from a discrete Laplace). Every random choice here is
a uniform integer compared with an integer (``Generator.integers``), so the outputs have exactly
the stated laws, with no floating-point rounding for a bit-pattern attack to exploit
(Mironov 2012); the algorithms are vectorised over the batch (rejection loops run on the
not-yet-accepted rows).

* :class:`DiscreteLaplaceCKS`: ``f(D) + Z`` with P(Z = z) proportional to exp(-eps |z| / Delta):
  eps-DP for integer answers at distance <= Delta (Ghosh et al. 2009; CKS Sec. 5).
* :class:`DiscreteGaussianCKS`: ``f(D) + Z`` with P(Z = z) proportional to exp(-z^2 / (2 sigma^2)):
  (eps, delta)-DP with delta(eps) given exactly by CKS Theorem 7 for integer answers at distance
  Delta; the claim is the (eps, delta) of the constructor, checked at construction against the
  exact formula (summed with mpmath over the support).

Both are black-box (no ``log_density``): the audit sees samples only.
"""
from __future__ import annotations

import math
from fractions import Fraction

import mpmath
import numpy as np

from dpverify import InvalidArgument, PrivacyClaim
from dpverify import validation as v

__all__ = ["DiscreteLaplaceCKS", "DiscreteGaussianCKS", "bernoulli_exp", "discrete_laplace", "discrete_gaussian"]

PAPER = "cks-discrete"


def _rational(name: str, x, limit: int = 1 << 20) -> Fraction:
    f = Fraction(x).limit_denominator(limit) if not isinstance(x, Fraction) else x
    if not f > 0:
        raise InvalidArgument(f"{name}={x!r} must be positive.")
    return f


def _bernoulli(rng: np.random.Generator, num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """Bernoulli(num/den) for integer arrays, exactly: a uniform integer in [0, den) below num."""
    return rng.integers(0, den) < num


def _bernoulli_exp_unit(rng, num: int, den: int, n: int) -> np.ndarray:
    """Bernoulli(exp(-num/den)) for 0 <= num/den <= 1 (CKS Algorithm 1, first case), vectorised."""
    k = np.ones(n, dtype=np.int64)
    active = np.ones(n, dtype=bool)
    while active.any():
        idx = np.flatnonzero(active)
        a = _bernoulli(rng, np.full(idx.size, num, dtype=np.int64), den * k[idx])
        k[idx[a]] += 1
        active[idx[~a]] = False
    return (k % 2) == 1


def bernoulli_exp(rng: np.random.Generator, gamma: Fraction, n: int) -> np.ndarray:
    """n independent Bernoulli(exp(-gamma)) for a rational gamma >= 0 (CKS Algorithm 1)."""
    gamma = Fraction(gamma)
    out = np.ones(n, dtype=bool)
    whole = math.floor(gamma)
    for _ in range(whole):
        idx = np.flatnonzero(out)
        if idx.size == 0:
            return out
        out[idx[~_bernoulli_exp_unit(rng, 1, 1, idx.size)]] = False
    frac = gamma - whole
    idx = np.flatnonzero(out)
    if idx.size and frac > 0:
        out[idx[~_bernoulli_exp_unit(rng, frac.numerator, frac.denominator, idx.size)]] = False
    return out


def _bernoulli_exp_array(rng, num: np.ndarray, den: int) -> np.ndarray:
    """Bernoulli(exp(-num_i/den)) per row, num_i >= 0 integers (whole parts, then the fraction)."""
    n = num.size
    out = np.ones(n, dtype=bool)
    whole = num // den
    rem = num - whole * den
    step = 0
    while True:
        idx = np.flatnonzero(out & (whole > step))
        if idx.size == 0:
            break
        out[idx[~_bernoulli_exp_unit(rng, 1, 1, idx.size)]] = False
        step += 1
    for r in np.unique(rem[out & (rem > 0)]):
        idx = np.flatnonzero(out & (rem == r))
        out[idx[~_bernoulli_exp_unit(rng, int(r), den, idx.size)]] = False
    return out


def discrete_laplace(rng: np.random.Generator, scale: Fraction, n: int) -> np.ndarray:
    """n draws of the discrete Laplace with P(z) proportional to exp(-|z|/scale) (CKS Algorithm 2)."""
    scale = Fraction(scale)
    # CKS Algorithm 2 with parameters (s, t) has P(z) proportional to exp(-|z| s / t): t/s = scale
    t, s = scale.numerator, scale.denominator
    out = np.zeros(n, dtype=np.int64)
    todo = np.arange(n)
    while todo.size:
        m = todo.size
        u = rng.integers(0, t, m)
        ok = _bernoulli_exp_array(rng, u, t)
        vv = np.zeros(m, dtype=np.int64)
        going = ok.copy()
        while going.any():
            idx = np.flatnonzero(going)
            b = bernoulli_exp(rng, Fraction(1), idx.size)
            vv[idx[b]] += 1
            going[idx[~b]] = False
        x = u + t * vv
        y = x // s
        sign = rng.integers(0, 2, m)
        accept = ok & ~((sign == 1) & (y == 0))
        out[todo[accept]] = np.where(sign[accept] == 1, -y[accept], y[accept])
        todo = todo[~accept]
    return out


def discrete_gaussian(rng: np.random.Generator, sigma2: Fraction, n: int) -> np.ndarray:
    """n draws of the discrete Gaussian N_Z(0, sigma2) for rational sigma2 > 0 (CKS Algorithm 3)."""
    sigma2 = Fraction(sigma2)
    t = math.floor(math.isqrt(sigma2.numerator // sigma2.denominator)) + 1
    out = np.zeros(n, dtype=np.int64)
    todo = np.arange(n)
    while todo.size:
        y = discrete_laplace(rng, Fraction(t), todo.size)
        # accept with prob exp(-(|y| - sigma2/t)^2 / (2 sigma2)); the exponent is rational:
        # ((|y| t - sigma2)^2 / t^2) / (2 sigma2) = (|y| t q - p)^2 / (2 p q t^2) with sigma2 = p/q
        p, q = sigma2.numerator, sigma2.denominator
        num = (np.abs(y) * t * q - p) ** 2
        den = 2 * p * q * t * t
        accept = _bernoulli_exp_array(rng, num.astype(np.int64), den)
        out[todo[accept]] = y[accept]
        todo = todo[~accept]
    return out


def _integer(data) -> int:
    if isinstance(data, bool) or not isinstance(data, (int, np.integer)):
        raise InvalidArgument(f"data={data!r} must be an integer query answer (this mechanism releases integers).")
    return int(data)


class DiscreteLaplaceCKS:
    """``f(D) + Z``, Z discrete Laplace of scale ``sensitivity / epsilon`` (CKS Algorithm 2).

    ``epsilon`` is used as the nearest fraction with denominator <= 2^20 (stated in ``epsilon``
    after construction). eps-DP for integer answers at distance <= ``sensitivity``.
    """

    paper = f"{PAPER}/algorithm-2"

    def __init__(self, epsilon: float, sensitivity: int = 1):
        v.positive("epsilon", epsilon)
        self.sensitivity = v.integer("sensitivity", sensitivity, minimum=1)
        self.epsilon_exact = _rational("epsilon", epsilon)
        self.epsilon = float(self.epsilon_exact)
        self.claim = PrivacyClaim(self.epsilon)

    def __repr__(self) -> str:
        return f"DiscreteLaplaceCKS(epsilon={self.epsilon!r}, sensitivity={self.sensitivity!r})"

    def sample(self, data, size, rng):
        f = _integer(data)
        n = v.integer("size", size, minimum=1)
        return f + discrete_laplace(v.as_rng(rng), Fraction(self.sensitivity) / self.epsilon_exact, n)

    def true_epsilon(self, k: int = 1) -> float:
        return self.epsilon


def discrete_gaussian_delta(sigma2: float, sensitivity: int, epsilon: float) -> float:
    """Exact delta(eps) of the discrete Gaussian mechanism (CKS Theorem 7), summed with mpmath.

    delta = P[Z > eps sigma^2/Delta - Delta/2] - e^eps P[Z > eps sigma^2/Delta + Delta/2], Z ~ N_Z(0, sigma2).
    """
    with mpmath.mp.workdps(30):  # local precision: never the caller's global mpmath setting
        s2 = mpmath.mpf(sigma2)
        reach = int(mpmath.ceil(40 * mpmath.sqrt(s2))) + 10
        w = {z: mpmath.e ** (-mpmath.mpf(z) ** 2 / (2 * s2)) for z in range(-reach, reach + 1)}
        total = mpmath.fsum(w.values())
        a = mpmath.mpf(epsilon) * s2 / sensitivity - mpmath.mpf(sensitivity) / 2
        b = mpmath.mpf(epsilon) * s2 / sensitivity + mpmath.mpf(sensitivity) / 2
        tail = lambda c: mpmath.fsum(x for z, x in w.items() if z > c) / total  # noqa: E731
        return float(tail(a) - mpmath.e ** epsilon * tail(b))


class DiscreteGaussianCKS:
    """``f(D) + Z``, Z ~ N_Z(0, sigma2) (CKS Algorithm 3). Claim (epsilon, delta) with delta
    at least the exact delta(epsilon) of CKS Theorem 7 (checked at construction)."""

    paper = f"{PAPER}/algorithm-3"

    def __init__(self, sigma2: float, epsilon: float, delta: float, sensitivity: int = 1):
        v.positive("sigma2", sigma2)
        self.sigma2_exact = _rational("sigma2", sigma2)
        self.sigma2 = float(self.sigma2_exact)
        self.sensitivity = v.integer("sensitivity", sensitivity, minimum=1)
        exact = discrete_gaussian_delta(self.sigma2, self.sensitivity, epsilon)
        if not delta >= exact:
            raise InvalidArgument(f"delta={delta!r} is below the exact delta({epsilon}) = {exact:.6g} of the discrete "
                                  f"Gaussian with sigma2={sigma2!r} (CKS Theorem 7); use delta >= {exact:.6g}.")
        self.claim = PrivacyClaim(epsilon, delta)

    def __repr__(self) -> str:
        return (f"DiscreteGaussianCKS(sigma2={self.sigma2!r}, epsilon={self.claim.epsilon!r}, "
                f"delta={self.claim.delta!r}, sensitivity={self.sensitivity!r})")

    def sample(self, data, size, rng):
        f = _integer(data)
        n = v.integer("size", size, minimum=1)
        return f + discrete_gaussian(v.as_rng(rng), self.sigma2_exact, n)
