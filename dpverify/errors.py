"""Exceptions raised by dpverify.

Every error message says ``name=value``, the rule that was broken, and how to fix it.
"""
from __future__ import annotations

__all__ = [
    "DPVerifyError",
    "InvalidArgument",
    "MechanismError",
    "NumericalError",
    "UnsupportedEvent",
]


class DPVerifyError(Exception):
    """Base class of every error dpverify raises on purpose."""


class InvalidArgument(DPVerifyError, ValueError):
    """An argument broke its documented rule (the message names it, its value, the rule, the fix)."""


class MechanismError(DPVerifyError):
    """A mechanism under audit misbehaved (wrong output count, raised, returned NaN ...).

    The message names the mechanism and the neighbouring pair that triggered it.
    """


class NumericalError(DPVerifyError, ArithmeticError):
    """A quantity could not be computed to the precision its guarantee needs."""


class UnsupportedEvent(DPVerifyError):
    """An accounting method cannot handle an event (the message names the event and the method)."""
