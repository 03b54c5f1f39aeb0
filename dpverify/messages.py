"""Short one-line descriptions of datasets, mechanisms and values, for error messages (a leaf: numpy only)."""
from __future__ import annotations

from typing import Any

import numpy as np

__all__ = ["describe"]


def describe(obj: Any, limit: int = 80) -> str:
    """A short, one-line description of a dataset or mechanism for error messages (arrays of more than
    eight entries by shape and dtype; anything else by its repr, cut to ``limit`` characters)."""
    if isinstance(obj, np.ndarray):
        if obj.size <= 8:
            text = np.array2string(obj, separator=", ", threshold=8).replace("\n", "")
        else:
            text = f"array(shape={obj.shape}, dtype={obj.dtype})"
    else:
        text = repr(obj)
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."
