"""The composition methods by name: the :class:`Method` enum and its registry.

The registry sits *above* the five methods (each imports only :mod:`.base`), so
``Method.default()`` needs no function-local import and the import graph has no circle:
``base <- basic, advanced, kov, rdp, pld <- registry <- accountant, curves, calibration, state``.
:data:`METHOD_CLASSES` maps each :class:`Method` to its class (``Method.PLD ->
PLDComposition``); ``Method.default()`` is that class with its default options.
"""
from __future__ import annotations

import enum

from .advanced import AdvancedComposition
from .base import CompositionMethod
from .basic import BasicComposition
from .kov import KOVComposition
from .pld import PLDComposition
from .rdp import RDPComposition

__all__ = ["METHOD_CLASSES", "Method"]


class Method(enum.Enum):
    """The composition methods, by name (``Method.PLD.value == "pld"``)."""

    BASIC = "basic"
    ADVANCED = "advanced"
    KOV = "kov"
    RDP = "rdp"
    PLD = "pld"

    def default(self) -> CompositionMethod:
        """An instance of this method with its default options."""
        return METHOD_CLASSES[self]()


#: Method -> its composition class (the registry ``Method.default()`` reads).
METHOD_CLASSES: dict[Method, type[CompositionMethod]] = {
    Method.BASIC: BasicComposition,
    Method.ADVANCED: AdvancedComposition,
    Method.KOV: KOVComposition,
    Method.RDP: RDPComposition,
    Method.PLD: PLDComposition,
}
