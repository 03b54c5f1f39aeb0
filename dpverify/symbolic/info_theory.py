"""Information-theoretic lemmas, checked by sympy over general symbols (used by the showkatbakhsh-regression proofs).

Each function returns a :class:`~dpverify.symbolic.lemma.Lemma` whose ``check()`` decides it (identities by
``simplify``; inequalities by the sign of a derivative, a case split, or sympy's sign reasoning on a fraction);
:func:`pinsker_binary` and :func:`gibbs_log_le` combine such lemmas with one stated calculus step each and
return a :class:`CheckResult` that is never stronger than its weakest part.

* Binary Pinsker, ``KL(Bern(p) || Bern(q)) >= 2 (p - q)^2`` for all ``p, q`` in (0, 1):
  ``f(q) = KL - 2 (p - q)^2`` has ``f(p) = 0`` and ``f'(q) = (q - p) (1 - 2q)^2 / (q (1 - q))`` (identities), and
  ``(1 - 2q)^2 / (q (1 - q)) >= 0`` on (0, 1) (sympy's sign reasoning after ``q = 1/(1 + w)``, ``w > 0``, which maps
  (0, oo) onto (0, 1)); so ``f`` decreases to ``f(p) = 0`` and increases after it (mean value theorem).
* Two-term log-sum inequality as an identity: ``a1 ln(a1/b1) + a2 ln(a2/b2) - A ln(A/B) = A KL(Bern(a1/A) ||
  Bern(b1/B))`` (``A = a1 + a2``, ``B = b1 + b2``), which is ``>= 0`` by binary Pinsker: merging two outcomes never
  increases KL, so on a finite output space KL(P || Q) >= KL of the two-cell partition {E, E^c} of any event E
  (merge the outcomes of E, then those of E^c, two at a time).
* ``ln x <= x - 1`` for ``x > 0`` (Gibbs' inequality pointwise): ``x = 1 + t`` and ``x = 1/(1 + t)``, ``t >= 0``, each
  by the sign of a derivative from ``t = 0``.
* Gaussian maximum entropy pieces: ``-ln g(y) = (1/2) ln(2 pi P) + y^2/(2P)`` for the N(0, P) density ``g``, and
  ``(1/2) ln(2 pi P) + P/(2P) = (1/2) ln(2 pi e P)``; ``h(N(0, s^2)) = (1/2) ln(2 pi e s^2)`` by sympy's integral.
"""
from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

from .lemma import Lemma, Range, Strategy
from .signs import nonneg_proof
from .strategies.algebraic import nonneg_terms
from .strategies.registry import register
from .proof import merge_domains
from .verdicts import CheckResult, ProofVerdict

__all__ = ["SignLemma", "sign_terms", "pinsker_derivative", "pinsker_at_p", "pinsker_factor_sign", "pinsker_binary", "log_sum_identity",
           "tv_mixture_identity", "log_le_above_one", "log_le_below_one", "gibbs_log_le", "gaussian_cross_entropy",
           "gaussian_cross_entropy_at_power", "gaussian_entropy", "second_moment_sum", "SRC"]

SRC = "standard (information theory); showkatbakhsh-regression Proposition 2 and Lemma 1"


@dataclass(frozen=True)
class SignLemma(Lemma):
    """A :class:`Lemma` whose ``NONNEG_TERMS`` strategy also accepts sympy's sign reasoning on the margin as a whole
    (directly, simplified, factored, or as a fraction with a termwise nonnegative numerator over a positive
    denominator: :func:`~dpverify.symbolic.signs.nonneg_proof`), e.g. ``(w - 1)^2 / w >= 0`` for ``w > 0``: the
    handler :func:`sign_terms`, registered for ``NONNEG_TERMS`` on this class."""


@register(Strategy.NONNEG_TERMS, SignLemma)
def sign_terms(lemma):
    """``NONNEG_TERMS`` for a :class:`SignLemma`: the termwise proof, else sympy's sign reasoning on the margin."""
    res = nonneg_terms(lemma)
    if isinstance(res, CheckResult):
        return res
    if nonneg_proof(lemma.margin, strict=lemma.strict):
        return CheckResult(ProofVerdict.PROVED, f"{lemma.id}: the margin rhs - lhs = {sp.factor(sp.simplify(lemma.margin))} "
                                                f"is shown >= 0 by sympy's sign reasoning under the symbols' assumptions")
    return res


_p, _q = sp.symbols("p q", positive=True)
_KL = _p * sp.log(_p / _q) + (1 - _p) * sp.log((1 - _p) / (1 - _q))
_F = _KL - 2 * (_p - _q) ** 2


def _eq(a, b):
    return sp.Eq(a, b, evaluate=False)


