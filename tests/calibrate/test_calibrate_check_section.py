"""The "calibrations" section of ``dpverify check`` (``dpverify/calibrate/check_section.py``).

No sampling anywhere: every figure is deterministic, so there is no false-failure rate.
The section is built once per module (a few seconds: two fresh-P projection minima).
"""
from __future__ import annotations

import json
import math

import pytest

from dpverify.calibrate import gaussian
from dpverify.calibrate.premises import is_refuted
from dpverify.calibrate.check_section import (
    REFUTED_PREMISE,
    CALIBRATION_ROWS,
    NO_PROFILE,
    SAFE,
    UNSAFE,
    check_rows,
    flag_of,
    registry_f2,
)
from dpverify.cli import check as check_cli
from dpverify.cli import main
from dpverify.registry import load_entries

ROW_KEYS = {"claim", "registry", "parameters", "mechanism", "parameter", "inputs", "paper_values",
            "lemma_value", "lemma_derivation", "lemmas", "exact_value", "exact_bracket", "exact_reason",
            "tightness", "tightness_range", "achieved_delta", "safe", "flag", "note", "premise"}


@pytest.fixture(scope="module")
def section():
    return check_rows(None)


def _row(rows, claim, epsilon=None):
    found = [r for r in rows if r["claim"] == claim and (epsilon is None or r["inputs"]["epsilon"] == epsilon)]
    assert len(found) == 1, (claim, epsilon, [r["claim"] for r in rows])
    return found[0]


def test_one_row_per_paper_parameter_plus_the_eps10_row(section):
    rows, _text = section
    assert [r["claim"] for r in rows] == [
        "lecture21-dp/lemma-6", "tu-projections/lemma-2", "lecture21-dp/lemma-1",
        "tu-projections/theorem-1", "tu-projections/theorem-2",
        "jiang-wishart/algorithm-1", "jiang-wishart/algorithm-2",
        "showkatbakhsh-regression/lemma-1", "showkatbakhsh-regression/lemma-2",
        "lecture21-dp/lemma-6",
    ]
    assert [r["parameter"] for r in rows] == ["sigma", "sigma", "scale", "sigma", "sigma", "scale", "C",
                                              "sigma_AN", "sigma_RP", "sigma"]
    for r in rows:
        assert set(r) == ROW_KEYS, r["claim"]
    json.dumps(rows, allow_nan=False)  # strict JSON: no NaN/inf anywhere


def test_rows_use_the_registry_parameters():
    """Each row's inputs are those of the registry entries it names (the mechanisms' own attributes)."""
    entries = {e.name: e for e in load_entries()}
    expected = {
        "gaussian-classical": lambda m: (m.epsilon, m.delta),
        "gaussian-kenthapadi": lambda m: (m.epsilon, m.delta),
    }
    by_name = {}
    for spec in CALIBRATION_ROWS:
        for name in spec.registry:
            assert name in entries, name
            by_name[name] = spec
    # every mechanism registry entry of the papers with a calibrated parameter is covered
    for name in ("gaussian-classical", "gaussian-kenthapadi", "laplace-scalar", "tu-theorem1-fresh",
                 "tu-theorem1-fixed", "tu-theorem2-fresh", "tu-theorem2-fixed", "jiang-laplace",
                 "jiang-wishart", "showkatbakhsh-additive", "showkatbakhsh-projection"):
        assert name in by_name, name
    for name, get in expected.items():
        mech = entries[name].factory()
        cal = by_name[name].calibrate()
        assert (cal.input_dict["epsilon"], cal.input_dict["delta"]) == get(mech)
        assert cal.value == pytest.approx(mech.sigma, rel=1e-12)  # the shipped sigma is the lemma's
    for name in ("tu-theorem1-fresh", "tu-theorem2-fresh"):
        mech = entries[name].factory()
        # the projection calibrations cost seconds: compare the declared inputs (the values are in the section)
        assert f"eps={mech.epsilon:g}" in by_name[name].parameters
        assert f"k={mech.projection_dim}" in by_name[name].parameters
    for name in ("jiang-laplace", "jiang-wishart"):
        mech = entries[name].factory()
        cal = by_name[name].calibrate()
        assert (cal.input_dict["epsilon"], cal.input_dict["n"], cal.input_dict["d"]) == (mech.epsilon, mech.n, mech.d)
    mech = entries["jiang-laplace"].factory()
    assert by_name["jiang-laplace"].calibrate().value == pytest.approx(mech.scale, rel=1e-12)
    for name in ("showkatbakhsh-additive",):
        mech = entries[name].factory()
        cal = by_name[name].calibrate()
        assert cal.input_dict["epsilon_bits"] == mech.mi_epsilon_bits
        assert cal.value == pytest.approx(mech.sigma, rel=1e-12)
    mech = entries["showkatbakhsh-projection"].factory()
    cal, note = by_name["showkatbakhsh-projection"].calibrate()
    assert (cal.input_dict["epsilon_bits"], cal.input_dict["n_prime"]) == (mech.mi_epsilon_bits, mech.projection_dim)
    assert "registry entry 'showkatbakhsh-projection'" in note


