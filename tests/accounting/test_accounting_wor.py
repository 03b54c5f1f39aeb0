"""Sampling without replacement (fixed-size batches, replace-one): closed forms of
Balle--Barthe--Gaboardi 2018 and the symmetrised dominating pair, against mpmath."""
import math

import mpmath as mp
import pytest

from dpverify import NeighbourRelation
from dpverify.accounting import (
    Accountant,
    Gaussian,
    Method,
    PLDComposition,
    PoissonSubsampled,
    PureDP,
    RandomizedResponse,
    SampledWithoutReplacement,
    SelfComposed,
    ZCDP,
    delta_for_epsilon,
    epsilon_for_delta,
)
from dpverify.errors import InvalidArgument


@pytest.fixture(autouse=True)
def _mp_precision():
    """Every test here computes its mpmath oracles at 40 digits; the global precision is
    restored afterwards (``mp.workdps``), so other tests never see it changed."""
    with mp.workdps(40):
        yield


def _gauss_delta_mp(mu, eps):
    mu, eps = mp.mpf(mu), mp.mpf(eps)
    return mp.ncdf(mu / 2 - eps / mu) - mp.e ** eps * mp.ncdf(-mu / 2 - eps / mu)


def _rr_delta_mp(eps0, eps):
    eps0, eps = mp.mpf(eps0), mp.mpf(eps)
    if eps >= eps0:
        return mp.mpf(0)
    return (mp.e ** eps0 - mp.e ** eps) / (1 + mp.e ** eps0)


def _wor_delta_mp(inner_delta, g, eps):
    """BBG 2018: delta'(eps) = g H(log(1 + (e^eps - 1)/g)) for eps >= 0."""
    g = mp.mpf(g)
    return g * inner_delta(mp.log(1 + (mp.e ** mp.mpf(eps) - 1) / g))


@pytest.mark.parametrize("bad", [
    dict(sample_size=0, dataset_size=10), dict(sample_size=11, dataset_size=10),
    dict(sample_size=1.5, dataset_size=10), dict(sample_size=2, dataset_size=float("nan")),
], ids=["zero-batch", "batch-too-large", "fractional", "nan"])
def test_bad_sizes_refused(bad):
    with pytest.raises(InvalidArgument):
        SampledWithoutReplacement(Gaussian(1.0), **bad)


def test_add_remove_inner_refused_with_the_fix():
    with pytest.raises(InvalidArgument, match="PoissonSubsampled"):
        SampledWithoutReplacement(Gaussian(1.0, relation=NeighbourRelation.ADD_REMOVE_ONE), 10, 100)
    with pytest.raises(InvalidArgument):
        SampledWithoutReplacement(ZCDP(0.1), 10, 100)


def test_event_is_replace_one_data():
    ev = SampledWithoutReplacement(Gaussian(2.0), 64, 60000)
    assert ev.relation is NeighbourRelation.REPLACE_ONE
    assert ev.rate == 64 / 60000
    assert ev == SampledWithoutReplacement(Gaussian(2.0), 64, 60000)


@pytest.mark.parametrize("eps", [0.0, 0.02, 0.1, 0.3])
def test_pld_single_step_gaussian_matches_bbg_closed_form(eps):
    g, mu = 0.1, 1.0
    ev = SampledWithoutReplacement(Gaussian(1.0 / mu), 100, 1000)
    exact = float(_wor_delta_mp(lambda e: _gauss_delta_mp(mu, e), g, eps))
    got = PLDComposition(value_discretisation=1e-3).delta(ev, eps)
    assert got >= exact  # upper bound
    assert got <= exact * (1 + 1e-4) + 1e-15  # tight (connect-the-dots at h = 1e-3)
    prof = delta_for_epsilon(ev, eps)
    assert exact <= prof <= exact * (1 + 2e-10) + 1e-300


