"""The trade-off test of a whole curve claim (dpverify.auditing.tradeoff).

Statistical assertions: a faulty mechanism far outside its claim (sigma halved: violated on every seed tried,
0 and 1) and a correct one strictly inside its claim at confidence 0.999 (false failure <= 0.1 %; its curve
lies inside the claim, so the test's level at the boundary is an upper bound). The power and the false-alarm
rate at the boundary are measured in benchmarks/bench_tradeoff.py, not here."""
from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import norm

import dpverify
from dpverify import InvalidArgument, PrivacyClaim
from dpverify.accounting import Accountant, Gaussian
from dpverify.auditing.curve import CurveAuditResult
from dpverify.auditing.tradeoff import tradeoff_of


class ScalarGaussian:
    def __init__(self, sigma, claim, width=1):
        self.sigma, self.claim, self.width = sigma, claim, width

    def sample(self, data, size, rng):
        x = float(data) + self.sigma * rng.standard_normal((size, self.width))
        return x[:, 0] if self.width == 1 else x


def test_the_gdp_tradeoff_is_the_gaussian_one_and_an_accountants_is_below_it_and_close():
    a = np.linspace(0.001, 0.999, 99)
    exact = norm.cdf(norm.ppf(1 - a) - 0.5)
    assert np.allclose(tradeoff_of(PrivacyClaim.gdp(0.5))(a), exact, atol=1e-12)
    acc = tradeoff_of(PrivacyClaim.curve_of(Accountant().compose(Gaussian(sigma=2.0))))(a)
    assert np.all(acc <= exact + 1e-9) and np.max(exact - acc) < 0.02


@pytest.mark.parametrize("seed", [0, 1])
def test_a_halved_sigma_violates_the_whole_curve(seed):
    r = dpverify.audit(ScalarGaussian(1.0, PrivacyClaim.gdp(0.5)), (0.0, 1.0), samples=20_000, rng=seed,
                       confidence=0.999)
    assert r.verdict.value == "violated"
    assert "trade-off test of the whole curve" in r.notes[0]


def test_a_mechanism_inside_its_curve_is_not_violated():
    r = dpverify.audit(ScalarGaussian(2.4, PrivacyClaim.gdp(0.5)), (0.0, 1.0), samples=20_000, rng=3,
                       confidence=0.999)
    assert r.verdict.value == "not-violated"


def test_vector_outputs_and_black_box_options_are_refused_with_the_fix():
    with pytest.raises(InvalidArgument, match="audit_curve"):
        dpverify.audit(ScalarGaussian(2.0, PrivacyClaim.gdp(0.5), width=3), (0.0, 1.0), samples=2000, rng=0)
    with pytest.raises(InvalidArgument, match="takes no black-box options"):
        dpverify.audit(ScalarGaussian(2.0, PrivacyClaim.gdp(0.5)), (0.0, 1.0), samples=2000, rng=0, stop_early=True)


def test_same_seed_same_result():
    mech = ScalarGaussian(1.5, PrivacyClaim.gdp(0.5))
    a, b = (dpverify.audit(mech, (0.0, 1.0), samples=5000, rng=11).to_dict() for _ in range(2))
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_a_white_box_mechanism_is_audited_at_points_of_the_curve():
    class WhiteGaussian(ScalarGaussian):
        def log_density(self, outputs, data):
            z = (np.asarray(outputs) - float(data)) / self.sigma
            return -0.5 * z * z
    r = dpverify.audit(WhiteGaussian(2.0, PrivacyClaim.gdp(0.5)), (0.0, 1.0), samples=5000, rng=0)
    assert isinstance(r, CurveAuditResult)
