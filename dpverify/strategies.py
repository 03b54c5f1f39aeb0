"""Hypothesis strategies for neighbouring datasets and privacy claims.

Every dataset strategy draws a **pair** ``(D, D_prime)`` (a tuple of numpy arrays, as
:func:`dpverify.audit` and :func:`dpverify.testing.assert_private` take it) that is neighbouring
under the requested :class:`~dpverify.NeighbourRelation` *by construction*: the strategy draws
the dataset and the change separately and builds ``D_prime`` from them, so every example
Hypothesis generates **and every example it shrinks to** is still a neighbouring pair. Datasets
in a pair always differ (the change is never empty), so no pair is a wasted audit.

Fixed-shape arrays and add/remove-one neighbours: the absent record is **a record of zeros** in
the same position (a zero entry of a vector, a zero row or column of a matrix). This is the
convention of :class:`dpverify.auditing.neighbours.NeighbourSpace`, and the natural one for
sum-type queries (a sum, a Gram matrix ``X X^T``, a covariance: a zero record contributes
nothing). ``D`` holds the record (non-zero), ``D_prime`` marks it absent; the audit tests both
directions, so this covers adding and removing. Histograms need no marker: removing a record
lowers one count by one.

Norm bounds are met by construction (a direction times a radius at most the bound) and then
**checked**; nothing is ever clipped. Use with ``hypothesis.given`` like any strategy::

    from hypothesis import given
    from dpverify import strategies as dps

    @given(dps.vectors(5, low=0.0, high=1.0))
    def test_sum_is_private(pair): ...

Requires hypothesis (``pip install "dpverify[test]"``).
"""
from __future__ import annotations

import enum
from typing import Any, Iterable

try:
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        'dpverify.strategies needs the hypothesis package; install it with: pip install "dpverify[test]"'
    ) from exc

import numpy as np

from . import _validate as v
from .auditing.neighbours import Norm, Unit
from .claims import NeighbourRelation, PrivacyClaim
from .errors import InvalidArgument

__all__ = [
    "Pattern",
    "Norm",
    "Unit",
    "vectors",
    "matrices",
    "query_vectors",
    "histograms",
    "claims",
]


class Pattern(enum.Enum):
    """Query-vector difference families of the testing literature (Ding et al. 2018, StatDP).

    ``ONE_DIFFER``: one query answer changes (StatDP's *one above* / *one below*).
    ``ALL_DIFFER``: every answer changes, with independent signs (StatDP's *all above*,
    *all below*, *one above rest below*, *half-half*, ... are all such sign patterns).
    """

    ONE_DIFFER = "one-differ"
    ALL_DIFFER = "all-differ"


def _composite(name: str):
    """``hypothesis.strategies.composite`` under the public name, so that a strategy's repr reads
    as the call that built it (``vectors(size=3, ...)``)."""
    def decorate(f):
        f.__name__ = f.__qualname__ = name
        return st.composite(f)
    return decorate


# -- argument checks (at strategy construction, so a typo fails before any example) ------------

def _relation(relation: Any) -> NeighbourRelation:
    if not isinstance(relation, NeighbourRelation):
        raise InvalidArgument(
            f"relation={relation!r} must be a dpverify.NeighbourRelation, e.g. NeighbourRelation.REPLACE_ONE."
        )
    return relation


def _norm(norm: Any) -> Norm:
    if not isinstance(norm, Norm):
        raise InvalidArgument(f"norm={norm!r} must be a dpverify.strategies.Norm (Norm.L1, Norm.L2 or Norm.LINF).")
    return norm


def _interval(low: Any, high: Any) -> tuple[float, float]:
    low = v.real("low", low, fix="Give a finite lower bound for the records.")
    high = v.real("high", high, fix="Give a finite upper bound for the records.")
    if not high > low:
        raise InvalidArgument(f"low={low!r}, high={high!r}: need low < high. Swap them or widen the interval.")
    return low, high


def _floats(low: float, high: float):
    return st.floats(low, high, allow_nan=False, allow_infinity=False)


def _size(x: np.ndarray, norm: Norm) -> float:
    return float(np.linalg.norm(np.ravel(x), ord=norm.value)) if x.size else 0.0


