"""Issue 30: the automatic importance proposal (translation tilt) at small delta, against plain sampling.

Mechanisms with only ``sample`` and ``log_density`` (no ``proposal``):

* ``gauss``: N(x, sigma^2), pair (0, 1), claim (2, 1e-8); sigma = 0.9 x 2.65293 (true delta(2) =
  1.94e-7, a violation), 1.0 x (the claim is exactly tight), and the violation with ``proposal=False``;
* ``lap20``: Laplace on 20 coordinates, pair (0^20, 1^20), claim (1.5, 1e-6); scale 0.9 x 11.7647
  (epsilon(1e-6) >= 1.67 by dpverify's PLD lower bound) and 1.0 x (delta(1.5) <= 1e-6, PLD upper bound);
* ``lap50``: the same on 50 coordinates, claim (2, 1e-8), scale x 17.7082;
* ``liar``: a correct private Gaussian sampler (1.05 x 2.65293) whose density under 0 is too heavy
  beyond 4.5 sd (exponential tail, slope 0.1 x 4.5): never ``violated`` is the requirement.

Each line: verdict, delta bounds, CPU seconds (this process and its children), effective sample size
of w g per direction, the violating-event check's (events, fresh draws) per direction, 1-minute load.

Run:  python benchmarks/bench_importance_auto.py gauss --samples 1000000 --seeds 0,1,2,3,4
"""
from __future__ import annotations

import argparse
import math
import os

import numpy as np

import dpverify
from dpverify import PrivacyClaim
from dpverify.auditing.neighbours import NeighbourSpace, Norm, Unit

SIGMA = 2.6529267680559045
LOG_SQRT_2PI = 0.5 * math.log(2 * math.pi)


class Gauss:
    def __init__(self, sigma, claim, s_density=None, knee=None, slope=0.1):
        self.sigma, self.claim = sigma, claim
        self.sd, self.knee, self.slope = s_density or sigma, knee, slope

    def sample(self, data, size, rng):
        return float(data) + self.sigma * rng.standard_normal(size)

    def log_density(self, outputs, data):
        z = (np.asarray(outputs, dtype=float) - float(data)) / self.sd
        lp = -0.5 * z * z
        if self.knee is not None and float(data) == 0.0:
            k = self.knee
            lp = np.where(z < -k, -0.5 * k * k - self.slope * k * (-z - k), lp)
        return lp - math.log(self.sd) - LOG_SQRT_2PI


class Laplace:
    def __init__(self, scale, claim):
        self.scale, self.claim = scale, claim

    def sample(self, data, size, rng):
        c = np.asarray(data, dtype=float)
        return c + rng.laplace(0.0, self.scale, size=(size, *c.shape))

    def log_density(self, outputs, data):
        c = np.asarray(data, dtype=float)
        dev = np.abs(np.asarray(outputs, dtype=float) - c).reshape(len(outputs), -1).sum(axis=1)
        return -c.size * math.log(2 * self.scale) - dev / self.scale


def cpu() -> float:
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def cases(name):
    if name == "gauss":
        claim = PrivacyClaim(2.0, 1e-8)
        for f, prop in ((0.9, "auto"), (1.0, "auto"), (0.9, False)):
            yield f"sigma={f}x", Gauss(f * SIGMA, claim), (0.0, 1.0), prop, {}
    elif name == "liar":
        yield "liar", Gauss(1.05 * SIGMA, PrivacyClaim(2.0, 1e-8), knee=4.5, slope=0.1), (0.0, 1.0), "auto", {}
    else:
        d, b, eps, delta = (20, 11.76467656429655, 1.5, 1e-6) if name == "lap20" else (50, 17.708213157914845, 2.0, 1e-8)
        space = NeighbourSpace(Unit.WHOLE, Norm.L1, float(d))
        for f, prop in ((0.9, "auto"), (1.0, "auto"), (0.9, False)):
            yield (f"scale={f}x", Laplace(f * b, PrivacyClaim(eps, delta)), (np.zeros(d), np.ones(d)), prop,
                   {"neighbours": space})


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("case", choices=["gauss", "lap20", "lap50", "liar"])
    ap.add_argument("--samples", type=int, default=100_000)
    ap.add_argument("--seeds", default="0,1,2,3,4")
    args = ap.parse_args()
    for seed in [int(s) for s in args.seeds.split(",")]:
        for label, mech, pair, prop, kw in cases(args.case):
            t = cpu()
            r = dpverify.audit(mech, pair, samples=args.samples, rng=seed, proposal=prop, **kw)
            used = cpu() - t
            ve = (r.consistency or {}).get("violating_event")
            ess = [round(d.extra["effective_sample_size"]) if "effective_sample_size" in d.extra else None
                   for d in r.directions]
            check = [(c["event_draws"], c["draws"]) for c in ve["checks"]] if ve else None
            print(f"{args.case} {label} proposal={prop} samples={args.samples} seed={seed}: {r.verdict.value} "
                  f"delta_lower={r.delta_lower:.3g} delta_estimate={r.delta_estimate:.3g} cpu={used:.2f}s "
                  f"ess={ess} event_check={check} load={os.getloadavg()[0]:.2f}", flush=True)


if __name__ == "__main__":
    main()
