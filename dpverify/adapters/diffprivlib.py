"""diffprivlib mechanisms and tools as dpverify mechanisms.

* ``mechanism(mech)`` -- a ``diffprivlib.mechanisms`` object (Laplace, Gaussian, Geometric, Binary,
  Exponential, ...): ``data`` is the value passed to ``randomise``. For mechanisms whose input is
  fixed at construction (``Exponential(utility=...)``), ``mechanism(mech, data_param="utility")``
  makes ``data`` that constructor argument instead. The claim is the mechanism's
  ``(epsilon, delta)`` under replace-one (diffprivlib states a sensitivity, i.e. how far one
  changed record moves the value); pairs further apart than ``sensitivity`` are refused.
* ``tool(func, **kwargs)`` -- a ``diffprivlib.tools`` function (``mean``, ``sum``, ``var``, ``std``,
  ``quantile``, ``median``, ``histogram``, ``count_nonzero``, ...) called as ``func(data, **kwargs)``.
  Claim ``(kwargs["epsilon"], 0)``; the relation is replace-one unless ``relation=`` says otherwise
  (diffprivlib does not state it; see docs/libraries.md for what the audit finds under add/remove).

diffprivlib (from 0.5) accepts a seed (``random_state``): every call to ``sample`` seeds it from the
``rng`` dpverify gives, so audits are reproducible (``honours_rng`` is True). Whether the object takes
``random_state`` is read from its signature, never from the version string; a release without it
(< 0.5) is called without it, draws from numpy's global generator (``honours_rng`` False), and
``limitations`` says so. Picklable: the adapter keeps the class or function and its arguments and
rebuilds the object in each worker. Each batch of tool calls gets a fresh ``BudgetAccountant`` so
the library's default accountant does not grow.

Input domains (:meth:`~dpverify.adapters.base.LibraryMechanism.input_domain`): a mechanism takes one
number within its sensitivity (answers of length 1; ``lower``/``upper`` as the range for the bounded-
domain mechanisms, whole numbers for the geometric ones, NaN where ``randomise`` accepts it); a tool
takes records of floats (+-inf admitted; NaN only for the ``nan*`` tools: the others return NaN), its ``bounds``/``range`` as
values worth trying. diffprivlib states no group privacy, so the claim is searched at distance 1 only.
Models, ``BudgetAccountant`` sequences: :mod:`dpverify.adapters.diffprivlib_models`.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np

from functools import partial

from .. import validation as v
from ..auditing.domain import InputDomain
from ..auditing.space import Norm
from ..claims import NeighbourRelation, PrivacyClaim
from ..errors import InvalidArgument
from .base import LibraryMechanism, ScalarDistanceCheck, as_outputs, relation_of, require, signature_accepts

_dpl = require("diffprivlib", "diffprivlib", "diffprivlib")

__all__ = ["mechanism", "tool", "DiffprivlibMechanism", "DiffprivlibTool", "DiffprivlibCall", "seeded", "NO_SEED", "GROUP_NOTE"]

#: What an adapter of a diffprivlib object without ``random_state`` says (in ``limitations``).
NO_SEED = ("{name} takes no random_state (diffprivlib < 0.5): its draws come from numpy's global generator, not "
           "from the audit's rng, so the result cannot be reproduced from the seed")
#: diffprivlib states each object's epsilon for one changed record only.
GROUP_NOTE = "diffprivlib claims no group privacy: the claim is searched at distance 1 only"


def _seed(rng: np.random.Generator) -> np.random.RandomState:
    return np.random.RandomState(int(rng.integers(0, 2**32 - 1)))


def seeded(accepts: bool, rng: Any) -> dict:
    """``{"random_state": RandomState(seed from rng)}`` for an object that takes it, else ``{}``."""
    if not accepts:
        return {}
    return {"random_state": _seed(rng if rng is not None else np.random.default_rng())}


def _as_int(x: Any) -> int:
    return int(np.asarray(x, dtype=float).ravel()[0]) if np.ndim(x) else int(x)


def _as_float(x: Any) -> float:
    return float(np.asarray(x, dtype=float).ravel()[0]) if np.ndim(x) else float(x)


def _as_label(labels: tuple, x: Any) -> Any:
    """Binary's data: 0 -> value0, 1 -> value1 (a label passes through)."""
    if isinstance(x, str):
        return x
    return labels[int(np.asarray(x, dtype=float).ravel()[0]) if np.ndim(x) else int(x)]


def _as_vector(x: Any) -> list:
    return [float(t) for t in np.asarray(x, dtype=float).ravel()]




class DiffprivlibCall(LibraryMechanism):
    """The base of every diffprivlib adapter: nothing is built once; each draw calls the library afresh, seeded from
    ``rng`` where the release takes ``random_state`` (``honours_rng``)."""

    library = "diffprivlib"
    distribution = "diffprivlib"
    honours_rng = True

    def _build(self):
        return None  # rebuilt per call with a seed from rng (cheap: a constructor call)


