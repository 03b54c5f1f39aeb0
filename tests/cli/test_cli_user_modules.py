"""A user's own modules named like the repository's folders do not disturb any command (issue 13,
point 3): what ``pip install`` puts in site-packages is ``dpverify``, ``dpverify_mechanisms`` and
``dpverify_proofs``, so a ``mechanisms.py``, ``proofs.py`` or ``registry.py`` in the current
directory (first on ``sys.path`` under ``python -c`` / ``python -m``) is never imported.

Each user module raises when imported, so any import of it fails the command loudly.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import dpverify_proofs

USER_MODULES = ("mechanisms", "proofs", "registry")


@pytest.fixture
def user_dir(tmp_path: Path) -> Path:
    for name in USER_MODULES:
        (tmp_path / f"{name}.py").write_text(
            f"raise RuntimeError('the user module {name}.py was imported by dpverify')\n")
    return tmp_path


def _env(user_dir: Path) -> dict:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(user_dir) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_audit_check_and_prove_ignore_user_modules_in_the_current_directory(user_dir):
    """One interpreter with the current directory first on sys.path (``python -c``) runs
    ``dpverify audit laplace-scalar``, ``dpverify check --only ...`` and ``dpverify prove`` on a
    shipped proof file, each with --json."""
    proof = Path(dpverify_proofs.__path__[0]) / "lecture21_dp.py"
    script = f"""
import json, sys
assert sys.path[0] == '', sys.path[:2]  # the current directory comes first
from dpverify.cli import main
for argv in (["audit", "laplace-scalar", "--samples", "2000", "--seed", "1", "--json"],
             ["check", "--only", "laplace-scalar", "--only", "gaussian-classical", "--samples-scale", "0.01",
              "--no-search", "--json"],
             ["prove", {str(proof)!r}, "--json"]):
    code = main(argv)
    print("EXIT", code, file=sys.stderr)
import mechanisms  # the user's module is still importable by the user: it raises, as written
"""
    out = subprocess.run([sys.executable, "-c", script], cwd=user_dir, capture_output=True, text=True,
                         timeout=300, env=_env(user_dir))
    assert out.stderr.count("EXIT 0") == 3, out.stderr[-3000:]
    assert "the user module mechanisms.py was imported by dpverify" in out.stderr  # the final import only
    assert out.stderr.count("RuntimeError: the user module") == 1  # (a control: the trap works)
    docs = json.JSONDecoder()
    text, pos, found = out.stdout, 0, []
    while pos < len(text):
        while pos < len(text) and text[pos].isspace():
            pos += 1
        if pos == len(text):
            break
        doc, pos = docs.raw_decode(text, pos)
        found.append(doc)
    audit, check, prove = found
    assert audit["verdict"] in ("not-violated", "inconclusive")
    assert {r["name"] for r in check["mechanisms"]} == {"laplace-scalar", "gaussian-classical"}
    assert prove["claims"] and all(c["id"].startswith("lecture21-dp/") for c in prove["claims"])


@pytest.mark.slow
def test_console_script_ignores_user_modules_on_pythonpath(user_dir):
    exe = Path(sys.executable).with_name("dpverify")
    if not exe.exists():
        pytest.skip(f"no console script beside {sys.executable} (dpverify not pip-installed in this environment)")
    out = subprocess.run([str(exe), "audit", "laplace-scalar", "--samples", "2000", "--seed", "1", "--json"],
                         cwd=user_dir, capture_output=True, text=True, timeout=300, env=_env(user_dir))
    assert out.returncode == 0, out.stderr[-3000:]
    assert json.loads(out.stdout)["verdict"] in ("not-violated", "inconclusive")


@pytest.mark.slow
def test_prove_everything_ignores_user_modules(user_dir):
    """``dpverify prove`` with no path imports every module of ``dpverify_proofs`` (~80 s)."""
    out = subprocess.run([sys.executable, "-m", "dpverify", "prove", "--json"], cwd=user_dir, capture_output=True,
                         text=True, timeout=900, env=_env(user_dir))
    assert out.returncode == 0, out.stderr[-3000:]
    assert len(json.loads(out.stdout)["claims"]) > 20
