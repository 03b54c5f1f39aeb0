"""Standard lemmas proved for every value of their parameters, and the full-domain statements built on them.

The library's ``std/laurent-massart`` and ``std/gaussian-mechanism-kenthapadi`` are Arb certificates on
boxes; the statements here prove the same facts (with the claims' own constants) for every parameter,
by sympy over general symbols:

* :func:`bernoulli_induction` -- (1 - q)^K >= 1 - K q for every integer K >= 1 and 0 <= q <= 1, by
  induction on K (base case and step checked by sympy with symbolic K).
* :func:`gaussian_half_tail` -- P(N(0, 1) > t) = erfc(t/sqrt 2)/2 <= e^(-t^2/2)/2 for every t >= 0:
  the difference vanishes at 0 and at infinity and its derivative changes sign once (+ then -).
* :func:`erfc_positive` -- erfc(z) > 0 for real z (decreasing, limit 0 at infinity).
* :func:`mixture_profile` -- the hockey-stick divergence of a release (P, Y) whose P has the same law
  under both datasets is the P-average of the conditional ones, and is at most P(bad P) + the largest
  conditional divergence over the good P (conditional divergences are <= 1).
* :func:`laplace_max_tail_statement` -- lecture21-dp Lemma 3 (union bound + Bernoulli);
* :func:`chi_square_tail_statement` -- Laurent-Massart for every k > 0 by the Chernoff route;
* :func:`kenthapadi_statement` -- the Kenthapadi Gaussian mechanism for every eps > 0, 0 < delta <= 1/2.

Each statement is a :class:`~dpverify.symbolic.dp_statements.ReducedStatement`: constant-free lemmas
(``reduction``), a residual inequality in the claim's named constants (proved by sympy: it is what the
mutation campaign perturbs) and a witness (the claim's exact probability, sampled) that refutes a false
variant. Every verdict is computed by sympy here; nothing is a literal.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field
from typing import Callable, Mapping

import sympy as sp
from sympy.core.logic import fuzzy_and
from sympy.utilities.lambdify import implemented_function

from .arb import NOT_INSTALLED, PREC_BITS, ball, flint_or_none
from .branch_bound import branch_and_bound
from .dp_statements import ReducedStatement
from .lemma import Lemma, Range, Strategy
from .library import get_lemma
from .profiles import gaussian_profile_expr
from .monotonicity import Directions
from .numeric import optimal_composition_delta
from .point_search import search
from .proof import certified, unknown
from .strategies.certify import unsettled
from .verdicts import CheckResult, ProofVerdict

__all__ = ["SympyProof", "Premise", "checked", "bernoulli_induction", "gaussian_half_tail", "erfc_positive", "mixture_profile",
           "chernoff_pointwise", "chi_square_log_mgf_bound", "laplace_max_tail_statement",
           "chi_square_tail_statement", "kenthapadi_statement"]


@dataclass(frozen=True)
class SympyProof:
    """A constant-free step proved by a sympy computation (``prove`` returns (ok, evidence)).

    Used as a ``reduction`` lemma of a ReducedStatement (it has ``id``, ``constants`` and ``check()``)."""

    id: str
    statement: str
    prove: Callable[[], tuple[bool, str]]
    constants: Mapping[str, object] = field(default_factory=dict)

    def check(self) -> CheckResult:
        ok, why = self.prove()
        if ok:
            return CheckResult(ProofVerdict.PROVED, f"{self.id}: {why}")
        return CheckResult(ProofVerdict.UNKNOWN, f"{self.id}: not shown by sympy: {why}")


@functools.lru_cache(maxsize=None)
def checked(builder: Callable) -> CheckResult:
    """``builder().check()`` memoised in the process (the builders take no arguments and are deterministic)."""
    return builder().check()


@dataclass(frozen=True)
class Premise:
    """A reduction entry whose verdict is another encoded statement's (memoised) check."""

    id: str
    builder: Callable
    constants: Mapping[str, object] = field(default_factory=dict)

    def check(self) -> CheckResult:
        return checked(self.builder)


def _zero(e) -> bool:
    return sp.simplify(e) == 0


# ----------------------------------------------------------------------------- Bernoulli
def _bernoulli(slack=0) -> tuple[bool, str]:
    """Induction on K: base K = 1: (1 - q) - (1 - q) = 0; step: if (1 - q)^K >= 1 - K q and 1 - q >= 0 then
    (1 - q)^(K+1) >= (1 - K q)(1 - q) (multiplying by 1 - q >= 0) and (1 - K q)(1 - q) - (1 - (K+1) q) = K q^2 >= 0.
    ``slack`` (mutation hook) is added to the step's claimed remainder."""
    K = sp.Symbol("K", positive=True, integer=True)
    q = sp.Symbol("q", nonnegative=True)
    base = sp.expand((1 - q) ** 1 - (1 - 1 * q))
    rem = sp.expand((1 - K * q) * (1 - q) - (1 - (K + 1) * q) - slack * q)
    terms = sp.Add.make_args(rem)
    if base != 0:
        return False, f"base case K = 1 leaves {base}"
    if not all(t.is_nonnegative is True for t in terms):
        return False, f"step remainder {rem} not a sum of nonnegative terms"
    return True, (f"induction on K (symbolic K): base K = 1 is an identity; step: (1 - q)^(K+1) >= (1 - K q)(1 - q) "
                  f"for 1 - q >= 0, and (1 - K q)(1 - q) - (1 - (K+1) q) expands to {rem} >= 0")


