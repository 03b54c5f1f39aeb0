"""Hard deadlines for audits: ``time_budget`` bounds every call of the mechanism, from outside the call.

A sampler can block for ever inside one call (a lock, a socket, a C loop that never checks
signals), and nothing inside the process that made the call can end it. So an audit given
``time_budget`` (white-box or black-box) runs **supervised**: the calling process forks a child
that runs the whole audit (pair search, probes, pilots, batches and its own worker pool), in a
process group of its own, and waits for its result at most ``time_budget + GRACE`` seconds. At that
deadline the child's process group (the child and every worker it started) is killed and the audit
raises :class:`~dpverify.errors.DeadlineExceeded`, which names the budget. Inside the child the
budget is also the white-box *soft* deadline: plain draws stop between batches at ``time_budget`` and
the bounds reached so far are reported (``result.stopped_early``), so a white-box audit whose calls
return gets its result; ``GRACE`` leaves time to finish the batches in flight and the bounds.

What the child changes travels back: the result (or the exception, re-raised here), the state of
a ``numpy.random.Generator`` passed as ``rng`` and numpy's global generator state, so the caller's
generators advance exactly as in an unsupervised run. A ``progress`` callable is called in this
process (the child sends each tick). Changes the sampler makes to its own objects (a counter, a
private generator) stay in the child.

Not supervised (said in the result's notes): a run with a caller's executor (a process pool or a
Dask client cannot be carried into a forked child), where the wait for each batch on the executor
is bounded instead (:func:`hard_deadline`; a caller's workers are never killed, so one blocked there
stays busy), and platforms without ``fork`` (Windows), where the budget is checked between batches.
"""
from __future__ import annotations

import contextlib
import multiprocessing
import os
import pickle
import select
import signal
import struct
import sys
import time
import traceback
from typing import Any, Callable

import numpy as np

from ..errors import DeadlineExceeded, InvalidArgument, MechanismError

__all__ = ["GRACE", "supervise", "can_supervise", "soft_deadline", "hard_deadline", "bounded_wait", "deadline_error"]

#: Seconds after ``time_budget`` at which a supervised audit is killed (the white-box soft stop at
#: ``time_budget`` finishes the batches in flight and computes the bounds within this).
GRACE = 5.0

#: Inside a supervised child: the absolute (time.monotonic) soft deadline of the audit.
_SOFT: float | None = None
#: Unsupervised runs on an executor: the absolute deadline at which waiting for a batch stops.
_HARD: float | None = None
_HARD_BUDGET: float | None = None

_HEADER = struct.Struct("!Q")


def soft_deadline() -> float | None:
    """The supervised audit's soft deadline (time.monotonic) in its child process; None elsewhere."""
    return _SOFT


def hard_deadline() -> float | None:
    """The deadline for waiting on an executor's batches in an unsupervised run with ``time_budget``."""
    return _HARD


@contextlib.contextmanager
def bounded_wait(time_budget: float):
    """Within the block, :func:`dpverify.auditing.executor.run_batches` waits for an executor's batches
    until ``time_budget + GRACE`` seconds from now, then raises DeadlineExceeded (nested blocks keep
    the outer deadline)."""
    global _HARD, _HARD_BUDGET
    old = (_HARD, _HARD_BUDGET)
    if _HARD is None:
        _HARD, _HARD_BUDGET = time.monotonic() + time_budget + GRACE, time_budget
    try:
        yield
    finally:
        _HARD, _HARD_BUDGET = old


def deadline_error(what: str) -> DeadlineExceeded:
    """The DeadlineExceeded of an unsupervised run whose wait for ``what`` passed the hard deadline."""
    budget = _HARD_BUDGET if _HARD_BUDGET is not None else float("nan")
    return DeadlineExceeded(
        f"time_budget={budget:g} s: {what} had not returned {GRACE:g} s after the budget was spent; the wait was "
        "abandoned (the executor's worker may still be running the call: a caller's workers are never killed). "
        "A mechanism call that never returns cannot be audited; one that is merely slow needs a larger time_budget "
        "or fewer samples.", time_budget=budget, seconds=None)


def can_supervise(executor: Any) -> tuple[bool, str | None]:
    """(True, None) when an audit on ``executor`` can run in a forked child; else (False, why)."""
    if executor is not None and type(executor).__name__ != "InlineExecutor":  # (blackbox.InlineExecutor: no threads)
        return False, ("time_budget is enforced on the given executor's batches only (waits end at the deadline; its "
                       "workers are not killed), not on the calls this process makes itself (probes, pilots)")
    if "fork" not in multiprocessing.get_all_start_methods() or not hasattr(os, "setpgid"):
        return False, ("time_budget was checked between batches only: this platform cannot fork a supervised audit, so "
                       "a call of the mechanism that never returns is not interrupted")
    return True, None


