"""The mutation campaign's time limits (dpverify.symbolic.mutation, by dpverify.symbolic.timeouts): a mutant whose
check does not finish is never counted as killed, a numeric check that does not finish leaves the mutant undecided (listed, not counted false or
true), and nested limits (one per point inside one per mutant) never swallow the outer one. Deterministic: the
adversaries are checkers that hang; each limit is well under a second."""
from __future__ import annotations

import dataclasses
import time

import pytest
import sympy as sp

from dpverify.symbolic import Lemma, ProofVerdict, Strategy
from dpverify.symbolic import mutation, timeouts
from dpverify.symbolic.mutation import campaign, evaluate, falsify
from dpverify.symbolic.verdicts import CheckResult

x = sp.Symbol("x", positive=True)
c = sp.Symbol("c_t", positive=True)


@dataclasses.dataclass(frozen=True)
class HangingLemma(Lemma):
    """x <= c_t x: PROVED at the original c_t = 1 at once; every mutant's check hangs (a checker that never answers)."""

    def check(self):
        if self.constants.get("c_t") == 1 and self.conclusion == BASE.conclusion:
            return CheckResult(ProofVerdict.PROVED, "original")
        while True:
            time.sleep(0.01)


@dataclasses.dataclass(frozen=True)
class LyingLemma(Lemma):
    """Says PROVED for every mutant (a lying checker)."""

    def check(self):
        return CheckResult(ProofVerdict.PROVED, "says proved")


BASE = Lemma(id="t/hang", source="test", statement="x <= c_t x", symbols=(x,), conclusion=sp.Le(x, c * x, evaluate=False),
             strategy=Strategy.NONNEG_TERMS, constants={"c_t": 1})


def test_a_check_that_times_out_is_never_killed():
    st = HangingLemma(**{f.name: getattr(BASE, f.name) for f in dataclasses.fields(Lemma)})
    rep = mutation.run_campaign({"t/hang": st}, n=20, time_limit=0.3)
    assert rep.outcomes and all(o.check_timed_out for o in rep.outcomes)
    assert not any(o.killed for o in rep.outcomes)
    false = rep.false_mutants  # c_t x 9/10, c_t = 0 and the flipped inequality are false
    assert len(false) >= 2 and rep.survivors == false and rep.kill_rate == 0.0
    assert "check timed out" in rep.table() and "SURVIVOR" in rep.table()


def test_a_numeric_check_that_times_out_leaves_the_mutant_undecided(monkeypatch):
    st = LyingLemma(**{f.name: getattr(BASE, f.name) for f in dataclasses.fields(Lemma)})

    def hang(*a, **k):
        while True:
            time.sleep(0.01)
    monkeypatch.setattr(campaign, "numerically_false", hang)  # the campaign's numeric check
    rep = mutation.run_campaign({"t/lie": st}, n=20, time_limit=0.2)
    assert rep.outcomes and all(o.false_timed_out and not o.false and o.undecided for o in rep.outcomes)
    assert len(rep.undecided) == len(rep.outcomes) and "undecided" in rep.summary()


def test_nested_limits():
    # the outer limit expires inside an inner, longer one: the outer's exception, not the inner's
    with pytest.raises(mutation.MutantTimeout) as info:
        with timeouts.time_limit(0.2, mutation.MutantTimeout):
            try:
                with timeouts.time_limit(5, mutation.PointTimeout):
                    while True:
                        time.sleep(0.01)
            except mutation.PointTimeout:
                pytest.fail("the inner limit swallowed the outer one")
    assert type(info.value) is mutation.MutantTimeout
    # an inner, shorter limit fires and the outer one is re-armed afterwards
    t0 = time.monotonic()
    with pytest.raises(mutation.MutantTimeout):
        with timeouts.time_limit(0.6, mutation.MutantTimeout):
            with pytest.raises(mutation.PointTimeout):
                with timeouts.time_limit(0.1, mutation.PointTimeout):
                    while True:
                        time.sleep(0.01)
            assert time.monotonic() - t0 < 0.5
            while True:
                time.sleep(0.01)
    assert 0.5 < time.monotonic() - t0 < 3
    assert not timeouts.active_limits()


def test_a_slow_point_is_skipped_not_fatal(monkeypatch):
    """One point that hangs (POINT_LIMIT) is skipped; the numeric check still finds a failing point elsewhere."""
    monkeypatch.setattr(evaluate, "POINT_LIMIT", 0.1)
    real = falsify.fails_at
    calls = {"n": 0}

    def first_hangs(*a):
        calls["n"] += 1
        if calls["n"] == 1:
            while True:
                time.sleep(0.01)
        return real(*a)
    monkeypatch.setattr(falsify, "fails_at", first_hangs)  # the screen's confirmation
    bad = dataclasses.replace(BASE, constants={"c_t": sp.Rational(9, 10)})
    assert mutation.numerically_false(bad, n=20) is not None and calls["n"] >= 2
