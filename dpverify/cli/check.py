"""``dpverify check``: the main job. Audit every registered mechanism and print one table.

Sections: one per registry section ("mechanisms" for the papers' mechanisms, "faulty" for the
negative controls), each a list of rows. Later stages add their own sections beside them.
"""
from __future__ import annotations

import math
import sys

from ..auditing.result import jsonable
from ..calibrate.check_section import record_proof_rows, timed_check_rows
from ..errors import InvalidArgument
from ..registry import load_entries
from ..report.check_table import (
    FAMILY_ALPHA,
    MECHANISM_COLUMNS,
    REPORT_PICTURE_SAMPLES,
    entry_row,
    family_note,
    mechanism_cells,
    mechanism_table,
    ordered,
    report_histogram,
    row_confidence,
    section_title,
    table_summary,
)
from ..report.html import check_report
from ..tables import StreamTable, term_width
from . import _common
from .prove import check_section

#: ``--samples-scale`` above this is refused up front: it would multiply the documented run (about
#: 3 CPU-minutes, docs/mechanisms.md's Timing line) by more than 10**4, i.e. weeks of CPU.
MAX_SAMPLES_SCALE = 1e4


#: Extra sections: (JSON key, title, callable(args) -> (rows as dicts, text)). Filled by
#: the modules that provide them (proofs, ...), in the order they appear.
EXTRA_SECTIONS: list = []


def _proofs_section(args):
    """The proof table (``dpverify prove``) as a section of the main job."""
    rows, text = check_section(args)
    record_proof_rows(rows)  # the calibration table looks up the verdict of the claim each value rests on
    return rows, text


EXTRA_SECTIONS.append(("proofs", "Proofs of the source papers' claims (dpverify prove)", _proofs_section))


def _calibrations_section(args):
    """The papers' noise parameters vs the exact minimum (``dpverify.calibrate``) as a section."""
    rows, text, seconds = timed_check_rows(args, stream=not args.json)
    if not args.json:
        print(f"  calibrations in {seconds:.1f} s", file=sys.stderr)
    return rows, text


EXTRA_SECTIONS.append(("calibrations", "Calibrations: the papers' noise vs the exact minimum (dpverify calibrate)",
                       _calibrations_section))


def register(sub):
    p = sub.add_parser("check", help="the main job: audit every shipped mechanism (and prove every proof, "
                                     "compare every paper's noise with the exact minimum)",
                       description="Audit every registered mechanism on its default pairs and print one table; "
                                   "then the proof table and the calibration table (each paper's noise parameter "
                                   "at the registry's parameters: as printed, lemma-derived, exact minimum, "
                                   "tightness, safe/UNSAFE).")
    p.add_argument("--seed", type=_common.seed_arg, default=0, help="seed of every audit (default 0: the documented run)")
    p.add_argument("--samples-scale", type=float, default=1.0,
                   help="multiply every default sample size by this factor (e.g. 0.1 for a quick look; "
                        f"at most {MAX_SAMPLES_SCALE:g})")
    p.add_argument("--only", metavar="NAME", action="append", help="audit only this mechanism (repeatable)")
    p.add_argument("--no-proofs", action="store_true",
                   help="skip the proof table (it is also skipped when --only names mechanisms)")
    p.add_argument("--no-calibrations", action="store_true",
                   help="skip the calibration table (it is also skipped when --only names mechanisms)")
    p.add_argument("--no-search", action="store_true",
                   help="audit the registry's default pairs only (no adversarial neighbour search)")
    _common.add_report(p)
    _common.add_fail_on(p, ("never", "violated", "unexpected"), "never",
                        "violated: a mechanism (other than a faulty control, which should be) got the verdict "
                        "violated; unexpected: a control's verdict differs from its expected one.")
    p.add_argument("--json", action="store_true", help="print one JSON document and nothing else")
    return p


def _check_samples_scale(value: float) -> float:
    """``--samples-scale``: a finite factor in (0, MAX_SAMPLES_SCALE], else InvalidArgument with an estimate
    (checked before any audit starts)."""
    if math.isnan(value) or math.isinf(value):
        raise InvalidArgument(f"--samples-scale={value!r} must be a finite number > 0, e.g. --samples-scale 0.1 "
                              "for a quick look or 1 (the default) for the documented run.")
    if not (value > 0):
        raise InvalidArgument(f"--samples-scale={value!r} must be > 0, e.g. --samples-scale 0.1.")
    if value > MAX_SAMPLES_SCALE:
        cpu_hours = value * 3 / 60
        raise InvalidArgument(
            f"--samples-scale={value!r} would draw {value:.3g} times the documented run's samples "
            f"(about 3 CPU-minutes at 1), an estimated {cpu_hours:.3g} CPU-hours; the most allowed is "
            f"{MAX_SAMPLES_SCALE:g}. Use --only NAME to "
            "audit one mechanism with more samples, or dpverify audit NAME --samples N.")
    return value


