"""The proof strategies are handlers looked up in a registry (dpverify.symbolic.strategies), never an if/elif chain.

All checks are deterministic (symbolic): no false-failure rate to state.
"""
from __future__ import annotations

import dataclasses

import pytest
import sympy as sp

from dpverify.errors import InvalidArgument
from dpverify.symbolic import Lemma, ProofVerdict, Range, Strategy
from dpverify.symbolic.info_theory import SignLemma, sign_terms
from dpverify.symbolic.strategies import describe, handler_for, is_registered, register, registered, unregister
from dpverify.symbolic.strategies.algebraic import nonneg_terms
from dpverify.symbolic.verdicts import CheckResult

x = sp.Symbol("x", positive=True)


def _lemma(strategy, **kw) -> Lemma:
    return Lemma(id="t/fake", source="test", statement="x <= x + 1", symbols=(x,), conclusion=sp.Le(x, x + 1, evaluate=False),
                 strategy=strategy, box={"x": Range(0.5, 2)}, samples=5, **kw)


@pytest.fixture
def fake():
    """A strategy 'test/fake' registered for the test and removed after it; its handler records the lemmas it sees."""
    seen = []

    @register("test/fake", description="a fake strategy of the tests")
    def handler(lemma):
        seen.append(lemma.id)
        return CheckResult(ProofVerdict.PROVED, f"{lemma.id}: the fake handler says so")
    yield seen
    unregister("test/fake")


def test_a_registered_fake_strategy_is_dispatched(fake):
    assert is_registered("test/fake") and "test/fake" in registered()
    res = _lemma("test/fake").check()
    assert fake == ["t/fake"]
    assert res.verdict is ProofVerdict.PROVED and "the fake handler says so" in res.evidence


def test_a_handler_that_does_not_settle_leaves_the_search_verdict_and_says_why():
    @register("test/unsure")
    def unsure(lemma):
        return "the fake handler could not decide"
    try:
        res = _lemma("test/unsure").check()
    finally:
        unregister("test/unsure")
    assert res.verdict is ProofVerdict.TESTED
    assert "test/unsure did not settle it (the fake handler could not decide)" in res.evidence
    assert not is_registered("test/unsure")


def test_the_search_runs_before_the_handler(fake):
    """A false statement is refuted by the point search; the handler (which would say PROVED) is never asked."""
    res = _lemma("test/fake").mutated(conclusion=sp.Le(x + 1, x, evaluate=False)).check()
    assert res.verdict is ProofVerdict.REFUTED and fake == []


@pytest.mark.parametrize("name", ["no-such-strategy", "MONOTONE"])
def test_an_unknown_strategy_name_is_a_clear_invalid_argument(name):
    with pytest.raises(InvalidArgument, match=rf"strategy='{name}' is not a registered strategy name"):
        _lemma(name)
    with pytest.raises(InvalidArgument, match=rf"strategy='{name}' has no registered handler; registered strategies: "
                                              r"NONNEG_TERMS, .*Register one with"):
        handler_for(name)


@pytest.mark.parametrize("bad", [None, 3, "", Strategy])
def test_a_strategy_key_must_be_a_member_or_a_name(bad):
    with pytest.raises(InvalidArgument, match="strategy="):
        handler_for(bad)


def test_an_identity_strategy_on_an_inequality_has_no_handler():
    """IDENTITY is settled by the conclusion's form (Eq), not dispatched: on an inequality it is an error."""
    with pytest.raises(InvalidArgument, match="has no registered handler"):
        _lemma(Strategy.IDENTITY).check()


def test_every_builtin_inequality_strategy_has_a_handler_with_its_phrase():
    for s in Strategy:
        if s is Strategy.IDENTITY:
            continue
        assert callable(handler_for(s)), s
        assert describe(s) == s.value


def test_a_statement_class_refines_a_strategy_by_registration():
    """SignLemma registers its own NONNEG_TERMS handler; the base class keeps the termwise one (sympy-style dispatch
    on the class's method resolution order), and a subclass inherits its nearest base's handler until it registers
    its own."""
    assert handler_for(Strategy.NONNEG_TERMS, Lemma) is nonneg_terms
    assert handler_for(Strategy.NONNEG_TERMS, SignLemma) is sign_terms

    @dataclasses.dataclass(frozen=True)
    class Sub(SignLemma):
        pass
    assert handler_for(Strategy.NONNEG_TERMS, Sub) is sign_terms
    w = sp.Symbol("w", positive=True)
    kw = dict(id="t/sign", source="test", statement="(w - 1)^2/w >= 0", symbols=(w,),
              conclusion=sp.Le(0, (w - 1) ** 2 / w, evaluate=False), strategy=Strategy.NONNEG_TERMS,
              box={"w": Range(0.1, 10)}, samples=5)
    assert Lemma(**kw).check().verdict is ProofVerdict.PROVED  # the fraction rule of the base handler
    assert SignLemma(**kw).check().verdict is ProofVerdict.PROVED
    seen = []

    @register(Strategy.NONNEG_TERMS, Sub)
    def sub_terms(lemma):
        seen.append(type(lemma).__name__)
        return "the subclass's own handler"
    try:
        assert handler_for(Strategy.NONNEG_TERMS, Sub) is sub_terms
        res = Sub(**kw).check()
        assert seen == ["Sub"] and res.verdict is ProofVerdict.TESTED
        assert "sum of nonnegative terms did not settle it (the subclass's own handler)" in res.evidence
        assert SignLemma(**kw).check().verdict is ProofVerdict.PROVED and seen == ["Sub"]
    finally:
        unregister(Strategy.NONNEG_TERMS, Sub)
    assert handler_for(Strategy.NONNEG_TERMS, Sub) is sign_terms


def test_unregister_refuses_what_is_not_registered():
    with pytest.raises(InvalidArgument, match="nothing to remove"):
        unregister("test/never-registered")
