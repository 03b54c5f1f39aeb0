"""A self-contained HTML report of ``dpverify check`` (and of one ``dpverify audit``).

One file, no network: inline CSS, inline SVG plots drawn here (no matplotlib, no JavaScript).
Built from public documents only -- the JSON of ``dpverify check --json`` and
``AuditResult.to_dict()`` -- and tolerant of fields it does not know (they are ignored) or that are
missing (the section says so).

Plots:

* **epsilon found vs claimed**: for every audited mechanism, the lower confidence bound eps_lower
  against the claimed eps (a bar past the claim line is a violation at the audit's confidence);
* **delta(eps)** of each white-box audit that kept its profile: the estimate with its pointwise
  confidence band, the claim's point; the log axis starts a decade below the smallest positive value
  shown, so a delta = 0 claim does not drag it to 1e-300;
* **privacy-loss distribution**, only when the audit drew plain samples from M(D) (an
  importance-sampled histogram is not the loss distribution; its weights are the engine's business,
  so such a histogram is not drawn, and the report says why).
"""
from __future__ import annotations

import itertools
import math
import re
from typing import Any, Iterable

from ..rounding import fmt_lower, fmt_upper
from .accounting_plots import svg_epsilon_curves
from .blackbox_plots import svg_event_frequencies
from .plots import delta_axis_floor
from .proof_rows import steps_cell
from .svg import escape as _e
from .svg import fit_text, fmt_num as _num, fmt_tick as _fmt_tick, log_ticks, nice_ticks, text_width

__all__ = ["check_report", "audit_report", "account_report", "prove_report", "svg_delta_curve", "svg_bars"]

_CSS = """
body{font-family:system-ui,-apple-system,Segoe UI,Helvetica,Arial,sans-serif;margin:24px;color:#1b1b1b;max-width:1200px}
h1{font-size:22px} h2{font-size:18px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:32px}
h3{font-size:15px;margin-bottom:4px}
table{border-collapse:collapse;font-size:13px;margin:8px 0 16px}
th,td{border:1px solid #ddd;padding:3px 6px;text-align:left;vertical-align:top}
th{background:#f3f3f3} td.num{text-align:right;font-variant-numeric:tabular-nums}
.violated,.NO,.refuted,.UNSAFE{color:#b00020;font-weight:600} .ok,.proved,.certified,.kernel-checked,.safe{color:#1b6e20}
.inconclusive,.tested,.unknown{color:#8a6d00} .conclusion{font-weight:700} .steps{color:#555;font-size:12px}
code,.cmd{font-family:ui-monospace,Menlo,Consolas,monospace;font-size:12px;background:#f6f6f6;padding:1px 3px}
.evidence{font-size:12px;color:#333;max-width:620px} .note{font-size:12px;color:#555}
.plots{display:flex;flex-wrap:wrap;gap:16px} figure{margin:0} figcaption{font-size:12px;color:#444;max-width:460px}
svg text{font-family:system-ui,Helvetica,Arial,sans-serif}
"""


def _lower(x: Any, digits: int = 4) -> str:
    """A lower bound as shown: rounded **down** (0.99999 shows as 0.9999, never 1)."""
    if x is None:
        return "-"
    try:
        return fmt_lower(float(x), digits)
    except (TypeError, ValueError):
        return _e(x)


def _upper(x: Any, digits: int = 4) -> str:
    """An upper bound (a noise parameter, an exact minimum) as shown: rounded **up**."""
    if x is None:
        return "-"
    try:
        return fmt_upper(float(x), digits)
    except (TypeError, ValueError):
        return _e(x)


def _cls(text: Any) -> str:
    word = str(text).split(" ")[0]
    return _e(word.replace("(", "").replace(")", ""))


