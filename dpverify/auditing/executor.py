"""The executor: where an audit's batches run (inline, a local process pool, or a Dask cluster).

One function runs a list of batch tasks, :func:`run_batches` (in order, through an executor when one
is given, with an optional progress bar or callback); one pool policy decides when an audit starts
its own worker pool and how (:func:`auto_pool`, :func:`auto_executor`, :func:`stop_executor`).
The executor changes *where* batches run, never *what* they compute: every batch carries its own
seed (:mod:`dpverify.auditing.draws`), and the testers merge the batches' statistics exactly, so the
result is the same inline, on a pool or on Dask (:mod:`dpverify.auditing.distributed`).

A progress bar needs the optional ``tqdm`` (imported when a bar is wanted; no bar without it).
"""
from __future__ import annotations

import time
import weakref
from concurrent.futures import Executor, Future
from concurrent.futures import TimeoutError as FuturesTimeout
from typing import Any, Callable, Sequence

import numpy as np

from ..errors import InvalidArgument
from . import deadline, distributed
from ..messages import describe
from .draws import honours_rng, same_outputs

__all__ = ["InlineExecutor", "run_batches", "progress_ticker", "progress_wanted", "PROGRESS_THRESHOLD",
           "stop_executor", "auto_executor", "auto_pool", "AUTO_POOL_MIN_OUTPUTS", "worker_init"]

#: Total outputs of a run above which ``progress=None`` ("auto") shows a bar.
PROGRESS_THRESHOLD = 5_000_000


class InlineExecutor(Executor):
    """An executor that runs every task at once in the calling process (forces a serial audit)."""

    def submit(self, fn, /, *args, **kwargs):
        f: Future = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, as a pool would
            f.set_exception(exc)
        return f


def run_batches(func: Callable, tasks: Sequence[tuple], executor: Executor | None, progress: Any = None,
                desc: str = "audit") -> list:
    """``[func(*task) for task in tasks]``, through ``executor`` when one is given (order kept).

    ``executor``: None (inline), a ``concurrent.futures.Executor`` (tasks submitted at once, results
    waited for in order) or a ``dask.distributed.Client`` (:func:`dpverify.auditing.distributed.map_ordered`).
    ``progress``: True (a bar if tqdm is installed), False/None (none) or a callable
    ``progress(done, total)`` called after each batch (not on Dask, whose results come back together);
    order and results do not depend on it.

    On Ctrl-C (KeyboardInterrupt) the pending batches are cancelled and, for a pool this module
    started (:func:`auto_executor`), its workers are terminated at once; then the interrupt is
    raised again, so an audit ends within a batch's time.
    """
    if executor is not None and distributed.is_dask_client(executor):  # (dask imported only when given)
        return distributed.map_ordered(executor, func, tasks)
    if executor is not None and not isinstance(executor, Executor):
        raise InvalidArgument(
            f"executor={describe(executor)} must be a concurrent.futures.Executor, a dask.distributed.Client "
            "or None "
            "(e.g. concurrent.futures.ProcessPoolExecutor(2))."
        )
    if not tasks:
        return []
    tick = progress_ticker(progress, len(tasks), desc)
    try:
        if executor is None:
            return _collect((func(*t) for t in tasks), tick)
        futures: list = []
        try:
            for t in tasks:
                futures.append(executor.submit(func, *t))
            return _collect((_result_waking(f) for f in futures), tick)
        except KeyboardInterrupt:
            stop_executor(executor)
            raise
        except BaseException:  # (a DeadlineExceeded among them) the batches not started are not wanted any more
            for f in futures:
                f.cancel()
            raise
    finally:
        if tick is not None:
            tick(None, None)


def _collect(results, tick) -> list:
    out = []
    for r in results:
        out.append(r)
        if tick is not None:
            tick(len(out), None)
    return out


def progress_wanted(progress: Any, outputs: int) -> Any:
    """``progress`` as given, or for None ("auto"): a bar for runs of at least :data:`PROGRESS_THRESHOLD`
    outputs on an interactive terminal."""
    if progress is None:
        import sys

        return outputs >= PROGRESS_THRESHOLD and sys.stderr.isatty()
    return progress


def progress_ticker(progress: Any, total: int, desc: str = "audit") -> Callable | None:
    """A ``tick(done, total)`` function (``tick(None, None)`` closes it), or None for no progress.

    ``progress`` falsy: None. Callable: it is called as ``progress(done, total)`` (``total`` given here
    when the tick passes None). True: a tqdm bar of ``total`` batches (None when tqdm is not installed).
    """
    if not progress:
        return None
    if callable(progress):
        return lambda done, tot: progress(done, total if tot is None else tot) if done is not None else None
    bar = _bar(total, desc)
    if bar is None:
        return None
    state = {"done": 0}

    def tick(done, tot):
        if done is None:
            bar.close()
            return
        bar.update(done - state["done"])
        state["done"] = done

    return tick


