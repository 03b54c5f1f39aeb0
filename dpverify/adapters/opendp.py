"""OpenDP measurements as dpverify mechanisms: ``measurement(meas, d_in)``.

The claim is OpenDP's own privacy map at ``d_in``, in the form of the measurement's output measure:
``MaxDivergence`` -> ``PrivacyClaim(eps)``, ``Approximate(MaxDivergence)`` -> ``(eps, delta)``,
``ZeroConcentratedDivergence`` -> ``PrivacyClaim.zcdp(rho)``, ``SmoothedMaxDivergence`` -> a privacy
profile (``PrivacyProfile.delta``), ``RenyiDivergence`` -> a Renyi curve. The neighbour relation
follows the input metric: ``SymmetricDistance`` at d_in=1 is add/remove one record; change-one and
Hamming metrics, and metrics on numbers (the query's sensitivity), are replace-one.

The input domain (:meth:`OpenDPMechanism.input_domain`, read by :mod:`dpverify.adapters.opendp_domain`)
is OpenDP's own: the atom type's range (``atom_domain(T=float, nan=False)``: -inf..inf without NaN;
``T=i32``: the int32 range; ``bounds=``: those), the metric's relation, and the privacy map as a
claim curve over d_in (``claim_at(d)`` is ``meas.map`` at d steps of one record, or d times the
sensitivity ``d_in`` on numbers). Polars measurements (``make_private_lazyframe``) take records that
the domain's ``encode`` turns into a LazyFrame; their OnceFrame outputs are collected to numbers.

Picklable: the adapter keeps ``opendp.serialize(meas)`` and the enabled features, and rebuilds the
measurement with ``opendp.deserialize`` in each worker; a measurement ``serialize`` cannot encode
(``Approximate<MaxDivergence>`` from ``then_laplace_threshold``) is rebuilt from ``factory=`` (a
picklable function), or else kept in this process only: it then refuses pickling
(:class:`~dpverify.adapters.base.NotPicklable`), so audits run serially, and ``limitations`` says why.
A scalar Laplace/Gaussian/geometric measurement on an atom domain is drawn in batches through its
vector-domain twin (the same noise, i.i.d. per coordinate). OpenDP draws its own randomness (the
operating system's), so ``honours_rng`` is False.
"""
from __future__ import annotations

import json
import pickle
from collections import Counter
from typing import Any, Callable

import numpy as np

from .. import validation as v
from ..auditing.domain import InputDomain
from ..claims import NeighbourRelation, PrivacyClaim
from ..errors import InvalidArgument
from .base import LibraryMechanism, NotPicklable, as_outputs, relation_of, require
from .opendp_domain import METRICS_CHECKED, DomainReading, clamp_values, domain_tree, read_domain

dp = require("opendp.prelude", "opendp", "opendp")

__all__ = ["measurement", "compositor", "OpenDPMechanism", "OpenDPCompositor", "ClaimAt", "build", "LIVE_WHY"]

#: Noise constructors whose vector-domain twin draws the same noise i.i.d. per coordinate.
_BATCHABLE = {"make_laplace", "make_gaussian", "make_geometric"}
_VECTOR_METRIC = {"make_laplace": "l1_distance", "make_gaussian": "l2_distance", "make_geometric": "l1_distance"}
_MEASURES = ("MaxDivergence", "ZeroConcentratedDivergence", "SmoothedMaxDivergence", "RenyiDivergence")
_RECORD_METRICS = ("SymmetricDistance", "InsertDeleteDistance", "FrameDistance")

#: Why a live (unserialisable, no factory) measurement runs serially: said in the adapter's limitations too.
LIVE_WHY = ("this OpenDP measurement cannot be serialised (opendp.serialize refused it) and no factory= was given: "
            "it cannot be rebuilt in a worker process, so audits run serially in this process; pass "
            "measurement(factory=<module-level function returning the measurement>, d_in=...) to run on workers")


def _features() -> list:
    import opendp.mod as mod

    return sorted(getattr(mod, "GLOBAL_FEATURES", set()))


def _rebuild(serialized: str, features: list) -> Any:
    if features:
        dp.enable_features(*features)
    return dp.deserialize(serialized)


def build(recipe: tuple) -> Any:
    """The measurement of a recipe: ``("json", serialized, features)``, ``("factory", factory, features)`` or
    ``("live", meas)`` (the object itself, in the process that made it)."""
    kind = recipe[0]
    if kind == "json":
        return _rebuild(recipe[1], recipe[2])
    if kind == "factory":
        if recipe[2]:
            dp.enable_features(*recipe[2])
        return recipe[1]()
    return recipe[1]


