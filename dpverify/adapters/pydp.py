"""PyDP (Google's differential-privacy library, PyPI ``python-dp``) as dpverify mechanisms.

* ``mechanism(pydp.algorithms.numerical_mechanisms.LaplaceMechanism, epsilon=1.0, sensitivity=1.0)``
  (or ``GaussianMechanism(epsilon, delta, sensitivity)``): ``data`` is the number passed to
  ``add_noise``; claim (epsilon, delta) under replace-one, pairs further apart than ``sensitivity``
  are refused.
* ``algorithm(pydp.algorithms.laplacian.BoundedSum, epsilon=1.0, lower_bound=0, upper_bound=1,
  dtype="float")`` (``BoundedMean``, ``Count``, ``Max``, ``Min``, ``Median``, ``Percentile``, ...):
  ``data`` is the list of records given to ``quick_result``; claim (epsilon, delta) under add/remove
  one record, the unit of Google's library (one user, one contribution).
* ``partition_selection(create_fn, epsilon, delta, max_partitions_contributed)``: ``data`` is the
  number of users in a partition; the output is ``should_keep`` (a bool); claim (epsilon, delta)
  under add/remove one user.

pybind11 objects cannot be pickled, so the adapter keeps the class (or factory) and its keyword
arguments and rebuilds the object in each process. PyDP draws from its own secure generator, so
``honours_rng`` is False. That generator is buffered: a forked process repeats its parent's buffered
draws (measured: two forked children give identical noise for their first few hundred draws). Each
process therefore discards :data:`DRAIN_DRAWS` draws the first time it builds an adapter's object,
which empties the inherited buffer; ``tests/adapters`` checks that two forked workers then differ.
"""
from __future__ import annotations

from typing import Any, Callable

import numpy as np

from .. import validation as v
from ..auditing.domain import InputDomain
from ..claims import NeighbourRelation, PrivacyClaim
from ..errors import InvalidArgument
from .base import LibraryMechanism, ScalarDistanceCheck, as_outputs, one_number, relation_of, require

_pydp = require("pydp", "python-dp", "pydp")
_nm = require("pydp.algorithms.numerical_mechanisms", "python-dp", "pydp")

__all__ = ["mechanism", "algorithm", "partition_selection", "PyDPMechanism", "DRAIN_DRAWS", "drain", "GROUP_NOTE"]

#: PyDP states each object's epsilon for one privacy unit only.
GROUP_NOTE = "PyDP claims no group privacy: the claim is searched at distance 1 only"
#: The range of PyDP's integer records (its bindings take C ints: 2^62 is refused with TypeError).
INT_RANGE = (-(2.0 ** 31), 2.0 ** 31 - 1)

#: Draws discarded in each new process (the inherited buffer is gone after < 1000 in our measurement).
DRAIN_DRAWS = 5000
_drained_pid: list = [None]


def drain() -> None:
    """Empty the secure generator's buffer inherited from a parent process (once per process)."""
    import os

    if _drained_pid[0] != os.getpid():
        m = _nm.LaplaceMechanism(epsilon=1.0, sensitivity=1.0)
        for _ in range(DRAIN_DRAWS):
            m.add_noise(0.0)
        _drained_pid[0] = os.getpid()


_MODULES = ("pydp.algorithms.numerical_mechanisms", "pydp.algorithms.laplacian", "pydp.algorithms.partition_selection")


class _Ref:
    """A picklable reference to a PyDP class or function (pybind11 classes do not pickle by name)."""

    def __init__(self, obj: Any):
        import importlib

        name = getattr(obj, "__name__", None)
        for mod in (getattr(obj, "__module__", ""),) + _MODULES:
            try:
                if getattr(importlib.import_module(mod), name) is obj:
                    self.module, self.name = mod, name
                    return
            except (ImportError, AttributeError, TypeError):
                continue
        raise InvalidArgument(f"{obj!r} is not found in {', '.join(_MODULES)}; pass a PyDP class or factory from them.")

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        import importlib

        return getattr(importlib.import_module(self.module), self.name)(*args, **kwargs)




class PyDPMechanism(LibraryMechanism):
    library = "pydp"
    distribution = "python-dp"
    honours_rng = False

    def _build(self):
        drain()
        kind, factory, kwargs = self._recipe
        if kind == "partition":
            return factory(*kwargs)
        return factory(**kwargs)

    def _sample(self, obj, data, size, rng):
        kind = self._recipe[0]
        if kind == "mechanism":
            x = one_number(data)
            return as_outputs([obj.add_noise(x) for _ in range(size)])
        if kind == "partition":
            n = int(one_number(data))
            return as_outputs([bool(obj.should_keep(n)) for _ in range(size)])
        records = list(data.tolist() if isinstance(data, np.ndarray) else data)
        if str(self._recipe[2].get("dtype", "float")).startswith("int"):
            records = [int(r) for r in records]
        return as_outputs([obj.quick_result(records) for _ in range(size)])


