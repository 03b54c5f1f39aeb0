"""dpverify.testing.assert_private outside pytest's plugin.

False-failure rate: the correct mechanisms here (ScalarLaplace, VectorLaplace) have privacy loss
<= eps everywhere, so delta_lower(eps) = 0 and epsilon_lower <= eps on every draw: they cannot fail.
The halved Laplace (true eps = 2) has delta(1) = 1 - e^-0.5 ~ 0.39; at >= 5 000 samples per
direction its lower bound exceeds 0 except with probability far below 1e-12.
"""
from __future__ import annotations

import re
import subprocess
import sys

import numpy as np
import pytest
from hypothesis import strategies as st

from dpverify import AuditResult, InvalidArgument, Verdict
from dpverify import strategies as dps
from dpverify.testing import assert_private
from dpverify.testing.assertion import draw_pairs
from dp_testing_doubles import HalvedLaplace, HalvedVectorLaplace
from dpverify_mechanisms.lecture21_dp import ScalarLaplace, VectorLaplace


def test_correct_mechanism_passes_and_returns_the_result():
    result = assert_private(ScalarLaplace(1.0), (0.0, 1.0), samples=5_000, rng=1)
    assert isinstance(result, AuditResult) and result.verdict is Verdict.NOT_VIOLATED


def test_halved_noise_fails_with_a_report_and_a_python_line():
    with pytest.raises(AssertionError) as info:
        assert_private(HalvedLaplace(1.0), [(0.0, 1.0), (0.0, -1.0)], samples=5_000, rng=42)
    text = str(info.value)
    assert "privacy claim violated by HalvedLaplace" in text
    assert re.search(r"epsilon_lower=1\.[89]\d* > claimed epsilon=1", text), text
    assert "pair        #" in text and "of 2 (as given)" in text
    assert "seed        42" in text
    assert "reproduce   dpverify.testing.assert_private(HalvedLaplace(epsilon=1.0, sensitivity=1.0), " in text
    assert "samples=5000, confidence=0.999, rng=42)" in text
    with pytest.raises(AssertionError) as again:
        assert_private(HalvedLaplace(1.0), [(0.0, 1.0), (0.0, -1.0)], samples=5_000, rng=42)
    assert str(again.value) == text  # same seed, same report


def test_strategy_pairs_are_drawn_deterministically_and_audited_together():
    strategy = dps.query_vectors(3)
    first, second = draw_pairs(strategy, 5, seed=9), draw_pairs(strategy, 5, seed=9)
    assert len(first) == 5
    assert all(np.array_equal(a, b) for p, q in zip(first, second) for a, b in zip(p, q))
    other = draw_pairs(strategy, 5, seed=10)
    assert not all(np.array_equal(a, b) for p, q in zip(first, other) for a, b in zip(p, q))
    result = assert_private(VectorLaplace(1.0, 3), strategy, samples=3_000, rng=9, max_pairs=5)
    assert len({d.pair_index for d in result.directions}) == 5  # all five pairs, one audit
    with pytest.raises(AssertionError, match=r"pair        #\d of 3 \(3 pairs drawn from query_vectors"):
        assert_private(HalvedVectorLaplace(1.0, 3), strategy, samples=3_000, rng=9, max_pairs=3)


def test_generator_and_fresh_seeds_are_reported():
    with pytest.raises(AssertionError) as info:
        assert_private(HalvedLaplace(1.0), (0.0, 1.0), samples=3_000, rng=np.random.default_rng(5))
    seed = int(re.search(r"seed        (\d+)", str(info.value)).group(1))
    with pytest.raises(AssertionError) as again:  # the printed seed reproduces the failure
        assert_private(HalvedLaplace(1.0), (0.0, 1.0), samples=3_000, rng=seed)
    assert str(again.value) == str(info.value)
    with pytest.raises(AssertionError, match=r"seed        \d+"):
        assert_private(HalvedLaplace(1.0), (0.0, 1.0), samples=3_000)


BAD = [
    ("rng-string", dict(rng="seven")),
    ("rng-negative", dict(rng=-1)),
    ("rng-bool", dict(rng=True)),
    ("samples-zero", dict(samples=0)),
    ("confidence-one", dict(confidence=1.0)),
    ("confidence-nan", dict(confidence=float("nan"))),
]


@pytest.mark.parametrize("kwargs", [k for _, k in BAD], ids=[n for n, _ in BAD])
def test_bad_arguments(kwargs):
    with pytest.raises(InvalidArgument):
        assert_private(ScalarLaplace(1.0), (0.0, 1.0), **kwargs)


def test_strategy_of_non_pairs_and_bad_max_pairs():
    with pytest.raises(InvalidArgument, match="not a pair"):
        assert_private(ScalarLaplace(1.0), st.integers(), samples=100, rng=1)
    with pytest.raises(InvalidArgument, match="max_pairs"):
        assert_private(ScalarLaplace(1.0), dps.vectors(1), samples=100, rng=1, max_pairs=0)


def test_plugin_imports_nothing_heavy_of_its_own():
    """The plugin module and the package it loads import no hypothesis and no audit code at start-up
    (numpy/scipy come only from ``import dpverify`` itself: see docs/testing.md)."""
    code = ("import sys; import dpverify.testing.plugin\n"
            "print(sorted(m for m in ('hypothesis', 'dpverify.auditing.whitebox', 'dpverify.testing.assertion', "
            "'dpverify.strategies') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stdout.strip() == "[]", out.stdout + out.stderr


class _BlackBoxHalvedLaplace:
    """No log_density (so the audit is black-box); Laplace noise at half the claimed scale."""

    def __init__(self):
        from dpverify import PrivacyClaim

        self.claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        return float(data) + rng.laplace(0.0, 0.5, size)

    def __repr__(self):
        return "_BlackBoxHalvedLaplace()"


def test_black_box_failure_names_the_event():
    """True eps = 2 vs claim 1: at 20 000 samples the event's certified ratio is far above e^1
    (measured epsilon_lower ~1.77), so passing has negligible probability (fixed seed anyway)."""
    with pytest.raises(AssertionError) as info:
        assert_private(_BlackBoxHalvedLaplace(), (0.0, 1.0), samples=20_000, rng=3)
    text = str(info.value)
    assert "evidence    black-box" in text and "event       event=" in text
    assert "reproduce   dpverify.testing.assert_private(_BlackBoxHalvedLaplace(), (0.0, 1.0), samples=20000" in text