def bernoulli_induction(slack=0) -> SympyProof:
    return SympyProof("std/bernoulli-inequality", "(1 - q)^K >= 1 - K q for integers K >= 1 and 0 <= q <= 1",
                      lambda: _bernoulli(slack))


# ----------------------------------------------------------------------------- Gaussian tail
def _half_tail(factor=sp.Rational(1, 2)) -> tuple[bool, str]:
    t = sp.Symbol("t", nonnegative=True)
    v = sp.Symbol("v", nonnegative=True)
    G = factor * sp.exp(-t**2 / 2) - sp.erfc(t / sp.sqrt(2)) / 2
    g0, ginf = sp.simplify(G.subs(t, 0)), sp.limit(G, t, sp.oo)
    h = sp.simplify(sp.diff(G, t) * sp.exp(t**2 / 2))  # the derivative divided by e^(-t^2/2) > 0
    if not (g0.is_nonnegative is True and ginf.is_nonnegative is True):
        return False, f"G(0) = {g0}, G(oo) = {ginf} not both >= 0"
    if sp.degree(sp.expand(h), t) != 1 or sp.expand(h).coeff(t, 1).is_negative is not True:
        return False, f"G'(t) e^(t^2/2) = {h} is not linear and decreasing in t"
    roots = sp.solve(h, t)
    if len(roots) != 1 or roots[0].is_nonnegative is not True:
        return False, f"G' does not change sign once on [0, oo) (roots {roots})"
    t0 = roots[0]
    up, down = sp.simplify(h.subs(t, t0 - v)), sp.simplify(h.subs(t, t0 + v))
    if not (up.is_nonnegative is True and down.is_nonpositive is True):
        return False, f"sign of G' around {t0} not shown ({up}, {down})"
    return True, (f"G(t) = {factor} e^(-t^2/2) - erfc(t/sqrt 2)/2 has G(0) = {g0}, G(oo) = {ginf} (sympy limit), "
                  f"G'(t) = e^(-t^2/2) ({h}) >= 0 on [0, {t0}] and <= 0 beyond: G increases from G(0) then decreases "
                  f"to G(oo), so G >= 0 on [0, oo)")


def gaussian_half_tail(factor=sp.Rational(1, 2)) -> SympyProof:
    return SympyProof("std/gaussian-half-tail", "P(N(0,1) > t) = erfc(t/sqrt 2)/2 <= e^(-t^2/2)/2 for t >= 0",
                      lambda: _half_tail(factor))


def _erfc_pos() -> tuple[bool, str]:
    z = sp.Symbol("z", real=True)
    d = sp.diff(sp.erfc(z), z)
    lim = sp.limit(sp.erfc(z), z, sp.oo)
    if d.is_negative is True and lim == 0:
        return True, f"d/dz erfc(z) = {d} < 0 and erfc(oo) = 0, so erfc(z) > 0 for real z"
    return False, f"derivative {d}, limit {lim}"


def erfc_positive() -> SympyProof:
    return SympyProof("std/erfc-positive", "erfc(z) > 0 for real z", _erfc_pos)


def _mixture() -> tuple[bool, str]:
    """max(0, w p - c w q) = w max(0, p - c q) for w >= 0 (the P-average of conditional divergences), by the two
    signs of p - c q; and for weights w_j summing to 1, conditional divergences d_j <= 1 on the bad set and
    d_j <= D on the good set: sum w_j d_j <= P(bad) + D (the margin, with d_j = 1 - a_j resp. D - b_j, a, b >= 0,
    is sum w_j a_j + sum w_j b_j + D P(bad) >= 0)."""
    w, r, c = sp.symbols("w r c", nonnegative=True)
    pos = sp.simplify(sp.Max(0, w * r) - w * sp.Max(0, r))  # p - c q = r >= 0
    neg = sp.simplify(sp.Max(0, -w * r) - w * sp.Max(0, -r))  # p - c q = -r <= 0
    wb, wg, a, b, D = sp.symbols("w_b w_g a b D", nonnegative=True)  # one bad and one good atom (sums add termwise)
    margin = sp.expand((wb + D) - (wb * (1 - a) + wg * (D - b)) - D * (1 - wb - wg))
    ok = pos == 0 and neg == 0 and all(t.is_nonnegative is True for t in sp.Add.make_args(margin))
    return ok, (f"max(0, w p - c w q) - w max(0, p - c q) simplifies to {pos} (p - c q >= 0) and {neg} (< 0); "
                f"P(bad) + D - sum w_j d_j expands to {margin} (nonnegative terms)")


