"""Accounting benchmark for issue 32: heterogeneous compositions and schedules, against
dp-accounting's PLDAccountant in the same process (alternating: ours, theirs, ours, ...).

    python benchmarks/bench_accounting_schedules.py            # print the tables
    python benchmarks/bench_accounting_schedules.py --write    # and put them into docs/performance.md

dp-accounting is a comparison library, never a dependency of dpverify: run this from a separate
environment that has both (``pip install -e . dp-accounting``). Times are CPU seconds of this
process (``time.process_time``), each problem built from scratch (caches cleared) as a training
loop would: one ``compose``/``step`` per event, then one query. ``ratio`` = dpverify / dp-accounting.
"""
from __future__ import annotations

import argparse
import math
import os
import platform
import re
import sys
import time

import numpy as np

from dpverify import NeighbourRelation
from dpverify.accounting import Accountant, Gaussian, Laplace, PoissonSubsampled, RandomizedResponse
from dpverify.accounting import pld as _pld

AR = NeighbourRelation.ADD_REMOVE_ONE
DELTA = 1e-6
CPU_FACTOR = 1.25  # dp-accounting is stopped after this multiple of dpverify's CPU time
HEADING = "## Accounting: schedules and heterogeneous compositions (`benchmarks/bench_accounting_schedules.py`)"


def _markers(section: str) -> tuple[str, str]:
    return (f"<!-- bench_accounting_schedules {section}: generated, do not edit -->",
            f"<!-- end bench_accounting_schedules {section} -->")
DOC = os.path.join(os.path.dirname(__file__), "..", "docs", "performance.md")


def _clear():
    _pld._cached_pmfs.cache_clear()
    _pld._cached_leaf.cache_clear()
    _pld._LAST.clear()


# ---------------------------------------------------------------------------- problems
def gaussians(n, lo=20.0, hi=60.0):
    return [("gaussian", float(s)) for s in np.linspace(lo, hi, n)]


def schedule(n, q=0.01, s0=2.0, s1=0.8):
    return [("subsampled", q, float(s)) for s in np.linspace(s0, s1, n)]


def mixed(n):
    """n distinct events that no merge applies to: randomized responses and Laplaces with
    distinct parameters (alternating)."""
    out = []
    for i in range(n):
        if i % 2:
            out.append(("rr", 0.001 + 0.001 * i / n))
        else:
            out.append(("laplace", 500.0 + 500.0 * i / n))
    return out


def _ours_event(spec):
    kind = spec[0]
    if kind == "gaussian":
        return Gaussian(spec[1])
    if kind == "subsampled":
        return PoissonSubsampled(Gaussian(spec[2], relation=AR), spec[1])
    if kind == "rr":
        return RandomizedResponse(spec[1])
    if kind == "laplace":
        return Laplace(spec[1])
    raise ValueError(kind)


def _their_event(dpa, spec):
    kind = spec[0]
    if kind == "gaussian":
        return dpa.GaussianDpEvent(spec[1])
    if kind == "subsampled":
        return dpa.PoissonSampledDpEvent(spec[1], dpa.GaussianDpEvent(spec[2]))
    if kind == "rr":
        return dpa.RandomizedResponseDpEvent(spec[1], 2)  # noqa: not supported by its PLD
    if kind == "laplace":
        return dpa.LaplaceDpEvent(spec[1])
    raise ValueError(kind)


def run_ours(specs, delta=DELTA, query_every_step=False, lower=True):
    """(upper, lower, seconds for the upper bound, seconds for the lower bound after it)."""
    _clear()
    t = time.process_time()
    acc = Accountant()
    for spec in specs:
        acc.step(_ours_event(spec))
        if query_every_step:
            acc.epsilon(delta)
    up = acc.epsilon(delta)
    t_up = time.process_time() - t
    if not lower:
        return up, math.nan, t_up, math.nan
    t = time.process_time()
    b = acc.method.bounds(acc.ledger, [delta])  # the PLD upper is cached; this adds the lower bound
    if not float(b.upper[0]) >= up:  # the accountant's answer is the tightest of its methods
        raise AssertionError("the accountant answered above its PLD bound")
    return up, float(b.lower[0]), t_up, time.process_time() - t


def run_theirs(specs, delta=DELTA, cpu_limit=None):
    """(epsilon, seconds, events composed). With ``cpu_limit`` the run stops once it has used that
    many CPU seconds: epsilon is then None and the seconds are a measured *lower* bound on the time
    the whole problem takes (the events left would only add to it)."""
    import dp_accounting as dpa
    from dp_accounting.pld import pld_privacy_accountant

    t = time.process_time()
    acc = pld_privacy_accountant.PLDAccountant()
    for i, spec in enumerate(specs):
        acc.compose(_their_event(dpa, spec))
        if cpu_limit is not None and time.process_time() - t > cpu_limit and i + 1 < len(specs):
            return None, time.process_time() - t, i + 1
    return float(acc.get_epsilon(delta)), time.process_time() - t, len(specs)


def _have_dpa():
    try:
        import dp_accounting  # noqa: F401
        return True
    except ImportError:
        return False


