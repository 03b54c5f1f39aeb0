"""The command line as a reviewer meets it (issue 13, points 4, 5 and 7): streaming tables that fit
the terminal, expected-vs-observed for controls, --fail-on exit statuses, errors that name the
option typed, and a finished verdict that a failing plot does not throw away."""
from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from dpverify.cli import EXIT_FAIL_ON, main
from dpverify.report import check_table
from dpverify.rounding import fmt_lower, fmt_upper
from dpverify.tables import StreamTable

HERE = os.path.dirname(__file__)


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_stream_table_wraps_instead_of_cutting():
    import io

    out = io.StringIO()
    t = StreamTable([("name", 10, True), ("verdict", 12, False)], width=30, out=out)
    t.header()
    long = "a-very-long-mechanism-name-that-does-not-fit"
    t.row([long, "not-violated"], details="evidence " * 10)
    lines = out.getvalue().splitlines()
    assert all(len(line) <= 30 for line in lines), lines
    assert "..." not in out.getvalue()
    assert "".join(line[:16].strip() for line in lines[2:5]).startswith(long[:40])
    assert sum("evidence" in line for line in lines) >= 3 and all(line.startswith("    ") for line in lines[-3:])


def test_check_fits_120_columns_with_expected_column_and_summary(capsys, monkeypatch):
    monkeypatch.setenv("COLUMNS", "120")
    names = ["laplace-scalar", "svt-alg5-stoddard", "noisy-max-laplace-argmax"]
    argv = ["check", "--samples-scale", "0.05", "--no-search"] + [a for n in names for a in ("--only", n)]
    code, out, err = run(capsys, *argv)
    assert code == 0
    assert max(len(line) for line in out.splitlines()) <= 120
    assert "..." not in out
    assert "expected" in out and "2/2 as expected" in out
    assert "[1/3] auditing laplace-scalar" in err


def test_fail_on_unexpected_and_violated(capsys, monkeypatch):
    """A faulty control that comes out violated is as expected; --fail-on violated ignores it but a
    paper mechanism found violated counts; a control whose verdict is unexpected fails --fail-on unexpected."""
    code, out, _ = run(capsys, "check", "--only", "svt-alg5-stoddard", "--samples-scale", "0.05", "--no-search",
                       "--fail-on", "violated", "--json")
    doc = json.loads(out)
    assert doc["faulty"][0]["verdict"] == "violated" and code == 0
    code, out, _ = run(capsys, "check", "--only", "jiang-wishart", "--samples-scale", "0.05", "--no-search",
                       "--fail-on", "violated", "--json")
    assert json.loads(out)["mechanisms"][0]["verdict"] == "violated" and code == EXIT_FAIL_ON
    # a mutated expectation: the correct control said to be faulty is now "not as expected"
    real = check_table.expected_verdict
    monkeypatch.setattr(check_table, "expected_verdict",
                        lambda e: "violated" if e.name == "noisy-max-laplace-argmax" else real(e))
    code, out, err = run(capsys, "check", "--only", "noisy-max-laplace-argmax", "--samples-scale", "0.05",
                         "--no-search", "--fail-on", "unexpected")
    assert code == EXIT_FAIL_ON
    assert "0/1 as expected; NOT as expected: noisy-max-laplace-argmax" in out
    assert "--fail-on unexpected: noisy-max-laplace-argmax" in err


def test_audit_fail_on_violated(capsys):
    argv = ["audit", "laplace-scalar", "--samples", "2e4", "--seed", "1", "--epsilon", "0.5"]
    assert run(capsys, *argv)[0] == 0
    assert run(capsys, *argv, "--fail-on", "violated")[0] == EXIT_FAIL_ON


@pytest.mark.parametrize("argv, needle", [
    (["audit", "laplace-scalar", "--seed", "-1"], "argument --seed: '-1': a seed must be >= 0"),
    (["check", "--seed", "-1"], "argument --seed: '-1': a seed must be >= 0"),
    (["audit", "laplace-scalar", "--samples", "1.5"], "argument --samples: '1.5' must be a whole number"),
    (["audit", "laplace-scalar", "--samples", "nan"], "argument --samples: 'nan' must be a whole number"),
    (["audit", "laplace-scalar", "--plot", "/no/such/folder/x.png"], "--plot='/no/such/folder/x.png': the folder"),
    (["audit", "svt-alg1-lyu", "--plot", "/no/such/folder/x.png"], "--plot='/no/such/folder/x.png': the folder"),
], ids=["audit-seed", "check-seed", "samples-fraction", "samples-nan", "plot-folder", "plot-folder-black-box"])
def test_errors_name_the_option_typed(capsys, argv, needle):
    try:
        code, _, err = run(capsys, *argv)
    except SystemExit as exc:  # argparse's own errors exit from parse_args
        code, err = exc.code, capsys.readouterr().err
    assert code == 2 and needle in err and err.count("\n") == 1
    assert "rng=" not in err and "profile=" not in err


