"""Neighbour validation of plain pairs (dpverify.auditing.pairs), and add/remove pairs of different sizes.

Monte Carlo tests here: a white-box audit's false-alarm probability is at most 1 - confidence
(0.05 at the default) per audit, and its miss probability on the violating mean is far below
1e-9 at these sample sizes (the loss exceeds eps with probability ~0.06 per draw); both are stated
at each test.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

import dpverify
from dpverify import InvalidArgument, NeighbourRelation, PrivacyClaim
from dpverify.auditing.pairs import UNCHECKED, check_pair, normalise_pairs, records
from dpverify_mechanisms.lecture21_dp import ScalarLaplace

ADD_REMOVE = NeighbourRelation.ADD_REMOVE_ONE
REPLACE = NeighbourRelation.REPLACE_ONE


class _RecordsLaplace:
    """Laplace noise on a statistic of a dataset of records in [0, 1] (values along axis 0)."""

    def __init__(self, epsilon: float, relation=ADD_REMOVE):
        self.epsilon = epsilon
        self.claim = PrivacyClaim(epsilon, 0.0, relation)

    def _values(self, data):
        x = np.asarray(data, dtype=float).reshape(-1)
        if not np.all((x >= 0) & (x <= 1)):
            raise ValueError("records must lie in [0, 1]")
        return x

    def sample(self, data, size, rng):
        c, b = self.center_scale(data)
        return c + rng.laplace(0.0, b, size)

    def log_density(self, outputs, data):
        c, b = self.center_scale(data)
        return -math.log(2 * b) - np.abs(np.asarray(outputs, dtype=float) - c) / b


class BoundedSum(_RecordsLaplace):
    """sum(x) + Lap(1/eps) with records clamped to [0, 1]: eps-DP under add/remove (sensitivity 1)."""

    def center_scale(self, data):
        return float(self._values(data).sum()), 1.0 / self.epsilon


class NoisyMeanTrueN(_RecordsLaplace):
    """mean(x) + Lap(1/(n eps)) with the TRUE n: the scale leaks n, so under add/remove the loss is
    unbounded (not eps-DP for any eps). The classic bug that add/remove pairs must catch."""

    def center_scale(self, data):
        x = self._values(data)
        return float(x.mean()), 1.0 / (x.size * self.epsilon)


# -- reading of `pairs` ------------------------------------------------------------------------

def test_tuple_of_two_pairs_is_refused_with_the_fix():
    with pytest.raises(InvalidArgument, match=r"ambiguous.*list"):
        normalise_pairs(((0.0, 1.0), (2.0, 3.0)))
    # The unambiguous forms are accepted.
    assert normalise_pairs([((0.0, 1.0), (2.0, 3.0))]) == [((0.0, 1.0), (2.0, 3.0))]
    assert len(normalise_pairs([(0.0, 1.0), (2.0, 3.0)])) == 2


def test_records_of_arrays_lists_and_scalars():
    assert records(np.zeros((3, 2))) is not None and len(records(np.zeros((3, 2)))) == 3
    assert records([1, 2, 2]) == [1, 2, 2]
    assert records(0.5) is None and records(np.float64(0.5)) is None
    # -0.0 and 0.0 are the same record.
    assert records(np.array([0.0])) == records(np.array([-0.0]))


# -- the relation ---------------------------------------------------------------------------------

GOOD = [
    ("add-one-array", np.array([0.5, 0.5]), np.array([0.5, 0.5, 0.5]), ADD_REMOVE),
    ("remove-one-list", [0.1, 0.2, 0.3], [0.3, 0.1], ADD_REMOVE),
    ("add-one-row-2d", np.array([[0, 1], [1, 1]]), np.array([[1, 1], [0, 0], [0, 1]]), ADD_REMOVE),
    ("replace-one", [0.1, 0.2, 0.3], [0.1, 0.9, 0.3], REPLACE),
    ("replace-one-reordered", [0.1, 0.2, 0.3], [0.3, 0.9, 0.1], REPLACE),
    ("padded-add-remove", [0.1, 0.2, 0.0], [0.1, 0.2, 0.7], ADD_REMOVE),
]


@pytest.mark.parametrize("d,dp,rel", [g[1:] for g in GOOD], ids=[g[0] for g in GOOD])
def test_neighbouring_pairs_are_accepted_and_labelled(d, dp, rel):
    label = check_pair(d, dp, object(), rel)
    assert label.startswith("records:")
    if rel is ADD_REMOVE and len(d) == len(dp):
        assert "not checked" in label  # a placeholder record cannot be told from a real one


BAD = [
    ("equal", [0.5, 0.5], [0.5, 0.5], ADD_REMOVE, "D = D'"),
    ("equal-arrays", np.ones((2, 2)), np.ones((2, 2)), REPLACE, "D = D'"),
    ("reordered", [0.1, 0.2], [0.2, 0.1], REPLACE, "reordering"),
    ("add-two", [0.5], [0.5, 0.5, 0.5], ADD_REMOVE, "differ by more than one"),
    ("add-one-but-changed", [0.5, 0.5], [0.1, 0.5, 0.6], ADD_REMOVE, "not the smaller plus one record"),
    ("same-size-two-changed", [0.1, 0.2, 0.3], [0.1, 0.8, 0.9], ADD_REMOVE, "differ in 2 records"),
    ("replace-different-sizes", [0.5, 0.5], [0.5, 0.5, 0.5], REPLACE, "ADD_REMOVE_ONE"),
    ("replace-two", [0.1, 0.2, 0.3], [0.1, 0.8, 0.9], REPLACE, "differ in 2 records"),
    ("record-shapes", np.zeros((2, 2)), np.zeros((3, 3)), ADD_REMOVE, "records of shape"),
    ("scalar-vs-records", 0.5, [0.5], ADD_REMOVE, "not of the same kind"),
]


@pytest.mark.parametrize("d,dp,rel,needle", [b[1:] for b in BAD], ids=[b[0] for b in BAD])
def test_non_neighbouring_pairs_are_refused(d, dp, rel, needle):
    with pytest.raises(InvalidArgument, match=needle):
        check_pair(d, dp, object(), rel)


def test_stated_neighbourhood_checks_plain_pairs():
    lap = ScalarLaplace(1.0, sensitivity=1.0)
    with pytest.raises(InvalidArgument, match="bound=1"):
        dpverify.audit(lap, (0.0, 5.0), samples=100, rng=0)  # was `violated` 4.98 before validation
    with pytest.raises(InvalidArgument, match="D = D'"):
        dpverify.audit(lap, (0.5, 0.5), samples=100, rng=0)
    assert "L1<=1" in check_pair(0.0, 1.0, lap, REPLACE)


def test_sensitivity_attribute_checks_scalar_pairs_and_opaque_pairs_are_marked_unchecked():
    class Scalar:
        sensitivity = 1.0

    with pytest.raises(InvalidArgument, match="exceeds the mechanism's sensitivity"):
        check_pair(0.0, 2.0, Scalar(), REPLACE)
    assert check_pair(0.0, 1.0, Scalar(), REPLACE).startswith("|D - D'|")
    assert check_pair(0.0, 7.0, object(), REPLACE) == UNCHECKED


def test_unchecked_pairs_are_said_in_the_result():
    class Bare:
        claim = PrivacyClaim(1.0)

        def sample(self, data, size, rng):
            return data + rng.laplace(0.0, 1.0, size)

        def log_density(self, outputs, data):
            return -math.log(2.0) - np.abs(outputs - data)

    res = dpverify.audit(Bare(), (0.0, 1.0), samples=2_000, rng=1)
    assert res.neighbour_checks == (UNCHECKED,)
    assert any("unchecked" in n for n in res.notes)
    assert res.to_dict()["neighbour_checks"] == [UNCHECKED]


def test_the_mechanism_check_neighbours_is_used():
    class Picky(BoundedSum):
        def check_neighbours(self, d, dp):
            if len(dp) < len(d):
                raise InvalidArgument("only additions are tested here")

    with pytest.raises(InvalidArgument, match="only additions"):
        dpverify.audit(Picky(1.0), ([0.5, 0.5, 0.5], [0.5, 0.5]), samples=100, rng=0)


def test_dataframes_are_compared_by_rows():
    pd = pytest.importorskip("pandas")
    d = pd.DataFrame({"age": [30, 40], "income": [0.5, 0.7]})
    dp = pd.DataFrame({"age": [40, 30, 50], "income": [0.7, 0.5, 0.1]})
    assert check_pair(d, dp, object(), ADD_REMOVE).startswith("records: differ by one")
    with pytest.raises(InvalidArgument, match="not the smaller plus one"):
        check_pair(d, pd.DataFrame({"age": [31, 40, 50], "income": [0.5, 0.7, 0.1]}), object(), ADD_REMOVE)
    with pytest.raises(InvalidArgument, match="different columns"):
        check_pair(d, d.rename(columns={"age": "AGE"}), object(), REPLACE)
    with pytest.raises(InvalidArgument, match="D = D'"):
        check_pair(d, d.copy(), object(), REPLACE)


# -- audits on add/remove pairs of different sizes ---------------------------------------------------

def test_add_remove_pairs_of_different_sizes_are_audited():
    """The noisy mean that uses the true n is `violated`; the bounded sum is not (false alarm <= 0.05
    per audit by the tester's guarantee; the mean's miss probability is negligible at 50k samples)."""
    d, dp = np.array([0.5, 0.5]), np.array([0.5, 0.5, 0.5])
    bad = dpverify.audit(NoisyMeanTrueN(1.0), (d, dp), samples=50_000, rng=3)
    assert bad.verdict == "violated" and bad.epsilon_lower > 1.0
    assert bad.neighbour_checks[0].startswith("records: differ by one")
    ok = dpverify.audit(BoundedSum(1.0), [(d, dp), ([0.5, 0.5], [0.5])], samples=50_000, rng=3)
    assert ok.verdict != "violated"
    assert ok.epsilon_lower <= 1.0
    # Black-box (samples only) on lists of different lengths, too.

    class BlackBoxSum:
        claim = BoundedSum(1.0).claim

        def sample(self, data, size, rng):
            return BoundedSum(1.0).sample(data, size, rng)

    bb = dpverify.audit(BlackBoxSum(), ([0.5, 0.5], [0.5, 0.5, 0.5]), samples=20_000, rng=4)
    assert bb.verdict != "violated"


def test_an_empty_array_is_a_dataset_of_no_records():
    assert records(np.array([])) == []
    label = check_pair(np.array([]), np.array([0.5]), object(), NeighbourRelation.ADD_REMOVE_ONE)
    assert "added/removed" in label
