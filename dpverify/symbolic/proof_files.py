"""Finding the proof files: every module of ``dpverify_proofs`` (the project's ``proofs/`` folder), or given paths.

A proof file is a Python module that defines ``claims() -> list[ClaimReport]`` and, where it has them, ``statements()``
(its encoded statements, for the mutation campaign) and ``COQ`` (its Coq theorems, for the manifest of
:mod:`dpverify.symbolic.coq`). This module only finds and loads them (a leaf: the runner, the Coq manifest and the
mutation campaign all read the proof files through it).
"""
from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import sys
from pathlib import Path
from typing import Iterable

from ..errors import InvalidArgument

__all__ = ["PACKAGE", "proof_modules", "check_paths", "load_path"]

#: the installed name of the project's ``proofs/`` folder
PACKAGE = "dpverify_proofs"


def load_path(path: str | Path):
    """The proof module at ``path`` (a ``.py`` file), loaded under a private name that is not left in ``sys.modules``."""
    path = Path(path)
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
                mods += [load_path(f) for f in files]
            else:
                mods.append(load_path(p))
        return mods
    try:
        pkg = importlib.import_module(PACKAGE)
    except ImportError as exc:
        raise InvalidArgument(f"the proofs package {PACKAGE!r} is not installed ({exc}); pass proof file paths.") from None
    return [importlib.import_module(f"{PACKAGE}.{m.name}") for m in pkgutil.iter_modules(pkg.__path__)
            if not m.name.startswith("_")]