def test_samples_accepts_scientific_notation(capsys):
    code, out, _ = run(capsys, "audit", "laplace-scalar", "--samples", "1e3", "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["samples"] == 1000


def test_reproduce_line_after_delta_resolution_names_the_same_audit(capsys):
    code, out, _ = run(capsys, "audit", "laplace-scalar", "--delta-resolution", "0.05", "--seed", "4")
    assert code == 0
    line = out.strip().splitlines()[-1]
    assert line == "reproduce with: dpverify audit laplace-scalar --delta-resolution 0.05 --seed 4"
    code2, out2, _ = run(capsys, *line.split()[3:])
    assert out2.splitlines()[0].split(", ")[:3] == out.splitlines()[0].split(", ")[:3]


def test_a_failing_plot_keeps_the_verdict(capsys, monkeypatch, tmp_path):
    import dpverify.report as report

    def broken(result, path, **kw):
        raise OSError("disk full")

    monkeypatch.setattr(report, "save_audit_plot", broken)
    pytest.importorskip("matplotlib")
    code, out, err = run(capsys, "audit", "laplace-scalar", "--samples", "2000", "--seed", "1",
                         "--plot", str(tmp_path / "p.png"))
    assert code == 1 and "not-violated" in out and "reproduce with" in out
    assert "the verdict above stands, but the plot was not saved: disk full" in err


def test_module_in_the_current_directory_is_found(tmp_path, monkeypatch, capsys):
    (tmp_path / "my_mod_for_cli.py").write_text(
        "from dpverify_mechanisms.lecture21_dp import ScalarLaplace\n"
        "def make():\n    return ScalarLaplace(1.0)\nPAIR = (0.0, 1.0)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    code, out, _ = run(capsys, "audit", "my_mod_for_cli:make", "--pairs", "my_mod_for_cli:PAIR", "--samples", "1000",
                       "--seed", "1", "--json")
    assert code == 0 and json.loads(out)["verdict"] != "violated"
    assert sys.path[-1] == str(tmp_path)  # appended: installed packages keep precedence


def test_help_describes_the_tool_and_exit_statuses(capsys):
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "One module per subcommand" not in out and "register" not in out
    assert "exit status:" in out and "--fail-on" in out


@pytest.mark.parametrize("x", [5e-324, 1e-310, 2.5e-300, 1e-280, 0.1, 123456.7, 1e300])
def test_directed_rounding_never_crosses_and_never_divides_by_zero(x):
    from decimal import Decimal

    assert Decimal(fmt_lower(x)) <= Decimal(x) <= Decimal(fmt_upper(x))


def test_calibrate_tiny_delta_prints(capsys):
    code, out, _ = run(capsys, "calibrate", "gaussian", "--epsilon", "1", "--delta", "1e-280")
    assert code == 0 and "sigma = " in out


def test_calibrator_names_are_listed_without_importing_them():
    from dpverify.calibrate import CALIBRATORS
    from dpverify.cli.calibrate import OPTIONS

    assert list(OPTIONS) == list(CALIBRATORS)


def test_check_prints_its_first_row_early():
    """The first row arrives after one audit, not after all of them (wall time: see docs; here the
    row must precede the second audit's progress line)."""
    env = dict(os.environ, COLUMNS="120")
    p = subprocess.Popen([sys.executable, "-u", "-m", "dpverify", "check", "--samples-scale", "0.05", "--no-search",
                          "--only", "laplace-scalar", "--only", "laplace-vector", "--no-proofs"],
                         stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    out, _ = p.communicate(timeout=300)
    lines = out.splitlines()
    first_row = next(i for i, line in enumerate(lines) if line.startswith("laplace-scalar"))
    second = next(i for i, line in enumerate(lines) if "[2/2] auditing laplace-vector" in line)
    assert first_row < second
