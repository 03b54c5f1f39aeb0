"""``dpverify prove`` (issue 33): a folder without proof files is an InvalidArgument (exit 2, no table); the JSON carries
``premises``, ``domain``, ``decidable`` per claim and the counts per strength column. A scratch proof file: fast, no Coq
(its claim id is in no Coq manifest)."""
from __future__ import annotations

import json

from dpverify.cli import main

PROOF = '''
from dpverify.symbolic.proof import certified, fact, given, proved
from dpverify.symbolic.verdicts import CheckResult, ClaimReport, ProofVerdict


def claims():
    a = given(proved("sympy"), fact("spectral theorem"))
    b = certified("Arb", domain="k in [1, 20]")
    c = CheckResult(ProofVerdict.UNKNOWN, "an O(.) rate")
    return [ClaimReport("scratch/a", "a", steps=a, conclusion=a), ClaimReport("scratch/b", "b", steps=b, conclusion=b),
            ClaimReport("scratch/c", "c", steps=c, conclusion=c, undecidable="an O(.) rate without constants")]
'''


def test_empty_folder_is_an_invalid_argument(tmp_path, capsys):
    (tmp_path / "_private.py").write_text("")
    assert main(["prove", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""  # no empty table
    assert f"path={str(tmp_path)!r}" in err and "without proof files" in err


def test_missing_file_is_an_invalid_argument(tmp_path, capsys):
    assert main(["prove", str(tmp_path / "nope.py")]) == 2
    assert "must be an existing .py proof file" in capsys.readouterr().err


def test_json_carries_premises_domain_decidable_and_counts(tmp_path, capsys):
    (tmp_path / "scratch.py").write_text(PROOF)
    assert main(["prove", str(tmp_path), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    by_id = {r["id"]: r for r in doc["claims"]}
    a, b, c = by_id["scratch/a"], by_id["scratch/b"], by_id["scratch/c"]
    assert [p["name"] for p in a["premises"]] == ["spectral theorem"] and a["strength"] == "proved given"
    assert a["domain"] == "whole" and a["decidable"] is True
    assert b["premises"] == [] and b["domain"] == "k in [1, 20]" and b["strength"] == "certified on B"
    assert c["decidable"] is False and c["decidable_reason"] == "an O(.) rate without constants"
    assert doc["counts"]["proved given"] == 1 and doc["counts"]["certified on B"] == 1
    assert doc["counts"]["not decidable"] == 1
    assert doc["strong_share"] == {"strong": 0, "decidable": 2, "percent": 0.0}


def test_table_prints_the_strength_column_and_counts(tmp_path, capsys):
    (tmp_path / "scratch.py").write_text(PROOF)
    assert main(["prove", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "strength" in out.splitlines()[0]
    assert "proved given 1" in " ".join(out.split()) and "not decidable 1" in " ".join(out.split())
