"""How a proof row's steps read next to its conclusion (the ``dpverify prove`` table and the HTML report).

A claim has two verdicts: its **conclusion** (the claim itself: kernel-checked, proved, certified,
tested, refuted, unknown) and its **steps** (the paper's own proof, step by step). A refuted step
beside a checked conclusion means the paper's proof has a wrong step while the claim holds by
another route; printed as the bare word ``refuted`` in the steps column it reads as "the claim is
refuted". :func:`steps_cell` says instead what was refuted ("1 step refuted (proof repaired)"), and
both pictures show the conclusion as the verdict and the steps as a note.
"""
from __future__ import annotations

import re
from typing import Any, Iterable

__all__ = ["steps_cell", "refuted_steps", "repaired"]

#: Conclusions that settle the claim in its favour whatever its paper's proof says.
_HOLDS = ("kernel-checked", "proved", "certified")
_REFUTED_STEP = re.compile(r": refuted(?: on [^:]*)?: ")


def repaired(conclusion: str) -> bool:
    """Whether ``conclusion`` (a verdict value) settles the claim in its favour."""
    return str(conclusion).startswith(_HOLDS)


def refuted_steps(details: Iterable[str] | None) -> int:
    """How many of a steps verdict's ``details`` (lines ``"<step>: <verdict>: <evidence>"``) are refuted."""
    return sum(1 for d in details or () if _REFUTED_STEP.search(str(d)))


def steps_cell(steps: Any, conclusion: Any, details: Iterable[str] | None = None) -> str:
    """The steps column of a proof row: the steps' verdict, except that refuted steps are counted and
    said to be steps ("2 steps refuted"), with "(proof repaired)" when the conclusion holds anyway."""
    steps, conclusion = str(steps), str(conclusion)
    if steps != "refuted":
        return steps
    n = max(refuted_steps(details), 1)
    text = f"{n} step{'s' if n > 1 else ''} refuted"
    return text + (" (proof repaired)" if repaired(conclusion) else "")
