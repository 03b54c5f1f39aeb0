"""False alarms of the black-box audit on correct mechanisms, over many seeds (issue 17).

Usage: python benchmarks/bench_blackbox_false_alarms.py [--seeds-safe 100] [--seeds-seq 200]
                                                        [--seeds-fixed 0] [--samples 50000] [--only NAME ...]
                                                        [--confidence 0.95]

Two tables for docs/performance.md "Black-box power on vectors, float bits, early stopping":

* **Safe samplers** (``float_bits=True``, confidence 0.95, the pairs of their registry entries):
  the exact discrete Gaussian of Canonne, Kamath & Steinke (and the discrete Laplace and the
  snapping mechanism with ``--only``), one audit per seed; none may be ``violated`` more often
  than 1 - confidence allows.
* **Sequential test** (``stop_early=True``, confidence 0.95): correct mechanisms whose claim is
  tight or nearly so - binary randomized response (true eps = claim = 1), an exponential
  mechanism with 11 outcomes (utility sensitivity 1, claim 1, true eps 0.906: one outcome's
  utility rises while the ten others fall), and the Laplace mechanism (true eps = claim = 1).

With ``--multidim-seeds K`` the correct multi-dimensional controls NumericalSVT and LaplaceParallel
(true eps = claim = 0.1, the pairs of ``mechanisms/faulty/registry.py``) are audited with a fixed
budget (``--multidim-samples``, default 10^5: the paired bound and its ranking run) at seeds 0..K-1;
a ``violated`` there is a false alarm of the paired bound (or of a Clopper-Pearson bound).

With ``--seeds-fixed K`` the same tight mechanisms are also audited without early stopping (the
default audit, whose pure claims go through the paired bound and its held-out ranking).

Each row gives the number of ``violated`` verdicts, the seeds, and the exact (Clopper-Pearson)
one-sided 95 % upper bound on the false-alarm rate from that count. Seeds are 0, 1, ..., so a
row is reproducible; nothing is tuned on them. CPU seconds per audit are process time (one core,
serial executor).
"""
from __future__ import annotations

import argparse
import math
import time

import numpy as np

from dpverify import PrivacyClaim, audit
from dpverify.auditing.blackbox import InlineExecutor
from dpverify.auditing.bounds import clopper_pearson_upper


class RandomizedResponse:
    """Binary randomized response: the true bit with probability e^eps / (1 + e^eps). Tight."""

    def __init__(self, epsilon: float = 1.0):
        self.epsilon = epsilon
        self.claim = PrivacyClaim(epsilon)

    def sample(self, data, size, rng):
        keep = rng.random(size) < math.exp(self.epsilon) / (1 + math.exp(self.epsilon))
        return np.where(keep, int(data), 1 - int(data))


class ExponentialMechanism:
    """McSherry-Talwar exponential mechanism, P(r) proportional to exp(eps u(D, r) / 2), utility
    sensitivity 1. Data 0: utilities (1, 0, ..., 0); data 1: (0, 1, ..., 1) (``outcomes`` in all):
    the worst case of the proof up to the normaliser, log-ratio 0.906 at eps = 1 for 11 outcomes."""

    def __init__(self, epsilon: float = 1.0, outcomes: int = 11):
        self.epsilon, self.outcomes = epsilon, outcomes
        self.claim = PrivacyClaim(epsilon)

    def true_epsilon(self) -> float:
        e, m = math.exp(self.epsilon / 2), self.outcomes - 1
        return math.log(e * (1 + m * e) / (e + m))

    def sample(self, data, size, rng):
        u = np.zeros(self.outcomes)
        if int(data) == 0:
            u[0] = 1.0
        else:
            u[1:] = 1.0
        w = np.exp(self.epsilon * u / 2)
        return rng.choice(self.outcomes, size=size, p=w / w.sum())


class Laplace:
    def __init__(self, epsilon: float = 1.0):
        self.claim = PrivacyClaim(epsilon)
        self.scale = 1.0 / epsilon

    def sample(self, data, size, rng):
        return float(data) + rng.laplace(0.0, self.scale, size)


def _row(label: str, runs, seeds: int, extra: str = "") -> None:
    bad = sum(r.verdict.value == "violated" for r, _ in runs)
    up = float(clopper_pearson_upper(bad, seeds, 0.05))
    cpu = float(np.mean([c for _, c in runs]))
    used = [r.samples for r, _ in runs]
    print(f"| {label} | {bad} / {seeds} | {up:.4f} | {np.median([r.epsilon_lower for r, _ in runs]):.3f} | "
          f"{int(np.median(used))} | {cpu:.2f} |{extra}", flush=True)


