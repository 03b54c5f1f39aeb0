"""time_budget bounds every call of the mechanism (issue 27, item 3), and black-box sizes are capped up front.

No test here is statistical except the result-equality ones, which compare two runs of one seed
(bit-identical or not: no false-failure rate). The deadline tests run with a shortened grace
(``deadline.GRACE``) so each takes a few seconds; the slow one uses the shipped grace.
"""
from __future__ import annotations

import math
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pytest

import dpverify
from dpverify import PrivacyClaim
from dpverify.auditing import deadline, draws, executor, plan_samples
from dpverify.errors import DeadlineExceeded, InvalidArgument, MechanismError

#: Seconds of slack over budget + grace for a loaded 2-core machine (fork, kill, reap).
SLACK = 6.0


class Laplace:
    """A correct Laplace(1) that honours rng."""

    claim = PrivacyClaim(1.0)
    sensitivity = 1.0

    def sample(self, data, size, rng):
        return float(data) + rng.laplace(0.0, 1.0, size)


class LaplaceWB(Laplace):
    def log_density(self, outputs, data):
        return -math.log(2.0) - np.abs(np.asarray(outputs, dtype=float) - float(data))


class Blocked(Laplace):
    """Blocks for ever in every call of at least ``size_from`` outputs (writing its pid first)."""

    def __init__(self, marker: str, size_from: int = 0):
        self.marker, self.size_from = marker, size_from

    def sample(self, data, size, rng):
        if size >= self.size_from:
            with open(self.marker, "a") as fh:
                fh.write(f"{os.getpid()}\n")
            while True:
                time.sleep(3600)
        return super().sample(data, size, rng)


class BlockedWB(Blocked, LaplaceWB):
    pass


def _alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie waiting for its reaper counts as gone)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (FileNotFoundError, ProcessLookupError):
        return False
    except OSError:  # pragma: no cover - no procfs
        try:
            os.kill(pid, 0)
            return True
        except OSError:
            return False


def _gone(pids: list[int], wait: float = 5.0) -> bool:
    end = time.monotonic() + wait
    while time.monotonic() < end:
        if not any(_alive(p) for p in pids):
            return True
        time.sleep(0.1)
    return False


@pytest.fixture
def short_grace(monkeypatch):
    monkeypatch.setattr(deadline, "GRACE", 1.0)
    return 1.0


needs_fork = pytest.mark.skipif(not deadline.can_supervise(None)[0], reason="no fork: audits are not supervised here")


@needs_fork
@pytest.mark.parametrize("mech_cls, samples", [(BlockedWB, 20_000), (Blocked, 2_000)], ids=["white-box", "black-box"])
def test_a_sampler_blocked_on_its_first_call_ends_at_the_deadline(tmp_path, short_grace, mech_cls, samples):
    marker = str(tmp_path / "pids")
    t0 = time.monotonic()
    with pytest.raises(DeadlineExceeded, match=r"time_budget=1 s") as info:
        dpverify.audit(mech_cls(marker), (0.0, 1.0), samples=samples, rng=0, time_budget=1.0)
    took = time.monotonic() - t0
    assert took < 1.0 + short_grace + SLACK, took
    assert info.value.time_budget == 1.0 and info.value.seconds >= 1.0
    assert isinstance(info.value, MechanismError)  # an error, never a passed audit
    pids = [int(x) for x in open(marker).read().split()]
    assert pids and os.getpid() not in pids  # the call ran in the supervised child, not here
    assert _gone(pids), "the blocked process was not killed"


@needs_fork
def test_a_black_box_sampler_blocked_in_the_pool_workers_ends_and_the_workers_are_killed(tmp_path, short_grace):
    """Default samples: the audit's own fork pool draws the batches; the workers block there."""
    marker = str(tmp_path / "pids")
    t0 = time.monotonic()
    with pytest.raises(DeadlineExceeded):  # (3 s: time for a loaded machine to start the pool and submit)
        dpverify.audit(Blocked(marker, size_from=1_000), (0.0, 1.0), rng=0, time_budget=3.0)
    assert time.monotonic() - t0 < 3.0 + short_grace + SLACK
    pids = [int(x) for x in open(marker).read().split()]
    assert pids and os.getpid() not in pids
    assert _gone(pids), "a pool worker of the supervised audit survived it"