class _Rebuilt:
    """Holds a recipe and builds its measurement once per process; a live recipe refuses pickling."""

    def __init__(self, recipe: tuple):
        self.recipe = recipe
        self._m = None

    def __getstate__(self):
        if self.recipe[0] == "live":
            raise NotPicklable(LIVE_WHY)
        return {**self.__dict__, "_m": None}

    def __setstate__(self, state):
        self.__dict__.update(state)

    def built(self) -> Any:
        if self._m is None:
            self._m = build(self.recipe)
        return self._m


class _Profile(_Rebuilt):
    """delta(eps) of an OpenDP SmoothedMaxDivergence measurement at d_in; picklable (rebuilt on use)."""

    def __init__(self, recipe: tuple, d_in: Any):
        super().__init__(recipe)
        self.d_in, self._p = d_in, None

    def __getstate__(self):
        return {**super().__getstate__(), "_p": None}

    def __call__(self, eps: float) -> float:
        if self._p is None:
            self._p = self.built().map(self.d_in)
        return float(self._p.delta(float(eps)))

    def __repr__(self) -> str:
        return f"opendp_profile(d_in={self.d_in!r})"


class _Renyi(_Profile):
    def __call__(self, alpha: float) -> float:
        if self._p is None:
            self._p = self.built().map(self.d_in)
        return float(self._p(float(alpha)))

    def __repr__(self) -> str:
        return f"opendp_renyi(d_in={self.d_in!r})"


def _check_d_in(meas: Any, d_in: Any) -> None:
    """InvalidArgument unless ``meas.map(d_in)`` accepts ``d_in``: a float must be finite and >= 0; a value of a type
    or range the input metric does not take (OpenDP's TypeError or ValueError) is refused with the library's words."""
    fix = "d_in is the distance between neighbours in the measurement's input metric"
    if isinstance(d_in, float):
        v.nonnegative("d_in", d_in, fix=fix + ".")
    try:
        meas.map(d_in)
    except (TypeError, ValueError) as exc:
        raise InvalidArgument(f"d_in={d_in!r} is not a distance {meas.input_metric} takes ({exc}); {fix}, e.g. "
                              "d_in=1 for one record under the symmetric distance, d_in=1.0 for an absolute "
                              "distance on floats.") from None


def _claim(meas: Any, recipe: tuple, d_in: Any, relation: NeighbourRelation) -> PrivacyClaim:
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
        return PrivacyClaim.profile(_Profile(recipe, d_in), relation)
    if measure == "RenyiDivergence":
        return PrivacyClaim.renyi(_Renyi(recipe, d_in), relation=relation)
    raise InvalidArgument(f"meas has output measure {measure}, which dpverify cannot read as a claim yet; "
                          "pass claim= to dpverify.audit, or convert it (e.g. opendp.combinators.make_fix_delta).")


class ClaimAt(_Rebuilt):
    """``claim_at(d_in)``: the measurement's privacy map at ``d_in`` as a PrivacyClaim under ``relation``
    (picklable: rebuilt from the recipe in each process)."""

    def __init__(self, recipe: tuple, relation: NeighbourRelation):
        super().__init__(recipe)
        self.relation = relation

    def __call__(self, d_in: Any) -> PrivacyClaim:
        return _claim(self.built(), self.recipe, d_in, self.relation)

    def __repr__(self) -> str:
        return "opendp_map"


def _default_relation(metric: str, d_in: Any) -> NeighbourRelation:
    if metric.startswith(("SymmetricDistance", "InsertDeleteDistance")) and d_in == 1:
        return NeighbourRelation.ADD_REMOVE_ONE
    return NeighbourRelation.REPLACE_ONE


def _rows(x: Any) -> list:
    """The records of a dataset: a list or array as it is, a polars LazyFrame/DataFrame as its row tuples."""
    if hasattr(x, "collect") and hasattr(x, "lazy"):
        x = x.collect()
    if hasattr(x, "rows") and callable(x.rows):
        return list(x.rows())
    if isinstance(x, np.ndarray):
        return x.tolist()
    return list(x)


def _hashable(x: Any) -> Any:
    if isinstance(x, list):
        return tuple(_hashable(y) for y in x)
    if isinstance(x, float) and x != x:
        return "nan"
    return x


