"""The split convolution (accounting.blockconv): its certified round-off bound holds against an extended-precision
convolution, it is taken only where it at least halves the one-FFT bound, and on the PMFs of subsampled Gaussians
(issue 32's schedule) it is the path taken."""
from __future__ import annotations

import numpy as np
import scipy.fft

from dpverify import NeighbourRelation
from dpverify.accounting import Gaussian, PoissonSubsampled
from dpverify.accounting.blockconv import CORE, split_convolve
from dpverify.accounting.losses import leaf_pmf
from dpverify.accounting.pmf import LossPMF
from dpverify.accounting.spectral import fft_error_l1
from dpverify.accounting.grid import Discretisation

AR = NeighbourRelation.ADD_REMOVE_ONE


def _exact(x, y):
    return np.convolve(x.astype(np.longdouble), y.astype(np.longdouble))


def _subsampled(sigma, h=5e-5):
    return leaf_pmf(PoissonSubsampled(Gaussian(sigma, relation=AR), 0.01), 0, h, 1e-15,
                    Discretisation.CONNECT_DOTS).probs


def test_split_bound_holds_on_subsampled_leaves_and_halves_the_one_fft_bound():
    x, y = _subsampled(2.0), _subsampled(1.5)  # about 10^4 bins each, most of the L2 norm in a few hundred
    m = x.size + y.size - 1
    plain = fft_error_l1(x, y, scipy.fft.next_fast_len(m, real=True), m)
    out = split_convolve(x, y, m, plain)
    assert out is not None
    z, bound = out
    observed = float(np.sum(np.abs(_exact(x, y) - z)))
    assert observed <= bound
    assert bound <= 0.5 * plain
    # the order of the factors does not matter (the one with the larger L2 norm is split)
    z2, bound2 = split_convolve(y, x, m, plain)
    assert bound2 == bound
    assert float(np.sum(np.abs(_exact(x, y) - z2))) <= bound2


def test_split_bound_holds_when_the_rest_carries_a_second_spike():
    # a second spike far from the first stays in the rest: its L2 norm enters the one-FFT part of the bound
    rng = np.random.default_rng(3)
    x = np.exp(-0.5 * ((np.arange(12000) - 6000) / 1500.0) ** 2) * (1 + 0.1 * rng.random(12000))
    x /= x.sum()
    y = 1e-3 * rng.random(9000)
    y[200:400] += 0.5 / 200
    y[7000:7100] += 0.3 / 100
    y /= y.sum()
    m = x.size + y.size - 1
    z, bound = split_convolve(x, y, m, np.inf)
    observed = float(np.sum(np.abs(_exact(x, y) - z)))
    assert observed <= bound
    # a core placed one bin off is far outside the bound: the check above has teeth
    shifted = z.copy()
    shifted[1:] = z[:-1]
    assert float(np.sum(np.abs(_exact(x, y) - shifted))) > 1e3 * bound


def test_split_declines_where_it_would_not_halve_the_bound_or_a_factor_is_short():
    x = np.full(5000, 1 / 5000)
    y = np.full(CORE, 1 / CORE)
    m = x.size + y.size - 1
    assert split_convolve(x, y, m, np.inf) is None  # too short to split
    y = np.full(4 * CORE, 1 / (4 * CORE))
    m = x.size + y.size - 1
    assert split_convolve(x, y, m, 0.0) is None  # never taken where it is not better


def test_loss_pmf_convolve_takes_the_split_and_its_error_covers_the_exact_result():
    x, y = _subsampled(2.0), _subsampled(1.2)
    px = LossPMF(5e-5, 0, x, 0.0, 0.0)
    py = LossPMF(5e-5, 0, y, 0.0, 0.0)
    z = px.convolve(py, 1e-300)  # no truncation
    exact = _exact(x, y)
    seg = exact[z.offset: z.offset + z.probs.size]
    observed = float(np.sum(np.abs(seg - z.probs))) + float(np.sum(exact)) - float(np.sum(seg))
    assert observed <= z.error
    m = x.size + y.size - 1
    assert z.error <= 0.5 * fft_error_l1(x, y, scipy.fft.next_fast_len(m, real=True), m)
