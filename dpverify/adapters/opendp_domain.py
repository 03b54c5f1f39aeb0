"""The input domain of an OpenDP measurement, read from OpenDP's own description (no OpenDP import here).

:func:`read_domain` takes the JSON tree ``opendp.serialize(meas.input_domain)`` gives, the input metric's
text and ``d_in``, and returns a :class:`DomainReading`: the :class:`dpverify.InputDomain` the unaided
search uses (the library's record type and range, NaN where the atom domain admits it, the relation of
the metric, the claim curve over d_in) and ``convert``, the picklable function that turns the data an
audit hands over (a list of records, an answer vector, or already the library's carrier) into what the
measurement takes (a float, a list of ints, a polars LazyFrame ...). A domain it cannot read gives
``domain=None`` and ``why``; the adapter then states no domain (the audit needs pairs or ``domain=``).

Kept apart from :mod:`dpverify.adapters.opendp` so that it is tested without OpenDP (tests feed it the
JSON OpenDP writes).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import partial
from typing import Any, Callable

import numpy as np

from ..auditing.domain import InputDomain
from ..auditing.space import Norm
from ..claims import NeighbourRelation, PrivacyClaim
from .base import GROUP_DISTANCES

__all__ = ["DomainReading", "read_domain", "domain_tree", "clamp_values", "type_range", "scalar_of", "vector_of", "counts_of", "lazyframe_of",
           "METRICS_CHECKED"]

AR, RO = NeighbourRelation.ADD_REMOVE_ONE, NeighbourRelation.REPLACE_ONE
#: Input metrics whose distance dpverify computes for a pair (the adapter's ``check_neighbours``).
METRICS_CHECKED = ("AbsoluteDistance", "L1Distance", "L2Distance", "SymmetricDistance", "InsertDeleteDistance",
                   "ChangeOneDistance", "HammingDistance")
_RECORD_METRICS = {"SymmetricDistance": AR, "InsertDeleteDistance": AR, "ChangeOneDistance": RO,
                   "HammingDistance": RO}
#: Keys tried for keyed records, by key type: the base datasets use the first ones, a new partition the last.
_KEYS = {"String": ("a", "b", "c", "new"), "int": (0, 1, 2, 99), "bool": (False, True)}


@dataclass(frozen=True)
class DomainReading:
    domain: InputDomain | None
    convert: Callable[[Any], Any] | None
    why: str = ""


def type_range(T: str) -> tuple[float, float, bool]:
    """(low, high, integer) of an OpenDP atom type: floats are unbounded; iN/uN their machine range (64-bit ends
    moved to the largest doubles that still fit the type)."""
    if T in ("f64", "f32"):
        big = math.inf
        return -big, big, False
    if T == "bool":
        return 0.0, 1.0, True
    if T == "String":
        return -math.inf, math.inf, True
    for prefix, signed in (("i", True), ("u", False)):
        if T.startswith(prefix) and (T[1:].isdigit() or T[1:] == "size"):
            bits = 64 if T[1:] == "size" else int(T[1:])
            if bits == 64:
                return (-(2.0 ** 63) if signed else 0.0), (2.0 ** 63 - 1024 if signed else 2.0 ** 64 - 2048), True
            return (-(2.0 ** (bits - 1)) if signed else 0.0), (2.0 ** (bits - 1) - 1 if signed else 2.0 ** bits - 1), True
    raise KeyError(T)


def _cast(T: str, x: Any) -> Any:
    if T in ("f64", "f32"):
        return float(x)
    if T == "bool":
        return bool(x)
    if T == "String":
        x = float(x)
        return str(int(x)) if x.is_integer() else repr(x)
    return int(x)


def scalar_of(T: str, data: Any) -> Any:
    """The scalar an atom-domain measurement takes: a number, or a length-1 answer vector, as type ``T``."""
    arr = np.asarray(data)
    if arr.ndim > 0:
        if arr.size != 1:
            raise ValueError(f"an atom-domain measurement takes one number, not {arr.size}")
        arr = arr.ravel()[0]
    return _cast(T, arr.item() if hasattr(arr, "item") else arr)


def vector_of(T: str, data: Any) -> list:
    """A list of ``T`` (the data of a vector domain): records as they come (a list of strings stays one)."""
    if isinstance(data, (list, tuple)) and all(isinstance(x, str) for x in data):
        return list(data)
    return [_cast(T, x) for x in np.asarray(data, dtype=float if T != "String" else object).ravel()]


def counts_of(key_type: str, per_record: Any, data: Any) -> Any:
    """A map key -> sum of ``per_record`` over the records of that key (records are ``(key, value)``): the data of a
    ``map_domain`` under ``L01InfDistance`` seen as records (one record moves one key by ``per_record``). A dict
    is passed through."""
    if isinstance(data, dict):
        return data
    out: dict = {}
    for rec in data:
        key = rec[0] if isinstance(rec, (tuple, list)) else rec
        out[key] = out.get(key, 0) + per_record
    return out


def lazyframe_of(columns: tuple, key: str | None, data: Any) -> Any:
    """A polars LazyFrame from records (numbers, or ``(key, value)`` records when ``key`` names the key column):
    every value column gets the record's value, cast to its type. A LazyFrame or DataFrame is passed through."""
    import polars as pl  # deferred: polars is an optional library, needed only for OpenDP's polars measurements

    if isinstance(data, pl.LazyFrame):
        return data
    if isinstance(data, pl.DataFrame):
        return data.lazy()
    recs = list(data) if not isinstance(data, np.ndarray) else data.tolist()
    cols: dict = {}
    for name, T in columns:
        if name == key:
            cols[name] = pl.Series(name, [r[0] for r in recs], dtype=_polars_type(T))
        else:
            vals = [(r[1] if key is not None else r) for r in recs]
            cols[name] = pl.Series(name, [_cast(T, v) for v in vals], dtype=_polars_type(T))
    return pl.LazyFrame(cols)


