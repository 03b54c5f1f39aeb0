"""Black-box audit on the faulty and correct controls: power, ratio to the true epsilon, time.

Usage: python benchmarks/bench_blackbox.py [--samples N] [--seed S] [--only NAME ...] [--issue17]
       python benchmarks/bench_blackbox.py --issue17 [--samples N] [--seeds K] [--pool]

The CPU seconds (this process and its worker processes) are the figure to compare with a
wall-clock target on an otherwise idle machine: wall seconds on a shared machine mostly measure
the other jobs. ``--issue17`` prints the tables of docs/performance.md "Black-box power on vectors, float bits,
early stopping": the multi-dimensional controls (ratio to the true epsilon and to the best
certified bound of the *oracle* event - the count of coordinates past the midpoint, known in
advance, certified alone on all the samples at confidence 0.95, computed exactly from binomial
laws: a ceiling no certified method reaches at this budget), the 53-bit float Laplace and the
safe samplers with ``float_bits=True``, and early stopping on a halved-noise Laplace.

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
import os
import time

import numpy as np

from dpverify import audit
from dpverify.auditing.blackbox import InlineExecutor
from dpverify_mechanisms.faulty.registry import REGISTRY, TRUTH


def _oracle_count_ceiling(k: int, shift_eps: float, n: int, alpha: float = 0.05) -> float:
    """Best certified eps of the events {count of coordinates past the midpoint >= j} (or <= j),
    known in advance, each certified alone on n samples at level alpha/2 per side, evaluated at the
    expected counts: a ceiling for Laplace noise of per-coordinate loss ``shift_eps`` (shift 1)."""
    from scipy import special, stats

    b = 1.0 / shift_eps
    p1 = 1 - 0.5 * math.exp(-0.5 / b)
    p2 = 0.5 * math.exp(-0.5 / b)
    best = 0.0
    for j in range(k + 1):
        for a1, a2 in ((stats.binom.sf(j - 1, k, p1), stats.binom.sf(j - 1, k, p2)),
                       (stats.binom.cdf(j, k, p2), stats.binom.cdf(j, k, p1))):
            lo = special.betaincinv(n * a1, n - n * a1 + 1, alpha / 2)
            up = special.betaincinv(n * a2 + 1, n - n * a2, 1 - alpha / 2)
            if lo > 0 and up > 0:
                best = max(best, math.log(lo / up))
    return best


def _oracle_paired(k: int, shift_eps: float, n: int, alpha: float, alpha_margin: float, shots: int = 1,
                   reps: int = 2000, seed: int = 0) -> list[tuple[int, float, float, float, float]]:
    """Distribution over audits of the *paired* bound of the oracle events {count of coordinates past the
    midpoint >= j} (favouring D) and, with ``shots=2``, also {count <= k - j} (favouring D', the same
    law mirrored; each then at half of ``alpha`` and ``alpha_margin``, the larger bound reported), known
    in advance and certified on ``n`` independent pairs: ``(j, true log ratio, mean, median, share of
    audits >= 0.3 x the sum of the per-output eps)``, from ``reps`` draws of the exact multinomial law
    of the pairs (3 x 3 cells: above, below, neither, for the output of D and of D'). What an audit
    that always picked the best events could get at this budget; no data of any audit is used."""
    from scipy import stats

    from dpverify.auditing.bounds import paired_log_ratio_lower as bound

    rng = np.random.default_rng(seed)
    b = 1.0 / shift_eps
    p1c, p2c = 1 - 0.5 * math.exp(-0.5 / b), 0.5 * math.exp(-0.5 / b)
    target = 0.3 * k * shift_eps
    a, am = alpha / shots, alpha_margin / shots
    out = []
    for j in range(k // 2 + 1, k + 1):
        def law(pc):
            hi, lo = float(stats.binom.sf(j - 1, k, pc)), float(stats.binom.cdf(k - j, k, pc))
            return np.array([hi, lo, 1.0 - hi - lo])
        x, y = law(p1c), law(p2c)  # classes of the output of D, of D'
        cells = rng.multinomial(n, np.outer(x, y).ravel(), size=reps).reshape(reps, 3, 3)
        v = []
        for c in cells:
            best = bound(int(c[0, 1] + c[0, 2]), int(c[1, 0] + c[2, 0]), int(c[0].sum()), int(c[:, 0].sum()), n, a, am)
            if shots == 2:  # {count <= k - j} favours D': its favoured output is D''s
                best = max(best, bound(int(c[0, 1] + c[2, 1]), int(c[1, 0] + c[1, 2]), int(c[:, 1].sum()),
                                       int(c[1].sum()), n, a, am))
            v.append(max(best, 0.0))
        v = np.array(v)
        out.append((j, math.log(x[0] / y[0]), float(v.mean()), float(np.median(v)), float(np.mean(v >= target))))
    return out


def attainable(samples: int) -> None:
    """The table "Attainable (laplace-parallel)" of docs/performance.md (simulation, no audit)."""
    from dpverify.auditing import blackbox as bb

    n_sel = min(bb.SELECTION_CAP, int(round(samples * bb.SELECTION_FRACTION)))
    print("Attainable (laplace-parallel, 20 x Lap(200), true eps 0.1): the paired bound of the oracle events "
          "{count past the midpoints >= j} (and, two shots, its mirror {count <= 20 - j}), known in advance, "
          "over 2000 simulated audits each (exact law of the pairs):\n")
    print("| j | certified on | paired alpha (+ margins) | shots | true log ratio | mean bound | median bound | "
          "share >= 0.03 |")
    print("|---|---|---|---|---|---|---|---|")
    a = 0.05
    for n, ap_, am, shots, what in (
            (samples, a - 1e-4, 1e-4, 1, "all samples, all alpha, one event"),
            (samples - n_sel, 0.7 * a, 0.05 * a, 1, "fourth round's split"),
            (samples - n_sel, bb.PAIRED_SHARE * a, bb.PAIRED_MARGIN_SHARE * a, 1, "this round's split, one event"),
            (samples - n_sel, bb.PAIRED_SHARE * a, bb.PAIRED_MARGIN_SHARE * a, 2, "this round's split, two events")):
        rows = _oracle_paired(20, 0.1 / 20, n, ap_, am, shots)
        for j, lr, mean, med, share in sorted(rows, key=lambda r: -r[2])[:2]:
            print(f"| {j} | {n} pairs ({what}) | {ap_:.4g} (+ {am:.2g}) | {shots} | {lr:.4f} | {mean:.4f} | "
                  f"{med:.4f} | {share:.2f} |", flush=True)


def _cpu() -> float:
    """CPU seconds of this process and of its reaped children (the audit's worker pool)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _sampling_seconds(m, pairs, samples: int) -> float:
    """Seconds to draw ``samples`` outputs on each dataset of ``pairs`` (the sampler alone: the reference)."""
    t0 = time.perf_counter()
    for d, dp in pairs:
        for data in (d, dp):
            m.sample(data, samples, np.random.default_rng(1))
    return time.perf_counter() - t0


class _HalfLaplace:
    """A Laplace mechanism with half the noise its claim needs (true eps 2, claim 1)."""

    def __init__(self):
        from dpverify import PrivacyClaim

        self.claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        return data + rng.laplace(0.0, 0.5, size)


def issue17(args) -> None:
    from dpverify_mechanisms.faulty import NaiveFloatLaplace
    from dpverify_mechanisms.registry import ENTRIES

    ex = None if args.pool else InlineExecutor()
    where = "2 worker processes" if args.pool else "ONE core (InlineExecutor)"
    print(f"### Multi-dimensional controls ({args.samples} samples per dataset and pair, seed {args.seed}, {where})\n")
    print("| control | pairs | true eps | eps_lower | ratio | oracle-event ceiling (ratio) | verdict | best event family | seconds | CPU s (all processes) | sampling-only s |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    ceilings = {"laplace-parallel": (20, 0.1 / 20), "prefix-sum": (10, 1.0 / 10)}
    for name in ("laplace-parallel", "numerical-svt", "prefix-sum", "svt-alg3-roth-vector"):
        if args.only and name not in args.only:
            continue
        faulty, k, factory, pairs = TRUTH[name]
        m = factory()
        true = m.true_epsilon(k)
        t_ref = _sampling_seconds(m, pairs(), args.samples)
        t0 = time.perf_counter()
        c0 = _cpu()
        r = audit(m, pairs(), samples=args.samples, rng=args.seed, executor=ex)
        secs = time.perf_counter() - t0
        cpu = _cpu() - c0
        if name in ceilings:
            c = _oracle_count_ceiling(*ceilings[name], args.samples)
            ceil = f"{c:.4f} ({c / true:.3f})"
        else:
            ceil = "-"
        ratio = f"{r.epsilon_lower / true:.3f}" if math.isfinite(true) else f"{r.epsilon_lower / m.claim.epsilon:.2f} x claim"
        fam = (r.event or "").split(":")[0]
        print(f"| {name} | {len(pairs())} | {true:.4g} | {r.epsilon_lower:.4f} | {ratio} | {ceil} | {r.verdict.value} | "
              f"{fam} | {secs:.1f} | {cpu:.1f} | {t_ref:.1f} |", flush=True)
    if args.seeds <= 0:  # --seeds 0: the multi-dimensional table only
        return
    print(f"\n### Float bits (`float_bits=True`, confidence 0.95, {args.float_samples} samples, {args.seeds} seeds)\n")
    print("| mechanism | claim eps | violated (of seeds) | median eps_lower | seconds per audit |")
    print("|---|---|---|---|---|")
    cases = [("laplace-float-naive-53bit", NaiveFloatLaplace(1.0), [(0.0, 1.0)])]
    for e in ENTRIES:
        if e.name in ("discrete-laplace-cks", "discrete-gaussian-cks", "snapping-mironov"):
            cases.append((e.name, e.factory(), e.pairs()))
    for name, m, pairs in cases:
        if args.only and name not in args.only:
            continue
        t0 = time.perf_counter()
        rs = [audit(m, pairs, samples=args.float_samples, rng=s, float_bits=True, executor=ex) for s in range(args.seeds)]
        secs = (time.perf_counter() - t0) / args.seeds
        bad = sum(r.verdict.value == "violated" for r in rs)
        med = float(np.median([r.epsilon_lower for r in rs]))
        print(f"| {name} | {m.claim.epsilon:.6g} | {bad} / {args.seeds} | {med:.3f} | {secs:.2f} |", flush=True)
    print(f"\n### Early stopping (`stop_early=True`, budget 10^6 per dataset, {args.seeds} seeds)\n")
    print("| mechanism | violated (of seeds) | max samples used | median samples used | median seconds |")
    print("|---|---|---|---|---|")
    m = _HalfLaplace()
    used, secs, bad = [], [], 0
    for s in range(args.seeds):
        t0 = time.perf_counter()
        r = audit(m, (0.0, 1.0), samples=1_000_000, rng=s, stop_early=True, executor=ex)
        secs.append(time.perf_counter() - t0)
        used.append(r.samples)
        bad += r.verdict.value == "violated"
    print(f"| Laplace, half the noise (true eps 2, claim 1) | {bad} / {args.seeds} | {max(used)} | "
          f"{int(np.median(used))} | {np.median(secs):.2f} |")


def seed_table(args) -> None:
    """``--seed-list``: the multi-dimensional controls at each seed of the list, one row per seed, then
    each control's median, minimum and the number of seeds at or above its target (0.3 x the true
    epsilon, 0.65 for PrefixSum); the paired bound's event and discordant pairs as the audit reports them."""
    ex = None if args.pool else InlineExecutor()
    targets = {"laplace-parallel": 0.3, "numerical-svt": 0.3, "prefix-sum": 0.65}
    names = [n for n in targets if not args.only or n in args.only]
    print(f"### Per-seed ({args.samples} samples per dataset and pair, confidence 0.95, "
          f"{'2 worker processes' if args.pool else 'ONE core'}; load average at start {os.getloadavg()[0]:.1f})\n")
    print("| control | seed | eps_lower | ratio | verdict | paired-bound events (discordant pairs) -> paired bound | "
          "seconds | CPU s |")
    print("|---|---|---|---|---|---|---|---|")
    got: dict = {n: [] for n in names}
    for name in names:
        faulty, k, factory, pairs = TRUTH[name]
        m = factory()
        true = m.true_epsilon(k)
        for s in args.seed_list:
            t0, c0 = time.perf_counter(), _cpu()
            r = audit(m, pairs(), samples=args.samples, rng=s, executor=ex)
            secs, cpu = time.perf_counter() - t0, _cpu() - c0
            got[name].append(r.epsilon_lower / true)
            top = [(d.direction, e) for d in r.directions for e in d.extra["events"]
                   if e["discordant_pairs"] is not None]
            desc = "; ".join(f"{dr}: {e['event'][:60]} ({e['discordant_pairs'][0]} vs {e['discordant_pairs'][1]}) "
                             f"-> {e['epsilon_lower_paired']:.4f}" for dr, e in top)
            print(f"| {name} | {s} | {r.epsilon_lower:.4f} | {r.epsilon_lower / true:.3f} | {r.verdict.value} | "
                  f"{desc} | {secs:.1f} | {cpu:.1f} |", flush=True)
    print("\n| control | seeds | median ratio | min ratio | max ratio | seeds >= target |")
    print("|---|---|---|---|---|---|")
    for name in names:
        v = np.array(got[name])
        print(f"| {name} | {len(v)} | {np.median(v):.3f} | {v.min():.3f} | {v.max():.3f} | "
              f"{int(np.sum(v >= targets[name]))} / {len(v)} (>= {targets[name]}) |")
    print(f"\nload average at end {os.getloadavg()[0]:.1f}")
    if "laplace-parallel" in names:
        print()
        attainable(args.samples)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--samples", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--issue17", action="store_true")
    ap.add_argument("--seeds", type=int, default=10)
    ap.add_argument("--float-samples", type=int, default=50_000)
    ap.add_argument("--pool", action="store_true", help="default executor (2 workers) instead of one core")
    ap.add_argument("--seed-list", type=int, nargs="*", help="per-seed table of the multi-dimensional controls")
    ap.add_argument("--attainable", action="store_true", help="only the attainable-bound table (a simulation)")
    args = ap.parse_args()
    if args.attainable:
        attainable(args.samples)
        return
    if args.seed_list:
        seed_table(args)
        return
    if args.issue17:
        issue17(args)
        return
    print("| control | kind | claim eps | true eps | eps_lower | ratio / target | verdict | samples | seconds (1 core) | sampling-only s |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for e in REGISTRY:
        if args.only and e.name not in args.only:
            continue
        faulty, k, factory, pairs = TRUTH[e.name]
        m = factory()
        true = m.true_epsilon(k)
        t_ref = _sampling_seconds(m, pairs(), args.samples)
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
