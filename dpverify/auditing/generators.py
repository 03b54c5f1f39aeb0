"""Neighbour generators: the built-in ways to produce candidate neighbouring pairs inside a space.

``dpverify.audit(mechanism, generator)`` accepts, instead of fixed pairs, a :class:`NeighbourGenerator`.
Its ``candidates(mechanism, claim, rng)`` are drawn with randomness **independent** of the
certification draws: the intake (:mod:`dpverify.auditing.intake`) splits the run's root seed into a
*selection* stream (given to the generator, which may sample the mechanism as much as it likes) and a
*certification* stream (given to the tester). Conditionally on the selected pairs, the certification
draws are fresh, so the union bound over the **certified** pairs only (2 directions each) keeps every
reported bound valid at the stated confidence; the candidates a search looked at and discarded do not
enter the Bonferroni denominator. (DESIGN.md: "Selection and certification use independent samples".)

A mechanism whose own randomness is fixed at construction (a projection matrix drawn once and
reused) is handled the same way: the generator receives the mechanism object, so a search sees
whatever the mechanism exposes and evaluates its actual ``log_density``; pairs chosen *after*
that randomness is known are certified on fresh output draws.

Built in: :class:`FixedPairs` (given pairs), :class:`QueryPatterns` (the StatDP patterns) and
:class:`UnitChanges` (one row, column or entry changed). The adversarial search, which samples the
mechanism to choose its pairs, lives above the white-box tester in :mod:`dpverify.auditing.search`.
"""
from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Any, Iterable

import numpy as np

from ..messages import describe
from ..validation import integer
from ..claims import NeighbourRelation, PrivacyClaim
from ..errors import InvalidArgument
from .pairs import normalise_pairs
from .space import NeighbourSpace

__all__ = ["NeighbourGenerator", "FixedPairs", "QueryPatterns", "UnitChanges", "STATDP_PATTERNS",
           "as_space", "as_base", "apply_change", "mechanism_check"]


class NeighbourGenerator(ABC):
    """Produces candidate neighbouring pairs inside ``space``.

    ``candidates(mechanism, claim, rng)`` returns a list of ``(D, D_prime)`` tuples; ``rng`` is the
    *selection* stream (independent of certification). ``audit`` checks every candidate against
    ``space`` and raises InvalidArgument for a non-neighbour.
    """

    space: NeighbourSpace

    @abstractmethod
    def candidates(self, mechanism: Any, claim: PrivacyClaim, rng: np.random.Generator) -> list:
        ...

    def report(self) -> dict:
        return {"generator": type(self).__name__, "space": self.space.to_dict()}


def as_space(space: Any) -> NeighbourSpace:
    """``space``, checked to be a :class:`NeighbourSpace` (InvalidArgument otherwise)."""
    if not isinstance(space, NeighbourSpace):
        raise InvalidArgument(f"space={describe(space)} must be a NeighbourSpace.")
    return space


def as_base(base: Any) -> np.ndarray:
    """``base`` as a float array, checked to be non-empty and finite (the dataset a search changes)."""
    arr = np.asarray(base, dtype=float)
    if arr.size == 0:
        raise InvalidArgument(f"base={describe(base)} is empty: the search space has no dataset to change.")
    if not np.all(np.isfinite(arr)):
        raise InvalidArgument(f"base={describe(base)} has non-finite entries.")
    return arr


class FixedPairs(NeighbourGenerator):
    """Given pairs, validated against ``space``."""

    def __init__(self, pairs: Any, space: NeighbourSpace):
        self.space = as_space(space)
        self.pairs = normalise_pairs(pairs)

    def candidates(self, mechanism, claim, rng):
        return list(self.pairs)


#: Difference patterns of Ding et al. (2018, StatDP), for a query vector of length 5 with base
#: all ones: one above, one below, one above rest below, one below rest above, half-half, all
#: above, all below, x-shape. Rows are the differences D' - D before scaling.
STATDP_PATTERNS = {
    "one-above": (1, 0, 0, 0, 0),
    "one-below": (-1, 0, 0, 0, 0),
    "one-above-rest-below": (1, -1, -1, -1, -1),
    "one-below-rest-above": (-1, 1, 1, 1, 1),
    "half-half": (-1, -1, 1, 1, 1),
    "all-above": (1, 1, 1, 1, 1),
    "all-below": (-1, -1, -1, -1, -1),
    "x-shape": (-1, -1, 1, 1, 1),
}


