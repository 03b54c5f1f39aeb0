"""White-box trust, issue 27 item 2: a density lying only in a far tail, and the shipped mechanisms.

Two measurements, both counting verdicts (no timing claims):

1. The far-tail liar: a correct Laplace(1) sampler whose density under D' is too flat beyond 12
   scale units (``FarTailLiar``), pair (0, 1), claim (1, 0), ``--liar-seeds`` seeds at
   ``--liar-samples`` draws per direction. Before issue 27 about 1 seed in 5 said ``violated``
   (one tail draw whose loss the density puts above 1). Counted: verdicts, and how often the
   violating-event check (``dpverify.auditing.whitebox.consistency.confirm_violations``) ran.
2. Every shipped white-box mechanism (``dpverify_mechanisms.registry``) on its registry pairs,
   ``--seeds`` seeds at ``--samples`` draws per direction: counted ``inconsistent`` verdicts (false
   alarms of the consistency check, at most 1e-6 per audit by its union bound) and every verdict.

Run:  python benchmarks/bench_consistency_trust.py --seeds 100 --samples 20000 [--json out.json]
"""
from __future__ import annotations

import argparse
import collections
import json
import os
import sys
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")


import dpverify  # noqa: E402
from dpverify.mechanism import is_white_box  # noqa: E402
from dpverify.registry import load_entries  # noqa: E402
from dpverify_mechanisms.faulty.lying_density import FarTailLiar  # noqa: E402




def liar_run(seeds: int, samples: int, knee: float) -> dict:
    verdicts = collections.Counter()
    checked = 0
    t = time.perf_counter()
    for s in range(seeds):
        r = dpverify.audit(FarTailLiar(knee), (0.0, 1.0), samples=samples, rng=s)
        verdicts[str(r.verdict.value)] += 1
        checked += bool(r.consistency and r.consistency.get("violating_event"))
    return {"knee": knee, "seeds": seeds, "samples": samples, "verdicts": dict(verdicts),
            "violating_event_checked": checked, "seconds": round(time.perf_counter() - t, 1)}


def shipped_run(seeds: int, samples: int, names: list[str] | None) -> dict:
    out = {}
    for e in load_entries():
        m = e.factory()
        if not is_white_box(m) or (names and e.name not in names):
            continue
        t = time.perf_counter()
        verdicts = collections.Counter()
        alarms = []
        for s in range(seeds):
            r = dpverify.audit(m, e.pairs(), samples=samples, rng=s)
            verdicts[str(r.verdict.value)] += 1
            if r.verdict == "inconsistent":
                alarms.append({"seed": s, "failure": str(r.consistency["failures"][:1])})
        out[e.name] = {"verdicts": dict(verdicts), "inconsistent": len(alarms), "alarms": alarms,
                       "seconds": round(time.perf_counter() - t, 1)}
        print(e.name, out[e.name]["verdicts"], out[e.name]["seconds"], "s", flush=True)
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds", type=int, default=100)
    ap.add_argument("--samples", type=int, default=20_000)
    ap.add_argument("--liar-seeds", type=int, default=20)
    ap.add_argument("--liar-samples", type=int, default=200_000)
    ap.add_argument("--only", nargs="*", default=None, help="registry names (default: every white-box entry)")
    ap.add_argument("--skip-shipped", action="store_true")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    doc = {"load": os.getloadavg(), "liar": []}
    for knee in (12.0,):
        res = liar_run(args.liar_seeds, args.liar_samples, knee)
        doc["liar"].append(res)
        print("far-tail liar", res, flush=True)
    if not args.skip_shipped:
        doc["shipped"] = {"seeds": args.seeds, "samples": args.samples,
                          "mechanisms": shipped_run(args.seeds, args.samples, args.only)}
        total = sum(v["inconsistent"] for v in doc["shipped"]["mechanisms"].values())
        print(f"shipped white-box mechanisms: {total} inconsistency alarms over "
              f"{len(doc['shipped']['mechanisms'])} mechanisms x {args.seeds} seeds", flush=True)
    doc["load_after"] = os.getloadavg()
    if args.json:
        with open(args.json, "w") as fh:
            json.dump(doc, fh, indent=1)
    sys.exit(0)


if __name__ == "__main__":
    main()
