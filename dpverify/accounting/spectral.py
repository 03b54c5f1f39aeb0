"""FFT kernels of the loss PMFs with certified round-off bounds: convolution, the k-th power
of a spectrum (the paths of :meth:`LossPMF.self_compose <dpverify.accounting.pmf.LossPMF.self_compose>`),
the atoms' spectrum and the Chernoff window of a k-fold sum.

The public names here are the building blocks :mod:`.pmf` uses and the tests check against
mpmath oracles: :data:`U`, :data:`U_EXT` (unit round-offs), :data:`DOUBLE_BUDGET`,
:data:`ATOM_TWIDDLE`, :func:`up`, :func:`fft_error_l1` (and :func:`fft_error_l2`, its L2 form; :func:`norm2`), :func:`power_spectrum` (path choice),
:func:`power`, :func:`multiplications`, :func:`power_error_l1` (a-priori bound),
:func:`spectral_power` (atoms apart, a-posteriori bound), :func:`dd_spectrum` /
:func:`dd_power` (double-word low frequencies), :func:`split_power` (extended precision,
direct low frequencies), :func:`atom_spectrum` and :func:`chernoff_window`. Imports no
method and no event: a leaf of :mod:`dpverify.accounting` beside :mod:`.double_word`.

**FFT round-off.** A convolution ``z = x * y`` computed as ``irfft(rfft(x) rfft(y))`` has, by
the Cooley--Tukey error analysis (Higham, *Accuracy and Stability of Numerical Algorithms*,
2nd ed., Thm 24.2: ``||fl(Fx) - Fx||_2 <= a ||Fx||_2`` with ``a = L eta / (1 - L eta)``,
``L = ceil(log2 N)``, ``eta = mu + gamma_4 (sqrt 2 + mu)``, twiddle error ``mu``), and with
``||X||_inf <= ||x||_1``, ``||x * y||_2 <= ||x||_2 ||y||_1`` and complex products accurate to
``3u``::

    E_W  = ||W~ - W||_2 / sqrt(N) <= (1 + 3u) (a A + a^2 sqrt(N) B) + 3u ||x||_2 ||y||_1
    ||z~ - z||_2 <= E_W + (a + u) (||x||_2 ||y||_1 + E_W),
    A = ||x||_2 ||y||_1 + ||x||_1 ||y||_2,   B = ||x||_2 ||y||_2,

and ``||z~ - z||_1 <= sqrt(M) ||z~ - z||_2`` over the ``M`` entries kept. **Assumption**: we
take ``mu = u`` (pocketfft computes its twiddles accurately) and multiply ``a`` by 2 to cover the
radix-4 and real-input passes of pocketfft (the analysis above is for radix 2); this is checked
against exact (extended-precision) convolutions in the tests.

**Self-composition** ``x^{*k}`` is ``irfft(rfft(x)^k)`` with the power by binary exponentiation
(``m`` complex products, relative error ``(1 + 3.01u)^m - 1``) and
``|X~^k - X^k| <= k |X~ - X| (||x||_1 + ||X~ - X||)^(k-1)``. It is computed in the first of
these ways whose L1 error bound is within the budget (1e-12, ``DOUBLE_BUDGET``, or the caller's,
e.g. 1e-3 delta): (1) float64 with this a-priori bound; (1b) float64 except at the few low
frequencies where ``|X_w|^(k-1)`` is not negligible, whose spectrum and power are computed in
double-word arithmetic (:func:`dd_power`; the error then no longer grows like ``k u``, which
made slack of about 1e-12 at 10^5 steps); (2) float64 with the atoms treated apart and an
a-posteriori bound (below); (3) extended precision (``numpy.longdouble``) with the a-priori
bound. The bound of the path taken is added to ``error``.

*Atoms and the a-posteriori bound* (path 2). Distributions such as the Laplace loss have a few
bins carrying most of the mass (the atoms ``a``, bins with ``>= 1/64`` of the mass, at most 8),
which make ``||x||_2``, hence the a-priori bound, large. Write ``x = a + c``, rotated (an exact
circular shift, undone on the output) so that the largest atom sits at index 0. Then

* S1. ``C~ = rfft(c)`` in float64: ``||C~ - C||_2 <= D = a sqrt(N) ||c||_2`` (full spectrum).
* S2. ``A`` is summed directly, ``A_w = sum_p a_p z^(p w)`` (``z = e^{-2 pi i / N}``), in
  extended arithmetic with twiddles that are products of two table entries computed by
  ``cos``/``sin`` of an exactly reduced argument: per entry ``|A~_w - A_w| <= (128 u_ext +
  1.01 u) ||a||_1``, and ``X~ = fl(A~ + C~)`` adds ``<= 1.01 u max|X~|``. Call the sum of these
  ``e_a``; so ``|X~_w - X_w| <= e_a + d_w`` with ``||d||_2 <= D``.
* S3. With ``b_w = (|X~_w| + e_a + D)(1 + 4u)^2 >= max(|X_w|, |X~_w|)`` (computed from the
  result) and ``W_w = b_w^(2(k-1))``, ``|X~_w^k - X_w^k| <= k (e_a + d_w) W_w^(1/2)``, so by
  Minkowski's inequality ``||X~^k - X^k||_2 <= k (e_a sqrt(sum W) + D sqrt(max W))`` (sums over
  the full Hermitian spectrum, each computed value inflated by a relative
  ``8 (k+1) (max|log b| + 2) u + (N+4) u`` for the rounding of ``exp``, ``log`` and the sums).
  Most frequencies have ``|X_w| < 1``, so ``sum W`` is far below ``N``. The power's rounding adds
  ``((1 + 3.01u)^m - 1) P``, ``P = sqrt(sum b^(2k)) >= ||X^k||_2, ||X~^k||_2``.
* S4. The inverse FFT adds ``(a + u)(P + E)``, ``E`` the total of S3; the L1 norm over the
  ``<= N`` outputs is at most the full-spectrum L2 norm (Parseval), so the bound is
  ``E + (a + u)(P + E)``.

**Assumption** (S2): ``cos``/``sin`` of ``numpy.longdouble`` are accurate to 2 ulps (glibc's
``cosl``/``sinl``); the constant 128 covers the argument reduction, the table product and the
summation of up to 8 atoms (about 100 units), and where ``longdouble`` is float64 it holds with
``u_ext = u``. The tests check the atom spectrum against mpmath and the composed result against
exact compositions.
"""
from __future__ import annotations

