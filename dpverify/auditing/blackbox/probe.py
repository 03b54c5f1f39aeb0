"""Stage 1, probe: the first draws of each pair fix its output layout before any selection draw.

:func:`probe_pair` draws ``PROBE_OUTPUTS`` outputs per dataset (their own seeds) and returns the pair's
:class:`~dpverify.auditing.blackbox.values.Layout` (numeric arrays of one shape, else structured
outputs; the feature names; the batch size; the number of candidate events per direction, so the
multiplicity ``K`` is fixed before any selection draw) and its
:class:`~dpverify.auditing.blackbox.values.RaisedDraws` (the probe draws that raised, per exception
type). When every probe draw of both datasets raised one exception type, :func:`check_probes` stops
the audit with a MechanismError (a sampler raising on at most half its draws does so with probability
below 2^-128). :func:`degenerate_message` is that error's text, also used by the verdict for a pair on
which most draws raised.
"""
from __future__ import annotations


import numpy as np

from ...errors import MechanismError
from ... import messages
from .. import draws
from .outputs import PROBE_OUTPUTS, draw
from .event_families import to_table
from .scores import slots
from .values import Layout, RaisedDraws, Where

__all__ = ["probe_pair", "check_probes", "degenerate_message", "types_text", "PROBE_OUTPUTS", "BATCH_OUTPUTS",
           "STRUCTURED_BATCH_OUTPUTS"]

#: Outputs per batch at most (fewer for large outputs); fixed, so results do not depend on workers.
BATCH_OUTPUTS = 1 << 16
STRUCTURED_BATCH_OUTPUTS = 1 << 14


def _probe_one(mechanism, data, seed, where: Where, float_bits):
    """``(layout, raised)``: ``layout`` is (numeric?, output shape, elements per output, numeric feature
    names) from PROBE_OUTPUTS draws, None if every draw raised; ``raised`` counts the draws that raised,
    per exception type name.

    The layout is numeric (the fast array path) only when every probe output is a number or a
    non-empty numeric array of one shape; anything else (strings, tuples of varying length, empty
    tuples, a mix) is structured. A later batch that does not fit a numeric layout is a
    MechanismError, never a silent re-encoding (see :func:`~dpverify.auditing.blackbox.outputs.table`)."""
    outputs, errors = draw(mechanism, data, PROBE_OUTPUTS, seed, where.probe())
    raised: dict[str, int] = {}
    if errors is not None:
        for e in errors:
            if e is not None:
                raised[e] = raised.get(e, 0) + 1
        good = [o for o in outputs if o is not None]
        if not good:
            return None, raised
        kinds = {(o.dtype.kind in "biuf", o.shape[1:]) for o in good}
        if len(kinds) != 1 or not next(iter(kinds))[0]:
            return (False, None, 1, None), raised
        outputs = np.concatenate(good)
    arr = np.asarray(outputs)
    numeric = arr.dtype.kind in "biuf" and arr.size > 0
    try:
        names = to_table(arr, where, structured=False, float_bits=float_bits).names if numeric else None
    except MechanismError as exc:
        raise MechanismError(f"{messages.describe(mechanism)}.sample returned a bad output: {exc}",
                             **where.fields()) from None
    return (numeric, (arr.shape[1:] if numeric else None), max(1, int(arr[0].size) if arr.ndim > 1 else 1),
            names), raised


def probe_pair(mechanism, data, data_prime, seeds, where_d: Where, where_dp: Where, float_bits: bool,
          learned: bool) -> tuple[Layout, RaisedDraws]:
    """The layout of one pair from its probe draws (``seeds``: D's and D''s), and the draws that raised."""
    probes = [_probe_one(mechanism, data, seeds[0], where_d, float_bits),
              _probe_one(mechanism, data_prime, seeds[1], where_dp, float_bits)]
    known = [p for p, _ in probes if p is not None]
    numeric = bool(known) and all(p[0] for p in known) and len({p[1] for p in known}) == 1
    structured = not numeric
    elements = max([p[2] for p in known] or [1])
    names = known[0][3] if numeric else None
    per = (STRUCTURED_BATCH_OUTPUTS if structured
           else max(1, min(BATCH_OUTPUTS, draws.BATCH_ELEMENTS // elements)))
    layout = Layout(structured, elements, names, per,
                    slots("structured" if structured else "numeric", names or (), learned))
    return layout, RaisedDraws((tuple(probes[0][1].items()), tuple(probes[1][1].items())))


def types_text(raised: list, where: str = "probe and selection draws") -> str:
    """``raised`` (per dataset, exception type name -> count, over ``where``) in words."""
    parts = []
    for label, r in zip(("D", "D'"), raised):
        if r:
            parts.append(f"{label}: " + ", ".join(f"{n} x{c}" for n, c in sorted(r.items(), key=lambda x: -x[1])))
    return "; ".join(parts) + (f" in the {where}" if parts else f"none of the {where} raised")


def degenerate_message(mechanism, k: int, pair, raised: RaisedDraws, total: int, what: str) -> str:
    """The MechanismError text of a pair on whose two datasets ``what`` raised (the probe's rule, and
    :data:`~dpverify.auditing.blackbox.verdict.MOSTLY_RAISED_SHARE`)."""
    first = ""
    try:  # the first exception's own message (the draws keep only its type)
        mechanism.sample(pair[0], 1, np.random.default_rng(0))
    except Exception as exc:  # noqa: BLE001 - reported, not handled
        msg = " ".join(str(exc).split())
        first = f" The first: {type(exc).__name__}: {msg[:200] + ('...' if len(msg) > 200 else '')}."
    counts = raised.counts()
    return (f"{messages.describe(mechanism)}.sample raised on {what} of both datasets of pair {k} "
            f"(data={messages.describe(pair[0], 40)}, data_prime={messages.describe(pair[1], 40)}): "
            f"{counts[0]} of {total} draws of D and {counts[1]} of {total} of D' "
            f"({types_text(raised.as_dicts(), 'probe draws' if total == PROBE_OUTPUTS else 'probe and selection draws')}).{first} "
            "The audit saw the exception, not the mechanism's outputs, so it gives no privacy verdict. Check "
            "that sample has the signature sample(data, size, rng), that an adapter's keywords suit the installed "
            "library version, and that the data reaches the mechanism in the form it expects.")


def check_probes(mechanism, pairs, raised: list[RaisedDraws]) -> None:
    """MechanismError when every probe draw of both datasets of some pair raised one exception type."""
    for k, r in enumerate(raised):
        types = r.as_dicts()
        if (len(set(types[0]) | set(types[1])) == 1 and sum(types[0].values()) == PROBE_OUTPUTS
                and sum(types[1].values()) == PROBE_OUTPUTS):
            raise MechanismError(degenerate_message(mechanism, k, pairs[k], r, PROBE_OUTPUTS, "every probe draw"),
                                 pair=k)