@needs_fork
@pytest.mark.slow  # waits out the shipped 5 s grace
def test_issue_27_acceptance_time_budget_10_plus_a_few_seconds(tmp_path):
    for cls in (BlockedWB, Blocked):
        t0 = time.monotonic()
        with pytest.raises(DeadlineExceeded, match="time_budget=10 s"):
            dpverify.audit(cls(str(tmp_path / "pids"), size_from=2), (0.0, 1.0), rng=0, time_budget=10)
        took = time.monotonic() - t0
        assert 10.0 <= took < 10.0 + deadline.GRACE + SLACK, (cls.__name__, took)


def _same(a, b) -> None:
    da, db = a.to_dict(), b.to_dict()
    da.pop("seconds"), db.pop("seconds")
    assert da == db


@needs_fork
@pytest.mark.parametrize("mech, samples", [(LaplaceWB(), 20_000), (Laplace(), 5_000)], ids=["white-box", "black-box"])
def test_a_supervised_audit_gives_the_unsupervised_result_and_advances_the_callers_generator(mech, samples):
    g1, g2 = np.random.default_rng(7), np.random.default_rng(7)
    plain = dpverify.audit(mech, (0.0, 1.0), samples=samples, rng=g1)
    bounded = dpverify.audit(mech, (0.0, 1.0), samples=samples, rng=g2, time_budget=120)
    _same(plain, bounded)
    assert g1.random() == g2.random()  # the child's use of the generator came back


@needs_fork
def test_numpys_global_generator_advances_as_in_an_unsupervised_run():
    class Global(LaplaceWB):
        def sample(self, data, size, rng):
            return float(data) + np.random.laplace(0.0, 1.0, size)

    np.random.seed(3)
    dpverify.audit(Global(), (0.0, 1.0), samples=5_000, rng=0)
    after_plain = np.random.random()
    np.random.seed(3)
    dpverify.audit(Global(), (0.0, 1.0), samples=5_000, rng=0, time_budget=120)
    assert np.random.random() == after_plain


@needs_fork
def test_a_progress_callable_is_called_in_the_callers_process():
    ticks: list = []
    dpverify.audit(LaplaceWB(), (0.0, 1.0), samples=600_000, rng=0, time_budget=120,
                   progress=lambda done, total: ticks.append((os.getpid(), done, total)))
    assert ticks and {p for p, _, _ in ticks} == {os.getpid()}
    assert ticks[-1][1] == ticks[-1][2]


@needs_fork
def test_errors_of_the_supervised_audit_keep_their_type():
    class Raises(LaplaceWB):
        def sample(self, data, size, rng):
            raise RuntimeError("broken sampler")

    with pytest.raises(MechanismError, match="broken sampler"):
        dpverify.audit(Raises(), (0.0, 1.0), samples=2_000, rng=0, time_budget=60)
    with pytest.raises(InvalidArgument, match="time_budget"):
        dpverify.audit(LaplaceWB(), (0.0, 1.0), samples=2_000, time_budget=float("nan"))


@needs_fork
def test_a_sampler_that_kills_its_process_is_an_error_not_a_hang():
    class Exits(LaplaceWB):
        def sample(self, data, size, rng):
            os._exit(3)

    with pytest.raises(MechanismError, match="without an answer .*exit code 3"):
        dpverify.audit(Exits(), (0.0, 1.0), samples=2_000, rng=0, time_budget=60)


