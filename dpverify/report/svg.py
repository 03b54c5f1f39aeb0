"""SVG building blocks shared by the HTML report's pictures (a leaf: imports nothing of dpverify).

* :func:`escape`: text for SVG/HTML; :func:`fmt_num` / :func:`fmt_tick`: numbers as shown;
* :func:`text_width`: the width estimate of a label, in pixels, that every picture uses to size its
  margins so that no label is clipped (a test checks each label fits its box by this estimate);
* :func:`nice_ticks` / :func:`log_ticks`: round tick values (1, 2 or 5 times a power of ten; whole
  decades on a log axis).
"""
from __future__ import annotations

import html
import math
from typing import Any

__all__ = ["escape", "fmt_num", "fmt_tick", "text_width", "fit_text", "nice_ticks", "log_ticks", "CHAR_WIDTH"]

#: Average advance of one character of the report's sans-serif font, as a fraction of the font size
#: (generous: digits and capitals of system-ui/Helvetica/DejaVu Sans are at most about 0.62 em wide).
CHAR_WIDTH = 0.62


def escape(x: Any) -> str:
    """``x`` as text safe inside SVG/HTML elements and attributes."""
    return html.escape(str(x), quote=True)


def fmt_num(x: Any, digits: int = 4) -> str:
    """A number to ``digits`` significant digits (``-`` for None, ``inf``/``-inf``, text left as is)."""
    if x is None:
        return "-"
    try:
        f = float(x)
    except (TypeError, ValueError):
        return escape(x)
    if math.isinf(f):
        return "inf" if f > 0 else "-inf"
    return f"{f:.{digits}g}"


def fmt_tick(v: float) -> str:
    """A tick label: three significant digits, trailing noise dropped (0.30000000000000004 -> 0.3)."""
    return f"{v:.3g}"


def text_width(text: str, font_size: float) -> float:
    """Estimated width in pixels of ``text`` at ``font_size`` (see :data:`CHAR_WIDTH`)."""
    return len(str(text)) * font_size * CHAR_WIDTH


def fit_text(text: str, width: float, font_size: float) -> str:
    """``text`` unchanged when it fits ``width`` pixels (:func:`text_width`), else cut to fit with ``...``
    (the picture keeps the full text in a tooltip)."""
    text = str(text)
    if text_width(text, font_size) <= width:
        return text
    keep = max(int(width / (font_size * CHAR_WIDTH)) - 3, 0)
    return text[:keep] + "..."


def nice_ticks(lo: float, hi: float, target: int = 5) -> list[float]:
    """Round tick values covering ``[lo, hi]`` from inside: multiples of 1, 2 or 5 times a power of ten,
    about ``target`` of them (``[lo]`` when the range is empty)."""
    if not (hi > lo):
        return [lo]
    raw = (hi - lo) / max(target, 1)
    mag = 10.0 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)
    first = math.ceil(lo / step - 1e-9)
    ticks = []
    k = first
    while k * step <= hi * (1 + 1e-12) + 1e-300:
        ticks.append(round(k * step, 12))
        k += 1
    return ticks


def log_ticks(lo: float, hi: float, most: int = 6) -> list[float]:
    """Whole decades in ``[lo, hi]`` (every ``k``-th so that at most about ``most`` are shown)."""
    a, b = math.floor(math.log10(lo)), math.ceil(math.log10(hi))
    step = max(1, (b - a) // most)
    return [10.0 ** k for k in range(a, b + 1, step) if lo * (1 - 1e-12) <= 10.0 ** k <= hi * (1 + 1e-12)]