class DiffprivlibMechanism(DiffprivlibCall):

    def _sample(self, obj, data, size, rng):
        cls, kwargs, data_param, convert = self._recipe
        state = seeded(self.honours_rng, rng)
        if convert is not None:
            data = convert(data)
        if data_param is not None:
            mech = cls(**{**kwargs, data_param: data}, **state)
            return as_outputs([mech.randomise() for _ in range(size)])
        mech = cls(**kwargs, **state)
        return as_outputs([mech.randomise(data) for _ in range(size)])


def _init_kwargs(mech: Any) -> dict:
    params = inspect.signature(type(mech).__init__).parameters
    out = {}
    for name, p in params.items():
        if name in ("self", "random_state") or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            continue
        for attr in (name, "_" + name):
            if hasattr(mech, attr):
                out[name] = getattr(mech, attr)
                break
        else:
            if p.default is p.empty:
                raise InvalidArgument(f"mech={mech!r}: cannot read its constructor argument {name!r} back; "
                                      "build the adapter with mechanism(mech, kwargs={...}).")
    return out


def mechanism(mech: Any, *, data_param: str | None = None, kwargs: dict | None = None,
              relation: NeighbourRelation | None = None) -> DiffprivlibMechanism:
    """A ``diffprivlib.mechanisms`` object as a dpverify mechanism claiming its (epsilon, delta)."""
    if not isinstance(mech, _dpl.mechanisms.DPMechanism):
        raise InvalidArgument(f"mech={mech!r} must be a diffprivlib.mechanisms object, e.g. "
                              "diffprivlib.mechanisms.Laplace(epsilon=1.0, sensitivity=1.0).")
    kw = dict(kwargs) if kwargs is not None else _init_kwargs(mech)
    if data_param is not None:
        kw.pop(data_param, None)
    claim = PrivacyClaim(float(mech.epsilon), float(getattr(mech, "delta", 0.0)),
                         relation_of(relation, NeighbourRelation.REPLACE_ONE))
    sens = getattr(mech, "sensitivity", None)
    check = ScalarDistanceCheck(float(sens)) if (sens is not None and data_param is None) else None
    accepts = signature_accepts(type(mech), "random_state")
    limitations = [GROUP_NOTE] + ([] if accepts else [NO_SEED.format(name=type(mech).__name__)])
    domain, convert = _mechanism_domain(mech, kw, data_param, limitations)
    out = DiffprivlibMechanism(name=type(mech).__name__, recipe=(type(mech), kw, data_param, convert), claim=claim,
                               check=check, domain=domain, limitations=tuple(limitations))
    out.honours_rng = accepts
    return out


_INTEGER_MECHANISMS = ("Geometric", "GeometricTruncated", "GeometricFolded")


def _mechanism_domain(mech: Any, kw: dict, data_param: str | None, limitations: list) -> tuple:
    """(InputDomain, convert) of a diffprivlib mechanism: one number within its sensitivity (the range
    [lower, upper] of the bounded-domain mechanisms; whole numbers for the geometric ones), the utility
    vector for an exponential mechanism given ``data_param``; (None, None) with a limitation otherwise."""
    name = type(mech).__name__
    sens = getattr(mech, "sensitivity", None)
    note = " ".join(limitations)
    if data_param is not None:
        length = len(kw.get(data_param) or getattr(mech, "_" + data_param, None) or getattr(mech, data_param, ()) or ())
        if not length or sens is None:
            limitations.append(f"no input domain stated for {name} with data_param={data_param!r}")
            return None, None
        return InputDomain.answers(length, sensitivity=float(sens), norm=Norm.LINF, note=note), _as_vector
    if name == "Binary":
        labels = (str(getattr(mech, "value0", "0")), str(getattr(mech, "value1", "1")))
        dom = InputDomain(kind="answers", low=0.0, high=1.0, integer=True, sizes=(1,), length=1, sensitivity=1.0,
                          relation=NeighbourRelation.REPLACE_ONE, note=(note + f" 0 and 1 stand for {labels}").strip())
        return dom, partial(_as_label, labels)
    if sens is None or not float(sens) > 0:
        limitations.append(f"no input domain stated: {name} states no sensitivity")
        return None, None
    integer = name in _INTEGER_MECHANISMS
    lower, upper = getattr(mech, "lower", None), getattr(mech, "upper", None)
    low = float(lower) if lower is not None else -np.inf
    high = float(upper) if upper is not None else np.inf
    # a NaN answer is within no sensitivity of another: not searched (randomise returns NaN on it)
    dom = InputDomain(kind="answers", low=low, high=high, integer=integer, nan=False, sizes=(1,), length=1,
                      sensitivity=float(sens), relation=NeighbourRelation.REPLACE_ONE, note=note)
    return dom, (_as_int if integer else _as_float)


