"""Kernel-checked proofs: the Coq theorems under ``proofs/coq/`` and the claims they settle.

* :data:`MANIFEST` -- one :class:`CoqEntry` per (claim id, Coq theorem), gathered from the ``COQ`` declarations of the
  proof files (``proofs/<paper>.py``: each theorem declared at the claim it serves): the ``.v`` file, the theorem,
  a one-line statement in the claim's own parameters, and its :class:`Coverage` (``CLAIM``: the
  theorem is the claim's conclusion; ``STEP``: it is one step of the claim's proof, or the claim on a
  restricted domain, so the claim keeps its own verdict and the report names the step).
* :func:`compile_file` -- run ``coqc`` on one file (its ``From DPVerify Require`` dependencies first),
  in a temporary directory of this process (the repository gets no ``.vo``/``.glob`` files); results
  are cached per file content hash inside one process. Returns a :class:`CoqResult`: compiled,
  failed (with coqc's message) or Coq not available.
* :func:`assumptions` -- ``Print Assumptions`` of theorems, parsed; :func:`disallowed_axioms` keeps
  the axioms outside :data:`ALLOWED_AXIOMS` (the standard library's classical reals and the kernel's
  primitive-arithmetic specifications used by the Interval library).
* :func:`apply_kernel_checks` -- the hook of :func:`dpverify.symbolic.run_proofs`: a claim whose ``CLAIM`` theorem
  compiles with allowed axioms, whose type as ``coqc`` prints it is the claim's formal statement (``CoqEntry.checks``,
  :func:`theorem_types`) and whose non-vacuity witness passes (:func:`check_witnesses`) is reported ``kernel-checked``
  naming the theorem, the file and the printed type -- ``given`` the entry's ``premises`` and capped by its
  ``claim_premises`` -- unless the claim's own verdict is ``refuted`` (then the contradiction is reported in the
  evidence, never hidden). Otherwise the claim keeps its verdict and the evidence says why (Coq not available, did
  not compile, other axioms, STATEMENT MISMATCH, hypotheses NOT shown satisfiable).
* :func:`kernel_premise` -- for a proof file whose claim rests on another claim: that claim's conclusion
  as :func:`apply_kernel_checks` reports it, so a premise settled in Coq counts as ``kernel-checked``
  in the claims that rest on it (and only when its Coq theorem is actually checked in this run).

* :func:`check_witnesses` -- non-vacuity: each ``CLAIM`` theorem's witness ``<theorem>_hyps_satisfiable``
  (``proofs/coq/Witnesses*.v``) proves, at a concrete instance, exactly the theorem's hypotheses (compared with
  ``WitnessShape.hyps_of`` of the theorem's type by ``constr_eq``), with the classical reals only. It runs in every
  :func:`apply_kernel_checks` (``witnesses=False`` skips it, and then nothing is promoted).

``coqc`` is found on the PATH, or named by the environment variable ``DPVERIFY_COQC``.
"""
from __future__ import annotations

import atexit
import contextvars
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
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Iterable, Sequence

from ..errors import InvalidArgument
from .proof import fact, merge_domains, weakest
from .verdicts import CheckResult, ClaimReport, Premise, ProofVerdict

__all__ = ["Coverage", "CoqEntry", "CoqStatus", "CoqResult", "MANIFEST", "ALLOWED_AXIOMS", "INSTALL_HINT",
           "coq_dir", "coqc_path", "coqc_version", "compile_file", "compile_files", "compile_source", "assumptions",
           "disallowed_axioms", "entries_for", "apply_kernel_checks", "kernel_premise",
           "kernel_premises", "kernel_step", "WITNESS_SUFFIX", "WitnessStatus", "WitnessCheck", "witness_files", "witness_for",
           "witness_check_source", "run_witness_checks", "check_witnesses", "theorem_types", "normalise_type",
           "SPECTRAL", "RAYLEIGH", "DET_LAWS", "INTEGRATION", "LAPLACE_BRIDGE", "cache_root"]

#: The logical name under which ``proofs/coq/`` is loaded (``coqc -Q <dir> DPVerify``).
LOGICAL = "DPVerify"
INSTALL_HINT = "install coq libcoq-interval libcoq-coquelicot to kernel-check (Debian: apt-get install coq " \
               "libcoq-interval libcoq-coquelicot)"
DEFAULT_TIMEOUT = 300.0

#: Axioms a kernel-checked theorem may rest on: the standard library's classical real numbers
#: (Coq.Reals: excluded middle, the two decidability axioms of ClassicalDedekindReals, functional
#: extensionality), and the kernel's specifications of its primitive 63-bit integers and binary64
#: floats, which the Interval library's reflexive tactic computes with.
ALLOWED_AXIOMS = (
    re.compile(r"^ClassicalDedekindReals\.sig_(not_dec|forall_dec)$"),
    re.compile(r"^FunctionalExtensionality\.functional_extensionality_dep$"),
    re.compile(r"^Classical_Prop\.classic$"),
    re.compile(r"^(PrimInt63|PrimFloat|Uint63|FloatAxioms)\.[A-Za-z0-9_]+$"),
)


class Coverage(str, enum.Enum):
    """How much of a claim a Coq theorem settles."""

    CLAIM = "claim"  # the claim's conclusion, in its own parameters
    STEP = "step"  # one step of its proof, or the claim on a restricted domain: the claim keeps its verdict


