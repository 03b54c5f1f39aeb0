"""Audits on a Dask cluster: ``audit(..., executor=client)`` with a ``dask.distributed.Client``.

Nothing here imports dask until a Client is actually used (the ``dask`` extra:
``pip install "dpverify[dask]"``). The engine changes *where* batches run, never *what* they
compute:

* **Seeds.** Every batch's generator is a grandchild of the run's root ``SeedSequence`` (see
  :mod:`dpverify.auditing.draws`) and batch sizes depend only on the output size, so a batch
  gives the same outputs on any worker, on a retry, or inline.
* **Merging.** White-box batches come back as :class:`~dpverify.auditing.streaming.DirectionStats`
  (integer fixed-point sums and counts: merging is exact, associative and commutative), black-box
  certification batches as integer event counts, so the merged statistics - and the result - do
  not depend on the number of workers, their speed or the order in which batches complete.
* **Tasks.** White-box batches travel in groups of up to :data:`GROUP` consecutive batches of one
  direction (one task; merged on the worker, exact like any merge; :func:`group_size`): a task
  returns one summary of a few KB (see :mod:`dpverify.auditing.streaming`, wire format) for up to
  four million draws. A
  black-box certification task draws up to ``blackbox.CERT_GROUP_MAX`` pairs of batches (the j-th
  of D with the j-th of D') and returns integer sums only: event counts and the paired bound's
  discordant counts. At most ``2 x threads + 2`` tasks are in flight, so neither the caller nor
  the scheduler holds the whole run; with ``time_budget`` no task is submitted after the deadline
  and every submitted one is waited for (the batches kept are a prefix of the fixed order, never
  chosen by their speed), until the audit's hard deadline (``time_budget`` + 5 s): then the pending tasks
  are cancelled and the audit raises :class:`~dpverify.errors.DeadlineExceeded` (a task blocked in a
  worker keeps that worker's thread; workers are not killed).
* **Sent once.** What every task of an audit (or stage) shares - the mechanism, the white-box
  evaluation epsilons, the black-box events - goes to the cluster once (:func:`share`), as the
  result of a task that the scheduler can run again if the worker holding it dies.
* **Worker environment.** :func:`local_cluster` (the CLI's ``--workers``) starts workers without
  Dask's ``MALLOC_TRIM_THRESHOLD_``, which makes numpy batches far more expensive (docs/scaling.md).
* **Failures.** A worker that dies mid-task loses only its tasks: the scheduler runs them again
  elsewhere with the same arguments, hence the same seeds and the same summary. An exception
  raised by the mechanism is not retried (it would raise again); it reaches the caller as in a
  local run.
* **Pickling.** The mechanism and the pairs travel to the workers (cloudpickle). One that cannot be
  pickled gets :class:`~dpverify.errors.InvalidArgument` naming it, before any work is sent; wrap a
  mechanism that holds an unpicklable resource in :class:`FromFactory` to build it on each worker.
"""
from __future__ import annotations

import os
import time
import uuid
from typing import Any, Callable, Sequence

from ..errors import InvalidArgument
from . import deadline
from ..messages import describe

__all__ = ["is_dask_client", "require_distributed", "check_picklable", "FromFactory", "map_ordered",
           "stream_tasks", "share", "total_threads", "check_workers_agree",
           "startup_environ", "drop_nanny_leftovers", "connect", "local_cluster", "WORKER_ENVIRON", "GROUP", "group_size"]

#: At most this many white-box batches per Dask task (consecutive batches of one direction, merged
#: on the worker); :func:`group_size` picks fewer when a run has few batches.
GROUP = 16
#: White-box tasks wanted per worker thread at least (load balance at the end of a run, deadline
#: overshoot and the cost of a retried task are all at most one task).
TASKS_PER_THREAD = 8


