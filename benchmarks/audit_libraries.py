"""Audit the DP libraries people deploy, through dpverify.adapters, and write docs/libraries.md.

Installs nothing: it audits whichever of OpenDP, diffprivlib, PyDP, pipeline-dp and Tumult Core are
importable here. Tumult Core pins numpy < 2, so it usually lives in its own environment; pass that
environment's interpreter with ``--also`` and its rows are run there and merged::

    python benchmarks/audit_libraries.py                              # full run, writes docs/libraries.md
    python benchmarks/audit_libraries.py --also .venv-tmlt/bin/python
    python benchmarks/audit_libraries.py --scale 0.25 --out /tmp/l.md # reduced run

Every audit is black-box (libraries expose no densities) at confidence 0.95, on one pair chosen
by hand (records at the clamping bounds) under each neighbour relation. A row marked
``stated`` audits the library at the claim and relation it states; ``outside`` rows audit it under
a relation the library does not state (there a violation is a finding about the documentation,
not a bug). The numbers in docs/libraries.md come from this script only.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import platform
import subprocess
import sys
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable

import numpy as np

import dpverify
from dpverify import NeighbourRelation as R
from dpverify import PrivacyClaim
from dpverify.adapters import ADAPTERS, library_version

AR, RO = R.ADD_REMOVE_ONE, R.REPLACE_ONE
SEED = 20261123


@dataclass
class Case:
    library: str
    name: str
    build: Callable[[], Any]  # -> adapter (mechanism)
    pair: tuple
    relation: R
    samples: int
    scope: str = "stated"  # "stated" / "implied" / "other": see the Scope paragraph in write_markdown
    claim: Callable[[Any], PrivacyClaim] | None = None  # override (e.g. the claim under another relation)
    why: str = ""  # hand-checkable explanation if the audit says `violated`
    result: dict = field(default_factory=dict)


def _claim_text(c: PrivacyClaim) -> str:
    if c.curve is not None:
        return c.curve.describe()
    return f"eps={c.epsilon:g}" + (f", delta={c.delta:g}" if c.delta else "")


def _with_relation(rel):
    return lambda m: PrivacyClaim(m.claim.epsilon, m.claim.delta, rel, m.claim.curve)


# ------------------------------------------------------------------------------------------------
# the cases, per library (each builder imports the library lazily)

def opendp_cases(n):
    import opendp.prelude as dp

    from dpverify.adapters import opendp as A

    dp.enable_features("contrib")
    fdom = dp.atom_domain(T=float, nan=False)
    vec = dp.vector_domain(dp.atom_domain(T=float, nan=False))
    sd = dp.symmetric_distance()

    def bsum(d_in):
        return (dp.t.make_clamp(vec, sd, bounds=(0.0, 1.0)) >> dp.t.then_sum() >> dp.m.then_laplace(1.0), d_in)

    def count(d_in):
        return (dp.t.make_count(vec, sd) >> dp.m.then_laplace(1.0), d_in)

    return [
        Case("opendp", "make_laplace (float, scale 1)", lambda: A.measurement(
            dp.m.make_laplace(fdom, dp.absolute_distance(T=float), scale=1.0), 1.0), (0.0, 1.0), RO, n),
        Case("opendp", "make_laplace (int, scale 1)", lambda: A.measurement(
            dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=1.0), 1), (0, 1), RO, n),
        Case("opendp", "make_gaussian (scale 1)", lambda: A.measurement(
            dp.m.make_gaussian(fdom, dp.absolute_distance(T=float), scale=1.0), 1.0), (0.0, 1.0), RO, n // 2),
        Case("opendp", "clamp(0,1) >> sum >> laplace(1)", lambda: A.measurement(*bsum(1)),
             ([1.0, 1.0], [1.0, 1.0, 1.0]), AR, n // 4),
        Case("opendp", "clamp(0,1) >> sum >> laplace(1)", lambda: A.measurement(*bsum(2), relation=RO),
             ([1.0, 1.0], [1.0, 0.0]), RO, n // 4),
        Case("opendp", "count >> laplace(1)", lambda: A.measurement(*count(1)),
             ([1.0, 1.0], [1.0, 1.0, 1.0]), AR, n // 4),
    ]


def diffprivlib_cases(n):
    import diffprivlib as dpl

    from dpverify.adapters import diffprivlib as A

    t = dpl.tools
    m = max(n // 8, 1000)
    sum_why = ("diffprivlib.tools.sum clamps to the bounds and then truncates the noisy sum to "
               "[n*lower, n*upper] with n the dataset size. With bounds (0, 1), D = [1, 1] never outputs "
               "more than 2 while D' = [1, 1, 1] outputs more than 2 with probability 1/2 (Laplace noise "
               "centred at 3, truncated to [0, 3]): the event 'output > 2' has probability 0 under D and "
               "about 0.5 under D', so no finite epsilon holds under add/remove. Under replace-one n is "
               "public and the truncation is harmless.")
    mean_why = ("diffprivlib.tools.mean adds Laplace noise of scale (upper - lower) / (n eps) with the true n "
                "and clips to [lower, upper]; under add/remove n changes with the record. D = [0]: Laplace(0, 1); "
                "D' = [0, 1]: Laplace(1/2, 1/2). Inside (0, 1) the densities are (1/2) e^-|x| and e^(-2|x - 1/2|): "
                "at x = 1/2 the ratio is 1 / (0.5 e^-0.5) = 3.30, a loss of 1.19 > eps = 1 on the interval "
                "(0.436, 0.693) (probability 0.22 under D', 0.073 under D: log ratio 1.10).")
    count_why = ("diffprivlib.tools.count_nonzero is tools.sum with bounds (0, 1): the noisy count is truncated "
                 "to [0, n]. D = [1, 1] never outputs more than 2; D' = [1, 1, 1] outputs 3 with probability "
                 "about 1/2 (geometric noise centred at 3, truncated at 3): infinite loss under add/remove.")
    hist_why = ("diffprivlib.tools.histogram adds geometric noise with sensitivity 1 to every bin. Replacing one "
                "record moves it from one bin to another, changing two counts by 1 each (L1 distance 2): the "
                "mechanism is 2*eps-DP under replace-one, not eps. D = [0.5, 0.5], D' = [0.5, 1.5]: counts "
                "(2, 0) vs (1, 1); the output (2, 0) has probability ratio e^(2 eps) = 7.4. Under add/remove "
                "(one count changes by 1) the claim holds.")
    return [
        Case("diffprivlib", "mechanisms.Laplace(eps=1, sens=1)", lambda: A.mechanism(
            dpl.mechanisms.Laplace(epsilon=1.0, sensitivity=1.0)), (0.0, 1.0), RO, n),
        Case("diffprivlib", "mechanisms.Geometric(eps=1, sens=1)", lambda: A.mechanism(
            dpl.mechanisms.Geometric(epsilon=1.0, sensitivity=1)), (0, 1), RO, n),
        Case("diffprivlib", "mechanisms.GaussianAnalytic(eps=0.5, delta=1e-3)", lambda: A.mechanism(
            dpl.mechanisms.GaussianAnalytic(epsilon=0.5, delta=1e-3, sensitivity=1.0)), (0.0, 1.0), RO, n),
        Case("diffprivlib", "tools.sum(eps=1, bounds=(0,1))", lambda: A.tool(t.sum, epsilon=1.0, bounds=(0.0, 1.0)),
             ([1.0, 1.0], [1.0, 0.0]), RO, m, scope="implied"),
        Case("diffprivlib", "tools.sum(eps=1, bounds=(0,1))", lambda: A.tool(
            t.sum, epsilon=1.0, bounds=(0.0, 1.0), relation=AR), ([1.0, 1.0], [1.0, 1.0, 1.0]), AR, m,
             scope="other", why=sum_why),
        Case("diffprivlib", "tools.mean(eps=1, bounds=(0,1))", lambda: A.tool(t.mean, epsilon=1.0, bounds=(0.0, 1.0)),
             ([0.0, 0.0], [0.0, 1.0]), RO, m, scope="implied"),
        Case("diffprivlib", "tools.mean(eps=1, bounds=(0,1))", lambda: A.tool(
            t.mean, epsilon=1.0, bounds=(0.0, 1.0), relation=AR), ([0.0], [0.0, 1.0]), AR, m,
             scope="other", why=mean_why),
        Case("diffprivlib", "tools.count_nonzero(eps=1)", lambda: A.tool(t.count_nonzero, epsilon=1.0),
             ([1.0, 1.0], [1.0, 0.0]), RO, m, scope="implied"),
        Case("diffprivlib", "tools.count_nonzero(eps=1)", lambda: A.tool(t.count_nonzero, epsilon=1.0, relation=AR),
             ([1.0, 1.0], [1.0, 1.0, 1.0]), AR, m, scope="other", why=count_why),
        Case("diffprivlib", "tools.median(eps=1, bounds=(0,1))", lambda: A.tool(
            t.median, epsilon=1.0, bounds=(0.0, 1.0)), ([0.0, 0.0, 1.0], [0.0, 1.0, 1.0]), RO, m, scope="implied"),
        Case("diffprivlib", "tools.median(eps=1, bounds=(0,1))", lambda: A.tool(
            t.median, epsilon=1.0, bounds=(0.0, 1.0), relation=AR), ([0.0, 1.0], [0.0, 1.0, 1.0]), AR, m,
             scope="other"),
        Case("diffprivlib", "tools.histogram(eps=1, bins=2, range=(0,2))", lambda: A.tool(
            t.histogram, epsilon=1.0, bins=2, range=(0.0, 2.0)), ([0.5, 0.5], [0.5, 1.5]), RO, m,
             scope="other", why=hist_why),
        Case("diffprivlib", "tools.histogram(eps=1, bins=2, range=(0,2))", lambda: A.tool(
            t.histogram, epsilon=1.0, bins=2, range=(0.0, 2.0), relation=AR), ([0.5], [0.5, 1.5]), AR, m,
             scope="implied"),
    ]


def pydp_cases(n):
    import pydp.algorithms.laplacian as L
    import pydp.algorithms.numerical_mechanisms as nm
    import pydp.algorithms.partition_selection as ps

    from dpverify.adapters import pydp as A

    m = max(n // 4, 1000)
    rel_ro = _with_relation(RO)
    return [
        Case("pydp", "LaplaceMechanism(eps=1, sens=1)", lambda: A.mechanism(
            nm.LaplaceMechanism, epsilon=1.0, sensitivity=1.0), (0.0, 1.0), RO, n),
        Case("pydp", "GaussianMechanism(eps=1, delta=1e-3, sens=1)", lambda: A.mechanism(
            nm.GaussianMechanism, epsilon=1.0, delta=1e-3, sensitivity=1.0), (0.0, 1.0), RO, n),
        Case("pydp", "BoundedSum(eps=1, [0,1])", lambda: A.algorithm(
            L.BoundedSum, epsilon=1.0, lower_bound=0, upper_bound=1, dtype="float"),
             ([1.0, 1.0], [1.0, 1.0, 1.0]), AR, m),
        Case("pydp", "BoundedSum(eps=1, [0,1])", lambda: A.algorithm(
            L.BoundedSum, epsilon=1.0, lower_bound=0, upper_bound=1, dtype="float"),
             ([1.0, 1.0], [1.0, 0.0]), RO, m, scope="implied", claim=lambda mm: PrivacyClaim(2.0, 0.0, RO)),
        Case("pydp", "BoundedMean(eps=1, [0,1])", lambda: A.algorithm(
            L.BoundedMean, epsilon=1.0, lower_bound=0, upper_bound=1, dtype="float"),
             ([0.0, 0.0], [0.0, 0.0, 1.0]), AR, m),
        Case("pydp", "Count(eps=1)", lambda: A.algorithm(L.Count, epsilon=1.0, dtype="int"),
             ([1, 1], [1, 1, 1]), AR, m),
        Case("pydp", "Median(eps=1, [0,1])", lambda: A.algorithm(
            L.Median, epsilon=1.0, lower_bound=0, upper_bound=1, dtype="float"),
             ([0.0, 1.0], [0.0, 1.0, 1.0]), AR, m),
        Case("pydp", "truncated geometric partition selection (eps=1, delta=1e-5)", lambda: A.partition_selection(
            ps.create_truncated_geometric_partition_strategy, 1.0, 1e-5, 1), (10, 11), AR, n),
    ]


def pipeline_dp_cases(n):
    import pipeline_dp as P

    from dpverify.adapters import pipeline_dp as A

    m = max(n // 10, 1000)
    base = dict(max_partitions_contributed=1, max_contributions_per_partition=1, min_value=0.0, max_value=1.0,
                noise_kind=P.NoiseKind.LAPLACE)
    d = [(1, "a", 1.0), (2, "a", 1.0)]
    return [
        Case("pipeline_dp", "LaplaceMechanism(eps=1, sens=1)", lambda: A.laplace(1.0), (0.0, 1.0), RO, n),
        Case("pipeline_dp", "ExponentialMechanism(eps=1, sens=1)", lambda: A.exponential(1.0),
             ([0.0, 1.0, 2.0], [1.0, 0.0, 2.0]), RO, n),
        Case("pipeline_dp", "aggregate COUNT+SUM, public partition", lambda: A.aggregate(
            [P.Metrics.COUNT, P.Metrics.SUM], epsilon=1.0, public_partitions=["a"], **base),
             (d, d + [(3, "a", 1.0)]), AR, m),
        Case("pipeline_dp", "aggregate MEAN, public partition", lambda: A.aggregate(
            [P.Metrics.MEAN], epsilon=1.0, public_partitions=["a"], **base), (d, d + [(3, "a", 0.0)]), AR, m),
        Case("pipeline_dp", "aggregate COUNT, private partitions (eps=1, delta=1e-5)", lambda: A.aggregate(
            [P.Metrics.COUNT], epsilon=1.0, delta=1e-5, **base),
             ([(i, "a", 1.0) for i in range(8)], [(i, "a", 1.0) for i in range(8)] + [(99, "b", 1.0)]), AR, m),
        Case("pipeline_dp", "select_partitions(eps=1, delta=1e-5)", lambda: A.select_partitions(1.0, 1e-5),
             ([(i, "a", 1.0) for i in range(10)], [(i, "a", 1.0) for i in range(11)]), AR, m),
    ]


def tmlt_cases(n):
    import tmlt.core.measurements.noise_mechanisms as nmm
    from tmlt.core.domains.numpy_domains import NumpyFloatDomain
    from tmlt.core.domains.pandas_domains import PandasSeriesDomain
    from tmlt.core.measurements.pandas_measurements.series import NoisyQuantile
    from tmlt.core.measures import PureDP

    from dpverify.adapters import tmlt as A

    m = max(n // 10, 1000)
    return [
        Case("tmlt", "AddGeometricNoise(alpha=1)", lambda: A.measurement(nmm.AddGeometricNoise(alpha=1), 1),
             (0, 1), RO, m),
        Case("tmlt", "AddLaplaceNoise(scale=1)", lambda: A.measurement(
            nmm.AddLaplaceNoise(input_domain=NumpyFloatDomain(), scale=1), 1), (0.0, 1.0), RO, m),
        Case("tmlt", "AddDiscreteGaussianNoise(sigma^2=1)", lambda: A.measurement(
            nmm.AddDiscreteGaussianNoise(sigma_squared=1), 1), (0, 1), RO, m // 2),
        Case("tmlt", "NoisyQuantile(0.5, [0,1], eps=1)", lambda: A.measurement(
            NoisyQuantile(PandasSeriesDomain(NumpyFloatDomain()), PureDP(), 0.5, 0.0, 1.0, 1), 1),
             ([0.0, 1.0], [0.0, 1.0, 1.0]), AR, m),
    ]


def smartnoise_cases(n):
    from dpverify.adapters import smartnoise as A

    m = max(n // 10, 500)
    return [
        Case("smartnoise", "approx_bounds(eps=1)", lambda: A.approx_bounds(1.0), ([0.5] * 10, [0.5] * 10 + [-1e30]), AR,
             m),
        Case("smartnoise", "Laplace(eps=1, bounds (0,1))", lambda: A.mechanism("laplace", 1.0, lower=0.0, upper=1.0),
             (0.0, 1.0), RO, n),
        Case("smartnoise", "Gaussian(eps=1, delta=1e-5, bounds (0,1))",
             lambda: A.mechanism("gaussian", 1.0, 1e-5, lower=0.0, upper=1.0), (0.0, 1.0), RO, n),
    ]


CASES = {"opendp": opendp_cases, "diffprivlib": diffprivlib_cases, "pydp": pydp_cases,
         "pipeline_dp": pipeline_dp_cases, "tmlt": tmlt_cases,
         "smartnoise": smartnoise_cases}


# ------------------------------------------------------------------------------------------------
# findings: measured reproducers

def finding_pipeline_dp_exponential() -> dict | None:
    """The smallest score gap at which pipeline-dp's ExponentialMechanism raises (eps=1, sens=1)."""
    try:
        from dpverify.adapters import pipeline_dp as A
    except ImportError:
        return None

    def crashes(s, monotonic):
        try:
            warnings.simplefilter("ignore")
            A.exponential(1.0, monotonic=monotonic).sample([0.0, s], 1, None)
            return False
        except ValueError:
            return True

    out = {}
    for monotonic in (False, True):
        lo, hi = 1.0, 4000.0
        if not crashes(hi, monotonic):
            out[monotonic] = None
            continue
        while hi - lo > 0.01:
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if crashes(mid, monotonic) else (mid, hi)
        out[monotonic] = hi
    return {"version": library_version("pipeline-dp"), "threshold_nonmonotonic": out[False],
            "threshold_monotonic": out[True], "bound": 2 * math.log(np.finfo(float).max)}