#: Radii below this are drawn as 0: where squares of entries are subnormal, a computed l2 norm
#: is too coarse to hold a bound to the ulp.
_TINY = 1e-100


def _onto_radius(direction: np.ndarray, radius: float, norm: Norm) -> np.ndarray:
    """``direction`` scaled to norm ``radius`` (zeros for a zero direction or a radius below
    ``_TINY``). The direction is first divided by its largest |entry| (exact), so its norm is
    computed without underflow; if rounding leaves the result above ``radius`` (by a few ulps), its
    entries are moved towards zero one ulp at a time until the computed norm is at most
    ``radius``: the bound holds exactly as checked, with no tolerance."""
    peak = float(np.max(np.abs(direction))) if direction.size else 0.0
    if not (peak > 0 and radius >= _TINY):
        return np.zeros_like(direction)
    unit = direction / peak
    out = unit * (radius / _size(unit, norm))
    for _ in range(1000):  # a few steps suffice: the excess is a few ulps
        if _size(out, norm) <= radius:
            return out
        out = np.nextafter(out, 0.0)
    raise AssertionError(f"internal error: cannot scale {direction!r} onto {norm.name} radius {radius!r}")


def _check_record(record: np.ndarray, norm: Norm, bound: float, what: str) -> None:
    size = _size(record, norm)
    if not size <= bound:  # construction guarantees this; the check keeps it honest
        raise AssertionError(f"internal error: {what} has {norm.name} norm {size!r} > bound={bound!r}")


def _nonzero_direction(k: int):
    """A non-zero vector in [-1, 1]^k (shrinks towards a coordinate vector, never to zero)."""
    return (st.lists(_floats(-1.0, 1.0), min_size=k, max_size=k).map(lambda u: np.array(u, dtype=float))
            .filter(lambda u: bool(np.any(u != 0))))


# -- vectors ------------------------------------------------------------------------------------

@_composite("vectors")
def _vectors(draw, size, low, high, relation):
    d = np.array(draw(st.lists(_floats(low, high), min_size=size, max_size=size)), dtype=float)
    i = draw(st.integers(0, size - 1))
    dp = d.copy()
    if relation is NeighbourRelation.REPLACE_ONE:
        old = d[i]
        dp[i] = draw(_floats(low, high).filter(lambda x: x != old))
    else:  # D holds record i (non-zero); D' marks it absent with 0
        d[i] = draw(_floats(low, high).filter(lambda x: x != 0))
        dp[i] = 0.0
    return (d, dp)


def vectors(size: int, *, low: float = -1.0, high: float = 1.0,
            relation: NeighbourRelation = NeighbourRelation.REPLACE_ONE):
    """Pairs of datasets of ``size`` scalar records in ``[low, high]`` that differ in one record.

    ``REPLACE_ONE``: record ``i`` takes another value in ``[low, high]``. ``ADD_REMOVE_ONE``:
    record ``i`` of ``D`` is non-zero and ``D_prime`` marks it absent with ``0`` (see the module
    docstring). Arrays have shape ``(size,)``, dtype float.
    """
    size = v.integer("size", size, minimum=1, fix="A dataset needs at least one record.")
    low, high = _interval(low, high)
    relation = _relation(relation)
    if relation is NeighbourRelation.ADD_REMOVE_ONE and low == 0 == high:  # pragma: no cover - low < high
        raise InvalidArgument("low=high=0 leaves no non-zero record to add or remove.")
    return _vectors(size, low, high, relation)


# -- matrices with record norm bounds ----------------------------------------------------------

@_composite("record")
def _record(draw, k, norm, bound, nonzero):
    """A record (a vector of k entries) of norm at most ``bound``: direction times radius."""
    direction = draw(_nonzero_direction(k))
    fraction = draw(st.floats(0.0, 1.0, exclude_min=nonzero))
    rec = _onto_radius(direction, fraction * bound, norm)
    if nonzero and not np.any(rec != 0):  # the radius underflowed to zero: take the full radius
        rec = _onto_radius(direction, bound, norm)
    _check_record(rec, norm, bound, "a generated record")
    return rec


