"""``jiang-wishart`` Algorithms 1 and 2: Wishart sampler and density cross-checks, support mismatch.

Statistical tests state their false-failure rate; each is at most 1e-8 per assertion (fixed seeds
make the run deterministic; the rates say how unlikely a failure of a correct implementation is).
"""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dpverify
from dpverify import InvalidArgument, Verdict
from dpverify.auditing.bounds import clopper_pearson_lower, clopper_pearson_upper
from dpverify_mechanisms.jiang_wishart import (
    LaplaceCovariance,
    WishartCovariance,
    WishartSampler,
    wishart_logpdf,
    wishart_sample_bartlett,
    wishart_sample_scipy,
)
from dpverify_mechanisms.jiang_wishart_registry import base_data, default_pairs

ALPHA = 1e-8  # per statistical assertion


def _scale(d, seed):
    b = np.random.default_rng(seed).standard_normal((d, d))
    c = b @ b.T + 0.5 * np.eye(d)
    return (c + c.T) / 2


@pytest.mark.parametrize("d,df", [(1, 2.0), (2, 3.0), (3, 4.0), (3, 9.5), (5, 4.2)], ids=lambda x: str(x))
def test_logpdf_matches_scipy(d, df):
    """Closed form vs scipy.stats.wishart.logpdf on scipy's own draws, relative error < 1e-10."""
    c = _scale(d, d)
    w = wishart_sample_scipy(df, c, 20, np.random.default_rng(1))
    mine = wishart_logpdf(w, df, c)
    ref = np.array([stats.wishart.logpdf(x, df=df, scale=c) for x in w])
    np.testing.assert_allclose(mine, ref, rtol=1e-10, atol=1e-10)


def test_logpdf_support():
    c = np.eye(2)
    w = np.array([[[1.0, 0.2], [0.2, 1.0]], [[1.0, 2.0], [2.0, 1.0]], [[1.0, 0.2], [0.3, 1.0]],
                  [[0.0, 0.0], [0.0, 1.0]]])
    out = wishart_logpdf(w, 3.0, c)
    assert np.isfinite(out[0])
    assert np.all(out[1:] == -np.inf)  # indefinite, not symmetric, singular


@pytest.mark.parametrize("sampler", [wishart_sample_bartlett, wishart_sample_scipy], ids=["bartlett", "scipy"])
def test_samplers_follow_exact_laws(sampler):
    """tr(W) ~ chi^2_{df d} for C = I, and W_11 / C_11 ~ chi^2_df for any C (one-sample KS).

    False-failure rate: 2 KS tests at ALPHA each, i.e. <= 2e-8 per sampler.
    """
    d, df, n = 3, 4.0, 20_000
    w = sampler(df, np.eye(d), n, np.random.default_rng(5))
    assert stats.kstest(np.trace(w, axis1=1, axis2=2), stats.chi2(df * d).cdf).pvalue > ALPHA
    c = _scale(d, 9)
    w = sampler(df, c, n, np.random.default_rng(6))
    assert stats.kstest(w[:, 0, 0] / c[0, 0], stats.chi2(df).cdf).pvalue > ALPHA
    assert np.array_equal(w, np.swapaxes(w, 1, 2))


def test_bartlett_and_scipy_agree_in_distribution():
    """Two-sample KS between the samplers on the smallest eigenvalue, an off-diagonal entry and the
    log density (functionals a one-sample test does not cover). False-failure rate <= 3e-8."""
    d, df, n = 3, 4.0, 20_000
    c = _scale(d, 3)
    a = wishart_sample_bartlett(df, c, n, np.random.default_rng(7))
    b = wishart_sample_scipy(df, c, n, np.random.default_rng(8))
    for f in (lambda w: np.linalg.eigvalsh(w)[:, 0], lambda w: w[:, 0, 2], lambda w: wishart_logpdf(w, df, c)):
        assert stats.ks_2samp(f(a), f(b)).pvalue > ALPHA


def test_both_samplers_in_the_mechanism():
    x = base_data()
    for sampler in WishartSampler:
        m = WishartCovariance(1.0, 2, 10, sampler=sampler)
        out = m.sample(x, 50, np.random.default_rng(0))
        assert out.shape == (50, 2, 2) and np.array_equal(out, np.swapaxes(out, 1, 2))
        assert np.all(np.isfinite(m.log_density(out, x)))


