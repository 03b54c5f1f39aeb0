"""Time limits for checks that may not finish (sympy's ``simplify`` of a mutant, an mpmath evaluation at 10^9).

:func:`time_limit` raises an exception in the block after a number of seconds, by ``SIGALRM`` (``setitimer``); only in
the main thread of a process that has ``SIGALRM`` -- elsewhere there is no limit, and the block runs to its end. Limits
nest: an inner limit never extends an outer one (the outermost expired limit wins, so an inner handler cannot swallow
it), and the outer one is re-armed when the inner block ends. :func:`timed` runs a function under a limit and says
whether it ran out. The exceptions derive from :class:`TimeLimitExceeded`, a ``BaseException``, so that no
``except Exception`` of a checker turns a timeout into a verdict.

The mutation campaign (:mod:`dpverify.symbolic.mutation`) is the user: one limit per mutant's check, and one per point
of its numeric check inside it.
"""
from __future__ import annotations

import signal
import threading
import time
from contextlib import contextmanager
from typing import Callable, Iterator, TypeVar

from ..errors import InvalidArgument

__all__ = ["TimeLimitExceeded", "time_limit", "timed", "active_limits"]

T = TypeVar("T")


class TimeLimitExceeded(BaseException):
    """A block ran out of its :func:`time_limit` (a BaseException: ``except Exception`` does not catch it)."""


#: active limits, outermost first: (deadline on time.monotonic(), exception class)
_LIMITS: list[tuple[float, type]] = []


def active_limits() -> tuple[tuple[float, type], ...]:
    """The limits in force, outermost first: ``(deadline on time.monotonic(), exception class)``; empty outside every
    :func:`time_limit` block (no timer is then armed)."""
    return tuple(_LIMITS)


def _on_alarm(signum, frame):
    now = time.monotonic()
    for deadline, exc in _LIMITS:  # the outermost expired limit wins, so an inner handler cannot swallow it
        if deadline <= now + 1e-3:
            raise exc()
    _arm()


def _arm():
    if _LIMITS:
        left = min(d for d, _ in _LIMITS) - time.monotonic()
        signal.setitimer(signal.ITIMER_REAL, max(left, 1e-3))
    else:
        signal.setitimer(signal.ITIMER_REAL, 0)


@contextmanager
def time_limit(seconds: float | None, exc: type = TimeLimitExceeded) -> Iterator[None]:
    """Raise ``exc`` (a :class:`TimeLimitExceeded` subclass) in the block after ``seconds`` (None or 0: no limit). See
    the module docstring for where a limit applies and how limits nest."""
    if not (isinstance(exc, type) and issubclass(exc, TimeLimitExceeded)):
        raise InvalidArgument(f"exc={exc!r} must be a subclass of TimeLimitExceeded.")
    if not seconds or not hasattr(signal, "SIGALRM") or threading.current_thread() is not threading.main_thread():
        yield
        return
    outermost = not _LIMITS
    old = signal.signal(signal.SIGALRM, _on_alarm) if outermost else None
    entry = (time.monotonic() + float(seconds), exc)
    _LIMITS.append(entry)
    _arm()
    try:
        yield
    finally:
        _LIMITS.remove(entry)
        if outermost:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)
        else:
            _arm()


def timed(fn: Callable[[], T], seconds: float | None, exc: type = TimeLimitExceeded) -> tuple[T | None, bool]:
    """``(fn(), False)``, or ``(None, True)`` when ``fn`` ran out of ``seconds`` (its :func:`time_limit` raised
    ``exc``)."""
    try:
        with time_limit(seconds, exc):
            return fn(), False
    except exc:
        return None, True
