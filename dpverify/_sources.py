"""Which source files a computation read, and a digest of them (internal).

Used to key stored results (the shipped premise verdicts, the proof-verdict cache, the generated
docs tables) by the sources that produced them: :func:`imported_files` lists the ``dpverify`` and
``dpverify_mechanisms`` modules imported so far (after a computation: every module whose code it
could have run; a module a later version newly imports is reached through a changed, listed
file), and :func:`files_digest` hashes a list of such names.
"""
from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path
from typing import Iterable

__all__ = ["package_roots", "imported_files", "files_digest"]

PACKAGES = ("dpverify", "dpverify_mechanisms", "dpverify_proofs")


def package_roots() -> dict[str, Path]:
    """``{package: folder}`` of the installed dpverify packages."""
    out = {}
    for pkg in PACKAGES:
        spec = importlib.util.find_spec(pkg)
        if spec is not None and spec.submodule_search_locations:
            out[pkg] = Path(list(spec.submodule_search_locations)[0]).resolve()
    return out


def imported_files(roots: dict[str, Path] | None = None,
                   packages: tuple[str, ...] = ("dpverify", "dpverify_mechanisms")) -> list[str]:
    """``package/relative/path.py`` of every module of ``packages`` imported so far, sorted."""
    roots = package_roots() if roots is None else roots
    names = set()
    for mod in list(sys.modules.values()):
        f = getattr(mod, "__file__", None)
        if not f or not f.endswith(".py"):
            continue
        path = Path(f).resolve()
        for pkg in packages:
            root = roots.get(pkg)
            if root is not None and path.is_relative_to(root):
                names.add(pkg + "/" + path.relative_to(root).as_posix())
    return sorted(names)


def files_digest(files: Iterable[str], roots: dict[str, Path] | None = None, *, salt: str = "") -> str | None:
    """SHA-256 over ``salt`` and each named file (name and content); None when one is missing."""
    roots = package_roots() if roots is None else roots
    h = hashlib.sha256(salt.encode() + b"\0")
    for name in sorted(set(files)):
        pkg, _, rel = name.partition("/")
        root = roots.get(pkg)
        path = None if root is None or not rel else root / rel
        if path is None or not path.is_file():
            return None
        h.update(name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return h.hexdigest()