def test_wishart_finite_loss_is_eps_over_3_times_norm_change():
    """Where finite, L = tr(C^{-1} Delta)/2 = (eps/3)(|v|^2 - |u|^2): the paper's bound eps is loose."""
    eps = 0.7
    m = WishartCovariance(eps, 2, 10)
    x, y = default_pairs()[2]  # column 0: zero vs e1
    out = m.sample(y, 5000, np.random.default_rng(2))  # from the unit-column dataset
    loss = m.log_density(out, y) - m.log_density(out, x)
    assert np.all(np.isfinite(loss))  # A_hat - A(zero column) = W + e1 e1^T / n is always PD
    np.testing.assert_allclose(loss, eps / 3, rtol=0, atol=1e-9)


@pytest.mark.parametrize("eps", [1.0, 0.3])
def test_wishart_support_mismatch_probability(eps):
    """Zero column -> unit column: A + W - A' = W - e1 e1^T/n is not PD with probability exactly
    1 - exp(-eps/3) (1 / (Z^{-1})_11 ~ chi^2_2 for Z ~ W_2(3, I)); the density says -inf there.
    Two-sided Clopper-Pearson at ALPHA: false-failure rate <= 1e-8."""
    m = WishartCovariance(eps, 2, 10)
    x, y = default_pairs()[2]
    n = 40_000
    out = m.sample(x, n, np.random.default_rng(11))
    assert np.all(np.isfinite(m.log_density(out, x)))
    k = int(np.count_nonzero(m.log_density(out, y) == -np.inf))
    p = -math.expm1(-eps / 3)
    assert clopper_pearson_lower(k, n, ALPHA / 2) <= p <= clopper_pearson_upper(k, n, ALPHA / 2)


def test_wishart_audit_counts_infinite_loss():
    """The audit sees the support mismatch: epsilon_lower = inf, verdict violated (P(L = inf) ~ 0.28)."""
    m = WishartCovariance(1.0, 2, 10)
    res = dpverify.audit(m, default_pairs()[2], samples=20_000, rng=0)
    assert res.verdict == Verdict.VIOLATED
    assert res.epsilon_lower == math.inf
    assert max(r.infinite_loss_count for r in res.directions) > 0


def test_laplace_density_matches_scipy_and_symmetry():
    m = LaplaceCovariance(1.3, 3, 20)
    x = base_data(3, 20)
    out = m.sample(x, 30, np.random.default_rng(4))
    a = x @ x.T / 20
    iu = np.triu_indices(3)
    ref = stats.laplace.logpdf(out[:, iu[0], iu[1]], loc=a[iu], scale=2 * 3 / (20 * 1.3)).sum(axis=1)
    np.testing.assert_allclose(m.log_density(out, x), ref, rtol=1e-12)
    bad = out.copy()
    bad[:, 1, 0] += 1e-3
    assert np.all(m.log_density(bad, x) == -np.inf)


def test_laplace_audit_below_claim():
    """Worst pair (upper-triangle l1 change sqrt 5 for d = 2): true eps = sqrt(5)/4 ~ 0.559 < 1.
    The audit's lower bound (95%) stays below the claim and below the true value."""
    m = LaplaceCovariance(1.0, 2, 10)
    res = dpverify.audit(m, default_pairs(worst_laplace=True)[3], samples=50_000, rng=1)
    assert res.verdict == Verdict.NOT_VIOLATED
    assert 0.4 < res.epsilon_lower <= math.sqrt(5) / 4 + 1e-9


def test_check_neighbours():
    m = LaplaceCovariance(1.0, 2, 10)
    for a, b in default_pairs(worst_laplace=True):
        m.check_neighbours(a, b)
    x = base_data()
    y = x.copy()
    y[:, :2] = 0.0
    with pytest.raises(InvalidArgument, match="differ in 2 columns"):
        m.check_neighbours(x, y)


@pytest.mark.parametrize("cls", [LaplaceCovariance, WishartCovariance])
def test_norm_bound_never_clipped(cls):
    m = cls(1.0, 2, 10)
    x = base_data()
    x[:, 4] = [1.0, 1e-5]
    with pytest.raises(InvalidArgument, match=r"column 4 has l2 norm .* > 1"):
        m.sample(x, 1, 0)
    out = m.sample(base_data(), 2, 0)
    with pytest.raises(InvalidArgument, match="shape"):
        m.log_density(out[:, :1, :], base_data())
