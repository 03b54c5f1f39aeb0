"""The optimistic (lower-bound) PLD: merging adjacent intervals so that merged losses sit on the
grid (second order in h), checked as lower <= exact <= upper against closed forms, and a mutant
merge (sending mass up without the excess check) caught by the same checks."""
import math

import numpy as np
import pytest

from dpverify import NeighbourRelation
from dpverify.accounting import (
    Gaussian,
    PLDComposition,
    PoissonSubsampled,
    SelfComposed,
    epsilon_for_delta,
    gdp_epsilon,
)
from dpverify.accounting import grid
from dpverify.accounting.pld import clear_caches

DELTAS = [1e-3, 1e-6, 1e-10]


def _clear():
    clear_caches()


@pytest.mark.parametrize("sigma,k", [(10.0, 100), (2.0, 20)])
def test_gaussian_composition_sandwich_is_tight(sigma, k):
    _clear()
    b = PLDComposition(value_discretisation=1e-3).bounds(SelfComposed(Gaussian(sigma), k), DELTAS)
    exact = gdp_epsilon(math.sqrt(k) / sigma, DELTAS)
    assert np.all(b.lower <= exact) and np.all(exact <= b.upper)
    # second order: the round-down lower bound was ~k h / 2 = 0.05 below here
    assert np.all(b.upper - b.lower <= 2e-4 * exact)


@pytest.mark.parametrize("q,sigma", [(0.1, 1.0), (0.01, 0.8)])
def test_single_subsampled_step_sandwich(q, sigma):
    _clear()
    ev = PoissonSubsampled(Gaussian(sigma, relation=NeighbourRelation.ADD_REMOVE_ONE), q)
    b = PLDComposition(value_discretisation=1e-3).bounds(ev, [1e-3, 1e-6])
    for i, d in enumerate([1e-3, 1e-6]):
        exact = epsilon_for_delta(ev, d)  # closed-form profile, bisection: upper within 1e-10 rel.
        assert b.lower[i] <= exact
        assert exact <= b.upper[i] * (1 + 1e-9)
        assert b.upper[i] - b.lower[i] <= 5e-3 * exact


def test_dpsgd_gap_is_small():
    _clear()
    ev = SelfComposed(PoissonSubsampled(Gaussian(1.0, relation=NeighbourRelation.ADD_REMOVE_ONE), 0.1), 50)
    b = PLDComposition(value_discretisation=1e-3).bounds(ev, [1e-5])
    assert 0 < b.lower[0] <= b.upper[0]
    assert b.upper[0] - b.lower[0] <= 1e-3 * b.upper[0]


def test_mutant_merge_is_caught(monkeypatch):
    # a merge that sends every interval up (no excess check) is a round-up: its "lower bound"
    # exceeds the exact value, and the sandwich check above would fail on it
    _clear()
    monkeypatch.setattr(grid, "merge_down", lambda e, d, j: np.ones(e.size))
    b = PLDComposition(value_discretisation=1e-2).bounds(SelfComposed(Gaussian(2.0), 20), [1e-6])
    exact = gdp_epsilon(math.sqrt(20) / 2.0, 1e-6)
    _clear()
    assert b.lower[0] > exact
