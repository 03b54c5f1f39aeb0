"""Black-box audit on the faulty and correct controls: power, ratio to the true epsilon, time.

Usage: python benchmarks/bench_blackbox.py [--samples N] [--seed S] [--only NAME ...]

For every control of ``mechanisms/faulty/registry.py``: the true epsilon (``true_epsilon(k)``,
``inf`` when not eps-DP for any eps), the certified ``epsilon_lower`` at confidence 0.95, the
samples per dataset (selection + certification) and the seconds on ONE core (serial executor).
Acceptance: eps_lower / true eps >= 0.8 when the true eps is finite and above the claim;
eps_lower >= 2 x claim when infinite; correct controls not violated. Reference measured in the
same run: the time of drawing the same number of outputs from the mechanism alone (the audit's
overhead is the ratio).
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from dpverify import audit
from dpverify.auditing.blackbox import InlineExecutor
from dpverify_mechanisms.faulty.registry import REGISTRY, TRUTH


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*")
    args = ap.parse_args()
    print("| control | kind | claim eps | true eps | eps_lower | ratio / target | verdict | samples | seconds (1 core) | sampling-only s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for e in REGISTRY:
        if args.only and e.name not in args.only:
            continue
        faulty, k, factory, pairs = TRUTH[e.name]
        m = factory()
        true = m.true_epsilon(k)
        t0 = time.perf_counter()
        for d, dp in pairs():
            for data in (d, dp):
                m.sample(data, args.samples, np.random.default_rng(1))
        t_ref = time.perf_counter() - t0
        t0 = time.perf_counter()
        r = audit(m, pairs(), samples=args.samples, rng=args.seed, executor=InlineExecutor())
        secs = time.perf_counter() - t0
        claim = m.claim.epsilon
        if not faulty:
            target = "not violated: " + ("met" if r.verdict.value != "violated" else "NOT MET")
        elif math.isinf(true):
            target = f"{r.epsilon_lower / claim:.2f} x claim (>= 2: {'met' if r.epsilon_lower >= 2 * claim else 'NOT MET'})"
        else:
            target = f"{r.epsilon_lower / true:.3f} (>= 0.8: {'met' if r.epsilon_lower >= 0.8 * true else 'NOT MET'})"
        print(f"| {e.name} | {'faulty' if faulty else 'correct'} | {claim:g} | {true:.4g} | {r.epsilon_lower:.4f} | "
              f"{target} | {r.verdict.value} | {args.samples} | {secs:.1f} | {t_ref:.1f} |", flush=True)


if __name__ == "__main__":
    main()