def _table(headers: list[str], rows: Iterable[list[str]], raw: bool = False) -> str:
    head = "".join(f"<th>{_e(h)}</th>" for h in headers)
    body = "".join("<tr>" + "".join(c if raw else f"<td>{_e(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


# -- SVG ---------------------------------------------------------------------------------------


#: Font sizes of the bar chart's labels (the left margin is sized from them with :func:`text_width`).
BAR_LABEL_FONT, TICK_FONT = 11, 10


def svg_bars(labels: list[str], values: list[float], references: list[float], *, title: str,
             xlabel: str) -> str:
    """Horizontal bars (``values``, inf drawn to the edge with an arrow) with a reference tick per bar
    (``references``); the x axis is linear from 0 to the largest finite value shown x 1.1, with round
    ticks; the left margin fits the longest label (:func:`~dpverify.report.svg.text_width`)."""
    n = len(labels)
    if n == 0:
        return "<p class='note'>no rows</p>"
    finite = [v for v in values + references if v is not None and math.isfinite(v)]
    top = max(finite + [1e-9]) * 1.1
    ticks = nice_ticks(0.0, top)
    top = max(top, ticks[-1])
    left = int(max([text_width(lab, BAR_LABEL_FONT) for lab in labels] + [120])) + 14
    right, row_h, top_pad = 30, 18, 28
    width = max(760, left + 400)
    width = max(width, int(text_width(title, 13 * 1.1)) + left + 10)  # bold: 10% wider
    height = top_pad + n * row_h + 40
    plot_w = width - left - right
    x = lambda v: left + plot_w * min(v, top) / top  # noqa: E731
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' role='img' "
             f"aria-label='{_e(title)}'>",
             f"<rect x='0' y='0' width='{width}' height='{height}' fill='white'/>",
             f"<text x='{left}' y='16' font-size='13' font-weight='600'>{_e(title)}</text>"]
    for i, (lab, v, r) in enumerate(zip(labels, values, references)):
        y = top_pad + i * row_h
        parts.append(f"<text x='{left - 6}' y='{y + 12}' font-size='{BAR_LABEL_FONT}' text-anchor='end'>{_e(lab)}</text>")
        if v is not None and v > 0:
            inf = not math.isfinite(v)
            w = x(top if inf else v) - left
            color = "#b00020" if (r is not None and v > r) else "#3a6ea5"
            parts.append(f"<rect x='{left}' y='{y + 3}' width='{w:.1f}' height='{row_h - 6}' fill='{color}'/>")
            if inf:
                parts.append(f"<text x='{left + w - 4}' y='{y + 12}' font-size='10' fill='white' "
                             "text-anchor='end'>inf &#8594;</text>")
        if r is not None and math.isfinite(r):
            parts.append(f"<line x1='{x(r):.1f}' x2='{x(r):.1f}' y1='{y + 1}' y2='{y + row_h - 1}' "
                         "stroke='black' stroke-width='2'/>")
    y0 = top_pad + n * row_h
    parts.append(f"<line x1='{left}' x2='{left + plot_w}' y1='{y0}' y2='{y0}' stroke='#444'/>")
    for v in ticks:
        parts.append(f"<text x='{x(v):.1f}' y='{y0 + 14}' font-size='{TICK_FONT}' text-anchor='middle'>{_fmt_tick(v)}</text>")
    parts.append(f"<text x='{left + plot_w / 2}' y='{y0 + 32}' font-size='11' text-anchor='middle'>{_e(xlabel)}</text>")
    parts.append("</svg>")
    return "".join(parts)


def svg_delta_curve(profile: dict, claim_epsilon: float, claim_delta: float, *, title: str) -> str:
    """delta(eps): the estimate, its pointwise band, and the claim's point, on a log axis whose bottom is
    a decade below the smallest positive value shown (see :func:`dpverify.report.plots.delta_axis_floor`)."""
    eps = [float(e) for e in profile.get("epsilon", [])]
    est = [float(d) for d in profile.get("delta_estimate", [])]
    lo = [float(d) for d in profile.get("delta_lower", [])]
    up = profile.get("delta_upper")
    up = [float(d) for d in up] if up is not None else est
    if not eps or len(est) != len(eps):
        return "<p class='note'>no delta(eps) profile in this result</p>"
    floor = delta_axis_floor(claim_delta, est, lo, up)
    ceil = max([v for v in est + up + [claim_delta] if math.isfinite(v)] + [floor * 100])
    ceil = min(max(ceil * 2, floor * 100), 1.0) if ceil <= 1 else ceil * 2
    left, right, top_pad, bottom = 60, 20, 26, 40
    width, height = 460, 280
    pw, ph = width - left - right, height - top_pad - bottom
    x0, x1 = min(eps), max(max(eps), claim_epsilon * 1.05)
    lf, lc = math.log10(floor), math.log10(ceil)
    X = lambda v: left + pw * (v - x0) / ((x1 - x0) or 1)  # noqa: E731
    Y = lambda d: top_pad + ph * (1 - (math.log10(max(d, floor)) - lf) / ((lc - lf) or 1))  # noqa: E731
    band = " ".join(f"{X(e):.1f},{Y(u):.1f}" for e, u in zip(eps, up)) + " " + \
        " ".join(f"{X(e):.1f},{Y(l):.1f}" for e, l in reversed(list(zip(eps, lo))))
    line = " ".join(f"{X(e):.1f},{Y(d):.1f}" for e, d in zip(eps, est))
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' role='img' "
             f"aria-label='{_e(title)}'>",
             f"<rect x='0' y='0' width='{width}' height='{height}' fill='white'/>",
             f"<text x='{left}' y='16' font-size='12' font-weight='600'>{_e(title)}</text>",
             f"<polygon points='{band}' fill='#3a6ea5' fill-opacity='0.25' stroke='none'/>",
             f"<polyline points='{line}' fill='none' stroke='#3a6ea5' stroke-width='2'/>"]
    cy = Y(claim_delta) if claim_delta > 0 else top_pad + ph
    parts.append(f"<circle cx='{X(claim_epsilon):.1f}' cy='{cy:.1f}' r='5' fill='#b00020'/>")
    label = f"claim ({_num(claim_epsilon)}, {_num(claim_delta)})"
    lx, anchor = X(claim_epsilon) + 7, "start"  # inside the figure: left of the point when it would run off
    if lx + text_width(label, 10) > width - 2:
        lx, anchor = X(claim_epsilon) - 7, "end"
    ly = max(cy - 6, top_pad + 10)
    parts.append(f"<text x='{lx:.1f}' y='{ly:.1f}' font-size='10' fill='#b00020' text-anchor='{anchor}'>"
                 f"{_e(label)}</text>")
    parts.append(f"<line x1='{left}' x2='{left}' y1='{top_pad}' y2='{top_pad + ph}' stroke='#444'/>")
    parts.append(f"<line x1='{left}' x2='{left + pw}' y1='{top_pad + ph}' y2='{top_pad + ph}' stroke='#444'/>")
    for t in log_ticks(floor, ceil):
        parts.append(f"<text x='{left - 4}' y='{Y(t) + 3:.1f}' font-size='9' text-anchor='end'>{t:.0e}</text>")
    for v in nice_ticks(x0, x1, 4):
        parts.append(f"<text x='{X(v):.1f}' y='{top_pad + ph + 13}' font-size='9' text-anchor='middle'>{_fmt_tick(v)}</text>")
    parts.append(f"<text x='{left + pw / 2}' y='{height - 6}' font-size='11' text-anchor='middle'>eps</text>")
    parts.append(f"<text x='12' y='{top_pad + ph / 2}' font-size='11' transform='rotate(-90 12 {top_pad + ph / 2})' "
                 "text-anchor='middle'>delta(eps), log scale</text>")
    parts.append("</svg>")
    return "".join(parts)


