"""What an audit without pairs costs against the same audit given the right pair (issue 29, third acceptance item).

Usage: python benchmarks/bench_unaided_cost.py [--seeds 5] [--ladder 500 1000 ...] [--only NAME ...] [--out FILE]

For each mechanism, a ladder of ``samples`` values; at each, ``--seeds`` audits given the right pair (the
registry's default pair, which a reviewer who knew the bug would give) and ``--seeds`` audits without any
pair (``dpverify.audit(mechanism, domain=...)``: the domain is the one the mechanism's stated neighbourhood
implies on its default pairs' shape, :func:`dpverify.auditing.unaided.derive.domain_like`, or the
mechanism's own ``input_domain()``). *Samples to detect* is the smallest ladder value at which at least
``--need`` of the seeds are ``violated``; the *outputs drawn* there are 2 x samples given the pair (both
datasets) and 2 x samples + the screen's draws without it. The ratio is outputs(no pair) / outputs(pair),
each at its own samples-to-detect. Seeds are 0, 1, ...: nothing is tuned on them. Also prints, per row,
seconds of process time. Writes the rows as JSON to ``--out``.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "support"))

import dpverify  # noqa: E402
from dpverify.auditing.unaided.derive import domain_like  # noqa: E402
from dpverify.registry import load_entries  # noqa: E402

REGISTERED = ["laplace-float-naive", "noisy-max-laplace-value", "noisy-max-exponential-value", "svt-alg4-lee-clifton",
              "svt-alg3-roth", "histogram-scale-eps"]
LADDER = [500, 1000, 2000, 5000, 10000, 20000, 50000]


def _cases(only):
    entries = {e.name: e for e in load_entries()}
    for name in REGISTERED:
        if only and name not in only:
            continue
        e = entries[name]
        mech = e.factory()
        pairs = e.pairs()
        pair = pairs[0] if isinstance(pairs, list) else pairs
        domain = domain_like(mech, pair[0])
        yield name, mech, pair, domain
    if not only or "scalar-half-scale" in only:
        from unaided_mechanisms import ScalarAnswer
        mech = ScalarAnswer(0.5)
        yield "scalar-half-scale", mech, (0.0, 1.0), mech.input_domain()


def _detect(mech, pair, domain, ladder, seeds, need):
    """(samples to detect or None, outputs drawn there, rows per ladder value)."""
    rows = []
    for samples in ladder:
        hits, draws, cpu = 0, 0, 0.0
        for seed in range(seeds):
            t = time.process_time()
            if domain is None:
                r = dpverify.audit(mech, pair, samples=samples, rng=seed)
                draws += 2 * samples
            else:
                r = dpverify.audit(mech, samples=samples, rng=seed, domain=domain)
                draws += 2 * samples + r.search["screen_draws"]
            cpu += time.process_time() - t
            hits += r.verdict.value == "violated"
        rows.append({"samples": samples, "violated": hits, "seeds": seeds, "outputs_per_audit": draws / seeds,
                     "cpu_s_per_audit": round(cpu / seeds, 3)})
        if hits >= need:
            return samples, draws / seeds, rows
    return None, None, rows


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--need", type=int, default=4, help="violated seeds needed to count as detected (default 4)")
    ap.add_argument("--ladder", type=int, nargs="+", default=LADDER)
    ap.add_argument("--only", nargs="+")
    ap.add_argument("--out", default=str(ROOT / "benchmarks" / "results" / "unaided_cost.json"))
    args = ap.parse_args(argv)
    load = os.getloadavg()[0]
    out = []
    print(f"load {load:.2f}; seeds {args.seeds}, detected = violated in >= {args.need}")
    print(f"{'mechanism':28s} {'pair: samples':>14s} {'outputs':>9s} {'no pair: samples':>17s} {'outputs':>9s} ratio")
    for name, mech, pair, domain in _cases(args.only):
        if domain is None:
            print(f"{name:28s} no domain implied: skipped")
            continue
        s_pair, o_pair, rows_pair = _detect(mech, pair, None, args.ladder, args.seeds, args.need)
        s_none, o_none, rows_none = _detect(mech, pair, domain, args.ladder, args.seeds, args.need)
        ratio = (o_none / o_pair) if (o_pair and o_none) else None
        out.append({"mechanism": name, "pair_samples_to_detect": s_pair, "pair_outputs": o_pair,
                    "unaided_samples_to_detect": s_none, "unaided_outputs": o_none, "ratio": ratio,
                    "pair_rows": rows_pair, "unaided_rows": rows_none})
        fmt = lambda v: "-" if v is None else f"{v:g}"  # noqa: E731
        print(f"{name:28s} {fmt(s_pair):>14s} {fmt(o_pair):>9s} {fmt(s_none):>17s} {fmt(o_none):>9s} "
              f"{'-' if ratio is None else f'{ratio:.2f}'}")
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps({"load_at_start": load, "load_at_end": os.getloadavg()[0],
                                          "seeds": args.seeds, "need": args.need, "rows": out}, indent=1))
    print(f"load at end {os.getloadavg()[0]:.2f}; wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
