"""The anytime-valid black-box test (dpverify.auditing.anytime, ``audit(..., sequential=True)``).

Its type I error is exact (Ville's inequality), so: a tight Laplace at confidence 0.999 is violated with
probability at most 0.001 (false failure of that test); a halved Laplace (true eps 2 against 1) stops with
violated well within 2,000 draws on every seed tried (0-4; the benchmark's median is 164). Detection figures and
false alarms over 400 seeds are in benchmarks/bench_anytime.py.

Outputs that are not one number go to the learned-event test (dpverify.auditing.anytime_learned); its tests are
below the scalar ones, each with its false-failure rate."""
from __future__ import annotations

import math

import numpy as np
import pytest

import dpverify
from dpverify import InvalidArgument, PrivacyClaim


class Laplace:
    def __init__(self, scale, width=1, claim=PrivacyClaim(1.0)):
        self.scale, self.width, self.claim = scale, width, claim

    def sample(self, data, size, rng):
        x = float(data) + rng.laplace(0.0, self.scale, (size, self.width))
        return x[:, 0] if self.width == 1 else x


@pytest.mark.parametrize("seed", range(5))
def test_a_halved_scale_is_caught_within_two_thousand_draws(seed):
    r = dpverify.audit(Laplace(0.5), (0.0, 1.0), samples=2000, rng=seed, sequential=True)
    assert r.verdict.value == "violated" and r.stopped_early and r.samples < 2000
    assert "anytime-valid test" in r.notes[0] and r.epsilon_lower == 1.0


def test_a_tight_mechanism_runs_to_its_budget_without_a_violation():
    r = dpverify.audit(Laplace(1.0), (0.0, 1.0), samples=3000, rng=7, sequential=True, confidence=0.999)
    assert r.verdict.value == "not-violated" and not r.stopped_early and r.samples > 2900


def test_same_seed_same_result():
    a, b = (dpverify.audit(Laplace(0.7), (0.0, 1.0), samples=2000, rng=3, sequential=True).to_dict() for _ in range(2))
    a.pop("seconds"), b.pop("seconds")
    assert a == b


@pytest.mark.parametrize("kwargs, text", [
    (dict(sequential="yes"), "must be True or False"),
    (dict(sequential=True, stop_early=True), "takes no other black-box options"),
    (dict(sequential=True, samples=50), "at least 116"),
])
def test_bad_sequential_options_are_refused(kwargs, text):
    kwargs.setdefault("samples", 2000)
    with pytest.raises(InvalidArgument, match=text):
        dpverify.audit(Laplace(1.0), (0.0, 1.0), rng=0, **kwargs)


def test_what_the_anytime_test_does_not_take_is_refused_with_the_fix():
    with pytest.raises(InvalidArgument, match="one pair"):
        dpverify.audit(Laplace(1.0), [(0.0, 1.0), (1.0, 0.0)], samples=2000, rng=0, sequential=True)


# -- outputs that are not one number: events learned from the draws so far ----------------------------------------

class OneHotRR:
    """k-ary randomized response released as a one-hot vector: the true value with probability e^t/(e^t + k - 1).
    Exactly t-DP (tight on every pair of distinct values); the claim is eps = 1."""

    def __init__(self, true_eps, k=4, claim=PrivacyClaim(1.0), structured=False):
        self.t, self.k, self.claim, self.structured = true_eps, k, claim, structured

    def sample(self, data, size, rng):
        keep = rng.random(size) < math.exp(self.t) / (math.exp(self.t) + self.k - 1)
        other = (int(data) + 1 + rng.integers(0, self.k - 1, size)) % self.k
        value = np.where(keep, int(data), other)
        if self.structured:  # tuples with None and strings: the structured encoding
            out = np.empty(size, dtype=object)
            out[:] = [(None, "yes") if v == 0 else (int(v), "no") for v in value]
            return out
        return np.eye(self.k, dtype=np.int8)[value]


