"""One branch-and-bound routine for every certifier of a box (a leaf: math and numpy only).

A certifier decides a sign on a parameter box cell by cell. The box maps names to ranges (objects with
``lo``, ``hi`` and ``scale`` in ``"lin"``, ``"log"``, ``"int"``, e.g. :class:`~dpverify.symbolic.lemma.Range`);
a cell is a list of ``(lo, hi)`` pairs in the order of ``names``.

* :func:`initial_cells` -- integer axes enumerated (one cell per integer), continuous axes whole;
* :func:`bisect` -- halve a cell on its widest continuous axis (widths relative to the box; geometric for ``log``
  axes); None when every axis is an integer, a point, or narrower than 1e-9 of its range;
* :func:`branch_and_bound` -- depth first over a stack of cells: pop the last cell, count it, stop when the
  count passes the budget, keep the cell when ``certify(cell)`` is True, else push its two halves (or stop when
  it cannot be split). It returns a :class:`BranchBound` value: how it ended, the cells visited, the last cell.

What ``certify`` computes (an Arb ball of a margin, a monotone enclosure at corners, ...) and what the caller
says about a failed cell (a refutation at its centre, a budget message) are the certifier's; the order of the
visit, the count and the budget rule are this module's, the same for all.
"""
from __future__ import annotations

import enum
import itertools
import math
from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, Sequence

import numpy as np

__all__ = ["Outcome", "BranchBound", "initial_cells", "bisect", "branch_and_bound"]

Cell = list  # [(lo, hi), ...] in the order of the names


class Outcome(enum.Enum):
    """How a branch and bound ended."""

    CERTIFIED = "every cell certified"
    BUDGET = "cell budget exhausted"
    UNSPLITTABLE = "a cell that cannot be split was not certified"


@dataclass(frozen=True)
class BranchBound:
    """The end of a branch and bound: ``outcome``, ``visited`` (cells counted, the failing one included) and ``cell``
    (the cell it stopped at; None when certified)."""

    outcome: Outcome
    visited: int
    cell: Cell | None = None

    @property
    def certified(self) -> bool:
        return self.outcome is Outcome.CERTIFIED


def initial_cells(box: Mapping) -> tuple[list[str], list[Cell]]:
    """``(names, cells)``: integer ranges enumerated (one cell per integer), continuous ranges whole."""
    names = list(box)
    axes = []
    for n in names:
        r = box[n]
        if r.scale == "int":
            axes.append([(float(i), float(i)) for i in range(int(r.lo), int(r.hi) + 1)])
        else:
            axes.append([(r.lo, r.hi)])
    return names, [list(c) for c in itertools.product(*axes)]


def bisect(box: Mapping, names: Sequence[str], cell: Cell) -> tuple[Cell, Cell] | None:
    """The two halves of ``cell`` split at the middle (geometric middle on a ``log`` axis) of its widest continuous
    axis, widths measured relative to the box's range (log widths on ``log`` axes); None if no axis is wider than
    1e-9 of its range (integer axes and points never split)."""
    widths = []
    for n, (lo, hi) in zip(names, cell):
        r = box[n]
        if r.scale == "int" or hi == lo:
            widths.append(-1.0)
        elif r.scale == "log":
            widths.append(math.log(hi / lo) / max(1e-300, math.log(r.hi / r.lo)))
        else:
            widths.append((hi - lo) / max(1e-300, r.hi - r.lo))
    i = int(np.argmax(widths))
    if widths[i] <= 1e-9:
        return None
    lo, hi = cell[i]
    mid = math.exp((math.log(lo) + math.log(hi)) / 2) if box[names[i]].scale == "log" else (lo + hi) / 2
    a, b = list(cell), list(cell)
    a[i] = (lo, mid)
    b[i] = (mid, hi)
    return a, b


def branch_and_bound(cells: Iterable[Cell], certify: Callable[[Cell], bool],
                     split: Callable[[Cell], tuple[Cell, Cell] | None], max_cells: int) -> BranchBound:
    """Certify every cell of ``cells`` (a stack: the last one is visited first, and a cell's halves are visited before
    the cells below it), splitting those ``certify`` does not certify with ``split``.

    Ends ``BUDGET`` at the first cell counted beyond ``max_cells``, ``UNSPLITTABLE`` at an uncertified cell ``split``
    returns None for, else ``CERTIFIED``. Exceptions of ``certify`` propagate (the caller names them)."""
    stack = list(cells)
    visited = 0
    while stack:
        cell = stack.pop()
        visited += 1
        if visited > max_cells:
            return BranchBound(Outcome.BUDGET, visited, cell)
        if certify(cell):
            continue
        parts = split(cell)
        if parts is None:
            return BranchBound(Outcome.UNSPLITTABLE, visited, cell)
        stack.extend(parts)
    return BranchBound(Outcome.CERTIFIED, visited)
