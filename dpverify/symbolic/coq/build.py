"""Compiling the ``.v`` files of ``proofs/coq/`` with ``coqc``: the build folder, its caches, and the tree in use.

* :func:`coqc_path` / :func:`coqc_version` -- the ``coqc`` in use (``$DPVERIFY_COQC``, else the PATH; an empty
  ``DPVERIFY_COQC`` means none: every check then says "Coq not available").
* :func:`coq_dir` -- the tree of ``.v`` files: ``coq/`` of the installed ``dpverify_proofs`` (the repository's
  ``proofs/coq/``), or the tree of an enclosing :func:`using_tree` block.
* :func:`build_dir` -- where ``.vo`` files go. For the shipped tree and a :func:`cache_root`: a folder keyed by coqc's
  version and the hash of every ``.v`` file, kept across processes (a stamp per file, written after coqc succeeded,
  says which source it was compiled from); any other tree gets a temporary folder removed at exit.
* :func:`compile_file` / :func:`compile_files` -- coqc on one file (its ``From DPVerify Require`` dependencies first,
  :func:`dependencies`), or on many (files without dependencies first, in parallel threads). Results are cached in
  this process per (coqc, build folder, file, content hash); :func:`compiled_results` shows them.
* :func:`compile_source` -- coqc on a scratch source that may load the compiled tree (queries, mutants); not cached.
* :func:`using_tree` / :func:`scratch_tree` -- another tree (a test's copy, a mutant) with a build folder of its own,
  for a block; :func:`clear_caches` -- forget this process's results (what a new process starts from).
* :func:`persistent_query` / :func:`save_query` -- query results (``Print Assumptions``, ``Check``, witnesses) kept in
  the persistent build folder beside the ``.vo`` files; :func:`process_cache` -- an in-process result cache that
  :func:`clear_caches` empties.
"""
from __future__ import annotations

import atexit
import enum
import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Iterator

from ...errors import InvalidArgument

__all__ = ["LOGICAL", "INSTALL_HINT", "DEFAULT_TIMEOUT", "CoqStatus", "CoqResult", "coq_dir", "coqc_path",
           "missing_libraries", "coqc_version", "cache_root", "build_dir", "tree_hash", "dependencies", "compile_file", "compile_files",
           "compile_source", "compiled_results", "using_tree", "scratch_tree", "clear_caches", "process_cache",
           "persistent_query", "save_query"]

#: The logical name under which ``proofs/coq/`` is loaded (``coqc -Q <dir> DPVerify``).
LOGICAL = "DPVerify"
INSTALL_HINT = "install coq libcoq-interval libcoq-coquelicot to kernel-check (Debian: apt-get install coq " \
               "libcoq-interval libcoq-coquelicot)"
DEFAULT_TIMEOUT = 300.0


class CoqStatus(str, enum.Enum):
    COMPILED = "compiled"
    FAILED = "failed"
    UNAVAILABLE = "coq not available"


@dataclass(frozen=True)
class CoqResult:
    file: str
    status: CoqStatus
    seconds: float = 0.0
    message: str = ""  # coqc's output (FAILED), or why Coq is not available
    coqc_version: str = ""

    @property
    def ok(self) -> bool:
        return self.status is CoqStatus.COMPILED

    def to_dict(self) -> dict:
        return {"file": self.file, "status": self.status.value, "seconds": round(self.seconds, 3),
                "message": self.message, "coqc_version": self.coqc_version}


def coq_dir() -> Path:
    """The folder of the ``.v`` files: the tree of the enclosing :func:`using_tree` block, else ``coq/`` of the
    installed ``dpverify_proofs``, else the repository's."""
    if "dir" in _TREE:
        return _TREE["dir"]
    spec = importlib.util.find_spec("dpverify_proofs")
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            cand = Path(loc) / "coq"
            if cand.is_dir():
                return cand
    return Path(__file__).resolve().parents[3] / "proofs" / "coq"


def coqc_path() -> str | None:
    """``$DPVERIFY_COQC`` if set (empty: none), else ``coqc`` on the PATH, else None."""
    env = os.environ.get("DPVERIFY_COQC")
    if env is not None:
        return shutil.which(env) if env.strip() else None
    return shutil.which("coqc")


_VERSIONS: dict[str, str] = {}


def coqc_version(coqc: str | None = None) -> str:
    coqc = coqc or coqc_path()
    if coqc is None:
        return ""
    if coqc not in _VERSIONS:
        try:
            out = subprocess.run([coqc, "--version"], capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.SubprocessError) as exc:
            out = f"unknown ({exc})"
        m = re.search(r"version\s+(\S+)", out)
        _VERSIONS[coqc] = m.group(1) if m else out.strip().splitlines()[0] if out.strip() else "unknown"
    return _VERSIONS[coqc]


