"""Accounting benchmark: accuracy and speed of every composition method on the issue's problems,
with dp-accounting's PLDAccountant (a comparison library, installed here if missing) timed in the
same run. Prints the markdown tables used in docs/accounting.md and docs/performance.md.

    python benchmarks/bench_accounting.py            # the original problems
    python benchmarks/bench_accounting.py --dpsgd    # DP-SGD grid, 1000 distinct events, small delta;
                                                     # --write puts the tables into docs/performance.md
"""
from __future__ import annotations

import importlib
import math
import subprocess
import sys
import time

import numpy as np

from dpverify.accounting import Method, PLDComposition, SelfComposed, Gaussian, Laplace, epsilon_for_delta
from dpverify.accounting import pld as _pld

GAUSS = [(10, 5.0, 2.594383381), (100, 10.0, 4.377178096), (1000, 20.0, 7.511275901)]
LAPLACE = [(10, 10.0, 0.9989780869, 0.9989780894), (50, 10.0, 3.1207005, 3.1207096),
           (100, 50.0, 0.81935702, 0.81935749)]
REPEATS = 3


def load_dp_accounting():
    try:
        return importlib.import_module("dp_accounting")
    except ImportError:
        r = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "dp-accounting"], capture_output=True)
        if r.returncode != 0:
            return None
        return importlib.import_module("dp_accounting")


def best_time(fn):
    best, value = math.inf, None
    for _ in range(REPEATS):
        _pld._cached_leaf.cache_clear()
        t = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - t)
    return value, best


def ours(event, delta, method=Method.PLD):
    m = PLDComposition() if method is Method.PLD else method.default()
    try:
        return best_time(lambda: m.epsilon(event, delta))
    except Exception as exc:  # unsupported
        return type(exc).__name__, 0.0


def theirs(dpa, kind, param, k, delta):
    if dpa is None:
        return None, math.nan
    from dp_accounting.pld import pld_privacy_accountant

    def run():
        acc = pld_privacy_accountant.PLDAccountant()
        ev = dpa.GaussianDpEvent(param) if kind == "gaussian" else dpa.LaplaceDpEvent(param)
        acc.compose(ev, k)
        return acc.get_epsilon(delta)

    return best_time(run)


def main() -> None:
    dpa = load_dp_accounting()
    print(f"dp-accounting: {'installed' if dpa else 'NOT installable: no comparison'}\n")
    rows_speed = []
    print("### k-fold Gaussian, sensitivity 1, delta = 1e-5\n")
    print("| k | sigma | exact eps | pld | pld - exact (rel) | rdp | dp-accounting PLD |")
    print("|---|---|---|---|---|---|---|")
    for k, s, exact in GAUSS:
        ev = SelfComposed(Gaussian(s), k)
        true = epsilon_for_delta(ev, 1e-5)
        e_pld, t_pld = ours(ev, 1e-5)
        e_rdp, _ = ours(ev, 1e-5, Method.RDP)
        e_dpa, t_dpa = theirs(dpa, "gaussian", s, k, 1e-5)
        print(f"| {k} | {s:g} | {exact} | {e_pld:.10f} | {(e_pld - true) / true:.2e} | {e_rdp:.6f} | "
              f"{e_dpa if e_dpa is None else f'{e_dpa:.10f}'} |")
        rows_speed.append((f"Gaussian k={k} sigma={s:g}", t_pld, t_dpa))
    print("\n### k-fold Laplace, sensitivity 1, delta = 1e-6\n")
    print("| k | b | true eps in | basic | advanced | kov | rdp | pld | dp-accounting PLD |")
    print("|---|---|---|---|---|---|---|---|---|")
    for k, b, lo, hi in LAPLACE:
        ev = SelfComposed(Laplace(b), k)
        vals = {m: ours(ev, 1e-6, m) for m in Method}
        e_dpa, t_dpa = theirs(dpa, "laplace", b, k, 1e-6)
        cells = " | ".join(f"{vals[m][0]:.8f}" for m in (Method.BASIC, Method.ADVANCED, Method.KOV, Method.RDP, Method.PLD))
        print(f"| {k} | {b:g} | [{lo}, {hi}] | {cells} | {e_dpa if e_dpa is None else f'{e_dpa:.8f}'} |")
        rows_speed.append((f"Laplace k={k} b={b:g}", vals[Method.PLD][1], t_dpa))
    print("\n### PLD speed (best of 3, leaf cache cleared; seconds)\n")
    print("| problem | dpverify pld | dp-accounting PLDAccountant | ratio |")
    print("|---|---|---|---|")
    for name, a, b in rows_speed:
        print(f"| {name} | {a:.3f} | {b:.3f} | {a / b:.2f} |")
    ta, tb = sum(r[1] for r in rows_speed), sum(r[2] for r in rows_speed)
    print(f"| **total** | {ta:.3f} | {tb:.3f} | **{ta / tb:.2f}** |")