@dataclass(frozen=True)
class CoqEntry:
    """One (claim, Coq theorem) pair.

    ``checks`` (``CLAIM`` entries): the claim's formal statement, i.e. the theorem's type exactly as ``coqc`` must print
    it (``Check``; compared after :func:`normalise_type`): a theorem whose type differs -- weaker, other hypotheses,
    another theorem -- never makes the claim ``kernel-checked``. ``premises``: what the theorem takes as hypotheses
    beyond the claim's own (the spectral theorem, the laws of det, ...): the verdict is then ``kernel-checked given``
    them. ``claim_premises``: other claims whose conclusions the theorem takes as hypotheses; the verdict is capped at
    the weakest of their verdicts (the weakest-premise rule)."""

    claim_id: str
    file: str  # a file name in proofs/coq/
    theorem: str
    statement: str  # one line: what the theorem proves, in the claim's own parameters
    coverage: Coverage
    checks: str = ""
    premises: tuple[Premise, ...] = ()
    claim_premises: tuple[str, ...] = ()

    def __post_init__(self):
        if not isinstance(self.coverage, Coverage):
            raise InvalidArgument(f"coverage={self.coverage!r} must be a Coverage member (Coverage.CLAIM or Coverage.STEP).")
        if not self.file.endswith(".v") or "/" in self.file:
            raise InvalidArgument(f"file={self.file!r} must be the name of a .v file in proofs/coq/.")
        if any(not isinstance(x, Premise) for x in self.premises):
            raise InvalidArgument(f"premises={self.premises!r} must be Premise values.")
        object.__setattr__(self, "premises", tuple(self.premises))
        object.__setattr__(self, "claim_premises", tuple(self.claim_premises))
        object.__setattr__(self, "checks", normalise_type(self.checks))

    @property
    def where(self) -> str:
        return f"{self.theorem} (proofs/coq/{self.file})"


def normalise_type(text: str) -> str:
    """A Coq type as printed, compared modulo whitespace (line breaks of the printer, indentation)."""
    if not isinstance(text, str):
        raise InvalidArgument(f"text={text!r} must be a string (a Coq type).")
    return " ".join(text.split())


#: Premises the Coq theorems take as hypotheses (named in the verdict: ``kernel-checked given ...``).
SPECTRAL = fact("spectral theorem: every real symmetric matrix has an orthonormal eigendecomposition (the theorem takes "
                "the decompositions as hypotheses)", "e.g. Horn & Johnson, Matrix Analysis, Thm 4.1.5")
RAYLEIGH = fact("Rayleigh-Ritz: lambda_min(S) |x|^2 <= x^T S x, |x^T D x| <= ||D||_2 |x|^2, sigma_min(X)^2 |x|^2 <= |Xx|^2 "
                "for all x (the theorem takes these bounds as hypotheses)", "e.g. Horn & Johnson, Matrix Analysis, Thm 4.2.2")
DET_LAWS = fact("laws of the determinant: det(AB) = det A det B, det(diag f) = prod f_i, det(A^T) = det A (the theorem takes "
                "any function with these laws)")
INTEGRATION = fact("a pointwise bound on the log density ratio integrates to P(M(S) in E) <= e^eps P(M(S') in E) for every "
                   "measurable E (monotonicity of the integral; its finite-space form is FiniteDP.dp_of_pointwise)")

LAPLACE_BRIDGE = ("at every output; integrating the pointwise bound over an event gives the DP inequality "
                   "(that measure-theoretic step is not in Coq; its finite-space form is FiniteDP.dp_of_pointwise)")

#: The paper-key order of the proof files (``dpverify_proofs``); the manifest follows it.
_PROOF_ORDER = ("lecture21_dp", "jiang_wishart", "showkatbakhsh_regression", "tu_projections", "zhou_compression")


def _gather_manifest() -> tuple[CoqEntry, ...]:
    """Every proof file's ``COQ`` declarations (each Coq theorem is declared at the claim it serves, in
    ``proofs/<paper>.py``), in :data:`_PROOF_ORDER` and then any other proof module's."""
    from .runner import proof_modules

    try:
        mods = proof_modules()
    except InvalidArgument:  # the proofs package is not installed: no Coq declarations
        return ()
    mods.sort(key=lambda m: (_PROOF_ORDER.index(m.__name__.rsplit(".", 1)[-1])
                             if m.__name__.rsplit(".", 1)[-1] in _PROOF_ORDER else len(_PROOF_ORDER), m.__name__))
    out = []
    for m in mods:
        for e in getattr(m, "COQ", ()):
            if not isinstance(e, CoqEntry):
                raise InvalidArgument(f"{m.__name__}.COQ holds {e!r}, not a CoqEntry.")
            out.append(e)
    return tuple(out)


def _manifest() -> tuple[CoqEntry, ...]:
    """:data:`MANIFEST` (a value assigned to ``coq.MANIFEST``, e.g. by a test, wins)."""
    if "MANIFEST" not in globals():
        globals()["MANIFEST"] = _gather_manifest()
    return globals()["MANIFEST"]


def __getattr__(name):  # MANIFEST is gathered from the proof files on first use
    if name == "MANIFEST":
        return _manifest()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def entries_for(claim_id: str) -> list[CoqEntry]:
    """The manifest entries of ``claim_id`` (possibly none)."""
    return [e for e in _manifest() if e.claim_id == claim_id]


# ---------------------------------------------------------------------------------------------- coqc


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
    """The folder of the ``.v`` files: ``coq/`` of the installed ``dpverify_proofs``, else the repository's."""
    spec = importlib.util.find_spec("dpverify_proofs")
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            cand = Path(loc) / "coq"
            if cand.is_dir():
                return cand
    return Path(__file__).resolve().parents[2] / "proofs" / "coq"


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


_BUILD: dict[str, Path] = {}
_CACHE: dict[tuple[str, str, str, str], CoqResult] = {}
#: ``From DPVerify Require [Import|Export] A B ...`` -- the module list may span lines
_REQUIRE = re.compile(r"From\s+" + LOGICAL + r"\s+Require\s+(?:Import\s+|Export\s+)?([A-Za-z0-9_\s]+?)\s*\.")


