"""The shared lemma library (see docs/proofs.md). Each lemma cites a paper label or a standard reference.

``LEMMAS`` maps lemma IDs to :class:`~dpverify.symbolic.lemma.Lemma` objects; ``get_lemma(id)``
returns one. Expressions that derivations compose (thresholds, noise scales) are module-level
sympy expressions, so a derivation uses the same object the lemma check uses.
"""
from __future__ import annotations

import functools

import mpmath
import numpy as np
import sympy as sp

from ..errors import InvalidArgument
from .lemma import Lemma, Range, Strategy
from .numeric import optimal_composition_delta
from .profiles import Phi, gaussian_profile_expr

__all__ = ["LEMMAS", "get_lemma", "check_lemma", "S", "Phi", "gaussian_profile_expr",
           "LM_THRESHOLD", "GAUSS_TAIL_RADIUS", "KENTHAPADI_SIGMA", "KENTHAPADI_SIGMA_LITERAL",
           "CLASSICAL_SIGMA", "DRV_EPSILON", "EXP_LINEAR_BOUND", "LAPLACE_SCALE", "CAPACITY_BITS",
           "RANK_TWO_NUCLEAR", "COVARIANCE_L1_BOUND"]


class _Symbols:
    """The library's symbols, with the assumptions the lemmas need."""

    epsilon = sp.Symbol("epsilon", positive=True)
    delta = sp.Symbol("delta", positive=True)
    sensitivity = sp.Symbol("sensitivity", positive=True)
    sigma = sp.Symbol("sigma", positive=True)
    x = sp.Symbol("x", positive=True)
    t = sp.Symbol("t", positive=True)
    u = sp.Symbol("u", real=True)
    k = sp.Symbol("k", positive=True, integer=True)
    K = sp.Symbol("K", positive=True, integer=True)
    b = sp.Symbol("b", positive=True)
    P = sp.Symbol("P", positive=True)
    n = sp.Symbol("n", positive=True, integer=True)
    d = sp.Symbol("d", positive=True, integer=True)
    m = sp.Symbol("m", positive=True, integer=True)
    theta = sp.Symbol("theta", positive=True)
    delta_prime = sp.Symbol("delta_prime", positive=True)
    epsilon_total = sp.Symbol("epsilon_total", positive=True)
    seed = sp.Symbol("seed", nonnegative=True, integer=True)


S = _Symbols


def _eq(a, b):
    """An unevaluated equation (sympy would turn a trivially true one into ``True``)."""
    return sp.Eq(a, b, evaluate=False)


def _le(a, b):
    """An unevaluated ``a <= b``."""
    return sp.Le(a, b, evaluate=False)


e, dl, D, s = S.epsilon, S.delta, S.sensitivity, S.sigma

#: Laurent & Massart (2000) Lemma 1 threshold: P(chi2_k >= k + 2 sqrt(k x) + 2 x) <= exp(-x).
LM_THRESHOLD = S.k + 2 * sp.sqrt(S.k * S.x) + 2 * S.x
#: Gaussian tail radius (in units of sigma) at level delta: sqrt(2 log(1/delta)).
GAUSS_TAIL_RADIUS = sp.sqrt(2 * sp.log(1 / dl))
#: Kenthapadi et al. (2013) Lemma 1 (tu-projections Lemma 2), reading log(1/(2 delta)).
KENTHAPADI_SIGMA = D * sp.sqrt(2 * (sp.log(1 / (2 * dl)) + e)) / e
#: The same with the literal precedence of ``log(1/2δ)``: log((1/2) delta).
KENTHAPADI_SIGMA_LITERAL = D * sp.sqrt(2 * (sp.log(dl / 2) + e)) / e
#: Classical Gaussian mechanism (Dwork & Roth 2014, Thm A.1; lecture21-dp Lemma 6): c D / eps.
CLASSICAL_SIGMA = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / dl)) * D / e
#: Dwork, Rothblum & Vadhan (2010) advanced composition (tu-projections Lemma 3), k-fold of (eps, .)-DP.
DRV_EPSILON = sp.sqrt(2 * S.k * sp.log(1 / S.delta_prime)) * e + S.k * e * (sp.exp(e) - 1)
#: e^x <= 1 + 2x on (0, 1) (used in tu-projections Theorem 2).
EXP_LINEAR_BOUND = 1 + 2 * S.x
#: Laplace mechanism scale b = Delta_1 / eps.
LAPLACE_SCALE = D / e
#: Capacity of the real Gaussian channel with input power P and noise variance sigma^2, in bits.
CAPACITY_BITS = sp.log(1 + S.P / s**2, 2) / 2
#: Nuclear norm of v v^T - w w^T with a = |v|^2, b = |w|^2, c = v.w: sqrt((a + b)^2 - 4 c^2).
_a, _b, _c = sp.symbols("a b c", real=True)
RANK_TWO_NUCLEAR = sp.sqrt((_a + _b) ** 2 - 4 * _c**2)
#: l1 sensitivity bound of the covariance (1/n) D D^T for unit-norm columns (jiang-wishart Lemma 2).
COVARIANCE_L1_BOUND = 2 * S.d / S.n