def test_registry_f2_matches_the_mechanism_module():
    from dpverify_mechanisms.showkatbakhsh_regression import f_of_x

    f2, source = registry_f2()
    data = {e.name: e for e in load_entries()}["showkatbakhsh-projection"].pairs()[0][0]
    assert f2 == pytest.approx(f_of_x(data[:, :-1]) ** 2, rel=1e-12)
    assert registry_f2("no-such-entry") == (None, "registry entry 'no-such-entry' is not loaded")


def test_classical_gaussian_at_eps10_is_flagged_unsafe(section):
    rows, text = section
    r = _row(rows, "lecture21-dp/lemma-6", epsilon=10.0)
    assert r["registry"] == []
    assert r["safe"] is False and r["flag"] == UNSAFE
    assert r["tightness"] < 1 and r["lemma_value"] < r["exact_value"]
    assert r["achieved_delta"] > r["inputs"]["delta"]  # its certified delta(eps) exceeds the target
    assert [p["flag"] for p in r["paper_values"]] == [UNSAFE]
    last = text[text.rindex("lecture21-dp/lemma-6"):text.index("Noise parameters")]  # the last row (cells wrap)
    assert "beyond the" in last and "UNSAFE (below" in last


def test_registry_gaussians_are_safe_with_tightness_from_the_exact_minimum(section):
    rows, _ = section
    exact = gaussian(1.0, 1e-5).sigma
    for claim in ("lecture21-dp/lemma-6", "tu-projections/lemma-2"):
        r = _row(rows, claim, epsilon=1.0)
        assert r["flag"] == SAFE and r["safe"] is True
        assert r["exact_value"] == exact
        assert r["tightness"] == pytest.approx(r["lemma_value"] / exact, rel=1e-15)
        assert r["tightness"] > 1.2  # the classical and Kenthapadi formulas waste noise at eps = 1


def test_projection_rows_carry_the_bracket_and_every_printed_reading(section):
    rows, _ = section
    t1 = _row(rows, "tu-projections/theorem-1")
    lo, hi = t1["exact_bracket"]
    assert lo <= hi == t1["exact_value"]
    assert t1["tightness_range"][0] <= t1["tightness_range"][1]
    assert len(t1["paper_values"]) >= 2  # Theorem 1's formula has several readings
    for p in t1["paper_values"]:
        assert p["flag"] == flag_of(p["safe"], t1["exact_value"])
        if p["value"] >= hi:
            assert p["safe"] is True
        elif p["value"] < lo:
            assert p["safe"] is False
    t2 = _row(rows, "tu-projections/theorem-2")
    assert t2["inputs"]["epsilon"] == 0.5 and t2["flag"] == SAFE