def opendp_throughput(n: int = 2000) -> dict | None:
    """Draws per second of OpenDP's scalar Laplace, one call per draw vs batched through the vector twin."""
    try:
        import opendp.prelude as dp

        from dpverify.adapters import opendp as A
    except ImportError:
        return None
    dp.enable_features("contrib")
    meas = dp.m.make_laplace(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale=1.0)
    out = {}
    for batch in (False, True):
        m = A.measurement(meas, 1.0, batch=batch)
        m.sample(0.0, 10, None)
        t = time.perf_counter()
        m.sample(0.0, n, None)
        out["batched" if batch else "single"] = n / (time.perf_counter() - t)
    return out


def finding_pydp_fork() -> dict | None:
    """Do two forked children repeat the parent's buffered draws (raw library, then through the adapter)?"""
    try:
        import pydp.algorithms.numerical_mechanisms as nm

        from dpverify.adapters import pydp as A
    except ImportError:
        return None

    def children(draw):
        outs = []
        for _ in range(2):
            r, w = os.pipe()
            pid = os.fork()
            if pid == 0:
                os.write(w, json.dumps(draw()).encode())
                os._exit(0)
            os.waitpid(pid, 0)
            outs.append(json.loads(os.read(r, 100_000)))
        return outs

    raw = nm.LaplaceMechanism(epsilon=1.0, sensitivity=1.0)
    raw.add_noise(0.0)
    a, b = children(lambda: [raw.add_noise(0.0) for _ in range(200)])
    same_raw = sum(x == y for x, y in zip(a, b))
    ad = A.mechanism(nm.LaplaceMechanism, epsilon=1.0, sensitivity=1.0)
    ad.sample(0.0, 1, None)
    a, b = children(lambda: ad.sample(0.0, 200, None).tolist())
    same_adapter = sum(x == y for x, y in zip(a, b))
    return {"version": library_version("python-dp"), "same_raw": same_raw, "same_adapter": same_adapter, "of": 200}


