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

from .verdicts import ClaimReport, ProofVerdict

__all__ = ["BEGIN", "END", "render", "replace_section", "strong_share"]

BEGIN = "<!-- BEGIN GENERATED VERDICTS (python -m dpverify.symbolic.findings --write) -->"
END = "<!-- END GENERATED VERDICTS -->"
STRONG = (ProofVerdict.PROVED, ProofVerdict.CERTIFIED)


def _cell(text: str, width: int = 150) -> str:
    text = " ".join(str(text).split()).replace("|", "\\|")
    return text if len(text) <= width else text[: width - 3] + "..."


def strong_share(reports: Sequence[ClaimReport]) -> tuple[int, int]:
    """(theorems kernel-checked, proved or certified, theorems whose conclusion is not refuted) -- the issue's
    acceptance ratio.

    Only ``kind == "theorem"`` counts: definitions and fixed-dimension instances are excluded from both."""
    thm = [r for r in reports if r.kind == "theorem" and r.conclusion.verdict is not ProofVerdict.REFUTED]
    strong = [r for r in thm if r.conclusion.verdict in STRONG or getattr(r.conclusion.verdict, "value", "") ==
              "kernel-checked"]
    return len(strong), len(thm)


def render(reports: Sequence[ClaimReport]) -> str:
    lines = [BEGIN, "", "## Verdicts (generated)", ""]
    counts: dict[tuple[str, str], int] = {}
    for r in reports:
        key = (r.kind, r.conclusion.verdict.value)
        counts[key] = counts.get(key, 0) + 1
    s, n = strong_share(reports)
    lines.append(f"{len(reports)} claims. Conclusions by kind: " + "; ".join(
        f"{kind}: " + ", ".join(f"{v} {c}" for (k, v), c in sorted(counts.items()) if k == kind)
        for kind in ("theorem", "definition", "instance") if any(k == kind for k, _ in counts)) + ".")
    lines.append(f"Theorems whose conclusion is not refuted: {n}; of these `kernel-checked`, `proved` or "
                 f"`certified`: {s} "
                 f"({100 * s / n:.0f}%)." if n else "No theorems.")
    lines.append("")
    for paper in dict.fromkeys(r.paper for r in reports):
        lines += [f"### {paper}", "", "| claim | kind | steps | conclusion | evidence |", "|---|---|---|---|---|"]
        for r in reports:
            if r.paper == paper:
                lines.append(f"| `{r.id}` | {r.kind} | {r.steps.verdict.value} | {r.conclusion.verdict.value} | "
                             f"{_cell(r.conclusion.evidence)} |")
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
    from .runner import run_proofs

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
