"""Privacy tests for a project's own test suite.

* :func:`assert_private` -- an audit as a test assertion (``AssertionError`` with a report
  and a line that reproduces the failure when the audit says ``violated``).
* The pytest plugin (:mod:`dpverify.testing.plugin`, registered by entry point): options
  ``--dpverify-seed``, ``--dpverify-profile``, ``--dpverify-alpha``; the ``dp`` marker; the
  ``dp_auditor`` fixture; a false-alarm budget for the whole run.
* Hypothesis strategies of neighbouring datasets live in :mod:`dpverify.strategies`.

See ``docs/testing.md``. Names are loaded on first use, so that the plugin, which imports this
package at pytest start-up, stays light.
"""
from __future__ import annotations

from typing import Any

from .profiles import (
    DEFAULT_ALPHA_RUN,
    DEFAULT_CONFIDENCE,
    DEFAULT_PROFILE,
    DEFAULT_SEED,
    PROFILES,
    Profile,
    ProfileSettings,
)

__all__ = [
    "assert_private",
    "Auditor",
    "Profile",
    "ProfileSettings",
    "PROFILES",
    "DEFAULT_PROFILE",
    "DEFAULT_SEED",
    "DEFAULT_ALPHA_RUN",
    "DEFAULT_CONFIDENCE",
]


def __getattr__(name: str) -> Any:
    if name == "assert_private":
        from .assertion import assert_private  # deferred: the plugin imports this package at pytest start-up

        return assert_private
    if name == "Auditor":
        from .plugin import Auditor  # deferred: pytest, loaded only when the plugin is used

        return Auditor
    raise AttributeError(f"module 'dpverify.testing' has no attribute {name!r}")
