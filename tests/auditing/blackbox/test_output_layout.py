"""Black-box audit: the output layout (numeric arrays or structured outputs) and output codes.

The layout is fixed from probe draws before any batch; a mechanism whose outputs change form
afterwards gets a MechanismError that says so (never a numpy TypeError, never a silent
re-encoding), and an output's code never depends on the other outputs of its batch.

False-failure rates: the one audit that must not be violated has a true epsilon of half its claim,
so a lower bound above the claim would sit about 14 standard errors (about 0.035 each at 40 000
samples) above the truth; its power assertion (eps_lower > 0.2, where the bound is about 0.45)
is about 7 standard errors from failing. Both rates are far below 1e-6.
"""
from __future__ import annotations

import math

import numpy as np
import pytest

from dpverify import MechanismError, PrivacyClaim, Verdict, audit
from dpverify.auditing.blackbox import PROBE_OUTPUTS
from dpverify.auditing.blackbox.event_families import to_table


def test_an_outputs_code_does_not_depend_on_its_batch():
    # Python ints become an int array in one batch and a float array in the next
    ints, mixed = to_table([1, 2, 3], "t"), to_table([1, 2.5, 3], "t")
    assert ints.codes[0] == mixed.codes[0] and ints.codes[2] == mixed.codes[2]
    assert ints.codes[0] != ints.codes[1]
    floats = to_table(np.array([1.0, 2.0]), "t")
    assert floats.codes[0] == ints.codes[0]  # the number 1, whatever its dtype
    assert to_table(np.array([True, False]), "t").codes[0] == ints.codes[0]


class Partitions:
    """Partition selection: mostly the empty tuple, sometimes ('a',) (true eps = 0.5 < claim 1).

    With one probe output the empty tuple looked like a zero-width numeric array and the first
    batch holding ('a',) crashed inside numpy (a library audit reported it as an error)."""

    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        keep = rng.random(size) < (0.05 if data == 0 else 0.05 * math.exp(0.5))
        return [("a",) if k else () for k in keep]


def test_rare_non_empty_tuples_are_audited_as_structured_outputs():
    r = audit(Partitions(), (0, 1), samples=40_000, rng=3)
    assert r.verdict is not Verdict.VIOLATED
    assert 0.2 < r.epsilon_lower < 1.0


class ChangesForm:
    """Numeric on the probe draws (``size == PROBE_OUTPUTS``), strings or ragged lists later."""

    claim = PrivacyClaim(1.0)

    def __init__(self, later):
        self.later = later

    def sample(self, data, size, rng):
        x = rng.laplace(float(data), 1.0, size)
        if size == PROBE_OUTPUTS:
            return [[v, v] for v in x] if self.later == "ragged" else x
        if self.later == "ragged":
            return [[v] if v > 2 else [v, v] for v in x]
        return [("big" if v > 3 else float(v)) for v in x]


@pytest.mark.parametrize("later, message", [("string", "'big', is not numeric"),
                                             ("ragged", "have different lengths")])
def test_outputs_that_change_form_after_the_probe_are_a_mechanism_error(later, message):
    with pytest.raises(MechanismError, match="probe draws") as err:
        audit(ChangesForm(later), (0.0, 1.0), samples=5_000, rng=1)
    assert message in str(err.value) and "Return one form throughout" in str(err.value)
    assert err.value.pair == 0 and err.value.direction in ("D", "D'")  # the structured fields say the same
