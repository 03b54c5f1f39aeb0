"""Vectorised double-word ("double-double") arithmetic on float64 arrays (internal).

A value is a pair ``(hi, lo)`` of float64 arrays with ``|lo| <= u |hi|`` (u = 2^-53), about 106
significant bits. Used by :func:`dpverify.accounting.spectral.dd_power` for the few frequencies of a
privacy-loss spectrum that a k-fold power amplifies k times.

Error bounds (Joldes--Muller--Popescu 2017, "Tight and rigorous error bounds for basic building
blocks of double-word arithmetic", ACM TOMS 44(2)), for round-to-nearest float64 without
overflow or underflow:

* :func:`add` (their Algorithm 6, "AccurateDWPlusDW"): relative error ``<= 3u^2 / (1 - 4u)``
  of the exact sum (so a pairwise sum of n terms errs by ``<= 3.01 u^2 ceil(log2 n)`` times the
  sum of their magnitudes);
* :func:`mul` (their Algorithm 12, "DWTimesDW3", written with Dekker's exact product since numpy
  has no fused multiply-add): relative error ``<= 5u^2``; :func:`mul` of a double-word by a
  float64 is a special case of it;
* complex products (:func:`cmul`) combine two :func:`mul` and one :func:`add` per component:
  ``|error| <= 19 u^2 |a| |b|``.

The callers take these constants with a margin (see ``spectral.dd_power``); the tests check the spectra and
powers against mpmath at 40 digits.
"""
from __future__ import annotations

import math
from functools import lru_cache

import numpy as np

U2 = 2.0 ** -106  # u^2
_SPLITTER = 134217729.0  # 2^27 + 1 (Dekker)


def two_sum(a, b):
    s = a + b
    bp = s - a
    return s, (a - (s - bp)) + (b - bp)


def fast_two_sum(a, b):
    s = a + b
    return s, b - (s - a)


def _split(a):
    c = _SPLITTER * a
    hi = c - (c - a)
    return hi, a - hi


def two_prod(a, b):
    p = a * b
    ah, al = _split(a)
    bh, bl = _split(b)
    return p, ((ah * bh - p) + ah * bl + al * bh) + al * bl


def add(ah, al, bh, bl):
    s, t = two_sum(ah, bh)
    u_, v = two_sum(al, bl)
    t = t + u_
    s, t = fast_two_sum(s, t)
    t = t + v
    return fast_two_sum(s, t)


def mul(ah, al, bh, bl):
    p, e = two_prod(ah, bh)
    t = al * bl
    t = ah * bl + t
    t = al * bh + t
    e = e + t
    return fast_two_sum(p, e)


def cmul(a, b):
    """Complex double-word product; a complex double-word is ``(re_hi, re_lo, im_hi, im_lo)``."""
    arh, arl, aih, ail = a
    brh, brl, bih, bil = b
    rr = mul(arh, arl, brh, brl)
    ii = mul(aih, ail, bih, bil)
    ri = mul(arh, arl, bih, bil)
    ir = mul(aih, ail, brh, brl)
    re = add(rr[0], rr[1], -ii[0], -ii[1])
    im = add(ri[0], ri[1], ir[0], ir[1])
    return re[0], re[1], im[0], im[1]


def cpow(a, k: int):
    """``a ** k`` by binary exponentiation (complex double-word); returns the value and the number
    of complex products."""
    result = None
    base = a
    mults = 0
    while k:
        if k & 1:
            if result is None:
                result = base
            else:
                result = cmul(result, base)
                mults += 1
        k >>= 1
        if k:
            base = cmul(base, base)
            mults += 1
    return result, mults


def pairwise_sum(re_h, re_l, im_h, im_l):
    """Sum along the last axis by pairwise :func:`add` (ceil(log2 n) levels)."""
    while re_h.shape[-1] > 1:
        m = re_h.shape[-1]
        if m % 2:
            pad = [(0, 0)] * (re_h.ndim - 1) + [(0, 1)]
            re_h, re_l, im_h, im_l = (np.pad(z, pad) for z in (re_h, re_l, im_h, im_l))
        re_h, re_l = add(re_h[..., 0::2], re_l[..., 0::2], re_h[..., 1::2], re_l[..., 1::2])
        im_h, im_l = add(im_h[..., 0::2], im_l[..., 0::2], im_h[..., 1::2], im_l[..., 1::2])
    return re_h[..., 0], re_l[..., 0], im_h[..., 0], im_l[..., 0]


def _dd_of(x) -> tuple[float, float]:
    hi = float(x)
    return hi, float(x - hi)


@lru_cache(maxsize=8)
def twiddle_tables(N: int):
    """Tables for ``z^t = exp(-2 pi i t / N)``: ``z^t = T1[t // B] * T2[t % B]``. The two bases
    powers ``z^(2^i)`` come from mpmath at 40 digits (each part rounded: error <= 2u^2 each); the
    tables are built by doubling (``T[2^i + m] = z^(2^i) T[m]``), so an entry is a product of at
    most ``L = ceil(log2 size)`` such powers and errs by at most ``L (2 + 19) u^2`` (all have
    modulus 1).
    Returns ``(B, T1, T2, bound)`` with ``bound`` the larger of the two entries' error bounds in
    units of u^2."""
    import mpmath

    B = math.isqrt(max(N - 1, 0)) + 1
    A = -(-N // B)
    out = []
    with mpmath.workdps(40):
        for step, size in ((B, A), (1, B)):
            z = mpmath.expjpi(-2 * mpmath.mpf(step) / N)
            zr, zi = _dd_of(z.real), _dd_of(z.imag)
            re_h = np.ones(size)
            re_l = np.zeros(size)
            im_h = np.zeros(size)
            im_l = np.zeros(size)
            if size > 1:
                re_h[1], re_l[1], im_h[1], im_l[1] = zr[0], zr[1], zi[0], zi[1]
            p = 1  # entries [0, 2p) are filled
            while 2 * p < size:
                # T[2p + m] = z^(2p) T[m]; z^(2p) straight from mpmath (each base errs <= 2u^2)
                zb = mpmath.expjpi(-2 * mpmath.mpf(step * 2 * p) / N)
                br, bi = _dd_of(zb.real), _dd_of(zb.imag)
                hi = min(size, 4 * p)
                m = np.arange(hi - 2 * p)
                base = tuple(np.full(m.shape, c) for c in (br[0], br[1], bi[0], bi[1]))
                prod = cmul(base, (re_h[m], re_l[m], im_h[m], im_l[m]))
                re_h[2 * p:hi], re_l[2 * p:hi], im_h[2 * p:hi], im_l[2 * p:hi] = prod
                p *= 2
            out.append((re_h, re_l, im_h, im_l))
    levels = max(1, math.ceil(math.log2(max(A, B, 2))))
    bound = 21.0 * (levels + 1)
    return B, out[0], out[1], bound