class _MetricCheck:
    """Is (D, D') within d_in under the measurement's input metric? Only built for the metrics of
    :data:`METRICS_CHECKED`; for another metric the adapter offers no check and says so in ``limitations``."""

    def __init__(self, metric: str, d_in: Any):
        if not metric.startswith(METRICS_CHECKED):
            raise InvalidArgument(f"metric={metric!r}: dpverify does not compute this distance (it computes "
                                  f"{', '.join(METRICS_CHECKED)}).")
        self.metric, self.d_in = metric, d_in

    def __call__(self, a: Any, b: Any) -> None:
        m = self.metric
        if m.startswith("AbsoluteDistance"):
            dist = abs(float(np.asarray(a, float).ravel()[0]) - float(np.asarray(b, float).ravel()[0]))
        elif m.startswith("L1Distance"):
            dist = float(np.sum(np.abs(np.asarray(a, float) - np.asarray(b, float))))
        elif m.startswith("L2Distance"):
            dist = float(np.linalg.norm(np.asarray(a, float) - np.asarray(b, float)))
        elif m.startswith(("SymmetricDistance", "InsertDeleteDistance")):
            ca, cb = Counter(map(_hashable, _rows(a))), Counter(map(_hashable, _rows(b)))
            dist = sum(((ca - cb) + (cb - ca)).values())
        else:  # ChangeOneDistance, HammingDistance
            ra, rb = _rows(a), _rows(b)
            if len(ra) != len(rb):
                raise InvalidArgument(f"data has {len(ra)} records and data_prime {len(rb)}; under {m} neighbours "
                                      "have the same size.")
            dist = sum(_hashable(x) != _hashable(y) for x, y in zip(ra, rb))
        if not dist <= float(np.max(self.d_in)) * (1 + 1e-12):
            raise InvalidArgument(f"the pair is at distance {dist!r} under {m}, more than d_in={self.d_in!r}; "
                                  "it is not neighbouring for this measurement's claim.")


def plain(x: Any) -> Any:
    """An OpenDP output as numbers: a polars OnceFrame/LazyFrame/DataFrame collected (numeric columns: a float
    vector, one value: a float; with key columns: the sorted row tuples), a dict as its sorted items, a list of
    numbers as a float array."""
    if hasattr(x, "collect") and not isinstance(x, (list, dict)):
        x = x.collect()
    if hasattr(x, "to_numpy") and hasattr(x, "dtypes") and hasattr(x, "rows"):
        if all(dt.is_numeric() for dt in x.dtypes):
            arr = np.asarray(x.to_numpy(), dtype=float).ravel()
            return float(arr[0]) if arr.size == 1 else arr
        return tuple(sorted((tuple(r) for r in x.rows()), key=repr))
    if isinstance(x, dict):
        return tuple(sorted(x.items(), key=repr))
    if isinstance(x, list) and all(isinstance(y, (int, float)) and not isinstance(y, bool) for y in x):
        return np.asarray(x, dtype=float)
    return x


def _is_carrier(data: Any) -> bool:
    """Data already in the library's own form (a LazyFrame, DataFrame or dict) is passed as it is."""
    return isinstance(data, dict) or hasattr(data, "collect_schema") or (hasattr(data, "lazy") and hasattr(data, "rows"))


class OpenDPMechanism(LibraryMechanism):
    library = "opendp"
    distribution = "opendp"
    honours_rng = False

    def __getstate__(self) -> dict:
        if self._recipe[0][0] == "live":
            raise NotPicklable(LIVE_WHY)
        return super().__getstate__()

    def _build(self):
        recipe, twin, convert = self._recipe
        features = recipe[2] if recipe[0] != "live" else []
        return build(recipe), (None if twin is None else _rebuild(twin, features)), convert

    def _sample(self, obj, data, size, rng):
        meas, twin, convert = obj
        if convert is not None and not _is_carrier(data):
            data = convert(data)
        if twin is not None:
            return as_outputs(list(twin([data] * size)))
        return as_outputs([plain(meas(data)) for _ in range(size)])


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


def _recipe_of(meas: Any, factory: Callable | None) -> tuple[Any, tuple, str, str]:
    """(measurement, recipe, serialized or "", why it is not serialisable or "")."""
    features = _features()
    if factory is not None:
        if not callable(factory):
            raise InvalidArgument(f"factory={factory!r} must be a callable returning the measurement.")
        try:
            pickle.dumps(factory)
        except Exception as exc:
            raise InvalidArgument(f"factory={factory!r} cannot be pickled ({type(exc).__name__}: {exc}); give a "
                                  "module-level function or a functools.partial of one (not a lambda or a "
                                  "closure).") from None
        built = factory()
        if not isinstance(built, dp.Measurement):
            raise InvalidArgument(f"factory() returned {built!r}; it must return an opendp Measurement.")
        return (built if meas is None else meas), ("factory", factory, features), "", ""
    try:
        serialized = dp.serialize(meas)
        _rebuild(serialized, features)  # a plan that cannot be read back is caught here, not in a worker
        return meas, ("json", serialized, features), serialized, ""
    except Exception as exc:
        return meas, ("live", meas), "", f"{type(exc).__name__}: {' '.join(str(exc).split())[:160]}"


