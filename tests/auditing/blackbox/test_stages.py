"""The black-box stages' frozen values: the alpha budget split once, the sample plan, raised-draw
bookkeeping, where a draw came from, and the certification look plan (no audit draws here)."""
from __future__ import annotations

import dataclasses
import math
from types import SimpleNamespace

import pytest

from dpverify.auditing.blackbox import budget
from dpverify.auditing.blackbox.budget import AlphaBudget, SamplePlan
from dpverify.auditing.blackbox.certify import FIRST_LOOK, look_plan
from dpverify.auditing.blackbox.values import Layout, RaisedDraws, Where


def plan_samples(samples: int, cap: int | None = None, streams: int = 2):
    """The fields of the executor's up-front sample plan that SamplePlan reads (samples after the cap)."""
    n = samples if cap is None else min(samples, cap)
    return SimpleNamespace(samples=n, capped=n < samples, note=f"samples={samples} capped at {n}" if n < samples else None)


@pytest.mark.parametrize("stop_early, pilot", [(False, False), (True, False), (True, True)])
def test_the_alpha_budget_spends_alpha_once(stop_early, pilot):
    b = AlphaBudget.split(0.95, stop_early, pilot, 12)
    assert math.isclose(b.pilot + b.sequential + b.final, 0.05, rel_tol=1e-12)
    assert (b.pilot > 0) == pilot and (b.sequential > 0) == stop_early
    plan = SamplePlan.make(plan_samples(200_000, None, streams=2), 0.4, stop_early)
    rounds = b.rounds(plan)
    assert [r.label for r in rounds] == (["pilot", "main"] if plan.pilot else ["main"])
    spent = sum(r.alpha.sequential + r.alpha.final for r in rounds)
    assert math.isclose(spent, 0.05, rel_tol=1e-12)  # the rounds spend exactly the budget, no more
    main = rounds[-1].alpha
    # the paired shares and the separate bounds of a pair with all K slots add up to its final part
    joint, margin = main.paired_bound(6, 2)
    assert math.isclose(2 * (joint + margin) + main.separate(True), main.final, rel_tol=1e-12)
    assert main.final_level(False) == main.final / 24
    with pytest.raises(dataclasses.FrozenInstanceError):
        b.final = 1.0  # type: ignore[misc]


def test_the_sample_plan_splits_selection_and_certification():
    plan = SamplePlan.make(plan_samples(100_000, None, streams=2), budget.SELECTION_FRACTION, False)
    assert (plan.selection, plan.certification, plan.pilot, plan.note) == (40_000, 60_000, False, None)
    big = SamplePlan.make(plan_samples(10**6, None, streams=2), 0.4, True)
    assert big.pilot and big.selection == budget.SELECTION_CAP
    assert big.selection + big.certification + budget.PILOT_SELECTION + sum(budget.PILOT_LOOKS) == 10**6
    capped = SamplePlan.make(plan_samples(1000, 500, streams=2), 0.4, False)
    assert capped.samples == 500 and "capped" in capped.note


def test_raised_draws_keep_their_order_and_add_up():
    r = RaisedDraws(((("ValueError", 2),), ()))
    r = r.with_types([{"KeyError": 1, "ValueError": 1}, {"TypeError": 3}]).with_certification(4, 0)
    assert r.as_dicts() == [{"ValueError": 3, "KeyError": 1}, {"TypeError": 3}]
    assert list(r.as_dicts()[0]) == ["ValueError", "KeyError"]  # first seen first (ties in messages)
    assert r.counts() == (8, 3)


def test_where_reads_as_its_text_and_carries_the_error_fields():
    w = Where(2, "D'", "pair 2 (...), outputs drawn from D'")
    assert f"{w}" == w.text and str(w.probe()) == w.text + " (probe draws)"
    assert w.fields() == {"pair": 2, "direction": "D'"}
    assert Layout(False, 1, ("output",), 512, 4).per == 512


@pytest.mark.parametrize("n, per", [(10_000, 4096), (3, 4096), (70_000, 65_536)])
def test_look_plans_cover_the_certification_draws(n, per):
    fixed = look_plan(n, per, False)
    assert sum(map(sum, fixed)) == n and max(b for look in fixed for b in look) <= per
    seq = look_plan(n, per, True)
    assert sum(map(sum, seq)) == n and seq[0] == [min(FIRST_LOOK, per, n)]
    assert look_plan(n, per, True, (1_000, 2_000)) == [[min(1_000, n)]] + ([[min(2_000, n - 1_000)]] if n > 1_000 else [])
