"""White-box audit at small delta: importance sampling vs plain Monte Carlo (one core).

Workload: ClassicalGaussian (lecture21-dp Lemma 6) at (eps=10, delta=1e-5), Delta=1, pair (0, 1);
true delta(10) = 2.27e-5, so the claim is violated. Reports, in one run:
* the reference: numpy's raw standard-normal generation rate on this machine;
* plain Monte Carlo at 10^7 draws per direction: seconds, delta_lower;
* importance sampling at 10^5 and 10^6 draws: seconds, delta_lower;
* the ratio (plain seconds) / (importance seconds) to certify delta_lower > 1e-5;
* the registry with neighbour search on (what `dpverify check` audits), total seconds.

Run:  python benchmarks/bench_whitebox.py   (about two minutes on one core)
"""
from __future__ import annotations

import argparse
import os
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

import dpverify  # noqa: E402
from dpverify_mechanisms.lecture21_dp import ClassicalGaussian  # noqa: E402


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--skip-check", action="store_true")
    args = ap.parse_args()
    rng = np.random.default_rng(0)
    _, t_raw = timed(lambda: rng.standard_normal(10**7))
    print(f"reference: numpy standard_normal {1e7 / t_raw:,.0f} draws/s")
    mech = ClassicalGaussian(10.0, 1e-5, 1.0)
    plain, t_plain = timed(lambda: dpverify.audit(mech, (0.0, 1.0), samples=10**7, rng=1, proposal=False))
    print(f"plain 1e7/direction: {t_plain:.1f} s, verdict {plain.verdict}, delta_lower {plain.delta_lower:.3e}, "
          f"epsilon_lower {plain.epsilon_lower:.4f}")
    best_is = None
    for n in (10**5, 10**6):
        r, t = timed(lambda: dpverify.audit(mech, (0.0, 1.0), samples=n, rng=1))
        print(f"importance {n:.0e}/direction: {t:.2f} s, verdict {r.verdict}, delta_lower {r.delta_lower:.3e}, "
              f"epsilon_lower {r.epsilon_lower:.4f}")
        if best_is is None and r.delta_lower > 1e-5:
            best_is = t
    r, t = timed(lambda: dpverify.audit(mech, (0.0, 1.0), delta_resolution=1e-6, rng=1))
    print(f"delta_resolution=1e-6: {r.samples} draws/direction chosen, {t:.2f} s, delta_lower {r.delta_lower:.3e}")
    if plain.delta_lower > 1e-5 and best_is:
        print(f"ratio plain/importance seconds to certify delta_lower > 1e-5: {t_plain / best_is:.1f}")
    if not args.skip_check:
        import argparse as ap2

        from dpverify.cli.check import _mechanism_rows

        rows, t = timed(lambda: _mechanism_rows(ap2.Namespace(only=None, samples_scale=1.0, seed=0, json=True,
                                                              no_search=False)))
        print(f"registry with neighbour search: {len(rows)} mechanisms, {t:.1f} s on one core")
        for row in rows:
            s = row["search"] or {}
            print(f"  {row['name']:34s} {row['verdict']:13s} eps_lower {row['epsilon_lower']:<10.4g} "
                  f"{row['seconds']:6.1f} s  search {s.get('method')}")


if __name__ == "__main__":
    main()
