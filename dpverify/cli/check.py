"""``dpverify check``: the main job. Audit every registered mechanism and print one table.

Sections: one per registry section ("mechanisms" for the papers' mechanisms, "faulty" for the
negative controls), each a list of rows. Later stages add their own sections beside them.
"""
from __future__ import annotations

import io
import sys
import time

from .. import audit as _audit
from ..registry import load_entries
from . import _common

#: Extra sections: (JSON key, title, callable(args) -> (rows as dicts, text)). Filled by
#: the modules that provide them (proofs, ...), in the order they appear.
EXTRA_SECTIONS: list = []


def _proofs_section(args):
    """The proof table (``dpverify prove``) as a section of the main job."""
    from ..calibrate._check import record_proof_rows
    from .prove import check_section

    rows, text = check_section(args)
    record_proof_rows(rows)  # the calibration table looks up the verdict of the claim each value rests on
    return rows, text


EXTRA_SECTIONS.append(("proofs", "Proofs of the source papers' claims (dpverify prove)", _proofs_section))


def _calibrations_section(args):
    """The papers' noise parameters vs the exact minimum (``dpverify.calibrate``) as a section."""
    from ..calibrate._check import timed_check_rows

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
    p.add_argument("--samples-scale", type=_common.positive_arg, default=1.0,
                   help="multiply every default sample size by this factor (e.g. 0.1 for a quick look)")
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


def expected_verdict(entry) -> str | None:
    """What a registry entry's audit should say: ``"violated"`` for a faulty control, ``"not violated"``
    (``not-violated`` or ``inconclusive``) for a correct control, None for the papers' mechanisms (their
    verdicts are findings, not expectations). Read from an ``expected`` attribute when an entry has one,
    else from the controls' ``description``."""
    exp = getattr(entry, "expected", None)
    if exp:
        return str(exp)
    return {"faulty control": "violated", "correct control": "not violated"}.get(entry.description)


def as_expected(expected: str | None, verdict: str) -> bool | None:
    if expected is None:
        return None
    return (verdict == "violated") == (expected == "violated")


#: The columns of a mechanism table: (header, minimum width, flexible). The first cell holds the
#: mechanism's name and, on a second line, the paper claim it implements.
MECHANISM_COLUMNS = [("mechanism / paper claim", 24, True), ("claim (eps, delta)", 18, False),
                     ("verdict", 12, False), ("expected", 12, False), ("ok", 3, False), ("eps lower", 9, False),
                     ("samples", 7, False), ("seconds", 7, False)]


def _cells(r: dict) -> list[str]:
    exp = r.get("expected")
    ok = r.get("as_expected")
    return [f"{r['name']}\n  {r['paper']}", f"({r['claim']['epsilon']:g}, {r['claim']['delta']:g})", r["verdict"],
            "-" if exp is None else exp, "" if ok is None else ("ok" if ok else "NO"),
            _common.fmt_lower(float(r["epsilon_lower"])), str(r["samples"]), f"{float(r['seconds']):.2f}"]


def _select(args):
    entries = load_entries()
    if args.only:
        known = {e.name for e in entries}
        unknown = [n for n in args.only if n not in known]
        if unknown:
            from ..errors import InvalidArgument

            raise InvalidArgument(f"--only {unknown[0]!r} is not a registered mechanism; known: {sorted(known)}.")
        entries = [e for e in entries if e.name in args.only]
    if not (args.samples_scale > 0):
        from ..errors import InvalidArgument

        raise InvalidArgument(f"--samples-scale={args.samples_scale!r} must be > 0.")
    # grouped by section ("mechanisms" first), registration order inside a section
    order = ["mechanisms"] + [e.section for e in entries if e.section != "mechanisms"]
    rank = {sec: i for i, sec in reversed(list(enumerate(order)))}
    return sorted(entries, key=lambda e: rank[e.section])


def _section_title(section: str) -> str:
    return "Mechanisms of the source papers" if section == "mechanisms" else f"Section: {section}"


def _summary(rows: list[dict]) -> str | None:
    judged = [r for r in rows if r.get("as_expected") is not None]
    if not judged:
        return None
    ok = sum(1 for r in judged if r["as_expected"])
    text = f"{ok}/{len(judged)} as expected"
    bad = [r["name"] for r in judged if not r["as_expected"]]
    return text + (f"; NOT as expected: {', '.join(bad)}" if bad else "")


