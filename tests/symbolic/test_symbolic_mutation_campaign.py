"""The automatic mutation campaign (``dpverify.symbolic.mutation``) over the proof files' encoded statements.

Every mutant that the independent numeric check finds false must not stay PROVED/CERTIFIED (kill rate 100%).
The checks are deterministic (sympy, Arb balls, seeded searches re-evaluated at 50 digits; the numeric check
uses its own seed): no false-failure rate to state. The default suite runs the campaign on the cheap
statements; ``-m slow`` runs it on every statement of every proof file.
"""
from __future__ import annotations

import importlib

import pytest

from dpverify.symbolic import ProofVerdict
from dpverify.symbolic.mutation import mutants, numerically_false, proof_statements, run_campaign

LEC = importlib.import_module("dpverify_proofs.lecture21_dp")
# the default suite's subset (cheap checks); the slow test runs every statement
FAST = ("lecture21-dp/lemma-1", "lecture21-dp/lemma-2", "showkatbakhsh-regression/proposition-1/some-delta")


@pytest.fixture(scope="module")
def statements():
    return proof_statements()


def test_fast_campaign_kills_every_false_mutant(statements):
    rep = run_campaign({k: statements[k] for k in FAST}, n=100)
    assert len(rep.claims) == len(FAST), rep.claims
    assert len(rep.false_mutants) >= 2  # the campaign does produce false mutants
    assert not rep.survivors, [(o.mutant.claim, o.mutant.description, o.witness) for o in rep.survivors]


@pytest.mark.slow
def test_full_campaign_kills_every_false_mutant(statements):
    rep = run_campaign(statements)
    assert not rep.survivors, [(o.mutant.claim, o.mutant.description, o.witness) for o in rep.survivors]


def test_the_issue_mutants_are_refuted():
    """Laplace with half the noise; post-processing giving (eps, delta/2); composition giving (eps1 + eps2)/2."""
    from dataclasses import replace

    half_noise = replace(LEC.lemma_1_statement(), constants={"c_scale": 0.5}).check()
    post = LEC.post_processing_statement().with_constants(c_delta=0.5).check()
    comp = LEC.composition_statement().with_constants(c_comp=0.5).check()
    for r in (half_noise, post, comp):
        assert r.verdict is ProofVerdict.REFUTED and r.counterexample, r.evidence


def test_every_encoded_statement_decides_its_claim(statements):
    """The link: a claim's reported conclusion is no stronger than its encoded statement's verdict, and a
    refuted statement gives a refuted claim (so the mutated object is the one behind the verdict)."""
    order = [ProofVerdict.PROVED, ProofVerdict.CERTIFIED, ProofVerdict.TESTED, ProofVerdict.UNKNOWN]
    reports = {r.id: r for r in [LEC.lemma_1(), LEC.lemma_2(), LEC.lemma_4(), *LEC.lemma_5()]}
    for cid, st in statements.items():
        if cid not in reports:
            continue
        v, c = st.check().verdict, reports[cid].conclusion.verdict
        if v is ProofVerdict.REFUTED:
            assert c is ProofVerdict.REFUTED, cid
        else:
            assert c is not ProofVerdict.REFUTED and order.index(c) >= order.index(v), (cid, v, c)


def test_numeric_check_is_independent_and_can_say_false():
    lem = LEC.lemma_1_statement()
    from dataclasses import replace
    assert numerically_false(lem) is None
    assert numerically_false(replace(lem, constants={"c_scale": 0.9})) is not None
    assert any(m.description == "inequality flipped" for m in mutants("x", lem))
