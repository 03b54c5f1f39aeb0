"""The dpverify pytest plugin (entry point ``pytest11: dpverify``; disable with ``-p no:dpverify``).

Options (group ``dpverify``; each also an ini option, the command line wins):

* ``--dpverify-seed SEED|random`` (ini ``dpverify_seed``): the run seed; default
  :data:`~dpverify.testing.DEFAULT_SEED`, fixed so that CI is reproducible. ``random`` draws one
  and prints it in the header.
* ``--dpverify-profile {dev,ci,thorough}`` (ini ``dpverify_profile``): sample sizes
  (:data:`~dpverify.testing.PROFILES`); default ``ci``.
* ``--dpverify-alpha A`` (ini ``dpverify_alpha``): the false-alarm budget of the whole run,
  default 1e-3: on correct mechanisms, the probability that *any* privacy test of the run fails
  is at most ``A``. It is split evenly (Bonferroni) over the N privacy tests collected (counted
  before ``-k`` / ``-m`` deselection, so that a selection runs each check exactly as the full run
  does), and over
  the ``checks`` a test declares with ``@pytest.mark.dp(checks=k)``: each check runs at
  confidence ``1 - A / (N k)``.
* ``--dpverify-budget-split N``: split the budget over N tests instead of the number collected
  (the reproduce line uses it, so that a test re-run alone runs at the confidence it failed at).
* ``--dpverify-mode {statistical,grey-box,auto}`` (ini ``dpverify_mode``): the audit mode of every
  ``dp_auditor.assert_private`` that does not give its own ``mode=``; default ``statistical`` (the audit
  without ``mode``). ``grey-box`` (and ``auto``) replays every pair with its draws frozen first: a halved scale
  or a missing clip fails in milliseconds, with no statistical false alarm (an exact finding); without a
  finding the statistical audit runs as usual.

A *privacy test* is a test marked ``dp`` or using the ``dp_auditor`` fixture (which marks it).
Only stdlib and pytest are imported here; the audit machinery is imported when a check runs.
"""
from __future__ import annotations

import secrets
import shlex
from dataclasses import dataclass
from typing import Any

import pytest

from .profiles import (
    DEFAULT_ALPHA_RUN,
    DEFAULT_PROFILE,
    DEFAULT_SEED,
    PROFILES,
    Profile,
    ProfileSettings,
    check_confidence,
    check_seed,
)

__all__ = ["Auditor", "RunSettings", "dp_auditor"]

_FIXTURE = "dp_auditor"
#: The audit modes: "statistical" (dpverify.audit without ``mode``) and dpverify.audit's ``mode=`` values (kept here
#: so the plugin imports no audit code at start-up).
MODES = ("statistical", "grey-box", "auto")


@dataclass(frozen=True)
class RunSettings:
    """The privacy-test settings of one pytest run."""

    profile: Profile
    seed: int
    seed_was_random: bool
    alpha_run: float
    budget_split: int | None
    mode: str = "statistical"

    @property
    def settings(self) -> ProfileSettings:
        return PROFILES[self.profile]


