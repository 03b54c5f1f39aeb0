"""SmartNoise SQL's approx_bounds through dpverify's adapter, with no pair and no wrapper (issue 29).

Usage (in an environment with the release to test; 1.0.1 and 1.0.2 need numpy < 2)::

    python benchmarks/bench_smartnoise_adapter.py [--seeds 10] [--samples 100] >> results.jsonl

opendp/smartnoise-sdk#574: SmartNoise SQL <= 1.0.1's ``approx_bounds`` raised on a record below its smallest bin
edge, which tells the datasets apart; 1.0.2 clips such records. Each seed runs
``dpverify.audit(adapters.smartnoise.approx_bounds(1.0), samples=..., rng=seed)`` and records the verdict,
eps_lower, the pair the unaided search found, which screen found it, its draws and the CPU seconds. Prints one JSON
object (the release, the load, the rows). SmartNoise draws its own randomness: runs are not reproducible from the
seed (the adapter says so).
"""
from __future__ import annotations

import argparse
import importlib.metadata as md
import json
import os
import time

import dpverify
from dpverify.adapters import smartnoise as S


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--samples", type=int, default=100)
    args = ap.parse_args()
    rows, load = [], os.getloadavg()
    for seed in range(args.seeds):
        t = time.process_time()
        r = dpverify.audit(S.approx_bounds(1.0), samples=args.samples, rng=seed)
        rows.append({"seed": seed, "verdict": r.verdict.value, "eps_lower": r.epsilon_lower,
                     "found": r.search.get("found"), "screen": r.search.get("screen"),
                     "screen_draws": r.search.get("screen_draws"), "cpu_s": round(time.process_time() - t, 1)})
    print(json.dumps({"release": md.version("smartnoise-sql"), "samples": args.samples, "load": [load, os.getloadavg()],
                      "violated": sum(x["verdict"] == "violated" for x in rows), "seeds": args.seeds, "rows": rows}))


if __name__ == "__main__":
    main()
