"""Shared pieces of the reference mechanisms (internal): additive noise on a query answer."""
from __future__ import annotations

import math
from typing import Any, Callable

import numpy as np

from dpverify import InvalidArgument
from dpverify import _validate as v

LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


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
