"""Privacy profiles against mpmath oracles; direction-aware (never below the exact value)."""

import mpmath as mp
import pytest

from dpverify import NeighbourRelation
from dpverify.accounting import (
    ApproxDP, DiscreteLaplace, Gaussian, Laplace, PoissonSubsampled, PureDP, RandomizedResponse,
    SelfComposed, delta_for_epsilon, epsilon_for_delta,
)


@pytest.fixture(autouse=True)
def _mp_precision():
    """Every test here computes its mpmath oracles at 40 digits; the global precision is
    restored afterwards (``mp.workdps``), so other tests never see it changed."""
    with mp.workdps(40):
        yield


AR = NeighbourRelation.ADD_REMOVE_ONE


def mp_gauss_delta(mu, eps):
    mu, eps = mp.mpf(mu), mp.mpf(eps)
    return mp.ncdf(mu / 2 - eps / mu) - mp.e ** eps * mp.ncdf(-mu / 2 - eps / mu)


def mp_hockey(p, q, eps, a, b):
    """Integral of (p - e^eps q)_+ (p, q mpmath densities with a monotone likelihood ratio):
    the crossing point is found by bisection and used as a breakpoint of the quadrature."""
    g = lambda x: mp.log(p(x)) - mp.log(q(x)) - eps  # noqa: E731
    lo, hi = mp.mpf(-60), mp.mpf(60)
    if g(lo) * g(hi) > 0:  # no crossing: the positive part is everywhere or nowhere
        return mp.quad(lambda x: max(p(x) - mp.e ** eps * q(x), 0), [a, 0, 1, b])
    for _ in range(200):
        mid = (lo + hi) / 2
        if g(mid) * g(lo) > 0:
            lo = mid
        else:
            hi = mid
    c = (lo + hi) / 2
    pts = sorted({mp.mpf(0), mp.mpf(1), c})
    return mp.quad(lambda x: max(p(x) - mp.e ** eps * q(x), 0), [a, *pts, b])


@pytest.mark.parametrize("mu,eps", [(0.2, 0.5), (1.0, 1.0), (0.05, 0.3), (2.0, 6.0), (0.5, 10.0)])
def test_gaussian_profile_against_mpmath(mu, eps):
    exact = mp_gauss_delta(mu, eps)
    got = delta_for_epsilon(Gaussian(1 / mu), eps)
    assert got >= exact
    assert got <= exact * (1 + 1e-8)


@pytest.mark.parametrize("b,eps", [(1.0, 0.3), (10.0, 0.01), (0.5, 1.9)])
def test_laplace_profile_against_mpmath_integral(b, eps):
    p = lambda x: mp.e ** (-abs(x) / b) / (2 * b)  # noqa: E731
    q = lambda x: mp.e ** (-abs(x - 1) / b) / (2 * b)  # noqa: E731
    exact = mp_hockey(p, q, eps, -mp.inf, mp.inf)
    got = delta_for_epsilon(Laplace(b), eps)
    assert exact <= got <= exact * (1 + 1e-8) + 1e-300


@pytest.mark.parametrize("sigma,q,eps", [(1.0, 0.01, 0.05), (2.0, 0.1, 0.2), (0.8, 0.3, 1.0)])
def test_subsampled_gaussian_profile_against_mpmath(sigma, q, eps):
    n0 = lambda x: mp.npdf(x, 0, sigma)  # noqa: E731
    n1 = lambda x: mp.npdf(x, 1, sigma)  # noqa: E731
    mix = lambda x: (1 - q) * n0(x) + q * n1(x)  # noqa: E731
    remove = mp_hockey(mix, n0, eps, -mp.inf, mp.inf)
    add = mp_hockey(n0, mix, eps, -mp.inf, mp.inf)
    exact = max(remove, add)
    got = delta_for_epsilon(PoissonSubsampled(Gaussian(sigma, relation=AR), q), eps)
    assert exact <= got <= exact * (1 + 1e-6)


def test_randomized_response_is_pure():
    ev = RandomizedResponse(1.0, 3)
    assert delta_for_epsilon(ev, 1.0) == 0.0
    assert delta_for_epsilon(ev, 0.999) > 0.0
    assert delta_for_epsilon(PureDP(0.7), 0.7) == 0.0
    assert delta_for_epsilon(DiscreteLaplace(2.0), 0.5) == 0.0


def test_approx_dp_profile_at_its_epsilon():
    assert delta_for_epsilon(ApproxDP(1.0, 1e-6), 1.0) == pytest.approx(1e-6, rel=1e-9)
    assert delta_for_epsilon(ApproxDP(1.0, 1e-6), 1.0) >= 1e-6


@pytest.mark.parametrize("ev", [Gaussian(2.0), Laplace(3.0), SelfComposed(Gaussian(10.0), 100),
                                PoissonSubsampled(Gaussian(1.0, relation=AR), 0.05)], ids=repr)
@pytest.mark.parametrize("delta", [1e-3, 1e-6, 1e-10])
def test_round_trip_epsilon_delta_epsilon(ev, delta):
    eps = epsilon_for_delta(ev, delta)
    assert delta_for_epsilon(ev, eps) <= delta  # safe side
    if eps > 0:
        assert delta_for_epsilon(ev, eps * (1 - 1e-6)) > delta  # and tight
