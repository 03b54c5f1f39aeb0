"""The anytime-valid (sequential) black-box test: samples to detect, and false alarms on tight mechanisms (issue 30).

Usage: python benchmarks/bench_anytime.py [--seeds 40] [--null-seeds 400] [--max-samples 2000]

* Detection: a Laplace mechanism with half its scale (true eps 2 against a claim of 1), pair (0, 1); the draws
  per dataset at which ``sequential=True`` stops (pilot included), median and quartiles over seeds 0, 1, ...
* False alarms, at confidence 0.95, ``--max-samples`` draws per dataset at most, on three mechanisms whose
  claim is tight: Laplace (true eps = claim = 1), binary randomized response (true eps = claim = 1) and an
  exponential mechanism over 11 outcomes (utility sensitivity 1, claim 1, true eps 0.906). Each row gives the
  violated count, and the one-sided exact binomial p-value of that count against alpha = 0.05 (small p: false
  alarms significantly above alpha).
* The same for three tight mechanisms whose outputs are not one number (the learned-event test of
  ``dpverify.auditing.anytime_learned``): 4-ary randomized response as a one-hot vector, two Laplace coordinates of
  scale 2 (the pair moves both by 1: eps 1 exactly), and binary randomized response released as a tuple
  (structured output).
* The same for curve claims (the learned test bets at an eps' of the curve chosen per batch): a Gaussian at
  exactly its mu-GDP claim (mu = 1), and at exactly its zCDP claim (sigma 1, rho 0.5).
"""
from __future__ import annotations

import argparse
import math
import os
import statistics

import numpy as np
from scipy.stats import binom

import dpverify
from dpverify import PrivacyClaim


class Laplace:
    def __init__(self, scale):
        self.scale, self.claim = scale, PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        return float(data) + rng.laplace(0.0, self.scale, size)


class RandomizedResponse:
    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        keep = rng.random(size) < math.e / (1 + math.e)
        return np.where(keep, float(data), 1.0 - float(data))


class Exponential:
    """11 outcomes; on D outcome 0 has utility 1 and the others 0, on D' the reverse shift (sensitivity 1)."""

    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        u = np.zeros(11)
        u[0] = float(data)
        u[1:] = 1.0 - float(data)
        p = np.exp(0.5 * u)
        return rng.choice(11, size=size, p=p / p.sum()).astype(float)


class OneHot:
    """4-ary randomized response at exactly eps = 1, released one-hot."""

    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        keep = rng.random(size) < math.e / (math.e + 3)
        value = np.where(keep, int(data), (int(data) + 1 + rng.integers(0, 3, size)) % 4)
        return np.eye(4, dtype=np.int8)[value]


class TwoLaplace:
    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        return float(data) + rng.laplace(0.0, 2.0, (size, 2))


class TupleRR:
    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        keep = rng.random(size) < math.e / (1 + math.e)
        out = np.empty(size, dtype=object)
        out[:] = [("yes", 1) if v else (None,) for v in np.where(keep, int(data), 1 - int(data))]
        return out


class Gauss:
    def __init__(self, claim):
        self.claim = claim

    def sample(self, data, size, rng):
        return float(data) + rng.normal(0.0, 1.0, size)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=40)
    ap.add_argument("--null-seeds", type=int, default=400)
    ap.add_argument("--max-samples", type=int, default=2000)
    args = ap.parse_args(argv)
    print(f"load {os.getloadavg()[0]:.2f}")
    used = []
    for seed in range(args.seeds):
        r = dpverify.audit(Laplace(0.5), (0.0, 1.0), samples=20_000, rng=seed, sequential=True)
        used.append(r.samples if r.verdict.value == "violated" else math.inf)
    q = statistics.quantiles(used, n=4)
    print(f"halved Laplace: violated {sum(u < math.inf for u in used)}/{args.seeds}; draws per dataset at the stop: "
          f"median {statistics.median(used):g}, quartiles {q[0]:g}-{q[2]:g}")
    for name, mech in (("Laplace (tight)", Laplace(1.0)), ("randomized response (tight)", RandomizedResponse()),
                       ("exponential, 11 outcomes (0.906 of the claim)", Exponential()),
                       ("learned events: one-hot 4-ary RR (tight)", OneHot()),
                       ("learned events: two Laplace coordinates (tight)", TwoLaplace()),
                       ("learned events: RR as a tuple (tight)", TupleRR()),
                       ("curve: Gaussian at its mu-GDP claim (tight)", Gauss(PrivacyClaim.gdp(1.0))),
                       ("curve: Gaussian at its zCDP claim (tight)", Gauss(PrivacyClaim.zcdp(0.5)))):
        hits = sum(dpverify.audit(mech, (0.0, 1.0), samples=args.max_samples, rng=seed, sequential=True).verdict.value
                   == "violated" for seed in range(args.null_seeds))
        p = binom.sf(hits - 1, args.null_seeds, 0.05)
        print(f"{name:48s} violated {hits}/{args.null_seeds} = {hits / args.null_seeds:.3f}; P(>= {hits} | alpha) = {p:.3g}")
    print(f"load at end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
