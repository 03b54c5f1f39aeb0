"""A Dask worker killed (SIGKILL) in the middle of an audit costs only its tasks: the scheduler runs
them again with the same seeds, and the result is the one of an undisturbed serial run.

The cluster is a LocalCluster of 2 worker processes (with nannies, which restart a dead worker),
started and stopped here; the kill comes from the audit's own progress callback after the first
task has completed, so it always falls inside the run (while both workers hold tasks: the
engine keeps 2 x threads + 2 tasks in flight).
"""
from __future__ import annotations

import os
import signal

import pytest

distributed = pytest.importorskip("distributed")

from dpverify import PrivacyClaim, audit  # noqa: E402
from dpverify.auditing import distributed as dist  # noqa: E402
from dpverify.auditing.executor import InlineExecutor  # noqa: E402
from dpverify.auditing.result import jsonable  # noqa: E402
from dpverify_mechanisms.lecture21_dp import ScalarLaplace  # noqa: E402


def _doc(result) -> dict:
    d = jsonable(result.to_dict())
    d.pop("seconds")
    return d


@pytest.mark.slow
def test_killed_worker_costs_only_its_tasks(monkeypatch):
    from distributed import Client, LocalCluster

    monkeypatch.setattr(dist, "GROUP", 1)  # one 2^18-output batch per task: tasks of ~0.1 s
    mech, pair, claim = ScalarLaplace(1.0), (0.0, 1.0), PrivacyClaim(0.9, 0.0)
    samples = 3_000_000  # 12 batches per direction
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0",
                      silence_logs=50) as cluster, Client(cluster) as client:
        pids = client.run(os.getpid)
        victim = sorted(pids.values())[0]
        log = []

        def progress(done, total):
            if not log:
                log.append((done, total))
                os.kill(victim, signal.SIGKILL)

        disturbed = audit(mech, pair, claim=claim, samples=samples, rng=7, executor=client, progress=progress)
        client.wait_for_workers(2, timeout=60)
        after = set(client.run(os.getpid).values())
    assert log and log[0][0] < log[0][1]  # the kill came before the last task completed
    assert victim not in after  # the nanny restarted the killed worker: it really died mid-run
    undisturbed = audit(mech, pair, claim=claim, samples=samples, rng=7, executor=InlineExecutor())
    a, b = _doc(disturbed), _doc(undisturbed)
    assert a["samples"] == samples and a["verdict"] == "violated"
    assert a == b


class _DiesOnce:
    """NaiveFloatLaplace that kills its own worker process (SIGKILL) in the first certification batch
    drawn after ``armed`` exists and ``marker`` does not (it creates ``marker`` first): the worker dies
    mid-task, whatever it holds (the task, maybe the stage context every task names) is lost."""

    def __init__(self, armed: str, marker: str):
        from dpverify_mechanisms.faulty.float_laplace import NaiveFloatLaplace

        self.inner, self.armed, self.marker = NaiveFloatLaplace(1.0), armed, marker

    def sample(self, data, size, rng):
        if size == 1 << 16 and os.path.exists(self.armed) and not os.path.exists(self.marker):
            open(self.marker, "w").close()
            os.kill(os.getpid(), signal.SIGKILL)
        return self.inner.sample(data, size, rng)


@pytest.mark.slow
def test_killed_worker_in_a_black_box_run_costs_only_its_task(tmp_path):
    from distributed import Client

    armed, marker = str(tmp_path / "armed"), str(tmp_path / "killed")
    mech = _DiesOnce(armed, marker)
    claim = PrivacyClaim(1.0, 0.0)
    undisturbed = audit(mech, (0.0, 1.0), claim=claim, samples=1_500_000, rng=7, executor=InlineExecutor())
    with dist.local_cluster(2, dashboard_address=":0", silence_logs=50) as cluster, Client(cluster) as client:
        pids = set(client.run(os.getpid).values())
        # local_cluster's workers run without Dask's MALLOC_TRIM_THRESHOLD_ (it doubles their CPU here)
        assert set(client.run(os.environ.get, "MALLOC_TRIM_THRESHOLD_").values()) == {None}
        open(armed, "w").close()
        disturbed = audit(mech, (0.0, 1.0), claim=claim, samples=1_500_000, rng=7, executor=client)
        client.wait_for_workers(2, timeout=60)
        after = set(client.run(os.getpid).values())
    assert os.path.exists(marker) and pids - after  # a worker really died during the run
    a, b = _doc(disturbed), _doc(undisturbed)
    assert a["samples"] == 1_500_000 and a == b
