"""Outputs of a black-box mechanism as outcome codes and numeric features; events on them.

A black-box audit only sees outputs. This module turns ``size`` outputs (one ``sample`` call)
into a :class:`OutputTable`:

* ``codes`` - one ``uint64`` per output that identifies the *exact* outcome: the bytes of a
  numeric row (so a float is identified by its exact bits, ``-0.0`` differs from ``0.0``), or a
  canonical text of a structured output. Codes are a deterministic hash; two outcomes that
  collide are merged, which is harmless: every event built on codes is a function of the output,
  so its certified bound stays valid.
* ``features`` - real 1-D post-processings, shape ``(size, f)``: each coordinate of a numeric
  output (up to :data:`MAX_COORDINATES`), and their sum, maximum and minimum; for structured
  outputs the numbers found in it, in reading order ("number[0]" is the first number), their sum
  and how many there are. Missing numbers are ``-inf``.
  With ``float_bits``, float outputs also get the feature ``granularity`` (the exponent of the
  lowest set bit, min over coordinates: :mod:`dpverify.auditing.blackbox.floatbits`); vectors get the
  consecutive differences of their first coordinates.
* ``skeleton`` - for structured outputs, the code of the output with every number masked (which
  branch the mechanism took; ``0`` for plain numeric outputs).

**Outcomes of their own.** Structured outputs (an object array) may hold ``None``, booleans,
integers, floats, strings, tuples/lists/arrays of these, and *exception instances*: an exception
returned as an output is the outcome ``error:<TypeName>`` (its message is ignored, as messages
often carry addresses or timings). A ``sample`` that *raises* is handled by the black-box audit
the same way: each output whose draw raised is the outcome ``error:<TypeName>``. NaN anywhere in
an output is a MechanismError too (a NaN is never a valid release); infinities are outcomes.

Events (:class:`HalfLine`, :class:`OutcomeSet`, :class:`ScoreAbove`) are immutable and say in
words what they contain (``describe()``).
"""
from __future__ import annotations

import hashlib
import math
import numbers
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...errors import MechanismError
from .floatbits import granularity
from .values import error_fields

__all__ = ["OutputTable", "to_table", "HalfLine", "OutcomeSet", "ScoreAbove", "RaisedDraw", "MAX_COORDINATES"]

#: Coordinates of a numeric output used as separate features (the rest enter sum/max/min only).
MAX_COORDINATES = 32
#: Numbers of a structured output used as separate features.
MAX_NUMBERS = 16

_MASK = np.uint64(0xFFFFFFFFFFFFFFFF)
# Fixed odd multipliers of the row hash (deterministic across runs and processes).
_MULTIPLIERS = np.array([0x9E3779B97F4A7C15 ^ (0xBF58476D1CE4E5B9 * (i + 1) & 0xFFFFFFFFFFFFFFFF) | 1
                         for i in range(4096)], dtype=np.uint64)


@dataclass
class OutputTable:
    """Codes, skeleton codes and features of a set of outputs (see the module docstring)."""

    kind: str  # "numeric" or "structured"
    codes: np.ndarray
    skeleton: np.ndarray
    features: np.ndarray
    names: tuple[str, ...]
    examples: dict = field(default_factory=dict)  # code -> short text of one output with that code
    #: None when no draw of the table raised; else an object array with, per output, the name of the
    #: exception type its ``sample`` call raised (None where the draw returned an output). An
    #: exception *returned* as an output is an output, not a raised draw.
    raised: np.ndarray | None = None

    @property
    def size(self) -> int:
        return int(self.codes.shape[0])

    def raised_types(self) -> dict[str, int]:
        """How many draws raised, per exception type name (empty when none did)."""
        if self.raised is None:
            return {}
        out: dict[str, int] = {}
        for name in self.raised:
            if name is not None:
                out[name] = out.get(name, 0) + 1
        return out


def _mix(h: np.ndarray) -> np.ndarray:
    """A 64-bit finaliser (splitmix64) so that nearby rows get unrelated codes."""
    with np.errstate(over="ignore"):
        h = h ^ (h >> np.uint64(30))
        h = h * np.uint64(0xBF58476D1CE4E5B9)
        h = h ^ (h >> np.uint64(27))
        h = h * np.uint64(0x94D049BB133111EB)
        h = h ^ (h >> np.uint64(31))
    return h


