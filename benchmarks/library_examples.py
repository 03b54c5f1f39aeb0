"""The saved three-line examples of docs/libraries.md (tests/adapters/examples/*.py), run as a user would run them.

Each example audits one library object with no pair and prints the AuditResult. :func:`run_examples` runs every
script in the first interpreter that imports its library (this one, then each ``--also`` interpreter: Tumult Core
and SmartNoise SQL live in their own environments), parses the printed line (verdict, eps_lower, the pair the
unaided search found, among how many candidates) and times it; :func:`examples_markdown` renders the table of
docs/libraries.md, "Audits without pairs", each row with the command that reproduces it.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "tests" / "adapters" / "examples"
#: file-name prefix -> (module to import, distribution whose version is shown)
LIBRARY = {"opendp": ("opendp", "opendp"), "diffprivlib": ("diffprivlib", "diffprivlib"), "pydp": ("pydp", "python-dp"),
           "pipeline_dp": ("pipeline_dp", "pipeline-dp"), "tmlt": ("tmlt.core", "tmlt.core"),
           "smartnoise": ("snsql", "smartnoise-sql")}
_LINE = re.compile(r"^(?P<verdict>[a-z-]+): claim \((?P<claim>[^)]*)\); epsilon_lower=(?P<eps>[^,]+),.*?"
                   r"(?:pair found by the unaided search among (?P<n>\d+) candidates: (?P<found>.*))?$")


#: Why a saved example is `violated` in the current release (by script name), with its report where one exists.
WHY = {
    "opendp_threshold.py": (
        "OpenDP's `then_laplace_threshold` states delta as the mass of the noisy count *above* the threshold, but "
        "it releases a partition whose noisy count is *at or above* it: the mass exactly at the threshold is left "
        "out of delta (opendp/opendp#2922, open). The search adds a record in a new partition and certifies the "
        "release of that partition more often than delta allows."),
    "diffprivlib_model.py": (
        "diffprivlib's `GaussianNB` reads its set of classes from the data when `classes` is not given: a record of "
        "a class the base dataset lacks adds a class to the fitted model, which tells D and D' apart with certainty "
        "(a new class alone is violated; an extreme value alone is not). Giving `classes=` avoids it; diffprivlib "
        "warns about it (a `PrivacyLeakWarning`), so this is a documented hazard met by the default call."),
}


def _library(name: str) -> tuple:
    return next(v for k, v in LIBRARY.items() if name.startswith(k + "_"))


def _version(python: str, module: str, distribution: str) -> str | None:
    code = f"import {module}, importlib.metadata as m; print(m.version({distribution!r}))"
    out = subprocess.run([python, "-c", code], capture_output=True, text=True, env=_env())
    return out.stdout.strip() if out.returncode == 0 else None


def _env() -> dict:
    return dict(os.environ, PYTHONWARNINGS="ignore", PYTHONPATH=str(ROOT))


def _docline(script: Path) -> str:
    text = script.read_text()
    return text.split('"""')[1].strip().splitlines()[0] if text.startswith('"""') else script.stem


def run_examples(interpreters: list, timeout: float = 1800.0) -> list:
    """One row per example script (module docstring)."""
    rows = []
    for script in sorted(EXAMPLES.glob("*.py")):
        module, dist = _library(script.name)
        found = next(((py, v) for py in interpreters if (v := _version(py, module, dist))), None)
        row = {"script": f"tests/adapters/examples/{script.name}", "library": dist, "what": _docline(script)}
        if found is None:
            rows.append(row | {"verdict": "not run", "why": f"{dist} is not installed in {interpreters}"})
            continue
        python, version = found
        t = time.perf_counter()
        out = subprocess.run([python, str(script)], capture_output=True, text=True, env=_env(), cwd=ROOT,
                             timeout=timeout)
        seconds = time.perf_counter() - t
        line = out.stdout.strip().splitlines()[0] if out.stdout.strip() else ""
        m = _LINE.match(line)
        row |= {"version": version, "python": python, "seconds": seconds}
        if out.returncode != 0 or m is None:
            rows.append(row | {"verdict": "error", "why": (out.stderr.strip().splitlines() or [line])[-1][:200]})
        else:
            rows.append(row | {"verdict": m["verdict"], "claim": m["claim"], "epsilon_lower": float(m["eps"]),
                               "candidates": int(m["n"]) if m["n"] else None, "found": m["found"] or "",
                               "line": line})
        print(f"  example {script.name:32s} {rows[-1]['verdict']:13s} {seconds:6.1f}s", file=sys.stderr, flush=True)
    return rows


def examples_markdown(rows: list) -> list:
    """The "Audits without pairs" section of docs/libraries.md."""
    ran = [r for r in rows if r["verdict"] not in ("not run", "error")]
    lines = ["## Audits without pairs (the saved examples)", "",
             f"Each of the {len(rows)} scripts in `tests/adapters/examples/` audits one library object in at most "
             "three lines, with no pair: the adapter states the library's input domain and claim, and "
             "`dpverify.audit` searches it (docs/auditing.md, \"Audits without pairs\"). Run here as a user would "
             f"(`python SCRIPT`, the library's own environment where it needs one): {len(ran)} ran, "
             f"{sum(r['verdict'] == 'violated' for r in ran)} `violated`, "
             f"{sum(r['verdict'] == 'error' for r in rows)} errors, "
             f"{sum(r['verdict'] == 'not run' for r in rows)} not run (library not installed). A `violated` row is "
             "a finding of the search in the current release, explained under Findings; the printed pair and the "
             "script reproduce it. Black-box at confidence 0.95: a correct object is `violated` with probability "
             "at most 0.05 per run.", "",
             "| script | library | version | object | claim | verdict | eps_lower | pair found (candidates) | seconds |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        if r["verdict"] in ("not run", "error"):
            lines.append(f"| `{r['script']}` | {r['library']} | {r.get('version', '-')} | {r['what']} | - | "
                         f"**{r['verdict']}** | - | {r['why'].replace('|', '/')} | {r.get('seconds', 0):.0f} |")
            continue
        found = f"{r['found']} ({r['candidates']})" if r["candidates"] else "-"
        lines.append(f"| `{r['script']}` | {r['library']} | {r['version']} | {r['what']} | {r['claim']} | "
                     f"**{r['verdict']}** | {r['epsilon_lower']:.3g} | {found.replace('|', '/')} | {r['seconds']:.0f} |")
    lines.append("")  # a paragraph right after a table would be read as one more row
    for r in rows:
        if r["verdict"] == "violated":
            lines += [f"**{r['library']} {r['version']}, `{r['script']}`** (`python {r['script']}`): `{r['line']}`", "",
                      WHY.get(r["script"].rsplit("/", 1)[-1],
                              "No explanation is written for this case yet: investigate before relying on it."), ""]
    return lines + [""]