#: the build folder in use (``dir``, and ``persistent`` for the shared cache); the tree of a :func:`using_tree` block
_BUILD: dict = {}
_TREE: dict = {}
#: compile results of this process, per (coqc, build folder, file name, content hash)
_CACHE: dict[tuple[str, str, str, str], CoqResult] = {}
#: every in-process result cache (:func:`process_cache`), emptied by :func:`clear_caches`
_PROCESS_CACHES: list[dict] = [_CACHE]
#: ``From DPVerify Require [Import|Export] A B ...`` -- the module list may span lines
_REQUIRE = re.compile(r"From\s+" + LOGICAL + r"\s+Require\s+(?:Import\s+|Export\s+)?([A-Za-z0-9_\s]+?)\s*\.")


def _default_coq_dir() -> Path:
    spec = importlib.util.find_spec("dpverify_proofs")
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            if (Path(loc) / "coq").is_dir():
                return (Path(loc) / "coq").resolve()
    return (Path(__file__).resolve().parents[3] / "proofs" / "coq").resolve()


def cache_root() -> Path | None:
    """The persistent build cache of the shipped ``proofs/coq/`` tree: ``$DPVERIFY_COQ_CACHE`` (a folder), else
    ``$XDG_CACHE_HOME/dpverify/coq`` (``~/.cache/dpverify/coq``); None when ``DPVERIFY_COQ_CACHE`` is ``0`` or empty."""
    env = os.environ.get("DPVERIFY_COQ_CACHE")
    if env is not None and env.strip() in ("", "0"):
        return None
    if env:
        return Path(env)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "dpverify" / "coq"


#: bumped whenever the meaning of a cached query result changes (the parsers of coqc's output, the checks run)
_CACHE_FORMAT = 1


def build_dir() -> Path:
    """Where ``.vo`` files go (chosen on first use, then kept until :func:`clear_caches` or the end of a
    :func:`using_tree` block). For the shipped tree (``coq_dir()`` is the package's own) and a cache root: a folder
    named by the hash of coqc's version and of every ``.v`` file of the tree, kept across processes, so a ``.vo`` in
    it was compiled from exactly these sources (a stamp per file, written after coqc succeeded, says so); any other
    tree (a test's copy, a mutant) gets a temporary folder removed at exit."""
    if "dir" not in _BUILD:
        root = cache_root()
        coqc = coqc_path()
        if root is not None and coqc is not None and coq_dir().resolve() == _default_coq_dir():
            key = hashlib.sha256(f"{_CACHE_FORMAT}\0{coqc}\0{coqc_version(coqc)}\0{tree_hash()}".encode()).hexdigest()[:24]
            d = root / key
            try:
                d.mkdir(parents=True, exist_ok=True)
                _BUILD.update(dir=d, persistent=True)
                return d
            except OSError:  # an unwritable cache: fall back to a temporary folder
                pass
        d = Path(tempfile.mkdtemp(prefix="dpverify-coq-"))
        atexit.register(shutil.rmtree, d, True)
        _BUILD["dir"] = d
    return _BUILD["dir"]


def _persistent() -> bool:
    build_dir()
    return bool(_BUILD.get("persistent"))


def _stamp(build: Path, name: str) -> Path:
    return build / f"{name}.dpverify-ok"


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)


def persistent_query(kind: str, key) -> object | None:
    """A query result (assumptions, types, witnesses) saved in the persistent build folder under ``repr(key)``, or
    None (none saved, or the build folder is temporary)."""
    if not _persistent():
        return None
    f = build_dir() / f"{kind}.json"
    try:
        return json.loads(f.read_text()).get(repr(key))
    except (OSError, ValueError):
        return None


def save_query(kind: str, key, value) -> None:
    """Save a JSON-ready query result under ``repr(key)`` in the persistent build folder (nothing for a temporary one)."""
    if not _persistent():
        return
    f = build_dir() / f"{kind}.json"
    with _file_lock(f"query:{kind}"):
        try:
            doc = json.loads(f.read_text()) if f.exists() else {}
        except (OSError, ValueError):
            doc = {}
        doc[repr(key)] = value
        try:
            _atomic_write(f, json.dumps(doc))
        except OSError:
            pass


def dependencies(source: str) -> list[str]:
    """The ``DPVerify`` modules a ``.v`` source requires (``From DPVerify Require [Import|Export] A B ...``, the
    module list possibly spanning lines), in order; other libraries' Requires are not among them."""
    return [name for m in _REQUIRE.finditer(source) for name in m.group(1).split()]