@_composite("matrices")
def _matrices(draw, rows, cols, record, norm, bound, relation):
    n, k = (rows, cols) if record is Unit.ROW else (cols, rows)  # n records of k entries
    recs = [draw(_record(k, norm, bound, False)) for _ in range(n)]
    i = draw(st.integers(0, n - 1))
    if relation is NeighbourRelation.REPLACE_ONE:
        old = recs[i]
        new = draw(_record(k, norm, bound, False).filter(lambda r: bool(np.any(r != old))))
    else:
        recs[i] = draw(_record(k, norm, bound, True))
        new = np.zeros(k)
    d = np.stack(recs)
    dp = d.copy()
    dp[i] = new
    if record is Unit.COLUMN:
        d, dp = d.T.copy(), dp.T.copy()
    return (d, dp)


def matrices(rows: int, cols: int, *, record: Unit = Unit.ROW, norm: Norm = Norm.L2, bound: float = 1.0,
             relation: NeighbourRelation = NeighbourRelation.REPLACE_ONE):
    """Pairs of ``(rows, cols)`` matrices whose records (``Unit.ROW`` or ``Unit.COLUMN``) all have
    ``norm`` at most ``bound``, differing in one record.

    ``REPLACE_ONE``: record ``i`` is replaced by another record within the bound.
    ``ADD_REMOVE_ONE``: record ``i`` of ``D`` is non-zero and is a zero record in ``D_prime``.
    Every record of both matrices is within the bound (met by construction, then checked; never
    clipped). Shapes are fixed: both arrays are ``(rows, cols)``.
    """
    rows = v.integer("rows", rows, minimum=1)
    cols = v.integer("cols", cols, minimum=1)
    if record not in (Unit.ROW, Unit.COLUMN):
        raise InvalidArgument(f"record={record!r} must be Unit.ROW or Unit.COLUMN (the unit one person contributes).")
    norm = _norm(norm)
    bound = v.positive("bound", bound, fix="The norm bound of a record must be > 0.")
    relation = _relation(relation)
    return _matrices(rows, cols, record, norm, bound, relation)


# -- query vectors (StatDP patterns) -----------------------------------------------------------

@_composite("query_vectors")
def _query_vectors(draw, length, sensitivity, norm, patterns, low, high, at_boundary):
    d = np.array(draw(st.lists(_floats(low, high), min_size=length, max_size=length)), dtype=float)
    pattern = draw(st.sampled_from(patterns))
    if pattern is Pattern.ONE_DIFFER:
        direction = np.zeros(length)
        direction[draw(st.integers(0, length - 1))] = draw(st.sampled_from((1.0, -1.0)))
    else:
        direction = np.array(draw(st.lists(st.sampled_from((1.0, -1.0)), min_size=length, max_size=length)))
    if at_boundary:
        fraction = 1.0
    else:  # sizes so small that q + c rounds back to q are not drawn (the pair would be D == D')
        fraction = draw(st.floats(0.0, 1.0, exclude_min=True).filter(
            lambda t: bool(np.any(d + _onto_radius(direction, t * sensitivity, norm) != d))))
    change = _onto_radius(direction, fraction * sensitivity, norm)
    dp = d + change
    # q + c rounds: the change actually released is dp - d. Move dp towards d one ulp at a time
    # (the resolution of dp - d) until that is within the bound.
    while _size(dp - d, norm) > sensitivity:
        dp = np.nextafter(dp, d)
    _check_record(dp - d, norm, sensitivity, "a generated change")
    if not np.any(dp != d):
        raise InvalidArgument(
            f"sensitivity={sensitivity!r} is below the floating-point resolution of answers in [{low}, {high}]; "
            "the two query vectors would be equal. Use a larger sensitivity or smaller answers."
        )
    return (d, dp)


