"""The premise verdicts cannot be served stale or edited (issue 27, point 5).

A lemma-derived calibration reports the verdict of the paper claim it rests on; a refuted claim
makes the value UNSAFE. These tests attack every stored copy of that verdict -- the disk cache and
the shipped data -- with the changes that must invalidate it (a ``.v`` edit, ``proofs/__init__.py``,
another Coq or python-flint version, a hand-edited verdict, a JSON document of the wrong shape) and
check that what is reported is always what a run of the proof file now says. The proof runner is a
fake (``Runner``) whose verdicts the test sets and whose runs it counts; the proof sources are a
copy of the repository's ``proofs/`` in a temporary folder, so that editing them is real.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from dpverify.calibrate import check_section, premises, wishart
from dpverify.cli import main

ROOT = Path(__file__).resolve().parents[2]
WISHART = "jiang-wishart/algorithm-2"
ENV = {"python": "3.x", "coqc": "8.16.1", "python-flint": "0.6.0", "sympy": "1.12", "mpmath": "1.3.0",
       "numpy": "1.26.0", "scipy": "1.11.0"}


class Runner:
    """A fake proof runner: ``verdicts[claim_id] = verdict``; counts its runs."""

    def __init__(self):
        self.verdicts: dict[str, str] = {}
        self.runs = 0

    def __call__(self, paper):
        self.runs += 1
        return [{"id": cid, "conclusion": {"verdict": v, "evidence": f"fake run: {v}"}}
                for cid, v in self.verdicts.items() if cid.startswith(paper + "/")]


@pytest.fixture
def world(monkeypatch, tmp_path):
    """A copy of proofs/ as the installed dpverify_proofs, an empty cache, no shipped data, a fake
    runner and a fake version probe (``world.env``, mutable)."""
    proofs = tmp_path / "proofs"
    shutil.copytree(ROOT / "proofs", proofs, ignore=shutil.ignore_patterns("__pycache__", "*.vo*", "*.glob"))
    real_roots = premises.source_roots

    def roots():
        out = real_roots()
        out["dpverify_proofs"] = proofs.resolve()
        return out

    class World:
        pass

    w = World()
    w.proofs, w.cache = proofs, tmp_path / "cache"
    w.env = dict(ENV)
    w.runner = Runner()
    monkeypatch.setattr(premises, "source_roots", roots)
    monkeypatch.setattr(premises, "_probe_versions", lambda: dict(w.env))
    monkeypatch.setattr(premises, "SHIPPED", tmp_path / "no-shipped-data.json")
    monkeypatch.setattr(check_section, "_run_paper", w.runner)
    monkeypatch.setattr(premises, "run_paper", w.runner)  # what premises.compute (the shipped data) runs
    monkeypatch.setattr(check_section, "MEMO", {})
    monkeypatch.setenv("DPVERIFY_CACHE_DIR", str(w.cache))
    w.cache_file = w.cache / "proof-verdicts.json"
    return w


def _premise(world, **kw):
    check_section.MEMO.clear()  # a new process: only what is stored counts
    return check_section.premise_of(wishart(1.0, n=1000), **kw)


def test_a_verdict_is_cached_and_served_while_nothing_changes(world):
    world.runner.verdicts = {WISHART: "refuted"}
    assert _premise(world)["verdict"] == "refuted" and world.runner.runs == 1
    got = _premise(world)
    assert got["verdict"] == "refuted" and world.runner.runs == 1 and "cached" in got["source"]


@pytest.mark.parametrize("edit", ["coq/Laplace.v", "coq/_CoqProject", "__init__.py", "jiang_wishart.py"])
def test_an_edited_proof_source_is_not_served_the_old_verdict(world, edit):
    """The cached verdict was kernel-checked; after the edit the proof says refuted, and so does the report."""
    world.runner.verdicts = {WISHART: "kernel-checked"}
    assert _premise(world)["verdict"] == "kernel-checked" and world.runner.runs == 1
    with open(world.proofs / edit, "a") as f:
        f.write("\n(* edited *)\n" if edit.startswith("coq/") else "\n# edited\n")
    world.runner.verdicts = {WISHART: "refuted"}
    assert _premise(world)["verdict"] == "refuted" and world.runner.runs == 2


def test_a_new_v_file_is_not_served_the_old_verdict(world):
    world.runner.verdicts = {WISHART: "kernel-checked"}
    _premise(world)
    (world.proofs / "coq" / "Extra.v").write_text("Lemma extra : True. Proof. exact I. Qed.\n")
    world.runner.verdicts = {WISHART: "refuted"}
    assert _premise(world)["verdict"] == "refuted" and world.runner.runs == 2


@pytest.mark.parametrize("key, value", [("coqc", "8.18.0"), ("coqc", "absent"), ("python-flint", "absent"),
                                        ("python-flint", "0.7.1"), ("sympy", "1.13.3")])
def test_another_environment_is_not_served_the_old_verdict(world, key, value):
    world.runner.verdicts = {WISHART: "kernel-checked"}
    _premise(world)
    world.env[key] = value  # the version probe now answers differently
    world.runner.verdicts = {WISHART: "refuted"}
    assert _premise(world)["verdict"] == "refuted" and world.runner.runs == 2


def test_coq_variables_are_part_of_the_key(world, monkeypatch):
    world.runner.verdicts = {WISHART: "kernel-checked"}
    _premise(world)
    monkeypatch.setenv("DPVERIFY_COQC", "")  # Coq switched off
    world.runner.verdicts = {WISHART: "tested"}
    assert _premise(world)["verdict"] == "tested" and world.runner.runs == 2


def test_a_hand_edited_verdict_is_ignored(world, capsys):
    """refuted -> proved by hand: the checksum no longer matches, the proof file is re-run, UNSAFE stays."""
    world.runner.verdicts = {WISHART: "refuted"}
    assert main(["calibrate", "wishart", "--epsilon", "1", "--n", "1000"]) == 0
    assert capsys.readouterr().out.startswith("UNSAFE")
    doc = json.loads(world.cache_file.read_text())
    doc["jiang-wishart"]["claims"][WISHART]["verdict"] = "proved"
    world.cache_file.write_text(json.dumps(doc))
    check_section.MEMO.clear()
    assert main(["calibrate", "wishart", "--epsilon", "1", "--n", "1000"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("UNSAFE: this value rests on jiang-wishart/algorithm-2") and world.runner.runs == 2


def test_a_forged_checksum_cannot_remove_a_warning_the_shipped_data_gives(world, tmp_path):
    """Even with its checksum recomputed, a cached non-refuted verdict does not override a refutation
    in the shipped data (stale here: the sources changed since), the proof file is re-run."""
    world.runner.verdicts = {WISHART: "refuted"}
    shipped = premises.compute(["jiang-wishart"])
    world.runner.verdicts = {WISHART: "refuted"}
    premises.write_shipped(shipped, tmp_path / "shipped.json")
    premises.SHIPPED = tmp_path / "shipped.json"  # restored by monkeypatch (the fixture set it)
    with open(world.proofs / "jiang_wishart.py", "a") as f:
        f.write("\n# a change: the shipped data is stale now\n")
    assert _premise(world)["verdict"] == "refuted"  # from a run: stale shipped data is not used
    runs = world.runner.runs
    doc = json.loads(world.cache_file.read_text())
    entry = doc["jiang-wishart"]
    entry["claims"][WISHART]["verdict"] = "proved"
    entry["checksum"] = premises.checksum(entry)  # a forger who recomputes the checksum
    world.cache_file.write_text(json.dumps(doc))
    assert _premise(world)["verdict"] == "refuted" and world.runner.runs == runs + 1


@pytest.mark.parametrize("doc", [
    [], "refuted", 3, None,
    {"jiang-wishart": []},
    {"jiang-wishart": "refuted"},
    {"jiang-wishart": {"key": 1, "claims": {}}},
    {"jiang-wishart": {"fingerprint": "x", "claims": {WISHART: "proved"}}},
    {"jiang-wishart": {"key": "k", "files": [], "claims": {WISHART: {"verdict": "proved"}}, "checksum": "c"}},
    {"jiang-wishart": {"key": "k", "files": "x", "claims": {WISHART: {"verdict": 1, "evidence": ""}}}},
], ids=lambda d: json.dumps(d)[:40])
def test_a_cache_of_the_wrong_shape_is_ignored(world, capsys, doc):
    world.cache.mkdir(parents=True)
    world.cache_file.write_text(json.dumps(doc))
    world.runner.verdicts = {WISHART: "refuted"}
    assert main(["calibrate", "wishart", "--epsilon", "1", "--n", "1000", "--json"]) == 0
    got = json.loads(capsys.readouterr().out)
    assert got["premise"]["verdict"] == "refuted" and world.runner.runs == 1
    assert premises.valid_cache_entry("jiang-wishart", json.loads(world.cache_file.read_text())["jiang-wishart"])


def test_not_json_at_all_is_ignored(world, capsys):
    world.cache.mkdir(parents=True)
    world.cache_file.write_text("{not json")
    world.runner.verdicts = {WISHART: "proved"}
    assert main(["calibrate", "wishart", "--epsilon", "1", "--n", "1000"]) == 0
    assert "claim jiang-wishart/algorithm-2: proved" in capsys.readouterr().out


# -- the shipped data -------------------------------------------------------------------------------

def test_fresh_shipped_data_answers_without_a_run(world, tmp_path):
    world.runner.verdicts = {WISHART: "refuted"}
    premises.write_shipped(premises.compute(["jiang-wishart"]), tmp_path / "shipped.json")
    premises.SHIPPED = tmp_path / "shipped.json"
    runs = world.runner.runs
    got = _premise(world, run=False)
    assert got["verdict"] == "refuted" and world.runner.runs == runs and "shipped" in got["source"]


def test_stale_shipped_data_is_not_used(world, tmp_path):
    world.runner.verdicts = {WISHART: "proved"}
    premises.write_shipped(premises.compute(["jiang-wishart"]), tmp_path / "shipped.json")
    premises.SHIPPED = tmp_path / "shipped.json"
    (world.proofs / "coq" / "Laplace.v").write_text((world.proofs / "coq" / "Laplace.v").read_text() + "\n")
    got = _premise(world, run=False)
    assert got["verdict"] is None and "stale" in got["source"]
    world.runner.verdicts = {WISHART: "refuted"}
    assert _premise(world)["verdict"] == "refuted"


def test_hand_edited_shipped_data_is_ignored(world, tmp_path):
    world.runner.verdicts = {WISHART: "refuted"}
    doc = premises.compute(["jiang-wishart"])
    doc["papers"]["jiang-wishart"][WISHART]["verdict"] = "proved"  # after the checksum was taken
    (tmp_path / "shipped.json").write_text(json.dumps(doc))
    premises.SHIPPED = tmp_path / "shipped.json"
    assert premises.load_shipped() is None
    assert _premise(world)["verdict"] == "refuted"


@pytest.mark.parametrize("doc", [[], {"schema": 1}, {"schema": 1, "sources": "x", "files": [], "environment": {},
                                                      "papers": {"jiang-wishart": {WISHART: "proved"}}}])
def test_shipped_data_of_the_wrong_shape_is_ignored(world, tmp_path, doc):
    (tmp_path / "shipped.json").write_text(json.dumps(doc))
    premises.SHIPPED = tmp_path / "shipped.json"
    world.runner.verdicts = {WISHART: "refuted"}
    assert _premise(world)["verdict"] == "refuted" and world.runner.runs == 1


def test_is_refuted_reads_verdicts_generically():
    assert premises.is_refuted("refuted") and premises.is_refuted("Refuted on B")
    for v in ("kernel-checked", "kernel-checked given P", "certified on B", "proved", "tested", "unknown", None, 1,
              "not refuted"):
        assert not premises.is_refuted(v)


# -- the data shipped in this checkout --------------------------------------------------------------

def test_shipped_premise_verdicts_are_fresh():
    """Fails when a proof source, a module the verdicts were computed with, or the version changed since
    premise_verdicts.json was written; the message names the command that regenerates it."""
    doc, fresh, why = premises.shipped_status()
    assert doc is not None, why
    assert fresh, why


def test_shipped_premise_verdicts_cover_every_premise_paper():
    doc = premises.load_shipped()
    assert doc is not None
    assert sorted(doc["papers"]) == premises.premise_papers()
    assert all(doc["papers"][p] for p in doc["papers"])


def test_a_claim_missing_from_a_stored_record_does_not_run_the_proof_file(world, tmp_path):
    """The shipped record of a paper holds every claim its proof file states: a calibration whose claim
    is not among them is told so at once (the proof file is not re-run on every call)."""
    from dpverify.calibrate import gaussian

    world.runner.verdicts = {"tu-projections/lemma-1": "proved"}
    premises.write_shipped(premises.compute(["tu-projections"]), tmp_path / "shipped.json")
    premises.SHIPPED = tmp_path / "shipped.json"
    runs = world.runner.runs
    check_section.MEMO.clear()
    got = check_section.premise_of(gaussian(1.0, 1e-5, 1.0, method="kenthapadi"))
    assert got["verdict"] is None and "states no claim" in got["source"] and world.runner.runs == runs


def test_readme_calibrate_examples_answer_from_the_shipped_data(monkeypatch, tmp_path, capsys):
    """A fresh install (empty cache): the README's calibrate examples never run a proof file."""
    def no_run(paper):
        raise AssertionError(f"ran the proof file of {paper}")

    monkeypatch.setenv("DPVERIFY_CACHE_DIR", str(tmp_path / "empty"))
    monkeypatch.setattr(check_section, "MEMO", {})
    monkeypatch.setattr(check_section, "_run_paper", no_run)
    assert main(["calibrate", "gaussian", "--epsilon", "10", "--delta", "1e-6", "--sensitivity", "1",
                 "--method", "classical"]) == 0
    out = capsys.readouterr().out
    assert "claim lecture21-dp/lemma-6: " in out and "shipped with dpverify" in out
    assert main(["calibrate", "wishart", "--epsilon", "1", "--n", "1000"]) == 0
    out = capsys.readouterr().out
    refuted = premises.is_refuted(premises.load_shipped()["papers"]["jiang-wishart"][WISHART]["verdict"])
    assert out.startswith("UNSAFE") == refuted and "shipped with dpverify" in out


@pytest.mark.slow
def test_shipped_premise_verdicts_equal_a_fresh_run():
    """Runs every premise paper's proof file (minutes, with Coq) and compares each verdict."""
    shipped = premises.load_shipped()
    fresh = premises.compute()
    for paper, claims in fresh["papers"].items():
        assert {c: v["verdict"] for c, v in claims.items()} == \
            {c: v["verdict"] for c, v in shipped["papers"][paper].items()}, paper
