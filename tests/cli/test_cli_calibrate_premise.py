"""A calibration knows the verdict of the claim it rests on (issue 13, point 2).

The verdict is looked up from the proof runner (dpverify prove), never written down: these tests
replace the runner by one that reports a mutated verdict and check that the output follows it --
a refuted premise makes a value with no exact profile UNSAFE, a proved one does not, and an exact
profile that certifies the value safe wins over a refuted lemma.
"""
from __future__ import annotations

import json

import pytest

from dpverify.calibrate import check_section, premises, gaussian, mi_additive_noise, wishart
from dpverify.cli import main


@pytest.fixture
def runner(monkeypatch, tmp_path):
    """A fake proof runner: ``runner.verdicts[claim_id] = verdict``; counts its runs."""
    monkeypatch.setenv("DPVERIFY_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(check_section, "MEMO", {})
    monkeypatch.setattr(premises, "SHIPPED", tmp_path / "no-shipped-data.json")  # the runner decides

    class Runner:
        verdicts: dict = {}
        runs = 0

        def __call__(self, paper):
            self.runs += 1
            return [{"id": cid, "conclusion": v, "evidence": f"mutated verdict {v} for {cid}"}
                    for cid, v in self.verdicts.items() if cid.startswith(paper + "/")]

    r = Runner()
    r.verdicts = {}
    monkeypatch.setattr(check_section, "_run_paper", r)
    return r


def _calibrate(capsys, *argv):
    code = main(["calibrate", *argv])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def test_refuted_premise_makes_wishart_unsafe_and_a_proved_one_does_not(runner, capsys):
    runner.verdicts = {"jiang-wishart/algorithm-2": "refuted"}
    out = _calibrate(capsys, "wishart", "--epsilon", "1", "--n", "1000")
    assert out.startswith("UNSAFE: this value rests on jiang-wishart/algorithm-2, which dpverify prove REFUTES")
    doc = json.loads(_calibrate(capsys, "wishart", "--epsilon", "1", "--n", "1000", "--json"))
    assert doc["premise"]["verdict"] == "refuted" and doc["flag"] == check_section.REFUTED_PREMISE.value

    check_section.MEMO.clear()
    runner.verdicts = {"jiang-wishart/algorithm-2": "proved"}
    doc = json.loads((check_section.cache_file()).read_text())
    doc["jiang-wishart"]["key"] = "stale"  # a cache of other sources is not used
    doc["jiang-wishart"]["checksum"] = premises.checksum(doc["jiang-wishart"])
    check_section.cache_file().write_text(json.dumps(doc))
    out = _calibrate(capsys, "wishart", "--epsilon", "1", "--n", "1000")
    assert "UNSAFE" not in out and "claim jiang-wishart/algorithm-2: proved" in out


def test_a_refuted_premise_of_another_paper_flags_it_too(runner):
    runner.verdicts = {mi_additive_noise(0.5).provenance.claim: "refuted"}
    cal = mi_additive_noise(0.5)
    premise = check_section.premise_of(cal)
    assert premise["verdict"] == "refuted"
    assert check_section.premise_flag(cal, premise) is check_section.REFUTED_PREMISE


def test_exact_profile_that_certifies_safe_wins_over_a_refuted_lemma(runner):
    cal = gaussian(1.0, 1e-5, 1.0, method="classical")  # lecture21-dp/lemma-6: safe at eps = 1 (exact profile)
    runner.verdicts = {cal.provenance.claim: "refuted"}
    assert cal.safe is True
    assert check_section.premise_flag(cal, check_section.premise_of(cal)) is check_section.SAFE
    unsafe = gaussian(10.0, 1e-5, 1.0, method="classical")  # below the exact minimum anyway
    assert check_section.premise_flag(unsafe, check_section.premise_of(unsafe)) is check_section.UNSAFE  # the stronger evidence


def test_verdicts_are_cached_on_disk_and_rerun_when_the_sources_change(runner, monkeypatch):
    runner.verdicts = {"jiang-wishart/algorithm-2": "refuted"}
    cal = wishart(1.0, n=1000)
    assert check_section.premise_of(cal)["verdict"] == "refuted" and runner.runs == 1
    check_section.MEMO.clear()
    got = check_section.premise_of(cal)
    assert runner.runs == 1 and got["verdict"] == "refuted" and "cached" in got["source"]
    check_section.MEMO.clear()
    real = premises.sources_digest
    monkeypatch.setattr(premises, "sources_digest", lambda files: "another version of " + str(real(files)))
    runner.verdicts = {"jiang-wishart/algorithm-2": "proved"}
    assert check_section.premise_of(cal)["verdict"] == "proved" and runner.runs == 2


def test_exact_calibrations_have_no_premise_and_no_cache_means_no_run(runner):
    assert check_section.premise_of(gaussian(1.0, 1e-5, 1.0)) is None  # method exact: a privacy profile, no lemma
    got = check_section.premise_of(wishart(1.0, n=10), run=False)
    assert got["verdict"] is None and runner.runs == 0 and "run dpverify prove" in got["source"]


def test_check_calibration_table_flags_the_wishart_row(runner):
    runner.verdicts = {"jiang-wishart/algorithm-2": "refuted"}
    spec = next(s for s in check_section.CALIBRATION_ROWS if s.registry == ("jiang-wishart",))
    row = check_section.calibration_row(spec)
    assert row["flag"] == check_section.REFUTED_PREMISE.value and row["premise"]["verdict"] == "refuted"
    text = check_section.section_text([row])  # the cell wraps: "jiang-wishart/algorithm-2" then "[refuted]"
    assert "jiang-wishart/algorithm-2" in text and "[refuted]" in text and "UNSAFE (rests" in text


@pytest.mark.slow
def test_real_proof_runner_refutes_the_wishart_premise(monkeypatch, tmp_path, capsys):
    """No fake: the shipped proof file of jiang-wishart is run (~15 s) and refutes Algorithm 2."""
    monkeypatch.setenv("DPVERIFY_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(check_section, "MEMO", {})
    monkeypatch.setattr(premises, "SHIPPED", tmp_path / "no-shipped-data.json")  # a real run, not the data
    out = _calibrate(capsys, "wishart", "--epsilon", "1", "--n", "1000")
    assert out.startswith("UNSAFE: this value rests on jiang-wishart/algorithm-2")
