"""The "calibrations" section of ``dpverify check``: the papers' noise vs the exact minimum.

One row per noise parameter of the source papers, at the parameters the shipped registry entries
use (``mechanisms/*_registry.py``), plus the classical Gaussian at eps = 10 (where
``lecture21-dp/lemma-6``, stated with no bound on eps, falls below the exact minimum). Each row
shows the paper's printed value (every reading the symbolic derivation records), the value derived
from the checked lemma chain (:mod:`dpverify.symbolic.derivations`), the exact minimal value where
an exact privacy profile exists (else the reason there is none), the tightness value / exact, and a
flag. Internal: the builder is :func:`check_rows`, registered by :mod:`dpverify.cli.check`.
"""
from __future__ import annotations

import enum
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from ..rounding import fmt_lower, fmt_upper
from ..tables import StreamTable
from ..registry import load_entries
from . import gaussian_profile, laplace_profile, premises
from ._api import (
    _verdict,
    covariance_laplace,
    gaussian,
    laplace,
    mi_additive_noise,
    mi_random_projection,
    random_projection,
    wishart,
)
from ._result import Calibration

__all__ = ["CALIBRATION_ROWS", "CalibrationRow", "Flag", "MEMO", "cache_file", "calibration_row", "check_rows", "flag_of",
           "registry_f2", "premise_of", "section_text",
           "record_proof_rows"]

class Flag(str, enum.Enum):
    """The verdict-like flag of a row (or of one printed reading); the value is what is printed."""

    SAFE = "safe"
    UNSAFE = "UNSAFE (below the exact minimum)"
    UNDECIDED = "undecided (within the exact bracket)"
    NO_PROFILE = "no exact profile"
    REFUTED_PREMISE = "UNSAFE (rests on a refuted claim)"


SAFE, UNSAFE, UNDECIDED, NO_PROFILE = Flag.SAFE, Flag.UNSAFE, Flag.UNDECIDED, Flag.NO_PROFILE
REFUTED_PREMISE = Flag.REFUTED_PREMISE


# -- the verdict of the claim a calibration rests on ----------------------------------------------
#
# A lemma-derived calibration is only as good as the paper claim its derivation encodes. Its verdict
# is looked up from the proof runner (``dpverify prove``), never written here: from this process's
# proof run, the shipped data, or the disk cache, each used only when it cannot be stale or edited
# (:mod:`dpverify.calibrate.premises` says exactly when), else by running the proof file now.

#: The verdict string of a refuted claim (``dpverify.symbolic`` verdict values); see ``premises.is_refuted``.
REFUTED = "refuted"
is_refuted = premises.is_refuted

MEMO: dict[str, dict] = {}  # claim ID -> {"verdict", "evidence", "source"}


def cache_file() -> Path | None:
    root = os.environ.get("DPVERIFY_CACHE_DIR")
    if root == "off":
        return None
    if not root:
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        root = os.path.join(base, "dpverify")
    return Path(root) / "proof-verdicts.json"


def _read_cache() -> dict:
    """The disk cache document; anything but a JSON object is ignored (and rewritten)."""
    path = cache_file()
    try:
        doc = json.loads(path.read_text()) if path is not None and path.is_file() else {}
    except (OSError, ValueError):  # a damaged cache is ignored (and rewritten)
        return {}
    return doc if isinstance(doc, dict) else {}


def _write_cache(paper: str, verdicts: dict, files: list[str]) -> None:
    """Store a paper's verdicts under the key of the current sources and environment, with a checksum."""
    path = cache_file()
    key = premises.cache_key(paper, files)
    if path is None or key is None:
        return
    doc = _read_cache()
    entry = {"key": key, "files": list(files), "claims": verdicts}
    entry["checksum"] = premises.checksum(entry)
    doc[paper] = entry
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")  # one per process: concurrent writers (pytest -n)
        tmp.write_text(json.dumps(doc, indent=1))
        tmp.replace(path)
    except OSError:  # a read-only home: the verdicts are still used in this process
        pass


