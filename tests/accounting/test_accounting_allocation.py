"""Random allocation (accounting.allocation): the certified PLD of the balls-in-bins pair against Monte Carlo, against
the certified lower bound of the maximum statistic, against the Gaussian it reduces to at one step, and in the
accountant (amplified under add/remove, not under replace-one; the state round trip)."""
from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify import NeighbourRelation
from dpverify.accounting import (Accountant, Composed, Gaussian, Method, PoissonSubsampled, RandomAllocation,
                                  SelfComposed)
from dpverify.accounting.allocation import allocation_pmf, cell_step, spread_cells
from dpverify.accounting.pld import PLDComposition
from dpverify.accounting.profiles import gaussian_delta
from dpverify.accounting.samplers import shuffled_gaussian_epsilon_lower

AR = NeighbourRelation.ADD_REMOVE_ONE


def test_the_spread_keeps_the_mass_and_the_mean_and_adds_little_variance():
    mu = 1.0
    g, K = cell_step(mu, 100, 1e-15)
    q, a = spread_cells(mu, g, K)
    z = np.arange(K + 1) * g
    # every mass is raised by its error bound: the totals are at least the exact ones, and only just
    assert 1.0 <= float(np.sum(q)) <= 1.0 + 1e-8
    assert 1.0 - a <= float(np.sum(q * z)) <= 1.0 + 1e-8
    var = float(np.sum(q * z * z)) - float(np.sum(q * z)) ** 2
    true_var = math.expm1(mu * mu)
    assert true_var <= var <= true_var * (1 + 2e-4)  # a spread: more variance, by about g^2/4 per record


def test_certified_profile_is_above_monte_carlo_and_close_to_it():
    # S = mean of t lognormals under Q; remove: E[(S - e^eps)_+], add: E[(1 - e^eps S)_+]. 400,000 draws, seed 0;
    # each of the 16 comparisons fails falsely with probability about 3.4e-6 (4.5 standard errors, one-sided).
    # The optimistic leaf (the maximum statistic's cells, the accountant's lower bound) must stay below the truth.
    from dpverify.accounting.shuffle_lower import allocation_epoch_pmf

    mu, t, n = 1.0, 10, 400_000
    rng = np.random.default_rng(0)
    S = np.mean(np.exp(mu * rng.standard_normal((n, t)) - mu * mu / 2), axis=1)
    remove, add = (allocation_pmf(mu, t, d, 1e-4, 1e-15) for d in (0, 1))
    low_remove, low_add = (allocation_epoch_pmf(1 / mu, t, d, 1e-3) for d in (0, 1))
    for eps in (0.0, 0.3, 0.6, 1.0):
        c = math.exp(eps)
        for pmf, low, v in ((remove, low_remove, np.maximum(S - c, 0.0)), (add, low_add, np.maximum(1.0 - c * S, 0.0))):
            mc, se = float(np.mean(v)), float(np.std(v)) / math.sqrt(n)
            cert = pmf.delta(eps)
            assert cert >= mc - 4.5 * se
            assert cert <= mc + 4.5 * se + 1e-3 * mc  # and not loose
            assert low.delta_lower(eps, 0.0, 1.0) <= mc + 4.5 * se


def test_upper_bound_sits_just_above_the_certified_lower_bound():
    sigma, t = 0.8, 30
    upper = max(allocation_pmf(1 / sigma, t, d, 1e-4, 1e-15).epsilon(1e-6) for d in (0, 1))
    lower = shuffled_gaussian_epsilon_lower(1e-6, sigma, t)
    assert lower <= upper <= lower * (1 + 1e-3)  # measured: 2.96304 against 2.96214


def test_one_step_bounds_the_gaussian_profile_in_both_directions():
    # at one step S = Z exactly: both directions' profiles are the Gaussian's (Balle--Wang), which the certified ones
    # must bound at every epsilon; the add direction's high losses come from the cell (0, g] of Z, whose spread puts
    # mass at S = 0 (loss +inf): leaving that mass out undercuts the Gaussian at large epsilon
    for d in (0, 1):
        pmf = allocation_pmf(1.0, 1, d, 1e-4, 1e-15, zero_mass=1.0)  # computed although S = 0 keeps mass
        for eps in (0.5, 1.0, 2.0, 3.0, 4.0):
            assert pmf.delta(eps) >= gaussian_delta(1.0, eps)


