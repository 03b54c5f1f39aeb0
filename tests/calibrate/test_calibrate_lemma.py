"""Lemma-derived calibrations: computed from dpverify.symbolic.derivations, shown beside the exact minimum."""
from __future__ import annotations

import math

import pytest
import sympy as sp

from dpverify import calibrate

derivations = pytest.importorskip("dpverify.symbolic.derivations")


def _lambdified(did, **values):
    """The derivation's sympy expression evaluated directly (independent of Derivation.evaluate)."""
    der = derivations.get_derivation(did)
    subs = {sym: sp.Float(values[sym.name], 40) for sym in der.expression.free_symbols}
    return float(sp.N(der.expression.subs(subs), 30))


@pytest.mark.parametrize("method,did", [("theorem-1", "tu-projections/theorem-1"), ("theorem-2", "tu-projections/theorem-2")])
def test_projection_theorems_equal_the_symbolic_derivation(method, did):
    vals = dict(epsilon=0.5, delta=1e-6, k=10, B=2.0, sigma_p=0.5)
    cal = calibrate.random_projection(0.5, 1e-6, k=10, B=2.0, sigma_p=0.5, method=method)
    assert cal.sigma == derivations.get_derivation(did).evaluate(**vals)
    assert cal.sigma == pytest.approx(_lambdified(did, **vals), rel=1e-14)
    assert cal.provenance.derivation == did and cal.provenance.lemmas
    labels = dict(cal.comparisons)
    der = derivations.get_derivation(did)
    # every printed reading is shown (a value, or a note saying why it does not evaluate)
    for reading in der.printed:
        shown = f"printed formula ({reading})" in labels or any(repr(reading) in n for n in cal.notes)
        assert shown, reading
    # the exact minimum (fresh P) is shown, and the theorem's sigma is above it and certified safe
    assert labels["exact minimal sigma (fresh P)"] == cal.exact_value
    assert cal.tightness == pytest.approx(cal.sigma / cal.exact_value) and cal.tightness > 1
    assert cal.safe is True and cal.achieved_delta <= 1e-6


@pytest.mark.parametrize(
    "func,args,kwargs,did,values",
    [
        (calibrate.wishart, (0.7,), dict(n=50), "jiang-wishart/algorithm-2", dict(epsilon=0.7, n=50)),
        (calibrate.covariance_laplace, (0.7,), dict(n=50, d=4), "jiang-wishart/algorithm-1", dict(epsilon=0.7, n=50, d=4)),
        (calibrate.mi_additive_noise, (0.25,), {}, "showkatbakhsh-regression/lemma-1", dict(epsilon=0.25)),
        (calibrate.mi_random_projection, (0.25,), dict(n_prime=40, f2=3.0), "showkatbakhsh-regression/lemma-2",
         dict(epsilon=0.25, n_prime=40, f2=3.0)),
        (calibrate.laplace, (0.7,), dict(method="lemma"), "lecture21-dp/lemma-1", dict(epsilon=0.7, sensitivity=1.0)),
    ],
    ids=["wishart", "covariance-laplace", "mi-additive-noise", "mi-random-projection", "laplace-lemma"],
)
def test_other_lemma_calibrations_equal_their_derivation(func, args, kwargs, did, values):
    cal = func(*args, **kwargs)
    assert cal.value == derivations.get_derivation(did).evaluate(**values)
    assert cal.value == pytest.approx(_lambdified(did, **values), rel=1e-14)
    assert cal.provenance.derivation == did
    if cal.mechanism != "laplace":  # no exact profile: said so, not hidden
        assert cal.tightness is None and cal.exact_value is None and cal.exact_reason
        assert cal.achieved_delta is None and cal.achieved_delta_reason


def test_mi_random_projection_may_be_zero():
    cal = calibrate.mi_random_projection(2.0, n_prime=10, f2=1000.0)
    assert cal.sigma_RP == 0.0


def test_laplace_lemma_tightness_against_the_delta_profile():
    cal = calibrate.laplace(1.0, 1e-3, method="lemma")
    assert cal.scale == 1.0 and cal.safe is True
    assert cal.tightness == pytest.approx(1.0 - 2 * math.log1p(-1e-3), rel=1e-12)
