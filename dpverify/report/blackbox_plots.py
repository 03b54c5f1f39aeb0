"""Black-box audits, plotted: per event, its frequency on the two datasets with confidence intervals.

A black-box audit certifies a violation with one event E: ``P_first(E) >= p1`` and
``P_second(E) <= p2`` (one-sided Clopper-Pearson bounds at the event's level), and the claim allows
``P_first(E) <= e^eps P_second(E) + delta``. For each event certified (direction ``D->D'``: first = D,
second = D'; ``D'->D``: the reverse) the picture shows

* the observed frequency on the first dataset with its interval ``[p1, upper]`` (blue), and on the
  second with ``[lower, p2]`` (orange) -- the certified ends ``p1`` and ``p2`` are the audit's own, the
  other ends the Clopper-Pearson bounds at the same level;
* a black tick at ``e^eps p2 + delta``: the largest ``P_first(E)`` the claim allows given what the
  audit certified about the second dataset. A blue interval wholly right of its tick is a violation;
* the event that gave the audit's bound highlighted (yellow row, bold label).

One row per distinct event: descriptions with the same counts on the same certification draws (the
half-line, exact-outcome and learned-score families often find the same set) are one row, which says
under how many other names it was found (:func:`distinct`). Labels wrap instead of being cut, and the
label column, legend and title are sized with :func:`dpverify.report.svg.text_width` so that nothing
is clipped; eps_lower is shown rounded down.

Built from ``AuditResult.to_dict()`` only (no access to the engine).
"""
from __future__ import annotations

import math
from typing import Any

from ..auditing.bounds import clopper_pearson_lower, clopper_pearson_upper
from ..errors import InvalidArgument
from .plots import pyplot, save_figure
from ..rounding import fmt_lower
from .svg import escape as _e
from .svg import fmt_tick as _fmt_tick
from .svg import log_ticks, nice_ticks, text_width

__all__ = ["event_rows", "distinct", "event_layout", "label_lines", "svg_event_frequencies", "plot_event_frequencies", "save_blackbox_plot"]

#: At most this many events are drawn (the highest eps_lower first; the certified one always).
MAX_EVENTS = 12
BLUE, ORANGE = "#3a6ea5", "#e07b00"


def _sides(direction: str) -> tuple[str, str]:
    return ("D'", "D") if str(direction).startswith("D'") else ("D", "D'")


def _favoured(e: dict, first: str) -> tuple[int, int, float, float]:
    """(count on the favoured side, count on the other, certified lower bound on P_first(E),
    certified upper bound on P_second(E)) of one event row. ``count_D`` / ``count_D_prime`` are the
    counts on D and D' and ``p_numerator_lower`` / ``p_denominator_upper`` the bounds on the side
    named by ``numerator`` / ``denominator``; documents written before those keys existed held the
    favoured side's values under ``count_D``, ``p_D_lower`` (and the other's under ``count_D_prime``,
    ``p_D_prime_upper``) in both directions."""
    if "p_numerator_lower" not in e:
        return int(e["count_D"]), int(e["count_D_prime"]), float(e["p_D_lower"]), float(e["p_D_prime_upper"])
    k_d, k_dp = int(e["count_D"]), int(e["count_D_prime"])
    k1, k2 = (k_dp, k_d) if str(e.get("numerator", first)).startswith("D'") else (k_d, k_dp)
    return k1, k2, float(e["p_numerator_lower"]), float(e["p_denominator_upper"])