def supervise(func: Callable[..., Any], kwargs: dict, *, time_budget: float, rng: Any = None,
              progress: Any = None, what: str = "the audit") -> Any:
    """``func(**kwargs)`` run in a forked child killed ``time_budget + GRACE`` seconds from now.

    Returns what it returned, or raises what it raised (in this process); DeadlineExceeded when the
    deadline passes first; MechanismError when the child ends without an answer (a crash in native
    code, ``os._exit``). ``rng`` (the Generator passed to ``func``, if any) gets the child's final
    state; a callable ``progress`` (in ``kwargs['progress']``) is called here for each tick."""
    start = time.monotonic()
    soft = start + time_budget
    hard = soft + GRACE
    sys.stdout.flush()  # the child must not print again what this process has buffered
    sys.stderr.flush()
    read_fd, write_fd = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns
        os.close(read_fd)
        _child(func, kwargs, soft, write_fd, rng, progress)
    os.close(write_fd)
    try:
        os.setpgid(pid, pid)  # (the child does it too: whichever runs first)
    except OSError:
        pass
    buf = bytearray()
    answer = None
    try:
        with os.fdopen(read_fd, "rb", buffering=0) as pipe:
            while True:
                left = hard - time.monotonic()
                if left <= 0:
                    _kill(pid)
                    raise DeadlineExceeded(
                        f"time_budget={time_budget:g} s: {what} did not finish within the budget and its {GRACE:g} s "
                        "grace, so its process and its workers were killed. A call of the mechanism (sample or "
                        "log_density) that never returns gives this; so does an audit that needs longer (black-box "
                        "audits do not stop early at the budget: ask for fewer samples, or give more time).",
                        time_budget=time_budget, seconds=time.monotonic() - start)
                ready, _, _ = select.select([pipe], [], [], min(0.25, left))
                if not ready:
                    continue
                chunk = pipe.read(1 << 20)
                if not chunk:
                    break
                buf += chunk
                while len(buf) >= _HEADER.size:
                    (size,) = _HEADER.unpack_from(buf)
                    if len(buf) < _HEADER.size + size:
                        break
                    msg = pickle.loads(bytes(buf[_HEADER.size:_HEADER.size + size]))
                    del buf[:_HEADER.size + size]
                    if msg[0] == "progress":
                        if callable(progress):
                            progress(*msg[1:])
                    else:
                        answer = msg
    except BaseException:  # Ctrl-C (or anything else) here: the child and its workers go at once
        _kill(pid)
        raise
    _, status = os.waitpid(pid, 0)
    if answer is None:
        code = os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status
        how = f"killed by signal {-code}" if code < 0 else f"exit code {code}"
        raise MechanismError(
            f"{what} ended without an answer ({how}): its supervised process died, which a mechanism that crashes "
            "the interpreter (a fault in native code, os._exit) does. Audit without time_budget to see the failure "
            "in this process.")
    kind = answer[0]
    if kind == "ok":
        _, result, rng_state, np_state = answer
        if rng_state is not None and isinstance(rng, np.random.Generator):
            rng.bit_generator.state = rng_state
        if np_state is not None:
            np.random.set_state(np_state)
        return result
    if kind == "raised":
        exc, text = answer[1], answer[2]
        if hasattr(exc, "add_note"):
            exc.add_note("raised in the supervised audit process (time_budget):\n" + text.rstrip())
        raise exc
    if kind == "unsendable":
        raise InvalidArgument(
            f"time_budget={time_budget:g}: {what} finished, but its result cannot be pickled to come back from the "
            f"supervised process ({answer[1]}); the result holds the pairs, so make the datasets picklable, or audit "
            "without time_budget.")
    _, name, message, text = answer  # an exception that does not pickle
    raise MechanismError(f"{what} raised {name}: {message} (in its supervised process; the exception could not be "
                         f"sent back):\n{text.rstrip()}")


def _kill(pid: int) -> None:
    """SIGKILL the child's process group (the child and its workers) and reap the child."""
    for target in (lambda: os.killpg(pid, signal.SIGKILL), lambda: os.kill(pid, signal.SIGKILL)):
        try:
            target()
        except OSError:
            pass
    try:
        os.waitpid(pid, 0)
    except OSError:  # pragma: no cover - already reaped
        pass


def _send(fd: int, msg: tuple) -> None:
    data = pickle.dumps(msg, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        n = os.write(fd, view)
        view = view[n:]


def _child(func, kwargs, soft, fd, rng, progress) -> None:
    """The supervised child: run, send the answer, leave without running the parent's exit handlers."""
    global _SOFT
    code = 0
    try:
        try:
            os.setpgid(0, 0)
        except OSError:
            pass
        _SOFT = soft
        if callable(progress) and "progress" in kwargs:
            kwargs = dict(kwargs, progress=lambda done, total: _send(fd, ("progress", done, total)))
        try:
            result = func(**kwargs)
            rng_state = rng.bit_generator.state if isinstance(rng, np.random.Generator) else None
            msg = ("ok", result, rng_state, np.random.get_state())
            try:
                _send(fd, msg)
            except Exception as exc:  # the result does not pickle (e.g. pairs holding a lambda)
                _send(fd, ("unsendable", f"{type(exc).__name__}: {exc}"))
        except BaseException as exc:  # noqa: BLE001 - everything goes back to the caller
            text = traceback.format_exc()
            try:
                _send(fd, ("raised", exc, text))
            except Exception:
                _send(fd, ("unpicklable", type(exc).__name__, str(exc), text))
    except BaseException:  # pragma: no cover - the pipe itself failed
        code = 1
    finally:
        try:
            sys.stdout.flush()
            sys.stderr.flush()
        except Exception:  # pragma: no cover
            pass
        os._exit(code)
