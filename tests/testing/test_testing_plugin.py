"""The dpverify pytest plugin, tested with pytester (in-process pytest runs on generated suites).

False-failure rate: the inner suites audit a correct ScalarLaplace (its loss never exceeds eps,
so delta_lower(eps) = 0 and epsilon_lower <= eps whatever the draws: it cannot fail) and a
Laplace with halved noise (true eps = 2; at 20 000 samples per direction, delta(1) = 1 - e^-0.5
~ 0.39 is bounded below by ~0.37 at the confidences used here, so the chance it passes is far
below 1e-12). The tests are deterministic given the seeds anyway.
"""
from __future__ import annotations

import re

import hypothesis  # noqa: F401  (imported before any in-process inner run: see below)
import numpy.fft  # noqa: F401  (its C module cannot be loaded twice: an inner run must not import it first)
import pytest

import dpverify.strategies  # noqa: F401

# pytester's in-process runs drop the modules an inner run imported; a module imported first by an
# inner run would come back half-stale in the next one (a fresh hypothesis beside an old
# dpverify.strategies). Importing both here keeps one copy for every run.

pytest_plugins = ["pytester"]

SUITE = '''
import pytest
from dpverify_mechanisms.lecture21_dp import ScalarLaplace


class HalvedLaplace(ScalarLaplace):
    """Regression under test: the noise scale is half of M/eps; the claim is unchanged."""

    def __init__(self, epsilon, sensitivity=1.0):
        super().__init__(epsilon, sensitivity)
        self.scale = self.sensitivity / self.epsilon / 2


def test_laplace_is_private(dp_auditor):
    dp_auditor.assert_private(ScalarLaplace(epsilon=1.0), (0.0, 1.0))


def test_halved_laplace_is_private(dp_auditor):
    dp_auditor.assert_private(HalvedLaplace(epsilon=1.0), (0.0, 1.0))
'''


#: Other plugins' start-up is not under test; hypothesis's pytest plugin alone costs ~2 s per inner
#: run (blocking an absent plugin is harmless). The strategies need hypothesis, not its plugin.
QUIET = ("-p", "no:hypothesispytest", "-p", "no:benchmark")


def _run(pytester, *args):
    return pytester.runpytest(*QUIET, *args)


def _report(result) -> list[str]:
    """The lines of the privacy report (without timings), for comparing two runs."""
    out = result.stdout.lines
    start = next(i for i, line in enumerate(out) if "privacy claim violated" in line)
    return [line for line in out[start:start + 14] if "seconds" not in line and " in " not in line[-8:]]


def test_correct_passes_halved_fails_with_report(pytester):
    pytester.makepyfile(test_suite=SUITE)
    result = _run(pytester, "--dpverify-profile", "dev", "--dpverify-seed", "7")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "dpverify: profile=dev (20000 samples per direction, 4 pairs per strategy), seed=7, "
        "false-alarm budget 0.001 per run",
        "*privacy claim violated by HalvedLaplace*",
        "*claim       epsilon=1, delta=0 (replace-one)",
        "*found       epsilon_lower=* > claimed epsilon=1*",
        "*found       delta_lower=* > claimed delta=0 at epsilon=1*",
        "*D  = 0.0",
        "*D' = 1.0",
        "*confidence 0.9995*",
        "*reproduce   pytest test_suite.py::test_halved_laplace_is_private --dpverify-seed 7 "
        "--dpverify-profile dev --dpverify-alpha 0.001 --dpverify-budget-split 2",
        "*2 privacy tests*",
        "*1 privacy checks failed; reproduce*",
    ])
    eps_low = float(re.search(r"epsilon_lower=([0-9.]+)", result.stdout.str()).group(1))
    assert 1.8 <= eps_low <= 2.0  # the true epsilon of the halved mechanism is 2


