"""Tumult Core (``tmlt.core``) measurements as dpverify mechanisms: ``measurement(meas, d_in)``.

The claim is Tumult's own ``privacy_function(d_in)`` in the measurement's output measure:
``PureDP`` -> ``PrivacyClaim(eps)``, ``ApproxDP`` -> ``(eps, delta)``, ``RhoZCDP`` ->
``PrivacyClaim.zcdp(rho)``. Tumult computes them as exact numbers; they are rounded *up* to
floats (a larger claim is the safe side for an audit). The relation follows the input metric:
``SymmetricDifference`` at d_in=1 is add/remove one record, ``HammingDistance`` replace-one; on
``AbsoluteDifference`` (a number) pairs further apart than d_in are refused.

Data: a number for the noise mechanisms (``AddLaplaceNoise``, ``AddGeometricNoise``,
``AddDiscreteGaussianNoise``, ``AddGaussianNoise``), a list or array for measurements on a
``PandasSeriesDomain`` (e.g. ``pandas_measurements.series.NoisyQuantile``), converted to the
domain's element type. Tumult's Spark aggregations (``measurements.aggregations``) need a Spark
session per call and are not adapted here (seconds per draw).

Input domains: a number (answers of length 1 within d_in; whole numbers with the int64 range for
``NumpyIntegerDomain``; NaN/inf as the ``NumpyFloatDomain`` allows them) or records of a
``PandasSeriesDomain`` (add/remove under ``SymmetricDifference``), with the privacy function as the
claim curve over d_in (``claim_at(d)`` is ``privacy_function(d * d_in)``).

Tumult measurements pickle as they are, so the adapter keeps the object. Tumult draws from its
own generator (``tmlt.core.random.rng``, re-created when the process id changes), so
``honours_rng`` is False. Tumult Core 0.20 pins numpy < 2 and pandas < 2: install it in its own
environment (docs/libraries.md).
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ..auditing.domain import InputDomain
from ..claims import NeighbourRelation, PrivacyClaim
from ..errors import InvalidArgument
from .base import GROUP_DISTANCES, LibraryMechanism, ScalarDistanceCheck, as_outputs, one_number, relation_of, require

_core = require("tmlt.core", "tmlt.core", "tmlt")
_measures = require("tmlt.core.measures", "tmlt.core", "tmlt")
_base = require("tmlt.core.measurements.base", "tmlt.core", "tmlt")

__all__ = ["measurement", "TumultMechanism", "TumultClaimAt"]


def _up(x: Any) -> float:
    """An ExactNumber (or number) as the smallest float >= it."""
    to_float = getattr(x, "to_float", None)
    if to_float is not None:
        return float(to_float(round_up=True))
    return float(x)


def _claim(meas: Any, d_in: Any, relation: NeighbourRelation) -> PrivacyClaim:
    measure = meas.output_measure
    loss = meas.privacy_function(d_in)
    if isinstance(measure, _measures.PureDP):
        return PrivacyClaim(_up(loss), 0.0, relation)
    if isinstance(measure, _measures.ApproxDP):
        eps, delta = loss
        return PrivacyClaim(_up(eps), _up(delta), relation)
    if isinstance(measure, _measures.RhoZCDP):
        return PrivacyClaim.zcdp(_up(loss), relation)
    raise InvalidArgument(f"meas has output measure {measure!r}, which dpverify cannot read as a claim; pass claim=.")




class TumultMechanism(LibraryMechanism):
    library = "tmlt"
    distribution = "tmlt.core"
    honours_rng = False

    def _build(self):
        return self._recipe

    def _sample(self, meas, data, size, rng):
        dom = meas.input_domain
        name = type(dom).__name__
        if name == "PandasSeriesDomain":
            import pandas as pd

            dtype = getattr(getattr(dom, "element_domain", None), "carrier_type", None)
            series = pd.Series(list(data), dtype=dtype)
            return as_outputs([_plain(meas(series)) for _ in range(size)])
        if name == "NumpyIntegerDomain":
            x = np.int64(one_number(data))
        elif name == "NumpyFloatDomain":
            x = np.float64(one_number(data))
        else:
            x = data
        return as_outputs([_plain(meas(x)) for _ in range(size)])


def _plain(x: Any) -> Any:
    if isinstance(x, np.generic):
        return x.item()
    return x


def measurement(meas: Any, d_in: Any = 1, *, relation: NeighbourRelation | None = None,
                absent: Any = None) -> TumultMechanism:
    """A Tumult ``Measurement`` as a dpverify mechanism claiming ``meas.privacy_function(d_in)``."""
    if not isinstance(meas, _base.Measurement):
        raise InvalidArgument(f"meas={meas!r} must be a tmlt.core Measurement, e.g. AddGeometricNoise(alpha=1).")
    metric = type(meas.input_metric).__name__
    default = (NeighbourRelation.ADD_REMOVE_ONE if metric == "SymmetricDifference" and d_in == 1
               else NeighbourRelation.REPLACE_ONE)
    claim = _claim(meas, d_in, relation_of(relation, default))
    check = ScalarDistanceCheck(float(d_in), "d_in") if metric == "AbsoluteDifference" else None
    domain, limitations = _domain(meas, metric, d_in)
    return TumultMechanism(name=f"{type(meas).__name__}(d_in={d_in!r})", recipe=meas, claim=claim,
                           absent=absent, check=check, domain=domain, limitations=limitations)


class TumultClaimAt:
    """``claim_at(d)``: the privacy function at ``d * d_in`` as a claim (picklable: Tumult measurements pickle)."""

    def __init__(self, meas: Any, d_in: Any, relation: NeighbourRelation):
        self.meas, self.d_in, self.relation = meas, d_in, relation

    def __call__(self, d: int) -> PrivacyClaim:
        return _claim(self.meas, d * self.d_in, self.relation)


def _domain(meas: Any, metric: str, d_in: Any) -> tuple:
    dom = meas.input_domain
    name = type(dom).__name__
    if name in ("NumpyIntegerDomain", "NumpyFloatDomain") and metric == "AbsoluteDifference":
        integer = name == "NumpyIntegerDomain"
        inf_ok = bool(getattr(dom, "allow_inf", False))
        top = 2.0 ** 63 - 1024 if integer else (np.inf if inf_ok else float(np.finfo(float).max))
        d = InputDomain(kind="answers", low=-top, high=top, integer=integer, nan=bool(getattr(dom, "allow_nan", False)),
                        sizes=(1,), length=1, sensitivity=float(d_in), distances=GROUP_DISTANCES,
                        claim_at=TumultClaimAt(meas, d_in, NeighbourRelation.REPLACE_ONE))
        return d, ()
    if name == "PandasSeriesDomain" and metric in ("SymmetricDifference", "HammingDistance"):
        rel = NeighbourRelation.ADD_REMOVE_ONE if metric == "SymmetricDifference" else NeighbourRelation.REPLACE_ONE
        elem = type(getattr(dom, "element_domain", None)).__name__
        integer = elem == "NumpyIntegerDomain"
        d = InputDomain.records(low=-(2.0 ** 63 - 1024) if integer else -np.inf,
                                high=2.0 ** 63 - 1024 if integer else np.inf, integer=integer,
                                nan=bool(getattr(dom.element_domain, "allow_nan", False)), relation=rel,
                                distances=GROUP_DISTANCES, claim_at=TumultClaimAt(meas, 1, rel))
        return d, ()
    why = f"no input domain stated: dpverify does not read {name} under {metric}; give pairs or domain="
    return None, (why,)
