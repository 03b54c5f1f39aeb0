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

    The message names the mechanism and the neighbouring pair that triggered it. The structured fields
    say the same for programs: ``pair`` (the index of the pair in the audit's list, or None when not tied
    to one pair) and ``direction`` (``"D->D'"``, ``"D'->D"`` or the dataset ``"D"``/``"D'"``; None when
    not tied to one).
    """

    def __init__(self, message: str = "", *, pair: int | None = None, direction: str | None = None):
        super().__init__(message)
        self.pair = pair
        self.direction = direction

    def __reduce__(self):
        return (_rebuild, (type(self), str(self), dict(self.__dict__)))


class DeadlineExceeded(MechanismError):
    """An audit given ``time_budget`` did not finish by its deadline (a mechanism call that never
    returned, or an audit that needs longer); its process and workers were stopped.

    ``time_budget`` is the budget in seconds; ``seconds`` the time waited (None when not measured).
    """

    def __init__(self, message: str, time_budget: float | None = None, seconds: float | None = None, *,
                 pair: int | None = None, direction: str | None = None):
        super().__init__(message, pair=pair, direction=direction)
        self.time_budget = time_budget
        self.seconds = seconds


class NumericalError(DPVerifyError, ArithmeticError):
    """A quantity could not be computed to the precision its guarantee needs."""


class UnsupportedEvent(DPVerifyError):
    """A method cannot handle an event: an accounting method a privacy event, or a black-box audit an
    output event. The message names the event and the method; the structured fields say the same for
    programs: ``event`` (the event object, or None) and ``method`` (the method's name, or None).
    """

    def __init__(self, message: str = "", *, event: object = None, method: str | None = None):
        super().__init__(message)
        self.event = event
        self.method = method

    def __reduce__(self):
        return (_rebuild, (type(self), str(self), dict(self.__dict__)))


def _rebuild(cls: type, message: str, fields: dict) -> DPVerifyError:
    """Unpickle an error with its structured fields (errors cross process and Dask worker boundaries)."""
    err = cls.__new__(cls)
    Exception.__init__(err, message)
    err.__dict__.update(fields)
    return err
