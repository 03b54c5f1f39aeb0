"""tu-projections Theorems 1 and 2: calibrations under every reading, both readings of P, densities."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats

from dpverify import InvalidArgument, PrivacyClaim
from dpverify_mechanisms.tu_projections import (
    ProjectionReading,
    Theorem1Reading,
    Theorem2Reading,
    TuCompositionProjection,
    TuDirectProjection,
    kenthapadi_sigma,
    lemma1_bound,
    theorem1_sigma,
    theorem2_epsilon1,
    theorem2_sigma,
    top_singular_direction,
)


def test_lemma1_bound_is_the_chi_square_tail_bound():
    k, delta = 5, 1e-3
    x = math.log(1 / delta)
    assert lemma1_bound(k, delta, 2.0, 3.0) == pytest.approx(6.0 * math.sqrt(k + 2 * math.sqrt(k * x) + 2 * x))
    # Laurent-Massart: P(chi2_k >= k + 2 sqrt(kx) + 2x) <= exp(-x) = delta
    assert stats.chi2.sf(lemma1_bound(k, delta) ** 2, k) <= delta


@pytest.mark.parametrize("reading,expected", [
    # hand-evaluated from the note's formula, eps = 1, delta = 1e-5, k = 5, B = sigma_p = 1
    (Theorem1Reading.SPLIT_PRINTED,
     math.sqrt(5 + 2 * math.sqrt(5 * math.log(2e5)) + 2 * math.log(2e5)) * math.sqrt(2 * (math.log(5e4) + 1))),
    (Theorem1Reading.SPLIT_PROOF,
     math.sqrt(5 + 2 * math.sqrt(5 * math.log(2e5)) + 2 * math.log(2e5)) * math.sqrt(2 * (math.log(1e5) + 1))),
    (Theorem1Reading.ONE_PRINTED,
     math.sqrt(5 + 2 * math.sqrt(5 * math.log(2e5)) + 2 * math.log(2e5) * math.sqrt(2 * (math.log(5e4) + 1)))),
    (Theorem1Reading.ONE_PROOF,
     math.sqrt(5 + 2 * math.sqrt(5 * math.log(2e5)) + 2 * math.log(2e5) * math.sqrt(2 * (math.log(1e5) + 1)))),
])
def test_theorem1_readings(reading, expected):
    assert theorem1_sigma(1.0, 1e-5, 5, reading=reading) == pytest.approx(expected, rel=1e-14)


def test_theorem1_default_is_lemma1_at_half_delta_times_lemma2_factor():
    # SPLIT_PRINTED = Lemma 1 at delta/2 (sensitivity) x Lemma 2's factor with log(1/(2 delta))
    eps, delta, k = 0.7, 0.01, 4
    sens = lemma1_bound(k, delta / 2, 1.5, 2.0)
    assert theorem1_sigma(eps, delta, k, 1.5, 2.0) == pytest.approx(kenthapadi_sigma(eps, delta, sens), rel=1e-14)
    # the proof's reading (Lemma 2 at delta/2) is Kenthapadi's sigma at delta/2
    assert theorem1_sigma(eps, delta, k, 1.5, 2.0, reading=Theorem1Reading.SPLIT_PROOF) == pytest.approx(
        kenthapadi_sigma(eps, delta / 2, sens), rel=1e-14)


def test_theorem2_epsilon1_solves_the_quadratic():
    eps, delta, k = 0.5, 1e-5, 5
    e1 = theorem2_epsilon1(eps, delta, k)
    a = math.sqrt(2 * k * math.log(2 / delta))
    assert a * e1 + 2 * k * e1 ** 2 == pytest.approx(eps, rel=1e-13)
    printed = (math.sqrt(2 * k * math.log(2 / delta) + 8 * k * eps) - math.sqrt(2 * k * math.log(2 / delta))) / (4 * k)
    assert e1 == pytest.approx(printed, rel=1e-12)


def test_theorem2_readings():
    eps, delta, k = 0.5, 1e-5, 5
    e1 = theorem2_epsilon1(eps, delta, k)
    lk, l2k, l4k = math.log(k / delta), math.log(2 * k / delta), math.log(4 * k / delta)
    assert theorem2_sigma(eps, delta, k) == pytest.approx(math.sqrt(4 * lk ** 2 + 2 * e1 * l2k) / e1, rel=1e-14)
    assert theorem2_sigma(eps, delta, k, reading=Theorem2Reading.LOG_OF_SQUARE) == pytest.approx(
        math.sqrt(8 * lk + 2 * e1 * l2k) / e1, rel=1e-14)
    lemmas = theorem2_sigma(eps, delta, k, reading=Theorem2Reading.LEMMAS)
    assert lemmas == pytest.approx(math.sqrt(4 * l4k * l2k + 4 * e1 * l4k) / e1, rel=1e-14)
    # the finding: the printed sigma is below the one the lemmas give
    assert theorem2_sigma(eps, delta, k) < lemmas


def test_claims_and_seeded_projection():
    m = TuDirectProjection(1.0, 1e-5, 6, 3, reading=ProjectionReading.FIXED, seed=4)
    assert m.claim == PrivacyClaim(1.0, 1e-5)
    again = TuDirectProjection(1.0, 1e-5, 6, 3, reading=ProjectionReading.FIXED, seed=4)
    np.testing.assert_array_equal(m.projection, again.projection)
    assert m.projection.shape == (6, 3)
    with pytest.raises(ValueError):
        m.projection[0, 0] = 1.0  # read-only
    with pytest.raises(InvalidArgument):
        TuDirectProjection(1.0, 1e-5, 6, 3).projection  # FRESH has no fixed P
    assert TuCompositionProjection(0.5, 1e-5, 6, 3).claim == PrivacyClaim(0.5, 1e-5)


def test_top_singular_direction_maximises_the_projected_norm():
    rng = np.random.default_rng(0)
    p = rng.standard_normal((30, 4))
    u = top_singular_direction(p)
    best = np.linalg.norm(u @ p)
    assert best == pytest.approx(np.linalg.svd(p, compute_uv=False)[0], rel=1e-12)
    others = rng.standard_normal((1000, 30))
    others /= np.linalg.norm(others, axis=1, keepdims=True)
    assert np.all(np.linalg.norm(others @ p, axis=1) <= best * (1 + 1e-12))


def test_fresh_density_is_density_of_p_plus_conditional_gaussian():
    m = TuDirectProjection(1.0, 0.01, 4, 2, sigma_p=0.7, bound=2.0)
    x = np.array([[1.0, 0.5, 0.0, -1.0], [0.0, 0.0, 0.3, 0.0], [1.5, 0.0, 0.0, 0.0]])
    out = m.sample(x, 3, np.random.default_rng(1))
    assert out.shape == (3, 4 + 3, 2)
    for o, got in zip(out, m.log_density(out, x)):
        p, y = o[:4], o[4:]
        want = stats.norm.logpdf(p, scale=0.7).sum() + stats.norm.logpdf(y, loc=x @ p, scale=m.sigma).sum()
        assert got == pytest.approx(want, rel=1e-12)


def test_fixed_density_is_gaussian_around_xp():
    m = TuCompositionProjection(0.5, 0.01, 4, 2, reading=ProjectionReading.FIXED, seed=2)
    x = np.full((2, 4), 0.25)
    out = m.sample(x, 3, np.random.default_rng(1))
    assert out.shape == (3, 2, 2)
    want = stats.norm.logpdf(out, loc=x @ m.projection, scale=m.sigma).reshape(3, -1).sum(axis=1)
    np.testing.assert_allclose(m.log_density(out, x), want, rtol=1e-12)


def test_row_norm_bound_is_checked_never_clipped():
    m = TuDirectProjection(1.0, 0.01, 2, 2, bound=1.0)
    ok = np.array([[0.6, 0.8]])  # norm exactly 1 (up to rounding)
    m.sample(ok, 1, 0)
    with pytest.raises(InvalidArgument, match="norm"):
        m.sample(np.array([[0.6, 0.81]]), 1, 0)
    with pytest.raises(InvalidArgument, match="norm"):
        m.log_density(m.sample(ok, 1, 0), np.array([[0.6, 0.81]]))


def test_check_neighbours():
    m = TuDirectProjection(1.0, 0.01, 2, 2, bound=1.0)
    a = np.array([[0.5, 0.0], [0.0, 0.5]])
    b = np.array([[-0.5, 0.0], [0.0, 0.5]])
    m.check_neighbours(a, b)
    with pytest.raises(InvalidArgument, match="one row"):
        m.check_neighbours(a, -a)
    with pytest.raises(InvalidArgument, match="<= B"):
        m.check_neighbours(np.array([[0.9, 0.0]]), np.array([[-0.9, 0.0]]))