def _runs(m, pairs, seeds: int, **kw):
    out = []
    for s in range(seeds):
        t0 = time.process_time()
        r = audit(m, pairs, rng=s, executor=InlineExecutor(), **kw)
        out.append((r, time.process_time() - t0))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--seeds-safe", type=int, default=100)
    ap.add_argument("--seeds-seq", type=int, default=200)
    ap.add_argument("--samples", type=int, default=50_000)
    ap.add_argument("--seeds-fixed", type=int, default=0,
                    help="also audit the tight mechanisms of the sequential table with a fixed budget (the "
                         "default audit: the paired bound and its held-out ranking), over this many seeds")
    ap.add_argument("--multidim-seeds", type=int, default=0,
                    help="also audit NumericalSVT and LaplaceParallel (correct, tight) over this many seeds")
    ap.add_argument("--multidim-samples", type=int, default=100_000)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--confidence", type=float, default=0.95)
    args = ap.parse_args()
    conf = args.confidence
    if args.multidim_seeds > 0:
        from dpverify_mechanisms.faulty.registry import TRUTH

        print(f"### Multi-dimensional controls, fixed budget (default audit, confidence {conf:g}, {args.multidim_samples} "
              f"samples per dataset, seeds 0..{args.multidim_seeds - 1})\n")
        print("| mechanism | violated (of seeds) | 95 % upper bound on the rate | median eps_lower | median samples "
              "used | CPU s per audit | max eps_lower / true eps | seeds whose paired bound exceeds the true eps |")
        print("|---|---|---|---|---|---|---|---|")
        for name in ("numerical-svt", "laplace-parallel"):
            if args.only and name not in args.only:
                continue
            faulty, k, factory, pairs = TRUTH[name]
            m = factory()
            true = m.true_epsilon(k)
            runs = _runs(m, pairs(), args.multidim_seeds, samples=args.multidim_samples, confidence=conf)
            over = sum(any((e["epsilon_lower_paired"] or 0.0) > true for d in r.directions for e in d.extra["events"])
                       for r, _ in runs)
            top = max(r.epsilon_lower for r, _ in runs) / true
            _row(f"{name} (true eps {true:g} = claim)", runs, args.multidim_seeds, f" {top:.3f} | {over} |")
        if args.only and all(n in ("numerical-svt", "laplace-parallel") for n in args.only):
            return
    from dpverify_mechanisms.registry import ENTRIES

    safe = ["discrete-gaussian-cks"] if not args.only else [n for n in args.only if n in
                                                           ("discrete-gaussian-cks", "discrete-laplace-cks",
                                                            "snapping-mironov")]
    if safe:
        print(f"### Safe samplers, not violated? (`float_bits=True`, confidence {conf:g}, {args.samples} samples "
              f"per dataset, seeds 0..{args.seeds_safe - 1})\n")
        print("| mechanism | violated (of seeds) | 95 % upper bound on the rate | median eps_lower | median samples "
              "used | CPU s per audit |")
        print("|---|---|---|---|---|---|")
        for e in ENTRIES:
            if e.name in safe:
                m = e.factory()
                _row(f"{e.name} (claim {m.claim.epsilon:g}, delta {m.claim.delta:g})",
                     _runs(m, e.pairs(), args.seeds_safe, samples=args.samples, float_bits=True, confidence=conf), args.seeds_safe)
    seq = [("randomized-response", RandomizedResponse(1.0), [(0, 1)], "true eps 1 = claim"),
           ("exponential-mechanism", ExponentialMechanism(1.0), [(0, 1)],
            f"true eps {ExponentialMechanism(1.0).true_epsilon():.3f}, claim 1"),
           ("laplace", Laplace(1.0), [(0.0, 1.0)], "true eps 1 = claim")]
    seq = [c for c in seq if not args.only or c[0] in args.only]
    if seq:
        print(f"\n### Sequential test false alarms (`stop_early=True`, confidence {conf:g}, budget {args.samples} "
              f"per dataset, seeds 0..{args.seeds_seq - 1})\n")
        print("| mechanism | violated (of seeds) | 95 % upper bound on the rate | median eps_lower | median samples "
              "used | CPU s per audit |")
        print("|---|---|---|---|---|---|")
        for name, m, pairs, what in seq:
            _row(f"{name} ({what})", _runs(m, pairs, args.seeds_seq, samples=args.samples, stop_early=True, confidence=conf),
                 args.seeds_seq)
    if seq and args.seeds_fixed > 0:
        print(f"\n### Fixed-budget false alarms (default audit, confidence {conf:g}, {args.samples} samples per dataset, "
              f"seeds 0..{args.seeds_fixed - 1})\n")
        print("| mechanism | violated (of seeds) | 95 % upper bound on the rate | median eps_lower | median samples "
              "used | CPU s per audit |")
        print("|---|---|---|---|---|---|")
        for name, m, pairs, what in seq:
            _row(f"{name} ({what})", _runs(m, pairs, args.seeds_fixed, samples=args.samples, confidence=conf), args.seeds_fixed)


if __name__ == "__main__":
    main()
