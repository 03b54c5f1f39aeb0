"""Plain-text tables (the terminal tables of every ``dpverify`` command and the generated docs).

A leaf: it imports nothing of dpverify, so that the toolkit (``dpverify.calibrate``'s check table,
``dpverify.report``) and the command line (``dpverify.cli``) both import it from below.
"""
from __future__ import annotations

import os
import shutil
import sys
import textwrap
from typing import TextIO

__all__ = ["table", "StreamTable", "term_width", "DEFAULT_WIDTH"]


def table(headers: list[str], rows: list[list[str]]) -> str:
    """A plain aligned text table."""
    widths = [max(len(h), *(len(r[i]) for r in rows)) if rows else len(h) for i, h in enumerate(headers)]
    line = "  ".join(h.ljust(w) for h, w in zip(headers, widths))
    out = [line, "  ".join("-" * w for w in widths)]
    out += ["  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in rows]
    return "\n".join(out)


#: Width of the tables when stdout is not a terminal (and COLUMNS is not set).
DEFAULT_WIDTH = 120


def term_width() -> int:
    """The width tables fit: ``COLUMNS`` if set, the terminal's width if stdout is a terminal, else 120."""
    env = os.environ.get("COLUMNS", "")
    if env.isdigit() and int(env) > 0:
        return int(env)
    if sys.stdout.isatty():
        return shutil.get_terminal_size((DEFAULT_WIDTH, 24)).columns
    return DEFAULT_WIDTH


class StreamTable:
    """A text table printed row by row as rows arrive, fitted to ``width`` columns.

    ``columns`` are ``(header, min_width, flexible)``; fixed columns get their minimum, flexible
    ones share what is left of ``width``. A cell longer than its column wraps onto further lines
    (never cut at ``...``; a newline in a cell starts a new line); ``details`` of a row (e.g. the evidence) print under it, indented and
    wrapped to the full width.
    """

    def __init__(self, columns: list[tuple[str, int, bool]], *, width: int | None = None,
                 out: TextIO | None = None, gap: int = 2):
        self.out = out if out is not None else sys.stdout
        self.width = width or term_width()
        self.gap = gap
        mins = [max(m, 1) for _, m, _ in columns]
        flex = [i for i, (_, _, f) in enumerate(columns) if f]
        spare = self.width - sum(mins) - gap * (len(columns) - 1)
        widths = list(mins)
        if flex and spare > 0:
            for k, i in enumerate(flex):
                widths[i] += spare // len(flex) + (1 if k < spare % len(flex) else 0)
        self.widths = widths
        self.headers = [h for h, _, _ in columns]

    def _lines(self, cells: list[str]) -> list[str]:
        wrapped = [[line for part in str(c).split("\n")
                    for line in (textwrap.wrap(part, w, break_long_words=True, break_on_hyphens=False) or [""])]
                   for c, w in zip(cells, self.widths)]
        height = max(len(w) for w in wrapped)
        sep = " " * self.gap
        return [sep.join((w[k] if k < len(w) else "").ljust(width) for w, width in zip(wrapped, self.widths)).rstrip()
                for k in range(height)]

    def header(self) -> None:
        self._write(self._lines(self.headers) + [(" " * self.gap).join("-" * w for w in self.widths)])

    def row(self, cells: list[str], details: str | None = None) -> None:
        lines = self._lines(cells)
        if details:
            lines += textwrap.wrap(details, self.width, initial_indent="    ", subsequent_indent="    ",
                                   break_long_words=True, break_on_hyphens=False)
        self._write(lines)

    def _write(self, lines: list[str]) -> None:
        self.out.write("\n".join(lines) + "\n")
        self.out.flush()