SETTINGS_KEY = pytest.StashKey[RunSettings]()
#: Number of privacy tests collected in this run (the Bonferroni denominator).
TESTS_KEY = pytest.StashKey[int]()
#: (nodeid, reproduce line) of each failed privacy check of this run.
FAILURES_KEY = pytest.StashKey[list]()
#: The test item running now (the fixture is session-scoped, so it composes with hypothesis.given).
CURRENT_KEY = pytest.StashKey[Any]()
#: On an item: privacy checks it has made so far.
CALLS_KEY = pytest.StashKey[int]()
#: On an item: the reproduce line of its failed check.
REPRODUCE_KEY = pytest.StashKey[str]()


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("dpverify", "privacy tests (dpverify)")
    group.addoption("--dpverify-seed", dest="dpverify_seed", default=None, metavar="SEED|random",
                    help=f"seed of the privacy tests (default {DEFAULT_SEED}, or ini dpverify_seed); "
                         "'random' draws one and prints it.")
    group.addoption("--dpverify-profile", dest="dpverify_profile", default=None,
                    choices=[p.value for p in Profile],
                    help="sample sizes of the privacy tests: dev (20k per direction), ci (200k, default), "
                         "thorough (1M); or ini dpverify_profile.")
    group.addoption("--dpverify-alpha", dest="dpverify_alpha", default=None, metavar="A",
                    help=f"false-alarm budget of the whole run (default {DEFAULT_ALPHA_RUN:g}, or ini "
                         "dpverify_alpha), split evenly over the privacy tests collected.")
    group.addoption("--dpverify-budget-split", dest="dpverify_budget_split", default=None, metavar="N",
                    help="split the budget over N tests instead of the number collected (used to "
                         "re-run one failed test at the confidence it failed at).")
    group.addoption("--dpverify-mode", dest="dpverify_mode", default=None, choices=list(MODES),
                    help="audit mode of the privacy tests that give none (default statistical, or ini dpverify_mode); "
                         "grey-box: replay each pair with its draws frozen first (exact findings in milliseconds).")
    parser.addini("dpverify_seed", "seed of the privacy tests, or 'random'", default=str(DEFAULT_SEED))
    parser.addini("dpverify_mode", "statistical, grey-box or auto", default="statistical")
    parser.addini("dpverify_profile", "dev, ci or thorough", default=DEFAULT_PROFILE.value)
    parser.addini("dpverify_alpha", "false-alarm budget of the whole run", default=repr(DEFAULT_ALPHA_RUN))


def _setting(config: pytest.Config, name: str) -> str:
    value = config.getoption(name)
    return str(value) if value is not None else str(config.getini(name))


def _run_settings(config: pytest.Config) -> RunSettings:
    raw = _setting(config, "dpverify_profile").strip()
    try:
        profile = Profile(raw)
    except ValueError:
        raise pytest.UsageError(f"dpverify_profile={raw!r} must be one of "
                                f"{', '.join(p.value for p in Profile)}.") from None
    raw = _setting(config, "dpverify_seed").strip()
    if raw == "random":
        seed, was_random = secrets.randbits(32), True
    else:
        try:
            seed, was_random = int(raw), False
        except ValueError:
            seed = -1
        if seed < 0:
            raise pytest.UsageError(f"--dpverify-seed={raw!r} must be an integer >= 0 or 'random'.")
    raw = _setting(config, "dpverify_alpha").strip()
    try:
        alpha = float(raw)
    except ValueError:
        alpha = float("nan")
    if not (0 < alpha < 1):  # catches NaN
        raise pytest.UsageError(f"--dpverify-alpha={raw!r} must be a number in (0, 1), e.g. 1e-3.")
    split = config.getoption("dpverify_budget_split")
    if split is not None:
        try:
            split = int(split)
        except ValueError:
            split = 0
        if split < 1:
            raise pytest.UsageError(f"--dpverify-budget-split={config.getoption('dpverify_budget_split')!r} "
                                    "must be an integer >= 1.")
    mode = _setting(config, "dpverify_mode").strip()
    if mode not in MODES:
        raise pytest.UsageError(f"dpverify_mode={mode!r} must be one of {', '.join(MODES)}.")
    return RunSettings(profile, seed, was_random, alpha, split, mode)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "dp(checks=1): a privacy test (dpverify); it shares the run's false-alarm budget and may make "
        "at most `checks` privacy checks.",
    )
    config.stash[SETTINGS_KEY] = _run_settings(config)
    config.stash[TESTS_KEY] = 0
    config.stash[FAILURES_KEY] = []
    config.stash[CURRENT_KEY] = None


def _describe(s: RunSettings) -> str:
    seed = f"{s.seed} (random)" if s.seed_was_random else str(s.seed)
    mode = "" if s.mode == "statistical" else f", mode={s.mode}"
    return (f"profile={s.profile.value} ({s.settings.samples} samples per direction, {s.settings.max_pairs} "
            f"pairs per strategy), seed={seed}, false-alarm budget {s.alpha_run:g} per run{mode}")


