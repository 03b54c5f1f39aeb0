"""Samples to detect, against the statistical limit (issue 30): dpverify's tests beside the oracle event and the
single-point test, on the issue's cases, black-box.

    python benchmarks/bench_curve_limit.py            # print the table
    python benchmarks/bench_curve_limit.py --write    # and put it into docs/performance.md

**dpverify** (measured): the smallest rung of a ladder of samples per side at which the audit is ``violated`` in at
least 8 of ``--seeds`` seeds (seeds 0, 1, ...; power >= 0.8 estimated), with the count at that rung; for the
sequential test, the median of the draws per side at which it stopped.

**Oracle** (computed, not measured): the samples per side that the best single test of the claim needs for power
0.8 at one-sided level 0.05 when the two output laws are known exactly: over half-line events E = {o >= t} and
points eps' of the claimed curve, the normal-approximation size
n = (z_0.95 + z_0.8)^2 (p(1 - p) + e^(2 eps') q(1 - q)) / (p - e^eps' q - delta_claim(eps'))^2, p = P_D(E), q = P_D'(E),
minimised over t and eps'. It knows the answer (the laws and the best event), so no audit can beat it by more than
the approximation; it is the statistical limit the issue asks to approach. **Single point**: the same with eps'
fixed at eps = 1 (the test of one (eps, delta) point of the curve).

Cases: a Gaussian whose sigma is 10 % too small for (1, 1e-5) against the GDP curve of the correct sigma; the
Gaussian calibrated with log10 against the same curve; a zCDP claim four times too small (rho 0.5 claimed, 2 true);
a Laplace with half its scale against eps = 1 (sequential); Lyu's SVT with the threshold noise redrawn per query
(vector outputs; sequential with learned events, oracle from its exact laws by quadrature).
"""
from __future__ import annotations

import argparse
import math
import os
import platform
import re
import statistics
import time

import numpy as np
from scipy.stats import laplace, norm

import dpverify
from dpverify import PrivacyClaim

from bench_tradeoff import gdp_mu_at  # benchmarks/ is on the path when this runs as a script

DOC = os.path.join(os.path.dirname(__file__), "..", "docs", "performance.md")
BEGIN, END = "<!-- bench_curve_limit: generated, do not edit -->", "<!-- end bench_curve_limit -->"
HEADING = "## Curve claims against the statistical limit (`benchmarks/bench_curve_limit.py`)"
Z2 = (norm.ppf(0.95) + norm.ppf(0.8)) ** 2


class Scalar:
    """f(D) = D plus noise of one law (a frozen scipy distribution centred at 0)."""

    def __init__(self, noise, claim):
        self.noise, self.claim = noise, claim

    def sample(self, data, size, rng):
        return float(data) + self.noise.rvs(size=size, random_state=rng)


def oracle(noise, claim, eps_grid) -> float:
    """Samples per side of the best half-line test at the best eps' of ``eps_grid`` (module docstring); the pair is
    (D, D') = (1, 0), both tails tried."""
    spread = noise.std()
    ts = np.linspace(-12 * spread, 12 * spread + 1, 6001)
    best = math.inf
    for sign in (1, -1):  # E = {o >= t} with D = 1, D' = 0, and the mirror {o <= t} with D = 0, D' = 1
        p = noise.sf(ts - 1.0) if sign == 1 else noise.cdf(ts)
        q = noise.sf(ts) if sign == 1 else noise.cdf(ts - 1.0)
        for e in eps_grid:
            gap = p - math.exp(e) * q - claim.delta_at(float(e))
            var = p * (1 - p) + math.exp(2 * e) * q * (1 - q)
            with np.errstate(divide="ignore", invalid="ignore"):
                n = np.where(gap > 0, Z2 * var / gap ** 2, np.inf)
            best = min(best, float(np.nanmin(n)))
    return best


def detect(mech, ladder, seeds, **kw) -> tuple:
    """(smallest rung with >= 0.8 of the seeds violated, hits there, CPU s per audit) or (None, hits at the top, ...)."""
    for n in ladder:
        t = time.process_time()
        hits = sum(dpverify.audit(mech, (1.0, 0.0), samples=n, rng=s, **kw).verdict.value == "violated"
                   for s in range(seeds))
        cpu = (time.process_time() - t) / seeds
        if hits >= math.ceil(0.8 * seeds):
            return n, hits, cpu
    return None, hits, cpu


