"""The `dpverify` command: JSON documents, exit codes, one-line usage errors."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from dpverify.cli import main

# Objects the CLI loads by MODULE:ATTR in these tests.
from dpverify_mechanisms.lecture21_dp import ScalarLaplace

LAPLACE = ScalarLaplace(1.0)
PAIR = (0.0, 1.0)
PAIRS = [(0.0, 1.0), (1.0, 0.0)]


def make_laplace():
    return ScalarLaplace(2.0)


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_audit_json_has_the_contract_keys(capsys):
    code, out, err = run(capsys, "audit", f"{__name__}:LAPLACE", "--pairs", f"{__name__}:PAIR",
                         "--samples", "20000", "--seed", "3", "--json")
    assert code == 0
    doc = json.loads(out)
    for key in ("verdict", "epsilon_lower", "delta_lower", "confidence", "samples", "seed"):
        assert key in doc
    assert doc["verdict"] == "not-violated" and doc["samples"] == 20000 and doc["seed"] == 3


def test_audit_accepts_factories_pair_lists_and_overrides_the_claim(capsys):
    code, out, _ = run(capsys, "audit", f"{__name__}:make_laplace", "--pairs", f"{__name__}:PAIRS",
                       "--epsilon", "0.5", "--samples", "20000", "--seed", "1", "--json")
    doc = json.loads(out)
    assert code == 0
    assert doc["claim"] == {"epsilon": 0.5, "delta": 0.0, "relation": "replace-one"}
    assert doc["verdict"] == "violated"  # scale 1/2 means true eps = 2 > 0.5


def test_audit_by_registered_name_uses_its_default_pairs(capsys):
    code, out, _ = run(capsys, "audit", "laplace-vector", "--samples", "2000", "--seed", "2", "--json")
    assert code == 0
    doc = json.loads(out)
    assert len({d["pair_index"] for d in doc["directions"]}) == 2  # one-differ and all-differ


def test_audit_text_output_says_how_to_reproduce(capsys):
    code, out, _ = run(capsys, "audit", f"{__name__}:LAPLACE", "--pairs", f"{__name__}:PAIR", "--samples", "1000")
    assert code == 0
    assert "not-violated" in out and "--seed" in out


@pytest.mark.parametrize("argv,needle", [
    (["audit", "nosuchmodule:X", "--pairs", f"{__name__}:PAIR"], "cannot import module 'nosuchmodule'"),
    (["audit", f"{__name__}:NOPE", "--pairs", f"{__name__}:PAIR"], "has no attribute 'NOPE'"),
    (["audit", f"{__name__}:LAPLACE", "--pairs", "no-colon"], "MODULE:ATTR"),
    (["audit", f"{__name__}:LAPLACE", "--pairs", f"{__name__}:PAIR", "--samples", "0"], "argument --samples: '0' must be a whole number >= 1"),
    (["audit", f"{__name__}:LAPLACE", "--pairs", f"{__name__}:PAIR", "--epsilon", "nan"], "argument --epsilon: 'nan' must be a finite number"),
    (["audit", f"{__name__}:LAPLACE", "--pairs", f"{__name__}:PAIR", "--confidence", "2"], "argument --confidence: '2' must be strictly between 0 and 1"),
    (["check", "--only", "no-such-mechanism"], "not a registered mechanism"),
    (["audit", "no-such-mechanism"], "neither MODULE:ATTR nor a registered mechanism"),
    (["audit", f"{__name__}:LAPLACE"], "states no input domain to search"),
], ids=["module", "attr", "spec", "samples", "nan-eps", "confidence", "only", "name", "no-pairs"])
def test_usage_errors_exit_2_with_one_line(capsys, argv, needle):
    try:
        code, out, err = run(capsys, *argv)
    except SystemExit as exc:  # argparse's own checks (e.g. --samples) exit from parse_args
        captured = capsys.readouterr()
        code, out, err = exc.code, captured.out, captured.err
    assert code == 2
    assert out == ""
    assert needle in err and err.count("\n") == 1


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as info:
        main(["audit", "laplace-scalar", "--samples", "many"])
    assert info.value.code == 2
    assert "--samples" in capsys.readouterr().err


def test_check_json_lists_registered_mechanisms(capsys):
    code, out, _ = run(capsys, "check", "--json", "--only", "laplace-scalar", "--only", "gaussian-classical",
                       "--samples-scale", "0.05")
    assert code == 0
    doc = json.loads(out)
    rows = {r["name"]: r for r in doc["mechanisms"]}
    assert set(rows) == {"laplace-scalar", "gaussian-classical"}
    for r in rows.values():
        for key in ("name", "paper", "claim", "verdict", "epsilon_lower", "delta_lower", "samples", "seconds"):
            assert key in r
        assert r["verdict"] in ("violated", "not-violated", "inconclusive")
    assert rows["laplace-scalar"]["paper"] == "lecture21-dp/lemma-1"


def test_console_script_runs_check_json():
    """The installed `dpverify` entry point prints one JSON document and nothing else."""
    proc = subprocess.run([sys.executable, "-m", "dpverify", "check", "--json", "--only", "laplace-scalar",
                           "--samples-scale", "0.01"], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    doc = json.loads(proc.stdout)
    assert doc["mechanisms"][0]["name"] == "laplace-scalar"