def _default_coq_dir() -> Path:
    spec = importlib.util.find_spec("dpverify_proofs")
    if spec is not None and spec.submodule_search_locations:
        for loc in spec.submodule_search_locations:
            if (Path(loc) / "coq").is_dir():
                return (Path(loc) / "coq").resolve()
    return (Path(__file__).resolve().parents[2] / "proofs" / "coq").resolve()


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


def _build_dir() -> Path:
    """Where ``.vo`` files go. For the shipped tree (``coq_dir()`` is the package's own) and a cache root: a folder
    named by the hash of coqc's version and of every ``.v`` file of the tree, kept across processes, so a ``.vo`` in
    it was compiled from exactly these sources (a stamp per file, written after coqc succeeded, says so); any other
    tree (a test's copy, a mutant) gets a temporary folder removed at exit."""
    if "dir" not in _BUILD:
        root = cache_root()
        coqc = coqc_path()
        if root is not None and coqc is not None and coq_dir().resolve() == _default_coq_dir():
            key = hashlib.sha256(f"{_CACHE_FORMAT}\0{coqc}\0{coqc_version(coqc)}\0{_tree_hash()}".encode()).hexdigest()[:24]
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
    _build_dir()
    return bool(_BUILD.get("persistent"))


def _stamp(build: Path, name: str) -> Path:
    return build / f"{name}.dpverify-ok"


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    tmp.write_text(text)
    os.replace(tmp, path)


def _query_cache_get(kind: str, key) -> object | None:
    """A query result (assumptions, types, witnesses) saved in the persistent build folder, or None."""
    if not _persistent():
        return None
    f = _build_dir() / f"{kind}.json"
    try:
        return json.loads(f.read_text()).get(repr(key))
    except (OSError, ValueError):
        return None


def _query_cache_put(kind: str, key, value) -> None:
    if not _persistent():
        return
    f = _build_dir() / f"{kind}.json"
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


def _deps(source: str) -> list[str]:
    return [name for m in _REQUIRE.finditer(source) for name in m.group(1).split()]


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
    key = (coqc, str(_build_dir()), name, hashlib.sha256(source.encode()).hexdigest())
    if key in _CACHE:
        return _CACHE[key]
    if name in _stack:
        return CoqResult(name, CoqStatus.FAILED, message=f"circular Require: {' -> '.join(_stack + (name,))}")
    seconds = 0.0
    for dep in _deps(source):
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
        build = _build_dir()
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
    leaves = [n for n in names if (coq_dir() / n).is_file() and not _deps((coq_dir() / n).read_text())]
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
    for dep in _deps(source):
        r = compile_file(f"{dep}.v", timeout=timeout, coqc=coqc)
        if not r.ok:
            return CoqResult(f"{module}.v", r.status, 0.0, f"dependency {dep}.v: {r.message}", coqc_version(coqc))
    with tempfile.TemporaryDirectory(prefix="dpverify-coq-scratch-") as tmp:
        vfile = Path(tmp) / f"{module}.v"
        vfile.write_text(source)
        cmd = [coqc, "-q", "-no-glob", "-Q", str(_build_dir()), LOGICAL, str(vfile)]
        start = time.perf_counter()
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=tmp)
            ok, out = proc.returncode == 0, (proc.stdout + proc.stderr).strip()
        except subprocess.TimeoutExpired:
            ok, out = False, f"coqc timed out after {timeout:g} s"
        seconds = time.perf_counter() - start
    return CoqResult(f"{module}.v", CoqStatus.COMPILED if ok else CoqStatus.FAILED, seconds, out, coqc_version(coqc))


_MARK = "@@dpverify-theorem "


def assumptions(items: Sequence[tuple[str, str]], *, timeout: float = DEFAULT_TIMEOUT,
                coqc: str | None = None) -> dict[tuple[str, str], tuple[str, ...]] | CoqResult:
    """``Print Assumptions`` of each ``(file, theorem)``: the axiom names it rests on (empty: closed).

    One ``coqc`` run for all items. Returns the failed/unavailable :class:`CoqResult` instead when the
    query does not compile."""
    items = list(dict.fromkeys(items))
    coqc = coqc or coqc_path()
    key = ("assumptions", coqc, tuple(items),
           tuple(hashlib.sha256((coq_dir() / f).read_bytes()).hexdigest() for f in sorted({f for f, _ in items})))
    if key not in _ASSUMPTIONS:
        saved = _query_cache_get("assumptions", key)
        if isinstance(saved, list):
            _ASSUMPTIONS[key] = {(f, t): tuple(ax) for f, t, ax in saved}
        else:
            _ASSUMPTIONS[key] = _assumptions(items, timeout=timeout, coqc=coqc)
            if isinstance(_ASSUMPTIONS[key], dict):
                _query_cache_put("assumptions", key, [[f, t, list(ax)] for (f, t), ax in _ASSUMPTIONS[key].items()])
    return _ASSUMPTIONS[key]


_ASSUMPTIONS: dict = {}


def _assumptions(items, *, timeout, coqc):
    mods = sorted({f[:-2] for f, _ in items})
    lines = [f"From {LOGICAL} Require {' '.join(mods)}."]
    for f, thm in items:
        lines.append(f'Goal True. idtac "{_MARK}{f} {thm}". exact I. Abort.')
        lines.append(f"Print Assumptions {f[:-2]}.{thm}.")
    res = compile_source("\n".join(lines) + "\n", module="DPVerifyAssumptions", timeout=timeout, coqc=coqc)
    if not res.ok:
        return res
    out: dict[tuple[str, str], list[str]] = {}
    current = None
    for line in res.message.splitlines():
        if line.startswith(_MARK):
            f, thm = line[len(_MARK):].split()
            current = out.setdefault((f, thm), [])
            continue
        if current is None or not line or line[0].isspace() or line.startswith(("Axioms:", "Closed under")):
            continue
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_.']*)\s*(?::|$)", line)
        if m:
            current.append(m.group(1))
    missing = [it for it in items if it not in out]
    if missing:
        return CoqResult("DPVerifyAssumptions.v", CoqStatus.FAILED, res.seconds,
                         f"no Print Assumptions output for {missing}: {res.message[:500]}", res.coqc_version)
    return {k: tuple(v) for k, v in out.items()}