def _reading(meas: Any, recipe: tuple, serialized: str, metric: str, d_in: Any, domain: InputDomain | None,
             limitations: list) -> DomainReading:
    """The domain read from OpenDP (or the caller's ``domain``), its note carrying the limitations."""
    measure = str(meas.output_measure)
    rel = (NeighbourRelation.ADD_REMOVE_ONE if metric.startswith(_RECORD_METRICS) else NeighbourRelation.REPLACE_ONE)
    claim_at = ClaimAt(recipe, rel) if (measure in _MEASURES or measure.startswith("Approximate(MaxDivergence")) \
        else None
    try:
        text = repr(meas.input_domain)
    except Exception:  # a measurement whose domain cannot be described: no domain, said in limitations
        text = ""
    tree = domain_tree(serialized, text)
    reading = read_domain(tree, metric, d_in, claim_at, note=" ".join(limitations), values=clamp_values(serialized))
    if domain is not None:
        if not isinstance(domain, InputDomain):
            raise InvalidArgument(f"domain={domain!r} must be a dpverify.InputDomain (or None to read OpenDP's).")
        return DomainReading(domain, reading.convert)
    if reading.domain is None:
        limitations.append(f"no input domain stated: {reading.why}; give pairs, or domain= to measurement()")
    return reading


def measurement(meas: Any = None, d_in: Any = 1, *, factory: Callable | None = None,
                relation: NeighbourRelation | None = None, batch: bool = True, absent: Any = None,
                domain: InputDomain | None = None) -> OpenDPMechanism:
    """An OpenDP ``Measurement`` as a dpverify mechanism claiming ``meas.map(d_in)``.

    ``factory``: a picklable function (module-level, or a ``functools.partial`` of one) that builds the
    measurement, for one ``opendp.serialize`` cannot encode; without it such a measurement runs serially
    in this process (``limitations`` says so). ``relation`` overrides the neighbour relation read from
    the input metric; ``batch=False`` turns off drawing scalar noise through the vector twin; ``absent``
    marks padding records dropped before the measurement runs; ``domain`` replaces the input domain read
    from OpenDP (:meth:`input_domain`) where dpverify cannot read it.
    """
    if meas is None and factory is None:
        raise InvalidArgument("measurement() needs meas (an opendp Measurement) or factory= (a function building one).")
    if meas is not None and not isinstance(meas, dp.Measurement):
        raise InvalidArgument(f"meas={meas!r} must be an opendp Measurement (e.g. opendp.measurements.make_laplace(...)).")
    meas, recipe, serialized, unserialisable = _recipe_of(meas, factory)
    _check_d_in(meas, d_in)
    twin = _vector_twin(serialized) if (batch and serialized) else None
    if twin is not None:
        try:  # the twin must build and keep the same privacy map (else draw one by one)
            if _rebuild(twin, recipe[2]).map(d_in) != meas.map(d_in):
                twin = None
        except Exception:
            twin = None
    metric = str(meas.input_metric)
    claim = _claim(meas, recipe, d_in, relation_of(relation, _default_relation(metric, d_in)))
    limitations = [f"{LIVE_WHY} ({unserialisable})"] if unserialisable else []
    checked = metric.startswith(METRICS_CHECKED)
    if not checked:
        limitations.append(f"pairs are not checked against the input metric {metric} (dpverify does not compute it): "
                           "the audit's own record check applies, else the pairs are marked unchecked")
    reading = _reading(meas, recipe, serialized, metric, d_in, domain, limitations)
    name = json.loads(serialized).get("__function__", "measurement") if serialized else (
        getattr(factory, "__name__", None) or "measurement")
    return OpenDPMechanism(name=f"{name}(d_in={d_in!r})", recipe=(recipe, twin, reading.convert), claim=claim,
                           absent=absent, check=_MetricCheck(metric, d_in) if checked else None,
                           domain=reading.domain, limitations=tuple(limitations))


# -- interactive compositors -------------------------------------------------------------------------------------

class _First:
    """``factory()[0]``: the compositor of a factory that returns ``(compositor, queries)`` (picklable when the
    factory is)."""

    def __init__(self, factory: Callable):
        self.factory = factory

    def __call__(self) -> Any:
        return self.factory()[0]