class DiffprivlibTool(DiffprivlibCall):
    def _sample(self, obj, data, size, rng):
        func, kwargs = self._recipe
        state = seeded(self.honours_rng, rng)
        acc = _dpl.BudgetAccountant()
        data = np.asarray(data, dtype=float) if not isinstance(data, np.ndarray) else data
        return as_outputs([_plain(func(data, **kwargs, **state, accountant=acc)) for _ in range(size)])


def _plain(x: Any) -> Any:
    """numpy scalars as Python numbers; histograms ((counts, edges)) as their counts tuple."""
    if isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], np.ndarray):
        return tuple(x[0].tolist())  # the edges are public (fixed by bins/range)
    if isinstance(x, np.generic):
        return x.item()
    if isinstance(x, np.ndarray):
        return tuple(x.ravel().tolist())
    return x


def tool(func: Callable, *, relation: NeighbourRelation | None = None, absent: Any = None,
         **kwargs: Any) -> DiffprivlibTool:
    """``func(data, **kwargs)`` for a ``diffprivlib.tools`` function, claiming (kwargs['epsilon'], 0).

    ``absent`` marks padding records dropped before the call (add/remove pairs of one size).
    """
    if not callable(func):
        raise InvalidArgument(f"func={func!r} must be a diffprivlib.tools function, e.g. diffprivlib.tools.mean.")
    if "epsilon" not in kwargs:
        raise InvalidArgument(f"tool({getattr(func, '__name__', func)}, ...) needs epsilon=...: the claim is "
                              "the epsilon the tool is called with (diffprivlib's default 1.0 is not assumed).")
    for k in ("random_state", "accountant"):
        if k in kwargs:
            raise InvalidArgument(f"{k}= is set by the adapter (seeded from rng; a fresh accountant per batch); drop it.")
    eps = v.positive("epsilon", kwargs["epsilon"], fix="diffprivlib tools need epsilon > 0.")
    rel = relation_of(relation, NeighbourRelation.REPLACE_ONE)
    claim = PrivacyClaim(eps, 0.0, rel)
    args = ", ".join(f"{k}={val!r}" for k, val in kwargs.items())
    fname = getattr(func, "__name__", "tool")
    accepts = signature_accepts(func, "random_state")
    limitations = [GROUP_NOTE] + ([] if accepts else [NO_SEED.format(name=f"tools.{fname}")])
    sizes = (0, 1, 2, 10)
    nan = fname.startswith("nan")
    if not nan:
        limitations.append(f"NaN records are left out: tools.{fname} returns NaN on them (diffprivlib's nan* tools "
                           "take NaN), and a NaN release is refused by dpverify's tester")
    empty = _empty_raises(func, kwargs, accepts)
    if empty:
        sizes = (1, 2, 10)
        limitations.append(f"the empty dataset is left out of the domain: tools.{fname} raises {empty} on it, which a "
                           "caller must not expose")
    out = DiffprivlibTool(name=f"tools.{fname}({args})", recipe=(func, kwargs), claim=claim, absent=absent,
                          domain=InputDomain.records(nan=nan, sizes=sizes, relation=rel, values=tool_values(kwargs),
                                                     note=" ".join(limitations)),
                          limitations=tuple(limitations))
    out.honours_rng = accepts
    return out


def _empty_raises(func: Callable, kwargs: dict, accepts: bool) -> str:
    """The exception type a diffprivlib tool raises on the empty dataset ("" when it runs, or for a function from
    another module, which is not called here): one call, warnings silenced."""
    import warnings

    if not str(getattr(func, "__module__", "")).startswith("diffprivlib"):
        return ""

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            func(np.asarray([], dtype=float), **kwargs, **seeded(accepts, None), accountant=_dpl.BudgetAccountant())
        except Exception as exc:
            return type(exc).__name__
    return ""


def tool_values(kwargs: dict) -> tuple:
    """Record values worth trying for a tool or model: the ends of ``bounds``/``range``/``bounds_X``/``bounds_y``
    (scalars or per-feature arrays) and +-``data_norm``."""
    out: list = []
    for key in ("bounds", "range", "bounds_X", "bounds_y"):
        b = kwargs.get(key)
        if b is None:
            continue
        try:
            out.extend(float(x) for x in np.asarray(b, dtype=float).ravel() if np.isfinite(x))
        except (TypeError, ValueError):
            continue
    norm = kwargs.get("data_norm")
    if isinstance(norm, (int, float)) and not isinstance(norm, bool):
        out.extend((float(norm), -float(norm)))
    return tuple(sorted(set(out)))
