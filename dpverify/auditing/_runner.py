"""Pairs, seeds and batched sampling shared by the testers (internal).

Randomness: the caller's generator yields one root ``SeedSequence``; every (pair, direction)
gets a child and every batch a grandchild, so the outputs depend only on the seed and the
batch size (fixed by the output size), never on the number of workers.
"""
from __future__ import annotations

import time
from concurrent.futures import Executor, Future
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Sequence

import numpy as np

from .._validate import as_rng, integer
from ..errors import InvalidArgument, MechanismError

__all__ = ["normalise_pairs", "describe", "root_seed", "batch_plan", "run_batches", "check_outputs", "call_sampler",
           "auto_executor", "auto_pool", "plan_samples", "SamplesPlan", "DEFAULT_MAX_SAMPLES"]

#: Elements (not outputs) per batch: a few MB, cache-friendly, whatever the output shape.
BATCH_ELEMENTS = 1 << 18


class InlineExecutor(Executor):
    """An executor that runs every task at once in the calling process (forces a serial audit)."""

    def submit(self, fn, /, *args, **kwargs):
        f: Future = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, as a pool would
            f.set_exception(exc)
        return f


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
    futures: list = []
    try:
        for t in tasks:
            futures.append(executor.submit(func, *t))
        return [_result_waking(f) for f in futures]
    except KeyboardInterrupt:
        stop_executor(executor)
        raise
    except BaseException:  # (a DeadlineExceeded among them) the batches not started are not wanted any more
        for f in futures:
            f.cancel()
        raise


def _result_waking(future) -> Any:
    """``future.result()``, waiting in short slices: a Ctrl-C delivered to another thread of this process only
    sets a flag that the main thread sees when it wakes, and one task may run for many seconds (a certification
    task holds up to 16 pairs of batches), so a plain wait would hold the interrupt until the task ends."""
    from concurrent.futures import TimeoutError as FuturesTimeout

    from . import _deadline

    while True:
        try:
            return future.result(timeout=0.2)
        except FuturesTimeout:
            hard = _deadline.hard_deadline()  # an unsupervised run with time_budget on an executor
            if hard is not None and time.monotonic() >= hard:
                raise _deadline.deadline_error("a batch on the executor") from None
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
        return _same_outputs(a, b)
    except Exception:
        return None


def auto_executor(mechanism: Any, pairs: list, workers: int, honest: bool | None) -> tuple[Executor | None, str | None]:
    """A process pool of ``workers`` forked workers, or (None, why the run is serial).

    The one pool policy of the package (white-box and black-box audits, and direct calls of
    :func:`~dpverify.auditing.blackbox.audit_black_box`):

    * Workers are **forked** and run :func:`_worker_init` first (Ctrl-C ignored, global generators
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
                               initializer=_worker_init)
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


def _same_outputs(a: Any, b: Any) -> bool:
    x, y = np.asarray(a), np.asarray(b)
    if x.shape != y.shape:
        return False
    if x.dtype.kind in "biufc" and y.dtype.kind in "biufc":
        return bool(np.array_equal(x, y, equal_nan=True))
    return bool(repr(a) == repr(b))


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
    return not _same_outputs(mine, theirs)


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


def validate_samples(samples: Any) -> int:
    return integer("samples", samples, minimum=1, fix="Ask for at least one sample per direction.")


# -- up-front sample limits ------------------------------------------------------------------------

#: Default cap on the outputs drawn per dataset (black-box) or direction (white-box): ``max_samples``.
DEFAULT_MAX_SAMPLES = 100_000_000
#: Bytes the batch plan holds per batch before any draw (its SeedSequence and list entries; measured
#: 386 bytes per spawned SeedSequence, numpy 2, rounded up).
_BYTES_PER_PLANNED_BATCH = 512
#: Smallest number of outputs per batch of any audit path (black-box structured outputs); the plan's
#: memory estimate assumes it, so it is an upper bound.
_MIN_BATCH_OUTPUTS = 1 << 14


@dataclass(frozen=True)
class SamplesPlan:
    """What an audit will draw for a requested sample count, decided before any draw.

    ``samples`` is the count per dataset (black-box) or direction (white-box) after the cap;
    ``capped`` says whether the request was above ``max_samples``; ``note`` is the sentence the
    audit adds to its result when capped (None otherwise); ``plan_bytes`` is an upper bound on the
    memory the batch plan takes up front for ``streams`` streams (datasets or directions)."""

    requested: int
    samples: int
    max_samples: int
    capped: bool
    note: str | None
    plan_bytes: int


def plan_samples(samples: Any, max_samples: Any = None, *, streams: int = 2, name: str = "samples",
                 max_name: str = "max_samples") -> SamplesPlan:
    """The up-front estimate and cap of an audit's size: a :class:`SamplesPlan`, or InvalidArgument.

    ``samples`` above ``max_samples`` (default :data:`DEFAULT_MAX_SAMPLES`) is capped at it, with a
    note (as white-box audits cap ``delta_resolution``); a plan whose batch seeds alone would take
    more than 80 % of the available memory (only reachable with a raised ``max_samples``) is refused.
    ``name`` and ``max_name`` are the arguments as the caller's user typed them (e.g. ``--samples``,
    or a product such as ``--samples-scale`` x a mechanism's default, for ``dpverify check``): the
    messages name them. Nothing is drawn.
    """
    samples = integer(name, samples, minimum=1, fix="Ask for at least one sample per direction.")
    cap = DEFAULT_MAX_SAMPLES if max_samples is None else integer(
        max_name, max_samples, minimum=1, fix=f"Give a cap on the samples, e.g. {max_name}={DEFAULT_MAX_SAMPLES}.")
    streams = integer("streams", streams, minimum=1)
    n = min(samples, cap)
    capped = samples > cap
    note = (f"{name}={samples} is above {max_name}={cap}; capped at {cap} per dataset and direction "
            f"(raise {max_name} to draw more)") if capped else None
    plan_bytes = streams * (-(-n // _MIN_BATCH_OUTPUTS)) * _BYTES_PER_PLANNED_BATCH
    from .whitebox import available_memory

    have = available_memory()
    if have is not None and plan_bytes > 0.8 * have:
        raise InvalidArgument(
            f"{name}={samples} (with {max_name}={cap}) would hold about {plan_bytes / 2**30:.1f} GiB of batch seeds "
            f"before the first draw, more than the {have / 2**30:.1f} GiB available; ask for fewer samples or lower "
            f"{max_name}.")
    return SamplesPlan(samples, n, cap, capped, note, plan_bytes)
