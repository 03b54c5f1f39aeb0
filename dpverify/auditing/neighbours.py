"""Neighbouring datasets: the spaces they live in, built-in generators, and adversarial search.

``dpverify.audit(mechanism, pairs)`` accepts, instead of fixed pairs, a
:class:`NeighbourGenerator`. Its candidates are drawn with randomness **independent** of the
certification draws: the run's root seed is split into a *selection* stream (given to the
generator, which may sample the mechanism as much as it likes) and a *certification* stream
(given to the tester). Conditionally on the selected pairs, the certification draws are fresh,
so the union bound over the **certified** pairs only (2 directions each) keeps every reported
bound valid at the stated confidence; the candidates the search looked at and discarded do not
enter the Bonferroni denominator. (DESIGN.md: "Selection and certification use independent
samples".)

A mechanism whose own randomness is fixed at construction (a projection matrix drawn once and
reused) is handled the same way: the generator receives the mechanism object, so a search sees
whatever the mechanism exposes and evaluates its actual ``log_density``; pairs chosen *after*
that randomness is known are certified on fresh output draws.
"""
from __future__ import annotations

import enum
import math
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import Any, Iterable

import numpy as np

from .._validate import integer, positive
from ..claims import NeighbourRelation, PrivacyClaim
from ..errors import InvalidArgument, MechanismError
from . import _runner

__all__ = [
    "Unit",
    "Norm",
    "NeighbourSpace",
    "NeighbourGenerator",
    "FixedPairs",
    "QueryPatterns",
    "UnitChanges",
    "AdversarialSearch",
    "resolve_pairs",
    "search_for",
    "STATDP_PATTERNS",
]


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
                f"pair ({_runner.describe(d)}, {_runner.describe(d_prime)}) has no change to infer a neighbour space from."
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


# -- generators --------------------------------------------------------------------------------

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


def _check_space(space: Any) -> NeighbourSpace:
    if not isinstance(space, NeighbourSpace):
        raise InvalidArgument(f"space={_runner.describe(space)} must be a NeighbourSpace.")
    return space


def _base_array(base: Any) -> np.ndarray:
    arr = np.asarray(base, dtype=float)
    if arr.size == 0:
        raise InvalidArgument(f"base={_runner.describe(base)} is empty: the search space has no dataset to change.")
    if not np.all(np.isfinite(arr)):
        raise InvalidArgument(f"base={_runner.describe(base)} has non-finite entries.")
    return arr


class FixedPairs(NeighbourGenerator):
    """Given pairs, validated against ``space``."""

    def __init__(self, pairs: Any, space: NeighbourSpace):
        self.space = _check_space(space)
        self.pairs = _runner.normalise_pairs(pairs)

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
        self.space = _check_space(space)
        self.base = _base_array(base)
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
            out.append(_apply(self.base, u, self.space, v.reshape(np.shape(self.base[u]))))
        return out


def _apply(base: np.ndarray, u, space: NeighbourSpace, v: np.ndarray) -> tuple:
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
        self.space = _check_space(space)
        self.base = _base_array(base)
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
                out.append(_apply(self.base, u, self.space, v.reshape(shape)))
        return out


def _pair_objective(mechanism, d, dp, claim, n, seed, delta_target):
    """Selection objective: the largest, over directions, empirical eps at which delta_hat drops to
    ``delta_target``, plus 1e-6 x the mean loss (a tie-breaker where that eps is 0). Common random
    numbers (one seed for every evaluation) make it a deterministic function of the pair."""
    from .whitebox import LossProfile, _direction_losses

    best = -math.inf
    for x, y, s in ((d, dp, seed[0]), (dp, d, seed[1])):
        losses = _direction_losses(mechanism, x, y, n, np.random.SeedSequence(s), None)[0]
        prof = LossProfile.from_losses(losses)
        finite = losses[np.isfinite(losses)]
        if prof.infinite / n > delta_target:
            return math.inf
        hi = float(finite.max()) if finite.size else 0.0
        lo = 0.0
        if hi > 0 and prof.delta_hat(0.0)[0] > delta_target:
            for _ in range(40):
                mid = 0.5 * (lo + hi)
                if prof.delta_hat(mid)[0] > delta_target:
                    lo = mid
                else:
                    hi = mid
            value = lo
        else:
            value = 0.0
        best = max(best, value + 1e-6 * float(np.mean(np.clip(finite, -50, 50))) if finite.size else value)
    return best


