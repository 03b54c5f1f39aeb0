"""Convolution of two loss PMFs with a smaller certified round-off bound: the concentrated core by overlap-add.

The bound of :func:`~dpverify.accounting.spectral.fft_error_l1` for ``z = x * y`` by one FFT of length ``N`` is
``sqrt(M)`` times an L2 bound of about ``a (||x||_2 ||y||_1 + ||x||_1 ||y||_2)`` (``M`` entries kept, ``a`` the FFT's
relative error). A subsampled-Gaussian leaf has most of its L2 norm in a few hundred bins while its tail spans
10^5 bins, so ``M`` is large and the term ``sqrt(M) ||x||_1 ||y||_2`` dominates: a 2000-step schedule of distinct
subsampled Gaussians accumulated about 1e-9 of certified round-off in delta, half of its upper-lower gap (issue 32).

:func:`split_convolve` splits the factor with the larger L2 norm exactly, ``y = c + r``: ``c`` the window of
:data:`CORE` bins with the largest sum of squares, ``r`` the rest (zeros in the window). Then
``x * y = x * r + x * c`` with

* ``x * r`` by one FFT of length ``N``, bound ``fft_error_l1(x, r, N, M)`` (``||r||_2`` is small);
* ``x * c`` by overlap-add: ``x`` cut into blocks ``x_b`` of ``L = n - CORE + 1`` bins, each ``x_b * c`` one FFT of
  length ``n`` (``L + CORE - 1 = n``: no wrap-around), bound ``fft_error_l1(x_b, c, n, n)`` per block; summed over the
  blocks, ``||x_b||_1 ||c||_2`` costs ``sqrt(n)`` instead of ``sqrt(M)``;
* the sum: every output is the sum of at most three computed terms (the rest and two overlapping blocks, ``n < 2L``),
  two roundings of at most ``u`` times the sum of their absolute values, so ``2.01 u`` times the L1 norms of the
  computed parts.

The total is a bound on the L1 distance to the exact ``x * y``, used exactly as the one-FFT bound is. The split is
taken only where its bound is at most half the one-FFT bound (it costs about two more FFTs of length ``N``).
"""
from __future__ import annotations

import math

import numpy as np
import scipy.fft

from .spectral import U, fft_error_l1, fft_error_l2, norm2

__all__ = ["CORE", "split_convolve"]

#: length of the concentrated core convolved by overlap-add
CORE = 1024


def split_convolve(x: np.ndarray, y: np.ndarray, m_out: int, plain_bound: float):
    """``(z, bound)``: the first ``m_out`` entries of ``x * y`` and an L1 bound on their round-off, computed as in
    the module docstring; None when the split would not at least halve ``plain_bound`` (the one-FFT bound) or a
    factor is too short to split."""
    if norm2(x) > norm2(y):
        x, y = y, x
    lc = CORE
    if y.size < 2 * lc or x.size < lc:
        return None
    sq = np.concatenate(([0.0], np.cumsum(np.square(y))))
    c0 = int(np.argmax(sq[lc:] - sq[:-lc]))
    core = y[c0:c0 + lc]
    rest = y.copy()
    rest[c0:c0 + lc] = 0.0
    n = scipy.fft.next_fast_len(2 * lc, real=True)
    L = n - lc + 1
    B = -(-x.size // L)
    blocks = np.zeros((B, L))
    blocks.ravel()[:x.size] = x
    # the blocks' bounds, vectorised (fft_error_l2 with per-block norms, inflated as fft_error_l1 does)
    x1 = np.sum(blocks, axis=1) * 1.01
    x2 = np.sqrt(np.sum(np.square(blocks), axis=1) + L * 2.0 ** -1074) * 1.01
    c1, c2 = float(np.sum(core)) * 1.01, norm2(core) * 1.01
    core_bound = math.sqrt(n) * float(np.sum(fft_error_l2(n, x1, x2, c1, c2)))
    N = scipy.fft.next_fast_len(m_out, real=True)
    rest_bound = fft_error_l1(x, rest, N, m_out)
    # the additions (module docstring) cost at most 2.01 u (||x * rest|| + ||x * core||) plus those parts' errors
    mass = float(np.sum(x)) * float(np.sum(y)) * 1.01
    add_bound = 2.01 * U * (mass + core_bound + rest_bound)
    bound = core_bound + rest_bound + add_bound
    if not bound <= 0.5 * plain_bound:
        return None
    z = scipy.fft.irfft(scipy.fft.rfft(x, N) * scipy.fft.rfft(rest, N), N)[:m_out]
    parts = scipy.fft.irfft(scipy.fft.rfft(blocks, n, axis=1) * scipy.fft.rfft(core, n), n, axis=1)
    m_core = x.size + lc - 1  # length of x * core; it starts at c0, and c0 + m_core <= m_out
    acc = np.zeros((B + 1) * L)
    acc[:B * L] += parts[:, :L].ravel()
    over = np.zeros((B, L))
    over[:, :n - L] = parts[:, L:]
    acc[L:] += over.ravel()
    z[c0:c0 + m_core] += acc[:m_core]
    return z, bound

