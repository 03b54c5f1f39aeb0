"""Grey-box checks of a diverged control flow (replay._sides): each dataset recorded on its own on eight seeds, both
output laws fitted, the pair's privacy from them. Deterministic: fixed seeds, no sampling."""
from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify import NeighbourRelation, PrivacyClaim
from dpverify.auditing.greybox import replay_pair

ADD = PrivacyClaim(1.0, relation=NeighbourRelation.ADD_REMOVE_ONE)
PAIR = ([0.5], [0.5, 1.0])


class Branchy:
    """sum + Laplace; on datasets of more than one record one more draw first (``extra``: 'unused' -- a uniform
    draw that does not reach the output; 'shifts' -- one that does), and the noise scale ``big_scale`` there."""

    claim = ADD

    def __init__(self, big_scale=1.0, extra="unused", own=False, coin=False):
        self.big_scale, self.extra, self.own, self.coin = big_scale, extra, own, coin
        self.gen = np.random.default_rng()

    def sample(self, data, size, rng):
        x = np.clip(np.asarray(data, dtype=float), 0, 1)
        s = float(np.sum(x))
        scale = 1.0
        if len(x) > 1:
            u = rng.random(size)
            scale = self.big_scale
            if self.extra == "shifts":
                s = s + (u < 0.5)
        if self.coin:  # a private scale mixture: a coin drawn from rng picks 1 or 1.5 on every dataset
            scale = scale * (1.0 if rng.random() < 0.5 else 1.5)
        noise = (self.gen if self.own else rng).laplace(0.0, scale, size)
        return s + noise


def test_a_data_dependent_branch_with_another_scale_is_an_exact_finding():
    c = replay_pair(Branchy(big_scale=0.5), PAIR, 0, ADD)
    assert c.divergence and c.finding and "diverged" in c.finding and c.epsilon == math.inf
    assert "recorded on its own" in c.implied


def test_a_diverged_but_private_mechanism_gets_its_exact_eps_and_no_finding():
    c = replay_pair(Branchy(big_scale=1.0), PAIR, 0, ADD)
    assert c.divergence and c.finding is None and abs(c.epsilon - 1.0) < 1e-9


def test_a_diverged_mechanism_above_its_claim_is_found_with_the_eps():
    c = replay_pair(Branchy(big_scale=1.0), ([0.5], [0.5, 1.0]), 0, PrivacyClaim(0.5, relation=ADD.relation))
    assert c.finding and abs(c.epsilon - 1.0) < 1e-9


@pytest.mark.parametrize("mech", [Branchy(big_scale=0.5, own=True), Branchy(extra="shifts")],
                         ids=["own generator", "the extra draw reaches the output"])
def test_what_the_sides_cannot_model_stays_a_reported_divergence(mech):
    c = replay_pair(mech, PAIR, 0, ADD)
    assert c.divergence and c.finding is None and c.implied is None


@pytest.mark.parametrize("pair", [PAIR, ([0.2], [0.2, 0.9]), ([1.0], [1.0, 0.0])])
def test_a_scale_mixture_drawn_from_rng_is_not_two_scales(pair):
    """The coin picks the scale on every seed; D and D' are recorded on different streams, so only if all eight
    seeds of each side agreed could two scales be read (about 2^-14); here the check refuses the model."""
    c = replay_pair(Branchy(big_scale=1.0, coin=True), pair, 0, ADD)
    assert c.finding is None
