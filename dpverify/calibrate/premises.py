"""The verdicts of the paper claims that lemma-derived calibrations rest on ("premises").

A lemma-derived calibration is only as good as the paper claim its derivation encodes; its verdict
comes from the proof runner (``dpverify prove``: the paper's proof file in ``dpverify_proofs``),
never from a literal. Proof files take seconds to minutes, so the verdicts come, in this order, from:

1. this process: a proof run of this process (``dpverify check``'s proof section, or a run now);
2. the **shipped data** ``premise_verdicts.json`` beside this module: produced by
   ``python -m dpverify.calibrate.premises --write`` (every premise paper's proof file, run now),
   checked by the test suite, and used only while its **sources digest** matches the installed
   sources (see below); stale shipped data is never used (it can only keep a claim from being
   trusted, see 3.);
3. the **disk cache** ``$DPVERIFY_CACHE_DIR/proof-verdicts.json`` (default
   ``$XDG_CACHE_HOME/dpverify`` or ``~/.cache/dpverify``; ``DPVERIFY_CACHE_DIR=off`` disables it),
   one entry per paper, used only when (a) it has the expected shape, (b) its key equals the key of
   this installation *and environment* (:func:`cache_key`), (c) its checksum matches its content
   (a hand edit or a damaged write is ignored), and (d) it does not *remove a warning*: a claim that
   the shipped data (even stale) or the cache's own earlier content calls refuted is not accepted
   as non-refuted from the cache (the proof file is re-run instead);
4. a run of the paper's proof file now (when allowed), whose verdicts then fill 1 and 3.

**What the key covers.** Sources: every file of ``dpverify_proofs`` (proof files, their
``__init__``, the Coq theorems ``coq/*.v`` and ``coq/_CoqProject``; not Coq's own ``.nra.cache``,
which ``coqc`` rewrites and whose certificates the kernel re-checks), and every ``dpverify`` /
``dpverify_mechanisms`` module that was imported when the verdicts were computed (the shipped
data and each cache entry list them, so a change to any of them, or a missing one, makes them
stale; a module first imported by a changed version is reached through a changed, listed file),
plus the package version. The disk cache key also covers the environment (:func:`environment`:
Python, coqc's version or its absence, python-flint, sympy, mpmath, numpy, scipy, and the
``DPVERIFY_COQC`` / ``DPVERIFY_COQ_WITNESSES`` variables). The shipped data records the
environment it was computed in and says so where it is used; whether a claim is refuted does not
depend on Coq (a refutation is a counterexample re-evaluated at high precision), only the strength
of a non-refuted verdict can.

**Limits.** The checksum detects edits and damage, not a forger who recomputes it (whoever can
write the cache can as well edit the installed package); rule (d) keeps such an edit from
removing a warning the shipped data gives.

Verdict strings are treated generically: a verdict is *refuted* when its first word is
``refuted`` (:func:`is_refuted`); every other string (``kernel-checked``, ``proved``, ``certified
on B``, ``kernel-checked given P``...) is carried through as it is.
"""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any, Iterable

from .. import __version__
from .._sources import files_digest, imported_files, package_roots

__all__ = ["SHIPPED", "is_refuted", "environment", "sources_digest", "cache_key", "premise_papers",
           "load_shipped", "shipped_status", "compute", "write_shipped", "main"]

#: The shipped premise verdicts (package data).
SHIPPED = Path(__file__).with_name("premise_verdicts.json")
#: The command that regenerates :data:`SHIPPED`.
REGENERATE = "python -m dpverify.calibrate.premises --write"
SCHEMA = 1

#: Files of dpverify_proofs that are inputs (every file with these suffixes, and these names).
_PROOF_SUFFIXES = (".py", ".v")
_PROOF_NAMES = ("_CoqProject",)


def is_refuted(verdict: Any) -> bool:
    """True when ``verdict`` (a verdict string of ``dpverify prove``) says the claim is refuted."""
    return isinstance(verdict, str) and verdict.strip().lower().split(" ", 1)[0] == "refuted"


# -- what a verdict depends on ----------------------------------------------------------------------

def source_roots() -> dict[str, Path]:
    """The installed packages' source folders (:func:`dpverify._sources.package_roots`; tests monkeypatch it)."""
    return package_roots()