def _polars_type(T: str) -> Any:
    import polars as pl  # deferred: see lazyframe_of

    return {"f64": pl.Float64, "f32": pl.Float32, "i32": pl.Int32, "i64": pl.Int64, "u32": pl.UInt32,
            "u64": pl.UInt64, "bool": pl.Boolean, "String": pl.String, "i16": pl.Int16, "i8": pl.Int8,
            "u16": pl.UInt16, "u8": pl.UInt8}.get(T, pl.Float64)


_DIRECT = ("atom_domain", "vector_domain", "map_domain", "with_margin", "lazyframe_domain")
_TYPE_NAMES = {"str": "String", "string": "String"}


def domain_tree(serialized: str, text: str) -> Any:
    """The input domain as the JSON tree OpenDP writes: from the serialised measurement when its input domain is
    written out there (``make_private_lazyframe``, a bare noise measurement), else parsed from the domain's repr
    (``text``: ``AtomDomain(bounds=[0, 10], T=i32)``, ``VectorDomain(AtomDomain(T=f64), size=3)``,
    ``MapDomain { key_domain: ..., value_domain: ... }``, ``FrameDomain(x: f64; margins=[...])``). None when
    neither reads."""
    import json

    if serialized:
        try:
            dom = json.loads(serialized).get("__kwargs__", {}).get("input_domain")
        except (ValueError, AttributeError):
            dom = None
        if _fn(dom) in _DIRECT:
            return dom
    return _parse(text.strip())


