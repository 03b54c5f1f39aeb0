"""Exact reference values computed independently of dpverify's accounting code (tests and benchmarks share them;
benchmarks put this folder on ``sys.path``)."""
from __future__ import annotations

import math

import numpy as np


def rr_kfold_epsilon(k: int, eps0: float, delta: float) -> float:
    """Exact epsilon(delta) of k-fold binary randomized response: the loss is eps0 (2X - k) with
    X ~ Binomial(k, e^eps0 / (1 + e^eps0)); bisection on the exact profile, returning the upper end (the
    bracket shrinks to float resolution long before its 200 halvings)."""
    from scipy.stats import binom

    p = math.exp(eps0) / (1 + math.exp(eps0))
    x = np.arange(k + 1)
    loss = eps0 * (2 * x - k)
    logpmf = binom.logpmf(x, k, p)

    def d(e):
        m = loss > e
        return float(np.sum(np.exp(logpmf[m]) * -np.expm1(e - loss[m])))

    lo, hi = 0.0, k * eps0
    for _ in range(200):
        mid = (lo + hi) / 2
        lo, hi = (mid, hi) if d(mid) > delta else (lo, mid)
    return hi