def pinsker_derivative() -> Lemma:
    return Lemma(id="info/pinsker-binary/derivative", source="Pinsker's inequality (binary case), proof",
                 statement="d/dq [KL(Bern(p)||Bern(q)) - 2(p - q)^2] = (q - p)(1 - 2q)^2/(q(1 - q))",
                 symbols=(_p, _q), conclusion=_eq(sp.diff(_F, _q), (_q - _p) * (1 - 2 * _q) ** 2 / (_q * (1 - _q))),
                 strategy=Strategy.IDENTITY, box={"p": Range(0.01, 0.99), "q": Range(0.01, 0.99)}, samples=40)


def pinsker_at_p() -> Lemma:
    return Lemma(id="info/pinsker-binary/at-p", source="Pinsker's inequality (binary case), proof",
                 statement="KL(Bern(p)||Bern(p)) - 2(p - p)^2 = 0", symbols=(_p,),
                 conclusion=_eq(_F.subs(_q, _p), 0), strategy=Strategy.IDENTITY, box={"p": Range(0.01, 0.99)},
                 samples=20)


def pinsker_factor_sign() -> Lemma:
    w = sp.Symbol("w", positive=True)
    q = 1 / (1 + w)  # w in (0, oo) <-> q in (0, 1)
    return SignLemma(id="info/pinsker-binary/factor", source="Pinsker's inequality (binary case), proof",
                     statement="(1 - 2q)^2/(q(1 - q)) >= 0 for q = 1/(1 + w) in (0, 1), w > 0",
                     symbols=(w,), conclusion=sp.Le(0, (1 - 2 * q) ** 2 / (q * (1 - q)), evaluate=False),
                     strategy=Strategy.NONNEG_TERMS, box={"w": Range(1e-3, 1e3, "log")}, samples=40)


def _weakest(parts):
    order = [ProofVerdict.KERNEL_CHECKED, ProofVerdict.PROVED, ProofVerdict.CERTIFIED, ProofVerdict.TESTED,
             ProofVerdict.UNKNOWN]
    if any(r.verdict is ProofVerdict.REFUTED for _, r in parts):
        return ProofVerdict.UNKNOWN  # a refuted step breaks the route (the statement itself is not refuted by it)
    return max((r.verdict for _, r in parts), key=order.index)


def _combine(what: str, parts: list[tuple[str, CheckResult]], step: str) -> CheckResult:
    v = _weakest(parts)
    names = "; ".join(f"{n} ({r.verdict.value})" for n, r in parts)
    return CheckResult(v, f"{what}: {names}; then {step}", details=tuple(f"{n}: {r.evidence}" for n, r in parts),
                       premises=tuple(dict.fromkeys(x for _, r in parts for x in r.premises)),
                       domain=merge_domains(*(r for _, r in parts)))


def pinsker_binary() -> CheckResult:
    """KL(Bern(p)||Bern(q)) >= 2 (p - q)^2 for all p, q in (0, 1) (nats), from the three lemmas above."""
    parts = [("f(p) = 0", pinsker_at_p().check()), ("f'(q) identity", pinsker_derivative().check()),
             ("(1 - 2q)^2/(q(1 - q)) >= 0", pinsker_factor_sign().check())]
    return _combine("binary Pinsker KL(Bern(p)||Bern(q)) >= 2(p - q)^2 on (0, 1)^2", parts,
                    "f' has the sign of q - p, so f >= f(p) = 0 (mean value theorem, on (0, 1))")


def log_sum_identity() -> Lemma:
    a1, a2, b1, b2 = sp.symbols("a1 a2 b1 b2", positive=True)
    A, B = a1 + a2, b1 + b2
    al, be = a1 / A, b1 / B
    lhs = a1 * sp.log(a1 / b1) + a2 * sp.log(a2 / b2) - A * sp.log(A / B)
    rhs = A * (al * sp.log(al / be) + (1 - al) * sp.log((1 - al) / (1 - be)))
    return Lemma(id="info/log-sum-two-terms", source="log-sum inequality (two terms); data processing on finite spaces",
                 statement="a1 ln(a1/b1) + a2 ln(a2/b2) - A ln(A/B) = A KL(Bern(a1/A)||Bern(b1/B)) (>= 0 by binary Pinsker)",
                 symbols=(a1, a2, b1, b2), conclusion=_eq(lhs, rhs), strategy=Strategy.IDENTITY,
                 box={n: Range(0.01, 3) for n in ("a1", "a2", "b1", "b2")}, samples=30)


def tv_mixture_identity() -> Lemma:
    a, b = sp.symbols("P_a P_b", real=True)
    m = (a + b) / 2
    return Lemma(id="info/tv-mixture", source="total variation against the mixture",
                 statement="with M = (P_a + P_b)/2: P_a(E) - P_b(E) = (P_a(E) - M(E)) + (M(E) - P_b(E)) and "
                           "P_a(E) - M(E) = M(E) - P_b(E) = (P_a(E) - P_b(E))/2",
                 symbols=(a, b), conclusion=_eq((a - m) + (m - b), 2 * (a - m)), strategy=Strategy.IDENTITY,
                 box={"P_a": Range(0, 1), "P_b": Range(0, 1)}, samples=20)


