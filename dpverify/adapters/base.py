"""Shared pieces of the library adapters: lazy import, rebuild-on-unpickle, output shaping, and the input
domain every adapter states (:meth:`LibraryMechanism.input_domain`) with what it cannot audit
(:attr:`LibraryMechanism.limitations`)."""
from __future__ import annotations

import importlib
import os
from importlib import metadata
from typing import Any, Callable

import numpy as np

from .. import validation as v
from ..auditing.domain import InputDomain
from ..claims import NeighbourRelation, PrivacyClaim
from ..errors import InvalidArgument

__all__ = ["require", "library_version", "LibraryMechanism", "absent_records", "as_outputs", "relation_of",
           "bound_pairs", "GROUP_DISTANCES", "one_number", "float_records", "int_records", "str_records",
           "NotPicklable", "signature_accepts"]

#: The group distances at which an adapter states the claim when the library's privacy map is a curve over d_in.
GROUP_DISTANCES = (1, 2, 3, 6)


class NotPicklable(TypeError):
    """Raised by pickling an adapter that holds a live library object it cannot rebuild in another process
    (then the audit runs serially, and its notes name this class)."""


def signature_accepts(func: Any, name: str) -> bool:
    """Whether ``func`` (a function or a class's ``__init__``) takes a keyword ``name`` (by signature, never by
    version string: a release that lacks it rejects it)."""
    import inspect

    target = func.__init__ if isinstance(func, type) else func
    try:
        params = inspect.signature(target).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is p.VAR_KEYWORD for p in params.values())


def one_number(data: Any) -> float:
    """A scalar query answer: a number, or the one element of a length-1 answer vector."""
    arr = np.asarray(data, dtype=float)
    if arr.size != 1:
        raise InvalidArgument(f"data={data!r}: this mechanism takes one number (a length-1 answer vector).")
    return float(arr.ravel()[0])


def float_records(records: Any) -> list:
    """A list of records as floats (the data of an OpenDP ``vector_domain(atom_domain(T=float))``)."""
    return [float(r) for r in np.asarray(records, dtype=float).ravel()]


def int_records(records: Any) -> list:
    """A list of records as Python ints (records outside int64 raise, as a library with int records would)."""
    return [int(r) for r in np.asarray(records, dtype=float).ravel()]


def str_records(records: Any) -> list:
    """Numbers as string records (``"3"``): the data of a string-typed record domain."""
    return [str(int(r)) if float(r).is_integer() else repr(float(r)) for r in np.asarray(records, dtype=float).ravel()]


def require(module: str, distribution: str, extra: str) -> Any:
    """Import ``module`` or raise ImportError with one line saying how to install it."""
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ImportError(
            f"dpverify.adapters.{extra} needs {distribution} ({exc.__class__.__name__}: {exc}); install it with "
            f"`pip install \"dpverify[{extra}]\"` (or `pip install {distribution}`)."
        ) from None


def library_version(distribution: str) -> str:
    """The installed version of ``distribution``, or ``"not installed"``."""
    try:
        return metadata.version(distribution)
    except metadata.PackageNotFoundError:
        return "not installed"


def relation_of(relation: Any, default: NeighbourRelation) -> NeighbourRelation:
    if relation is None:
        return default
    if not isinstance(relation, NeighbourRelation):
        raise InvalidArgument(f"relation={relation!r} must be a dpverify.NeighbourRelation, e.g. "
                              "NeighbourRelation.ADD_REMOVE_ONE.")
    return relation


def absent_records(data: Any, absent: Any) -> Any:
    """``data`` without the records equal to ``absent`` (NaN matches NaN); ``absent=None`` keeps all.

    This is how an add/remove pair is written with both datasets of one size: the record that is
    missing from one dataset is ``absent`` there, and the adapter drops it before calling the library.
    """
    if absent is None:
        return data
    arr = np.asarray(data)
    if arr.dtype.kind == "f" and isinstance(absent, float) and np.isnan(absent):
        keep = ~np.isnan(arr) if arr.ndim == 1 else ~np.all(np.isnan(arr.reshape(len(arr), -1)), axis=1)
    else:
        keep = arr != absent if arr.ndim == 1 else ~np.all(arr.reshape(len(arr), -1) == absent, axis=1)
    kept = arr[keep]
    return kept.tolist() if isinstance(data, list) else kept


def bound_pairs(data: Any, lower: float, upper: float, relation: NeighbourRelation) -> list:
    """Neighbours of ``data`` (a list or 1-D array of records) whose changed record sits at a clamping bound.

    Add/remove: D with ``upper`` added, with ``lower`` added, and D without its first record.
    Replace-one: D with its first record replaced by ``upper``, and by ``lower``. These are where a
    clamped aggregation's sensitivity is reached. Pairs with D = D' are left out; the result is a
    list of ``(D, D')`` tuples ready for ``dpverify.audit``.
    """
    lo = v.real("lower", lower)
    hi = v.real("upper", upper)
    if not lo <= hi:
        raise InvalidArgument(f"lower={lower!r} must be <= upper={upper!r}.")
    if not isinstance(relation, NeighbourRelation):
        raise InvalidArgument(f"relation={relation!r} must be a dpverify.NeighbourRelation.")
    as_array = isinstance(data, np.ndarray)
    recs = list(np.asarray(data).tolist()) if as_array else list(data)
    wrap = (lambda r: np.asarray(r)) if as_array else list
    out = []
    if relation is NeighbourRelation.ADD_REMOVE_ONE:
        cands = [recs + [hi], recs + [lo]] + ([recs[1:]] if recs else [])
    else:
        if not recs:
            raise InvalidArgument("data=[] has no record to replace; give at least one record.")
        cands = [[hi] + recs[1:], [lo] + recs[1:]]
    for c in cands:
        if sorted(map(repr, c)) != sorted(map(repr, recs)):
            out.append((wrap(recs), wrap(c)))
    return out


