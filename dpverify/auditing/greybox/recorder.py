"""The instrumented generator of a grey-box audit: record every draw on D, replay the same draws on D'.

A :class:`Recorder` stands in for the ``numpy.random.Generator`` handed to ``sample(data, size, rng)``. In record
mode it forwards each call of a modelled method (``MODELLED``) to the real generator and keeps a :class:`Call`
(method, bound parameters, output). In replay mode it returns the recorded draws in the same order instead of
drawing: for the location-scale families (``LOC_SCALE``) the *noise* is frozen (the output is
``loc' + (x - loc) * scale' / scale`` for this call's loc' and scale'), for every other method the recorded output
itself. A call whose method or output shape differs from the recorded one (or one call too many) is a
divergence of the control flow: it stops the replay with :class:`Diverged`, naming the first differing call.
Methods it does not model are passed through and listed (``unmodelled``): what they draw is not frozen.
"""
from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Any

import numpy as np

__all__ = ["Call", "Recorder", "Diverged", "MODELLED", "LOC_SCALE"]

#: Location-scale families: their noise (x - loc) / scale is what replay freezes.
LOC_SCALE = ("laplace", "normal", "gumbel", "logistic")
#: Every generator method the recorder models.
MODELLED = LOC_SCALE + ("standard_normal", "standard_exponential", "exponential", "random", "uniform", "integers",
                        "choice", "geometric", "binomial", "poisson")
_STANDARD = {"standard_normal": "normal"}


@dataclass(frozen=True)
class Call:
    """One recorded draw: its index, method, parameters (name -> value, defaults filled in) and output."""

    index: int
    method: str
    params: tuple
    output: Any

    @property
    def family(self) -> str:
        """The location-scale family of the draw ('' if none): standard_normal counts as normal(0, 1)."""
        return self.method if self.method in LOC_SCALE else _STANDARD.get(self.method, "")

    def param(self, name: str, default: Any = None) -> Any:
        return dict(self.params).get(name, default)

    def loc_scale(self) -> tuple:
        if self.method in _STANDARD:
            return 0.0, 1.0
        return self.param("loc", 0.0), self.param("scale", 1.0)

    def describe(self) -> str:
        shown = ", ".join(f"{k}={_short(v)}" for k, v in self.params if k not in ("dtype", "out"))
        return f"call {self.index}: {self.method}({shown})"


def _short(v: Any) -> str:
    text = repr(v.tolist() if isinstance(v, np.ndarray) else v)
    return text if len(text) <= 40 else text[:37] + "..."


class Diverged(BaseException):
    """The replay on D' left the recorded control flow (a BaseException: a mechanism's ``except Exception``
    must not swallow it)."""

    def __init__(self, index: int, recorded: Call | None, called: str):
        self.index, self.recorded, self.called = index, recorded, called
        was = recorded.describe() if recorded is not None else "no call (the run on D made no more draws)"
        super().__init__(f"control flow diverged at call {index}: on D {was}; on D' {called}")


class Recorder(np.random.Generator):
    """The stand-in generator (module docstring): ``Recorder(rng)`` records; ``Recorder(rng, replay=calls)``
    replays ``calls``. A subclass of ``numpy.random.Generator`` on ``rng``'s bit generator, so a mechanism that
    checks its ``rng`` argument accepts it."""

    def __init__(self, rng: np.random.Generator, replay: list | None = None):
        super().__init__(rng.bit_generator)
        self._replay = replay
        self.calls: list = []
        self.unmodelled: list = []

    def _call(self, name: str, args: tuple, kwargs: dict) -> Any:
        method = getattr(super(), name)
        bound = _SIGNATURES[name].bind(*args, **kwargs)
        bound.apply_defaults()
        params = tuple(bound.arguments.items())
        if self._replay is None:
            out = method(*args, **kwargs)
            self.calls.append(Call(len(self.calls), name, params, np.array(out, copy=True)))
            return out
        return self._replayed(name, params)

    def _replayed(self, name: str, params: tuple):
        i = len(self.calls)
        rec = self._replay[i] if i < len(self._replay) else None
        here = Call(i, name, params, None)
        size = dict(params).get("size")
        if rec is None or rec.method != name or dict(rec.params).get("size") != size:
            raise Diverged(i, rec, here.describe())
        out = np.array(rec.output, copy=True)
        if rec.family:
            loc, scale = rec.loc_scale()
            new_loc, new_scale = here.loc_scale()
            out = np.asarray(new_loc) + (out - np.asarray(loc)) * (np.asarray(new_scale) / np.asarray(scale))
        self.calls.append(Call(i, name, params, np.array(out, copy=True)))
        return out if np.ndim(out) else out[()]

    def _unmodelled(self, name: str, args: tuple, kwargs: dict) -> Any:
        if name not in self.unmodelled:
            self.unmodelled.append(name)
        return getattr(super(), name)(*args, **kwargs)


_SIGNATURES = {name: inspect.signature(getattr(np.random.default_rng(0), name)) for name in MODELLED}  # bound: no self


def _modelled(name: str):
    def method(self, *args, **kwargs):
        return self._call(name, args, kwargs)
    method.__name__ = name
    return method


def _passed_through(name: str):
    def method(self, *args, **kwargs):
        return self._unmodelled(name, args, kwargs)
    method.__name__ = name
    return method


for _name in MODELLED:
    setattr(Recorder, _name, _modelled(_name))
for _name in dir(np.random.Generator):
    if not _name.startswith("_") and _name not in MODELLED and _name != "bit_generator" and \
            callable(getattr(np.random.Generator, _name)):
        setattr(Recorder, _name, _passed_through(_name))
