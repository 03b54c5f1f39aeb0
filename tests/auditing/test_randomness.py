"""Randomness honesty: samplers that ignore `rng` are detected, never pooled with repeated streams;
Ctrl-C ends an audit quickly with one line.

Rates: each audit below is a correct mechanism (false `violated` <= 1 - confidence = 0.05 by the
tester's guarantee); the repeated-stream failure this guards against gave epsilon_lower ~ 9 in
10 of 10 seeds, so a single audit distinguishes the two.
"""
from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import textwrap
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

import dpverify
from dpverify import PrivacyClaim
from dpverify.auditing import draws, executor


class GlobalLaplace:
    """A correct Laplace that draws from the global np.random (ignores rng), as many libraries do."""

    claim = PrivacyClaim(1.0)
    sensitivity = 1.0

    def sample(self, data, size, rng):
        return float(data) + np.random.laplace(0.0, 1.0, size)

    def log_density(self, outputs, data):
        return -math.log(2.0) - np.abs(np.asarray(outputs, dtype=float) - float(data))


class GlobalLaplaceBlackBox:
    claim = PrivacyClaim(1.0)
    sensitivity = 1.0

    def sample(self, data, size, rng):
        return float(data) + np.random.laplace(0.0, 1.0, size)


class HonestLaplace(GlobalLaplace):
    def sample(self, data, size, rng):
        return float(data) + rng.laplace(0.0, 1.0, size)


def test_honours_rng_probe():
    assert draws.honours_rng(HonestLaplace(), 0.0) is True
    assert draws.honours_rng(GlobalLaplace(), 0.0) is False


def test_result_says_whether_the_run_is_reproducible():
    assert dpverify.audit(HonestLaplace(), (0.0, 1.0), samples=2_000, rng=0).reproducible is True
    r = dpverify.audit(GlobalLaplace(), (0.0, 1.0), samples=2_000, rng=0)
    assert r.reproducible is False and any("ignores rng" in n for n in r.notes)
    assert r.to_dict()["reproducible"] is False


def test_a_callers_process_pool_is_not_used_for_a_sampler_that_ignores_rng():
    with ProcessPoolExecutor(2) as ex:
        r = dpverify.audit(GlobalLaplace(), (0.0, 1.0), samples=20_000, rng=1, executor=ex)
    assert any("ran serially" in n for n in r.notes)
    assert r.verdict != "violated"


def test_pool_workers_never_share_global_generator_state():
    """Two forked workers reseed np.random: their first draws differ."""
    pool, why = executor.auto_executor(HonestLaplace(), [(0.0, 1.0)], 2, honest=True)
    assert why is None
    try:
        draws = list(pool.map(_first_global_draw, range(8)))
    finally:
        pool.shutdown()
    pids = {p for p, _ in draws}
    by_pid = {p: v for p, v in draws}
    if len(pids) > 1:
        assert len(set(by_pid.values())) == len(pids)


def _first_global_draw(_):
    time.sleep(0.05)
    return os.getpid(), float(np.random.random())


@pytest.mark.slow
def test_black_box_pool_with_a_global_rng_sampler_is_not_a_false_alarm():
    # 5e5 outputs per dataset: above the automatic pool threshold (the old fork pool repeated draws).
    r = dpverify.audit(GlobalLaplaceBlackBox(), (0.0, 1.0), samples=500_000, rng=3)
    assert r.verdict != "violated" and r.epsilon_lower <= 1.0
    assert r.reproducible is False


SLOW_MODULE = textwrap.dedent('''
    import os
    import time
    import numpy as np
    from dpverify import PrivacyClaim

    MARK = os.path.join(os.path.dirname(__file__), "started")

    class Slow:
        claim = PrivacyClaim(1.0)
        sensitivity = 1.0

        def sample(self, data, size, rng):
            if size > 1:
                open(MARK, "a").close()
            time.sleep(0.3)
            return float(data) + rng.laplace(0.0, 1.0, size)

    MECH = Slow()
    PAIRS = (0.0, 1.0)
''')


