"""Shared pieces of the reference mechanisms (internal): additive noise on a query answer."""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from dpverify import InvalidArgument
from dpverify import validation as v

LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


# --- Audit helpers: importance-sampling proposals, high-precision and gradient log densities ---
# (optional protocol methods of dpverify's white-box audit; see docs/auditing.md)


class ShiftedGaussianProposal:
    """N(center, sigma^2 I): the mechanism's noise law moved to where the privacy loss is large."""

    def __init__(self, center: np.ndarray, sigma: float):
        self.center, self.sigma = center, sigma

    def sample(self, size, rng):
        return self.center + self.sigma * rng.standard_normal(size=(size, *self.center.shape))

    def log_density(self, outputs):
        k = max(1, self.center.size)
        z = ((np.asarray(outputs, dtype=float) - self.center) / self.sigma).reshape(len(outputs), -1)
        return -0.5 * np.einsum("ij,ij->i", z, z) - k * (math.log(self.sigma) + LOG_SQRT_2PI)


class ShiftedLaplaceProposal:
    """i.i.d. Laplace(center_k, scale): the mechanism's noise law moved away from data_prime."""

    def __init__(self, center: np.ndarray, scale: float):
        self.center, self.scale = center, scale

    def sample(self, size, rng):
        return self.center + rng.laplace(0.0, self.scale, size=(size, *self.center.shape))

    def log_density(self, outputs):
        k = max(1, self.center.size)
        dev = np.abs(np.asarray(outputs, dtype=float) - self.center).reshape(len(outputs), -1).sum(axis=1)
        return -k * math.log(2 * self.scale) - dev / self.scale


def _gaussian_shift(t: float, a: float, sigma: float) -> float:
    """The mode x > t of exp(-x^2 / (2 sigma^2)) (1 - exp(-a (x - t))): where p_D g_eps peaks."""
    from scipy.optimize import brentq

    def h(x):
        return -x / sigma**2 + a / math.expm1(a * (x - t))

    lo = t + 1e-9 * (abs(t) + sigma)
    hi = max(t, 0.0) + sigma + 1.0 / a
    while h(hi) > 0:
        hi = 2 * hi + sigma
    return brentq(h, lo, hi, xtol=1e-12 * (abs(hi) + sigma))


def _gaussian_proposal(self, data, data_prime, epsilon):
    """Importance-sampling proposal for delta(epsilon) of data vs data_prime (dpverify protocol).

    The loss is linear along e = (f(D) - f(D'))/||f(D) - f(D')||: L > eps iff <o - f(D), e> > t with
    t = (eps sigma^2 - ||Delta||^2 / 2) / ||Delta||. The proposal is the noise law shifted along e to
    the mode of p_D(o) (1 - e^(eps - L(o)))_+; it covers the whole space, so the weighted
    estimator is unbiased.
    """
    c, c2 = self.answer(data), self.answer(data_prime)
    delta = c - c2
    nd = float(np.linalg.norm(delta))
    if not nd > 0:
        return None
    t = (epsilon * self.sigma**2 - nd * nd / 2) / nd
    s = _gaussian_shift(t, nd / self.sigma**2, self.sigma)
    return ShiftedGaussianProposal(c + s * delta / nd, self.sigma)


def _laplace_proposal(self, data, data_prime, epsilon):
    """Importance-sampling proposal: each coordinate's Laplace law moved by f(D)_k - f(D')_k, away
    from data_prime (where every coordinate's loss term is at its maximum). Full support."""
    c, c2 = self.answer(data), self.answer(data_prime)
    if not np.any(c != c2):
        return None
    return ShiftedLaplaceProposal(c + (c - c2), self.scale)


def _gaussian_log_density_mp(self, output, data, dps):
    """log p(output | data) of one output at ``dps`` digits (mpmath), for the precision fallback."""
    import mpmath

    c = np.ravel(self.answer(data))
    o = np.ravel(np.asarray(output, dtype=float))
    with mpmath.workdps(dps):
        s = mpmath.mpf(self.sigma)
        q = mpmath.fsum(((mpmath.mpf(float(x)) - mpmath.mpf(float(y))) / s) ** 2 for x, y in zip(o, c))
        k = max(1, c.size)
        return -q / 2 - k * (mpmath.log(s) + mpmath.log(2 * mpmath.pi) / 2)


def _laplace_log_density_mp(self, output, data, dps):
    """log p(output | data) of one output at ``dps`` digits (mpmath), for the precision fallback."""
    import mpmath

    c = np.ravel(self.answer(data))
    o = np.ravel(np.asarray(output, dtype=float))
    with mpmath.workdps(dps):
        b = mpmath.mpf(self.scale)
        dev = mpmath.fsum(abs(mpmath.mpf(float(x)) - mpmath.mpf(float(y))) for x, y in zip(o, c))
        k = max(1, c.size)
        return -k * mpmath.log(2 * b) - dev / b


