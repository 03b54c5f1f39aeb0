"""Batched execution with an optional progress bar (tqdm, imported lazily; silent if absent)."""
from __future__ import annotations

from concurrent.futures import Executor
from typing import Any, Callable, Sequence

from . import _runner

__all__ = ["run_batches", "PROGRESS_THRESHOLD"]

#: Total outputs of a run above which ``progress=None`` ("auto") shows a bar.
PROGRESS_THRESHOLD = 5_000_000


def _bar(total: int, desc: str):
    try:
        from tqdm.auto import tqdm  # optional extra `progress`
    except ImportError:
        return None
    return tqdm(total=total, desc=desc, unit="batch", leave=False)


def run_batches(func: Callable, tasks: Sequence[tuple], executor: Any, progress: Any, desc: str = "audit") -> list:
    """``[func(*t) for t in tasks]`` (through ``executor`` if given), ticking a bar when ``progress``.

    ``progress`` is True (a bar if tqdm is installed), False/None (no bar) or a callable
    ``progress(done, total)`` called after each batch. Order and results do not depend on it.
    """
    if not progress:
        return _runner.run_batches(func, tasks, executor)
    callback = progress if callable(progress) else None
    bar = None if callback else _bar(len(tasks), desc)
    if callback is None and bar is None:
        return _runner.run_batches(func, tasks, executor)
    out = []
    try:
        if executor is None:
            it = (func(*t) for t in tasks)
        else:
            if not isinstance(executor, Executor):
                return _runner.run_batches(func, tasks, executor)  # raises its InvalidArgument
            futures = [executor.submit(func, *t) for t in tasks]  # waited for in slices: Ctrl-C, hard deadline
            it = (_runner._result_waking(f) for f in futures)
        for i, r in enumerate(it, 1):
            out.append(r)
            if bar is not None:
                bar.update(1)
            else:
                callback(i, len(tasks))
    finally:
        if bar is not None:
            bar.close()
    return out
