"""Privacy regression tests of noisy_stats (the dpverify pytest plugin provides `dp_auditor`)."""
import numpy as np

from dpverify import strategies as dps
from noisy_stats import NoisyMean


def test_noisy_mean_keeps_its_claim(dp_auditor):
    # Pairs of datasets that differ in one value, drawn by hypothesis from the run's seed.
    dp_auditor.assert_private(NoisyMean(epsilon=1.0, n=10), dps.vectors(10, low=0.0, high=1.0))


def test_noisy_mean_on_the_worst_case_pair(dp_auditor):
    zeros = np.zeros(10)
    one_changed = zeros.copy()
    one_changed[0] = 1.0  # the mean moves by the full sensitivity 1/n
    dp_auditor.assert_private(NoisyMean(epsilon=1.0, n=10), (zeros, one_changed))


def test_release_is_a_number():
    assert np.isfinite(NoisyMean(epsilon=1.0, n=3).release([0.1, 0.5, 0.9], rng=0))
