"""The accountant's epsilon(delta) curves per method, as data, SVG (HTML report) and PNG (``--plot``).

:func:`account_curves` evaluates every composition method on one composed event over a grid of
delta (the user's deltas included): each method's certified upper bound, and the PLD's certified
upper bound together with its lower bound (the true epsilon(delta) lies between the two PLD
curves). A method that does not support the events is listed with the reason, not drawn.
Only the public functions of :mod:`dpverify.accounting.curves` are called.
"""
from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from ..accounting import Method
from ..accounting.curves import epsilon_curve, pld_bounds
from ..errors import UnsupportedEvent
from .plots import pyplot, save_figure
from .svg import escape as _e
from .svg import fmt_tick as _fmt_tick
from .svg import log_ticks, nice_ticks, text_width

__all__ = ["account_curves", "delta_grid", "svg_epsilon_curves", "plot_account", "save_account_plot"]

#: Points of the delta grid (log-spaced) before the user's deltas are added.
GRID_POINTS = 13
_COLORS = {"basic": "#8c564b", "advanced": "#9467bd", "kov": "#e377c2", "rdp": "#ff7f0e", "pld": "#1f77b4"}


def delta_grid(deltas) -> np.ndarray:
    """A log-spaced grid of delta covering the user's ``deltas`` with three decades below the
    smallest and up to 0.1 (or ten times the largest), the user's deltas included exactly."""
    ds = np.asarray(deltas, dtype=float).ravel()
    lo = max(float(ds.min()) / 1e3, 1e-300)
    hi = min(max(float(ds.max()) * 10, 0.1), 0.5)
    return np.union1d(np.logspace(math.log10(lo), math.log10(hi), GRID_POINTS), ds)


def account_curves(event, deltas, methods=None) -> dict:
    """epsilon(delta) per method on the grid :func:`delta_grid` ``(deltas)``.

    Returns ``{"deltas": [...], "grid": [...], "curves": [{"method", "epsilon": [...] or None,
    "unsupported": str or None, "seconds"}], "pld": {"upper", "lower"} or None}``. Every
    ``epsilon`` is a certified upper bound (``inf`` where the method certifies nothing); the PLD's
    ``lower`` is a lower bound on the true epsilon(delta)."""
    grid = delta_grid(deltas)
    methods = list(Method) if methods is None else list(methods)
    out: dict[str, Any] = {"deltas": [float(d) for d in np.asarray(deltas, dtype=float).ravel()],
                           "grid": grid.tolist(), "curves": [], "pld": None}
    for m in methods:
        t0 = time.perf_counter()
        try:
            if m is Method.PLD:
                b = pld_bounds(event, grid)
                eps = np.asarray(b.upper, dtype=float)
                out["pld"] = {"upper": eps.tolist(), "lower": np.asarray(b.lower, dtype=float).tolist()}
            else:
                eps = np.asarray(epsilon_curve(event, grid, m), dtype=float)
            out["curves"].append({"method": m.value, "epsilon": eps.tolist(), "unsupported": None,
                                  "seconds": time.perf_counter() - t0})
        except UnsupportedEvent as exc:
            out["curves"].append({"method": m.value, "epsilon": None, "unsupported": str(exc),
                                  "seconds": time.perf_counter() - t0})
    return out


def _finite_pos(values) -> list[float]:
    return [float(v) for v in values if v is not None and math.isfinite(float(v)) and float(v) > 0]


def _y_scale(curves: dict) -> tuple[float, float, bool]:
    """(bottom, top, log): log when the finite values shown span more than a factor 30."""
    vals = []
    for c in curves["curves"]:
        if c["epsilon"] is not None:
            vals += _finite_pos(c["epsilon"])
    if curves.get("pld"):
        vals += _finite_pos(curves["pld"]["lower"])
    if not vals:
        return 0.0, 1.0, False
    lo, hi = min(vals), max(vals)
    if hi / lo > 30:
        return lo / 1.5, hi * 1.5, True
    return 0.0, hi * 1.1, False