def mechanism(cls: Any, *, relation: NeighbourRelation | None = None, **kwargs: Any) -> PyDPMechanism:
    """A numerical mechanism class (``LaplaceMechanism``/``GaussianMechanism``) and its arguments."""
    if not (isinstance(cls, type) and issubclass(cls, _nm.NumericalMechanism)):
        raise InvalidArgument(f"cls={cls!r} must be a pydp numerical mechanism class, e.g. "
                              "pydp.algorithms.numerical_mechanisms.LaplaceMechanism (pass the class and its "
                              "arguments: PyDP objects cannot be rebuilt from an instance).")
    obj = cls(**kwargs)  # fail here, not in a worker
    eps = v.positive("epsilon", float(obj.epsilon))
    delta = float(kwargs.get("delta", 0.0))
    claim = PrivacyClaim(eps, delta, relation_of(relation, NeighbourRelation.REPLACE_ONE))
    args = ", ".join(f"{k}={val!r}" for k, val in kwargs.items())
    sens = float(getattr(obj, "sensitivity", None) or obj.l2_sensitivity)
    domain = InputDomain(kind="answers", sizes=(1,), length=1, sensitivity=sens,  # a NaN answer has no neighbour
                         relation=NeighbourRelation.REPLACE_ONE, note=GROUP_NOTE)
    return PyDPMechanism(name=f"{cls.__name__}({args})", recipe=("mechanism", _Ref(cls), kwargs), claim=claim,
                         check=ScalarDistanceCheck(sens), domain=domain, limitations=(GROUP_NOTE,))


def algorithm(cls: Any, *, relation: NeighbourRelation | None = None, absent: Any = None,
              **kwargs: Any) -> PyDPMechanism:
    """A ``pydp.algorithms.laplacian`` class (BoundedSum, BoundedMean, Count, ...) and its arguments."""
    if not (isinstance(cls, type) and hasattr(cls, "quick_result")):
        raise InvalidArgument(f"cls={cls!r} must be a pydp.algorithms.laplacian class such as BoundedSum.")
    if "epsilon" not in kwargs:
        raise InvalidArgument(f"algorithm({cls.__name__}, ...) needs epsilon=...: it is the claim.")
    obj = cls(**kwargs)
    claim = PrivacyClaim(float(obj.epsilon), float(kwargs.get("delta", 0.0) or 0.0),
                         relation_of(relation, NeighbourRelation.ADD_REMOVE_ONE))
    args = ", ".join(f"{k}={val!r}" for k, val in kwargs.items())
    integer = str(kwargs.get("dtype", "float")).startswith("int")
    low, high = INT_RANGE if integer else (-float("inf"), float("inf"))
    values = tuple(float(kwargs[k]) for k in ("lower_bound", "upper_bound") if isinstance(kwargs.get(k), (int, float)))
    domain = InputDomain.records(low=low, high=high, integer=integer, nan=not integer, relation=claim.relation,
                                 values=values, note=GROUP_NOTE)  # quick_result takes NaN and +-inf floats
    return PyDPMechanism(name=f"{cls.__name__}({args})", recipe=("algorithm", _Ref(cls), kwargs), claim=claim,
                         absent=absent, domain=domain, limitations=(GROUP_NOTE,))


def partition_selection(factory: Callable, epsilon: float, delta: float, max_partitions_contributed: int = 1,
                        *, relation: NeighbourRelation | None = None) -> PyDPMechanism:
    """``factory(epsilon, delta, max_partitions_contributed)`` from ``pydp.algorithms.partition_selection``;
    ``data`` is a partition's user count, the output ``should_keep(count)``."""
    args = (v.positive("epsilon", epsilon), v.open_unit("delta", delta), v.integer("max_partitions_contributed",
                                                                                    max_partitions_contributed, minimum=1))
    factory(*args)
    claim = PrivacyClaim(args[0], args[1], relation_of(relation, NeighbourRelation.ADD_REMOVE_ONE))
    domain = InputDomain(kind="answers", low=0.0, high=INT_RANGE[1], integer=True, sizes=(1,), length=1,
                         sensitivity=1.0, relation=NeighbourRelation.REPLACE_ONE,
                         note=f"{GROUP_NOTE}. The data is a partition's user count (one user moves it by 1).")
    return PyDPMechanism(name=f"{getattr(factory, '__name__', 'partition_selection')}{args}",
                         recipe=("partition", _Ref(factory), args), claim=claim, check=ScalarDistanceCheck(1.0),
                         domain=domain, limitations=(GROUP_NOTE,))
