"""Issue 27 item 7: the printed reproduce line carries every option that changes the result (and
running it gives the same bounds); Ctrl-C with --workers (a local Dask cluster) prints one line and
exits 130, whether it lands while the cluster starts or while the audit runs."""
from __future__ import annotations

import re
import shlex
import signal
import subprocess
import sys
import time

import pytest

from dpverify.cli import main


def _reproduce_line(out: str) -> str:
    return next(ln for ln in out.splitlines() if ln.startswith("reproduce with: "))


def _bounds(out: str) -> list[str]:
    """The result lines without their wall-clock seconds."""
    return [re.sub(r"\d+\.\d+ s\b", "<secs>", ln) for ln in out.splitlines()
            if "epsilon_lower" in ln or "verdict" in ln.lower()]


def test_reproduce_line_carries_time_budget_confidence_and_claim_and_reruns_identically(capsys):
    argv = ["audit", "laplace-scalar", "--samples", "3000", "--seed", "11", "--time-budget", "300",
            "--confidence", "0.9", "--epsilon", "1.5", "--delta", "1e-6"]
    assert main(argv) == 0
    out = capsys.readouterr().out
    line = _reproduce_line(out)
    for opt in ("--samples 3000", "--seed 11", "--time-budget 300.0", "--confidence 0.9", "--epsilon 1.5",
                "--delta 1e-06"):
        assert opt in line, (opt, line)
    again = shlex.split(line[len("reproduce with: "):])
    assert again[0] == "dpverify"
    assert main(again[1:]) == 0
    out2 = capsys.readouterr().out
    assert _bounds(out2) == _bounds(out) and _bounds(out)  # the time budget (300 s) was not reached either time
    assert _reproduce_line(out2) == line


def _restore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.slow
@pytest.mark.parametrize("delay", [2.0, 6.0, 15.0])
def test_ctrl_c_with_local_dask_workers_is_one_line(delay, tmp_path):
    """Delays chosen to land while the LocalCluster starts (2 s, 6 s on a loaded machine) and while the
    batches run (15 s, the audit needs minutes at 1e8 draws)."""
    pytest.importorskip("distributed")
    proc = subprocess.Popen([sys.executable, "-m", "dpverify", "audit", "laplace-scalar", "--workers", "2",
                             "--samples", "1e8", "--seed", "0"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, cwd=tmp_path, preexec_fn=_restore_ctrl_c)
    time.sleep(delay)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the audit did not end within 60 s of Ctrl-C")
    assert proc.returncode == 130, (proc.returncode, err[-3000:])
    assert "Traceback" not in err, err[-3000:]
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and "interrupted" in lines[0], err[-3000:]
