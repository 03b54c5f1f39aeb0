"""Helpers shared by the subcommands (internal)."""
from __future__ import annotations

import importlib
import json
import secrets
import sys
from typing import Any

from ..auditing.result import jsonable
from .._format import fmt_lower, fmt_num, fmt_upper  # noqa: F401  (re-exported for subcommands)
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


def table(headers: list[str], rows: list[list[str]]) -> str:
    """A plain aligned text table."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    return "\n".join(out)