def _row_codes(arr: np.ndarray) -> np.ndarray:
    """A deterministic uint64 hash of the exact bytes of every row of ``arr``."""
    n = arr.shape[0]
    raw = np.ascontiguousarray(arr).reshape(n, -1).view(np.uint8).reshape(n, -1)
    width = raw.shape[1]
    pad = (-width) % 8
    if pad:
        raw = np.concatenate([raw, np.zeros((n, pad), dtype=np.uint8)], axis=1)
    words = np.ascontiguousarray(raw).view(np.uint64)
    h = np.full(n, np.uint64(width), dtype=np.uint64)
    with np.errstate(over="ignore"):
        for j in range(words.shape[1]):
            h = _mix(h ^ (words[:, j] * _MULTIPLIERS[j % len(_MULTIPLIERS)]))
    return h


def _text_code(text: str) -> int:
    return int.from_bytes(hashlib.blake2b(text.encode(), digest_size=8).digest(), "little")


def _short(text: str, limit: int = 60) -> str:
    return text if len(text) <= limit else text[: limit - 3] + "..."


class _Canon:
    """Canonical text, masked text and numbers of one structured output."""

    __slots__ = ("parts", "masked", "numbers")

    def __init__(self):
        self.parts: list[str] = []
        self.masked: list[str] = []
        self.numbers: list[float] = []

    def add(self, x: Any, where: str) -> None:
        if x is None:
            self.parts.append("None"); self.masked.append("None")
        elif isinstance(x, (bool, np.bool_)):
            t = "True" if x else "False"
            self.parts.append(t); self.masked.append(t)
        elif isinstance(x, (numbers.Integral, np.integer)):
            self.parts.append(str(int(x))); self.masked.append("#")
            self.numbers.append(float(x))
        elif isinstance(x, (float, np.floating)):
            f = float(x)
            if math.isnan(f):
                raise MechanismError(f"an output contains NaN; {where}. A NaN is never a valid release.",
                                     **error_fields(where))
            self.parts.append(f.hex()); self.masked.append("#")
            self.numbers.append(f)
        elif isinstance(x, str):
            self.parts.append(repr(x)); self.masked.append(repr(x))
        elif isinstance(x, BaseException):
            t = f"error:{type(x).__name__}"
            self.parts.append(t); self.masked.append(t)
        elif isinstance(x, (tuple, list, np.ndarray)):
            items = x.ravel().tolist() if isinstance(x, np.ndarray) and x.dtype != object else (
                list(x.ravel()) if isinstance(x, np.ndarray) else list(x))
            self.parts.append("("); self.masked.append("(")
            for item in items:
                self.add(item, where)
            self.parts.append(")"); self.masked.append(")")
        else:
            raise MechanismError(
                f"an output holds {type(x).__name__} {_short(repr(x))}, which the black-box audit cannot "
                f"compare exactly; {where}. Return numbers, booleans, None, strings, exception instances, "
                "or tuples/lists/arrays of these.", **error_fields(where)
            )


_SIMPLE = {type(None): 0, bool: 1, np.bool_: 1, int: 2, float: 3, np.float64: 3, np.float32: 3,
           np.int64: 2, np.int32: 2, np.int8: 2, np.int16: 2, np.uint8: 2, np.uint16: 2, np.uint32: 2}


def _flat_simple(row: Any) -> bool:
    return type(row) in (tuple, list) and all(t in _SIMPLE for t in map(type, row))


