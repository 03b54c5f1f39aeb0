"""OpenDP measurements as dpverify mechanisms: ``measurement(meas, d_in)``.

The claim is OpenDP's own privacy map at ``d_in``, in the form of the measurement's output measure:
``MaxDivergence`` -> ``PrivacyClaim(eps)``, ``Approximate(MaxDivergence)`` -> ``(eps, delta)``,
``ZeroConcentratedDivergence`` -> ``PrivacyClaim.zcdp(rho)``, ``SmoothedMaxDivergence`` -> a privacy
profile (``PrivacyProfile.delta``), ``RenyiDivergence`` -> a Renyi curve. The neighbour relation
follows the input metric: ``SymmetricDistance`` at d_in=1 is add/remove one record; change-one and
Hamming metrics, and metrics on numbers (the query's sensitivity), are replace-one.

Picklable: the adapter keeps ``opendp.serialize(meas)`` and the enabled features, and rebuilds the
measurement with ``opendp.deserialize`` in each worker. A scalar Laplace/Gaussian/geometric
measurement on an atom domain is drawn in batches through its vector-domain twin (the same noise,
i.i.d. per coordinate). OpenDP draws its own randomness (the operating system's), so
``honours_rng`` is False.
"""
from __future__ import annotations

import json
from typing import Any

import numpy as np

from .. import validation as v
from ..claims import NeighbourRelation, PrivacyClaim
from ..errors import InvalidArgument
from .base import LibraryMechanism, as_outputs, relation_of, require

dp = require("opendp.prelude", "opendp", "opendp")

__all__ = ["measurement", "OpenDPMechanism"]

#: Noise constructors whose vector-domain twin draws the same noise i.i.d. per coordinate.
_BATCHABLE = {"make_laplace", "make_gaussian", "make_geometric"}
_VECTOR_METRIC = {"make_laplace": "l1_distance", "make_gaussian": "l2_distance", "make_geometric": "l1_distance"}


def _features() -> list:
    import opendp.mod as mod

    return sorted(getattr(mod, "GLOBAL_FEATURES", set()))


def _rebuild(serialized: str, features: list) -> Any:
    if features:
        dp.enable_features(*features)
    return dp.deserialize(serialized)


class _Profile:
    """delta(eps) of an OpenDP SmoothedMaxDivergence measurement at d_in; picklable (rebuilt on use)."""

    def __init__(self, serialized: str, features: list, d_in: Any):
        self.serialized, self.features, self.d_in = serialized, features, d_in
        self._p = None

    def __getstate__(self):
        return {**self.__dict__, "_p": None}

    def __call__(self, eps: float) -> float:
        if self._p is None:
            self._p = _rebuild(self.serialized, self.features).map(self.d_in)
        return float(self._p.delta(float(eps)))

    def __repr__(self) -> str:
        return f"opendp_profile(d_in={self.d_in!r})"


class _Renyi(_Profile):
    def __call__(self, alpha: float) -> float:
        if self._p is None:
            self._p = _rebuild(self.serialized, self.features).map(self.d_in)
        return float(self._p(float(alpha)))

    def __repr__(self) -> str:
        return f"opendp_renyi(d_in={self.d_in!r})"


def _claim(meas: Any, serialized: str, features: list, d_in: Any, relation: NeighbourRelation) -> PrivacyClaim:
    measure = str(meas.output_measure)
    loss = meas.map(d_in)
    if measure == "MaxDivergence":
        return PrivacyClaim(float(loss), 0.0, relation)
    if measure.startswith("Approximate(MaxDivergence"):
        eps, delta = loss
        return PrivacyClaim(float(eps), float(delta), relation)
    if measure == "ZeroConcentratedDivergence":
        return PrivacyClaim.zcdp(float(loss), relation)
    if measure == "SmoothedMaxDivergence":
        return PrivacyClaim.profile(_Profile(serialized, features, d_in), relation)
    if measure == "RenyiDivergence":
        return PrivacyClaim.renyi(_Renyi(serialized, features, d_in), relation=relation)
    raise InvalidArgument(f"meas has output measure {measure}, which dpverify cannot read as a claim yet; "
                          "pass claim= to dpverify.audit, or convert it (e.g. opendp.combinators.make_fix_delta).")


def _default_relation(metric: str, d_in: Any) -> NeighbourRelation:
    if metric.startswith(("SymmetricDistance", "InsertDeleteDistance")) and d_in == 1:
        return NeighbourRelation.ADD_REMOVE_ONE
    return NeighbourRelation.REPLACE_ONE


