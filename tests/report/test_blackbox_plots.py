"""Black-box event frequencies, plotted (issue 13): in the HTML report and in ``audit --plot``.

What must hold: the certified ends of the intervals are the audit's own bounds (a plot cannot show a
tighter bound than the audit certified); the highlighted event is the one that gave the audit's
bound; D and D' are named per direction (in ``D'->D`` the favoured side is D'); a white-box result is
refused instead of drawn as something it is not."""
from __future__ import annotations

import json
import math

import pytest

from dpverify.cli import main
from dpverify.errors import InvalidArgument
from dpverify.report.blackbox_plots import event_rows, plot_event_frequencies, svg_event_frequencies
from dpverify.report.html import audit_report


def _doc(directions, pair_index=0, direction="D'->D", eps=1.0, delta=0.0):
    return {"claim": {"epsilon": eps, "delta": delta}, "pair_index": pair_index, "direction": direction,
            "method": "black-box", "verdict": "violated", "confidence": 0.95, "directions": directions}


def _event(text, k1, k2, n, p1, p2, e, numerator="D"):
    """An event row as the audit writes it: ``k1``, ``p1`` on the favoured side ``numerator``,
    ``k2``, ``p2`` on the other; count_D / count_D_prime are the counts on D and D'."""
    k_d, k_dp = (k1, k2) if numerator == "D" else (k2, k1)
    return {"event": text, "count_D": k_d, "count_D_prime": k_dp, "certification_samples": n,
            "numerator": numerator, "denominator": "D'" if numerator == "D" else "D",
            "p_numerator_lower": p1, "p_denominator_upper": p2, "epsilon_lower": e, "delta_lower": 0.0}


def _legacy_event(text, k1, k2, n, p1, p2, e):
    """An event row of a document written before the rename: the favoured side's values under the
    D keys in both directions."""
    return {"event": text, "count_D": k1, "count_D_prime": k2, "certification_samples": n, "p_D_lower": p1,
            "p_D_prime_upper": p2, "epsilon_lower": e, "delta_lower": 0.0}


def _directions(ev):
    """Two directions of one pair; ``ev(text, k1, k2, n, p1, p2, eps, numerator)`` builds a row."""
    return [
        {"pair_index": 0, "direction": "D->D'", "bound_level_final": 1e-3,
         "events": [ev("weak", 600, 500, 1000, 0.55, 0.55, 0.0, "D")]},
        {"pair_index": 0, "direction": "D'->D", "bound_level_final": 1e-3,
         "events": [ev("strong", 400, 2, 1000, 0.35, 0.01, 3.5, "D'"), ev("strong", 400, 2, 1000, 0.35, 0.01, 3.5, "D'"),
                    ev("middling", 300, 60, 1000, 0.26, 0.09, 1.0, "D'")]},
    ]


DOC = _doc(_directions(_event))
LEGACY = _doc(_directions(lambda *a: _legacy_event(*a[:-1])))


def test_rows_keep_the_audits_certified_ends_and_highlight_the_bound():
    rows = event_rows(DOC)
    assert [r["event"] for r in rows] == ["strong", "middling", "weak"]  # duplicates merged, bound first
    head = rows[0]
    assert head["certified"] and sum(r["certified"] for r in rows) == 1
    assert (head["first"], head["second"]) == ("D'", "D")  # the favoured side of D'->D is D'
    assert (rows[2]["first"], rows[2]["second"]) == ("D", "D'")
    assert head["ci1"][0] == 0.35 and head["ci2"][1] == 0.01  # exactly the certified bounds
    assert head["ci1"][0] <= head["f1"] <= head["ci1"][1] and head["ci2"][0] <= head["f2"] <= head["ci2"][1]
    assert head["allowed"] == pytest.approx(math.e * 0.01)


def test_rows_read_counts_by_dataset_and_bounds_by_role():
    """count_D is the count on D in both directions: in D'->D the favoured side's count (400) is
    count_D_prime, and the plot must still put it first; documents written before the rename
    (favoured side under the D keys) give the same rows."""
    strong = DOC["directions"][1]["events"][0]
    assert (strong["count_D"], strong["count_D_prime"], strong["numerator"]) == (2, 400, "D'")
    rows, old = event_rows(DOC), event_rows(LEGACY)
    assert [(r["k1"], r["k2"], r["ci1"][0], r["ci2"][1]) for r in rows] == \
        [(r["k1"], r["k2"], r["ci1"][0], r["ci2"][1]) for r in old]
    assert (rows[0]["k1"], rows[0]["k2"]) == (400, 2)


def test_highlight_follows_the_audits_direction_not_the_largest_number():
    # the audit says the bound came from D->D' (e.g. a delta bound); the highlight must follow it
    doc = dict(DOC, direction="D->D'")
    rows = event_rows(doc)
    assert rows[0]["certified"] and rows[0]["event"] == "weak"


def test_svg_and_report_page_draw_the_events():
    svg = svg_event_frequencies(DOC, title="t")
    assert svg.count("fill='#fff3b0'") == 1  # one highlighted row
    assert svg.count("<circle") == 2 * 3  # two frequencies per distinct event
    page = audit_report(dict(DOC, mechanism="m"), command="dpverify audit m")
    assert "event frequencies on the two datasets" in page and "<svg" in page


def test_white_box_results_are_refused():
    with pytest.raises(InvalidArgument, match="no black-box events"):
        plot_event_frequencies({"claim": {"epsilon": 1, "delta": 0}, "directions": [{"profile": {}}]})


def test_png_of_a_black_box_document(tmp_path):
    pytest.importorskip("matplotlib")
    from dpverify.report.blackbox_plots import save_blackbox_plot

    save_blackbox_plot(DOC, tmp_path / "bb.png")
    assert (tmp_path / "bb.png").stat().st_size > 10_000


@pytest.mark.slow  # a real black-box audit (~5-12 s)
def test_audit_plot_of_a_black_box_audit(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    png = tmp_path / "bb.png"
    code = main(["audit", "svt-alg5-stoddard", "--samples", "4000", "--seed", "1", "--json", "--plot", str(png)])
    out = capsys.readouterr().out
    assert code == 0 and png.stat().st_size > 10_000
    doc = json.loads(out)
    rows = event_rows(doc)
    assert rows and rows[0]["certified"]
    assert rows[0]["epsilon_lower"] == pytest.approx(doc["epsilon_lower"])  # the highlighted event gave the bound
