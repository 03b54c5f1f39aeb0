"""Calibration values, enums and argument checking."""
from __future__ import annotations

import dataclasses
import json
import math

import pytest

from dpverify import InvalidArgument, calibrate
from dpverify.calibrate import Calibration, CalibrationMethod, Provenance

NAN, INF = float("nan"), float("inf")

BAD_GAUSSIAN = [
    ("eps-zero", dict(epsilon=0.0, delta=1e-6)),
    ("eps-negative", dict(epsilon=-1.0, delta=1e-6)),
    ("eps-nan", dict(epsilon=NAN, delta=1e-6)),
    ("eps-inf", dict(epsilon=INF, delta=1e-6)),
    ("eps-str", dict(epsilon="1", delta=1e-6)),
    ("eps-bool", dict(epsilon=True, delta=1e-6)),
    ("delta-zero", dict(epsilon=1.0, delta=0.0)),
    ("delta-one", dict(epsilon=1.0, delta=1.0)),
    ("delta-negative", dict(epsilon=1.0, delta=-1e-6)),
    ("delta-nan", dict(epsilon=1.0, delta=NAN)),
    ("sens-zero", dict(epsilon=1.0, delta=1e-6, sensitivity=0.0)),
    ("sens-negative", dict(epsilon=1.0, delta=1e-6, sensitivity=-2.0)),
    ("sens-nan", dict(epsilon=1.0, delta=1e-6, sensitivity=NAN)),
    ("sens-inf", dict(epsilon=1.0, delta=1e-6, sensitivity=INF)),
    ("method-typo", dict(epsilon=1.0, delta=1e-6, method="exakt")),
    ("method-theorem-1", dict(epsilon=1.0, delta=1e-6, method="theorem-1")),
    ("method-lemma", dict(epsilon=1.0, delta=1e-6, method=CalibrationMethod.LEMMA)),
    ("method-int", dict(epsilon=1.0, delta=1e-6, method=1)),
    ("kenthapadi-delta-half", dict(epsilon=1.0, delta=0.5, method="kenthapadi")),
]


@pytest.mark.parametrize("kwargs", [k for _, k in BAD_GAUSSIAN], ids=[i for i, _ in BAD_GAUSSIAN])
def test_gaussian_rejects_bad_input(kwargs):
    with pytest.raises(InvalidArgument):
        calibrate.gaussian(**kwargs)


def test_method_error_lists_the_valid_ones():
    with pytest.raises(InvalidArgument, match="'exact', 'classical', 'kenthapadi'"):
        calibrate.gaussian(1.0, 1e-6, method="exakt")


