"""dpverify.strategies: every drawn pair -- and every pair Hypothesis shrinks to -- is neighbouring.

The relation is checked by an oracle written here from the definitions (independent of the
strategies' construction), and, where the semantics coincide, also by
``dpverify.auditing.neighbours.NeighbourSpace.check``. Deterministic (no Monte Carlo): no false
failures.
"""
from __future__ import annotations

import subprocess
import sys

import numpy as np
import pytest
from hypothesis import HealthCheck, find, given, settings
from hypothesis import strategies as st

from dpverify import InvalidArgument, NeighbourRelation, PrivacyClaim
from dpverify import strategies as dps
from dpverify.auditing.neighbours import NeighbourSpace
from dpverify.strategies import Norm, Pattern, Unit

REPLACE, ADD_REMOVE = NeighbourRelation.REPLACE_ONE, NeighbourRelation.ADD_REMOVE_ONE
SETTINGS = settings(max_examples=60, database=None, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _norm(x, norm):
    return float(np.linalg.norm(np.ravel(x), ord=norm.value))


# -- the oracle ------------------------------------------------------------------------------------

def check_vectors(pair, size, low, high, relation):
    d, dp = pair
    assert d.shape == dp.shape == (size,)
    changed = np.flatnonzero(d != dp)
    assert changed.size == 1, f"{changed.size} records differ"
    i = changed[0]
    others = np.delete(d, i)
    assert np.all((low <= others) & (others <= high))
    if relation is REPLACE:
        assert low <= d[i] <= high and low <= dp[i] <= high
    else:
        assert d[i] != 0 and low <= d[i] <= high and dp[i] == 0
    NeighbourSpace(Unit.ENTRY, Norm.LINF, high - low, relation).check(d, dp)


def check_matrices(pair, rows, cols, record, norm, bound, relation):
    d, dp = pair
    assert d.shape == dp.shape == (rows, cols)
    recs_d, recs_dp = (d, dp) if record is Unit.ROW else (d.T, dp.T)
    for r in list(recs_d) + list(recs_dp):
        assert _norm(r, norm) <= bound, f"a record has {norm.name} norm {_norm(r, norm)!r} > {bound}"
    changed = [i for i in range(len(recs_d)) if np.any(recs_d[i] != recs_dp[i])]
    assert len(changed) == 1, f"{len(changed)} records differ"
    if relation is ADD_REMOVE:
        i = changed[0]
        assert np.any(recs_d[i] != 0) and not np.any(recs_dp[i] != 0)
    NeighbourSpace(record, norm, 2 * bound, relation).check(d, dp)


def check_query_vectors(pair, length, sensitivity, norm, patterns, at_boundary):
    d, dp = pair
    assert d.shape == dp.shape == (length,)
    diff = dp - d
    assert np.any(diff != 0)
    assert _norm(diff, norm) <= sensitivity, f"change of {norm.name} norm {_norm(diff, norm)!r} > {sensitivity}"
    nonzero = int(np.count_nonzero(diff))
    kinds = set()
    if nonzero == 1:
        kinds.add(Pattern.ONE_DIFFER)
    if nonzero == length or not at_boundary:
        kinds.add(Pattern.ALL_DIFFER)
    assert kinds & set(patterns), f"change {diff} follows none of {patterns}"
    if at_boundary:
        assert _norm(diff, norm) >= sensitivity * (1 - 1e-9)
    NeighbourSpace(Unit.WHOLE, norm, sensitivity).check(d, dp)


def check_histograms(pair, bins, max_count, relation):
    d, dp = pair
    assert d.shape == dp.shape == (bins,) and d.dtype.kind == dp.dtype.kind == "i"
    assert np.all((0 <= d) & (d <= max_count)) and np.all((0 <= dp) & (dp <= max_count))
    diff = d - dp
    if relation is REPLACE:  # one record moved from one bin to another
        assert sorted(diff[diff != 0].tolist()) == [-1, 1]
    else:  # D has one more record
        assert diff[diff != 0].tolist() == [1]


CASES = [
    ("vectors-replace", dps.vectors(4), lambda p: check_vectors(p, 4, -1.0, 1.0, REPLACE)),
    ("vectors-add-remove", dps.vectors(3, low=0.0, high=5.0, relation=ADD_REMOVE),
     lambda p: check_vectors(p, 3, 0.0, 5.0, ADD_REMOVE)),
    ("matrices-rows-l2-replace", dps.matrices(3, 2), lambda p: check_matrices(p, 3, 2, Unit.ROW, Norm.L2, 1.0, REPLACE)),
    ("matrices-columns-l2-replace", dps.matrices(2, 4, record=Unit.COLUMN),
     lambda p: check_matrices(p, 2, 4, Unit.COLUMN, Norm.L2, 1.0, REPLACE)),
    ("matrices-rows-l1-add-remove", dps.matrices(3, 3, norm=Norm.L1, bound=2.0, relation=ADD_REMOVE),
     lambda p: check_matrices(p, 3, 3, Unit.ROW, Norm.L1, 2.0, ADD_REMOVE)),
    ("matrices-columns-linf-add-remove", dps.matrices(4, 2, record=Unit.COLUMN, norm=Norm.LINF, bound=0.5,
                                                      relation=ADD_REMOVE),
     lambda p: check_matrices(p, 4, 2, Unit.COLUMN, Norm.LINF, 0.5, ADD_REMOVE)),
    ("query-l1-both", dps.query_vectors(5), lambda p: check_query_vectors(p, 5, 1.0, Norm.L1, tuple(Pattern), True)),
    ("query-l2-one-differ", dps.query_vectors(3, sensitivity=2.0, norm=Norm.L2, patterns=[Pattern.ONE_DIFFER]),
     lambda p: check_query_vectors(p, 3, 2.0, Norm.L2, (Pattern.ONE_DIFFER,), True)),
    ("query-linf-all-differ-inside", dps.query_vectors(4, norm=Norm.LINF, patterns=[Pattern.ALL_DIFFER],
                                                       at_boundary=False),
     lambda p: check_query_vectors(p, 4, 1.0, Norm.LINF, (Pattern.ALL_DIFFER,), False)),
    ("histograms-replace", dps.histograms(5, max_count=3), lambda p: check_histograms(p, 5, 3, REPLACE)),
    ("histograms-add-remove", dps.histograms(3, max_count=2, relation=ADD_REMOVE),
     lambda p: check_histograms(p, 3, 2, ADD_REMOVE)),
]
IDS = [c[0] for c in CASES]


@pytest.mark.parametrize("name, strategy, check", CASES, ids=IDS)
def test_every_draw_is_neighbouring(name, strategy, check):
    @SETTINGS
    @given(strategy)
    def run(pair):
        check(pair)

    run()


@pytest.mark.parametrize("name, strategy, check", CASES, ids=IDS)
def test_every_shrunk_pair_is_neighbouring(name, strategy, check):
    """``find`` draws and then shrinks towards a minimal pair with a property that forces shrinking
    to do work; the oracle runs on every pair it tries, shrunk ones included."""
    seen = {"calls": 0, "bad": []}

    def interesting(pair):
        seen["calls"] += 1
        try:
            check(pair)
        except AssertionError as exc:  # recorded, and the pair is made "interesting" to surface it
            seen["bad"].append((pair, str(exc)))
            return True
        return int(np.count_nonzero(pair[0])) >= 2  # shrinking must keep two non-zero entries in D

    minimal = find(strategy, interesting, settings=settings(max_examples=50, database=None, deadline=None))
    assert not seen["bad"], seen["bad"][:2]
    check(minimal)
    assert seen["calls"] > 1


@SETTINGS
@given(dps.claims(min_epsilon=0.5, max_epsilon=2.0, max_delta=1e-3, relations=list(NeighbourRelation)))
def test_claims_are_in_range(claim):
    assert isinstance(claim, PrivacyClaim)
    assert 0.5 <= claim.epsilon <= 2.0 and 0 <= claim.delta <= 1e-3


@SETTINGS
@given(dps.claims())
def test_pure_claims_by_default(claim):
    assert claim.delta == 0 and claim.relation is REPLACE


def test_composes_with_given_and_other_strategies():
    @settings(max_examples=20, database=None, deadline=None)
    @given(pair=dps.vectors(3), claim=dps.claims(), k=st.integers(1, 3))
    def run(pair, claim, k):
        check_vectors(pair, 3, -1.0, 1.0, REPLACE)
        assert claim.epsilon > 0 and 1 <= k <= 3

    run()


def test_reprs_read_as_the_call():
    assert repr(dps.vectors(3)).startswith("vectors(size=3")
    assert repr(dps.histograms(4)).startswith("histograms(bins=4")


BAD = [
    ("vectors-size-zero", lambda: dps.vectors(0)),
    ("vectors-low-above-high", lambda: dps.vectors(3, low=1.0, high=0.0)),
    ("vectors-high-nan", lambda: dps.vectors(3, high=float("nan"))),
    ("vectors-relation-string", lambda: dps.vectors(3, relation="replace-one")),
    ("matrices-record-entry", lambda: dps.matrices(2, 2, record=Unit.ENTRY)),
    ("matrices-norm-int", lambda: dps.matrices(2, 2, norm=2)),
    ("matrices-bound-zero", lambda: dps.matrices(2, 2, bound=0.0)),
    ("matrices-bound-inf", lambda: dps.matrices(2, 2, bound=float("inf"))),
    ("query-sensitivity-negative", lambda: dps.query_vectors(3, sensitivity=-1.0)),
    ("query-patterns-empty", lambda: dps.query_vectors(3, patterns=[])),
    ("query-pattern-string", lambda: dps.query_vectors(3, patterns=["one-differ"])),
    ("query-at-boundary-int", lambda: dps.query_vectors(3, at_boundary=1)),
    ("histograms-one-bin-replace", lambda: dps.histograms(1)),
    ("histograms-max-count-zero", lambda: dps.histograms(3, max_count=0)),
    ("claims-max-below-min", lambda: dps.claims(min_epsilon=2.0, max_epsilon=1.0)),
    ("claims-max-delta-one", lambda: dps.claims(max_delta=1.0)),
    ("claims-no-relations", lambda: dps.claims(relations=[])),
]


@pytest.mark.parametrize("build", [b for _, b in BAD], ids=[n for n, _ in BAD])
def test_bad_arguments(build):
    with pytest.raises(InvalidArgument):
        build()


def test_missing_hypothesis_says_how_to_install():
    code = ("import sys; sys.modules['hypothesis'] = None\n"
            "try:\n    import dpverify.strategies\nexcept ImportError as e:\n    print(e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert 'pip install "/path/to/dpverify[pytest]"' in out.stdout, out.stdout + out.stderr
