"""Number formatting that respects the direction of a bound (internal)."""
from __future__ import annotations

import math

__all__ = ["fmt_num", "fmt_lower", "fmt_upper"]


def fmt_num(x: float, digits: int = 4) -> str:
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.{digits}g}"


def _round_sig(x: float, digits: int, rounder) -> str:
    if math.isinf(x) or x == 0:
        return fmt_num(x, digits)
    exp = math.floor(math.log10(abs(x))) - digits + 1
    return f"{rounder(x / 10.0**exp) * 10.0**exp:.{digits}g}"


def fmt_lower(x: float, digits: int = 4) -> str:
    """``x`` to ``digits`` significant digits, rounded **down** (a lower bound must not grow)."""
    return _round_sig(x, digits, math.floor)


def fmt_upper(x: float, digits: int = 4) -> str:
    """``x`` to ``digits`` significant digits, rounded **up** (an upper bound must not shrink)."""
    return _round_sig(x, digits, math.ceil)
