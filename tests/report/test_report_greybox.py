"""The grey-box trace in the HTML audit report and in the JSON document (issue 31). Exact and deterministic (one
record-and-replay on fixed seeds): no Monte Carlo, no false-failure rate."""
from __future__ import annotations

import json

import numpy as np

import dpverify
from dpverify import PrivacyClaim
from dpverify.auditing.result import jsonable
from dpverify.report.html import audit_report


class TwoScales:
    """Two answers, Laplace noise of scales 1 and 4 in two calls: eps = 1 + 1/4 on answers at distance 1 each;
    claims 1.2 (a lie)."""

    claim = PrivacyClaim(1.2)

    def check_neighbours(self, data, data_prime):
        """Query answers: neighbours move each answer by at most 1 (None: accepted)."""

    def sample(self, data, size, rng):
        f = np.asarray(data, dtype=float)
        return np.column_stack([f[0] + rng.laplace(0.0, 1.0, size), f[1] + rng.laplace(0.0, 4.0, size)])


PAIR = (np.array([0.0, 0.0]), np.array([1.0, 1.0]))


def _finding_doc() -> dict:
    r = dpverify.audit(TwoScales(), PAIR, mode="grey-box", samples=1000, rng=0)
    assert r.verdict.value == "violated" and r.method.value == "grey-box"
    doc = r.to_dict()
    doc["mechanism"] = "two-scales"
    return doc


def test_the_json_document_carries_the_per_call_privacy():
    doc = json.loads(json.dumps(jsonable(_finding_doc()), allow_nan=False))  # as `dpverify audit --json` prints it
    g = doc["directions"][0]["greybox"]
    assert [row["call"] for row in g["per_call"]] == [0, 1]
    assert [row["eps"] for row in g["per_call"]] == [1.0, 0.25]
    assert [row["scale"] for row in g["per_call"]] == [1.0, 4.0]
    assert g["shift"] == [1.0, 1.0] and "eps = 1.25" in g["finding"]


def test_the_html_report_shows_the_grey_box_trace_of_a_finding():
    page = audit_report(_finding_doc(), command="dpverify audit two-scales --mode grey-box")
    assert "Grey-box trace" in page and "finding (exact, from replays)" in page
    assert "eps = 1.25 on this pair" in page
    assert "call 0: laplace(loc=0.0, scale=1.0, size=1)" in page
    assert "call 1: laplace(loc=0.0, scale=4.0, size=1)" in page
    table = page[page.index("privacy per noise call"):]
    for cell in ("<td>0</td><td>laplace</td><td>1</td><td>1</td><td>eps = 1</td>",
                 "<td>1</td><td>laplace</td><td>4</td><td>1</td><td>eps = 0.25</td>"):
        assert cell in table
    assert "no profile kept" not in page


def test_an_audit_without_a_finding_shows_the_grey_box_note_only():
    r = dpverify.audit(TwoScales(), PAIR, claim=PrivacyClaim(1.25), mode="grey-box", samples=2000, rng=0,
                       confidence=0.999)
    page = audit_report(dict(r.to_dict(), mechanism="two-scales"), command="dpverify audit")
    assert "Grey-box trace" in page and "grey-box: 1 pair(s) replayed, 1 with the privacy" in page
    plain = dpverify.audit(TwoScales(), PAIR, claim=PrivacyClaim(1.25), samples=2000, rng=0, confidence=0.999)
    assert "Grey-box trace" not in audit_report(dict(plain.to_dict(), mechanism="two-scales"), command="dpverify audit")