def test_same_seed_same_result_and_reproduce_line_reproduces(pytester):
    pytester.makepyfile(test_suite=SUITE)
    first = _run(pytester, "--dpverify-profile", "dev", "--dpverify-seed", "11")
    second = _run(pytester, "--dpverify-profile", "dev", "--dpverify-seed", "11")
    first.assert_outcomes(passed=1, failed=1)
    second.assert_outcomes(passed=1, failed=1)
    assert _report(first) == _report(second)
    line = re.search(r"reproduce   pytest (.*)$", first.stdout.str(), re.M).group(1)
    args = line.split()
    alone = _run(pytester, *args)
    alone.assert_outcomes(failed=1)
    assert _report(alone) == _report(first)
    other = _run(pytester, "--dpverify-profile", "dev", "--dpverify-seed", "12")
    other.assert_outcomes(passed=1, failed=1)
    assert _report(other) != _report(first)  # the seed matters: different draws, different bounds


def test_header_random_seed_and_ini(pytester):
    pytester.makepyfile(test_suite="def test_nothing():\n    pass\n")
    result = _run(pytester, "--dpverify-seed", "random")
    result.stdout.fnmatch_lines(["dpverify: profile=ci (200000 samples per direction, *), seed=* (random), *"])
    pytester.makeini("[pytest]\ndpverify_profile = thorough\ndpverify_seed = 5\ndpverify_alpha = 0.01\n")
    result = _run(pytester)
    result.stdout.fnmatch_lines(["dpverify: profile=thorough (1000000 samples *), seed=5, false-alarm budget 0.01 per run"])
    result = _run(pytester, "--dpverify-profile", "dev")  # the command line wins over the ini file
    result.stdout.fnmatch_lines(["dpverify: profile=dev *, seed=5, *"])


@pytest.mark.parametrize("args, message", [
    (["--dpverify-seed", "-3"], "*--dpverify-seed='-3' must be an integer >= 0 or 'random'*"),
    (["--dpverify-seed", "abc"], "*--dpverify-seed='abc' must be an integer >= 0 or 'random'*"),
    (["--dpverify-alpha", "0"], "*--dpverify-alpha='0' must be a number in (0, 1)*"),
    (["--dpverify-alpha", "nan"], "*--dpverify-alpha='nan' must be a number in (0, 1)*"),
    (["--dpverify-alpha", "1.5"], "*--dpverify-alpha='1.5' must be a number in (0, 1)*"),
    (["--dpverify-budget-split", "0"], "*--dpverify-budget-split='0' must be an integer >= 1*"),
    (["-o", "dpverify_profile=fast"], "*dpverify_profile='fast' must be one of dev, ci, thorough*"),
], ids=["seed-negative", "seed-text", "alpha-zero", "alpha-nan", "alpha-above-one", "split-zero", "ini-profile"])
def test_bad_options_are_usage_errors(pytester, args, message):
    pytester.makepyfile(test_suite="def test_nothing():\n    pass\n")
    result = _run(pytester, *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])


def test_budget_is_split_over_privacy_tests_and_checks(pytester):
    pytester.makepyfile(test_suite='''
import pytest

def test_a(dp_auditor):
    assert dp_auditor.tests == 3
    assert dp_auditor.confidence() == 1 - 0.002 / 3

@pytest.mark.dp(checks=4)
def test_b(dp_auditor):
    assert dp_auditor.confidence() == 1 - 0.002 / 12

@pytest.mark.dp
def test_c():
    pass

def test_not_private():
    pass
''')
    result = _run(pytester, "--dpverify-alpha", "0.002", "-m", "dp", "-v")
    result.assert_outcomes(passed=3, deselected=1)
    result.stdout.fnmatch_lines(["*3 privacy tests*each check at confidence 1 - 0.002/(3 x checks)*"])


def test_more_checks_than_declared_is_an_error(pytester):
    pytester.makepyfile(test_suite='''
from dpverify_mechanisms.lecture21_dp import ScalarLaplace

def test_two_checks(dp_auditor):
    m = ScalarLaplace(1.0)
    dp_auditor.assert_private(m, (0.0, 1.0), samples=500)
    dp_auditor.assert_private(m, (0.0, 1.0), samples=500)
''')
    result = _run(pytester)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*makes privacy check number 2 but its dp marker allows 1*dp(checks=2)*"])