def event_rows(audit: dict, limit: int = MAX_EVENTS) -> list[dict]:
    """The events of a black-box audit document, one row per distinct (pair, direction, event),
    sorted by eps_lower (highest first), the event that gave the audit's bound first and flagged
    ``certified``. Empty when the document has no events (e.g. a white-box audit)."""
    claim = audit.get("claim") or {}
    eps, delta = float(claim.get("epsilon", 0.0)), float(claim.get("delta", 0.0))
    rows, seen = [], set()
    for d in audit.get("directions", []):
        if not isinstance(d, dict):
            continue
        level = d.get("bound_level_final")
        first, second = _sides(d.get("direction", ""))
        for e in d.get("events") or []:
            n = int(e.get("certification_samples") or 0)
            key = (d.get("pair_index"), d.get("direction"), e.get("event"))
            if n <= 0 or key in seen:
                continue
            seen.add(key)
            k1, k2, p1, p2 = _favoured(e, first)
            if level is not None and 0 < float(level) < 1:
                up1 = float(clopper_pearson_upper(k1, n, float(level)))
                lo2 = float(clopper_pearson_lower(k2, n, float(level)))
            else:
                up1, lo2 = k1 / n, k2 / n
            allowed = math.exp(min(eps, 700.0)) * p2 + delta
            rows.append({"pair": d.get("pair_index"), "direction": d.get("direction"), "first": first,
                         "second": second, "event": str(e.get("event", "")), "n": n, "k1": k1, "k2": k2,
                         "f1": k1 / n, "f2": k2 / n, "ci1": (min(p1, k1 / n), max(up1, k1 / n)),
                         "ci2": (min(lo2, k2 / n), max(p2, k2 / n)), "allowed": allowed,
                         "epsilon_lower": float(e.get("epsilon_lower", 0.0)),
                         "delta_lower": float(e.get("delta_lower", 0.0)), "certified": False})
    if not rows:
        return []
    rows.sort(key=lambda r: (r["epsilon_lower"], r["delta_lower"]), reverse=True)
    rows = distinct(rows)
    best = [r for r in rows if r["pair"] == audit.get("pair_index") and r["direction"] == audit.get("direction")]
    head = best[0] if best else rows[0]
    head["certified"] = True
    rest = [r for r in rows if r is not head]
    return [head] + rest[: max(limit - 1, 0)]


def distinct(rows: list[dict]) -> list[dict]:
    """One row per distinct event: rows of one pair and direction with the same counts on the same
    certification draws (``n``, ``k1``, ``k2``) are one event as far as the audit can tell (e.g. the
    half-line, exact-outcome and learned-score families finding the same set), kept once under the
    first description, the others listed in ``also``. Order kept."""
    out, by_key = [], {}
    for r in rows:
        key = (r["pair"], r["direction"], r["n"], r["k1"], r["k2"])
        if key in by_key:
            by_key[key]["also"].append(r["event"])
            continue
        r = dict(r, also=[])
        by_key[key] = r
        out.append(r)
    return out


def _x_scale(rows: list[dict]) -> tuple[float, float, bool]:
    vals = [v for r in rows for v in (r["ci1"][0], r["ci1"][1], r["ci2"][0], r["ci2"][1], r["allowed"]) if v > 0]
    hi = min(max(vals + [1e-9]) * 1.15, 1.0) if vals else 1.0
    lo = min(vals) if vals else 1.0
    if vals and hi / lo > 50:
        return max(lo / 2, 1e-12), hi * 1.5 if hi < 1 else 1.0, True
    return 0.0, max(hi, 1e-9), False


def _also(r: dict) -> str:
    n = len(r.get("also") or [])
    return f" (also found under {n} other name{'s' if n > 1 else ''})" if n else ""


def _label(r: dict, width: int = 44) -> str:
    """One line: pair, direction and the event's description cut at ``width`` characters (the matplotlib
    figure's tick labels; the SVG wraps the description instead: :func:`label_lines`)."""
    text = r["event"]
    text = text if len(text) <= width else text[: width - 3] + "..."
    return f"pair {r['pair']} {r['first']}->{r['second']}: {text}" + _also(r)


#: Characters per line of an event's label in the SVG (labels wrap onto as many lines as they need: never cut;
#: the row height follows the longest label).
LABEL_CHARS = 64


def label_lines(r: dict) -> list[str]:
    """The SVG label of a row: ``pair P first->second: description (+N same)`` wrapped at word
    boundaries into lines of :data:`LABEL_CHARS` characters, all of it (a label is never cut)."""
    import textwrap

    text = f"pair {r['pair']} {r['first']}->{r['second']}: {r['event']}" + _also(r)
    return textwrap.wrap(text, LABEL_CHARS, break_long_words=True, break_on_hyphens=False) or [""]


def _sub(r: dict) -> str:
    """The line under a row's label: counts and eps_lower (rounded down: a lower bound)."""
    return (f"{r['k1']}/{r['n']} vs {r['k2']}/{r['n']}; eps_lower {fmt_lower(r['epsilon_lower'], 3)}"
            + ("  (gave the audit's bound)" if r["certified"] else ""))


