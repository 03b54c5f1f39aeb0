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
import time
from dataclasses import dataclass
from typing import Any, Callable

from .._format import fmt_lower, fmt_upper
from . import _gaussian, _laplace
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

__all__ = ["CALIBRATION_ROWS", "CalibrationRow", "Flag", "check_rows", "flag_of", "registry_f2"]

class Flag(str, enum.Enum):
    """The verdict-like flag of a row (or of one printed reading); the value is what is printed."""

    SAFE = "safe"
    UNSAFE = "UNSAFE (below the exact minimum)"
    UNDECIDED = "undecided (within the exact bracket)"
    NO_PROFILE = "no exact profile"


SAFE, UNSAFE, UNDECIDED, NO_PROFILE = Flag.SAFE, Flag.UNSAFE, Flag.UNDECIDED, Flag.NO_PROFILE

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

    from ..registry import load_entries

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
        d, err = _gaussian.delta_mp(inp["epsilon"], x, inp["sensitivity"])
        return _verdict(d, err, inp["delta"])
    if cal.mechanism == "laplace":
        d, err = _laplace.delta_mp(inp["epsilon"], x, inp["sensitivity"])
        return _verdict(d, err, inp["delta"])
    if cal.exact_bracket is not None:
        lo, hi = cal.exact_bracket
        if x >= hi:
            return True
        if x < lo:
            return False
    return None


def _row(spec: CalibrationRow) -> dict[str, Any]:
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
        "flag": flag_of(cal.safe, cal.exact_value).value,
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


def _text(rows: list[dict]) -> str:
    from ..cli._common import table

    headers = ["claim", "param", "parameters (registry entry)", "paper, as printed (tightness)",
               "lemma-derived", "exact minimum", "tightness", "delta(eps) <=", "flag"]
    body, reasons = [], []
    for r in rows:
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
        body.append([r["claim"], r["parameter"], where, _fmt_printed(r), fmt_upper(r["lemma_value"]), exact,
                     tight, ach, r["flag"]])
    text = table(headers, body)
    notes = ["Noise parameters and exact minima are rounded up, tightness lower ends down; tightness = "
             "lemma-derived / exact minimum (< 1: the target is NOT met); delta(eps) <=: certified upper bound "
             "on the lemma-derived value's delta at the target eps. Random projection: exact minimum under the "
             "fresh-P reading, [rigorous bracket]. MI-DP epsilons are in bits."]
    notes += [f"[{i}] {reason}" for i, reason in enumerate(reasons, 1)]
    return text + "\n\n" + "\n".join(notes)


def check_rows(args: Any = None) -> tuple[list[dict], str]:
    """(rows as JSON-ready dicts, table text) of the "calibrations" section of ``dpverify check``.

    Deterministic (no sampling). Prints nothing; ``args`` is accepted for the builder protocol of
    ``dpverify check`` and not used. Takes a few seconds (two fresh-P projection minima).
    """
    rows = [_row(spec) for spec in CALIBRATION_ROWS]
    return rows, _text(rows)


def timed_check_rows(args: Any = None) -> tuple[list[dict], str, float]:
    """:func:`check_rows` and the seconds it took."""
    start = time.perf_counter()
    rows, text = check_rows(args)
    return rows, text, time.perf_counter() - start
