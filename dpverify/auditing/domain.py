"""The input domain an unaided audit searches: which datasets a mechanism takes, and which are neighbours.

An :class:`InputDomain` is what ``dpverify.audit(mechanism)`` needs when no pairs are given. A
mechanism states it with an ``input_domain()`` method (the library adapters state the library's own
domain, metric and distances), or the caller passes ``domain=`` to :func:`dpverify.audit`. Two kinds:

* :meth:`InputDomain.records` -- datasets are lists of records (numbers, or ``(key, value)`` records
  when ``keys`` are given), neighbours under ``relation`` (add/remove or replace one record), at
  every group distance in ``distances``;
* :meth:`InputDomain.answers` -- datasets are query-answer vectors of one ``length``, neighbours when
  they differ by at most ``sensitivity`` (times the distance) in ``norm``.

The claim at distance ``d`` is ``claim_at(d)`` (a library's privacy map over ``d_in``); without
``claim_at`` only distance 1 is searched, against the audit's claim. ``encode`` turns a list of records
(or an answer vector) into the data ``sample`` takes (a DataFrame, a LazyFrame, ...); by default records
become a float array (a list of tuples when keyed) and answers a float array.

The value type is a leaf: it imports nothing from :mod:`dpverify.auditing`. What is searched in it is
:mod:`dpverify.auditing.unaided`.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

from ..claims import NeighbourRelation, PrivacyClaim
from ..errors import InvalidArgument
from ..messages import describe
from .space import Norm

__all__ = ["InputDomain", "LARGEST_FLOAT"]

#: The largest finite double (``sys.float_info.max``): the most extreme finite record a float domain admits.
LARGEST_FLOAT = float(np.finfo(float).max)
#: Integer extremes tried where an integer domain is unbounded (int32 and the last exactly represented double).
_INTEGER_EXTREMES = (2**31 - 1, 2**53)
KINDS = ("records", "answers")


def _number(name: str, value: Any, *, allow_infinite: bool) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
        raise InvalidArgument(f"{name}={describe(value)} must be a number. Give e.g. {name}=0.0.")
    x = float(value)
    if math.isnan(x):
        raise InvalidArgument(f"{name}=nan is not a bound. Give a number (or +-inf for an unbounded side).")
    if math.isinf(x) and not allow_infinite:
        raise InvalidArgument(f"{name}={x} must be finite. Give a finite number.")
    return x


def _distances(distances: Any) -> tuple:
    try:
        items = tuple(distances)
    except TypeError:
        items = (distances,)
    if not items:
        raise InvalidArgument("distances=() is empty. Give the distances to search, e.g. distances=(1, 2, 6).")
    out = []
    for d in items:
        if isinstance(d, bool) or not isinstance(d, (int, np.integer)) or int(d) < 1:
            raise InvalidArgument(f"distances={items!r}: {describe(d)} is not a whole distance >= 1. Give e.g. "
                                  "distances=(1, 2, 6).")
        out.append(int(d))
    return tuple(sorted(set(out)))


def _sizes(sizes: Any) -> tuple:
    try:
        items = tuple(sizes)
    except TypeError:
        items = (sizes,)
    if not items:
        raise InvalidArgument("sizes=() is empty. Give the dataset sizes to search, e.g. sizes=(0, 1, 10).")
    for n in items:
        if isinstance(n, bool) or not isinstance(n, (int, np.integer)) or int(n) < 0 or int(n) > 10_000:
            raise InvalidArgument(f"sizes={items!r}: {describe(n)} is not a dataset size in 0..10000. Give e.g. "
                                  "sizes=(0, 1, 10).")
    return tuple(sorted({int(n) for n in items}))


def _values(values: Any) -> tuple:
    out = []
    for v in tuple(values):
        if isinstance(v, bool) or not isinstance(v, (int, float, np.integer, np.floating)):
            raise InvalidArgument(f"values={tuple(values)!r}: {describe(v)} is not a number. Give the record values "
                                  "worth trying (clamping bounds, thresholds), e.g. values=(0.0, 1.0).")
        out.append(float(v))
    return tuple(out)


@dataclass(frozen=True)
class InputDomain:
    """The datasets a mechanism takes and which of them are neighbours (see the module docstring).

    Build one with :meth:`records` or :meth:`answers`; the fields are read by the unaided search.
    ``low``/``high`` are the range of the record *type* the mechanism accepts (not a clamping bound: a
    clamping bound goes in ``values``); ``nan`` says NaN is a record the mechanism accepts; ``integer``
    that records are whole numbers. ``note`` says what the domain leaves out (shown in the result).
    """

    kind: str
    low: float = -math.inf
    high: float = math.inf
    integer: bool = False
    nan: bool = False
    sizes: tuple = (0, 1, 2, 10)
    relation: NeighbourRelation = NeighbourRelation.ADD_REMOVE_ONE
    distances: tuple = (1,)
    claim_at: Callable[[int], PrivacyClaim] | None = None
    values: tuple = ()
    keys: tuple | None = None
    encode: Callable[[Any], Any] | None = None
    length: int = 1
    sensitivity: float = 1.0
    norm: Norm = Norm.L1
    note: str = field(default="")

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise InvalidArgument(f"kind={self.kind!r} must be one of {KINDS}; build a domain with "
                                  "InputDomain.records(...) or InputDomain.answers(...).")
        low = _number("low", self.low, allow_infinite=True)
        high = _number("high", self.high, allow_infinite=True)
        if not low <= high:
            raise InvalidArgument(f"low={low!r} > high={high!r}: give low <= high.")
        object.__setattr__(self, "low", low)
        object.__setattr__(self, "high", high)
        object.__setattr__(self, "sizes", _sizes(self.sizes))
        object.__setattr__(self, "distances", _distances(self.distances))
        object.__setattr__(self, "values", _values(self.values))
        if not isinstance(self.relation, NeighbourRelation):
            raise InvalidArgument(f"relation={describe(self.relation)} must be a NeighbourRelation.")
        if self.claim_at is None and self.distances != (1,):
            raise InvalidArgument(f"distances={self.distances!r} without claim_at: the claim is stated at distance 1 "
                                  "only. Give claim_at=lambda d: PrivacyClaim(...) (the claim at distance d), or "
                                  "distances=(1,).")
        for name in ("claim_at", "encode"):
            f = getattr(self, name)
            if f is not None and not callable(f):
                raise InvalidArgument(f"{name}={describe(f)} must be callable (or None).")
        if self.keys is not None:
            keys = tuple(self.keys)
            if len(keys) < 2:
                raise InvalidArgument(f"keys={keys!r}: give at least two keys (records of the base datasets use "
                                      "the first ones; a new partition uses the last).")
            object.__setattr__(self, "keys", keys)
        if self.kind == "answers":
            if isinstance(self.length, bool) or not isinstance(self.length, (int, np.integer)) or self.length < 1:
                raise InvalidArgument(f"length={describe(self.length)} must be a whole number >= 1 (the number "
                                      "of query answers).")
            s = _number("sensitivity", self.sensitivity, allow_infinite=False)
            if not s > 0:
                raise InvalidArgument(f"sensitivity={s!r} must be > 0 (the norm bound of one change).")
            object.__setattr__(self, "sensitivity", s)
            if not isinstance(self.norm, Norm):
                raise InvalidArgument(f"norm={describe(self.norm)} must be a Norm (Norm.L1, Norm.L2 or Norm.LINF).")

    # -- constructors ------------------------------------------------------------------------------
    @classmethod
    def records(cls, *, low: float = -math.inf, high: float = math.inf, integer: bool = False, nan: bool = False,
                sizes: Any = (0, 1, 2, 10), relation: NeighbourRelation = NeighbourRelation.ADD_REMOVE_ONE,
                distances: Any = (1,), claim_at: Callable | None = None, values: Any = (), keys: Any = None,
                encode: Callable | None = None, note: str = "") -> "InputDomain":
        """Datasets of records of a number type with range [``low``, ``high``] (see the class docstring)."""
        return cls("records", low, high, bool(integer), bool(nan), sizes, relation, distances, claim_at, values,
                   keys, encode, note=note)

    @classmethod
    def answers(cls, length: int, *, sensitivity: float = 1.0, norm: Norm = Norm.L1, low: float = -math.inf,
                high: float = math.inf, distances: Any = (1,), claim_at: Callable | None = None, values: Any = (),
                encode: Callable | None = None, note: str = "") -> "InputDomain":
        """Query-answer vectors of ``length``: D and D' are neighbours at distance d when
        ``norm(D - D') <= d * sensitivity``."""
        return cls("answers", low, high, False, False, (length,), NeighbourRelation.REPLACE_ONE, distances, claim_at,
                   values, None, encode, length, sensitivity, norm, note=note)

    # -- what the search tries ------------------------------------------------------------------------
    def ordinary(self, count: int) -> list:
        """``count`` moderate record values inside the domain: evenly inside [0, 1] (k / (count + 1)), or inside the
        unit interval at the domain's nearest end when [0, 1] is not in it (never near a huge end)."""
        lo = 0.0 if self.low <= 0.0 else self.low
        hi = lo + 1.0
        if hi > self.high:
            hi, lo = self.high, max(self.low, self.high - 1.0)
        xs = lo + (hi - lo) * (np.arange(max(count, 1)) + 1.0) / (max(count, 1) + 1.0)  # evenly inside, never an end
        if self.integer:
            xs = np.round(xs)
        return [float(x) for x in xs[:count]]

    def extremes(self) -> list:
        """The record values an unaided search tries as the changed record: the domain's ends (or, where a side
        is unbounded, the largest float and infinity; for whole numbers 2^31 - 1 and 2^53), 0 and +-1 when
        admitted, NaN when admitted, and every value of ``values`` with its neighbours +-1."""
        out: list = []
        for end, sign in ((self.low, -1.0), (self.high, 1.0)):
            if math.isfinite(end):
                out.append(end)
            elif self.integer:
                out.extend(sign * e for e in _INTEGER_EXTREMES)
            else:
                out.extend((sign * LARGEST_FLOAT, sign * math.inf))
        for v in (0.0, 1.0, -1.0):
            out.append(v)
        for v in self.values:
            out.extend((v, v - 1.0, v + 1.0))
        if self.nan and not self.integer:
            out.append(math.nan)
        kept, seen = [], set()
        for v in out:
            key = "nan" if isinstance(v, float) and math.isnan(v) else v
            if key in seen or not self.admits(v):
                continue
            seen.add(key)
            kept.append(float(v))
        return kept

    def admits(self, v: float) -> bool:
        """Whether ``v`` is a record of this domain."""
        if isinstance(v, float) and math.isnan(v):
            return self.nan
        if self.integer and math.isfinite(v) and v != math.floor(v):
            return False
        return self.low <= v <= self.high

    def claim_for(self, distance: int, claim: PrivacyClaim) -> PrivacyClaim:
        """The claim at ``distance``: ``claim_at(distance)``, or ``claim`` at distance 1 without ``claim_at``."""
        if self.claim_at is None:
            return claim
        got = self.claim_at(distance)
        if not isinstance(got, PrivacyClaim):
            raise InvalidArgument(f"claim_at({distance}) returned {describe(got)}; it must return a PrivacyClaim "
                                  "(the claim at that distance).")
        return got

    def data(self, records: Any) -> Any:
        """The data ``sample`` takes for a list of records (or an answer vector): ``encode(records)``, else a
        float array (a list of tuples for keyed records)."""
        if self.encode is not None:
            return self.encode(records)
        if self.keys is not None:
            return [tuple(r) for r in records]
        return np.asarray(records, dtype=float)

    def describe(self) -> str:
        if self.kind == "answers":
            return (f"query answers of length {self.length}, {self.norm.name} change <= {self.sensitivity:g} x d, "
                    f"d in {list(self.distances)}")
        kind = "whole numbers" if self.integer else "numbers"
        keyed = f", keyed by {len(self.keys)} keys" if self.keys is not None else ""
        return (f"{self.relation.value} records of {kind} in [{self.low:g}, {self.high:g}]"
                f"{' and NaN' if self.nan else ''}{keyed}, sizes {list(self.sizes)}, d in {list(self.distances)}")

    def to_dict(self) -> dict:
        return {"kind": self.kind, "low": self.low, "high": self.high, "integer": self.integer, "nan": self.nan,
                "sizes": list(self.sizes), "relation": self.relation.value, "distances": list(self.distances),
                "claim_at": self.claim_at is not None, "values": list(self.values),
                "keys": None if self.keys is None else [repr(k) for k in self.keys], "length": self.length,
                "sensitivity": self.sensitivity, "norm": self.norm.name, "note": self.note}
