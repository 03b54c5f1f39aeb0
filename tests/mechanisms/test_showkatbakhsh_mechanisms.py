"""showkatbakhsh-regression: calibrations, claims, f(X), and the projection's density."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpverify import InvalidArgument, PrivacyClaim
from dpverify_mechanisms.showkatbakhsh_regression import (
    MAX_MI_EPSILON_BITS,
    AdditiveNoiseRelease,
    RandomProjectionRelease,
    additive_noise_sigma,
    f_of_x,
    mi_dp_delta,
    projection_sigma,
)


def test_sigma_an_and_mi_bound():
    eps = 0.5
    s = additive_noise_sigma(eps)
    assert s ** 2 == pytest.approx(1 / (2 ** (2 * eps) - 1), rel=1e-14)
    # Lemma 1's bound 1/2 log2(1 + 1/sigma^2) = eps
    assert 0.5 * math.log2(1 + 1 / s ** 2) == pytest.approx(eps, rel=1e-13)


def test_claims_carry_dp_and_mi():
    m = AdditiveNoiseRelease(0.5)
    assert m.claim == PrivacyClaim(0.0, math.sqrt(2 * 0.5 / math.log2(math.e)))
    assert m.mi_epsilon_bits == 0.5
    r = RandomProjectionRelease(0.2, 3)
    assert r.claim.delta == pytest.approx(mi_dp_delta(0.2)) and r.mi_epsilon_bits == 0.2


def test_vacuous_delta_raises():
    ok = AdditiveNoiseRelease(0.99 * MAX_MI_EPSILON_BITS)
    assert ok.claim.delta < 1
    for eps in (MAX_MI_EPSILON_BITS, 1.0, 5.0):
        with pytest.raises(InvalidArgument, match="vacuous"):
            AdditiveNoiseRelease(eps)
        with pytest.raises(InvalidArgument, match="vacuous"):
            RandomProjectionRelease(eps, 2)


def test_f_of_x_sums_down_columns():
    x = np.array([[1.0, 0.5], [0.5, 0.0], [0.5, -1.0]])
    # f_1^2 = 1 + .25 + .25 - 1 = 0.5 ; f_2^2 = .25 + 0 + 1 - 1 = 0.25 ; f = min = 0.5
    assert f_of_x(x) == pytest.approx(math.sqrt(0.25))
    assert projection_sigma(0.5, 3, x) == pytest.approx(math.sqrt(3 / (2 ** 1 - 1) - 0.25))
    assert projection_sigma(0.5, 1, np.ones((10, 2))) == 0.0  # (.)_+ : 1 - 9 < 0


def test_projection_density_is_the_joint_gaussian_of_the_derivation():
    rng = np.random.default_rng(5)
    x = rng.uniform(-1, 1, size=(6, 2))
    y = rng.standard_normal(6)
    data = np.column_stack([x, y])
    m = RandomProjectionRelease(0.5, 3)
    cov = m.covariance(data)
    s = m.sigma_for(data)
    a = np.column_stack([x, y])
    np.testing.assert_allclose(cov, a.T @ a + np.diag([s * s, s * s, 0.0]), rtol=1e-14)
    out = m.sample(data, 4, rng)
    assert out.shape == (4, 3, 3)
    want = stats.multivariate_normal(np.zeros(3), cov).logpdf(out.reshape(-1, 3)).reshape(4, 3).sum(axis=1)
    np.testing.assert_allclose(m.log_density(out, data), want, rtol=1e-11)


def test_projection_rows_have_the_derived_covariance_by_sampling():
    """Empirical second moments of sampled rows against Sigma(D).

    For each entry (a, b) of Sigma, the average of o_a o_b over N = 40,000 independent rows has
    standard deviation sqrt((S_aa S_bb + S_ab^2) / N) (Gaussian fourth moments); a deviation of
    6 standard deviations has probability < 2e-9 per entry, so with 6 distinct entries the
    false-failure rate is below 1.2e-8.
    """
    rng = np.random.default_rng(11)
    x = rng.uniform(-1, 1, size=(8, 2))
    data = np.column_stack([x, x @ [1.0, -1.0] + 0.3 * rng.standard_normal(8)])
    m = RandomProjectionRelease(0.5, 4)
    assert m.sigma_for(data) > 0
    cov = m.covariance(data)
    rows = m.sample(data, 10_000, rng).reshape(-1, 3)
    n = rows.shape[0]
    emp = rows.T @ rows / n
    sd = np.sqrt((np.outer(np.diag(cov), np.diag(cov)) + cov ** 2) / n)
    assert np.all(np.abs(emp - cov) < 6 * sd), (emp, cov)


def test_density_under_d_prime_uses_its_own_sigma():
    x = np.zeros((5, 1))
    x[:, 0] = [1.0, 1.0, 0.0, 0.0, 0.0]
    xp = x.copy()
    xp[2, 0] = 1.0  # f^2 goes from 1 to 2
    y = np.arange(5.0)
    m = RandomProjectionRelease(0.5, 3)
    d, dp = np.column_stack([x, y]), np.column_stack([xp, y])
    assert m.sigma_for(d) ** 2 == pytest.approx(3 - 1) and m.sigma_for(dp) ** 2 == pytest.approx(3 - 2)
    out = m.sample(d, 2, 0)
    want = stats.multivariate_normal(np.zeros(2), m.covariance(dp)).logpdf(out.reshape(-1, 2)).reshape(2, 3).sum(1)
    np.testing.assert_allclose(m.log_density(out, dp), want, rtol=1e-12)


def test_singular_covariance_has_no_density():
    x = np.ones((10, 1))
    data = np.column_stack([x, 2 * x[:, 0]])  # y in the span of X, sigma_RP = 0
    m = RandomProjectionRelease(0.5, 2)
    assert m.sigma_for(data) == 0.0
    out = m.sample(data, 2, 0)  # the mechanism runs
    with pytest.raises(InvalidArgument, match="no density"):
        m.log_density(out, data)


def test_neighbours_and_bounds():
    m = RandomProjectionRelease(0.5, 2)
    a = np.array([[1.0, 0.0, 3.0], [0.5, 0.5, 1.0]])
    b = a.copy()
    b[0, 0] = -1.0
    m.check_neighbours(a, b)
    c = b.copy()
    c[1, 1] = 0.0
    with pytest.raises(InvalidArgument, match="one entry"):
        m.check_neighbours(a, c)
    e = a.copy()
    e[0, 2] = 0.0
    with pytest.raises(InvalidArgument, match="different y"):
        m.check_neighbours(a, e)
    with pytest.raises(InvalidArgument, match=r"\|X_ij\| <= 1"):
        AdditiveNoiseRelease(0.5).sample(np.array([[1.0000001]]), 1, 0)
