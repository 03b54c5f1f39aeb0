"""A sampler that raises is never a pass (issue 27, item 1).

Each draw whose ``sample`` call raises is the outcome ``error:<TypeName>``. When (nearly) every draw
of both datasets raises, that outcome is all the audit sees on both sides: it must end as a
MechanismError, in the API, the CLI and the pytest plugin, never as ``not-violated``. A sampler that
raises on one dataset only keeps its privacy signal (``violated``), and a mechanism raising on a
minority of draws keeps its verdict, with the raised draws counted and said.

False-failure rates: every test is deterministic given its seed. The statistical ones: a correct
Laplace(1) with 30 % of its draws raising on both sides keeps its claim (the error outcome has the
same probability on both datasets), so ``violated`` has probability <= 0.05 by the audit's
guarantee; the one-sided raiser (every draw of D' raises, none of D) is violated unless a
Clopper-Pearson bound on a 0-of-n / n-of-n count fails, probability < 1e-6; the 80 %-raising
sampler exceeds the MOSTLY_RAISED_SHARE = 0.5 threshold on both sides unless its binomial count
of raised draws (n ~ 4 000, p = 0.8) falls below half, probability < 1e-100.
"""
from __future__ import annotations

import sys

import numpy as np
import pytest

import dpverify
from dpverify import MechanismError, PrivacyClaim
from dpverify.auditing import blackbox
from dpverify.auditing.blackbox import InlineExecutor

import _adapter_fakes as fakes  # noqa: E402  (tests/support, on sys.path via tests/conftest.py)


class AlwaysRaises:
    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        raise RuntimeError("the service is down")


class WrongSignature:
    """``sample(self, d)``: every call with (data, size, rng) is a TypeError."""

    claim = PrivacyClaim(1.0)

    def sample(self, d):
        return np.asarray([d])


class RaisesSometimes:
    """Laplace(1) on a scalar; each one-output draw raises ValueError with probability ``p[data]``
    (a batch call raises whenever that probability is positive, so the audit draws one at a time)."""

    def __init__(self, p_d: float, p_dp: float):
        self.p = {0.0: p_d, 1.0: p_dp}
        self.claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        x = data + rng.laplace(0.0, 1.0, size)
        p = self.p[float(data)]
        if p > 0 and (size > 1 or rng.random() < p):
            raise ValueError("out of bounds")
        return x


def _audit(mech, samples=10_000, rng=0, pair=(0.0, 1.0)):
    return dpverify.audit(mech, pair, samples=samples, rng=rng, executor=InlineExecutor())


@pytest.mark.parametrize("mech", [AlwaysRaises(), WrongSignature()], ids=["always-raises", "wrong-signature"])
def test_a_sampler_raising_on_every_draw_is_a_mechanism_error(mech):
    with pytest.raises(MechanismError) as info:
        _audit(mech)
    msg = str(info.value)
    assert "raised on every probe draw of both datasets of pair 0" in msg
    assert info.value.pair == 0 and info.value.direction is None  # both datasets: no one direction
    assert f"{blackbox.PROBE_OUTPUTS} of {blackbox.PROBE_OUTPUTS} draws of D" in msg
    assert "no privacy verdict" in msg and "sample(data, size, rng)" in msg
    want = "RuntimeError: the service is down" if isinstance(mech, AlwaysRaises) else "TypeError"
    assert want in msg


def test_a_library_adapter_whose_every_draw_fails_is_a_mechanism_error(monkeypatch):
    """A library mechanism whose every release raises (here a TypeError on every call): the audit says so.

    (This used to be diffprivlib 0.4.1, whose mechanisms reject ``random_state``; the adapter now passes
    ``random_state`` only where the signature takes it, so that release is audited: tests/adapters.)"""
    dl = fakes.install_diffprivlib(monkeypatch)

    class OldLaplace(dl.mechanisms.Laplace):
        def randomise(self, value):  # every release fails, as a library call with a rejected keyword does
            raise TypeError("randomise() got an unexpected keyword argument 'random_state'")

    A = fakes.fresh_adapter(monkeypatch, "diffprivlib")
    m = A.mechanism(OldLaplace(epsilon=1.0, sensitivity=1.0))
    with pytest.raises(TypeError):  # the failure the audit must not hide
        m.sample(0.0, 1, np.random.default_rng(0))
    with pytest.raises(MechanismError, match=r"raised on every probe draw.*TypeError.*random_state"):
        _audit(m)


def test_mostly_raising_on_both_sides_is_a_mechanism_error():
    with pytest.raises(MechanismError) as info:
        _audit(RaisesSometimes(0.8, 0.8))
    msg = str(info.value)
    assert "raised on most draws of both datasets of pair 0" in msg and "ValueError" in msg


