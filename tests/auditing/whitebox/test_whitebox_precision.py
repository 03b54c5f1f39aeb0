"""High-precision recomputation of losses, infinite-loss reports, NaN handling."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

import dpverify
from dpverify import NumericalError, PrivacyClaim, Verdict
from dpverify.auditing.precision import PrecisionPolicy
from dpverify_mechanisms._base import GaussianNoise

OFFSET = 1e13


class Gauss(GaussianNoise):
    def __init__(self, sigma: float, claim: PrivacyClaim):
        super().__init__()
        self.sigma, self.claim = sigma, claim


class OffsetGauss(Gauss):
    """Test double: log densities carry a huge common constant (valid: one base measure), so
    float64 loses the loss entirely; ``log_density_mp`` adds the same constant exactly."""

    def log_density(self, outputs, data):
        return super().log_density(outputs, data) + OFFSET

    def log_density_mp(self, output, data, dps):
        import mpmath

        with mpmath.workdps(dps):
            return super().log_density_mp(output, data, dps) + mpmath.mpf(OFFSET)


class OffsetGaussNoMp(OffsetGauss):
    log_density_mp = None


class UnderflowGauss(Gauss):
    """Test double: float log density underflows to -inf beyond 3 sigma (a naive implementation)."""

    def log_density(self, outputs, data):
        out = super().log_density(outputs, data)
        z = np.abs(np.asarray(outputs, float) - float(data)) / self.sigma
        return np.where(z > 3, -np.inf, out)


def test_cancellation_is_detected_and_recomputed():
    claim = PrivacyClaim(0.5, 0.0)
    plain = dpverify.audit(Gauss(1.0, claim), (0.0, 1.0), samples=3_000, rng=4, proposal=False)
    fixed = dpverify.audit(OffsetGauss(1.0, claim), (0.0, 1.0), samples=3_000, rng=4, proposal=False)
    assert sum(d.extra["recomputed"] for d in fixed.directions) == 6_000
    assert any("mpmath" in n for n in fixed.notes)
    # Same draws, exact losses: the bounds agree with the unshifted mechanism's to float accuracy.
    assert fixed.epsilon_lower == pytest.approx(plain.epsilon_lower, rel=1e-6)
    assert fixed.verdict is plain.verdict is Verdict.VIOLATED


def test_without_log_density_mp_the_imprecise_losses_are_counted_and_rounded_down():
    claim = PrivacyClaim(0.5, 0.0)
    r = dpverify.audit(OffsetGaussNoMp(1.0, claim), (0.0, 1.0), samples=3_000, rng=4, proposal=False)
    assert sum(d.extra["imprecise"] for d in r.directions) == 6_000
    assert sum(d.extra["recomputed"] for d in r.directions) == 0
    assert any("safe-side" in n for n in r.notes)
    # Rounding down by the error bound (~0.1 here) can only lower the bound.
    plain = dpverify.audit(Gauss(1.0, claim), (0.0, 1.0), samples=3_000, rng=4, proposal=False)
    assert r.epsilon_lower <= plain.epsilon_lower


def test_recomputation_limit_per_batch():
    claim = PrivacyClaim(0.5, 0.0)
    r = dpverify.audit(OffsetGauss(1.0, claim), (0.0, 1.0), samples=3_000, rng=4, proposal=False,
                       precision=PrecisionPolicy(max_per_batch=100))
    assert sum(d.extra["recomputed"] for d in r.directions) == 200
    assert sum(d.extra["imprecise"] for d in r.directions) == 5_800


def test_underflow_to_minus_inf_is_recomputed_not_counted_as_infinite_loss():
    """Draws beyond 3 sigma of D' (about 2% of draws from D at distance 1) get -inf from the naive
    float density; mpmath shows the loss is finite, so no infinite loss remains."""
    claim = PrivacyClaim(1.0, 0.01)
    r = dpverify.audit(UnderflowGauss(1.0, claim), (0.0, 1.0), samples=20_000, rng=2, proposal=False)
    assert all(d.infinite_loss_count == 0 for d in r.directions)
    assert sum(d.extra["recomputed"] for d in r.directions) > 100


def test_precision_policy_validation():
    for kwargs in ({"tolerance": 0.0}, {"tolerance": math.nan}, {"dps": 5}, {"max_per_batch": -1}):
        with pytest.raises(dpverify.InvalidArgument):
            PrecisionPolicy(**kwargs)
    with pytest.raises(dpverify.InvalidArgument, match="precision="):
        dpverify.audit(Gauss(1.0, PrivacyClaim(1.0)), (0.0, 1.0), samples=10, precision="high")


class UniformShift:
    """Test double with support mismatch: x + U[0, 1)."""

    claim = PrivacyClaim(1.0, 0.1)

    def sample(self, data, size, rng):
        return float(data) + rng.random(size)

    def log_density(self, outputs, data):
        o = np.asarray(outputs, dtype=float)
        return np.where((o >= float(data)) & (o < float(data) + 1), 0.0, -np.inf)


def test_infinite_losses_have_their_own_clopper_pearson_interval():
    r = dpverify.audit(UniformShift(), (0.0, 0.25), samples=4_000, rng=9)
    rep = r.directions[0].extra["infinite_loss_probability"]
    k, n = rep["count"], 4_000
    assert k == r.directions[0].infinite_loss_count
    assert rep["lower"] <= 0.25 <= rep["upper"]  # true P(L = inf) = 1/4 (fails w.p. <= 0.05)
    a = (1 - rep["level"]) / 2
    assert rep["lower"] == pytest.approx(stats.beta.ppf(a, k, n - k + 1))
    assert rep["upper"] == pytest.approx(stats.beta.ppf(1 - a, k + 1, n - k))
    assert r.epsilon_lower == math.inf


class NaNAt:
    claim = PrivacyClaim(1.0, 0.0)

    def sample(self, data, size, rng):
        return rng.normal(float(data), 1.0, size)

    def log_density(self, outputs, data):
        out = stats.norm.logpdf(outputs, float(data))
        out[np.argmax(outputs)] = np.nan
        return out


def test_nan_log_density_fails_loudly_naming_the_output():
    with pytest.raises(NumericalError, match=r"at output [-0-9.]+;.*NaN is never valid"):
        dpverify.audit(NaNAt(), (0.0, 1.0), samples=1_000, rng=0)
