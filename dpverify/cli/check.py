"""``dpverify check``: the main job. Audit every registered mechanism and print one table.

Sections: one per registry section ("mechanisms" for the papers' mechanisms, "faulty" for the
negative controls), each a list of rows. Later stages add their own sections beside them.
"""
from __future__ import annotations

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

    rows, text, seconds = timed_check_rows(args)
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
    p.add_argument("--seed", type=int, default=0, help="seed of every audit (default 0: the documented run)")
    p.add_argument("--samples-scale", type=float, default=1.0,
                   help="multiply every default sample size by this factor (e.g. 0.1 for a quick look)")
    p.add_argument("--only", metavar="NAME", action="append", help="audit only this mechanism (repeatable)")
    p.add_argument("--no-proofs", action="store_true",
                   help="skip the proof table (it is also skipped when --only names mechanisms)")
    p.add_argument("--no-calibrations", action="store_true",
                   help="skip the calibration table (it is also skipped when --only names mechanisms)")
    p.add_argument("--no-search", action="store_true",
                   help="audit the registry's default pairs only (no adversarial neighbour search)")
    p.add_argument("--json", action="store_true", help="print one JSON document and nothing else")
    return p


def _mechanism_rows(args):
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
    rows = []
    for e in entries:
        samples = max(1, int(round(e.samples * args.samples_scale)))
        start = time.perf_counter()
        mech = e.factory()
        pairs = e.pairs()
        if not getattr(args, "no_search", False):
            from ..auditing.neighbours import search_for

            pairs = search_for(mech, pairs)  # bounded budget per mechanism; default pairs certified too
        result = _audit(mech, pairs, samples=samples, rng=args.seed)
        seconds = time.perf_counter() - start
        claim = result.claim
        rows.append({
            "section": e.section,
            "name": e.name,
            "paper": e.paper,
            "parameters": e.parameters,
            "claim": {"epsilon": claim.epsilon, "delta": claim.delta},
            "verdict": result.verdict.value,
            "epsilon_lower": result.epsilon_lower,
            "delta_lower": result.delta_lower,
            "samples": samples,
            "seconds": seconds,
            "method": result.method,
            "pair_index": result.pair_index,
            "direction": result.direction,
            "search": result.search,
        })
        if not args.json:
            print(f"  audited {e.name} in {seconds:.1f} s", file=sys.stderr)
    return rows


def _mechanism_table(rows) -> str:
    headers = ["mechanism", "paper claim", "claim (eps, delta)", "verdict", "eps lower", "samples", "seconds"]
    body = [[r["name"], r["paper"], f"({r['claim']['epsilon']:g}, {r['claim']['delta']:g})", r["verdict"],
             _common.fmt_lower(r["epsilon_lower"]), str(r["samples"]), f"{r['seconds']:.2f}"] for r in rows]
    return _common.table(headers, body)


def run(args) -> int:
    doc: dict = {"seed": args.seed}
    rows = _mechanism_rows(args)
    sections: dict[str, list] = {}
    for r in rows:
        sections.setdefault(r["section"], []).append(r)
    doc["mechanisms"] = sections.pop("mechanisms", [])
    doc.update(sections)
    texts = [("Mechanisms of the source papers", _mechanism_table(doc["mechanisms"]))]
    for key, rs in sections.items():
        texts.append((f"Section: {key}", _mechanism_table(rs)))
    for key, title, builder in EXTRA_SECTIONS:
        if args.only or getattr(args, f"no_{key}", False):  # --no-proofs, --no-calibrations
            continue  # --only audits the named mechanisms and nothing else
        section_rows, text = builder(args)
        doc[key] = section_rows
        texts.append((title, text))
    if args.json:
        _common.print_json(doc)
    else:
        for title, text in texts:
            print(f"\n{title}\n")
            print(text)
        print(f"\nseed {args.seed}; verdicts are at confidence 0.95 per mechanism; "
              "re-run one with: dpverify check --only NAME --seed SEED")
    return 0