def _svg_histogram(profile: dict, claim_epsilon: float, *, title: str) -> str | None:
    """The loss histogram of plain draws; None when it is importance-weighted (not the distribution)."""
    note = str(profile.get("histogram_note", ""))
    if "importance" in note:
        return None
    counts = [float(c) for c in profile.get("histogram_counts", [])]
    edges = [float(e) for e in profile.get("histogram_edges", [])]
    total = float(profile.get("histogram_total") or 0)
    if not counts or len(edges) != len(counts) + 1 or total <= 0:
        return None
    frac = [c / total for c in counts]
    left, right, top_pad, bottom = 50, 20, 26, 40
    width, height = 460, 280
    pw, ph = width - left - right, height - top_pad - bottom
    x0, x1 = min(edges[0], 0.0), max(edges[-1], claim_epsilon * 1.05)
    top = max(frac) * 1.1 or 1.0
    X = lambda v: left + pw * (v - x0) / ((x1 - x0) or 1)  # noqa: E731
    parts = [f"<svg xmlns='http://www.w3.org/2000/svg' width='{width}' height='{height}' role='img' "
             f"aria-label='{_e(title)}'>",
             f"<rect x='0' y='0' width='{width}' height='{height}' fill='white'/>",
             f"<text x='{left}' y='16' font-size='12' font-weight='600'>{_e(title)}</text>"]
    for f, a, b in zip(frac, edges[:-1], edges[1:]):
        h = ph * f / top
        parts.append(f"<rect x='{X(a):.1f}' y='{top_pad + ph - h:.1f}' width='{max(X(b) - X(a), 0.5):.1f}' "
                     f"height='{h:.1f}' fill='#3a6ea5'/>")
    parts.append(f"<line x1='{X(claim_epsilon):.1f}' x2='{X(claim_epsilon):.1f}' y1='{top_pad}' y2='{top_pad + ph}' "
                 "stroke='#b00020' stroke-dasharray='4 3' stroke-width='2'/>")
    parts.append(f"<line x1='{left}' x2='{left + pw}' y1='{top_pad + ph}' y2='{top_pad + ph}' stroke='#444'/>")
    for v in nice_ticks(x0, x1, 4):
        parts.append(f"<text x='{X(v):.1f}' y='{top_pad + ph + 13}' font-size='9' text-anchor='middle'>{_fmt_tick(v)}</text>")
    xlabel = fit_text(f"privacy loss L (claimed eps dashed; {note})", width - 8, 11)
    parts.append(f"<text x='{width / 2}' y='{height - 6}' font-size='11' text-anchor='middle'>{_e(xlabel)}</text>")
    parts.append("</svg>")
    return "".join(parts)


