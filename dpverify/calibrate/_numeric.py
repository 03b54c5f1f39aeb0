"""Directed rounding of high-precision values to floats (internal)."""
from __future__ import annotations

import math

import mpmath

__all__ = ["round_up"]


def round_up(x) -> float:
    """The smallest float >= ``x`` (an mpmath number): an upper bound stays an upper bound."""
    f = float(x)
    if mpmath.mpf(f) < x:
        f = math.nextafter(f, math.inf)
    return f
