"""Neighbouring pairs given by the user: their reading, and their validation before sampling.

``dpverify.audit(mechanism, pairs)`` reads ``pairs`` as one pair written as a tuple ``(D, D')``
or a list (any iterable that is not a tuple) of such tuples. A tuple whose two items are
themselves 2-tuples is **ambiguous** (one pair of two-record datasets, or two pairs?) and is
refused with the fix.

Every pair is then checked against the claim's neighbour relation, on the datasets' *records*
(rows along axis 0 of an array, items of a list or tuple, rows of a pandas DataFrame), compared
as **multisets** (order does not matter):

* ``ADD_REMOVE_ONE``: the datasets may differ in length by one record; then the larger one must
  be the smaller one plus exactly one record. Datasets of equal length are read as the padded
  representation (the absent record marked in place) and must differ in at most one record;
  that the marker really means "absent" cannot be checked, so such a pair is marked
  ``padded (record presence not checked)`` in the result.
* ``REPLACE_ONE``: the datasets have the same size and differ in exactly one record.
* ``D = D'`` is refused under both (it tests nothing, and would read as a pass).

When the mechanism states its neighbourhood, the pair is checked against it too:
``mechanism.check_neighbours(D, D')`` (raises for non-neighbours), and
``mechanism.neighbour_space()`` (a :class:`~dpverify.auditing.space.NeighbourSpace`;
a space whose unit is ``WHOLE`` says the datasets are query answers, not records, and then
only the space is checked). A scalar dataset with a mechanism that has a ``sensitivity``
attribute is checked as ``|D - D'| <= sensitivity``. A pair that none of these applies to
(scalars or opaque objects without a stated neighbourhood) is audited as given and marked
``unchecked`` in the result: the audit then says nothing about whether it is a neighbouring pair.
"""
from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from ..messages import describe
from ..claims import NeighbourRelation
from ..errors import DPVerifyError, InvalidArgument
from .space import NeighbourSpace, Unit

__all__ = ["normalise_pairs", "check_pair", "check_pairs", "records", "UNCHECKED", "StatedPairs", "stated_space"]

#: The label of a pair whose neighbourhood could not be checked.
UNCHECKED = "unchecked"


def _is_two_tuple(x: Any) -> bool:
    return isinstance(x, tuple) and len(x) == 2


def normalise_pairs(pairs: Any) -> list[tuple[Any, Any]]:
    """One pair (a tuple ``(D, D')``) or an iterable of such tuples, as a non-empty list.

    Raises InvalidArgument for a non-pair, an empty list, or an ambiguous tuple of two 2-tuples.
    Datasets may have different lengths (add/remove neighbours); :func:`check_pair` decides.
    """
    if isinstance(pairs, tuple):
        if len(pairs) == 2 and _is_two_tuple(pairs[0]) and _is_two_tuple(pairs[1]):
            raise InvalidArgument(
                f"pairs={describe(pairs)} is ambiguous: a tuple of two 2-tuples reads both as one pair of "
                "two-record datasets and as two pairs. Write several pairs as a list, "
                "pairs=[(D1, D1_prime), (D2, D2_prime)], and datasets as lists or arrays, "
                "pairs=([r1, r2], [r1, r3])."
            )
        items = [pairs]
    elif isinstance(pairs, (str, bytes)) or not isinstance(pairs, Iterable):
        raise InvalidArgument(
            f"pairs={describe(pairs)} must be one pair written as a tuple (D, D_prime), or a list of "
            "such tuples."
        )
    else:
        items = list(pairs)
    if not items:
        raise InvalidArgument("pairs=[] is empty; give at least one neighbouring pair (D, D_prime).")
    out = []
    for i, pair in enumerate(items):
        if not _is_two_tuple(pair):
            raise InvalidArgument(
                f"pairs[{i}]={describe(pair)} must be a tuple (D, D_prime) of two datasets. "
                "Write one pair as a tuple and several as a list of tuples."
            )
        out.append((pair[0], pair[1]))
    return out


