"""Privacy accounting: events, privacy profiles, composition methods and the accountant.

Every number returned here is a certified **upper bound** on the privacy parameter it names
(see ``docs/accounting.md``). Layers, one module each: :mod:`.events` (what ran),
:mod:`.profiles` (delta(eps)/eps(delta) of one event), the composition methods
:mod:`.basic`, :mod:`.advanced`, :mod:`.kov`, :mod:`.rdp`, :mod:`.pld`, and
:mod:`.accountant`.
"""
from __future__ import annotations

from ._method import CompositionMethod, Method
from .accountant import Accountant
from .advanced import AdvancedComposition
from .basic import BasicComposition
from .events import (
    ApproxDP,
    Composed,
    DiscreteGaussian,
    DiscreteLaplace,
    DpEvent,
    Gaussian,
    Laplace,
    PoissonSubsampled,
    PureDP,
    RandomizedResponse,
    SelfComposed,
)
from .kov import KOVComposition
from .pld import Discretisation, PLDComposition
from .profiles import delta_for_epsilon, epsilon_for_delta
from .rdp import DEFAULT_ORDERS, RDPComposition

__all__ = [
    "Accountant",
    "AdvancedComposition",
    "ApproxDP",
    "BasicComposition",
    "Composed",
    "CompositionMethod",
    "DEFAULT_ORDERS",
    "DiscreteGaussian",
    "DiscreteLaplace",
    "Discretisation",
    "DpEvent",
    "Gaussian",
    "KOVComposition",
    "Laplace",
    "Method",
    "PLDComposition",
    "PoissonSubsampled",
    "PureDP",
    "RDPComposition",
    "RandomizedResponse",
    "SelfComposed",
    "delta_for_epsilon",
    "epsilon_for_delta",
]
