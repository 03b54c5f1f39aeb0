"""Run proof files: every module of ``dpverify_proofs`` (the project's ``proofs/`` folder) or given paths.

A proof file defines ``claims() -> list[ClaimReport]`` (deterministic: seeds fixed). Its functions may cache
their checks within a process (a run in the other ``kernel_check`` mode clears those caches, :func:`clear_caches`).
The stages: find the modules (:mod:`dpverify.symbolic.proof_files`; :func:`proof_modules` and :func:`check_paths`
are re-exported here), run each one's ``claims()``, then apply its Coq theorems
(:func:`dpverify.symbolic.coq.apply_kernel_checks`). With ``kernel_check`` and ``coqc`` on the PATH, the ``.v`` files
the selected proof modules name (their ``COQ`` entries and ``kernel_step`` files) are compiled in a background thread,
one ``coqc`` at a time, while the modules' Python checks run (:func:`_start_prefetch`): a cold run then uses both
cores; the thread is joined before :func:`run_proofs` returns, and every later compile of a file finds its result
(``compile_file``'s per-file locks and cache), so verdicts do not depend on it.
"""
from __future__ import annotations

import re
import threading
import time
from pathlib import Path
from typing import Iterable

from ..errors import DPVerifyError, InvalidArgument
from .coq import apply_kernel_checks, coq_dir, coqc_path, compile_files, kernel_premises
from .proof_files import check_paths, proof_modules
from .verdicts import ClaimReport

__all__ = ["run_proofs", "proof_modules", "check_paths", "clear_caches"]


def run_proofs(paths: Iterable[str | Path] | None = None, progress=None, *, kernel_check: bool = True,
               on_reports=None) -> list[ClaimReport]:
    """Run ``claims()`` of every proof module (see :func:`proof_modules`); reports in file order.

    ``progress(message)`` (optional) is called before and after each module (the CLI prints on stderr).
    ``kernel_check``: apply the Coq theorems of ``proofs/coq/`` (``dpverify.symbolic.coq``); False gives
    the proof files' own verdicts. ``on_reports(reports)`` (optional) receives each module's final
    reports as soon as that module is done (the CLI streams its table with it)."""
    if not isinstance(kernel_check, bool):
        raise InvalidArgument(f"kernel_check={kernel_check!r} must be True or False.")
    reports: list[ClaimReport] = []
    modules = proof_modules(paths)
    # proof files cache their checks (functools.lru_cache); premises read through kernel_premise depend on
    # kernel_check, so a run in the other mode than the last one starts from empty caches
    if _LAST_MODE.get("kernel_check", kernel_check) != kernel_check:
        for module in modules:
            clear_caches(module)
    _LAST_MODE["kernel_check"] = kernel_check
    prefetch = _start_prefetch(modules) if kernel_check else None
    try:
        with kernel_premises(kernel_check):
            _run_modules(modules, reports, progress, kernel_check, on_reports)
    finally:
        if prefetch is not None:
            prefetch.join()
    ids = [r.id for r in reports]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise InvalidArgument(f"duplicate claim IDs across proof files: {dup}.")
    return reports


_LAST_MODE: dict = {}


def _start_prefetch(modules) -> threading.Thread | None:
    """Compile the ``.v`` files named in the source of ``modules`` (a proof file names each file its entries and steps
    use, as a string ``"Name.v"``; dependencies follow) in a background thread, one ``coqc`` at a time (the modules'
    Python checks keep the other core); None without ``coqc`` or without such a file."""
    if coqc_path() is None:
        return None
    named = (m for module in modules for m in _V_FILE.findall(Path(module.__file__).read_text()))
    names = [n for n in dict.fromkeys(named) if (coq_dir() / n).is_file()]
    if not names:
        return None
    thread = threading.Thread(target=_compile_quietly, args=(names,), name="dpverify-coq-prefetch", daemon=True)
    thread.start()
    return thread


_V_FILE = re.compile(r"[\"']([A-Za-z][A-Za-z0-9_]*\.v)[\"']")


def _compile_quietly(names: list[str]) -> None:
    try:
        compile_files(names, workers=1)
    except Exception:  # noqa: BLE001 -- only a head start: the proof files compile what they need and report its errors
        pass


def clear_caches(module) -> None:
    """Clear the checks a proof module caches (its own ``functools`` caches: every callable defined in it with a
    ``cache_clear``)."""
    for obj in list(vars(module).values()):
        if callable(getattr(obj, "cache_clear", None)) and getattr(obj, "__module__", None) == module.__name__:
            obj.cache_clear()


def _run_modules(modules, reports, progress, kernel_check, on_reports) -> None:
    for module in modules:
        started = time.perf_counter()
        if progress is not None:
            progress(f"proving {module.__name__} ...")
        fn = getattr(module, "claims", None)
        if not callable(fn):
            raise InvalidArgument(f"proof module {module.__name__!r} has no claims() function.")
        try:
            out = list(fn())
        except DPVerifyError:
            raise
        except Exception as exc:  # a broken proof file must not pass silently, nor crash with a traceback
            raise DPVerifyError(f"proof module {module.__name__!r}: claims() raised {type(exc).__name__}: {exc}") from exc
        for r in out:
            if not isinstance(r, ClaimReport):
                raise InvalidArgument(f"{module.__name__}.claims() returned {type(r).__name__}, not ClaimReport.")
        if kernel_check:  # the Coq theorems of proofs/coq/, when coqc is on the PATH
            out = apply_kernel_checks(out)
        if on_reports is not None:
            on_reports(out)
        reports.extend(out)
        if progress is not None:
            progress(f"  {module.__name__}: {len(out)} claims in {time.perf_counter() - started:.1f} s")


