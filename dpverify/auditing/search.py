"""Adversarial neighbour search: choose the pairs that maximise the estimated privacy loss.

:class:`AdversarialSearch` is a :class:`~dpverify.auditing.generators.NeighbourGenerator` that
samples the mechanism (on the selection stream the intake gives it, independent of certification)
and scores each candidate by the white-box selection objective :func:`pair_objective`, so this
module sits **above** the white-box tester (:mod:`dpverify.auditing.whitebox`): it imports the
tester's loss computation, and the tester never imports it. :func:`search_for` builds the search
``dpverify check`` runs around a mechanism's default pairs.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..messages import describe
from ..validation import integer
from ..claims import NeighbourRelation
from ..errors import InvalidArgument, MechanismError
from .generators import (FixedPairs, NeighbourGenerator, QueryPatterns, UnitChanges, apply_change, as_base,
                         as_space, mechanism_check)
from .pairs import normalise_pairs
from .space import NeighbourSpace, Norm, Unit
from .whitebox import LossProfile
from .whitebox.losses import direction_losses

__all__ = ["AdversarialSearch", "search_for", "pair_objective"]


def pair_objective(mechanism, d, dp, claim, n, seed, delta_target):
    """Selection objective: the largest, over directions, empirical eps at which delta_hat drops to
    ``delta_target``, plus 1e-6 x the mean loss (a tie-breaker where that eps is 0). Common random
    numbers (one seed for every evaluation) make it a deterministic function of the pair."""
    best = -math.inf
    for x, y, s in ((d, dp, seed[0]), (dp, d, seed[1])):
        losses = direction_losses(mechanism, x, y, n, np.random.SeedSequence(s), None)[0]
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
        self.space = as_space(space)
        self.base = as_base(base)
        self.starts = [] if starts is None else normalise_pairs(starts)
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
                f"AdversarialSearch needs a white-box mechanism (log_density); {describe(mechanism)} has none. "
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
                mechanism_check(mechanism, pair)
                return pair_objective(mechanism, pair[0], pair[1], claim, n, crn, delta_target)
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
                f"around base={describe(self.base)} is a valid input of the mechanism."
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
            raise InvalidArgument(f"method='gradient' but {describe(mechanism)} has no grad_log_density "
                                  "(or the relation is add/remove); use 'auto'.")
        refined = []
        if evals < self.budget and v0.size > 1:
            def pair_of(v):
                return apply_change(self.base, u, self.space, np.asarray(v, dtype=float).reshape(shape))

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
                raise MechanismError(f"{describe(mechanism)}.grad_log_density raised {type(exc).__name__}: {exc}.") from exc
            grad = -g.mean(axis=0)  # d/d D' of the mean top-k loss
            gu = np.ravel(grad[u] if np.ndim(grad) else grad)
            if not np.any(gu != 0):
                break
            v = v + (0.5 / (1 + t)) * scale * gu / np.linalg.norm(gu)
        return v



def search_for(mechanism: Any, pairs: Any, *, budget: int = 40, selection_samples: int = 2_000) -> NeighbourGenerator:
    """An adversarial search around the given default pairs, for ``dpverify check``.

    The space is the mechanism's own (``mechanism.neighbour_space()``, if it has one), else the
    most conservative space implied by the first pair (:meth:`NeighbourSpace.implied_by`). The
    given pairs are always certified too; the search adds its best candidate. Black-box
    mechanisms get the given pairs only (:class:`FixedPairs`).
    """
    plist = normalise_pairs(pairs)
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
