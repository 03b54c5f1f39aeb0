"""Density-sampler consistency: lying white-box mechanisms get `inconsistent`, never a privacy verdict.

Rates: the consistency check calls a consistent mechanism inconsistent with probability at most
1e-6 per audit (dpverify.auditing.whitebox.consistency.CONSISTENCY_ALPHA, union bound); at 20,000 draws
per direction each liar below differs from its sampler by >= 0.1 on the test at threshold ~eps/2
while the intervals are ~0.03 wide, so a miss has probability far below 1e-9 (Hoeffding).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import dpverify
from dpverify import PrivacyClaim, Verdict
from dpverify.auditing.whitebox.consistency import CONSISTENCY_ALPHA, thresholds_for
from dpverify.auditing.streaming import DirectionStats, batch_stats
from dpverify_mechanisms.lecture21_dp import ScalarLaplace
from consistency_doubles import RandomizedResponse  # tests/support


class _Laplace:
    """Laplace on a scalar answer, with separate sampler and density scales (1.0 = eps-DP for eps = 1)."""

    def __init__(self, sample_scale, density_scale, epsilon=1.0):
        self.sample_scale, self.density_scale = sample_scale, density_scale
        self.claim = PrivacyClaim(epsilon)
        self.sensitivity = 1.0

    def sample(self, data, size, rng):
        if self.sample_scale == 0:
            return np.full(size, float(data))
        return float(data) + rng.laplace(0.0, self.sample_scale, size)

    def log_density(self, outputs, data):
        b = self.density_scale
        return -math.log(2 * b) - np.abs(np.asarray(outputs, dtype=float) - float(data)) / b


LIARS = [
    ("no-noise-sampler-laplace-density", _Laplace(0.0, 1.0), (0.0, 1.0)),
    ("2dp-sampler-1dp-density", _Laplace(0.5, 1.0), (0.0, 1.0)),
    ("sharp-density-correct-sampler", _Laplace(1.0, 0.5), (0.0, 1.0)),
    ("unnormalised-rr-mass", RandomizedResponse(1.0, mass_factor=2.0), (0, 1)),
]


@pytest.mark.parametrize("mech,pair", [x[1:] for x in LIARS], ids=[x[0] for x in LIARS])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_lying_mechanisms_are_inconsistent_not_judged(mech, pair, seed):
    r = dpverify.audit(mech, pair, samples=20_000, rng=seed)
    assert r.verdict is Verdict.INCONSISTENT
    assert not r.passed
    assert r.consistency["failures"]
    f = r.consistency["failures"][0]
    assert "test_function" in f and "density_side" in f and "sampler_side" in f
    assert any("does not describe sample" in n for n in r.notes)
    assert r.to_dict()["verdict"] == "inconsistent"


CORRECT = [
    ("laplace", ScalarLaplace(1.0), (0.0, 1.0)),
    ("laplace-unchecked-class", _Laplace(1.0, 1.0), (0.0, 1.0)),
    ("randomized-response", RandomizedResponse(1.0), (0, 1)),
]


@pytest.mark.parametrize("mech,pair", [x[1:] for x in CORRECT], ids=[x[0] for x in CORRECT])
def test_correct_mechanisms_are_consistent(mech, pair):
    # False alarm <= 1e-6 per audit (CONSISTENCY_ALPHA).
    r = dpverify.audit(mech, pair, samples=100_000, rng=7)
    assert r.consistency["consistent"] and r.consistency["false_alarm_rate"] == CONSISTENCY_ALPHA
    assert r.verdict is not Verdict.INCONSISTENT


def test_consistency_can_be_switched_off_and_then_the_liar_is_judged_on_its_density():
    r = dpverify.audit(_Laplace(0.0, 1.0), (0.0, 1.0), samples=5_000, rng=0, consistency=False)
    assert r.consistency is None and r.verdict is not Verdict.INCONSISTENT


def test_thresholds_avoid_atoms_of_the_loss():
    pilot = [np.r_[np.ones(500), -np.ones(500)]]  # randomized response: L = +-eps exactly
    t = thresholds_for(1.0, pilot)
    assert np.all(np.min(np.abs(t[:, None] - np.array([1.0])), axis=1) > 1e-9)
    assert np.all(t > 0)


def test_streaming_summaries_merge_exactly_in_any_order():
    rng = np.random.default_rng(5)
    eps = np.array([0.1, 0.5, 1.0, 2.0])
    t = np.array([0.3, 1.1])
    parts = []
    for _ in range(7):
        raw = rng.normal(0.5, 1.0, 1000)
        raw[:3] = np.inf
        a = np.zeros(1000)
        parts.append(batch_stats(raw - 1e-12, raw, eps, t, a, a - raw, np.zeros(1000)))
    serial = parts[0]
    for p in parts[1:]:
        serial = serial.merge(p)
    tree = ((parts[0].merge(parts[1])).merge(parts[2].merge(parts[3]))).merge(parts[4].merge(parts[5].merge(parts[6])))
    for name in ("delta_sums", "weighted", "below"):
        assert np.array_equal(getattr(serial, name), getattr(tree, name))
    assert serial.n == tree.n == 7000 and serial.infinite == 21
    # The merged mean is the exact mean from below, within 2^-30 per batch.
    raws = np.concatenate([np.r_[np.full(3, np.inf), np.random.default_rng(0).normal(size=0)]])
    assert raws.size == 3
    assert np.all(serial.delta_mean() >= 0) and np.all(serial.delta_mean() <= 1)
    # One summary is a fixed size, whatever the number of draws.
    assert serial.nbytes() == parts[0].nbytes()
    empty = DirectionStats.empty(eps.size, t.size)
    assert np.array_equal(empty.merge(serial).delta_sums, serial.delta_sums)


def test_time_budget_stops_with_the_bounds_so_far():
    r = dpverify.audit(ScalarLaplace(1.0), (0.0, 1.0), samples=10**9, rng=0, time_budget=1.0)
    assert r.stopped_early and 0 < r.samples < 10**9
    assert any("time_budget" in n for n in r.notes)
    assert r.verdict in (Verdict.NOT_VIOLATED, Verdict.INCONCLUSIVE)
    with pytest.raises(dpverify.InvalidArgument, match="time_budget"):
        dpverify.audit(ScalarLaplace(1.0), (0.0, 1.0), samples=100, time_budget=0)


def test_assert_private_fails_on_an_inconsistent_mechanism():
    from dpverify.testing import assert_private

    with pytest.raises(AssertionError, match="inconsistent with sample"):
        assert_private(_Laplace(0.0, 1.0), (0.0, 1.0), samples=20_000, rng=0)
