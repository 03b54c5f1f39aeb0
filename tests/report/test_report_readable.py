"""Pictures and tables a reviewer reads (issue 28): lower bounds never shown rounded up, one row per
distinct black-box event, every label inside its box by the renderer's own width estimate, round
ticks, and a proof row whose steps column cannot be read as "the claim is refuted"."""
from __future__ import annotations

import html
import io
import math
import re

import pytest

from dpverify.report.blackbox_plots import distinct, event_layout, event_rows, label_lines, svg_event_frequencies
from dpverify.report.check_table import MECHANISM_COLUMNS, mechanism_cells, mechanism_table
from dpverify.report.html import audit_report, check_report, prove_report, svg_bars, svg_delta_curve
from dpverify.report.proof_rows import refuted_steps, steps_cell
from dpverify.report.svg import CHAR_WIDTH, fit_text, log_ticks, nice_ticks, text_width
from dpverify.tables import StreamTable

ALMOST_ONE = 0.99999


def _event(text, k1, k2, n=1000, eps=0.5):
    return {"event": text, "count_D": k1, "count_D_prime": k2, "certification_samples": n, "numerator": "D",
            "denominator": "D'", "p_numerator_lower": k1 / n * 0.9, "p_denominator_upper": k2 / n * 1.1 + 1e-3,
            "epsilon_lower": eps, "delta_lower": 0.0}


LONG = "exact outcome: output is exactly one of {7, 5, 4, <outcome 0xb48c3a55d8c34315>, ... (9 outcomes)}"
BB_DOC = {"claim": {"epsilon": 1.0, "delta": 0.0}, "pair_index": 0, "direction": "D->D'", "method": "black-box",
          "verdict": "not-violated", "confidence": 0.95, "epsilon_lower": ALMOST_ONE, "delta_lower": 0.0,
          "samples": 1000,
          "directions": [{"pair_index": 0, "direction": "D->D'", "bound_level_final": 1e-3, "events": [
              _event("half-line: output <= 0.0", 700, 260, eps=ALMOST_ONE),
              _event(LONG, 700, 260, eps=ALMOST_ONE),
              _event("learned score: naive-Bayes log density-ratio score (histograms of outputs)", 700, 260,
                     eps=ALMOST_ONE),
              _event("half-line: output <= -8.0", 3, 1, eps=0.0)]}]}


def _row(eps_lower=ALMOST_ONE, name="laplace-scalar"):
    return {"section": "mechanisms", "name": name, "paper": "lecture21-dp/lemma-1", "claim": {"epsilon": 1.0, "delta": 0.0},
            "verdict": "not-violated", "expected": None, "as_expected": None, "epsilon_lower": eps_lower,
            "delta_lower": 0.0, "samples": 1000, "seconds": 0.5, "reproduce": "dpverify check --only x"}


# -- lower bounds rounded down ------------------------------------------------------------------


def test_a_lower_bound_just_below_one_is_never_shown_as_one():
    cells = mechanism_cells(_row())
    assert cells[MECHANISM_COLUMNS.index(("eps lower", 9, False))] == "0.9999"
    assert "0.9999" in mechanism_table([_row()])
    page = check_report({"seed": 0, "mechanisms": [_row()]})
    assert "class='num'>0.9999<" in page and "class='num'>1<" not in page
    page = audit_report(dict(BB_DOC, claim={"epsilon": 1.0, "delta": 0.0}), command="dpverify audit x")
    assert ">0.9999<" in page
    svg = svg_event_frequencies(BB_DOC, title="t")
    assert "eps_lower 0.999" in svg and "eps_lower 1 " not in svg and "eps_lower 1<" not in svg


# -- the black-box event chart -------------------------------------------------------------------


def test_event_chart_has_one_row_per_distinct_event():
    rows = event_rows(BB_DOC)
    assert len(rows) == 2  # the three names of one event (same counts on the same draws) are one row
    head = rows[0]
    assert head["certified"] and head["event"] == "half-line: output <= 0.0" and len(head["also"]) == 2
    svg = svg_event_frequencies(BB_DOC, title="t")
    label = " ".join(label_lines(head))
    assert "also found under 2 other names" in label
    assert all(svg.count(f">{html.escape(line, quote=True)}<") == 1 for line in label_lines(head))
    assert "learned score" in svg  # still named, in the row's tooltip
    assert distinct([dict(head, also=[]), dict(head, also=[])])[0]["also"] == [head["event"]]


