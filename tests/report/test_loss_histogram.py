"""The privacy-loss histogram of ``--plot``/``--report`` comes from plain draws (issue 13, item 6).

docs/img/audit_gaussian_eps10.png used to show the importance-sampled losses (a spike at L ~ 1.9)
where the loss of the Gaussian mechanism is N(mu, 2 mu), mu = Delta^2 / (2 sigma^2). The histogram
drawn now must have the mean of the loss: checked against the exact mu (tolerance 5 standard errors
plus half a bin: false-failure rate below 1e-6) and against the plain sample's own mean; the
importance-weighted histogram the audit kept fails the same check (so the check can fail).
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import dpverify
from dpverify_mechanisms.lecture21_dp import ClassicalGaussian, ScalarLaplace
from dpverify.report.plots import plain_loss_histogram, plot_audit

pytest.importorskip("matplotlib")

N = 20_000


def _hist_mean(values, edges) -> float:
    values, edges = np.asarray(values, float), np.asarray(edges, float)
    centers = (edges[:-1] + edges[1:]) / 2
    return float(np.sum(values * centers) / np.sum(values))


@pytest.fixture(scope="module")
def gaussian_audit():
    mech = ClassicalGaussian(10, 1e-5)
    result = dpverify.audit(mech, (0.0, 1.0), samples=3000, rng=1, profile=True)
    return mech, result


def test_histogram_has_the_mean_of_the_loss(gaussian_audit):
    import matplotlib.pyplot as plt
    from matplotlib.patches import StepPatch

    mech, result = gaussian_audit
    assert "importance" in result.method  # the case the old picture got wrong
    mu = 1.0 / (2 * mech.sigma ** 2)
    fig = plot_audit(result, mechanism=mech, seed=3, picture_samples=N)
    try:
        steps = [p for p in fig.axes[0].patches if isinstance(p, StepPatch)]
        assert len(steps) == 1
        values, edges = steps[0].get_data()[:2]
        mean = _hist_mean(values, edges)
        half_bin = float(np.max(np.diff(edges))) / 2
        assert abs(mean - mu) <= 5 * math.sqrt(2 * mu / N) + half_bin, (mean, mu)
        plain = plain_loss_histogram(mech, 0.0, 1.0, samples=N, seed=3)
        assert abs(mean - plain["mean"]) <= half_bin  # the same draws as the plain sample
        assert "plain draws" in fig.axes[0].get_title() and "importance-sampled" in fig.axes[0].get_title()
    finally:
        plt.close(fig)
    # the adversary: the audit's own (importance-weighted, positive-loss) histogram is off
    p = next(d for d in result.directions if d.pair_index == result.pair_index
             and d.direction == result.direction).extra["profile"]
    wrong = _hist_mean(p["histogram_counts"], p["histogram_edges"])
    assert abs(wrong - mu) > 5 * math.sqrt(2 * mu / N) + float(np.max(np.diff(p["histogram_edges"]))) / 2


def test_without_the_mechanism_an_importance_histogram_is_not_drawn(gaussian_audit):
    import matplotlib.pyplot as plt
    from matplotlib.patches import StepPatch

    _, result = gaussian_audit
    fig = plot_audit(result)
    try:
        assert not [p for p in fig.axes[0].patches if isinstance(p, StepPatch)]
        assert "not drawn" in fig.axes[0].get_title()
    finally:
        plt.close(fig)


def test_picture_draws_are_reproducible_and_count_every_draw():
    mech = ScalarLaplace(1.0)
    a = plain_loss_histogram(mech, 0.0, 1.0, samples=2000, seed=5)
    b = plain_loss_histogram(mech, 0.0, 1.0, samples=2000, seed=5)
    assert a == b
    assert sum(a["counts"]) + a["plus_infinite"] + a["minus_infinite"] == a["samples"] == 2000
    # Laplace loss lies in [-eps, eps] = [-1, 1]
    assert a["edges"][0] >= -1 - 1e-9 and a["edges"][-1] <= 1 + 1e-9


def test_delta_axis_of_a_pure_claim_is_near_the_data():
    import matplotlib.pyplot as plt

    mech = ScalarLaplace(1.0)
    result = dpverify.audit(mech, (0.0, 1.0), samples=2000, rng=2, profile=True)
    assert result.claim.delta == 0
    fig = plot_audit(result, mechanism=mech, picture_samples=2000)
    try:
        bottom = fig.axes[1].get_ylim()[0]
        assert bottom >= 1e-12, bottom  # not 1e-314
    finally:
        plt.close(fig)
