"""Pairs, seeds and batched sampling shared by the testers (internal).

Randomness: the caller's generator yields one root ``SeedSequence``; every (pair, direction)
gets a child and every batch a grandchild, so the outputs depend only on the seed and the
batch size (fixed by the output size), never on the number of workers.
"""
from __future__ import annotations

from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from .._validate import as_rng, integer
from ..errors import InvalidArgument, MechanismError

__all__ = ["normalise_pairs", "describe", "root_seed", "batch_plan", "run_batches", "check_outputs", "call_sampler"]

#: Elements (not outputs) per batch: a few MB, cache-friendly, whatever the output shape.
BATCH_ELEMENTS = 1 << 18


def describe(obj: Any, limit: int = 80) -> str:
    """A short, one-line description of a dataset or mechanism for error messages."""
    if isinstance(obj, np.ndarray):
        if obj.size <= 8:
            text = np.array2string(obj, separator=", ", threshold=8).replace("\n", "")
        else:
            text = f"array(shape={obj.shape}, dtype={obj.dtype})"
    else:
        text = repr(obj)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def normalise_pairs(pairs: Any) -> list[tuple[Any, Any]]:
    """One pair (a tuple ``(D, D')``) or an iterable of such tuples, as a non-empty list.

    See :func:`dpverify.auditing.pairs.normalise_pairs` (datasets of different lengths are
    allowed here; the neighbour relation is checked by :func:`~dpverify.auditing.pairs.check_pair`).
    """
    from .pairs import normalise_pairs as _normalise

    return _normalise(pairs)


def root_seed(rng: Any) -> np.random.SeedSequence:
    """The root SeedSequence of a run, drawn from ``rng`` (Generator, int seed, or None)."""
    gen = as_rng(rng)
    return np.random.SeedSequence([int(x) for x in gen.integers(0, 2**63 - 1, size=4)])


@dataclass(frozen=True)
class BatchPlan:
    sizes: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.sizes)


