"""Registry entries of the controls (section "faulty"): ``dpverify check`` audits them black-box.

Each entry: the control with the parameters of ``docs/faulty.md``, the StatDP-style pairs that
expose it, and ``faulty`` (True for a negative control, False for its correct counterpart) and
``true_epsilon`` in :data:`TRUTH` (used by ``benchmarks/bench_blackbox.py`` and the tests).
"""
from __future__ import annotations

from dpverify.registry import RegistryEntry

from ._common import Pattern, query_pairs
from .float_laplace import DiscreteLaplace, NaiveFloatLaplace
from .histogram import HistogramScaleEpsilon, LaplaceHistogram
from .noisy_max import Noise, NoisyMaxArgmax, NoisyMaxValue
from .multidim import LaplaceParallel, NumericalSVT, PrefixSum, SVTRothVector
from .svt import SVTChen, SVTDworkRoth, SVTLeeClifton, SVTLyu, SVTRoth, SVTStoddard

SVT_QUERIES = 10
MAX_QUERIES = 5
BINS = 5
_SVT_PAIRS = (Pattern.HALF_HALF, Pattern.X_SHAPE)
_MAX_PAIRS = (Pattern.ALL_BELOW, Pattern.X_SHAPE)
_HIST_PAIRS = (Pattern.ONE_BELOW, Pattern.ONE_ABOVE)


def _svt_pairs():
    return query_pairs(SVT_QUERIES, _SVT_PAIRS)


def _max_pairs():
    return query_pairs(MAX_QUERIES, _MAX_PAIRS)


def _hist_pairs():
    return query_pairs(BINS, _HIST_PAIRS)


PARALLEL_QUERIES = 20
PREFIX_QUERIES = 10


def _parallel_pairs():
    return query_pairs(PARALLEL_QUERIES, (Pattern.ALL_BELOW,))


def _prefix_pairs():
    return query_pairs(PREFIX_QUERIES, tuple(Pattern))


def _numerical_svt_pairs():
    return query_pairs(SVT_QUERIES, (Pattern.ONE_BELOW_REST_ABOVE,))


def _float_pairs():
    return [(0.0, 1.0)]


def _int_pairs():
    return [(0, 1)]


# name -> (factory, pairs, samples, paper, parameters, faulty, number of queries)
_SPECS = [
    ("svt-alg1-lyu", lambda: SVTLyu(1.0, threshold=0.5, cutoff=1), _svt_pairs, 200_000,
     "lyu-svt/algorithm-1", "eps=1, T=0.5, c=1, 10 queries", False, SVT_QUERIES),
    ("svt-alg2-dwork-roth", lambda: SVTDworkRoth(1.0, threshold=0.5, cutoff=2), _svt_pairs, 200_000,
     "lyu-svt/algorithm-2", "eps=1, T=0.5, c=2, 10 queries", False, SVT_QUERIES),
    ("svt-alg3-roth", lambda: SVTRoth(1.0, threshold=0.5, cutoff=1), _svt_pairs, 200_000,
     "lyu-svt/algorithm-3", "eps=1, T=0.5, c=1, 10 queries", True, SVT_QUERIES),
    ("svt-alg4-lee-clifton", lambda: SVTLeeClifton(1.0, threshold=0.5, cutoff=1), _svt_pairs, 500_000,
     "lyu-svt/algorithm-4", "eps=1, T=0.5, c=1, 10 queries", True, SVT_QUERIES),
    ("svt-alg5-stoddard", lambda: SVTStoddard(1.0, threshold=0.5), _svt_pairs, 100_000,
     "lyu-svt/algorithm-5", "eps=1, T=0.5, 10 queries", True, SVT_QUERIES),
    ("svt-alg6-chen", lambda: SVTChen(1.0, threshold=0.5), _svt_pairs, 200_000,
     "lyu-svt/algorithm-6", "eps=1, T=0.5, 10 queries", True, SVT_QUERIES),
    ("noisy-max-laplace-argmax", lambda: NoisyMaxArgmax(1.0, Noise.LAPLACE), _max_pairs, 200_000,
     "dwork-roth/report-noisy-max", "eps=1, Lap(2/eps), 5 queries", False, MAX_QUERIES),
    ("noisy-max-laplace-value", lambda: NoisyMaxValue(1.0, Noise.LAPLACE), _max_pairs, 200_000,
     "statdp/noisy-max-value", "eps=1, Lap(2/eps), 5 queries", True, MAX_QUERIES),
    ("noisy-max-exponential-argmax", lambda: NoisyMaxArgmax(1.0, Noise.EXPONENTIAL), _max_pairs, 200_000,
     "mckenna-sheldon/permute-and-flip", "eps=1, Exp(2/eps), 5 queries", False, MAX_QUERIES),
    ("noisy-max-exponential-value", lambda: NoisyMaxValue(1.0, Noise.EXPONENTIAL), _max_pairs, 100_000,
     "statdp/noisy-max-value", "eps=1, Exp(2/eps), 5 queries", True, MAX_QUERIES),
    ("histogram-laplace", lambda: LaplaceHistogram(0.5), _hist_pairs, 200_000,
     "dwork-roth/histogram", "eps=0.5, Lap(1/eps), 5 bins", False, BINS),
    ("histogram-scale-eps", lambda: HistogramScaleEpsilon(0.5), _hist_pairs, 200_000,
     "statdp/histogram-scale-eps", "eps=0.5, Lap(eps), 5 bins", True, BINS),
    ("laplace-float-naive", lambda: NaiveFloatLaplace(1.0, uniform_bits=20), _float_pairs, 500_000,
     "mironov-lsb/naive-laplace", "eps=1, float64, 20-bit uniform", True, 1),
    ("laplace-parallel", lambda: LaplaceParallel(0.1), _parallel_pairs, 200_000,
     "dp-sniper/laplace-parallel", "eps=0.1, 20 x Lap(200), all-differ", False, PARALLEL_QUERIES),
    ("numerical-svt", lambda: NumericalSVT(0.1, threshold=0.5, cutoff=1), _numerical_svt_pairs, 200_000,
     "lyu-svt/algorithm-7", "eps=0.1, T=0.5, c=1, 10 queries", False, SVT_QUERIES),
    ("prefix-sum", lambda: PrefixSum(1.0), _prefix_pairs, 200_000,
     "statdp/prefix-sum", "eps=1, 10 x Lap(10), prefix sums, 8 patterns", False, PREFIX_QUERIES),
    ("svt-alg3-roth-vector", lambda: SVTRothVector(1.0, threshold=0.5, cutoff=1), _svt_pairs, 200_000,
     "lyu-svt/algorithm-3", "eps=1, T=0.5, c=1, 10 queries, float vector", True, SVT_QUERIES),
    ("laplace-discrete", lambda: DiscreteLaplace(1.0), _int_pairs, 200_000,
     "ghosh-geometric/discrete-laplace", "eps=1, integers", False, 1),
]

REGISTRY = [
    RegistryEntry(name=name, paper=paper, factory=factory, pairs=pairs, samples=samples, section="faulty",
                  parameters=params, description=("faulty control" if faulty else "correct control"))
    for name, factory, pairs, samples, paper, params, faulty, k in _SPECS
]

#: name -> (faulty?, number of queries, factory, pairs): the ground truth of every control.
TRUTH = {name: (faulty, k, factory, pairs) for name, factory, pairs, samples, paper, params, faulty, k in _SPECS}
