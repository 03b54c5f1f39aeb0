"""The anytime-valid black-box test (dpverify.auditing.anytime, ``audit(..., sequential=True)``).

Its type I error is exact (Ville's inequality), so: a tight Laplace at confidence 0.999 is violated with
probability at most 0.001 (false failure of that test); a halved Laplace (true eps 2 against 1) stops with
violated well within 2,000 draws on every seed tried (0-4; the benchmark's median is 164). Detection figures and
false alarms over 400 seeds are in benchmarks/bench_anytime.py."""
from __future__ import annotations

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
    with pytest.raises(InvalidArgument, match="scalar outputs"):
        dpverify.audit(Laplace(1.0, width=3), (0.0, 1.0), samples=2000, rng=0, sequential=True)
    with pytest.raises(InvalidArgument, match="one pair"):
        dpverify.audit(Laplace(1.0), [(0.0, 1.0), (1.0, 0.0)], samples=2000, rng=0, sequential=True)
    with pytest.raises(InvalidArgument, match="is a curve"):
        dpverify.audit(Laplace(1.0, claim=PrivacyClaim.zcdp(0.5)), (0.0, 1.0), samples=2000, rng=0, sequential=True)
