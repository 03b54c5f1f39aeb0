"""False alarms of the main job over seeds: ``dpverify check --no-proofs --no-calibrations --seed S --json``
for each seed, one process per seed; prints per-seed verdicts and, per mechanism, how many seeds
said ``violated``.

    python benchmarks/check_seeds.py 0 1 2 ... 20 [--out results/check_seeds.json]

The proof and calibration sections are deterministic and skipped here (audits only). A correct
mechanism (a correct control, or a paper mechanism whose documented verdict is not ``violated``)
flagged in any seed is a false alarm; with Bonferroni per-row confidence 1 - 0.05/m the expected
number of runs with any false alarm is at most 5 % of the runs.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time


def run_seed(seed: int, only: list[str] = ()) -> dict:
    start = time.perf_counter()
    select = [a for n in only for a in ("--only", n)]
    proc = subprocess.run([sys.executable, "-m", "dpverify", "check", "--no-proofs", "--no-calibrations",
                           "--seed", str(seed), "--json", *select], capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"seed {seed}: exit {proc.returncode}\n{proc.stderr[-2000:]}")
    doc = json.loads(proc.stdout)
    rows = [r for key, rs in doc.items() if isinstance(rs, list) for r in rs if isinstance(r, dict) and "verdict" in r]
    return {"seed": seed, "seconds": time.perf_counter() - start, "load": os.getloadavg()[0],
            "family": doc.get("family"),
            "rows": {r["name"]: {"verdict": r["verdict"], "epsilon_lower": r["epsilon_lower"],
                                 "expected": r.get("expected")} for r in rows}}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("seeds", type=int, nargs="+")
    p.add_argument("--out")
    p.add_argument("--only", nargs="*", default=[], help="audit only these (same per-row confidence as the "
                   "full run: m is the registry's size whatever --only selects)")
    args = p.parse_args()
    results = []
    for s in args.seeds:
        r = run_seed(s, args.only)
        results.append(r)
        flagged = [n for n, v in r["rows"].items() if v["verdict"] == "violated"]
        print(f"seed {s}: {r['seconds']:.0f} s (load {r['load']:.1f}); violated: {', '.join(flagged)}", flush=True)
        if args.out:
            with open(args.out, "w") as f:
                json.dump(results, f, indent=1)
    names = list(results[0]["rows"])
    print("\nper mechanism: seeds violated / seeds")
    for n in names:
        k = sum(r["rows"][n]["verdict"] == "violated" for r in results)
        print(f"  {n:36s} {k}/{len(results)}  expected={results[0]['rows'][n]['expected']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
