"""SmartNoise SQL (PyPI ``smartnoise-sql``, module ``snsql``) as dpverify mechanisms.

* ``approx_bounds(epsilon)``: ``snsql.sql._mechanisms.approx_bounds.approx_bounds(vals, epsilon)``, the
  routine that estimates a column's bounds (a noisy histogram over 128 power-of-two bins, then the
  outermost bins above a threshold). ``data`` is the list of records; the output is the pair
  ``(lower, upper)``, ``(None, None)`` when no bin passes. Claim ``epsilon`` under add/remove one record
  (the histogram's unit). Its input domain is every float, infinities and NaN included: the routine
  drops them itself. SmartNoise SQL 1.0.1 raised on records below its smallest bin edge
  (opendp/smartnoise-sdk#574), which an audit without pairs finds (tests/support/bug_replays.py).
* ``mechanism(kind, epsilon, delta=0.0, lower=, upper=, max_contrib=1)`` with ``kind`` ``"laplace"`` or
  ``"gaussian"`` (the classes ``snsql.sql._mechanisms.Laplace`` / ``Gaussian``): the noise SmartNoise adds
  to an exact bounded sum. ``data`` is the exact sum (one number), released by ``release([x])``.
  SmartNoise calibrates the scale for OpenDP's clamp-and-sum of records in ``[lower, upper]`` under
  ``max_contrib`` added or removed records, whose sensitivity is ``max_contrib * max(|lower|, |upper|)``
  (Gaussian: the bounds rounded outward to whole numbers, as SmartNoise does); sums further apart are
  refused. Claim ``epsilon`` (Laplace) or ``(epsilon, delta)`` (Gaussian).
* ``query(sql, column="x", lower=0, upper=1, epsilon=1, delta=1e-5)``: SmartNoise's private reader
  (``snsql.from_df``) over a one-column pandas DataFrame with row privacy; ``data`` is the list of records;
  the output is the released result rows after the header (empty when SmartNoise censors the row). Claim:
  the reader's own ``get_privacy_cost(sql)``, under add/remove one row. The reader parses and rewrites the query
  on every call, as SmartNoise does; what it does not repeat is the calibration, which took 9 tenths of a draw (an
  OpenDP binary search for each mechanism's scale, rerun for every mechanism of every query). The reader's
  mechanism table (``Privacy(mechanisms=...).classes``, SmartNoise's own place to choose the mechanism classes)
  holds SmartNoise's ``Laplace`` and ``Gaussian``, each built once per process for given arguments and copied for
  every query (``_CalibrateOnce``): the scale is deterministic in (epsilon, delta, bounds, max_contrib), so each
  copy equals, attribute for attribute, the instance a plain reader builds, and its own ``release`` draws fresh
  noise; censoring, clamping and the reader's code path are unchanged and no noise is cached (the reader's
  odometer, kept per dataset as before, only counts: it refuses nothing). Measured here (2 cores, load 2): 13-15
  draws per second before, 150-370 after (COUNT 150-250, SUM 300-370); an audit without pairs of ``SELECT
  COUNT(x)`` at 2,000 samples per side takes about 75 s CPU (``tests/adapters/examples/smartnoise_query.py``).

SmartNoise draws its noise through OpenDP's own generator, so ``honours_rng`` is False: results do not
reproduce from the audit's seed.
"""
from __future__ import annotations

import copy
import math
from typing import Any

import numpy as np

from .. import validation as v
from ..auditing.domain import InputDomain
from ..claims import NeighbourRelation, PrivacyClaim
from ..errors import InvalidArgument
from .base import LibraryMechanism, ScalarDistanceCheck, as_outputs, float_records, one_number, require

_snsql = require("snsql", "smartnoise-sql", "smartnoise")

__all__ = ["approx_bounds", "mechanism", "query", "SmartNoiseMechanism", "QUERY_SPEED_NOTE"]

#: What an audit of the private reader costs.
QUERY_SPEED_NOTE = ("the private reader parses and rewrites the SQL on every draw (its calibration runs once per "
                    "process): about 150-370 draws per second measured here, so an audit without pairs of 2,000 "
                    "samples per side takes a minute or two of CPU")
_SEEDED_NOTE = "SmartNoise draws its own randomness (OpenDP's generator): a result does not reproduce from its seed"
_GROUP_NOTE = "SmartNoise states each epsilon for one added or removed record (max_contrib): searched at distance 1 only"