def record_proof_rows(rows: list[dict], source: str = "dpverify prove (this run)") -> None:
    """Remember the verdicts of a proof run (rows of ``dpverify prove --json``) for the premise
    look-ups, in-process and in the disk cache. ``dpverify check`` calls it with its proof section."""
    by_paper: dict[str, dict] = {}
    for cid, v in premises.claims_of_rows(rows).items():
        MEMO[cid] = {**v, "source": source}
        by_paper.setdefault(cid.split("/", 1)[0], {})[cid] = v
    files = premises._imported_files(premises.source_roots())
    for paper, verdicts in by_paper.items():
        if premises.has_proof_file(paper):
            _write_cache(paper, verdicts, files)


def _run_paper(paper: str) -> list[dict]:
    """The claim rows of the paper's proof file, run now (``dpverify prove`` on that one file)."""
    return premises.run_paper(paper)


def _shipped(paper: str) -> tuple[dict | None, dict | None, str]:
    """(fresh shipped claims of ``paper`` or None, any shipped claims of it (even stale) or None, where)."""
    doc, fresh, why = premises.shipped_status()
    claims = (doc or {}).get("papers", {}).get(paper) if doc else None
    if doc is not None and fresh and claims:
        env = doc["environment"]
        where = (f"verdicts shipped with dpverify, computed by {premises.REGENERATE} for these sources with "
                 f"{premises._env_text(env)}; dpverify prove recomputes them here")
        return claims, claims, where
    return None, claims, why


def _from_cache(paper: str, warnings: set[str]) -> dict | None:
    """The paper's disk-cache claims when the entry has its shape, its checksum, the current key, and
    calls refuted every claim in ``warnings`` (a cached verdict never removes a known warning)."""
    entry = _read_cache().get(paper)
    if not premises.valid_cache_entry(paper, entry):
        return None
    if entry["key"] != premises.cache_key(paper, entry["files"]):
        return None
    claims = entry["claims"]
    if any(cid in claims and not is_refuted(claims[cid]["verdict"]) for cid in warnings):
        return None
    return claims


def premise_of(cal: Calibration, *, run: bool = True, announce: bool = False) -> dict | None:
    """The verdict of the paper claim a lemma-derived calibration rests on, from the proof runner.

    Returns None for calibrations computed from an exact privacy profile (no lemma chain), else
    ``{"claim", "verdict", "evidence", "source"}``; ``verdict`` is None when no proof file states
    the claim, or when no trustworthy stored verdict exists and ``run`` is False. Where a verdict
    comes from: :mod:`dpverify.calibrate.premises`. ``announce`` prints one line on stderr before
    running a proof file.
    """
    if cal.provenance.derivation is None:
        return None
    cid = cal.provenance.claim
    out = {"claim": cid, "verdict": None, "evidence": "", "source": ""}
    if cid in MEMO:
        return {"claim": cid, **MEMO[cid]}
    paper = cid.split("/", 1)[0]
    if not premises.has_proof_file(paper):
        out["source"] = f"no proof file for paper {paper!r} is installed"
        return out
    fresh, known, why = _shipped(paper)
    stored, where = fresh, why
    if stored is None:
        warnings = {c for c, v in (known or {}).items() if is_refuted(v["verdict"])}
        stored = _from_cache(paper, warnings)
        where = f"cached run of dpverify prove ({cache_file()})"
    if stored is not None:
        for claim_id, v in stored.items():
            MEMO[claim_id] = {"verdict": v["verdict"], "evidence": v["evidence"], "source": where}
        if cid in MEMO:
            return {"claim": cid, **MEMO[cid]}
        # a stored record holds every claim of the paper's proof file: no need to run it to learn that
        out["source"] = f"the proof file of {paper!r} states no claim {cid!r} ({where})"
        return out
    if not run:
        out["source"] = f"not looked up (no trustworthy stored verdict: {why}; run dpverify prove)"
        return out
    if announce:
        print(f"checking the claim this calibration rests on, {cid}, with its proof file "
              f"({premises.proof_module_name(paper)}; cached afterwards) ...", file=sys.stderr, flush=True)
    record_proof_rows(_run_paper(paper), source=f"dpverify prove ({premises.proof_module_name(paper)}), run now")
    if cid in MEMO:
        return {"claim": cid, **MEMO[cid]}
    out["source"] = f"the proof file of {paper!r} states no claim {cid!r}"
    return out


def premise_flag(cal: Calibration, premise: dict | None) -> Flag:
    """The row flag, with the premise: an exact privacy profile decides when it can (safe, or UNSAFE
    below the exact minimum: the value meets the target, or not, whatever the lemma behind it);
    where it cannot (no exact profile, or undecided), a refuted claim makes the value UNSAFE."""
    flag = flag_of(cal.safe, cal.exact_value)
    if premise is not None and is_refuted(premise.get("verdict")) and cal.safe is None:
        return REFUTED_PREMISE
    return flag