def _restore_ctrl_c() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def popen_with_ctrl_c(args: list, **kwargs) -> subprocess.Popen:
    """``subprocess.Popen`` whose child starts with SIGINT at its default action, whatever this process has.

    A command started in the background by a non-interactive shell (``pytest ... &`` in a script, as
    when the suite runs beside other jobs) inherits SIGINT *ignored*, and Python keeps an inherited
    SIG_IGN: the child then never saw the Ctrl-C, ran its audit to the end and the test failed on
    time (13 s) although the audit stops within a second. The disposition is reset before exec."""
    return subprocess.Popen(args, preexec_fn=_restore_ctrl_c, **kwargs)


def test_the_ctrl_c_child_takes_sigint_even_when_the_runner_ignores_it():
    old = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        code = "import signal; print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)"
        inherited = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip()
        proc = popen_with_ctrl_c([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
        restored = proc.communicate(timeout=60)[0].strip()
    finally:
        signal.signal(signal.SIGINT, old)
    assert inherited == "False"  # the trap: an ignored SIGINT is inherited through exec
    assert restored == "True"


def test_ctrl_c_ends_a_pooled_audit_with_one_line(tmp_path):
    (tmp_path / "slow_mech_i12.py").write_text(SLOW_MODULE)
    env = dict(os.environ, PYTHONPATH=str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = popen_with_ctrl_c([sys.executable, "-m", "dpverify", "audit", "slow_mech_i12:MECH", "--pairs",
                              "slow_mech_i12:PAIRS", "--samples", "2000000", "--seed", "1"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True)
    deadline = time.monotonic() + 120
    while not (tmp_path / "started").exists() and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    assert (tmp_path / "started").exists(), "the audit never started sampling"
    time.sleep(1.5)
    proc.send_signal(signal.SIGINT)
    t0 = time.monotonic()
    try:
        out, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the audit did not end within 20 s of Ctrl-C")
    took = time.monotonic() - t0
    assert proc.returncode == 130, (proc.returncode, err)  # 0: the child never saw the SIGINT
    assert took < 10, took
    assert "Traceback" not in err
    lines = [ln for ln in err.strip().splitlines() if ln.strip()]
    assert len(lines) == 1 and "interrupted" in lines[0]


def test_own_pool_workers_start_with_ctrl_c_held_back_and_the_mask_restored():
    """auto_executor forks its workers at once with SIGINT blocked (a SIGINT landing in a fork's
    after-fork hooks was printed as "Exception ignored" and lost), then restores the caller's mask."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, set())
    pool, why = executor.auto_executor(GlobalLaplace(), [(0.0, 1.0)], 2, True)
    try:
        assert why is None
        assert len(pool._processes) == 2  # started now, not at the first audit task
        assert signal.pthread_sigmask(signal.SIG_BLOCK, set()) == before
        assert signal.SIGINT not in signal.pthread_sigmask(signal.SIG_BLOCK, set())
    finally:
        pool.shutdown()


def test_stop_executor_ends_the_manager_thread_after_a_half_written_result():
    """A worker killed mid-write leaves half a message in the result pipe; the pool's manager thread
    then waited for the rest for ever and the interpreter hung at exit. stop_executor closes the
    parent's write end after the workers are gone, so the thread reads end-of-file and ends."""
    import struct

    pool, _ = executor.auto_executor(HonestLaplace(), [(0.0, 1.0)], 2, True)
    manager = pool._executor_manager_thread
    assert manager is not None and manager.is_alive()
    # a header announcing 1000 bytes and only 10 of them, written directly into the result pipe
    os.write(pool._result_queue._writer.fileno(), struct.pack("!i", 1000) + b"x" * 10)
    time.sleep(0.5)
    assert manager.is_alive()  # stuck in recv: the defect this guards against
    executor.stop_executor(pool)
    manager.join(timeout=10)
    assert not manager.is_alive()