class AdversarialSearch(NeighbourGenerator):
    """Maximise the estimated privacy loss over neighbours of ``base`` in ``space``.

    Starts from the built-in patterns (:class:`QueryPatterns` for ``Unit.WHOLE``,
    :class:`UnitChanges` otherwise) and any ``starts`` pairs; evaluates each by the selection
    objective (the empirical eps at which delta_hat falls to max(claim.delta, 20/n), both
    directions, ``selection_samples`` draws with common random numbers); then refines the best
    by projected gradient ascent when the mechanism offers ``grad_log_density(outputs, data)``
    (d log p / d data, shape (size, *data.shape)) and ``method`` allows, else by Nelder-Mead
    (scipy) over the direction of the change, at most ``budget`` evaluations in all. Returns the
    ``keep`` best pairs, plus ``starts`` when ``include_starts``.
    """

    def __init__(self, base: Any, space: NeighbourSpace, *, starts: Any = None, budget: int = 60,
                 selection_samples: int = 2_000, keep: int = 1, method: str = "auto",
                 include_starts: bool = True, gradient_evaluations: int = 800):
        self.space = _check_space(space)
        self.base = _base_array(base)
        self.starts = [] if starts is None else _runner.normalise_pairs(starts)
        for i, (a, b) in enumerate(self.starts):
            self.space.check(a, b, where=f"starts[{i}]")
        self.budget = integer("budget", budget, minimum=1, fix="The search needs at least one evaluation.")
        self.selection_samples = integer("selection_samples", selection_samples, minimum=100)
        self.keep = integer("keep", keep, minimum=1)
        if method not in ("auto", "gradient", "finite-difference", "nelder-mead", "random"):
            raise InvalidArgument(f"method={method!r} must be 'auto', 'gradient', 'finite-difference', "
                                  "'nelder-mead' or 'random'.")
        self.method = method
        self.include_starts = bool(include_starts)
        self.gradient_evaluations = integer("gradient_evaluations", gradient_evaluations, minimum=0)
        self._report: dict = {}

    def report(self) -> dict:
        return {**super().report(), **self._report}

    def candidates(self, mechanism, claim, rng):
        if not callable(getattr(mechanism, "log_density", None)):
            raise InvalidArgument(
                f"AdversarialSearch needs a white-box mechanism (log_density); {_runner.describe(mechanism)} has none. "
                "Use QueryPatterns or UnitChanges with a black-box audit."
            )
        n = self.selection_samples
        delta_target = max(claim.delta, 20.0 / n)
        crn = [int(x) for x in rng.integers(0, 2**63 - 1, size=2)]
        evals = rejected = 0
        scored = []

        def score(pair):
            nonlocal evals, rejected
            evals += 1
            try:
                _mechanism_check(mechanism, pair)
                return _pair_objective(mechanism, pair[0], pair[1], claim, n, crn, delta_target)
            except InvalidArgument:  # outside the mechanism's data domain: not a candidate
                rejected += 1
                return -math.inf

        gen = QueryPatterns(self.base, self.space) if self.space.unit is Unit.WHOLE else UnitChanges(self.base, self.space)
        initial = gen.candidates(mechanism, claim, rng)
        for pair in initial:
            if evals >= self.budget:
                break
            scored.append((score(pair), "pattern", pair))
        scored = [t for t in scored if t[0] > -math.inf]
        if not scored and self.starts:
            scored = [(score(p), "start", p) for p in self.starts]
            scored = [t for t in scored if t[0] > -math.inf]
        if not scored:
            raise InvalidArgument(
                f"the search space is empty: none of {len(initial)} starting candidates in {self.space.describe()} "
                f"around base={_runner.describe(self.base)} is a valid input of the mechanism."
            )
        scored.sort(key=lambda t: -t[0])
        best_val, _, best_pair = scored[0]
        d0, dp0 = (np.asarray(best_pair[0], dtype=float), np.asarray(best_pair[1], dtype=float))
        diff = (dp0 - d0) if self.space.relation is NeighbourRelation.REPLACE_ONE else (d0 - dp0)
        units = self.space.units(self.base.shape)
        u = next((uu for uu in units if np.any(np.asarray(diff[uu] if diff.ndim else diff) != 0)), units[0])
        shape = np.shape(self.base[u]) if self.base.ndim else ()
        v0 = np.ravel(diff[u] if diff.ndim else diff).astype(float)
        method = self.method
        has_grad = callable(getattr(mechanism, "grad_log_density", None)) and self.space.relation is NeighbourRelation.REPLACE_ONE
        if method == "auto":
            method = ("gradient" if has_grad else "finite-difference") if v0.size > 1 else "patterns only"
        if method == "gradient" and not has_grad:
            raise InvalidArgument(f"method='gradient' but {_runner.describe(mechanism)} has no grad_log_density "
                                  "(or the relation is add/remove); use 'auto'.")
        refined = []
        if evals < self.budget and v0.size > 1:
            def pair_of(v):
                return _apply(self.base, u, self.space, np.asarray(v, dtype=float).reshape(shape))

            if method == "gradient":
                v = self._gradient(mechanism, claim, pair_of, v0, n, crn, u, shape)
                if v is None:  # gradient unavailable after all (e.g. a query is set): derivative-free
                    method = "finite-difference"
                else:
                    refined.append((score(pair_of(v)), "gradient", pair_of(v)))
            if method == "gradient":
                pass
            elif method == "finite-difference":
                v = self._fd_ascent(mechanism, claim, pair_of, v0, crn)
                refined.append((score(pair_of(v)), "finite-difference", pair_of(v)))
            elif method == "nelder-mead" and v0.size > 1:
                from scipy.optimize import minimize

                left = self.budget - evals
                res = minimize(lambda v: -score(pair_of(v)) if np.any(v != 0) else math.inf, v0,
                               method="Nelder-Mead", options={"maxfev": max(1, left), "xatol": 1e-3, "fatol": 1e-4})
                refined.append((-float(res.fun), "nelder-mead", pair_of(res.x)))
            else:  # random search on the boundary around v0
                for _ in range(self.budget - evals):
                    v = v0 + 0.5 * np.linalg.norm(v0) * rng.standard_normal(v0.size)
                    if np.any(v != 0):
                        refined.append((score(pair_of(v)), "random", pair_of(v)))
        allc = [t for t in scored + refined if t[0] > -math.inf]
        allc.sort(key=lambda t: -t[0])
        chosen = allc[: self.keep]
        self._report = {"method": method, "evaluations": evals, "rejected": rejected, "selection_samples": n,
                        "objective": "empirical eps at delta_hat = max(claim.delta, 20/n), both directions",
                        "delta_target": delta_target,
                        "selected": [{"objective": float(v), "found_by": how} for v, how, _ in chosen],
                        "best_pattern_objective": float(best_val),
                        "certified_candidates": len(chosen) + (len(self.starts) if self.include_starts else 0)}
        pairs = [p for _, _, p in chosen]
        return (list(self.starts) if self.include_starts else []) + pairs

    def _surrogate(self, mechanism, claim, pair, crn, n):
        """Mean of the top-k losses, k = ceil(max(delta, 20/n) n), outputs from D with common random
        numbers: a smooth stand-in for the selection objective (used for finite differences)."""
        d, dp = pair
        outputs = mechanism.sample(d, n, np.random.default_rng(crn[0]))
        loss = np.asarray(mechanism.log_density(outputs, d), float) - np.asarray(mechanism.log_density(outputs, dp), float)
        k = max(1, int(math.ceil(max(claim.delta, 20.0 / n) * n)))
        loss = np.where(np.isnan(loss), -np.inf, loss)
        top = np.partition(loss, n - k)[n - k:]
        return float(np.mean(np.minimum(top, 1e300)))

    def _fd_ascent(self, mechanism, claim, pair_of, v0, crn):
        """Projected ascent with forward-difference gradients of :meth:`_surrogate` (at most
        ``gradient_evaluations`` surrogate evaluations, each on ``max(200, selection_samples // 4)``
        draws)."""
        n = max(200, self.selection_samples // 4)
        v = v0 / np.linalg.norm(v0)
        steps = max(1, min(8, self.gradient_evaluations // (v.size + 1)))
        for t in range(steps):
            try:
                f0 = self._surrogate(mechanism, claim, pair_of(v), crn, n)
            except InvalidArgument:  # the start is outside the mechanism's data domain
                return v
            h = 1e-4
            g = np.empty(v.size)
            for i in range(v.size):
                w = v.copy()
                w[i] += h
                try:
                    g[i] = (self._surrogate(mechanism, claim, pair_of(w), crn, n) - f0) / h
                except InvalidArgument:
                    g[i] = 0.0
            g -= v * np.dot(g, v)  # tangential part (the pair depends on v only through v/|v|)
            if not np.linalg.norm(g) > 0:
                break
            cand = v + (0.6 / (1 + t)) * g / np.linalg.norm(g)
            cand /= np.linalg.norm(cand)
            try:
                if self._surrogate(mechanism, claim, pair_of(cand), crn, n) >= f0:
                    v = cand
            except InvalidArgument:
                break
        return v

    def _gradient(self, mechanism, claim, pair_of, v0, n, crn, u, shape, steps: int = 25):
        """Projected gradient ascent on the mean of the top-k losses (draws from the fixed D)."""
        v = v0.copy()
        k = max(1, int(math.ceil(max(claim.delta, 20.0 / n) * n)))
        rng = np.random.default_rng(crn[0])
        d = pair_of(v)[0]
        outputs = mechanism.sample(d, n, rng)
        scale = np.linalg.norm(v0) or 1.0
        for t in range(steps):
            dp = np.asarray(pair_of(v)[1], dtype=float)
            la = np.asarray(mechanism.log_density(outputs, d), dtype=float)
            lb = np.asarray(mechanism.log_density(outputs, dp), dtype=float)
            top = np.argsort(la - lb)[-k:]
            try:
                g = np.asarray(mechanism.grad_log_density(outputs[top], dp), dtype=float)
            except NotImplementedError:
                return None
            except Exception as exc:
                raise MechanismError(f"{_runner.describe(mechanism)}.grad_log_density raised {type(exc).__name__}: {exc}.") from exc
            grad = -g.mean(axis=0)  # d/d D' of the mean top-k loss
            gu = np.ravel(grad[u] if np.ndim(grad) else grad)
            if not np.any(gu != 0):
                break
            v = v + (0.5 / (1 + t)) * scale * gu / np.linalg.norm(gu)
        return v


def _mechanism_check(mechanism: Any, pair: tuple) -> None:
    """The mechanism's own neighbour check (``check_neighbours(data, data_prime)``), if it has one."""
    check = getattr(mechanism, "check_neighbours", None)
    if callable(check):
        check(pair[0], pair[1])


# -- resolution inside audit ---------------------------------------------------------------------

def resolve_pairs(pairs: Any, mechanism: Any, claim: PrivacyClaim, rng: Any):
    """(pair list, rng for certification, search report or None). Called by ``dpverify.audit``.

    Plain pairs pass through unchanged (same rng). For a generator, the root seed is split into a
    selection and a certification stream; every candidate is checked against the generator's
    space (InvalidArgument for a non-neighbour or an empty candidate list).
    """
    if not isinstance(pairs, NeighbourGenerator):
        return _runner.normalise_pairs(pairs), rng, None
    root = _runner.root_seed(rng)
    selection, certification = root.spawn(2)
    cands = pairs.candidates(mechanism, claim, np.random.default_rng(selection))
    if not cands:
        raise InvalidArgument(f"{type(pairs).__name__} produced no candidate pair: the search space is empty.")
    cands = _runner.normalise_pairs(list(cands))
    for i, (a, b) in enumerate(cands):
        pairs.space.check(a, b, where=f"{type(pairs).__name__} candidate {i}")
        _mechanism_check(mechanism, (a, b))
    report = pairs.report()
    report["certified_pairs"] = len(cands)
    report["multiplicity"] = ("Bonferroni over the certified pairs only (2 directions each); selection used "
                              "an independent seed stream")
    return cands, np.random.default_rng(certification), report


def search_for(mechanism: Any, pairs: Any, *, budget: int = 40, selection_samples: int = 2_000) -> NeighbourGenerator:
    """An adversarial search around the given default pairs, for ``dpverify check``.

    The space is the mechanism's own (``mechanism.neighbour_space()``, if it has one), else the
    most conservative space implied by the first pair (:meth:`NeighbourSpace.implied_by`). The
    given pairs are always certified too; the search adds its best candidate. Black-box
    mechanisms get the given pairs only (:class:`FixedPairs`).
    """
    plist = _runner.normalise_pairs(pairs)
    d, dp = plist[0]
    own = getattr(mechanism, "neighbour_space", None)
    space = own() if callable(own) else None
    if space is None:
        space = NeighbourSpace.implied_by_pairs(plist)
        try:
            for i, (a, b) in enumerate(plist):
                space.check(a, b, where=f"pairs[{i}]")
        except InvalidArgument:  # pairs changing different units: certify them as given
            return FixedPairs(plist, NeighbourSpace(Unit.WHOLE, Norm.L2, space.bound, also=space.also))
    if not callable(getattr(mechanism, "log_density", None)):
        return FixedPairs(plist, space)
    starts = []
    for a, b in plist:
        try:
            space.check(a, b)
            starts.append((a, b))
        except InvalidArgument:
            continue
    base = (np.asarray(d, dtype=float) + np.asarray(dp, dtype=float)) / 2
    return AdversarialSearch(base, space, starts=starts or None, budget=budget, selection_samples=selection_samples)