def svg_epsilon_curves(curves: dict, *, title: str) -> str:
    """Inline SVG: epsilon(delta) per method (log delta axis), the PLD upper and lower bounds with
    the band between them shaded, the user's deltas as dotted verticals. Values that a method does
    not certify (``inf``) are not drawn; the legend says so."""
    grid = [float(d) for d in curves["grid"]]
    ybot, ytop, ylog = _y_scale(curves)
    left, right, top_pad, bottom = 60, 20, 26, 44
    notes = [f"{c['method']}: finite at 99/99 deltas" for c in curves["curves"]] + ["pld lower bound (dashed)"]
    legend_w = max(190, int(max(text_width(t, 10) for t in notes)) + 40)  # the legend's texts fit inside
    width, height = 510 + legend_w, 320
    pw, ph = width - left - right - legend_w, height - top_pad - bottom
    lx0, lx1 = math.log10(grid[0]), math.log10(grid[-1])
    X = lambda d: left + pw * (math.log10(d) - lx0) / ((lx1 - lx0) or 1)  # noqa: E731

    def Y(v: float) -> float:
        if ylog:
            f = (math.log10(max(v, ybot)) - math.log10(ybot)) / (math.log10(ytop) - math.log10(ybot))
        else:
            f = (v - ybot) / ((ytop - ybot) or 1)
        return top_pad + ph * (1 - min(max(f, 0.0), 1.0))

    def ok(v) -> bool:
        return v is not None and math.isfinite(float(v)) and (float(v) > 0 or not ylog)

    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' role='img' "
             f"aria-label='{_e(title)}'>",
             f"<rect x='0' y='0' width='{width}' height='{height}' fill='white'/>",
             f"<text x='{left}' y='16' font-size='12' font-weight='600'>{_e(title)}</text>"]
    pld = curves.get("pld")
    if pld:
        pts = [(d, u, lo) for d, u, lo in zip(grid, pld["upper"], pld["lower"]) if ok(u) and ok(lo)]
        if pts:
            poly = " ".join(f"{X(d):.1f},{Y(u):.1f}" for d, u, _ in pts) + " " + \
                " ".join(f"{X(d):.1f},{Y(lo):.1f}" for d, _, lo in reversed(pts))
            parts.append(f"<polygon points='{poly}' fill='{_COLORS['pld']}' fill-opacity='0.18' stroke='none'/>")
            parts.append("<polyline points='" + " ".join(f"{X(d):.1f},{Y(lo):.1f}" for d, _, lo in pts) +
                         f"' fill='none' stroke='{_COLORS['pld']}' stroke-width='2' stroke-dasharray='5 3'/>")
    legend = []
    for c in curves["curves"]:
        color = _COLORS.get(c["method"], "#444")
        if c["epsilon"] is None:
            legend.append((color, f"{c['method']}: unsupported", None))
            continue
        pts = [(d, e) for d, e in zip(grid, c["epsilon"]) if ok(e)]
        if len(pts) < len(grid):
            note = f"{c['method']}: finite at {len(pts)}/{len(grid)} deltas"
        else:
            note = c["method"] + (" upper bound" if c["method"] == "pld" else "")
        legend.append((color, note, "solid"))
        if pts:
            parts.append("<polyline points='" + " ".join(f"{X(d):.1f},{Y(e):.1f}" for d, e in pts) +
                         f"' fill='none' stroke='{color}' stroke-width='2'/>")
            for d, e in pts:
                parts.append(f"<circle cx='{X(d):.1f}' cy='{Y(e):.1f}' r='2' fill='{color}'/>")
    if pld:
        legend.append((_COLORS["pld"], "pld lower bound (dashed)", "dash"))
    for d in curves["deltas"]:
        parts.append(f"<line x1='{X(d):.1f}' x2='{X(d):.1f}' y1='{top_pad}' y2='{top_pad + ph}' stroke='#777' "
                     "stroke-dasharray='2 3'/>")
    # axes and ticks
    parts.append(f"<line x1='{left}' x2='{left}' y1='{top_pad}' y2='{top_pad + ph}' stroke='#444'/>")
    parts.append(f"<line x1='{left}' x2='{left + pw}' y1='{top_pad + ph}' y2='{top_pad + ph}' stroke='#444'/>")
    a, b = math.floor(lx0), math.ceil(lx1)
    step = max(1, (b - a) // 6)
    for k in range(a, b + 1, step):
        if lx0 - 1e-9 <= k <= lx1 + 1e-9:
            parts.append(f"<text x='{X(10.0 ** k):.1f}' y='{top_pad + ph + 13}' font-size='9' "
                         f"text-anchor='middle'>1e{k}</text>")
    ticks = log_ticks(ybot, ytop) if ylog else nice_ticks(ybot, ytop)
    for t in ticks:
        parts.append(f"<text x='{left - 4}' y='{Y(t) + 3:.1f}' font-size='9' text-anchor='end'>{_fmt_tick(t)}</text>")
    parts.append(f"<text x='{left + pw / 2}' y='{height - 8}' font-size='11' text-anchor='middle'>delta "
                 "(log scale; dotted: the deltas asked for)</text>")
    parts.append(f"<text x='14' y='{top_pad + ph / 2}' font-size='11' text-anchor='middle' "
                 f"transform='rotate(-90 14 {top_pad + ph / 2})'>epsilon{' (log scale)' if ylog else ''}</text>")
    lx = left + pw + 14
    for i, (color, text, style) in enumerate(legend):
        y = top_pad + 6 + i * 16
        if style is not None:
            dash = " stroke-dasharray='5 3'" if style == "dash" else ""
            parts.append(f"<line x1='{lx}' x2='{lx + 18}' y1='{y}' y2='{y}' stroke='{color}' stroke-width='2'{dash}/>")
        parts.append(f"<text x='{lx + 24}' y='{y + 4}' font-size='10'>{_e(text)}</text>")
    parts.append("</svg>")
    return "".join(parts)


def plot_account(curves: dict):
    """A matplotlib Figure of :func:`account_curves`' output (same content as the SVG)."""
    plt = pyplot()
    fig, ax = plt.subplots(figsize=(7.5, 4.0))
    grid = np.asarray(curves["grid"], dtype=float)
    pld = curves.get("pld")
    if pld:
        up, lo = np.asarray(pld["upper"], dtype=float), np.asarray(pld["lower"], dtype=float)
        keep = np.isfinite(up) & np.isfinite(lo)
        ax.fill_between(grid[keep], lo[keep], up[keep], color=_COLORS["pld"], alpha=0.18,
                        label="true epsilon(delta) lies in this band (PLD)")
        ax.plot(grid[keep], lo[keep], "--", color=_COLORS["pld"], label="pld lower bound")
    unsupported = []
    for c in curves["curves"]:
        if c["epsilon"] is None:
            unsupported.append(c["method"])
            continue
        eps = np.asarray(c["epsilon"], dtype=float)
        keep = np.isfinite(eps)
        label = c["method"] + (" upper bound" if c["method"] == "pld" else "")
        if keep.sum() < grid.size:
            label += f" (finite at {int(keep.sum())}/{grid.size} deltas)"
        ax.plot(grid[keep], eps[keep], "o-", ms=3, color=_COLORS.get(c["method"]), label=label)
    for d in curves["deltas"]:
        ax.axvline(d, color="grey", ls=":", lw=1)
    ybot, ytop, ylog = _y_scale(curves)
    ax.set_xscale("log")
    if ylog:
        ax.set_yscale("log")
    ax.set_ylim(ybot if ylog else 0.0, ytop)
    ax.set_xlabel("delta (dotted: the deltas asked for)")
    ax.set_ylabel("epsilon (certified upper bounds)")
    title = "epsilon(delta) per composition method"
    if unsupported:
        title += "; unsupported: " + ", ".join(unsupported)
    ax.set_title(title, fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


def save_account_plot(curves: dict, path: Any, *, dpi: int = 90) -> None:
    """Render :func:`plot_account` to ``path`` (format from the extension)."""
    save_figure(plot_account(curves), path, dpi=dpi)