import math

import numpy as np
import scipy.fft

from . import double_word as dw

__all__ = ["ATOM_TWIDDLE", "DOUBLE_BUDGET", "MAX_FFT", "U", "U_EXT", "atom_spectrum",
           "chernoff_window", "dd_power", "dd_spectrum", "fft_error_l1", "fft_error_l2", "norm2", "multiplications",
           "power", "power_error_l1", "power_spectrum", "spectral_power", "split_power", "up"]

U = 2.0 ** -53  # unit round-off of float64
_TWIDDLE_ERROR = U
_SAFETY = 2.0
_EXT = np.longdouble  # extended precision where the platform has it (x86: 64-bit mantissa)
U_EXT = float(np.finfo(_EXT).eps) / 2
MAX_FFT = 2 ** 26  # longest FFT a self-composition may use
DOUBLE_BUDGET = 1e-12  # largest float64 power-FFT error bound accepted before switching to _EXT
_ATOM_FRACTION = 1 / 64  # bins with at least this share of the mass are atoms (spectrum computed directly)
_MAX_ATOMS = 8
ATOM_TWIDDLE = 128  # error of the extended atom spectrum, in units of U_EXT * ||a||_1 (docstring)


def up(x: float) -> float:
    """Round a non-negative float sum up by a few ulps (the sum may have been rounded down)."""
    return x * (1 + 4 * U) + 1e-300 if x > 0 else x


def _fft_alpha(n: int, u: float) -> float:
    """Relative L2 error bound ``a`` of one FFT of length n in arithmetic with unit round-off u."""
    L = math.ceil(math.log2(max(n, 2)))
    mu = u if u == U else u * (_TWIDDLE_ERROR / U)
    gamma4 = 4 * u / (1 - 4 * u)
    eta = mu + gamma4 * (math.sqrt(2) + mu)
    return _SAFETY * L * eta / (1 - _SAFETY * L * eta)


def power(X: np.ndarray, k: int) -> tuple[np.ndarray, int]:
    """X**k elementwise by binary exponentiation; returns (result, number of multiplications)."""
    result = None
    base = X
    mults = 0
    while k:
        if k & 1:
            if result is None:
                result = base.copy()
            else:
                result *= base
                mults += 1
        k >>= 1
        if k:
            base = base * base
            mults += 1
    return result, mults