def _proof_files(roots: dict[str, Path]) -> list[str]:
    root = roots.get("dpverify_proofs")
    if root is None:
        return []
    names = []
    for f in sorted(root.rglob("*")):
        if "__pycache__" in f.parts or not f.is_file():
            continue
        if f.suffix in _PROOF_SUFFIXES or f.name in _PROOF_NAMES:
            names.append("dpverify_proofs/" + f.relative_to(root).as_posix())
    return names


def _imported_files(roots: dict[str, Path]) -> list[str]:
    """The ``dpverify`` / ``dpverify_mechanisms`` source files of every module imported so far."""
    return imported_files(roots)


def sources_digest(files: Iterable[str]) -> str | None:
    """SHA-256 over the package version, every proof source of ``dpverify_proofs`` and ``files``
    (names ``package/relative/path``); None when a listed file is missing or no proofs are installed."""
    roots = source_roots()
    proof = _proof_files(roots)
    if not proof:
        return None
    return files_digest(set(files) | set(proof), roots, salt=f"dpverify {__version__}")


def _version(module: str) -> str:
    try:
        from importlib import metadata

        return metadata.version(module)
    except Exception:  # noqa: BLE001 - not installed (or no metadata): the absence is the value
        return "absent"


def _probe_versions() -> dict[str, str]:
    """The versions of what can change a verdict besides the sources (monkeypatched by tests)."""
    from ..symbolic import coq  # deferred: sympy (importing dpverify.symbolic loads it)

    coqc = coq.coqc_path()
    return {
        "python": platform.python_version(),
        "coqc": (coq.coqc_version(coqc) or "unknown") if coqc else "absent",
        "python-flint": _version("python-flint"),
        "sympy": _version("sympy"),
        "mpmath": _version("mpmath"),
        "numpy": _version("numpy"),
        "scipy": _version("scipy"),
    }


def environment() -> dict[str, str]:
    """:func:`_probe_versions` and the environment variables that change the Coq checks."""
    env = dict(_probe_versions())
    for var in ("DPVERIFY_COQC", "DPVERIFY_COQ_WITNESSES"):
        env[var] = os.environ.get(var)  # None (unset) differs from "" (set empty: no Coq)
    return env


def cache_key(paper: str, files: Iterable[str]) -> str | None:
    """The disk-cache key of a paper's verdicts: its name, :func:`sources_digest` over ``files``
    and :func:`environment`; None when a listed file is missing."""
    digest = sources_digest(files)
    if digest is None:
        return None
    blob = json.dumps({"paper": paper, "sources": digest, "environment": environment()}, sort_keys=True)
    return hashlib.sha256(blob.encode()).hexdigest()


def checksum(entry: dict) -> str:
    """SHA-256 of a cache entry's content (everything but the checksum itself)."""
    body = {k: v for k, v in entry.items() if k != "checksum"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode()).hexdigest()


# -- shapes -----------------------------------------------------------------------------------------

def _claims_ok(paper: str, claims: Any) -> bool:
    if not isinstance(claims, dict) or not claims:
        return False
    for cid, v in claims.items():
        if not (isinstance(cid, str) and cid.startswith(paper + "/") and isinstance(v, dict)):
            return False
        if not (isinstance(v.get("verdict"), str) and v["verdict"].strip() and isinstance(v.get("evidence"), str)):
            return False
    return True


def _files_ok(files: Any) -> bool:
    return isinstance(files, list) and all(isinstance(f, str) and "/" in f for f in files)


def valid_cache_entry(paper: str, entry: Any) -> bool:
    """The shape of one paper's disk-cache entry, and its checksum."""
    return (isinstance(entry, dict) and isinstance(entry.get("key"), str) and _files_ok(entry.get("files"))
            and _claims_ok(paper, entry.get("claims")) and entry.get("checksum") == checksum(entry))


def premise_papers() -> list[str]:
    """The papers whose claims lemma-derived calibrations rest on (:mod:`dpverify.symbolic.derivations`)."""
    from ..symbolic.derivations import DERIVATIONS  # deferred: sympy

    return sorted({cid.split("/", 1)[0] for cid in DERIVATIONS})


# -- the shipped data -------------------------------------------------------------------------------

