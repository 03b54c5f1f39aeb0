"""SVTRedrawnThreshold (mechanisms/faulty/svt.py): its exact law on the documented pair, and the sampler against it.

The law: with rho and nu_i drawn afresh for every query, query i is TOP independently with probability
p(q_i) = P(nu - rho >= T - q_i), and the output is the index of the first TOP (the cutoff c = 1), or "no TOP".
p is a one-dimensional integral (scipy quad, error far below the 1e-3 the assertion allows). The class's own
``output_law`` (used by benchmarks/bench_curve_limit.py for the oracle) is checked against this one."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import integrate
from scipy.stats import laplace

from dpverify import InvalidArgument

from dpverify_mechanisms.faulty import SVTLyu, SVTRedrawnThreshold


def top_probability(q: float, threshold=0.5, b_nu=4.0, b_rho=2.0) -> float:
    f = lambda r: laplace.sf(threshold - q + r, scale=b_nu) * laplace.pdf(r, scale=b_rho)
    return integrate.quad(f, -80, 80, limit=400, points=[0.0, q - threshold])[0]


def law(queries) -> dict:
    out, alive = {}, 1.0
    for i, q in enumerate(queries):
        p = top_probability(q)
        out[i], alive = alive * p, alive * (1 - p)
    out["none"] = alive
    return out


def test_the_documented_loss_on_all_ones_against_all_zeros():
    a, b = law(np.ones(10)), law(np.zeros(10))
    loss = {k: math.log(b[k] / a[k]) for k in a}
    assert max(loss, key=lambda k: abs(loss[k])) == "none"
    assert abs(loss["none"] - 1.663) < 1e-3
    assert abs(a["none"] - 4.1e-4) < 1e-5 and abs(b["none"] - 2.17e-3) < 1e-5
    # the loss grows with the number of queries: not eps'-DP for any eps' independent of k
    a20, b20 = law(np.ones(20)), law(np.zeros(20))
    assert math.log(b20["none"] / a20["none"]) > 3.3
    assert SVTRedrawnThreshold(1.0).true_epsilon(10) == math.inf
    own = SVTRedrawnThreshold(1.0).output_law(np.zeros(10))
    assert all(abs(own[k] - b[k]) < 1e-9 for k in b)
    with pytest.raises(InvalidArgument, match="cutoff=2"):
        SVTRedrawnThreshold(1.0, cutoff=2).output_law(np.zeros(10))
    with pytest.raises(InvalidArgument, match="data"):
        SVTRedrawnThreshold(1.0).output_law([0.0, math.nan])


def test_the_sampler_follows_the_law():
    """Frequency of "no TOP" in 400,000 draws on each dataset within 5 standard errors of the law (false failure
    about 6e-7 per dataset); the correct Alg. 1 with one rho is far from it on the all-zeros dataset."""
    m = SVTRedrawnThreshold(1.0)
    for data in (np.ones(10), np.zeros(10)):
        p = law(data)["none"]
        out = m.sample(data, 400_000, np.random.default_rng(5))
        freq = float(np.mean((out == 0).all(axis=1)))
        assert abs(freq - p) < 5 * math.sqrt(p * (1 - p) / 400_000)
    one_rho = SVTLyu(1.0).sample(np.zeros(10), 400_000, np.random.default_rng(5))
    assert float(np.mean((one_rho == 0).all(axis=1))) > 3 * law(np.zeros(10))["none"]