def query_vectors(length: int, *, sensitivity: float = 1.0, norm: Norm = Norm.L1,
                  patterns: Iterable[Pattern] = (Pattern.ONE_DIFFER, Pattern.ALL_DIFFER),
                  low: float = -10.0, high: float = 10.0, at_boundary: bool = True):
    """Pairs of query-answer vectors ``(q, q + c)``, ``q`` in ``[low, high]^length``, whose change
    ``c`` follows one of ``patterns`` (:class:`Pattern`) with ``norm(c) <= sensitivity``.

    ``at_boundary=True`` (default) puts the change on the sensitivity boundary (largest loss,
    where a calibration error shows); ``False`` draws its size in ``(0, sensitivity]``. The signs
    of an all-differ change are drawn per coordinate, covering every StatDP sign pattern.
    """
    length = v.integer("length", length, minimum=1)
    sensitivity = v.positive("sensitivity", sensitivity, fix="The sensitivity of the query must be > 0.")
    norm = _norm(norm)
    pats = tuple(patterns) if not isinstance(patterns, Pattern) else (patterns,)
    if not pats:
        raise InvalidArgument("patterns=() is empty; give at least one Pattern.")
    for p in pats:
        if not isinstance(p, Pattern):
            raise InvalidArgument(f"patterns contains {p!r}; each must be a dpverify.strategies.Pattern.")
    low, high = _interval(low, high)
    if not isinstance(at_boundary, bool):
        raise InvalidArgument(f"at_boundary={at_boundary!r} must be True or False.")
    return _query_vectors(length, sensitivity, norm, pats, low, high, at_boundary)


# -- histograms -----------------------------------------------------------------------------------

@_composite("histograms")
def _histograms(draw, bins, max_count, relation):
    # The other records: counts in [0, max_count - 1], so adding one record keeps every count <= max_count.
    rest = np.array(draw(st.lists(st.integers(0, max_count - 1), min_size=bins, max_size=bins)), dtype=np.int64)
    i = draw(st.integers(0, bins - 1))
    d = rest.copy()
    d[i] += 1
    dp = rest.copy()
    if relation is NeighbourRelation.REPLACE_ONE:  # the record moves from bin i to another bin j
        j = (i + 1 + draw(st.integers(0, bins - 2))) % bins
        dp[j] += 1
    return (d, dp)


def histograms(bins: int, *, max_count: int = 20, relation: NeighbourRelation = NeighbourRelation.REPLACE_ONE):
    """Pairs of integer histograms (``bins`` counts, each in ``[0, max_count]``) of neighbouring
    datasets. ``REPLACE_ONE``: one record moves from one bin to another (needs ``bins >= 2``).
    ``ADD_REMOVE_ONE``: ``D`` has one more record than ``D_prime`` in one bin."""
    bins = v.integer("bins", bins, minimum=1)
    max_count = v.integer("max_count", max_count, minimum=1, fix="A bin must be able to hold at least one record.")
    relation = _relation(relation)
    if relation is NeighbourRelation.REPLACE_ONE and bins < 2:
        raise InvalidArgument("bins=1 with REPLACE_ONE: a record can only move between two different bins; "
                              "use bins >= 2 or ADD_REMOVE_ONE.")
    return _histograms(bins, max_count, relation)


# -- claims ---------------------------------------------------------------------------------------

def claims(*, min_epsilon: float = 0.01, max_epsilon: float = 10.0, max_delta: float = 0.0,
           relations: Iterable[NeighbourRelation] = (NeighbourRelation.REPLACE_ONE,)):
    """Privacy claims ``PrivacyClaim(epsilon, delta, relation)`` with epsilon in
    ``[min_epsilon, max_epsilon]`` and delta in ``[0, max_delta]`` (pure claims when
    ``max_delta=0``, the default)."""
    min_epsilon = v.nonnegative("min_epsilon", min_epsilon)
    max_epsilon = v.real("max_epsilon", max_epsilon)
    if not max_epsilon >= min_epsilon:
        raise InvalidArgument(f"max_epsilon={max_epsilon!r} must be >= min_epsilon={min_epsilon!r}.")
    max_delta = v.nonnegative("max_delta", max_delta)
    if not max_delta < 1:
        raise InvalidArgument(f"max_delta={max_delta!r} must be < 1 (a claim needs delta < 1).")
    rels = tuple(relations)
    if not rels:
        raise InvalidArgument("relations=() is empty; give at least one NeighbourRelation.")
    for r in rels:
        _relation(r)
    delta = st.just(0.0) if max_delta == 0 else st.floats(0.0, max_delta)
    return st.builds(PrivacyClaim, _floats(min_epsilon, max_epsilon), delta, st.sampled_from(rels))