#: ``showkatbakhsh-projection`` registry entry whose first dataset gives f^2(X) for sigma_RP.
_MI_RP_ENTRY = "showkatbakhsh-projection"


@dataclass(frozen=True)
class CalibrationRow:
    """One row of the section: which registry entry, with which inputs, calibrated how."""

    registry: tuple[str, ...]  # the registry entries whose parameters these are (() when beyond the registry)
    parameters: str  # the inputs, as printed
    calibrate: Callable[[], Calibration | tuple[Calibration, str]]  # (calibration, extra note) allowed
    note: str = ""


def registry_f2(name: str = _MI_RP_ENTRY) -> tuple[float | None, str]:
    """f^2(X) of the first dataset of registry entry ``name`` and where it came from.

    ``showkatbakhsh-regression`` Section II ("Notation"): f(X) = min over columns i of
    sqrt(sum_j X_ji^2 - max_j X_ji^2); the data is ``[X | y]`` (y the last column). Returns
    ``(None, reason)`` when the entry is not registered.
    """
    import numpy as np

    for e in load_entries():
        if e.name == name:
            data = np.asarray(e.pairs()[0][0], dtype=float)
            sq = data[:, :-1] ** 2
            f2 = float(np.min(np.maximum(sq.sum(axis=0) - sq.max(axis=0), 0.0)))
            return f2, f"f^2(X) of registry entry {name!r}'s first dataset"
    return None, f"registry entry {name!r} is not loaded"


def _mi_rp() -> tuple[Calibration, str]:
    f2, source = registry_f2()
    if f2 is None:  # f^2(X) = 0 gives the largest sigma_RP eq. (13) can ask for; said in the row's note
        return mi_random_projection(0.5, n_prime=7, f2=0.0), f"{source}: f^2(X) = 0 used (the largest sigma_RP)"
    return mi_random_projection(0.5, n_prime=7, f2=f2), f"{source} = {f2!r}"


#: The rows, in order. Parameters are the registry entries' defaults (a test checks them against
#: the registry); the last row is beyond the registry.
CALIBRATION_ROWS: tuple[CalibrationRow, ...] = (
    CalibrationRow(("gaussian-classical",), "eps=1, delta=1e-5, Delta=1",
                   lambda: gaussian(1.0, 1e-5, 1.0, method="classical")),
    CalibrationRow(("gaussian-kenthapadi",), "eps=1, delta=1e-5, Delta=1",
                   lambda: gaussian(1.0, 1e-5, 1.0, method="kenthapadi")),
    CalibrationRow(("laplace-scalar",), "eps=1, delta=0, Delta=1",
                   lambda: laplace(1.0, 0.0, 1.0, method="lemma")),
    CalibrationRow(("tu-theorem1-fresh", "tu-theorem1-fixed"), "eps=1, delta=1e-5, k=5, B=sigma_p=1",
                   lambda: random_projection(1.0, 1e-5, k=5, B=1.0, sigma_p=1.0, method="theorem-1"),
                   note="exact minimum under the FRESH-P reading (P drawn per release)"),
    CalibrationRow(("tu-theorem2-fresh", "tu-theorem2-fixed"), "eps=0.5, delta=1e-5, k=5, B=sigma_p=1",
                   lambda: random_projection(0.5, 1e-5, k=5, B=1.0, sigma_p=1.0, method="theorem-2"),
                   note="exact minimum under the FRESH-P reading (P drawn per release)"),
    CalibrationRow(("jiang-laplace",), "eps=1, n=10, d=2",
                   lambda: covariance_laplace(1.0, n=10, d=2)),
    CalibrationRow(("jiang-wishart",), "eps=1, n=10, d=2",
                   lambda: wishart(1.0, n=10, d=2)),
    CalibrationRow(("showkatbakhsh-additive",), "eps=0.5 bits",
                   lambda: mi_additive_noise(0.5)),
    CalibrationRow((_MI_RP_ENTRY,), "eps=0.5 bits, n'=7, f^2(X) of the registry data",
                   _mi_rp),
    CalibrationRow((), "eps=10, delta=1e-5, Delta=1",
                   lambda: gaussian(10.0, 1e-5, 1.0, method="classical"),
                   note="beyond the registry: lecture21-dp Lemma 6 states no bound on eps"),
)


