"""Discrete noise in a grey-box replay (issue 31): the difference of two geometric draws.

The shipped discrete Laplace mechanism (``ghosh-geometric/discrete-laplace``) releases ``f(D) + G1 - G2`` with G1, G2
i.i.d. ``rng.geometric(p, n)``: ``Z = G1 - G2`` has P(Z = z) proportional to ``(1 - p)^|z|`` exactly (a discrete Laplace
of ``eps = -log(1 - p)`` per unit shift). Replay returns the recorded geometric draws, so the noise is frozen.

**Model.** Every draw is ``geometric``, in pairs of calls (2i, 2i+1) of one size and elementwise equal ``p`` (the same
on D and D' and on every seed); the noise elements ``Z = G_2i - G_2i+1``, concatenated, are as many as the output's;
and on every seed ``out_j = c_j + k_j Z_j`` with ``k_j = +1 or -1`` and ``c_j`` the same on every seed (D and D'
each). The seeds are run until every element's Z took at least ``DISTINCT`` different values (at most
``MAX_SEEDS`` seeds; otherwise not modelled). Then the shift ``Delta = c(D') - c(D)`` is exact and:

* a ``Delta_j`` that is not a whole number (off by more than 1e-6; whole outputs below 2^40, fractional ones below
  2^20, so the floats resolve it)
  puts the two output laws on disjoint lattices: D and D' are told apart with certainty (eps = inf);
* else ``eps = sum_j |Delta_j| (-log(1 - p_j))`` exactly (pure); an (eps, delta) or curve claim is compared with
  the PLD accountant's certified lower bound for the discrete Laplace shifts. A ``Delta_j`` within 1e-6 of a
  whole number counts as that number: if it truly is not one, the true eps is infinite, so this only lowers it.

The CKS exact sampler (``cks-discrete/algorithm-2``) draws ``integers`` in rejection loops: its noise law cannot be read
off the draws' parameters, so it is not modelled (the statistical audit decides).
"""
from __future__ import annotations

import math

import numpy as np

from ...claims import PrivacyClaim
from .compose import first_lower_hit

__all__ = ["is_geometric_pairs", "fit_discrete", "judge_discrete", "DISTINCT", "MAX_SEEDS"]

DISTINCT = 3
MAX_SEEDS = 12
_TOL = 1e-9
_LIMIT = 2.0 ** 40
_FRACTIONAL_LIMIT = 2.0 ** 20


def is_geometric_pairs(calls) -> bool:
    """Every draw geometric, an even number of calls, each pair of one size."""
    if not calls or len(calls) % 2 or any(c.method != "geometric" for c in calls):
        return False
    return all(np.shape(a.output) == np.shape(b.output) for a, b in zip(calls[::2], calls[1::2]))


def _noise(calls) -> tuple | None:
    """(Z, p per element, call index of each element's first draw) or None when p differs within a pair."""
    zs, ps, idx = [], [], []
    for a, b in zip(calls[::2], calls[1::2]):
        ga, gb = np.asarray(a.output, dtype=float), np.asarray(b.output, dtype=float)
        try:
            pa = np.broadcast_to(np.asarray(a.param("p"), dtype=float), ga.shape).ravel()
            pb = np.broadcast_to(np.asarray(b.param("p"), dtype=float), gb.shape).ravel()
        except (TypeError, ValueError):
            return None
        if not np.array_equal(pa, pb) or not np.all((pa > 0) & (pa < 1)):
            return None
        zs.append((ga - gb).ravel())
        ps.append(pa)
        idx.append(np.full(ga.size, a.index))
    return np.concatenate(zs), np.concatenate(ps), np.concatenate(idx)


def fit_discrete(run, first_runs: list) -> tuple:
    """``((shift, p, call, integer), None)`` or ``(None, why)``. ``run(seed)`` gives one more run
    ``(rec, rep, out, out_p, diverged)``; ``first_runs`` are the runs already made (seeds 1, 2, ...)."""
    runs = list(first_runs)
    seed = len(runs) + 1
    while True:
        got = _try(runs)
        if got[1] != "more":
            return got
        if len(runs) >= MAX_SEEDS:
            return None, (f"a noise element took fewer than {DISTINCT} different values on {MAX_SEEDS} seeds: the "
                          "output's dependence on it is not pinned down")
        nxt = run(seed)
        seed += 1
        if nxt[4]:
            return None, f"on another seed, {nxt[4]}"
        runs.append(nxt)


