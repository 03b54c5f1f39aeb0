"""The HTML report (issue 13): one self-contained file, opened in real headless Chromium.

Checks: every section is in the DOM Chromium builds; the page references nothing outside itself
(no script, no src/href); Chromium logs no console message while loading it (the detector is
checked on a page that does log one); the screenshot has the plots' colours, and loses them when
the plots are removed from the same page (so the pixels come from the plots).
Skipped, with the reason, when no `chromium` is installed (`apt-get install chromium`).
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from dpverify.calibrate import check_section
from dpverify.cli import main
from dpverify.cli.prove import rows_and_text
from dpverify.report.html import check_report, svg_delta_curve

import dpverify_proofs

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
needs_chromium = pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (apt-get install chromium)")

BLUE, RED = (58, 110, 165), (176, 0, 32)


def _chromium(url: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                           "--enable-logging=stderr", "--v=0", *args, url],
                          capture_output=True, text=True, timeout=180)


def _console(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "CONSOLE" in line]


def _count(png: Path, rgb: tuple[int, int, int], tol: int = 12) -> int:
    import numpy as np

    image = pytest.importorskip("matplotlib.image")
    px = (image.imread(str(png))[..., :3] * 255).astype(int)
    return int(np.sum(np.all(np.abs(px - np.array(rgb)) <= tol, axis=-1)))


@pytest.fixture(scope="module")
def report_doc(tmp_path_factory, capsys_module=None):
    """A check document with every section: a white-box and a black-box audit (with profiles kept,
    as --report does), the proofs of one paper, two calibration rows."""
    tmp = tmp_path_factory.mktemp("report")
    import io
    import contextlib

    buf = io.StringIO()
    with contextlib.redirect_stdout(buf), contextlib.redirect_stderr(io.StringIO()):
        code = main(["check", "--only", "laplace-scalar", "--only", "jiang-wishart", "--only", "svt-alg5-stoddard",
                     "--samples-scale", "0.05", "--no-search", "--json", "--report", str(tmp / "unused.html")])
    assert code == 0
    doc = json.loads(buf.getvalue())
    proofs, _ = rows_and_text([str(Path(dpverify_proofs.__path__[0]) / "lecture21_dp.py")])
    doc["proofs"] = json.loads(json.dumps(proofs, default=str))
    specs = [s for s in check_section.CALIBRATION_ROWS if s.registry in (("gaussian-classical",), ("jiang-wishart",))]
    doc["calibrations"] = json.loads(json.dumps([check_section.calibration_row(s, False) for s in specs], default=str))
    return doc


@pytest.mark.slow  # the fixture audits three mechanisms and runs one paper's proofs (~20 s CPU)
def test_report_is_self_contained_and_has_every_section(report_doc):
    page = check_report(report_doc)
    for title in ("Mechanisms of the source papers", "Section: faulty", "Proofs of the source papers",
                  "Calibrations", "laplace-scalar: evidence", "svt-alg5-stoddard: evidence"):
        assert title in page, title
    assert "<script" not in page and not re.search(r"\s(src|href)=", page)
    assert "1/1 as expected" in page
    assert "dpverify check --only laplace-scalar --seed 0" in page  # the reproduce command


def test_delta_axis_of_a_pure_claim_starts_near_the_data():
    profile = {"epsilon": [0.0, 0.5, 1.0], "delta_estimate": [0.3, 0.01, 0.0], "delta_lower": [0.2, 0.0, 0.0],
               "delta_upper": [0.4, 0.02, 0.001]}
    svg = svg_delta_curve(profile, 1.0, 0.0, title="t")
    ticks = [float(t) for t in re.findall(r">(1e[-+]\d+)<", svg)]
    assert ticks and min(ticks) >= 1e-5  # a decade below the smallest positive value (0.001), not 1e-300


@pytest.mark.slow
@needs_chromium
def test_report_opens_in_headless_chromium_without_console_errors_and_plots_render(report_doc, tmp_path):
    page = check_report(report_doc)
    path = tmp_path / "report.html"
    path.write_text(page)
    shot = tmp_path / "report.png"
    out = _chromium(path.as_uri(), "--window-size=1280,5000", f"--screenshot={shot}")
    assert shot.exists(), out.stderr[-2000:]
    assert _console(out.stderr) == [], _console(out.stderr)
    dom = _chromium(path.as_uri(), "--dump-dom").stdout
    for title in ("Mechanisms of the source papers", "Section: faulty", "Proofs of the source papers", "Calibrations"):
        assert title in dom
    assert dom.count("<svg") >= 4  # the overview charts, a delta(eps) curve, a loss histogram
    blue, red = _count(shot, BLUE), _count(shot, RED)
    assert blue > 2000 and red > 200, (blue, red)
    # control: the same page without its plots has (almost) none of the plots' blue
    bare = tmp_path / "bare.html"
    bare.write_text(re.sub(r"<svg.*?</svg>", "", page, flags=re.S))
    bare_shot = tmp_path / "bare.png"
    _chromium(bare.as_uri(), "--window-size=1280,5000", f"--screenshot={bare_shot}")
    assert _count(bare_shot, BLUE) < blue / 20


@needs_chromium
def test_the_console_detector_sees_a_console_error(tmp_path):
    bad = tmp_path / "bad.html"
    bad.write_text("<!DOCTYPE html><html><body><script>console.error('boom from the page')</script></body></html>")
    out = _chromium(bad.as_uri(), "--dump-dom")
    assert any("boom from the page" in line for line in _console(out.stderr)), out.stderr[-2000:]


def test_prove_report_says_which_verdicts_are_definitions_or_instances():
    """A `proved` settled for fixed dimensions only (an instance) or a definition must not read as a general
    theorem's `proved` in the HTML report: the cell and the summary say the kind, as the terminal table does."""
    from dpverify.report.html import prove_report
    from dpverify.symbolic.verdicts import conclusion_summary

    rows = [{"id": "p/a", "statement": "s", "steps": "proved", "conclusion": "proved", "evidence": "e", "kind": "theorem"},
            {"id": "p/b", "statement": "s", "steps": "proved", "conclusion": "proved", "evidence": "e", "kind": "instance"},
            {"id": "p/c", "statement": "s", "steps": "proved", "conclusion": "proved", "evidence": "e",
             "kind": "definition"}]
    page = prove_report(rows)
    assert "conclusions: proved: 1, proved (definition): 1, proved (instance): 1." in page
    cells = re.findall(r"<td class='conclusion proved'>([^<]*)</td>", page)
    assert cells.count("proved (instance)") == 1 and cells.count("proved (definition)") == 1
    assert conclusion_summary([("refuted", "theorem"), ("proved", "instance")]) == "proved (instance): 1, refuted: 1"
    from dpverify.errors import InvalidArgument
    with pytest.raises(InvalidArgument, match="kind='lemma'"):
        conclusion_summary([("proved", "lemma")])