# ---------------------------------------------------------------------------- tables
def head_to_head(out, rounds_cheap=3):
    out(f"### Heterogeneous compositions against dp-accounting's PLD (delta = {DELTA:g})\n")
    out("Each problem is composed event by event (`Accountant.step` / `PLDAccountant.compose`) and "
        "queried once (`epsilon(delta)` / `get_epsilon(delta)`); `t dpverify` is that, for the "
        "certified upper bound; `t lower` is the extra time of dpverify's certified lower bound "
        "(`bounds`), which dp-accounting does not compute. Rounds alternate dpverify and "
        "dp-accounting in one process; the times are the medians over the rounds. "
        "`gap` = (upper - lower) / upper.\n")
    out("| problem | events | rounds | dpverify upper | lower | gap | dp-accounting PLD | t dpverify (s) | "
        "t lower (s) | t dp-accounting (s) | ratio |")
    out("|---|---|---|---|---|---|---|---|---|---|---|")
    problems = [("distinct Gaussians, sigma 20..60", gaussians(1000), rounds_cheap),
                ("DP-SGD sigma schedule 2.0 -> 0.8, q = 0.01", schedule(2000), 1)]
    stopped = []
    for name, specs, rounds in problems:
        ours_t, lower_t, theirs_t = [], [], []
        up = lo = their = math.nan
        for _ in range(rounds):
            up, lo, t, tl = run_ours(specs)
            ours_t.append(t)
            lower_t.append(tl)
            if _have_dpa():
                their, t2, done = run_theirs(specs, cpu_limit=CPU_FACTOR * t)
                theirs_t.append(t2)
                if their is None:
                    stopped.append((name, done, len(specs), t2))
        to = float(np.median(ours_t))
        tt = float(np.median(theirs_t)) if theirs_t else math.nan
        their_s = "stopped" if their is None else f"{their:.6f}"
        ge = ">= " if their is None else ""
        le = "<= " if their is None else ""
        out(f"| {name} | {len(specs)} | {rounds} | {up:.6f} | {lo:.6f} | {(up - lo) / up:.1e} | "
            f"{their_s} | {to:.2f} | {float(np.median(lower_t)):.2f} | {ge}{tt:.2f} | {le}{to / tt:.3f} |")
    out("")
    for name, done, total, secs in stopped:
        out(f"dp-accounting on \"{name}\" was stopped after {secs:.1f} CPU s ({CPU_FACTOR:g} x dpverify's time), "
            f"having composed {done} of {total} events: its time is at least that, so the ratio is at most the "
            "one shown.")
    if stopped:
        out("")


def scaling(out):
    out("### Cost against the number of distinct events (dpverify alone, one core)\n")
    out("Time to compose n distinct events one by one and answer once (`epsilon` at delta = 1e-6, "
        "the certified upper bound; `t lower`: the extra time of the certified lower bound); linear "
        "cost shows as a constant time per event. The randomized responses and Laplaces have losses "
        "of about 1e-3 each: their lower bound rounds atoms down to the grid (first order in h), "
        "hence the larger gap there.\n")
    out("| problem | n | upper | lower | gap | t (s) | t / n (ms) | t lower (s) |")
    out("|---|---|---|---|---|---|---|---|")
    rows = [("distinct Gaussians sigma 20..60", gaussians, (100, 200, 400, 800, 10_000)),
            ("subsampled Gaussians q = 0.01, sigma 2.0 -> 0.8", schedule, (100, 200, 400)),
            ("randomized responses and Laplaces, distinct parameters", mixed, (1000, 10_000))]
    for name, make, ns in rows:
        for n in ns:
            up, lo, t, tl = run_ours(make(n))
            out(f"| {name} | {n} | {up:.6f} | {lo:.6f} | {(up - lo) / up:.1e} | {t:.2f} | {1000 * t / n:.2f} | "
                f"{tl:.2f} |")
    up1, _, t1, _ = run_ours(schedule(200), query_every_step=True, lower=False)
    out(f"| subsampled schedule, epsilon asked after every step | 200 | {up1:.6f} | - | - | {t1:.2f} | "
        f"{1000 * t1 / 200:.2f} | - |")
    out("")


def header(out):
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else math.nan
    out(f"Generated by `python benchmarks/bench_accounting_schedules.py` on {platform.machine()}, python "
        f"{platform.python_version()}; load average at start {load:.1f} on {os.cpu_count()} cores (shared "
        "machine: compare ratios, not seconds).\n")


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--write", action="store_true", help="write the tables into docs/performance.md")
    p.add_argument("--only", choices=["head", "scaling"], help="run one section")
    args = p.parse_args(argv)
    lines: list[str] = []

    def out(s=""):
        print(s, flush=True)
        lines.append(s)

    sections = [("head", head_to_head), ("scaling", scaling)]
    for section, run in sections:
        if args.only not in (None, section):
            continue
        lines.clear()
        header(out)
        run(out)
        if args.write:
            _write(section, lines)


def _write(section: str, lines: list[str]) -> None:
    start, end = _markers(section)
    text = open(DOC).read()
    block = start + "\n" + "\n".join(lines).rstrip() + "\n" + end
    if start in text:
        text = re.sub(re.escape(start) + ".*?" + re.escape(end), lambda _: block, text, flags=re.S)
    else:
        if HEADING not in text:
            text = text.rstrip() + "\n\n" + HEADING + "\n"
        text = text.rstrip() + "\n\n" + block + "\n"
    open(DOC, "w").write(text)


if __name__ == "__main__":
    sys.exit(main())
