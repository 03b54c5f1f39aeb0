"""The input domain a mechanism implies with one example dataset, where its stated neighbourhood allows.

:func:`domain_like` serves mechanisms that state a query-answer neighbourhood but no input domain (most
of the shipped mechanisms): given one dataset of the shape they take, a ``neighbour_space()`` whose unit
is the whole vector gives :meth:`InputDomain.answers` of that length, sensitivity and norm; a scalar
dataset and a numeric ``sensitivity`` attribute give answers of length 1. Whole-number examples give a
whole-number domain; the example's (first four distinct) answers become the domain's ``values``, so answer
vectors all equal to one of them are searched as bases. Anything else (records in rows, columns, a ``check_neighbours`` rule) implies no
domain: None, and the caller says so rather than guess.
"""
from __future__ import annotations

from functools import partial
from typing import Any

import numpy as np

from ..domain import InputDomain
from ..pairs import stated_space
from ..space import Norm, Unit

__all__ = ["domain_like", "shaped"]


def shaped(shape: tuple, integer: bool, values: Any) -> Any:
    """An answer vector as the mechanism takes it: reshaped to ``shape`` (a Python number for a scalar),
    whole numbers as integers. Module-level, so a domain that uses it pickles."""
    a = np.asarray(values, dtype=float).reshape(shape)
    if integer:
        a = np.rint(a).astype(np.int64)
    if a.ndim == 0:
        return int(a) if integer else float(a)
    return a


def domain_like(mechanism: Any, example: Any) -> InputDomain | None:
    """The query-answer domain of ``mechanism`` on datasets shaped like ``example`` (module docstring), or None."""
    try:
        data = np.asarray(example)
    except Exception:
        return None
    if data.dtype.kind not in "iuf" or data.size == 0:
        return None
    integer = data.dtype.kind in "iu"
    space = stated_space(mechanism)
    if space is not None and space.unit is Unit.WHOLE and not space.also:
        sensitivity, norm = space.bound, space.norm
    elif space is None and data.ndim == 0 and isinstance(getattr(mechanism, "sensitivity", None), (int, float)) \
            and not isinstance(getattr(mechanism, "sensitivity"), bool):
        sensitivity, norm = float(mechanism.sensitivity), Norm.L1
    else:
        return None
    if integer and sensitivity != int(sensitivity):
        return None
    values = tuple(float(v) for v in np.unique(data)[:4])  # the example's answers are worth trying as bases
    return InputDomain("answers", integer=integer, sizes=(int(data.size),), length=int(data.size), values=values,
                       sensitivity=sensitivity, norm=norm, encode=partial(shaped, data.shape, integer),
                       note=f"implied by the mechanism's stated neighbourhood on datasets of shape {data.shape}")
