"""Helpers shared by the subcommands (internal)."""
from __future__ import annotations

import importlib
import json
import math
import secrets
import sys
from typing import Any

from ..audit.result import jsonable
from ..errors import InvalidArgument


def load_object(spec: str, what: str, *, call: bool) -> Any:
    """``MODULE:ATTR`` (ATTR may be dotted). A zero-argument callable is called when ``call`` says so."""
    if not isinstance(spec, str) or spec.count(":") != 1:
        raise InvalidArgument(f"{what}={spec!r} must be written MODULE:ATTR, e.g. mypkg.mechs:my_laplace.")
    mod_name, attr = spec.split(":")
    try:
        obj = importlib.import_module(mod_name)
    except ImportError as exc:
        raise InvalidArgument(f"{what}={spec!r}: cannot import module {mod_name!r} ({exc}).") from None
    for part in attr.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise InvalidArgument(f"{what}={spec!r}: module {mod_name!r} has no attribute {attr!r}.") from None
    if call(obj) if callable(call) else (call and callable(obj)):
        obj = obj()
    return obj


def new_seed() -> int:
    """A fresh seed that the output prints, so that any run can be reproduced."""
    return secrets.randbits(63)


def print_json(doc: Any) -> None:
    json.dump(jsonable(doc), sys.stdout, indent=2, allow_nan=False)
    sys.stdout.write("\n")


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


def table(headers: list[str], rows: list[list[str]]) -> str:
    """A plain aligned text table."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    return "\n".join(out)