def _queries_of(queries: Any, factory: Callable | None) -> tuple:
    """The queries' recipe: ("factory", factory) or ("json", serialized queries)."""
    if factory is not None:
        return ("factory", factory)
    out = []
    for i, q in enumerate(queries):
        if not isinstance(q, dp.Measurement):
            raise InvalidArgument(f"queries[{i}]={q!r} must be an opendp Measurement (a query of the compositor).")
        try:
            out.append(dp.serialize(q))
        except Exception as exc:
            raise InvalidArgument(f"queries[{i}] cannot be serialised ({type(exc).__name__}); give factory= (a "
                                  "module-level function returning (compositor, [queries]))") from None
    if not out:
        raise InvalidArgument("queries=[] asks the compositor nothing; give the measurements to submit, in order.")
    return ("json", tuple(out))


class OpenDPCompositor(OpenDPMechanism):
    """An OpenDP interactive compositor (e.g. ``make_sequential_composition``) run on each dataset with a fixed
    list of queries submitted in order; one output is the tuple of their answers."""

    def _build(self):
        (recipe, convert, queries) = self._recipe
        features = recipe[2]
        if queries[0] == "factory":
            qs = list(queries[1]()[1])
        else:
            qs = [_rebuild(q, features) for q in queries[1]]
        return build(recipe), qs, convert

    def _sample(self, obj, data, size, rng):
        comp, queries, convert = obj
        if convert is not None and not _is_carrier(data):
            data = convert(data)
        out = []
        for _ in range(size):
            qbl = comp(data)
            answers = [plain(qbl(q)) for q in queries]
            try:
                out.append(np.asarray(answers, dtype=float))
            except (TypeError, ValueError):
                out.append(tuple(answers))
        return as_outputs(out)


def compositor(meas: Any = None, queries: Any = (), d_in: Any = 1, *, factory: Callable | None = None,
               relation: NeighbourRelation | None = None) -> OpenDPCompositor:
    """An OpenDP interactive compositor as a dpverify mechanism: each draw runs ``meas(data)`` and submits
    ``queries`` (measurements) to the queryable in order; the output is their answers; the claim is the
    compositor's own map at ``d_in`` (what it promises for every sequence of queries it admits). ``factory``: a
    picklable function returning ``(compositor, [queries])``, for queries ``opendp.serialize`` cannot encode."""
    try:
        queries = tuple(queries)
    except TypeError:
        raise InvalidArgument(f"queries={queries!r} must be a list of opendp Measurements (the queries to submit, in "
                              "order).") from None
    if (meas is None) == (factory is None):
        raise InvalidArgument(f"compositor() needs meas (an opendp compositor Measurement) and queries, or factory= "
                              f"(a function returning (compositor, [queries])), not both (got meas={meas!r}, "
                              f"factory={factory!r}).")
    if factory is not None and len(queries):
        raise InvalidArgument(f"queries={queries!r} with factory=: the factory returns the queries; give one or the "
                              "other.")
    if meas is not None and not isinstance(meas, dp.Measurement):
        raise InvalidArgument(f"meas={meas!r} must be an opendp Measurement (e.g. dp.c.make_adaptive_composition(...)).")
    n_queries = len(queries)
    if factory is not None:
        # checks that the factory pickles and builds a Measurement (one call), then reads its queries
        meas, recipe, serialized, _ = _recipe_of(None, _First(factory))
        n_queries = len(factory()[1])
        if not n_queries:
            raise InvalidArgument("factory() returned no queries; it must return (compositor, [queries]).")
    else:
        meas, recipe, serialized, why = _recipe_of(meas, None)
        if why:
            raise InvalidArgument(f"meas cannot be serialised ({why}); give factory= (a module-level function "
                                  "returning (compositor, [queries])).")
    _check_d_in(meas, d_in)
    query_recipe = _queries_of(queries, factory)
    metric = str(meas.input_metric)
    claim = _claim(meas, recipe, d_in, relation_of(relation, _default_relation(metric, d_in)))
    limitations = ["the compositor is audited on one fixed sequence of queries (the ones given): its claim is for "
                   "every sequence it admits, so a pass covers this sequence only"]
    if not serialized:
        try:  # the domain is read from the serialised form; a compositor that does not serialise has none stated
            serialized = dp.serialize(meas)
        except Exception:
            serialized = ""
    reading = _reading(meas, recipe, serialized, metric, d_in, None, limitations)
    return OpenDPCompositor(name=f"compositor({n_queries} queries, d_in={d_in!r})", recipe=(recipe, reading.convert,
                            query_recipe), claim=claim, check=_MetricCheck(metric, d_in)
                            if metric.startswith(METRICS_CHECKED) else None, domain=reading.domain,
                            limitations=tuple(limitations))
