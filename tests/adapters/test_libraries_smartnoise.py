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


QUERIES = ["SELECT COUNT(x) AS n FROM T.D", "SELECT SUM(x) AS s FROM T.D", "SELECT AVG(x) AS a FROM T.D"]


def _plain_reader(data: list):
    """SmartNoise's private reader as a user builds it (its default mechanism table, calibrated on every query)."""
    return snsql.from_df(__import__("pandas").DataFrame({"x": data}), privacy=snsql.Privacy(epsilon=1.0, delta=1e-5),
                         metadata={"Collection": {"T": {"D": {"row_privacy": True, "x": {
                             "type": "float", "lower": 0.0, "upper": 1.0}}}}})


@pytest.mark.parametrize("sql", QUERIES)
def test_the_adapters_reader_uses_smartnoises_own_mechanisms_calibrated_once(sql):
    """Each query of the adapter's reader gets new mechanism objects equal, attribute for attribute (scale,
    threshold's delta, bounds), to those a plain reader builds, and the same privacy cost. (``_rewrite`` and
    ``_get_mechanisms`` are snsql's own methods: the reader exposes its mechanisms no other way.)"""
    data = [0.2, 0.5, 0.9] * 10
    fast, plain = S.query(sql).reader(data), _plain_reader(data)
    first, second = (fast._get_mechanisms(fast._rewrite(sql)[0]) for _ in range(2))
    want = plain._get_mechanisms(plain._rewrite(sql)[0])
    assert [type(m) for m in first] == [type(m) for m in want] and any(m is not None for m in want)
    assert [vars(m) if m else None for m in first] == [vars(m) if m else None for m in want]
    assert [vars(m) if m else None for m in second] == [vars(m) if m else None for m in want]
    assert all(a is not b for a, b in zip(first, second) if a is not None)
    assert fast.get_privacy_cost(sql) == plain.get_privacy_cost(sql)


def test_the_adapters_reader_releases_the_plain_readers_law():
    """Two-sample Kolmogorov-Smirnov test of the released SUM, adapter against a plain reader (60 draws of the slow
    plain reader, 300 of the adapter): rejects a correct adapter with probability 0.001. Censoring: both release
    nothing on the empty dataset."""
    from scipy.stats import ks_2samp

    sql, data = QUERIES[1], [0.2, 0.5, 0.9] * 10
    q = S.query(sql)
    fast = [o[0] for o in q.sample(data, 300, None)]
    plain = [float(r[1][0]) for r in (_plain_reader(data).execute(sql) for _ in range(60))]
    assert ks_2samp(fast, plain).pvalue > 0.001
    assert list(q.sample([], 3, None)) == [()] * 3 and _plain_reader([]).execute(sql)[1:] == []
