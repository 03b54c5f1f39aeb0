"""``zhou-compression`` Procedures 4.1 / 4.2: constants, claim, truncation normaliser, samplers, density.

Statistical assertions have false-failure rate at most 1e-8 each (stated per test).
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dpverify
from dpverify import InvalidArgument, Verdict
from dpverify.auditing.bounds import clopper_pearson_lower, clopper_pearson_upper
from dpverify_mechanisms.zhou_compression import (
    C1,
    C2,
    C_TRUNCATION,
    PhiDraw,
    ZhouRenormalised,
    ZhouTruncation,
    chernoff_difference_of_chi2,
    m_minimum,
    normalise_columns,
    truncation_probability_bounds,
)
from dpverify_mechanisms.zhou_registry import DELTA_MAX, M, N, P, default_pairs, flip, reference_data

ALPHA = 1e-8


def test_constants_and_claim():
    assert C1 == pytest.approx(2.5044, abs=1e-4) and C2 == pytest.approx(7.6885, abs=1e-4)  # Lemma B.1
    assert C_TRUNCATION == pytest.approx(math.sqrt(2 * (C1 + C2)))
    assert m_minimum(200, 2) == pytest.approx(2 * (C1 + C2) * math.log(800))
    mech = ZhouRenormalised(reference_data(), M, DELTA_MAX)
    # (15) by hand: Sigma_1 = I, F = p Delta_max, l_i = 1 - F
    f = P * DELTA_MAX
    li = 1 - f
    expected = M * P * f / (2 * li) * (C_TRUNCATION * math.sqrt(math.log(2 * N * P) / M) + DELTA_MAX
                                       + 2 * f / (P * li))
    assert mech.claim.epsilon == pytest.approx(expected, rel=1e-12)
    assert mech.claim.delta == 0.0
    assert mech.threshold == pytest.approx(C_TRUNCATION * math.sqrt(math.log(800) / M) + DELTA_MAX)


def test_chernoff_is_an_upper_bound():
    """P(aA - bB > s) by Monte Carlo (A, B ~ chi^2_m) never exceeds the Chernoff bound beyond CP
    error; one-sided CP at ALPHA: false-failure rate <= 1e-8 per case."""
    rng = np.random.default_rng(3)
    m, n = 6, 400_000
    a_s, b_s = rng.chisquare(m, n), rng.chisquare(m, n)
    for a, b, s in [(0.65, 0.35, 3.0), (0.5, 0.5, 4.0), (0.9, 0.1, 9.0), (0.35, 0.65, 1.0)]:
        k = int(np.count_nonzero(a * a_s - b * b_s > s))
        bound = chernoff_difference_of_chi2(a, b, s, m)
        assert clopper_pearson_lower(k, n, ALPHA) <= bound
        assert bound < 1
    assert chernoff_difference_of_chi2(0.5, 0.5, -1.0, m) == 1.0


def test_truncation_probability_bracket_by_monte_carlo():
    """Small m (below Lemma 4.4, so P[E] is large enough to estimate): the Monte Carlo frequency of
    E lies in [lower, upper] up to a two-sided Clopper-Pearson interval at ALPHA (rate <= 1e-8 each)."""
    rng = np.random.default_rng(9)
    n = 100_000
    for sigma, ref, t, m in [
        (np.array([[1.0, 0.3], [0.3, 1.0]]), np.eye(2), 0.6, 30),
        (np.eye(3), np.eye(3), 0.9, 20),
        (np.array([[1.0, -0.2], [-0.2, 1.0]]), np.array([[1.0, -0.25], [-0.25, 1.0]]), 0.5, 40),
    ]:
        lo, hi = truncation_probability_bounds(sigma, ref, t, m)
        z = rng.standard_normal((n, m, sigma.shape[0])) @ np.linalg.cholesky(sigma).T
        s = np.swapaxes(z, 1, 2) @ z / m
        k = int(np.count_nonzero(np.max(np.abs(s - ref), axis=(1, 2)) > t))
        assert 0 < lo <= hi < 1
        assert clopper_pearson_upper(k, n, ALPHA / 2) >= lo
        assert clopper_pearson_lower(k, n, ALPHA / 2) <= hi


def _mechs():
    x = reference_data()
    return [ZhouTruncation(x, M, DELTA_MAX), ZhouTruncation(x, M, DELTA_MAX, phi=PhiDraw.REDUCED),
            ZhouRenormalised(x, M, DELTA_MAX)]


def test_three_samplers_same_law():
    """Procedure 4.1 with the full Phi, with the reduced Phi, and Procedure 4.2 draw one law.
    Data: the neighbour of the reference (Sigma != I). Two-sample KS (full vs reduced, full vs 4.2)
    on S_11, S_12 and the log density: 6 tests at ALPHA, false-failure rate <= 6e-8."""
    _, y = default_pairs()[0]
    full, reduced, renorm = _mechs()
    a = full.sample(y, 1_500, np.random.default_rng(1))
    for other in (reduced, renorm):
        b = other.sample(y, 20_000, np.random.default_rng(2))
        for f in (lambda o: (o[:, :, 0] ** 2).sum(1), lambda o: (o[:, :, 0] * o[:, :, 1]).sum(1),
                  lambda o: full.log_density(o, y)):
            assert stats.ks_2samp(f(a), f(b)).pvalue > ALPHA


def test_log_density_matches_gaussian_closed_form():
    """Kept outputs: sum of N(0, Sigma) row log densities (scipy) minus log(1 - P[E]) (midpoint);
    outputs in E: -inf."""
    _, y = default_pairs()[0]
    mech = ZhouRenormalised(reference_data(), M, DELTA_MAX)
    out = mech.sample(y, 20, np.random.default_rng(5))
    sigma = y.T @ y / N
    ref = stats.multivariate_normal(np.zeros(P), sigma).logpdf(out.reshape(-1, P)).reshape(20, M).sum(axis=1)
    lo, hi = mech.truncation_probability(y)
    norm = -0.5 * (math.log1p(-lo) + math.log1p(-hi))
    np.testing.assert_allclose(mech.log_density(out, y), ref + norm, rtol=1e-11)
    assert 0 < mech.log_density_error(y) < 1e-9
    big = out.copy()
    big[:, :, 0] *= 3.0  # S_11 ~ 9 > 1 + threshold: in E
    assert np.all(mech.log_density(big, y) == -np.inf)
    assert not np.any(mech.kept(big))


@pytest.mark.parametrize("which", [1, 2], ids=["4.1-reduced", "4.2"])
def test_audit_not_violated(which):
    """The claim alpha = 2.87 is far above the losses (about 0.12 standard deviation)."""
    mech = _mechs()[which]
    res = dpverify.audit(mech, default_pairs(), samples=20_000, rng=0)
    assert res.verdict == Verdict.NOT_VIOLATED
    assert res.epsilon_lower < 1.0
    assert all(r.infinite_loss_count == 0 for r in res.directions)  # one support for all of S_n


def test_check_neighbours_and_set_membership():
    x, y = default_pairs()[0]
    mech = ZhouRenormalised(x, M, DELTA_MAX)
    mech.check_neighbours(x, y)
    two_rows = flip(x, [0, 2], [1])
    with pytest.raises(InvalidArgument, match="differ in 2 rows"):
        mech.check_neighbours(x, two_rows)
    with pytest.raises(InvalidArgument, match="reference"):
        mech.check_neighbours(y, flip(x, 0, [0]))  # both in S_n, one row apart, neither is X_1
    with pytest.raises(InvalidArgument, match="outside the set S_n"):
        mech.sample(flip(x, [0, 1, 4, 5], [1]), 1, 0)


def test_unnormalised_data_is_rejected_not_rescaled():
    x = reference_data()
    mech = ZhouRenormalised(x, M, DELTA_MAX)
    z = x * 0.5
    with pytest.raises(InvalidArgument, match=r"\|\|X_j\|\|\^2"):
        mech.sample(z, 1, 0)
    np.testing.assert_allclose(normalise_columns(z), x)
    with pytest.raises(InvalidArgument, match="zero"):
        normalise_columns(np.zeros((4, 2)))
