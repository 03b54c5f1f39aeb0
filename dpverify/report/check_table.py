"""The mechanism tables of the main job (``dpverify check``): one registry entry's audit as a row, and
the rows as text.

Below both of their users: :mod:`dpverify.cli.check` streams these rows to the terminal, and
:mod:`dpverify.report.docs` writes the same tables into docs/mechanisms.md. Nothing here imports the
command line or the mechanisms package: entries come from :func:`dpverify.registry.load_entries`.

* :func:`entry_row` audits one :class:`~dpverify.registry.RegistryEntry` (neighbour search on by
  default) at the per-row confidence of the family (:func:`row_confidence`) and returns its row (a
  JSON-ready dict, the audit's ``to_dict()`` under ``"audit"``);
* :func:`mechanism_cells` / :func:`table_summary` / :func:`mechanism_table`: the text of a table;
* :func:`expected_verdict` / :func:`as_expected`: what a control's audit should say, and whether it did.
"""
from __future__ import annotations

import io
import sys
import time
from typing import Any

from ..tables import StreamTable
from ..auditing import audit
from ..auditing.neighbours import search_for
from ..errors import DPVerifyError
from ..registry import RegistryEntry
from ..rounding import fmt_lower
from .plots import PICTURE_SAMPLES, plain_loss_histogram

__all__ = ["FAMILY_ALPHA", "MECHANISM_COLUMNS", "REPORT_PICTURE_SAMPLES", "row_confidence", "family_note",
           "expected_verdict", "as_expected", "mechanism_cells", "table_summary", "mechanism_table", "section_title",
           "ordered", "entry_row", "report_histogram"]

#: The family-wise error rate of the main job: the probability that one run of ``dpverify check``
#: flags any correct mechanism anywhere in its tables is at most this (Bonferroni: each row's audit
#: runs at confidence 1 - FAMILY_ALPHA / m, m the number of registered audits, whatever ``--only``
#: selects, so that a row re-run alone gives the same verdict).
FAMILY_ALPHA = 0.05

#: Plain draws per white-box mechanism for the loss histograms of ``check --report``.
REPORT_PICTURE_SAMPLES = 5000

#: The columns of a mechanism table: (header, minimum width, flexible). The first cell holds the
#: mechanism's name and, on a second line, the paper claim it implements.
MECHANISM_COLUMNS = [("mechanism / paper claim", 24, True), ("claim (eps, delta)", 18, False),
                     ("verdict", 12, False), ("expected", 12, False), ("ok", 3, False), ("eps lower", 9, False),
                     ("samples", 7, False), ("seconds", 7, False)]


def row_confidence(m: int, family_alpha: float = FAMILY_ALPHA) -> float:
    """The per-row confidence of a table of ``m`` audits with family-wise error ``family_alpha``."""
    return 1.0 - family_alpha / max(1, int(m))


def family_note(m: int, seed: int | None = None) -> str:
    """The footer line saying at which confidence the verdicts are (``dpverify check`` and the docs)."""
    head = "" if seed is None else f"seed {seed}; "
    return (f"{head}each verdict at confidence 1 - {FAMILY_ALPHA:g}/{m} = {row_confidence(m):.6g} "
            f"(Bonferroni over the {m} registered audits): a run flags any correct mechanism "
            f"with probability at most {FAMILY_ALPHA:g}")


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
    """Whether ``verdict`` is what ``expected`` (:func:`expected_verdict`) asks; None when nothing is expected."""
    if expected is None:
        return None
    return (verdict == "violated") == (expected == "violated")


def mechanism_cells(r: dict) -> list[str]:
    """The cells of one row under :data:`MECHANISM_COLUMNS` (eps lower rounded down: it is a lower bound)."""
    exp = r.get("expected")
    ok = r.get("as_expected")
    return [f"{r['name']}\n  {r['paper']}", f"({r['claim']['epsilon']:g}, {r['claim']['delta']:g})", r["verdict"],
            "-" if exp is None else exp, "" if ok is None else ("ok" if ok else "NO"),
            fmt_lower(float(r["epsilon_lower"])), str(r["samples"]), f"{float(r['seconds']):.2f}"]