def log_le_above_one() -> Lemma:
    t = sp.Symbol("t", nonnegative=True)
    return Lemma(id="info/log-le-x-minus-1/above", source="Gibbs' inequality, pointwise",
                 statement="ln x <= x - 1 for x = 1 + t, t >= 0", symbols=(t,),
                 conclusion=sp.Le(sp.log(1 + t), t, evaluate=False), strategy=Strategy.DERIVATIVE, var=t,
                 interval=(0, sp.oo), box={"t": Range(1e-6, 1e3, "log")}, samples=40)


def log_le_below_one() -> Lemma:
    t = sp.Symbol("t", nonnegative=True)
    return Lemma(id="info/log-le-x-minus-1/below", source="Gibbs' inequality, pointwise",
                 statement="ln x <= x - 1 for x = 1/(1 + t), t >= 0 (ln x = -ln(1 + t))", symbols=(t,),
                 conclusion=sp.Le(-sp.log(1 + t), 1 / (1 + t) - 1, evaluate=False), strategy=Strategy.DERIVATIVE,
                 var=t, interval=(0, sp.oo), box={"t": Range(1e-6, 1e3, "log")}, samples=40)


def gibbs_log_le() -> CheckResult:
    parts = [("x >= 1", log_le_above_one().check()), ("0 < x <= 1", log_le_below_one().check())]
    return _combine("ln x <= x - 1 for every x > 0", parts, "x = 1 + t and x = 1/(1 + t), t >= 0, cover (0, oo)")


_P = sp.Symbol("P", positive=True)
_y = sp.Symbol("y", real=True)
_s = sp.Symbol("sigma", positive=True)


def gaussian_cross_entropy() -> Lemma:
    g = sp.exp(-_y**2 / (2 * _P)) / sp.sqrt(2 * sp.pi * _P)
    return Lemma(id="info/gaussian-log-density", source="Gaussian maximum entropy (Cover & Thomas Thm 8.6.5), proof",
                 statement="-ln g(y) = (1/2) ln(2 pi P) + y^2/(2P) for the N(0, P) density g: a quadratic in y, so "
                           "-E_f[ln g(Y)] depends on f only through E_f[Y^2]",
                 symbols=(_P, _y), conclusion=_eq(sp.expand_log(-sp.log(g), force=True),
                                                  sp.log(2 * sp.pi * _P) / 2 + _y**2 / (2 * _P)),
                 strategy=Strategy.IDENTITY, box={"P": Range(0.01, 10), "y": Range(-5, 5)}, samples=20)


def gaussian_cross_entropy_at_power() -> Lemma:
    return Lemma(id="info/gaussian-cross-entropy", source="Gaussian maximum entropy, proof",
                 statement="(1/2) ln(2 pi P) + E[Y^2]/(2P) at E[Y^2] = P equals (1/2) ln(2 pi e P)",
                 symbols=(_P,), conclusion=_eq(sp.log(2 * sp.pi * _P) / 2 + _P / (2 * _P),
                                               sp.log(2 * sp.pi * sp.E * _P) / 2),
                 strategy=Strategy.IDENTITY, box={"P": Range(0.01, 10)}, samples=20)


def gaussian_entropy() -> Lemma:
    phi = sp.exp(-_y**2 / (2 * _s**2)) / sp.sqrt(2 * sp.pi * _s**2)
    h = sp.integrate(sp.expand(phi * sp.expand_log(-sp.log(phi), force=True)), (_y, -sp.oo, sp.oo))
    return Lemma(id="info/gaussian-entropy", source="differential entropy of N(0, sigma^2)",
                 statement="h(sigma N) = -int phi ln phi = (1/2) ln(2 pi e sigma^2) (integral computed by sympy)",
                 symbols=(_s,), conclusion=_eq(h, sp.log(2 * sp.pi * sp.E * _s**2) / 2), strategy=Strategy.IDENTITY,
                 box={"sigma": Range(0.01, 10)}, samples=20)


def second_moment_sum() -> Lemma:
    ex2, ex, en = sp.symbols("E_X2 E_X E_N", real=True)
    s2 = sp.Symbol("sigma", positive=True)
    # E[(X + s N)^2] = E[X^2] + 2 s E[X N] + s^2 E[N^2] with E[XN] = E[X] E[N] (independence), E[N] = 0, E[N^2] = 1
    lhs = (ex2 + 2 * s2 * ex * en + s2**2 * 1).subs(en, 0)
    return Lemma(id="info/second-moment", source="showkatbakhsh-regression (19)",
                 statement="X independent of N ~ N(0, 1): E[(X + sigma N)^2] = E[X^2] + 2 sigma E[X] E[N] + sigma^2 "
                           "= E[X^2] + sigma^2 <= 1 + sigma^2 when |X| <= 1",
                 symbols=(ex2, ex, s2), conclusion=_eq(lhs, ex2 + s2**2), strategy=Strategy.IDENTITY,
                 box={"E_X2": Range(0, 1), "E_X": Range(-1, 1), "sigma": Range(0.01, 5)}, samples=20)