def _von_neumann_eval(vals):
    seed, dim = int(vals["seed"]), int(vals["d"])
    rng = np.random.default_rng(seed)
    A = mpmath.matrix(rng.standard_normal((dim, dim)).tolist())
    B = mpmath.matrix(rng.standard_normal((dim, dim)).tolist())
    if seed % 2:  # symmetric positive semidefinite A, symmetric B: the case used in jiang-wishart
        A = A * A.T
        B = B + B.T
    tr = sum(((A * B)[i, i] for i in range(dim)), mpmath.mpf(0))
    sa = sorted(mpmath.svd_r(A, compute_uv=False), reverse=True)
    sb = sorted(mpmath.svd_r(B, compute_uv=False), reverse=True)
    return abs(tr), sum((x * y for x, y in zip(sa, sb)), mpmath.mpf(0))


def _drv_eval(vals):
    k, eps, dp = int(vals["k"]), vals["epsilon"], vals["delta_prime"]
    eps_total = mpmath.sqrt(2 * k * mpmath.log(1 / dp)) * eps + k * eps * (mpmath.exp(eps) - 1)
    return optimal_composition_delta(eps_total, eps, k), dp


def _pinsker_eval(vals):
    p, q = vals["p"], vals["q"]
    kl = p * mpmath.log(p / q) + (1 - p) * mpmath.log((1 - p) / (1 - q))
    return 2 * (p - q) ** 2, kl


def _normal_term_mgf(t, sigma, z):
    """E exp(t z P) for P ~ N(0, sigma^2), computed by sympy.stats (an integral against the normal density)."""
    from sympy.stats import E, Normal
    return sp.simplify(E(sp.exp(t * z * Normal("P", 0, sigma))))


def _chi_square(k, t):
    """The chi-square survival function and density with k degrees of freedom at t (sympy expressions)."""
    chi_sf = sp.uppergamma(k / 2, t / 2) / sp.gamma(k / 2)
    chi_pdf = t ** (k / 2 - 1) * sp.exp(-t / 2) / (2 ** (k / 2) * sp.gamma(k / 2))
    return chi_sf, chi_pdf