@pytest.mark.parametrize("structured", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_learned_events_catch_a_vector_or_structured_violation(seed, structured):
    """True eps 2 against a claim of 1: over seeds 0-99 every run stopped (median 146 draws, the largest 253, both
    encodings), so 20,000 draws leave a margin of about 80 times the largest seen."""
    r = dpverify.audit(OneHotRR(2.0, structured=structured), (0, 1), samples=20_000, rng=seed, sequential=True)
    assert r.verdict.value == "violated" and r.stopped_early and r.samples < 20_000
    assert "events learned from the draws so far" in r.notes[0] and r.epsilon_lower == 1.0
    assert "output is exactly one of" in r.event


def test_learned_events_keep_their_level_on_a_tight_mechanism():
    """OneHotRR at its exact eps = 1, 60 seeds, confidence 0.9: each run is violated with probability at most 0.1
    (Ville), so more than 14 of 60 would happen with probability below 0.003 (binomial tail) if the test is valid."""
    hits = sum(dpverify.audit(OneHotRR(1.0), (0, 1), samples=2_000, rng=s, sequential=True, confidence=0.9)
               .verdict.value == "violated" for s in range(60))
    assert hits <= 14


def test_learned_events_same_seed_same_result():
    a, b = (dpverify.audit(OneHotRR(1.3), (0, 2), samples=3_000, rng=11, sequential=True).to_dict() for _ in range(2))
    a.pop("seconds"), b.pop("seconds")
    assert a == b


def test_vector_laplace_goes_to_the_learned_half_lines():
    """Continuous vectors: no outcome recurs, so the bets are on feature half-lines. A 3-coordinate Laplace with
    a third of the scale each (true eps 9 against 1: the pair 0 -> 1 moves every coordinate by 3 scales) is caught;
    over seeds 0-49 every run stopped (the largest at 143 draws) of the 20,000 allowed."""
    r = dpverify.audit(Laplace(1 / 3, width=3), (0.0, 1.0), samples=20_000, rng=0, sequential=True)
    assert r.verdict.value == "violated" and ("output[" in r.event or "coordinates" in r.event)


@pytest.mark.slow  # ~40 s: 20 audits of up to 100,000 draws per dataset
def test_the_redrawn_threshold_svt_is_caught_within_one_hundred_thousand_draws():
    """Issue 30's SVT (threshold noise redrawn per query; loss 1.663 on this pair against a claim of 1, on the
    outcome "no TOP"). Seeds 200-219, unused while the stake rule was chosen (on seeds 0-19; checked on 100-139:
    37/40 stopped violated within 100,000, median 46,130). At a per-seed power of 0.9, 13 or fewer of 20 happens
    with probability 0.0024 (the false failure of this test); the correct Alg. 1 on the same pair stays silent
    with probability at least 0.95 per run (Ville), 2 or more of 5 with probability below 0.023."""
    from dpverify_mechanisms.faulty import SVTLyu, SVTRedrawnThreshold

    pair = [(np.ones(10), np.zeros(10))]
    hits = sum(dpverify.audit(SVTRedrawnThreshold(1.0), pair, samples=100_000, rng=s, sequential=True).verdict.value
               == "violated" for s in range(200, 220))
    assert hits >= 14
    control = sum(dpverify.audit(SVTLyu(1.0), pair, samples=100_000, rng=s, sequential=True).verdict.value
                  == "violated" for s in range(200, 205))
    assert control <= 1


class BranchRR:
    """Randomized response on which branch is taken (true eps 2 against a claim of 1), each output carrying a
    continuous number, so no exact outcome ever recurs: only branches (numbers masked) or features can see it."""

    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        keep = rng.random(size) < math.exp(2) / (1 + math.exp(2))
        bit = np.where(keep, int(data), 1 - int(data))
        x = rng.normal(size=size)
        out = np.empty(size, dtype=object)
        out[:] = [("top", float(v)) if b else (None, float(v)) for b, v in zip(bit, x)]
        return out


@pytest.mark.parametrize("seed", range(3))
def test_learned_events_see_branches_when_no_outcome_recurs(seed):
    """Over seeds 0-99 every run stopped (median 136 draws, the largest 226) of the 20,000 allowed."""
    r = dpverify.audit(BranchRR(), (0, 1), samples=20_000, rng=seed, sequential=True)
    assert r.verdict.value == "violated" and r.samples < 20_000
    assert "branch" in r.event or "number" in r.event


# -- curve claims: the eps' of each bet chosen with its event ------------------------------------------------------

class Gauss:
    def __init__(self, sd, claim):
        self.sd, self.claim = sd, claim

    def sample(self, data, size, rng):
        return float(data) + rng.normal(0.0, self.sd, size)


@pytest.mark.parametrize("seed", range(5))
def test_a_zcdp_claim_four_times_too_small_is_caught_sequentially(seed):
    """rho 2 against a claim of 0.5 (sigma 0.5 where 1 is right): over seeds 0-39 every run stopped, median 206
    draws, the largest 360; 5,000 leave a wide margin."""
    r = dpverify.audit(Gauss(0.5, PrivacyClaim.zcdp(0.5)), (1.0, 0.0), samples=5_000, rng=seed, sequential=True)
    assert r.verdict.value == "violated" and r.samples < 5_000
    assert "the claimed curve is bet on" in r.notes[0] and r.epsilon_lower == 0.0 and r.delta_lower == 0.0


def test_a_tight_curve_claim_keeps_its_level():
    """The Gaussian at exactly its GDP claim, confidence 0.9, 60 seeds: at most 0.1 per run (Ville), so more than
    14 violations would happen with probability below 0.003 if the test is valid."""
    hits = sum(dpverify.audit(Gauss(1.0, PrivacyClaim.gdp(1.0)), (1.0, 0.0), samples=2_000, rng=s, sequential=True,
                              confidence=0.9).verdict.value == "violated" for s in range(60))
    assert hits <= 14


@pytest.mark.parametrize("seed", range(3))
def test_continuous_outputs_are_never_bet_on_as_exact_outcomes(seed):
    """Outcomes seen once never join an event (continuous outputs never recur): the event bet on is a half-line.
    Over seeds 0-49 every run stopped (median 170 draws, the largest 337) of the 20,000 allowed; before outcomes
    seen once were excluded, a wealth bet on them fell to about 1e-21 and such runs never stopped."""
    r = dpverify.audit(Gauss(0.6, PrivacyClaim.gdp(1.0)), (1.0, 0.0), samples=20_000, rng=seed, sequential=True)
    assert r.verdict.value == "violated" and r.event.startswith("output ")


class RaggedRR:
    """Randomized response at true eps 2 (claim 1), returned as a Python list of tuples of varying length (as
    library adapters return maps): the bit, and one more entry when it is 1."""

    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        keep = rng.random(size) < math.exp(2) / (1 + math.exp(2))
        bit = np.where(keep, int(data), 1 - int(data))
        return [(int(b), "extra") if b else (int(b),) for b in bit]


@pytest.mark.parametrize("seed", range(3))
def test_learned_events_read_a_list_of_ragged_outputs(seed):
    """A list of variable-length tuples is read as the black-box audit reads it (an object array), not refused by
    numpy; the violation is found as in the other encodings (they stop within about 250 draws)."""
    r = dpverify.audit(RaggedRR(), (0, 1), samples=20_000, rng=seed, sequential=True)
    assert r.verdict.value == "violated" and r.samples < 20_000