#: Font sizes (px) of the event chart; the margins are sized from them with :func:`text_width`
#: (bold text is counted 10% wider).
LABEL_FONT, SUB_FONT, LEGEND_FONT, TITLE_FONT = 10, 9, 10, 12


def event_layout(rows: list[dict], title: str, legend: list[str]) -> dict:
    """The event chart's geometry: ``left`` (the label column's width, so that every label line and
    sub-label fits by :func:`text_width`), ``width``, ``height``, ``top_pad``, ``row_h`` (room for the
    longest label's lines and the sub-label), ``pw``."""
    label_w = max([text_width(line, LABEL_FONT * (1.1 if r["certified"] else 1.0)) for r in rows
                   for line in label_lines(r)] + [text_width(_sub(r), SUB_FONT) for r in rows])
    left = int(math.ceil(label_w)) + 16
    lines = max(len(label_lines(r)) for r in rows)
    right, top_pad, row_h = 24, 20 + 14 * len(legend) + 8, 18 + 12 * lines
    pw = 420
    width = left + pw + right
    width = max(width, int(math.ceil(max(text_width(t, LEGEND_FONT) for t in legend))) + 16,
                int(math.ceil(text_width(title, TITLE_FONT * 1.1))) + 16)
    pw = width - left - right
    return {"left": left, "right": right, "top_pad": top_pad, "row_h": row_h, "pw": pw, "width": width,
            "height": top_pad + row_h * len(rows) + 46}


def svg_event_frequencies(audit: dict, *, title: str) -> str:
    """Inline SVG of :func:`event_rows` (see the module docstring): one row per distinct event, labels
    and legend inside the figure (:func:`event_layout`), round ticks."""
    rows = event_rows(audit)
    if not rows:
        return "<p class='note'>no black-box events in this result</p>"
    claim = audit.get("claim") or {}
    x0, x1, xlog = _x_scale(rows)
    legend = ["\u25a0 P_first(E), \u25a0 P_second(E): frequency (dot) and confidence interval",
              f"black tick: e^eps P_second upper + delta, the most the claim (eps={_fmt_tick(float(claim.get('epsilon', 0)))}, "
              f"delta={_fmt_tick(float(claim.get('delta', 0)))}) allows for P_first"]
    g = event_layout(rows, title, legend)
    left, top_pad, row_h, pw, width, height = g["left"], g["top_pad"], g["row_h"], g["pw"], g["width"], g["height"]

    def X(v: float) -> float:
        if xlog:
            f = (math.log10(max(v, x0)) - math.log10(x0)) / (math.log10(x1) - math.log10(x0))
        else:
            f = (v - x0) / ((x1 - x0) or 1)
        return left + pw * min(max(f, 0.0), 1.0)

    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' role='img' "
             f"aria-label='{_e(title)}'>",
             f"<rect x='0' y='0' width='{width}' height='{height}' fill='white'/>",
             f"<text x='8' y='16' font-size='{TITLE_FONT}' font-weight='600'>{_e(title)}</text>",
             f"<text x='8' y='32' font-size='{LEGEND_FONT}'><tspan fill='{BLUE}'>&#9632; P_first(E)</tspan>, "
             f"<tspan fill='{ORANGE}'>&#9632; P_second(E)</tspan>: frequency (dot) and confidence interval</text>",
             f"<text x='8' y='46' font-size='{LEGEND_FONT}'>{_e(legend[1])}</text>"]
    for i, r in enumerate(rows):
        y = top_pad + i * row_h
        if r["certified"]:
            parts.append(f"<rect x='2' y='{y}' width='{width - 4}' height='{row_h}' fill='#fff3b0'/>")
        weight = " font-weight='700'" if r["certified"] else ""
        names = "\n".join([r["event"]] + [f"same counts: {a}" for a in r.get("also") or []])
        label = label_lines(r)
        tspans = "".join(f"<tspan x='{left - 8}' y='{y + 13 + 12 * k}'>{_e(line)}</tspan>" for k, line in enumerate(label))
        parts.append(f"<text font-size='{LABEL_FONT}' text-anchor='end'{weight}>{tspans}<title>{_e(names)}</title></text>")
        parts.append(f"<text x='{left - 8}' y='{y + 13 + 12 * len(label)}' font-size='{SUB_FONT}' fill='#555' "
                     f"text-anchor='end'>{_e(_sub(r))}</text>")
        mid = y + row_h / 2
        for (lo, hi), f, yy, color in ((r["ci1"], r["f1"], mid - 5, BLUE), (r["ci2"], r["f2"], mid + 5, ORANGE)):
            parts.append(f"<line x1='{X(lo):.1f}' x2='{max(X(hi), X(lo) + 1):.1f}' y1='{yy}' y2='{yy}' stroke='{color}' "
                         "stroke-width='4'/>")
            for end in (lo, hi):  # caps, so that a narrow interval stays visible beside its dot
                parts.append(f"<line x1='{X(end):.1f}' x2='{X(end):.1f}' y1='{yy - 4}' y2='{yy + 4}' stroke='{color}' "
                             "stroke-width='1.5'/>")
            parts.append(f"<circle cx='{X(f):.1f}' cy='{yy}' r='2.5' fill='white' stroke='{color}' stroke-width='1.5'/>")
        ax = X(min(r["allowed"], x1))
        parts.append(f"<line x1='{ax:.1f}' x2='{ax:.1f}' y1='{mid - 11}' y2='{mid + 11}' stroke='black' stroke-width='2'/>")
    y0 = top_pad + row_h * len(rows)
    parts.append(f"<line x1='{left}' x2='{left + pw}' y1='{y0}' y2='{y0}' stroke='#444'/>")
    ticks = log_ticks(x0, x1) if xlog else nice_ticks(x0, x1)
    for t in ticks:
        parts.append(f"<text x='{X(t):.1f}' y='{y0 + 13}' font-size='9' text-anchor='middle'>{_fmt_tick(t)}</text>")
    parts.append(f"<text x='{left + pw / 2}' y='{y0 + 32}' font-size='11' text-anchor='middle'>probability of the "
                 f"event{' (log scale)' if xlog else ''}</text>")
    parts.append("</svg>")
    return "".join(parts)


