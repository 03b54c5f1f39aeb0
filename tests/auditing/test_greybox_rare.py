"""Rare branches (dpverify.auditing.greybox.steer): a uniform draw steered to the end of its range finds a branch that
releases the data; its event is certified on fresh draws at alpha/2, the statistical audit runs at the other half.

Every verdict here is either deterministic (the steered replays) or a certified bound at a stated level: a correct
mechanism is violated with probability at most alpha = 0.05 per audit (alpha/2 for the rare event, alpha/2 for the
statistical audit)."""
from __future__ import annotations

import math

import numpy as np
import pytest

import dpverify
from dpverify import NeighbourRelation, PrivacyClaim
from dpverify.auditing.greybox.steer import MAX_DRAWS, find_rare_branch

CLAIM = PrivacyClaim(1.0, 1e-5, relation=NeighbourRelation.ADD_REMOVE_ONE)


class Leak:
    """The sum plus Laplace(1) noise, except that a uniform draw below ``p`` (``end="low"``) or above 1 - p
    (``"high"``), or ``rng.uniform(0, 10)`` below 10 p (``"scaled"``), releases the exact sum."""

    claim = CLAIM

    def __init__(self, p=1e-4, end="low"):
        self.p, self.end = p, end

    def sample(self, data, size, rng):
        s = float(np.sum(data))
        noise = rng.laplace(0.0, 1.0, size)
        if self.end == "scaled":
            leak = rng.uniform(0.0, 10.0, size) < 10 * self.p
        else:
            u = rng.random(size)
            leak = u < self.p if self.end == "low" else u > 1 - self.p
        return np.where(leak, s, s + noise)


class BranchRR:
    """Randomized response written with a branch: with probability (e - 1)/(e + 1) the true bit, else a fair coin:
    exactly 1-DP, the branch releases the data as part of a private mechanism."""

    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        bit = int(data[-1]) if len(data) else 0
        keep = rng.random(size) < (math.e - 1) / (math.e + 1)
        return np.where(keep, bit, rng.integers(0, 2, size)).astype(float)


class RaisesWhenSteered(Leak):
    def sample(self, data, size, rng):
        u = rng.random(size)
        if np.any(u < 1e-9):
            raise ValueError("a value this mechanism refuses")
        return float(np.sum(data)) + rng.laplace(0.0, 1.0, size)


PAIR = ([0.5], [0.5, 1.0])


@pytest.mark.parametrize("end", ["low", "high", "scaled"])
def test_a_rare_leak_is_found_and_certified(end):
    """The steering is deterministic; the certification draws 2,000,001 outputs per dataset, about 200 exact releases
    on D and none on D' expected: the bound exceeds the claim once about 30 are seen, so a miss has probability below
    1e-40 (Poisson(200) at most 40)."""
    r = dpverify.audit(Leak(end=end), PAIR, mode="grey-box", samples=20_000, rng=0)
    assert r.verdict.value == "violated" and r.method.value == "grey-box"
    assert "rare branch" in r.notes[0] and "Certified on fresh draws" in r.notes[0]
    assert r.epsilon_lower > 1.0 and r.delta_lower > 1e-5
    b = find_rare_branch(Leak(end=end), PAIR, 0)
    assert b.end == ("high" if end == "high" else "low") and abs(b.probability - 1e-4) < 1e-9


def test_a_branch_too_rare_to_certify_is_reported_not_claimed():
    r = dpverify.audit(Leak(p=1e-12), PAIR, mode="grey-box", samples=20_000, rng=0)
    assert r.verdict.value != "violated"
    assert any(f"more than {MAX_DRAWS:,} draws" in n for n in r.notes)


def test_no_branch_on_correct_or_constant_mechanisms():
    assert find_rare_branch(Leak(p=0.0), PAIR, 0) is None  # never leaks: the output always moves with the noise
    assert find_rare_branch(RaisesWhenSteered(), PAIR, 0) is None  # a steered value it refuses shows nothing


def test_a_private_branch_is_judged_by_its_certified_bounds():
    """Randomized response written as a branch: the steering finds the branch (it releases the bit), and the
    certification judges it by its counts, so the audit is not violated; over 10 seeds, 3 or more violations would
    happen with probability 0.012 at the per-audit rate 0.05 (the test's false failure)."""
    pair = ([1.0], [0.0])
    assert find_rare_branch(BranchRR(), pair, 0) is not None
    hits = sum(dpverify.audit(BranchRR(), pair, mode="grey-box", samples=5_000, rng=s).verdict.value == "violated"
               for s in range(10))
    assert hits <= 2


def test_rare_branch_audits_are_reproducible():
    a, b = (dpverify.audit(Leak(), PAIR, mode="grey-box", samples=20_000, rng=4).to_dict() for _ in range(2))
    a.pop("seconds"), b.pop("seconds")
    assert a == b