def _texts(svg: str):
    """(x, y, font-size, anchor, text) of every <text> and <tspan> line of an inline SVG."""
    out = []
    for m in re.finditer(r"<text([^>]*)>(.*?)</text>", svg, re.S):
        attrs, body = m.group(1), re.sub(r"<title>.*?</title>", "", m.group(2), flags=re.S)
        size = float(re.search(r"font-size='([\d.]+)'", attrs).group(1))
        size *= 1.1 if "font-weight" in attrs else 1.0  # bold counted 10% wider, as the renderer does
        anchor = (re.search(r"text-anchor='(\w+)'", attrs) or [None, "start"])[1]
        spans = re.findall(r"<tspan[^>]*?x='([\d.]+)' y='([\d.]+)'[^>]*>(.*?)</tspan>", body)
        if spans:
            out += [(float(x), float(y), size, anchor, t) for x, y, t in spans]
            continue
        x = float(re.search(r" x='([\d.]+)'", attrs).group(1))
        y = float(re.search(r" y='([\d.]+)'", attrs).group(1))
        if "rotate(-90" in attrs:  # a vertical axis label: its extent runs along y
            out.append((y, x, size, anchor, "|rotated|" + re.sub(r"<[^>]+>", "", body)))
            continue
        out.append((x, y, size, anchor, re.sub(r"<[^>]+>", "", body)))
    return out


def _inside(svg: str):
    """Every text line lies inside the figure by the renderer's width estimate (bold counted 10% wider)."""
    width = float(re.search(r"<svg[^>]* width='(\d+)'", svg).group(1))
    height = float(re.search(r"<svg[^>]* height='(\d+)'", svg).group(1))
    for x, y, size, anchor, text in _texts(svg):
        text = text.replace("&#8594;", ">").replace("&#9632;", "#").replace("&#x27;", "'").replace("&gt;", ">") \
            .replace("&lt;", "<").replace("&amp;", "&")
        rotated = text.startswith("|rotated|")
        text = text.removeprefix("|rotated|")
        w = text_width(text, size)
        lo = x - w if anchor == "end" else x - w / 2 if anchor == "middle" else x
        hi = lo + w
        if rotated:  # x is the position along the vertical axis, y the distance from the left edge
            assert 0 <= lo and hi <= height and size <= y + size, (text, lo, hi, height)
            continue
        assert 0 <= lo and hi <= width + 1e-9, (text, lo, hi, width)
        assert size <= y <= height, (text, y, height)


def test_event_labels_fit_their_column_and_the_figure():
    rows = event_rows(BB_DOC)
    legend = ["a legend line", "another"]
    g = event_layout(rows, "title", legend)
    for r in rows:
        for line in label_lines(r):
            assert text_width(line, 10 * 1.1) <= g["left"] - 8
    assert any(len(label_lines(r)) == 2 for r in rows)  # the long description wraps instead of being cut
    _inside(svg_event_frequencies(BB_DOC, title="discrete-laplace-cks: event frequencies on the two datasets"))


def test_bar_chart_and_delta_curve_keep_labels_inside():
    labels = ["a-very-long-mechanism-name-that-used-to-be-clipped-by-the-margin", "short"]
    _inside(svg_bars(labels, [ALMOST_ONE, math.inf], [1.0, 1.0], title="eps_lower found", xlabel="epsilon"))
    profile = {"epsilon": [0.0, 0.5, 1.0, 1.5, 2.0], "delta_estimate": [0.5, 0.2, 0.05, 1e-3, 1e-5],
               "delta_lower": [0.4, 0.1, 0.01, 1e-4, 0.0], "delta_upper": [0.6, 0.3, 0.1, 1e-2, 1e-4]}
    _inside(svg_delta_curve(profile, 2.0, 1e-5, title="delta(eps)"))  # the claim sits at the right edge


def _is_round(v: float) -> bool:
    """1, 2 or 5 times a power of ten."""
    mant = abs(v) / 10.0 ** math.floor(math.log10(abs(v)) + 1e-12)
    return any(abs(mant - m) < 1e-9 for m in (1, 2, 5, 10))


