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

diffprivlib accepts a seed (``random_state``): every call to ``sample`` seeds it from the ``rng``
dpverify gives, so audits are reproducible (``honours_rng`` is True). Picklable: the adapter keeps
the class or function and its arguments and rebuilds the object in each worker. Each batch of
tool calls gets a fresh ``BudgetAccountant`` so the library's default accountant does not grow.
"""
from __future__ import annotations

import inspect
from typing import Any, Callable

import numpy as np

from .. import validation as v
from ..claims import NeighbourRelation, PrivacyClaim
from ..errors import InvalidArgument
from .base import LibraryMechanism, ScalarDistanceCheck, as_outputs, relation_of, require

_dpl = require("diffprivlib", "diffprivlib", "diffprivlib")

__all__ = ["mechanism", "tool", "DiffprivlibMechanism", "DiffprivlibTool"]


def _seed(rng: np.random.Generator) -> np.random.RandomState:
    return np.random.RandomState(int(rng.integers(0, 2**32 - 1)))




class DiffprivlibMechanism(LibraryMechanism):
    library = "diffprivlib"
    distribution = "diffprivlib"
    honours_rng = True

    def _build(self):
        return None  # rebuilt per call with a seed from rng (cheap: a constructor call)

    def _sample(self, obj, data, size, rng):
        cls, kwargs, data_param = self._recipe
        state = _seed(rng)
        if data_param is not None:
            mech = cls(**{**kwargs, data_param: data}, random_state=state)
            return as_outputs([mech.randomise() for _ in range(size)])
        mech = cls(**kwargs, random_state=state)
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
    return DiffprivlibMechanism(name=type(mech).__name__, recipe=(type(mech), kw, data_param), claim=claim,
                                check=check)


class DiffprivlibTool(LibraryMechanism):
    library = "diffprivlib"
    distribution = "diffprivlib"
    honours_rng = True

    def _build(self):
        return None

    def _sample(self, obj, data, size, rng):
        func, kwargs = self._recipe
        state = _seed(rng)
        acc = _dpl.BudgetAccountant()
        data = np.asarray(data)
        return as_outputs([_plain(func(data, **kwargs, random_state=state, accountant=acc)) for _ in range(size)])


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
    claim = PrivacyClaim(eps, 0.0, relation_of(relation, NeighbourRelation.REPLACE_ONE))
    args = ", ".join(f"{k}={val!r}" for k, val in kwargs.items())
    return DiffprivlibTool(name=f"tools.{getattr(func, '__name__', 'tool')}({args})", recipe=(func, kwargs),
                           claim=claim, absent=absent)