def pytest_report_header(config: pytest.Config) -> str:
    return "dpverify: " + _describe(config.stash[SETTINGS_KEY])


def _is_privacy_test(item: pytest.Item) -> bool:
    return item.get_closest_marker("dp") is not None


def _checks(item: pytest.Item) -> int:
    mark = item.get_closest_marker("dp")
    checks = 1 if mark is None else mark.kwargs.get("checks", 1)
    if isinstance(checks, bool) or not isinstance(checks, int) or checks < 1:
        raise pytest.UsageError(f"{item.nodeid}: @pytest.mark.dp(checks={checks!r}) needs an integer >= 1.")
    return checks


#: Privacy tests collected before -k / -m deselection (the budget is split over these).
COLLECTED_KEY = pytest.StashKey[int]()


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config: pytest.Config, items: list) -> None:
    for item in items:  # before -m selection, so that `-m dp` selects fixture users too
        if _FIXTURE in getattr(item, "fixturenames", ()) and not _is_privacy_test(item):
            item.add_marker(pytest.mark.dp)
    # Counted before -k / -m deselect anything: a selection then runs each check at the confidence
    # of the full run (splitting the budget over more tests than run is conservative), so that a
    # test gives the same outcome whether it runs in the full suite or under -k.
    config.stash[COLLECTED_KEY] = sum(1 for item in items if _is_privacy_test(item))


def pytest_collection_finish(session: pytest.Session) -> None:
    privacy = [item for item in session.items if _is_privacy_test(item)]
    for item in privacy:
        _checks(item)  # a bad `checks` is a usage error before anything runs
    session.config.stash[TESTS_KEY] = max(len(privacy), session.config.stash.get(COLLECTED_KEY, 0))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: Any):
    item.config.stash[CURRENT_KEY] = item
    try:
        yield
    finally:
        item.config.stash[CURRENT_KEY] = None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: Any):
    outcome = yield
    report = outcome.get_result()
    line = item.stash.get(REPRODUCE_KEY, None)
    if line is not None and report.when == "call" and report.failed:
        report.sections.append(("dpverify: reproduce", line))
        item.config.stash[FAILURES_KEY].append((item.nodeid, line))