def _tails() -> list[Lemma]:
    """Chi-square, Gaussian and Laplace tails."""
    out: list[Lemma] = []
    add = out.append
    k, x, t = S.k, S.x, S.t
    chi_sf, chi_pdf = _chi_square(k, t)
    add(Lemma(
        id="std/chi-square-sf", source="standard (chi-square distribution)",
        statement="d/dt [Gamma(k/2, t/2)/Gamma(k/2)] = -f_k(t): the exact chi-square tail is the regularised "
                  "upper incomplete gamma function",
        symbols=(k, t), conclusion=_eq(sp.diff(chi_sf, t), -chi_pdf), strategy=Strategy.IDENTITY,
        box={"k": Range(1, 12, "int"), "t": Range(0.01, 50, "log")}))
    add(Lemma(
        id="std/laurent-massart", source="Laurent & Massart (2000) Lemma 1; tu-projections Lemma 1",
        statement="P(chi2_k >= k + 2 sqrt(k x) + 2 x) <= exp(-x)",
        symbols=(k, x), conclusion=_le(chi_sf.subs(t, LM_THRESHOLD), sp.exp(-x)),
        strategy=Strategy.MONOTONE, box={"k": Range(1, 24, "int"), "x": Range(1e-4, 60, "log")}))
    add(Lemma(
        id="std/gaussian-tail", source="standard Gaussian tail; tu-projections Lemma 4",
        statement="X ~ N(0, s^2): P(|X| > s sqrt(2 log(1/delta))) = erfc(sqrt(log(1/delta))) <= delta, 0 < delta < 1",
        symbols=(dl,), hypotheses=(sp.Lt(dl, 1),),
        conclusion=_le(sp.erfc(sp.sqrt(sp.log(1 / dl))), dl),
        strategy=Strategy.MONOTONE, box={"delta": Range(1e-300, 0.995, "log")}))
    u = S.u
    add(Lemma(
        id="std/laplace-tail", source="standard Laplace tail; lecture21-dp Lemma 3",
        statement="X ~ Laplace(0, b): P(|X| >= t) = 2 int_t^inf e^{-u/b}/(2b) du = exp(-t/b)",
        symbols=(t, S.b),
        conclusion=_eq(2 * sp.integrate(sp.exp(-u / S.b) / (2 * S.b), (u, t, sp.oo)), sp.exp(-t / S.b)),
        strategy=Strategy.IDENTITY, box={"t": Range(0.01, 30), "b": Range(0.1, 10)}))
    return out


def _gaussian_mechanism() -> list[Lemma]:
    """The Gaussian mechanism: its privacy-loss boundary, exact profile, monotonicity, and two calibrations."""
    out: list[Lemma] = []
    add = out.append
    u = S.u
    # Gaussian mechanism: exact profile and its monotonicity
    xs = D / 2 - e * s**2 / D  # boundary of the privacy-loss event {L > eps}
    loss = (-(u**2) + (u - D) ** 2) / (2 * s**2)  # log N(0,s^2)(u) - log N(D,s^2)(u)
    add(Lemma(
        id="std/gaussian-loss-boundary", source="Balle & Wang (2018) Thm 8 (derivation)",
        statement="log N(0,s^2)(u) - log N(D,s^2)(u) = eps exactly at u* = D/2 - eps s^2/D (and decreases in u)",
        symbols=(e, D, s), conclusion=_eq(loss.subs(u, xs), e), strategy=Strategy.IDENTITY,
        box={"epsilon": Range(0.01, 10), "sensitivity": Range(0.1, 5), "sigma": Range(0.1, 5)}))
    add(Lemma(
        id="std/gaussian-profile", source="Balle & Wang (2018) Thm 8",
        statement="delta(eps) = P(X < u*) - e^eps P(X + D < u*) = Phi(D/(2s) - eps s/D) - e^eps Phi(-D/(2s) - eps s/D)",
        symbols=(e, D, s),
        conclusion=_eq(Phi(xs / s) - sp.exp(e) * Phi((xs - D) / s), gaussian_profile_expr(e, D, s)),
        strategy=Strategy.IDENTITY,
        box={"epsilon": Range(0.01, 10), "sensitivity": Range(0.1, 5), "sigma": Range(0.1, 5)}))
    prof = gaussian_profile_expr(e, D, s)
    add(Lemma(
        id="std/gaussian-profile-monotone-epsilon", source="Balle & Wang (2018) Thm 8",
        statement="d delta/d eps = -e^eps Phi(-D/(2s) - eps s/D) <= 0",
        symbols=(e, D, s), conclusion=_eq(sp.diff(prof, e), -sp.exp(e) * Phi(-D / (2 * s) - e * s / D)),
        strategy=Strategy.IDENTITY,
        box={"epsilon": Range(0.01, 10), "sensitivity": Range(0.1, 5), "sigma": Range(0.1, 5)}))
    add(Lemma(
        id="std/gaussian-profile-monotone-sensitivity", source="Balle & Wang (2018) Thm 8",
        statement="d delta/d D = phi(D/(2s) - eps s/D) / s >= 0 (so delta depends on D/s and grows with it)",
        symbols=(e, D, s),
        conclusion=_eq(sp.diff(prof, D),
                         sp.exp(-(D / (2 * s) - e * s / D) ** 2 / 2) / (sp.sqrt(2 * sp.pi) * s)),
        strategy=Strategy.IDENTITY,
        box={"epsilon": Range(0.01, 10), "sensitivity": Range(0.1, 5), "sigma": Range(0.1, 5)}))
    add(Lemma(
        id="std/gaussian-mechanism-classical", source="Dwork & Roth (2014) Thm A.1 (needs eps < 1); lecture21-dp Lemma 6",
        statement="sigma = sqrt(2 log(1.25/delta)) D/eps gives delta_BW(eps) <= delta for 0 < eps <= 1",
        symbols=(e, dl), hypotheses=(sp.Le(e, 1),),
        conclusion=_le(gaussian_profile_expr(e, 1, CLASSICAL_SIGMA.subs(D, 1)), dl),
        strategy=Strategy.PROFILE, profile={"epsilon": e, "sigma": CLASSICAL_SIGMA.subs(D, 1)},
        box={"epsilon": Range(1e-3, 1.0, "log"), "delta": Range(1e-12, 0.5, "log")}))
    add(Lemma(
        id="std/gaussian-mechanism-kenthapadi", source="Kenthapadi et al. (2013) Lemma 1; tu-projections Lemma 2",
        statement="sigma^2 = 2 D^2 (log(1/(2 delta)) + eps)/eps^2 gives delta_BW(eps) <= delta for delta < 1/2",
        symbols=(e, dl), hypotheses=(sp.Lt(dl, sp.Rational(1, 2)),),
        conclusion=_le(gaussian_profile_expr(e, 1, KENTHAPADI_SIGMA.subs(D, 1)), dl),
        strategy=Strategy.PROFILE, profile={"epsilon": e, "sigma": KENTHAPADI_SIGMA.subs(D, 1)}, max_cells=20000,
        box={"epsilon": Range(1e-3, 30, "log"), "delta": Range(1e-12, 0.49, "log")}))
    return out


