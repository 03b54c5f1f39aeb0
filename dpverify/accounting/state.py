"""Saving and restoring accountants: events and methods as plain JSON-ready data.

``event_to_dict(event)`` / ``event_from_dict(data)`` turn any event of
:mod:`dpverify.accounting.events` (nested ones included) into a dict of numbers, strings, lists
and dicts and back; ``method_to_dict`` / ``method_from_dict`` do the same for the composition
methods. Restoring goes through the classes' own constructors, so every value is validated
again: a state file edited by hand (a negative sigma, an unknown type, NaN) raises
:class:`~dpverify.errors.InvalidArgument` naming the field, never yields an event the
constructors would have refused. :meth:`dpverify.accounting.Accountant.state` and
:meth:`~dpverify.accounting.Accountant.from_state` use them.
"""
from __future__ import annotations

import dataclasses
import enum
import math

from ..claims import NeighbourRelation
from ..errors import InvalidArgument
from . import events as _ev
from .grid import Discretisation
from .registry import METHOD_CLASSES, Method

__all__ = ["event_to_dict", "event_from_dict", "method_to_dict", "method_from_dict", "STATE_VERSION"]

#: Version of the accountant state format (bumped when the format changes incompatibly).
STATE_VERSION = 1


def _event_classes() -> dict:
    out = {}
    for name in dir(_ev):
        obj = getattr(_ev, name)
        if isinstance(obj, type) and issubclass(obj, _ev.DpEvent) and obj is not _ev.DpEvent:
            out[obj.__name__] = obj
    return out


def event_to_dict(event: _ev.DpEvent) -> dict:
    """A JSON-ready dict describing ``event`` (its type and constructor arguments)."""
    if not isinstance(event, _ev.DpEvent):
        raise InvalidArgument(f"event={event!r} must be a DpEvent, not {type(event).__name__}.")
    out: dict = {"type": type(event).__name__}
    for f in dataclasses.fields(event):
        if not f.init:
            continue
        out[f.name] = _value_to_data(getattr(event, f.name))
    return out


def _value_to_data(value):
    if isinstance(value, _ev.DpEvent):
        return event_to_dict(value)
    if isinstance(value, NeighbourRelation):
        return {"relation": value.value}
    if isinstance(value, enum.Enum):
        return {"enum": type(value).__name__, "value": value.value}
    if isinstance(value, (tuple, list)):
        return [_value_to_data(x) for x in value]
    if isinstance(value, float) and not math.isfinite(value):
        raise InvalidArgument(f"value={value!r} is not finite; an accountant state holds finite numbers only.")
    return value


def event_from_dict(data) -> _ev.DpEvent:
    """The event described by ``data`` (as written by :func:`event_to_dict`), validated by its
    constructor."""
    if not isinstance(data, dict) or "type" not in data:
        raise InvalidArgument(f"data={data!r} must be a dict with a 'type' key (as written by event_to_dict).")
    classes = _event_classes()
    cls = classes.get(data["type"])
    if cls is None:
        raise InvalidArgument(f"type={data['type']!r} is not an event of dpverify.accounting.events; "
                              f"known: {sorted(classes)}.")
    names = {f.name for f in dataclasses.fields(cls) if f.init}
    unknown = set(data) - names - {"type"}
    if unknown:
        raise InvalidArgument(f"{data['type']} has no field(s) {sorted(unknown)}; its fields are {sorted(names)}.")
    kwargs = {k: _value_from_data(val) for k, val in data.items() if k != "type"}
    if cls is _ev.Composed:
        kwargs["events"] = tuple(kwargs.get("events", ()))
    return cls(**kwargs)


def _value_from_data(value):
    if isinstance(value, dict):
        if "type" in value:
            return event_from_dict(value)
        if set(value) == {"relation"}:
            try:
                return NeighbourRelation(value["relation"])
            except ValueError:
                raise InvalidArgument(f"relation={value['relation']!r} is not a NeighbourRelation value; "
                                      f"known: {[r.value for r in NeighbourRelation]}.") from None
        raise InvalidArgument(f"value={value!r} is not an event or a relation.")
    if isinstance(value, list):
        return tuple(_value_from_data(x) for x in value)
    return value


def method_to_dict(method) -> dict:
    """A JSON-ready dict naming a composition method and its options."""
    out: dict = {"method": method.name}
    for f in dataclasses.fields(method):
        if f.name == "name":
            continue
        out[f.name] = _value_to_data(getattr(method, f.name))
    return out


def method_from_dict(data):
    """The composition method described by ``data`` (as written by :func:`method_to_dict`)."""
    if not isinstance(data, dict) or "method" not in data:
        raise InvalidArgument(f"data={data!r} must be a dict with a 'method' key (as written by method_to_dict).")
    try:
        m = Method(data["method"])
    except ValueError:
        raise InvalidArgument(f"method={data['method']!r} is not a composition method; known: "
                              f"{[x.value for x in Method]}.") from None
    cls = METHOD_CLASSES[m]
    names = {f.name for f in dataclasses.fields(cls) if f.name != "name"}
    unknown = set(data) - names - {"method"}
    if unknown:
        raise InvalidArgument(f"method {m.value} has no option(s) {sorted(unknown)}; its options are {sorted(names)}.")
    kwargs = {}
    for k, val in data.items():
        if k == "method":
            continue
        if isinstance(val, dict) and "enum" in val:
            if val["enum"] != "Discretisation":
                raise InvalidArgument(f"{k}={val!r}: unknown enum {val['enum']!r}.")
            try:
                val = Discretisation(val["value"])
            except ValueError:
                raise InvalidArgument(f"{k}={val['value']!r} is not a Discretisation; known: "
                                      f"{[d.value for d in Discretisation]}.") from None
        elif isinstance(val, list):
            val = tuple(val)
        kwargs[k] = val
    return cls(**kwargs)