def batch_plan(samples: int, elements_per_output: int) -> BatchPlan:
    """Split ``samples`` outputs into batches of at most BATCH_ELEMENTS elements."""
    per = max(1, BATCH_ELEMENTS // max(1, elements_per_output))
    full, rest = divmod(samples, per)
    return BatchPlan(tuple([per] * full + ([rest] if rest else [])))


def check_outputs(mechanism: Any, outputs: Any, size: int, where: str) -> np.ndarray:
    """``outputs`` as an array with ``size`` rows, or MechanismError naming the mechanism."""
    try:
        arr = np.asarray(outputs)
    except Exception as exc:  # pragma: no cover - exotic containers
        raise MechanismError(f"{describe(mechanism)}.sample returned {type(outputs).__name__}, "
                             f"which is not array-like ({exc}); {where}.") from None
    if arr.ndim == 0 or arr.shape[0] != size:
        raise MechanismError(
            f"{describe(mechanism)}.sample(size={size}) returned shape {arr.shape}; it must return "
            f"{size} outputs stacked on axis 0; {where}."
        )
    return arr


def call_sampler(mechanism: Any, sample: Callable[[], Any], where: str, *, what: str = "sample",
                 hint: str = "") -> Any:
    """``sample()``, with any exception turned into a MechanismError naming the mechanism and ``where``.

    ``what`` names the method for the message (``sample``, ``proposal.sample``); ``hint`` is
    appended to it. A MechanismError raised by the mechanism itself passes through unchanged.
    """
    try:
        return sample()
    except MechanismError:
        raise
    except Exception as exc:
        raise MechanismError(
            f"{describe(mechanism)}.{what} raised {type(exc).__name__}: {exc}; {where}.{hint}"
        ) from exc


def run_batches(func: Callable, tasks: Sequence[tuple], executor: Executor | None) -> list:
    """``[func(*task) for task in tasks]``, through ``executor.map`` when one is given (order kept).

    On Ctrl-C (KeyboardInterrupt) the pending batches are cancelled and, for a pool this module
    started (:func:`auto_executor`), its workers are terminated at once; then the interrupt is
    raised again, so an audit ends within a batch's time.
    """
    if executor is None:
        return [func(*t) for t in tasks]
    from . import distributed

    if distributed.is_dask_client(executor):  # a dask.distributed.Client (imported only when given)
        return distributed.map_ordered(executor, func, tasks)
    if not isinstance(executor, Executor):
        raise InvalidArgument(
            f"executor={describe(executor)} must be a concurrent.futures.Executor, a dask.distributed.Client "
            "or None "
            "(e.g. concurrent.futures.ProcessPoolExecutor(2))."
        )
    if not tasks:
        return []
    try:
        futures = [executor.submit(func, *t) for t in tasks]
        return [_result_waking(f) for f in futures]
    except KeyboardInterrupt:
        stop_executor(executor)
        raise


def _result_waking(future) -> Any:
    """``future.result()``, waiting in short slices: a Ctrl-C delivered to another thread of this process only
    sets a flag that the main thread sees when it wakes, and one task may run for many seconds (a certification
    task holds up to 16 pairs of batches), so a plain wait would hold the interrupt until the task ends."""
    from concurrent.futures import TimeoutError as FuturesTimeout

    while True:
        try:
            return future.result(timeout=0.2)
        except FuturesTimeout:
            continue


# -- randomness honesty and worker pools -----------------------------------------------------------

_OWN_POOLS: "weakref.WeakSet" = None  # type: ignore[assignment]


def _own_pools():
    global _OWN_POOLS
    if _OWN_POOLS is None:
        import weakref

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


def _worker_init() -> None:
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


def honours_rng(mechanism: Any, data: Any, size: int = 32) -> bool | None:
    """Whether ``mechanism.sample`` honours its ``rng``: two calls with generators from the same
    seed give the same outputs. False means the sampler draws from some other state (global
    ``np.random``, ``scipy.stats`` without ``random_state``, a library's own generator): its
    runs cannot be repeated from a seed, and forked workers could repeat each other's draws.
    None when the probe itself fails (the audit then reports the sampler's error)."""
    try:
        a = mechanism.sample(data, size, np.random.default_rng(20261123))
        b = mechanism.sample(data, size, np.random.default_rng(20261123))
        x, y = np.asarray(a), np.asarray(b)
        if x.shape != y.shape:
            return False
        if x.dtype.kind in "biufc" and y.dtype.kind in "biufc":
            return bool(np.array_equal(x, y, equal_nan=True))
        return bool(repr(a) == repr(b))
    except Exception:
        return None


def auto_executor(mechanism: Any, pairs: list, workers: int, honest: bool) -> tuple[Executor | None, str | None]:
    """A process pool of ``workers`` whose workers never share a generator state, or (None, why).

    A sampler that honours ``rng`` gets forked workers (cheap); one that does not gets *spawned*
    workers (fresh interpreters: no generator state, buffered or not, is inherited). Every
    worker runs :func:`_worker_init`. The caller shuts the pool down (:func:`stop_executor` on Ctrl-C).
    """
    import multiprocessing
    import pickle
    from concurrent.futures import ProcessPoolExecutor

    try:
        pickle.dumps((mechanism, pairs))
    except Exception as exc:  # lambdas, open handles...: serial, said in the notes
        return None, f"ran serially: the mechanism or pairs cannot be pickled for worker processes ({type(exc).__name__})"
    methods = multiprocessing.get_all_start_methods()
    method = "fork" if honest and "fork" in methods else "spawn"
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context(method),
                               initializer=_worker_init)
    _own_pools().add(pool)
    _start_workers(pool)
    return pool, None


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


def validate_samples(samples: Any) -> int:
    return integer("samples", samples, minimum=1, fix="Ask for at least one sample per direction.")