def mixture_profile() -> SympyProof:
    return SympyProof("std/mixture-profile", "a release (P, Y) with P's law the same under both datasets: "
                      "delta(eps) = E_P[delta_{Y|P}(eps)] <= P(bad P) + sup over good P of delta_{Y|P}(eps)", _mixture)


# ----------------------------------------------------------------------------- Chernoff for chi-square
def chernoff_pointwise() -> Lemma:
    """1{X >= a} <= e^(t (X - a)) for t >= 0: on X = a + r (r >= 0) e^(t r) - 1 is 0 at r = 0 and increasing
    (DERIVATIVE); on X < a the right side is positive and the left 0."""
    t, r = sp.symbols("t r", nonnegative=True)
    return Lemma(id="std/chernoff-pointwise", source="Markov/Chernoff",
                 statement="e^(t r) >= 1 for t, r >= 0 (so 1{X >= a} <= e^(t (X - a)), and P(X >= a) <= e^(-t a) E e^(t X))",
                 symbols=(t, r), conclusion=sp.Le(1, sp.exp(t * r), evaluate=False), strategy=Strategy.DERIVATIVE,
                 var=r, interval=(0, sp.oo), box={"t": Range(0, 5), "r": Range(0, 20)}, samples=30)


def chi_square_log_mgf_bound() -> Lemma:
    """log E e^(t (chi2_k - k)) = -(k/2) log(1 - 2t) - k t <= k t^2/(1 - 2t) on 0 <= t < 1/2, written with
    t = w/(2(1 + w)), w >= 0 (an exact parametrisation of [0, 1/2)): margin 0 at w = 0, derivative k w^2/(4 (1+w)^2)."""
    k, w = sp.Symbol("k", positive=True), sp.Symbol("w", nonnegative=True)
    t = w / (2 * (1 + w))
    return Lemma(id="std/chi-square-log-mgf-bound", source="Laurent & Massart (2000) proof of Lemma 1",
                 statement="-(k/2) log(1 - 2t) - k t <= k t^2/(1 - 2t) for k > 0, 0 <= t < 1/2",
                 symbols=(k, w), conclusion=sp.Le(-(k / 2) * sp.log(1 - 2 * t) - k * t, k * t**2 / (1 - 2 * t),
                                                  evaluate=False),
                 strategy=Strategy.DERIVATIVE, var=w, interval=(0, sp.oo),
                 box={"k": Range(0.5, 200, "log"), "w": Range(0, 50)}, samples=40)


def _t_star_range() -> tuple[bool, str]:
    s = sp.Symbol("s", nonnegative=True)
    gap = sp.simplify(sp.Rational(1, 2) - s / (1 + 2 * s))
    ok = _zero(gap - 1 / (2 * (1 + 2 * s))) and (1 / (2 * (1 + 2 * s))).is_positive is True \
        and (s / (1 + 2 * s)).is_nonnegative is True
    return ok, f"t* = s/(1 + 2s) >= 0 and 1/2 - t* = {gap} > 0 for s >= 0"