def _try(runs: list) -> tuple:
    fitted = []
    for side, o in ((0, 2), (1, 3)):
        zs, outs = [], []
        ref = None
        for r in runs:
            calls = r[side].calls
            if not is_geometric_pairs(calls):
                return None, "draws other than pairs of geometric draws on every seed"
            got = _noise(calls)
            if got is None:
                return None, "a pair of geometric draws of different or invalid p"
            z, p, idx = got
            out = r[o]
            if out is None or z.size != out.size:
                return None, f"{z.size} noise elements for {0 if out is None else out.size} output elements"
            if ref is None:
                ref = (p, idx)
            elif not (np.array_equal(ref[0], p) and np.array_equal(ref[1], idx)):
                return None, "a geometric p that changes between seeds"
            if not (np.all(np.isfinite(out)) and np.all(np.abs(out) < _LIMIT)):
                return None, "outputs that are not finite or beyond 2^40"
            zs.append(z)
            outs.append(out)
        Z, O = np.stack(zs), np.stack(outs)
        # whole-number outputs below 2^40 subtract exactly; others must be below 2^20, where 1e-13 (1 + |out|) bounds
        # the float error of out - Z far below the 1e-6 that tells a whole shift from a fractional one
        integral = bool(np.all(O == np.round(O)))
        if not integral and not np.all(np.abs(O) < _FRACTIONAL_LIMIT):
            return None, "fractional outputs beyond 2^20"
        tol = 0.0 if integral else 1e-13 * (1 + np.abs(O))
        sign = np.zeros(Z.shape[1])
        for k in (1.0, -1.0):
            const = O - k * Z
            ok = np.all(np.abs(const - const[0]) <= tol, axis=0)
            sign = np.where(ok & (sign == 0), k, sign)
        fitted.append((Z, O, sign, ref))
    distinct = np.array([len(np.unique(col)) for col in fitted[0][0].T])
    if np.any(distinct < DISTINCT):
        if any(np.any(f[2] == 0) for f in fitted):
            return None, "the output is not a fixed part plus or minus the geometric difference"
        return None, "more"
    if any(np.any(f[2] == 0) for f in fitted):
        return None, "the output is not a fixed part plus or minus the geometric difference"
    (Z0, O0, k0, (p0, idx0)), (Z1, O1, k1, (p1, _)) = fitted
    if not np.array_equal(p0, p1):
        return None, "a geometric p that depends on the data"
    shift = (O1[0] - k1 * Z1[0]) - (O0[0] - k0 * Z0[0])
    whole = np.abs(shift - np.round(shift)) <= 1e-6
    return (np.where(whole, np.round(shift), shift), p0, idx0, whole), None


def judge_discrete(model: tuple, claim: PrivacyClaim, grid) -> tuple:
    """(implied text, eps, finding or None, per-call rows) of a fitted discrete model (module docstring)."""
    shift, p, idx, whole = model
    rate = -np.log1p(-p)  # eps per unit shift
    rows = []
    for i in dict.fromkeys(idx.tolist()):
        m = idx == i
        u = np.unique(p[m])
        rows.append({"call": int(i), "calls": [int(i), int(i) + 1], "family": "discrete-laplace (geometric difference)",
                     "scale": float(u[0]) if u.size == 1 else p[m].tolist(), "p": float(u[0]) if u.size == 1 else None,
                     "shift_norm": float(np.sum(np.abs(shift[m]))),
                     "eps": math.inf if not np.all(whole[m]) else float(np.sum(np.abs(shift[m]) * rate[m]))})
    if not np.all(whole):
        j = int(np.flatnonzero(~whole)[0])
        text = f"discrete Laplace (geometric difference) shifted by {shift[j]:.6g}, not a whole number"
        return text, math.inf, (f"the output on D' is the output on D shifted by {shift[j]:.6g} (element {j}), not a "
                                "whole number: the two output laws live on disjoint lattices, so D and D' are told "
                                "apart with certainty"), tuple(rows)
    eps = float(np.sum(np.abs(shift) * rate))
    text = (f"discrete Laplace (geometric difference, p = {_ps(p)}) shifted by ||Delta||_1 = "
            f"{float(np.sum(np.abs(shift))):.6g}: eps = {eps:.6g}")
    if claim.delta == 0 and not claim.is_curve:
        if eps > claim.epsilon * (1 + _TOL) + 1e-12:
            return text, eps, (f"the drawn discrete Laplace noise gives eps = {eps:.6g} on this pair, above the claim "
                               f"{claim!r}"), tuple(rows)
        return text, eps, None, tuple(rows)
    hit = _accountant_hit(shift, rate, claim, grid)
    if hit is not None:
        (e, d), lo = hit
        return text, eps, (f"the drawn discrete Laplace noise gives delta({e:g}) > the claim's {d:.4g} on this pair: "
                           f"the PLD accountant's certified lower bound of its eps(delta = {d:.4g}) is {lo:.6g} > "
                           f"{e:g}"), tuple(rows)
    return text, eps, None, tuple(rows)


def _ps(p: np.ndarray) -> str:
    u = np.unique(p)
    return f"{u[0]:.6g}" if u.size == 1 else f"{u.size} values"


def _accountant_hit(shift, rate, claim, grid):
    from ...accounting.events import DiscreteLaplace  # deferred: scipy and mpmath (import dpverify loads the grey-box)

    moved = np.flatnonzero(shift != 0)
    events = [DiscreteLaplace(1.0 / float(rate[j]), int(abs(shift[j]))) for j in moved]
    es = [float(e) for e in grid] if claim.is_curve else [claim.epsilon]
    return first_lower_hit(events, [(e, claim.delta_at(e)) for e in es])
