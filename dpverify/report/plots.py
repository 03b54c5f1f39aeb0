"""Plots of a white-box audit: the privacy-loss distribution and the delta(eps) curve.

Both need the per-direction profile that ``dpverify.audit(..., profile=True)`` keeps (a loss
histogram and delta(eps) on a grid with pointwise confidence bounds).

The privacy-loss histogram is drawn from **plain draws** o ~ M(D) only. Given the ``mechanism``,
:func:`plain_loss_histogram` draws a separate sample of :data:`PICTURE_SAMPLES` outputs for the
picture (seeded, so the picture is reproducible) and histograms *all* their finite losses, so the
histogram's mean is the sample mean of the loss. Without the mechanism, the audit's own histogram
is drawn when its draws were plain (losses > 0 only, as the audit kept them); an importance-sampled
histogram is not the loss distribution and is not drawn (the panel says why).
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ..rounding import fmt_lower
from ..errors import DPVerifyError, InvalidArgument

__all__ = ["plot_audit", "save_audit_plot", "save_figure", "pyplot", "delta_axis_floor", "plain_loss_histogram",
           "PICTURE_SAMPLES"]

#: Plain draws made for the loss histogram of a picture (not used by any verdict).
PICTURE_SAMPLES = 20_000
HISTOGRAM_BINS = 60


def pyplot():
    """matplotlib.pyplot, headless (Agg) unless the caller chose a backend; DPVerifyError without matplotlib."""
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


def _pick(result: Any, direction: int | None):
    profs = _profiles(result)
    if direction is None:
        pick = [d for d in profs if d.pair_index == result.pair_index and d.direction == result.direction]
        return pick[0] if pick else profs[0]
    if not (isinstance(direction, int) and 0 <= direction < len(result.directions)):
        raise InvalidArgument(f"direction={direction!r} must index result.directions (0..{len(result.directions) - 1}).")
    d = result.directions[direction]
    if "profile" not in d.extra:
        raise InvalidArgument(f"direction={direction} has no profile; re-run with profile=True.")
    return d


def plain_loss_histogram(mechanism: Any, data: Any, data_prime: Any, *, samples: int = PICTURE_SAMPLES,
                         seed: int = 0, bins: int = HISTOGRAM_BINS) -> dict:
    """Histogram of the privacy loss L = log p_D(o) - log p_D'(o) of ``samples`` plain draws o ~ M(data).

    Returns ``{"counts", "edges", "samples", "finite", "plus_infinite", "minus_infinite", "mean",
    "seed", "note"}``: ``counts`` over all finite losses (``counts.sum() == finite``), ``mean`` the
    sample mean of the finite losses (the histogram's mean up to half a bin)."""
    from ..auditing.whitebox import privacy_losses  # deferred: scipy -- only a picture with plain draws pays it

    losses = np.asarray(privacy_losses(mechanism, data, data_prime, samples, rng=seed), dtype=float)
    fin = np.isfinite(losses)
    finite = losses[fin]
    if finite.size:
        lo, hi = float(finite.min()), float(finite.max())
        if hi - lo < 1e-12:
            lo, hi = lo - 0.5, hi + 0.5
        counts, edges = np.histogram(finite, bins=bins, range=(lo, hi))
    else:
        counts, edges = np.zeros(0, dtype=int), np.zeros(0)
    plus = int(np.sum(losses == np.inf))
    minus = int(np.sum(losses == -np.inf))
    return {"counts": counts.tolist(), "edges": edges.tolist(), "samples": int(losses.size), "finite": int(finite.size),
            "plus_infinite": plus, "minus_infinite": minus, "mean": float(finite.mean()) if finite.size else None,
            "seed": int(seed),
            "note": f"{losses.size} plain draws from M(D) made for this picture (seed {seed})"
                    + (f"; L = +inf in {plus}" if plus else "") + (f"; L = -inf in {minus}" if minus else "")}


def plot_audit(result: Any, *, direction: int | None = None, mechanism: Any = None,
               picture_samples: int = PICTURE_SAMPLES, seed: int = 0):
    """A matplotlib Figure with two panels for one direction (default: the one that gave the bound).

    Left: histogram of the privacy loss -- from :func:`plain_loss_histogram` (``picture_samples``
    plain draws, ``seed``) when ``mechanism`` is given and the direction is on ``result.pair``; else
    the audit's own histogram of positive losses when its draws were plain; else (importance
    sampling) no histogram, and the panel says why. The claimed eps and the certified eps_lower are
    marked. Right: the estimated delta(eps) with its pointwise confidence band, the claimed point
    (eps, delta) and the certified (eps_lower, delta) point; the log axis starts a decade below the
    smallest positive value shown (:func:`delta_axis_floor`).
    """
    plt = pyplot()
    d = _pick(result, direction)
    p = d.extra["profile"]
    claim = result.claim
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(9.0, 3.4))
    importance = "importance" in str(p.get("histogram_note", ""))
    plain = None
    if mechanism is not None and d.pair_index == result.pair_index:
        x, y = result.pair if d.direction == "D->D'" else (result.pair[1], result.pair[0])
        plain = plain_loss_histogram(mechanism, x, y, samples=picture_samples, seed=seed)
    if plain is not None and plain["counts"]:
        ax1.stairs(np.asarray(plain["counts"]) / plain["samples"], np.asarray(plain["edges"]), fill=True, alpha=0.6,
                   color="tab:blue")
        title = "privacy-loss distribution: " + plain["note"] + (
            "\n(the audit importance-sampled; these draws are separate)" if importance else "")
    elif not importance and np.asarray(p["histogram_counts"]).size:
        ax1.stairs(np.asarray(p["histogram_counts"]) / p["histogram_total"], np.asarray(p["histogram_edges"]),
                   fill=True, alpha=0.6, color="tab:blue")
        title = "privacy-loss distribution (the audit's plain draws: " + p["histogram_note"] + ")"
    else:
        ax1.text(0.5, 0.5, "no histogram: the audit importance-sampled its outputs,\nso its losses are not the "
                 "loss distribution;\npass mechanism= (the CLI does) for plain draws", ha="center", va="center",
                 transform=ax1.transAxes, fontsize=8)
        title = "privacy-loss distribution: not drawn"
    ax1.axvline(claim.epsilon, color="tab:red", ls="--", label=f"claimed eps = {claim.epsilon:g}")
    if math.isfinite(d.epsilon_lower) and d.epsilon_lower > 0:
        ax1.axvline(d.epsilon_lower, color="black", ls=":", label=f"eps_lower = {fmt_lower(d.epsilon_lower)}")
    ax1.set_xlabel("privacy loss L")
    ax1.set_ylabel("fraction of draws")
    ax1.set_title(title, fontsize=7)
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
    ax2.set_ylim(bottom=floor)
    ax2.set_xlabel("eps")
    ax2.set_ylabel("delta(eps)" + (" (claim delta = 0 drawn on the floor)" if claim.delta == 0 else ""))
    ax2.set_title(f"{result.verdict.value} at confidence {result.confidence:g} (pair {d.pair_index} {d.direction})",
                  fontsize=8)
    ax2.legend(fontsize=7)
    fig.tight_layout()
    return fig


def save_audit_plot(result: Any, path: Any, *, direction: int | None = None, dpi: int = 90, mechanism: Any = None,
                    picture_samples: int = PICTURE_SAMPLES, seed: int = 0) -> None:
    """Render :func:`plot_audit` to ``path`` (format from the extension, e.g. .png, .svg, .pdf)."""
    save_figure(plot_audit(result, direction=direction, mechanism=mechanism, picture_samples=picture_samples,
                           seed=seed), path, dpi=dpi)


def save_figure(fig: Any, path: Any, *, dpi: int = 90) -> None:
    """Write a matplotlib figure to ``path`` (format from the extension) and close it, even if writing fails."""
    plt = pyplot()
    try:
        fig.savefig(path, dpi=dpi)
    finally:
        plt.close(fig)