# ---------------------------------------------------------------------------- DP-SGD grid (issue 18)
DPSGD = [(0.001, 0.8), (0.01, 1.0), (0.1, 2.0)]
STEPS = (1000, 10000, 100000)
DELTAS = (1e-5, 1e-10)
REF_H = 5e-5  # the reference grid (2x finer than dp-accounting's default)
START, END = "<!-- bench_accounting --dpsgd: generated, do not edit -->", "<!-- end bench_accounting --dpsgd -->"


def _dpa_dpsgd(q, sigma, steps, deltas, h, pessimistic=True):
    """dp_accounting's PLD of DP-SGD: its epsilons at ``deltas`` and the seconds taken."""
    from dp_accounting.pld import privacy_loss_distribution as pldlib

    t = time.perf_counter()
    pld = pldlib.from_gaussian_mechanism(sigma, value_discretization_interval=h, sampling_prob=q,
                                         pessimistic_estimate=pessimistic, use_connect_dots=pessimistic)
    pld = pld.self_compose(steps)
    eps = [pld.get_epsilon_for_delta(d) for d in deltas]
    return eps, time.perf_counter() - t


def _prv_dpsgd(q, sigma, steps, deltas):
    try:
        from prv_accountant import PRVAccountant
        from prv_accountant.privacy_random_variables import PoissonSubsampledGaussianMechanism
    except ImportError:
        return None, math.nan
    t = time.perf_counter()
    try:
        acc = PRVAccountant(prvs=[PoissonSubsampledGaussianMechanism(sampling_probability=q, noise_multiplier=sigma)],
                            max_self_compositions=[steps], eps_error=1e-3, delta_error=min(deltas) * 1e-3)
        eps = [acc.compute_epsilon(delta=d, num_self_compositions=[steps])[2] for d in deltas]
    except Exception as exc:  # prv_accountant refuses some settings (e.g. its domain bound)
        return type(exc).__name__, time.perf_counter() - t
    return eps, time.perf_counter() - t


def hp_reference(q, sigma, steps, deltas, h):
    """Independent high-precision value of epsilon(delta) for DP-SGD: the connect-the-dots pair at
    grid ``h`` composed ``steps`` times by one extended-precision FFT power (no truncation inside
    the 1e-30 Chernoff window), epsilon found by bisection; the larger of the two directions. Not
    a certified bound: a reference that shares no composition code with the accountant."""
    import scipy.fft
    from dpverify import NeighbourRelation
    from dpverify.accounting import PoissonSubsampled
    from dpverify.accounting import spectral
    from dpverify.accounting.losses import privacy_loss_pmf

    ev = PoissonSubsampled(Gaussian(sigma, relation=NeighbourRelation.ADD_REMOVE_ONE), q)
    best = [0.0] * len(deltas)
    for direction in (0, 1):
        leaf = privacy_loss_pmf(ev, direction=direction, value_discretisation=h, tail_mass=1e-30)
        x = leaf.probs
        s_lo, s_hi, _ = spectral.chernoff_window(x, leaf.offset, h, steps, 1e-30)
        size = s_hi - s_lo + 1
        N = scipy.fft.next_fast_len(max(size, x.size), real=True)
        xl = np.zeros(N, dtype=np.longdouble)
        xl[:x.size] = x
        y = scipy.fft.irfft(scipy.fft.rfft(xl) ** steps, N)
        y = np.roll(y, -(s_lo % N))[:size].astype(float)
        l = (steps * leaf.offset + s_lo + np.arange(size)) * h
        inf = -math.expm1(steps * math.log1p(-leaf.inf_mass))

        def delta(e):
            m = l > e
            return inf + float(np.sum(y[m] * -np.expm1(e - l[m])))

        for i, d in enumerate(deltas):
            lo, hi = 0.0, float(l[-1])
            for _ in range(60):
                mid = 0.5 * (lo + hi)
                if delta(mid) > d:
                    lo = mid
                else:
                    hi = mid
            best[i] = max(best[i], hi)
    return best


