"""Audits on a Dask cluster: identical results, peak memory per process, 2-worker / 1-worker throughput.

    python benchmarks/bench_scaling.py run --kind white --samples 1e9 --engine dask --workers 2 --out F.json
    python benchmarks/bench_scaling.py run --kind white --samples 1e9 --engine serial --out G.json
    python benchmarks/bench_scaling.py ratio --kind white --samples 2e7 --rounds 3
    python benchmarks/bench_scaling.py versus --kind black --samples 1e7 --rounds 3 --out V.json
    python benchmarks/bench_scaling.py compare F.json G.json
    python benchmarks/bench_scaling.py net --out benchmarks/results/scaling/network.json
    python benchmarks/bench_scaling.py docs --runs benchmarks/results/scaling --write docs/scaling.md docs/performance.md

``run``: one audit (white-box: ``ScalarLaplace(1.0)`` on (0, 1); black-box: the control
``NaiveFloatLaplace(1.0)`` (textbook float Laplace, sampler only) on (0, 1)) at one seed, serial (inline) or on a
``LocalCluster`` of N one-thread worker processes started here. It writes the result dict without
the timing, the seconds, and the peak resident memory (``ru_maxrss``) of the calling process, of
every worker process and of the scheduler, plus the bytes one task sends back.

``versus``: serial against an N-worker LocalCluster, alternating in one process (wall and CPU seconds of
every process, results compared).

``malloc``: CPU seconds of serial audits in a fresh process with and without Dask's worker variable
``MALLOC_TRIM_THRESHOLD_=65536``.

``ratio``: samples per second on a 1-worker and on a 2-worker cluster, alternately (``--rounds`` rounds,
1 worker then 2 workers, same seed; each round starts its cluster outside the timed part and closes it
after, so no idle cluster competes): the machine's load then weighs on both alike; the ratio of the
best rounds and the median of the per-round ratios are reported, with the load average before and
after and, per round, the cores taken by other processes and by the caller (client, scheduler, nannies).
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
os.environ.setdefault("MKL_NUM_THREADS", "1")

SEED = 20261123


def _mechanism(kind: str):
    if kind == "white":
        from dpverify_mechanisms.lecture21_dp import ScalarLaplace

        return ScalarLaplace(1.0), (0.0, 1.0)
    from dpverify_mechanisms.faulty.float_laplace import NaiveFloatLaplace

    return NaiveFloatLaplace(1.0), (0.0, 1.0)


def _cpu_seconds() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _comparable(doc: dict) -> dict:
    doc = dict(doc)
    doc.pop("seconds", None)
    return doc


def _cluster(workers: int):
    from distributed import Client

    from dpverify.auditing.distributed import local_cluster

    cluster = local_cluster(workers, dashboard_address=":0", memory_limit="1GiB", silence_logs=40)
    return cluster, Client(cluster)


def _audit(kind: str, samples: int, seed: int, executor, log_every: int = 0, ticks: list | None = None):
    from dpverify import audit
    from dpverify.auditing.executor import InlineExecutor
    from dpverify.auditing.result import jsonable

    mech, pair = _mechanism(kind)
    t = time.perf_counter()
    extra = {"max_samples": samples} if kind == "white" else {}
    if kind == "white" and log_every:
        def tick(done, total):
            if done % log_every == 0 or done == total:
                print(f"{time.strftime('%H:%M:%S')} {done}/{total} tasks", file=sys.stderr, flush=True)
        extra["progress"] = tick
    if kind == "white" and ticks is not None:
        extra["progress"] = lambda done, total: ticks.append((time.perf_counter(), done))
    res = audit(mech, pair, samples=samples, rng=seed, executor=executor if executor is not None else InlineExecutor(),
                **extra)
    return jsonable(res.to_dict()), time.perf_counter() - t


def cmd_run(args) -> None:
    samples = int(float(args.samples))
    out = {"kind": args.kind, "samples": samples, "seed": args.seed, "engine": args.engine,
           "workers": args.workers if args.engine == "dask" else 0, "load_before": os.getloadavg()}
    if args.engine == "serial":
        cpu0 = _cpu_seconds()
        doc, secs = _audit(args.kind, samples, args.seed, None)
        out["peak_rss_mb"] = {"caller": _peak_mb()}
        out["cpu_seconds"] = {"caller": _cpu_seconds() - cpu0}
    else:
        cluster, client = _cluster(args.workers)
        try:
            cpu0, wcpu0 = _cpu_seconds(), client.run(_cpu_seconds)
            doc, secs = _audit(args.kind, samples, args.seed, client, args.log_every)
            wcpu = client.run(_cpu_seconds)
            # CPU seconds of the audit in every process: the caller (with the LocalCluster's scheduler,
            # which runs in the caller's process) and each worker
            out["cpu_seconds"] = {"caller + scheduler": _cpu_seconds() - cpu0,
                                  **{f"worker {i}": wcpu[a] - wcpu0.get(a, 0.0) for i, a in enumerate(sorted(wcpu))}}
            workers = client.run(_peak_mb)
            sched = client.run_on_scheduler(_peak_mb)
            out["peak_rss_mb"] = {"caller": _peak_mb(), "scheduler": sched,
                                  **{f"worker {i}": v for i, v in enumerate(workers.values())}}
            out["bytes_per_task"] = _bytes_per_task(args.kind)
        finally:
            client.close()
            cluster.close()
    out["cpu_seconds_total"] = sum(out["cpu_seconds"].values())
    out.update(seconds=secs, samples_per_s=2 * samples / secs, load_after=os.getloadavg(), result=_comparable(doc))
    text = json.dumps(out, indent=1, default=str)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    print(text if not args.quiet else json.dumps({k: v for k, v in out.items() if k != "result"}, default=str))


def _bytes_per_task(kind: str) -> dict:
    """Pickled sizes (cloudpickle, what Dask sends) of what travels once per audit (or stage), of one
    task's own arguments (the shared objects travel as the keys of their futures) and of its result."""
    import cloudpickle
    import numpy as np

    mech, pair = _mechanism(kind)
    key = "dpverify-identity-0123456789ab-0"  # a shared object's future travels as its key
    if kind == "white":
        from dpverify.auditing import distributed as dist
        from dpverify.auditing.whitebox import EPSILON_GRID, stream_group

        eval_eps = np.unique(np.append(EPSILON_GRID, 1.0))
        thresholds = np.array([0.5, 1.0])
        batches = list(zip([1 << 18] * dist.GROUP, np.random.SeedSequence(1).spawn(dist.GROUP)))  # a largest task
        st = stream_group(mech, pair[0], pair[1], batches, None, eval_eps, thresholds)
        return {"once_per_audit_bytes": len(cloudpickle.dumps(mech)) + len(cloudpickle.dumps(eval_eps)),
                "task_arguments_bytes": len(cloudpickle.dumps((key, pair[0], pair[1], batches, None, key, thresholds))),
                "evaluation_points": int(eval_eps.size), "task_result_bytes": len(cloudpickle.dumps(st)),
                "outputs_per_task": (1 << 18) * dist.GROUP, "result_in_memory_bytes": st.nbytes()}
    from dpverify import audit
    from dpverify.auditing.blackbox import certify, probe
    from dpverify.auditing.executor import InlineExecutor

    seen = []
    orig = certify.Certifier.__init__

    def spy(self, executor, ctx, n):
        seen.append(ctx)
        orig(self, executor, ctx, n)

    certify.Certifier.__init__ = spy
    try:  # the events of a real audit of the benchmark's mechanism
        audit(mech, pair, samples=200_000, rng=SEED, executor=InlineExecutor())
    finally:
        certify.Certifier.__init__ = orig
    ctx = seen[-1]
    g = certify.CERT_GROUP_MAX
    ss = np.random.SeedSequence(1).spawn(2 * g)
    batches = [(probe.BATCH_OUTPUTS, ss[2 * i], ss[2 * i + 1]) for i in range(g)]
    res = certify.pair_counts(ctx, batches[:1])
    return {"once_per_stage_bytes": len(cloudpickle.dumps(ctx)), "events": len(ctx[8]),
            "task_arguments_bytes": len(cloudpickle.dumps((key, batches))), "task_result_bytes": len(cloudpickle.dumps(res)),
            "outputs_per_task": 2 * g * probe.BATCH_OUTPUTS}


