"""The neighbour-space value type: which pairs (D, D') count as neighbours of one another.

A :class:`NeighbourSpace` confines the difference of two datasets to one :class:`Unit` (the whole
vector, a row, a column or an entry) and bounds its :class:`Norm`. It is a leaf of the package: the
pair checks (:mod:`dpverify.auditing.pairs`), the generators (:mod:`dpverify.auditing.generators`),
the adversarial search (:mod:`dpverify.auditing.search`) and mechanisms that state their neighbourhood
(``neighbour_space()``) all speak it, and it imports nothing from :mod:`dpverify.auditing`.
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..messages import describe
from ..validation import positive
from ..claims import NeighbourRelation
from ..errors import InvalidArgument

__all__ = ["Unit", "Norm", "NeighbourSpace"]


def _short(x: Any, width: int = 40) -> str:
    text = repr(x)
    return text if len(text) <= width else text[: width - 3] + "..."


class Unit(enum.Enum):
    """What one record is: the whole (query-answer) vector, one row, one column or one entry."""

    WHOLE = "whole"
    ROW = "row"
    COLUMN = "column"
    ENTRY = "entry"


class Norm(enum.Enum):
    L1 = 1
    L2 = 2
    LINF = math.inf


def _norm(x: np.ndarray, norm: Norm) -> float:
    x = np.ravel(x)
    if x.size == 0:
        return 0.0
    return float(np.linalg.norm(x, ord=norm.value))


@dataclass(frozen=True)
class NeighbourSpace:
    """Which (D, D') are neighbours: the difference is confined to one ``unit`` and its ``norm``
    is at most ``bound`` (and every extra ``(Norm, bound)`` in ``also``).

    For ``ADD_REMOVE_ONE`` the absent record is marked inside the fixed-shape dataset by zeros
    (the unit of D' is all zero), which is the convention of sum-type queries.
    """

    unit: Unit = Unit.WHOLE
    norm: Norm = Norm.L2
    bound: float = 1.0
    relation: NeighbourRelation = NeighbourRelation.REPLACE_ONE
    also: tuple = ()
    tolerance: float = 1e-9

    def __post_init__(self) -> None:
        if not isinstance(self.unit, Unit):
            raise InvalidArgument(f"unit={self.unit!r} must be a neighbours.Unit (e.g. Unit.ROW).")
        if not isinstance(self.norm, Norm):
            raise InvalidArgument(f"norm={self.norm!r} must be a neighbours.Norm (e.g. Norm.L2).")
        positive("bound", self.bound, fix="A neighbour space needs a norm bound > 0 (the sensitivity).")
        if not isinstance(self.relation, NeighbourRelation):
            raise InvalidArgument(f"relation={self.relation!r} must be a NeighbourRelation.")
        also = tuple(self.also)
        for item in also:
            if not (isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], Norm)):
                raise InvalidArgument(f"also={self.also!r} must be a tuple of (Norm, bound) pairs.")
            positive("also bound", item[1], fix="Every extra norm bound must be > 0.")
        object.__setattr__(self, "also", also)
        object.__setattr__(self, "bound", float(self.bound))

    @property
    def constraints(self) -> tuple:
        return ((self.norm, self.bound),) + self.also

    # -- units ------------------------------------------------------------------------------
    def units(self, shape: tuple) -> list:
        """Index expressions of every unit of a dataset of ``shape``."""
        if self.unit is Unit.WHOLE or len(shape) == 0:
            return [Ellipsis]
        if self.unit is Unit.ENTRY:
            return [tuple(int(i) for i in idx) for idx in np.ndindex(*shape)]
        if self.unit is Unit.ROW or len(shape) == 1:
            return [(i,) for i in range(shape[0])]
        return [(slice(None), j) for j in range(shape[1])]

    def to_boundary(self, v: np.ndarray) -> np.ndarray:
        """``v`` scaled onto the boundary of the (intersection of) norm balls."""
        worst = max(_norm(v, n) / b for n, b in self.constraints)
        if not worst > 0:
            raise InvalidArgument("a search direction of zero length cannot be scaled onto the neighbour boundary.")
        return v / worst * (1 - 4 * self.tolerance)

    def check(self, d: Any, d_prime: Any, where: str = "pair") -> None:
        """Raise InvalidArgument unless (d, d_prime) are neighbours in this space."""
        try:
            a = np.asarray(d, dtype=float)
            b = np.asarray(d_prime, dtype=float)
        except (TypeError, ValueError) as exc:
            raise InvalidArgument(f"{where}: the datasets ({_short(d)}, {_short(d_prime)}) are not numbers or arrays "
                                  f"of numbers ({exc}); a neighbour space compares numbers: give numeric "
                                  "datasets.") from None
        if a.shape != b.shape:
            raise InvalidArgument(f"{where}: datasets of shapes {a.shape} and {b.shape} are not neighbours "
                                  "(neighbouring datasets have one shape).")
        diff = b - a
        changed = [u for u in self.units(a.shape) if np.any(diff[u] != 0)]
        if len(changed) > 1:
            raise InvalidArgument(
                f"{where}: the datasets differ in {len(changed)} {self.unit.value}s; neighbours under "
                f"{self}.describe() differ in at most one. The generator yields non-neighbours."
                .replace(f"{self}.describe()", self.describe())
            )
        for norm, bound in self.constraints:
            size = _norm(diff, norm) if not changed else _norm(diff[changed[0]], norm)
            if size > bound * (1 + self.tolerance):
                raise InvalidArgument(
                    f"{where}: the change has {norm.name} norm {size:.6g} > bound={bound:g} of {self.describe()}; "
                    "the generator yields non-neighbours."
                )
        if self.relation is NeighbourRelation.ADD_REMOVE_ONE and changed:
            u = changed[0]
            if np.any(a[u] != 0) and np.any(b[u] != 0):
                raise InvalidArgument(
                    f"{where}: under ADD_REMOVE_ONE one of the two datasets must mark the record absent "
                    f"(an all-zero {self.unit.value}); both are non-zero. The generator yields non-neighbours."
                )

    def describe(self) -> str:
        extra = "".join(f", {n.name}<={b:g}" for n, b in self.also)
        return f"{self.relation.value} {self.unit.value}, {self.norm.name}<={self.bound:g}{extra}"

    def to_dict(self) -> dict:
        return {"unit": self.unit.value, "norm": self.norm.name, "bound": self.bound,
                "relation": self.relation.value, "also": [[n.name, b] for n, b in self.also]}

    @classmethod
    def implied_by(cls, d: Any, d_prime: Any) -> "NeighbourSpace":
        """The most conservative space containing (d, d_prime): its unit, and l1, l2 and l-inf norms
        all bounded by those of the given change (so a search stays inside any of them)."""
        a = np.asarray(d, dtype=float)
        b = np.asarray(d_prime, dtype=float)
        diff = b - a
        if a.shape != b.shape or not np.any(diff != 0):
            raise InvalidArgument(
                f"pair ({describe(d)}, {describe(d_prime)}) has no change to infer a neighbour space from."
            )
        unit = Unit.WHOLE
        if a.ndim == 2:
            rows = np.flatnonzero(np.any(diff != 0, axis=1))
            cols = np.flatnonzero(np.any(diff != 0, axis=0))
            if rows.size == 1:  # records are rows (a mechanism's check_neighbours narrows further)
                unit = Unit.ROW
            elif cols.size == 1:
                unit = Unit.COLUMN
        return cls(unit, Norm.L2, _norm(diff, Norm.L2), NeighbourRelation.REPLACE_ONE,
                   ((Norm.L1, _norm(diff, Norm.L1)), (Norm.LINF, _norm(diff, Norm.LINF))))

    @classmethod
    def implied_by_pairs(cls, pairs: list) -> "NeighbourSpace":
        """The space implied by several pairs: one unit for all, and each norm bounded by its
        largest value over the pairs. If the true space is an l1, l2 or l-inf ball that contains
        every given pair, it contains this space too."""
        spaces = [cls.implied_by(a, b) for a, b in pairs]
        units = {s.unit for s in spaces}
        unit = units.pop() if len(units) == 1 else Unit.WHOLE
        l2 = max(s.bound for s in spaces)
        l1 = max(dict(s.also)[Norm.L1] for s in spaces)
        linf = max(dict(s.also)[Norm.LINF] for s in spaces)
        return cls(unit, Norm.L2, l2, NeighbourRelation.REPLACE_ONE, ((Norm.L1, l1), (Norm.LINF, linf)))

