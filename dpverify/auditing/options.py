"""Audit options as frozen values: what the caller asked of the audit, the white-box and the black-box tester.

:func:`dpverify.audit` takes its options as keyword arguments; the intake reads them into one
:class:`AuditOptions`, which holds the shared ones (``samples``, ``confidence``, ``executor``,
``time_budget``), a :class:`WhiteBoxOptions` and a :class:`BlackBoxOptions`. The testers are still
called with keyword arguments: :meth:`WhiteBoxOptions.tester_keywords` and
:meth:`BlackBoxOptions.tester_keywords` give them, and only the options a caller changed travel
(each tester keeps its own defaults). Options that do not apply to the chosen tester are refused with
the rule and the fix (:mod:`dpverify.auditing.intake`).
"""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any

__all__ = ["AuditOptions", "WhiteBoxOptions", "BlackBoxOptions", "DEFAULT_SAMPLES"]

#: Outputs drawn per direction of each pair when ``samples`` is not given.
DEFAULT_SAMPLES = 200_000


@dataclass(frozen=True)
class WhiteBoxOptions:
    """The white-box tester's options (see :func:`dpverify.auditing.whitebox.audit_white_box`).

    ``max_samples`` (None: the tester's default) also caps a black-box audit's ``samples``;
    ``consistency`` (default True) checks ``log_density`` against ``sample``.
    """

    proposal: Any = "auto"
    delta_resolution: float | None = None
    max_samples: int | None = None
    progress: Any = None
    precision: Any = None
    profile: bool = False
    consistency: bool = True

    def changed(self) -> dict:
        """The options other than ``consistency`` that differ from their defaults, in signature order
        (compared by identity first, so an array or an odd object never has to answer ``==``)."""
        out = {}
        for f in dataclasses.fields(self):
            if f.name == "consistency":
                continue
            value = getattr(self, f.name)
            if value is not f.default and value != f.default:
                out[f.name] = value
        return out

    def tester_keywords(self) -> dict:
        """The keyword arguments of the white-box tester: the changed options, and ``consistency``."""
        return dict(self.changed(), consistency=self.consistency)

    def refused_by_black_box(self) -> dict:
        """The options given that a black-box audit refuses: every changed one but ``max_samples``, and
        ``consistency`` when it is not True."""
        given = self.changed()
        given.pop("max_samples", None)
        if self.consistency is not True:
            given["consistency"] = self.consistency
        return given


@dataclass(frozen=True)
class BlackBoxOptions:
    """The black-box tester's options the caller gave (``selection_fraction``, ``stop_early``,
    ``float_bits``, ``learned``: see :func:`dpverify.auditing.blackbox.audit_black_box`), in the order
    given; the tester's defaults apply to the rest. A name the tester does not know is kept as given,
    so that the tester refuses it (TypeError) just as it would a direct call."""

    given: tuple = ()

    @classmethod
    def of(cls, options: dict) -> "BlackBoxOptions":
        return cls(tuple(options.items()))

    def __bool__(self) -> bool:
        return bool(self.given)

    def get(self, name: str, default: Any = None) -> Any:
        """The value given for ``name``, or ``default`` when it was not given."""
        return dict(self.given).get(name, default)

    def tester_keywords(self) -> dict:
        return dict(self.given)

    def describe(self) -> str:
        """``name=value`` for each option given, in order (for error messages)."""
        return ", ".join(f"{k}={v!r}" for k, v in self.given)


@dataclass(frozen=True)
class AuditOptions:
    """Every option of one audit but the mechanism, the pairs, the claim and ``rng``.

    ``time_budget`` is already validated (seconds > 0, or None); ``executor`` is the caller's (or None).
    """

    samples: Any = DEFAULT_SAMPLES
    confidence: Any = 0.95
    executor: Any = None
    time_budget: float | None = None
    white: WhiteBoxOptions = field(default_factory=WhiteBoxOptions)
    black: BlackBoxOptions = field(default_factory=BlackBoxOptions)

    def keywords(self) -> dict:
        """The options as :func:`dpverify.audit`'s keyword arguments (a curve audit passes them to each point,
        a supervised audit to its child)."""
        white = {f.name: getattr(self.white, f.name) for f in dataclasses.fields(self.white)}
        return dict(samples=self.samples, confidence=self.confidence, executor=self.executor,
                    time_budget=self.time_budget, **white, **self.black.tester_keywords())