def _select(args):
    entries = load_entries()
    if args.only:
        known = {e.name for e in entries}
        unknown = [n for n in args.only if n not in known]
        if unknown:

            raise InvalidArgument(f"--only {unknown[0]!r} is not a registered mechanism; known: {sorted(known)}.")
        entries = [e for e in entries if e.name in args.only]
    _check_samples_scale(args.samples_scale)  # also when called with a built Namespace
    args._family_size = len(load_entries())  # the whole registry, whatever --only selects
    return ordered(entries)


def _mechanism_rows(args):
    """Audit the selected entries; with ``args._stream`` print each row as it finishes (and progress
    on stderr)."""
    entries = _select(args)
    stream = getattr(args, "_stream", False)
    rows: list[dict] = []
    table, section = None, None
    for k, e in enumerate(entries, 1):
        if stream and e.section != section:
            if rows and table_summary([r for r in rows if r["section"] == section]):
                print(table_summary([r for r in rows if r["section"] == section]), flush=True)
            section = e.section
            print(f"\n{section_title(section)}\n", flush=True)
            table = StreamTable(MECHANISM_COLUMNS)
            table.header()
        if stream:
            _common.progress(f"[{k}/{len(entries)}] auditing {e.name} ...")
        row, mech, result = entry_row(e, seed=args.seed, samples_scale=args.samples_scale,
                                      family_size=args._family_size, search=not getattr(args, "no_search", False),
                                      profile=bool(getattr(args, "report", None)))
        if getattr(args, "report", None) and callable(getattr(mech, "log_density", None)):
            # the report's loss histogram: a separate small plain sample, never used by the verdict
            row["audit"]["plain_loss_histogram"] = report_histogram(mech, result, args.seed, REPORT_PICTURE_SAMPLES)
        rows.append(row)
        if stream:
            table.row(mechanism_cells(row))
    if stream and rows and table_summary([r for r in rows if r["section"] == section]):
        print(table_summary([r for r in rows if r["section"] == section]), flush=True)
    return rows


def _mechanism_table(rows) -> str:
    return mechanism_table(rows)


def _fails(args, doc: dict) -> list[str]:
    """What ``--fail-on`` finds in the document: names of the offending rows."""
    mode = getattr(args, "fail_on", "never")
    rows = [r for key, rs in doc.items() if isinstance(rs, list) for r in rs if isinstance(r, dict) and "verdict" in r]
    if mode == "violated":
        return [r["name"] for r in rows if r["verdict"] == "violated" and r.get("expected") != "violated"]
    if mode == "unexpected":
        return [r["name"] for r in rows if r.get("as_expected") is False]
    return []


def run(args) -> int:
    doc: dict = {"seed": args.seed}
    _check_samples_scale(args.samples_scale)  # up front: before any audit or section runs
    _common.check_report_target(getattr(args, "report", None))
    args._stream = not args.json
    rows = _mechanism_rows(args)
    sections: dict[str, list] = {}
    for r in rows:
        sections.setdefault(r["section"], []).append(r)
    doc["mechanisms"] = sections.pop("mechanisms", [])
    doc.update(sections)
    if not args.json and not rows:  # streaming printed nothing (e.g. a builder-only run)
        print(f"\n{section_title('mechanisms')}\n")
        print(_mechanism_table([]))
    for key, title, builder in EXTRA_SECTIONS:
        if args.only or getattr(args, f"no_{key}", False):  # --no-proofs, --no-calibrations
            continue  # --only audits the named mechanisms and nothing else
        if not args.json:
            print(f"\n{title}\n", flush=True)
        section_rows, text = builder(args)
        doc[key] = section_rows
        if not args.json and text:
            print(text, flush=True)
    m = getattr(args, "_family_size", None) or len(load_entries())
    doc["family"] = {"alpha": FAMILY_ALPHA, "audits": m, "confidence_per_row": row_confidence(m),
                     "method": "Bonferroni", "note": family_note(m)}
    fails = _fails(args, doc)
    doc["fail_on"] = {"mode": args.fail_on, "failed": fails}
    report_code = 0
    if getattr(args, "report", None):

        command = "dpverify check " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["check"] else "dpverify check"
        report_code = _common.write_report(args.report, check_report(jsonable(doc), command=command))
    if args.json:
        _common.print_json(doc)
    else:
        import textwrap

        footer = f"{family_note(m, args.seed)}; re-run one with: dpverify check --only NAME --seed SEED"
        print("\n" + textwrap.fill(footer, min(120, term_width()), break_on_hyphens=False))
        if fails:
            print(f"--fail-on {args.fail_on}: {', '.join(fails)}", file=sys.stderr)
    return _common.EXIT_FAIL_ON if fails else report_code