# ------------------------------------------------------------------------------------------------

def run_cases(libraries, scale) -> tuple[list[dict], dict, dict]:
    rows, status = [], {}
    for lib in libraries:
        n = max(int(20_000 * scale), 500)
        try:
            cases = CASES[lib](n)
        except ImportError as exc:
            status[lib] = f"not installed ({str(exc).splitlines()[0][:160]})"
            continue
        status[lib] = library_version(ADAPTERS[lib])
        for case in cases:
            rows.append(run_case(case))
            print(f"  {lib:12s} {case.name[:48]:48s} {case.relation.value:15s} {rows[-1]['verdict']:13s} "
                  f"{rows[-1]['seconds']:.1f}s", file=sys.stderr, flush=True)
    findings = {}
    if "opendp" in libraries:
        findings["opendp_throughput"] = opendp_throughput()
    if "pipeline_dp" in libraries:
        findings["pipeline_dp_exponential"] = finding_pipeline_dp_exponential()
    if "pydp" in libraries:
        findings["pydp_fork"] = finding_pydp_fork()
    return rows, status, findings


def run_case(case: Case) -> dict:
    row = {"library": case.library, "version": library_version(ADAPTERS[case.library]), "mechanism": case.name,
           "relation": case.relation.value, "pair": repr(case.pair)[:60], "scope": case.scope, "why": case.why}
    t = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # e.g. diffprivlib's PrivacyLeakWarning on bounds
            mech = case.build()
            claim = case.claim(mech) if case.claim else mech.claim
            if claim.relation is not case.relation:
                claim = PrivacyClaim(claim.epsilon, claim.delta, case.relation, claim.curve)
            res = dpverify.audit(mech, case.pair, claim=claim, samples=case.samples, rng=SEED)
        row.update(claim=_claim_text(claim), verdict=res.verdict.value, epsilon_lower=float(res.epsilon_lower),
                   delta_lower=float(res.delta_lower), samples=case.samples,
                   points=len(getattr(res, "points", ())) or 1, reproducible=bool(getattr(mech, "honours_rng", False)),
                   event=(res.event or "")[:120])
    except Exception as exc:  # a crash is a result too (robustness finding)
        row.update(claim="?", verdict="error", epsilon_lower=math.nan, delta_lower=math.nan, samples=case.samples,
                   points=0, reproducible=False, event=f"{type(exc).__name__}: {str(exc)[:200]}")
    row["seconds"] = time.perf_counter() - t
    return row