def _laplace_and_composition() -> list[Lemma]:
    """The Laplace mechanism, post-processing, the triangle inequality, composition, e^x <= 1 + 2x."""
    out: list[Lemma] = []
    add = out.append
    k, x = S.k, S.x
    # Laplace mechanism: the privacy loss (eps/b)(|y - f'| - |y - f|) <= eps |f - f'| / b (triangle inequality)
    y, f1, f2 = sp.symbols("y f f_prime", real=True)
    p_, q_, r_ = sp.symbols("p q r", nonnegative=True)
    orders = []
    for perm in ((y, f1, f2), (y, f2, f1), (f1, y, f2), (f2, y, f1), (f1, f2, y), (f2, f1, y)):
        lo_, mid_, hi_ = perm  # lo <= mid <= hi written with gaps p, q >= 0 from a free base r
        orders.append({lo_: r_, mid_: r_ + p_, hi_: r_ + p_ + q_})
    add(Lemma(
        id="std/laplace-mechanism", source="Dwork et al. (2006); lecture21-dp Lemmas 1-2",
        statement="|y - f'| - |y - f| <= |f - f'| (so the Laplace loss (eps/b)(|y-f'| - |y-f|) <= eps when b = D/eps)",
        symbols=(y, f1, f2), conclusion=_le(sp.Abs(y - f2) - sp.Abs(y - f1), sp.Abs(f1 - f2)),
        strategy=Strategy.CASES, cases=tuple(orders),
        box={"y": Range(-5, 5), "f": Range(-5, 5), "f_prime": Range(-5, 5)}))
    a_, b_ = sp.symbols("a b", real=True)
    s_, t_, w_ = sp.symbols("s t w", nonnegative=True)
    pos_cases = ({a_: s_, b_: t_}, {a_: t_ + w_, b_: -t_}, {a_: s_, b_: -s_ - w_},
                 {a_: -t_, b_: t_ + w_}, {a_: -s_ - w_, b_: s_}, {a_: -s_, b_: -t_})
    add(Lemma(
        id="std/positive-part-subadditive", source="standard; used for post-processing (lecture21-dp Lemma 4)",
        statement="max(0, a + b) <= max(0, a) + max(0, b): the hockey-stick divergence cannot grow under merging outcomes",
        symbols=(a_, b_), conclusion=_le(sp.Max(0, a_ + b_), sp.Max(0, a_) + sp.Max(0, b_)),
        strategy=Strategy.CASES, cases=pos_cases, box={"a": Range(-5, 5), "b": Range(-5, 5)}))
    add(Lemma(
        id="std/triangle-inequality-reals", source="standard; zhou-compression Lemma 4.4, Remark 4.7",
        statement="|a + b| <= |a| + |b| for real a, b (case split over the signs and the order of |a|, |b|)",
        symbols=(a_, b_), conclusion=_le(sp.Abs(a_ + b_), sp.Abs(a_) + sp.Abs(b_)),
        strategy=Strategy.CASES, cases=pos_cases, box={"a": Range(-5, 5), "b": Range(-5, 5)}))
    e1, e2, l1, l2 = sp.symbols("epsilon1 epsilon2 slack1 slack2", nonnegative=True)
    add(Lemma(
        id="std/basic-composition", source="Dwork et al. (2006); lecture21-dp Lemma 5",
        statement="independent mechanisms: log-ratios add; L1 = eps1 - slack1 <= eps1, L2 = eps2 - slack2 <= eps2 "
                  "=> L1 + L2 <= eps1 + eps2",
        symbols=(e1, e2, l1, l2), conclusion=_le((e1 - l1) + (e2 - l2), e1 + e2),
        strategy=Strategy.NONNEG_TERMS,
        box={"epsilon1": Range(0, 5), "epsilon2": Range(0, 5), "slack1": Range(0, 5), "slack2": Range(0, 5)}))
    add(Lemma(
        id="std/advanced-composition", source="Dwork, Rothblum & Vadhan (2010) Thm III.3; tu-projections Lemma 3",
        statement="k-fold composition of (eps, 0)-DP mechanisms is (eps', delta')-DP with eps' = sqrt(2k log(1/delta')) eps "
                  "+ k eps (e^eps - 1): optimal-composition delta(eps') <= delta'",
        symbols=(k, e, S.delta_prime),
        conclusion=_le(sp.Function("delta_opt")(k, e, S.delta_prime), S.delta_prime),
        strategy=Strategy.SAMPLED, evaluate=_drv_eval, samples=150,
        box={"k": Range(1, 60, "int"), "epsilon": Range(1e-3, 2.0, "log"), "delta_prime": Range(1e-12, 0.5, "log")},
        note="the exact delta uses the optimal composition theorem (Kairouz, Oh & Viswanath 2015, Thm 3.3); "
             "the (k delta) part for delta > 0 adds by the same theorem"))
    add(Lemma(
        id="std/exp-le-1-plus-2x", source="standard; tu-projections Theorem 2",
        statement="e^x <= 1 + 2x for 0 <= x <= 1",
        symbols=(x,), hypotheses=(sp.Le(x, 1),), conclusion=_le(sp.exp(x), EXP_LINEAR_BOUND),
        strategy=Strategy.CONCAVE, var=x, interval=(0, 1), box={"x": Range(1e-9, 1.0)}))
    return out


