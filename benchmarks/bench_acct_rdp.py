"""dpverify's RDP accountant against dp-accounting's ``RdpAccountant`` on DP-SGD (issue 32:
"RDP for DP-SGD never above dp-accounting's RDP by more than 1e-6 relative").

    python benchmarks/bench_acct_rdp.py [--json OUT] [--before BEFORE.json]

Grid: q in {0.001, 0.01, 0.1} x sigma in {0.5, 0.8, 1, 2} x steps in {10^3, 10^4, 10^5} x delta in
{1e-5, 1e-10, 1e-12} (108 cells; the DP-SGD rows of docs/performance.md, (0.001, 0.8), (0.01, 1),
(0.1, 2) at 1e-5 and 1e-10, are among them), plus the issue's q = 0.01, sigma = 5000, 10^4 steps
and q = 0.01, sigma = 1, 10^12 steps. Both sides: epsilon at delta from the RDP method alone
(dpverify: ``RDPComposition().epsilon``, certified upper bound; dp-accounting: ``RdpAccountant()``
at its default orders, add/remove, ``get_epsilon``). ``--before`` reads the same JSON written by
an older dpverify (run with ``PYTHONPATH`` pointing at it) and adds its values, to show what
changed. Run from an environment with both packages; dp-accounting is never a dependency.
"""
from __future__ import annotations

import argparse
import json
import logging
import math
import os
import platform
import time

GRID_Q = (0.001, 0.01, 0.1)
GRID_SIGMA = (0.5, 0.8, 1.0, 2.0)
GRID_STEPS = (1000, 10000, 100000)
GRID_DELTA = (1e-5, 1e-10, 1e-12)
EXTRA = ((0.01, 5000.0, 10000), (0.01, 1.0, 10 ** 12))


def cells():
    for q in GRID_Q:
        for s in GRID_SIGMA:
            for k in GRID_STEPS:
                yield q, s, k
    yield from EXTRA


def ours(q, s, k, deltas):
    from dpverify.accounting import RDPComposition, dpsgd

    t = time.perf_counter()
    m = RDPComposition()
    ev = dpsgd(q, s, k)
    eps = [m.epsilon(ev, d) for d in deltas]
    return eps, time.perf_counter() - t


def theirs(q, s, k, deltas):
    try:
        import dp_accounting as dpa
        from dp_accounting.rdp import rdp_privacy_accountant
    except ImportError:
        return None, math.nan
    logging.getLogger("absl").setLevel(logging.ERROR)
    t = time.perf_counter()
    acc = rdp_privacy_accountant.RdpAccountant()
    acc.compose(dpa.PoissonSampledDpEvent(q, dpa.GaussianDpEvent(s)), k)
    eps = [acc.get_epsilon(d) for d in deltas]
    return eps, time.perf_counter() - t


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", help="write the values here")
    ap.add_argument("--before", help="JSON of an older dpverify (same script) to compare with")
    ap.add_argument("--ours-only", action="store_true", help="skip dp-accounting (for --before runs)")
    args = ap.parse_args(argv)
    before = {}
    if args.before:
        with open(args.before) as fh:
            before = {tuple(r["cell"]): r for r in json.load(fh)["rows"]}
    rows = []
    print(f"load average at start {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores; "
          f"python {platform.python_version()}")
    print("| q | sigma | steps | delta | dpverify RDP | dp-accounting RDP | ratio - 1 | dpverify before | "
          "t ours (s) | t theirs (s) |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    worst = -math.inf
    above = 0
    n = 0
    for q, s, k in cells():
        e_o, t_o = ours(q, s, k, GRID_DELTA)
        e_t, t_t = (None, math.nan) if args.ours_only else theirs(q, s, k, GRID_DELTA)
        b = before.get((q, s, k))
        rows.append({"cell": [q, s, k], "deltas": list(GRID_DELTA), "ours": e_o, "theirs": e_t,
                     "t_ours": t_o, "t_theirs": t_t})
        for i, d in enumerate(GRID_DELTA):
            ratio = "-"
            if e_t is not None and math.isfinite(e_t[i]) and e_t[i] > 0:
                r = e_o[i] / e_t[i] - 1
                worst = max(worst, r)
                above += r > 1e-6
                n += 1
                ratio = f"{r:+.2e}"
            bv = f"{b['ours'][i]:.6g}" if b else "-"
            their = f"{e_t[i]:.6g}" if e_t is not None else "-"
            print(f"| {q:g} | {s:g} | {k} | {d:g} | {e_o[i]:.6g} | {their} | {ratio} | {bv} | {t_o:.3f} | {t_t:.3f} |")
    print(f"\ncells compared: {n}; above dp-accounting by more than 1e-6 relative: {above}; "
          f"largest (ours / theirs - 1): {worst:+.2e}")
    if args.json:
        with open(args.json, "w") as fh:
            json.dump({"rows": rows}, fh)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