def _fast_rows(rows: list, where: str):
    """Codes, skeleton codes and numbers of flat tuples of None/bool/int/float (vectorised).

    Tags: 0 None, 1 False, 2 True, 3 integer, 4 float. The code hashes (length, tags, values);
    the skeleton hashes (length, tags with integers and floats both 5).
    """
    n, width = len(rows), len(rows[0])
    tags = np.empty((n, width), dtype=np.int8)
    vals = np.zeros((n, width), dtype=float)
    cols = list(zip(*rows)) if width else []
    for j, col in enumerate(cols):
        t = np.fromiter((_SIMPLE[type(x)] for x in col), dtype=np.int8, count=n)
        v = np.fromiter((0.0 if x is None else float(x) for x in col), dtype=float, count=n)
        t = np.where(t == 1, np.where(v != 0, 2, 1), np.where(t == 3, 4, np.where(t == 2, 3, t))).astype(np.int8)
        tags[:, j] = t
        vals[:, j] = v
    if np.isnan(vals).any():
        i = int(np.argwhere(np.isnan(vals).any(axis=1))[0][0])
        raise MechanismError(f"output {i} of the batch contains NaN; {where}. A NaN is never a valid release.",
                             **error_fields(where))
    head = np.full((n, 1), width, dtype=np.int64)
    codes = _row_codes(np.concatenate([head.view(np.uint8).reshape(n, 8), tags.view(np.uint8),
                                       vals.view(np.uint8).reshape(n, -1)], axis=1))
    masked = np.where(tags >= 3, 5, tags).astype(np.int8)
    skel = _row_codes(np.concatenate([head.view(np.uint8).reshape(n, 8), masked.view(np.uint8),
                                      np.full((n, 1), 0xA5, dtype=np.uint8)], axis=1))
    isnum = tags >= 3
    order = np.argsort(~isnum, axis=1, kind="stable")
    nums = np.where(np.take_along_axis(isnum, order, axis=1), np.take_along_axis(vals, order, axis=1), -np.inf)
    return codes, skel, nums, isnum.sum(axis=1)


def _structured(outputs: np.ndarray, where: str) -> OutputTable:
    n = outputs.shape[0]
    rows = list(outputs)
    codes = np.empty(n, dtype=np.uint64)
    skel = np.empty(n, dtype=np.uint64)
    counts = np.zeros(n, dtype=np.int64)
    examples: dict = {}
    fast: dict[int, list[int]] = {}
    slow: list[int] = []
    for i, row in enumerate(rows):
        if _flat_simple(row):
            fast.setdefault(len(row), []).append(i)
        else:
            slow.append(i)
    blocks = []  # (row indices, numbers matrix padded with -inf, counts)
    for idx in fast.values():
        c, k, nums, cnt = _fast_rows([rows[i] for i in idx], where)
        ix = np.asarray(idx)
        codes[ix], skel[ix], counts[ix] = c, k, cnt
        blocks.append((ix, nums, cnt))
    for i in slow:
        c = _Canon()
        c.add(rows[i], where)
        codes[i] = _text_code(" ".join(c.parts))
        skel[i] = _text_code(" ".join(c.masked))
        counts[i] = len(c.numbers)
        v = np.asarray(c.numbers, dtype=float).reshape(1, -1)
        blocks.append((np.array([i]), v, np.array([v.shape[1]])))
    width = int(min(MAX_NUMBERS, counts.max(initial=0)))
    feats = np.full((n, width + 2), -np.inf)
    for ix, nums, cnt in blocks:
        k = min(width, nums.shape[1])
        feats[ix, :k] = nums[:, :k]
        present = np.arange(nums.shape[1])[None, :] < cnt[:, None]
        with np.errstate(invalid="ignore"):
            total = np.where(present, nums, 0.0).sum(axis=1)
        feats[ix, width] = np.where(np.isnan(total), 0.0, total)  # +inf and -inf together: no sum
    feats[:, width + 1] = counts
    for i in range(n):
        if len(examples) >= 64:
            break
        examples.setdefault(int(codes[i]), _short(repr(rows[i])))
    names = tuple(f"number[{j}]" for j in range(width)) + ("sum of the numbers", "count of the numbers")
    return OutputTable("structured", codes, skel, feats, names, examples)


