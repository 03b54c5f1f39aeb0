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

Requires hypothesis (the ``pytest`` extra: ``pip install "/path/to/dpverify[pytest]"`` from a
checkout). Values are drawn on a decimal grid (see :class:`_Grid` and ``docs/testing.md``); the
plugin and :func:`dpverify.testing.assert_private` draw this module's strategies from a seeded numpy
generator (:func:`sample_pairs`), never through Hypothesis, so no import can change the pairs.
"""
from __future__ import annotations

import enum
import inspect
from typing import Any, Iterable

try:
    from hypothesis import strategies as st
except ImportError as exc:  # pragma: no cover - exercised only without the extra
    raise ImportError(
        'dpverify.strategies needs the hypothesis package; install the `pytest` extra, e.g. from a checkout: pip install "/path/to/dpverify[pytest]"'
    ) from exc

import numpy as np

from . import validation as v
from .auditing.space import Norm, Unit
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
    "extreme_pairs",
]


class Pattern(enum.Enum):
    """Query-vector difference families of the testing literature (Ding et al. 2018, StatDP).

    ``ONE_DIFFER``: one query answer changes (StatDP's *one above* / *one below*).
    ``ALL_DIFFER``: every answer changes, with independent signs (StatDP's *all above*,
    *all below*, *one above rest below*, *half-half*, ... are all such sign patterns).
    """

    ONE_DIFFER = "one-differ"
    ALL_DIFFER = "all-differ"


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


# -- the draw source ----------------------------------------------------------------------------
#
# Every dataset strategy is written once, against a tiny "drawer" that only knows how to draw an
# integer in [lo, hi]. With ``hypothesis.given`` the drawer is Hypothesis (so examples shrink); in
# ``assert_private`` and the pytest plugin the drawer is a numpy Generator seeded from the check's
# seed alone (:func:`sample_pairs`), so the pairs cannot depend on anything else -- in particular not
# on which modules are imported (Hypothesis mixes constants found in locally imported modules into
# its draws, which made the drawn pairs depend on test selection).
#
# Real values are drawn on a **decimal grid** (:class:`_Grid`): the bounds ``low`` and ``high`` plus
# the multiples of a power of ten ``s`` strictly between them, with ``s`` the largest power of ten
# giving at least 200 grid points; each bound with probability 1/8, else uniformly. Values such as
# 0.37 or -0.05 appear in reports, never 1.57e-292.


class _HypothesisDrawer:
    __slots__ = ("_draw",)

    def __init__(self, draw):
        self._draw = draw

    def integer(self, lo: int, hi: int) -> int:
        return self._draw(st.integers(lo, hi))


class _RngDrawer:
    __slots__ = ("_rng",)

    def __init__(self, rng: np.random.Generator):
        self._rng = rng

    def integer(self, lo: int, hi: int) -> int:
        return int(self._rng.integers(lo, hi, endpoint=True))


#: The least number of grid points of a real interval.
GRID_POINTS = 200


class _Grid:
    """The decimal grid of ``[low, high]``: ``low``, ``high`` and every multiple ``k * step`` strictly
    between them, ``step = 10**e`` the largest power of ten with ``(high - low) / step >= GRID_POINTS``.
    Values are the floats nearest the decimals (``round(k * step, -e)``)."""

    def __init__(self, low: float, high: float):
        self.low, self.high = float(low), float(high)
        e = int(np.floor(np.log10((self.high - self.low) / GRID_POINTS)))
        self.step, self.digits = 10.0 ** e, -e
        k0 = int(np.floor(self.low / self.step)) + 1
        k1 = int(np.ceil(self.high / self.step)) - 1
        while k0 <= k1 and not self._at(k0) > self.low:
            k0 += 1
        while k1 >= k0 and not self._at(k1) < self.high:
            k1 -= 1
        self.k0, self.inner = k0, max(0, k1 - k0 + 1)
        self.n = self.inner + 2

    def _at(self, k: int) -> float:
        return round(k * self.step, self.digits) if self.digits > 0 else float(k * self.step)

    def value(self, i: int) -> float:
        if i == 0:
            return self.low
        if i == self.n - 1:
            return self.high
        return self._at(self.k0 + i - 1) + 0.0  # + 0.0: never -0.0

    def index(self, x: float) -> int | None:
        """The index of ``x`` on the grid, or None."""
        if x == self.low:
            return 0
        if x == self.high:
            return self.n - 1
        k = int(round(x / self.step)) - self.k0 + 1
        return k if 0 < k < self.n - 1 and self.value(k) == x else None

    def draw(self, dr, avoid: float | None = None) -> float:
        """A grid value (``avoid`` excluded when it is on the grid): ``low`` or ``high`` with
        probability 1/8 each (the largest changes, where a calibration error shows), else uniform on
        the grid."""
        r = dr.integer(0, 7)
        if r < 2 and (self.low, self.high)[r] != avoid:
            return (self.low, self.high)[r]
        j = self.index(avoid) if avoid is not None else None
        if j is None:
            return self.value(dr.integer(0, self.n - 1))
        i = dr.integer(0, self.n - 2)
        return self.value(i + 1 if i >= j else i)


_UNIT = _Grid(-1.0, 1.0)
_PERCENT = 100  # radii and change sizes are drawn as multiples of 1/100 of the bound


def _nonzero_direction(dr, k: int) -> np.ndarray:
    """A non-zero vector on the grid of [-1, 1]^k."""
    u = np.array([_UNIT.draw(dr) for _ in range(k)], dtype=float)
    if not np.any(u != 0):
        u[dr.integer(0, k - 1)] = _UNIT.draw(dr, avoid=0.0)
    return u


def _strategy(name: str, build, *args, extremes=None):
    """The Hypothesis strategy of ``build(drawer, *args)`` (its repr reads as the call
    ``name(arg=value, ...)``), which also carries the seeded numpy draw used by :func:`sample_pairs`
    and, when given, the strategy's extreme pairs ``extremes(drawer, *args)``."""
    def f(dr, *a):  # named as build's first parameter, whose signature f takes for its repr
        return build(_HypothesisDrawer(dr), *a)
    f.__signature__ = inspect.signature(build)
    f.__name__ = f.__qualname__ = name
    strategy = st.composite(f)(*args)
    strategy._dpverify_sample = lambda rng: build(_RngDrawer(rng), *args)
    strategy._dpverify_extremes = (lambda rng: extremes(_RngDrawer(rng), *args)) if extremes is not None else None
    return strategy


def sample_pairs(strategy: Any, rng: np.random.Generator, count: int) -> list | None:
    """``count`` draws of a strategy of this module from ``rng`` (a numpy Generator), or None when
    ``strategy`` is not one of this module's (e.g. it was ``.map``-ped or built by the user).

    The first draws are the strategy's **extreme pairs** (see :func:`extreme_pairs`), as property-based
    tools try boundary values first; the rest are ordinary draws. Everything comes from ``rng``."""
    sample = getattr(strategy, "_dpverify_sample", None)
    if sample is None:
        return None
    first = extreme_pairs(strategy, rng)[:count]
    return first + [sample(rng) for _ in range(count - len(first))]


def extreme_pairs(strategy: Any, rng: np.random.Generator) -> list:
    """The extreme pairs of a strategy of this module, drawn from ``rng`` (empty for strategies
    without any, e.g. histograms, whose changes all have one size):

    * :func:`vectors`: the largest change of one record, ``low -> high`` and ``high -> low``
      (replace-one), or each end point of the interval -> absent (add/remove-one);
    * :func:`matrices`: a record at the full ``bound`` replaced by its negation (replace-one) or
      removed (add/remove-one), once along a sign vector and once along a coordinate axis (the
      worst directions differ between the l1, l2 and l-inf norms of a change);
    * :func:`query_vectors`: each allowed pattern at the full ``sensitivity``.

    The other records and the position of the change are drawn as usual."""
    ext = getattr(strategy, "_dpverify_extremes", None)
    return list(ext(rng)) if ext is not None else []


# -- vectors ------------------------------------------------------------------------------------

def _build_vectors(dr, size, low, high, relation):
    grid = _Grid(low, high)
    d = np.array([grid.draw(dr) for _ in range(size)], dtype=float)
    i = dr.integer(0, size - 1)
    dp = d.copy()
    if relation is NeighbourRelation.REPLACE_ONE:
        dp[i] = grid.draw(dr, avoid=float(d[i]))
    else:  # D holds record i (non-zero); D' marks it absent with 0
        d[i] = grid.draw(dr, avoid=0.0)
        dp[i] = 0.0
    return (d, dp)


def _extremes_vectors(dr, size, low, high, relation):
    grid = _Grid(low, high)
    out = []
    if relation is NeighbourRelation.REPLACE_ONE:
        ends = [(low, high), (high, low)]
    else:  # the end point farther from 0 first; an end point equal to 0 is no record
        ends = [(x, 0.0) for x in sorted((low, high), key=lambda x: -abs(x)) if x != 0]
    for a, b in ends:
        d = np.array([grid.draw(dr) for _ in range(size)], dtype=float)
        i = dr.integer(0, size - 1)
        d[i] = a
        dp = d.copy()
        dp[i] = b
        out.append((d, dp))
    return out


def vectors(size: int, *, low: float = -1.0, high: float = 1.0,
            relation: NeighbourRelation = NeighbourRelation.REPLACE_ONE):
    """Pairs of datasets of ``size`` scalar records in ``[low, high]`` that differ in one record.

    ``REPLACE_ONE``: record ``i`` takes another value in ``[low, high]``. ``ADD_REMOVE_ONE``:
    record ``i`` of ``D`` is non-zero and ``D_prime`` marks it absent with ``0`` (see the module
    docstring). Arrays have shape ``(size,)``, dtype float. Records are on the decimal grid of
    ``[low, high]`` (the bounds and at least 200 round values between them).
    """
    size = v.integer("size", size, minimum=1, fix="A dataset needs at least one record.")
    low, high = _interval(low, high)
    relation = _relation(relation)
    return _strategy("vectors", _build_vectors, size, low, high, relation, extremes=_extremes_vectors)


# -- matrices with record norm bounds ----------------------------------------------------------

def _record(dr, k, norm, bound, nonzero):
    """A record (a vector of k entries) of norm at most ``bound``: a grid direction times a radius
    that is a multiple of ``bound / 100``."""
    direction = _nonzero_direction(dr, k)
    fraction = dr.integer(1 if nonzero else 0, _PERCENT) / _PERCENT
    rec = _onto_radius(direction, fraction * bound, norm)
    if nonzero and not np.any(rec != 0):  # the radius underflowed to zero: take the full radius
        rec = _onto_radius(direction, bound, norm)
    _check_record(rec, norm, bound, "a generated record")
    return rec


def _build_matrices(dr, rows, cols, record, norm, bound, relation):
    n, k = (rows, cols) if record is Unit.ROW else (cols, rows)  # n records of k entries
    recs = [_record(dr, k, norm, bound, False) for _ in range(n)]
    i = dr.integer(0, n - 1)
    if relation is NeighbourRelation.REPLACE_ONE:
        old = recs[i]
        for _ in range(100):
            new = _record(dr, k, norm, bound, False)
            if np.any(new != old):
                break
        else:  # pragma: no cover - a repeat of 100 draws of a 2-point choice has probability 2^-100
            new = _record(dr, k, norm, bound, True) if not np.any(old != 0) else np.zeros(k)
    else:
        recs[i] = _record(dr, k, norm, bound, True)
        new = np.zeros(k)
    d = np.stack(recs)
    dp = d.copy()
    dp[i] = new
    if record is Unit.COLUMN:
        d, dp = d.T.copy(), dp.T.copy()
    return (d, dp)


def _extremes_matrices(dr, rows, cols, record, norm, bound, relation):
    n, k = (rows, cols) if record is Unit.ROW else (cols, rows)
    out = []
    axis = np.zeros(k)
    signs = np.array([(1.0, -1.0)[dr.integer(0, 1)] for _ in range(k)])
    axis[dr.integer(0, k - 1)] = (1.0, -1.0)[dr.integer(0, 1)]
    for direction in ([signs, axis] if k > 1 else [signs]):
        recs = [_record(dr, k, norm, bound, False) for _ in range(n)]
        i = dr.integer(0, n - 1)
        full = _onto_radius(direction, bound, norm)
        _check_record(full, norm, bound, "an extreme record")
        recs[i] = full
        new = (-full + 0.0) if relation is NeighbourRelation.REPLACE_ONE else np.zeros(k)  # + 0.0: no -0.0
        d = np.stack(recs)
        dp = d.copy()
        dp[i] = new
        if record is Unit.COLUMN:
            d, dp = d.T.copy(), dp.T.copy()
        out.append((d, dp))
    return out


def matrices(rows: int, cols: int, *, record: Unit = Unit.ROW, norm: Norm = Norm.L2, bound: float = 1.0,
             relation: NeighbourRelation = NeighbourRelation.REPLACE_ONE):
    """Pairs of ``(rows, cols)`` matrices whose records (``Unit.ROW`` or ``Unit.COLUMN``) all have
    ``norm`` at most ``bound``, differing in one record.

    ``REPLACE_ONE``: record ``i`` is replaced by another record within the bound.
    ``ADD_REMOVE_ONE``: record ``i`` of ``D`` is non-zero and is a zero record in ``D_prime``.
    Every record of both matrices is within the bound (met by construction, then checked; never
    clipped). Shapes are fixed: both arrays are ``(rows, cols)``. A record is a direction on the
    grid of ``[-1, 1]^k`` (steps of 0.01) scaled to a norm that is a multiple of ``bound / 100``.
    """
    rows = v.integer("rows", rows, minimum=1)
    cols = v.integer("cols", cols, minimum=1)
    if record not in (Unit.ROW, Unit.COLUMN):
        raise InvalidArgument(f"record={record!r} must be Unit.ROW or Unit.COLUMN (the unit one person contributes).")
    norm = _norm(norm)
    bound = v.positive("bound", bound, fix="The norm bound of a record must be > 0.")
    relation = _relation(relation)
    return _strategy("matrices", _build_matrices, rows, cols, record, norm, bound,
                     relation, extremes=_extremes_matrices)


# -- query vectors (StatDP patterns) -----------------------------------------------------------

def _build_query_vectors(dr, length, sensitivity, norm, patterns, low, high, at_boundary):
    grid = _Grid(low, high)
    d = np.array([grid.draw(dr) for _ in range(length)], dtype=float)
    pattern = patterns[dr.integer(0, len(patterns) - 1)]
    if pattern is Pattern.ONE_DIFFER:
        direction = np.zeros(length)
        direction[dr.integer(0, length - 1)] = (1.0, -1.0)[dr.integer(0, 1)]
    else:
        direction = np.array([(1.0, -1.0)[dr.integer(0, 1)] for _ in range(length)])
    fraction = 1.0 if at_boundary else dr.integer(1, _PERCENT) / _PERCENT
    change = _onto_radius(direction, fraction * sensitivity, norm)
    dp = d + change
    # q + c rounds: the change actually released is dp - d. Move dp towards d one ulp at a time
    # (the resolution of dp - d) until that is within the bound.
    while _size(dp - d, norm) > sensitivity:
        dp = np.nextafter(dp, d)
    _check_record(dp - d, norm, sensitivity, "a generated change")
    if not np.any(dp != d):
        raise InvalidArgument(
            f"sensitivity={sensitivity!r} is below the floating-point resolution of answers in "
            f"[{grid.low}, {grid.high}]; the two query vectors would be equal. Use a larger sensitivity or "
            "smaller answers."
        )
    return (d, dp)


def _extremes_query_vectors(dr, length, sensitivity, norm, patterns, low, high, at_boundary):
    out = []
    for k, _ in enumerate(patterns):
        only = patterns[k:k + 1]
        out.append(_build_query_vectors(dr, length, sensitivity, norm, only, low, high, True))
    return out


def query_vectors(length: int, *, sensitivity: float = 1.0, norm: Norm = Norm.L1,
                  patterns: Iterable[Pattern] = (Pattern.ONE_DIFFER, Pattern.ALL_DIFFER),
                  low: float = -10.0, high: float = 10.0, at_boundary: bool = True):
    """Pairs of query-answer vectors ``(q, q + c)``, ``q`` in ``[low, high]^length`` (on the decimal
    grid), whose change ``c`` follows one of ``patterns`` (:class:`Pattern`) with
    ``norm(c) <= sensitivity``.

    ``at_boundary=True`` (default) puts the change on the sensitivity boundary (largest loss,
    where a calibration error shows); ``False`` draws its size among the multiples of
    ``sensitivity / 100`` in ``(0, sensitivity]``. The signs of an all-differ change are drawn per
    coordinate, covering every StatDP sign pattern.
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
    return _strategy("query_vectors", _build_query_vectors, length, sensitivity, norm,
                     pats, low, high, at_boundary, extremes=_extremes_query_vectors)


# -- histograms -----------------------------------------------------------------------------------

def _build_histograms(dr, bins, max_count, relation):
    # The other records: counts in [0, max_count - 1], so adding one record keeps every count <= max_count.
    rest = np.array([dr.integer(0, max_count - 1) for _ in range(bins)], dtype=np.int64)
    i = dr.integer(0, bins - 1)
    d = rest.copy()
    d[i] += 1
    dp = rest.copy()
    if relation is NeighbourRelation.REPLACE_ONE:  # the record moves from bin i to another bin j
        j = (i + 1 + dr.integer(0, bins - 2)) % bins
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
    return _strategy("histograms", _build_histograms, bins, max_count, relation)


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

