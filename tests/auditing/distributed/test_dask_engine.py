"""The Dask engine: the same result as serial / a local pool / any worker count, same seed.

One in-process cluster of 2 workers and one of 1 worker (threads, ``processes=False``) serve the
whole module. Batches are made small (``BATCH_ELEMENTS``/``BATCH_OUTPUTS`` patched) so that a
quick audit still has many batches and several Dask tasks per direction, i.e. real merges in
an order set by completion.
"""
from __future__ import annotations

import pickle
import threading
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

distributed = pytest.importorskip("distributed")

from dpverify import PrivacyClaim, audit  # noqa: E402
from dpverify.auditing import draws  # noqa: E402
from dpverify.auditing.blackbox import certify as bb_certify, probe as bb_probe  # noqa: E402
from dpverify.auditing import distributed as dist  # noqa: E402
from dpverify.auditing.executor import InlineExecutor  # noqa: E402
from dpverify.auditing.result import jsonable  # noqa: E402
from dpverify.auditing.whitebox import stream_group  # noqa: E402
from dpverify.errors import InvalidArgument  # noqa: E402
from dpverify_mechanisms.faulty.histogram import HistogramScaleEpsilon  # noqa: E402
from dpverify_mechanisms.faulty.registry import _hist_pairs  # noqa: E402
from dpverify_mechanisms.lecture21_dp import ScalarLaplace  # noqa: E402


@pytest.fixture(scope="module")
def clients():
    from distributed import Client, LocalCluster

    kw = dict(threads_per_worker=1, processes=False, dashboard_address=":0", silence_logs=40)
    c2 = LocalCluster(n_workers=2, **kw)
    c1 = LocalCluster(n_workers=1, **kw)
    cl2, cl1 = Client(c2), Client(c1)
    yield {1: cl1, 2: cl2}
    for cl, c in ((cl1, c1), (cl2, c2)):
        cl.close()
        c.close()


@pytest.fixture
def small_batches(monkeypatch):
    monkeypatch.setattr(draws, "BATCH_ELEMENTS", 4096)  # white-box: 4,096 outputs per batch
    monkeypatch.setattr(bb_probe, "BATCH_OUTPUTS", 512)  # read by the probe (batch size)
    monkeypatch.setattr(dist, "GROUP", 3)
    # the patches take effect: the batch plan and the Dask grouping read them at each call
    assert draws.batch_plan(10_000, 1).sizes == (4096, 4096, 1808)
    assert dist.group_size(10**6, 1) == 3


def _doc(result) -> dict:
    d = jsonable(result.to_dict())
    d.pop("seconds")
    return d


def _runs(mech, pair, clients, samples, seed, pool=False, **kw):
    out = {"serial": _doc(audit(mech, pair, samples=samples, rng=seed, executor=InlineExecutor(), **kw))}
    for w, cl in clients.items():
        out[f"dask-{w}"] = _doc(audit(mech, pair, samples=samples, rng=seed, executor=cl, **kw))
    if pool:
        with ProcessPoolExecutor(2) as p:
            out["pool"] = _doc(audit(mech, pair, samples=samples, rng=seed, executor=p, **kw))
    return out


def _white_box(clients, samples, pool):
    # Laplace claimed at eps = 0.8 (true 1.0): a violation, so the bounds carry information.
    mech = ScalarLaplace(1.0)
    runs = _runs(mech, (0.0, 1.0), clients, samples, 11, pool, claim=PrivacyClaim(0.8, 0.0))
    ref = runs["serial"]
    assert ref["verdict"] == "violated" and ref["samples"] == samples and ref["epsilon_lower"] > 0.8
    for name, doc in runs.items():
        assert doc == ref, name
    # the comparison can fail: another seed gives other bounds
    other = _doc(audit(mech, (0.0, 1.0), samples=samples, rng=12, executor=clients[2], claim=PrivacyClaim(0.8, 0.0)))
    assert other["directions"] != ref["directions"]


