"""MI-DP certified capacity bounds; headless plots; the CLI's --plot and check's search."""
from __future__ import annotations

import json
import math

import mpmath
import pytest

import dpverify
from dpverify import InvalidArgument, Verdict
from dpverify.auditing.mutual_information import (
    AmplitudeGaussianChannel,
    ProjectionChannel,
    audit_mutual_information,
)
from dpverify_mechanisms.lecture21_dp import ClassicalGaussian


def sigma_an(eps_bits: float) -> float:
    """showkatbakhsh-regression eq. (9): sigma_AN^2 = 1 / (2^(2 eps) - 1)."""
    return math.sqrt(1.0 / (2 ** (2 * eps_bits) - 1))


def binary_input_mi_bits(sigma: float) -> float:
    """I(X; X + sigma N) for X uniform on {-1, +1}, by mpmath quadrature (an independent oracle)."""
    s = mpmath.mpf(sigma)

    def f(y):
        p1 = mpmath.npdf(y, 1, s)
        p0 = mpmath.npdf(y, -1, s)
        q = (p0 + p1) / 2
        return p1 * mpmath.log(p1 / q)

    return float(mpmath.quad(f, [-mpmath.inf, 0, mpmath.inf]) / mpmath.log(2))


@pytest.mark.parametrize("eps", [0.2, 0.5, 1.0])
def test_additive_release_lemma1_holds_with_certified_bounds(eps):
    r = audit_mutual_information(AmplitudeGaussianChannel(sigma_an(eps)), eps)
    assert r.verdict is Verdict.NOT_VIOLATED
    assert r.capacity_lower <= r.capacity_upper <= eps
    assert r.capacity_upper - r.capacity_lower < 1e-3
    # The binary input law is feasible, so its MI is <= capacity <= upper bound.
    assert binary_input_mi_bits(sigma_an(eps)) <= r.capacity_upper


def test_understated_claim_is_violated():
    r = audit_mutual_information(AmplitudeGaussianChannel(sigma_an(0.5)), 0.25)
    assert r.verdict is Verdict.VIOLATED and r.capacity_lower > 0.25
    d = r.to_dict()
    assert d["verdict"] == "violated" and d["channel"]["channel"] == "amplitude-gaussian"


def test_projection_channel_bounds_bracket_and_match_the_coherent_bound():
    eps, m = 0.5, 10
    s2 = m / (2 ** (2 * eps) - 1)  # worst-case rest: s^2 = n' / (2^(2 eps) - 1)
    r = audit_mutual_information(ProjectionChannel(s2, m), eps)
    assert 0 < r.capacity_lower < r.capacity_upper
    assert r.capacity_upper == pytest.approx(eps, abs=1e-8)
    assert r.verdict is Verdict.INCONCLUSIVE  # the coherent bound is exactly the claim
    roomy = audit_mutual_information(ProjectionChannel(2 * s2, m), eps)
    assert roomy.verdict is Verdict.NOT_VIOLATED


@pytest.mark.parametrize("call, needle", [
    pytest.param(lambda: AmplitudeGaussianChannel(0.0), "sigma=0.0", id="sigma-zero"),
    pytest.param(lambda: AmplitudeGaussianChannel(1.0, amplitude=math.nan), "amplitude=nan", id="amp-nan"),
    pytest.param(lambda: ProjectionChannel(1.0, 0), "dimension=0", id="dim-zero"),
    pytest.param(lambda: ProjectionChannel(-1.0, 3), "noise_variance=-1.0", id="var-negative"),
    pytest.param(lambda: audit_mutual_information(AmplitudeGaussianChannel(1.0), -0.1), "claim_bits", id="claim-neg"),
    pytest.param(lambda: audit_mutual_information("awgn", 0.5), "channel=", id="channel-string"),
    pytest.param(lambda: audit_mutual_information(AmplitudeGaussianChannel(1.0), 0.5, input_points=1),
                 "input_points", id="points-one"),
])
def test_bad_mi_arguments(call, needle):
    with pytest.raises(InvalidArgument, match=needle):
        call()


def test_plot_renders_headless(tmp_path):
    pytest.importorskip("matplotlib")
    from dpverify.report import save_audit_plot

    r = dpverify.audit(ClassicalGaussian(10, 1e-5), (0.0, 1.0), samples=20_000, rng=1, profile=True)
    out = tmp_path / "audit.png"
    save_audit_plot(r, out)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 5_000
    import matplotlib

    assert matplotlib.get_backend().lower() == "agg"
    without = dpverify.audit(ClassicalGaussian(10, 1e-5), (0.0, 1.0), samples=1_000, rng=1)
    with pytest.raises(InvalidArgument, match="profile=True"):
        save_audit_plot(without, tmp_path / "x.png")


def test_cli_audit_plot_and_json(tmp_path, monkeypatch, capsys):
    pytest.importorskip("matplotlib")
    from dpverify.cli import main

    mod = tmp_path / "wb_cli_mech.py"
    mod.write_text("from dpverify_mechanisms.lecture21_dp import ClassicalGaussian\n"
                   "def mech():\n    return ClassicalGaussian(10, 1e-5)\nPAIR = (0.0, 1.0)\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    png = tmp_path / "p.png"
    code = main(["audit", "wb_cli_mech:mech", "--pairs", "wb_cli_mech:PAIR", "--samples", "20000", "--seed", "1",
                 "--plot", str(png), "--json"])
    assert code == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["verdict"] == "violated" and png.exists()


def test_check_runs_the_search(capsys):
    """The registry rows of `dpverify check` (``--only`` skips the other sections of the job)."""
    from dpverify.cli import main

    def row(*extra):
        main(["check", "--only", "gaussian-classical", "--samples-scale", "0.05", "--seed", "0", "--json", *extra])
        doc = json.loads(capsys.readouterr().out)
        assert len(doc["mechanisms"]) == 1
        return doc["mechanisms"][0]

    found = row()
    assert found["search"]["generator"] == "AdversarialSearch"
    assert found["search"]["certified_pairs"] >= 2
    assert row("--no-search")["search"] is None
