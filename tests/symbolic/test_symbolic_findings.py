"""docs/findings.md carries a generated verdict section that must match the verdicts (no hand-kept numbers).

Deterministic (proof files use fixed seeds): no false-failure rate to state. The full regeneration runs
every proof file (minutes), so it is ``slow``; the default suite checks the section's internal consistency
(its counts agree with its own rows) and the renderer on a small report list.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from dpverify.symbolic import ClaimReport, run_proofs
from dpverify.symbolic.findings import BEGIN, END, render, replace_section, strong_share
from dpverify.symbolic import proof as _proof

DOC = Path(__file__).resolve().parents[2] / "docs" / "findings.md"


def _section(text: str) -> str:
    assert BEGIN in text and END in text, "docs/findings.md lacks the generated verdict section"
    return BEGIN + text.split(BEGIN, 1)[1].split(END, 1)[0] + END


def test_generated_section_is_self_consistent():
    sec = _section(DOC.read_text())
    # the strength cell may hold escaped bars (\|): a cell is any run of non-bars and escaped characters
    rows = re.findall(r"^\| `([^`]+)` \| (\w+) \| ([\w-]+) \| ([\w-]+) \| ((?:[^|\\]|\\.)*) \|", sec, flags=re.M)
    assert rows
    head = re.search(r"^(\d+) claims: (\d+) theorems", sec, flags=re.M)
    assert head and int(head.group(1)) == len(rows)
    thm = [r for r in rows if r[1] == "theorem"]
    assert int(head.group(2)) == len(thm)
    m = re.search(r"not refuted: (\d+); of these unconditional `kernel-checked`, `proved` or whole-domain `certified`: "
                  r"(\d+)", sec)
    decidable = [r for r in thm if r[4].strip() != "not decidable" and r[3] != "refuted"]
    strong = [r for r in decidable if r[4].strip() in ("proved", "certified", "kernel-checked")]
    assert m and (int(m.group(1)), int(m.group(2))) == (len(decidable), len(strong))
    undecidable = re.findall(r"^\| `([^`]+)` \| [^|]+ \|$", sec.split("### Not decidable as stated", 1)[1].split("###", 1)[0],
                             flags=re.M)
    assert sorted(undecidable) == sorted(r[0] for r in thm if r[4].strip() == "not decidable")


def test_render_counts_only_theorems():
    reps = [ClaimReport("p/a", "a", steps=_proof.proved("x"), conclusion=_proof.proved("x")),
            ClaimReport("p/b", "b", steps=_proof.proved("x"), conclusion=_proof.proved("x"), kind="definition"),
            ClaimReport("p/c", "c", steps=_proof.tested("x"), conclusion=_proof.tested("x")),
            ClaimReport("p/d", "d", steps=_proof.tested("x"), conclusion=_proof.refuted("x", {"v": "1"}))]
    assert strong_share(reps) == (1, 2)
    text = render(reps)
    assert "of these unconditional `kernel-checked`, `proved` or whole-domain `certified`: 1 (50%)" in text
    assert replace_section("intro\n## A\n", text).startswith("intro\n" + BEGIN)


@pytest.mark.slow
def test_findings_section_matches_the_verdicts():
    assert _section(DOC.read_text()) == render(run_proofs())