def _parse(text: str) -> Any:
    import re

    if text.startswith("AtomDomain(") and text.endswith(")"):
        inner = text[len("AtomDomain("):-1]
        kw: dict = {"bounds": None, "nan": None, "T": None}
        m = re.search(r"bounds=\[([^\]]*)\]", inner)
        if m:
            lo, hi = (x.strip() for x in m.group(1).split(","))
            kw["bounds"] = {"__tuple__": [float(lo), float(hi)]}
        m = re.search(r"nan=(true|false)", inner)
        m_t = re.search(r"T=([A-Za-z0-9_]+)", inner)
        if not m_t:
            return None
        kw["T"] = _TYPE_NAMES.get(m_t.group(1), m_t.group(1))
        if kw["T"] in ("f64", "f32"):
            kw["nan"] = bool(m and m.group(1) == "true")  # the repr writes nan=true only when NaN is admitted
        return {"__function__": "atom_domain", "__kwargs__": kw}
    if text.startswith("VectorDomain(") and text.endswith(")"):
        inner = text[len("VectorDomain("):-1]
        m = re.match(r"(.*\))(?:, size=(\d+))?$", inner)
        if not m:
            return None
        atom = _parse(m.group(1))
        return None if atom is None else {"__function__": "vector_domain", "__kwargs__": {
            "atom_domain": atom, "size": int(m.group(2)) if m.group(2) else None}}
    m = re.match(r"MapDomain \{ key_domain: (.*\)), value_domain: (.*\)) \}$", text)
    if m:
        key, val = _parse(m.group(1)), _parse(m.group(2))
        return None if key is None or val is None else {"__function__": "map_domain", "__kwargs__": {
            "key_domain": key, "value_domain": val}}
    m = re.match(r"FrameDomain\((.*?)(?:; margins=.*)?\)$", text)
    if m:
        series = []
        for part in m.group(1).split(","):
            if ":" not in part:
                return None
            name, T = (x.strip() for x in part.split(":", 1))
            T = _TYPE_NAMES.get(T, T)
            # the repr does not say whether a float column admits NaN: not admitted (never search beyond the domain)
            series.append({"__function__": "series_domain", "__kwargs__": {"name": name, "element_domain": {
                "__function__": "atom_domain", "__kwargs__": {"bounds": None, "nan": False, "T": T}}}})
        return {"__function__": "lazyframe_domain", "__kwargs__": {"series_domains": series}}
    return None


def clamp_values(serialized: str) -> tuple:
    """The clamping bounds of the transformations in a serialised measurement (``make_clamp(bounds=...)``, a sum's
    bounds): record values worth trying (never the domain's range)."""
    import json

    out: list = []

    def walk(node: Any) -> None:
        if isinstance(node, dict):
            if _fn(node) not in ("atom_domain", ""):
                b = _kw(node).get("bounds")
                if isinstance(b, dict) and isinstance(b.get("__tuple__"), list):
                    out.extend(float(x) for x in b["__tuple__"] if isinstance(x, (int, float)))
            for v in node.values():
                walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    if serialized:
        try:
            walk(json.loads(serialized))
        except ValueError:
            return ()
    return tuple(sorted(set(out)))


def _fn(tree: Any) -> str:
    return tree.get("__function__", "") if isinstance(tree, dict) else ""


def _kw(tree: dict) -> dict:
    return tree.get("__kwargs__", {}) or {}


def _atom(tree: dict) -> tuple[str, float, float, bool, bool, tuple]:
    """(T, low, high, integer, nan, values) of an ``atom_domain`` tree: bounds narrow the type's range."""
    kw = _kw(tree)
    T = kw.get("T") or "f64"
    low, high, integer = type_range(T)
    bounds = kw.get("bounds")
    if isinstance(bounds, dict):
        bounds = bounds.get("__tuple__")
    if bounds:
        low, high = float(bounds[0]), float(bounds[1])
    nan = T in ("f64", "f32") and kw.get("nan") is not False  # OpenDP's float atoms admit NaN unless nan=False
    return T, low, high, integer, nan, ()


def _metric_name(metric: str) -> str:
    return metric.split("(")[0].strip()