def _grad_check(self, outputs, data):
    if self.query is not None:
        raise NotImplementedError("the gradient with respect to the raw dataset is unknown when a query is set")
    c = self.answer(data)
    return self.outputs_for(outputs, c), c


def _gaussian_grad(self, outputs, data):
    """d log p(o | data) / d data = (o - f(D)) / sigma^2 (data is the query answer); shape (size, *shape)."""
    out, c = _grad_check(self, outputs, data)
    return (out - c) / self.sigma**2


def _laplace_grad(self, outputs, data):
    """d log p(o | data) / d data = sign(o - f(D)) / scale (data is the query answer)."""
    out, c = _grad_check(self, outputs, data)
    return np.sign(out - c) / self.scale


def _space(norm_name):
    def neighbour_space(self):
        """Neighbours for dpverify's search: any change of the query answer of ``norm`` <= sensitivity.

        None when a ``query`` is set (the raw-dataset neighbour relation is then unknown) or the
        mechanism has no ``sensitivity``.
        """
        sens = getattr(self, "sensitivity", None)
        if self.query is not None or sens is None:
            return None
        from dpverify.auditing.neighbours import NeighbourSpace, Norm, Unit

        return NeighbourSpace(Unit.WHOLE, getattr(Norm, norm_name), float(sens), self.claim.relation)

    return neighbour_space


class AdditiveNoise:
    """M(D) = f(D) + noise, with f the identity unless ``query`` is given.

    ``data`` (after ``query``) must be a finite array of shape ``shape`` (``()`` for a scalar
    release). Outputs are stacked on axis 0: shape ``(size, *shape)``.
    """

    shape: tuple[int, ...] | None = None  # None: any shape, fixed per call by the data

    def __init__(self, query: Callable[[Any], Any] | None = None):
        if query is not None and not callable(query):
            raise InvalidArgument(f"query={query!r} must be callable (dataset -> array) or None.")
        self.query = query

    def answer(self, data: Any) -> np.ndarray:
        value = data if self.query is None else self.query(data)
        arr = v.finite_array("data" if self.query is None else "query(data)", value)
        if self.shape is not None and arr.shape != self.shape:
            raise InvalidArgument(
                f"data has shape {arr.shape}; {type(self).__name__} releases shape {self.shape}. "
                "Pass data of that shape (or a query that returns it)."
            )
        return arr

    def outputs_for(self, outputs: Any, center: np.ndarray) -> np.ndarray:
        out = np.asarray(outputs, dtype=float)
        if out.ndim != center.ndim + 1 or out.shape[1:] != center.shape:
            raise InvalidArgument(
                f"outputs has shape {out.shape}; for data of shape {center.shape} it must have shape "
                f"(size, {', '.join(map(str, center.shape))}{',' if len(center.shape) == 1 else ''})"
                .replace("(size, )", "(size,)")
                + ": outputs stacked on axis 0."
            )
        return out

    def _size(self, size: Any) -> int:
        return v.integer("size", size, minimum=1)

    def _rng(self, rng: Any) -> np.random.Generator:
        return v.as_rng(rng)


class LaplaceNoise(AdditiveNoise):
    """Adds i.i.d. Laplace(0, scale) noise to every coordinate of f(D)."""

    scale: float

    def sample(self, data, size, rng):
        center = self.answer(data)
        n = self._size(size)
        return center + self._rng(rng).laplace(0.0, self.scale, size=(n, *center.shape))

    def log_density(self, outputs, data):
        center = self.answer(data)
        out = self.outputs_for(outputs, center)
        k = max(1, center.size)
        dev = np.abs(out - center).reshape(out.shape[0], -1).sum(axis=1)
        return -k * math.log(2 * self.scale) - dev / self.scale

    proposal = _laplace_proposal
    log_density_mp = _laplace_log_density_mp
    grad_log_density = _laplace_grad
    neighbour_space = _space("L1")


class GaussianNoise(AdditiveNoise):
    """Adds i.i.d. N(0, sigma^2) noise to every coordinate of f(D)."""

    sigma: float

    def sample(self, data, size, rng):
        center = self.answer(data)
        n = self._size(size)
        return center + self.sigma * self._rng(rng).standard_normal(size=(n, *center.shape))

    def log_density(self, outputs, data):
        center = self.answer(data)
        out = self.outputs_for(outputs, center)
        k = max(1, center.size)
        z = ((out - center) / self.sigma).reshape(out.shape[0], -1)
        return -0.5 * np.einsum("ij,ij->i", z, z) - k * (math.log(self.sigma) + LOG_SQRT_2PI)

    proposal = _gaussian_proposal
    log_density_mp = _gaussian_log_density_mp
    grad_log_density = _gaussian_grad
    neighbour_space = _space("L2")