def chi_square_tail_statement(box_k: Range = Range(1, 200, "int")) -> ReducedStatement:
    """P(chi2_k >= k + c_sqrt sqrt(k x) + c_lin x) <= e^(-c_exp x) for every k > 0, x > 0 (the paper: 2, 2, 1).

    Chernoff: P(X - k >= a) <= exp(-(t a - psi(t))), psi(t) = -(k/2) log(1 - 2t) - k t <= k t^2/(1 - 2t); with
    x = k s^2 (s >= 0, exact) and t* = s/(1 + 2s) in [0, 1/2) the exponent t* a - k t*^2/(1 - 2t*) - c_exp x is the
    residual, simplified by sympy (0 for the paper's constants). The witness is the exact chi-square tail."""
    k = sp.Symbol("k", positive=True, integer=True)
    s = sp.Symbol("s", nonnegative=True)
    x = sp.Symbol("x", positive=True)
    cs, cl, ce = sp.symbols("c_sqrt c_lin c_exp", positive=True)
    ts = s / (1 + 2 * s)
    a = cs * k * s + cl * k * s**2  # c_sqrt sqrt(k x) + c_lin x at x = k s^2
    exponent = sp.cancel(sp.together(ts * a - k * ts**2 / (1 - 2 * ts) - ce * k * s**2))
    residual = Lemma(id="tu-projections/lemma-1/chernoff-residual", source="Laurent & Massart (2000) Lemma 1",
                     statement="t* a - k t*^2/(1 - 2t*) >= c_exp x at x = k s^2, t* = s/(1 + 2s), "
                               "a = c_sqrt sqrt(k x) + c_lin x",
                     symbols=(k, s), conclusion=sp.Le(0, exponent, evaluate=False), strategy=Strategy.NONNEG_TERMS,
                     box={"k": box_k, "s": Range(0, 30)}, samples=60)
    thr = k + cs * sp.sqrt(k * x) + cl * x
    witness = Lemma(id="tu-projections/lemma-1/chi-square-tail", source="Laurent & Massart (2000) Lemma 1",
                    statement="P(chi2_k >= k + c_sqrt sqrt(k x) + c_lin x) <= exp(-c_exp x) (exact tail)",
                    symbols=(k, x), conclusion=sp.Le(sp.uppergamma(k / 2, thr / 2) / sp.gamma(k / 2), sp.exp(-ce * x),
                                                     evaluate=False),
                    strategy=Strategy.SAMPLED, box={"k": Range(1, 60, "int"), "x": Range(1e-4, 60, "log")},
                    samples=80, seed=11)
    return ReducedStatement(
        "std/laurent-massart-all-k", "P(chi2_k >= k + 2 sqrt(k x) + 2 x) <= e^(-x) for every k > 0 and x > 0",
        reduction=(("chi2_k MGF (1 - 2t)^(-k/2), symbolic k (std/chi-square-mgf)", _library("std/chi-square-mgf")),
                   ("Chernoff: 1{X >= a} <= e^(t (X - a))", chernoff_pointwise()),
                   ("-(k/2) log(1 - 2t) - k t <= k t^2/(1 - 2t)", chi_square_log_mgf_bound()),
                   ("t* = s/(1 + 2s) in [0, 1/2)", SympyProof("std/chernoff-t-star", "0 <= t* < 1/2", _t_star_range))),
        residual=residual, witness=witness, constants={"c_sqrt": 2, "c_lin": 2, "c_exp": 1})


def _library(id_: str):
    return get_lemma(id_)


# ----------------------------------------------------------------------------- Kenthapadi
class both_min(sp.Function):
    """min(a, b) for residuals that need two conditions: nonnegative when both arguments are (sympy's
    assumptions), evaluated by ``min`` (evalf, lambdify); unlike ``sp.Min`` it does not order its arguments
    on construction, so a degenerate mutant (an argument ``zoo``) stays a statement that checks report as
    degenerate instead of raising."""

    nargs = 2

    def _eval_is_nonnegative(self):
        return fuzzy_and(a.is_nonnegative for a in self.args)

    @staticmethod
    def _imp_(a, b):
        return min(a, b)


def kenthapadi_statement() -> ReducedStatement:
    """sigma^2 = c_var D^2 (log(1/(c_half delta)) + eps)/eps^2 gives the Gaussian mechanism delta(eps) <= delta for
    every eps > 0 and 0 < delta <= 1/2 (the paper: c_var = c_half = 2).

    Route (Balle-Wang profile, D = 1 by scaling): delta(eps) = Phi(-t) - e^eps Phi(-1/(2 sigma) - eps sigma) <= Phi(-t)
    (erfc > 0), t = eps sigma - 1/(2 sigma); Phi(-t) <= e^(-t^2/2)/2 for t >= 0 (std/gaussian-half-tail); with
    L = log(1/(2 delta)) >= 0 (delta = e^-L/2, exact) e^(-t^2/2)/2 <= delta iff t^2 >= 2L. Residual:
    min(t^2 - 2L, eps sigma^2 - 1/2) >= 0 (the second is t >= 0), simplified by sympy."""
    e = sp.Symbol("epsilon", positive=True)
    L = sp.Symbol("L", nonnegative=True)
    dl = sp.Symbol("delta", positive=True)
    cv, ch = sp.symbols("c_var c_half", positive=True)
    Lm = L + sp.log(2 / ch)  # log(1/(c_half delta)) at delta = e^-L/2
    sig2 = cv * (Lm + e) / e**2
    t2 = sp.expand(e**2 * sig2 - e + 1 / (4 * sig2))  # (eps sigma - 1/(2 sigma))^2
    residual = Lemma(id="tu-projections/lemma-2/kenthapadi-residual", source="Kenthapadi et al. (2013) Lemma 1",
                     statement="t^2 >= 2 L and t >= 0 for t = eps sigma - 1/(2 sigma), L = log(1/(2 delta))",
                     symbols=(e, L), conclusion=sp.Le(0, both_min(sp.cancel(sp.together(t2 - 2 * L)),
                                                                sp.expand(e * sig2 - sp.Rational(1, 2))), evaluate=False),
                     strategy=Strategy.NONNEG_TERMS, box={"epsilon": Range(1e-3, 30, "log"), "L": Range(0, 30)},
                     samples=80)
    sigma = sp.sqrt(cv * (sp.log(1 / (ch * dl)) + e)) / e
    witness = Lemma(id="tu-projections/lemma-2/kenthapadi-profile", source="Kenthapadi et al. (2013) Lemma 1",
                    statement="exact Balle-Wang delta(eps) of N(0, sigma^2), sensitivity 1, <= delta",
                    symbols=(e, dl), conclusion=sp.Le(gaussian_profile_expr(e, 1, sigma), dl, evaluate=False),
                    hypotheses=(sp.Le(dl, sp.Rational(1, 2)),),
                    strategy=Strategy.SAMPLED, box={"epsilon": Range(1e-3, 30, "log"), "delta": Range(1e-12, 0.5, "log")},
                    samples=80, seed=13)
    prof = SympyProof("std/gaussian-profile-le-phi", "Phi(a) - e^eps Phi(b) <= Phi(a) (e^eps Phi(b) = e^eps erfc(-b/sqrt 2)/2 > 0)",
                      _erfc_pos)
    return ReducedStatement(
        "std/gaussian-mechanism-kenthapadi-all", "sigma^2 = 2 D^2 (log(1/(2 delta)) + eps)/eps^2 gives delta(eps) <= delta "
        "for every eps > 0, 0 < delta <= 1/2",
        reduction=(("Balle-Wang profile (std/gaussian-profile)", _library("std/gaussian-profile")),
                   ("profile <= Phi(-t) (erfc > 0)", prof),
                   ("Phi(-t) <= e^(-t^2/2)/2 for t >= 0", gaussian_half_tail())),
        residual=residual, witness=witness, constants={"c_var": 2, "c_half": 2},
        domain=sp.Le(dl, sp.Rational(1, 2)))  # the residual's L = log(1/(2 delta)) >= 0


