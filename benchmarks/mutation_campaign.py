"""The full mutation campaign over the proof files' encoded statements (``dpverify.symbolic.mutation``).

    python benchmarks/mutation_campaign.py [MODULE ...] [--n N] [--time-limit S] [--table]

For each proof file (default: every module of ``dpverify_proofs``; a MODULE is e.g. ``dpverify_proofs.jiang_wishart``)
it runs :func:`dpverify.symbolic.mutation.run_campaign` with a progress line per mutant on stderr, and prints on stdout
a markdown table per claim and per file (mutants, false, killed, survivors, timed out, seconds); ``--table`` adds one
line per mutant. Exit status 1 when a false mutant survives or a mutant is undecided. The figures of
``docs/proofs.md`` ("Mutation campaign") come from this script; the test suite runs a sample
(``tests/symbolic/test_symbolic_mutation_campaign.py``).
"""
from __future__ import annotations

import argparse
import importlib
import sys
import time

from dpverify.symbolic.mutation import proof_statements, run_campaign
from dpverify.symbolic.proof_files import proof_modules


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="python benchmarks/mutation_campaign.py")
    ap.add_argument("modules", nargs="*", help="proof modules (e.g. dpverify_proofs.jiang_wishart); default: all")
    ap.add_argument("--n", type=int, default=300, help="points of the numeric check per mutant")
    ap.add_argument("--time-limit", type=float, default=60.0, help="seconds per mutant check (0: none)")
    ap.add_argument("--table", action="store_true", help="also print one line per mutant")
    a = ap.parse_args(argv)
    mods = [importlib.import_module(m) for m in a.modules] if a.modules else list(proof_modules())
    bad = 0
    totals = [0, 0, 0, 0, 0, 0.0]
    print("| proof file | claim | mutants | false | killed | survivors | timed out | seconds |")
    print("|---|---|---|---|---|---|---|---|")
    for mod in mods:
        t0 = time.perf_counter()
        sts = proof_statements([mod])
        rep = run_campaign(sts, n=a.n, time_limit=a.time_limit or None,
                           progress=lambda line: print(line, file=sys.stderr, flush=True))
        name = mod.__name__.rsplit(".", 1)[-1]
        file_tot = [0, 0, 0, 0, 0]
        for cid, nm, nf, nk, ns, nt, sec in rep.per_claim():
            print(f"| {name} | `{cid}` | {nm} | {nf} | {nk} | {ns} | {nt} | {sec:.1f} |")
            for i, v in enumerate((nm, nf, nk, ns, nt)):
                file_tot[i] += v
        sec = time.perf_counter() - t0
        print(f"| **{name}** | all ({len(rep.claims)} claims) | {file_tot[0]} | {file_tot[1]} | {file_tot[2]} | "
              f"{file_tot[3]} | {file_tot[4]} | {sec:.1f} |", flush=True)
        for i, v in enumerate(file_tot):
            totals[i] += v
        totals[5] += sec
        if a.table:
            print(rep.table())
        print(f"{name}: {rep.summary()}", file=sys.stderr, flush=True)
        bad += len(rep.survivors) + len(rep.undecided)
    print(f"| **all** | | {totals[0]} | {totals[1]} | {totals[2]} | {totals[3]} | {totals[4]} | {totals[5]:.1f} |")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
