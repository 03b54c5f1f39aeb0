"""The mechanism protocol (DESIGN.md, "The public API contract")."""
from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from .claims import PrivacyClaim

__all__ = ["Mechanism", "WhiteBoxMechanism", "is_white_box"]


@runtime_checkable
class Mechanism(Protocol):
    """A randomised algorithm with a privacy promise.

    ``sample(data, size, rng)`` returns ``size`` independent outputs on ``data``, stacked on
    axis 0. A mechanism that also has ``log_density`` (see :class:`WhiteBoxMechanism`) is
    *white-box*; one without it is audited black-box.
    """

    claim: PrivacyClaim

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> np.ndarray: ...


@runtime_checkable
class WhiteBoxMechanism(Mechanism, Protocol):
    """A mechanism with ``log_density(outputs, data)``.

    It returns the log density (or log mass) of each output under ``data``, with respect to one
    base measure for all datasets, and ``-inf`` outside the support; shape ``(len(outputs),)``.
    """

    def log_density(self, outputs: np.ndarray, data: Any) -> np.ndarray: ...


def is_white_box(mechanism: Any) -> bool:
    """True when ``mechanism`` offers a callable ``log_density``."""
    return callable(getattr(mechanism, "log_density", None))