# ----------------------------------------------------------------------------- Laplace max tail
def laplace_max_tail_statement(paper: str = "lecture21-dp") -> ReducedStatement:
    """P(max_i |b_i X_i| >= c_thr log(K/delta) B/eps) <= delta for K i.i.d. Laplace(0, c_scale B/eps) coordinates
    (lecture21-dp Lemma 3; the paper: c_thr = c_scale = 1), every integer K >= 1 and 0 < delta <= 1.

    Route: P(|noise_i| >= t) = q = exp(-t/b) (std/laplace-tail); independence: P(max >= t) = 1 - (1 - q)^K;
    Bernoulli (induction): 1 - (1 - q)^K <= K q; residual: K q <= delta, simplified by sympy."""
    K = sp.Symbol("K", positive=True, integer=True)
    dl = sp.Symbol("delta", positive=True)
    ct, cs = sp.symbols("c_thr c_scale", positive=True)
    q = sp.exp(-ct * sp.log(K / dl) / cs)
    box = {"K": Range(1, 50, "int"), "delta": Range(1e-9, 1, "log")}
    residual = Lemma(id=f"{paper}/lemma-3/union-residual", source=f"{paper} Lemma 3",
                     statement="K exp(-t/b) <= delta at t = c_thr log(K/delta) B/eps, b = c_scale B/eps",
                     symbols=(K, dl), conclusion=sp.Le(K * q, dl, evaluate=False), strategy=Strategy.NONNEG_TERMS,
                     hypotheses=(sp.Le(dl, 1),), box=box, samples=60, seed=5)
    witness = Lemma(id=f"{paper}/lemma-3/exact-tail", source=f"{paper} Lemma 3",
                    statement="1 - (1 - exp(-t/b))^K <= delta (exact tail of the max of K independent Laplace magnitudes)",
                    symbols=(K, dl), conclusion=sp.Le(1 - (1 - q) ** K, dl, evaluate=False), strategy=Strategy.SAMPLED,
                    hypotheses=(sp.Le(dl, 1),), box=box, samples=200, seed=7)
    return ReducedStatement(
        f"{paper}/lemma-3", "P(||F(S) - A(S)||_inf >= log(K/delta) B/eps) <= delta, A(S) = F(S) + Laplace(B/eps)^K",
        reduction=(("Laplace tail P(|X| >= t) = exp(-t/b) (std/laplace-tail)", _library("std/laplace-tail")),
                   ("1 - (1 - q)^K <= K q (Bernoulli, induction on K)", bernoulli_induction())),
        residual=residual, witness=witness, constants={"c_thr": 1, "c_scale": 1})


# ----------------------------------------------------------------------------- advanced composition (Arb)
def _opt_comp_mp(T, e, k):
    return optimal_composition_delta(T, e, int(k))


#: delta_opt(T, eps, k): the optimal-composition delta (Kairouz, Oh & Viswanath 2015, Thm 3.3) of k-fold composition
#: of eps-DP mechanisms at total eps T; a sympy function evaluated by mpmath (``sp.N``, ``lambdify``).
DELTA_OPT = implemented_function("delta_opt", _opt_comp_mp)