def _information() -> list[Lemma]:
    """Information theory: the Gaussian channel capacity, binary Pinsker, mutual information to TV."""
    out: list[Lemma] = []
    add = out.append
    add(Lemma(
        id="std/gaussian-channel-capacity", source="Cover & Thomas (2006) Thm 9.1.1; showkatbakhsh-regression (19), (23)",
        statement="(1/2) log2(2 pi e (P + s^2)) - (1/2) log2(2 pi e s^2) = (1/2) log2(1 + P/s^2) bits: with the "
                  "maximum-entropy bound h(X + N) <= (1/2) log2(2 pi e (P + s^2)) (cited, not checked here) and "
                  "h(N) = (1/2) log2(2 pi e s^2) this bounds I(X; X + N)",
        symbols=(S.P, s),
        conclusion=_eq(sp.log(2 * sp.pi * sp.E * (S.P + s**2), 2) / 2 - sp.log(2 * sp.pi * sp.E * s**2, 2) / 2,
                         CAPACITY_BITS),
        strategy=Strategy.IDENTITY, box={"P": Range(0.01, 10), "sigma": Range(0.01, 10)}))
    pp, qq = sp.symbols("p q", positive=True)
    add(Lemma(
        id="std/pinsker-binary", source="Pinsker's inequality (binary case; the general case follows by data processing)",
        statement="KL(Bern(p) || Bern(q)) >= 2 (p - q)^2 (nats)",
        symbols=(pp, qq), conclusion=_le(2 * (pp - qq) ** 2,
                                           pp * sp.log(pp / qq) + (1 - pp) * sp.log((1 - pp) / (1 - qq))),
        strategy=Strategy.SAMPLED, evaluate=_pinsker_eval, samples=600,
        box={"p": Range(1e-6, 1 - 1e-6), "q": Range(1e-6, 1 - 1e-6)}))
    xa, xb = sp.symbols("kl_a kl_b", nonnegative=True)
    add(Lemma(
        id="std/mi-dp-to-tv", source="Cuff & Yu (2016) Lemma 2; showkatbakhsh-regression Proposition 2",
        statement="TV <= sqrt(KL_a/2) + sqrt(KL_b/2) (Pinsker via the mixture) and (x + y) - (sqrt(x/2) + sqrt(y/2))^2 "
                  "= (sqrt(x/2) - sqrt(y/2))^2 >= 0, so TV <= sqrt(KL_a + KL_b) = sqrt(2 I) (I in nats)",
        symbols=(xa, xb),
        conclusion=_eq((xa + xb) - (sp.sqrt(xa / 2) + sp.sqrt(xb / 2)) ** 2, (sp.sqrt(xa / 2) - sp.sqrt(xb / 2)) ** 2),
        strategy=Strategy.IDENTITY, box={"kl_a": Range(0, 5), "kl_b": Range(0, 5)}))
    return out


