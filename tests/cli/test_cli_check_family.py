"""The main job controls its family-wise error and refuses absurd sizes up front (issue 27, point 6).

Every verdict row of ``dpverify check`` is at confidence 1 - 0.05/m, m the number of registered
audits (Bonferroni), whatever ``--only`` selects, and the footer says so. ``--samples-scale`` that
is not finite, not positive, or absurd is an InvalidArgument before any audit runs. These tests are
not statistical: the audits they run are tiny and only their recorded confidence is checked.
"""
from __future__ import annotations

import json

import pytest

from dpverify.cli import check as check_cli
from dpverify.cli import main
from dpverify.registry import load_entries


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_row_confidence_is_bonferroni_over_the_registry():
    m = len(load_entries())
    assert m >= 30
    assert check_cli.row_confidence(m) == pytest.approx(1 - 0.05 / m)
    assert check_cli.row_confidence(1) == pytest.approx(0.95)
    assert f"1 - 0.05/{m}" in check_cli.family_note(m) and "at most 0.05" in check_cli.family_note(m)


def test_only_audits_at_the_per_row_confidence_of_the_whole_table(capsys):
    """--only NAME reproduces the row of the full run: same confidence (m from the registry, not from
    the selection); the JSON says which, and so does the text footer."""
    m = len(load_entries())
    code, out, _ = run(capsys, "check", "--only", "laplace-scalar", "--samples-scale", "0.01", "--no-search",
                       "--json")
    assert code == 0
    doc = json.loads(out)
    row = doc["mechanisms"][0]
    assert row["confidence"] == pytest.approx(1 - 0.05 / m) == doc["family"]["confidence_per_row"]
    assert row["audit"]["confidence"] == pytest.approx(1 - 0.05 / m)
    assert doc["family"]["audits"] == m and doc["family"]["method"] == "Bonferroni"
    code, out, _ = run(capsys, "check", "--only", "laplace-scalar", "--samples-scale", "0.01", "--no-search")
    assert code == 0 and check_cli.family_note(m, 0) in " ".join(out.split())
    assert "confidence 0.95 per mechanism" not in out


@pytest.mark.parametrize("value, words", [
    ("inf", "finite"), ("-inf", "finite"), ("nan", "finite"), ("0", "> 0"), ("-1", "> 0"),
    ("1e9", "CPU-hours"), ("1e300", "CPU-hours"),
])
def test_samples_scale_is_refused_up_front(capsys, monkeypatch, value, words):
    def no_audit(args):
        raise AssertionError("an audit ran before --samples-scale was checked")

    monkeypatch.setattr(check_cli, "_mechanism_rows", no_audit)
    code, _, err = run(capsys, "check", f"--samples-scale={value}")
    assert code == 2
    assert "--samples-scale=" in err and words in err and "Traceback" not in err


def test_the_largest_allowed_scale_is_accepted(monkeypatch, capsys):
    """MAX_SAMPLES_SCALE itself passes the check (the audits are stubbed out)."""
    monkeypatch.setattr(check_cli, "_mechanism_rows", lambda args: [])
    monkeypatch.setattr(check_cli, "EXTRA_SECTIONS", [])
    code, out, _ = run(capsys, "check", "--samples-scale", repr(check_cli.MAX_SAMPLES_SCALE), "--json")
    assert code == 0 and json.loads(out)["family"]["audits"] == len(load_entries())
