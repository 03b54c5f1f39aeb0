"""Bit-pattern features of floating-point outputs (Mironov 2012, "least significant bits").

A textbook floating-point sampler ``f(D) + noise`` reaches different sets of doubles for
different ``f(D)``: ``fl(1 + y)`` is a multiple of 2^-53 whenever it is below 1 in magnitude,
while ``0 + y`` carries all 53 bits of ``y``. So the *granularity* of an output - the exponent of
its lowest set bit, ``g(x) = max{k : x is a multiple of 2^k}`` - separates the two datasets
without any repeated output (I. Mironov, *On Significance of the Least Significant Bits for
Differential Privacy*, CCS 2012, Sec. 3-4).

:func:`granularity` computes g row-wise (the minimum over the coordinates of a vector output).
Zeros and infinities have no lowest set bit; they get :data:`NO_BITS` (above every finite g).
The half-line events ``g <= t`` built on it are functions of the output, so every bound certified
on them is valid whatever the mechanism; they only add power.
"""
from __future__ import annotations

import numpy as np

__all__ = ["granularity", "NO_BITS"]

#: Granularity given to 0 and +-inf (no lowest set bit).
NO_BITS = 2048.0

_MANTISSA = np.uint64((1 << 52) - 1)


def _trailing_zeros(m: np.ndarray) -> np.ndarray:
    """Trailing zero bits of uint64 values (64 for 0), by binary search on masks."""
    tz = np.zeros(m.shape, dtype=np.int64)
    x = m.copy()
    zero = x == 0
    for shift in (32, 16, 8, 4, 2, 1):
        mask = np.uint64((1 << shift) - 1)
        low_empty = (x & mask) == 0
        tz += np.where(low_empty, shift, 0)
        x = np.where(low_empty, x >> np.uint64(shift), x)
    return np.where(zero, 64, tz)


def granularity(values: np.ndarray) -> np.ndarray:
    """Row-wise min over coordinates of the exponent of the lowest set bit (float64 outputs).

    ``values``: float array of shape (n,) or (n, d). Returns float64 of shape (n,).
    """
    x = np.asarray(values, dtype=np.float64)
    n = x.shape[0]
    x = x.reshape(n, -1)
    bits = np.abs(x).view(np.uint64)
    exp = ((bits >> np.uint64(52)) & np.uint64(0x7FF)).astype(np.int64)
    mant = bits & _MANTISSA
    # normal: value = (2^52 + mant) * 2^(exp - 1075); subnormal (exp 0): mant * 2^-1074
    full = np.where(exp > 0, mant | np.uint64(1 << 52), mant)
    g = _trailing_zeros(full) + np.where(exp > 0, exp - 1075, -1074)
    g = np.where((x == 0) | ~np.isfinite(x), NO_BITS, g.astype(np.float64))
    return g.min(axis=1)
