"""kernel_premise: a claim that rests on another claim sees that claim's Coq verdict, and only that.

The premise is kernel-checked only when its own CLAIM theorem compiles here; without Coq, inside
kernel_premises(False), or for a claim without a Coq theorem it is the proof file's verdict. The adversaries: a
claim with a kernel-checked premise and a tested one stays tested (showkatbakhsh Theorem 1: Lemma 3 kernel-checked,
Proposition 3 tested); a refuted premise is never upgraded; a wrong argument is rejected. Deterministic."""
from __future__ import annotations

import functools
import importlib
import types

import pytest

from dpverify.errors import InvalidArgument
from dpverify.symbolic import ProofVerdict, coq
from dpverify.symbolic.proof import refuted
from dpverify.symbolic.verdicts import ClaimReport

from _coq_checks import needs_coq

S = importlib.import_module("dpverify_proofs.showkatbakhsh_regression")


@needs_coq
def test_premise_with_a_coq_claim_theorem_is_kernel_checked():
    rep = S.lemma_3()
    assert rep.conclusion.verdict is ProofVerdict.TESTED  # the proof file's own verdict
    got = coq.kernel_premise(rep)
    assert got.verdict is ProofVerdict.KERNEL_CHECKED
    # the theorem from the proved spectral theorem decides it (ShowkatSpectral.v): no premise left
    assert "ShowkatSpectral.v" in got.evidence and got.premises == ()


def test_premise_inside_kernel_premises_false_is_the_files_verdict():
    rep = S.lemma_3()
    with coq.kernel_premises(False):
        got = coq.kernel_premise(rep)
    assert got is rep.conclusion


def test_premise_without_coq_is_the_files_verdict(monkeypatch):
    monkeypatch.setenv("DPVERIFY_COQC", "")  # no coqc
    rep = S.lemma_3()
    got = coq.kernel_premise(rep)
    assert got.verdict is ProofVerdict.TESTED
    assert "Coq not available" in got.evidence


def test_claim_without_coq_theorem_keeps_its_verdict():
    rep = S.proposition_3()
    assert not coq.entries_for(rep.id)
    assert coq.kernel_premise(rep).verdict is rep.conclusion.verdict


@needs_coq
def test_refuted_premise_is_not_upgraded():
    rep = S.lemma_3()
    lie = ClaimReport(rep.id, rep.statement, steps=rep.steps,
                      conclusion=refuted("a made-up counterexample for this test", {"x": "1"}))
    assert coq.kernel_premise(lie).verdict is ProofVerdict.REFUTED


@needs_coq
def test_theorem_1_stays_tested_with_a_kernel_checked_lemma_3():
    """The chain names Proposition 3 (probabilistic, tested): a kernel-checked Lemma 3 must not lift the claim."""
    r = S.theorem_1()
    assert r.conclusion.verdict is ProofVerdict.TESTED
    assert "Lemma 3 (kernel-checked)" in r.conclusion.evidence  # unconditional since the spectral theorem is proved
    assert "Proposition 3 (tested)" in r.conclusion.evidence


def test_kernel_premise_rejects_a_non_report():
    with pytest.raises(InvalidArgument, match="report="):
        coq.kernel_premise("showkatbakhsh-regression/lemma-3")
    with pytest.raises(InvalidArgument, match="enabled="):
        coq.kernel_premises("no")


def test_mode_switch_clears_proof_file_caches():
    from dpverify.symbolic import runner

    mod = types.ModuleType("fake_proofs")
    calls = []

    @functools.lru_cache(maxsize=None)
    def f():
        calls.append(1)
        return len(calls)

    f.__module__ = mod.__name__
    mod.f = f
    f(); f()
    assert calls == [1]
    runner.clear_caches(mod)
    f()
    assert calls == [1, 1]


# ---------------------------------------------------------------- kernel_step: one step of a proof settled in Coq


def _fallback():
    from dpverify.symbolic.proof import tested
    return tested("the step on 3 random instances (a test fallback)")


@needs_coq
def test_kernel_step_with_a_compiling_theorem_is_kernel_checked():
    got = coq.kernel_step("ZhouOpFrob.v", "opnorm_le_frobenius", "||G||_2 <= ||G||_F", _fallback())
    assert got.verdict is ProofVerdict.KERNEL_CHECKED and "opnorm_le_frobenius (ZhouOpFrob.v)" in got.evidence


@needs_coq
def test_kernel_step_with_a_missing_theorem_falls_back(monkeypatch):
    got = coq.kernel_step("ZhouOpFrob.v", "no_such_theorem", "nothing", _fallback())
    assert got.verdict is ProofVerdict.TESTED and "Print Assumptions failed" in got.evidence


def test_kernel_step_without_coq_or_disabled_falls_back(monkeypatch):
    fb = _fallback()
    with coq.kernel_premises(False):
        assert coq.kernel_step("ZhouOpFrob.v", "opnorm_le_frobenius", "s", fb) is fb
    monkeypatch.setenv("DPVERIFY_COQC", "")  # no coqc
    got = coq.kernel_step("ZhouOpFrob.v", "opnorm_le_frobenius", "s", fb)
    assert got.verdict is ProofVerdict.TESTED and "Coq not available" in got.evidence


def test_kernel_step_rejects_bad_arguments():
    with pytest.raises(InvalidArgument, match="theorem="):
        coq.kernel_step("ZhouOpFrob.v", "", "s", _fallback())
    with pytest.raises(InvalidArgument, match="fallback="):
        coq.kernel_step("ZhouOpFrob.v", "opnorm_le_frobenius", "s", "tested")


def test_kernel_step_never_hides_a_refuted_fallback():
    """The step's own check found a counterexample: a compiling Coq theorem must not turn that into kernel-checked
    (the two disagree, so one of them does not mean what it says; the counterexample is shown)."""
    from dpverify.symbolic.proof import refuted
    fb = refuted("a counterexample of the step's own check (this test)", {"x": "1"})
    assert coq.kernel_step("ZhouOpFrob.v", "opnorm_le_frobenius", "||G||_2 <= ||G||_F", fb) is fb


def test_ratio_at_most_one_decides_and_rejects_nan():
    from dpverify.symbolic.proof import ratio_at_most_one
    assert ratio_at_most_one(1.0, "ok", "lhs > rhs").verdict is ProofVerdict.TESTED
    bad = ratio_at_most_one(1.01, "ok", "lhs > rhs")
    assert bad.verdict is ProofVerdict.REFUTED and bad.counterexample == {"ratio": "1.01"} and "lhs > rhs" in bad.evidence
    for v in (float("nan"), float("inf")):
        with pytest.raises(InvalidArgument, match="worst="):
            ratio_at_most_one(v, "ok", "lhs > rhs")
