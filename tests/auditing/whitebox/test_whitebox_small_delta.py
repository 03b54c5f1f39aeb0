"""Importance sampling for small delta: acceptance figures, validity over seeds, sample-size choice."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import special, stats

import dpverify
from dpverify import NumericalError, PrivacyClaim, Verdict
from dpverify.auditing.importance import empirical_bernstein_lower, truncated_lower
from dpverify_mechanisms._base import GaussianNoise
from dpverify_mechanisms.lecture21_dp import ClassicalGaussian


class Gauss(GaussianNoise):
    """Test double: N(x, sigma^2) with an arbitrary claim (inherits the Gaussian proposal)."""

    def __init__(self, sigma: float, claim: PrivacyClaim):
        super().__init__()
        self.sigma, self.claim = sigma, claim


def gaussian_delta(eps: float, mu: float) -> float:
    """Exact delta(eps) of N(0,1) vs N(mu,1) (Balle & Wang 2018, Thm 8)."""
    return special.ndtr(mu / 2 - eps / mu) - math.exp(eps) * special.ndtr(-mu / 2 - eps / mu)


def test_classical_gaussian_eps10_is_violated_with_few_samples():
    """True delta(10) = 2.27e-5 > claimed 1e-5. With 2e5 importance draws per direction the lower
    bound's half-width is ~1e-6 (seen: 2.24e-5 at 1e5), so missing the violation would need a
    deviation of ~10 half-widths: probability far below 1e-6."""
    mech = ClassicalGaussian(10, 1e-5, 1.0)
    true = gaussian_delta(10.0, 1.0 / mech.sigma)
    assert 2.2e-5 < true < 2.35e-5
    r = dpverify.audit(mech, (0.0, 1.0), samples=200_000, rng=5)
    assert r.verdict is Verdict.VIOLATED
    assert 1e-5 < r.delta_lower <= true
    assert "importance" in r.method
    assert all(d.extra["method"] == "importance" for d in r.directions)


def test_plain_sampling_is_still_available_and_weaker():
    mech = ClassicalGaussian(10, 1e-5, 1.0)
    r = dpverify.audit(mech, (0.0, 1.0), samples=200_000, rng=5, proposal=False)
    assert r.method == "white-box"
    assert r.delta_lower < 2.27e-5


def test_delta_resolution_chooses_the_sample_size():
    """The pilot picks n so the bound is within ~the resolution of the estimate."""
    mech = ClassicalGaussian(10, 1e-5, 1.0)
    r = dpverify.audit(mech, (0.0, 1.0), delta_resolution=2e-6, rng=3)
    assert r.samples < 200_000  # importance sampling needs few draws here
    for d in r.directions:
        assert d.delta_estimate - d.delta_lower <= 2.5e-6
    assert r.verdict is Verdict.VIOLATED
    capped = dpverify.audit(mech, (0.0, 1.0), delta_resolution=1e-12, max_samples=5_000, rng=3)
    assert capped.samples == 5_000
    assert any("capped" in n for n in capped.notes)


@pytest.mark.slow  # a long statistical run (tens of seconds): under -m slow with the other false-alarm runs
def test_false_alarms_at_the_exact_boundary_with_importance_sampling():
    """A Gaussian claiming exactly its true delta(3.5) (~3e-4, so 'auto' uses the proposal): the
    claim is true and tight. Each run says "violated" with probability <= 0.05; over 100 runs the
    count is Binomial(100, p <= 0.05); we fail above 18, probability < 1e-6 under p = 0.05."""
    eps, mu = 3.5, 1.0
    claim = PrivacyClaim(eps, gaussian_delta(eps, mu))
    assert claim.delta <= 1e-3
    mech = Gauss(1.0, claim)
    violated = sum(dpverify.audit(mech, (0.0, mu), samples=4_000, rng=seed).verdict is Verdict.VIOLATED
                   for seed in range(100))
    assert stats.binom.sf(18, 100, 0.05) < 1e-6
    assert violated <= 18


def test_classical_gaussian_half_eps_false_alarms_fast():
    """ClassicalGaussian(0.5, 1e-5): true delta(0.5) = 1.6e-8 < 1e-5, the claim holds. 30 seeded
    runs: violations ~ Binomial(30, p <= 0.05); fail above 10 (probability < 1e-6)."""
    mech = ClassicalGaussian(0.5, 1e-5, 1.0)
    v = sum(dpverify.audit(mech, (0.0, 1.0), samples=5_000, rng=s).verdict is Verdict.VIOLATED for s in range(30))
    assert stats.binom.sf(10, 30, 0.05) < 1e-6
    assert v <= 10


@pytest.mark.slow
def test_classical_gaussian_half_eps_false_alarms_100_seeds():
    """Acceptance: 100 seeded runs at 10^5 draws; fail above 18 violations (prob < 1e-6 at p = 0.05)."""
    mech = ClassicalGaussian(0.5, 1e-5, 1.0)
    v = sum(dpverify.audit(mech, (0.0, 1.0), samples=100_000, rng=s).verdict is Verdict.VIOLATED
            for s in range(100))
    assert stats.binom.sf(18, 100, 0.05) < 1e-6
    assert v <= 18


@pytest.mark.slow
def test_classical_gaussian_eps10_at_ten_million_plain_samples():
    """Acceptance, without the proposal: 10^7 plain draws also certify delta_lower > 1e-5."""
    r = dpverify.audit(ClassicalGaussian(10, 1e-5, 1.0), (0.0, 1.0), samples=10**7, rng=1, proposal=False)
    assert r.verdict is Verdict.VIOLATED and r.delta_lower > 1e-5


def test_weighted_bound_is_valid_when_the_proposal_misses_the_region():
    """A proposal that never reaches {L > eps} only lowers the estimate (never raises the bound)."""

    class Missing(Gauss):
        def proposal(self, data, data_prime, epsilon):
            from dpverify_mechanisms._base import ShiftedGaussianProposal

            c, c2 = self.answer(data), self.answer(data_prime)
            return ShiftedGaussianProposal(c - 50 * (c - c2), self.sigma)  # far on the wrong side

    mech = Missing(1.0, PrivacyClaim(3.5, 1e-4))
    r = dpverify.audit(mech, (0.0, 1.0), samples=20_000, rng=1)
    assert r.delta_lower == 0.0
    assert r.verdict is Verdict.NOT_VIOLATED


def test_empirical_bernstein_and_truncation_bounds():
    assert empirical_bernstein_lower(0.5, 0.0, 1, 0.05) == 0.0
    lo = empirical_bernstein_lower(0.5, 0.25, 10_000, 0.05)
    assert 0.48 < lo < 0.5
    y = np.full(1000, 2.0)
    # Truncating at B = 1 lowers the values: the bound is at most 1, never above the true mean 2.
    assert truncated_lower(y, 1000, 1.0, 0.05) <= 1.0
    assert truncated_lower(np.zeros(0), 10, 1.0, 0.05) == 0.0


def test_proposal_true_without_a_proposal_is_rejected():
    from dpverify_mechanisms.lecture21_dp import ScalarLaplace

    class NoProposal:
        claim = PrivacyClaim(1.0, 1e-5)

        def sample(self, data, size, rng):
            return rng.normal(float(data), 1.0, size)

        def log_density(self, outputs, data):
            return stats.norm.logpdf(outputs, float(data))

    with pytest.raises(dpverify.InvalidArgument, match="proposal=True"):
        dpverify.audit(NoProposal(), (0.0, 1.0), samples=100, proposal=True)
    with pytest.raises(dpverify.InvalidArgument, match="proposal="):
        dpverify.audit(ScalarLaplace(1.0), (0.0, 1.0), samples=100, proposal="sometimes")
    with pytest.raises(dpverify.InvalidArgument, match="delta_resolution"):
        dpverify.audit(ScalarLaplace(1.0), (0.0, 1.0), delta_resolution=-1.0)


def test_nan_under_importance_sampling_names_the_output():
    class NaNGauss(Gauss):
        def log_density(self, outputs, data):
            out = super().log_density(outputs, data)
            out[3] = np.nan
            return out

    with pytest.raises(NumericalError, match="at output"):
        dpverify.audit(NaNGauss(1.0, PrivacyClaim(3.5, 1e-4)), (0.0, 1.0), samples=1000, rng=0)
