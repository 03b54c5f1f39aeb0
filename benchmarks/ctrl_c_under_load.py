"""Ctrl-C of a pooled black-box audit, many times, under background load: how long from SIGINT to exit?

The scenario is the one of ``tests/auditing/test_randomness.py::test_ctrl_c_ends_a_pooled_audit_with_one_line``:
``python -m dpverify audit slow_mech:MECH`` (a sampler that sleeps 0.3 s per batch, the automatic 2-worker
process pool), SIGINT 1.5 s after sampling started. Per run it records the seconds from SIGINT to the
"interrupted" line on stderr (the main thread has taken the KeyboardInterrupt and stopped the pool) and to
the process's exit, the exit code and the number of stderr lines. When a run is still alive ``--trace-after``
seconds after SIGINT, the child's threads are dumped (faulthandler on SIGUSR1, installed by a
``sitecustomize`` in the run's own directory only; and py-spy when available), so a slow run says where it
waited.

Load (``--load``): ``numpy`` (3 processes of matrix products that also allocate ~100 MB each round),
``pytest`` (``pytest -n 2 tests/symbolic``, restarted when it ends: 3 processes), ``coqc`` (3 loops compiling
proofs/coq/*.v into a scratch directory), or ``none``.

    python benchmarks/ctrl_c_under_load.py --runs 40 --load numpy
"""
from __future__ import annotations

import argparse
import os
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# the very scenario of tests/auditing/test_randomness.py::test_ctrl_c_ends_a_pooled_audit_with_one_line
sys.path.insert(0, str(ROOT / "tests" / "auditing"))
from test_randomness import SLOW_MODULE  # noqa: E402

# Only in the run's directory (on the child's PYTHONPATH): SIGUSR1 dumps every thread of the process.
SITECUSTOMIZE = textwrap.dedent('''
    import faulthandler, os, signal
    _f = open(os.path.join(os.path.dirname(__file__), "trace-%d.txt" % os.getpid()), "w")
    faulthandler.register(signal.SIGUSR1, file=_f, all_threads=True)
''')

NUMPY_LOAD = textwrap.dedent('''
    import numpy as np
    rng = np.random.default_rng()
    while True:
        a = rng.random((1500, 1500))
        b = a @ a
        c = np.sort(rng.random(12_000_000))
        del a, b, c
''')


def start_load(kind: str, procs: int, scratch: Path) -> list[subprocess.Popen]:
    if kind == "none":
        return []
    if kind == "numpy":
        return [subprocess.Popen([sys.executable, "-c", NUMPY_LOAD]) for _ in range(procs)]
    if kind == "pytest":
        loop = (f"while true; do {sys.executable} -m pytest -n 2 -q -p no:cacheprovider tests/symbolic "
                ">/dev/null 2>&1; done")
        return [subprocess.Popen(["bash", "-c", loop], cwd=ROOT, start_new_session=True)]
    if kind == "coqc":
        out = []
        for i in range(procs):
            d = scratch / f"coq{i}"
            d.mkdir()
            for v in (ROOT / "proofs" / "coq").glob("*.v"):
                shutil.copy(v, d)
            order = " ".join(ln for ln in (ROOT / "proofs" / "coq" / "_CoqProject").read_text().split()
                             if ln.endswith(".v"))
            loop = f"while true; do for f in {order}; do coqc -Q . DPVerify $f >/dev/null 2>&1; done; done"
            out.append(subprocess.Popen(["bash", "-c", loop], cwd=d, start_new_session=True))
        return out
    raise SystemExit(f"--load={kind!r}: use none, numpy, pytest or coqc")


def stop_load(procs: list[subprocess.Popen]) -> None:
    for p in procs:
        try:
            os.killpg(p.pid, signal.SIGTERM) if p.args[0] == "bash" else p.terminate()
        except ProcessLookupError:
            pass
    for p in procs:
        try:
            p.wait(timeout=10)
        except subprocess.TimeoutExpired:
            p.kill()


