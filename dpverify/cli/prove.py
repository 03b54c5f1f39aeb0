"""``dpverify prove [PATH ...] [--json]``: run the proof files and print one verdict table."""
from __future__ import annotations

import sys
import time

from . import _common

_MAX_CLAIM = 60
_MAX_EVIDENCE = 110


def register(sub):
    p = sub.add_parser("prove", help="check every labelled claim of the source papers (proof files)",
                       description="Run proof files (default: every file of the installed proofs package) and "
                                   "print ID, claim, verdict of the steps, verdict of the conclusion, evidence.")
    p.add_argument("paths", nargs="*", metavar="PATH", help="proof files or folders (default: all shipped proofs)")
    p.add_argument("--json", action="store_true", help="print one JSON document and nothing else")
    return p


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _progress(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def rows_and_text(paths=None, progress=_progress):
    """(rows as dicts, table text) for ``paths`` (None: every shipped proof); progress lines go to stderr."""
    from ..symbolic import run_proofs

    start = time.perf_counter()
    reports = run_proofs(paths or None, progress=progress)
    seconds = time.perf_counter() - start
    rows = [r.to_dict() for r in reports]
    body = [[r.id, r.kind, _short(r.statement, _MAX_CLAIM), r.steps.verdict.value, r.conclusion.verdict.value,
             _short(r.evidence + (f" [reason: {r.reason}]" if r.reason else ""), _MAX_EVIDENCE)] for r in reports]
    text = _common.table(["ID", "kind", "claim", "steps", "conclusion", "evidence"], body)
    counts: dict[str, int] = {}
    for r in reports:
        key = r.conclusion.verdict.value if r.kind == "theorem" else f"{r.conclusion.verdict.value} ({r.kind})"
        counts[key] = counts.get(key, 0) + 1
    summary = ", ".join(f"{v}: {n}" for v, n in sorted(counts.items()))
    text += f"\n\n{len(reports)} claims in {seconds:.1f} s; conclusions: {summary}"
    return rows, text


def run(args) -> int:
    rows, text = rows_and_text(args.paths)
    if args.json:
        _common.print_json({"claims": rows})
    else:
        print(text)
    return 0


def check_section(args):
    """Builder of the "proofs" section of ``dpverify check``."""
    return rows_and_text(None)
