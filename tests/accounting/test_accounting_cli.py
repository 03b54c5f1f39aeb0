"""``dpverify account``."""
import json

import pytest

from dpverify.cli import main


def test_all_methods_side_by_side(capsys):
    rc = main(["account", "--event", "gaussian:sigma=10:count=100", "--event", "laplace:scale=5",
               "--delta", "1e-5", "--method", "all", "--json"])
    assert rc == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["delta"] == 1e-5
    by = {r["method"]: r for r in doc["results"]}
    assert set(by) == {"basic", "advanced", "kov", "rdp", "pld"}
    assert by["basic"]["epsilon"] is None and "Gaussian" in by["basic"]["unsupported"]
    assert 4.377 < by["pld"]["epsilon"] <= by["rdp"]["epsilon"]
    assert all(r["seconds"] >= 0 for r in doc["results"])


def test_single_method_json(capsys):
    assert main(["account", "--event", "laplace:scale=10:count=10", "--delta", "1e-6", "--method", "kov",
                 "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert [r["method"] for r in doc["results"]] == ["kov"] and doc["results"][0]["epsilon"] > 0.9989


def test_text_table(capsys):
    assert main(["account", "--event", "subsampled-gaussian:sigma=1:rate=0.01:count=100",
                 "--delta", "1e-5", "--method", "all"]) == 0
    out = capsys.readouterr().out
    assert "pld" in out and "unsupported" in out


@pytest.mark.parametrize("argv", [
    ["--event", "gauss:sigma=1"],
    ["--event", "gaussian:sigma"],
    ["--event", "gaussian:sigma=abc"],
    ["--event", "gaussian:sigma=-1"],
    ["--event", "gaussian:sigma=nan"],
    ["--event", "gaussian:sigma=1:count=0"],
    ["--event", "gaussian:sigma=1:rate=0.1"],
    ["--event", "subsampled-gaussian:sigma=1"],
], ids=lambda a: a[1])
def test_bad_event_syntax_exits_2_with_one_line(argv, capsys):
    assert main(["account", *argv, "--delta", "1e-5"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "error" in err


@pytest.mark.parametrize("delta", ["0", "1", "nan", "-1e-5"])
def test_bad_delta_exits_2(delta, capsys):
    assert main(["account", "--event", "gaussian:sigma=1", f"--delta={delta}"]) == 2


def test_dpsgd_one_line_several_deltas_with_bounds(capsys):
    assert main(["account", "--event", "dpsgd:q=0.05:sigma=1:steps=20", "--delta", "1e-5,1e-7",
                 "--delta", "1e-9", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["deltas"] == [1e-5, 1e-7, 1e-9]
    (r,) = doc["results"]
    up, lo = r["epsilons"], r["lower"]
    assert len(up) == len(lo) == 3 and r["epsilon"] == up[0]
    assert all(0 < l <= u < float("inf") for l, u in zip(lo, up))
    assert up[0] < up[1] < up[2]
    assert all(s >= 0 for s in r["numerical_slack"])


def test_dpsgd_text_shows_lower_and_slack(capsys):
    assert main(["account", "--event", "dpsgd:q=0.05:sigma=1:steps=20", "--delta", "1e-5"]) == 0
    out = capsys.readouterr().out
    assert "pld lower" in out and "pld slack" in out and "delta=1e-05" in out


@pytest.mark.parametrize("spec", ["dpsgd:q=0.01:sigma=1", "dpsgd:q=2:sigma=1:steps=3", "dpsgd:q=0.01:sigma=-1:steps=3",
                                  "zcdp:rho=nan"])
def test_dpsgd_bad_specs_exit_2(spec, capsys):
    assert main(["account", "--event", spec, "--delta", "1e-5"]) == 2


def test_bad_delta_list_exit_2(capsys):
    assert main(["account", "--event", "gaussian:sigma=1", "--delta", "1e-5,abc"]) == 2
    assert main(["account", "--event", "gaussian:sigma=1", "--delta", "1e-5,0"]) == 2


def test_tighter_method_is_named(capsys, monkeypatch):
    """10-fold Laplace at delta = 1e-14: the PLD cannot certify a finite epsilon (its round-off
    bound exceeds delta); the CLI adds the tightest certified value and names its method."""
    assert main(["account", "--event", "laplace:scale=1:count=10", "--delta", "1e-14", "--json"]) == 0
    row = json.loads(capsys.readouterr().out)["results"][0]
    assert row["method"] == "pld" and float(row["epsilon"]) == float("inf")  # JSON writes "inf"
    (t,) = row["tightest"]
    assert t["method"] in {"kov", "basic", "rdp", "advanced"} and 9.9999 < t["value"] <= 10.0 * (1 + 1e-12)
    monkeypatch.setenv("COLUMNS", "200")  # the note column wraps at the terminal's width; keep the row on one line
    assert main(["account", "--event", "laplace:scale=1:count=10", "--delta", "1e-14"]) == 0
    out = capsys.readouterr().out
    tightest = [line for line in out.splitlines() if line.startswith("tightest")]
    assert len(tightest) == 1 and "tighter than pld" in tightest[0], out


def test_random_allocation_event(capsys):
    """Balls in bins from the command line: amplified by the PLD method (its certified pair), not by RDP; a spec
    without steps is refused with the fix."""
    assert main(["account", "--event", "random-allocation:sigma=1:steps=1000:count=5", "--delta", "1e-6",
                 "--method", "all", "--json"]) == 0
    by = {r["method"]: r for r in json.loads(capsys.readouterr().out)["results"]}
    assert 0.3 < by["pld"]["epsilon"] < 0.4 < 10 < by["rdp"]["epsilon"]
    assert main(["account", "--event", "random-allocation:sigma=1", "--delta", "1e-6"]) == 2
    assert "needs steps=T" in capsys.readouterr().err