# -- sections ----------------------------------------------------------------------------------


def _greybox_trace(audit: dict) -> str:
    """The "Grey-box trace" of an audit that carries grey-box data (``directions[i]["greybox"]``, a
    ``PairCheck.to_dict()``): the finding, the recorded calls, the shift per element and the privacy per call. Without
    that dict, a grey-box note of the audit is shown alone; without either, nothing."""
    checks = [d["greybox"] for d in audit.get("directions", []) if isinstance(d, dict)
              and isinstance(d.get("greybox"), dict)]
    if not checks:
        notes = [str(n) for n in audit.get("notes", []) if str(n).startswith("grey-box")]
        return "".join(f"<h3>Grey-box trace</h3><p class='note'>{_e(n)}</p>" for n in notes[:1])
    parts = []
    for g in checks:
        head = f"pair {_e(g.get('pair_index'))}: {_e(g.get('calls'))} recorded call(s)"
        parts.append(f"<h3>Grey-box trace</h3><p>{head}</p>")
        if g.get("finding"):
            parts.append(f"<p class='violated'>finding (exact, from replays): {_e(g['finding'])}</p>")
        if g.get("implied"):
            parts.append(f"<p>implied privacy: {_e(g['implied'])}</p>")
        trace = g.get("trace") or []
        if trace:
            parts.append("<p class='note'>recorded calls:</p><ul>" +
                         "".join(f"<li><code>{_e(t)}</code></li>" for t in trace[:50]) + "</ul>" +
                         (f"<p class='note'>... {len(trace) - 50} more</p>" if len(trace) > 50 else ""))
        shift = g.get("shift") or []
        if shift:
            rows = [[str(i), _num(x)] for i, x in enumerate(shift[:50])]
            parts.append("<p class='note'>shift c(D') - c(D) per output element:</p>" +
                         _table(["element", "shift"], rows))
        per_call = [r for r in g.get("per_call") or [] if isinstance(r, dict)]
        if per_call:
            rows = []
            for r in per_call:
                scale = _num(r.get("scale"))
                if "scale_prime" in r:
                    scale += f" on D, {_num(r.get('scale_prime'))} on D'"
                what = (f"eps = {_num(r['eps'])}" if "eps" in r
                        else f"mu = {_num(r['mu'])} (GDP)" if "mu" in r else "-")
                rows.append([str(r.get("call")), str(r.get("family")), scale, _num(r.get("shift_norm")), what])
            parts.append("<p class='note'>privacy per noise call (shift norm: L1 for Laplace, L2 for Gaussian):</p>" +
                         _table(["call", "family", "scale", "shift norm", "privacy"], rows))
        for idx, method, pname, a, b in (g.get("parameters") or []):
            parts.append(f"<p class='note'>call {_e(idx)} {_e(method)}: {_e(pname)} = {_e(a)} on D, {_e(b)} on D'</p>")
        for key in ("divergence", "not_modelled"):
            if g.get(key):
                parts.append(f"<p class='note'>{_e(key.replace('_', ' '))}: {_e(g[key])}</p>")
    return "".join(parts)


