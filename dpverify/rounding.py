"""Number formatting that respects the direction of a bound (internal)."""
from __future__ import annotations

import math
import sys
from decimal import ROUND_CEILING, ROUND_FLOOR, Decimal

__all__ = ["fmt_num", "fmt_lower", "fmt_upper"]


def fmt_num(x: float, digits: int = 4) -> str:
    if isinstance(x, float) and math.isinf(x):
        return "inf" if x > 0 else "-inf"
    return f"{x:.{digits}g}"


def _round_sig(x: float, digits: int, rounder) -> str:
    """``x`` to ``digits`` significant digits, rounded by ``rounder`` (math.floor or math.ceil), in exact
    decimal arithmetic (no float scaling: subnormal and huge values round the right way too)."""
    if math.isinf(x) or x == 0 or math.isnan(x):
        return fmt_num(x, digits)
    d = Decimal(x)  # exact
    exp = d.adjusted() - digits + 1
    mode = ROUND_FLOOR if rounder is math.floor else ROUND_CEILING
    q = d.scaleb(-exp).to_integral_value(rounding=mode).scaleb(exp)
    f = float(q)  # the nearest float to a `digits`-digit decimal prints back as that decimal when normal
    if abs(f) >= sys.float_info.min:
        return f"{f:.{digits}g}"
    return f"{q:.{digits}g}"  # subnormal: print the decimal itself (a float would have too few digits)


def fmt_lower(x: float, digits: int = 4) -> str:
    """``x`` to ``digits`` significant digits, rounded **down** (a lower bound must not grow)."""
    return _round_sig(x, digits, math.floor)


def fmt_upper(x: float, digits: int = 4) -> str:
    """``x`` to ``digits`` significant digits, rounded **up** (an upper bound must not shrink)."""
    return _round_sig(x, digits, math.ceil)
