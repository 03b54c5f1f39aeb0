"""The example project in docs/examples/ci: its tests pass when run as a user runs them.

False-failure rate: NoisyMean is a Laplace mechanism with loss <= eps everywhere, so its checks
cannot fail (delta_lower(eps) = 0, epsilon_lower <= eps on every draw).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "docs" / "examples" / "ci"


def _pytest(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=str(EXAMPLE) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args], cwd=EXAMPLE,
                          env=env, capture_output=True, text=True, timeout=600)


def test_example_tests_pass_with_their_own_settings():
    """As ./run_ci.sh runs them: plain ``pytest`` in the example, with the ci profile, seed and
    budget from the example's pyproject.toml."""
    out = _pytest()
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-2000:]
    assert re.search(r"\b3 passed", out.stdout), out.stdout[-2000:]
    assert "dpverify: profile=ci (200000 samples per direction, 8 pairs per strategy), seed=20240601, " \
           "false-alarm budget 0.001 per run" in out.stdout
    assert "2 privacy tests" in out.stdout


def test_ci_script_is_valid_shell():
    out = subprocess.run(["sh", "-n", str(EXAMPLE / "run_ci.sh")], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert os.access(EXAMPLE / "run_ci.sh", os.X_OK)