def dpsgd_grid(out, qs=None, header=True):
    from dpverify.accounting import PLDComposition, dpsgd

    if not header:
        out = _rows_only(out)
    out("### DP-SGD: q, sigma, steps; delta = 1e-5 and 1e-10 (one run each, same process)\n")
    out("`reference`: an independent high-precision composition of the connect-the-dots pair at half "
        "dpverify's grid step (`hp_reference`: one extended-precision FFT power, no truncation; the larger "
        "of both directions); `excess` = (dpverify upper - reference) / reference. `dp-acc fine`: "
        f"dp-accounting's pessimistic PLD at h = {REF_H:g} (its values at small delta are not monotone in "
        "the grid and fall below the high-precision value, so it is shown, not used). `slack`: the part "
        "of dpverify's upper bound that is certified round-off (upper minus the uncertified estimate). "
        "`lower`: dpverify's optimistic lower bound (continuous losses merged onto the grid). Times: building the composed PLD and "
        "answering both deltas, dpverify's certified upper bound against dp-accounting's PLD at its default "
        "grid 1e-4, same process, one after the other; `ratio` = dpverify / dp-accounting.\n")
    out("| q | sigma | steps | delta | dpverify upper | lower | slack | reference | excess | dp-acc fine | "
        "dp-acc (1e-4) | prv | t dpverify | t dp-acc | ratio |")
    out("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for q, sigma in DPSGD:
        if qs is not None and q not in qs:
            continue
        for steps in STEPS:
            _pld._cached_leaf.cache_clear()
            _pld._cached_pmfs.cache_clear()
            t = time.perf_counter()
            up_only = PLDComposition().epsilons(dpsgd(q, sigma, steps), list(DELTAS))
            t_ours = time.perf_counter() - t
            e_dpa, t_dpa = _dpa_dpsgd(q, sigma, steps, DELTAS, 1e-4)
            m = PLDComposition()
            b = m.bounds(dpsgd(q, sigma, steps), list(DELTAS))  # lower bound: not timed
            assert np.array_equal(b.upper, up_only)
            h = m.grid_step(m.plan(dpsgd(q, sigma, steps)))
            e_ref = hp_reference(q, sigma, steps, DELTAS, h / 2)
            e_fine, _ = _dpa_dpsgd(q, sigma, steps, DELTAS, REF_H)
            e_prv, _ = _prv_dpsgd(q, sigma, steps, DELTAS)
            for i, d in enumerate(DELTAS):
                up, lo, sl = float(b.upper[i]), float(b.lower[i]), float(b.numerical_slack[i])
                prv = e_prv[i] if isinstance(e_prv, list) else e_prv
                prv = f"{prv:.6f}" if isinstance(prv, float) else str(prv)
                out(f"| {q:g} | {sigma:g} | {steps} | {d:g} | {up:.6f} | {lo:.6f} | {sl:.1e} | {e_ref[i]:.6f} | "
                    f"{(up - e_ref[i]) / e_ref[i]:+.1e} | {e_fine[i]:.6f} | {e_dpa[i]:.6f} | {prv} | "
                    f"{t_ours:.2f} | {t_dpa:.2f} | {t_ours / t_dpa:.2f} |")
        _pld._cached_leaf.cache_clear()
        _pld._cached_pmfs.cache_clear()
        b = PLDComposition().bounds(dpsgd(q, sigma, 100000), [1e-12])
        out(f"| {q:g} | {sigma:g} | 100000 | 1e-12 | {float(b.upper[0]):.6f} | {float(b.lower[0]):.6f} | "
            f"{float(b.numerical_slack[0]):.1e} | - | - | - | - | - | - | - | - |")


def small_delta(out):
    from dpverify.accounting import PLDComposition, dpsgd, gdp_epsilon

    out("\n### Small delta and large losses (dpverify PLD vs exact)\n")
    out("| problem | delta | exact | dpverify upper | excess | lower | slack | seconds |")
    out("|---|---|---|---|---|---|---|---|")
    cases = [("Gaussian sigma=1/sqrt(1000)", Gaussian(1 / math.sqrt(1000)), math.sqrt(1000)),
             ("1000 x Gaussian sigma=1", SelfComposed(Gaussian(1.0), 1000), math.sqrt(1000)),
             ("Gaussian sigma=0.03", Gaussian(0.03), 1 / 0.03),
             ("2 x Gaussian sigma=0.04", SelfComposed(Gaussian(0.04), 2), math.sqrt(2) / 0.04)]
    for name, ev, mu in cases:
        _pld._cached_pmfs.cache_clear()
        ds = [1e-5, 1e-10, 1e-12]
        t = time.perf_counter()
        b = PLDComposition().bounds(ev, ds)
        dt = time.perf_counter() - t
        ex = gdp_epsilon(mu, ds)
        for i, d in enumerate(ds):
            out(f"| {name} | {d:g} | {ex[i]:.6f} | {b.upper[i]:.6f} | {(b.upper[i] - ex[i]) / ex[i]:+.1e} | "
                f"{b.lower[i]:.6f} | {b.numerical_slack[i]:.1e} | {dt:.2f} |")
    _pld._cached_pmfs.cache_clear()
    b = PLDComposition().bounds(dpsgd(0.01, 1.0, 1000), [1e-10, 1e-12])
    out(f"| DP-SGD q=0.01 sigma=1 steps=1000 | 1e-10, 1e-12 | - | {b.upper[0]:.6f}, {b.upper[1]:.6f} | - | "
        f"{b.lower[0]:.6f}, {b.lower[1]:.6f} | {b.numerical_slack[0]:.1e}, {b.numerical_slack[1]:.1e} | - |")


def heterogeneous(out):
    from dpverify.accounting import Composed, PLDComposition, gdp_epsilon
    import dp_accounting
    from dp_accounting.pld import pld_privacy_accountant

    out("\n### 1000 distinct events (heterogeneous composition), delta = 1e-5\n")
    sigmas = [20.0 + 0.03 * i for i in range(1000)]
    ev = Composed(tuple(Gaussian(s) for s in sigmas))
    mu = math.sqrt(sum(1 / s ** 2 for s in sigmas))
    exact = gdp_epsilon(mu, 1e-5)
    _pld._cached_pmfs.cache_clear()
    _pld._cached_leaf.cache_clear()
    t = time.perf_counter()
    e_ours = PLDComposition().epsilon(ev, 1e-5)
    t_ours = time.perf_counter() - t
    t = time.perf_counter()
    acc = pld_privacy_accountant.PLDAccountant()
    for s in sigmas:
        acc.compose(dp_accounting.GaussianDpEvent(s))
    e_dpa = acc.get_epsilon(1e-5)
    t_dpa = time.perf_counter() - t
    e_prv, t_prv = "not installed", math.nan
    try:
        from prv_accountant import PRVAccountant
        from prv_accountant.privacy_random_variables import GaussianMechanism

        t = time.perf_counter()
        prv = PRVAccountant(prvs=[GaussianMechanism(noise_multiplier=s) for s in sigmas],
                            max_self_compositions=[1] * len(sigmas), eps_error=1e-3, delta_error=1e-8)
        e_prv = prv.compute_epsilon(delta=1e-5, num_self_compositions=[1] * len(sigmas))[2]
        t_prv = time.perf_counter() - t
    except ImportError:
        pass
    except Exception as exc:  # prv_accountant refuses some settings
        e_prv, t_prv = type(exc).__name__, math.nan
    prv_cell = f"{e_prv:.6f}" if isinstance(e_prv, float) else e_prv
    out("| problem | exact | dpverify pld | excess | dp-accounting | prv (upper) | t dpverify | t dp-acc | t prv | "
        "ratio (dpverify / dp-acc) |")
    out("|---|---|---|---|---|---|---|---|---|---|")
    out(f"| 1000 Gaussians, sigma = 20 ... 49.97 | {exact:.6f} | {e_ours:.6f} | {(e_ours - exact) / exact:+.1e} | "
        f"{e_dpa:.6f} | {prv_cell} | {t_ours:.2f} | {t_dpa:.2f} | {t_prv:.2f} | {t_ours / t_dpa:.2f} |")
    # 1000 distinct subsampled events (DP-SGD with a changing noise multiplier): no merge possible
    from dpverify.accounting import dpsgd  # noqa: F401
    from dpverify import NeighbourRelation
    from dpverify.accounting import PoissonSubsampled

    sig2 = [1.0 + 0.25 * i for i in range(4)]
    ev2 = Composed(tuple(PoissonSubsampled(Gaussian(s, relation=NeighbourRelation.ADD_REMOVE_ONE), 0.01)
                         for s in sig2))
    _pld._cached_pmfs.cache_clear()
    _pld._cached_leaf.cache_clear()
    t = time.perf_counter()
    try:
        e2 = f"{PLDComposition().epsilon(ev2, 1e-5):.6f}"
    except Exception as exc:  # noqa: BLE001 (report, do not hide)
        e2 = type(exc).__name__
    t2 = time.perf_counter() - t
    t = time.perf_counter()
    acc = pld_privacy_accountant.PLDAccountant()
    for s in sig2:
        acc.compose(dp_accounting.PoissonSampledDpEvent(0.01, dp_accounting.GaussianDpEvent(s)))
    e2d = acc.get_epsilon(1e-5)
    t2d = time.perf_counter() - t
    out(f"| 4 distinct subsampled Gaussians, q = 0.01, sigma = 1, 1.25, 1.5, 1.75 | - | {e2} | - | {e2d:.6f} | - | "
        f"{t2:.2f} | {t2d:.2f} | - | {t2 / t2d:.2f} |")


def _rows_only(out):
    def inner(line=""):
        if line.startswith("| ") and line[2:3].isdigit():
            out(line)
    return inner


def dpsgd_main(write: bool) -> None:
    lines: list[str] = []

    def out(line=""):
        print(line, flush=True)
        lines.append(line)

    import platform
    import dp_accounting  # noqa: F401  (the comparison is the point of this mode)

    out(f"Generated by `python benchmarks/bench_accounting.py --dpsgd` on {platform.machine()}, "
        f"python {platform.python_version()}; shared machine, so compare ratios, not seconds.\n")
    dpsgd_grid(out)
    small_delta(out)
    heterogeneous(out)
    if write:
        _write_block(lines)


def _write_block(lines: list[str]) -> None:
    """Put ``lines`` between the START/END markers of docs/performance.md (appending the section once)."""
    import pathlib

    lines = list(lines)
    while lines and (not lines[-1].strip() or lines[-1].startswith("### ")):  # a section a stopped run left empty
        lines.pop()
    path = pathlib.Path(__file__).resolve().parents[1] / "docs" / "performance.md"
    text = path.read_text()
    block = START + "\n" + "\n".join(lines) + "\n" + END
    if START in text:
        head, rest = text.split(START, 1)
        text = head + block + rest.split(END, 1)[1]
    else:
        text = (text.rstrip("\n") + "\n\n## Accounting for training runs (`benchmarks/bench_accounting.py --dpsgd`)\n\n"
                + block + "\n")
    path.write_text(text)


if __name__ == "__main__":
    if "--rows" in sys.argv:  # only the DP-SGD rows for the given q values (run beside --dpsgd; see --merge)
        qs = {float(x) for x in sys.argv[sys.argv.index("--rows") + 1].split(",")}
        dpsgd_grid(lambda line="": print(line, flush=True), qs=qs, header=False)
    elif "--extras" in sys.argv:  # the small-delta and 1000-event sections alone
        small_delta(lambda line="": print(line, flush=True))
        heterogeneous(lambda line="": print(line, flush=True))
    elif "--merge" in sys.argv:
        # assemble the generated block of docs/performance.md from the outputs of runs made side by
        # side: the first log (a --dpsgd run, possibly stopped early), then the rows of --rows logs
        # after its grid rows, then --extras logs
        logs = sys.argv[sys.argv.index("--merge") + 1:]
        body = [l.rstrip("\n") for l in open(logs[0])]
        grid_end = max(i for i, l in enumerate(body) if l.startswith("| ") and l[2:3].isdigit())
        extra_rows, extras = [], []
        for log in logs[1:]:
            lines = [l.rstrip("\n") for l in open(log)]
            if any(l.startswith("### ") for l in lines):
                # drop a section a stopped run left without a table
                while lines and not any(l.startswith("| ") for l in lines[max(i for i, l in enumerate(lines)
                                                                              if l.startswith("### ")):]):
                    lines = lines[:max(i for i, l in enumerate(lines) if l.startswith("### "))]
                extras += [""] + lines
            else:
                extra_rows += [l for l in lines if l.startswith("| ")]
        body = body[:grid_end + 1] + extra_rows + body[grid_end + 1:] + extras
        _write_block(body)
    elif "--dpsgd" in sys.argv:
        dpsgd_main("--write" in sys.argv)
    else:
        main()