def flag_of(safe: bool | None, exact_value: float | None) -> Flag:
    """The row flag: ``safe``, ``UNSAFE (below the exact minimum)``, ``undecided ...``, ``no exact profile``."""
    if exact_value is None:
        return NO_PROFILE
    if safe is True:
        return SAFE
    if safe is False:
        return UNSAFE
    return UNDECIDED


def _reading_safe(cal: Calibration, x: float) -> bool | None:
    """Whether the printed value ``x`` meets the target, decided rigorously; None when undecided.

    Gaussian and Laplace: delta(eps) at ``x`` from the exact profile at 50 digits with its error
    bound. Random projection (fresh P): the rigorous bracket (low, high) on the exact minimum,
    delta(eps) being decreasing in sigma: x >= high (high certified safe) is safe, x < low is not.
    """
    if cal.exact_value is None:
        return None
    if x == cal.value:
        return cal.safe
    inp = cal.input_dict
    if cal.mechanism == "gaussian":
        d, err = gaussian_profile.delta_mp(inp["epsilon"], x, inp["sensitivity"])
        return _verdict(d, err, inp["delta"])
    if cal.mechanism == "laplace":
        d, err = laplace_profile.delta_mp(inp["epsilon"], x, inp["sensitivity"])
        return _verdict(d, err, inp["delta"])
    if cal.exact_bracket is not None:
        lo, hi = cal.exact_bracket
        if x >= hi:
            return True
        if x < lo:
            return False
    return None


def calibration_row(spec: CalibrationRow, run_proofs: bool = True) -> dict[str, Any]:
    out = spec.calibrate()
    cal, extra = (out, "") if isinstance(out, Calibration) else out
    note = "; ".join(n for n in (spec.note, extra) if n)
    printed = []
    for label, x in cal.comparisons:
        if not label.startswith("printed formula"):
            continue
        reading = label[len("printed formula"):].strip(" ()") or "as-printed"
        safe = _reading_safe(cal, x)
        printed.append({
            "reading": reading,
            "value": x,
            "tightness": None if cal.exact_value is None else x / cal.exact_value,
            "safe": safe,
            "flag": flag_of(safe, cal.exact_value).value,
        })
    premise = premise_of(cal, run=run_proofs)
    tight_range = None
    if cal.exact_bracket is not None:
        lo, hi = cal.exact_bracket
        tight_range = [cal.value / hi, cal.value / lo]
    return {
        "claim": cal.provenance.claim,
        "registry": list(spec.registry),
        "parameters": spec.parameters,
        "mechanism": cal.mechanism,
        "parameter": cal.parameter_name,
        "inputs": {k: v for k, v in cal.inputs},
        "paper_values": printed,
        "lemma_value": cal.value,
        "lemma_derivation": cal.provenance.derivation,
        "lemmas": list(cal.provenance.lemmas),
        "exact_value": cal.exact_value,
        "exact_bracket": list(cal.exact_bracket) if cal.exact_bracket is not None else None,
        "exact_reason": cal.exact_reason,
        "tightness": cal.tightness,
        "tightness_range": tight_range,
        "achieved_delta": cal.achieved_delta,
        "safe": cal.safe,
        "premise": premise,
        "flag": premise_flag(cal, premise).value,
        "note": note or None,
    }


def _fmt_printed(r: dict) -> str:
    parts = []
    for p in r["paper_values"]:
        s = f"{p['reading']}: {fmt_upper(p['value'])}"
        if p["tightness"] is not None:
            s += f" ({fmt_lower(p['tightness'])}{' UNSAFE' if p['safe'] is False else ''}" \
                 f"{' undecided' if p['safe'] is None else ''})"
        parts.append(s)
    return "; ".join(parts) if parts else "-"


#: (header, minimum width, flexible) of the calibration table.
_COLUMNS = [("claim [verdict]\n  parameters (registry entry)", 26, True), ("param", 8, False),
            ("paper, as printed (tightness)", 16, True), ("lemma-derived", 9, False), ("exact minimum", 20, True),
            ("tightness", 9, False), ("delta(eps) <=", 9, False)]  # the flag: a details line under the row

