"""``dpverify prove [PATH ...] [--json]``: run the proof files and print one verdict table.

The table streams: each proof file's rows print as soon as that file is done (progress on stderr),
fitted to the terminal width (``COLUMNS``, else 120 when stdout is not a terminal); the evidence of
a claim prints in full on a details line under its row.
"""
from __future__ import annotations

import io
import sys
import textwrap
import time

from ..auditing.result import jsonable
from ..report.html import prove_report
from ..report.proof_rows import steps_cell
from ..tables import StreamTable, term_width
from . import _common

#: (header, minimum width, flexible)
COLUMNS = [("ID", 16, True), ("kind", 10, False), ("claim", 14, True), ("steps", 16, False), ("conclusion", 14, False),
           ("strength", 20, False)]


def register(sub):
    p = sub.add_parser("prove", help="check every labelled claim of the source papers (proof files)",
                       description="Run proof files (default: every file of the installed proofs package) and "
                                   "print ID, claim, verdict of the steps, verdict of the conclusion, evidence. "
                                   "Rows print as each proof file finishes; progress goes to stderr.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="proof files or folders (default: all shipped proofs)")
    _common.add_fail_on(p, ("never", "refuted"), "never", "refuted: some claim's conclusion is refuted.")
    _common.add_report(p)
    p.add_argument("--json", action="store_true", help="print one JSON document and nothing else")
    return p


def _verdict(part) -> str:
    return part.verdict.value if hasattr(part, "verdict") else str(part)


def rows_and_text(paths=None, *, stream: bool = False):
    """(rows as dicts, table text) for ``paths`` (None: every shipped proof). With ``stream`` the
    table is printed on stdout as each proof file finishes, with progress on stderr (and the text
    returned is None)."""
    from ..symbolic import run_proofs  # deferred: sympy (importing dpverify.symbolic loads it; --help must not)
    from ..symbolic.findings import strong_share  # deferred: sympy
    from ..symbolic.verdicts import conclusion_summary, strength_counts  # deferred: sympy

    start = time.perf_counter()
    out = sys.stdout if stream else io.StringIO()
    table = StreamTable(COLUMNS, out=out)
    table.header()

    def show(got):
        for r in got:
            details = r.evidence + (f" [reason: {r.reason}]" if r.reason else "")
            strength = r.strength.value if r.decidable else "not decidable"
            steps = steps_cell(_verdict(r.steps), _verdict(r.conclusion), getattr(r.steps, "details", ()))
            table.row([r.id, r.kind, r.statement, steps, _verdict(r.conclusion), strength],
                      details=f"[{r.strength_label}] " + details)

    reports = run_proofs(paths or None, progress=_common.progress if stream else None, on_reports=show)
    seconds = time.perf_counter() - start
    rows = [r.to_dict() for r in reports]
    summary = conclusion_summary((_verdict(r.conclusion), r.kind) for r in reports)
    counts = strength_counts((r.strength.value, r.kind, r.decidable) for r in reports)
    strong, decidable = strong_share(reports)
    share = f"{strong} of {decidable} ({100 * strong / decidable:.0f}%)" if decidable else "no decidable theorems"
    line = (f"{len(reports)} claims in {seconds:.1f} s; conclusions: {summary}; theorems by strength: "
            + ", ".join(f"{k} {v}" for k, v in counts.items())
            + f"; unconditional strong (kernel-checked, proved, whole-domain certified) among decidable theorems not "
              f"refuted: {share}")
    out.write("\n" + "\n".join(textwrap.wrap(line, width=term_width(), subsequent_indent="  ")) + "\n")
    out.flush()
    return rows, (None if stream else out.getvalue().rstrip("\n"))


def _refuted(rows) -> list[str]:
    out = []
    for r in rows:
        c = r.get("conclusion")
        if (c.get("verdict") if isinstance(c, dict) else c) == "refuted":
            out.append(r["id"])
    return out


def run(args) -> int:
    from ..symbolic.runner import check_paths  # deferred: sympy (importing dpverify.symbolic loads it)
    from ..symbolic.verdicts import rows_counts, rows_share  # deferred: sympy

    _common.check_report_target(args.report)
    check_paths(args.paths)
    rows, text = rows_and_text(args.paths, stream=not args.json)
    fails = _refuted(rows) if args.fail_on == "refuted" else []
    code = 0
    if args.report:

        command = "dpverify " + " ".join(sys.argv[1:]) if sys.argv[1:2] == ["prove"] else "dpverify prove"
        code = _common.write_report(args.report, prove_report(jsonable(rows), command=command))
    if args.json:
        _common.print_json({"claims": rows, "counts": rows_counts(rows), "strong_share": rows_share(rows),
                            "fail_on": {"mode": args.fail_on, "failed": fails}})
    elif fails:
        print(f"--fail-on refuted: {len(fails)} refuted claims", file=sys.stderr)
    return _common.EXIT_FAIL_ON if fails else code


def check_section(args):
    """Builder of the "proofs" section of ``dpverify check`` (streams unless ``--json``)."""
    return rows_and_text(None, stream=not getattr(args, "json", False))
