"""PLD self-composition with atoms: the directly summed atom spectrum, the a-posteriori FFT
round-off bound (float64 path), and the hockey-stick queries on a sliced loss grid.

Every check compares against an exact oracle (mpmath, or extended-precision direct
convolutions); nothing here is random beyond fixed seeds.
"""
import math

import mpmath as mp
import numpy as np
import pytest
import scipy.fft

from dpverify.accounting import Laplace, PLDComposition, SelfComposed
from dpverify.accounting import double_word, spectral
from dpverify.accounting.losses import privacy_loss_pmf
from dpverify.accounting.pmf import LossPMF


@pytest.mark.parametrize(
    "N,idx,val",
    [
        (1000, [0, 7, 313], [0.3, 0.25, 0.2]),  # generic exponents
        (1000, [0, 200, 500], [0.3, 0.25, 0.2]),  # short periods (gcd > 1)
        (997, [3, 996], [0.5, 0.45]),  # prime length, no atom at 0
        (100000, [0, 2000], [0.5000125, 0.45243002]),  # the Laplace k=50 shape
    ],
    ids=["generic", "periodic", "prime-length", "laplace-shape"],
)
def test_atom_spectrum_against_mpmath(N, idx, val):
    idx, val = np.array(idx), np.array(val)
    size = N // 2 + 1
    got = spectral.atom_spectrum(idx, val, N, size)
    claimed = (spectral.ATOM_TWIDDLE * spectral.U_EXT + 1.01 * spectral.U) * float(np.sum(val))
    with mp.workdps(40):
        worst = mp.mpf(0)
        for w in list(range(0, min(size, 400))) + list(range(size - 50, size)):
            exact = mp.fsum(mp.mpf(float(v)) * mp.expjpi(-2 * mp.mpf(int(p)) * w / N) for p, v in zip(idx, val))
            worst = max(worst, abs(exact - mp.mpc(complex(got[w]))))
        assert worst <= claimed


def _exact_power(x: np.ndarray, k: int) -> np.ndarray:
    """x^{*k} by direct convolutions in extended precision (error ~ k n u_ext, far below the
    bounds checked)."""
    xl = x.astype(np.longdouble)
    out = xl
    for _ in range(k - 1):
        out = np.convolve(out, xl)
    return out


def _observed_l1(z: LossPMF, exact: np.ndarray, base_offset: int) -> float:
    start = z.offset - base_offset
    seg = exact[start: start + z.probs.size]
    # only a deficit (exact mass above the computed one) can make (H) too small: computed
    # entries are deliberately inflated (relative) to cover their own rounding
    inside = float(np.sum(np.maximum(seg - z.probs, 0.0)))
    assert float(np.sum(np.maximum(z.probs - seg, 0.0))) <= z.error + 16 * spectral.U * float(np.sum(seg)) + 1e-300
    outside = float(np.sum(exact)) - float(np.sum(seg))  # mass the window moved to +inf
    return inside + outside


def test_laplace_self_composition_takes_float64_atom_path_and_bound_holds():
    leaf = privacy_loss_pmf(Laplace(2.0), value_discretisation=1e-2)  # eps0 = 0.5, ~100 bins
    k = 25
    x = leaf.probs
    r = float(np.sum(x)) * (1 + (math.log2(x.size) + 2) * spectral.U)
    s_lo, s_hi, _ = spectral.chernoff_window(x, leaf.offset, leaf.h, k, 1e-300)

    N = scipy.fft.next_fast_len(max(s_hi - s_lo + 1, x.size), real=True)
    mults = spectral.multiplications(k)
    # the a-priori float64 bound is too large, the a-posteriori one is within budget: path 2
    assert spectral.power_error_l1(x, N, k, mults, r, spectral.U) > spectral.DOUBLE_BUDGET
    P, err, shift = spectral.spectral_power(x, N, k, mults, r)
    assert P is not None
    assert err <= spectral.DOUBLE_BUDGET
    assert shift != 0  # the rotation is exercised (largest atom is not the first bin)
    z = leaf.self_compose(k, 1e-300)
    observed = _observed_l1(z, _exact_power(x, k), k * leaf.offset)
    assert observed <= z.error + z.inf_mass


