"""``dpverify calibrate``: text and JSON output, exit codes, rejected options."""
from __future__ import annotations

import json

import pytest

from dpverify import calibrate
from dpverify.cli import main


def test_text_output_shows_parameter_method_provenance_tightness(capsys):
    assert main(["calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-6"]) == 0
    out = capsys.readouterr().out
    sigma = calibrate.gaussian(1.0, 1e-6).sigma
    assert "sigma = 4.22468" in out and sigma <= 4.22468  # rounded up, never down
    assert "method: exact" in out and "provenance:" in out and "balle-wang-2018/theorem-8" in out
    assert "tightness sigma/exact = 1" in out


def test_json_output_is_one_document_with_the_same_fields(capsys):
    assert main(["calibrate", "laplace", "--epsilon", "0.5", "--delta", "1e-6", "--sensitivity", "2", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    cal = calibrate.laplace(0.5, 1e-6, sensitivity=2.0)
    # the CLI adds its verdict on the value (flag) and the proof verdict of the premise it rests on
    assert doc.pop("flag") == "safe" and "premise" in doc
    doc.pop("premise")
    assert doc == json.loads(json.dumps(cal.to_dict()))
    assert doc["scale"] == cal.scale


@pytest.mark.parametrize(
    "argv",
    [
        ["gaussian", "--epsilon", "nan", "--delta", "1e-6"],
        ["gaussian", "--epsilon", "inf", "--delta", "1e-6"],
        ["gaussian", "--epsilon", "0", "--delta", "1e-6"],
        ["gaussian", "--epsilon", "1"],
        ["gaussian", "--epsilon", "1", "--delta", "1"],
        ["gaussian", "--epsilon", "1", "--delta", "1e-6", "--sensitivity", "-1"],
        ["gaussian", "--epsilon", "1", "--delta", "1e-6", "--method", "theorem-1"],
        ["gaussian", "--epsilon", "1", "--delta", "1e-6", "--k", "3"],
        ["laplace", "--epsilon", "1", "--method", "kenthapadi"],
        ["random-projection", "--epsilon", "1", "--delta", "1e-6", "--B", "1"],
        ["random-projection", "--epsilon", "1", "--delta", "1e-6", "--k", "3", "--B", "1", "--reading", "fixed"],
        ["random-projection", "--epsilon", "1", "--delta", "1e-6", "--k", "3", "--z", "1,x"],
        ["wishart", "--epsilon", "1"],
        ["wishart", "--epsilon", "1", "--n", "10", "--sensitivity", "2"],
        ["covariance-laplace", "--epsilon", "1", "--n", "10"],
        ["mi-additive-noise", "--epsilon", "1", "--delta", "1e-6"],
        ["mi-random-projection", "--epsilon", "1", "--n-prime", "5"],
    ],
    ids=lambda a: " ".join(a),
)
def test_bad_arguments_exit_2_with_one_line(argv, capsys):
    assert main(["calibrate", *argv]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "error" in err


def test_unknown_mechanism_is_a_usage_error(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["calibrate", "gausian", "--epsilon", "1"])
    assert exc.value.code == 2


def test_fixed_projection_from_a_matrix_file(tmp_path, capsys):
    import numpy as np

    P = np.random.default_rng(3).normal(size=(4, 2))
    path = tmp_path / "P.npy"
    np.save(path, P)
    assert main(["calibrate", "random-projection", "--epsilon", "1", "--delta", "1e-5", "--B", "1.5",
                 "--P", str(path), "--reading", "fixed", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["sigma"] == calibrate.random_projection(1.0, 1e-5, B=1.5, P=P, reading="fixed").sigma


def test_theorem_report_shows_printed_formula_and_exact_minimum(capsys):
    pytest.importorskip("dpverify.symbolic.derivations")
    assert main(["calibrate", "random-projection", "--epsilon", "0.5", "--delta", "1e-6", "--k", "10",
                 "--B", "1", "--method", "theorem-1"]) == 0
    out = capsys.readouterr().out
    cal = calibrate.random_projection(0.5, 1e-6, k=10, B=1.0, method="theorem-1")
    assert "derivation tu-projections/theorem-1" in out
    assert "printed formula (as-printed)" in out and "exact minimal sigma (fresh P)" in out
    assert f"tightness sigma/exact = {cal.tightness:.6g}" in out