def as_outputs(values: list) -> Any:
    """Library outputs as dpverify expects them: a float/int/bool array when every output is a plain
    number of one kind, otherwise a list of the outputs as they came (tuples, strings, dicts ...)."""
    if not values:
        return np.asarray(values, dtype=float)
    kinds = {type(x) for x in values}
    if kinds <= {float, np.float64, np.float32}:
        return np.asarray(values, dtype=float)
    if kinds <= {int, np.int64, np.int32}:
        return np.asarray(values, dtype=np.int64)
    if kinds <= {bool, np.bool_}:
        return np.asarray(values, dtype=bool)
    if kinds <= {np.ndarray} and len({v.shape for v in values}) == 1 and values[0].dtype.kind in "biuf":
        return np.stack(values)
    return list(values)


def _scalar(x: Any) -> float:
    arr = np.asarray(x, dtype=float)
    if arr.size != 1:
        raise ValueError(f"{arr.size} numbers")
    return float(arr.ravel()[0])


class ScalarDistanceCheck:
    """``|D - D'| <= bound`` for datasets that are single numbers (a library's stated sensitivity or
    d_in, named ``what`` in the message); InvalidArgument otherwise. Picklable."""

    def __init__(self, bound: float, what: str = "sensitivity"):
        self.bound, self.what = float(bound), what

    def __call__(self, a: Any, b: Any) -> None:
        try:  # a number, or a length-1 answer vector (the domain's encoding of one answer)
            gap = abs(_scalar(a) - _scalar(b))
        except (TypeError, ValueError) as exc:
            raise InvalidArgument(
                f"data={a!r}, data_prime={b!r}: the neighbourhood |data - data_prime| <= {self.what}="
                f"{self.bound!r} needs two numbers; pass the scalar query answers.") from exc
        if not gap <= self.bound * (1 + 1e-12):
            raise InvalidArgument(f"|data - data_prime| = {gap!r} exceeds {self.what}={self.bound!r}; the pair "
                                  "is not neighbouring for the mechanism's claim.")


class _NeighbourCheck:
    """``check_neighbours(D, D')``: InvalidArgument unless the pair is neighbouring under the library's
    stated unit (padding records marked ``absent`` are dropped first)."""

    def __init__(self, check: Callable[[Any, Any], None], absent: Any):
        self.check, self.absent = check, absent

    def __call__(self, data: Any, data_prime: Any) -> None:
        self.check(absent_records(data, self.absent), absent_records(data_prime, self.absent))


class LibraryMechanism:
    """A dpverify mechanism around a library object, rebuilt from a picklable recipe in each process.

    Subclasses set :attr:`library` / :attr:`distribution` and implement ``_build()`` (make the library
    object from ``self._recipe``) and ``_sample(obj, data, size, rng)``. ``honours_rng`` is False when
    the library draws its own randomness (then equal seeds do not give equal outputs, and the audit
    result cannot be reproduced from its seed); ``reproducible`` says the same for results.
    """

    library = "?"
    distribution = "?"
    honours_rng = False

    def __init__(self, *, name: str, recipe: Any, claim: PrivacyClaim, absent: Any = None,
                 check: Callable[[Any, Any], None] | None = None, domain: InputDomain | None = None,
                 limitations: tuple = ()):
        self.name = name
        self._domain = domain
        #: What this adapter cannot audit (plain sentences; also in the domain's note).
        self.limitations = tuple(limitations)
        self._recipe = recipe
        self.claim = claim
        self.absent = absent
        if check is not None:  # only a mechanism that states its neighbourhood offers the check
            self.check_neighbours = _NeighbourCheck(check, absent)
        self.version = library_version(self.distribution)
        self._obj = None
        self._pid = None

    @property
    def reproducible(self) -> bool:
        return self.honours_rng

    # -- pickling: keep the recipe, never the library object ---------------------------------
    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_obj"], state["_pid"] = None, None
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)

    def input_domain(self) -> InputDomain:
        """The library's own input domain, metric and claim curve for the unaided search (see
        :class:`dpverify.InputDomain`)."""
        if self._domain is None:
            raise InvalidArgument(f"{self!r} states no input domain: its library object's domain is not one dpverify "
                                  "reads. Give pairs, or pass domain=dpverify.InputDomain.records(...) to dpverify.audit.")
        return self._domain

    def library_object(self) -> Any:
        """The library object, built once per process (a forked copy rebuilds its own)."""
        if self._obj is None or self._pid != os.getpid():
            self._obj = self._build()
            self._pid = os.getpid()
        return self._obj

    def _build(self) -> Any:  # pragma: no cover - abstract
        raise NotImplementedError

    def _sample(self, obj: Any, data: Any, size: int, rng: np.random.Generator) -> Any:  # pragma: no cover
        raise NotImplementedError

    # -- the dpverify Mechanism protocol -------------------------------------------------------
    def sample(self, data: Any, size: int, rng: np.random.Generator) -> Any:
        data = absent_records(data, self.absent)
        return self._sample(self.library_object(), data, int(size), rng)

    def __repr__(self) -> str:
        return f"{self.library}.{self.name}"