def multiplications(k: int) -> int:
    return max(0, k.bit_length() - 1) + max(0, bin(k).count("1") - 1)


def power_error_l1(x: np.ndarray, N: int, k: int, mults: int, r: float, u: float) -> float:
    """L1 bound on ||irfft(fl(rfft(x)^k)) - x^{*k}||_1 over the N outputs (module docstring),
    for arithmetic with unit round-off ``u``."""
    a = _fft_alpha(N, u)
    x2 = norm2(x) * 1.01
    ex = a * math.sqrt(N) * x2  # ||X~ - X||_2 (and >= its sup norm)
    grow = (r + ex) ** (k - 1)
    ep = k * ex * grow  # ||X~^k - X^k||_2
    pk = math.sqrt(N) * x2 * r ** (k - 1)  # >= ||X^k||_2
    ep += ((1 + 3.01 * u) ** mults - 1) * (pk + ep)  # rounding in the powers
    e2 = ep / math.sqrt(N) + (a + u) * (pk + ep) / math.sqrt(N)
    return math.sqrt(N) * e2


def _spectrum_weights_and_fudge(logb: np.ndarray, N: int, k: int) -> tuple[np.ndarray, float]:
    """Weights of the full (Hermitian) spectrum of an rfft of length N (w = 0 and, for even N,
    w = N/2 count once; the rest twice), and the relative error factor of exp(j log b) and of the
    power sums over j <= k (see S3; generous)."""
    wt = np.full(logb.size, 2.0)
    wt[0] = 1.0
    if N % 2 == 0:
        wt[-1] = 1.0
    lmax = float(np.max(np.abs(logb[np.isfinite(logb)]))) if np.any(np.isfinite(logb)) else 0.0
    return wt, 1 + 8 * (k + 1) * (lmax + 2) * U + (N + 4) * U


def spectral_power(x: np.ndarray, N: int, k: int, mults: int, r: float,
                    budget: float = DOUBLE_BUDGET) -> tuple[np.ndarray | None, float, int]:
    """float64 ``X~^k`` of the length-N spectrum of ``x`` with the atoms' spectrum computed
    directly and the a-posteriori bound of the module docstring (steps S1--S4). Returns the
    half spectrum, the L1 bound on the irfft output (including the irfft round-off), and the
    rotation ``shift`` (``x[j]`` was placed at ``(j - shift) mod N``); no spectrum (``None``) when
    the bound exceeds the budget (the caller then uses extended precision)."""
    n = x.size
    atoms = np.flatnonzero(x >= r * _ATOM_FRACTION)
    if atoms.size > _MAX_ATOMS:
        atoms = atoms[np.argsort(x[atoms], kind="stable")[-_MAX_ATOMS:]]
    shift = int(atoms[np.argmax(x[atoms])]) if atoms.size else 0
    c = np.zeros(N)
    c[:n] = x
    c = np.roll(c, -shift)  # x[j] now at (j - shift) mod N
    a_idx = (atoms - shift) % N
    a_val = x[atoms]
    c[a_idx] = 0.0
    a1 = float(np.sum(a_val)) * (1 + 16 * U)  # >= ||a||_1
    c2 = norm2(c) * 1.01  # >= ||c||_2
    D = _fft_alpha(N, U) * math.sqrt(N) * c2  # >= ||C~ - C||_2 (full spectrum), S1
    if k * D * (0.999 * float(np.sum(x))) ** (k - 1) > budget:
        # the D term alone (at w = 0, where |X_0| = sum x) would exceed the budget: skip
        return None, math.inf, 0
    C = scipy.fft.rfft(c)
    X = C
    if atoms.size:
        X = C + atom_spectrum(a_idx, a_val, N, C.size)
    mag = np.abs(X)
    # S2: per-frequency error of X~ without the FFT part: the atoms' spectrum (ext arithmetic,
    # rounded once to float64) and the float64 addition
    e_a = (ATOM_TWIDDLE * U_EXT + 1.01 * U) * a1 + 1.01 * U * float(np.max(mag)) * (1 + 4 * U)
    bound = (mag * (1 + 4 * U) + (e_a + D)) * (1 + 4 * U)  # >= max(|X_w|, |X~_w|)
    with np.errstate(divide="ignore", under="ignore"):
        logb = np.log(bound)
    wt, fudge = _spectrum_weights_and_fudge(logb, N, k)
    with np.errstate(under="ignore"):
        w_k1 = np.exp(2 * (k - 1) * logb)  # bound^(2(k-1))
        tiny = (N + 1) * 2.0 ** -1074  # terms that underflowed
        s_k1 = float(np.sum(wt * w_k1)) * fudge + tiny
        m_k1 = float(np.max(w_k1)) * fudge + tiny
        s_k = float(np.sum(wt * w_k1 * bound * bound)) * fudge + tiny  # sum bound^(2k)
    # S3: ||X~^k - X^k||_2 <= k (e_a sqrt(sum W) + D sqrt(max W)), W = bound^(2(k-1))
    ep = k * (e_a * math.sqrt(s_k1) + D * math.sqrt(m_k1))
    pk = math.sqrt(s_k)  # >= ||X^k||_2 and ||X~^k||_2
    ep += ((1 + 3.01 * U) ** mults - 1) * pk  # rounding in the powers
    # S4: the inverse FFT, and the L1 norm over at most N outputs
    err = ep + (_fft_alpha(N, U) + U) * (pk + ep)
    if not err <= budget:
        return None, err, 0
    P, _ = power(X, k)
    return P, err, shift