def load_shipped(path: Path | None = None) -> dict | None:
    """The shipped document when it has the expected shape and its checksum matches (a hand edit of a
    verdict is ignored), else None."""
    path = SHIPPED if path is None else path
    try:
        doc = json.loads(path.read_text())
    except (OSError, ValueError):
        return None
    if not (isinstance(doc, dict) and doc.get("schema") == SCHEMA and isinstance(doc.get("sources"), str)
            and _files_ok(doc.get("files")) and isinstance(doc.get("environment"), dict)
            and isinstance(doc.get("papers"), dict)):
        return None
    if not all(_claims_ok(p, c) for p, c in doc["papers"].items()) or doc.get("checksum") != checksum(doc):
        return None
    return doc


def shipped_status(path: Path | None = None) -> tuple[dict | None, bool, str]:
    """(document or None, fresh, reason): fresh when its sources digest matches the installed sources."""
    doc = load_shipped(path)
    if doc is None:
        return None, False, f"no shipped premise verdicts ({(SHIPPED if path is None else path).name} missing or malformed)"
    now = sources_digest(doc["files"])
    if now != doc["sources"]:
        return doc, False, ("the shipped premise verdicts were computed from other sources (stale; regenerate with "
                            f"{REGENERATE})")
    return doc, True, "fresh"


def _env_text(env: dict) -> str:
    keys = ("coqc", "python-flint", "sympy")
    return ", ".join(f"{k} {env.get(k, '?')}" for k in keys)


def compute(papers: Iterable[str] | None = None, progress=None) -> dict:
    """Run each premise paper's proof file now; the document that :func:`write_shipped` writes."""
    papers = premise_papers() if papers is None else list(papers)
    out: dict[str, dict] = {}
    for paper in papers:
        if progress:
            progress(f"running the proof file of {paper} ...")
        rows = run_paper(paper)
        out[paper] = {cid: v for cid, v in claims_of_rows(rows).items() if cid.startswith(paper + "/")}
    files = _imported_files(source_roots())
    doc = {"schema": SCHEMA, "generated_by": REGENERATE, "sources": sources_digest(files), "files": files,
           "environment": environment(), "papers": out}
    doc["checksum"] = checksum(doc)
    return doc


def write_shipped(doc: dict, path: Path | None = None) -> Path:
    path = SHIPPED if path is None else path
    path.write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
    return path


# -- proof rows -------------------------------------------------------------------------------------

def proof_module_name(paper: str) -> str:
    return "dpverify_proofs." + paper.replace("-", "_")


def has_proof_file(paper: str) -> bool:
    if importlib.util.find_spec("dpverify_proofs") is None:
        return False
    return importlib.util.find_spec(proof_module_name(paper)) is not None


def run_paper(paper: str) -> list[dict]:
    """The claim rows of the paper's proof file, run now (``dpverify prove`` on that one file)."""
    module = importlib.import_module(proof_module_name(paper))
    return [r.to_dict() for r in module.claims()]


def verdict_of_row(row: dict) -> tuple[str, str]:
    """(conclusion verdict, evidence) of a claim row of ``dpverify prove --json`` (tolerant of shapes)."""
    concl = row.get("conclusion")
    verdict = concl.get("verdict") if isinstance(concl, dict) else concl
    evidence = row.get("evidence") or (concl.get("evidence") if isinstance(concl, dict) else "") or ""
    return str(verdict), str(evidence)


def claims_of_rows(rows: Iterable[Any]) -> dict[str, dict]:
    """``{claim ID: {"verdict", "evidence"}}`` of proof rows; rows without a claim ID are skipped."""
    out = {}
    for row in rows:
        if not isinstance(row, dict):
            continue
        cid = row.get("id")
        if not isinstance(cid, str) or "/" not in cid:
            continue
        verdict, evidence = verdict_of_row(row)
        out[cid] = {"verdict": verdict, "evidence": evidence}
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse

    p = argparse.ArgumentParser(prog="python -m dpverify.calibrate.premises",
                                description="Regenerate (--write) or check (--check) the shipped premise verdicts.")
    p.add_argument("--write", action="store_true", help=f"run the premise papers' proof files and write {SHIPPED.name}")
    p.add_argument("--check", action="store_true", help="exit 1 when the shipped data is stale (cheap)")
    args = p.parse_args(argv)
    if args.write:
        doc = compute(progress=lambda m: print(m, file=sys.stderr, flush=True))
        print(f"wrote {write_shipped(doc)} ({sum(len(c) for c in doc['papers'].values())} claims; "
              f"{_env_text(doc['environment'])})", file=sys.stderr)
        return 0
    doc, fresh, why = shipped_status()
    print(why, file=sys.stderr)
    return 0 if fresh else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