def sequential(mech, seeds, budget: int = 20_000, pair=(1.0, 0.0)) -> tuple:
    """(median draws per side at the stop, runs stopped violated) over seeds 0 .. seeds-1; a run that does not stop
    within ``budget`` counts as infinite."""
    used = []
    for s in range(seeds):
        r = dpverify.audit(mech, [pair], samples=budget, rng=s, sequential=True)
        used.append(r.samples if r.verdict.value == "violated" else math.inf)
    return statistics.median(used), sum(u < math.inf for u in used)


def rows(seeds: int) -> list:
    mu = gdp_mu_at(1.0, 1e-5)
    sigma = 1 / mu
    gdp = PrivacyClaim.gdp(mu)
    s10 = math.sqrt(2 * math.log10(1.25 / 1e-5))
    rho = 0.5
    zsig = 1 / math.sqrt(2 * rho)
    curve_grid = np.linspace(0.0, 4.0, 201)
    cases = [
        ("Gaussian, sigma 10 % too small", "GDP curve of (1, 1e-5)", norm(0, 0.9 * sigma), gdp, norm(0, sigma),
         "whole-curve trade-off test", [20_000, 25_000, 30_000, 40_000, 50_000, 100_000]),
        ("Gaussian calibrated with log10", "GDP curve of (1, 1e-5)", norm(0, s10), gdp, norm(0, sigma),
         "whole-curve trade-off test", [10_000, 12_500, 15_000, 20_000, 50_000, 100_000]),
        ("Gaussian, rho 2 (zCDP claim 4x too small)", "0.5-zCDP", norm(0, zsig / 2), PrivacyClaim.zcdp(rho),
         norm(0, zsig), "curve audit at 5 points", [100, 200, 300, 500, 1_000, 10_000, 100_000]),
    ]
    out = []
    for name, claim_text, noise, claim, correct, test, ladder in cases:
        if claim.is_curve:  # the same case under the anytime-valid test (learned events and eps')
            med, hits = sequential(Scalar(noise, claim), seeds, 100_000)
            _, control = sequential(Scalar(correct, claim), seeds, 100_000)
            orc = oracle(noise, claim, curve_grid)
            out.append((name, claim_text, "sequential (anytime-valid), learned events and eps'",
                        f"median {med:,.0f} ({hits}/{seeds} stopped violated within 100,000); correct: {control}/{seeds}",
                        orc, oracle(noise, claim, [1.0]), (med / orc) if med < math.inf else None, None))
        n, hits, cpu = detect(Scalar(noise, claim), ladder, seeds)
        found = f"{n:,} ({hits}/{seeds})" if n else f"not at {ladder[-1]:,} ({hits}/{seeds})"
        if n:  # the same test on the correct mechanism, same rung and seeds: its false alarms
            control = sum(dpverify.audit(Scalar(correct, claim), (1.0, 0.0), samples=n, rng=s).verdict.value
                          == "violated" for s in range(seeds))
            found += f"; correct: {control}/{seeds}"
        orc, single = oracle(noise, claim, curve_grid), oracle(noise, claim, [1.0])
        out.append((name, claim_text, test, found, orc, single, (n / orc) if n else None, cpu))
    med, hits = sequential(Scalar(laplace(0, 0.5), PrivacyClaim(1.0)), seeds)
    _, control = sequential(Scalar(laplace(0, 1.0), PrivacyClaim(1.0)), seeds)
    lap = laplace(0, 0.5)
    orc = oracle(lap, PrivacyClaim(1.0), curve_grid)
    out.append(("Laplace, half its scale", "eps = 1", "sequential (anytime-valid)",
                f"median {med:g} ({hits}/{seeds} stopped violated); correct: {control}/{seeds}", orc, oracle(lap, PrivacyClaim(1.0), [1.0]),
                med / orc, None))
    out.append(svt_row(seeds))
    return out


