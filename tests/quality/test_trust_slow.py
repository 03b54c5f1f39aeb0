"""Slow acceptance tests of issue 12 (run with `pytest -m slow`); rates stated per test.

* The verdict rule's false-alarm rate (result.passed is False) on correct, tight mechanisms is at
  most 1 - confidence = 0.05 per audit by the union bound; over 200 seeds the test requires the
  exact binomial (Clopper-Pearson) 95% upper bound on the observed rate to be <= 0.05 *or* the
  count to be within what a rate of 0.05 makes likely (<= 18 of 200: P(Bin(200, 0.05) > 18) < 0.01).
* The consistency check's false-alarm rate is <= 1e-6 per audit: over the 100 seeds x shipped
  white-box mechanisms below, any alarm has probability < 1e-3.
* A correct Laplace drawing from global np.random: false `violated` <= 0.05 per audit, so 0 of 20
  fails with probability <= 1 - 0.95^20 ~ 0.64 in the worst case; the test allows <= 4 of 20
  (P(Bin(20, 0.05) > 4) < 0.003), while the repeated-stream bug gave 20 of 20.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import dpverify
from dpverify import PrivacyClaim
from dpverify.mechanism import is_white_box
from dpverify.registry import load_entries
from dpverify_mechanisms.lecture21_dp import ScalarLaplace

from consistency_doubles import RandomizedResponse  # tests/support

pytestmark = pytest.mark.slow


class Exponential:
    """Exponential mechanism over 4 candidates, utility sensitivity 1: p ~ exp(eps u / 2) (eps-DP)."""

    def __init__(self, eps=1.0):
        self.eps = eps
        self.claim = PrivacyClaim(eps)

    def _logp(self, data):
        z = self.eps * np.asarray(data, dtype=float) / 2
        return z - np.logaddexp.reduce(z)

    def check_neighbours(self, d, dp):
        if np.max(np.abs(np.asarray(d, dtype=float) - np.asarray(dp, dtype=float))) > 1:
            raise dpverify.InvalidArgument("utilities move by at most 1")

    def sample(self, data, size, rng):
        p = np.exp(self._logp(data))
        return rng.choice(p.size, size=size, p=p / p.sum()).astype(np.int64)

    def log_density(self, outputs, data):
        return self._logp(data)[np.asarray(outputs, dtype=np.int64)]


TIGHT = [
    ("laplace", ScalarLaplace(1.0), (0.0, 1.0)),
    ("randomized-response", RandomizedResponse(1.0), (0, 1)),
    ("exponential", Exponential(1.0), ([0.0, 1.0, 0.0, 1.0], [1.0, 0.0, 1.0, 0.0])),
]


@pytest.mark.parametrize("mech,pair", [t[1:] for t in TIGHT], ids=[t[0] for t in TIGHT])
def test_verdict_false_alarm_rate_on_tight_mechanisms(mech, pair):
    fails = sum(not dpverify.audit(mech, pair, samples=20_000, rng=1000 + s).passed for s in range(200))
    assert fails <= 18


def test_no_inconsistency_alarm_on_shipped_white_box_mechanisms():
    for e in load_entries():
        m = e.factory()
        if not is_white_box(m):
            continue
        for s in range(100):
            r = dpverify.audit(m, e.pairs(), samples=5_000, rng=s)
            assert r.verdict != "inconsistent", (e.name, s, r.consistency["failures"][:1])


class GlobalLaplace:
    claim = PrivacyClaim(1.0)
    sensitivity = 1.0

    def sample(self, data, size, rng):
        return float(data) + np.random.laplace(0.0, 1.0, size)

    def log_density(self, outputs, data):
        return -math.log(2.0) - np.abs(np.asarray(outputs, dtype=float) - float(data))


def test_global_np_random_laplace_is_not_violated_at_a_million_samples():
    verdicts = [dpverify.audit(GlobalLaplace(), (0.0, 1.0), samples=10**6, rng=s).verdict for s in range(20)]
    assert sum(v == "violated" for v in verdicts) <= 4
