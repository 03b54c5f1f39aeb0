"""False alarms of a whole privacy-test run: a suite of 20 privacy tests on CORRECT mechanisms
(most with exactly tight claims, the hardest case), run with many seeds, must fail no more often
than the documented per-run budget alpha_run.

The runs are simulated in-process with the plugin's own arithmetic (no pytester, for speed):
each test's check runs at ``check_confidence(alpha_run, 20)`` = 1 - alpha_run/20 with the seed
``check_seed(run_seed, nodeid, 0)``, exactly as ``dp_auditor.assert_private`` does. A run fails
when any of its 20 checks fails.

Binomial bounds (the false-failure rate of each meta-test is stated where it is asserted):
with R runs and a true per-run failure probability p <= alpha_run, the number of failed runs F
is stochastically below Binomial(R, alpha_run); we assert F <= k with P(Bin(R, alpha_run) > k)
<= 1e-6.

Monotonicity used to save time: the samples of a check depend on the seed only, and a lower
confidence bound can only fall when the confidence rises, so a check that passes at
alpha_run = 0.5 passes at every alpha_run < 0.5. The runs are made at alpha_run = 0.5 (where the
bound bites); only the runs that failed there are re-run at the default 1e-3.
"""
from __future__ import annotations

import pytest
from scipy.stats import binom

from dpverify import NeighbourRelation
from dpverify import strategies as dps
from dpverify.testing import DEFAULT_ALPHA_RUN
from dpverify.testing.assertion import check_private
from dpverify.testing.profiles import check_confidence, check_seed
from dp_testing_doubles import GaussianSum, RandomisedResponse, TightGaussian
from dpverify_mechanisms.lecture21_dp import ClassicalGaussian, ScalarLaplace, VectorLaplace
from dpverify_mechanisms.tu_projections import KenthapadiGaussian

import numpy as np

#: Outputs per direction. The guarantee holds for any sample size; small keeps 1000 audits fast.
SAMPLES = 4_000
STRESS_ALPHA = 0.5


def suite():
    """The 20 privacy tests: (id, mechanism, pairs or strategy)."""
    tests = []
    for sigma in (0.5, 1.0, 2.0, 4.0):
        for eps in (0.5, 1.0):
            tests.append((f"tight-gaussian-s{sigma}-e{eps}", TightGaussian(eps, sigma), (0.0, 1.0)))
    for p in (0.6, 0.75, 0.9):
        tests.append((f"randomised-response-{p}", RandomisedResponse(p), [(0, 1)]))
    for eps in (0.5, 1.0, 2.0):
        tests.append((f"laplace-{eps}", ScalarLaplace(eps), (0.0, 1.0)))
    tests.append(("vector-laplace-patterns", VectorLaplace(1.0, 3),
                  [(np.zeros(3), np.array([1.0, 0.0, 0.0])), (np.zeros(3), np.full(3, 1 / 3))]))
    tests.append(("vector-laplace-strategy", VectorLaplace(1.0, 3), dps.query_vectors(3)))
    tests.append(("classical-gaussian", ClassicalGaussian(0.5, 1e-3), (0.0, 1.0)))
    tests.append(("kenthapadi-gaussian", KenthapadiGaussian(1.0, 1e-3), (0.0, 1.0)))
    tests.append(("gaussian-sum-strategy", GaussianSum(1.0, 1.0), dps.vectors(4, low=0.0, high=1.0)))
    tests.append(("histogram-laplace-strategy", VectorLaplace(1.0, 4, sensitivity=2.0),
                  dps.histograms(4, max_count=5, relation=NeighbourRelation.REPLACE_ONE)))
    assert len(tests) == 20
    return tests


def run_fails(tests, run_seed: int, alpha_run: float) -> bool:
    confidence = check_confidence(alpha_run, len(tests))
    for name, mechanism, pairs in tests:
        nodeid = f"test_suite.py::test_private[{name}]"
        try:
            check_private(mechanism, pairs, None, samples=SAMPLES, confidence=confidence,
                          seed=check_seed(run_seed, nodeid, 0), max_pairs=4)
        except AssertionError:
            return True
    return False


def allowed_failures(runs: int, rate: float, tail: float = 1e-6) -> int:
    """The smallest k with P(Binomial(runs, rate) > k) <= tail."""
    k = 0
    while binom.sf(k, runs, rate) > tail:
        k += 1
    return k


def check_runs(runs: int) -> tuple[int, int]:
    tests = suite()
    failed_stress = [s for s in range(runs) if run_fails(tests, s, STRESS_ALPHA)]
    failed_default = [s for s in failed_stress if run_fails(tests, s, DEFAULT_ALPHA_RUN)]
    # False-failure rate of each assertion <= 1e-6 (binomial tail), so <= 2e-6 for the test.
    assert len(failed_stress) <= allowed_failures(runs, STRESS_ALPHA), failed_stress
    assert len(failed_default) <= allowed_failures(runs, DEFAULT_ALPHA_RUN), failed_default
    return len(failed_stress), len(failed_default)


@pytest.mark.slow  # a false-alarm run (13 s): with the other long statistical runs under -m slow
def test_false_alarms_within_budget_quick():
    """3 runs of the 20-test suite: a smoke check of the machinery in the default suite (with few runs
    only the alpha_run = 1e-3 bound, at most 2 failed runs, can fail; the 50-run acceptance check
    is the slow test below)."""
    check_runs(3)


@pytest.mark.slow
def test_false_alarms_within_budget_50_runs():
    """Acceptance: 20 privacy tests x 50 seeds. Allowed failing runs: 41 of 50 at alpha_run = 0.5,
    3 of 50 at alpha_run = 1e-3 (each with binomial tail <= 1e-6)."""
    stress, default = check_runs(50)
    print(f"failed runs: {stress}/50 at alpha_run={STRESS_ALPHA}, {default}/50 at alpha_run={DEFAULT_ALPHA_RUN}")