_TMARK = "@@dpverify-type "
_TYPES: dict = {}


def theorem_types(items: Sequence[tuple[str, str]], *, timeout: float = DEFAULT_TIMEOUT,
                  coqc: str | None = None) -> dict[tuple[str, str], str] | CoqResult:
    """The type of each ``(file, theorem)`` as ``coqc`` prints it (``Check``, the real numbers' notations open, the
    theorem's own module imported, printing width unbounded), :func:`normalise_type`-d. One ``coqc`` run for all items,
    cached per content of every ``.v`` file in this process. The failed/unavailable :class:`CoqResult` instead when the
    query does not compile (e.g. no such theorem)."""
    items = list(dict.fromkeys(items))
    for f, t in items:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_']*", t) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*\.v", f):
            raise InvalidArgument(f"(file, theorem)={(f, t)!r} must name a .v file of proofs/coq/ and a Coq identifier.")
    coqc = coqc or coqc_path()
    if coqc is None:
        return CoqResult("DPVerifyTypes.v", CoqStatus.UNAVAILABLE, message=f"Coq not available: {INSTALL_HINT}")
    key = ("types", coqc, tuple(items), _tree_hash())
    if key not in _TYPES:
        saved = _query_cache_get("types", key)
        if isinstance(saved, list):
            _TYPES[key] = {(f, t): ty for f, t, ty in saved}
        else:
            _TYPES[key] = _theorem_types(items, timeout=timeout, coqc=coqc)
            if isinstance(_TYPES[key], dict):
                _query_cache_put("types", key, [[f, t, ty] for (f, t), ty in _TYPES[key].items()])
    return _TYPES[key]


