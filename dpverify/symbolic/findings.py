"""The generated verdict section of ``docs/findings.md`` (``python -m dpverify.symbolic.findings [--write]``).

:func:`render` turns the reports of ``run_proofs()`` into markdown: a summary of the conclusions (counted by
kind: theorems, definitions, fixed-dimension instances) and one table per paper. The section sits between
:data:`BEGIN` and :data:`END` in ``docs/findings.md``; :func:`replace_section` swaps it in. Nothing in it is
typed by hand: the test suite regenerates it and compares (``tests/symbolic/test_symbolic_findings.py``).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Sequence

from .runner import run_proofs
from .verdicts import COUNT_COLUMNS, STRONG_STRENGTHS, ClaimReport, ProofVerdict, strength_counts

__all__ = ["BEGIN", "END", "render", "replace_section", "strong_share"]

BEGIN = "<!-- BEGIN GENERATED VERDICTS (python -m dpverify.symbolic.findings --write) -->"
END = "<!-- END GENERATED VERDICTS -->"


def _cell(text: str, width: int = 150) -> str:
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if len(text) <= width else text[: width - 3] + "..."


def strong_share(reports: Sequence[ClaimReport]) -> tuple[int, int]:
    """(unconditionally strong theorems, decidable theorems whose conclusion is not refuted) -- the issue's acceptance
    ratio. Strong: ``kernel-checked``, ``proved`` or ``certified`` with no premise and on the whole domain
    (:data:`~dpverify.symbolic.verdicts.STRONG_STRENGTHS`); ``... given``, ``certified on B`` and ``step`` are not.

    Only ``kind == "theorem"`` counts (definitions and fixed-dimension instances are excluded from both), and only
    claims decidable as stated (``ClaimReport.decidable``)."""
    thm = [r for r in reports if r.kind == "theorem" and r.decidable and r.conclusion.verdict is not ProofVerdict.REFUTED]
    strong = [r for r in thm if r.strength in STRONG_STRENGTHS]
    return len(strong), len(thm)


def counts_line(reports: Sequence[ClaimReport]) -> str:
    """"kernel-checked 9, proved 12, ..., not decidable 10" over the theorems (every column of COUNT_COLUMNS)."""
    c = strength_counts((r.strength.value, r.kind, r.decidable) for r in reports)
    return ", ".join(f"{k} {c[k]}" for k in COUNT_COLUMNS)


def render(reports: Sequence[ClaimReport]) -> str:
    lines = [BEGIN, "", "## Verdicts (generated)", ""]
    s, n = strong_share(reports)
    other = {}
    for r in reports:
        if r.kind != "theorem":
            other.setdefault(r.kind, {}).setdefault(r.conclusion.verdict.value, 0)
            other[r.kind][r.conclusion.verdict.value] += 1
    theorems = [r for r in reports if r.kind == "theorem"]
    lines.append(f"{len(reports)} claims: {len(theorems)} theorems, " + ", ".join(
        f"{sum(v.values())} {k}s ({', '.join(f'{x} {c}' for x, c in sorted(v.items()))})" for k, v in sorted(other.items()))
        + " (definitions and fixed-dimension instances are not counted below).")
    lines.append("")
    lines.append("Theorems by strength (each in one column; `... given`: resting on the named premises; `certified on B`: "
                 "on a box smaller than the statement's domain; `step`: only a step of the proof is machine-checked):")
    lines.append("")
    c = strength_counts((r.strength.value, r.kind, r.decidable) for r in reports)
    lines += ["| " + " | ".join(COUNT_COLUMNS) + " |", "|" + "---|" * len(COUNT_COLUMNS),
              "| " + " | ".join(str(c[k]) for k in COUNT_COLUMNS) + " |", ""]
    lines.append(f"Decidable theorems whose conclusion is not refuted: {n}; of these unconditional `kernel-checked`, "
                 f"`proved` or whole-domain `certified`: {s} ({100 * s / n:.0f}%)." if n else "No decidable theorems.")
    lines.append("")
    und = [r for r in theorems if not r.decidable]
    if und:
        lines += ["### Not decidable as stated", "", "Left out of the share above; each with its reason.", "",
                  "| claim | why not decidable as stated |", "|---|---|"]
        lines += [f"| `{r.id}` | {_cell(r.undecidable, 300)} |" for r in und]
        lines.append("")
    for paper in dict.fromkeys(r.paper for r in reports):
        lines += [f"### {paper}", "", "| claim | kind | steps | conclusion | strength | evidence |",
                  "|---|---|---|---|---|---|"]
        for r in reports:
            if r.paper == paper:
                strength = "not decidable" if not r.decidable else r.strength_label
                lines.append(f"| `{r.id}` | {r.kind} | {r.steps.verdict.value} | {r.conclusion.verdict.value} | "
                             f"{_cell(strength, 200)} | {_cell(r.conclusion.evidence)} |")
        lines.append("")
    lines.append(END)
    return "\n".join(lines)


def replace_section(text: str, section: str) -> str:
    if BEGIN in text and END in text:
        head, rest = text.split(BEGIN, 1)
        _, tail = rest.split(END, 1)
        return head + section + tail
    # first time: after the introduction (before the first '## ' heading)
    i = text.find("\n## ")
    return text[: i + 1] + section + "\n" + text[i + 1:] if i >= 0 else text + "\n" + section + "\n"


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    section = render(run_proofs(progress=lambda m: print(m, file=sys.stderr)))
    if "--write" in argv:
        path = Path(argv[argv.index("--write") + 1]) if len(argv) > argv.index("--write") + 1 else \
            Path(__file__).resolve().parents[2] / "docs" / "findings.md"
        path.write_text(replace_section(path.read_text(), section))
    else:
        print(section)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
