"""Plots of a white-box audit: the privacy-loss distribution and the delta(eps) curve.

Both need the per-direction profile that ``dpverify.audit(..., profile=True)`` keeps (a loss
histogram and delta(eps) on a grid with pointwise confidence bounds).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..errors import DPVerifyError, InvalidArgument

__all__ = ["plot_audit", "save_audit_plot", "delta_axis_floor"]


def _pyplot():
    try:
        import matplotlib
    except ImportError:
        raise DPVerifyError(
            "plotting needs matplotlib, the optional extra `plot`: pip install 'dpverify[plot]'."
        ) from None
    import sys

    if "matplotlib.pyplot" not in sys.modules:
        matplotlib.use("Agg")  # headless unless the caller already chose a backend
    import matplotlib.pyplot as plt

    return plt


def _profiles(result: Any) -> list:
    dirs = getattr(result, "directions", None)
    if dirs is None:
        raise InvalidArgument(f"result={type(result).__name__} is not an AuditResult.")
    out = [d for d in dirs if "profile" in d.extra]
    if not out:
        raise InvalidArgument(
            "result has no loss profile to plot; re-run the audit with profile=True "
            "(dpverify.audit(..., profile=True), or `dpverify audit ... --plot FILE`)."
        )
    return out


def delta_axis_floor(claim_delta: float, *curves) -> float:
    """The bottom of a log delta axis: a tenth of the smallest positive value shown (the claim's
    delta, the estimate, the band); 1e-6 when nothing is positive. A delta = 0 claim no longer drags
    the axis down to 1e-300."""
    pos = [float(claim_delta)] if claim_delta > 0 else []
    for c in curves:
        c = np.asarray(c, dtype=float)
        c = c[np.isfinite(c) & (c > 0)]
        if c.size:
            pos.append(float(c.min()))
    return max(min(pos) / 10, 1e-300) if pos else 1e-6


def plot_audit(result: Any, *, direction: int | None = None):
    """A matplotlib Figure with two panels for one direction (default: the one that gave the bound).

    Left: histogram of the positive privacy losses, with the claimed eps and the certified
    eps_lower marked. Right: the estimated delta(eps) with its pointwise confidence band, the
    claimed point (eps, delta) and the certified (eps_lower, delta) point.
    """
    plt = _pyplot()
    profs = _profiles(result)
    if direction is None:
        pick = [d for d in profs if d.pair_index == result.pair_index and d.direction == result.direction]
        d = pick[0] if pick else profs[0]
    else:
        if not (isinstance(direction, int) and 0 <= direction < len(result.directions)):
            raise InvalidArgument(f"direction={direction!r} must index result.directions (0..{len(result.directions) - 1}).")
        d = result.directions[direction]
        if "profile" not in d.extra:
            raise InvalidArgument(f"direction={direction} has no profile; re-run with profile=True.")
    p = d.extra["profile"]
    claim = result.claim
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9.0, 3.4))
    counts, edges = np.asarray(p["histogram_counts"]), np.asarray(p["histogram_edges"])
    if counts.size:
        ax1.stairs(counts / p["histogram_total"], edges, fill=True, alpha=0.6, color="tab:blue")
    ax1.axvline(claim.epsilon, color="tab:red", ls="--", label=f"claimed eps = {claim.epsilon:g}")
    if math.isfinite(d.epsilon_lower) and d.epsilon_lower > 0:
        ax1.axvline(d.epsilon_lower, color="black", ls=":", label=f"eps_lower = {d.epsilon_lower:.4g}")
    ax1.set_xlabel("privacy loss L")
    ax1.set_ylabel("fraction of draws")
    ax1.set_title("privacy-loss distribution (" + p["histogram_note"] + ")", fontsize=8)
    ax1.legend(fontsize=7)
    eps = np.asarray(p["epsilon"])
    est = np.asarray(p["delta_estimate"])
    lo = np.asarray(p["delta_lower"])
    floor = delta_axis_floor(claim.delta, est, lo, np.asarray(p["delta_upper"]) if p.get("delta_upper") is not None else est)
    ax2.plot(eps, np.maximum(est, floor), color="tab:blue", label="estimate of delta(eps)")
    up = p.get("delta_upper")
    upper = np.maximum(np.asarray(up), floor) if up is not None else np.maximum(est, floor)
    ax2.fill_between(eps, np.maximum(lo, floor), upper, color="tab:blue", alpha=0.25,
                     label=f"pointwise band, level {p['band_level']:.4g}" + ("" if up is not None else " (lower side)"))
    ax2.plot([claim.epsilon], [max(claim.delta, floor)], "o", color="tab:red", label="claim (eps, delta)")
    if math.isfinite(d.epsilon_lower) and d.epsilon_lower > 0:
        ax2.plot([d.epsilon_lower], [max(claim.delta, floor)], "x", color="black", label="(eps_lower, delta)")
    ax2.set_yscale("log")
    ax2.set_xlabel("eps")
    ax2.set_ylabel("delta(eps)")
    ax2.set_title(f"{result.verdict.value} at confidence {result.confidence:g} (pair {d.pair_index} {d.direction})",
                  fontsize=8)
    ax2.legend(fontsize=7)
    fig.tight_layout()
    return fig


def save_audit_plot(result: Any, path: Any, *, direction: int | None = None, dpi: int = 90) -> None:
    """Render :func:`plot_audit` to ``path`` (format from the extension, e.g. .png, .svg, .pdf)."""
    plt = _pyplot()
    fig = plot_audit(result, direction=direction)
    try:
        fig.savefig(path, dpi=dpi)
    finally:
        plt.close(fig)
