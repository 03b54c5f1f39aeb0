"""``dpverify account --report/--plot`` (issue 13): every method's epsilon(delta) curve, the PLD's
upper and lower bounds drawn together, the DP-SGD one-liner, and what must not happen (a curve that
contradicts the table, a lower bound above an upper bound, a plot that throws the numbers away)."""
from __future__ import annotations

import json
import re
import shutil
import subprocess

import numpy as np
import pytest

from dpverify.accounting import Laplace, Method
from dpverify.accounting.curves import epsilon_curve
from dpverify.accounting.events import SelfComposed
from dpverify.cli import main
from dpverify.report.accounting_plots import account_curves, delta_grid, svg_epsilon_curves

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
LAPLACE_SPEC = "laplace:scale=5:count=20"


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture(scope="module")
def laplace_curves():
    return account_curves(SelfComposed(Laplace(5.0), 20), [1e-5, 1e-3])


def test_grid_keeps_the_deltas_asked_for_and_spans_them():
    g = delta_grid([1e-5, 1e-3])
    assert 1e-5 in g and 1e-3 in g and np.all(np.diff(g) > 0)
    assert g[0] <= 1e-8 * 1.0001 and g[-1] >= 0.1 * 0.9999


def test_every_method_is_drawn_and_agrees_with_its_own_query(laplace_curves):
    c = laplace_curves
    names = [x["method"] for x in c["curves"]]
    assert names == [m.value for m in Method]
    grid = np.asarray(c["grid"])
    for x in c["curves"]:
        assert x["unsupported"] is None, x
        # the curve is the method's certified epsilon, not a re-computation that could drift from the table
        direct = epsilon_curve(SelfComposed(Laplace(5.0), 20), grid, Method(x["method"]))
        assert np.allclose(x["epsilon"], direct, rtol=0, atol=0, equal_nan=False)


def test_pld_lower_bound_sits_below_every_certified_upper_bound(laplace_curves):
    # the true epsilon(delta) is >= the PLD lower bound and <= every method's upper bound
    lower = np.asarray(laplace_curves["pld"]["lower"])
    for x in laplace_curves["curves"]:
        assert np.all(lower <= np.asarray(x["epsilon"]) + 1e-12), x["method"]
    assert np.all(lower > 0)
    # and the PLD band is tight here (this is no picture of a vacuous lower bound)
    upper = np.asarray(laplace_curves["pld"]["upper"])
    assert np.all(upper - lower < 0.05 * upper)


def test_svg_draws_a_curve_per_supported_method_and_the_pld_band(laplace_curves):
    svg = svg_epsilon_curves(laplace_curves, title="t")
    assert svg.count("<polyline") == len(Method) + 1  # five upper bounds and the PLD lower bound
    assert svg.count("<polygon") == 1
    # a method that certifies nothing is not drawn: remove the finite values of one curve
    broken = json.loads(json.dumps(laplace_curves))
    broken["curves"][0]["epsilon"] = [float("inf")] * len(broken["grid"])
    svg2 = svg_epsilon_curves(broken, title="t")
    assert svg2.count("<polyline") == len(Method) and f"finite at 0/{len(broken['grid'])}" in svg2


def test_report_page_shows_the_printed_numbers_and_every_curve(capsys, tmp_path):
    page = tmp_path / "acc.html"
    code, out, err = run(capsys, "account", "--event", LAPLACE_SPEC, "--delta", "1e-5", "--report", str(page))
    assert code == 0, err
    text = page.read_text()
    assert text.count("<polyline") == len(Method) + 1
    printed = re.search(r"^pld\s+(\S+)", out, re.M).group(1)
    assert f">{printed}<" in text


@pytest.mark.slow  # the PLD of 100 subsampled steps over the whole delta grid (~5-15 s)
def test_dpsgd_one_liner_with_report_and_plot(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    page, png = tmp_path / "acc.html", tmp_path / "acc.png"
    code, out, err = run(capsys, "account", "--event", "dpsgd:q=0.01:sigma=1:steps=100", "--delta", "1e-5",
                         "--report", str(page), "--plot", str(png))
    assert code == 0 and "pld" in out, err
    text = page.read_text()
    assert "<script" not in text and not re.search(r"\s(src|href)=", text)
    assert "rdp" in text and "pld lower" in text and "unsupported" in text  # basic/advanced/kov say why
    assert text.count("<polyline") == 3  # rdp, pld upper, pld lower
    assert png.stat().st_size > 10_000
    # the number in the page's table is the one the command printed
    printed = re.search(r"^pld\s+(\S+)", out, re.M).group(1)
    assert f">{printed}<" in text


def test_report_and_plot_targets_are_checked_before_any_work(capsys, tmp_path):
    code, out, err = run(capsys, "account", "--event", LAPLACE_SPEC, "--delta", "1e-5",
                         "--plot", str(tmp_path / "missing" / "p.png"))
    assert code == 2 and "does not exist" in err and out == ""
    code, out, err = run(capsys, "account", "--event", LAPLACE_SPEC, "--delta", "1e-5",
                         "--report", str(tmp_path / "missing" / "r.html"))
    assert code == 2 and "does not exist" in err and out == ""


def test_a_failing_plot_keeps_the_numbers(capsys, monkeypatch, tmp_path):
    pytest.importorskip("matplotlib")
    import dpverify.report.accounting_plots as ap

    def broken(curves, path):
        raise OSError("disk full")

    monkeypatch.setattr(ap, "save_account_plot", broken)
    code, out, err = run(capsys, "account", "--event", LAPLACE_SPEC, "--delta", "1e-5", "--plot", str(tmp_path / "p.png"))
    assert code == 1 and "pld" in out and "results above stand" in err


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")
def test_account_report_opens_in_chromium_without_console_messages(capsys, tmp_path):
    page = tmp_path / "acc.html"
    code, _, _ = run(capsys, "account", "--event", LAPLACE_SPEC, "--delta", "1e-5", "--method", "all",
                     "--report", str(page))
    assert code == 0
    out = subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--enable-logging=stderr",
                          "--v=0", "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=180)
    assert [line for line in out.stderr.splitlines() if "CONSOLE" in line] == []
    assert out.stdout.count("<polyline") == len(Method) + 1
