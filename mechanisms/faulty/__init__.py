"""Negative and positive controls for the black-box audit (see ``docs/faulty.md``).

Each control follows the :class:`dpverify.Mechanism` protocol without ``log_density`` (so it is
audited black-box), states its true privacy in its docstring with a reference, and offers
``true_epsilon(k)`` (``math.inf`` when it is not eps-DP for any eps). Faulty controls sit beside
their correct counterparts.
"""
from ._common import Pattern, query_pairs
from .float_laplace import DiscreteLaplace, NaiveFloatLaplace
from .histogram import HistogramScaleEpsilon, LaplaceHistogram
from .noisy_max import Noise, NoisyMaxArgmax, NoisyMaxValue
from .multidim import LaplaceParallel, NumericalSVT, PrefixSum, SVTRothVector
from .svt import SVTChen, SVTDworkRoth, SVTLeeClifton, SVTLyu, SVTRedrawnThreshold, SVTRoth, SVTStoddard

__all__ = [
    "Pattern", "query_pairs",
    "SVTLyu", "SVTDworkRoth", "SVTRoth", "SVTLeeClifton", "SVTStoddard", "SVTChen", "SVTRedrawnThreshold",
    "Noise", "NoisyMaxArgmax", "NoisyMaxValue",
    "LaplaceHistogram", "HistogramScaleEpsilon",
    "NaiveFloatLaplace", "DiscreteLaplace",
    "LaplaceParallel", "NumericalSVT", "PrefixSum", "SVTRothVector",
]