def _machine_busy_seconds() -> float:
    """CPU seconds spent by every process of the machine so far (user + system + interrupts)."""
    import psutil

    t = psutil.cpu_times()
    return t.user + t.system + getattr(t, "irq", 0.0) + getattr(t, "softirq", 0.0) + getattr(t, "nice", 0.0)


def _tree_seconds(pids: set) -> float:
    import psutil

    total = 0.0
    for pid in pids:
        try:
            t = psutil.Process(pid).cpu_times()
            total += t.user + t.system
        except psutil.Error:
            pass
    return total


def cmd_ratio(args) -> None:
    """1-worker and 2-worker rounds, alternating; each round starts its own LocalCluster (outside the timed
    part) and closes it after, so no idle cluster competes with the one being measured. Each round
    also records the CPU seconds spent meanwhile by processes that are not this audit's (the machine's
    other load), which on 2 cores comes straight out of a 2-worker run."""
    import statistics

    import psutil

    samples = int(float(args.samples))
    rates: dict[int, list[float]] = {1: [], 2: []}
    stream: dict[int, list[float]] = {1: [], 2: []}
    cpu: dict[int, list[float]] = {1: [], 2: []}  # draws per CPU second of the workers (all of them)
    foreign: dict[int, list[float]] = {1: [], 2: []}  # other processes' CPU, share of the run's wall time
    caller: dict[int, list[float]] = {1: [], 2: []}  # this process (client + scheduler + nannies), same share
    load_before = os.getloadavg()
    from dpverify.auditing import distributed as dist

    for _ in range(args.rounds):
        for w in (1, 2):
            cluster, client = _cluster(w)
            try:
                _audit(args.kind, max(20_000, samples // 50), args.seed, client)  # warm-up: imports, first pickles
                workers = set(client.run(os.getpid).values())
                pids = workers | {os.getpid()} | {c.pid for c in psutil.Process().children(recursive=True)}
                ticks: list = []
                wcpu0 = sum(client.run(_cpu_seconds).values())
                mine0, all0 = _tree_seconds(pids), _machine_busy_seconds()
                _, secs = _audit(args.kind, samples, args.seed, client, ticks=ticks)
                mine1, all1 = _tree_seconds(pids), _machine_busy_seconds()
                wcpu = sum(client.run(_cpu_seconds).values()) - wcpu0
                rates[w].append(2 * samples / secs)
                cpu[w].append(2 * samples / wcpu)
                foreign[w].append(max(0.0, (all1 - all0) - (mine1 - mine0)) / secs)
                caller[w].append(((mine1 - mine0) - wcpu) / secs)
                if len(ticks) > 2:  # the streaming phase alone: draws between the first and the last task
                    per_task = dist.group_size(-(-samples // (1 << 18)), w) * (1 << 18)
                    (t0, d0), (t1, d1) = ticks[0], ticks[-1]
                    stream[w].append((d1 - d0) * per_task / (t1 - t0))
            finally:
                client.close()
                cluster.close()
    per_round = [b / a for a, b in zip(rates[1], rates[2])]
    out = {"kind": args.kind, "samples_per_direction": samples, "rounds": args.rounds,
           "samples_per_s_1_worker": rates[1], "samples_per_s_2_workers": rates[2],
           "ratio_best": max(rates[2]) / max(rates[1]), "ratio_median_per_round": statistics.median(per_round),
           "load_before": load_before, "load_after": os.getloadavg(), "cpus": os.cpu_count(),
           "one_cluster_at_a_time": True,
           "foreign_cores_1_worker": foreign[1], "foreign_cores_2_workers": foreign[2],
           "caller_cores_1_worker": caller[1], "caller_cores_2_workers": caller[2]}
    out.update(draws_per_worker_cpu_s_1_worker=cpu[1], draws_per_worker_cpu_s_2_workers=cpu[2])
    if stream[1] and stream[2]:
        out.update(stream_samples_per_s_1_worker=stream[1], stream_samples_per_s_2_workers=stream[2],
                   stream_ratio_median_per_round=statistics.median(b / a for a, b in zip(stream[1], stream[2])))
    text = json.dumps(out, indent=1)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    print(text)


def cmd_versus(args) -> None:
    """Serial (inline, in this process) against a 2-worker LocalCluster (started once, warmed up),
    alternating, same seed: wall seconds, and CPU seconds of every process (this one, which also
    runs the LocalCluster's scheduler, and each worker), so that a loaded machine can still be read
    through CPU time. Every round's results are compared (they must be identical)."""
    import statistics

    samples = int(float(args.samples))
    cluster, client = _cluster(args.workers)
    rounds = []
    load_before = os.getloadavg()
    try:
        _audit(args.kind, max(20_000, samples // 50), args.seed, client)  # imports and first pickles
        _audit(args.kind, max(20_000, samples // 50), args.seed, None)
        for _ in range(args.rounds):
            c0 = _cpu_seconds()
            doc_s, wall_s = _audit(args.kind, samples, args.seed, None)
            cpu_s = _cpu_seconds() - c0
            c0, w0 = _cpu_seconds(), client.run(_cpu_seconds)
            doc_d, wall_d = _audit(args.kind, samples, args.seed, client)
            w1 = client.run(_cpu_seconds)
            cpu_d = {"caller + scheduler": _cpu_seconds() - c0, "workers": sum(w1[a] - w0.get(a, 0.0) for a in w1)}
            rounds.append({"serial_seconds": wall_s, "dask_seconds": wall_d, "serial_cpu_seconds": cpu_s,
                           "dask_cpu_seconds": cpu_d, "identical": _comparable(doc_s) == _comparable(doc_d),
                           "load": os.getloadavg()[0]})
    finally:
        client.close()
        cluster.close()
    out = {"kind": args.kind, "samples_per_direction": samples, "workers": args.workers, "rounds": rounds,
           "speedup_median": statistics.median(r["serial_seconds"] / r["dask_seconds"] for r in rounds),
           "cpu_ratio_median": statistics.median(sum(r["dask_cpu_seconds"].values()) / r["serial_cpu_seconds"]
                                                 for r in rounds),
           "identical": all(r["identical"] for r in rounds), "load_before": load_before,
           "load_after": os.getloadavg(), "cpus": os.cpu_count()}
    text = json.dumps(out, indent=1)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    print(text)


_MALLOC_CHILD = """
import json, resource, sys
from dpverify import audit
from dpverify.auditing.executor import InlineExecutor
sys.path.insert(0, {bench!r})
from bench_scaling import _mechanism
def cpu():
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime
out = {{}}
for kind in ("white", "black"):
    mech, pair = _mechanism(kind)
    extra = (lambda n: {{"max_samples": n}}) if kind == "white" else (lambda n: {{}})
    audit(mech, pair, samples=10**5, rng=1, executor=InlineExecutor(), **extra(10**5))
    c = cpu()
    audit(mech, pair, samples={samples}, rng=1, executor=InlineExecutor(), **extra({samples}))
    out[kind] = cpu() - c
print(json.dumps(out))
"""


def cmd_malloc(args) -> None:
    """CPU seconds of the serial white- and black-box audits in a fresh process, with and without
    Dask's worker environment variable ``MALLOC_TRIM_THRESHOLD_=65536`` (alternating, ``--rounds``)."""
    import statistics
    import subprocess

    samples = int(float(args.samples))
    code = _MALLOC_CHILD.format(bench=os.path.dirname(os.path.abspath(__file__)), samples=samples)
    runs: dict[str, list] = {"unset": [], "65536": []}
    load_before = os.getloadavg()
    for _ in range(args.rounds):
        for setting in runs:
            env = {k: v for k, v in os.environ.items() if k != "MALLOC_TRIM_THRESHOLD_"}
            if setting != "unset":
                env["MALLOC_TRIM_THRESHOLD_"] = setting
            res = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
            runs[setting].append(json.loads(res.stdout.strip().splitlines()[-1]))
    out = {"malloc_trim": True, "samples_per_direction": samples, "rounds": args.rounds, "cpu_seconds": runs,
           "cpu_ratio_median": {kind: statistics.median(b[kind] / a[kind] for a, b in zip(runs["unset"], runs["65536"]))
                                for kind in ("white", "black")},
           "load_before": load_before, "load_after": os.getloadavg(), "cpus": os.cpu_count()}
    text = json.dumps(out, indent=1)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    print(text)


def cmd_net(args) -> None:
    out = {"network": {kind: _bytes_per_task(kind) for kind in ("white", "black")}}
    text = json.dumps(out, indent=1)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    print(text)


def cmd_compare(args) -> None:
    docs = [json.load(open(p)) for p in args.files]
    ref = docs[0]["result"]
    same = all(d["result"] == ref for d in docs[1:])
    print(json.dumps({"identical": same, "files": args.files}))
    sys.exit(0 if same else 1)


def _load(folder: str) -> list[dict]:
    import glob

    out = []
    for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
        with open(path) as fh:
            doc = json.load(fh)
        doc["file"] = os.path.basename(path)
        out.append(doc)
    return out


def _markdown(folder: str) -> str:
    import statistics

    docs = _load(folder)
    runs = [d for d in docs if "engine" in d]
    ratios = [d for d in docs if "ratio_best" in d]
    cpus = sorted({d["cpus"] for d in docs if "cpus" in d})
    lines = ["Generated by `python benchmarks/bench_scaling.py docs --runs " + folder + " --write` from the",
             "JSON files written by its `run`, `ratio` and `net` commands (the machine: "
             f"{'/'.join(map(str, cpus)) or '?'} cores, shared with other jobs; load = 1-minute load average).", ""]
    if runs:
        lines += ["| audit | engine | samples per direction | seconds | draws/s | peak RSS caller (+ scheduler), MB "
                  "| peak RSS per worker, MB | load before / after | same result as serial (same seed) |",
                  "|---|---|---:|---:|---:|---:|---:|---|---|"]
        for d in sorted(runs, key=lambda d: (d["kind"], d["samples"], d["engine"], d["workers"])):
            serial = [r for r in runs if r["kind"] == d["kind"] and r["samples"] == d["samples"]
                      and r["seed"] == d["seed"] and r["engine"] == "serial"]
            same = "(reference)" if d["engine"] == "serial" else (
                ("yes" if serial[0]["result"] == d["result"] else "**NO**") if serial else "not run")
            rss = d["peak_rss_mb"]
            workers = [v for k, v in rss.items() if k.startswith("worker")]
            eng = "serial (inline)" if d["engine"] == "serial" else f"Dask LocalCluster, {d['workers']} workers"
            lines.append(f"| {d['kind']}-box | {eng} | {d['samples']:.3g} | {d['seconds']:.0f} | "
                         f"{d['samples_per_s']:.3g} | {rss['caller']:.0f} | "
                         f"{max(workers):.0f} |" if workers else
                         f"| {d['kind']}-box | {eng} | {d['samples']:.3g} | {d['seconds']:.0f} | "
                         f"{d['samples_per_s']:.3g} | {rss['caller']:.0f} | - |")
            lines[-1] += f" {d['load_before'][0]:.1f} / {d['load_after'][0]:.1f} | {same} |"
        lines.append("")
        for kind, target in (("white", 10**9), ("black", 10**8)):
            mine = [d for d in runs if d["kind"] == kind and d["engine"] == "dask"]
            if mine and max(d["samples"] for d in mine) < target:
                big = max(mine, key=lambda d: d["samples"])
                lines.append(f"- {kind}-box: the largest run here has {big['samples']:.3g} samples per direction; "
                             f"{target:.0e} at its rate ({big['samples_per_s']:.3g} draws/s, load "
                             f"{big['load_before'][0]:.0f}) would take {2 * target / big['samples_per_s'] / 3600:.1f} h "
                             "on this machine; memory per process does not grow with the samples (table).")
        lines.append("")
        net = [d for d in docs if "network" in d]
        if net:
            lines += ["What travels per task (measured by `bench_scaling.py net`, pickled with cloudpickle as Dask "
                      "does):", ""]
            for kind, b in sorted(net[0]["network"].items(), reverse=True):
                if kind == "white" and "once_per_audit_bytes" in b:
                    lines.append(f"- white-box: once per audit {b['once_per_audit_bytes']:,} bytes (the mechanism and "
                                 f"the {b['evaluation_points']:,} evaluation epsilons, as task results that "
                                 f"every task names); per task: arguments {b['task_arguments_bytes']:,} bytes (pair, "
                                 f"seeds, keys of the shared objects), result {b['task_result_bytes']:,} bytes "
                                 f"(summary of {b['outputs_per_task']:,} draws; {b['result_in_memory_bytes']:,} "
                                 "bytes in memory)")
                elif kind == "white":
                    lines.append(f"- white-box: arguments {b['task_arguments_bytes']:,} bytes (mechanism, pair, "
                                 f"seeds, the {b['evaluation_points']:,} evaluation epsilons), result {b['task_result_bytes']:,} bytes "
                                 f"(summary of {b['outputs_per_task']:,} draws; {b['result_in_memory_bytes']:,} "
                                 "bytes in memory)")
                elif "once_per_stage_bytes" in b:
                    lines.append(f"- black-box certification: once per stage {b['once_per_stage_bytes']:,} bytes (the "
                                 f"mechanism, the pair and the {b['events']} chosen events); per task: arguments "
                                 f"{b['task_arguments_bytes']:,} bytes (seeds of up to {b['outputs_per_task']:,} outputs, "
                                 f"both datasets), result {b['task_result_bytes']:,} bytes (the event counts on each "
                                 "dataset and the paired bound's discordant counts); the selection outputs (at most "
                                 "100,000 per dataset) come back once, as tables")
                else:
                    lines.append(f"- black-box certification: result {b['task_result_bytes']:,} bytes for "
                                 f"{b['events']} event counts (up to {b['outputs_per_task']:,} outputs per task); "
                                 "the selection outputs (at most 100,000 per dataset) come back once, as tables")
            lines.append("")
    for d in [d for d in docs if d.get("malloc_trim")]:
        r = d["cpu_ratio_median"]
        lines += [f"Dask's worker variable `MALLOC_TRIM_THRESHOLD_=65536` (`bench_scaling.py malloc`): serial audits of "
                  f"{d['samples_per_direction']:.3g} samples per direction in a fresh process, {d['rounds']} rounds "
                  f"alternating without and with it (load {d['load_before'][0]:.1f} before, {d['load_after'][0]:.1f} "
                  f"after): CPU seconds with it / without it, medians: white-box **{r['white']:.2f}**, black-box "
                  f"**{r['black']:.2f}**. The LocalClusters dpverify starts leave it unset.", ""]
    for d in [d for d in docs if "speedup_median" in d]:
        lines += [f"Serial against Dask, {d['kind']}-box, {d['samples_per_direction']:.3g} samples per direction, "
                  f"{len(d['rounds'])} rounds alternating an inline (serial) audit and a {d['workers']}-worker "
                  f"LocalCluster (started once; load {d['load_before'][0]:.1f} before, {d['load_after'][0]:.1f} after; "
                  f"`bench_scaling.py versus`):", "",
                  "| round | serial, s | Dask, s | speed-up | serial CPU s | Dask CPU s (caller + scheduler / workers) "
                  "| load | same result |", "|---:|---:|---:|---:|---:|---:|---:|---|"]
        for i, r in enumerate(d["rounds"], 1):
            c = r["dask_cpu_seconds"]
            lines.append(f"| {i} | {r['serial_seconds']:.2f} | {r['dask_seconds']:.2f} | "
                         f"{r['serial_seconds'] / r['dask_seconds']:.2f} | {r['serial_cpu_seconds']:.2f} | "
                         f"{c['caller + scheduler']:.2f} / {c['workers']:.2f} | {r['load']:.1f} | "
                         f"{'yes' if r['identical'] else '**NO**'} |")
        lines += ["", f"Median speed-up **{d['speedup_median']:.2f}**; median CPU seconds of the Dask run over the "
                      f"serial run's **{d['cpu_ratio_median']:.2f}** (all processes; the machine's load weighs on "
                      "wall time, much less on CPU time).", ""]
    for d in ratios:
        how = ("each round starting its own cluster, untimed" if d.get("one_cluster_at_a_time")
               else "both started once")
        lines += [f"Throughput, {d['kind']}-box, {d['samples_per_direction']:.3g} samples per direction, "
                  f"{d['rounds']} rounds alternating a 1-worker and a 2-worker LocalCluster ({how}; "
                  f"load {d['load_before'][0]:.1f} before, {d['load_after'][0]:.1f} after):", ""]
        if d.get("foreign_cores_2_workers"):
            lines += ["| round | 1 worker, draws/s | 2 workers, draws/s | ratio | other processes, cores (1 w / 2 w) "
                      "| caller, cores (1 w / 2 w) |", "|---:|---:|---:|---:|---:|---:|"]
            for i, row in enumerate(zip(d["samples_per_s_1_worker"], d["samples_per_s_2_workers"],
                                        d["foreign_cores_1_worker"], d["foreign_cores_2_workers"],
                                        d["caller_cores_1_worker"], d["caller_cores_2_workers"]), 1):
                a, b, f1, f2, c1, c2 = row
                lines.append(f"| {i} | {a:.3g} | {b:.3g} | {b / a:.2f} | {f1:.3f} / {f2:.3f} | {c1:.3f} / {c2:.3f} |")
        else:
            lines += ["| round | 1 worker, draws/s | 2 workers, draws/s | ratio |", "|---:|---:|---:|---:|"]
            for i, (a, b) in enumerate(zip(d["samples_per_s_1_worker"], d["samples_per_s_2_workers"]), 1):
                lines.append(f"| {i} | {a:.3g} | {b:.3g} | {b / a:.2f} |")
        lines += ["", f"Whole audits (including the caller's serial part: probes, consistency pilots, bounds): ratio of "
                      f"the best rounds **{d['ratio_best']:.2f}**, median of the per-round ratios "
                      f"**{d['ratio_median_per_round']:.2f}**."]
        if "stream_ratio_median_per_round" in d:
            lines += [f"Streaming phase alone (draws between the first and the last completed task): "
                      f"{', '.join(f'{x:.3g}' for x in d['stream_samples_per_s_1_worker'])} draws/s with 1 worker, "
                      f"{', '.join(f'{x:.3g}' for x in d['stream_samples_per_s_2_workers'])} with 2; median per-round "
                      f"ratio **{d['stream_ratio_median_per_round']:.2f}**."]
        if d.get("draws_per_worker_cpu_s_1_worker"):
            a, b = d["draws_per_worker_cpu_s_1_worker"], d["draws_per_worker_cpu_s_2_workers"]
            lines += [f"Draws per CPU second of the workers (all workers together; independent of how much CPU the "
                      f"machine's load leaves them): {', '.join(f'{x:.3g}' for x in a)} with 1 worker, "
                      f"{', '.join(f'{x:.3g}' for x in b)} with 2. On free cores (each worker a whole core) the "
                      "throughput ratio would be 2 x (2-worker / 1-worker draws per CPU second): "
                      f"**{2 * statistics.median(b) / statistics.median(a):.2f}** (medians) - an estimate from CPU "
                      "time, not a wall-clock measurement."]
        lines.append("")
    return "\n".join(lines)


BEGIN, END = "<!-- bench_scaling:begin -->", "<!-- bench_scaling:end -->"


def cmd_docs(args) -> None:
    text = _markdown(args.runs)
    if not args.write:
        print(text)
        return
    for path in args.write:
        with open(path) as fh:
            doc = fh.read()
        if BEGIN in doc:
            head, rest = doc.split(BEGIN, 1)
            doc = head + BEGIN + "\n" + text + "\n" + END + rest.split(END, 1)[1]
        else:
            doc = doc.rstrip("\n") + "\n\n## Audits on a Dask cluster (`benchmarks/bench_scaling.py`)\n\n" + \
                BEGIN + "\n" + text + "\n" + END + "\n"
        with open(path, "w") as fh:
            fh.write(doc)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("run")
    r.add_argument("--kind", choices=("white", "black"), default="white")
    r.add_argument("--samples", default="1e6")
    r.add_argument("--seed", type=int, default=SEED)
    r.add_argument("--engine", choices=("serial", "dask"), default="dask")
    r.add_argument("--workers", type=int, default=2)
    r.add_argument("--out")
    r.add_argument("--quiet", action="store_true")
    r.add_argument("--log-every", type=int, default=0, help="white-box on Dask: log every N tasks to stderr")
    q = sub.add_parser("ratio")
    q.add_argument("--kind", choices=("white", "black"), default="white")
    q.add_argument("--samples", default="1e7")
    q.add_argument("--seed", type=int, default=SEED)
    q.add_argument("--rounds", type=int, default=2)
    q.add_argument("--out")
    c = sub.add_parser("compare")
    c.add_argument("files", nargs="+")
    v = sub.add_parser("versus")
    v.add_argument("--kind", choices=("white", "black"), default="black")
    v.add_argument("--samples", default="1e7")
    v.add_argument("--seed", type=int, default=SEED)
    v.add_argument("--workers", type=int, default=2)
    v.add_argument("--rounds", type=int, default=3)
    v.add_argument("--out")
    mm = sub.add_parser("malloc")
    mm.add_argument("--samples", default="1e7")
    mm.add_argument("--rounds", type=int, default=2)
    mm.add_argument("--out")
    nn = sub.add_parser("net")
    nn.add_argument("--out")
    dd = sub.add_parser("docs")
    dd.add_argument("--runs", default="benchmarks/results/scaling")
    dd.add_argument("--write", nargs="*", help="files whose generated section to replace (or append)")
    args = ap.parse_args()
    {"run": cmd_run, "ratio": cmd_ratio, "compare": cmd_compare, "docs": cmd_docs, "net": cmd_net,
     "versus": cmd_versus, "malloc": cmd_malloc}[args.cmd](args)


if __name__ == "__main__":
    main()