def _pattern(name: str, k: int) -> np.ndarray:
    """The StatDP pattern ``name`` generalised to length k."""
    p = np.zeros(k)
    half = k // 2
    if name == "one-above":
        p[0] = 1
    elif name == "one-below":
        p[0] = -1
    elif name == "one-above-rest-below":
        p[:] = -1
        p[0] = 1
    elif name == "one-below-rest-above":
        p[:] = 1
        p[0] = -1
    elif name in ("half-half", "x-shape"):
        p[:half] = -1
        p[half:] = 1
    elif name == "all-above":
        p[:] = 1
    elif name == "all-below":
        p[:] = -1
    else:
        raise InvalidArgument(f"pattern={name!r} is not one of {sorted(STATDP_PATTERNS)}.")
    return p


class QueryPatterns(NeighbourGenerator):
    """The query-vector patterns of the testing literature (one-differ and all-differ families of
    Ding et al. 2018), each scaled onto the boundary of ``space`` and applied to one unit of
    ``base`` (the whole vector for ``Unit.WHOLE``; the first unit otherwise)."""

    def __init__(self, base: Any, space: NeighbourSpace, patterns: Iterable[str] | None = None):
        self.space = as_space(space)
        self.base = as_base(base)
        names = list(STATDP_PATTERNS) if patterns is None else list(patterns)
        if not names:
            raise InvalidArgument("patterns=[] is empty: the search space has no pattern to try.")
        for n in names:
            _pattern(n, 2)  # validates the name
        self.patterns = names

    def candidates(self, mechanism, claim, rng):
        u = self.space.units(self.base.shape)[0]
        k = int(np.asarray(self.base[u]).size)
        out, seen = [], set()
        for name in self.patterns:
            v = _pattern(name, k)
            if k == 1 and name not in ("one-above", "one-below"):
                continue
            key = tuple(v)
            if key in seen:
                continue
            seen.add(key)
            out.append(apply_change(self.base, u, self.space, v.reshape(np.shape(self.base[u]))))
        return out


def apply_change(base: np.ndarray, u, space: NeighbourSpace, v: np.ndarray) -> tuple:
    """(D, D') differing on unit u by v scaled onto the boundary, placed symmetrically around
    ``base`` (D = base - step/2, D' = base + step/2), so records stay near the base's; for
    add/remove, D carries the step on u and D' marks the record absent (zeros)."""
    d = base.copy()
    dp = base.copy()
    step = space.to_boundary(np.asarray(v, dtype=float))
    if space.relation is NeighbourRelation.ADD_REMOVE_ONE:
        if base.ndim == 0:
            return (float(step), 0.0)
        d[u] = step
        dp[u] = 0.0
    else:
        if base.ndim == 0:
            return (float(base - step / 2), float(base + step / 2))
        d[u] = base[u] - step / 2
        dp[u] = base[u] + step / 2
    return (d, dp)


class UnitChanges(NeighbourGenerator):
    """Change one row, column or entry of ``base`` (per ``space.unit``) within the norm bound:
    for each of up to ``max_units`` units, the coordinate, all-ones and ``random`` random
    directions, scaled onto the boundary."""

    def __init__(self, base: Any, space: NeighbourSpace, max_units: int = 4, random: int = 2):
        self.space = as_space(space)
        self.base = as_base(base)
        self.max_units = integer("max_units", max_units, minimum=1)
        self.random = integer("random", random, minimum=0)

    def candidates(self, mechanism, claim, rng):
        units = self.space.units(self.base.shape)
        if len(units) > self.max_units:
            pick = np.sort(rng.choice(len(units), size=self.max_units, replace=False))
            units = [units[i] for i in pick]
        out = []
        for u in units:
            shape = np.shape(self.base[u])
            k = int(np.prod(shape)) if shape else 1
            dirs = [np.eye(k)[0], np.ones(k)] if k > 1 else [np.ones(1)]
            dirs += [rng.standard_normal(k) for _ in range(self.random)] if k > 1 else []
            for v in dirs:
                out.append(apply_change(self.base, u, self.space, v.reshape(shape)))
        return out



def mechanism_check(mechanism: Any, pair: tuple) -> None:
    """The mechanism's own neighbour check (``check_neighbours(data, data_prime)``), if it has one."""
    check = getattr(mechanism, "check_neighbours", None)
    if callable(check):
        check(pair[0], pair[1])

