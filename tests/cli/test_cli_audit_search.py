"""``dpverify audit`` without pairs: MODULE:ATTR searches the mechanism's input_domain(), a registered name
with --search the domain its neighbourhood implies; bad combinations exit 2 with one line.

The statistical claims: the faulty mechanism's eps_lower is > 1.3 against a claim of 1 (true eps 2 on the pair
the grey-box screen picks; found on every seed tried); the correct one is audited at confidence 0.999 (false failure at most 0.1 %)."""
from __future__ import annotations

import json

import pytest

from dpverify.cli import main


def run(capsys, *argv):
    try:
        code = main(list(argv))
    except SystemExit as exc:
        code = exc.code
    out = capsys.readouterr()
    return code, out.out, out.err


def test_module_attr_without_pairs_searches_and_finds_the_forgotten_clamp(capsys):
    code, out, err = run(capsys, "audit", "unaided_mechanisms:forgotten_clamp", "--samples", "4000", "--seed", "3",
                         "--json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["verdict"] == "violated" and doc["epsilon_lower"] > 1.3
    assert doc["search"]["generator"] == "unaided search" and doc["search"]["certified_pairs"] == 1
    assert doc["neighbour_checks"][0].startswith("unaided search:")


def test_the_text_output_reproduces_the_search(capsys):
    code, out, _ = run(capsys, "audit", "laplace-scalar", "--search", "--samples", "3000", "--seed", "5",
                       "--confidence", "0.999")
    assert code == 0
    assert "reproduce with: dpverify audit laplace-scalar --search --samples 3000 --seed 5" in out
    assert out.startswith("not-violated")


@pytest.mark.parametrize("argv, needle", [
    (["audit", "laplace-scalar", "--search", "--pairs", "x:Y"], "a search chooses the pairs itself"),
    (["audit", "tu-theorem1-fresh", "--search"], "states no query-answer neighbourhood"),
    (["audit", "unaided_mechanisms:forgotten_clamp", "--domain", "unaided_mechanisms:NoDomain"],
     "must be a dpverify.InputDomain"),
], ids=["search-and-pairs", "no-domain-implied", "domain-not-a-domain"])
def test_bad_search_options_exit_2_with_one_line(capsys, argv, needle):
    code, out, err = run(capsys, *argv)
    assert code == 2 and out == ""
    assert needle in err and len(err.strip().splitlines()) == 1 and "Traceback" not in err


def test_mode_and_sequential_reach_the_audit_and_the_reproduce_line(capsys):
    code, out, _ = run(capsys, "audit", "histogram-scale-eps", "--mode", "grey-box", "--samples", "1000", "--seed", "1")
    assert code == 0 and out.startswith("violated") and "grey-box" in out.splitlines()[0]
    assert "--mode grey-box" in out
    code, out, _ = run(capsys, "audit", "laplace-scalar", "--sequential", "--samples", "2000", "--seed", "1",
                       "--confidence", "0.999")
    assert code == 0 and out.startswith("not-violated") and "--sequential" in out
