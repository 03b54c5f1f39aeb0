"""Audits on a Dask cluster: identical results, peak memory per process, 2-worker / 1-worker throughput.

    python benchmarks/bench_scaling.py run --kind white --samples 1e9 --engine dask --workers 2 --out F.json
    python benchmarks/bench_scaling.py run --kind white --samples 1e9 --engine serial --out G.json
    python benchmarks/bench_scaling.py ratio --kind white --samples 2e7 --rounds 3
    python benchmarks/bench_scaling.py compare F.json G.json
    python benchmarks/bench_scaling.py docs RESULTS_DIR         # prints the tables of docs/scaling.md

``run``: one audit (white-box: ``ScalarLaplace(1.0)`` on (0, 1); black-box: the control
``NaiveFloatLaplace(1.0)`` (textbook float Laplace, sampler only) on (0, 1)) at one seed, serial (inline) or on a
``LocalCluster`` of N one-thread worker processes started here. It writes the result dict without
the timing, the seconds, and the peak resident memory (``ru_maxrss``) of the calling process, of
every worker process and of the scheduler, plus the bytes one task sends back.

``ratio``: samples per second on a 1-worker and on a 2-worker cluster, both started once and used
alternately (``--rounds`` rounds, 1 worker then 2 workers, same seed): the machine's load then
weighs on both alike; the ratio of the best rounds and the median of the per-round ratios are
reported, with the load average before and after.
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


def _peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def _comparable(doc: dict) -> dict:
    doc = dict(doc)
    doc.pop("seconds", None)
    return doc


def _cluster(workers: int):
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                           memory_limit="1GiB", silence_logs=40)
    return cluster, Client(cluster)


def _audit(kind: str, samples: int, seed: int, executor, log_every: int = 0):
    from dpverify import audit
    from dpverify.auditing.blackbox import InlineExecutor
    from dpverify.auditing.result import jsonable

    mech, pair = _mechanism(kind)
    t = time.perf_counter()
    extra = {"max_samples": samples} if kind == "white" else {}
    if kind == "white" and log_every:
        def tick(done, total):
            if done % log_every == 0 or done == total:
                print(f"{time.strftime('%H:%M:%S')} {done}/{total} tasks", file=sys.stderr, flush=True)
        extra["progress"] = tick
    res = audit(mech, pair, samples=samples, rng=seed, executor=executor if executor is not None else InlineExecutor(),
                **extra)
    return jsonable(res.to_dict()), time.perf_counter() - t


def cmd_run(args) -> None:
    samples = int(float(args.samples))
    out = {"kind": args.kind, "samples": samples, "seed": args.seed, "engine": args.engine,
           "workers": args.workers if args.engine == "dask" else 0, "load_before": os.getloadavg()}
    if args.engine == "serial":
        doc, secs = _audit(args.kind, samples, args.seed, None)
        out["peak_rss_mb"] = {"caller": _peak_mb()}
    else:
        cluster, client = _cluster(args.workers)
        try:
            doc, secs = _audit(args.kind, samples, args.seed, client, args.log_every)
            workers = client.run(_peak_mb)
            sched = client.run_on_scheduler(_peak_mb)
            out["peak_rss_mb"] = {"caller": _peak_mb(), "scheduler": sched,
                                  **{f"worker {i}": v for i, v in enumerate(workers.values())}}
            out["bytes_per_task"] = _bytes_per_task(args.kind)
        finally:
            client.close()
            cluster.close()
    out.update(seconds=secs, samples_per_s=2 * samples / secs, load_after=os.getloadavg(), result=_comparable(doc))
    text = json.dumps(out, indent=1, default=str)
    if args.out:
        with open(args.out, "w") as fh:
            fh.write(text)
    print(text if not args.quiet else json.dumps({k: v for k, v in out.items() if k != "result"}, default=str))


def _bytes_per_task(kind: str) -> dict:
    """Pickled size of what one task returns (the engine's wire format), measured on one task."""
    import pickle

    import numpy as np

    mech, pair = _mechanism(kind)
    if kind == "white":
        from dpverify.auditing.distributed import stream_group
        from dpverify.auditing.whitebox import EPSILON_GRID

        eval_eps = np.unique(np.append(EPSILON_GRID, 1.0))
        seeds = np.random.SeedSequence(1).spawn(1)
        st = stream_group(mech, pair[0], pair[1], [(1 << 18, seeds[0])], None, eval_eps, np.array([0.5, 1.0]))
        return {"task_result_bytes": len(pickle.dumps(st)), "outputs_per_batch": 1 << 18,
                "uncompressed_bytes": st.nbytes()}
    from dpverify.auditing.blackbox import _counts

    counts = _counts(mech, pair[0], 1 << 14, np.random.SeedSequence(1), "", False, None, False, [])
    return {"task_result_bytes_per_event": 8, "empty_task_result_bytes": len(pickle.dumps(counts))}


def cmd_ratio(args) -> None:
    import statistics

    samples = int(float(args.samples))
    clusters = {w: _cluster(w) for w in (1, 2)}
    rates: dict[int, list[float]] = {1: [], 2: []}
    load_before = os.getloadavg()
    try:
        for w in (1, 2):  # warm-up: imports and first pickles on every worker
            _audit(args.kind, max(20_000, samples // 50), args.seed, clusters[w][1])
        for _ in range(args.rounds):
            for w in (1, 2):
                _, secs = _audit(args.kind, samples, args.seed, clusters[w][1])
                rates[w].append(2 * samples / secs)
    finally:
        for cluster, client in clusters.values():
            client.close()
            cluster.close()
    per_round = [b / a for a, b in zip(rates[1], rates[2])]
    out = {"kind": args.kind, "samples_per_direction": samples, "rounds": args.rounds,
           "samples_per_s_1_worker": rates[1], "samples_per_s_2_workers": rates[2],
           "ratio_best": max(rates[2]) / max(rates[1]), "ratio_median_per_round": statistics.median(per_round),
           "load_before": load_before, "load_after": os.getloadavg(), "cpus": os.cpu_count()}
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
    q.add_argument("--samples", default="2e7")
    q.add_argument("--seed", type=int, default=SEED)
    q.add_argument("--rounds", type=int, default=3)
    q.add_argument("--out")
    c = sub.add_parser("compare")
    c.add_argument("files", nargs="+")
    args = ap.parse_args()
    {"run": cmd_run, "ratio": cmd_ratio, "compare": cmd_compare}[args.cmd](args)


if __name__ == "__main__":
    main()
