"""The curve claims of issue 30: mu-GDP, f-DP (a trade-off function) and an accountant's own curve.

Exact arithmetic checks only (mpmath at 50 digits), plus two white-box audits at confidence 0.999 (a
correct mechanism against its own curve: false failure <= 0.1 %; a halved sigma: violated at eps_lower
well above the curve on every seed tried, seeds 0 and 1)."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

import dpverify
from dpverify import InvalidArgument, PrivacyClaim
from dpverify.accounting import Accountant, Gaussian
from dpverify.claims import ClaimForm, NeighbourRelation


def _gdp_exact(mu, eps):
    with mpmath.mp.workdps(50):
        m, e = mpmath.mpf(mu), mpmath.mpf(eps)
        return mpmath.ncdf(-e / m + m / 2) - mpmath.e**e * mpmath.ncdf(-e / m - m / 2)


@pytest.mark.parametrize("mu", [0.1, 0.5, 1.0, 2.0, 5.0])
def test_gdp_delta_is_never_below_the_exact_curve_and_within_1e_9_of_it(mu):
    claim = PrivacyClaim.gdp(mu)
    assert claim.form is ClaimForm.GDP and claim.is_curve
    for eps in (0.0, 0.01, 0.1, 0.5, 1.0, 2.0, 4.0, 8.0, 12.0, 20.0):
        exact = _gdp_exact(mu, eps)
        got = claim.delta_at(eps)
        assert got >= exact
        if exact > 1e-290:
            assert got <= exact * (1 + 1e-9) + 1e-300


def _gaussian_tradeoff(mu):
    from scipy.stats import norm

    def f(x):
        if x <= 0:
            return 1.0
        if x >= 1:
            return 0.0
        return float(norm.cdf(norm.ppf(1 - x) - mu))
    return f


def test_fdp_of_the_gaussian_tradeoff_bounds_the_gdp_curve_from_above_and_closely():
    mu = 1.0
    fdp, gdp = PrivacyClaim.fdp(_gaussian_tradeoff(mu)), PrivacyClaim.gdp(mu)
    assert fdp.form is ClaimForm.FDP
    for eps in (0.0, 0.5, 1.0, 2.0, 3.0):
        assert gdp.delta_at(eps) <= fdp.delta_at(eps) <= 1.1 * gdp.delta_at(eps)


@pytest.mark.parametrize("f, text", [
    (lambda x: x, "an increase"),
    (lambda x: 1.5, "outside"),
    (lambda x: 1.0 - x / 2, "above 1 - x"),
    (lambda x: 1 / 0, "raised ZeroDivisionError"),
    (3.0, "must be a callable"),
])
def test_a_function_that_is_not_a_tradeoff_function_is_refused(f, text):
    with pytest.raises(InvalidArgument, match=text):
        PrivacyClaim.fdp(f)


def test_an_accountant_curve_is_the_accountants_certified_delta_and_relation():
    acc = Accountant().compose(Gaussian(sigma=2.0, relation=NeighbourRelation.ADD_REMOVE_ONE))
    claim = PrivacyClaim.curve_of(acc)
    assert claim.form is ClaimForm.CURVE and claim.relation is NeighbourRelation.ADD_REMOVE_ONE
    for eps in (0.0, 0.5, 1.0, 2.0):
        assert claim.delta_at(eps) == min(1.0, acc.delta(eps))
    fn = lambda e: math.exp(-e)  # noqa: E731
    assert PrivacyClaim.curve_of(fn).delta_at(1.0) == PrivacyClaim.profile(fn).delta_at(1.0)
    with pytest.raises(InvalidArgument, match="Accountant or a callable"):
        PrivacyClaim.curve_of(3.0)


class ScalarGaussian:
    """x + N(0, sigma^2) with its log density (white-box)."""

    def __init__(self, sigma, claim):
        self.sigma, self.claim = sigma, claim

    def sample(self, data, size, rng):
        return float(data) + self.sigma * rng.standard_normal(size)

    def log_density(self, outputs, data):
        z = (np.asarray(outputs) - float(data)) / self.sigma
        return -0.5 * z * z - math.log(self.sigma * math.sqrt(2 * math.pi))


@pytest.mark.parametrize("make", [lambda: PrivacyClaim.gdp(0.5), lambda: PrivacyClaim.curve_of(
    Accountant().compose(Gaussian(sigma=2.0)))], ids=["gdp", "accountant"])
def test_audits_read_the_curve_claims(make):
    claim = make()
    good = dpverify.audit(ScalarGaussian(2.0, claim), (0.0, 1.0), samples=20_000, rng=0, confidence=0.999)
    assert good.verdict.value != "violated"
    for seed in (0, 1):
        bad = dpverify.audit(ScalarGaussian(1.0, claim), (0.0, 1.0), samples=20_000, rng=seed, confidence=0.999)
        assert bad.verdict.value == "violated"
