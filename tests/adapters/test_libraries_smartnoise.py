"""The SmartNoise SQL adapter against the real library (``pytest -m libraries`` in an environment with
smartnoise-sql, which pins its own OpenDP: docs/libraries.md). Audits of correct objects assert "not violated",
whose false-alarm probability is at most 1 - confidence = 0.05 each."""
from __future__ import annotations

import pickle

import numpy as np
import pytest

import dpverify
from dpverify import NeighbourRelation

pytestmark = pytest.mark.libraries
snsql = pytest.importorskip("snsql")
from dpverify.adapters import smartnoise as S  # noqa: E402


def test_the_query_claims_the_readers_own_privacy_cost_rounded_up():
    q = S.query("SELECT COUNT(x) AS n FROM T.D", epsilon=1.0, delta=1e-5)
    reader = snsql.from_df(__import__("pandas").DataFrame({"x": [0.5]}), privacy=snsql.Privacy(epsilon=1.0, delta=1e-5),
                           metadata={"Collection": {"T": {"D": {"row_privacy": True, "x": {
                               "type": "float", "lower": 0.0, "upper": 1.0}}}}})
    eps, delta = reader.get_privacy_cost("SELECT COUNT(x) AS n FROM T.D")
    assert q.claim.epsilon >= float(eps) and q.claim.delta >= float(delta)
    assert q.claim.relation is NeighbourRelation.ADD_REMOVE_ONE
    out = pickle.loads(pickle.dumps(q)).sample([0.5] * 30, 2, None)
    assert len(out) == 2 and all(len(o) == 1 for o in out)


def test_current_approx_bounds_is_not_violated_without_a_pair():
    r = dpverify.audit(S.approx_bounds(1.0), samples=200, rng=1)
    assert r.verdict.value != "violated", r


@pytest.mark.parametrize("kind,delta", [("laplace", 0.0), ("gaussian", 1e-5)])
def test_the_mechanisms_are_not_violated_without_a_pair(kind, delta):
    m = S.mechanism(kind, 1.0, delta, lower=0.0, upper=1.0)
    out = m.sample(2.0, 5, None)
    assert np.asarray(out).shape == (5,)
    r = dpverify.audit(m, samples=2000, rng=1)
    assert r.verdict.value != "violated", r