def test_one_step_is_the_gaussian():
    # 1-out-of-1 allocation is the Gaussian itself (its remove direction; the add direction carries the spread's
    # mass at S = 0 to +inf, which is why allocation_pmf declines by default and the accountant never builds an
    # allocation of one step)
    eps = allocation_pmf(1.0, 1, 0, 1e-4, 1e-15, zero_mass=1.0).epsilon(1e-6)
    exact = PLDComposition().epsilon(Gaussian(1.0, relation=AR), 1e-6)
    assert exact <= eps <= exact * (1 + 1e-5)


def test_accountant_amplifies_random_allocation_under_add_remove_only():
    ra = RandomAllocation(Gaussian(1.0, relation=AR), 1000)
    acc = Accountant().compose(ra)
    ans = acc.epsilon_answer(1e-6)
    assert ans.method == "pld"
    b = PLDComposition().bounds(ra, [1e-6])
    assert b.lower[0] <= b.upper[0] == pytest.approx(ans.value, rel=1e-12)
    assert b.lower[0] > 0.1  # the maximum statistic's cells composed as the leaf's optimistic PLD: 0.1235
    plain = PLDComposition().epsilon(Gaussian(1.0, relation=AR), 1e-6)
    poisson = PLDComposition().epsilon(SelfComposed(PoissonSubsampled(Gaussian(1.0, relation=AR), 1e-3), 1000), 1e-6)
    assert ans.value < 0.2 * plain
    assert ans.value < poisson  # 0.1717 against Poisson's 0.1855 at the same expected rate
    # k-out-of-t: k runs of 1-out-of-(t // k)
    two = PLDComposition().epsilon(RandomAllocation(Gaussian(1.0, relation=AR), 1000, 2), 1e-6)
    one_of_500 = PLDComposition().epsilon(SelfComposed(RandomAllocation(Gaussian(1.0, relation=AR), 500), 2), 1e-6)
    assert two == one_of_500
    # replace-one: no pair is implemented, so no amplification
    rep = RandomAllocation(Gaussian(1.0), 1000)
    assert PLDComposition().epsilon(rep, 1e-6) == PLDComposition().epsilon(Gaussian(1.0), 1e-6)
    # the ledger keeps the allocation as a leaf, and the state round trip keeps it
    again = Accountant.from_state(acc.state())
    assert again.epsilon(1e-6) == ans.value


def test_other_methods_still_account_random_allocation_without_amplification():
    ra = RandomAllocation(Gaussian(1.0, relation=AR), 1000, 3)
    acc = Accountant().compose(Composed((ra, Gaussian(50.0, relation=AR))))
    vals = acc.epsilon_answer(1e-6).values
    rdp_plain = Accountant(method=Method.RDP, fallback=False).compose(
        Composed((SelfComposed(Gaussian(1.0, relation=AR), 3), Gaussian(50.0, relation=AR)))).epsilon(1e-6)
    assert vals["rdp"] == pytest.approx(rdp_plain, rel=1e-12)
    assert vals["pld"] < vals["rdp"]


def test_small_sigma_falls_back_to_the_gaussian_rather_than_infinity():
    # sigma = 0.35: the lognormal's tail forces cells of about 1e5, the spread leaves S = 0 most of the mass, and the
    # add direction would be +inf; the accountant then bounds the allocation by the Gaussian itself (used once)
    ra = RandomAllocation(Gaussian(0.35, relation=AR), 1000)
    assert allocation_pmf(1 / 0.35, 1000, 1, 1e-4, 1e-15) is None
    eps = PLDComposition().epsilon(ra, 1e-6)
    assert eps == PLDComposition().epsilon(Gaussian(0.35, relation=AR), 1e-6)
    assert eps >= shuffled_gaussian_epsilon_lower(1e-6, 0.35, 1000)