def _audit_plots(name: str, audit: dict) -> str:
    """The plots of one audit document (``AuditResult.to_dict()``), or a note saying why there are none; a grey-box
    trace first when the audit carries one (:func:`_greybox_trace`)."""
    return _greybox_trace(audit) + _audit_figures(name, audit)


def _audit_figures(name: str, audit: dict) -> str:
    claim = audit.get("claim") or {}
    ce, cd = float(claim.get("epsilon", 0.0)), float(claim.get("delta", 0.0))
    dirs = [d for d in audit.get("directions", []) if isinstance(d, dict) and isinstance(d.get("profile"), dict)]
    if not dirs:
        method = str(audit.get("method", ""))
        if method.startswith("black-box"):
            counts = [(d.get("pair_index"), d.get("direction"), d.get("event"), d.get("delta_estimate"))
                      for d in audit.get("directions", []) if isinstance(d, dict)]
            rows = [[str(p), str(dr), str(ev) if ev is not None else "-", _num(de)] for p, dr, ev, de in counts]
            fig = svg_event_frequencies(audit, title=f"{name}: event frequencies on the two datasets")
            return (f"<figure>{fig}<figcaption>Black-box audit: no loss distribution. Each certified event's "
                    "frequency on the first and second dataset of its direction, with confidence intervals at the "
                    "event's level (the certified ends are the audit's bounds); the black tick is the most the claim "
                    "allows on the first dataset. Highlighted: the event that gave the audit's bound.</figcaption>"
                    "</figure><p class='note'>the best event of each direction and its estimated delta at the "
                    "claimed eps:</p>" + _table(["pair", "direction", "event", "delta estimate"], rows))
        if method == "grey-box":  # an exact finding from replays (its trace is above, nothing sampled) or a rare branch's (its note)
            return ""
        return "<p class='note'>no profile kept for this audit (white-box audits keep one with profile=True)</p>"
    head = next((d for d in dirs if d.get("pair_index") == audit.get("pair_index")
                 and d.get("direction") == audit.get("direction")), dirs[0])
    p = head["profile"]
    where = f"pair {head.get('pair_index')} {head.get('direction')}"
    curve = svg_delta_curve(p, ce, cd, title=f"{name}: delta(eps), {where}")
    figs = [f"<figure>{curve}<figcaption>estimate and pointwise band (level {_num(p.get('band_level'))}); "
            "red: the claim.</figcaption></figure>"]
    plain = audit.get("plain_loss_histogram")
    importance = "importance" in str(p.get("histogram_note", ""))
    if isinstance(plain, dict) and plain.get("counts"):
        hist = _svg_histogram({"histogram_counts": plain["counts"], "histogram_edges": plain["edges"],
                               "histogram_total": plain["samples"], "histogram_note": "plain draws"}, ce,
                              title=f"{name}: privacy-loss distribution")
        caption = (f"{_e(plain.get('note', 'plain draws from M(D)'))}, on the pair and direction that gave the bound: "
                   "fraction of draws per loss bin (every finite loss; mean "
                   f"{_num(plain.get('mean'))})." + (" The audit itself importance-sampled; these draws are separate."
                                                     if importance else ""))
    else:
        hist = _svg_histogram(p, ce, title=f"{name}: privacy-loss distribution")
        caption = "the audit's plain draws from M(D): fraction of outputs per positive-loss bin."
    if hist is not None:
        figs.append(f"<figure>{hist}<figcaption>{caption}</figcaption></figure>")
    else:
        figs.append("<p class='note'>loss histogram not drawn: this audit importance-sampled its outputs, so a "
                    "histogram of its losses is not the privacy-loss distribution.</p>")
    return f"<div class='plots'>{''.join(figs)}</div>"