_LIBRARY_REQUIRE = re.compile(r"From\s+([A-Za-z][A-Za-z0-9_.]*)\s+Require\s+(?:Import\s+|Export\s+)?([A-Za-z0-9_\s]+?)\s*\.")
_WHERE: dict[str, Path | None] = {}


def _user_contrib(coqc: str) -> Path | None:
    if coqc not in _WHERE:
        try:
            out = subprocess.run([coqc, "-where"], capture_output=True, text=True, timeout=30).stdout.strip()
            _WHERE[coqc] = Path(out) / "user-contrib" if out else None
        except (OSError, subprocess.TimeoutExpired):
            _WHERE[coqc] = None
    return _WHERE[coqc]


def missing_libraries(source: str, coqc: str | None = None) -> list[str]:
    """The modules of other Coq libraries (not Coq's standard library, not ``DPVerify``) that ``source`` requires and
    that are not installed beside ``coqc`` (no ``<Module>.vo`` under ``coqc -where``/user-contrib/<Library>), as
    ``Library.Module``: e.g. ``mathcomp.matrix`` where Debian's libcoq-mathcomp-algebra is absent. Empty when coqc is
    absent (nothing to decide)."""
    coqc = coqc or coqc_path()
    root = _user_contrib(coqc) if coqc else None
    if root is None:
        return []
    out: list[str] = []
    seen: set[str] = set()
    todo = [source]
    while todo:  # the source and, through its DPVerify Requires, every file of the tree it loads
        src = todo.pop()
        for dep in dependencies(src):
            f = coq_dir() / f"{dep}.v"
            if dep not in seen and f.is_file():
                seen.add(dep)
                todo.append(f.read_text())
        for m in _LIBRARY_REQUIRE.finditer(src):
            lib = m.group(1)
            if lib in ("Coq", LOGICAL):
                continue
            base = root.joinpath(*lib.split("."))
            for mod in m.group(2).split():
                name = f"{lib}.{mod}"
                if name not in out and (not base.is_dir() or not any(base.rglob(f"{mod}.vo"))):
                    out.append(name)
    return out


def _run_coqc(coqc: str, build: Path, vfile: Path, timeout: float) -> tuple[bool, str, float]:
    cmd = [coqc, "-q", "-no-glob", "-Q", str(build), LOGICAL, str(vfile)]
    start = time.perf_counter()
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=str(build))
    except subprocess.TimeoutExpired:
        return False, f"coqc timed out after {timeout:g} s", time.perf_counter() - start
    except OSError as exc:
        return False, f"coqc could not run: {exc}", time.perf_counter() - start
    seconds = time.perf_counter() - start
    out = (proc.stdout + proc.stderr).strip()
    return proc.returncode == 0, out, seconds


def compile_file(name: str, *, timeout: float = DEFAULT_TIMEOUT, coqc: str | None = None,
                 _stack: tuple[str, ...] = ()) -> CoqResult:
    """Compile ``proofs/coq/<name>`` (and its ``From DPVerify Require`` dependencies first)."""
    if not isinstance(name, str) or not name.endswith(".v") or "/" in name:
        raise InvalidArgument(f"name={name!r} must be the name of a .v file in proofs/coq/ (e.g. 'Laplace.v').")
    if not (timeout > 0):
        raise InvalidArgument(f"timeout={timeout!r} must be a positive number of seconds.")
    src_path = coq_dir() / name
    if not src_path.is_file():
        raise InvalidArgument(f"name={name!r}: no such file {src_path}.")
    coqc = coqc or coqc_path()
    if coqc is None:
        return CoqResult(name, CoqStatus.UNAVAILABLE, message=f"Coq not available: {INSTALL_HINT}")
    source = src_path.read_text()
    # The build directory is part of the key: a result says "<name>.vo is in *this* directory", and a
    # cached success from another directory would send later queries to a missing .vo.
    key = (coqc, str(build_dir()), name, hashlib.sha256(source.encode()).hexdigest())
    if key in _CACHE:
        return _CACHE[key]
    if name in _stack:
        return CoqResult(name, CoqStatus.FAILED, message=f"circular Require: {' -> '.join(_stack + (name,))}")
    seconds = 0.0
    for dep in dependencies(source):
        r = compile_file(f"{dep}.v", timeout=timeout, coqc=coqc, _stack=_stack + (name,))
        if not r.ok:
            res = CoqResult(name, CoqStatus.FAILED if r.status is CoqStatus.FAILED else r.status, seconds,
                            f"dependency {dep}.v: {r.message}", coqc_version(coqc))
            _CACHE[key] = res
            return res
    # one compile per file at a time: two threads that both need a dependency (compile_files runs a wave of
    # files in parallel) must not write the same .v and .vo at once; the second finds the first's result.
    # Only this step holds the lock (dependencies are compiled before it), so no thread waits while holding one.
    with _file_lock(name):
        if key in _CACHE:
            return _CACHE[key]
        build = build_dir()
        target = build / name
        digest = hashlib.sha256(source.encode()).hexdigest()
        stamp = _stamp(build, name)
        with _process_lock(build, name):
            if _BUILD.get("persistent") and stamp.is_file() and (build / f"{name[:-2]}.vo").is_file() \
                    and stamp.read_text().split(" ")[0] == digest:
                # compiled by coqc from exactly this source, in an earlier process (the folder is keyed by the tree)
                res = CoqResult(name, CoqStatus.COMPILED, float(stamp.read_text().split(" ")[1]),
                                "cached build of this tree", coqc_version(coqc))
                _CACHE[key] = res
                return res
            target.write_text(source)
            ok, out, seconds = _run_coqc(coqc, build, target, timeout)
            if ok and _BUILD.get("persistent"):
                _atomic_write(stamp, f"{digest} {seconds:.3f}")
        res = CoqResult(name, CoqStatus.COMPILED if ok else CoqStatus.FAILED, seconds, out, coqc_version(coqc))
        _CACHE[key] = res
    return res