def _black_box(clients, samples, pool, learned):
    mech = HistogramScaleEpsilon(0.5)  # faulty: true epsilon 2 for the claim 0.5
    runs = _runs(mech, _hist_pairs()[0], clients, samples, 3, pool, learned=learned)
    ref = runs["serial"]
    assert ref["verdict"] == "violated"
    for name, doc in runs.items():
        assert doc == ref, name
    other = _doc(audit(mech, _hist_pairs()[0], samples=samples, rng=4, executor=clients[2], learned=learned))
    assert other["directions"] != ref["directions"]


def test_white_box_same_result_serial_and_1_or_2_dask_workers(clients, small_batches):
    _white_box(clients, 30_000, pool=False)


def test_black_box_same_result_serial_and_dask(clients, small_batches):
    _black_box({2: clients[2]}, 3_000, pool=False, learned=False)


@pytest.mark.slow
def test_same_result_on_every_engine_larger(clients, small_batches):
    """Serial, local process pool, 1 and 2 Dask workers: identical dicts (white- and black-box, with the
    learned events)."""
    _white_box(clients, 200_000, pool=True)
    _black_box(clients, 12_000, pool=True, learned=True)


def test_summary_wire_format_is_lossless_and_small():
    from dpverify.auditing.streaming import DirectionStats
    from dpverify.auditing.whitebox import EPSILON_GRID, stream_batch

    eval_eps = np.unique(np.append(EPSILON_GRID, 1.0))
    st = stream_batch(ScalarLaplace(1.0), 0.0, 1.0, 1 << 16, np.random.SeedSequence(4), None, eval_eps,
                       np.array([0.5, 1.0]))
    blob = pickle.dumps(st)
    back = pickle.loads(blob)
    assert len(blob) < 10_000 < st.nbytes()
    for f in ("n", "infinite", "log_mass", "recomputed", "imprecise"):
        assert getattr(back, f) == getattr(st, f)
    for f in ("delta_sums", "weighted", "below"):
        a, b = getattr(back, f), getattr(st, f)
        assert a.dtype == b.dtype and np.array_equal(a, b)
    # wide (Python int) sums keep their exact values too
    wide = DirectionStats(3, 0, np.array([2**70, 0], dtype=object), np.array([1], dtype=object),
                          np.array([0], dtype=np.int64))
    assert pickle.loads(pickle.dumps(wide)).delta_sums.tolist() == [2**70, 0]


class _Locked:
    """A mechanism holding a lock: it cannot be pickled."""

    def __init__(self):
        self.lock = threading.Lock()
        self.inner = ScalarLaplace(1.0)
        self.claim = self.inner.claim

    def sample(self, data, size, rng):
        return self.inner.sample(data, size, rng)

    def log_density(self, outputs, data):
        return self.inner.log_density(outputs, data)

    def __repr__(self):
        return "_Locked()"


def test_unpicklable_mechanism_is_named_and_factory_rebuilds_it(clients, small_batches):
    with pytest.raises(InvalidArgument, match=r"mechanism=_Locked\(\) cannot be pickled.*FromFactory"):
        audit(_Locked(), (0.0, 1.0), samples=5_000, rng=1, executor=clients[2])
    with pytest.raises(InvalidArgument, match=r"pairs\[1\]=\(0.0, <unlocked _thread.lock"):
        dist.check_picklable("pairs[1]", (0.0, threading.Lock()))
    built = dist.FromFactory(_Locked)
    assert "cannot be pickled" not in repr(built) and pickle.loads(pickle.dumps(built)).claim == _Locked().claim
    a = _doc(audit(built, (0.0, 1.0), samples=20_000, rng=2, executor=clients[2]))
    b = _doc(audit(_Locked(), (0.0, 1.0), samples=20_000, rng=2))
    assert a.pop("neighbour_checks") and b.pop("neighbour_checks")
    assert a == b


def test_mechanism_error_on_a_worker_reaches_the_caller(clients, small_batches):
    from dpverify.errors import MechanismError

    class Bad(ScalarLaplace):
        def sample(self, data, size, rng):
            out = super().sample(data, size, rng)
            return out if size < 100 else out[:-1]  # the batches (not the probes) come back one short

    with pytest.raises(MechanismError, match="returned shape"):
        audit(Bad(1.0), (0.0, 1.0), samples=20_000, rng=1, executor=clients[2])