def test_on_a_callers_executor_the_wait_for_a_blocked_batch_ends_at_the_deadline(short_grace):
    """A caller's executor cannot be carried into a child: its batches' waits are bounded instead, and
    its workers are never killed (here the blocked thread is released after the test)."""
    release = threading.Event()

    class Stuck(LaplaceWB):
        def sample(self, data, size, rng):
            if size > 1_000:
                release.wait()
            return super().sample(data, size, rng)

    ex = ThreadPoolExecutor(2)
    try:
        t0 = time.monotonic()
        with pytest.raises(DeadlineExceeded, match="executor"):
            dpverify.audit(Stuck(), (0.0, 1.0), samples=20_000, rng=0, executor=ex, time_budget=1.0,
                           consistency=False)
        assert time.monotonic() - t0 < 1.0 + short_grace + SLACK
    finally:
        release.set()
        ex.shutdown(wait=True)
    with ThreadPoolExecutor(2) as ex:
        ok = dpverify.audit(LaplaceWB(), (0.0, 1.0), samples=5_000, rng=0, executor=ex, time_budget=60)
    assert any("executor" in n and "time_budget" in n for n in ok.notes)


# -- up-front caps -----------------------------------------------------------------------------------

def test_plan_samples_caps_with_a_note_and_refuses_what_memory_cannot_hold():
    p = plan_samples(10**12)
    assert (p.samples, p.capped, p.max_samples) == (draws.DEFAULT_MAX_SAMPLES, True, draws.DEFAULT_MAX_SAMPLES)
    assert "samples=1000000000000 is above max_samples=100000000; capped" in p.note
    q = plan_samples(5_000)
    assert (q.samples, q.capped, q.note) == (5_000, False, None)
    with pytest.raises(InvalidArgument, match=r"--samples-scale=1000000000000000 .* GiB"):
        plan_samples(10**15, 10**15, name="--samples-scale", max_name="--max-samples")
    for bad in (0, 1.5, float("inf"), float("nan"), True):
        with pytest.raises(InvalidArgument, match="samples="):
            plan_samples(bad)


def test_black_box_samples_10_to_the_12_is_capped_up_front():
    r = dpverify.audit(Laplace(), (0.0, 1.0), samples=10**12, rng=0, max_samples=4_000)
    assert r.samples <= 4_000
    assert any("samples=1000000000000 is above max_samples=4000; capped" in n for n in r.notes)
    with pytest.raises(InvalidArgument, match="GiB"):
        dpverify.audit(Laplace(), (0.0, 1.0), samples=10**15, rng=0, max_samples=10**15)