class _process_lock:  # noqa: N801 - a context manager
    """An advisory lock (``fcntl.flock``) on ``<build>/<name>.lock`` while one process compiles ``name`` into a shared
    persistent build folder; a no-op for a temporary folder or where ``fcntl`` is missing."""

    def __init__(self, build: Path, name: str):
        self.path = build / f"{name}.lock"
        self.fd = None

    def __enter__(self):
        if not _BUILD.get("persistent"):
            return self
        try:
            import fcntl

            self.fd = open(self.path, "w")
            fcntl.flock(self.fd, fcntl.LOCK_EX)
        except (ImportError, OSError):
            self.fd = None
        return self

    def __exit__(self, *exc):
        if self.fd is not None:
            import fcntl

            fcntl.flock(self.fd, fcntl.LOCK_UN)
            self.fd.close()
        return False


_LOCKS: dict[str, threading.Lock] = {}
_LOCKS_GUARD = threading.Lock()


def _file_lock(name: str) -> threading.Lock:
    with _LOCKS_GUARD:
        return _LOCKS.setdefault(name, threading.Lock())


def compile_files(names: Iterable[str], *, timeout: float = DEFAULT_TIMEOUT, coqc: str | None = None,
                  workers: int | None = None) -> dict[str, CoqResult]:
    """:func:`compile_file` for each name, files without dependencies first, in parallel (``workers``
    threads, default: the CPU count, at most 4)."""
    names = list(dict.fromkeys(names))
    coqc = coqc or coqc_path()
    if coqc is None:
        return {n: compile_file(n, timeout=timeout, coqc=None) for n in names}
    leaves = [n for n in names if (coq_dir() / n).is_file() and not dependencies((coq_dir() / n).read_text())]
    rest = [n for n in names if n not in leaves]
    workers = workers or min(4, os.cpu_count() or 1)
    out: dict[str, CoqResult] = {}
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for wave in (leaves, rest):
            for n, r in zip(wave, pool.map(lambda n: compile_file(n, timeout=timeout, coqc=coqc), wave)):
                out[n] = r
    return out


def compile_source(source: str, *, module: str = "Scratch", timeout: float = DEFAULT_TIMEOUT,
                   coqc: str | None = None) -> CoqResult:
    """Compile ``source`` as ``<module>.v`` in a fresh temporary directory that can load the manifest's
    compiled files (``From DPVerify Require``). Not cached: used for mutants and assumption queries."""
    if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", module or ""):
        raise InvalidArgument(f"module={module!r} must be a Coq module name (letters, digits, '_').")
    coqc = coqc or coqc_path()
    if coqc is None:
        return CoqResult(f"{module}.v", CoqStatus.UNAVAILABLE, message=f"Coq not available: {INSTALL_HINT}")
    for dep in dependencies(source):
        r = compile_file(f"{dep}.v", timeout=timeout, coqc=coqc)
        if not r.ok:
            return CoqResult(f"{module}.v", r.status, 0.0, f"dependency {dep}.v: {r.message}", coqc_version(coqc))
    with tempfile.TemporaryDirectory(prefix="dpverify-coq-scratch-") as tmp:
        vfile = Path(tmp) / f"{module}.v"
        vfile.write_text(source)
        cmd = [coqc, "-q", "-no-glob", "-Q", str(build_dir()), LOGICAL, str(vfile)]
        start = time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=tmp)
            ok, out = proc.returncode == 0, (proc.stdout + proc.stderr).strip()
        except subprocess.TimeoutExpired:
            ok, out = False, f"coqc timed out after {timeout:g} s"
        seconds = time.perf_counter() - start
    return CoqResult(f"{module}.v", CoqStatus.COMPILED if ok else CoqStatus.FAILED, seconds, out, coqc_version(coqc))


