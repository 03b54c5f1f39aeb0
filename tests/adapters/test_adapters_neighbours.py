"""The scalar-distance neighbour check shared by the adapters (sensitivity / d_in of one number)."""
from __future__ import annotations

import pickle

import pytest

from dpverify import InvalidArgument
from dpverify.adapters.base import ScalarDistanceCheck


def test_within_the_bound_passes_and_the_check_pickles():
    check = pickle.loads(pickle.dumps(ScalarDistanceCheck(2.0, "d_in")))
    check(0.0, 2.0)
    check(3, 1.5)


@pytest.mark.parametrize("a, b, match", [
    (0.0, 2.5, r"exceeds d_in=2\.0"),
    (0.0, float("nan"), r"exceeds d_in=2\.0"),      # NaN is never within the bound
    (0.0, float("inf"), r"exceeds d_in=2\.0"),
    ("yes", "no", r"needs two numbers"),            # not checkable: refused, never passed silently
    ([0.0, 1.0], 0.0, r"needs two numbers"),
])
def test_non_neighbours_and_non_numbers_are_refused(a, b, match):
    with pytest.raises(InvalidArgument, match=match):
        ScalarDistanceCheck(2.0, "d_in")(a, b)
