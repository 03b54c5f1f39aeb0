"""The certified lower bound for several shuffled epochs (issue 32): adversaries against the
no-amplification upper bound, the Gaussian itself, an exact multinomial oracle, and the case of the
shuffling papers (the lower bound above the Poisson upper bound under the same adjacency)."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from dpverify import NeighbourRelation
from dpverify.accounting import PLDComposition, Gaussian, SelfComposed, dpsgd, epsilon_for_delta
from dpverify.accounting.samplers import shuffled_gaussian_epsilon_lower
from dpverify.accounting.shuffle_lower import (
    cell_masses, cells_to_pmf, shuffled_epochs_delta_lower, shuffled_epochs_epsilon_lower,
)
from dpverify.errors import InvalidArgument

ZERO_OUT = NeighbourRelation.ADD_REMOVE_ONE
REPLACE = NeighbourRelation.REPLACE_ONE


def _no_amplification_upper(sigma, epochs, relation, delta):
    """E runs of one Gaussian step (the record is in one batch per epoch): sensitivity 1 under
    zero-out (add/remove), 2 under replace-one (gradients of norm <= 1 differ by up to 2)."""
    sens = 1.0 if relation is ZERO_OUT else 2.0
    return PLDComposition().epsilon(SelfComposed(Gaussian(sigma, sens, relation=relation), epochs), delta)


@pytest.mark.parametrize("epochs", [1, 3])
def test_one_batch_is_the_gaussian(epochs):
    """With one batch per epoch MoG(2) against MoG(1) is N(2, s^2) against N(1, s^2): the bound must
    sit just below the exact epsilon of E Gaussian steps (Balle--Wang at sigma / sqrt(E)), never above."""
    sigma, delta = 0.7, 1e-6
    exact = epsilon_for_delta(Gaussian(sigma / math.sqrt(epochs)), delta)
    lo = shuffled_epochs_epsilon_lower(delta, sigma, 1, epochs).epsilon
    assert exact - 0.01 <= lo <= exact


@pytest.mark.parametrize("batches, sigma, epochs, relation", [
    (1000, 0.5, 1, ZERO_OUT), (1000, 0.5, 3, ZERO_OUT), (100, 1.0, 2, ZERO_OUT), (1000, 0.8, 2, REPLACE),
])
def test_never_above_the_no_amplification_upper_bound(batches, sigma, epochs, relation):
    delta = 1e-6
    lo = shuffled_epochs_epsilon_lower(delta, sigma, batches, epochs, relation=relation).epsilon
    assert 0 < lo <= _no_amplification_upper(sigma, epochs, relation, delta)


def test_monotone_in_epochs():
    los = [shuffled_epochs_epsilon_lower(1e-6, 1.0, 1000, e).epsilon for e in (1, 2, 3, 4)]
    assert all(a < b for a, b in zip(los, los[1:])), los


def test_delta_and_epsilon_lower_agree():
    r = shuffled_epochs_epsilon_lower(1e-5, 0.8, 500, 2)
    assert shuffled_epochs_delta_lower(r.epsilon, 0.8, 500, 2) > 1e-5
    assert shuffled_epochs_delta_lower(r.epsilon + 0.05, 0.8, 500, 2) < 1e-5


def _exact_multinomial_delta(p, q, epochs, eps):
    """delta(eps) of the E-fold product of the finite pair (p, q), exactly in mpmath: a sum over the
    cell counts (multinomial), independent of the FFT pipeline."""
    k = len(p)
    total = mpmath.mpf(0)
    loss = [mpmath.log(a / b) for a, b in zip(p, q)]

    def rec(i, left, logw, L):
        nonlocal total
        if i == k - 1:
            n = left
            w = logw + n * mpmath.log(p[i]) - mpmath.log(mpmath.factorial(n))
            LL = L + n * loss[i]
            if LL > eps:
                total += mpmath.exp(w + mpmath.log(mpmath.factorial(epochs))) * (1 - mpmath.exp(eps - LL))
            return
        for n in range(left + 1):
            rec(i + 1, left - n, logw + n * mpmath.log(p[i]) - mpmath.log(mpmath.factorial(n)), L + n * loss[i])

    rec(0, epochs, mpmath.mpf(0), mpmath.mpf(0))
    return total


def test_composition_against_an_exact_multinomial_oracle():
    """Five cells of the max, four epochs: the certified value never exceeds the exact hockey-stick
    of the product pair and is within the loss rounding (E h) of it."""
    sigma, T, E, h = 0.6, 50, 4, 1e-3
    cuts = np.array([1.0, 1.6, 2.2, 2.8])
    with mpmath.workdps(40):
        p = cell_masses(2.0, sigma, T, cuts)
        q = cell_masses(1.0, sigma, T, cuts)
        pmf = cells_to_pmf(p, q, h).self_compose(E, 1e-300, 1e-15)
        for eps in (0.5, 2.0, 4.0, 6.0):
            exact = float(_exact_multinomial_delta(p, q, E, mpmath.mpf(eps)))
            lower = pmf.delta_lower(eps, 4e-300, math.exp(-E * 256 * 2.0 ** -53))
            upper_shifted = float(_exact_multinomial_delta(p, q, E, mpmath.mpf(eps - E * h)))
            assert lower <= exact, (eps, lower, exact)
            # rounding every loss down by < h is at most the exact value at eps - E h
            assert lower >= float(_exact_multinomial_delta(p, q, E, mpmath.mpf(eps + E * h))) * (1 - 1e-9)
            assert exact <= upper_shifted


def test_one_epoch_refines_the_threshold_bound():
    """Replace-one, one epoch: the cells of the max contain the single-threshold test of
    samplers.shuffled_gaussian_epsilon_lower (sensitivity 2), so the bound is at least that one,
    up to the loss grid (h = 1e-3)."""
    old = shuffled_gaussian_epsilon_lower(1e-6, 1.0, 1000, sensitivity=2.0)
    new = shuffled_epochs_epsilon_lower(1e-6, 1.0, 1000, 1, relation=REPLACE).epsilon
    assert new >= old - 2e-3


@pytest.mark.parametrize("sigma, epochs", [(0.5, 1), (0.5, 5)])
def test_shuffling_lower_bound_exceeds_the_poisson_upper_bound(sigma, epochs):
    """The acceptance case (issue 32), like with like: zero-out adjacency for the shuffled loader
    (Chua et al.'s pair MoG(2) against MoG(1)) and add/remove at sensitivity 1 for Poisson sampling at
    rate 1/T over the same T E steps. T = 1000 batches per epoch, delta = 1e-6."""
    T, delta = 1000, 1e-6
    lo = shuffled_epochs_epsilon_lower(delta, sigma, T, epochs).epsilon
    poisson_upper = PLDComposition().epsilon(dpsgd(1 / T, sigma, T * epochs), delta)
    assert lo > 2 * poisson_upper


@pytest.mark.parametrize("call, match", [
    (lambda: shuffled_epochs_epsilon_lower(0.0, 1.0, 10), "delta"),
    (lambda: shuffled_epochs_epsilon_lower(1e-6, float("nan"), 10), "sigma"),
    (lambda: shuffled_epochs_epsilon_lower(1e-6, 1.0, 0), "batches"),
    (lambda: shuffled_epochs_epsilon_lower(1e-6, 1.0, 10, 0), "epochs"),
    (lambda: shuffled_epochs_epsilon_lower(1e-6, 1.0, 10, relation="replace"), "relation"),
    (lambda: shuffled_epochs_epsilon_lower(1e-6, 1.0, 10, cell_step=5.0), "cell_step"),
    (lambda: shuffled_epochs_delta_lower(float("inf"), 1.0, 10), "epsilon"),
    (lambda: shuffled_epochs_delta_lower(1.0, 1.0, 10, value_discretisation=-1.0), "value_discretisation"),
])
def test_bad_arguments(call, match):
    with pytest.raises(InvalidArgument, match=match):
        call()


def test_replace_one_is_at_least_zero_out():
    """A record of gradient 0 is a record: every zero-out pair is a replace-one pair, so the
    replace-one lower bound can never be the smaller (sigma = 1, where the zero-out pair is close)."""
    zo = shuffled_epochs_epsilon_lower(1e-6, 1.0, 1000, 1, relation=ZERO_OUT)
    ro = shuffled_epochs_epsilon_lower(1e-6, 1.0, 1000, 1, relation=REPLACE)
    assert ro.epsilon >= zo.epsilon