def _matrices() -> list[Lemma]:
    """Matrix facts of jiang-wishart: von Neumann's trace inequality, nuclear norms, the Wishart density and tail."""
    out: list[Lemma] = []
    add = out.append
    add(Lemma(
        id="std/von-neumann-trace", source="von Neumann (1937); jiang-wishart Theorem 4 proof",
        statement="|tr(AB)| <= sum_i sigma_i(A) sigma_i(B) for d x d matrices",
        symbols=(S.seed, S.d), conclusion=_le(sp.Function("abs_trace")(S.seed, S.d),
                                                sp.Function("sum_sv_products")(S.seed, S.d)),
        strategy=Strategy.SAMPLED, evaluate=_von_neumann_eval, samples=120,
        box={"seed": Range(0, 10**6, "int"), "d": Range(1, 5, "int")}))
    p1, p2, q1, q2 = sp.symbols("p1 p2 q1 q2", real=True)
    Mx = sp.Matrix([[p1 * p1 - q1 * q1, p1 * p2 - q1 * q2], [p1 * p2 - q1 * q2, p2 * p2 - q2 * q2]])
    lam = list(Mx.eigenvals())
    av, bv, cv = p1**2 + p2**2, q1**2 + q2**2, p1 * q1 + p2 * q2
    add(Lemma(
        id="std/rank-two-nuclear-norm", source="standard; jiang-wishart Theorem 4 proof",
        statement="v v^T - w w^T has eigenvalues of opposite signs in span{v, w}, so its nuclear norm is "
                  "|l1 - l2| = sqrt((|v|^2 + |w|^2)^2 - 4 (v.w)^2) <= |v|^2 + |w|^2 <= 2 (not 3)",
        symbols=(p1, p2, q1, q2),
        conclusion=_eq((lam[0] - lam[1]) ** 2, RANK_TWO_NUCLEAR.subs({_a: av, _b: bv, _c: cv}) ** 2),
        strategy=Strategy.IDENTITY,
        box={"p1": Range(-1, 1), "p2": Range(-1, 1), "q1": Range(-1, 1), "q2": Range(-1, 1)}))
    a4 = sp.symbols("a1:5", nonnegative=True)
    add(Lemma(
        id="std/covariance-l1-sensitivity", source="jiang-wishart Lemma 2 (Lagrange identity, d = 4 shown)",
        statement="d sum a_i^2 - (sum a_i)^2 = (1/2) sum_{i,j} (a_i - a_j)^2 >= 0, so sum_{i,j} |p_i p_j| = (sum |p_i|)^2 "
                  "<= d |p|^2 <= d and sum |p_i p_j - q_i q_j| <= 2d",
        symbols=a4,
        conclusion=_eq(4 * sum(ai**2 for ai in a4) - sum(a4) ** 2,
                         sp.Rational(1, 2) * sum((ai - aj) ** 2 for ai in a4 for aj in a4)),
        strategy=Strategy.IDENTITY, box={f"a{i}": Range(0, 1) for i in range(1, 5)}))
    w11, w12, w22, d11, d12, d22, c_ = sp.symbols("w11 w12 w22 D11 D12 D22 c", real=True)
    W0 = sp.Matrix([[w11, w12], [w12, w22]])
    Dm = sp.Matrix([[d11, d12], [d12, d22]])
    Cinv = sp.eye(2) / c_

    def wishart_logpdf(W, m_):  # log density up to the normalising constant (d = 2)
        return (m_ - 2 - 1) / sp.Integer(2) * sp.log(W.det()) - (Cinv * W).trace() / 2

    add(Lemma(
        id="std/wishart-density-ratio", source="Wishart density (d = 2 shown); jiang-wishart Theorem 4 proof",
        statement="for W ~ W_d(d+1, C), log p(W0) - log p(W0 + D) = (1/2) tr(C^-1 D) where both are positive definite "
                  "(the det factor has exponent (m - d - 1)/2 = 0); p(W0 + D) = 0 when W0 + D is not PSD",
        symbols=(w11, w12, w22, d11, d12, d22, c_),
        conclusion=_eq(wishart_logpdf(W0, 3) - wishart_logpdf(W0 + Dm, 3), (Cinv * Dm).trace() / 2),
        strategy=Strategy.IDENTITY,
        box={"w11": Range(2, 4), "w12": Range(-0.5, 0.5), "w22": Range(2, 4), "D11": Range(-0.5, 0.5),
             "D12": Range(-0.5, 0.5), "D22": Range(-0.5, 0.5), "c": Range(0.5, 2)}, samples=30))
    m_, th = S.m, S.theta
    add(Lemma(
        id="std/wishart-tail-zhu", source="Zhu (2012); jiang-wishart Lemma 1 (case d = 1, r = 1)",
        statement="d = 1: W = c chi2_m, P(lambda1(W) >= (m + sqrt(2 m theta (r+2)) + 2 theta r) c) <= d e^-theta with r = 1",
        symbols=(m_, th),
        conclusion=_le(sp.uppergamma(m_ / 2, (m_ + sp.sqrt(6 * m_ * th) + 2 * th) / 2) / sp.gamma(m_ / 2),
                         sp.exp(-th)),
        strategy=Strategy.MONOTONE, box={"m": Range(1, 16, "int"), "theta": Range(1e-4, 60, "log")}))
    return out