def _mechanism_section(title: str, rows: list[dict]) -> str:
    if not rows:
        return f"<h2>{_e(title)}</h2><p class='note'>no rows</p>"
    labels = [r.get("name", "?") for r in rows]
    eps_low = [r.get("epsilon_lower") for r in rows]
    claims = [(r.get("claim") or {}).get("epsilon") for r in rows]
    chart = svg_bars(labels, [float(v) if v is not None else None for v in eps_low],
                     [float(c) if c is not None else None for c in claims],
                     title="eps_lower found (bars, red: above the claim) vs claimed eps (ticks)",
                     xlabel="epsilon")
    body = []
    for r in rows:
        exp = r.get("expected")
        ok = r.get("as_expected")
        claim = r.get("claim") or {}
        body.append([
            f"<td>{_e(r.get('name'))}<br><span class='note'>{_e(r.get('paper', ''))}</span></td>",
            f"<td>({_num(claim.get('epsilon'))}, {_num(claim.get('delta'))})</td>",
            f"<td class='{_cls(r.get('verdict'))}'>{_e(r.get('verdict'))}</td>",
            f"<td>{_e(exp) if exp else '-'}</td>",
            f"<td class='{'ok' if ok else 'NO' if ok is False else ''}'>{'ok' if ok else 'NO' if ok is False else ''}</td>",
            f"<td class='num'>{_lower(r.get('epsilon_lower'))}</td>",
            f"<td class='num'>{_lower(r.get('delta_lower'))}</td>",
            f"<td class='num'>{_e(r.get('samples', '-'))}</td>",
            f"<td><code>{_e(r.get('reproduce', ''))}</code></td>",
        ])
    summary = ""
    judged = [r for r in rows if r.get("as_expected") is not None]
    if judged:
        good = sum(1 for r in judged if r["as_expected"])
        summary = f"<p><b>{good}/{len(judged)} as expected</b></p>"
    table = _table(["mechanism / paper claim", "claim (eps, delta)", "verdict", "expected", "ok", "eps lower",
                    "delta lower", "samples", "reproduce"], body, raw=True)
    details = "".join(f"<h3>{_e(r.get('name'))}: evidence</h3>{_audit_plots(str(r.get('name')), r['audit'])}"
                      for r in rows if isinstance(r.get("audit"), dict))
    return f"<h2>{_e(title)}</h2>{summary}{chart}{table}{details}"


def _proofs_section(rows: list[dict]) -> str:
    from ..symbolic.verdicts import (  # deferred: sympy (importing dpverify.symbolic loads it; proof pages only)
        COUNT_COLUMNS, conclusion_summary, rows_counts, rows_share, verdict_label)

    def verdict(x):
        return x.get("verdict") if isinstance(x, dict) else x

    def kind(r):
        return r.get("kind") or "theorem"

    def strength(r):
        if r.get("decidable") is False:
            return "not decidable", f"not decidable as stated: {r.get('decidable_reason', '')}"
        return r.get("strength", ""), r.get("strength_label", "")
    # a definition or an instance (fixed dimensions) says so next to its verdict, as in the terminal table
    def steps(r):
        detail = r.get("steps_detail") if isinstance(r.get("steps_detail"), dict) else {}
        return steps_cell(verdict(r.get("steps")), verdict(r.get("conclusion")), detail.get("details"))

    # the conclusion is the verdict (bold, coloured); the steps column is a note on the paper's proof
    # (grey, never the alarm colour: "1 step refuted (proof repaired)" beside a kernel-checked conclusion)
    body = [[f"<td><code>{_e(r.get('id'))}</code></td>", f"<td>{_e(r.get('statement', ''))}</td>",
             f"<td class='conclusion {_cls(verdict(r.get('conclusion')))}'>"
             f"{_e(verdict_label(verdict(r.get('conclusion')), kind(r)))}</td>",
             f"<td class='steps'>{_e(steps(r))}</td>",
             f"<td class='{_cls(strength(r)[0])}' title='{_e(strength(r)[1])}'>{_e(strength(r)[1])}</td>",
             f"<td class='evidence'>{_e(r.get('evidence', ''))}</td>"] for r in rows]
    summary = conclusion_summary((str(verdict(r.get("conclusion"))), kind(r)) for r in rows)
    counts = rows_counts(rows)
    share = rows_share(rows)
    count_table = _table(list(COUNT_COLUMNS), [[f"<td class='num'>{counts[c]}</td>" for c in COUNT_COLUMNS]], raw=True)
    share_text = (f"{share['strong']} of {share['decidable']} decidable theorems not refuted ({share['percent']}%) are "
                  "unconditional kernel-checked, proved or whole-domain certified" if share["decidable"] else
                  "no decidable theorems")
    return (f"<h2>Proofs of the source papers' claims</h2><p>{len(rows)} claims; conclusions: {_e(summary)}. "
            "Reproduce: <code>dpverify prove</code></p>"
            f"<p>Theorems by strength (each in one column): {_e(share_text)}.</p>" + count_table +
            _table(["ID", "claim", "conclusion (the verdict)", "steps of the paper's proof", "strength", "evidence"],
                   body, raw=True))