def test_rows_without_exact_profile_say_why(section):
    rows, text = section
    for claim in ("jiang-wishart/algorithm-1", "jiang-wishart/algorithm-2",
                  "showkatbakhsh-regression/lemma-1", "showkatbakhsh-regression/lemma-2"):
        r = _row(rows, claim)
        # a claim the proof runner refutes (verdict from the cache here) is UNSAFE, else "no exact profile"
        refuted = is_refuted((r.get("premise") or {}).get("verdict"))
        assert r["flag"] == (REFUTED_PREMISE if refuted else NO_PROFILE)
        assert r["exact_value"] is None and r["tightness"] is None
        assert r["exact_reason"] and " ".join(r["exact_reason"].split()) in " ".join(text.split())  # notes wrap
    assert "no exact profile [" in text


def test_section_is_deterministic(section):
    rows, text = section
    rows2, text2 = check_rows(None)
    assert text2 == text and json.dumps(rows2) == json.dumps(rows)
    assert all(isinstance(r["lemma_value"], float) and math.isfinite(r["lemma_value"]) for r in rows)


@pytest.fixture
def stub_check(monkeypatch):
    """``dpverify check`` with no audits and recording section builders (no mechanism is audited)."""
    called = []

    def builder(key):
        def build(args):
            called.append(key)
            return [{"key": key}], f"{key} table"
        return build

    monkeypatch.setattr(check_cli, "_mechanism_rows", lambda args: [])
    monkeypatch.setattr(check_cli, "EXTRA_SECTIONS",
                        [(key, title, builder(key)) for key, title, _ in check_cli.EXTRA_SECTIONS])
    return called


def test_calibrations_is_registered_after_proofs():
    keys = [key for key, _, _ in check_cli.EXTRA_SECTIONS]
    assert "calibrations" in keys and keys.index("calibrations") > keys.index("proofs")


@pytest.mark.parametrize("flags, expected", [
    ([], ["proofs", "calibrations"]),
    (["--no-calibrations"], ["proofs"]),
    (["--no-proofs"], ["calibrations"]),
    (["--no-proofs", "--no-calibrations"], []),
    (["--only", "laplace-scalar"], []),
], ids=["all", "no-calibrations", "no-proofs", "neither", "only"])
def test_check_skips_the_section_when_asked(stub_check, capsys, flags, expected):
    assert main(["check", "--json", *flags]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert stub_check == expected
    assert ("calibrations" in doc) == ("calibrations" in expected)


def test_check_json_holds_the_real_section(monkeypatch, capsys, section):
    monkeypatch.setattr(check_cli, "_mechanism_rows", lambda args: [])
    assert main(["check", "--json", "--no-proofs"]) == 0
    captured = capsys.readouterr()
    doc = json.loads(captured.out)
    assert doc["calibrations"] == json.loads(json.dumps(section[0]))
    assert captured.err == ""  # --json: nothing but the document


def test_check_text_prints_the_section(monkeypatch, capsys):
    monkeypatch.setattr(check_cli, "_mechanism_rows", lambda args: [])
    monkeypatch.setattr(check_cli, "EXTRA_SECTIONS",
                        [e for e in check_cli.EXTRA_SECTIONS if e[0] == "calibrations"])
    assert main(["check"]) == 0
    captured = capsys.readouterr()
    assert "Calibrations: the papers' noise vs the exact minimum" in captured.out
    assert UNSAFE in captured.out
    assert "calibrations in" in captured.err


def test_shipped_noise_is_one_of_the_printed_readings(section):
    """The registry's mechanisms follow the paper as printed: their sigma/C appears in the paper column."""
    rows, _ = section
    entries = {e.name: e for e in load_entries()}
    for name, claim, attr in (("tu-theorem1-fresh", "tu-projections/theorem-1", "sigma"),
                              ("tu-theorem2-fresh", "tu-projections/theorem-2", "sigma"),
                              ("jiang-wishart", "jiang-wishart/algorithm-2", "scale_value")):
        shipped = getattr(entries[name].factory(), attr)
        printed = [p["value"] for p in _row(rows, claim)["paper_values"]]
        assert any(shipped == pytest.approx(x, rel=1e-12) for x in printed), (name, shipped, printed)