def _mechanism_rows(args):
    """Audit the selected entries; with ``args._stream`` print each row as it finishes (and progress
    on stderr)."""
    entries = _select(args)
    stream = getattr(args, "_stream", False)
    rows: list[dict] = []
    table, section = None, None
    for k, e in enumerate(entries, 1):
        if stream and e.section != section:
            if rows and _summary([r for r in rows if r["section"] == section]):
                print(_summary([r for r in rows if r["section"] == section]), flush=True)
            section = e.section
            print(f"\n{_section_title(section)}\n", flush=True)
            table = _common.StreamTable(MECHANISM_COLUMNS)
            table.header()
        if stream:
            _common.progress(f"[{k}/{len(entries)}] auditing {e.name} ...")
        samples = max(1, int(round(e.samples * args.samples_scale)))
        start = time.perf_counter()
        mech = e.factory()
        pairs = e.pairs()
        if not getattr(args, "no_search", False):
            from ..auditing.neighbours import search_for

            pairs = search_for(mech, pairs)  # bounded budget per mechanism; default pairs certified too
        keep = {"profile": True} if getattr(args, "report", None) and callable(getattr(mech, "log_density", None)) else {}
        result = _audit(mech, pairs, samples=samples, rng=args.seed, **keep)
        seconds = time.perf_counter() - start
        claim = result.claim
        expected = expected_verdict(e)
        row = {
            "section": e.section,
            "name": e.name,
            "paper": e.paper,
            "parameters": e.parameters,
            "claim": {"epsilon": claim.epsilon, "delta": claim.delta},
            "verdict": result.verdict.value,
            "expected": expected,
            "as_expected": as_expected(expected, result.verdict.value),
            "epsilon_lower": result.epsilon_lower,
            "delta_lower": result.delta_lower,
            "samples": samples,
            "seconds": seconds,
            "method": result.method,
            "pair_index": result.pair_index,
            "direction": result.direction,
            "search": result.search,
            "reproduce": f"dpverify check --only {e.name} --seed {args.seed}"
                         + (f" --samples-scale {args.samples_scale!r}" if args.samples_scale != 1 else "")
                         + (" --no-search" if getattr(args, "no_search", False) else ""),
            "audit": result.to_dict(),
        }
        if keep:  # the report's loss histogram: a separate small plain sample, never used by the verdict
            from .audit import _plain_histogram

            row["audit"]["plain_loss_histogram"] = _plain_histogram(mech, result, args.seed, REPORT_PICTURE_SAMPLES)
        rows.append(row)
        if stream:
            table.row(_cells(row))
    if stream and rows and _summary([r for r in rows if r["section"] == section]):
        print(_summary([r for r in rows if r["section"] == section]), flush=True)
    return rows


#: Plain draws per white-box mechanism for the loss histograms of ``check --report``.
REPORT_PICTURE_SAMPLES = 5000


def _mechanism_table(rows) -> str:
    out = io.StringIO()
    table = _common.StreamTable(MECHANISM_COLUMNS, out=out)
    table.header()
    for r in rows:
        table.row(_cells(r))
    summary = _summary(rows)
    return out.getvalue().rstrip("\n") + (f"\n{summary}" if summary else "")


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
    _common.check_report_target(getattr(args, "report", None))
    args._stream = not args.json
    rows = _mechanism_rows(args)
    sections: dict[str, list] = {}
    for r in rows:
        sections.setdefault(r["section"], []).append(r)
    doc["mechanisms"] = sections.pop("mechanisms", [])
    doc.update(sections)
    if not args.json and not rows:  # streaming printed nothing (e.g. a builder-only run)
        print(f"\n{_section_title('mechanisms')}\n")
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
    fails = _fails(args, doc)
    doc["fail_on"] = {"mode": args.fail_on, "failed": fails}
    report_code = 0
    if getattr(args, "report", None):
        from ..auditing.result import jsonable
        from ..report.html import check_report

        command = "dpverify check " + " ".join(sys.argv[2:]) if sys.argv[1:2] == ["check"] else "dpverify check"
        report_code = _common.write_report(args.report, check_report(jsonable(doc), command=command))
    if args.json:
        _common.print_json(doc)
    else:
        print(f"\nseed {args.seed}; verdicts are at confidence 0.95 per mechanism; "
              "re-run one with: dpverify check --only NAME --seed SEED")
        if fails:
            print(f"--fail-on {args.fail_on}: {', '.join(fails)}", file=sys.stderr)
    return _common.EXIT_FAIL_ON if fails else report_code
