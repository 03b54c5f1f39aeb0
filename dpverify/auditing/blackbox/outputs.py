"""Drawing batches: the leaf under every black-box stage.

:func:`draw` calls ``mechanism.sample`` for one batch (when it raises, again one output at a time, each
draw that raises becoming the outcome ``error:<TypeName>``); :func:`table` is the worker task that turns
a batch into an :class:`~dpverify.auditing.blackbox.event_families.OutputTable` in the layout the probe
fixed (a batch that changes form is a MechanismError); :func:`merge`, :func:`conform_names` and
:func:`take` combine and cut tables. :data:`PROBE_OUTPUTS` is here because the error of a batch that
changes form names it.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from ...errors import MechanismError
from ... import messages
from .. import draws
from .event_families import OutputTable, to_table, with_errors
from .values import Where, error_fields

__all__ = ["PROBE_OUTPUTS", "where", "draw", "table", "merge", "conform_names", "take", "as_outputs"]

#: Outputs per dataset drawn (from their own seeds) to fix the output layout before any batch.
PROBE_OUTPUTS = 64


def where(k: int, data: Any, data_prime: Any, which: str) -> Where:
    """Pair ``k``, dataset ``which`` (``"D"`` or ``"D'"``), with the text every error about its draws ends with."""
    return Where(k, which, f"pair {k} (data={messages.describe(data, 40)}, "
                           f"data_prime={messages.describe(data_prime, 40)}), outputs drawn from {which}")


def as_outputs(out: Any) -> Any:
    """Lists of equal-length numeric rows become arrays (the fast path); others object arrays."""
    if isinstance(out, (list, tuple)) and not isinstance(out, np.ndarray):
        try:
            arr = np.asarray(out)
            if arr.dtype.kind in "biuf" and arr.ndim >= 1:
                return arr
        except (ValueError, TypeError):
            pass
        arr = np.empty(len(out), dtype=object)
        arr[:] = list(out) if not all(isinstance(o, (tuple, list)) for o in out) else [tuple(o) for o in out]
        return arr
    return out


_ERROR_TYPES: dict = {}


def _error_instance(name: str) -> BaseException:
    """An exception instance whose type is named ``name`` (the outcome ``error:<name>``)."""
    if name not in _ERROR_TYPES:
        _ERROR_TYPES[name] = type(name, (Exception,), {})
    return _ERROR_TYPES[name]()


def draw(mechanism: Any, data: Any, size: int, seed: np.random.SeedSequence, where: str):
    """``(outputs, errors)``: the batch, and None or, when ``sample`` raised on the batch, the list
    of exception type names per output (None where the one-output draw succeeded; ``outputs`` is
    then the list of those one-output arrays, None at errors)."""
    rng = np.random.default_rng(seed)
    try:
        out = mechanism.sample(data, size, rng)
    except MechanismError:
        raise
    except Exception:
        out = None
    if out is not None:
        return draws.check_outputs(mechanism, as_outputs(out), size, where), None
    rows, errors = [], []
    for _ in range(size):
        try:
            o = mechanism.sample(data, 1, rng)
        except MechanismError:
            raise
        except Exception as exc:
            rows.append(None)
            errors.append(type(exc).__name__)
            continue
        rows.append(draws.check_outputs(mechanism, as_outputs(o), 1, where))
        errors.append(None)
    return rows, errors


def table(mechanism, data, size, seed, where, structured, names, float_bits) -> OutputTable:
    """Worker task: draw one batch and turn it into an OutputTable (``names``: numeric layout)."""
    outputs, errors = draw(mechanism, data, size, seed, where)
    try:
        if errors is None:
            t = to_table(outputs, where, structured=structured, float_bits=float_bits)
            if not structured and t.names != names:
                raise MechanismError(_changed_form(outputs, names, t.names, where), **error_fields(where))
            return t
        if structured:
            obj = np.empty(size, dtype=object)
            for i, (o, e) in enumerate(zip(outputs, errors)):
                obj[i] = _error_instance(e) if e is not None else (
                    o[0].tolist() if isinstance(o[0], np.ndarray) else o[0])
            t = to_table(obj, where, structured=True)
            t.raised = np.empty(size, dtype=object)
            t.raised[:] = list(errors)
            return t
        good = [o for o in outputs if o is not None]
        t = to_table(np.concatenate(good), where, structured=False, float_bits=float_bits) if good else None
        if t is not None and t.names != names:
            raise MechanismError(f"outputs of different shapes in one run (the features {t.names[:3]} ... "
                                 f"against {names[:3]} ...); {where}.", **error_fields(where))
        return with_errors(t, errors, names)
    except MechanismError as exc:
        raise MechanismError(f"{messages.describe(mechanism)}.sample returned a bad output: {exc}",
                             **error_fields(where)) from None


def _changed_form(outputs, names, got, where) -> str:
    arr = np.asarray(outputs)
    return (f"outputs of shape {arr.shape[1:]} (features {got[:3]} ...) after {PROBE_OUTPUTS} probe draws per "
            f"dataset gave numeric outputs with the features {names[:3]} ...; {where}. The black-box audit fixes "
            "the output layout from the probe draws: return one form throughout (arrays of one shape, or "
            "tuples/lists for outputs whose length or kind varies).")


def merge(tables: list[OutputTable]) -> OutputTable:
    """The outputs of ``tables`` in one table (structured: number blocks padded to the widest with -inf)."""
    if len(tables) == 1:
        return tables[0]
    t0 = tables[0]
    if t0.kind == "structured":  # pad the number block of narrower batches with -inf
        width = max(t.features.shape[1] for t in tables) - 2
        feats = []
        for t in tables:
            w = t.features.shape[1] - 2
            block = np.full((t.size, width + 2), -np.inf)
            block[:, :w] = t.features[:, :w]
            block[:, width:] = t.features[:, w:]
            feats.append(block)
        names = tuple(f"number[{j}]" for j in range(width)) + t0.names[-2:]
    else:
        feats = [t.features for t in tables]
        names = t0.names
    examples: dict = {}
    for t in tables:
        for c, e in t.examples.items():
            if len(examples) < 256:
                examples.setdefault(c, e)
    raised = None
    if any(t.raised is not None for t in tables):
        raised = np.empty(sum(t.size for t in tables), dtype=object)
        at = 0
        for t in tables:
            if t.raised is not None:
                raised[at:at + t.size] = t.raised
            at += t.size
    return OutputTable(t0.kind, np.concatenate([t.codes for t in tables]),
                       np.concatenate([t.skeleton for t in tables]), np.concatenate(feats), names, examples, raised)


def conform_names(table: OutputTable, names: tuple) -> OutputTable:
    """A structured table with the number block of ``names`` (padded with -inf or cut)."""
    if table.kind != "structured" or table.names == names:
        return table
    width, w = len(names) - 2, table.features.shape[1] - 2
    block = np.full((table.size, width + 2), -np.inf)
    k = min(w, width)
    block[:, :k] = table.features[:, :k]
    block[:, width:] = table.features[:, w:]
    return OutputTable(table.kind, table.codes, table.skeleton, block, names, table.examples, table.raised)


def take(t: OutputTable, sl: slice) -> OutputTable:
    """The outputs ``sl`` of a table."""
    return OutputTable(t.kind, t.codes[sl], t.skeleton[sl], t.features[sl], t.names, t.examples,
                       None if t.raised is None else t.raised[sl])