def to_table(outputs: Any, where: str, *, structured: bool | None = None, float_bits: bool = False) -> OutputTable:
    """The :class:`OutputTable` of ``outputs`` (already checked to have ``size`` rows).

    ``structured`` forces the structured path (used when the two datasets' outputs differ in
    kind); by default object/string arrays are structured and numeric/boolean arrays numeric.
    """
    arr = np.asarray(outputs)
    if structured is None:
        structured = arr.dtype.kind not in "biuf"
    elif not structured and arr.dtype.kind not in "biuf":
        lengths = sorted({len(o) for o in arr if isinstance(o, (tuple, list))})
        bad = next((i for i, o in enumerate(arr) if not isinstance(o, (numbers.Number, np.ndarray, tuple, list))
                    or (isinstance(o, np.ndarray) and o.dtype.kind not in "biuf")), None)
        what = (f"output {bad} of the batch, {_short(repr(arr[bad]))}, is not numeric" if bad is not None else
                f"the outputs of the batch have different lengths ({', '.join(map(str, lengths[:5]))})")
        raise MechanismError(f"{what}, although the probe draws were numeric arrays of one shape; {where}. Return "
                             "one form throughout (arrays of one shape, or tuples/lists for outputs whose length or "
                             "kind varies).", **error_fields(where))
    if structured:
        if arr.dtype != object:
            obj = np.empty(arr.shape[0], dtype=object)
            for i in range(arr.shape[0]):
                obj[i] = arr[i].tolist() if isinstance(arr[i], np.ndarray) else arr[i]
            arr = obj
        return _structured(arr, where)
    if arr.dtype.kind == "f":
        bad = np.isnan(arr)
        if bad.any():
            i = int(np.argwhere(bad.reshape(arr.shape[0], -1).any(axis=1))[0][0])
            raise MechanismError(f"output {i} of the batch contains NaN; {where}. A NaN is never a valid release.",
                             **error_fields(where))
    n = arr.shape[0]
    flat = arr.reshape(n, -1).astype(float)
    # the code of an output must not depend on the other outputs of its batch: a list of Python
    # numbers becomes an int array in one batch and a float array in the next, so numbers are
    # hashed as float64 values (integers beyond 2**53 may share a code: coarser events, still valid)
    codes = _row_codes(flat)
    d = flat.shape[1]
    cols = [flat[:, j] for j in range(min(d, MAX_COORDINATES))]
    if arr.ndim == 1:
        names = ["output"]
    else:
        names = [f"output[{', '.join(map(str, np.unravel_index(j, arr.shape[1:])))}]"
                 for j in range(min(d, MAX_COORDINATES))]
    if d > 1:
        with np.errstate(invalid="ignore"):
            s = flat.sum(axis=1)
        if np.isnan(s).any():  # +inf and -inf in one output: the sum is not a usable feature
            s = np.where(np.isnan(s), 0.0, s)
        cols += [s, flat.max(axis=1), flat.min(axis=1)]
        names += ["sum of the coordinates", "max of the coordinates", "min of the coordinates"]
        k = min(d, MAX_COORDINATES)
        with np.errstate(invalid="ignore"):
            diff = flat[:, 1:k] - flat[:, : k - 1]
        diff = np.where(np.isnan(diff), 0.0, diff)  # inf - inf: no difference to speak of
        cols += [diff[:, j] for j in range(k - 1)]
        names += [f"difference {names[j + 1]} - {names[j]}" for j in range(k - 1)]
    if float_bits and arr.dtype.kind == "f":
        cols.append(granularity(flat))
        names.append("granularity")
    feats = np.stack(cols, axis=1) if cols else np.zeros((n, 0))
    uniq, first, cnt = np.unique(codes[: min(n, 4096)], return_index=True, return_counts=True)
    if uniq.size > 64:  # many distinct outcomes (e.g. continuous): examples of the recurring ones only
        keep = np.argsort(-cnt, kind="stable")[:64]
        keep = np.sort(keep[cnt[keep] >= 2])
        uniq, first = uniq[keep], first[keep]
    examples = {int(c): _short(np.array2string(arr[i], separator=", ", threshold=8).replace("\n", "")
                               if isinstance(arr[i], np.ndarray) else repr(arr[i].item() if hasattr(arr[i], "item") else arr[i]))
                for c, i in zip(uniq[:64], first[:64])}
    return OutputTable("numeric", codes, np.zeros(n, dtype=np.uint64), feats, tuple(names), examples)