def _opt_comp_arb(T, e, k: int):
    """Arb enclosure of delta_opt(T; eps, k) at exact points T, eps (balls): only the terms with
    eps (k - l) > T + eps l can be positive; each is enclosed and its positive part taken."""
    import flint

    arb = flint.arb
    total = arb(0)
    for ell in range(k + 1):
        term = (e * (k - ell)).exp() - (T + e * ell).exp()
        if term.upper() <= 0:  # certified nonpositive: contributes 0
            continue
        total += arb(math.comb(k, ell)) * term.max(arb(0))
    return total / (1 + e.exp()) ** k


def _arb_compile(expr: sp.Expr, names: dict):
    """A closure evaluating ``expr`` on Arb balls (``vals``: symbol name -> ball) with the rules of ``arb_eval``
    (exact integers and rationals, +, *, integer and half powers, exp, log, sqrt); None for any other node."""
    import flint

    arb = flint.arb

    def comp(e):
        if e.is_Symbol:
            n = e.name
            return lambda v: v[n]
        if e.is_Integer:
            c = int(e)
            return lambda v: arb(c)
        if e.is_Rational:
            p, q = int(e.p), int(e.q)
            return lambda v: arb(p) / arb(q)
        if e.is_Add or e.is_Mul:
            fs = [comp(a) for a in e.args]
            if e.is_Add:
                def add(v):
                    out = fs[0](v)
                    for f in fs[1:]:
                        out = out + f(v)
                    return out
                return add

            def mul(v):
                out = fs[0](v)
                for f in fs[1:]:
                    out = out * f(v)
                return out
            return mul
        if e.is_Pow:
            b, x = e.args
            fb = comp(b)
            if x.is_Integer:
                n = int(x)
                return (lambda v: fb(v) ** n) if n >= 0 else (lambda v: arb(1) / fb(v) ** (-n))
            if x == sp.S.Half:
                return lambda v: fb(v).sqrt()
            if x == -sp.S.Half:
                return lambda v: arb(1) / fb(v).sqrt()
            fx = comp(x)
            return lambda v: (fx(v) * fb(v).log()).exp()
        if e.func in (sp.exp, sp.log) and len(e.args) == 1:
            fa = comp(e.args[0])
            return (lambda v: fa(v).exp()) if e.func is sp.exp else (lambda v: fa(v).log())
        raise TypeError(f"no Arb rule for {e.func}")

    try:
        return comp(sp.sympify(expr))
    except TypeError:
        return None


@dataclass(frozen=True)
class OptimalCompositionLemma(Lemma):
    """``delta_opt(T(k, eps, delta'), eps, k) <= delta'`` certified by branch and bound with Arb balls.

    delta_opt(T; eps, k) is nonincreasing in T (each term of the KOV sum is) and nondecreasing in the per-step
    eps (KOV's delta is the supremum over all k-tuples of eps-DP mechanisms, and an eps-DP mechanism is eps''-DP
    for eps'' >= eps); T's direction in eps and delta' is established by sympy (or mpmath.iv). So on a cell
    [eps_a, eps_b] x [d_a, d_b] (k enumerated) delta_opt <= delta_opt(T at the corner that makes T smallest;
    eps_b) and the cell is certified when that Arb ball is < d_a.

    Its counterexample search also probes outside the box (``point_search.search``), so a certificate on the box does not
    hide a statement false at larger k: the KOV terms that are exactly 0 are skipped unevaluated
    (``numeric.optimal_composition_delta``), which keeps extreme (T, eps) points cheap; the verdict names the box."""

    def check(self) -> CheckResult:
        if self.constants:
            sub = self.substituted()
            res = sub.check()
            consts = ", ".join(f"{k} = {v}" for k, v in self.constants.items())
            return CheckResult(res.verdict, f"{res.evidence} [statement constants: {consts}]",
                               counterexample=res.counterexample, details=res.details, premises=res.premises, domain=res.domain)
        found = search(self)
        if found.counterexample is not None:
            return found.counterexample
        why = self.certify()
        if isinstance(why, CheckResult):
            return why
        n = found.evaluated
        return CheckResult(ProofVerdict.TESTED if n else ProofVerdict.UNKNOWN,
                           f"{self.id}: no counterexample at {n} evaluated points of {self.box_text()}; "
                           f"certificate not obtained ({why})")

    def certify(self) -> CheckResult | str:
        """The branch and bound of the class docstring: CERTIFIED, or why not (a string)."""
        if flint_or_none() is None:
            return NOT_INSTALLED
        c = self.conclusion
        if not (isinstance(c, sp.LessThan) and c.lhs.func == DELTA_OPT and len(c.lhs.args) == 3):
            return "the conclusion is not delta_opt(T, eps, k) <= rhs"
        T, e_arg, k_arg = c.lhs.args
        syms = self.symbols_by_name()
        names = list(self.box)
        if set(names) != {"k", "epsilon", "delta_prime"} or e_arg != syms["epsilon"] or k_arg != syms["k"]:
            return "box must be k (int), epsilon, delta_prime with delta_opt(T, epsilon, k)"
        signs = Directions(self.box, syms)
        dT = {n: signs.sign(T, syms[n], names) for n in ("epsilon", "delta_prime")}
        dR = {n: signs.sign(c.rhs, syms[n], names) for n in ("epsilon", "delta_prime")}
        if None in dT.values() or None in dR.values():
            return f"directions not established (T: {dT}, rhs: {dR})"
        fT, fR = _arb_compile(T, syms), _arb_compile(c.rhs, syms)
        if fT is None or fR is None:
            return "the total eps or the rhs has a function without an Arb rule here"

        def certify_cell(cell) -> bool:
            (kk, _), (ea, eb), (da, db) = cell
            kk = int(kk)
            # T smallest: epsilon and delta' each at the end where T is smallest; the per-step eps at its top
            t_at = {"k": ball(kk), "epsilon": ball(ea if dT["epsilon"] >= 0 else eb),
                    "delta_prime": ball(db if dT["delta_prime"] <= 0 else da)}
            r_at = {"k": ball(kk), "epsilon": ball(ea if dR["epsilon"] >= 0 else eb),
                    "delta_prime": ball(da if dR["delta_prime"] >= 0 else db)}
            L = _opt_comp_arb(fT(t_at), ball(eb), kk)
            R = fR(r_at)
            return (R - L).lower() > 0

        rk = self.box["k"]
        # one cell per k, visited in increasing k (the stack pops its last cell first), each k to the end
        cells = [[(float(kk), float(kk)), (self.box["epsilon"].lo, self.box["epsilon"].hi),
                  (self.box["delta_prime"].lo, self.box["delta_prime"].hi)] for kk in range(int(rk.lo), int(rk.hi) + 1)]
        run = branch_and_bound(cells[::-1], certify_cell, lambda cell: self.split_cell(names, cell), self.max_cells)
        if not run.certified:
            return unsettled(self, names, run, refute=False)
        return CheckResult(ProofVerdict.CERTIFIED,
                           f"{self.id}: certified on {self.box_text()} by branch and bound ({run.visited} cells; k "
                           f"enumerated): delta_opt (KOV) is nonincreasing in the total eps and nondecreasing in the "
                           f"per-step eps, the total eps' directions by sympy, each cell's corner margin an Arb ball > 0 "
                           f"({PREC_BITS}-bit python-flint)", domain=self.certified_domain())