def _calibrations_section(rows: list[dict]) -> str:
    body = []
    for r in rows:
        prem = r.get("premise") or {}
        body.append([f"<td><code>{_e(r.get('claim'))}</code><br><span class='note'>{_e(r.get('parameters', ''))}</span></td>",
                     f"<td>{_e(prem.get('verdict') or '-')}</td>",
                     f"<td>{_e(r.get('parameter', ''))}</td>",
                     f"<td class='num'>{_upper(r.get('lemma_value'))}</td>",
                     f"<td class='num'>{_upper(r.get('exact_value'))}</td>",
                     f"<td class='num'>{_lower(r.get('tightness'))}</td>",
                     f"<td class='{_cls(r.get('flag'))}'>{_e(r.get('flag'))}</td>"])
    return ("<h2>Calibrations: the papers' noise vs the exact minimum</h2>"
            "<p class='note'>premise: the verdict of the claim a lemma-derived value rests on (dpverify prove). "
            "Reproduce: <code>dpverify calibrate ...</code> (see docs/calibration.md)</p>" +
            _table(["claim / parameters", "premise", "param", "lemma-derived", "exact minimum", "tightness", "flag"],
                   body, raw=True))


def _page(title: str, sections: list[str], header: str) -> str:
    body = "".join(sections)
    numbers = itertools.count(1)  # every section heading gets an anchor: report.html#section-3
    body = re.sub(r"<h2>", lambda m: f"<h2 id='section-{next(numbers)}'>", body)
    return ("<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
            f"<title>{_e(title)}</title><style>{_CSS}</style></head><body>"
            f"<h1>{_e(title)}</h1>{header}{body}</body></html>\n")


def check_report(doc: dict, *, command: str = "dpverify check") -> str:
    """The HTML page of a ``dpverify check --json`` document."""
    sections = []
    known = {"seed", "fail_on", "proofs", "calibrations", "mechanisms"}
    sections.append(_mechanism_section("Mechanisms of the source papers", doc.get("mechanisms", [])))
    for key, rows in doc.items():
        if key in known or not isinstance(rows, list):
            continue
        sections.append(_mechanism_section(f"Section: {key}", rows))
    if isinstance(doc.get("proofs"), list):
        sections.append(_proofs_section(doc["proofs"]))
    if isinstance(doc.get("calibrations"), list):
        sections.append(_calibrations_section(doc["calibrations"]))
    fail = doc.get("fail_on") or {}
    family = (doc.get("family") or {}).get("note") or "audit verdicts at the confidence of each row"
    header = (f"<p>Command: <code>{_e(command)}</code>; seed {_e(doc.get('seed'))}; {_e(family)}. "
              f"--fail-on {_e(fail.get('mode', 'never'))}: "
              f"{_e(', '.join(fail.get('failed', [])) or 'nothing')}.</p>")
    return _page("dpverify check report", sections, header)