# -- records ----------------------------------------------------------------------------------

def _is_dataframe(x: Any) -> bool:
    mod = type(x).__module__ or ""
    return mod.startswith("pandas") and type(x).__name__ == "DataFrame"


def _key(x: Any) -> Any:
    """A hashable key for one record; equal records get equal keys (-0.0 and 0.0 are equal)."""
    if isinstance(x, np.ndarray):
        if x.dtype.kind in "biuf":
            a = np.ascontiguousarray(x, dtype=float) + 0.0
            return ("nd", a.shape, a.tobytes())
        return ("nd", x.shape, tuple(_key(v) for v in x.ravel().tolist()))
    if isinstance(x, (list, tuple)):
        return ("seq", tuple(_key(v) for v in x))
    if isinstance(x, dict):
        return ("map", tuple(sorted((repr(k), _key(v)) for k, v in x.items())))
    if isinstance(x, (float, np.floating)) and math.isnan(float(x)):
        return ("nan",)
    try:
        hash(x)
    except TypeError:
        return ("repr", repr(x))
    if isinstance(x, (np.generic,)):
        return x.item()
    return x


def records(data: Any) -> list | None:
    """The records of ``data`` as hashable keys, or None when ``data`` has no records.

    Records are rows along axis 0 of an array (ndim >= 1), items of a list or tuple, and rows of
    a pandas DataFrame (pandas is never imported here). Scalars and other objects have none.
    """
    if _is_dataframe(data):
        return [("row", tuple(_key(v) for v in row)) for row in data.itertuples(index=False, name=None)]
    if isinstance(data, np.ndarray):
        if data.ndim == 0:
            return None
        if data.shape[0] == 0:  # an empty dataset: no records (reshape(0, -1) is undefined)
            return []
        if data.dtype.kind in "biuf":
            flat = np.ascontiguousarray(data, dtype=float).reshape(data.shape[0], -1) + 0.0
            shape = data.shape[1:]
            return [("nd", shape, row.tobytes()) if shape else float(row[0]) for row in flat]
        return [_key(r) for r in data]
    if isinstance(data, (list, tuple)):
        return [_key(r) for r in data]
    return None


def _equal(a: Any, b: Any) -> bool | None:
    """True/False when the two datasets can be compared exactly, None when they cannot."""
    if _is_dataframe(a) or _is_dataframe(b):
        if not (_is_dataframe(a) and _is_dataframe(b)):
            return False
        return list(a.columns) == list(b.columns) and records(a) == records(b)
    try:
        x, y = np.asarray(a), np.asarray(b)
    except Exception:
        return None
    if x.dtype == object or y.dtype == object:
        try:
            return _key(a) == _key(b)
        except Exception:
            return None
    if x.shape != y.shape:
        return False
    if x.dtype.kind in "biufc" and y.dtype.kind in "biufc":
        return bool(np.array_equal(x, y, equal_nan=x.dtype.kind in "fc" and y.dtype.kind in "fc"))
    return bool(np.array_equal(x, y))


def _multiset_difference(ra: list, rb: list) -> tuple[Counter, Counter]:
    ca, cb = Counter(ra), Counter(rb)
    return ca - cb, cb - ca


# -- the check ------------------------------------------------------------------------------