def test_raising_on_a_minority_of_draws_keeps_the_verdict_and_counts_them():
    r = _audit(RaisesSometimes(0.3, 0.3))
    assert r.verdict is not dpverify.Verdict.VIOLATED and r.passed
    (a, b), = r.raised_draws
    total = blackbox.PROBE_OUTPUTS + 10_000
    assert 0.2 * total < a < 0.4 * total and 0.2 * total < b < 0.4 * total
    note = next(n for n in r.notes if n.startswith("sample raised on"))
    assert f"{a} of {total} draws of D and {b} of {total} draws of D'" in note and "ValueError" in note
    assert r.to_dict()["raised_draws"] == [[a, b]]


@pytest.mark.parametrize("p_d", [0.0, 0.8], ids=["D-never", "D-mostly"])
def test_raising_on_one_dataset_only_is_still_a_privacy_signal(p_d):
    """Every draw of D' raises: the error outcome separates the datasets (violated, eps_lower large),
    even when D raises on most draws too (the degenerate rule gives way to a certified violation)."""
    r = _audit(RaisesSometimes(p_d, 1.0))
    assert r.verdict is dpverify.Verdict.VIOLATED and not r.passed and r.epsilon_lower > 3
    a, b = r.raised_draws[0]
    assert b == blackbox.PROBE_OUTPUTS + 10_000 and (a == 0) == (p_d == 0.0)


def test_no_raised_draws_means_no_note():
    r = _audit(RaisesSometimes(0.0, 0.0), samples=2_000)
    assert r.raised_draws == ((0, 0),) and not any("sample raised" in n for n in r.notes)
    assert r.to_dict()["raised_draws"] == [[0, 0]]


# -- the CLI and the pytest plugin: the three broken samplers of the issue ------------------------------

ADAPTERS_DIR = str(__import__("pathlib").Path(__file__).resolve().parents[2] / "support")

#: Source defining MECH, one of the three broken samplers (the adapter one over the diffprivlib fake,
#: installed by the caller's ``monkeypatch``).
BROKEN = {
    "always-raises": """
from dpverify import PrivacyClaim

class AlwaysRaises:
    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        raise RuntimeError("the service is down")

def make(monkeypatch):
    return AlwaysRaises()
""",
    "wrong-signature": """
from dpverify import PrivacyClaim

class WrongSignature:
    claim = PrivacyClaim(1.0)

    def sample(self, d):
        return d

def make(monkeypatch):
    return WrongSignature()
""",
    "adapter-every-draw-fails": f"""
import sys
sys.path.insert(0, {ADAPTERS_DIR!r})
import _adapter_fakes as fakes

def make(monkeypatch):
    dl = fakes.install_diffprivlib(monkeypatch)

    class OldLaplace(dl.mechanisms.Laplace):
        def randomise(self, value):  # every release fails
            raise TypeError("randomise() got an unexpected keyword argument 'random_state'")

    A = fakes.fresh_adapter(monkeypatch, "diffprivlib")
    return A.mechanism(OldLaplace(epsilon=1.0, sensitivity=1.0))
""",
}


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_cli_audit_of_a_broken_sampler_exits_nonzero_without_traceback(kind, tmp_path, monkeypatch, capsys):
    import types

    src = types.ModuleType("bb_broken_src")
    exec(compile(BROKEN[kind], f"<{kind}>", "exec"), src.__dict__)
    mod = types.ModuleType("bb_broken_mod")
    mod.MECH, mod.PAIRS = src.make(monkeypatch), (0.0, 1.0)
    monkeypatch.setitem(sys.modules, "bb_broken_mod", mod)
    from dpverify.cli import main

    code = main(["audit", "bb_broken_mod:MECH", "--pairs", "bb_broken_mod:PAIRS", "--samples", "2000",
                 "--seed", "0"])
    out, err = capsys.readouterr()
    assert code != 0 and "not-violated" not in out and "passed" not in out
    assert "MechanismError" in err and "raised on every probe draw" in err and "Traceback" not in err


# -- the pytest plugin ------------------------------------------------------------------------------

pytest_plugins = ["pytester"]


@pytest.mark.parametrize("kind", sorted(BROKEN))
def test_plugin_assert_private_on_a_broken_sampler_fails(kind, pytester):
    pytester.makepyfile(BROKEN[kind] + """

def test_private(dp_auditor, monkeypatch):
    dp_auditor.assert_private(make(monkeypatch), (0.0, 1.0), samples=2000)
""")
    res = pytester.runpytest("-p", "no:hypothesispytest", "-p", "no:benchmark", "-p", "no:cacheprovider")
    res.assert_outcomes(failed=1)
    res.stdout.fnmatch_lines(["*MechanismError*raised on every probe draw*"])

class Constant:
    """Ignores its data (as a wrong data parameter would make an adapter do): one outcome on both sides."""

    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        return np.zeros(size)


def test_one_identical_outcome_on_both_sides_is_said():
    r = _audit(Constant(), samples=2_000)
    assert r.verdict is dpverify.Verdict.NOT_VIOLATED  # a constant release is private: no false alarm
    assert any("was the same outcome" in n and "data_param" in n for n in r.notes)