def advanced_composition_statement(k_max: int = 60, max_cells: int = 200000) -> OptimalCompositionLemma:
    """tu-projections Lemma 3 (Dwork, Rothblum & Vadhan): k-fold composition of eps-DP is (eps', delta')-DP with
    eps' = sqrt(2 k log(1/delta')) eps + k eps (e^eps - 1), against the exact optimal composition."""
    k = sp.Symbol("k", positive=True, integer=True)
    e, dp = sp.Symbol("epsilon", positive=True), sp.Symbol("delta_prime", positive=True)
    T = sp.sqrt(2 * k * sp.log(1 / dp)) * e + k * e * (sp.exp(e) - 1)
    return OptimalCompositionLemma(
        id="tu-projections/lemma-3/optimal-composition", source="Dwork, Rothblum & Vadhan (2010) Thm III.3",
        statement="delta_opt(sqrt(2k log(1/delta')) eps + k eps (e^eps - 1); eps, k) <= delta'",
        symbols=(k, e, dp), conclusion=sp.Le(DELTA_OPT(T, e, k), dp, evaluate=False), strategy=Strategy.SAMPLED,
        box={"k": Range(1, k_max, "int"), "epsilon": Range(1e-3, 2.0, "log"), "delta_prime": Range(1e-12, 0.5, "log")},
        samples=60, seed=17, max_cells=max_cells)