def test_two_atom_composition_against_mpmath_binomial():
    # a pure two-atom loss (randomized response shape): the k-fold law is binomial
    m, k = 37, 60
    a, b = 0.62, 0.38
    x = np.zeros(m + 1)
    x[0], x[m] = b, a
    pmf = LossPMF(0.01, -5, x, 0.0, 0.0)
    z = pmf.self_compose(k, 1e-300)
    with mp.workdps(40):
        exact = [mp.mpf(0)] * (k * m + 1)
        for j in range(k + 1):
            exact[j * m] = mp.binomial(k, j) * mp.mpf(a) ** j * mp.mpf(b) ** (k - j)
        start = z.offset - k * pmf.offset
        observed = mp.fsum(abs(exact[start + i] - mp.mpf(float(z.probs[i]))) for i in range(z.probs.size))
        observed += mp.fsum(exact[:start]) + mp.fsum(exact[start + z.probs.size:])
        assert observed <= z.error + z.inf_mass
        assert z.error < 1e-11


def test_benchmark_laplace_leaf_stays_in_float64():
    # k-fold Laplace, b = 10, k = 50 (the problem): the a-posteriori bound is within
    # budget, so no extended-precision FFT is needed; the bound is part of the result's error
    m = PLDComposition()
    plan = m.plan(SelfComposed(Laplace(10.0), 50))
    h = m.grid_step(plan)
    leaf = privacy_loss_pmf(Laplace(10.0), value_discretisation=h)
    x = leaf.probs
    r = float(np.sum(x)) * (1 + (math.log2(x.size) + 2) * spectral.U)
    s_lo, s_hi, _ = spectral.chernoff_window(x, leaf.offset, h, 50, m.tail_mass)

    N = scipy.fft.next_fast_len(max(s_hi - s_lo + 1, x.size), real=True)
    P, err, _ = spectral.spectral_power(x, N, 50, spectral.multiplications(50), r)
    assert P is not None
    assert 0 < err <= spectral.DOUBLE_BUDGET
    z = leaf.self_compose(50, m.tail_mass)
    assert z.error >= err


def _delta_reference(pmf: LossPMF, eps: float) -> float:
    """delta() as a full-mask computation over every grid point (the definition)."""
    eps = eps - pmf.shift
    l = pmf.losses
    mask = l > eps
    s = float(np.sum(pmf.probs[mask] * -np.expm1(eps - l[mask]))) if np.any(mask) else 0.0
    lmax = float(np.max(np.abs(l[mask]))) if np.any(mask) else 0.0
    # the mass at and above eps: the bins above it and the last one at or below it
    first = int(np.argmax(mask)) if np.any(mask) else l.size
    m_above = float(np.sum(pmf.probs[max(first - 1, 0):])) if l.size else 0.0
    n = l.size
    slack = ((math.log2(max(n, 2)) + 40) * spectral.U * s
             + (8 + 4 * (abs(eps) + lmax + pmf.h)) * spectral.U * m_above * (1 + (n + 2) * spectral.U))
    return min(1.0, spectral.up(pmf.inf_mass + s + pmf.error + slack))


def test_delta_on_sliced_grid_matches_full_definition():
    rng = np.random.default_rng(3)
    pmf = LossPMF(1e-3, -400, rng.random(1500) / 750, 1e-9, 1e-14, 3e-15)
    grid = [(pmf.offset + j) * pmf.h for j in (0, 1, 399, 400, 401, 1098, 1099)]
    for eps in grid + [0.0, 0.123456, 1.0995, 1.2, 5.0, -0.3]:
        assert pmf.delta(eps) == _delta_reference(pmf, eps)


@pytest.mark.parametrize("delta", [1e-3, 1e-6, 1e-9])
def test_epsilon_is_certified_and_nearly_smallest(delta):
    z = PLDComposition().composed_pmfs(SelfComposed(Laplace(10.0), 10))[0]
    eps = z.epsilon(delta)
    assert z.delta(eps) <= delta
    assert z.delta(eps - 1e-7) > delta


@pytest.mark.parametrize("budget", [1.0, None, 1e-30], ids=["float64-a-priori", "float64-atoms", "extended"])
def test_every_self_composition_path_is_certified(monkeypatch, budget):
    # the same Laplace self-composition through each of the three paths of self_compose
    if budget is not None:
        monkeypatch.setattr(spectral, "DOUBLE_BUDGET", budget)
    leaf = privacy_loss_pmf(Laplace(2.0), value_discretisation=1e-2)
    k = 25
    z = leaf.self_compose(k, 1e-300)
    observed = _observed_l1(z, _exact_power(leaf.probs, k), k * leaf.offset)
    assert observed <= z.error + z.inf_mass


