"""Argument checks shared by the package, its adapters and user registries (public: `dpverify.validation`).

All checks are NaN-safe (``if not (x > 0)`` rejects NaN) and raise
:class:`~dpverify.errors.InvalidArgument` with ``name=value``, the rule and a fix.
Nothing is clipped or coerced silently.
"""
from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np

from .errors import InvalidArgument

__all__ = [
    "real",
    "positive",
    "nonnegative",
    "probability",
    "open_unit",
    "integer",
    "as_rng",
    "finite_array",
]


def _fmt(value: Any) -> str:
    try:
        return repr(value)
    except Exception:  # pragma: no cover - repr of exotic objects
        return f"<{type(value).__name__}>"


def real(name: str, value: Any, *, fix: str = "") -> float:
    """``value`` as a finite float, or InvalidArgument (bool, str, NaN and inf are rejected)."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Real, np.floating, np.integer)):
        raise InvalidArgument(
            f"{name}={_fmt(value)} must be a real number, not {type(value).__name__}. {fix}".rstrip()
        )
    x = float(value)
    if not math.isfinite(x):
        raise InvalidArgument(f"{name}={_fmt(value)} must be finite (NaN and infinity are rejected). {fix}".rstrip())
    return x


def positive(name: str, value: Any, *, fix: str = "") -> float:
    """A finite float > 0."""
    x = real(name, value, fix=fix)
    if not x > 0:
        raise InvalidArgument(f"{name}={_fmt(value)} must be > 0. {fix}".rstrip())
    return x


def nonnegative(name: str, value: Any, *, fix: str = "") -> float:
    """A finite float >= 0."""
    x = real(name, value, fix=fix)
    if not x >= 0:
        raise InvalidArgument(f"{name}={_fmt(value)} must be >= 0. {fix}".rstrip())
    return x


def probability(name: str, value: Any, *, low_open: bool = False, high_open: bool = True, fix: str = "") -> float:
    """A float in [0, 1) by default; ``low_open``/``high_open`` choose which ends are excluded."""
    x = real(name, value, fix=fix)
    lo_ok = x > 0 if low_open else x >= 0
    hi_ok = x < 1 if high_open else x <= 1
    if not (lo_ok and hi_ok):
        interval = ("(" if low_open else "[") + "0, 1" + (")" if high_open else "]")
        raise InvalidArgument(f"{name}={_fmt(value)} must lie in {interval}. {fix}".rstrip())
    return x


def open_unit(name: str, value: Any, *, fix: str = "") -> float:
    """A float in the open interval (0, 1)."""
    return probability(name, value, low_open=True, high_open=True, fix=fix)


def integer(name: str, value: Any, *, minimum: int | None = None, fix: str = "") -> int:
    """An int (bool and non-integral floats rejected), at least ``minimum`` if given."""
    if isinstance(value, bool) or not isinstance(value, (numbers.Integral, np.integer)):
        raise InvalidArgument(
            f"{name}={_fmt(value)} must be an integer, not {type(value).__name__}. {fix}".rstrip()
        )
    n = int(value)
    if minimum is not None and n < minimum:
        raise InvalidArgument(f"{name}={_fmt(value)} must be at least {minimum}. {fix}".rstrip())
    return n


def as_rng(rng: Any, name: str = "rng") -> np.random.Generator:
    """A ``numpy.random.Generator`` from a Generator, an int seed (>= 0) or None (fresh entropy)."""
    if rng is None:
        return np.random.default_rng()
    if isinstance(rng, np.random.Generator):
        return rng
    if isinstance(rng, (numbers.Integral, np.integer)) and not isinstance(rng, bool):
        if int(rng) < 0:
            raise InvalidArgument(f"{name}={rng!r} must be a seed >= 0, a numpy.random.Generator, or None.")
        return np.random.default_rng(int(rng))
    raise InvalidArgument(
        f"{name}={_fmt(rng)} must be a numpy.random.Generator, an int seed >= 0, or None "
        f"(got {type(rng).__name__}). Pass numpy.random.default_rng(seed)."
    )


def finite_array(name: str, value: Any, *, ndim: int | tuple[int, ...] | None = None, fix: str = "") -> np.ndarray:
    """``value`` as a float64 array whose entries are all finite, with the given ndim."""
    try:
        arr = np.asarray(value, dtype=float)
    except (TypeError, ValueError) as exc:
        raise InvalidArgument(f"{name} must be convertible to a float array ({exc}). {fix}".rstrip()) from None
    if ndim is not None:
        allowed = (ndim,) if isinstance(ndim, int) else tuple(ndim)
        if arr.ndim not in allowed:
            raise InvalidArgument(
                f"{name} has shape {arr.shape} (ndim={arr.ndim}); it must have ndim in {allowed}. {fix}".rstrip()
            )
    if not np.all(np.isfinite(arr)):
        bad = np.argwhere(~np.isfinite(arr))[0]
        raise InvalidArgument(
            f"{name} has a non-finite entry at index {tuple(int(i) for i in bad)}: "
            f"{arr[tuple(bad)]!r}; every entry must be finite. {fix}".rstrip()
        )
    return arr