_NOTE = ("Noise parameters and exact minima are rounded up, tightness lower ends down; tightness = "
         "lemma-derived / exact minimum (< 1: the target is NOT met); delta(eps) <=: certified upper bound "
         "on the lemma-derived value's delta at the target eps. Random projection: exact minimum under the "
         "fresh-P reading, [rigorous bracket]. MI-DP epsilons are in bits. claim [verdict]: the verdict of "
         "the claim the lemma-derived value rests on, from dpverify prove; a refuted claim makes the value "
         "UNSAFE where no exact profile decides it.")


def _cells(r: dict, reasons: list[str]) -> list[str]:
    where = r["parameters"] + (f" ({', '.join(r['registry'])})" if r["registry"] else " (beyond the registry)")
    if r["exact_value"] is None:
        if r["exact_reason"] not in reasons:
            reasons.append(r["exact_reason"])
        exact = f"no exact profile [{reasons.index(r['exact_reason']) + 1}]"
        tight = "-"
    else:
        exact = fmt_upper(r["exact_value"])
        if r["exact_bracket"] is not None:
            exact += f" [{fmt_lower(r['exact_bracket'][0])}, {fmt_upper(r['exact_bracket'][1])}]"
        if r["tightness_range"] is not None:
            tight = f"[{fmt_lower(r['tightness_range'][0])}, {fmt_upper(r['tightness_range'][1])}]"
        else:
            tight = fmt_lower(r["tightness"])
    ach = "-" if r["achieved_delta"] is None else fmt_upper(r["achieved_delta"], 3)
    claim = r["claim"]
    if r.get("premise") and r["premise"].get("verdict"):
        claim += f" [{r['premise']['verdict']}]"
    return [f"{claim}\n  {where}", r["parameter"], _fmt_printed(r), fmt_upper(r["lemma_value"]), exact,
            tight, ach]


def _details(r: dict) -> str:
    return f"flag: {r['flag']}" + (f"; note: {r['note']}" if r.get("note") else "")


def _notes(reasons: list[str], width: int) -> str:
    import textwrap

    lines = textwrap.wrap(_NOTE, width, break_on_hyphens=False)
    for i, reason in enumerate(reasons, 1):
        lines += textwrap.wrap(f"[{i}] {reason}", width, subsequent_indent="    ", break_on_hyphens=False)
    return "\n".join(lines)


def section_text(rows: list[dict]) -> str:
    """The text of the calibration table for ``rows`` (as :func:`check_rows` returns it without ``stream``)."""
    import io

    out = io.StringIO()
    table = StreamTable(_COLUMNS, out=out)
    table.header()
    reasons: list[str] = []
    for r in rows:
        table.row(_cells(r, reasons), details=_details(r))
    return out.getvalue() + "\n" + _notes(reasons, table.width)


def check_rows(args: Any = None, *, stream: bool = False) -> tuple[list[dict], str | None]:
    """(rows as JSON-ready dicts, table text) of the "calibrations" section of ``dpverify check``.

    Deterministic (no sampling). Each lemma-derived row carries the verdict of the claim it rests
    on (:func:`premise_of`: from the proof run of this ``check``, the shipped verdicts or the cache,
    whichever :mod:`dpverify.calibrate.premises` trusts; no proof file is run from here, so without
    any the row says the verdict was not looked up). With ``stream`` the table prints on stdout row
    by row and the text returned is None. Takes a few seconds (two fresh-P projection minima).
    """
    # Verdicts come from the proof table of the same `dpverify check` (it runs first and records
    # them), the shipped data or the cache; no proof file is run from here.
    run = False
    if not stream:
        rows = [calibration_row(spec, run) for spec in CALIBRATION_ROWS]
        return rows, section_text(rows)
    table = StreamTable(_COLUMNS)
    table.header()
    rows, reasons = [], []
    for spec in CALIBRATION_ROWS:
        rows.append(calibration_row(spec, run))
        table.row(_cells(rows[-1], reasons), details=_details(rows[-1]))
    print("\n" + _notes(reasons, table.width), flush=True)
    return rows, None


def timed_check_rows(args: Any = None, *, stream: bool = False) -> tuple[list[dict], str | None, float]:
    """:func:`check_rows` and the seconds it took."""
    start = time.perf_counter()
    rows, text = check_rows(args, stream=stream)
    return rows, text, time.perf_counter() - start
