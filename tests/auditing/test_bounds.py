"""Confidence bounds: agreement with exact binomial bounds, and coverage over many seeds."""
import numpy as np
import pytest
from scipy import stats

from dpverify import InvalidArgument
from dpverify.auditing.bounds import (clopper_pearson_lower, clopper_pearson_upper, kl_bernoulli, kl_lower,
                                   kl_upper)


def test_kl_bounds_bracket_the_mean_and_are_close_to_clopper_pearson():
    n, alpha = 10_000, 1e-3
    k = np.array([1, 10, 100, 5000, 9999])
    m = k / n
    lo, hi = kl_lower(m, n, alpha), kl_upper(m, n, alpha)
    cp_lo, cp_hi = clopper_pearson_lower(k, n, alpha), clopper_pearson_upper(k, n, alpha)
    assert np.all(lo <= m) and np.all(hi >= m)
    # Chernoff-KL is never tighter than exact Clopper-Pearson for Bernoulli samples ...
    assert np.all(lo <= cp_lo * (1 + 1e-9)) and np.all(hi >= cp_hi * (1 - 1e-9))
    # ... and not much looser: within 25% from 10 successes on; at a single success the
    # Chernoff bound is ~2.7x below Clopper-Pearson (its known weakness at tiny counts).
    assert np.all(lo[1:] >= cp_lo[1:] * 0.75) and np.all(hi <= cp_hi * 1.5)
    assert lo[0] >= cp_lo[0] / 3
    # at the bound, n * kl equals log(1/alpha)
    np.testing.assert_allclose(n * kl_bernoulli(m[1:4], lo[1:4]), np.log(1 / alpha), rtol=1e-6)


def test_zero_mean_has_zero_lower_bound_and_one_has_unit_upper():
    assert kl_lower(0.0, 100, 0.05) == 0.0
    assert kl_upper(1.0, 100, 0.05) == 1.0
    assert clopper_pearson_lower(0, 100, 0.05) == 0.0
    assert clopper_pearson_upper(100, 100, 0.05) == 1.0


def test_kl_lower_coverage_for_bounded_non_bernoulli_samples():
    """Coverage of the 0.9 lower bound over 2000 seeds, for Beta(0.2, 5) samples.

    Misses ~ Binomial(2000, p <= 0.1); failing needs > 275 misses, which has probability
    < 1e-6 when p <= 0.1 (binomial tail), so a false failure is negligible.
    """
    rng = np.random.default_rng(12345)
    mu = 0.2 / 5.2
    x = rng.beta(0.2, 5.0, size=(2000, 50))
    lows = kl_lower(x.mean(axis=1), 50, 0.1)
    misses = int(np.sum(lows > mu))
    assert stats.binom.sf(275, 2000, 0.1) < 1e-6
    assert misses <= 275


@pytest.mark.parametrize("call", [
    lambda: kl_lower(1.5, 10, 0.05), lambda: kl_lower(0.5, 0, 0.05), lambda: kl_lower(0.5, 10, 1.0),
    lambda: clopper_pearson_lower(11, 10, 0.05), lambda: clopper_pearson_upper(0.5, 10, 0.05),
], ids=["mean>1", "n=0", "alpha=1", "k>n", "k-not-integer"])
def test_bad_bound_arguments(call):
    with pytest.raises(InvalidArgument):
        call()