def _moment_generating_functions() -> list[Lemma]:
    """Distributional facts by moment generating functions."""
    out: list[Lemma] = []
    add = out.append
    k, t = S.k, S.t
    _, chi_pdf = _chi_square(k, t)
    # Distributional facts by moment generating functions (an MGF finite on an open interval around 0
    # determines the law: Curtiss 1942; the joint MGF of a vector likewise)
    tm, sp_p, zn, acc = (sp.Symbol("t", real=True), sp.Symbol("sigma_p", positive=True), sp.Symbol("z_n", real=True),
                         sp.Symbol("A", nonnegative=True))
    add(Lemma(
        id="std/normal-linear-form-mgf", source="standard (MGF of a Gaussian linear form); tu-projections Lemmas 1, 4",
        statement="P_1, P_2, ... i.i.d. N(0, sigma_p^2): sum_i z_i P_i has MGF exp(t^2 ||z||^2 sigma_p^2/2), i.e. is "
                  "N(0, ||z||^2 sigma_p^2), for every length n. Induction on n: if sum_{i<n} z_i P_i has MGF "
                  "exp(t^2 sigma_p^2 A/2), A = sum_{i<n} z_i^2 (A = 0: n = 1), adding the independent z_n P_n multiplies it "
                  "by E exp(t z_n P_n) (computed by sympy.stats), giving exp(t^2 sigma_p^2 (A + z_n^2)/2); an MGF on an "
                  "open interval determines the law (Curtiss 1942)",
        symbols=(tm, sp_p, zn, acc),
        conclusion=_eq(sp.exp(tm**2 * sp_p**2 * acc / 2) * _normal_term_mgf(tm, sp_p, zn),
                       sp.exp(tm**2 * sp_p**2 * (acc + zn**2) / 2)),
        strategy=Strategy.IDENTITY,
        box={"t": Range(-2, 2), "sigma_p": Range(0.1, 3), "z_n": Range(-3, 3), "A": Range(0, 5)}, samples=30))
    am, ym = sp.Symbol("a", positive=True), sp.Symbol("y", positive=True)
    xr = sp.Symbol("x", real=True)
    sq_mgf = sp.integrate(sp.powsimp(sp.exp((sp.Rational(1, 2) - am) * xr**2) * sp.exp(-xr**2 / 2), combine="exp")
                          / sp.sqrt(2 * sp.pi), (xr, -sp.oo, sp.oo))
    chi_mgf = sp.integrate(sp.powsimp(sp.expand(chi_pdf.subs(t, ym) * sp.exp((sp.Rational(1, 2) - am) * ym)),
                                      combine="exp"), (ym, 0, sp.oo))
    add(Lemma(
        id="std/chi-square-mgf", source="standard (chi-square distribution); tu-projections Lemma 1",
        statement="X_1..X_k i.i.d. N(0, 1): sum X_i^2 ~ chi2_k. With t = 1/2 - a < 1/2 (a > 0): E exp(t X^2) = int "
                  "e^{t x^2} phi(x) dx and the chi2_k MGF int e^{t y} f_k(y) dy are computed by sympy, and the MGF of the "
                  "sum of k independent squares, (E exp(t X^2))^k, equals the chi2_k MGF (1 - 2t)^(-k/2) for every k; an "
                  "MGF on an open interval determines the law (Curtiss 1942)",
        symbols=(k, am), conclusion=_eq(sq_mgf**k, chi_mgf), strategy=Strategy.IDENTITY,
        box={"k": Range(1, 24, "int"), "a": Range(0.01, 5, "log")}, samples=30))
    return out


def _build() -> dict[str, Lemma]:
    """The library, topic by topic (the order of ``LEMMAS`` is the order of these builders)."""
    L: dict[str, Lemma] = {}
    for builder in (_tails, _gaussian_mechanism, _laplace_and_composition, _information, _matrices,
                    _moment_generating_functions):
        for lemma in builder():
            L[lemma.id] = lemma
    return L


LEMMAS: dict[str, Lemma] = _build()


@functools.lru_cache(maxsize=None)
def check_lemma(id: str):
    """``get_lemma(id).check()``, memoised within the process (library lemmas are immutable and checks deterministic)."""
    return get_lemma(id).check()


def get_lemma(id: str) -> Lemma:
    """The library lemma with this ID; InvalidArgument listing the known IDs otherwise."""
    try:
        return LEMMAS[id]
    except (KeyError, TypeError):
        raise InvalidArgument(f"id={id!r} is not a library lemma; known: {sorted(LEMMAS)}.") from None
