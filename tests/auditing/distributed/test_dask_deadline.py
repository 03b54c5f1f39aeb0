"""time_budget on a Dask cluster: a task blocked in a worker ends the audit at the hard deadline
(DeadlineExceeded; pending tasks cancelled). In-process cluster (threads), so the blocked task is
released after each test. Not statistical."""
from __future__ import annotations

import math
import threading
import time

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from dpverify import PrivacyClaim, audit  # noqa: E402
from dpverify.auditing import deadline  # noqa: E402
from dpverify.errors import DeadlineExceeded  # noqa: E402

RELEASE = threading.Event()


class Stuck:
    """A Laplace(1) whose batch draws (more than 64 outputs) wait for RELEASE."""

    claim = PrivacyClaim(1.0)
    sensitivity = 1.0

    def sample(self, data, size, rng):
        if size > 64:
            RELEASE.wait()
        return float(data) + rng.laplace(0.0, 1.0, size)


class StuckWB(Stuck):
    def log_density(self, outputs, data):
        return -math.log(2.0) - np.abs(np.asarray(outputs, dtype=float) - float(data))


@pytest.fixture(scope="module")
def client():
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=1, threads_per_worker=1, processes=False, dashboard_address=":0",
                           silence_logs=40)
    cl = Client(cluster)
    yield cl
    RELEASE.set()
    cl.close()
    cluster.close()


@pytest.mark.parametrize("mech, kw", [(StuckWB(), {"consistency": False}), (Stuck(), {})], ids=["white-box", "black-box"])
def test_a_task_blocked_on_the_cluster_ends_at_the_hard_deadline(client, monkeypatch, mech, kw):
    monkeypatch.setattr(deadline, "GRACE", 1.0)
    RELEASE.clear()
    t0 = time.monotonic()
    try:
        with pytest.raises(DeadlineExceeded, match="Dask cluster"):
            audit(mech, (0.0, 1.0), samples=5_000, rng=0, executor=client, time_budget=1.0, **kw)
        assert time.monotonic() - t0 < 2.0 + 8.0
    finally:
        RELEASE.set()
    time.sleep(0.5)  # the released task ends before the next test uses the worker