def _structure(d: Any, dp: Any, relation: NeighbourRelation, where: str, records_meaningful: bool) -> str | None:
    """Check the record structure; returns a label, or None when the datasets have no records."""
    if _is_dataframe(d) != _is_dataframe(dp):
        raise InvalidArgument(f"{where}: one dataset is a pandas DataFrame and the other is not; give both "
                              "datasets of a pair in the same form.")
    if _is_dataframe(d) and list(d.columns) != list(dp.columns):
        raise InvalidArgument(f"{where}: the DataFrames have different columns {list(d.columns)} and "
                              f"{list(dp.columns)}; neighbouring datasets share their columns.")
    ra, rb = records(d), records(dp)
    if ra is None or rb is None:
        if (ra is None) != (rb is None):
            raise InvalidArgument(
                f"{where}: D={describe(d, 40)} and D'={describe(dp, 40)} are not of the same kind (one has "
                "records along axis 0, the other is a scalar); neighbouring datasets have one form."
            )
        return None
    if isinstance(d, np.ndarray) and isinstance(dp, np.ndarray) and np.shape(d)[1:] != np.shape(dp)[1:]:
        raise InvalidArgument(
            f"{where}: records of shape {np.shape(d)[1:]} and {np.shape(dp)[1:]} (datasets of shapes "
            f"{np.shape(d)} and {np.shape(dp)}); records are along axis 0 and have one shape."
        )
    if not records_meaningful:
        return None
    na, nb = len(ra), len(rb)
    extra_a, extra_b = _multiset_difference(ra, rb)
    ka, kb = sum(extra_a.values()), sum(extra_b.values())
    if relation is NeighbourRelation.ADD_REMOVE_ONE:
        if abs(na - nb) > 1:
            raise InvalidArgument(
                f"{where}: datasets of {na} and {nb} records are not add/remove neighbours (their sizes "
                "differ by more than one record). Give D and D plus (or minus) one record."
            )
        if na != nb:
            if min(ka, kb) != 0 or max(ka, kb) != 1:
                raise InvalidArgument(
                    f"{where}: datasets of {na} and {nb} records are not add/remove neighbours: as multisets "
                    f"the larger is not the smaller plus one record ({ka} records of D are not in D', {kb} "
                    "of D' are not in D). Give D and D plus (or minus) exactly one record."
                )
            return "records: differ by one added/removed record (multiset)"
        if ka == 0:
            raise InvalidArgument(
                f"{where}: D' is a reordering of D (equal as multisets of records); a pair that differs in "
                "no record tests nothing. Give D and D plus (or minus) one record."
            )
        if ka > 1:
            raise InvalidArgument(
                f"{where}: the datasets (both of {na} records) differ in {ka} records as multisets; add/remove "
                "neighbours differ in one. Give D and D plus (or minus) one record (different lengths are "
                "allowed)."
            )
        return "records: same size, one record differs (padded add/remove; record presence not checked)"
    if na != nb:
        raise InvalidArgument(
            f"{where}: datasets of {na} and {nb} records are not replace-one neighbours (REPLACE_ONE keeps "
            "the size). For D and D plus one record, claim relation=NeighbourRelation.ADD_REMOVE_ONE."
        )
    if ka > 1:
        raise InvalidArgument(
            f"{where}: the datasets differ in {ka} records as multisets; replace-one neighbours differ in "
            "exactly one. If the datasets are query answers rather than records, give the mechanism a "
            "neighbour_space() or check_neighbours(data, data_prime) (see docs/auditing.md)."
        )
    if ka == 0:
        raise InvalidArgument(
            f"{where}: D' is a reordering of D (equal as multisets of records); a pair that differs in no "
            "record tests nothing. Give two datasets that differ in one record."
        )
    return "records: one record replaced (multiset)"


def stated_space(mechanism: Any) -> NeighbourSpace | None:
    """The mechanism's own ``neighbour_space()`` when it states one (None otherwise, or when it raises)."""
    own = getattr(mechanism, "neighbour_space", None)
    if not callable(own):
        return None
    try:
        space = own()
    except Exception:
        return None
    return space if isinstance(space, NeighbourSpace) else None


@dataclass(frozen=True)
class StatedPairs:
    """Pairs with the neighbour space the caller states for them (``dpverify.audit(..., neighbours=space)``):
    checked against ``space`` in place of the mechanism's own ``neighbour_space()``, e.g. two query-answer
    vectors that differ in every coordinate by at most the sensitivity."""

    pairs: Any
    space: NeighbourSpace