def test_the_cli_caps_black_box_samples_too(monkeypatch, capsys, tmp_path):
    import json
    import sys

    (tmp_path / "bb_cap_mech.py").write_text(
        "import numpy as np\nfrom dpverify import PrivacyClaim\n"
        "class L:\n    claim = PrivacyClaim(1.0)\n    sensitivity = 1.0\n"
        "    def sample(self, data, size, rng):\n        return float(data) + rng.laplace(0.0, 1.0, size)\n"
        "MECH = L()\nPAIRS = (0.0, 1.0)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(draws, "DEFAULT_MAX_SAMPLES", 3_000)  # the default cap, small enough to run here
    from dpverify.cli import main

    assert main(["audit", "bb_cap_mech:MECH", "--pairs", "bb_cap_mech:PAIRS", "--samples", "1e12", "--seed", "1",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["samples"] <= 3_000
    assert any("above max_samples=3000; capped" in n for n in doc["notes"])
    sys.modules.pop("bb_cap_mech", None)


# -- the pool policy ---------------------------------------------------------------------------------

class PrivateGenerator(Laplace):
    """Ignores rng and draws from a generator it carries: pickled with every pool task, so every batch on
    a pool would start from the same state and repeat the same draws."""

    def __init__(self):
        self._gen = np.random.default_rng()

    def sample(self, data, size, rng):
        return float(data) + self._gen.laplace(0.0, 1.0, size)


_MODULE_GEN = np.random.default_rng(5)


class ModuleGenerator(Laplace):
    """Ignores rng and draws from a module's generator: every forked worker starts from its state."""

    def sample(self, data, size, rng):
        return float(data) + _MODULE_GEN.laplace(0.0, 1.0, size)


class GlobalNumpy(Laplace):
    """Ignores rng and draws from numpy's global generator, which every pool worker reseeds."""

    def sample(self, data, size, rng):
        return float(data) + np.random.laplace(0.0, 1.0, size)


class Counter(Laplace):
    """Ignores rng; its randomness comes from a call counter that travels with the pickled mechanism."""

    def __init__(self):
        self.calls = 0

    def sample(self, data, size, rng):
        self.calls += 1
        return float(data) + np.random.default_rng(self.calls).laplace(0.0, 1.0, size)


needs_two_cores = pytest.mark.skipif((os.cpu_count() or 1) < 2, reason="the audit's own pool needs 2 cores")


@needs_two_cores
@pytest.mark.parametrize("mech", [PrivateGenerator(), ModuleGenerator(), Counter()], ids=lambda m: type(m).__name__)
def test_a_sampler_whose_state_would_repeat_in_workers_runs_serially(mech):
    """The adversaries of the pool policy: each would give every batch (or every worker) the same draws."""
    pool, why = executor.auto_pool(10**6, mech, [(0.0, 1.0)])
    assert pool is None and "ran serially" in why and "repeated" in why


@needs_two_cores
def test_a_sampler_that_ignores_rng_but_draws_independently_in_workers_gets_the_pool_with_a_note():
    pool, why = executor.auto_pool(10**6, GlobalNumpy(), [(0.0, 1.0)])
    try:
        assert pool is not None and "ignores rng" in why and "forked workers" in why
        assert pool._mp_context.get_start_method() == "fork"
    finally:
        if pool is not None:
            pool.shutdown()
    pool, why = executor.auto_pool(10**6, Laplace(), [(0.0, 1.0)])
    try:
        assert why is None and pool._mp_context.get_start_method() == "fork"
    finally:
        pool.shutdown()


SLOW_MODULE = '''
import os, time
from dpverify import PrivacyClaim

class Slow:
    claim = PrivacyClaim(1.0)
    sensitivity = 1.0

    def sample(self, data, size, rng):
        if size > 64:
            with open(os.path.join(os.path.dirname(__file__), "pids"), "a") as fh:
                fh.write(f"{os.getpid()}\\n")
            time.sleep(3600)
        return float(data) + rng.laplace(0.0, 1.0, size)

MECH = Slow()
PAIRS = (0.0, 1.0)
'''


@needs_fork
def test_ctrl_c_ends_a_supervised_cli_audit_at_once_and_kills_its_process(tmp_path):
    import signal
    import subprocess
    import sys

    (tmp_path / "slow_mech_dl.py").write_text(SLOW_MODULE)
    env = dict(os.environ, PYTHONPATH=str(tmp_path) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen([sys.executable, "-m", "dpverify", "audit", "slow_mech_dl:MECH", "--pairs", "slow_mech_dl:PAIRS",
                             "--samples", "2000", "--seed", "1", "--time-budget", "300"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    marker = tmp_path / "pids"
    end = time.monotonic() + 60
    while not marker.exists() and time.monotonic() < end and proc.poll() is None:
        time.sleep(0.1)
    assert marker.exists(), proc.communicate()[1][-2000:]
    proc.send_signal(signal.SIGINT)
    try:
        _, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        proc.kill()
        pytest.fail("the supervised audit did not end within 20 s of Ctrl-C")
    assert proc.returncode == 130 and "Traceback" not in err, err
    pids = [int(x) for x in marker.read_text().split()]
    assert _gone(pids), "the supervised audit's process survived Ctrl-C"


class _Unpicklable:
    """A dataset that cannot be pickled (it holds a lock): the result holding it cannot leave the child."""

    def __init__(self, v):
        self.v, self.lock = v, threading.Lock()

    def __float__(self):
        return float(self.v)


@needs_fork
def test_a_result_that_cannot_come_back_is_a_clear_error():
    with pytest.raises(InvalidArgument, match="cannot be pickled to come back"):
        dpverify.audit(LaplaceWB(), (_Unpicklable(0.0), _Unpicklable(1.0)), samples=2_000, rng=0, time_budget=60,
                       consistency=False)
