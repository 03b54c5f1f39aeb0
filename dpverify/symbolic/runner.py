"""Run proof files: every module of ``dpverify_proofs`` (the project's ``proofs/`` folder) or given paths.

A proof file defines ``claims() -> list[ClaimReport]`` (deterministic: seeds fixed). Its functions may cache
their checks within a process (a run in the other ``kernel_check`` mode clears those caches).
"""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys
from pathlib import Path
from typing import Iterable

from ..errors import DPVerifyError, InvalidArgument
from .verdicts import ClaimReport

__all__ = ["run_proofs", "proof_modules", "check_paths"]

PACKAGE = "dpverify_proofs"


def _load_path(path: Path):
    if not path.is_file() or path.suffix != ".py":
        raise InvalidArgument(f"path={str(path)!r} must be an existing .py proof file.")
    name = f"_dpverify_proof_{abs(hash(str(path.resolve())))}"
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    finally:
        sys.modules.pop(name, None)
    return module


def check_paths(paths: Iterable[str | Path] | None) -> None:
    """Raise :class:`InvalidArgument` for a path that is neither a ``.py`` file nor a folder holding proof files (what
    :func:`proof_modules` would load), before anything runs."""
    for p in paths or ():
        p = Path(p)
        if p.is_dir():
            if not [f for f in p.glob("*.py") if not f.name.startswith("_")]:
                raise InvalidArgument(f"path={str(p)!r} is a folder without proof files (no *.py file whose name does "
                                      "not start with '_'); pass proof files or a folder of them, or no path for "
                                      "every shipped proof.")
        elif not (p.is_file() and p.suffix == ".py"):
            raise InvalidArgument(f"path={str(p)!r} must be an existing .py proof file or a folder of them.")


def proof_modules(paths: Iterable[str | Path] | None = None) -> list:
    """The proof modules: those at ``paths`` (files, or folders of ``*.py``), else every module of ``dpverify_proofs``."""
    if paths:
        mods = []
        for p in paths:
            p = Path(p)
            if p.is_dir():
                files = [f for f in sorted(p.glob("*.py")) if not f.name.startswith("_")]
                if not files:
                    raise InvalidArgument(f"path={str(p)!r} is a folder without proof files (no *.py file whose name does "
                                          "not start with '_'); pass proof files or a folder of them, or no path for "
                                          "every shipped proof.")
                mods += [_load_path(f) for f in files]
            else:
                mods.append(_load_path(p))
        return mods
    try:
        pkg = importlib.import_module(PACKAGE)
    except ImportError as exc:
        raise InvalidArgument(f"the proofs package {PACKAGE!r} is not installed ({exc}); pass proof file paths.") from None
    return [importlib.import_module(f"{PACKAGE}.{m.name}") for m in pkgutil.iter_modules(pkg.__path__)
            if not m.name.startswith("_")]


def run_proofs(paths: Iterable[str | Path] | None = None, progress=None, *, kernel_check: bool = True,
               on_reports=None) -> list[ClaimReport]:
    """Run ``claims()`` of every proof module (see :func:`proof_modules`); reports in file order.

    ``progress(message)`` (optional) is called before and after each module (the CLI prints on stderr).
    ``kernel_check``: apply the Coq theorems of ``proofs/coq/`` (``dpverify.symbolic.coq``); False gives
    the proof files' own verdicts. ``on_reports(reports)`` (optional) receives each module's final
    reports as soon as that module is done (the CLI streams its table with it)."""
    from .coq import kernel_premises

    if not isinstance(kernel_check, bool):
        raise InvalidArgument(f"kernel_check={kernel_check!r} must be True or False.")
    reports: list[ClaimReport] = []
    modules = proof_modules(paths)
    # proof files cache their checks (functools.lru_cache); premises read through kernel_premise depend on
    # kernel_check, so a run in the other mode than the last one starts from empty caches
    if _LAST_MODE.get("kernel_check", kernel_check) != kernel_check:
        for module in modules:
            _clear_caches(module)
    _LAST_MODE["kernel_check"] = kernel_check
    with kernel_premises(kernel_check):
        _run_modules(modules, reports, progress, kernel_check, on_reports)
    ids = [r.id for r in reports]
    dup = sorted({i for i in ids if ids.count(i) > 1})
    if dup:
        raise InvalidArgument(f"duplicate claim IDs across proof files: {dup}.")
    return reports


_LAST_MODE: dict = {}


def _clear_caches(module) -> None:
    for obj in list(vars(module).values()):
        if callable(getattr(obj, "cache_clear", None)) and getattr(obj, "__module__", None) == module.__name__:
            obj.cache_clear()


def _run_modules(modules, reports, progress, kernel_check, on_reports) -> None:
    import time

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
        if kernel_check:
            from .coq import apply_kernel_checks  # Coq theorems of proofs/coq/, when coqc is on the PATH
            out = apply_kernel_checks(out)
        if on_reports is not None:
            on_reports(out)
        reports.extend(out)
        if progress is not None:
            progress(f"  {module.__name__}: {len(out)} claims in {time.perf_counter() - started:.1f} s")