class SmartNoiseMechanism(LibraryMechanism):
    """A SmartNoise SQL routine, mechanism or private reader (module docstring); rebuilt in each process."""

    library = "smartnoise"
    distribution = "smartnoise-sql"
    honours_rng = False

    def _build(self) -> Any:
        kind, args = self._recipe
        if kind == "approx_bounds":
            from snsql.sql._mechanisms.approx_bounds import approx_bounds as fn
            return fn
        if kind == "mechanism":
            from snsql.sql import _mechanisms as M
            cls = {"laplace": M.Laplace, "gaussian": M.Gaussian}[args["kind"]]
            return cls(args["epsilon"], delta=args["delta"], lower=args["lower"], upper=args["upper"],
                       max_contrib=args["max_contrib"])
        from snsql.sql.privacy import Mechanisms  # deferred: smartnoise-sql is an optional library
        mechanisms = Mechanisms()  # query: SmartNoise's own mechanism table, each calibration run once (_CalibrateOnce)
        once = {cls: _CalibrateOnce(cls) for cls in set(mechanisms.classes.values())}
        mechanisms.classes = {kind: once[cls] for kind, cls in mechanisms.classes.items()}
        return mechanisms  # the reader itself is built per dataset (reader())

    def _sample(self, obj: Any, data: Any, size: int, rng: np.random.Generator) -> Any:
        kind, args = self._recipe
        if kind == "approx_bounds":
            vals = float_records(data)
            return as_outputs([tuple(obj(list(vals), args["epsilon"])) for _ in range(size)])
        if kind == "mechanism":
            x = one_number(data)
            return np.asarray([float(obj.release([x])[0]) for _ in range(size)], dtype=float)
        reader = self.reader(data)
        return as_outputs([_rows(reader.execute(args["sql"])) for _ in range(size)])

    def reader(self, data: Any) -> Any:
        """The private reader a ``query`` draws from on ``data`` (``snsql.from_df`` over the records), with
        SmartNoise's mechanism table whose calibrations run once per process (module docstring)."""
        kind, args = self._recipe
        if kind != "query":
            raise InvalidArgument(f"{self!r} is not a private reader: only smartnoise.query(...) has one.")
        return _reader(args, data, self.library_object())


class _CalibrateOnce:
    """One of SmartNoise's mechanism classes (``Laplace``, ``Gaussian``) in its reader's table
    (``Privacy(mechanisms=...).classes``): the first call with given arguments builds the library's own instance,
    which runs its calibration (an OpenDP binary search for the scale, deterministic in the arguments); every call
    returns a shallow copy of that instance, so the reader mutates its own copy (it sets a key count's delta) and
    draws fresh noise through the instance's own ``release``. Arguments are keyed with their types (1 and 1.0
    stay apart)."""

    def __init__(self, cls: type):
        self.cls, self._made = cls, {}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        key = tuple((type(a), a) for a in args) + tuple((k, type(a), a) for k, a in sorted(kwargs.items()))
        if key not in self._made:
            self._made[key] = self.cls(*args, **kwargs)
        return copy.copy(self._made[key])


def _reader(args: dict, data: Any, mechanisms: Any = None) -> Any:
    import pandas as pd  # deferred: pandas comes with smartnoise-sql, needed only for the private reader

    frame = pd.DataFrame({args["column"]: np.asarray(float_records(data), dtype=float)})
    privacy = _snsql.Privacy(epsilon=args["epsilon"], delta=args["delta"], mechanisms=mechanisms)
    return _snsql.from_df(frame, privacy=privacy, metadata=_metadata(args))


def _metadata(args: dict) -> dict:
    return {"Collection": {"T": {"D": {"row_privacy": True, args["column"]: {
        "type": "float", "lower": args["lower"], "upper": args["upper"]}}}}}


def _rows(result: list) -> tuple:
    """The released rows after the header, flattened to one tuple (empty when the row was censored)."""
    return tuple(None if x is None else float(x) for row in result[1:] for x in row)


def _epsilon(name: str, value: Any) -> float:
    x = v.real(name, value)
    if not (x > 0 and math.isfinite(x)):
        raise InvalidArgument(f"{name}={value!r} must be a positive finite number, e.g. {name}=1.0.")
    return x