def _restore_ctrl_c() -> None:
    # a script started with `&` by a non-interactive shell has SIGINT ignored, and its children inherit that
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def one_run(i: int, trace_after: float, py_spy: str | None, inherit: bool) -> dict:
    d = Path(tempfile.mkdtemp(prefix=f"ctrlc{i}-"))
    (d / "slow_mech_ctrlc.py").write_text(SLOW_MODULE)
    (d / "sitecustomize.py").write_text(SITECUSTOMIZE)
    env = dict(os.environ, PYTHONPATH=str(d) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "dpverify", "audit", "slow_mech_ctrlc:MECH", "--pairs",
                             "slow_mech_ctrlc:PAIRS", "--samples", "2000000", "--seed", "1"],
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env, text=True, cwd=d,
                            preexec_fn=None if inherit else _restore_ctrl_c)
    lines: list[tuple[float, str]] = []

    def read() -> None:
        for line in proc.stderr:
            lines.append((time.monotonic(), line.rstrip("\n")))

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    deadline = time.monotonic() + 120
    while not (d / "started").exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.05)
    if not (d / "started").exists():
        proc.kill()
        return {"run": i, "error": "never started", "stderr": [s for _, s in lines]}
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    traced = []
    try:
        proc.wait(timeout=trace_after)
    except subprocess.TimeoutExpired:
        kids = subprocess.run(["ps", "-o", "pid=,stat=,pcpu=,cmd=", "--ppid", str(proc.pid)],
                              capture_output=True, text=True).stdout.strip()
        traced.append(f"[{time.monotonic() - t0:.2f} s after SIGINT] children:\n{kids or '(none)'}")
        if py_spy:
            spy = subprocess.run([py_spy, "dump", "--pid", str(proc.pid)], capture_output=True, text=True)
            traced.append(f"py-spy:\n{spy.stdout}{spy.stderr}")
        try:
            os.kill(proc.pid, signal.SIGUSR1)
        except ProcessLookupError:
            pass
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    t_exit = time.monotonic() - t0
    reader.join(timeout=5)
    t_line = next((t - t0 for t, s in lines if "interrupted" in s), None)
    for f in d.glob("trace-*.txt"):
        text = f.read_text()
        if text.strip():
            traced.append(f"faulthandler ({f.name}):\n{text}")
    shutil.rmtree(d, ignore_errors=True)
    return {"run": i, "exit_s": t_exit, "line_s": t_line, "code": proc.returncode,
            "stderr": [s for _, s in lines if s.strip()], "trace": traced}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=40)
    ap.add_argument("--load", default="numpy")
    ap.add_argument("--load-procs", type=int, default=3)
    ap.add_argument("--trace-after", type=float, default=3.0, help="dump the child's threads if alive after this")
    ap.add_argument("--py-spy", default=shutil.which("py-spy"))
    ap.add_argument("--inherit-sigint", action="store_true",
                    help="let the audit inherit this script's SIGINT disposition (ignored when started with `&`)")
    args = ap.parse_args()
    py_spy = args.py_spy if args.py_spy and os.path.exists(args.py_spy) else None
    scratch = Path(tempfile.mkdtemp(prefix="ctrlc-load-"))
    load = start_load(args.load, args.load_procs, scratch)
    results = []
    try:
        time.sleep(3 if load else 0)
        for i in range(args.runs):
            r = one_run(i, args.trace_after, py_spy, args.inherit_sigint)
            results.append(r)
            load_avg = os.getloadavg()[0]
            if "error" in r:
                print(f"run {i}: {r['error']} {r['stderr']}", flush=True)
                continue
            ok = r["code"] == 130 and len(r["stderr"]) == 1 and "interrupted" in r["stderr"][0]
            line_s = f"{r['line_s']:.2f}" if r["line_s"] is not None else "-"
            print(f"run {i:2d}: load {load_avg:4.1f}  line {line_s:>5} s  exit {r['exit_s']:5.2f} s  "
                  f"code {r['code']}  stderr lines {len(r['stderr'])}{'' if ok else '  BAD: ' + repr(r['stderr'])}",
                  flush=True)
            for t in r["trace"]:
                print(textwrap.indent(t, "    | "), flush=True)
    finally:
        stop_load(load)
        shutil.rmtree(scratch, ignore_errors=True)
    done = [r for r in results if "error" not in r]
    if done:
        ex = sorted(r["exit_s"] for r in done)
        ln = sorted(r["line_s"] for r in done if r["line_s"] is not None)
        bad = sum(1 for r in done if r["code"] != 130 or len(r["stderr"]) != 1)
        print(f"\nload={args.load} x{args.load_procs}, {len(done)} runs: SIGINT->exit median {statistics.median(ex):.2f} s, "
              f"max {ex[-1]:.2f} s, over 10 s: {sum(e > 10 for e in ex)}, over 3 s: {sum(e > 3 for e in ex)}; "
              f"SIGINT->line median {statistics.median(ln) if ln else float('nan'):.2f} s, "
              f"max {ln[-1] if ln else float('nan'):.2f} s; wrong exit code or stderr: {bad}")


if __name__ == "__main__":
    main()
