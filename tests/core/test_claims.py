"""PrivacyClaim, NeighbourRelation, Verdict and the argument validators."""
import dataclasses
import math

import numpy as np
import pytest

from dpverify import InvalidArgument, NeighbourRelation, PrivacyClaim, Verdict
from dpverify import validation as v

BAD_CLAIMS = [
    ({"epsilon": -1.0}, "epsilon=-1.0", "must be >= 0"),
    ({"epsilon": math.nan}, "epsilon=nan", "finite"),
    ({"epsilon": math.inf}, "epsilon=inf", "finite"),
    ({"epsilon": "1"}, "epsilon='1'", "real number"),
    ({"epsilon": True}, "epsilon=True", "real number"),
    ({"epsilon": 1.0, "delta": -0.1}, "delta=-0.1", "[0, 1)"),
    ({"epsilon": 1.0, "delta": 1.0}, "delta=1.0", "[0, 1)"),
    ({"epsilon": 1.0, "delta": math.nan}, "delta=nan", "finite"),
    ({"epsilon": 1.0, "relation": "replace-one"}, "relation='replace-one'", "NeighbourRelation"),
]


@pytest.mark.parametrize("kwargs,name,rule", BAD_CLAIMS, ids=[b[1] for b in BAD_CLAIMS])
def test_bad_claims_are_rejected_with_name_value_and_rule(kwargs, name, rule):
    with pytest.raises(InvalidArgument) as info:
        PrivacyClaim(**kwargs)
    assert name in str(info.value)
    assert rule in str(info.value)


@pytest.mark.parametrize("eps,delta", [(0.0, 0.0), (1e-300, 0.0), (1e300, 0.999999), (1, 0)],
                         ids=["zero", "tiny-eps", "huge-eps", "ints"])
def test_boundary_claims_are_accepted_and_stored_as_floats(eps, delta):
    c = PrivacyClaim(eps, delta)
    assert isinstance(c.epsilon, float) and c.epsilon == eps
    assert isinstance(c.delta, float) and c.delta == delta
    assert c.relation is NeighbourRelation.REPLACE_ONE


def test_claim_is_immutable_and_reprs_as_its_call():
    c = PrivacyClaim(1.0, 1e-5)
    with pytest.raises(dataclasses.FrozenInstanceError):
        c.epsilon = 2.0  # type: ignore[misc]
    assert repr(c) == "PrivacyClaim(epsilon=1.0, delta=1e-05)"
    assert c.to_dict() == {"epsilon": 1.0, "delta": 1e-05, "relation": "replace-one"}


def test_verdict_compares_equal_to_its_string():
    assert Verdict.VIOLATED == "violated"
    assert str(Verdict.NOT_VIOLATED) == "not-violated"
    assert {v.value for v in Verdict} == {"violated", "not-violated", "inconclusive", "inconsistent"}


BAD_VALIDATOR_CALLS = [
    (v.positive, (0.0,), "must be > 0"),
    (v.positive, (np.nan,), "finite"),
    (v.open_unit, (1.0,), "(0, 1)"),
    (v.open_unit, (0.0,), "(0, 1)"),
    (v.integer, (1.5,), "integer"),
    (v.integer, (True,), "integer"),
    (v.finite_array, ([1.0, np.inf],), "non-finite"),
]


@pytest.mark.parametrize("func,args,rule", BAD_VALIDATOR_CALLS,
                         ids=[f"{f.__name__}-{a[0]!r}" for f, a, _ in BAD_VALIDATOR_CALLS])
def test_validators_reject(func, args, rule):
    with pytest.raises(InvalidArgument) as info:
        func("x", *args)
    assert "x=" in str(info.value) or "x has" in str(info.value)
    assert rule in str(info.value)


def test_integer_minimum_and_rng():
    with pytest.raises(InvalidArgument, match=r"samples=0 must be at least 1"):
        v.integer("samples", 0, minimum=1)
    assert isinstance(v.as_rng(3), np.random.Generator)
    with pytest.raises(InvalidArgument, match="rng=-1"):
        v.as_rng(-1)
    with pytest.raises(InvalidArgument, match="numpy.random.Generator"):
        v.as_rng("seed")