_DD_MAX_FREQ = 512  # at most this many frequencies get a double-word spectrum and power
_DD_MAX_WORK = 4e6  # frequencies x entries summed in double-word arithmetic
_DD_TARGET = 1e-15  # each FFT-error term left to float64 is kept below min(this, budget / 100) (L2)


def dd_spectrum(idx: np.ndarray, val: np.ndarray, S: np.ndarray, N: int):
    """``sum_j val_j z^(idx_j w)`` (``z = e^{-2 pi i / N}``) for each ``w`` in ``S``, in double-word
    arithmetic (:mod:`dpverify.accounting.double_word`). Returns the complex double-word values and the
    error bound: ``(tw + 10 + 3.01 * 1.42 ceil(log2 n)) u^2 ||val||_1`` with ``tw`` the twiddle
    tables' bound plus 19 for their product (table entries, products by the float64 ``val`` with
    relative error <= 5u^2 per component, and the pairwise sum, whose error is relative to the
    magnitudes summed)."""
    B, T1, T2, tw_bound = dw.twiddle_tables(N)
    parts = [[], [], [], []]
    chunk = max(1, int(2e5 // max(idx.size, 1)))
    for i0 in range(0, S.size, chunk):
        ws = S[i0:i0 + chunk]
        t = np.multiply.outer(ws.astype(np.int64), idx.astype(np.int64)) % N
        a, b = np.divmod(t, B)
        tw = dw.cmul(tuple(c[a] for c in T1), tuple(c[b] for c in T2))
        v = np.broadcast_to(val, t.shape)
        zero = np.zeros(t.shape)
        re = dw.mul(tw[0], tw[1], v, zero)
        im = dw.mul(tw[2], tw[3], v, zero)
        out = dw.pairwise_sum(re[0], re[1], im[0], im[1])
        for lst, o in zip(parts, out):
            lst.append(o)
    X = tuple(np.concatenate(lst) for lst in parts)
    levels = max(1, math.ceil(math.log2(max(idx.size, 2))))
    bound = (tw_bound + 19 + 10 + 3.01 * 1.42 * levels) * dw.U2 * float(np.sum(val)) * (1 + 1e-10)
    return X, bound


def dd_power(x: np.ndarray, N: int, k: int, mults: int, r: float,
              budget: float) -> tuple[np.ndarray | None, float, bool]:
    """``X^k`` with the frequencies that the power amplifies computed in double-word arithmetic.

    The a-priori bound charges the FFT's error ``D`` at every frequency ``k`` times (it multiplies
    ``|X_w|^(k-1)``, about 1 near w = 0). Here the set ``S`` of frequencies with
    ``k D b_w^(k-1) > tau`` (``b_w >= |X_w|`` from the float64 FFT plus ``D``; ``tau = min(1e-15,
    budget / 100)``) gets its spectrum summed directly in double-word arithmetic over the entries
    that matter (the others, of L2 norm small enough that ``k D_small <= tau``, keep their float64 FFT spectrum) and its power taken
    in double-word arithmetic; the other frequencies keep the float64 FFT and power. As in S3 of
    the module docstring, with ``W_w = b_w^(2(k-1))``::

        ||X~^k - X^k||_2 <= k (e_S sqrt(sum_S W) + D_small sqrt(max_S W) + D sqrt(max_(not S) W))
                            + rounding of the powers (float64 outside S, double-word in S)
                            + rounding of the S values to complex128 (1.5 u |P_w|)

    and the inverse FFT adds ``(a + u)(P + E)`` (S4), in float64 when that keeps the total within
    ``budget``, else in extended precision. Returns ``(P, error, extended)`` (``P`` the half
    spectrum, complex128 or extended), or ``(None, inf, False)`` when ``S`` or the work is too large.
    """
    n = x.size
    xl = np.zeros(N)
    xl[:n] = x
    X = scipy.fft.rfft(xl)
    a = _fft_alpha(N, U)
    D = a * math.sqrt(N) * norm2(x) * 1.01
    mag = np.abs(X)
    b = (mag + D) * (1 + 4 * U) ** 2
    with np.errstate(divide="ignore"):
        logb = np.log(b)
    tau = min(_DD_TARGET, budget / 100)
    log_tau = min(0.0, math.log(tau / (k * D))) if D > 0 else -80.0
    S = np.flatnonzero((k - 1) * logb > log_tau)
    if S.size == 0 or S.size > _DD_MAX_FREQ:
        return None, math.inf, False
    order = np.argsort(x, kind="stable")
    csq = np.cumsum(np.square(x[order]))
    target = (tau / (k * a * math.sqrt(N) * 1.01)) ** 2
    n_small = int(np.searchsorted(csq, target, side="right"))
    big = np.sort(order[n_small:])
    if S.size * big.size > _DD_MAX_WORK:
        return None, math.inf, False
    small = np.zeros(N)
    small[order[:n_small]] = x[order[:n_small]]
    D_small = a * math.sqrt(N) * norm2(x[order[:n_small]]) * 1.01
    Cs = scipy.fft.rfft(small)[S] if n_small else np.zeros(S.size, dtype=complex)
    (rh, rl, ih, il), e_S = dd_spectrum(big, x[big], S, N)
    rh, rl = dw.add(rh, rl, Cs.real, np.zeros(S.size))
    ih, il = dw.add(ih, il, Cs.imag, np.zeros(S.size))
    magS = np.hypot(rh, ih)
    b[S] = (magS + e_S + D_small) * (1 + 4 * U) ** 2
    with np.errstate(divide="ignore"):
        logb = np.log(b)
    wt, fudge = _spectrum_weights_and_fudge(logb, N, k)
    inS = np.zeros(b.size, dtype=bool)
    inS[S] = True
    with np.errstate(under="ignore"):
        W = np.exp(2 * (k - 1) * logb)
        tiny = (N + 1) * 2.0 ** -1074
        s_S = float(np.sum(wt[S] * W[S])) * fudge + tiny
        m_S = float(np.max(W[S])) * fudge + tiny
        m_out = float(np.max(np.where(inS, 0.0, W))) * fudge + tiny
        bk2 = wt * W * b * b
        pk_S = math.sqrt(float(np.sum(bk2[S])) * fudge + tiny)
        pk_out = math.sqrt(float(np.sum(np.where(inS, 0.0, bk2))) * fudge + tiny)
    pk = math.sqrt(pk_S ** 2 + pk_out ** 2)
    ep = k * (e_S * math.sqrt(s_S) + D_small * math.sqrt(m_S) + D * math.sqrt(m_out))
    ep += ((1 + 3.01 * U) ** mults - 1) * pk_out  # float64 powers outside S
    (ph, pl, qh, ql), dd_mults = dw.cpow((rh, rl, ih, il), k)
    ep += ((1 + 32 * dw.U2) ** dd_mults - 1) * pk_S  # double-word powers in S (19 u^2 each, margin)
    err64 = ep + 1.5 * U * pk_S + (a + U) * (pk + ep + 1.5 * U * pk_S)
    P, _ = power(X, k)
    if err64 <= budget:
        P[S] = (ph + pl) + 1j * (qh + ql)
        return P, err64, False
    # extended-precision inverse: the S values rounded once to extended precision
    a_ext = _fft_alpha(N, U_EXT)
    Pe = P.astype(np.clongdouble)
    Pe[S] = (ph.astype(_EXT) + pl.astype(_EXT)) + 1j * (qh.astype(_EXT) + ql.astype(_EXT))
    ep_e = ep + 1.5 * U_EXT * pk_S
    return Pe, ep_e + (a_ext + U_EXT) * (pk + ep_e), True


_SPLIT_LOG_TAU = -80.0  # frequencies whose bound b^(k-1) exceeds e^-80 are computed directly
_SPLIT_MAX_WORK = 6e7  # entries x direct frequencies


def split_power(x: np.ndarray, N: int, k: int, mults: int, r: float,
                 beat: float) -> tuple[np.ndarray | None, float]:
    """Extended-precision ``X^k`` where the few frequencies that matter are computed directly.

    The a-priori bound charges the FFT's whole L2 error ``D`` to the frequency where
    ``|X_w|^(k-1)`` is largest (w = 0, where it is about 1), so it grows like ``k D``. But for a
    spread-out loss ``|X_w|^(k-1)`` is negligible except at a few low frequencies ``S``. Those
    are summed directly, ``X_w = sum_j x_j z^(j w mod N)``, in extended arithmetic with a table of
    twiddles ``z^t`` (each from ``cos``/``sin`` of an extended argument: error ``<= 16 u_ext``), so
    ``|X~_w - X_w| <= e_S = (log2 n + 24) u_ext ||x||_1`` there; elsewhere the FFT error
    ``d_w`` has ``||d||_2 <= D``. As in S3 of the module docstring, with
    ``W_w = b_w^(2(k-1))``, ``||X~^k - X^k||_2 <= k (e_S sqrt(sum_S W) + D sqrt(max_(not S) W))``;
    the power's rounding and the extended inverse FFT are added as in S3--S4. Returns
    ``(None, inf)`` when too many frequencies would be needed or the bound is not below ``beat``."""
    n = x.size
    xl = np.zeros(N, dtype=_EXT)
    xl[:n] = x
    X = scipy.fft.rfft(xl)
    a = _fft_alpha(N, U_EXT)
    D = a * math.sqrt(N) * norm2(x) * 1.01
    mag = np.abs(X).astype(float)
    b = (mag + D) * (1 + 4 * U) ** 2
    with np.errstate(divide="ignore"):
        logb = np.log(b)
    # outside S the FFT's error costs at most k D sqrt(max W) <= 1e-17 (W = b^(2(k-1)))
    log_tau = min(0.0, math.log(1e-17 / (k * D))) if D > 0 else _SPLIT_LOG_TAU
    S = np.flatnonzero((k - 1) * logb > log_tau)
    if S.size == 0:
        return None, math.inf
    # direct sums at the frequencies in S over the large entries only ("big"); the small ones
    # keep their FFT spectrum, whose L2 error is at most D_small (chosen so k D_small <= 1e-17)
    order = np.argsort(x)
    csq = np.cumsum(np.square(x[order]))
    target = (1e-17 / (k * a * math.sqrt(N) * 1.01)) ** 2
    n_small = int(np.searchsorted(csq, target, side="right"))
    big = np.sort(order[n_small:])
    small = np.zeros(N, dtype=_EXT)
    small[order[:n_small]] = x[order[:n_small]]
    D_small = a * math.sqrt(N) * norm2(x[order[:n_small]]) * 1.01
    if S.size * big.size > _SPLIT_MAX_WORK:
        return None, math.inf
    Cs = scipy.fft.rfft(small)
    two_pi = 2 * np.arccos(np.longdouble(-1))
    t = np.arange(N, dtype=np.int64)
    phi = two_pi * (t.astype(np.longdouble) / N)
    tw = np.empty(N, dtype=np.clongdouble)
    tw.real = np.cos(phi)
    tw.imag = -np.sin(phi)
    xe = x[big].astype(_EXT)
    chunk = max(1, int(4e6 // max(big.size, 1)))
    for i0 in range(0, S.size, chunk):
        ws = S[i0:i0 + chunk]
        idx = (np.multiply.outer(ws, big)) % N
        X[ws] = np.sum(tw[idx] * xe[None, :], axis=1) + Cs[ws]
    x1 = float(np.sum(x)) * (1 + 1e-12)
    e_S = (math.log2(max(big.size, 2)) + 24) * U_EXT * x1 * 2 + 2 * U_EXT * x1
    mag = np.abs(X).astype(float)
    inS = np.zeros(X.size, dtype=bool)
    inS[S] = True
    b = (mag + np.where(inS, e_S + D_small, D)) * (1 + 4 * U) ** 2
    with np.errstate(divide="ignore"):
        logb = np.log(b)
    wt, fudge = _spectrum_weights_and_fudge(logb, N, k)
    with np.errstate(under="ignore"):
        W = np.exp(2 * (k - 1) * logb)
        tiny = (N + 1) * 2.0 ** -1074
        s_S = float(np.sum(wt[S] * W[S])) * fudge + tiny
        m_out = float(np.max(np.where(inS, 0.0, W))) * fudge + tiny
        s_k = float(np.sum(wt * W * b * b)) * fudge + tiny
    m_S = float(np.max(W[S])) * fudge + tiny
    ep = k * (e_S * math.sqrt(s_S) + D_small * math.sqrt(m_S) + D * math.sqrt(m_out))
    pk = math.sqrt(s_k)
    ep += ((1 + 3.01 * U_EXT) ** mults - 1) * pk
    err = ep + (a + U_EXT) * (pk + ep)
    if not err < beat:
        return None, math.inf
    P, _ = power(X, k)
    return P, err


def atom_spectrum(idx: np.ndarray, val: np.ndarray, N: int, size: int) -> np.ndarray:
    """``sum_p val_p exp(-2 pi i p w / N)`` for ``w < size``, in extended arithmetic, rounded
    once to complex128. With ``w = q B + s`` each twiddle is the extended product of two
    accurately computed table entries ``z^(p B q mod N)`` and ``z^(p s mod N)`` (``z`` the root
    of unity; tables of about sqrt(size) entries, exponents reduced exactly in integers)."""
    two_pi = 2 * np.arccos(np.longdouble(-1))  # 2 pi in extended precision
    acc = np.zeros(size, dtype=np.clongdouble)
    for p, m in zip(idx.tolist(), val.tolist()):
        if p == 0:
            acc += np.longdouble(m)
            continue
        period = N // math.gcd(p, N)  # z^(p w) is periodic in w
        n = min(size, period)
        B = math.isqrt(max(n - 1, 0)) + 1
        Q = -(-n // B)
        hi = _twiddles((p * B * np.arange(Q, dtype=np.int64)) % N, N, two_pi)
        lo = _twiddles((p * np.arange(B, dtype=np.int64)) % N, N, two_pi)
        tw = np.multiply.outer(hi * np.longdouble(m), lo).ravel()[:n]
        acc += np.resize(tw, size)  # repeats the period
    return acc.astype(np.complex128)


def _twiddles(t: np.ndarray, N: int, two_pi) -> np.ndarray:
    """``exp(-2 pi i t / N)`` in extended precision for integers ``0 <= t < N``."""
    phi = two_pi * (t.astype(np.longdouble) / N)
    out = np.empty(t.size, dtype=np.clongdouble)
    out.real = np.cos(phi)
    out.imag = -np.sin(phi)
    return out


def norm2(x: np.ndarray) -> float:
    """``||x||_2`` up to summation round-off (callers inflate it); squares that underflow lose
    at most ``2^-1074`` each, which is added back."""
    return math.sqrt(float(np.sum(np.square(x))) + x.size * 2.0 ** -1074)


def chernoff_window(x: np.ndarray, offset: int, h: float, k: int, tail: float) -> tuple[int, int, float]:
    """Relative index window [s_lo, s_hi] holding the k-fold sum but for <= ``tail`` mass on each
    side, by Chernoff: P(S >= t) <= M(lam)^k e^{-lam t}. Returns the window and a certified
    upper bound on the mass above it (which wrap-around would move down, so it goes to +inf).
    The mass below the window wraps to its top, i.e. moves up: safe."""
    n = x.size
    j = np.arange(n, dtype=float)  # relative index of each leaf bin
    with np.errstate(divide="ignore"):
        logp = np.log(x)
    total_hi = k * (n - 1)
    best_hi = total_hi
    best_lo = 0
    mean = float(np.sum(x * j) / max(np.sum(x), 1e-300))
    sd = math.sqrt(max(float(np.sum(x * (j - mean) ** 2) / max(np.sum(x), 1e-300)), 1e-12))
    log_tail = math.log(tail)
    for lam in np.geomspace(1e-2, 1e2, 25) / (sd * math.sqrt(k)):
        # upper tail, in units of bins: log E[e^{lam J}] computed in float with a safety margin
        lm = _logsumexp(logp + lam * j)
        lm += 1e-12 * (1 + abs(lm)) + 4 * U * lam * n
        t = math.ceil((k * lm - log_tail) / lam)  # P(S >= t) <= tail
        if t < best_hi:
            best_hi = t
        lm_lo = _logsumexp(logp - lam * j)
        lm_lo += 1e-12 * (1 + abs(lm_lo)) + 4 * U * lam * n
        t_lo = math.floor(-(k * lm_lo - log_tail) / lam)  # P(S <= t_lo) <= tail
        if t_lo > best_lo:
            best_lo = t_lo
    s_hi = min(total_hi, max(best_hi, 0))
    s_lo = max(0, min(best_lo, s_hi))
    # mass above the window wraps down and mass below may wrap past the kept slice: both are
    # bounded by ``tail`` and sent to +inf (an over-count of at most 2 tail)
    above = (tail if s_hi < total_hi else 0.0) + (tail if s_lo > 0 else 0.0)
    return s_lo, s_hi, above


def _logsumexp(a: np.ndarray) -> float:
    c = float(np.max(a))
    if not math.isfinite(c):
        return c
    return c + math.log(float(np.sum(np.exp(a - c))))


def fft_error_l1(x: np.ndarray, y: np.ndarray, n: int, m_out: int) -> float:
    """The bound of the module docstring on ||irfft(rfft x rfft y) - x * y||_1 (kept entries)."""
    x1, y1 = float(np.sum(x)) * 1.01, float(np.sum(y)) * 1.01
    x2, y2 = norm2(x) * 1.01, norm2(y) * 1.01
    return math.sqrt(m_out) * fft_error_l2(n, x1, x2, y1, y2)


def fft_error_l2(n: int, x1, x2, y1, y2):
    """The module docstring's bound on ||irfft(rfft x rfft y) - x * y||_2 for an FFT of length n, from upper bounds
    on the norms ``x1 >= ||x||_1``, ``x2 >= ||x||_2`` (and of y); numbers or arrays (one bound per block)."""
    a = _fft_alpha(n, U)
    A = x2 * y1 + x1 * y2
    B = x2 * y2
    ew = (1 + 3 * U) * (a * A + a * a * math.sqrt(n) * B) + 3 * U * x2 * y1
    return ew + (a + U) * (x2 * y1 + ew)


def power_spectrum(x: np.ndarray, N: int, k: int, mults: int, r: float,
                   budget: float) -> tuple[np.ndarray, float, int]:
    """The half spectrum of ``x^{*k}`` (length-N FFT), its L1 error bound and the rotation
    ``shift`` (``x[j]`` was placed at ``(j - shift) mod N``), by the first path whose bound is
    within ``budget`` (module docstring): float64 with the a-priori bound; float64 with the
    amplified low frequencies in double-word arithmetic (:func:`dd_power`); the atoms'
    a-posteriori path (:func:`spectral_power`); extended precision with direct low frequencies
    (:func:`split_power`) or plainly (a-priori bound). ``r >= ||x||_1``, ``mults`` =
    :func:`multiplications` ``(k)``."""
    n = x.size
    err = power_error_l1(x, N, k, mults, r, U)
    shift = 0
    P = None
    if err <= budget:
        xl = np.zeros(N)
        xl[:n] = x
        P, _ = power(scipy.fft.rfft(xl), k)
    else:
        # the amplified low frequencies in double-word arithmetic (dd_power); then the
        # atoms' a-posteriori path; then extended precision
        P, err, _ = dd_power(x, N, k, mults, r, budget)
    if P is None:
        P, err, shift = spectral_power(x, N, k, mults, r, budget)
        if not err <= budget:
            shift = 0
            err_ext = power_error_l1(x, N, k, mults, r, U_EXT)
            P, err = split_power(x, N, k, mults, r, err_ext)
            if P is None:
                err = err_ext
                xl = np.zeros(N, dtype=_EXT)
                xl[:n] = x
                P, _ = power(scipy.fft.rfft(xl), k)
    return P, err, shift