def group_size(batches: int, threads: int) -> int:
    """Batches per task for a direction of ``batches`` batches on ``threads`` worker threads: as many as
    keep :data:`TASKS_PER_THREAD` tasks per thread, between 1 and :data:`GROUP`. Each task costs the
    caller and the scheduler about 9 ms of CPU (measured with 1 and 16 batches per task), which on a
    2-core machine is taken from the workers, so tasks are made as large as the balance allows. The
    result does not depend on it (merging is exact)."""
    return max(1, min(GROUP, -(-batches // (TASKS_PER_THREAD * max(1, threads)))))

_INSTALL = 'pip install "dpverify[dask]"  (or: pip install "dask[distributed]")'


def is_dask_client(obj: Any) -> bool:
    """True for a ``distributed.Client`` (or a subclass), without importing dask."""
    return any(c.__name__ == "Client" and c.__module__.split(".")[0] == "distributed" for c in type(obj).__mro__)


def require_distributed(what: str):
    """The ``distributed`` module, or InvalidArgument saying how to install it."""
    try:
        import distributed  # deferred: dask optional
    except ImportError:
        raise InvalidArgument(f"{what} needs dask.distributed, which is not installed; {_INSTALL}.") from None
    return distributed


def check_picklable(name: str, obj: Any) -> None:
    """InvalidArgument naming ``obj`` when it cannot be pickled for Dask workers (cloudpickle)."""
    try:
        import cloudpickle  # deferred: dask optional (comes with distributed)

        dumps = cloudpickle.dumps
    except ImportError:  # pragma: no cover - cloudpickle comes with distributed
        import pickle

        dumps = pickle.dumps
    try:
        dumps(obj)
    except Exception as exc:
        raise InvalidArgument(
            f"{name}={describe(obj)} cannot be pickled to send it to Dask workers ({type(exc).__name__}: "
            f"{str(exc)[:160]}). Make it picklable, or build it on each worker: "
            "dpverify.auditing.distributed.FromFactory(factory, *args) with a module-level factory."
        ) from None


class FromFactory:
    """A mechanism built by ``factory(*args, **kwargs)`` in each process that uses it.

    It pickles as the factory and its arguments (which must pickle; a module-level function or a
    class does), so a mechanism holding an open file, a lock or a library handle can run on Dask
    workers. Every attribute is that of the built mechanism.
    """

    def __init__(self, factory: Callable[..., Any], *args: Any, **kwargs: Any):
        if not callable(factory):
            raise InvalidArgument(f"factory={describe(factory)} must be callable (it builds the mechanism).")
        self._factory, self._args, self._kwargs = factory, args, kwargs
        self._built = None

    def _mechanism(self):
        if self._built is None:
            self._built = self._factory(*self._args, **self._kwargs)
        return self._built

    def __getattr__(self, name: str):
        if name.startswith("__") or name in ("_factory", "_args", "_kwargs", "_built"):
            raise AttributeError(name)
        return getattr(self._mechanism(), name)

    def __getstate__(self):
        return {"factory": self._factory, "args": self._args, "kwargs": self._kwargs}

    def __setstate__(self, state):
        self._factory, self._args, self._kwargs = state["factory"], state["args"], state["kwargs"]
        self._built = None

    def __repr__(self) -> str:
        name = getattr(self._factory, "__qualname__", repr(self._factory))
        args = ", ".join([repr(a) for a in self._args] + [f"{k}={v!r}" for k, v in self._kwargs.items()])
        return f"FromFactory({name}{', ' + args if args else ''})"


#: Seed and size of the probe draw compared between the caller and every worker.
PROBE_SEED, PROBE_SIZE = 20261124, 64


def _probe(mechanism: Any, data: Any, data_prime: Any) -> tuple:
    """(outputs, log densities under data and data_prime or None) of one fixed-seed draw."""
    import numpy as np

    out = mechanism.sample(data, PROBE_SIZE, np.random.default_rng(PROBE_SEED))
    dens = None
    if callable(getattr(mechanism, "log_density", None)):
        dens = (np.asarray(mechanism.log_density(out, data), dtype=float),
                np.asarray(mechanism.log_density(out, data_prime), dtype=float))
    return out, dens


def _same(a: Any, b: Any) -> bool:
    import numpy as np

    try:
        x, y = np.asarray(a), np.asarray(b)
        if x.dtype.kind in "biufc" and y.dtype.kind in "biufc":
            return x.shape == y.shape and bool(np.array_equal(x, y, equal_nan=True))
    except Exception:  # pragma: no cover - exotic outputs: compare their text
        pass
    return repr(a) == repr(b)


def check_workers_agree(client: Any, mechanism: Any, data: Any, data_prime: Any) -> list[str]:
    """Draw the same fixed-seed probe on the caller and on every worker of ``client``.

    Different *outputs* mean the workers run another mechanism than the caller (another version of
    its module, a class patched in the caller only, another numpy): InvalidArgument naming the
    worker, since the audit would certify code the caller never ran. Different *log densities*
    of the same outputs (last bits: another libm or SIMD path) give a note: the bounds stay valid,
    but the result is not bit-identical to a run elsewhere. Call only for samplers that honour rng.
    """
    try:
        mine = _probe(mechanism, data, data_prime)
    except Exception:  # the audit itself will report the sampler's error
        return []
    try:
        theirs = client.run(_probe, mechanism, data, data_prime)
    except Exception as exc:
        raise InvalidArgument(
            f"mechanism={describe(mechanism)} could not be drawn on the Dask workers ({type(exc).__name__}: "
            f"{str(exc)[:200]}); is the module that defines it installed on every worker?"
        ) from None
    notes = []
    for addr, (out, dens) in sorted(theirs.items()):
        if not _same(out, mine[0]):
            raise InvalidArgument(
                f"executor: the Dask worker {addr} draws other outputs than this process from "
                f"mechanism={describe(mechanism)} with the same seed: the workers run a different mechanism "
                "(another version of its module or of numpy, or a change made in this process only). Install the "
                "same versions on every worker; the audit would otherwise certify code this process never ran."
            )
        if mine[1] is not None and (dens is None or not all(_same(a, b) for a, b in zip(dens, mine[1]))):
            notes.append(f"Dask worker {addr} computes log densities that differ in the last bits from this "
                         "process's (another numpy build or CPU): the bounds hold, but the result is not "
                         "bit-identical to a run on other machines")
    return notes


def total_threads(client: Any) -> int:
    try:
        return max(1, int(sum(client.nthreads().values())))
    except Exception:  # pragma: no cover - a client without workers yet
        return 1


def _keys(func: Callable, n: int) -> list[str]:
    tag = uuid.uuid4().hex[:12]
    name = getattr(func, "__name__", "task").lstrip("_")
    return [f"dpverify-{name}-{tag}-{i}" for i in range(n)]


def map_ordered(client: Any, func: Callable, tasks: Sequence[tuple]) -> list:
    """``[func(*t) for t in tasks]`` on the cluster (order kept); Ctrl-C cancels what is pending."""
    if not tasks:
        return []
    futures = client.map(func, *zip(*tasks), key=_keys(func, len(tasks)), pure=False)
    left = _left()
    try:
        if left is not None:  # an audit with time_budget: wait until its hard deadline at most
            from distributed import wait  # deferred: dask optional

            wait(futures, timeout=left)
        return client.gather(futures)
    except BaseException as exc:
        client.cancel(futures)
        _raise_if_deadline(exc)
        raise


def _identity(obj: Any) -> Any:
    return obj


def share(client: Any, obj: Any):
    """A future holding ``obj`` on the cluster, to pass to many tasks instead of ``obj`` itself:
    ``obj`` travels to the scheduler once and to each worker once (workers fetch it from each other),
    not once per task. It is the result of a task (not scattered data), so if the worker holding it
    dies the scheduler runs that task again and nothing is lost. Release it when done."""
    return client.submit(_identity, obj, key=_keys(_identity, 1)[0], pure=False)


def stream_tasks(client: Any, tasks: Sequence[tuple], merge: Callable[[int, Any], None], deadline: float | None,
                 tick: Callable | None, *, func: Callable, threads: int | None = None) -> bool:
    """Run ``func(*args)`` for each task ``(j, args)`` of ``tasks`` with a bounded window, calling
    ``merge(j, result)`` as each completes (any order: merging is exact). ``func`` is the tester's task
    function (a module-level function, pickled by reference): the white-box tester passes
    :func:`dpverify.auditing.whitebox.losses.stream_group`, the black-box one its certification task;
    this module never imports a tester.
    Returns True when ``deadline`` (time.monotonic()) stopped the submissions before the end.
    ``threads`` is the cluster's thread count when the caller already asked the scheduler for it."""
    from distributed import as_completed  # deferred: dask optional

    window = 2 * (total_threads(client) if threads is None else threads) + 2
    keys = _keys(func, len(tasks))
    owner: dict = {}
    left = _left()
    pending = as_completed(timeout=left)  # an audit with time_budget: no wait past its hard deadline
    submitted = done = 0
    stopped = False

    def submit_next() -> None:
        nonlocal submitted
        j, args = tasks[submitted]
        fut = client.submit(func, *args, key=keys[submitted], pure=False)
        owner[fut.key] = j
        pending.add(fut)
        submitted += 1

    try:
        while submitted < min(window, len(tasks)):
            submit_next()
        for fut in pending:
            st = fut.result()
            merge(owner.pop(fut.key), st)
            fut.release()
            done += 1
            if tick is not None:
                tick(done, len(tasks))
            if submitted < len(tasks):
                if deadline is not None and time.monotonic() >= deadline:
                    stopped = True
                else:
                    submit_next()
    except BaseException as exc:
        client.cancel(list(pending.futures))
        _raise_if_deadline(exc)
        raise
    return stopped


def _left() -> float | None:
    """Seconds to the hard deadline of an audit with ``time_budget`` on this cluster, or None."""
    hard = deadline.hard_deadline()
    return None if hard is None else max(0.0, hard - time.monotonic())


def _raise_if_deadline(exc: BaseException) -> None:
    """DeadlineExceeded instead of a timeout raised because the hard deadline passed."""
    hard = deadline.hard_deadline()
    if hard is not None and isinstance(exc, TimeoutError) and time.monotonic() >= hard - 1.0:
        raise deadline.deadline_error("a task on the Dask cluster") from None


def connect(scheduler: str | None = None, workers: int | None = None):
    """(client, cluster or None): a Client of the scheduler at ``scheduler``, or of a new
    ``LocalCluster`` of ``workers`` one-thread worker processes (the CLI's ``--scheduler`` /
    ``--workers``). The caller closes both."""
    distributed = require_distributed("--scheduler/--workers" if scheduler or workers else "a Dask cluster")
    if scheduler:
        try:
            return distributed.Client(scheduler, timeout="20s"), None
        except (OSError, TimeoutError) as exc:
            raise InvalidArgument(f"--scheduler {scheduler!r}: no Dask scheduler answered there ({exc}); give "
                                  "its address, e.g. tcp://10.0.0.5:8786 (dask scheduler prints it).") from None
    cluster = local_cluster(workers)
    return distributed.Client(cluster), cluster


#: Environment variables that Dask's nannies set before starting a worker and that a LocalCluster
#: started here leaves unset (None): ``MALLOC_TRIM_THRESHOLD_`` (65536 by default) switches off
#: glibc's adaptive mmap threshold, so every array of more than 128 KB is mapped and unmapped again,
#: page by page: audits use far more CPU with it (``benchmarks/bench_scaling.py malloc``, docs/scaling.md).
WORKER_ENVIRON = {"MALLOC_TRIM_THRESHOLD_": None}


def startup_environ() -> set | None:
    """Names of the environment variables this process started with (Linux), or None if unknown."""
    try:
        with open("/proc/self/environ", "rb") as fh:
            return {item.split(b"=", 1)[0].decode(errors="replace") for item in fh.read().split(b"\0") if item}
    except OSError:
        return None


def drop_nanny_leftovers() -> list[str]:
    """A nanny writes its variables into the environment of the process that runs it (so a default
    LocalCluster started earlier in this process leaves ``MALLOC_TRIM_THRESHOLD_`` behind), and new
    workers inherit that environment: remove such a leftover of the :data:`WORKER_ENVIRON` variables
    to unset, unless this process was started with it (then it is the user's choice, kept).
    Returns the names removed."""
    start, dropped = None, []
    for name, value in WORKER_ENVIRON.items():
        if value is None and name in os.environ:
            start = startup_environ() if start is None else start
            if start is not None and name not in start:
                del os.environ[name]
                dropped.append(name)
    return dropped


def local_cluster(workers: int | None, **kwargs: Any):
    """A ``LocalCluster`` of ``workers`` one-thread worker processes for audits (no dashboard, no
    worker profiler, :data:`WORKER_ENVIRON` applied to its nannies; ``kwargs`` go to LocalCluster)."""
    import dask  # deferred: dask optional

    distributed = require_distributed("a Dask cluster")
    settings = {f"distributed.nanny.pre-spawn-environ.{k}": v for k, v in WORKER_ENVIRON.items()}
    # the workers' statistical profiler (stacks sampled every 10 ms, for the dashboard) costs each
    # worker a few % of a core, measured; the LocalCluster is for audits, with no dashboard by default
    settings["distributed.worker.profile.enabled"] = False
    # the system monitors of the scheduler and of each nanny run in the caller's process; their disk
    # counters and twice-a-second polls cost the caller ~2-3 % of a core on an idle cluster, taken from
    # the workers on a 2-core machine. Memory limits are still enforced, once a second.
    settings["distributed.admin.system-monitor.disk"] = False
    settings["distributed.admin.system-monitor.interval"] = "2s"
    settings["distributed.worker.memory.monitor-interval"] = "1s"
    opts = dict(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None)
    opts.update(kwargs)
    drop_nanny_leftovers()
    with dask.config.set(settings):  # read by each Nanny when it is created (and kept for restarts)
        return distributed.LocalCluster(**opts)
