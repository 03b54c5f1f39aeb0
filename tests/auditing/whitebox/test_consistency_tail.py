"""Issue 27 item 2: a density that lies only where the sampler is rarely seen gets no `violated`.

``FarTailLiar``: a correct Laplace(1) sampler (so the mechanism *is* (1, 0)-DP) whose density under
D' = 1 decays at half the rate beyond 12 scale units. A draw of D' beyond ~14 (probability ~1e-6)
has a loss above 1 by the density's word, and one such draw used to make the white-box audit say
`violated`. Before a violation verdict the audit now checks the violating event {L > eps} on fresh
draws (dpverify.auditing.whitebox.consistency.confirm_violations): it needs >= MIN_EVENT_DRAWS (5) fresh
draws in the event and the likelihood-ratio identity on it.

Rates: at 2e5 fresh draws the event {L' > 1} has ~0.22 expected draws of D' (probability 1.1e-6
per draw), so >= 5 of them has probability ~4e-6 (Poisson); a seed of the liar says `violated`
only if that happens. The half-scale Laplace's violating event has probability ~1/2 per draw, and
its identity holds exactly, so its confirmation fails with probability far below 1e-9 (Chernoff)
plus the identity's false-alarm rate (CONSISTENCY_ALPHA / 8 per direction).
"""
from __future__ import annotations


import numpy as np
import pytest

import dpverify
from dpverify import PrivacyClaim, Verdict
from dpverify.auditing.whitebox.consistency import MIN_EVENT_DRAWS, confirm_violations, violation_threshold
from dpverify_mechanisms.faulty.lying_density import FarTailLiar
from dpverify_mechanisms.lecture21_dp import ScalarLaplace




class HalfScaleLaplace(ScalarLaplace):
    """Claims eps = 1, adds Laplace noise of scale 1/2 (true eps = 2): a real violation."""

    def __init__(self):
        super().__init__(1.0)
        self.scale = 0.5


def _root(seed):
    return np.random.SeedSequence(seed)


def test_far_tail_liar_is_never_violated_and_says_why():
    verdicts = []
    for seed in range(6):
        r = dpverify.audit(FarTailLiar(), (0.0, 1.0), samples=200_000, rng=seed)
        verdicts.append(r.verdict)
        assert r.verdict is not Verdict.VIOLATED, (seed, r.epsilon_lower, r.consistency.get("violating_event"))
        ve = r.consistency.get("violating_event")
        if r.verdict is Verdict.INCONCLUSIVE:  # the white-box bounds exceeded the claim: checked, refused
            assert ve is not None and not ve["confirmed"]
            assert any("violating event" in n and "too rarely seen" in n for n in r.notes)
            assert r.passed  # inconclusive: no violation established (the CI rule passes it)
        else:
            assert r.verdict in (Verdict.NOT_VIOLATED, Verdict.INCONSISTENT)


def test_confirmation_refuses_a_violation_resting_on_the_far_tail():
    """Direct: direction D' -> D of the liar (where its density lies). ~0.22 expected fresh draws in
    the event at 2e5 draws: P(>= 5) ~ 4e-6."""
    claim = PrivacyClaim(1.0)
    out = confirm_violations(FarTailLiar(), [(0.0, 1.0)], [(0, 1)], claim, _root(3), 200_000, None, None, [])
    assert not out["confirmed"] and not out["failures"]
    assert out["checks"][0]["event_draws"] < MIN_EVENT_DRAWS
    assert "fewer than" in out["note"]


def test_confirmation_keeps_a_real_violation():
    r = dpverify.audit(HalfScaleLaplace(), (0.0, 1.0), samples=20_000, rng=4)
    assert r.verdict is Verdict.VIOLATED
    ve = r.consistency["violating_event"]
    assert ve["confirmed"] and not ve["failures"]
    assert all(c["event_draws"] >= MIN_EVENT_DRAWS for c in ve["checks"])


def test_a_density_lying_on_the_violating_event_is_inconsistent():
    """Liar with the knee at 2 units: the identity on {L > 1} fails by a factor ~2 with thousands of
    draws on each side (the pilot-threshold check catches it too; either way: inconsistent)."""
    claim = PrivacyClaim(1.0)
    out = confirm_violations(FarTailLiar(2.0), [(0.0, 1.0)], [(0, 1)], claim, _root(5), 200_000, None, None, [])
    assert out["failures"] and not out["confirmed"]
    f = out["failures"][0]
    assert f["density_side_interval"][1] < f["sampler_side_interval"][0]
    r = dpverify.audit(FarTailLiar(2.0), (0.0, 1.0), samples=50_000, rng=0)
    assert r.verdict is Verdict.INCONSISTENT


def test_violation_threshold_is_off_the_atoms_and_at_least_epsilon():
    pilot = [np.r_[np.ones(100), -np.ones(100)]]  # Laplace: L = +-eps exactly on much of the mass
    t = violation_threshold(1.0, pilot)
    assert t > 1.0 and abs(t - 1.0) > 1e-9
    assert violation_threshold(0.0, []) > 0


def test_consistency_off_keeps_the_old_behaviour():
    r = dpverify.audit(HalfScaleLaplace(), (0.0, 1.0), samples=5_000, rng=0, consistency=False)
    assert r.verdict is Verdict.VIOLATED and r.consistency is None


@pytest.mark.slow
def test_far_tail_liar_20_seeds_acceptance():
    """Acceptance (issue 27): 0 `violated` over 20 seeds at the default 2e5 samples. Each seed says
    `violated` with probability ~1e-6 (module docstring), so a false failure is negligible."""
    verdicts = [dpverify.audit(FarTailLiar(), (0.0, 1.0), rng=s).verdict for s in range(20)]
    assert Verdict.VIOLATED not in verdicts
