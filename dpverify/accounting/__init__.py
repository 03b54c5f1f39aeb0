"""Privacy accounting: events, privacy profiles, composition methods and the accountant.

Every number returned here is a certified **upper bound** on the privacy parameter it names
(see ``docs/accounting.md``). Layers, one module each, imports pointing down:

* vocabulary: :mod:`.events` (what ran), :mod:`.atoms` (the loss atoms of the atom-valued
  events), :mod:`.base` (``CompositionMethod``, the interface every method implements);
* one event alone: :mod:`.profiles` (exact delta(eps)/eps(delta)), :mod:`.conversions`
  (GDP/zCDP), :mod:`.samplers` and :mod:`.shuffle_lower` (certified lower bounds for shuffling);
* the PLD stack: :mod:`.double_word` and :mod:`.spectral` (FFT kernels with certified
  round-off) -> :mod:`.pmf` (``LossPMF``) -> :mod:`.grid` (putting a loss on the grid) ->
  :mod:`.losses` (the discretised PLD of each event) -> :mod:`.pld` (``PLDComposition``);
* the composition methods :mod:`.basic`, :mod:`.advanced`, :mod:`.kov`, :mod:`.rdp`,
  :mod:`.pld`, each importing only :mod:`.base` (and the layers below);
* :mod:`.registry` (``Method``: the methods by name, above all five), then :mod:`.state`,
  :mod:`.accountant`, :mod:`.curves`, :mod:`.calibration` (``calibrate_noise``) and
  :mod:`.sampler_audit`.
"""
from __future__ import annotations

from .accountant import Accountant, Answer
from .advanced import AdvancedComposition
from .base import CompositionMethod
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
    RandomAllocation,
    RandomizedResponse,
    SampledWithoutReplacement,
    SelfComposed,
    Shuffled,
    ZCDP,
)
from .calibration import (
    CompositionCalibration,
    calibrate_noise,
    dpsgd_sigma,
    gaussian_sigma_for_composition,
    laplace_scale_for_composition,
)
from .conversions import (
    clt_mu_dpsgd,
    gaussian_epsilon_for_rho,
    gaussian_rho,
    gdp_delta,
    gdp_epsilon,
    gdp_mu,
    gdp_tpr_at_fpr,
    gdp_tradeoff,
    zcdp_delta,
    zcdp_epsilon,
    zcdp_epsilon_bs,
)
from .curves import dpsgd, epsilon_curve, delta_curve, pld_bounds
from .kov import KOVComposition
from .pld import Discretisation, PLDBounds, PLDComposition
from .profiles import delta_for_epsilon, epsilon_for_delta
from .rdp import DEFAULT_ORDERS, RDPComposition
from .registry import Method
from .sampler_audit import SamplerAudit, SamplerCheck, Sampling, audit_sampler
from .samplers import shuffled_gaussian_delta_lower, shuffled_gaussian_epsilon_lower
from .shuffle_lower import (ShuffledLowerBound, allocation_epochs_epsilon_lower, shuffled_epochs_delta_lower,
                            shuffled_epochs_epsilon_lower)

__all__ = [
    "SamplerAudit",
    "SamplerCheck",
    "Sampling",
    "audit_sampler",
    "ShuffledLowerBound",
    "shuffled_epochs_delta_lower",
    "allocation_epochs_epsilon_lower",
    "shuffled_epochs_epsilon_lower",
    "shuffled_gaussian_delta_lower",
    "shuffled_gaussian_epsilon_lower",
    "CompositionCalibration",
    "PLDBounds",
    "calibrate_noise",
    "clt_mu_dpsgd",
    "delta_curve",
    "dpsgd",
    "dpsgd_sigma",
    "epsilon_curve",
    "gaussian_epsilon_for_rho",
    "gaussian_rho",
    "gaussian_sigma_for_composition",
    "gdp_delta",
    "gdp_epsilon",
    "gdp_mu",
    "gdp_tpr_at_fpr",
    "gdp_tradeoff",
    "laplace_scale_for_composition",
    "pld_bounds",
    "zcdp_delta",
    "zcdp_epsilon",
    "zcdp_epsilon_bs",
    "Accountant",
    "Answer",
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
    "RandomAllocation",
    "Shuffled",
    "SampledWithoutReplacement",
    "SelfComposed",
    "ZCDP",
    "delta_for_epsilon",
    "epsilon_for_delta",
]
