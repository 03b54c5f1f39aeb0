"""Verdict strengths (issue 33): premises in the label, boxes apart from whole domains, the weakest-premise rule across
chains, the count columns and the strong share over decidable claims. Pure Python, fast."""
from __future__ import annotations

import pytest
import sympy as sp

from dpverify.errors import InvalidArgument
from dpverify.symbolic import Lemma, Range, Strategy
from dpverify.symbolic.findings import render, strong_share
from dpverify.symbolic import proof as P
from dpverify.symbolic.strategies import handler_for
from dpverify.symbolic.proof import certified, chain, fact, given, proved, published, rests_on
from dpverify.symbolic.verdicts import (COUNT_COLUMNS, WHOLE, CheckResult, ClaimReport, Premise, PremiseKind, ProofVerdict,
                                        Strength, rows_counts, rows_share, strength_counts)

SPECTRAL = fact("spectral theorem")


def _report(cid, concl, **kw):
    return ClaimReport(cid, "a statement", steps=concl, conclusion=concl, **kw)


def test_unconditional_verdicts_are_strong():
    assert proved("sympy").strength is Strength.PROVED
    assert certified("Arb").strength is Strength.CERTIFIED
    assert CheckResult(ProofVerdict.KERNEL_CHECKED, "coq").strength is Strength.KERNEL_CHECKED


def test_a_box_is_not_the_whole_domain():
    r = certified("Arb on a box", domain="k in [1, 20]")
    assert r.strength is Strength.CERTIFIED_ON_BOX
    assert r.strength_label == "certified on B (k in [1, 20])"
    assert r.to_dict()["domain"] == "k in [1, 20]"


def test_given_names_each_premise():
    r = given(CheckResult(ProofVerdict.KERNEL_CHECKED, "coq"), SPECTRAL,
              published("Pinsker", "Pinsker 1964"))
    assert r.strength is Strength.KERNEL_CHECKED_GIVEN
    assert "spectral theorem" in r.strength_label and "Pinsker (Pinsker 1964)" in r.strength_label
    assert [p["name"] for p in r.to_dict()["premises"]] == ["spectral theorem", "Pinsker"]


def test_given_does_not_dress_up_a_weak_verdict():
    assert given(P.tested("20 points"), SPECTRAL).strength is Strength.TESTED


def test_premise_validation():
    with pytest.raises(InvalidArgument, match="CLAIM premise"):
        Premise("Lemma 4.4", PremiseKind.CLAIM)
    with pytest.raises(InvalidArgument, match="reference"):
        Premise("a theorem", PremiseKind.PUBLISHED)
    with pytest.raises(InvalidArgument, match="Premise values"):
        CheckResult(ProofVerdict.PROVED, "x", premises=("spectral theorem",))
    with pytest.raises(InvalidArgument, match="domain"):
        CheckResult(ProofVerdict.PROVED, "x", domain=" ")


def test_rests_on_carries_boxes_and_premises_of_the_premise():
    """The weakest-premise rule: a kernel-checked result resting on a box certificate is a box certificate; resting on
    a conditional premise, it is conditional on that premise's premises."""
    kc = CheckResult(ProofVerdict.KERNEL_CHECKED, "coq")
    boxed = rests_on(kc, ("Lemma 4.4", certified("Arb", domain="n in [2, 100]")))
    assert boxed.verdict is ProofVerdict.CERTIFIED and boxed.strength is Strength.CERTIFIED_ON_BOX
    assert boxed.domain == "n in [2, 100]"
    cond = rests_on(proved("sympy"), ("Lemma 3", given(proved("coq"), SPECTRAL)))
    assert cond.strength is Strength.PROVED_GIVEN and cond.premises == (SPECTRAL,)
    clean = rests_on(proved("sympy"), ("Lemma 3", proved("sympy too")))
    assert clean.strength is Strength.PROVED and clean.domain == WHOLE


def test_chain_carries_boxes_and_premises():
    c = chain([("a", proved("x")), ("b", certified("y", domain="eps in [0.001, 1]")), ("c", given(proved("z"), SPECTRAL))])
    assert c.verdict is ProofVerdict.CERTIFIED
    assert c.domain == "eps in [0.001, 1]" and c.premises == (SPECTRAL,)
    assert c.strength is Strength.CERTIFIED_GIVEN