def test_prove_report_shows_strengths_premises_and_the_denominator():
    """The prove report counts each theorem in one strength column, shows a conditional verdict's premises and a box's
    domain in the row, and leaves a claim not decidable as stated out of the share (issue 33)."""
    from dpverify.report.html import prove_report
    from dpverify.symbolic.proof import certified, fact, given, proved
    from dpverify.symbolic.verdicts import CheckResult, ClaimReport, ProofVerdict

    def rep(cid, c, **kw):
        return ClaimReport(cid, "s", steps=c, conclusion=c, **kw).to_dict()

    rows = [rep("p/a", proved("sympy")),
            rep("p/b", given(CheckResult(ProofVerdict.KERNEL_CHECKED, "coq"), fact("spectral theorem"))),
            rep("p/c", certified("Arb", domain="k in [1, 20]")),
            rep("p/d", CheckResult(ProofVerdict.UNKNOWN, "O(1) rates"), undecidable="an O(.) rate without constants")]
    page = prove_report(rows)
    assert "1 of 3 decidable theorems not refuted (33.3%)" in page
    assert "kernel-checked given spectral theorem" in page
    assert "certified on B (k in [1, 20])" in page
    assert "not decidable as stated: an O(.) rate without constants" in page
    for col in ("kernel-checked given", "certified on B", "not decidable"):
        assert f"<th>{col}</th>" in page
