"""Exact Laplace and random-projection calibrations, checked against numerical integration."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from dpverify import calibrate
from dpverify.calibrate import laplace_profile, projection_profile


def _laplace_delta_quad(eps, b, sens):
    """delta(eps) = int (p(y) - e^eps q(y))_+ dy for Lap(0,b) vs Lap(sens,b), by mpmath.quad."""
    with mpmath.workdps(40):
        eps, b, D = mpmath.mpf(eps), mpmath.mpf(b), mpmath.mpf(sens)
        p = lambda y: mpmath.exp(-abs(y) / b) / (2 * b)  # noqa: E731
        q = lambda y: mpmath.exp(-abs(y - D) / b) / (2 * b)  # noqa: E731
        f = lambda y: max(p(y) - mpmath.exp(eps) * q(y), 0)  # noqa: E731
        t = (D - eps * b) / 2
        pts = sorted({-mpmath.inf, mpmath.mpf(0), t, D, mpmath.inf})
        return mpmath.quad(f, pts)


@pytest.mark.parametrize("eps,b,sens", [(0.5, 1.0, 1.0), (1.0, 0.3, 1.0), (0.1, 2.0, 3.0), (2.0, 1.0, 1.0)])
def test_laplace_profile_matches_integration(eps, b, sens):
    closed, _ = laplace_profile.delta_mp(eps, b, sens)
    assert float(closed) == pytest.approx(float(_laplace_delta_quad(eps, b, sens)), rel=1e-20, abs=1e-30)


@pytest.mark.parametrize("eps,delta", [(1.0, 0.0), (0.3, 1e-6), (5.0, 1e-3), (0.01, 0.2)])
def test_laplace_exact_is_minimal_and_safe(eps, delta):
    cal = calibrate.laplace(eps, delta, sensitivity=2.0)
    assert cal.scale == pytest.approx(2.0 / (eps - 2 * math.log1p(-delta)), rel=1e-14)
    assert float(_laplace_delta_quad(eps, cal.scale, 2.0)) <= delta + 1e-30
    smaller = cal.scale * (1 - 1e-9)
    assert float(_laplace_delta_quad(eps, smaller, 2.0)) > delta


def test_laplace_pure_dp_is_exactly_delta_over_eps():
    cal = calibrate.laplace(0.1)
    assert cal.scale >= 10.0 and cal.scale <= math.nextafter(10.0, math.inf) and cal.achieved_delta == 0.0


def _projection_delta_quad(eps, sigma, k, c):
    """E_W[g(c sqrt(W)/sigma)], W ~ chi^2_k, by mpmath.quad (an independent check of the bracket)."""
    from dpverify.calibrate import gaussian_profile

    with mpmath.workdps(30):
        a = mpmath.mpf(k) / 2

        def integrand(w):
            d, _ = gaussian_profile.delta_mp(eps, sigma, c * mpmath.sqrt(w), dps=30)
            return d * mpmath.exp((a - 1) * mpmath.log(w) - w / 2 - mpmath.loggamma(a) - a * mpmath.log(2))

        return mpmath.quad(integrand, [0, k / 4, k, 2 * k, 4 * k, 10 * k + 100, mpmath.inf])


@pytest.mark.parametrize("eps,delta,k", [(1.0, 1e-6, 10), (0.5, 1e-3, 1)])
def test_fresh_projection_bracket_contains_the_integral(eps, delta, k):
    cal = calibrate.random_projection(eps, delta, k=k, B=1.0)
    lo, hi = cal.exact_bracket
    assert lo <= hi == cal.sigma and hi / lo - 1 < 2e-3
    at_hi = _projection_delta_quad(eps, hi, k, 1.0)
    at_lo = _projection_delta_quad(eps, lo, k, 1.0)
    assert at_hi <= delta <= at_lo * (1 + 1e-12)
    assert cal.achieved_delta >= float(at_hi) and cal.achieved_delta <= delta


def test_fresh_projection_scales_with_B_and_sigma_p():
    base = calibrate.random_projection(1.0, 1e-5, k=4, B=1.0)
    lower, upper = calibrate.projection_delta(1.0, base.sigma * 6.0, k=4, norm=3.0, sigma_p=2.0)
    assert upper <= 1e-5 and lower <= upper
    assert upper == pytest.approx(1e-5, rel=5e-3)


def test_fixed_projection_is_gaussian_with_smax():
    rng = np.random.default_rng(7)
    P = rng.normal(size=(6, 3))
    cal = calibrate.random_projection(1.0, 1e-6, P=P, B=2.0, reading="fixed")
    smax = np.linalg.svd(P, compute_uv=False)[0]
    gauss = calibrate.gaussian(1.0, 1e-6, sensitivity=2.0 * smax)
    assert cal.sigma >= gauss.sigma and cal.sigma == pytest.approx(gauss.sigma, rel=1e-12)
    z = np.array([1.0, 0, 0, 0, 0, 0])
    calz = calibrate.random_projection(1.0, 1e-6, P=P, z=z, reading="fixed")
    assert calz.sigma == pytest.approx(calibrate.gaussian(1.0, 1e-6, sensitivity=np.linalg.norm(z @ P)).sigma, rel=1e-12)


def test_refined_grid_bounds_are_ordered():
    lower, upper = projection_profile.fresh_bounds(1.0, 5.0, 3, 1.0, 1.0, rtol=1e-3)
    assert 0 < lower <= upper <= lower * (1 + 1.01e-3)