def pytest_terminal_summary(terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
    tests = config.stash.get(TESTS_KEY, 0)
    if not tests:
        return
    s = config.stash[SETTINGS_KEY]
    split = s.budget_split or tests
    terminalreporter.write_sep("-", "dpverify")
    terminalreporter.write_line(f"{tests} privacy tests; {_describe(s)}; each check at confidence "
                                f"1 - {s.alpha_run:g}/({split} x checks)")
    failures = config.stash[FAILURES_KEY]
    if failures:
        terminalreporter.write_line(f"{len(failures)} privacy checks failed; reproduce (from {config.rootpath}):")
        for _, line in failures:
            terminalreporter.write_line("  " + line)


class Auditor:
    """The configured privacy checker of a pytest run (the ``dp_auditor`` fixture).

    ``assert_private`` checks with the run's profile (``samples``, ``max_pairs``), a seed derived
    from the run seed and the test id (:func:`dpverify.testing.profiles.check_seed`), and the
    confidence given by the run's false-alarm budget; on failure the message ends with the
    pytest command that reproduces it.
    """

    def __init__(self, config: pytest.Config):
        self._config = config
        self._last_pairs: tuple | None = None

    @property
    def last_pairs(self) -> tuple | None:
        """The pairs the last check drew from a strategy (a tuple of ``(D, D_prime)``), None when
        its pairs were given explicitly. Pairs depend on the run seed and the test id only
        (:func:`dpverify.testing.profiles.check_seed`), never on test selection or imports."""
        return self._last_pairs

    @property
    def settings(self) -> RunSettings:
        return self._config.stash[SETTINGS_KEY]

    @property
    def profile(self) -> Profile:
        return self.settings.profile

    @property
    def seed(self) -> int:
        return self.settings.seed

    @property
    def alpha_run(self) -> float:
        return self.settings.alpha_run

    @property
    def samples(self) -> int:
        return self.settings.settings.samples

    @property
    def max_pairs(self) -> int:
        return self.settings.settings.max_pairs

    @property
    def tests(self) -> int:
        """The number of privacy tests the budget is split over."""
        return self.settings.budget_split or self._config.stash.get(TESTS_KEY, 0)

    def _item(self) -> pytest.Item:
        item = self._config.stash.get(CURRENT_KEY, None)
        if item is None:
            raise pytest.UsageError("dp_auditor.assert_private was called outside a running test.")
        if not _is_privacy_test(item):
            raise pytest.UsageError(
                f"{item.nodeid} makes a privacy check but is not a privacy test of this run: mark it "
                "@pytest.mark.dp or request the dp_auditor fixture as an argument, so that the run's "
                "false-alarm budget counts it."
            )
        return item

    def confidence(self) -> float:
        """The confidence of each check of the running test: 1 - alpha_run / (tests x checks)."""
        item = self._item()
        return check_confidence(self.alpha_run, max(1, self.tests), _checks(item))

    def reproduce_line(self, nodeid: str) -> str:
        s = self.settings
        mode = "" if s.mode == "statistical" else f" --dpverify-mode {s.mode}"
        return (f"pytest {shlex.quote(nodeid)} --dpverify-seed {s.seed} --dpverify-profile {s.profile.value} "
                f"--dpverify-alpha {s.alpha_run!r} --dpverify-budget-split {max(1, self.tests)}{mode}")

    def assert_private(self, mechanism: Any, pairs_or_strategy: Any, claim: Any = None, *,
                       samples: int | None = None, max_pairs: int | None = None, mode: Any = None) -> Any:
        """:func:`dpverify.testing.assert_private` with the run's seed, profile, confidence and mode.

        ``samples`` / ``max_pairs`` override the profile for this check (e.g. a slow mechanism:
        ``samples=dp_auditor.samples // 10``); ``mode`` overrides the run's ``--dpverify-mode``.
        """
        __tracebackhide__ = True
        from .assertion import check_private  # deferred: keeps the plugin light at pytest start-up (loads the audit stack)

        item = self._item()
        checks = _checks(item)
        index = item.stash.get(CALLS_KEY, 0)
        if index >= checks:
            raise pytest.UsageError(
                f"{item.nodeid} makes privacy check number {index + 1} but its dp marker allows {checks}; "
                f"declare @pytest.mark.dp(checks={index + 1}) (or more) so that the false-alarm budget "
                "covers every check."
            )
        item.stash[CALLS_KEY] = index + 1
        line = self.reproduce_line(item.nodeid)
        drawn: list = []
        self._last_pairs = None
        try:
            return check_private(
                mechanism, pairs_or_strategy, claim,
                samples=self.samples if samples is None else samples,
                confidence=self.confidence(),
                seed=check_seed(self.seed, item.nodeid, index),
                max_pairs=self.max_pairs if max_pairs is None else max_pairs,
                reproduce=line,
                drawn=drawn,
                mode=(None if self.settings.mode == "statistical" else self.settings.mode) if mode is None else mode,
            )
        except AssertionError:
            item.stash[REPRODUCE_KEY] = line
            raise
        finally:
            self._last_pairs = tuple(drawn) if drawn else None

    def __repr__(self) -> str:
        return f"<dpverify Auditor: {_describe(self.settings)}>"


@pytest.fixture(scope="session")
def dp_auditor(pytestconfig: pytest.Config) -> Auditor:
    """The run's :class:`Auditor`: ``dp_auditor.assert_private(mechanism, pairs_or_strategy)``."""
    return Auditor(pytestconfig)
