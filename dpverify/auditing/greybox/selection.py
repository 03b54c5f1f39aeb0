"""Selection mechanisms in a grey-box replay (issue 31): which pairs go to the report-noisy-max model
(:mod:`.noisymax`) or the sparse-vector model (:mod:`.sparse`), and the :class:`~.replay.PairCheck` they give.

They are tried only where every other grey-box model has said "not modelled" (:func:`.replay.replay_pair`), and only
when three seeds replay without divergence, with numeric outputs, no changed parameter, no unmodelled generator
method, and draws that are all location-scale or exponential (the same families and elements on every seed and on
D and D'). A model that does not fit leaves the pair's check exactly as it was (its reason is kept in
``PairCheck.selection``).
"""
from __future__ import annotations

import dataclasses

import numpy as np

from . import noisymax, sparse
from .probe import Prober, standardise

__all__ = ["try_selection"]


def try_selection(mechanism, pair, claim, runs: list, more, changed, grid, base):
    """A :class:`PairCheck` of the RNM or SVT model, or ``base`` (with ``selection`` set to why none fits).
    ``runs`` are the runs ``(rec, rep, out, out_p, diverged)`` made so far, ``more(runs)`` adds a third seed's;
    ``changed(rec, rep)`` lists changed parameters. The third seed is run only once the first ones have the shape."""
    if _shape(runs, changed) is None:
        return base
    try:
        runs = more(runs)
    except Exception:  # noqa: BLE001 - it did not raise on the first seeds: not a function of the shape modelled
        return base
    if _shape(runs, changed) is None:
        return base
    return _try(mechanism, pair, claim, runs, grid, base)


def _shape(runs: list, changed):
    """(size, elements) when every run has the shape a selection model needs, else None."""
    if any(r[4] or r[2] is None or r[3] is None for r in runs):
        return None
    if any(r[0].unmodelled or r[1].unmodelled or changed(r[0], r[1]) for r in runs):
        return None
    std = [(standardise(r[0].calls), standardise(r[1].calls)) for r in runs]
    if any(a is None or b is None for a, b in std):
        return None
    first = std[0][0]
    for a, b in std:
        for s in (a, b):
            if s[0] != first[0] or not np.array_equal(s[3], first[3]) or not np.array_equal(s[2], first[2]):
                return None
    size = runs[0][2].size
    if any(r[2].size != size or r[3].size != size for r in runs):
        return None
    if size == 1 and not all(np.all(np.isfinite(r[2])) and np.all(np.isfinite(r[3])) for r in runs):
        return None
    m = len(first[0])
    if (size == 1 and m >= 2) or (size >= 2 and m in (1, 1 + size, 1 + 2 * size)):
        return size, m
    return None


def _try(mechanism, pair, claim, runs: list, grid, base):
    std = [(standardise(r[0].calls), standardise(r[1].calls)) for r in runs]
    first = std[0][0]
    size, m = runs[0][2].size, len(first[0])
    std_runs = [((a, r[2]), (b, r[3])) for (a, b), r in zip(std, runs)]
    d, dp = pair
    calls = runs[0][0].calls

    def make_prober(side):
        return Prober(mechanism, calls, d if side == 0 else dp, size)

    if size == 1 and m >= 2:
        model, why = noisymax.fit(make_prober, std_runs)
        kind, module = "report-noisy-max", noisymax
    elif size >= 2 and m in (1, 1 + size, 1 + 2 * size):
        model, why = sparse.fit(make_prober, std_runs, size)
        kind, module = "sparse-vector", sparse
    else:  # pragma: no cover - _shape admits no other
        return base
    if model is None:
        return dataclasses.replace(base, selection=f"{kind}: {why}")
    text, eps, finding, details = module.judge(model, claim, grid)
    if text is None:
        return dataclasses.replace(base, selection=f"{kind}: {details.get('why')}")
    family = f"{kind}/{details.get('family', 'laplace')}"
    row = {"call": [int(i) for i in dict.fromkeys(first[3].tolist())], "family": family,
           "scale": float(first[2][0]), "eps": eps, **{k: v for k, v in details.items() if k != "family"}}
    return dataclasses.replace(base, not_modelled=None, family=family, scale=float(first[2][0]), implied=text,
                               epsilon=eps, finding=finding, per_call=(row,), selection=kind)
