"""Composition methods: the issue's acceptance values and direction-aware checks."""
import math

import mpmath as mp
import numpy as np
import pytest

from dpverify import NeighbourRelation
from dpverify.accounting import (
    Accountant, AdvancedComposition, ApproxDP, BasicComposition, Composed, Discretisation, Gaussian,
    KOVComposition, Laplace, Method, PLDComposition, PoissonSubsampled, PureDP, RandomizedResponse,
    RDPComposition, SelfComposed, delta_for_epsilon, epsilon_for_delta,
)
from dpverify.accounting.pmf import LossPMF
from dpverify.accounting.advanced import advanced_epsilon

AR = NeighbourRelation.ADD_REMOVE_ONE

GAUSS = [(10, 5.0, 2.594383381), (100, 10.0, 4.377178096), (1000, 20.0, 7.511275901)]
LAPLACE = [(10, 10.0, 0.9989780869, 0.9989780894), (50, 10.0, 3.1207005, 3.1207096),
           (100, 50.0, 0.81935702, 0.81935749)]


@pytest.mark.parametrize("k,sigma,exact", GAUSS)
def test_pld_gaussian_acceptance(k, sigma, exact):
    # the exact value (one Gaussian with sigma / sqrt(k)) recomputed at high precision
    mu = math.sqrt(k) / sigma
    with mp.workdps(50):
        f = lambda e: mp.ncdf(mu / 2 - e / mu) - mp.e ** e * mp.ncdf(-mu / 2 - e / mu) - mp.mpf("1e-5")  # noqa: E731
        true = float(mp.findroot(f, exact))
        assert abs(true - exact) < 1e-9
        eps = PLDComposition().epsilon(SelfComposed(Gaussian(sigma), k), 1e-5)  # composes k PLDs
        assert true <= eps <= true * (1 + 1e-6)


@pytest.mark.parametrize("k,b,lo,hi", LAPLACE)
def test_pld_laplace_acceptance(k, b, lo, hi):
    eps = PLDComposition().epsilon(SelfComposed(Laplace(b), k), 1e-6)
    assert lo <= eps <= hi + 1e-4


@pytest.mark.parametrize("k,b,lo,hi", LAPLACE)
@pytest.mark.parametrize("method", [BasicComposition(), AdvancedComposition(), KOVComposition(), RDPComposition()],
                         ids=lambda m: m.name)
def test_classical_methods_are_upper_bounds_for_laplace(k, b, lo, hi, method):
    assert method.epsilon(SelfComposed(Laplace(b), k), 1e-6) >= lo


@pytest.mark.parametrize("k,sigma,exact", GAUSS)
def test_rdp_gaussian_is_upper_bound(k, sigma, exact):
    assert RDPComposition().epsilon(SelfComposed(Gaussian(sigma), k), 1e-5) >= exact


def test_merge_gaussians_fast_path_matches_exact():
    ev = Composed((SelfComposed(Gaussian(10.0), 50), SelfComposed(Gaussian(5.0), 10)))
    exact = epsilon_for_delta(ev, 1e-6)
    got = PLDComposition(merge_gaussians=True).epsilon(ev, 1e-6)
    assert exact <= got <= exact * (1 + 1e-5)


def test_round_up_discretisation_is_also_an_upper_bound():
    ev = SelfComposed(Gaussian(2.0), 20)
    exact = epsilon_for_delta(ev, 1e-5)
    ru = PLDComposition(value_discretisation=1e-3, discretisation=Discretisation.ROUND_UP).epsilon(ev, 1e-5)
    ctd = PLDComposition(value_discretisation=1e-3).epsilon(ev, 1e-5)
    assert exact <= ctd <= ru


@pytest.mark.parametrize("eps", [0.5, 1.0, 2.0, 4.0])
def test_pld_delta_is_upper_bound_and_round_trips(eps):
    ev = SelfComposed(Gaussian(3.0), 20)
    m = PLDComposition()
    exact = delta_for_epsilon(ev, eps)
    d = m.delta(ev, eps)
    assert exact / (1 + 1e-9) <= d <= exact * (1 + 1e-4) + 1e-12
    e = m.epsilon(ev, d)
    assert e <= eps + 1e-9


