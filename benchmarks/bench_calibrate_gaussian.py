"""Exact Gaussian calibration on the acceptance grid: safety, tightness and time per call.

Grid: 60 eps log-spaced in [0.01, 20] x delta in {1e-3, 1e-6, 1e-9, 1e-12} (240 cells).
For every cell:

* ``dpverify.calibrate.gaussian(eps, delta)`` (method "exact") is timed (median of ``--repeats``
  calls per cell) and its sigma is checked: delta_true(eps) <= delta at 50 digits, and
  sigma / sigma* <= 1 + 1e-9, sigma* the exact minimum found here independently by mpmath
  bisection at 50 digits;
* the reference, dp-accounting's ``get_sigma_gaussian(eps, delta)`` (Google's library, the same
  Balle-Wang method), is timed the same way and its sigma checked at 50 digits: how often is it on
  the unsafe side (delta_true(eps) > delta)?

dp-accounting is a comparison only: it is never a dependency of dpverify. Install it for this run
with ``pip install dp-accounting`` (or pass ``--install`` to let this script run that command).

Run:  python benchmarks/bench_calibrate_gaussian.py [--repeats 5] [--install]
Prints a markdown section for docs/performance.md.
"""
from __future__ import annotations

import argparse
import importlib
import statistics
import subprocess
import sys
import time

import mpmath
import numpy as np

from dpverify import calibrate

EPS = np.geomspace(0.01, 20, 60)
DELTAS = (1e-3, 1e-6, 1e-9, 1e-12)


def delta_50(eps, sigma):
    with mpmath.workdps(50):
        e, s = mpmath.mpf(eps), mpmath.mpf(sigma)
        phi = lambda x: mpmath.erfc(-x / mpmath.sqrt(2)) / 2  # noqa: E731
        return phi(1 / (2 * s) - e * s) - mpmath.exp(e) * phi(-1 / (2 * s) - e * s)


def sigma_star(eps, delta):
    """Exact minimum by bisection at 50 digits (own bracket, no float root finder)."""
    with mpmath.workdps(50):
        target = mpmath.mpf(delta)
        lo, hi = mpmath.mpf(1e-6), mpmath.mpf(1e6)
        while hi / lo - 1 > mpmath.mpf(10) ** -15:
            mid = (lo + hi) / 2
            if delta_50(eps, mid) > target:
                lo = mid
            else:
                hi = mid
        return lo


def timed(func, repeats):
    times, out = [], None
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = func()
        times.append(time.perf_counter() - t0)
    return out, statistics.median(times)


def load_dp_accounting(install: bool):
    try:
        return importlib.import_module("dp_accounting")
    except ImportError:
        if not install:
            return None
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "dp-accounting"], check=False)
    try:
        return importlib.import_module("dp_accounting")
    except ImportError:
        return None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--install", action="store_true", help="pip install dp-accounting if it is missing")
    args = ap.parse_args()
    dpa = load_dp_accounting(args.install)

    ours_t, ref_t = [], []
    worst_ratio, unsafe_ours, over_tight, ours_ratios = 0.0, 0, 0, []
    ref_unsafe, ref_ratios, ref_worst_excess = 0, [], 0.0
    t_start = time.perf_counter()
    for d in DELTAS:
        for e in EPS:
            e = float(e)
            cal, t = timed(lambda: calibrate.gaussian(e, d), args.repeats)
            ours_t.append(t)
            star = sigma_star(e, d)
            if delta_50(e, cal.sigma) > d:
                unsafe_ours += 1
            ratio = float(mpmath.mpf(cal.sigma) / star)
            worst_ratio = max(worst_ratio, ratio)
            ours_ratios.append(ratio)
            if ratio > 1 + 1e-9:
                over_tight += 1
            if dpa is not None:
                s_ref, t_ref = timed(lambda: dpa.get_sigma_gaussian(e, d), args.repeats)
                ref_t.append(t_ref)
                if delta_50(e, s_ref) > d:
                    ref_unsafe += 1
                    ref_worst_excess = max(ref_worst_excess, float(delta_50(e, s_ref) / d - 1))
                ref_ratios.append(float(mpmath.mpf(s_ref) / star))
    wall = time.perf_counter() - t_start

    n = len(EPS) * len(DELTAS)
    med = statistics.median(ours_t)
    print("## Exact Gaussian calibration (`dpverify.calibrate.gaussian`)\n")
    print("Reproduce: `python benchmarks/bench_calibrate_gaussian.py` "
          f"(grid: 60 eps log-spaced in [0.01, 20] x delta in {{1e-3, 1e-6, 1e-9, 1e-12}}, {n} cells; "
          f"median of {args.repeats} calls per cell; wall {wall:.1f} s).\n")
    print("| | dpverify exact | dp-accounting `get_sigma_gaussian` |")
    print("|---|---|---|")
    if dpa is not None:
        rmed = statistics.median(ref_t)
        print(f"| median time per call | {med * 1e3:.3f} ms | {rmed * 1e3:.3f} ms |")
        print(f"| 90th percentile time | {np.quantile(ours_t, 0.9) * 1e3:.3f} ms | {np.quantile(ref_t, 0.9) * 1e3:.3f} ms |")
        print(f"| time ratio (dpverify / dp-accounting, medians) | {med / rmed:.2f} | 1 |")
        print(f"| cells with delta_true(eps) > delta at 50 digits (unsafe) | {unsafe_ours} / {n} | {ref_unsafe} / {n} |")
        print(f"| worst sigma / sigma* | {worst_ratio:.15f} | {max(ref_ratios):.15f} |")
        print(f"| smallest sigma / sigma* | {min(ours_ratios):.15f} | {min(ref_ratios):.15f} |")
        print(f"| cells with sigma / sigma* > 1 + 1e-9 | {over_tight} / {n} | "
              f"{sum(r > 1 + 1e-9 for r in ref_ratios)} / {n} |")
        print(f"\ndp-accounting's largest relative excess of delta_true(eps) over the target: {ref_worst_excess:.3g}.")
    else:
        print(f"| median time per call | {med * 1e3:.3f} ms | not installed |")
        print(f"| cells with delta_true(eps) > delta at 50 digits (unsafe) | {unsafe_ours} / {n} | - |")
        print(f"| worst sigma / sigma* | {worst_ratio:.15f} | - |")
        print(f"| cells with sigma / sigma* > 1 + 1e-9 | {over_tight} / {n} | - |")
    print(f"\nTarget: median <= 1 ms per call: {'met' if med <= 1e-3 else 'NOT met'}. "
          f"sigma* is the exact minimum from an independent 50-digit mpmath bisection.")


if __name__ == "__main__":
    main()
