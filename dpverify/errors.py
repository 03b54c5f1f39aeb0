"""Exceptions raised by dpverify.

Every error message says ``name=value``, the rule that was broken, and how to fix it.
"""
from __future__ import annotations

__all__ = [
    "DPVerifyError",
    "InvalidArgument",
    "MechanismError",
    "DeadlineExceeded",
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


class DeadlineExceeded(MechanismError):
    """An audit given ``time_budget`` did not finish by its deadline (a mechanism call that never
    returned, or an audit that needs longer); its process and workers were stopped.

    ``time_budget`` is the budget in seconds; ``seconds`` the time waited (None when not measured).
    """

    def __init__(self, message: str, time_budget: float | None = None, seconds: float | None = None):
        super().__init__(message)
        self.time_budget = time_budget
        self.seconds = seconds

    def __reduce__(self):
        return (type(self), (str(self), self.time_budget, self.seconds))


class NumericalError(DPVerifyError, ArithmeticError):
    """A quantity could not be computed to the precision its guarantee needs."""


class UnsupportedEvent(DPVerifyError):
    """An accounting method cannot handle an event (the message names the event and the method)."""
