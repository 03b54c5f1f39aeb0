"""Samplers as events (issue 32): shuffled epochs and random allocation, and the certified lower
bound for one shuffled epoch."""
from __future__ import annotations

import json

import pytest

from dpverify import NeighbourRelation
from dpverify.accounting import (
    Accountant, Gaussian, PLDComposition, RandomAllocation, SelfComposed, Shuffled, dpsgd, epsilon_for_delta,
)
from dpverify.accounting.samplers import shuffled_gaussian_delta_lower, shuffled_gaussian_epsilon_lower
from dpverify.errors import InvalidArgument


def test_shuffled_is_accounted_as_one_run_per_epoch():
    ev = Shuffled(Gaussian(2.0), batches_per_epoch=50, epochs=3)
    assert PLDComposition().epsilon(ev, 1e-6) == PLDComposition().epsilon(SelfComposed(Gaussian(2.0), 3), 1e-6)
    ra = RandomAllocation(Gaussian(2.0), steps=100, participations=2)
    assert Accountant().compose(ra).epsilon(1e-6) == Accountant().compose(Gaussian(2.0), 2).epsilon(1e-6)
    assert ev.relation is NeighbourRelation.REPLACE_ONE


def test_sampler_events_round_trip_through_state():
    acc = Accountant().compose(Shuffled(Gaussian(2.0), 50, 3)).compose(RandomAllocation(Gaussian(3.0), 10, 2))
    back = Accountant.from_state(json.loads(json.dumps(acc.state())))
    assert back.epsilon(1e-6) == acc.epsilon(1e-6)


@pytest.mark.parametrize("make, match", [
    (lambda: Shuffled(Gaussian(1.0), 0), "batches_per_epoch"),
    (lambda: Shuffled(Gaussian(1.0), 10, epochs=0), "epochs"),
    (lambda: Shuffled(SelfComposed(Gaussian(1.0), 2), 10), "one DpEvent"),
    (lambda: RandomAllocation(Gaussian(1.0), 5, participations=6), "exceeds"),
    (lambda: RandomAllocation(Gaussian(1.0), 5.5), "steps"),
])
def test_bad_sampler_events(make, match):
    with pytest.raises(InvalidArgument, match=match):
        make()


def test_one_batch_lower_bound_is_the_gaussian_itself():
    """With one batch the max statistic is the whole output: the lower bound equals the exact
    Gaussian epsilon to the search tolerance, and never exceeds it."""
    for sigma in (0.5, 1.0, 3.0):
        exact = epsilon_for_delta(Gaussian(sigma), 1e-6)
        lo = shuffled_gaussian_epsilon_lower(1e-6, sigma, 1)
        assert exact * (1 - 1e-6) <= lo <= exact


def test_lower_bound_stays_below_the_certified_upper_bound():
    """One epoch of 100 batches: lower bound <= the no-amplification upper bound (one Gaussian)."""
    up = PLDComposition().epsilon(Shuffled(Gaussian(0.7), 100), 1e-5)
    lo = shuffled_gaussian_epsilon_lower(1e-5, 0.7, 100)
    assert 0 < lo <= up
    assert shuffled_gaussian_delta_lower(lo * 0.99, 0.7, 100) > 1e-5


def test_shuffled_replace_one_against_poisson_add_remove():
    """The comparison users make: a shuffled loader (fixed n, so neighbours replace a record:
    clipped gradients of norm <= 1 differ by up to 2) accounted as Poisson under add/remove.
    One epoch of 1000 batches, sigma = 1, delta = 1e-5: the certified lower bound of what runs
    exceeds the Poisson upper bound by far. (With the same adjacency, zero-out, the max-statistic
    bound stays below the Poisson upper bound in every cell we measured; see docs/accounting.md.)"""
    lo = shuffled_gaussian_epsilon_lower(1e-5, 1.0, 1000, sensitivity=2.0)
    poisson = Accountant().compose(dpsgd(1 / 1000, 1.0, 1000)).epsilon(1e-5)
    assert lo > 10 * poisson


@pytest.mark.parametrize("args", [(0.0, 1.0, 10), (1e-5, -1.0, 10), (1e-5, 1.0, 0), (float("nan"), 1.0, 10)])
def test_bad_lower_bound_arguments(args):
    with pytest.raises(InvalidArgument):
        shuffled_gaussian_epsilon_lower(*args)


def test_pld_bounds_claim_no_lower_bound_for_unamplified_samplers():
    """Shuffled (and RandomAllocation where it is not amplified: replace-one) are accounted as plain runs of their
    event: the optimistic PLD of those runs is not a lower bound on the sampled mechanism (1-out-of-1000 random
    allocation at sigma = 1 is near Poisson's 0.19, far below one Gaussian's 4.89), so bounds() reports 0 there."""
    inner = Gaussian(1.0, relation=NeighbourRelation.ADD_REMOVE_ONE)
    for ev in (Shuffled(inner, 1000), RandomAllocation(Gaussian(1.0), 1000), SelfComposed(Shuffled(inner, 10), 2)):
        b = PLDComposition().bounds(ev, [1e-6])
        assert b.lower[0] == 0.0 and b.upper[0] > 4
    assert PLDComposition().bounds(inner, [1e-6]).lower[0] > 4.8


def test_pld_bounds_of_a_shuffled_gaussian_under_replace_one_carry_the_shuffling_lower_bound():
    """Shuffled(Gaussian(sigma, sensitivity)) under replace-one: a clipped-sum query with C = sensitivity / 2, so the
    lower bound is shuffle_lower's at the noise multiplier 2 sigma / sensitivity (replace-one pairs), below the
    un-amplified upper bound and equal to the function's own value; under add/remove none is claimed (the zero-out
    pair is two add/remove steps apart)."""
    from dpverify.accounting.shuffle_lower import shuffled_epochs_epsilon_lower

    ev = Shuffled(Gaussian(1.0, sensitivity=2.0, relation=NeighbourRelation.REPLACE_ONE), 1000)
    b = PLDComposition().bounds(ev, [1e-6])
    own = shuffled_epochs_epsilon_lower(1e-6, 1.0, 1000, relation=NeighbourRelation.REPLACE_ONE).epsilon
    assert b.lower[0] == own and 3.5 < own < b.upper[0]
    add = Shuffled(Gaussian(0.5, sensitivity=1.0, relation=NeighbourRelation.ADD_REMOVE_ONE), 1000)
    assert PLDComposition().bounds(add, [1e-6]).lower[0] == 0.0