def test_strategy_report_names_the_failing_pair(pytester):
    pytester.makepyfile(test_suite='''
import pytest
from dpverify import strategies as dps
from dpverify_mechanisms.lecture21_dp import VectorLaplace

class HalvedVectorLaplace(VectorLaplace):
    def __init__(self, epsilon, dimension):
        super().__init__(epsilon, dimension)
        self.scale = self.sensitivity / self.epsilon / 2

def test_vector_laplace(dp_auditor):
    dp_auditor.assert_private(VectorLaplace(1.0, 3), dps.query_vectors(3))

def test_halved_vector_laplace(dp_auditor):
    dp_auditor.assert_private(HalvedVectorLaplace(1.0, 3), dps.query_vectors(3))
''')
    result = _run(pytester, "--dpverify-profile", "dev", "--dpverify-seed", "3")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines([
        "*pair        #* of 4 (4 pairs drawn from query_vectors(length=3, *) with seed *)",
        "*D  = [*",
        "*D' = [*",
    ])


def test_plugin_can_be_disabled(pytester):
    pytester.makepyfile(test_suite="def test_uses(dp_auditor):\n    pass\n")
    result = _run(pytester, "-p", "no:dpverify")
    result.stdout.fnmatch_lines(["*fixture 'dp_auditor' not found*"])


def test_fixture_composes_with_given(pytester):
    """The fixture is session-scoped, so hypothesis accepts it; one check per example, declared."""
    pytester.makepyfile(test_suite='''
import pytest
from hypothesis import given, settings
from dpverify import strategies as dps
from dpverify_mechanisms.lecture21_dp import VectorLaplace

@pytest.mark.dp(checks=3)
@settings(max_examples=3, database=None, deadline=None)
@given(pair=dps.query_vectors(2))
def test_each_example(dp_auditor, pair):
    dp_auditor.assert_private(VectorLaplace(1.0, 2), pair, samples=2_000)
''')
    result = _run(pytester)
    result.assert_outcomes(passed=1)


@pytest.mark.parametrize("args", [(0.0, 3), (float("nan"), 3), (1e-3, 0), (1e-3, 2, 0), (1e-3, 2.5)],
                         ids=["alpha-zero", "alpha-nan", "tests-zero", "checks-zero", "tests-fractional"])
def test_check_confidence_rejects_bad_arguments(args):
    from dpverify import InvalidArgument
    from dpverify.testing.profiles import check_confidence

    with pytest.raises(InvalidArgument):
        check_confidence(*args)


def test_check_seed_depends_on_run_seed_test_and_index_only():
    from dpverify.testing.profiles import check_seed

    seeds = {check_seed(1, "a.py::t", 0), check_seed(2, "a.py::t", 0), check_seed(1, "a.py::u", 0),
             check_seed(1, "a.py::t", 1)}
    assert len(seeds) == 4 and all(0 <= s < 2**63 for s in seeds)
    assert check_seed(1, "a.py::t", 0) == check_seed(1, "a.py::t", 0)


def test_grey_box_mode_fails_the_halved_scale_exactly_and_names_itself_in_the_reproduce_line(pytester):
    """--dpverify-mode grey-box: the halved scale is an exact finding of one replay (no sampling, no statistical
    false alarm); the correct Laplace passes; the reproduce line carries the mode; a bad mode is a usage error."""
    pytester.makepyfile(test_suite=SUITE)
    result = _run(pytester, "--dpverify-mode", "grey-box", "--dpverify-profile", "dev")
    result.assert_outcomes(passed=1, failed=1)
    text = result.stdout.str()
    assert "mode=grey-box" in text and "--dpverify-mode grey-box" in text and "grey-box" in text
    bad = _run(pytester, "--dpverify-mode", "greybox")
    assert bad.ret != 0 and "greybox" in bad.stderr.str()