@pytest.mark.parametrize("lo,hi", [(0, 1.1), (0, 7.3), (-1.02, 1.05), (0.0013, 0.0121), (0, 3.3e-5), (2, 2.5)])
def test_ticks_are_round_and_inside(lo, hi):
    ticks = nice_ticks(lo, hi)
    assert 2 <= len(ticks) <= 11
    assert all(lo - 1e-12 <= t <= hi + 1e-12 for t in ticks)
    step = ticks[1] - ticks[0]
    assert _is_round(step) and all(abs(t / step - round(t / step)) < 1e-9 for t in ticks)  # multiples of the step
    svg = svg_bars(["x"], [hi], [None], title="t", xlabel="x") if lo == 0 else ""
    if svg:
        shown = [float(t) for t in re.findall(r"text-anchor='middle'>([-\d.e+]+)</text>", svg)]
        assert shown[0] == 0 and _is_round(shown[1] - shown[0])


def test_log_ticks_are_decades():
    assert log_ticks(3e-7, 0.5) == [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1]


def test_fit_text_uses_the_same_estimate():
    text = "x" * 100
    cut = fit_text(text, 200, 10)
    assert cut.endswith("...") and text_width(cut, 10) <= 200
    assert fit_text("short", 200, 10) == "short"
    assert text_width("abcd", 10) == pytest.approx(4 * 10 * CHAR_WIDTH)


# -- the prove table ------------------------------------------------------------------------------


DETAILS = ["density: proved: sympy ...", "ratio of densities with exponent eps/(2M): refuted: counterexample {...}",
           "triangle inequality: proved: std/laplace-mechanism"]


def test_prove_steps_say_what_was_refuted():
    assert refuted_steps(DETAILS) == 1
    assert steps_cell("refuted", "kernel-checked", DETAILS) == "1 step refuted (proof repaired)"
    assert steps_cell("refuted", "certified on B", DETAILS + ["x: refuted: y"]) == "2 steps refuted (proof repaired)"
    assert steps_cell("refuted", "refuted", DETAILS) == "1 step refuted"
    assert steps_cell("refuted", "unknown", []) == "1 step refuted"
    assert steps_cell("proved", "kernel-checked", []) == "proved"


def test_prove_row_in_the_terminal_and_the_report_cannot_be_misread():
    row = {"id": "lecture21-dp/lemma-1", "statement": "f(S) + (M/eps) Laplace(0,1) is (eps, 0)-DP", "steps": "refuted",
           "conclusion": "kernel-checked", "kind": "theorem", "strength": "kernel-checked given",
           "strength_label": "kernel-checked given a pointwise bound", "evidence": "Coq theorem laplace_loss_scalar",
           "steps_detail": {"verdict": "refuted", "details": DETAILS}, "decidable": True}
    page = prove_report([row])
    cells = re.search(r"<tr><td><code>lecture21-dp/lemma-1</code></td>(.*?)</tr>", page, re.S).group(1)
    tds = re.findall(r"<td([^>]*)>(.*?)</td>", cells, re.S)
    conclusion, steps = tds[1], tds[2]
    assert "conclusion" in conclusion[0] and conclusion[1] == "kernel-checked"
    assert steps[1] == "1 step refuted (proof repaired)"
    assert "refuted" not in steps[0]  # the steps cell never takes the alarm colour's class
    out = io.StringIO()
    from dpverify.cli.prove import COLUMNS

    t = StreamTable(COLUMNS, width=120, out=out)
    t.row([row["id"], "theorem", row["statement"], steps_cell("refuted", "kernel-checked", DETAILS), "kernel-checked",
           "kernel-checked given"])
    text = out.getvalue()
    assert "1 step refuted" in text and "(proof repaired)" in text


def test_a_long_event_label_is_wrapped_whole_never_cut():
    """A 400-character description keeps every word in the chart's label (no "...")."""
    words = " ".join(f"outcome{i}" for i in range(45))  # about 400 characters
    rows = event_rows(BB_DOC)
    row = dict(rows[0], event=words)
    lines = label_lines(row)
    assert len(lines) > 2 and not any(line.endswith("...") for line in lines)
    assert words in " ".join(lines)  # every word, in order