def plot_event_frequencies(result: Any):
    """A matplotlib Figure of a black-box :class:`~dpverify.AuditResult` (same content as the SVG)."""
    doc = result.to_dict() if hasattr(result, "to_dict") else result
    rows = event_rows(doc)
    if not rows:
        raise InvalidArgument("result has no black-box events to plot (only black-box audits have them).")
    plt = pyplot()
    x0, x1, xlog = _x_scale(rows)
    fig, ax = plt.subplots(figsize=(10.0, 1.4 + 0.45 * len(rows)))
    n = len(rows)
    for i, r in enumerate(rows):
        y = n - 1 - i
        if r["certified"]:
            ax.axhspan(y - 0.45, y + 0.45, color="#fff3b0", zorder=0)
        for (lo, hi), f, dy, color, lab in ((r["ci1"], r["f1"], 0.12, BLUE, "P_first(E)"),
                                            (r["ci2"], r["f2"], -0.12, ORANGE, "P_second(E)")):
            ax.errorbar([f], [y + dy], xerr=[[f - lo], [hi - f]], fmt="o", mfc="white", mec=color, ms=4,
                        ecolor=color, elinewidth=3, capsize=4,
                        label=lab + ": frequency and interval" if i == 0 else None)
        ax.plot([min(r["allowed"], x1)] * 2, [y - 0.3, y + 0.3], color="black", lw=2,
                label="e^eps P_second upper + delta (most the claim allows)" if i == 0 else None)
    ax.set_yticks(range(n))
    ax.set_yticklabels([_label(r, 30) + (" [the bound]" if r["certified"] else "") for r in reversed(rows)],
                       fontsize=7)
    if xlog:
        ax.set_xscale("log")
    ax.set_xlim(x0 if xlog else 0.0, x1)
    ax.set_ylim(-0.6, n - 0.4)
    ax.set_xlabel("probability of the event")
    c = doc.get("claim") or {}
    ax.set_title(f"black-box audit: {doc.get('verdict')} at confidence {doc.get('confidence')}; claim "
                 f"(eps={c.get('epsilon')}, delta={c.get('delta')})\nhighlighted: the event that gave the bound",
                 fontsize=8)
    ax.legend(fontsize=7, loc="lower right")
    fig.tight_layout()
    return fig


def save_blackbox_plot(result: Any, path: Any, *, dpi: int = 90) -> None:
    """Render :func:`plot_event_frequencies` to ``path`` (format from the extension)."""
    save_figure(plot_event_frequencies(result), path, dpi=dpi)