def tree_hash() -> str:
    """One hash of every ``.v`` file of the tree in use (:func:`coq_dir`; names and contents)."""
    h = hashlib.sha256()
    for f in sorted(coq_dir().glob("*.v")):
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def compiled_results() -> dict[tuple[str, str, str, str], CoqResult]:
    """A copy of this process's compile results, keyed by (coqc, build folder, file name, sha256 of the source)."""
    return dict(_CACHE)


def process_cache() -> dict:
    """A new in-process result cache (a dict) that :func:`clear_caches` empties (the query modules keep theirs here)."""
    d: dict = {}
    _PROCESS_CACHES.append(d)
    return d


def clear_caches() -> None:
    """Forget this process's choice of build folder and every in-process result (compilations, ``Print Assumptions``,
    types, witnesses): what a new process starts from. The persistent cache on disk is left as it is (a new process
    finds it, and trusts a ``.vo`` only with a stamp of its source)."""
    _BUILD.clear()
    for d in _PROCESS_CACHES:
        d.clear()


@contextmanager
def using_tree(path: str | Path | None = None) -> Iterator[Path]:
    """For the block, :func:`coq_dir` is ``path`` (default: the tree in use) and the build folder is chosen afresh
    (:func:`build_dir`: a new temporary folder for any tree but the shipped one); both are restored after. Compile
    results stay cached per build folder, so nothing compiled in the block is mistaken for the outer folder's."""
    tree = coq_dir() if path is None else Path(path)
    if not tree.is_dir():
        raise InvalidArgument(f"path={str(path)!r} must be a folder of .v files.")
    saved = (dict(_TREE), dict(_BUILD))
    _TREE["dir"] = tree
    _BUILD.clear()
    try:
        yield tree
    finally:
        _TREE.clear()
        _TREE.update(saved[0])
        _BUILD.clear()
        _BUILD.update(saved[1])


@contextmanager
def scratch_tree(edits: Iterable[tuple[str, str]] = ()) -> Iterator[Path]:
    """For the block: a copy of the tree in use with ``edits`` (``(file name, new content)``) applied, compiled in a
    fresh build folder (:func:`using_tree`). The compiled files of every ``.v`` file that neither was edited nor depends
    (transitively) on an edited one are copied from the current build folder and recorded compiled, so a mutant
    recompiles only what it changed (coqc itself refuses a ``.vo`` whose dependencies changed)."""
    edits = list(edits)
    old_build = _BUILD.get("dir")
    with tempfile.TemporaryDirectory(prefix="dpverify-mapping-") as tmp:
        src = Path(tmp) / "coq"
        shutil.copytree(coq_dir(), src)
        for name, text in edits:
            (src / name).write_text(text)
        with using_tree(src):
            _seed_unaffected(old_build, src, {name for name, _ in edits})
            yield src


def _seed_unaffected(old_build, src: Path, edited: set) -> None:
    """Copy the unaffected compiled files of ``old_build`` into the current build folder (see :func:`scratch_tree`).
    Nothing is seeded without a previous build folder."""
    if old_build is None or not Path(old_build).is_dir():
        return
    deps = {f.name: {f"{d}.v" for d in dependencies(f.read_text())} for f in src.glob("*.v")}
    affected = set(edited)
    changed = True
    while changed:
        changed = False
        for name, ds in deps.items():
            if name not in affected and ds & affected:
                affected.add(name)
                changed = True
    build = build_dir()
    coqc = coqc_path()
    for name in deps:
        vo = Path(old_build) / f"{name[:-2]}.vo"
        if name in affected or not vo.is_file():
            continue
        shutil.copy2(vo, build / vo.name)
        source = (src / name).read_text()
        key = (coqc, str(build), name, hashlib.sha256(source.encode()).hexdigest())
        _CACHE[key] = CoqResult(name, CoqStatus.COMPILED, 0.0, "copied from the unmutated build", coqc_version(coqc))