def test_time_budget_on_dask_keeps_a_prefix(clients, small_batches):
    res = audit(ScalarLaplace(1.0), (0.0, 1.0), samples=2_000_000, rng=1, executor=clients[2], time_budget=0.3)
    assert res.stopped_early and 0 < res.samples < 2_000_000
    # a prefix of the fixed batch order: whole groups of 3 batches of 4,096 (the last one may be short)
    assert all(d.samples % (3 * 4096) == 0 for d in res.directions)


def test_missing_dask_is_one_clear_error(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed -> ImportError
    with pytest.raises(InvalidArgument, match=r"needs dask.distributed, which is not installed; pip install"):
        dist.connect(workers=2)


def test_importing_dpverify_does_not_import_dask():
    import subprocess
    import sys

    code = "import dpverify, dpverify.auditing.distributed, sys; print('distributed' in sys.modules or 'dask' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"


def test_cli_scheduler_option_gives_the_local_result(clients, capsys):
    import json

    from dpverify.cli import main

    argv = ["audit", "laplace-scalar", "--samples", "20000", "--seed", "5", "--json"]
    assert main(argv) == 0
    local = json.loads(capsys.readouterr().out)
    assert main(argv + ["--scheduler", clients[2].scheduler.address]) == 0
    remote = json.loads(capsys.readouterr().out)
    local.pop("seconds"), remote.pop("seconds")
    assert remote == local and local["samples"] == 20000
    assert clients[2].status == "running"  # a cluster the CLI did not start keeps running


@pytest.mark.slow
def test_cli_workers_option_starts_and_stops_a_local_cluster(capsys):
    import json

    from dpverify.cli import main

    argv = ["audit", "laplace-scalar", "--samples", "20000", "--seed", "5", "--json"]
    assert main(argv + ["--workers", "2"]) == 0
    a = json.loads(capsys.readouterr().out)
    assert main(argv) == 0
    b = json.loads(capsys.readouterr().out)
    a.pop("seconds"), b.pop("seconds")
    assert a == b


class _Elsewhere(ScalarLaplace):
    """An adversary: off the caller's main thread (i.e. on a worker) it is another mechanism -
    its outputs shift by ``shift``, or its log densities move by one ulp (``ulp=True``)."""

    shift, ulp = 0.0, False

    def sample(self, data, size, rng):
        out = super().sample(data, size, rng)
        return out if threading.current_thread() is threading.main_thread() else out + self.shift

    def log_density(self, outputs, data):
        d = super().log_density(outputs, data)
        return d if threading.current_thread() is threading.main_thread() or not self.ulp else np.nextafter(d, 0)


def test_workers_running_another_mechanism_are_refused(clients):
    mech = _Elsewhere(1.0)
    mech.shift = 0.5  # the workers would audit a shifted sampler, never run by the caller
    with pytest.raises(InvalidArgument, match=r"Dask worker .* draws other outputs than this process"):
        audit(mech, (0.0, 1.0), samples=5_000, rng=1, executor=clients[2])
    same = _Elsewhere(1.0)  # the same code everywhere: no note, no error
    assert not [n for n in audit(same, (0.0, 1.0), samples=5_000, rng=1, executor=clients[1]).notes if "Dask" in n]
    bits = _Elsewhere(1.0)
    bits.ulp = True
    res = audit(bits, (0.0, 1.0), samples=5_000, rng=1, executor=clients[1])
    assert any("differ in the last bits" in n for n in res.notes)


def test_tree_reduce_in_any_order_gives_the_serial_bits():
    """Merging white-box summaries is exact: any tree over any order (with pickling between the
    steps, as over the network) gives the serial fold's statistics bit for bit."""
    from dpverify.auditing.whitebox import EPSILON_GRID, stream_batch

    eval_eps = np.unique(np.append(EPSILON_GRID, 0.9))
    seeds = np.random.SeedSequence(8).spawn(12)
    parts = [stream_batch(ScalarLaplace(1.0), 0.0, 1.0, 3000, s, None, eval_eps, np.array([0.3, 0.9]))
             for s in seeds]
    serial = parts[0]
    for p in parts[1:]:
        serial = serial.merge(p)
    rng = np.random.default_rng(0)
    for _ in range(20):
        pool = [parts[i] for i in rng.permutation(len(parts))]
        while len(pool) > 1:  # merge two random summaries, through pickle, until one is left
            i, j = sorted(rng.choice(len(pool), 2, replace=False))
            b, a = pool.pop(j), pool.pop(i)
            pool.append(pickle.loads(pickle.dumps(a.merge(b))))
        tree = pool[0]
        assert (tree.n, tree.infinite, tree.log_mass) == (serial.n, serial.infinite, serial.log_mass)
        for f in ("delta_sums", "weighted", "below"):
            assert np.array_equal(getattr(tree, f), getattr(serial, f))
    assert serial.n == 36_000 and np.count_nonzero(serial.delta_sums) > 100  # the sums are not trivial


class _IgnoresRng(ScalarLaplace):
    def sample(self, data, size, rng):
        return super().sample(data, size, np.random.default_rng())  # fresh entropy: ignores rng


def test_sampler_ignoring_rng_on_dask_is_said(clients, small_batches):
    res = audit(_IgnoresRng(1.0), (0.0, 1.0), samples=5_000, rng=1, executor=clients[2])
    assert res.reproducible is False
    assert any("on Dask, a sampler that ignores rng" in n for n in res.notes)


# -- black-box certification tasks: paired batches, grouping, context sent once ----------------------

def test_pair_counts_are_the_counts_and_discordant_pairs_of_the_paired_draws():
    """_pair_counts against a direct computation from the same seeds: event counts on each dataset and
    the discordant pairs of the paired-bound event (j-th output of D with the j-th output of D')."""
    from dpverify.auditing.blackbox.event_families import HalfLine

    mech = ScalarLaplace(1.0)
    events = [HalfLine(0, "output", 0.5, True), HalfLine(0, "output", -0.3, False), HalfLine(0, "output", 1.2, True)]
    ss = np.random.SeedSequence(42).spawn(6)
    batches = [(700, ss[0], ss[1]), (700, ss[2], ss[3]), (333, ss[4], ss[5])]
    want_c1, want_c2, want_n10, want_n01 = np.zeros(3, int), np.zeros(3, int), 0, 0
    for size, s1, s2 in batches:
        x1 = mech.sample(0.0, size, np.random.default_rng(s1))
        x2 = mech.sample(1.0, size, np.random.default_rng(s2))
        in1 = np.stack([x1 >= 0.5, x1 <= -0.3, x1 >= 1.2])
        in2 = np.stack([x2 >= 0.5, x2 <= -0.3, x2 >= 1.2])
        want_c1 += in1.sum(axis=1)
        want_c2 += in2.sum(axis=1)
        want_n10 += int(np.sum(in1[2] & ~in2[2]))
        want_n01 += int(np.sum(in2[2] & ~in1[2]))
    for top in (2, -1):
        ctx = (mech, 0.0, 1.0, "D", "D'", False, ("output",), False, events, top)
        c1, c2, n10, n01 = bb_certify.pair_counts(ctx, batches)
        assert list(c1) == list(want_c1) and list(c2) == list(want_c2)
        assert (n10, n01) == ((want_n10, want_n01) if top >= 0 else (0, 0))
        # any split of the batches into tasks sums to the same totals
        parts = [bb_certify.pair_counts(ctx, g) for g in (batches[:1], batches[1:])]
        assert list(parts[0][0] + parts[1][0]) == list(c1) and parts[0][2] + parts[1][2] == n10
    assert want_n10 > 0 and want_n01 > 0 and want_n10 != want_n01  # the check can tell the two apart


def test_black_box_task_grouping_does_not_change_the_result(monkeypatch, small_batches):
    """Certification batches travel in tasks of up to CERT_GROUP_MAX pairs (fewer per task when there are
    few batches per thread): every grouping gives the same result (pure claim: the paired bound is used)."""
    mech, pair = HistogramScaleEpsilon(0.5), _hist_pairs()[0]
    ref = _doc(audit(mech, pair, samples=6_000, rng=3, executor=InlineExecutor(), learned=False))
    assert any(e["discordant_pairs"] for d in ref["directions"] for e in d["events"])
    assert max(e["certification_samples"] for d in ref["directions"] for e in d["events"]) == 6_000 - 2_400
    for gmax, per in ((1, 1), (3, 1), (64, 2)):
        monkeypatch.setattr(bb_certify, "CERT_GROUP_MAX", gmax)
        monkeypatch.setattr(bb_certify, "CERT_TASKS_PER_THREAD", per)
        assert _doc(audit(mech, pair, samples=6_000, rng=3, executor=InlineExecutor(), learned=False)) == ref, (gmax, per)


def test_black_box_sequential_looks_on_dask_give_the_serial_result(clients):
    """stop_early: the counts are examined after every look (a barrier per look on Dask; looks of
    1,024 outputs doubling up to a batch, then 4 batches); the run stops at the same look of the main
    round with the same counts as serially."""
    from dpverify_mechanisms.faulty.float_laplace import NaiveFloatLaplace

    mech, claim = NaiveFloatLaplace(1.0), PrivacyClaim(0.85, 0.0)  # true epsilon 1: violated
    runs = [_doc(audit(mech, (0.0, 1.0), samples=400_000, rng=8, executor=ex, claim=claim, stop_early=True))
            for ex in (InlineExecutor(), clients[2])]
    assert runs[0]["verdict"] == "violated" and runs[0]["samples"] < 400_000  # stopped early...
    assert any("in the main round" in n for n in runs[0]["notes"])  # ... after some looks of the main round
    assert runs[1] == runs[0]


def test_shared_objects_travel_once_per_audit(clients, small_batches, monkeypatch):
    """On Dask the white-box evaluation epsilons and mechanism, and the black-box stage context
    (mechanism, datasets, events), are sent once and named by every task, not copied into each task."""
    sent = []
    real = dist.share

    def spy(client, obj):
        sent.append(type(obj).__name__)
        return real(client, obj)

    monkeypatch.setattr(dist, "share", spy)
    seen = []
    real_submit = clients[2].submit

    def submit(func, *args, **kw):
        if func in (stream_group, bb_certify.pair_counts):
            seen.append([type(a).__name__ for a in args])
        return real_submit(func, *args, **kw)

    monkeypatch.setattr(clients[2], "submit", submit)
    audit(ScalarLaplace(1.0), (0.0, 1.0), samples=30_000, rng=1, executor=clients[2], claim=PrivacyClaim(0.8, 0.0))
    assert sent == ["ScalarLaplace", "ndarray"] and len(seen) > 2
    assert all(a[0] == "Future" and a[5] == "Future" for a in seen)
    sent.clear(), seen.clear()
    audit(HistogramScaleEpsilon(0.5), _hist_pairs()[0], samples=3_000, rng=3, executor=clients[2], learned=False)
    assert sent == ["tuple"] and len(seen) > 1 and all(a[0] == "Future" for a in seen)


def test_nanny_leftover_in_the_environment_is_dropped_but_a_users_setting_is_kept(monkeypatch):
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")
    monkeypatch.setattr(dist, "startup_environ", lambda: {"PATH", "HOME"})  # set after start: a nanny's
    assert dist.drop_nanny_leftovers() == ["MALLOC_TRIM_THRESHOLD_"]
    assert "MALLOC_TRIM_THRESHOLD_" not in __import__("os").environ
    monkeypatch.setenv("MALLOC_TRIM_THRESHOLD_", "65536")
    monkeypatch.setattr(dist, "startup_environ", lambda: {"PATH", "MALLOC_TRIM_THRESHOLD_"})  # the user's
    assert dist.drop_nanny_leftovers() == [] and __import__("os").environ["MALLOC_TRIM_THRESHOLD_"] == "65536"
    monkeypatch.setattr(dist, "startup_environ", lambda: None)  # unknown (no /proc): left alone
    assert dist.drop_nanny_leftovers() == []