def fmt(x: float, digits: int = 3) -> str:
    if isinstance(x, float) and math.isnan(x):
        return "-"
    if x == math.inf:
        return "inf"
    return f"{x:.{digits}g}"


def write_markdown(rows, status, findings, total, scale, argv) -> str:
    stated = [r for r in rows if r["scope"] in ("stated", "implied")]
    v_stated = [r for r in stated if r["verdict"] == "violated"]
    v_out = [r for r in rows if r["scope"] == "other" and r["verdict"] == "violated"]
    lines = [
        "# Auditing the DP libraries people deploy",
        "",
        "Generated by `python benchmarks/audit_libraries.py "
        + " ".join(argv) + f"` on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, Python "
        f"{platform.python_version()}, {os.cpu_count()} cores (shared machine), sample scale {scale:g}. "
        f"Total run time **{total:.0f} s**. Do not edit the tables by hand: rerun the script.",
        "",
        "## Libraries",
        "",
        "| library | status |",
        "|---|---|",
    ]
    for lib in CASES:
        lines.append(f"| {lib} | {status.get(lib, 'not run')} |")
    lines += [
        "",
        "## Results",
        "",
        f"{len(rows)} audits. On the **{len(stated)} audits at the claim and relation each library states "
        f"or implies** (`stated`, `implied`): **{len(v_stated)} `violated`**. Under the other relation "
        f"(`other`): {len(v_out)} `violated` (explained below). Errors: "
        f"{sum(r['verdict'] == 'error' for r in rows)}.",
        "",
        "Scope: `stated` = the claim and neighbour relation the library documents (OpenDP's privacy map at "
        "d_in with its input metric; Tumult's privacy function; Google's add/remove-one-user unit for PyDP "
        "and pipeline-dp; a mechanism's sensitivity). `implied` = diffprivlib, which documents no neighbour "
        "relation: the relation its own sensitivity analysis of that tool assumes (replace-one for sum, mean, "
        "count_nonzero and median, whose noise or clipping uses the dataset size; add/remove for histogram); "
        "and for PyDP's BoundedSum under replace-one, the 2*eps that add/remove-one eps implies (one "
        "replacement = one removal + one addition). `other` = the relation the library's analysis does not "
        "cover.",
        "",
        "Black-box audits at confidence 0.95 (the lower bounds hold simultaneously over both directions "
        "with that probability). `samples` is per direction; a zCDP claim is audited at `points` points of "
        "its (eps, delta(eps)) curve with the confidence split between them (Bonferroni). `seeded`: the "
        "library draws from the audit's seed (the row reproduces from it). "
        "`eps_lower` is a lower confidence bound on the epsilon the pair shows at the claim's delta; "
        "`delta_lower` on delta at the claim's epsilon. `not-violated` and `inconclusive` both mean no "
        "evidence of a violation at this sample size; neither is a proof of privacy.",
        "",
        "| library | version | mechanism | claim | relation | scope | pair | verdict | eps_lower | delta_lower "
        "| samples | points | seeded | seconds |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        pair = r["pair"].replace("|", "\\|")
        lines.append(f"| {r['library']} | {r['version']} | {r['mechanism']} | {r['claim']} | {r['relation']} | "
                     f"{r['scope']} | `{pair}` | **{r['verdict']}** | {fmt(r['epsilon_lower'])} | "
                     f"{fmt(r['delta_lower'])} | {r['samples']} | {r['points']} | {'yes' if r['reproducible'] else 'no'} | "
                     f"{r['seconds']:.1f} |")
    errs = [r for r in rows if r["verdict"] == "error"]
    viol = [r for r in rows if r["verdict"] == "violated"]
    if viol or errs:
        lines += ["", "## Violations, explained", ""]
        for r in viol:
            lines += [f"### {r['library']} {r['mechanism']} under {r['relation']} ({r['scope']})", "",
                      f"eps_lower = {fmt(r['epsilon_lower'], 4)} at delta = claim's, from the certified event "
                      f"`{r['event']}`.", "",
                      r["why"] or "No hand explanation is written for this case: investigate before relying on it.", ""]
        for r in errs:
            lines += [f"### {r['library']} {r['mechanism']}: the audit raised", "", f"`{r['event']}`", ""]
    lines += ["", "## Findings (library defects and surprises)", ""]
    f = findings.get("pipeline_dp_exponential")
    if f:
        lines += [
            f"**pipeline-dp {f['version']}: `dp_computations.ExponentialMechanism.apply` raises `ValueError: "
            "probabilities contain NaN` for large scores** (robustness). It computes `exp(score * eps / "
            "(sensitivity * (1 if monotonic else 2)))` without subtracting the maximum score, so the weights "
            "overflow to inf and inf/inf = NaN. Measured here with eps = 1, sensitivity = 1, scores [0, s]: it "
            f"raises from s = {fmt(f['threshold_nonmonotonic'], 6)} (non-monotonic) and s = "
            f"{fmt(f['threshold_monotonic'], 6)} (monotonic); the float64 bound is 2 log(max float) = "
            f"{f['bound']:.2f} (resp. half). Smallest reproducer:",
            "",
            "```python",
            "from pipeline_dp.dp_computations import ExponentialMechanism",
            "class S(ExponentialMechanism.ScoringFunction):",
            "    score = lambda self, k: [0.0, 1420.0][k]",
            "    global_sensitivity = 1.0",
            "    is_monotonic = False",
            "ExponentialMechanism(S()).apply(1.0, [0, 1])   # ValueError: probabilities contain NaN",
            "```",
            "",
        ]
    f = findings.get("pydp_fork")
    if f:
        lines += [
            f"**PyDP {f['version']}: forked processes repeat the parent's noise** (privacy, for anyone who forks "
            "workers after drawing). The secure generator is buffered; a forked child inherits the buffer. "
            f"Two children forked after one draw in the parent gave **{f['same_raw']} identical values in their "
            f"first {f['of']} Laplace draws**. The adapter drains the inherited buffer in each new process "
            f"({'identical draws through the adapter: ' + str(f['same_adapter']) + ' of ' + str(f['of'])}). "
            "Reproducer: `m = LaplaceMechanism(epsilon=1, sensitivity=1); m.add_noise(0)`, then `os.fork()` "
            "twice and compare `m.add_noise(0)` in the children.",
            "",
        ]
    dv = sorted({r["mechanism"].split("(")[0] + f" under {r['relation']}" for r in rows
                 if r["library"] == "diffprivlib" and r["scope"] == "other" and r["verdict"] == "violated"})
    if dv:
        lines += [
            "**diffprivlib documents no neighbour relation, and its tools assume different ones**: violated here: "
            + ", ".join(f"`{x}`" for x in dv) + ". The bounded sum and count truncate the noisy result to "
            "[n*lower, n*upper] with the true size n, so they are not DP at any epsilon under add/remove; the "
            "histogram uses sensitivity 1 per bin, which is right under add/remove but gives 2*eps under "
            "replace-one. No single relation makes all of them eps-DP; a user must pick the relation per tool "
            "(reproducers: the pairs in the table, e.g. `dpverify.audit(adapters.diffprivlib.tool("
            "diffprivlib.tools.sum, epsilon=1, bounds=(0, 1), relation=ADD_REMOVE_ONE), ([1., 1.], [1., 1., 1.]))`).",
            "",
        ]
    f = findings.get("opendp_throughput")
    if f:
        lines += ["## Throughput", "",
                  f"OpenDP scalar Laplace, draws per second in this run: one call per draw {f['single']:.0f}/s, "
                  f"batched through the vector-domain twin {f['batched']:.0f}/s (ratio {f['batched'] / f['single']:.1f}).",
                  ""]
    lines += [
        "## Reproducibility",
        "",
        "Only diffprivlib takes a seed (`random_state`), which the adapter draws from the audit's `rng`; "
        "OpenDP, PyDP, pipeline-dp, Tumult and SmartNoise draw their own randomness, so their rows change from run to "
        "run (the verdicts' guarantees do not depend on it).",
        "",
    ]
    return "\n".join(lines)


# ------------------------------------------------------------------------------------------------
# --unaided: each correct library object audited with no pair (its adapter's input_domain()) over seeds

def unaided_objects() -> list:
    """(library, name, build) of correct library objects, at the claim and relation each library states or
    implies (the `stated`/`implied` rows above); libraries that do not import are left out."""
    out = []
    try:
        import opendp.prelude as dp

        from dpverify.adapters import opendp as O

        dp.enable_features("contrib")
        fdom, vec, sd = dp.atom_domain(T=float, nan=False), dp.vector_domain(dp.atom_domain(T=float, nan=False)), \
            dp.symmetric_distance()
        out += [
            ("opendp", "make_laplace (f64, scale 1)", lambda: O.measurement(
                dp.m.make_laplace(fdom, dp.absolute_distance(T=float), scale=1.0), 1.0)),
            ("opendp", "make_laplace (i32, scale 1)", lambda: O.measurement(
                dp.m.make_laplace(dp.atom_domain(T=int), dp.absolute_distance(T=int), scale=1.0), 1)),
            ("opendp", "make_gaussian (scale 1, zCDP)", lambda: O.measurement(
                dp.m.make_gaussian(fdom, dp.absolute_distance(T=float), scale=1.0), 1.0)),
            ("opendp", "clamp(0,1) >> sum >> laplace(1)", lambda: O.measurement(
                dp.t.make_clamp(vec, sd, bounds=(0.0, 1.0)) >> dp.t.then_sum() >> dp.m.then_laplace(1.0), 1)),
            ("opendp", "count >> laplace(1)", lambda: O.measurement(dp.t.make_count(vec, sd) >> dp.m.then_laplace(1.0), 1)),
            ("opendp", "adaptive compositor: clamp-sum and count, laplace(2.1) each", lambda: O.compositor(
                dp.c.make_adaptive_composition(vec, sd, dp.max_divergence(), d_in=1, d_mids=[0.5, 0.5]),
                [dp.t.make_clamp(vec, sd, bounds=(0.0, 1.0)) >> dp.t.then_sum() >> dp.m.then_laplace(2.1),
                 dp.t.make_count(vec, sd) >> dp.m.then_laplace(2.1)], d_in=1)),
        ]
    except ImportError:
        pass
    try:
        import diffprivlib as dpl

        from dpverify.adapters import diffprivlib as D

        m, t = dpl.mechanisms, dpl.tools
        out += [
            ("diffprivlib", "mechanisms.Laplace(eps=1)", lambda: D.mechanism(m.Laplace(epsilon=1.0, sensitivity=1.0))),
            ("diffprivlib", "mechanisms.Geometric(eps=1)", lambda: D.mechanism(m.Geometric(epsilon=1.0, sensitivity=1))),
            ("diffprivlib", "mechanisms.GaussianAnalytic(eps=0.5, delta=1e-3)", lambda: D.mechanism(
                m.GaussianAnalytic(epsilon=0.5, delta=1e-3, sensitivity=1.0))),
            ("diffprivlib", "mechanisms.LaplaceBoundedDomain(eps=1, [0,2])", lambda: D.mechanism(
                m.LaplaceBoundedDomain(epsilon=1.0, sensitivity=1.0, lower=0.0, upper=2.0))),
            ("diffprivlib", "tools.sum(eps=1, bounds=(0,1))", lambda: D.tool(t.sum, epsilon=1.0, bounds=(0.0, 1.0))),
            ("diffprivlib", "tools.median(eps=1, bounds=(0,1))", lambda: D.tool(t.median, epsilon=1.0, bounds=(0.0, 1.0))),
            ("diffprivlib", "tools.count_nonzero(eps=1)", lambda: D.tool(t.count_nonzero, epsilon=1.0)),
            ("diffprivlib", "tools.histogram(eps=1, bins=2, range=(0,2)) add/remove", lambda: D.tool(
                t.histogram, epsilon=1.0, bins=2, range=(0.0, 2.0), relation=AR)),
        ]
    except ImportError:
        pass
    try:
        import pydp.algorithms.laplacian as L
        import pydp.algorithms.numerical_mechanisms as nm
        import pydp.algorithms.partition_selection as ps

        from dpverify.adapters import pydp as PY

        out += [
            ("pydp", "LaplaceMechanism(eps=1)", lambda: PY.mechanism(nm.LaplaceMechanism, epsilon=1.0, sensitivity=1.0)),
            ("pydp", "GaussianMechanism(eps=1, delta=1e-3)", lambda: PY.mechanism(
                nm.GaussianMechanism, epsilon=1.0, delta=1e-3, sensitivity=1.0)),
            ("pydp", "BoundedSum(eps=1, [0,1])", lambda: PY.algorithm(
                L.BoundedSum, epsilon=1.0, lower_bound=0, upper_bound=1, dtype="float")),
            ("pydp", "BoundedMean(eps=1, [0,1])", lambda: PY.algorithm(
                L.BoundedMean, epsilon=1.0, lower_bound=0, upper_bound=1, dtype="float")),
            ("pydp", "Count(eps=1)", lambda: PY.algorithm(L.Count, epsilon=1.0, dtype="int")),
            ("pydp", "truncated geometric partition selection", lambda: PY.partition_selection(
                ps.create_truncated_geometric_partition_strategy, 1.0, 1e-5, 1)),
        ]
    except ImportError:
        pass
    try:
        import pipeline_dp as P

        from dpverify.adapters import pipeline_dp as PD

        base = dict(max_partitions_contributed=1, max_contributions_per_partition=1, min_value=0.0, max_value=1.0,
                    noise_kind=P.NoiseKind.LAPLACE)
        out += [
            ("pipeline_dp", "LaplaceMechanism(eps=1)", lambda: PD.laplace(1.0)),
            ("pipeline_dp", "ExponentialMechanism(eps=1)", lambda: PD.exponential(1.0)),
            ("pipeline_dp", "aggregate COUNT+SUM, public partition", lambda: PD.aggregate(
                [P.Metrics.COUNT, P.Metrics.SUM], epsilon=1.0, public_partitions=["a"], **base)),
        ]
    except ImportError:
        pass
    return out


def run_unaided(seeds: int, samples: int, only: list) -> list:
    rows = []
    for lib, name, build in unaided_objects():
        if lib not in only:
            continue
        runs = []
        for seed in range(1, seeds + 1):
            t = time.perf_counter()
            try:
                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    r = dpverify.audit(build(), samples=samples, rng=seed)
                runs.append({"seed": seed, "verdict": r.verdict.value, "epsilon_lower": float(r.epsilon_lower),
                             "claim": _claim_text(r.claim), "found": (r.search or {}).get("found"),
                             "seconds": time.perf_counter() - t})
            except Exception as exc:
                runs.append({"seed": seed, "verdict": "error", "error": f"{type(exc).__name__}: {str(exc)[:200]}",
                             "seconds": time.perf_counter() - t})
        violated = sum(x["verdict"] == "violated" for x in runs)
        rows.append({"library": lib, "version": library_version(ADAPTERS[lib]), "mechanism": name, "samples": samples,
                     "seeds": seeds, "violated": violated, "errors": sum(x["verdict"] == "error" for x in runs),
                     "runs": runs})
        print(f"  {lib:12s} {name[:52]:52s} violated {violated}/{seeds}  errors {rows[-1]['errors']}  "
              f"{sum(x['seconds'] for x in runs):.0f}s", file=sys.stderr, flush=True)
    return rows


def unaided_main(args) -> int:
    start = time.perf_counter()
    rows = run_unaided(args.seeds, args.unaided_samples, [x for x in args.only.split(",") if x])
    total = time.perf_counter() - start
    runs = [x for r in rows for x in r["runs"] if x["verdict"] != "error"]
    summary = {"objects": len(rows), "audits": len(runs), "violated": sum(x["verdict"] == "violated" for x in runs),
               "errors": sum(r["errors"] for r in rows), "seconds": total, "samples": args.unaided_samples,
               "seeds": args.seeds, "load": os.getloadavg(), "python": platform.python_version()}
    out = args.unaided_out or os.path.join(os.path.dirname(__file__), "results", "libraries_unaided.json")
    with open(out, "w") as fh:
        json.dump({"summary": summary, "rows": rows}, fh, indent=1, default=str)
    print(f"wrote {out}: {summary}", file=sys.stderr)
    return 0


INTRO = """# Auditing the DP libraries people deploy

`dpverify.adapters` turns the objects of OpenDP, diffprivlib, PyDP, pipeline-dp, Tumult Core and SmartNoise SQL into
dpverify mechanisms that carry the library's own claim **and its own input domain**, so that auditing
one takes three lines and no pair: `dpverify.audit(mechanism)` searches the domain the adapter states
(docs/auditing.md, "Audits without pairs").

```python
import opendp.prelude as dp; import dpverify; from dpverify.adapters import opendp as adapter
dp.enable_features("contrib")
meas = dp.m.make_laplace(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale=1.0)
print(dpverify.audit(adapter.measurement(meas, d_in=1.0), samples=2000, rng=1))
```

Each row below is a saved script in `tests/adapters/examples/` (run by `pytest -m libraries
tests/adapters/test_libraries_domains.py`); the audit line is the last line of each script.

| library | install | object | audited without pairs (after building it) |
|---|---|---|---|
| OpenDP | `pip install "dpverify[opendp]"` (polars measurements: the extra pins OpenDP's polars) | a measurement | `dpverify.audit(adapters.opendp.measurement(meas, d_in=1))` (`opendp_laplace.py`, `opendp_clamp_sum.py`) |
| | | one `opendp.serialize` cannot encode (`then_laplace_threshold`) | `dpverify.audit(adapters.opendp.measurement(factory=count_by_threshold, d_in=1))` (`opendp_threshold.py`) |
| | | polars `make_private_lazyframe` | `dpverify.audit(adapters.opendp.measurement(meas, d_in=1))` (`opendp_polars.py`) |
| | | an interactive compositor (`make_adaptive_composition`) with the queries to submit | `dpverify.audit(adapters.opendp.compositor(comp, queries, d_in=1))` (`opendp_compositor.py`); queries `serialize` cannot encode: `compositor(factory=make, d_in=1)`, `make()` returning `(comp, queries)`; a pass covers that sequence of queries only |
| diffprivlib | `pip install "dpverify[diffprivlib]"` (scikit-learn < 1.7) | a mechanism | `dpverify.audit(adapters.diffprivlib.mechanism(diffprivlib.mechanisms.Laplace(epsilon=1.0, sensitivity=1.0)))` |
| | | a tool | `dpverify.audit(adapters.diffprivlib.tool(diffprivlib.tools.median, epsilon=1.0, bounds=(0.0, 1.0)))` |
| | | a model | `dpverify.audit(adapters.diffprivlib_models.model(diffprivlib.models.GaussianNB(epsilon=1.0, bounds=(0.0, 1.0))))` |
| | | a `BudgetAccountant` sequence | `dpverify.audit(adapters.diffprivlib_models.sequence([(tools.sum, {...}), (tools.count_nonzero, {...})]))` |
| PyDP | `pip install "dpverify[pydp]"` | a mechanism / an algorithm | `dpverify.audit(adapters.pydp.mechanism(LaplaceMechanism, epsilon=1.0, sensitivity=1.0))`; `dpverify.audit(adapters.pydp.algorithm(BoundedSum, epsilon=1.0, lower_bound=0, upper_bound=1, dtype="float"))` |
| pipeline-dp | `pip install "dpverify[pipeline_dp]"` (PLD: `pip install dp-accounting`) | an aggregation, naive or PLD accountant | `dpverify.audit(adapters.pipeline_dp.aggregate([Metrics.COUNT, Metrics.SUM], epsilon=1.0, public_partitions=["a"], **params))`; `accountant="pld"` |
| Tumult Core | `pip install "dpverify[tmlt]"` in its own environment (numpy < 2, pandas < 2) | a measurement | `dpverify.audit(adapters.tmlt.measurement(AddGeometricNoise(alpha=1), d_in=1))` (`tmlt_geometric.py`, `tmlt_quantile.py`) |
| SmartNoise SQL | `pip install "dpverify[smartnoise]"` in its own environment (it pins its own OpenDP) | `approx_bounds` / the Laplace and Gaussian mechanisms | `dpverify.audit(adapters.smartnoise.approx_bounds(1.0))` (`smartnoise_approx_bounds.py`); `dpverify.audit(adapters.smartnoise.mechanism("laplace", 1.0, lower=0.0, upper=1.0))` (`smartnoise_laplace.py`) |
| | | the private reader on a SQL query | `dpverify.audit(adapters.smartnoise.query("SELECT COUNT(x) AS n FROM T.D"))` (`smartnoise_query.py`): the reader still parses and rewrites the SQL on every draw, but each of its mechanisms is calibrated once per process (SmartNoise's own `Laplace`/`Gaussian`, copied to every query): about 150-370 draws per second here instead of 13-15, so the saved example's 2,000 samples per side take about 65-75 s CPU |

**What each adapter states.** `input_domain()` returns a `dpverify.InputDomain` with the library's own
domain and nothing wider: OpenDP's atom type (`atom_domain(T=float, nan=False)`: -inf..inf without NaN;
`T=i32`: the int32 range; an atom's `bounds`: its range), the relation of its input metric (symmetric
distance: add/remove; change-one and Hamming: replace; absolute, L1 and L2 distances on numbers: query
answers within `d_in`), a clamping transformation's bounds as values worth trying (never as the
range), and the privacy map as a claim curve: `claim_at(d)` is `meas.map` at d = 1, 2, 3, 6 steps.
diffprivlib, PyDP and pipeline-dp state their claim for one changed record or privacy id only (no
group privacy), so their domains have distance 1 only. ±inf records are admitted where the library
takes them (diffprivlib's tools, PyDP, pipeline-dp's values) and not where it refuses them
(scikit-learn inside diffprivlib's models: finite floats; float32 for forests); NaN records only where
the library's own domain holds them (OpenDP's float atoms without `nan=False`, PyDP's algorithms,
diffprivlib's `nan*` tools): diffprivlib's plain tools and pipeline-dp release NaN for a NaN record,
a release dpverify's tester refuses, so those domains leave NaN out and say so. Where a library
raises on the empty dataset (diffprivlib's `mean`/`var`, every model, pipeline-dp) the empty dataset
is left out and the adapter says so. `encode` builds what the library
takes: a polars LazyFrame for `make_private_lazyframe`, `(privacy_id, partition, value)` triples for
pipeline-dp, a map of counts for an OpenDP map domain.

**What each adapter cannot audit** is listed in its `limitations` (and in its domain's note, which the
unaided result shows): an OpenDP measurement `serialize` cannot encode and given without `factory=`
runs serially in this process (pickling it raises `NotPicklable`, so worker pools are refused with a
note); an input metric dpverify does not compute is named (the pairs are then not checked against
it, instead of being passed silently); an OpenDP domain dpverify cannot read gives no domain (pass
`domain=`); a diffprivlib release without `random_state` (< 0.5, read from the signature) draws from
numpy's global generator, not from `rng`; diffprivlib models are searched with one feature per
record, a regressor's records as observations `(x, y = x)`, and a classifier that reads its classes
from the data gets a class the base datasets lack; a pipeline-dp `ExponentialMechanism` is searched
with 3 candidates. Known today: a model's domain is the finite floats, and `InputDomain.ordinary()`
overflows to NaN on the ends ±(largest float), so the search builds base datasets of NaN records that
scikit-learn refuses: `diffprivlib_model.py` prints a `violated` that comes from that, not from the
model (reported for the search); an OpenDP measurement that releases a key set (`laplace_threshold`)
stops the search's screen on outputs of varying width (reported): audit those with pairs.

The claim is the library's own: OpenDP's privacy map (epsilon, (epsilon, delta), zCDP rho, a privacy
profile or a Renyi curve), Tumult's privacy function (exact numbers rounded up), diffprivlib's and
PyDP's (epsilon, delta), a `BudgetAccountant`'s `total()` over a sequence of tool calls,
pipeline-dp's total under its naive or PLD accountant (the PLD accountant's noise search is memoised
per pipeline: it is deterministic and takes 0.8 s a run). Pairs still work as before (`audit(m,
(D, D'))`; add/remove pairs may differ in length by one record, or mark the absent record with
`absent=float("nan")`), and `dpverify.adapters.bound_pairs(data, lower, upper, relation)` lists the
neighbours whose changed record sits at a clamping bound (the pairs below are of that kind).

Each adapter is picklable (it keeps how to rebuild the library object: OpenDP's `serialize` or your
factory, PyDP's class and arguments, ...) and rebuilds it in each worker process. Scalar OpenDP noise
measurements are drawn in batches through their vector-domain twin (the speed-up is measured in each
run: see "Throughput" below). diffprivlib is seeded from the audit's `rng` through `random_state`
(`honours_rng` is True: results reproduce from the seed); the other libraries draw their own
randomness (`honours_rng` False). PyDP's buffered secure generator repeats its parent's draws in
forked processes; the PyDP and pipeline-dp adapters drain the inherited buffer in each new process
(see Findings).

**As a script.** Each of these examples runs as a saved `.py` file as it is, with no
`if __name__ == "__main__":` guard: the worker pools an audit starts are forked, which never re-imports
your script. The adapters of libraries that draw their own randomness (all but diffprivlib) get a pool
only after a probe shows that a forked worker draws differently from the calling process on a copy of
the adapter (OpenDP's does); otherwise they run serially, with a note
(docs/scaling.md, "Deadlines, and scripts without a `__main__` guard"). A library call that hangs
(a lock, a native loop) is bounded by `time_budget=`: the audit is then killed with its workers and
raises `DeadlineExceeded`.

Tests: adapters against fakes run in the default suite (`tests/adapters/`); against the real
libraries: `pip install -e ".[libraries]"` then `pytest -m libraries` (Tumult: in its environment,
`pytest -m libraries tests/adapters/test_libraries.py`).

"""


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scale", type=float, default=1.0, help="multiply every sample count (default 1)")
    p.add_argument("--only", default=",".join(CASES), help="comma-separated libraries")
    p.add_argument("--also", action="append", default=[],
                   help="another interpreter (e.g. .venv-tmlt/bin/python) whose installed libraries are run too")
    p.add_argument("--out", default=os.path.join(os.path.dirname(__file__), "..", "docs", "libraries.md"))
    p.add_argument("--json", action="store_true", help="print the rows as JSON instead of writing markdown")
    p.add_argument("--no-examples", action="store_true",
                   help="skip running the saved no-pair examples (tests/adapters/examples) for their section")
    p.add_argument("--unaided", action="store_true",
                   help="audit each correct library object with no pair (its input_domain()) over --seeds seeds; writes "
                        "benchmarks/results/libraries_unaided.json (the share violated is the false-alarm rate)")
    p.add_argument("--seeds", type=int, default=10)
    p.add_argument("--unaided-samples", type=int, default=2000)
    p.add_argument("--unaided-out", default=None)
    args = p.parse_args(argv)
    if args.unaided:
        return unaided_main(args)
    start = time.perf_counter()
    libs = [x for x in args.only.split(",") if x]
    rows, status, findings = run_cases(libs, args.scale)
    for py in args.also:
        missing = [lib for lib in libs if not str(status.get(lib, "not")).split()[0][0].isdigit()]
        if not missing:
            continue
        out = subprocess.run([py, __file__, "--json", "--scale", str(args.scale), "--only", ",".join(missing)],
                             capture_output=True, text=True)
        if out.returncode != 0:
            print(out.stderr[-2000:], file=sys.stderr)
            continue
        sys.stderr.write(out.stderr)
        other = json.loads(out.stdout)
        rows += other["rows"]
        for lib, st in other["status"].items():
            if st[0].isdigit():
                status[lib] = f"{st} (in {py})"
        findings.update({k: v for k, v in other["findings"].items() if v})
    total = time.perf_counter() - start
    if args.json:
        print(json.dumps({"rows": rows, "status": status, "findings": findings},
                         default=lambda x: None if isinstance(x, float) and math.isnan(x) else str(x)))
        return 0
    if not args.no_examples:
        from library_examples import examples_markdown, run_examples

        started = time.perf_counter()
        section = "\n".join(examples_markdown(run_examples([sys.executable] + list(args.also))))
        total += time.perf_counter() - started
    text = write_markdown(rows, status, findings, total, args.scale, sys.argv[1:] if argv is None else argv)
    if not args.no_examples:
        head, sep, tail = text.partition("\n## Findings (library defects and surprises)")
        text = head + "\n" + section + sep + tail
    with open(args.out, "w") as fh:
        fh.write(INTRO + text.split("\n", 1)[1] + "\n")
    print(f"wrote {args.out} ({len(rows)} audits, {total:.0f} s)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