def test_pure_inner_gives_the_amplified_epsilon():
    g, eps0 = 0.05, 1.0
    amplified = math.log1p(g * math.expm1(eps0))  # BBG 2018 without replacement, replace-one
    ev = SampledWithoutReplacement(PureDP(eps0), 5, 100)
    for eps in (0.0, 0.01, 0.03):
        exact = float(_wor_delta_mp(lambda e: _rr_delta_mp(eps0, e), g, eps))
        got = PLDComposition().delta(ev, eps)
        assert exact <= got <= exact * (1 + 1e-6) + 1e-15
    e = PLDComposition().epsilon(ev, 1e-12)
    assert amplified <= e <= amplified + 2e-4  # grid step 1e-4
    assert epsilon_for_delta(ev, 1e-12) >= amplified * (1 - 1e-9)
    # the pure guarantee feeds basic composition too
    acc = Accountant(Method.BASIC, fallback=False)  # basic alone (KOV, consulted by default, is tighter)
    assert acc.compose(SelfComposed(ev, 3)).epsilon(1e-9) == pytest.approx(3 * amplified, rel=1e-9)


def test_full_batch_composition_is_the_gaussian():
    """rate 1: the symmetrised pair is the Gaussian pair, so k steps are one Gaussian with mu sqrt(k)."""
    ev = SelfComposed(SampledWithoutReplacement(Gaussian(2.0), 10, 10), 50)
    exact = epsilon_for_delta(SelfComposed(Gaussian(2.0), 50), 1e-6)
    got = PLDComposition(value_discretisation=1e-3).epsilon(ev, 1e-6)
    assert exact * (1 - 1e-9) <= got <= exact * (1 + 1e-4)


def test_composition_of_rr_matches_exact_binomial_sum():
    """k steps of WOR(RR): the symmetrised pair has atoms +-a and 0 with known masses; the composed
    profile is a finite trinomial sum computed exactly in mpmath."""
    g, eps0, k = 0.2, 0.8, 6
    ea = mp.e ** mp.mpf(eps0)
    pP, pQ = ea / (1 + ea), 1 / (1 + ea)
    # remove pair R = ((1-g) Q + g P, Q) on {true, false}: losses and P-masses
    mix_t, mix_f = (1 - g) * pQ + g * pP, (1 - g) * pP + g * pQ
    lt = mp.log(mix_t / pQ)  # > 0
    atoms = {1: mix_t, -1: mix_t * mp.e ** (-lt)}
    atoms[0] = 1 - atoms[1] - atoms[-1]
    assert atoms[0] >= 0

    def delta(eps):
        tot = mp.mpf(0)
        for a in range(k + 1):
            for b in range(k + 1 - a):
                c = k - a - b
                l = (a - b) * lt
                if l > eps:
                    w = mp.factorial(k) / (mp.factorial(a) * mp.factorial(b) * mp.factorial(c))
                    tot += w * atoms[1] ** a * atoms[-1] ** b * atoms[0] ** c * (1 - mp.e ** (eps - l))
        return tot

    ev = SelfComposed(SampledWithoutReplacement(RandomizedResponse(eps0), 20, 100), k)
    m = PLDComposition(value_discretisation=1e-4)
    for eps in (0.0, 0.1, 0.3):
        exact = float(delta(eps))
        got = m.delta(ev, eps)
        assert exact <= got <= exact * (1 + 1e-3) + 1e-12


def test_wor_is_not_poisson_and_lower_bound_is_not_claimed():
    wor = SelfComposed(SampledWithoutReplacement(Gaussian(1.0), 10, 100), 20)
    b = PLDComposition(value_discretisation=1e-3).bounds(wor, [1e-6])
    assert b.lower[0] == 0.0  # no optimistic pair is implemented for it: no lower bound claimed
    assert b.upper[0] > 0
    poisson = SelfComposed(PoissonSubsampled(Gaussian(1.0, relation=NeighbourRelation.ADD_REMOVE_ONE), 0.1), 20)
    assert PLDComposition(value_discretisation=1e-3).epsilon(poisson, 1e-6) != pytest.approx(b.upper[0], rel=1e-3)


def test_rdp_refuses_it_by_name():
    from dpverify.errors import UnsupportedEvent

    ev = SampledWithoutReplacement(Gaussian(1.0), 10, 100)
    rdp = Method.RDP.default()
    assert not rdp.supports(ev)
    with pytest.raises(UnsupportedEvent, match="SampledWithoutReplacement"):
        rdp.epsilon(ev, 1e-6)
