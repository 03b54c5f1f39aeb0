"""Power and false alarms of the trade-off test of a whole curve claim (issue 30), black-box.

Usage: python benchmarks/bench_tradeoff.py [--power-seeds 100] [--null-seeds 600] [--samples 50000]

The case of the issue: a Gaussian mechanism whose sigma is 10 % too small for (eps = 1, delta = 1e-5), audited
against the mu-GDP claim of the correct sigma (mu such that the GDP curve gives delta(1) = 1e-5; sigma = 1/mu);
and the correct sigma against the same claim (its curve *is* the claim: the boundary, where a level-0.05 test
is violated at most 5 % of the time, up to the normal approximation of its tangent rule). Also the same
faulty mechanism against the claim stated as a dpverify Accountant's curve (PrivacyClaim.curve_of). Seeds
are 0, 1, ...: nothing is tuned on them. Prints the violated share and its exact 95 % Clopper-Pearson interval.
"""
from __future__ import annotations

import argparse
import os
import time

from scipy.stats import beta

import dpverify
from dpverify import PrivacyClaim
from dpverify.accounting import Accountant, Gaussian


class ScalarGaussian:
    def __init__(self, sigma, claim):
        self.sigma, self.claim = sigma, claim

    def sample(self, data, size, rng):
        return float(data) + self.sigma * rng.standard_normal(size)


def gdp_mu_at(eps: float, delta: float) -> float:
    lo, hi = 1e-3, 10.0
    for _ in range(100):
        mid = (lo + hi) / 2
        lo, hi = (lo, mid) if PrivacyClaim.gdp(mid).delta_at(eps) > delta else (mid, hi)
    return lo


def share(mech, seeds, samples):
    hits, t = 0, time.process_time()
    for seed in range(seeds):
        hits += dpverify.audit(mech, (0.0, 1.0), samples=samples, rng=seed).verdict.value == "violated"
    lo = beta.ppf(0.025, hits, seeds - hits + 1) if hits else 0.0
    hi = beta.ppf(0.975, hits + 1, seeds - hits) if hits < seeds else 1.0
    return hits, lo, hi, (time.process_time() - t) / seeds


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--power-seeds", type=int, default=100)
    ap.add_argument("--null-seeds", type=int, default=600)
    ap.add_argument("--samples", type=int, default=50_000)
    args = ap.parse_args(argv)
    mu = gdp_mu_at(1.0, 1e-5)
    sigma = 1 / mu
    gdp = PrivacyClaim.gdp(mu)
    acc = PrivacyClaim.curve_of(Accountant().compose(Gaussian(sigma=sigma)))
    print(f"load {os.getloadavg()[0]:.2f}; sigma(1, 1e-5) = {sigma:.5f} (mu = {mu:.5f}); {args.samples} samples per side")
    rows = [("sigma 10 % too small, GDP claim", ScalarGaussian(0.9 * sigma, gdp), args.power_seeds),
            ("sigma 10 % too small, accountant curve", ScalarGaussian(0.9 * sigma, acc), args.power_seeds),
            ("correct sigma, GDP claim (boundary)", ScalarGaussian(sigma, gdp), args.null_seeds)]
    for name, mech, seeds in rows:
        hits, lo, hi, cpu = share(mech, seeds, args.samples)
        print(f"{name:42s} violated {hits}/{seeds} = {hits / seeds:.3f} (95 % CI {lo:.3f}-{hi:.3f}); "
              f"{cpu * 1000:.0f} ms CPU per audit")
    print(f"load at end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