def test_epochs_of_allocation_carry_a_certified_lower_bound_below_the_upper():
    # E independent allocations: the maximum-statistic cells of MoG(1) against noise, composed (shuffle_lower)
    from dpverify.accounting.shuffle_lower import allocation_epochs_epsilon_lower

    one = allocation_epochs_epsilon_lower(1e-6, 1.0, 1000, 1).epsilon
    five = allocation_epochs_epsilon_lower(1e-6, 1.0, 1000, 5).epsilon
    assert 0.1 < one < five  # measured 0.1230 and 0.1902
    # the accountant composes the same cells as a leaf's optimistic PLD (on its finer grid): 0.1925, upper 0.3769
    b = PLDComposition().bounds(SelfComposed(RandomAllocation(Gaussian(1.0, relation=AR), 1000), 5), [1e-6])
    assert five <= b.lower[0] <= 1.02 * five and b.lower[0] < b.upper[0]
    # with another event too, and none for k-out-of-t (its reduction to k runs of 1-out-of-t/k is an upper bound)
    mixed = PLDComposition().bounds(Composed((RandomAllocation(Gaussian(1.0, relation=AR), 1000),
                                              Gaussian(5.0, relation=AR))), [1e-6])
    assert 0.8 < mixed.lower[0] < mixed.upper[0]  # measured 0.8374 and 0.8536
    assert PLDComposition().bounds(RandomAllocation(Gaussian(1.0, relation=AR), 1000, 2), [1e-6]).lower[0] == 0.0


def test_spread_masses_bound_the_exact_spread_from_above_and_only_just():
    """The float masses of the spread (closed forms, each raised by its error bound) against the same spread at 40
    digits (mpmath): entrywise at least the exact one, and within a relative 1e-8 where the mass is not negligible
    (measured: at most 1.02e-9, at cell 178; the bounds grow with the cell index, k u relative from the cancellation)."""
    import mpmath

    mu, g, K = 1.0, 0.05, 400
    q, a = spread_cells(mu, g, K)
    with mpmath.workdps(40):
        m2 = mpmath.mpf(mu) ** 2 / 2

        def y(k):
            return -mpmath.inf if k == 0 else (mpmath.log(k * mpmath.mpf(g)) + m2) / mu

        exact = [mpmath.mpf(0)] * (K + 1)
        for k in range(K):
            c = mpmath.ncdf(y(k + 1)) - mpmath.ncdf(y(k))
            m = mpmath.ncdf(y(k + 1) - mu) - mpmath.ncdf(y(k) - mu)
            hi = (m - k * mpmath.mpf(g) * c) / g
            exact[k] += c - hi
            exact[k + 1] += hi
        tail = 1 - mpmath.ncdf(y(K) - mu)
    for k in range(K + 1):
        assert q[k] >= float(exact[k]) * (1 - 1e-15)
        if exact[k] > 1e-12:
            assert q[k] <= float(exact[k]) * (1 + 1e-8), (k, q[k], exact[k])
    assert float(tail) <= a <= float(tail) * (1 + 1e-9) + 1e-300


@pytest.mark.parametrize("kwargs, name", [
    (dict(mu=float("nan")), "mu=nan"), (dict(mu=-1.0), "mu=-1.0"), (dict(steps=0), "steps=0"),
    (dict(direction=2), "direction=2"), (dict(h=float("inf")), "h=inf"), (dict(tail=0.0), "tail=0.0"),
])
def test_allocation_pmf_refuses_bad_arguments_by_name(kwargs, name):
    from dpverify import InvalidArgument

    args = dict(mu=1.0, steps=10, direction=0, h=1e-4, tail=1e-15) | kwargs
    with pytest.raises(InvalidArgument, match=name.replace("(", r"\(")):
        allocation_pmf(**args)


def test_allocation_epoch_pmf_refuses_bad_arguments_by_name():
    from dpverify import InvalidArgument
    from dpverify.accounting.shuffle_lower import allocation_epoch_pmf

    with pytest.raises(InvalidArgument, match="sigma=nan"):
        allocation_epoch_pmf(float("nan"), 10, 0, 1e-3)
    with pytest.raises(InvalidArgument, match="direction=2"):
        allocation_epoch_pmf(1.0, 10, 2, 1e-3)