BAD_OTHERS = [
    ("laplace-delta-one", calibrate.laplace, (1.0,), dict(delta=1.0)),
    ("laplace-delta-nan", calibrate.laplace, (1.0,), dict(delta=NAN)),
    ("laplace-method-classical", calibrate.laplace, (1.0,), dict(method="classical")),
    ("laplace-eps-inf", calibrate.laplace, (INF,), {}),
    ("rp-no-k", calibrate.random_projection, (1.0, 1e-6), dict(B=1.0)),
    ("rp-no-B", calibrate.random_projection, (1.0, 1e-6), dict(k=3)),
    ("rp-k-zero", calibrate.random_projection, (1.0, 1e-6), dict(k=0, B=1.0)),
    ("rp-k-float", calibrate.random_projection, (1.0, 1e-6), dict(k=2.5, B=1.0)),
    ("rp-B-nan", calibrate.random_projection, (1.0, 1e-6), dict(k=3, B=NAN)),
    ("rp-sigma-p-zero", calibrate.random_projection, (1.0, 1e-6), dict(k=3, B=1.0, sigma_p=0.0)),
    ("rp-reading-typo", calibrate.random_projection, (1.0, 1e-6), dict(k=3, B=1.0, reading="fixd")),
    ("rp-fixed-without-P", calibrate.random_projection, (1.0, 1e-6), dict(k=3, B=1.0, reading="fixed")),
    ("rp-fresh-with-P", calibrate.random_projection, (1.0, 1e-6), dict(B=1.0, P=[[1.0, 0.0]])),
    ("rp-P-nan", calibrate.random_projection, (1.0, 1e-6), dict(B=1.0, P=[[NAN]], reading="fixed")),
    ("rp-z-zero", calibrate.random_projection, (1.0, 1e-6), dict(k=3, z=[0.0, 0.0])),
    ("rp-z-above-B", calibrate.random_projection, (1.0, 1e-6), dict(k=3, z=[3.0, 4.0], B=1.0)),
    ("rp-method-classical", calibrate.random_projection, (1.0, 1e-6), dict(k=3, B=1.0, method="classical")),
    ("rp-theorem-2-eps-1", calibrate.random_projection, (1.0, 1e-6), dict(k=3, B=1.0, method="theorem-2")),
    ("rp-theorem-1-delta-half", calibrate.random_projection, (1.0, 0.6), dict(k=3, B=1.0, method="theorem-1")),
    ("wishart-n-zero", calibrate.wishart, (1.0,), dict(n=0)),
    ("wishart-eps-nan", calibrate.wishart, (NAN,), dict(n=10)),
    ("cov-d-missing-type", calibrate.covariance_laplace, (1.0,), dict(n=10, d="3")),
    ("mi-an-eps-zero", calibrate.mi_additive_noise, (0.0,), {}),
    ("mi-rp-f2-negative", calibrate.mi_random_projection, (1.0,), dict(n_prime=10, f2=-1.0)),
    ("mi-rp-nprime-zero", calibrate.mi_random_projection, (1.0,), dict(n_prime=0, f2=1.0)),
]


@pytest.mark.parametrize("func,args,kwargs", [b[1:] for b in BAD_OTHERS], ids=[b[0] for b in BAD_OTHERS])
def test_other_mechanisms_reject_bad_input(func, args, kwargs):
    with pytest.raises(InvalidArgument):
        func(*args, **kwargs)


def test_calibration_is_immutable_and_names_its_parameter():
    cal = calibrate.gaussian(1.0, 1e-6)
    with pytest.raises(dataclasses.FrozenInstanceError):
        cal.value = 1.0
    assert cal.sigma == cal.value and cal.parameter_name == "sigma"
    with pytest.raises(AttributeError, match="use .sigma"):
        cal.scale
    lap = calibrate.laplace(1.0)
    assert lap.scale == 1.0
    with pytest.raises(AttributeError):
        lap.sigma


def test_to_dict_is_strict_json_with_every_field():
    cal = calibrate.gaussian(2.0, 1e-9, sensitivity=0.5)
    doc = json.loads(json.dumps(cal.to_dict(), allow_nan=False))
    for key in ("sigma", "value", "method", "provenance", "achieved_delta", "tolerance", "tightness",
                "exact_value", "safe", "inputs"):
        assert key in doc
    assert doc["method"] == "exact" and doc["sigma"] == cal.sigma
    assert doc["provenance"]["lemmas"] == ["balle-wang-2018/theorem-8"]


def test_calibration_refuses_a_missing_reason():
    with pytest.raises(InvalidArgument):
        Calibration(mechanism="x", parameter_name="sigma", value=1.0, method=CalibrationMethod.LEMMA, inputs=(),
                    provenance=Provenance("x"), achieved_delta=None, exact_value=None)
    with pytest.raises(InvalidArgument):
        Calibration(mechanism="x", parameter_name="sigma", value=math.nan, method=CalibrationMethod.LEMMA, inputs=(),
                    provenance=Provenance("x"), achieved_delta_reason="r", exact_reason="r")


def test_method_accepts_enum_members_and_strings():
    a = calibrate.gaussian(1.0, 1e-6, method=CalibrationMethod.EXACT)
    b = calibrate.gaussian(1.0, 1e-6, method="exact")
    assert a == b