def read_domain(tree: Any, metric: str, d_in: Any, claim_at: Callable | None, note: str = "",
                values: tuple = ()) -> DomainReading:
    """The InputDomain of a measurement with input domain ``tree`` (OpenDP's JSON), input ``metric`` and the
    adapter's ``d_in``; ``claim_at(d_in')`` is the library's privacy map as a claim (None: distance 1 only)."""
    fn, name = _fn(tree), _metric_name(metric)
    try:
        if fn == "atom_domain" and name == "AbsoluteDistance":
            return _scalar(tree, d_in, claim_at, note)
        if fn == "vector_domain":
            return _vector(tree, name, d_in, claim_at, note, values)
        if fn == "map_domain" and name == "L01InfDistance":
            return _map(tree, d_in, claim_at, note)
        if fn in ("with_margin", "lazyframe_domain") and name in ("SymmetricDistance", "FrameDistance"):
            return _frame(tree, d_in, claim_at, note, values)
    except KeyError as exc:
        return DomainReading(None, None, f"the record type {exc} is not one dpverify reads")
    return DomainReading(None, None, f"dpverify does not read the input domain {fn or '?'} under {metric}")


def _curve(claim_at: Callable | None, scale: Any, relation: NeighbourRelation = AR) -> tuple[tuple, Callable | None]:
    """The group distances at which the library's map states a claim, and the claim there. A distance where the
    map refuses (OpenDP raises, e.g. a threshold below the sensitivity at d_in = 6) states no claim: it is left
    out, never audited against a made-up one. Distance 1 is always kept (a map that refuses it fails the audit)."""
    if claim_at is None:
        return (1,), None
    at = partial(_scaled_call, claim_at, scale, relation)
    kept = []
    for d in GROUP_DISTANCES:
        try:
            if d > 1:
                at(d)
        except Exception:  # the library's map refuses this distance: no claim is stated there
            continue
        kept.append(d)
    return tuple(kept), at


def _scaled_call(claim_at: Callable, scale: Any, relation: NeighbourRelation, d: int) -> Any:
    """``claim_at(d * scale)`` (scale: the d_in of one step; a tuple scales elementwise) under the domain's
    ``relation``."""
    if isinstance(scale, tuple):
        c = claim_at(tuple(type(s)(d * s) for s in scale))
    else:
        c = claim_at(type(scale)(d * scale))
    if getattr(c, "relation", relation) is relation:
        return c
    return PrivacyClaim(c.epsilon, c.delta, relation, c.curve)


def _scalar(tree, d_in, claim_at, note) -> DomainReading:
    T, low, high, integer, nan, _ = _atom(tree)
    if T == "String":
        return DomainReading(None, None, "a string atom under AbsoluteDistance is not a number")
    distances, at = _curve(claim_at, d_in, RO)
    dom = InputDomain(kind="answers", low=low, high=high, integer=integer, nan=nan, sizes=(1,), relation=RO,
                      distances=distances, claim_at=at, length=1, sensitivity=float(d_in), norm=Norm.L1,
                      note=note)
    return DomainReading(dom, partial(scalar_of, T))


def _vector(tree, name, d_in, claim_at, note, values) -> DomainReading:
    kw = _kw(tree)
    T, low, high, integer, nan, _ = _atom(kw.get("atom_domain", {}))
    size = kw.get("size")
    if name in ("L1Distance", "L2Distance"):
        length = int(size) if size else 3
        distances, at = _curve(claim_at, d_in, RO)
        extra = "" if size else " (the vector domain has no fixed size: length 3 searched)"
        dom = InputDomain(kind="answers", low=low, high=high, integer=integer, nan=nan, sizes=(length,),
                          relation=RO, distances=distances, claim_at=at, length=length, sensitivity=float(d_in),
                          norm=Norm.L1 if name == "L1Distance" else Norm.L2, note=(note + extra).strip())
        return DomainReading(dom, partial(vector_of, T))
    if name not in _RECORD_METRICS:
        return DomainReading(None, None, f"dpverify does not read a vector domain under {name}")
    relation = _RECORD_METRICS[name]
    step = 1
    if size and relation is AR:  # a sized vector under the symmetric distance: neighbours replace one (distance 2)
        relation, step = RO, 2
    distances, at = _curve(claim_at, step, relation)
    sizes = (int(size),) if size else (0, 1, 2, 10)
    dom = InputDomain(kind="records", low=low, high=high, integer=integer, nan=nan, sizes=sizes, relation=relation,
                      distances=distances, claim_at=at, values=values, note=note)
    return DomainReading(dom, partial(vector_of, T))