def table_summary(rows: list[dict]) -> str | None:
    """``"k/n as expected"`` (naming the rows that are not) over the rows that expect a verdict; None if none do."""
    judged = [r for r in rows if r.get("as_expected") is not None]
    if not judged:
        return None
    ok = sum(1 for r in judged if r["as_expected"])
    text = f"{ok}/{len(judged)} as expected"
    bad = [r["name"] for r in judged if not r["as_expected"]]
    return text + (f"; NOT as expected: {', '.join(bad)}" if bad else "")


def mechanism_table(rows: list[dict], *, width: int | None = None, seconds: bool = True) -> str:
    """The text of a mechanism table and its summary line; ``seconds=False`` drops the (run-dependent)
    seconds column, as the generated docs do."""
    cols = MECHANISM_COLUMNS if seconds else [c for c in MECHANISM_COLUMNS if c[0] != "seconds"]
    out = io.StringIO()
    table = StreamTable(cols, width=width, out=out)
    table.header()
    for r in rows:
        cells = mechanism_cells(r)
        table.row(cells if seconds else cells[:-1])
    summary = table_summary(rows)
    return out.getvalue().rstrip("\n") + (f"\n{summary}" if summary else "")


def section_title(section: str) -> str:
    """The title a registry section's table is printed under."""
    return "Mechanisms of the source papers" if section == "mechanisms" else f"Section: {section}"


def ordered(entries: list[RegistryEntry]) -> list[RegistryEntry]:
    """``entries`` grouped by section ("mechanisms" first), registration order inside a section."""
    order = ["mechanisms"] + [e.section for e in entries if e.section != "mechanisms"]
    rank = {sec: i for i, sec in reversed(list(enumerate(order)))}
    return sorted(entries, key=lambda e: rank[e.section])


def entry_row(e: RegistryEntry, *, seed: int, samples_scale: float = 1.0, family_size: int, search: bool = True,
              profile: bool = False) -> tuple[dict, Any, Any]:
    """Audit registry entry ``e`` as ``dpverify check`` does; returns ``(row, mechanism, result)``.

    ``samples_scale`` multiplies the entry's default samples; ``search`` runs the bounded adversarial
    neighbour search (the default pairs are certified too); ``profile`` keeps the white-box loss
    profile (for a report). The audit runs at :func:`row_confidence` ``(family_size)``."""
    samples = max(1, int(round(e.samples * samples_scale)))
    start = time.perf_counter()
    mech = e.factory()
    pairs = e.pairs()
    if search:
        pairs = search_for(mech, pairs)  # bounded budget per mechanism; default pairs certified too
    keep = {"profile": True} if profile and callable(getattr(mech, "log_density", None)) else {}
    result = audit(mech, pairs, samples=samples, rng=seed, confidence=row_confidence(family_size), **keep)
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
        "confidence": result.confidence,
        "delta_lower": result.delta_lower,
        "samples": samples,
        "seconds": seconds,
        "method": result.method,
        "pair_index": result.pair_index,
        "direction": result.direction,
        "search": result.search,
        "reproduce": f"dpverify check --only {e.name} --seed {seed}"
                     + (f" --samples-scale {samples_scale!r}" if samples_scale != 1 else "")
                     + ("" if search else " --no-search"),
        "audit": result.to_dict(),
    }
    return row, mech, result


def report_histogram(mech, result, seed: int, samples: int | None = None) -> dict | None:
    """The loss histogram of a separate plain sample on the pair and direction that gave the bound
    (for a report's picture; never used by the verdict). None, with a line on stderr, when the draws fail."""
    x, y = result.pair if result.direction == "D->D'" else (result.pair[1], result.pair[0])
    try:
        return plain_loss_histogram(mech, x, y, samples=samples or PICTURE_SAMPLES, seed=seed)
    except (DPVerifyError, ValueError, FloatingPointError) as exc:
        print(f"dpverify: no plain loss histogram for the report: {exc}", file=sys.stderr)
        return None
