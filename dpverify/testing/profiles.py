"""Profiles, defaults and the false-alarm budget of privacy tests (stdlib only: the pytest plugin
imports this at start-up)."""
from __future__ import annotations

import enum
import hashlib
from dataclasses import dataclass

from ..errors import InvalidArgument

__all__ = [
    "Profile",
    "ProfileSettings",
    "PROFILES",
    "DEFAULT_PROFILE",
    "DEFAULT_SEED",
    "DEFAULT_ALPHA_RUN",
    "DEFAULT_CONFIDENCE",
    "check_confidence",
    "check_seed",
]


class Profile(enum.Enum):
    """How hard a privacy test looks: ``dev`` (fast, local), ``ci`` (the default), ``thorough``."""

    DEV = "dev"
    CI = "ci"
    THOROUGH = "thorough"


@dataclass(frozen=True)
class ProfileSettings:
    """``samples``: outputs drawn per direction of each pair; ``max_pairs``: pairs drawn from a
    hypothesis strategy (audited together, with the multiplicity correction over all of them)."""

    samples: int
    max_pairs: int


PROFILES = {
    Profile.DEV: ProfileSettings(samples=20_000, max_pairs=4),
    Profile.CI: ProfileSettings(samples=200_000, max_pairs=8),
    Profile.THOROUGH: ProfileSettings(samples=1_000_000, max_pairs=16),
}

DEFAULT_PROFILE = Profile.CI
#: The run seed when none is given: fixed, so that CI runs are reproducible.
DEFAULT_SEED = 20_240_601
#: The false-alarm budget of a whole pytest run: P(some privacy test of a correct suite fails) <= this.
DEFAULT_ALPHA_RUN = 1e-3
#: Confidence of :func:`dpverify.testing.assert_private` called outside the plugin.
DEFAULT_CONFIDENCE = 0.999


def check_confidence(alpha_run: float, tests: int, checks: int = 1) -> float:
    """The confidence of one privacy check: ``1 - alpha_run / (tests * checks)``.

    Bonferroni: a run has ``tests`` privacy tests, a test makes at most ``checks`` checks, each
    check cries wolf with probability at most ``alpha_run / (tests * checks)`` on a correct
    mechanism, so the run does with probability at most ``alpha_run``.
    """
    if not (0 < alpha_run < 1):  # catches NaN
        raise InvalidArgument(f"alpha_run={alpha_run!r} must be in (0, 1), e.g. 1e-3.")
    for name, value in (("tests", tests), ("checks", checks)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise InvalidArgument(f"{name}={value!r} must be an integer >= 1.")
    return 1.0 - alpha_run / (tests * checks)


def check_seed(run_seed: int, nodeid: str, index: int) -> int:
    """The seed of check number ``index`` (0-based) of the test ``nodeid`` in a run seeded
    ``run_seed``: the first 63 bits of SHA-256 of ``"<run_seed>:<nodeid>:<index>"``. It depends on
    nothing else (not on the order or selection of tests), so one test re-runs alone exactly."""
    digest = hashlib.sha256(f"{run_seed}:{nodeid}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1