def _map(tree, d_in, claim_at, note) -> DomainReading:
    kw = _kw(tree)
    key_T = _kw(kw.get("key_domain", {})).get("T", "String")
    val_T, low, high, integer, _, _ = _atom(kw.get("value_domain", {}))
    if not (isinstance(d_in, tuple) and len(d_in) == 3 and d_in[0] == 1 and d_in[1] == d_in[2]):
        return DomainReading(None, None, f"d_in={d_in!r}: records are read as one record moving one key by "
                                         "l1 = linf (d_in=(1, c, c))")
    keys = _KEYS["String" if key_T == "String" else "bool" if key_T == "bool" else "int"]
    per_record = d_in[2]
    distances, at = _curve(claim_at, d_in)
    dom = InputDomain(kind="records", low=0.0, high=1.0, integer=True, nan=False, relation=AR, distances=distances,
                      claim_at=at, keys=keys, encode=partial(counts_of, key_T, per_record),
                      note=(note + f" Records are (key, value): each adds {per_record!r} to its key's {val_T} "
                            "(the map the measurement takes).").strip())
    return DomainReading(dom, partial(counts_of, key_T, per_record))


def _frame(tree, d_in, claim_at, note, values) -> DomainReading:
    kw = _kw(tree)
    margin = kw.get("margin", {}).get("__margin__", {}) if _fn(tree) == "with_margin" else {}
    frame = kw.get("frame_domain", tree) if _fn(tree) == "with_margin" else tree
    columns, key = [], None
    by = [b for b in margin.get("by", []) if isinstance(b, str)]
    atoms = {}
    for s in _kw(frame).get("series_domains", []):
        skw = _kw(s)
        elem = skw.get("element_domain", {})
        if _fn(elem) == "option_domain":
            elem = _kw(elem).get("element_domain", {})
        atoms[skw["name"]] = _atom(elem)
        columns.append((skw["name"], atoms[skw["name"]][0]))
    keyed = [c for c, T in columns if T == "String" or c in by]
    if len(keyed) > 1:
        return DomainReading(None, None, f"a frame with key columns {keyed}: one key column at most is read")
    key = keyed[0] if keyed else None
    value_cols = [c for c, _ in columns if c != key]
    if not value_cols:
        return DomainReading(None, None, "a frame without a value column")
    T, low, high, integer, nan, _ = atoms[value_cols[0]]
    for c in value_cols[1:]:
        Tc, lc, hc, ic, nc, _ = atoms[c]
        low, high, integer, nan = max(low, lc), min(high, hc), integer or ic, nan and nc
    max_length = margin.get("max_length")
    sizes = tuple(n for n in (0, 1, 2, 10) if max_length is None or n <= max_length) or (0,)
    distances, at = _curve(claim_at, 1)
    keys = _KEYS["String" if key is None or atoms[key][0] == "String" else "int"] if key else None
    extra = (f" Records fill every value column ({', '.join(value_cols)}) with one value" if len(value_cols) > 1
             else "")
    dom = InputDomain(kind="records", low=low, high=high, integer=integer, nan=nan, sizes=sizes, relation=AR,
                      distances=distances, claim_at=at, keys=keys, values=values,
                      encode=partial(lazyframe_of, tuple(columns), key), note=(note + extra).strip())
    return DomainReading(dom, partial(lazyframe_of, tuple(columns), key))