def classical_gaussian_whole_domain(delta_split: str = "0.74", cells: int = 400) -> CheckResult:
    """The classical Gaussian mechanism (Dwork & Roth Thm A.1) on its whole domain: sigma = c/eps, c = sqrt(2 log(1.25/
    delta)) (sensitivity 1 by scaling) gives delta_BW(eps) <= delta for every 0 < eps <= 1 and 0 < delta < 1 (for
    delta >= 1 the bound is trivial: delta_BW <= 1). The Arb certificate of ``std/gaussian-mechanism-classical`` covers
    eps >= 1e-3 and delta in [1e-12, 0.5] only. The argument, each step checked:

    1. (sympy) with a = eps/(2c) - c, b = -eps/(2c) - c: phi(a) = e^eps phi(b), and d/d eps [Phi(a) - e^eps Phi(b)] =
       e^eps (phi(b)/c - Phi(b));
    2. (sympy) Mills: h(x) = phi(x)/x - Phi(-x) has h' = -phi(x)/x^2 < 0 and h -> 0 as x -> oo, so Phi(-x) < phi(x)/x
       for x > 0; with |b| = c + eps/(2c) > c, Phi(b) < phi(b)/|b| < phi(b)/c: delta_BW increases in eps, and eps = 1 is
       the worst case;
    3. at eps = 1, for delta <= ``delta_split``: delta_BW <= Phi(-(c - 1/(2c))) <= phi(c - 1/(2c))/(c - 1/(2c)) (Mills)
       and phi(c - 1/(2c)) <= (delta/1.25) e^(1/2)/sqrt(2 pi) (sympy: the exponent is -c^2/2 + 1/2 - 1/(8c^2)), so
       delta_BW <= delta K(c), K(c) = e^(1/2)/(1.25 sqrt(2 pi) (c - 1/(2c))), decreasing in c and c decreasing in delta:
       K at delta = ``delta_split`` (an Arb ball) < 1 settles every smaller delta;
    4. at eps = 1, delta in [``delta_split``, 1]: branch over ``cells`` Arb balls of delta, margin delta - delta_BW > 0.
    """
    x, c, ep = sp.Symbol("x", positive=True), sp.Symbol("c", positive=True), sp.Symbol("epsilon", positive=True)

    def Phi(z):
        return (1 + sp.erf(z / sp.sqrt(2))) / 2

    def phi(z):
        return sp.exp(-z**2 / 2) / sp.sqrt(2 * sp.pi)

    a, b = ep / (2 * c) - c, -ep / (2 * c) - c
    ratio = sp.simplify(phi(a) - sp.exp(ep) * phi(b)) == 0
    deriv = sp.simplify(sp.diff(Phi(a) - sp.exp(ep) * Phi(b), ep) - sp.exp(ep) * (phi(b) / c - Phi(b))) == 0
    h = phi(x) / x - Phi(-x)
    mills = sp.simplify(sp.diff(h, x) + phi(x) / x**2) == 0 and sp.limit(h, x, sp.oo) == 0
    dl = sp.Symbol("delta", positive=True)
    cc = sp.sqrt(2 * sp.log(sp.Rational(5, 4) / dl))
    u = cc - 1 / (2 * cc)
    expo = sp.simplify(sp.expand(-u**2 / 2) - (sp.log(dl / sp.Rational(5, 4)) + sp.Rational(1, 2) - 1 / (8 * cc**2))) == 0
    if not (ratio and deriv and mills and expo):
        return unknown(f"the whole-domain argument did not go through in sympy (phi ratio {ratio}, derivative {deriv}, "
                       f"Mills {mills}, exponent {expo})")
    if flint_or_none() is None:
        return unknown("the whole-domain argument needs python-flint for its two numeric steps (K < 1 at the split, "
                       "the top slice)")
    import flint

    arb = flint.arb
    r2 = arb(2).sqrt()
    split = ball(delta_split)
    csplit = (2 * (ball("1.25") / split).log()).sqrt()
    K = arb("0.5").exp() / (ball("1.25") * (2 * arb.pi()).sqrt() * (csplit - 1 / (2 * csplit)))
    if not (K.upper() < 1 and (csplit - 1 / (2 * csplit)).lower() > 0):
        return unknown(f"K(c) at delta = {delta_split} is not shown < 1 ({K})")
    lo = float(delta_split)
    bad = None
    for i in range(cells):
        d_lo = lo + (1 - lo) * i / cells
        d_hi = lo + (1 - lo) * (i + 1) / cells
        d = ball(repr(d_lo), repr(d_hi))
        cd = (2 * (ball("1.25") / d).log()).sqrt()
        pa, pb = 1 / (2 * cd) - cd, -1 / (2 * cd) - cd
        dbw = (-pa / r2).erfc() / 2 - arb(1).exp() * (-pb / r2).erfc() / 2
        if not (ball(repr(d_lo)) - dbw).lower() > 0:
            bad = (d_lo, d_hi)
            break
    if bad is not None:
        return unknown(f"the slice eps = 1 was not certified on delta in {bad}")
    return certified(
        "classical Gaussian mechanism, every 0 < eps <= 1 and 0 < delta < 1 (delta >= 1 trivial): delta_BW increases in "
        "eps (sympy: d/d eps = e^eps (phi(b)/c - Phi(b)) with phi(a) = e^eps phi(b); Mills' Phi(-x) < phi(x)/x by h' = "
        "-phi/x^2 < 0, h -> 0, and |b| > c), so eps = 1 is the worst case; there delta_BW <= delta K(c) with K(c) = "
        f"e^(1/2)/(1.25 sqrt(2 pi)(c - 1/(2c))) (Mills and the exponent identity, sympy), K < 1 for delta <= {delta_split} "
        f"(Arb: K <= {float(K.upper()):.4f}; K decreases as delta does); on delta in [{delta_split}, 1] the margin delta - "
        f"delta_BW is an Arb ball > 0 on each of {cells} cells (the margin at each cell's left end, delta_BW enclosed on "
        "the whole cell)")