def _bar(total: int, desc: str):
    try:
        from tqdm.auto import tqdm  # deferred: tqdm optional (extra `progress`)
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, unit="batch", leave=False)


def _result_waking(future) -> Any:
    """``future.result()``, waiting in short slices: a Ctrl-C delivered to another thread of this process only
    sets a flag that the main thread sees when it wakes, and one task may run for many seconds (a certification
    task holds up to 16 pairs of batches), so a plain wait would hold the interrupt until the task ends."""
    while True:
        try:
            return future.result(timeout=0.2)
        except FuturesTimeout:
            hard = deadline.hard_deadline()  # an unsupervised run with time_budget on an executor
            if hard is not None and time.monotonic() >= hard:
                raise deadline.deadline_error("a batch on the executor") from None
            continue


# -- worker pools: the one pool policy ------------------------------------------------------------

_OWN_POOLS: "weakref.WeakSet" = None  # type: ignore[assignment]


def _own_pools():
    global _OWN_POOLS
    if _OWN_POOLS is None:
        _OWN_POOLS = weakref.WeakSet()
    return _OWN_POOLS


def stop_executor(executor: Any) -> None:
    """Cancel what is pending; terminate the workers of a pool started here (never a user's).

    A worker killed while it was writing a large result leaves half a message in the pool's result
    pipe, and the pool's manager thread then waits for the rest for ever (the parent holds the pipe's
    write end too), so the interpreter hung at exit when it joined that thread. After the workers are
    gone the parent's write end is closed: the manager thread reads end-of-file, marks the pool broken
    and ends."""
    own = executor in _own_pools()
    procs = getattr(executor, "_processes", None) if own else None  # the dict itself: late spawns too
    results = getattr(executor, "_result_queue", None) if own else None
    try:
        executor.shutdown(wait=False, cancel_futures=True)
    except Exception:  # pragma: no cover - exotic executors
        pass
    if not procs:
        return
    workers = list(procs.values())
    for proc in workers:
        try:
            proc.terminate()
        except Exception:  # pragma: no cover
            pass
    for proc in workers:
        try:
            proc.join(timeout=2.0)
            if proc.is_alive():  # pragma: no cover - a worker stuck in the kernel
                proc.kill()
                proc.join(timeout=2.0)
        except Exception:  # pragma: no cover
            pass
    writer = getattr(results, "_writer", None)
    if writer is not None and not any(proc.is_alive() for proc in workers):
        try:
            writer.close()
        except Exception:  # pragma: no cover
            pass
    # let the manager thread finish its cleanup (it closes its wake-up pipe) before the interpreter's exit hook
    # wakes it: on Python 3.11 the hook and that cleanup raced, and the hook's write to the closing pipe printed
    # "OSError: [Errno 9] Bad file descriptor" with a traceback after Ctrl-C (seen once in CI, round 14)
    manager = getattr(executor, "_executor_manager_thread", None)
    if manager is not None:
        try:
            manager.join(timeout=2.0)
        except Exception:  # pragma: no cover
            pass


def worker_init() -> None:
    """Runs first in every worker this module starts: the worker ignores Ctrl-C (the parent stops
    it) and reseeds the global generators (numpy's legacy ``np.random``, ``random``) from fresh
    OS entropy, so no two workers share a generator state even when a sampler ignores ``rng``."""
    import os
    import random
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if hasattr(signal, "pthread_sigmask"):  # blocked by _start_workers in the parent; ignored here instead
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    np.random.seed(int.from_bytes(os.urandom(4), "little"))
    random.seed(os.urandom(16))


