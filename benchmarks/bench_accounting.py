"""Accounting benchmark: accuracy and speed of every composition method on the issue's problems,
with dp-accounting's PLDAccountant (a comparison library, installed here if missing) timed in the
same run. Prints the markdown tables used in docs/accounting.md and docs/performance.md.

    python benchmarks/bench_accounting.py
"""
from __future__ import annotations

import importlib
import math
import subprocess
import sys
import time

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


if __name__ == "__main__":
    main()
