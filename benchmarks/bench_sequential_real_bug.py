"""A real, reported bug caught by the learned sequential test (issue 30): OpenDP #2922 (open in opendp 0.16.0).

    python benchmarks/bench_sequential_real_bug.py [--seeds 20]     # in an environment with opendp (extra `libraries`)

OpenDP's ``make_count_by >> then_laplace_threshold(scale=1, threshold=3)`` states delta as the mass of a new
partition's noisy count *above* the threshold, but releases it *at or above*; the true delta is 0.099 against the
0.036 claimed (docs/libraries.md). Its outputs are maps (key -> count), which the anytime-valid test refused before
this round ("needs scalar outputs"). Here: ``audit(measurement, [([], ["-1"])], sequential=True)`` on the pair the
unaided search finds (a record in a new partition), the draws per dataset at the stop over seeds 0 .. seeds-1 (at
most 20,000); and the same measurement against a claim whose delta is raised to 0.11 (above the true 0.099), which
the test must leave alone (each run violated with probability at most 0.05). OpenDP draws its own randomness (it
ignores ``rng``), so the counts differ from one invocation to the next. The fixed-size audit already found this bug
without a pair at 2,000 samples per side (round 12); what is new is the sequential test on map outputs.
"""
from __future__ import annotations

import argparse
import os
import statistics
import time

import dpverify
from dpverify import PrivacyClaim
from dpverify.adapters import opendp as adapter


def count_by_threshold():
    import opendp.prelude as dp

    dp.enable_features("contrib")
    vec = dp.vector_domain(dp.atom_domain(T=str))
    return dp.t.make_count_by(vec, dp.symmetric_distance(), TV=int) >> dp.m.then_laplace_threshold(scale=1.0,
                                                                                                     threshold=3)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    args = ap.parse_args(argv)
    from importlib.metadata import version

    m = adapter.measurement(factory=count_by_threshold, d_in=1)
    pair = ([], ["-1"])
    print(f"opendp {version('opendp')}; load {os.getloadavg()[0]:.2f}; claim {m.claim!r}")
    t = time.process_time()
    used = [dpverify.audit(m, [pair], samples=20_000, rng=s, sequential=True) for s in range(args.seeds)]
    stops = [r.samples for r in used if r.verdict.value == "violated"]
    print(f"as stated: {len(stops)}/{args.seeds} stopped violated; draws per dataset at the stop: median "
          f"{statistics.median(stops) if stops else '-'}, largest {max(stops) if stops else '-'}; "
          f"{(time.process_time() - t) / args.seeds:.2f} CPU s per audit")
    raised = PrivacyClaim(m.claim.epsilon, 0.11, relation=m.claim.relation)
    ok = sum(dpverify.audit(m, [pair], claim=raised, samples=20_000, rng=s, sequential=True).verdict.value
             == "violated" for s in range(args.seeds))
    print(f"against delta = 0.11 (above the true 0.099): {ok}/{args.seeds} violated")
    print(f"load at end {os.getloadavg()[0]:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