def test_kov_matches_theorem_points():
    # KOV Thm 3.3 at eps' = (k - 2i) eps: 1 - (1-delta)^k (1 - delta_i)
    eps, delta, k = 0.3, 1e-4, 7
    for i in range(0, k // 2 + 1):
        di = sum(math.comb(k, l) * (math.exp((k - l) * eps) - math.exp((k - 2 * i + l) * eps))
                 for l in range(i)) / (1 + math.exp(eps)) ** k
        expected = 1 - (1 - delta) ** k * (1 - di)
        got = KOVComposition().delta(SelfComposed(ApproxDP(eps, delta), k), (k - 2 * i) * eps)
        assert expected * (1 - 1e-12) <= got <= expected * (1 + 1e-8) + 1e-15


def test_kov_is_between_pld_and_advanced_for_pure():
    ev = SelfComposed(PureDP(0.1), 200)
    pld = PLDComposition().epsilon(ev, 1e-6)
    kov = KOVComposition().epsilon(ev, 1e-6)
    adv = AdvancedComposition().epsilon(ev, 1e-6)
    assert kov <= adv and abs(pld - kov) < 1e-3 and pld >= kov * (1 - 1e-9)


def test_advanced_matches_lemma3():
    eps, k, delta = 0.1, 100, 1e-6
    got = AdvancedComposition().epsilon(SelfComposed(PureDP(eps), k), delta)
    assert got == pytest.approx(advanced_epsilon(eps, delta, k), rel=1e-13)
    assert got >= math.sqrt(2 * k * math.log(1 / delta)) * eps + k * eps * math.expm1(eps)


def test_kov_rejects_heterogeneous():
    from dpverify import UnsupportedEvent

    with pytest.raises(UnsupportedEvent):
        KOVComposition().epsilon(Composed((PureDP(0.1), PureDP(0.2))), 1e-6)


def test_subsampled_gaussian_pld_and_rdp_are_upper_bounds():
    ev = PoissonSubsampled(Gaussian(1.0, relation=AR), 0.05)
    single_exact = epsilon_for_delta(ev, 1e-5)
    assert PLDComposition().epsilon(ev, 1e-5) >= single_exact
    k = 50
    pld = PLDComposition().epsilon(SelfComposed(ev, k), 1e-5)
    rdp = RDPComposition().epsilon(SelfComposed(ev, k), 1e-5)
    assert pld <= rdp  # PLD is the tighter accountant
    # single-event PLD vs exact profile (both directions)
    assert PLDComposition().epsilon(ev, 1e-5) <= single_exact + 2e-3


def test_subsampled_gaussian_rdp_against_mpmath():
    # Renyi divergence of both directions at alpha = 4 by quadrature <= MTZ closed form
    sigma, q, a = 1.5, 0.1, 4
    with mp.workdps(30):
        n0 = lambda x: mp.npdf(x, 0, sigma)  # noqa: E731
        n1 = lambda x: mp.npdf(x, 1, sigma)  # noqa: E731
        mix = lambda x: (1 - q) * n0(x) + q * n1(x)  # noqa: E731
        rem = mp.log(mp.quad(lambda x: mix(x) ** a * n0(x) ** (1 - a), [-mp.inf, 0, mp.inf])) / (a - 1)
        add = mp.log(mp.quad(lambda x: n0(x) ** a * mix(x) ** (1 - a), [-mp.inf, 0, mp.inf])) / (a - 1)
        from dpverify.accounting.rdp import rdp_curve

        got = rdp_curve(RDPComposition(), PoissonSubsampled(Gaussian(sigma, relation=AR), q), [4.0])[0]
        assert got >= max(rem, add) * (1 - 1e-12)
        assert got == pytest.approx(float(max(rem, add)), rel=1e-9)


def test_heterogeneous_pld_between_exact_parts():
    ev = Composed((SelfComposed(Gaussian(8.0), 30), SelfComposed(Laplace(20.0), 10),
                   RandomizedResponse(0.2), SelfComposed(ApproxDP(0.05, 1e-8), 5)))
    pld = PLDComposition().epsilon(ev, 1e-5)
    rdp_ok = RDPComposition().supports(ev)
    assert not rdp_ok  # ApproxDP with delta > 0
    gauss_only = epsilon_for_delta(SelfComposed(Gaussian(8.0), 30), 1e-5)
    assert pld > gauss_only


@pytest.mark.parametrize("n,m", [(3000, 5000), (20000, 300)])
def test_fft_error_bound_holds(n, m):
    rng = np.random.default_rng(1)
    x = rng.random(n) ** 8
    x /= x.sum()
    y = rng.random(m) ** 8
    y /= y.sum()
    px = LossPMF(1e-3, 0, x, 0.0, 0.0)
    py = LossPMF(1e-3, 0, y, 0.0, 0.0)
    z = px.convolve(py, 1e-300)  # no truncation
    exact = np.convolve(x.astype(np.longdouble), y.astype(np.longdouble))
    observed = float(np.sum(np.abs(exact[z.offset: z.offset + z.probs.size] - z.probs)))
    observed += float(np.sum(exact)) - float(np.sum(exact[z.offset: z.offset + z.probs.size]))
    assert observed <= z.error
    assert z.error < 1e-10


def test_power_error_bound_holds():
    rng = np.random.default_rng(2)
    x = rng.random(400) ** 4
    x /= x.sum()
    k = 6
    px = LossPMF(1e-2, 0, x, 0.0, 0.0)
    z = px.self_compose(k, 1e-300)
    exact = x.astype(np.longdouble)
    for _ in range(k - 1):
        exact = np.convolve(exact, x.astype(np.longdouble))
    seg = exact[z.offset: z.offset + z.probs.size]
    observed = float(np.sum(np.abs(seg - z.probs)))
    assert observed <= z.error + z.inf_mass


def test_accountant_heterogeneous_counts_equal_selfcomposed():
    a = Accountant(Method.RDP).compose(Gaussian(4.0), 3).compose(Gaussian(4.0)).compose(Gaussian(4.0), 6)
    b = RDPComposition().epsilon(SelfComposed(Gaussian(4.0), 10), 1e-5)
    assert a.epsilon(1e-5) == pytest.approx(b, rel=1e-12)
    assert a.delta(a.epsilon(1e-5)) <= 1e-5 * (1 + 1e-9)
