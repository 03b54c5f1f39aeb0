"""zCDP, Gaussian DP, curves and calibration against closed forms (issue 18)."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

import dpverify.accounting as A
from dpverify.accounting import Gaussian, Method, SelfComposed, ZCDP
from dpverify.claims import NeighbourRelation
from dpverify.errors import InvalidArgument, UnsupportedEvent


def _mp_gauss_delta(mu, eps):
    with mpmath.workdps(50):
        mu, eps = mpmath.mpf(mu), mpmath.mpf(eps)
        return mpmath.ncdf(mu / 2 - eps / mu) - mpmath.e ** eps * mpmath.ncdf(-mu / 2 - eps / mu)


@pytest.mark.parametrize("rho,delta", [(0.01, 1e-5), (0.5, 1e-5), (2.0, 1e-10), (10.0, 1e-12)])
def test_zcdp_conversions_order_and_closed_form(rho, delta):
    bs = A.zcdp_epsilon_bs(rho, delta)
    assert bs >= rho + 2 * math.sqrt(rho * math.log(1 / delta))
    assert bs <= (rho + 2 * math.sqrt(rho * math.log(1 / delta))) * (1 + 1e-11)
    cks = A.zcdp_epsilon(rho, delta)
    exact_gauss = A.gaussian_epsilon_for_rho(rho, delta)
    # the Gaussian mechanism is rho-zCDP, so every zCDP conversion is >= its exact epsilon
    assert exact_gauss <= cks <= bs
    # exact Gaussian: delta at the returned epsilon is <= delta (mpmath), and just below it is not
    mu = math.sqrt(2 * rho)
    assert _mp_gauss_delta(mu, exact_gauss) <= delta
    assert _mp_gauss_delta(mu, exact_gauss * (1 - 1e-9)) > delta
    # round trip through zcdp_delta (up to the two upward roundings)
    assert A.zcdp_delta(rho, cks) <= delta * (1 + 1e-8)


def test_zcdp_event_in_rdp_and_refused_by_pld():
    ev = SelfComposed(ZCDP(0.05), 10)  # rho = 0.5 in total
    eps_rdp = Method.RDP.default().epsilon(ev, 1e-5)
    assert A.zcdp_epsilon(0.5, 1e-5) <= eps_rdp * (1 + 1e-9) + 1e-9
    assert eps_rdp <= A.zcdp_epsilon(0.5, 1e-5) * 1.01  # the orders grid is fine enough
    assert not Method.PLD.default().supports(ev)
    acc = A.Accountant(Method.PLD)
    acc.compose(Gaussian(1.0))
    with pytest.raises(UnsupportedEvent):
        acc.compose(ZCDP(0.1))
    assert acc.ledger == A.Composed((Gaussian(1.0),))  # not mutated


@pytest.mark.parametrize("bad", [-1.0, float("nan"), float("inf"), "1"])
def test_zcdp_bad_rho(bad):
    with pytest.raises(InvalidArgument, match="rho"):
        ZCDP(bad)
    with pytest.raises(InvalidArgument, match="rho"):
        A.zcdp_epsilon(bad, 1e-5)


def test_gdp_mu_of_k_gaussians_and_profile():
    for k, sigma in [(1, 1.0), (100, 10.0), (1000, 20.0)]:
        mu = A.gdp_mu(SelfComposed(Gaussian(sigma), k))
        assert mu == pytest.approx(math.sqrt(k) / sigma, rel=1e-14)
        eps = A.gdp_epsilon(mu, 1e-5)
        assert eps == pytest.approx(A.epsilon_for_delta(SelfComposed(Gaussian(sigma), k), 1e-5), rel=1e-9)
        assert _mp_gauss_delta(mu, eps) <= 1e-5
    with pytest.raises(InvalidArgument, match="Gaussian"):
        A.gdp_mu(A.Laplace(1.0))


def test_gdp_tradeoff_and_tpr_closed_forms():
    alpha = np.array([0.0, 0.01, 0.1, 0.5, 1.0])
    beta = A.gdp_tradeoff(1.0, alpha)
    tpr = A.gdp_tpr_at_fpr(1.0, alpha)
    np.testing.assert_allclose(beta + tpr, 1.0, atol=1e-15)
    # mu = 0: trivial trade-off 1 - alpha
    np.testing.assert_allclose(A.gdp_tradeoff(0.0, alpha), 1 - alpha, atol=1e-15)
    # Dong--Roth--Su: G_mu(alpha) = Phi(Phi^{-1}(1-alpha) - mu), checked with mpmath at alpha = 0.05
    with mpmath.workdps(30):
        ref = mpmath.ncdf(-mpmath.sqrt(2) * mpmath.erfinv(2 * mpmath.mpf(0.05) - 1) - 2)
        assert A.gdp_tradeoff(2.0, 0.05) == pytest.approx(float(ref), rel=1e-12)
        # convexity/symmetry of a trade-off function: G(G(alpha)) = alpha
        assert A.gdp_tradeoff(1.5, A.gdp_tradeoff(1.5, 0.2)) == pytest.approx(0.2, rel=1e-10)
        with pytest.raises(InvalidArgument):
            A.gdp_tpr_at_fpr(1.0, [0.1, float("nan")])


def test_clt_mu_matches_formula():
    q, s, T = 0.01, 1.0, 1000
    inner = math.exp(1) * 0.5 * math.erfc(-1.5 / math.sqrt(2)) + 3 * 0.5 * math.erfc(0.5 / math.sqrt(2)) - 2
    assert A.clt_mu_dpsgd(q, s, T) == pytest.approx(q * math.sqrt(T * inner), rel=1e-14)


def test_curves_arrays_and_bounds():
    ev = SelfComposed(Gaussian(2.0), 16)  # mu = 2
    ds = np.array([1e-3, 1e-6, 1e-9])
    up = A.epsilon_curve(ev, ds)
    exact = A.gdp_epsilon(2.0, ds)
    assert np.all(up >= exact) and np.all(up <= exact * (1 + 1e-4))
    assert A.epsilon_curve(ev, ds, Method.RDP).shape == (3,)
    es = np.array([0.5, 1.0, 3.0])
    dc = A.delta_curve(ev, es)
    assert np.all(dc >= A.gdp_delta(2.0, es)) and np.all(dc <= A.gdp_delta(2.0, es) * (1 + 1e-3))
    b = A.pld_bounds(ev, ds)
    assert np.all(b.lower <= exact) and np.all(exact <= b.upper)
    assert np.all(b.upper - b.lower <= 1e-2 * exact)
    assert np.all(b.numerical_slack >= 0)
    with pytest.raises(InvalidArgument, match="deltas"):
        A.epsilon_curve(ev, [1e-5, 0.0])
    with pytest.raises(InvalidArgument, match="epsilons"):
        A.delta_curve(ev, [float("nan")])


@pytest.mark.slow
def test_lower_bound_is_below_exact_for_large_losses():
    # single Gaussian with sigma = 1/sqrt(1000): mu ~ 31.6, epsilon in the hundreds
    ev = Gaussian(1 / math.sqrt(1000))
    ds = [1e-5, 1e-10]
    b = A.pld_bounds(ev, ds)
    exact = A.gdp_epsilon(math.sqrt(1000), ds)
    assert np.all(np.isfinite(b.upper))
    assert np.all(b.lower <= exact) and np.all(exact <= b.upper)
    assert np.all(b.upper <= exact * (1 + 1e-4))


def test_gaussian_sigma_for_composition_is_safe_and_tight():
    for k, eps, d in [(1, 1.0, 1e-5), (100, 2.0, 1e-6), (1000, 8.0, 1e-10)]:
        s = A.gaussian_sigma_for_composition(k, eps, d)
        assert float(_mp_gauss_delta(math.sqrt(k) / s, eps)) <= d * (1 + 1e-12)
        assert float(_mp_gauss_delta(math.sqrt(k) / (s * (1 - 1e-6)), eps)) > d


@pytest.mark.slow
def test_generic_calibrator_is_safe_and_brackets():
    k, eps, d = 50, 1.0, 1e-5
    m = A.PLDComposition(merge_gaussians=True)
    c = A.calibrate_noise(lambda s: SelfComposed(Gaussian(s), k), eps, d, method=m, rtol=1e-3)
    assert c.epsilon <= eps
    assert A.Accountant(m).compose(Gaussian(c.parameter), k).epsilon(d) <= eps
    exact_sigma = A.gaussian_sigma_for_composition(k, eps, d)
    assert exact_sigma <= c.parameter <= exact_sigma * (1 + 2e-3)
    assert c.below is not None and c.below < exact_sigma


def test_generic_calibrator_with_rdp_matches_zcdp_closed_form():
    # k Gaussians under RDP are (k / (2 sigma^2))-zCDP; the RDP grid conversion is >= the
    # continuous CKS minimum, so the calibrated sigma is >= the closed-form one
    k, eps, d = 100, 2.0, 1e-6
    c = A.calibrate_noise(lambda s: SelfComposed(Gaussian(s), k), eps, d, method=Method.RDP, rtol=1e-4)
    assert c.epsilon <= eps
    assert Method.RDP.default().epsilon(SelfComposed(Gaussian(c.parameter), k), d) <= eps
    assert Method.RDP.default().epsilon(SelfComposed(Gaussian(c.below), k), d) > eps
    assert A.zcdp_epsilon(k / (2 * c.parameter ** 2), d) <= eps * (1 + 1e-9)
    assert A.zcdp_epsilon(k / (2 * (c.parameter * 0.99) ** 2), d) > eps  # tight to ~1 %


def test_calibrator_refuses_bad_input():
    with pytest.raises(InvalidArgument, match="family"):
        A.calibrate_noise(3.0, 1.0, 1e-5)
    with pytest.raises(InvalidArgument, match="epsilon"):
        A.calibrate_noise(lambda s: Gaussian(s), float("nan"), 1e-5)
    with pytest.raises(InvalidArgument, match="DpEvent"):
        A.calibrate_noise(lambda s: s, 1.0, 1e-5)


@pytest.mark.slow
def test_calibrator_adversary_non_monotone_family_still_safe():
    # a lying family whose privacy does not improve monotonically: the result is still certified
    def family(s):
        return Gaussian(s if s < 3 or s > 5 else s / 10)
    c = A.calibrate_noise(family, 1.0, 1e-5, start=4.0)
    assert Method.PLD.default().epsilon(family(c.parameter), 1e-5) <= 1.0


@pytest.mark.slow
def test_dpsgd_sigma_small_problem():
    c = A.dpsgd_sigma(0.05, 20, 2.0, 1e-5)
    ev = A.dpsgd(0.05, c.parameter, 20)
    assert Method.PLD.default().epsilon(ev, 1e-5) <= 2.0
    assert Method.PLD.default().epsilon(A.dpsgd(0.05, c.below, 20), 1e-5) > 2.0
    assert ev.relation is NeighbourRelation.ADD_REMOVE_ONE


_AR = NeighbourRelation.ADD_REMOVE_ONE


@pytest.mark.parametrize("inner", [A.PureDP(1.0, relation=_AR), A.RandomizedResponse(2.0, 4, relation=_AR),
                                   A.DiscreteLaplace(2.0, relation=_AR)], ids=["pure", "rr4", "dlap"])
def test_poisson_subsampled_atoms_against_closed_form(inner):
    q = 0.1
    ev = A.PoissonSubsampled(inner, q)
    m = A.PLDComposition()
    # closed form (both directions, Zhu-Dong-Wang): the profiles module
    for eps in (0.0, 0.03, 0.1):
        exact = A.delta_for_epsilon(ev, eps) / (1 + 1e-10)  # profiles inflate by 1e-10 relative
        got = m.delta(ev, eps)
        assert got >= exact * (1 - 1e-12)
        assert got <= exact * (1 + 1e-6) + 1e-14
    # amplification by subsampling: pure log(1 + q (e^eps0 - 1)), so delta is ~0 one grid step
    # above it (the atom at amp is split between the two grid points around it)
    amp = math.log1p(q * math.expm1(inner.epsilon))
    h = m.grid_step(m.plan(ev))
    assert m.delta(ev, amp + 1.01 * h) <= 1e-12
    assert m.delta(ev, amp * 0.9) > 1e-6


def test_subsampled_bad_inner_refused():
    with pytest.raises(InvalidArgument, match="PoissonSubsampled supports"):
        A.PoissonSubsampled(A.ApproxDP(1.0, 1e-6, relation=_AR), 0.1)
    with pytest.raises(InvalidArgument, match="add/remove"):
        A.PoissonSubsampled(A.PureDP(1.0), 0.1)
