"""The unaided search against four reported DP bugs (issue 29, first and third acceptance items).

Usage::

    python benchmarks/bench_unaided_search.py [--seeds 10] [--only NAME ...] [--no-needed]
        [--also PYTHON ...] [--out benchmarks/results/unaided_search.json]

For each replay of ``tests/support/bug_replays.py`` (each cites its report and computes the true privacy):

* **unaided**: ``dpverify.audit(mechanism, samples=Replay.samples, rng=seed)`` with NO pair, seeds 0..K-1, for
  the faulty replica (share violated: the search found and certified the bug) and its fixed twin (share
  violated = false alarms; the documented rate is at most 1 - confidence = 5 % per audit). Each run records
  the verdict, eps_lower, delta_lower, the audit's samples per dataset, the search's screen draws (its record,
  ``result.search``), what it found (pair and distance), CPU and wall seconds.
* **given**: the same audit given the right pair (the pair a person who knew the bug would pick; at a group
  distance through ``bug_replays.AtDistance``), same seeds and samples.
* **needed** (faulty only; skipped with ``--no-needed``): per seed, the smallest samples per dataset on the
  doubling grid 25, 50, 100, ... (up to 16 x ``Replay.samples``) at which the audit is violated, without a
  pair and with the right pair, and the draws each spent in all (2 x samples, plus the screen's draws for
  the unaided one): their ratio is the cost of not knowing the pair (issue 29 asks for at most 5).

The real releases, where installed in the running interpreter (OpenDP 0.4.0 / 0.5.0 randomized response, OpenDP
0.3.0 / 0.4.0 resize chain, SmartNoise SQL 1.0.1 / 1.0.2 approx_bounds, the current OpenDP's thresholded count),
get the unaided and given rows too.
Old releases need their own environments (numpy < 2): ``--also /path/to/venv/bin/python[:SEEDS]`` runs this
script's real rows there (``--real-only --json``, SEEDS seeds: SmartNoise's pure-Python approx_bounds costs about
100 s CPU per audit) and merges them. Every audit is black-box at confidence 0.95, serial.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "support"))

import dpverify  # noqa: E402
from bug_replays import (REPLAYS, OpenDPBoundedResizeSum, OpenDPLaplaceThreshold,  # noqa: E402
                         OpenDPRandomizedResponseBool, SmartNoiseApproxBounds, opendp_version, smartnoise_sql_version)

CONFIDENCE = 0.95
GRID_START = 25


def _search(result) -> dict:
    search = getattr(result, "search", None)
    if search is None:
        return {}
    report = getattr(search, "report", None)
    return dict(report) if report is not None else {}


def _one(mechanism, pair, samples: int, seed: int) -> dict:
    """One audit (``pair=None``: unaided), as a JSON-ready row."""
    cpu, wall = time.process_time(), time.perf_counter()
    if pair is None:
        result = dpverify.audit(mechanism, samples=samples, rng=seed, confidence=CONFIDENCE)
    else:
        result = dpverify.audit(mechanism, pair, samples=samples, rng=seed, confidence=CONFIDENCE)
    row = {"seed": seed, "verdict": result.verdict.value, "epsilon_lower": _num(result.epsilon_lower),
           "delta_lower": _num(result.delta_lower), "samples": result.samples,
           "cpu_s": round(time.process_time() - cpu, 3), "wall_s": round(time.perf_counter() - wall, 3)}
    found = _search(result)
    if found:
        row.update(screen_draws=found.get("screen_draws"), found=found.get("found"), distance=found.get("distance"),
                   claim_at_distance=found.get("claim_at_distance"), candidates=found.get("candidates"),
                   raised=found.get("raised"))
    row["draws"] = 2 * int(result.samples) + int(row.get("screen_draws") or 0)
    return row


def _num(x) -> float | str:
    x = float(x)
    return x if np.isfinite(x) else str(x)


def _summary(rows: list) -> dict:
    v = [r["verdict"] == "violated" for r in rows]
    eps = [r["epsilon_lower"] for r in rows if isinstance(r["epsilon_lower"], float)]
    return {"violated": int(sum(v)), "of": len(rows), "median_epsilon_lower": float(np.median(eps)) if eps else None,
            "median_draws": float(np.median([r["draws"] for r in rows])),
            "median_cpu_s": float(np.median([r["cpu_s"] for r in rows])), "runs": rows}


def _needed(mechanism, pair, cap: int, seed: int) -> dict:
    """The smallest samples on the doubling grid at which the audit is violated (None up to ``cap``)."""
    n = GRID_START
    while n <= cap:
        row = _one(mechanism, pair, n, seed)
        if row["verdict"] == "violated":
            return {"seed": seed, "samples": n, "draws": row["draws"]}
        n *= 2
    return {"seed": seed, "samples": None, "draws": None}


def _side(replay, make, seeds: list, needed: bool) -> dict:
    m = make()
    given_m, pair = replay.given(m), replay.pair(m)
    out = {"release": m.release, "claim": str(m.claim), "faulty": bool(m.faulty),
           "unaided": _summary([_one(m, None, replay.samples, s) for s in seeds]),
           "given": _summary([_one(given_m, pair, replay.samples, s) for s in seeds])}
    if needed and m.faulty:
        cap = 16 * replay.samples
        un = [_needed(m, None, cap, s) for s in seeds]
        gv = [_needed(given_m, pair, cap, s) for s in seeds]
        ratios = [a["draws"] / b["draws"] for a, b in zip(un, gv) if a["draws"] and b["draws"]]
        out["needed"] = {"unaided": un, "given": gv, "grid": f"{GRID_START} x 2^k up to {cap}",
                         "median_draw_ratio": float(np.median(ratios)) if ratios else None,
                         "max_draw_ratio": float(np.max(ratios)) if ratios else None}
    return out


def replica_rows(seeds: list, only: list | None, needed: bool) -> list:
    rows = []
    for replay in REPLAYS:
        if only and replay.name not in only:
            continue
        row = {"name": replay.name, "source": replay.source, "truth": replay.truth, "samples": replay.samples,
               "faulty": _side(replay, replay.faulty, seeds, needed),
               "fixed": _side(replay, replay.fixed, seeds, False)}
        rows.append(row)
        _print(row)
    return rows


def real_rows(seeds: list) -> list:
    """The real releases importable here (each wrapper reads its claim from the library)."""
    by_name = {r.name: r for r in REPLAYS}
    cases = []
    if opendp_version() in ("0.4.0", "0.5.0"):
        cases.append(("biased-randomized-response", OpenDPRandomizedResponseBool))
    if opendp_version() in ("0.3.0", "0.4.0"):
        cases.append(("group-distance-map", OpenDPBoundedResizeSum))
    version = opendp_version()
    if version and tuple(int(x) for x in version.split(".")[:2]) >= (0, 12):
        cases.append(("partition-threshold-delta", OpenDPLaplaceThreshold))
    if smartnoise_sql_version() in ("1.0.1", "1.0.2"):
        cases.append(("extreme-record", SmartNoiseApproxBounds))
    out = []
    for name, make in cases:
        replay = by_name[name]
        m = make()
        row = {"name": name, "release": m.release, "faulty": bool(m.faulty), "claim": str(m.claim),
               "samples": replay.samples, "python": sys.executable,
               "unaided": _summary([_one(m, None, replay.samples, s) for s in seeds]),
               "given": _summary([_one(replay.given(m), replay.pair(m), replay.samples, s) for s in seeds])}
        out.append(row)
        print(f"# real {m.release} ({name}): unaided violated {row['unaided']['violated']}/{len(seeds)}, given "
              f"{row['given']['violated']}/{len(seeds)}", file=sys.stderr, flush=True)
    return out


def _print(row: dict) -> None:
    for kind in ("faulty", "fixed"):
        s = row[kind]
        u, g = s["unaided"], s["given"]
        extra = ""
        if "needed" in s:
            need = s["needed"]
            extra = f" | draw ratio unaided/given (median {need['median_draw_ratio']}, max {need['max_draw_ratio']})"
        print(f"| {row['name']} | {kind} {s['release']} | unaided {u['violated']}/{u['of']} (median eps_lower "
              f"{u['median_epsilon_lower']}, draws {u['median_draws']:.0f}, CPU {u['median_cpu_s']:.2f} s) | given "
              f"{g['violated']}/{g['of']} (draws {g['median_draws']:.0f}){extra} |", flush=True)


def _machine() -> dict:
    try:
        commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                                text=True).stdout.strip()
    except OSError:
        commit = None
    return {"python": platform.python_version(), "dpverify_commit": commit, "dpverify_path": dpverify.__file__,
            "load_average": os.getloadavg(),
            "cpus": os.cpu_count(), "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--no-needed", action="store_true", help="skip the doubling-grid search for the samples needed")
    ap.add_argument("--also", nargs="*", default=[], help="interpreters whose real releases are audited and merged, "
                    "each as PYTHON or PYTHON:SEEDS (fewer seeds for a slow release)")
    ap.add_argument("--real-only", action="store_true", help="only the real releases importable here")
    ap.add_argument("--json", action="store_true", help="print the JSON document on stdout (with --real-only)")
    ap.add_argument("--note", default="", help="a sentence stored with the results (e.g. which search was run)")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "unaided_search.json"))
    args = ap.parse_args()
    seeds = list(range(args.seeds))
    if args.real_only:
        rows = real_rows(seeds)
        print(json.dumps(rows) if args.json else rows)
        return
    start = time.perf_counter()
    doc = {"generated_by": "benchmarks/bench_unaided_search.py", "note": args.note, "confidence": CONFIDENCE,
           "seeds": seeds,
           "machine_start": _machine(), "replicas": replica_rows(seeds, args.only, not args.no_needed),
           "real": real_rows(seeds)}
    for spec in args.also:
        py, _, k = spec.partition(":")
        proc = subprocess.run([py, __file__, "--real-only", "--json", "--seeds", k or str(args.seeds)],
                              capture_output=True, text=True)
        if proc.returncode != 0:
            doc["real"].append({"python": py, "error": proc.stderr[-2000:]})
            print(f"# {py}: failed\n{proc.stderr[-2000:]}", file=sys.stderr)
            continue
        doc["real"].extend(json.loads(proc.stdout.strip().splitlines()[-1]))
        print(proc.stderr, file=sys.stderr, end="")
    doc["machine_end"] = _machine()
    doc["wall_s"] = round(time.perf_counter() - start, 1)
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    with open(args.out, "w") as f:
        json.dump(doc, f, indent=1)
    print(f"wrote {args.out} ({doc['wall_s']} s)")


if __name__ == "__main__":
    main()
