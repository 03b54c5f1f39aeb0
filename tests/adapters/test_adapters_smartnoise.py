"""The SmartNoise SQL adapter against a small fake of snsql (the real library: test_libraries_smartnoise.py,
``pytest -m libraries`` in an environment with smartnoise-sql). Audits at confidence 0.999: a false failure has
probability at most 0.1 % each."""
from __future__ import annotations

import math
import pickle

import numpy as np
import pytest

import dpverify
from dpverify import InvalidArgument, NeighbourRelation, PrivacyClaim

import _adapter_fakes as fakes


@pytest.fixture
def S(monkeypatch):
    fakes.install_snsql(monkeypatch)
    return fakes.fresh_adapter(monkeypatch, "smartnoise")


def test_approx_bounds_states_every_float_and_its_claim_and_pickles(S):
    m = S.approx_bounds(1.0)
    d = m.input_domain()
    assert m.claim == PrivacyClaim(1.0, relation=NeighbourRelation.ADD_REMOVE_ONE) and not m.honours_rng
    assert d.kind == "records" and d.low == -math.inf and d.high == math.inf and d.nan
    assert any("own randomness" in x for x in m.limitations)
    out = pickle.loads(pickle.dumps(m)).sample([0.5] * 10, 3, None)
    assert len(out) == 3 and all(o == (0.0, 1.0) or o == (None, None) for o in out)


def test_the_extreme_record_bug_class_is_found_without_a_pair(S):
    """The fake raises on a record below -1, as SmartNoise SQL 1.0.1 did: found unaided (the replay screen)."""
    r = dpverify.audit(S.approx_bounds(1.0), samples=300, rng=1, confidence=0.999)
    assert r.verdict.value == "violated" and r.search["screen"] == "grey-box" and "ValueError" in r.search["raised"]


def test_mechanism_sensitivity_claim_and_refusals(S):
    m = S.mechanism("laplace", 1.0, lower=-5, upper=1, max_contrib=2)
    assert m.claim == PrivacyClaim(1.0) and m.input_domain().sensitivity == 10.0
    m.check_neighbours(0.0, 10.0)
    with pytest.raises(InvalidArgument, match="sensitivity"):
        m.check_neighbours(0.0, 10.5)
    g = S.mechanism("gaussian", 1.0, 1e-5, lower=0.2, upper=1.5)  # bounds rounded outward, as SmartNoise does
    assert g.claim == PrivacyClaim(1.0, 1e-5) and g.input_domain().sensitivity == 2.0
    assert np.asarray(m.sample(3.0, 4, None)).shape == (4,)
    for bad in (dict(kind="exp"), dict(epsilon=float("nan")), dict(epsilon=0.0), dict(lower=1, upper=0),
                dict(upper=float("inf")), dict(max_contrib=0), dict(delta=0.0, kind="gaussian")):
        args = dict(kind="laplace", epsilon=1.0, delta=0.0, lower=0, upper=1, max_contrib=1) | bad
        with pytest.raises(InvalidArgument, match=next(iter(bad))):
            S.mechanism(args.pop("kind"), args.pop("epsilon"), args.pop("delta"), **args)


def test_a_correct_fake_mechanism_is_not_violated_without_a_pair(S):
    r = dpverify.audit(S.mechanism("laplace", 1.0, lower=0, upper=1), samples=2000, rng=2, confidence=0.999)
    assert r.verdict.value != "violated"


def test_only_the_query_has_a_reader(S):
    with pytest.raises(InvalidArgument, match="private reader"):
        S.approx_bounds(1.0).reader([0.5])