def _tree_hash() -> str:
    """One hash of every ``.v`` file of ``proofs/coq/`` (names and contents)."""
    h = hashlib.sha256()
    for f in sorted(coq_dir().glob("*.v")):
        h.update(f.name.encode() + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()


def _theorem_types(items, *, timeout, coqc):
    mods = sorted({f[:-2] for f, _ in items})
    lines = ["From Coq Require Import Reals.", "Open Scope R_scope.", "Set Printing Width 100000.",
             f"From {LOGICAL} Require {' '.join(mods)}."]
    for i, (f, t) in enumerate(items):
        lines.append(f'Module DPVerifyQ{i}. Import {f[:-2]}. Goal True. idtac "{_TMARK}{f} {t}". exact I. Abort. '
                     f"Check {f[:-2]}.{t}. End DPVerifyQ{i}.")
    res = compile_source("\n".join(lines) + "\n", module="DPVerifyTypes", timeout=timeout, coqc=coqc)
    if not res.ok:
        return res
    out: dict[tuple[str, str], list[str]] = {}
    current = None
    for line in res.message.splitlines():
        if line.startswith(_TMARK):
            f, t = line[len(_TMARK):].split()
            current = out.setdefault((f, t), [])
        elif current is not None:
            current.append(line)
    types = {}
    for it in items:
        text = " ".join(out.get(it, []))
        _, colon, ty = normalise_type(text).partition(" : ")
        if not colon:
            return CoqResult("DPVerifyTypes.v", CoqStatus.FAILED, res.seconds,
                             f"no Check output for {it}: {res.message[:500]}", res.coqc_version)
        types[it] = normalise_type(ty)
    return types


def disallowed_axioms(names: Iterable[str]) -> list[str]:
    """The names among ``names`` that :data:`ALLOWED_AXIOMS` does not allow."""
    return [n for n in names if not any(p.match(n) for p in ALLOWED_AXIOMS)]


# ---------------------------------------------------------------------------------------- non-vacuity

#: A theorem whose hypotheses can never hold together is proved by anything. For each ``CLAIM`` theorem ``thm``
#: a lemma ``thm`` + :data:`WITNESS_SUFFIX` in one of the files ``proofs/coq/Witnesses*.v`` proves
#: ``exists <thm's universally quantified objects>, H_1 /\ ... /\ H_n`` at a concrete instance. Its statement is
#: compared, term for term (Coq's ``constr_eq``: syntactic, up to the names of bound variables), with the
#: hypotheses that the tactic ``WitnessShape.hyps_of`` reads off ``thm``'s own type (every binder an
#: existential, every non-dependent propositional premise a conjunct, the conclusion dropped), so a witness of
#: other, easier hypotheses does not count. See :func:`check_witnesses`.
WITNESS_SUFFIX = "_hyps_satisfiable"
WITNESS_GLOB = "Witnesses*.v"
SHAPE_FILE = "WitnessShape.v"
_WMARK = "@@dpverify-witness "


class WitnessStatus(str, enum.Enum):
    SATISFIABLE = "hypotheses shown satisfiable"
    MISSING = "no witness"
    FAILED = "witness did not compile"
    MISMATCH = "witness statement is not the theorem's hypotheses"
    AXIOMS = "witness rests on axioms outside the classical reals"
    UNAVAILABLE = "coq not available"


@dataclass(frozen=True)
class WitnessCheck:
    file: str  # the theorem's .v file
    theorem: str
    status: WitnessStatus
    witness: str = ""  # "<Module>.<lemma>", when one exists
    message: str = ""  # why not, or the witness's axioms
    seconds: float = 0.0  # the one coqc run that checked the shapes and axioms (shared by every item)

    @property
    def ok(self) -> bool:
        return self.status is WitnessStatus.SATISFIABLE


def witness_files() -> list[str]:
    """The witness files ``proofs/coq/Witnesses*.v``, sorted."""
    return sorted(p.name for p in coq_dir().glob(WITNESS_GLOB))


def witness_for(theorem: str) -> tuple[str, str] | None:
    """``(file, lemma)`` of the witness of ``theorem`` (``<theorem>_hyps_satisfiable`` in a ``Witnesses*.v``),
    or None. Raises :class:`InvalidArgument` if two files define it."""
    name = theorem + WITNESS_SUFFIX
    hits = [f for f in witness_files()
            if re.search(rf"^\s*(Lemma|Example|Theorem)\s+{re.escape(name)}\b", (coq_dir() / f).read_text(), flags=re.M)]
    if len(hits) > 1:
        raise InvalidArgument(f"theorem={theorem!r}: its witness {name} is defined in several files {hits}; keep one.")
    return (hits[0], name) if hits else None


def witness_check_source(items: Sequence[tuple[str, str, str]], *, requires: Sequence[str] = (),
                         preamble: str = "", per_item: bool = False) -> str:
    """The Coq source that checks each ``(key, theorem reference, witness reference)``: ``check_witness`` inside
    ``first [...]`` (a mismatch prints the expected statement and does not stop the others), each output after a
    marker line naming ``key``; then ``Print Assumptions`` of all the witnesses together (one traversal: a tuple of
    their proofs), or of each one when ``per_item``. ``requires``: the modules to load (``From DPVerify
    Require``); ``preamble``: Coq text placed after them (e.g. a scratch theorem and its witness)."""
    mods = " ".join(dict.fromkeys([SHAPE_FILE[:-2], *requires]))
    lines = [f"From {LOGICAL} Require {mods}.", f"Import {SHAPE_FILE[:-2]}.", preamble]
    for key, thm, wit in items:
        for ref, what in ((thm, "theorem"), (wit, "witness")):
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.']*", ref):
                raise InvalidArgument(f"{what}={ref!r} must be a Coq identifier (qualified names allowed).")
        if not re.fullmatch(r"[A-Za-z0-9_.:']+", key):
            raise InvalidArgument(f"key={key!r} must be letters, digits and '_', '.', ':' (it is printed in the output).")
        lines.append(f'Goal True. idtac "{_WMARK}{key} shape". '
                     f'first [ check_witness {thm} {wit}; idtac "@@match" '
                     f'| idtac "@@mismatch"; show_hyps {thm} ]. exact I. Qed.')
        if per_item:
            lines.append(f'Goal True. idtac "{_WMARK}{key} axioms". exact I. Abort.')
            lines.append(f"Print Assumptions {wit}.")
    if items and not per_item:
        lines.append(f"Definition dpverify_all_witnesses := ({', '.join(w for _, _, w in items)}).")
        lines.append(f'Goal True. idtac "{_WMARK}* axioms". exact I. Abort.')
        lines.append("Print Assumptions dpverify_all_witnesses.")
    return "\n".join(lines) + "\n"


def _parse_witness_output(message: str) -> dict[str, dict]:
    out: dict[str, dict] = {}
    cur, part = None, None
    for line in message.splitlines():
        if line.startswith(_WMARK):
            key, part = line[len(_WMARK):].split()
            cur = out.setdefault(key, {"match": None, "expected": [], "axioms": []})
            continue
        if cur is None:
            continue
        if part == "shape":
            if line.strip() == "@@match":
                cur["match"] = True
            elif line.strip() == "@@mismatch":
                cur["match"] = False
            elif cur["match"] is False:
                cur["expected"].append(line)
        elif part == "axioms":
            if not line or line[0].isspace() or line.startswith(("Axioms:", "Closed under")):
                continue
            m = re.match(r"^([A-Za-z_][A-Za-z0-9_.']*)\s*(?::|$)", line)
            if m:
                cur["axioms"].append(m.group(1))
    return out


def run_witness_checks(items: Sequence[tuple[str, str, str]], *, requires: Sequence[str] = (), preamble: str = "",
                       timeout: float = DEFAULT_TIMEOUT, coqc: str | None = None) -> dict[str, WitnessCheck] | CoqResult:
    """Check ``(key, theorem reference, witness reference)`` items in one ``coqc`` run (see
    :func:`witness_check_source`; a second run with ``Print Assumptions`` per witness only when the witnesses
    together rest on an axiom outside the classical reals, to say which). Returns ``{key: WitnessCheck}``
    (``file``/``theorem``: the key split at its first ':'), or the failed/unavailable :class:`CoqResult` when
    the source does not compile (e.g. a witness in ``preamble`` whose proof fails)."""
    res = compile_source(witness_check_source(items, requires=requires, preamble=preamble),
                         module="DPVerifyWitnessCheck", timeout=timeout, coqc=coqc)
    if not res.ok:
        return res
    parsed = _parse_witness_output(res.message)
    seconds = res.seconds
    if disallowed_axioms(parsed.get("*", {}).get("axioms", [])):
        res = compile_source(witness_check_source(items, requires=requires, preamble=preamble, per_item=True),
                             module="DPVerifyWitnessCheck", timeout=timeout, coqc=coqc)
        if not res.ok:
            return res
        parsed, seconds = _parse_witness_output(res.message), seconds + res.seconds
    common = parsed.get("*", {}).get("axioms")
    out = {}
    for key, thm, wit in items:
        f, _, t = key.partition(":") if ":" in key else ("", "", key)
        got = parsed.get(key)
        axioms = got["axioms"] if got is not None and common is None else (common or [])
        if got is None or got["match"] is None:
            out[key] = WitnessCheck(f, t, WitnessStatus.FAILED, wit, f"no output for {key}: {res.message[-300:]}",
                                    seconds)
        elif not got["match"]:
            expected = " ".join(" ".join(got["expected"]).split())
            out[key] = WitnessCheck(f, t, WitnessStatus.MISMATCH, wit,
                                    f"{wit} does not state the hypotheses of {thm}; they read: {expected[:1500]}",
                                    seconds)
        elif disallowed_axioms(axioms):
            out[key] = WitnessCheck(f, t, WitnessStatus.AXIOMS, wit, ", ".join(disallowed_axioms(axioms)), seconds)
        else:
            out[key] = WitnessCheck(f, t, WitnessStatus.SATISFIABLE, wit,
                                    "axioms: " + (", ".join(axioms) or "none"), seconds)
    return out


_WITNESS_CACHE: dict = {}


def check_witnesses(entries: Iterable[CoqEntry] | None = None, *, timeout: float = DEFAULT_TIMEOUT,
                    coqc: str | None = None) -> dict[tuple[str, str], WitnessCheck]:
    """The non-vacuity check of each ``(file, theorem)`` of ``entries`` (default: every ``CLAIM`` entry of
    :data:`MANIFEST`): its witness exists, compiles, states exactly the theorem's hypotheses and rests on the
    classical reals only. Cached per content of the files involved, in this process."""
    entries = [e for e in _manifest() if e.coverage is Coverage.CLAIM] if entries is None else list(entries)
    pairs = list(dict.fromkeys((e.file, e.theorem) for e in entries))
    coqc = coqc or coqc_path()
    out: dict[tuple[str, str], WitnessCheck] = {}
    if coqc is None:
        return {(f, t): WitnessCheck(f, t, WitnessStatus.UNAVAILABLE, message=f"Coq not available: {INSTALL_HINT}")
                for f, t in pairs}
    found = {}
    for f, t in pairs:
        w = witness_for(t)
        if w is None:
            out[(f, t)] = WitnessCheck(f, t, WitnessStatus.MISSING,
                                       message=f"no lemma {t}{WITNESS_SUFFIX} in proofs/coq/{WITNESS_GLOB}")
        else:
            found[(f, t)] = w
    files = sorted({f for f, _ in found} | {w for w, _ in found.values()} | {SHAPE_FILE})
    compiled = compile_files(files, timeout=timeout, coqc=coqc)
    items, mods = [], []
    for (f, t), (wf, wn) in found.items():
        bad = [n for n in (f, wf, SHAPE_FILE) if not compiled[n].ok]
        if bad:
            out[(f, t)] = WitnessCheck(f, t, WitnessStatus.FAILED, f"{wf[:-2]}.{wn}",
                                       f"{bad[0]} did not compile: {_first_error(compiled[bad[0]].message)}")
            continue
        items.append((f"{f}:{t}", f"{f[:-2]}.{t}", f"{wf[:-2]}.{wn}"))
        mods += [f[:-2], wf[:-2]]
    if items:
        key = ("witness", coqc, tuple(items), tuple(
            hashlib.sha256((coq_dir() / n).read_bytes()).hexdigest() for n in sorted(set(files))))
        if key not in _WITNESS_CACHE:
            saved = _query_cache_get("witnesses", key)
            if isinstance(saved, dict):
                _WITNESS_CACHE[key] = {k: WitnessCheck(v["file"], v["theorem"], WitnessStatus(v["status"]), v["witness"],
                                                       v["message"], v["seconds"]) for k, v in saved.items()}
            else:
                _WITNESS_CACHE[key] = run_witness_checks(items, requires=sorted(set(mods)), timeout=timeout, coqc=coqc)
                if isinstance(_WITNESS_CACHE[key], dict):
                    _query_cache_put("witnesses", key, {k: {"file": v.file, "theorem": v.theorem, "status": v.status.value,
                                                            "witness": v.witness, "message": v.message,
                                                            "seconds": v.seconds}
                                                        for k, v in _WITNESS_CACHE[key].items()})
        got = _WITNESS_CACHE[key]
        for k, _, wit in items:
            f, t = k.split(":", 1)
            if isinstance(got, CoqResult):
                out[(f, t)] = WitnessCheck(f, t, WitnessStatus.FAILED, wit,
                                           f"the check did not compile: {_first_error(got.message)}", got.seconds)
            else:
                out[(f, t)] = got[k]
    return {p: out[p] for p in pairs}


# ---------------------------------------------------------------------------------------------- hook


def _first_error(message: str) -> str:
    lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
    err = [i for i, ln in enumerate(lines) if ln.startswith("Error")]
    if err:
        i = err[0]
        return " ".join(lines[max(0, i - 1): i + 3])[:300]
    return " ".join(lines[:3])[:300]


def apply_kernel_checks(reports: Sequence[ClaimReport], *, timeout: float = DEFAULT_TIMEOUT,
                        witnesses: bool | None = None, context: Sequence[ClaimReport] = ()) -> list[ClaimReport]:
    """``reports`` with the manifest's Coq theorems applied (see the module docstring).

    A ``CLAIM`` theorem makes its claim ``kernel-checked`` only when, in this run: its file compiles; ``Print
    Assumptions`` shows only :data:`ALLOWED_AXIOMS`; its type as ``coqc`` prints it is the entry's ``checks`` (the
    claim's formal statement; :func:`theorem_types`); and its non-vacuity witness passes (:func:`check_witnesses`).
    The verdict then names the entry's ``premises`` (``kernel-checked given ...``) and is capped by the verdicts of its
    ``claim_premises`` (looked up in ``reports`` and ``context``; a claim premise found in neither caps it at
    ``unknown``). ``witnesses``: True (default; None means True) runs the witness check; False skips it, and then no
    claim is promoted (a theorem whose hypotheses are not shown satisfiable is never ``kernel-checked``)."""
    if witnesses is None:
        witnesses = True
    if not isinstance(witnesses, bool):
        raise InvalidArgument(f"witnesses={witnesses!r} must be True, False or None (None: True).")
    reports = list(reports)
    wanted = [(r, entries_for(r.id)) for r in reports]
    if not any(es for _, es in wanted):
        return reports
    coqc = coqc_path()
    files = sorted({e.file for _, es in wanted for e in es})
    compiled = compile_files(files, timeout=timeout, coqc=coqc) if coqc else {}
    axioms: dict | CoqResult = {}
    types: dict | CoqResult = {}
    # Print Assumptions, Check and the witnesses for the theorems that decide a verdict (CLAIM); Print Assumptions is
    # slow on the Interval library's reflexive proofs, so STEP theorems are only compiled here (tests/symbolic/test_coq.py
    # checks them all).
    claim_entries = [e for _, es in wanted for e in es if coqc and e.coverage is Coverage.CLAIM and compiled[e.file].ok]
    ok_items = list(dict.fromkeys((e.file, e.theorem) for e in claim_entries))
    if ok_items:
        axioms = assumptions(ok_items, timeout=timeout, coqc=coqc)
        types = theorem_types(ok_items, timeout=timeout, coqc=coqc)
    wit = check_witnesses(claim_entries, timeout=timeout, coqc=coqc) if witnesses and ok_items else {}
    known = {r.id: r for r in context}
    known.update({r.id: r for r in reports})
    out = []
    for report, entries in wanted:
        for e in entries:
            report = _apply_one(report, e, coqc, compiled.get(e.file), axioms, wit.get((e.file, e.theorem)),
                                types, known, witnesses)
        out.append(report)
    return out


_PREMISES = contextvars.ContextVar("dpverify_kernel_premises", default=True)


class kernel_premises:  # noqa: N801 (a context manager used like a function)
    """``with kernel_premises(False): ...`` -- :func:`kernel_premise` returns the proof files' own verdicts
    inside the block (what ``run_proofs(kernel_check=False)`` uses)."""

    def __init__(self, enabled: bool):
        if not isinstance(enabled, bool):
            raise InvalidArgument(f"enabled={enabled!r} must be True or False.")
        self.enabled = enabled

    def __enter__(self):
        self._token = _PREMISES.set(self.enabled)
        return self

    def __exit__(self, *exc):
        _PREMISES.reset(self._token)
        return False


def kernel_premise(report: ClaimReport, *, timeout: float = DEFAULT_TIMEOUT,
                   context: Sequence[ClaimReport] = ()) -> CheckResult:
    """The conclusion of ``report`` after its :data:`MANIFEST` Coq theorems, as ``dpverify prove`` shows it.

    For a claim that rests on another claim (``report``): when that claim's ``CLAIM`` theorem compiles here
    with allowed axioms, the premise is ``kernel-checked``; without ``coqc``, with a failing theorem, or inside
    ``kernel_premises(False)``, it is the proof file's own verdict, and the evidence says why. A refuted
    premise stays refuted. ``context``: the reports of the claims the Coq theorem takes as premises
    (``CoqEntry.claim_premises``). Compilation and ``Print Assumptions`` are cached per file content in this process."""
    if not isinstance(report, ClaimReport):
        raise InvalidArgument(f"report={report!r} must be a ClaimReport (the premise claim's report).")
    if not _PREMISES.get():
        return report.conclusion
    return apply_kernel_checks([report], timeout=timeout, context=context)[0].conclusion


def kernel_step(file: str, theorem: str, statement: str, fallback: CheckResult, *,
                timeout: float = DEFAULT_TIMEOUT) -> CheckResult:
    """One step of a claim's proof that the Coq theorem ``theorem`` of ``proofs/coq/<file>`` proves.

    ``kernel-checked`` when the file compiles here and the theorem rests on the classical reals only (``statement``
    says what it proves, in the claim's terms); otherwise ``fallback`` -- the proof file's own check of the step --
    with the reason appended to its evidence (Coq not available, the file does not compile, other axioms), and
    inside ``kernel_premises(False)`` the fallback as it is. A REFUTED fallback is returned as it is: the theorem and
    the step's own check then disagree, and the counterexample is what a reader must see."""
    for name, value in (("file", file), ("theorem", theorem), ("statement", statement)):
        if not isinstance(value, str) or not value.strip():
            raise InvalidArgument(f"{name}={value!r} must be a non-empty string.")
    if not isinstance(fallback, CheckResult):
        raise InvalidArgument(f"fallback={fallback!r} must be a CheckResult (the step's check without Coq).")
    if not _PREMISES.get() or fallback.verdict is ProofVerdict.REFUTED:
        return fallback  # a counterexample found by the step's own check is never hidden behind a Coq theorem

    def fall(why: str) -> CheckResult:
        return CheckResult(fallback.verdict, f"{fallback.evidence}; {why}", counterexample=fallback.counterexample,
                           details=fallback.details + (why,), premises=fallback.premises, domain=fallback.domain)

    where = f"{theorem} ({file})"
    coqc = coqc_path()
    if coqc is None:
        return fall(f"Coq not available: {INSTALL_HINT}; Coq theorem {where} not checked")
    res = compile_file(file, timeout=timeout, coqc=coqc)
    if not res.ok:
        return fall(f"Coq theorem {where} did NOT compile: {_first_error(res.message)}")
    axioms = assumptions([(file, theorem)], timeout=timeout, coqc=coqc)
    if isinstance(axioms, CoqResult):
        return fall(f"Coq theorem {where} compiled but Print Assumptions failed: {_first_error(axioms.message)}")
    bad = disallowed_axioms(axioms.get((file, theorem), ()))
    if bad:
        return fall(f"Coq theorem {where} compiled but rests on axioms outside the classical reals: {', '.join(bad)}")
    return CheckResult(ProofVerdict.KERNEL_CHECKED,
                       f"Coq theorem {where} accepted by coqc {res.coqc_version} in {res.seconds:.1f} s (Print "
                       f"Assumptions: classical reals only): {statement}")


def _keep(report: ClaimReport, why: str) -> ClaimReport:
    concl = report.conclusion
    return replace(report, conclusion=replace(concl, evidence=f"{concl.evidence}; {why}", details=concl.details + (why,)))


def _apply_one(report: ClaimReport, e: CoqEntry, coqc, result: CoqResult | None, axioms,
               witness: WitnessCheck | None = None, types=None, known=None, witnesses: bool = True) -> ClaimReport:
    concl = report.conclusion
    if coqc is None:
        return _keep(report, f"Coq not available: {INSTALL_HINT}; Coq theorem {e.where} not checked")
    if not result.ok:
        return _keep(report, f"Coq theorem {e.where} did NOT compile: {_first_error(result.message)}")
    if e.coverage is Coverage.STEP:
        note = (f"kernel-checked step: Coq theorem {e.where} accepted by coqc {result.coqc_version} in "
                f"{result.seconds:.1f} s: {e.statement}")
        return replace(report, notes=report.notes + (note,), checked_steps=report.checked_steps + (note,),
                       conclusion=replace(concl, details=concl.details + (note,)))
    if isinstance(axioms, CoqResult):
        return _keep(report, f"Coq theorem {e.where} compiled but Print Assumptions failed: {_first_error(axioms.message)}")
    bad = disallowed_axioms(axioms.get((e.file, e.theorem), ()))
    if bad:
        return _keep(report, f"Coq theorem {e.where} compiled but rests on axioms outside the classical reals: {', '.join(bad)}")
    if isinstance(types, CoqResult) or types is None:
        msg = _first_error(types.message) if isinstance(types, CoqResult) else "not queried"
        return _keep(report, f"Coq theorem {e.where}: its type could not be read ({msg}); not kernel-checked")
    got = types.get((e.file, e.theorem), "")
    if not e.checks:
        return _keep(report, f"Coq theorem {e.where} compiled, but the claim states no formal statement (CoqEntry.checks) "
                             f"to compare its type with; not kernel-checked. coqc's type: {got}")
    if got != e.checks:
        return _keep(report, f"STATEMENT MISMATCH: Coq theorem {e.where} compiled, but its type as coqc prints it is not "
                             f"the claim's formal statement; not kernel-checked. coqc: {got} | the claim: {e.checks}")
    if not witnesses:
        return _keep(report, f"Coq theorem {e.where} compiled with the claim's statement, but its non-vacuity witness was "
                             f"not checked (witnesses=False); not kernel-checked")
    if witness is None or not witness.ok:
        why = "no witness result" if witness is None else f"{witness.status.value}: {witness.message[:300]}"
        return _keep(report, f"Coq theorem {e.where} compiled with the claim's statement, but its hypotheses are NOT shown "
                             f"satisfiable ({why}); not kernel-checked (a theorem with unsatisfiable hypotheses proves "
                             f"anything)")
    cached = " (a cached build of this exact tree)" if result.message == "cached build of this tree" else ""
    accepted = (f"Coq theorem {e.where} accepted by coqc {result.coqc_version} in {result.seconds:.1f} s{cached} (Print "
                f"Assumptions: classical reals only; hypotheses shown satisfiable by {witness.witness}); its type, as "
                f"coqc prints it, is the claim's formal statement: {got} -- in words: {e.statement}")
    if concl.verdict is ProofVerdict.REFUTED:
        why = (f"CONTRADICTION: the machine refutes this claim while {accepted}; the statement of the Coq theorem "
               f"or the refutation is wrong and must be examined")
        return replace(report, notes=report.notes + (why,),
                       conclusion=replace(concl, evidence=f"{why} | {concl.evidence}", details=concl.details + (why,)))
    details = concl.details + (f"before the Coq check: {concl.strength_label}: {concl.evidence}",)
    result_ = CheckResult(ProofVerdict.KERNEL_CHECKED, accepted, details=details, premises=e.premises)
    # the weakest-premise rule: claims the theorem takes as hypotheses cap the verdict
    caps = []
    for cid in e.claim_premises:
        r = (known or {}).get(cid)
        if r is None:
            caps.append((cid, CheckResult(ProofVerdict.UNKNOWN, f"{cid}: not available in this check")))
        else:
            caps.append((cid, r.conclusion))
    if caps:
        if any(c.verdict is ProofVerdict.REFUTED for _, c in caps):
            broken = next(cid for cid, c in caps if c.verdict is ProofVerdict.REFUTED)
            return replace(report, conclusion=CheckResult(
                ProofVerdict.UNKNOWN, f"{accepted}; but it takes the claim {broken} as a hypothesis, and that claim is "
                                      f"refuted", details=details))
        v = weakest(result_, *(c for _, c in caps))
        names = ", ".join(f"{cid} ({c.strength_label})" for cid, c in caps)
        prem = tuple(dict.fromkeys(result_.premises + tuple(p for _, c in caps for p in c.premises)))
        ev = accepted + (f"; capped at {v.value} by the claims it takes as hypotheses: {names}" if v is not
                         ProofVerdict.KERNEL_CHECKED else f"; the claims it takes as hypotheses: {names}")
        result_ = CheckResult(v, ev, details=details, premises=prem,
                              domain=merge_domains(result_, *(c for _, c in caps)))
        if _rank(concl) < _rank(result_):  # the proof file's own route is stronger than the capped Coq route: keep it
            note = f"Coq route capped by its claim premises: {result_.strength_label}: {ev}"
            return replace(report, notes=report.notes + (note,), conclusion=replace(concl, details=concl.details + (note,)))
    return replace(report, conclusion=result_)


_RANK = [ProofVerdict.KERNEL_CHECKED, ProofVerdict.PROVED, ProofVerdict.CERTIFIED, ProofVerdict.TESTED,
         ProofVerdict.UNKNOWN, ProofVerdict.REFUTED]


def _rank(r: CheckResult) -> tuple:
    """Smaller is stronger: the verdict order first, then unconditional before conditional, whole domain before a box."""
    return (_RANK.index(r.verdict), bool(r.premises), r.domain != "whole")