def audit_report(doc: dict, *, command: str) -> str:
    """The HTML page of one audit (``AuditResult.to_dict()`` plus ``mechanism`` and ``seed``)."""
    claim = doc.get("claim") or {}
    name = str(doc.get("mechanism", "mechanism"))
    rows = [[f"<td>{_e(name)}</td>", f"<td>({_num(claim.get('epsilon'))}, {_num(claim.get('delta'))})</td>",
             f"<td class='{_cls(doc.get('verdict'))}'>{_e(doc.get('verdict'))}</td>",
             f"<td class='num'>{_lower(doc.get('epsilon_lower'))}</td>", f"<td class='num'>{_lower(doc.get('delta_lower'))}</td>",
             f"<td class='num'>{_e(doc.get('samples'))}</td>", f"<td>{_e(doc.get('method'))}</td>"]]
    section = ("<h2>Verdict</h2>" + _table(["mechanism", "claim (eps, delta)", "verdict", "eps lower", "delta lower",
                                             "samples", "method"], rows, raw=True) +
               f"<h2>Evidence</h2>{_audit_plots(name, doc)}")
    return _page("dpverify audit report", [section], f"<p>Reproduce: <code>{_e(command)}</code></p>")


def prove_report(rows: list[dict], *, command: str = "dpverify prove") -> str:
    """The HTML page of ``dpverify prove`` (its claim rows)."""
    return _page("dpverify prove report", [_proofs_section(rows)], f"<p>Command: <code>{_e(command)}</code></p>")


def account_report(curves: dict, events: list[str], *, command: str, results: list[dict] | None = None) -> str:
    """The HTML page of ``dpverify account``: the table of epsilon at the deltas asked for (``results``,
    the rows ``dpverify account --json`` prints, so the page shows the numbers the command printed) and
    the epsilon(delta) curves (from :func:`dpverify.report.accounting_plots.account_curves`)."""
    if results is None:  # no table given: read it off the curves at the deltas asked for
        grid = [float(d) for d in curves["grid"]]
        at = [grid.index(d) for d in curves["deltas"]]
        results = []
        for c in curves["curves"]:
            row = {"method": c["method"], "epsilons": None if c["epsilon"] is None else [c["epsilon"][i] for i in at],
                   "unsupported": c["unsupported"]}
            if c["method"] == "pld" and curves.get("pld"):
                row["lower"] = [curves["pld"]["lower"][i] for i in at]
            results.append(row)
    n = len(curves["deltas"])
    rows = []
    for r in results:
        if r.get("epsilons") is None:
            rows.append([f"<td>{_e(r['method'])}</td>"] + ["<td>unsupported</td>"] * n +
                        [f"<td class='evidence'>{_e(r.get('unsupported', ''))}</td>"])
            continue
        rows.append([f"<td>{_e(r['method'])}</td>"] + [f"<td class='num'>{fmt_upper(float(e), 10)}</td>" for e in r["epsilons"]] +
                    ["<td>certified upper bound</td>"])
        if r.get("lower") is not None:
            rows.append([f"<td>{_e(r['method'])} lower</td>"] + [f"<td class='num'>{fmt_lower(float(e), 10)}</td>" for e in r["lower"]]
                        + ["<td>the true epsilon is at least this (optimistic PLD)</td>"])
    table = _table(["method"] + [f"eps at delta={d:g}" for d in curves["deltas"]] + ["note"], rows, raw=True)
    fig = svg_epsilon_curves(curves, title="epsilon(delta) per composition method")
    caption = ("Each solid curve is a method's certified upper bound on epsilon(delta); the shaded band runs "
               "from the PLD's lower bound (dashed: the true epsilon is at least this) to its certified upper "
               "bound, so the true curve lies inside it. Points where a method certifies no finite epsilon are "
               "not drawn. Every method is drawn, whatever --method chose for the table; the PLD curve is "
               "computed for the whole grid at once, so its last digits may differ from the table's.")
    section = (f"<h2>Events</h2><ul>{''.join(f'<li><code>{_e(s)}</code></li>' for s in events)}</ul>"
               f"<h2>epsilon at the deltas asked for</h2>{table}"
               f"<h2>epsilon(delta) curves</h2><figure>{fig}<figcaption>{_e(caption)}</figcaption></figure>")
    return _page("dpverify account report", [section], f"<p>Reproduce: <code>{_e(command)}</code></p>")
