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
    # showkatbakhsh proposition-1/some-delta: sympy collects -delta - delta into -2 delta on the lhs too, so the
    # literal -2 changed on both sides leaves the identity true (equivalent, flagged); changed on one side it is
    # false and killed
    tv = [o for o in rep.outcomes if o.mutant.claim.endswith("some-delta") and "literal -2" in o.mutant.description]
    both = [o for o in tv if "only" not in o.mutant.description]
    one = [o for o in tv if "only" in o.mutant.description]
    assert both and all(not o.false and o.equivalent for o in both), [(o.mutant.description, o.false) for o in both]
    assert len(one) == 4 and all(o.false and o.killed for o in one), [(o.mutant.description, o.false, o.verdict) for o in one]


@pytest.mark.slow
def test_full_campaign_kills_every_false_mutant(statements):
    rep = run_campaign(statements)  # 60 s per mutant check: a check that runs out is a survivor if the mutant is false
    assert not rep.survivors, [(o.mutant.claim, o.mutant.description, o.witness, o.check_timed_out) for o in rep.survivors]
    assert not rep.undecided, [(o.mutant.claim, o.mutant.description, o.verdict) for o in rep.undecided]


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


def test_dropped_hypothesis_is_judged_on_the_whole_domain():
    """lecture21-dp Lemma 6 (classical Gaussian mechanism) with eps <= 1 dropped: false (eps = 10 is outside the
    certificate's box, which the numeric check now samples) and killed (the checker searches outside its box too)."""
    lem = LEC.statements()["lecture21-dp/lemma-6/eps-le-1"]
    (m,) = [m for m in mutants("lemma-6", lem) if m.description.startswith("hypothesis")]
    pt = numerically_false(m.statement, n=60)
    assert pt is not None and pt["epsilon"] > 1, pt
    res = m.statement.check()
    assert res.verdict is ProofVerdict.REFUTED and float(res.counterexample["epsilon"]) > 1, res.evidence
    assert lem.check().verdict is ProofVerdict.CERTIFIED  # the original keeps its certificate


def _toy_reduced():
    """x <= 1 => x^2 <= c (x + 1) (c = 1): certified on the box [1e-3, 1] (Arb), witness the same inequality sampled."""
    import sympy as sp

    from dpverify.symbolic import Lemma, Range, Strategy
    from dpverify.symbolic.dp_statements import ReducedStatement

    x, c = sp.Symbol("x", positive=True), sp.Symbol("c_toy", positive=True)
    res = Lemma(id="toy/residual", source="test", statement="x^2 <= c (x + 1)", symbols=(x,), hypotheses=(sp.Le(x, 1),),
                conclusion=sp.Le(x * x, c * (x + 1), evaluate=False), strategy=Strategy.INTERVAL,
                box={"x": Range(1e-3, 1, "log")}, samples=40)
    wit = res.mutated(id="toy/witness", strategy=Strategy.SAMPLED)
    return ReducedStatement("toy", "x <= 1 => x^2 <= x + 1", reduction=(), residual=res, witness=wit,
                            constants={"c_toy": 1})


def test_reduced_statement_hypothesis_drop_is_rechecked():
    """A ReducedStatement's hypothesis is dropped from its residual and witness, and the mutant is checked afresh:
    the original is certified, the mutant (false for x > 1.62) is refuted, not given the original's verdict."""
    st = _toy_reduced()
    assert st.check().verdict is ProofVerdict.CERTIFIED
    drops = [m for m in mutants("toy", st) if m.description.startswith("hypothesis")]
    assert len(drops) == 1 and not drops[0].statement.residual.hypotheses and not drops[0].statement.witness.hypotheses
    assert numerically_false(drops[0].statement, n=40) is not None
    assert drops[0].statement.check().verdict is ProofVerdict.REFUTED
    rep = run_campaign({"toy": st}, n=40)
    assert rep.false_mutants and not rep.survivors
