"""Privacy-loss samples per second for the scalar Gaussian, next to numpy's raw normal rate.

Both are measured in the same run, interleaved, on one core (single-threaded numpy), and the
best of ``--repeats`` rounds is kept for each, so the ratio is robust to a busy machine.

    python benchmarks/bench_whitebox_throughput.py [--n 4000000] [--repeats 7]

Target (issue "walking skeleton"): ratio >= 0.5.
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import time

os.environ.setdefault("OMP_NUM_THREADS", "1")

import numpy as np  # noqa: E402

from dpverify.auditing.whitebox import privacy_losses  # noqa: E402
from dpverify_mechanisms.lecture21_dp import ClassicalGaussian  # noqa: E402


def raw_rate(n: int, seed: int) -> float:
    rng = np.random.default_rng(seed)
    t = time.perf_counter()
    rng.standard_normal(n)
    return n / (time.perf_counter() - t)


def loss_rate(n: int, seed: int) -> float:
    mech = ClassicalGaussian(epsilon=1.0, delta=1e-5)
    t = time.perf_counter()
    losses = privacy_losses(mech, 0.0, 1.0, n, rng=seed)
    dt = time.perf_counter() - t
    assert losses.shape == (n,)
    return n / dt


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=4_000_000)
    ap.add_argument("--repeats", type=int, default=7)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    raw, loss = [], []
    for r in range(args.repeats):
        raw.append(raw_rate(args.n, r))
        loss.append(loss_rate(args.n, r))
    best_raw, best_loss = max(raw), max(loss)
    doc = {
        "n": args.n,
        "repeats": args.repeats,
        "numpy_standard_normal_per_s": best_raw,
        "privacy_loss_samples_per_s": best_loss,
        "ratio": best_loss / best_raw,
        "median_ratio": float(np.median(np.array(loss) / np.array(raw))),
        "python": platform.python_version(),
        "numpy": np.__version__,
    }
    if args.json:
        print(json.dumps(doc, indent=2))
    else:
        print(f"numpy standard_normal : {best_raw / 1e6:8.2f} M samples/s (best of {args.repeats})")
        print(f"privacy-loss samples  : {best_loss / 1e6:8.2f} M samples/s (best of {args.repeats})")
        print(f"ratio                 : {doc['ratio']:.3f}  (median of paired ratios {doc['median_ratio']:.3f}; target >= 0.5)")


if __name__ == "__main__":
    main()