@pytest.mark.parametrize("sigma", [0.03, 0.04, 1 / math.sqrt(1000)])
def test_large_loss_gaussian_certificate_is_finite_and_above_exact(sigma):
    from dpverify.accounting import Gaussian

    # losses in the hundreds: the quadrature remainder used to be bounded by e^{a} e^{-d^2/4}
    # (~1e44); with the Hermite envelope it is negligible, and epsilon(1e-10) is finite, >= exact
    from dpverify.accounting import gdp_epsilon

    m = PLDComposition(value_discretisation=1e-2)
    pmf = m.composed_pmfs(Gaussian(sigma))[0]
    assert pmf.error < 1e-20
    exact = gdp_epsilon(1 / sigma, 1e-10)
    eps = m.epsilon(Gaussian(sigma), 1e-10)
    assert exact <= eps <= exact * (1 + 1e-4)


def test_error_terms_do_not_grow_with_count_for_relative_errors():
    from dpverify.accounting import Gaussian

    # per-bin arithmetic errors inflate the bins; they no longer add k * 1e-14 to delta
    leaf = privacy_loss_pmf(Gaussian(2.0), value_discretisation=1e-3)
    z = leaf.self_compose(500, 1e-15)
    assert leaf.error < 1e-20
    assert z.error < 1e-12
    assert z.shift == pytest.approx(500 * leaf.shift)


def test_double_word_spectrum_against_mpmath():
    rng = np.random.default_rng(11)
    N = 1000
    idx = np.sort(rng.choice(N, 300, replace=False))
    val = rng.random(300) / 150
    S = np.array([0, 1, 2, 3, 17, 250, 499, 500])
    (rh, rl, ih, il), bound = spectral.dd_spectrum(idx, val, S, N)
    assert bound < 1e-27
    with mp.workdps(40):
        for i, w in enumerate(S):
            exact = mp.fsum(mp.mpf(float(v)) * mp.expjpi(-2 * mp.mpf(int(p)) * int(w) / N) for p, v in zip(idx, val))
            got = mp.mpc(mp.mpf(float(rh[i])) + mp.mpf(float(rl[i])), mp.mpf(float(ih[i])) + mp.mpf(float(il[i])))
            assert abs(got - exact) <= bound
        # a lying twiddle table (one entry off by 1e-22) is caught by the same check
        B, T1, T2, tb = double_word.twiddle_tables(N)
        saved = float(T2[1][3])  # the low word of Re z^3
        try:
            T2[1][3] = saved + 1e-22
            (rh2, rl2, ih2, il2), _ = spectral.dd_spectrum(idx, val, S, N)
            worst = max(abs(mp.mpf(float(rh2[i])) + mp.mpf(float(rl2[i])) - mp.mpf(float(rh[i])) - mp.mpf(float(rl[i])))
                        for i in range(S.size))
            assert worst > bound
        finally:
            T2[1][3] = saved


def test_double_word_power_path_is_taken_and_certified(monkeypatch):
    from dpverify import NeighbourRelation
    from dpverify.accounting import Gaussian, PoissonSubsampled

    calls = []
    real = spectral.dd_power

    def spy(*a, **kw):
        out = real(*a, **kw)
        calls.append(out[1])
        return out

    monkeypatch.setattr(spectral, "dd_power", spy)
    ev = PoissonSubsampled(Gaussian(2.0, relation=NeighbourRelation.ADD_REMOVE_ONE), 0.1)
    leaf = privacy_loss_pmf(ev, value_discretisation=1e-2, tail_mass=1e-30)
    k = 30
    z = leaf.self_compose(k, 1e-300, budget=1e-20)
    assert calls and math.isfinite(calls[0])  # the double-word path answered
    assert z.error < 1e-15  # the a-priori float64 bound here is ~1e-9
    assert spectral.power_error_l1(leaf.probs, 4096, k, spectral.multiplications(k), 1.0, spectral.U) > 1e-12
    observed = _observed_l1(z, _exact_power(leaf.probs, k), k * leaf.offset)
    assert observed <= z.error + z.inf_mass