def check_pair(d: Any, dp: Any, mechanism: Any, relation: NeighbourRelation, where: str = "pair",
               space: NeighbourSpace | None = None) -> str:
    """Validate one pair before sampling; return how it was checked (or :data:`UNCHECKED`).

    Raises InvalidArgument for D = D', for datasets that are not neighbours under ``relation``
    (see the module docstring), and for pairs the mechanism's stated neighbourhood rejects.
    """
    if not isinstance(relation, NeighbourRelation):
        raise InvalidArgument(f"relation={relation!r} must be a NeighbourRelation.")
    eq = _equal(d, dp)
    if eq:
        raise InvalidArgument(
            f"{where}: D = D' (both {describe(d, 40)}); a pair of equal datasets tests nothing. Give two "
            "neighbouring datasets that differ in one record."
        )
    given = space is not None
    space = space if given else stated_space(mechanism)
    check = getattr(mechanism, "check_neighbours", None)
    # A mechanism that states its neighbourhood knows what its records are (query answers for a
    # WHOLE space, columns for some matrices): its rule replaces the rows-along-axis-0 reading.
    own_rule = callable(check) or (space is not None and space.unit is Unit.WHOLE)
    labels = []
    structure = _structure(d, dp, relation, where, records_meaningful=not own_rule)
    if structure is not None:
        labels.append(structure)
    if space is not None:
        # Different lengths are add/remove neighbours of a record-unit space (checked above as
        # records); a query-answer (WHOLE) space needs one shape, and space.check says so.
        if np.shape(d) == np.shape(dp) or space.unit is Unit.WHOLE:
            try:
                space.check(d, dp, where=where)
            except InvalidArgument as exc:
                whose = "neighbours= given to audit" if given else "the mechanism's neighbour_space()"
                raise InvalidArgument(f"{exc} ({whose} is {space.describe()}; "
                                      "give a pair inside it.)".replace("The generator yields non-neighbours. ",
                                                                        "")) from None
            labels.append(f"neighbour space{' (given)' if given else ''}: {space.describe()}")
    if callable(check):
        try:
            check(d, dp)  # raises InvalidArgument for non-neighbours (the mechanism's own rule)
        except DPVerifyError:
            raise
        except Exception as exc:  # its rule could not read the pair: the pair is the bad input
            raise InvalidArgument(f"{where}: the mechanism's check_neighbours could not read the pair "
                                  f"({describe(d, 30)}, {describe(dp, 30)}): {type(exc).__name__}: {exc}. Give "
                                  "datasets of the kind the mechanism takes.") from None
        labels.append("mechanism's check_neighbours")
    if space is None and not labels:
        sens = getattr(mechanism, "sensitivity", None)
        if np.ndim(d) == 0 and np.ndim(dp) == 0 and isinstance(sens, (int, float)) and not isinstance(sens, bool):
            try:
                gap = abs(float(d) - float(dp))
            except (TypeError, ValueError):
                gap = None
            if gap is not None:
                if not gap <= float(sens) * (1 + 1e-9):
                    raise InvalidArgument(
                        f"{where}: |D - D'| = {gap:g} exceeds the mechanism's sensitivity={sens:g}; the pair "
                        f"({describe(d, 30)}, {describe(dp, 30)}) is not neighbouring. Give answers at most "
                        f"{sens:g} apart."
                    )
                labels.append(f"|D - D'| <= sensitivity={sens:g}")
    if not labels:
        return UNCHECKED
    return "; ".join(labels)


def check_pairs(pairs: list, mechanism: Any, relation: NeighbourRelation,
                space: NeighbourSpace | None = None) -> tuple[str, ...]:
    """:func:`check_pair` for every pair (``where`` names its index); one label per pair. ``space`` (the
    caller's ``neighbours=``) replaces the mechanism's stated neighbour space."""
    return tuple(check_pair(a, b, mechanism, relation, where=f"pairs[{i}]", space=space)
                 for i, (a, b) in enumerate(pairs))