def test_step_strength_when_only_a_step_is_checked():
    r = _report("p/lemma-1", CheckResult(ProofVerdict.UNKNOWN, "the tail is not checked"),
                checked_steps=("kernel-checked step: arithmetic",))
    assert r.strength is Strength.STEP and r.to_dict()["strength"] == "step"


def test_counts_put_each_theorem_in_one_column_and_undecidable_apart():
    reports = [
        _report("p/a", proved("x")),
        _report("p/b", certified("y", domain="k in [1, 20]")),
        _report("p/c", given(CheckResult(ProofVerdict.KERNEL_CHECKED, "coq"), SPECTRAL)),
        _report("p/d", CheckResult(ProofVerdict.UNKNOWN, "O(.) rates"), undecidable="O(.) rates without constants"),
        _report("p/e", CheckResult(ProofVerdict.REFUTED, "no", counterexample={"x": "1"})),
        _report("p/f", proved("def"), kind="definition"),
        _report("p/g", CheckResult(ProofVerdict.KERNEL_CHECKED, "coq")),
    ]
    counts = strength_counts((r.strength.value, r.kind, r.decidable) for r in reports)
    assert list(counts) == list(COUNT_COLUMNS)
    assert counts["proved"] == 1 and counts["kernel-checked"] == 1 and counts["certified on B"] == 1
    assert counts["kernel-checked given"] == 1 and counts["not decidable"] == 1 and counts["refuted"] == 1
    assert sum(counts.values()) == 6  # the definition is not a theorem
    # strong share: unconditional kc/proved/whole certified over decidable theorems not refuted: 2 of 4
    assert strong_share(reports) == (2, 4)
    rows = [r.to_dict() for r in reports]
    assert rows_counts(rows) == counts
    assert rows_share(rows) == {"strong": 2, "decidable": 4, "percent": 50.0}
    assert rows[3]["decidable"] is False and rows[3]["decidable_reason"] == "O(.) rates without constants"
    text = render(reports)
    assert "### Not decidable as stated" in text and "`p/d` | O(.) rates without constants" in text
    assert "2 (50%)" in text


def test_unknown_strength_is_rejected_by_the_counts():
    with pytest.raises(InvalidArgument, match="strength="):
        strength_counts([("proven", "theorem", True)])


def _lemma(box, hyps=()):
    x = sp.Symbol("x", positive=True)
    return Lemma(id="t/x", source="test", statement="x^2 <= x on (0, 1]", symbols=(x,),
                 conclusion=sp.Le(x**2, x), hypotheses=hyps, strategy=Strategy.INTERVAL, box=box, samples=10)


def test_certified_domain_covers_a_bounded_domain_only():
    x = sp.Symbol("x", positive=True)
    whole = _lemma({"x": Range(0, 1)}, hyps=(sp.Le(x, 1),)).certified_domain()
    assert whole == WHOLE
    assert _lemma({"x": Range(0.001, 1)}, hyps=(sp.Le(x, 1),)).certified_domain() == "x in [0.001, 1]"
    assert _lemma({"x": Range(0, 1)}).certified_domain() == "x in [0, 1]"  # x > 0 unbounded: the box is a box


def test_a_failing_cell_centre_is_refuted_not_tested():
    """A certifier whose cell cannot be certified evaluates the cell's centre rigorously: a false statement whose
    counterexamples the sampled search misses (samples=0 here) is REFUTED by the centre, never left at tested."""
    pytest.importorskip("flint")
    x = sp.Symbol("x", positive=True)
    lem = Lemma(id="t/narrow", source="test", statement="x^2 <= x + 10^-9 on [0.5, 1.5] (false above 1 + 1e-9)",
                symbols=(x,), conclusion=sp.Le(x**2, x + sp.Rational(1, 10**9)), strategy=Strategy.INTERVAL,
                box={"x": Range(0.5, 1.5)}, samples=0, max_cells=50)
    res = handler_for(Strategy.INTERVAL)(lem)
    assert isinstance(res, CheckResult) and res.verdict is ProofVerdict.REFUTED, res
    assert float(res.counterexample["x"]) ** 2 > float(res.counterexample["x"]) + 1e-9
