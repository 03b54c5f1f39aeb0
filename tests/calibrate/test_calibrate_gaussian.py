"""Exact Gaussian calibration (Balle & Wang 2018 Theorem 8): safe side and tightness on a grid."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from dpverify import calibrate
from dpverify.calibrate import gaussian_profile

# The acceptance grid: 60 eps log-spaced in [0.01, 20] x 4 deltas. The test checks every 5th eps
# (12 x 4 = 48 cells); benchmarks/bench_calibrate_gaussian.py checks all 240.
GRID_EPS = np.geomspace(0.01, 20, 60)
GRID_DELTA = (1e-3, 1e-6, 1e-9, 1e-12)
SAMPLE = [(float(e), d) for e in GRID_EPS[::5] for d in GRID_DELTA]


def _delta_50(eps, sigma, sens=1.0):
    """delta_true(eps) at 50 digits, written out independently of the package (erfc form)."""
    with mpmath.workdps(50):
        e, s, D = mpmath.mpf(eps), mpmath.mpf(sigma), mpmath.mpf(sens)
        phi = lambda x: mpmath.erfc(-x / mpmath.sqrt(2)) / 2  # noqa: E731
        return phi(D / (2 * s) - e * s / D) - mpmath.exp(e) * phi(-D / (2 * s) - e * s / D)


def _sigma_star(eps, delta, sens=1.0):
    """The exact minimum by plain mpmath bisection from its own bracket (independent of brentq)."""
    with mpmath.workdps(50):
        target = mpmath.mpf(delta)
        lo, hi = mpmath.mpf(1e-6), mpmath.mpf(1e6)
        assert _delta_50(eps, lo, sens) > target > _delta_50(eps, hi, sens)
        while hi / lo - 1 > mpmath.mpf(10) ** -15:
            mid = (lo + hi) / 2
            if _delta_50(eps, mid, sens) > target:
                lo = mid
            else:
                hi = mid
        return lo  # largest sigma known to violate: sigma* >= lo


@pytest.mark.parametrize("eps,delta", SAMPLE, ids=[f"eps={e:.4g}-delta={d:g}" for e, d in SAMPLE])
def test_exact_gaussian_is_safe_and_tight(eps, delta):
    cal = calibrate.gaussian(eps, delta)
    assert cal.method is calibrate.CalibrationMethod.EXACT
    # safe: delta_true(eps) <= delta at 50 digits
    assert _delta_50(eps, cal.sigma) <= delta
    # tight: sigma / sigma* <= 1 + 1e-9
    star = _sigma_star(eps, delta)
    assert cal.sigma / star <= 1 + 1e-9
    assert cal.sigma >= star
    assert cal.achieved_delta <= delta and cal.achieved_delta >= float(_delta_50(eps, cal.sigma)) * (1 - 1e-12)
    assert cal.tightness == 1.0 and cal.safe is True


@pytest.mark.parametrize("sens", [1e-3, 0.7, 250.0])
def test_exact_gaussian_scales_with_sensitivity(sens):
    base = calibrate.gaussian(0.8, 1e-5)
    cal = calibrate.gaussian(0.8, 1e-5, sensitivity=sens)
    assert cal.sigma == pytest.approx(base.sigma * sens, rel=1e-12)
    assert _delta_50(0.8, cal.sigma, sens) <= 1e-5


def test_float_profile_matches_50_digits_in_the_tails():
    # log space keeps full relative precision where 1 + erf would give 0
    # (relative error of float64 log space grows with the tail exponent; 1e-9 is far below any use)
    for eps, sigma in [(1.0, 8.0), (1.0, 10.0), (5.0, 3.0), (0.01, 1500.0)]:
        exact = float(_delta_50(eps, sigma))
        assert 0 < exact < 1e-16
        assert gaussian_profile.delta_float(eps, sigma) == pytest.approx(exact, rel=1e-9)


def test_certified_delta_is_an_upper_bound_and_nudge_moves_up():
    sigma, ach, tol, _ = gaussian_profile.minimal_sigma(1.0, 1e-6, 1.0)
    below = math.nextafter(sigma, 0) * (1 - 1e-9)
    # a sigma a relative 1e-9 below the returned one does NOT meet the target
    assert _delta_50(1.0, below) > 1e-6
    up, tol2 = calibrate.gaussian_delta(1.0, sigma)
    assert up >= float(_delta_50(1.0, sigma)) and tol2 > 0


def test_classical_is_flagged_unsafe_at_large_epsilon():
    derivations = pytest.importorskip("dpverify.symbolic.derivations")
    cal = calibrate.gaussian(10.0, 1e-6, method="classical")
    assert cal.sigma == derivations.get_derivation("lecture21-dp/lemma-6").evaluate(epsilon=10.0, delta=1e-6, sensitivity=1.0)
    assert cal.tightness < 1 and cal.safe is False
    assert _delta_50(10.0, cal.sigma) > 1e-6  # really unsafe, not a formatting artefact
    assert any("UNSAFE" in n for n in cal.notes)


@pytest.mark.parametrize("method", ["classical", "kenthapadi"])
def test_lemma_gaussian_wastes_noise_at_small_epsilon(method):
    derivations = pytest.importorskip("dpverify.symbolic.derivations")
    cal = calibrate.gaussian(0.1, 1e-6, method=method)
    did = {"classical": "lecture21-dp/lemma-6", "kenthapadi": "tu-projections/lemma-2"}[method]
    assert cal.sigma == derivations.get_derivation(did).evaluate(epsilon=0.1, delta=1e-6, sensitivity=1.0)
    assert cal.provenance.derivation == did
    assert cal.safe is True and cal.tightness > 1
    assert cal.tightness == pytest.approx(cal.sigma / calibrate.gaussian(0.1, 1e-6).sigma)


def test_extreme_target_falls_back_to_bisection_and_stays_certified():
    # eps = 1e-6, delta = 1e-300: float64 cannot place the root within 1e-9; the 50-digit
    # bisection fallback is used and the result is still certified and tight
    cal = calibrate.gaussian(1e-6, 1e-300)
    assert _delta_50(1e-6, cal.sigma) <= 1e-300
    assert "bisection" in cal.provenance.steps[-1]
    assert cal.sigma / gaussian_profile.minimal_sigma_bisection_mp(1e-6, 1e-300) <= 1 + 1e-9
