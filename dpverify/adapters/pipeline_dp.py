"""pipeline-dp (Google / OpenMined) as dpverify mechanisms.

* ``aggregate(metrics, epsilon=..., delta=..., public_partitions=None, **params)``: one
  ``DPEngine.aggregate`` run on the local backend per output, over records ``(privacy_id,
  partition, value)``; ``metrics`` are ``pipeline_dp.Metrics`` (``COUNT``, ``SUM``, ``MEAN``,
  ``VARIANCE``, ``PRIVACY_ID_COUNT``, ``PERCENTILE(50)``) and ``params`` the other
  ``AggregateParams`` fields (``max_partitions_contributed``, ``max_contributions_per_partition``,
  ``min_value``, ``max_value``, ``noise_kind``). The output is a tuple of ``(partition, (metric
  values...))`` sorted by partition -- with private partition selection, which partitions appear is
  itself part of the output. Claim: the accountant's total (epsilon, delta) under add/remove one
  privacy id (pipeline-dp's unit), from ``NaiveBudgetAccountant`` or, with ``accountant="pld"``,
  from ``PLDBudgetAccountant`` (which calibrates the noise by composing privacy-loss distributions to
  the same total; needs ``dp-accounting``).
* ``select_partitions(epsilon, delta, max_partitions_contributed=1)``: the released set of partitions.
* ``laplace(epsilon, sensitivity)``: ``dp_computations.LaplaceMechanism.add_noise`` on a number.
* ``exponential(epsilon, sensitivity=1.0, monotonic=False)``: ``dp_computations.ExponentialMechanism``;
  ``data`` is the list of candidate scores, the output the index chosen. Claim epsilon under
  replace-one (scores move by at most ``sensitivity``).

Input domains: aggregations take keyed records ``(partition, value)`` (the domain encodes the i-th
record as ``(privacy_id=i, partition, value)``, one record per privacy id; the keys are the public
partitions and one partition outside them, or four partition names when they are private; +-inf
values admitted, NaN left out: pipeline-dp releases NaN for it), ``min_value``/``max_value`` as values worth trying;
the empty dataset is left out (pipeline-dp raises ``ValueError: col must be non-empty``). pipeline-dp
states no group privacy: distance 1 only.

pipeline-dp draws its own randomness (PyDP's secure generator for noise, a fresh
``numpy.random.default_rng()`` in the exponential mechanism), so ``honours_rng`` is False; the
inherited PyDP buffer is drained in each new process as in :mod:`dpverify.adapters.pydp`.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from .. import validation as v
from ..auditing.domain import InputDomain
from ..auditing.space import Norm
from ..claims import NeighbourRelation, PrivacyClaim
from ..errors import InvalidArgument
from .base import LibraryMechanism, ScalarDistanceCheck, as_outputs, one_number, relation_of, require

_pdp = require("pipeline_dp", "pipeline-dp", "pipeline_dp")

__all__ = ["aggregate", "select_partitions", "laplace", "exponential", "PipelineDPMechanism", "records_of",
           "GROUP_NOTE", "ACCOUNTANTS"]

#: pipeline-dp states each claim for one privacy id only.
GROUP_NOTE = "pipeline-dp claims no group privacy: the claim is searched at distance 1 only"
NAN_NOTE = ("NaN values are left out: pipeline-dp releases NaN for a NaN value (its clipping keeps NaN), which "
            "dpverify's tester refuses as an output; give such a pair by hand to see it")
EMPTY_NOTE = ("the empty dataset is left out of the domain: pipeline-dp raises ValueError (col must be non-empty) on "
              "it, which a caller must not expose")
#: The budget accountants ``aggregate``/``select_partitions`` run under (``accountant=``).
ACCOUNTANTS = ("naive", "pld")
_PRIVATE_KEYS = ("a", "b", "c", "new")


def records_of(data: Any) -> list:
    """pipeline-dp's records ``(privacy_id, partition, value)``: triples pass through; keyed records
    ``(partition, value)`` get the privacy id of their position (one record per id)."""
    recs = [tuple(r) for r in (data.tolist() if isinstance(data, np.ndarray) else data)]
    if all(len(r) == 3 for r in recs):
        return recs
    if all(len(r) == 2 for r in recs):
        return [(i, k, float(val)) for i, (k, val) in enumerate(recs)]
    raise InvalidArgument("records must all be (privacy_id, partition, value) or all (partition, value) tuples.")


def _keyed_domain(public: Any, params: dict, note: str) -> InputDomain:
    keys = tuple(public) + ("not-public",) if public else _PRIVATE_KEYS
    values = tuple(float(params[k]) for k in ("min_value", "max_value") if isinstance(params.get(k), (int, float)))
    return InputDomain.records(nan=False, sizes=(1, 2, 10), relation=NeighbourRelation.ADD_REMOVE_ONE, values=values,
                               keys=keys, encode=records_of, note=note)


def _plain(x: Any) -> Any:
    if isinstance(x, tuple):
        return tuple(_plain(y) for y in x)
    if isinstance(x, list):
        return tuple(_plain(y) for y in x)
    if isinstance(x, np.generic):
        return x.item()
    return x


def _id(r):
    return r[0]


def _partition(r):
    return r[1]


def _value(r):
    return r[2]


def _scoring(scores, sensitivity, monotonic):
    base = _pdp.dp_computations.ExponentialMechanism.ScoringFunction

    class Scoring(base):
        def score(self, k):
            return scores[k]

        @property
        def global_sensitivity(self):
            return sensitivity

        @property
        def is_monotonic(self):
            return monotonic

    return Scoring()


class _MaxGap:
    def __init__(self, sensitivity: float):
        self.sensitivity = sensitivity

    def __call__(self, a, b):
        a, b = np.asarray(a, float), np.asarray(b, float)
        if a.shape != b.shape:
            raise InvalidArgument(f"score lists of lengths {a.shape} and {b.shape}: neighbours score the same candidates.")
        gap = float(np.max(np.abs(a - b))) if a.size else 0.0
        if not gap <= self.sensitivity * (1 + 1e-12):
            raise InvalidArgument(f"scores move by {gap!r} > sensitivity={self.sensitivity!r}; not neighbouring.")




class PipelineDPMechanism(LibraryMechanism):
    library = "pipeline_dp"
    distribution = "pipeline-dp"
    honours_rng = False

    def _build(self):
        try:
            from . import pydp as _pydp_adapter  # deferred: python-dp (optional library), absent on some pipeline-dp installs

            _pydp_adapter.drain()
        except ImportError:  # pragma: no cover - pipeline-dp depends on python-dp
            pass
        return None

    def _sample(self, obj, data, size, rng):
        kind, spec = self._recipe
        if kind == "laplace":
            mech = _pdp.dp_computations.LaplaceMechanism.create_from_epsilon(spec["epsilon"], spec["sensitivity"])
            x = one_number(data)
            return as_outputs([float(mech.add_noise(x)) for _ in range(size)])
        if kind == "exponential":
            data = [float(x) for x in np.asarray(data, dtype=float).ravel()]
            mech = _pdp.dp_computations.ExponentialMechanism(_scoring(data, spec["sensitivity"], spec["monotonic"]))
            cands = list(range(len(data)))
            return as_outputs([int(mech.apply(spec["epsilon"], cands)) for _ in range(size)])
        records = records_of(data)
        return as_outputs([self._run(kind, spec, records) for _ in range(size)])

    @staticmethod
    def _run(kind, spec, records):
        make = _pld_accountant() if spec.get("accountant") == "pld" else _pdp.NaiveBudgetAccountant
        acc = make(total_epsilon=spec["epsilon"], total_delta=spec["delta"])
        engine = _pdp.DPEngine(acc, _pdp.LocalBackend())
        extract = _pdp.DataExtractors(privacy_id_extractor=_id, partition_extractor=_partition,
                                      value_extractor=_value)
        if kind == "aggregate":
            params = _pdp.AggregateParams(metrics=list(spec["metrics"]), **spec["params"])
            res = engine.aggregate(records, params, extract, public_partitions=spec["public_partitions"])
        else:
            params = _pdp.SelectPartitionsParams(max_partitions_contributed=spec["max_partitions_contributed"])
            res = engine.select_partitions(records, params, extract)
        acc.compute_budgets()
        out = [_plain(tuple(r)) if isinstance(r, tuple) else _plain(r) for r in res]
        return tuple(sorted(out, key=repr))


_PLD_CLASS: list = []
#: (epsilon, delta, discretisation, mechanisms) -> the base noise std PLDBudgetAccountant found for them.
_PLD_NOISE: dict = {}


def _pld_accountant() -> type:
    """``PLDBudgetAccountant`` with its noise search memoised per (budget, requested mechanisms): the search is
    deterministic and takes ~0.8 s per pipeline run, so each output after the first reuses the noise the
    accountant itself found for the same requests (the values, and so the claim, are pipeline-dp's own)."""
    if _PLD_CLASS:
        return _PLD_CLASS[0]
    base = _pdp.PLDBudgetAccountant

    class MemoisedPLD(base):
        def _find_minimum_base_noise_std(self):
            key = (self._total_epsilon, self._total_delta, self._pld_discretization,
                   tuple((str(m.mechanism_spec.mechanism_type), m.sensitivity, m.weight,
                          getattr(m.mechanism_spec, "_count", 1)) for m in self._mechanisms))
            if key not in _PLD_NOISE:
                _PLD_NOISE[key] = base._find_minimum_base_noise_std(self)
            return _PLD_NOISE[key]

    _PLD_CLASS.append(MemoisedPLD)
    return MemoisedPLD


def _accountant(accountant: str, epsilon: float, delta: float) -> str:
    if accountant not in ACCOUNTANTS:
        raise InvalidArgument(f"accountant={accountant!r} must be one of {ACCOUNTANTS} (pipeline-dp's "
                              "NaiveBudgetAccountant or PLDBudgetAccountant).")
    if accountant == "pld":
        _pdp.PLDBudgetAccountant(total_epsilon=epsilon, total_delta=delta)  # ImportError here without dp-accounting
    return accountant


def aggregate(metrics: Any, *, epsilon: float, delta: float = 0.0, public_partitions: Any = None,
              accountant: str = "naive", relation: NeighbourRelation | None = None, absent: Any = None,
              **params: Any) -> PipelineDPMechanism:
    """``DPEngine.aggregate`` with ``AggregateParams(metrics=metrics, **params)`` under the ``accountant`` named
    ("naive" or "pld"); data: (id, partition, value) or (partition, value) records."""
    eps = v.positive("epsilon", epsilon, fix="pipeline-dp needs a total epsilon > 0.")
    delta = v.probability("delta", delta)
    metrics = list(metrics)
    _pdp.AggregateParams(metrics=metrics, **params)  # fail here on bad parameters, not in a worker
    spec = {"metrics": metrics, "params": params, "epsilon": eps, "delta": delta,
            "accountant": _accountant(accountant, eps, delta),
            "public_partitions": None if public_partitions is None else list(public_partitions)}
    claim = PrivacyClaim(eps, delta, relation_of(relation, NeighbourRelation.ADD_REMOVE_ONE))
    name = (f"aggregate({', '.join(str(m) for m in metrics)}, {', '.join(f'{k}={x!r}' for k, x in params.items())}"
            f"{', accountant=pld' if accountant == 'pld' else ''})")
    limitations = (GROUP_NOTE, EMPTY_NOTE, NAN_NOTE)
    return PipelineDPMechanism(name=name, recipe=("aggregate", spec), claim=claim, absent=absent,
                               domain=_keyed_domain(spec["public_partitions"], params, " ".join(limitations)),
                               limitations=limitations)


def select_partitions(epsilon: float, delta: float, max_partitions_contributed: int = 1, *,
                      accountant: str = "naive", relation: NeighbourRelation | None = None) -> PipelineDPMechanism:
    """``DPEngine.select_partitions``: the partitions released from (id, partition, value) records."""
    spec = {"epsilon": v.positive("epsilon", epsilon), "delta": v.open_unit("delta", delta),
            "max_partitions_contributed": v.integer("max_partitions_contributed", max_partitions_contributed, minimum=1)}
    spec["accountant"] = _accountant(accountant, spec["epsilon"], spec["delta"])
    claim = PrivacyClaim(spec["epsilon"], spec["delta"], relation_of(relation, NeighbourRelation.ADD_REMOVE_ONE))
    limitations = (GROUP_NOTE, EMPTY_NOTE, NAN_NOTE)
    return PipelineDPMechanism(name=f"select_partitions(max_partitions_contributed={max_partitions_contributed})",
                               recipe=("select", spec), claim=claim,
                               domain=_keyed_domain(None, {}, " ".join(limitations)), limitations=limitations)


def laplace(epsilon: float, sensitivity: float = 1.0) -> PipelineDPMechanism:
    """``dp_computations.LaplaceMechanism.create_from_epsilon(epsilon, sensitivity).add_noise(data)``."""
    spec = {"epsilon": v.positive("epsilon", epsilon), "sensitivity": v.positive("sensitivity", sensitivity)}
    return PipelineDPMechanism(name=f"LaplaceMechanism(epsilon={epsilon!r}, sensitivity={sensitivity!r})",
                               recipe=("laplace", spec), claim=PrivacyClaim(spec["epsilon"]),
                               check=ScalarDistanceCheck(spec["sensitivity"]),
                               domain=InputDomain(kind="answers", sizes=(1,), length=1,
                                                  sensitivity=spec["sensitivity"], note=GROUP_NOTE),
                               limitations=(GROUP_NOTE,))


def exponential(epsilon: float, sensitivity: float = 1.0, monotonic: bool = False,
                candidates: int = 3) -> PipelineDPMechanism:
    """``dp_computations.ExponentialMechanism`` choosing an index; ``data`` is the list of scores (the domain:
    ``candidates`` scores, each moving by at most ``sensitivity``)."""
    spec = {"epsilon": v.positive("epsilon", epsilon), "sensitivity": v.positive("sensitivity", sensitivity),
            "monotonic": bool(monotonic)}
    return PipelineDPMechanism(name=f"ExponentialMechanism(epsilon={epsilon!r}, sensitivity={sensitivity!r}, "
                                    f"monotonic={monotonic!r})",
                               recipe=("exponential", spec), claim=PrivacyClaim(spec["epsilon"]),
                               check=_MaxGap(spec["sensitivity"]),
                               domain=InputDomain.answers(v.integer("candidates", candidates, minimum=1),
                                                          sensitivity=spec["sensitivity"], norm=Norm.LINF,
                                                          note=GROUP_NOTE),
                               limitations=(GROUP_NOTE,))


#: The largest score * epsilon / (sensitivity * (1 if monotonic else 2)) numpy's exp handles: beyond
#: it, pipeline-dp's ExponentialMechanism computes inf / inf = NaN probabilities and raises.
EXP_OVERFLOW = math.log(np.finfo(float).max)