def auto_executor(mechanism: Any, pairs: list, workers: int, honest: bool | None) -> tuple[Executor | None, str | None]:
    """A process pool of ``workers`` forked workers, or (None, why the run is serial).

    The one pool policy of the package (white-box and black-box audits, and direct calls of
    :func:`~dpverify.auditing.blackbox.audit_black_box`):

    * Workers are **forked** and run :func:`worker_init` first (Ctrl-C ignored, global generators
      reseeded). A forked worker never re-imports the caller's ``__main__``, so a script without an
      ``if __name__ == "__main__":`` guard is not re-run in every worker (spawn and forkserver workers
      re-run it, and a script that audits at import then dies with ``BrokenProcessPool``).
    * A sampler that does not honour ``rng`` (``honest`` False) draws from some state of its own: a
      generator carried by the mechanism object (pickled with every task, so every batch would repeat
      the same draws), a module's generator (copied into every forked worker), global ``np.random``
      (reseeded in each worker), the OS (independent). So before such a pool is used, one task on a
      fresh worker draws from a copy of the mechanism pickled here while this process draws from
      another copy (:func:`_independent_in_workers`): equal outputs mean shared state, and the run is
      **serial**, with a note; different ones mean a pool, with a note. ``honest`` None (the probe of
      ``rng`` raised) runs serially.
    * Without the ``fork`` start method (Windows), or when the mechanism or pairs cannot be pickled, the
      run is serial, with a note.

    The caller shuts the pool down (:func:`stop_executor` on Ctrl-C).
    """
    import multiprocessing
    import pickle
    from concurrent.futures import ProcessPoolExecutor

    if honest is None:
        return None, "ran serially: the probe of whether the sampler honours rng failed (the sampler raised)"
    if "fork" not in multiprocessing.get_all_start_methods():
        return None, ("ran serially: this platform has no 'fork' start method, and spawned workers would re-import "
                      "the main script")
    try:
        pickle.dumps((mechanism, pairs))
    except Exception as exc:  # lambdas, open handles...: serial, said in the notes
        return None, f"ran serially: the mechanism or pairs cannot be pickled for worker processes ({type(exc).__name__})"
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("fork"),
                               initializer=worker_init)
    _own_pools().add(pool)
    _start_workers(pool)
    if honest:
        return pool, None
    independent = _independent_in_workers(pool, mechanism, pairs[0][0])
    if independent:
        return pool, (f"the sampler ignores rng: ran on {workers} forked workers after a probe found a worker's draws "
                      "different from this process's on a copy of the mechanism (no state travels with the tasks or "
                      "is shared through the fork)")
    if independent is None:  # the probe task failed or hangs: stop its worker at once
        stop_executor(pool)
    else:
        pool.shutdown(wait=True)
    why = ("a worker repeated this process's draws" if independent is False else "the probe draw on a worker failed")
    return None, (f"ran serially: the sampler ignores rng and {why}: worker processes would repeat one another's "
                  "draws (a generator held by the mechanism travels with every task; a module's generator is copied "
                  "into every worker); draw from the rng argument to run on workers")


#: Outputs drawn by each side of the independence probe of a sampler that ignores rng.
_INDEPENDENCE_PROBE = 64


def _probe_draw(blob: bytes, data: Any, size: int) -> Any:
    """Worker task of :func:`_independent_in_workers`: draws from a fresh copy of the pickled mechanism."""
    import pickle

    mechanism = pickle.loads(blob)
    return np.asarray(mechanism.sample(data, size, np.random.default_rng(20261128)))


def _independent_in_workers(pool: Executor, mechanism: Any, data: Any) -> bool | None:
    """Whether a sampler that ignores rng draws independently in ``pool``'s fresh workers: one task draws
    from a copy of the mechanism pickled here, on a worker forked a moment ago; this process draws from
    another copy of the same pickle. State carried by the mechanism (both copies start from it) or by a
    module (the worker was forked from this process's) gives equal outputs: False. None when the task
    fails or takes over a minute. (64 equal outputs by chance: at most 0.6**64 ~ 6e-15 for randomised
    response at eps = 1; a near-deterministic sampler is called dependent: serial, the safe side.)"""
    import pickle
    from concurrent.futures import TimeoutError as FuturesTimeout

    try:
        blob = pickle.dumps(mechanism)
        future = pool.submit(_probe_draw, blob, data, _INDEPENDENCE_PROBE)
        mine = _probe_draw(blob, data, _INDEPENDENCE_PROBE)
        theirs = future.result(timeout=60)
    except (Exception, FuturesTimeout):
        return None
    return not same_outputs(mine, theirs)


#: Total outputs (over pairs and datasets) from which an audit without an executor uses its own pool.
AUTO_POOL_MIN_OUTPUTS = 400_000


def auto_pool(total_outputs: int, mechanism: Any, pairs: list, honest: bool | None = None
              ) -> tuple[Executor | None, str | None]:
    """The audit's own pool for a run of ``total_outputs`` outputs, or (None, why or None).

    None without a note below :data:`AUTO_POOL_MIN_OUTPUTS` outputs or on one core; otherwise
    :func:`auto_executor` with ``min(2, cpu count)`` workers (``honest`` probed by
    :func:`honours_rng` when not given)."""
    import os

    workers = min(2, os.cpu_count() or 1)
    if total_outputs < AUTO_POOL_MIN_OUTPUTS or workers < 2:
        return None, None
    if honest is None:
        honest = honours_rng(mechanism, pairs[0][0])
    return auto_executor(mechanism, pairs, workers, honest)


def _noop() -> None:
    return None


def _start_workers(pool: Executor) -> None:
    """Start the pool's workers now, with Ctrl-C held back in this thread while they fork.

    A SIGINT that lands during a fork runs its handler inside the interpreter's after-fork hooks
    (logging's lock release), where a KeyboardInterrupt is printed as "Exception ignored" and lost:
    the audit then ran to its end. With SIGINT blocked, the signal waits and is raised once the
    workers (and the pool's threads, which inherit the mask and so never take it) exist."""
    import signal
    import threading

    if not hasattr(signal, "pthread_sigmask") or threading.current_thread() is not threading.main_thread():
        return
    old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        pool.submit(_noop).result()
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, old)