def svt_oracle(mech, d, dp, eps: float) -> float:
    """Samples per side of the best set of outcomes (every prefix of the exact likelihood-ratio order, either
    direction) for the pure claim eps, from the exact laws (normal approximation, as :func:`oracle`)."""
    a, b = mech.output_law(d), mech.output_law(dp)
    best = math.inf
    for p_law, q_law in ((a, b), (b, a)):
        keys = sorted(p_law, key=lambda k: -math.log(p_law[k] / q_law[k]))
        p = np.cumsum([p_law[k] for k in keys])
        q = np.cumsum([q_law[k] for k in keys])
        gap = p - math.exp(eps) * q
        var = p * (1 - p) + math.exp(2 * eps) * q * (1 - q)
        with np.errstate(divide="ignore", invalid="ignore"):
            best = min(best, float(np.nanmin(np.where(gap > 0, Z2 * var / gap ** 2, np.inf))))
    return best


def svt_row(seeds: int, budget: int = 100_000) -> tuple:
    """The redrawn-threshold SVT (ten queries, all ones against all zeros): the learned sequential test's median
    draws (a run that does not stop within ``budget`` counts as infinite), beside the fixed-size audit at
    ``budget`` and the correct Alg. 1 under the same sequential test."""
    from dpverify_mechanisms.faulty import SVTLyu, SVTRedrawnThreshold

    pair = (np.ones(10), np.zeros(10))
    bad, good = SVTRedrawnThreshold(1.0), SVTLyu(1.0)
    t = time.process_time()
    med, hits = sequential(bad, seeds, budget, pair)
    cpu = (time.process_time() - t) / seeds
    _, control = sequential(good, seeds, budget, pair)
    fixed = sum(dpverify.audit(bad, [pair], samples=budget, rng=s).verdict.value == "violated" for s in range(seeds))
    orc = svt_oracle(bad, *pair, 1.0)
    found = (f"median {med:,.0f} ({hits}/{seeds} stopped violated within {budget:,}); correct Alg. 1: {control}/{seeds}; "
             f"fixed-size audit at {budget:,}: {fixed}/{seeds} violated")
    return ("SVT, threshold noise redrawn per query (10 queries)", "eps = 1", "sequential, learned events", found, orc,
            orc, (med / orc) if med < math.inf else None, cpu)


def table(out, seeds, load0, load1) -> str:
    lines = [BEGIN,
             f"Generated by `python benchmarks/bench_curve_limit.py --write` ({seeds} seeds, 0-{seeds - 1}, per rung; "
             f"'correct': the same test, rung and seeds on the correct mechanism, violated count) on {platform.machine()}, python {platform.python_version()}; load average "
             f"{load0:.1f} at start, {load1:.1f} at end (2 cores, shared).", "",
             "| case | claim | dpverify test | dpverify: samples per side to detect | oracle (best event, whole curve) | "
             "single-point test (eps = 1) | dpverify / oracle |",
             "|---|---|---|---|---|---|---|"]
    for name, claim, test, found, orc, single, ratio, _ in out:
        single_text = "never (the point holds)" if single == math.inf else f"{single:,.0f}"
        lines.append(f"| {name} | {claim} | {test} | {found} | {orc:,.0f} | {single_text} | "
                     f"{'-' if ratio is None else f'{ratio:.1f}'} |")
    lines += ["", "The SVT's oracle is the best set of outcomes in the exact likelihood-ratio order (its laws by "
              "quadrature, `SVTRedrawnThreshold.output_law`); for a pure claim the whole curve and the single point "
              "are the same test. Its event (the outcome \"no TOP\", the middle value 0 of the last coordinate) is "
              "no half-line; the sequential test learns it from the draws.", END]
    return "\n".join(lines)


def write(text: str, heading: str = HEADING, begin: str = BEGIN, end: str = END) -> None:
    """Put ``text`` (a region from ``begin`` to ``end``) under ``heading`` in docs/performance.md: in place of the
    region when it is there, else at the end (bench_greybox_classes.py writes its region with this too)."""
    with open(DOC) as fh:
        doc = fh.read()
    block = f"{heading}\n\n{text}\n"
    if begin in doc:
        doc = re.sub(re.escape(heading) + r"\n\n" + re.escape(begin) + ".*?" + re.escape(end) + r"\n", lambda _: block,
                     doc, flags=re.S)
    else:
        doc = doc.rstrip("\n") + "\n\n" + block
    with open(DOC, "w") as fh:
        fh.write(doc)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--write", action="store_true")
    args = ap.parse_args(argv)
    load0 = os.getloadavg()[0]
    out = rows(args.seeds)
    text = table(out, args.seeds, load0, os.getloadavg()[0])
    print(text)
    if args.write:
        write(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