def approx_bounds(epsilon: float) -> SmartNoiseMechanism:
    """SmartNoise's ``approx_bounds(vals, epsilon)`` (module docstring)."""
    eps = _epsilon("epsilon", epsilon)
    claim = PrivacyClaim(eps, relation=NeighbourRelation.ADD_REMOVE_ONE)
    domain = InputDomain.records(low=-math.inf, high=math.inf, nan=True, relation=claim.relation,
                                 note="SmartNoise's approx_bounds takes any float and drops inf and NaN itself")
    return SmartNoiseMechanism(name=f"approx_bounds(epsilon={eps:g})", recipe=("approx_bounds", {"epsilon": eps}),
                               claim=claim, domain=domain, limitations=(_SEEDED_NOTE, _GROUP_NOTE))


def mechanism(kind: str, epsilon: float, delta: float = 0.0, *, lower: float, upper: float,
              max_contrib: int = 1) -> SmartNoiseMechanism:
    """SmartNoise's ``Laplace`` or ``Gaussian`` additive noise on an exact bounded sum (module docstring)."""
    if kind not in ("laplace", "gaussian"):
        raise InvalidArgument(f"kind={kind!r} must be 'laplace' or 'gaussian' (SmartNoise's additive mechanisms).")
    eps = _epsilon("epsilon", epsilon)
    dlt = v.real("delta", delta)
    if not 0 <= dlt < 1 or (kind == "gaussian" and dlt == 0):
        raise InvalidArgument(f"delta={delta!r} must be in [0, 1) (in (0, 1) for 'gaussian'), e.g. delta=1e-5.")
    lo, hi = v.real("lower", lower), v.real("upper", upper)
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise InvalidArgument(f"lower={lower!r}, upper={upper!r} must be finite with lower < upper, e.g. lower=0, upper=1.")
    if not isinstance(max_contrib, int) or isinstance(max_contrib, bool) or max_contrib < 1:
        raise InvalidArgument(f"max_contrib={max_contrib!r} must be a whole number >= 1.")
    if kind == "gaussian":
        lo, hi = float(math.floor(lo)), float(math.ceil(hi))  # SmartNoise calibrates on the bounds rounded outward
    sensitivity = max_contrib * max(abs(lo), abs(hi))
    claim = PrivacyClaim(eps, dlt if kind == "gaussian" else 0.0)
    domain = InputDomain.answers(1, sensitivity=sensitivity, note=f"an exact bounded sum; sensitivity {sensitivity:g}")
    args = {"kind": kind, "epsilon": eps, "delta": dlt, "lower": lower, "upper": upper, "max_contrib": max_contrib}
    return SmartNoiseMechanism(name=f"{kind}(epsilon={eps:g}, delta={dlt:g}, bounds=({lower}, {upper}), "
                                    f"max_contrib={max_contrib})", recipe=("mechanism", args), claim=claim,
                               check=ScalarDistanceCheck(sensitivity), domain=domain,
                               limitations=(_SEEDED_NOTE, _GROUP_NOTE))


def query(sql: str, *, column: str = "x", lower: float = 0.0, upper: float = 1.0, epsilon: float = 1.0,
          delta: float = 1e-5) -> SmartNoiseMechanism:
    """SmartNoise's private reader on ``sql`` over the table ``T.D`` of one float ``column`` (module docstring)."""
    if not isinstance(sql, str) or "T.D" not in sql:
        raise InvalidArgument(f"sql={sql!r} must be a SQL string over the table T.D, e.g. 'SELECT SUM(x) AS s FROM T.D'.")
    eps, dlt = _epsilon("epsilon", epsilon), v.real("delta", delta)
    if not 0 <= dlt < 1:
        raise InvalidArgument(f"delta={delta!r} must be in [0, 1), e.g. delta=1e-5.")
    lo, hi = v.real("lower", lower), v.real("upper", upper)
    if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
        raise InvalidArgument(f"lower={lower!r}, upper={upper!r} must be finite with lower < upper.")
    args = {"sql": sql, "column": column, "lower": lo, "upper": hi, "epsilon": eps, "delta": dlt}
    cost = _reader(args, [lo]).get_privacy_cost(sql)
    claim = PrivacyClaim(float(np.nextafter(float(cost[0]), math.inf)), float(min(np.nextafter(float(cost[1]), 1.0), 1.0))
                         if float(cost[1]) > 0 else 0.0, relation=NeighbourRelation.ADD_REMOVE_ONE)
    domain = InputDomain.records(low=-math.inf, high=math.inf, relation=claim.relation,
                                 note=f"rows of T.D({column} float, metadata bounds [{lo:g}, {hi:g}])")
    return SmartNoiseMechanism(name=f"query({sql!r})", recipe=("query", args), claim=claim, domain=domain,
                               limitations=(QUERY_SPEED_NOTE, _SEEDED_NOTE, _GROUP_NOTE))