class _MetricCheck:
    """Is (D, D') within d_in under the measurement's input metric? (the metrics dpverify can compute)."""

    def __init__(self, metric: str, d_in: Any):
        self.metric, self.d_in = metric, d_in

    def __call__(self, a: Any, b: Any) -> None:
        m = self.metric
        if m.startswith("AbsoluteDistance"):
            dist = abs(float(a) - float(b))
        elif m.startswith("L1Distance"):
            dist = float(np.sum(np.abs(np.asarray(a, float) - np.asarray(b, float))))
        elif m.startswith("L2Distance"):
            dist = float(np.linalg.norm(np.asarray(a, float) - np.asarray(b, float)))
        elif m.startswith(("SymmetricDistance", "InsertDeleteDistance")):
            from collections import Counter

            ca, cb = Counter(list(a)), Counter(list(b))
            dist = sum(((ca - cb) + (cb - ca)).values())
        elif m.startswith(("ChangeOneDistance", "HammingDistance")):
            if len(a) != len(b):
                raise InvalidArgument(f"data has {len(a)} records and data_prime {len(b)}; under {m} neighbours "
                                      "have the same size.")
            dist = sum(x != y for x, y in zip(a, b))
        else:
            return  # a metric dpverify does not compute: the pair is not checked here
        if not dist <= float(self.d_in) * (1 + 1e-12):
            raise InvalidArgument(f"the pair is at distance {dist!r} under {m}, more than d_in={self.d_in!r}; "
                                  "it is not neighbouring for this measurement's claim.")


class OpenDPMechanism(LibraryMechanism):
    library = "opendp"
    distribution = "opendp"
    honours_rng = False

    def _build(self):
        serialized, features, twin = self._recipe
        return _rebuild(serialized, features), (None if twin is None else _rebuild(twin, features))

    def _sample(self, obj, data, size, rng):
        meas, twin = obj
        if twin is not None:
            return as_outputs(list(twin([data] * size)))
        return as_outputs([meas(data) for _ in range(size)])


def _vector_twin(serialized: str) -> str | None:
    tree = json.loads(serialized)
    fn = tree.get("__function__")
    kw = tree.get("__kwargs__", {})
    dom, met = kw.get("input_domain", {}), kw.get("input_metric", {})
    if fn not in _BATCHABLE or dom.get("__function__") != "atom_domain":
        return None
    if met.get("__function__") != "absolute_distance":
        return None
    version = tree.get("__version__")
    kw = dict(kw)
    kw["input_domain"] = {"__function__": "vector_domain", "__module__": "domains",
                          "__kwargs__": {"atom_domain": dom, "size": None}, "__version__": version}
    kw["input_metric"] = {"__function__": _VECTOR_METRIC[fn], "__module__": "metrics",
                          "__kwargs__": dict(met.get("__kwargs__", {})), "__version__": version}
    return json.dumps({**tree, "__kwargs__": kw})


def measurement(meas: Any, d_in: Any, *, relation: NeighbourRelation | None = None, batch: bool = True,
                absent: Any = None) -> OpenDPMechanism:
    """An OpenDP ``Measurement`` as a dpverify mechanism claiming ``meas.map(d_in)``.

    ``relation`` overrides the neighbour relation read from the input metric; ``batch=False``
    turns off drawing scalar noise through the vector twin; ``absent`` marks padding records that
    are dropped before the measurement runs (see :func:`dpverify.adapters.absent_records`).
    """
    if not isinstance(meas, dp.Measurement):
        raise InvalidArgument(f"meas={meas!r} must be an opendp Measurement (e.g. opendp.measurements.make_laplace(...)).")
    if isinstance(d_in, float):
        v.nonnegative("d_in", d_in, fix="d_in is the distance between neighbours in the measurement's input metric.")
    serialized = dp.serialize(meas)
    features = _features()
    twin = _vector_twin(serialized) if batch else None
    if twin is not None:
        try:  # the twin must build and keep the same privacy map (else draw one by one)
            t = _rebuild(twin, features)
            if t.map(d_in) != meas.map(d_in):
                twin = None
        except Exception:
            twin = None
    metric = str(meas.input_metric)
    rel = relation_of(relation, _default_relation(metric, d_in))
    claim = _claim(meas, serialized, features, d_in, rel)
    name = json.loads(serialized).get("__function__", "measurement")
    return OpenDPMechanism(name=f"{name}(d_in={d_in!r})", recipe=(serialized, features, twin), claim=claim,
                           absent=absent, check=_MetricCheck(metric, d_in))