# -- events ----------------------------------------------------------------------------------------

@dataclass(frozen=True)
class HalfLine:
    """``feature >= threshold`` (``upper=True``) or ``feature <= threshold``."""

    feature: int
    name: str
    threshold: float
    upper: bool

    def contains(self, table: OutputTable) -> np.ndarray:
        x = table.features[:, self.feature]
        return x >= self.threshold if self.upper else x <= self.threshold

    def describe(self) -> str:
        return f"{self.name} {'>=' if self.upper else '<='} {self.threshold!r}"


@dataclass(frozen=True)
class OutcomeSet:
    """The output is one of a finite set of exact outcomes (chosen on the selection samples)."""

    codes: tuple[int, ...]
    examples: tuple[str, ...]
    skeleton: bool = False  # True: the codes are of the number-masked output (which branch)

    def contains(self, table: OutputTable) -> np.ndarray:
        keys = table.skeleton if self.skeleton else table.codes
        return np.isin(keys, np.asarray(self.codes, dtype=np.uint64))

    def describe(self) -> str:
        what = "output (numbers masked) is one of" if self.skeleton else "output is exactly one of"
        shown = ", ".join(self.examples[:4])
        more = f", ... ({len(self.codes)} outcomes)" if len(self.codes) > 4 else ""
        return f"{what} {{{shown}{more}}}"


@dataclass(frozen=True)
class ScoreAbove:
    """``score(output) >= threshold`` (``upper``) or ``<= threshold``, for a score learned on the
    selection samples (a log density-ratio estimate, see :mod:`dpverify.auditing.blackbox.scores`)."""

    score: Any  # an object with ``__call__(table) -> scores`` and ``describe()``
    threshold: float
    upper: bool = True

    def contains(self, table: OutputTable) -> np.ndarray:
        s = self.score(table)
        return s >= self.threshold if self.upper else s <= self.threshold

    def describe(self) -> str:
        return f"{self.score.describe()} {'>=' if self.upper else '<='} {self.threshold:.6g}"


@dataclass(frozen=True)
class RaisedDraw:
    """The draw's ``sample`` call raised (whatever the type). Counted beside the certified events to
    report how many draws raised; never certified itself (the outcomes ``error:<TypeName>`` are)."""

    def contains(self, table: OutputTable) -> np.ndarray:
        if table.raised is None:
            return np.zeros(table.size, dtype=bool)
        return np.array([e is not None for e in table.raised], dtype=bool)

    def describe(self) -> str:
        return "sample raised"


def error_code(type_name: str) -> int:
    """The outcome code of an output whose draw raised ``type_name`` (same for every batch)."""
    return _text_code(f"error:{type_name}")


def with_errors(good: OutputTable | None, errors: list[str | None], names: tuple[str, ...]) -> OutputTable:
    """The table of a batch in which some draws raised: ``errors[i]`` is the exception type name of
    output i, or None when ``good`` holds it (in order). Error rows get the code of
    ``error:<TypeName>`` as outcome and skeleton, and ``-inf`` features (any function of the
    outcome is a valid event, so this only decides which half-lines contain them)."""
    n = len(errors)
    width = len(names)
    codes = np.empty(n, dtype=np.uint64)
    skel = np.empty(n, dtype=np.uint64)
    feats = np.full((n, width), -np.inf)
    ok = np.array([e is None for e in errors], dtype=bool)
    examples: dict = {}
    if good is not None and ok.any():
        codes[ok], skel[ok] = good.codes, good.skeleton
        w = min(width, good.features.shape[1])
        feats[ok, :w] = good.features[:, :w]
        examples.update(good.examples)
        kind = good.kind
    else:
        kind = "numeric"
    for i in np.flatnonzero(~ok):
        c = np.uint64(error_code(errors[i]))
        codes[i] = skel[i] = c
        examples.setdefault(int(c), f"<sample raised {errors[i]}>")  # few exception types: always named
    raised = np.empty(n, dtype=object)
    raised[:] = list(errors)
    return OutputTable(kind, codes, skel, feats, names, examples, raised)
