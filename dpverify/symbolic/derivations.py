"""Noise parameters derived by composing library lemmas symbolically, compared with the papers' formulas.

Each :class:`Derivation` has the derived ``expression`` (built from the library's lemma
expressions, never re-typed), the paper's ``printed`` formula under each reading considered,
and ``evaluate``/``evaluate_printed`` (mpmath at 50 digits, returned as float).
``compare(derivation)`` reports, per reading, whether the printed formula equals the derived one
and, if not, a numeric point where they differ.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Mapping

import mpmath
import sympy as sp

from ..validation import real as _real
from ..errors import InvalidArgument
from .library import (CAPACITY_BITS, CLASSICAL_SIGMA, COVARIANCE_L1_BOUND, DRV_EPSILON, EXP_LINEAR_BOUND,
                      GAUSS_TAIL_RADIUS, KENTHAPADI_SIGMA, KENTHAPADI_SIGMA_LITERAL, LAPLACE_SCALE, LM_THRESHOLD,
                      RANK_TWO_NUCLEAR)
from .library import S as _S
from .numeric import DPS, mp_value

__all__ = ["Derivation", "DERIVATIONS", "get_derivation", "compare"]

# user-facing symbols (names are the ``inputs``)
epsilon = sp.Symbol("epsilon", positive=True)
delta = sp.Symbol("delta", positive=True)
sensitivity = sp.Symbol("sensitivity", positive=True)
k = sp.Symbol("k", positive=True, integer=True)
B = sp.Symbol("B", positive=True)
sigma_p = sp.Symbol("sigma_p", positive=True)
n = sp.Symbol("n", positive=True, integer=True)
d = sp.Symbol("d", positive=True, integer=True)
n_prime = sp.Symbol("n_prime", positive=True, integer=True)
f2 = sp.Symbol("f2", nonnegative=True)

# domain rules: name -> (check(value) -> bool, text)
_RULES: dict[str, tuple[Callable[[float], bool], str]] = {
    "epsilon": (lambda x: x > 0, "> 0"),
    "delta": (lambda x: 0 < x < 1, "in (0, 1)"),
    "delta<1/2": (lambda x: 0 < x < 0.5, "in (0, 1/2)"),
    "epsilon<1": (lambda x: 0 < x < 1, "in (0, 1)"),
    "sensitivity": (lambda x: x > 0, "> 0"),
    "B": (lambda x: x > 0, "> 0"),
    "sigma_p": (lambda x: x > 0, "> 0"),
    "f2": (lambda x: x >= 0, ">= 0"),
    "int>=1": (lambda x: float(x).is_integer() and x >= 1, "an integer >= 1"),
}


@dataclass(frozen=True)
class Derivation:
    """A noise parameter derived from lemmas. See the module docstring."""

    id: str
    parameter: str
    expression: sp.Expr
    printed: Mapping[str, sp.Expr]
    inputs: tuple[str, ...]
    lemmas: tuple[str, ...]
    steps: tuple[str, ...]
    domain: Mapping[str, str] = field(default_factory=dict)

    def _values(self, values: Mapping) -> dict[str, str]:
        missing = [name for name in self.inputs if name not in values]
        extra = [name for name in values if name not in self.inputs]
        if missing or extra:
            raise InvalidArgument(
                f"{self.id}: inputs must be exactly {list(self.inputs)}; missing {missing}, unexpected {extra}."
            )
        out = {}
        for name in self.inputs:
            x = _real(name, values[name])
            rule = self.domain.get(name, name if name in _RULES else None)
            if rule is not None:
                ok, text = _RULES[rule]
                if not ok(x):
                    raise InvalidArgument(f"{name}={values[name]!r} must be {text} for {self.id}.")
            out[name] = repr(int(x)) if rule == "int>=1" else repr(x)
        return out

    def _eval(self, expr: sp.Expr, values: Mapping) -> float:
        vals = self._values(values)
        val = mp_value(expr, vals, DPS)
        if isinstance(val, mpmath.mpc) or not mpmath.isfinite(val) or not val > 0 and self.parameter != "sigma_RP":
            raise InvalidArgument(
                f"{self.id}: {self.parameter} is not a positive real number at {vals} ({mpmath.nstr(val, 8)}); "
                "the inputs are outside the formula's domain."
            )
        return float(val)

    def evaluate(self, **values) -> float:
        """The derived parameter at ``values`` (mpmath at 50 digits, rounded to float)."""
        return self._eval(self.expression, values)

    def evaluate_printed(self, reading: str, **values) -> float:
        """The paper's printed formula under ``reading`` at ``values``."""
        if reading not in self.printed:
            raise InvalidArgument(f"reading={reading!r} is not a reading of {self.id}; known: {sorted(self.printed)}.")
        return self._eval(self.printed[reading], values)


def compare(der: Derivation, point: Mapping[str, float]) -> dict[str, dict]:
    """For each printed reading: ``equal`` (sympy proves printed == derived), else the values at ``point``."""
    out = {}
    for reading, expr in der.printed.items():
        diff = sp.simplify(expr - der.expression)
        if diff == 0:
            out[reading] = {"equal": True}
            continue
        vals = {name: repr(point[name]) for name in der.inputs}
        p, q = mp_value(expr, vals), mp_value(der.expression, vals)
        out[reading] = {"equal": False, "point": vals, "printed": p, "derived": q,
                        "printed_expr": str(expr), "derived_expr": str(der.expression)}
    return out


def _sub(expr, mapping):
    return expr.subs(mapping, simultaneous=True)


def _lecture21_dp() -> dict[str, Derivation]:
    """lecture21-dp: the Laplace scale (Lemma 1) and the classical Gaussian mechanism (Lemma 6)."""
    D: dict[str, Derivation] = {}
    e_, dl_, D_ = _S.epsilon, _S.delta, _S.sensitivity
    # lecture21-dp/lemma-1: Laplace scale from the privacy-loss bound eps_loss = Delta/b = eps
    b = sp.Symbol("b", positive=True)
    loss_bound = D_ / b  # std/laplace-mechanism: loss <= |f - f'|/b <= Delta/b
    scale = sp.solve(sp.Eq(loss_bound, e_), b)[0]
    assert sp.simplify(scale - LAPLACE_SCALE) == 0  # the solved value is the library's Laplace scale
    D["lecture21-dp/lemma-1"] = Derivation(
        id="lecture21-dp/lemma-1", parameter="scale",
        expression=_sub(scale, {e_: epsilon, D_: sensitivity}),
        printed={"as-printed": sensitivity / epsilon}, inputs=("epsilon", "sensitivity"),
        lemmas=("std/laplace-mechanism",),
        steps=("privacy loss (1/b)(|y - f(S')| - |y - f(S)|) <= |f(S) - f(S')|/b <= M/b (std/laplace-mechanism)",
               "solve M/b = eps for b"))

    # lecture21-dp/lemma-6: the classical Gaussian mechanism (valid for eps <= 1)
    D["lecture21-dp/lemma-6"] = Derivation(
        id="lecture21-dp/lemma-6", parameter="sigma",
        expression=_sub(CLASSICAL_SIGMA, {e_: epsilon, dl_: delta, D_: sensitivity}),
        printed={"as-printed": sp.sqrt(2 * sp.log(sp.Rational(125, 100) / delta)) * sensitivity / epsilon},
        inputs=("epsilon", "delta", "sensitivity"), lemmas=("std/gaussian-mechanism-classical",),
        steps=("sigma = c B / eps with c = sqrt(2 log(1.25/delta)) (std/gaussian-mechanism-classical)",
               "sound for eps <= 1 only (certified there); for eps > 1 the exact profile exceeds delta "
               "(see lecture21-dp/lemma-6 in dpverify prove)"))
    return D


def _tu_projections() -> dict[str, Derivation]:
    """tu-projections: Kenthapadi (Lemma 2) and the two projection theorems."""
    D: dict[str, Derivation] = {}
    e_, dl_, D_, x_, k_ = _S.epsilon, _S.delta, _S.sensitivity, _S.x, _S.k
    # tu-projections/lemma-2: Kenthapadi
    D["tu-projections/lemma-2"] = Derivation(
        id="tu-projections/lemma-2", parameter="sigma",
        expression=_sub(KENTHAPADI_SIGMA, {e_: epsilon, dl_: delta, D_: sensitivity}),
        printed={"as-printed": _sub(KENTHAPADI_SIGMA, {e_: epsilon, dl_: delta, D_: sensitivity}),
                 "literal-precedence": _sub(KENTHAPADI_SIGMA_LITERAL, {e_: epsilon, dl_: delta, D_: sensitivity})},
        inputs=("epsilon", "delta", "sensitivity"), lemmas=("std/gaussian-mechanism-kenthapadi",),
        steps=("sigma^2 = 2 Delta^2 (log(1/(2 delta)) + eps)/eps^2 (Kenthapadi et al. Lemma 1)",),
        domain={"delta": "delta<1/2"})

    # tu-projections/theorem-1: Delta from Laurent-Massart at delta/2, then Kenthapadi at delta/2
    delta_half = delta / 2
    lm_x = sp.log(1 / delta_half)  # x = log(1/delta') with delta' = delta/2
    Delta_T1 = B * sigma_p * sp.sqrt(_sub(LM_THRESHOLD, {k_: k, x_: lm_x}))
    sigma_T1 = _sub(KENTHAPADI_SIGMA, {e_: epsilon, dl_: delta_half, D_: Delta_T1})
    L2 = sp.log(2 / delta)
    kenth_factor = sp.sqrt(2 * (sp.log(1 / (2 * delta)) + epsilon)) / epsilon
    D["tu-projections/theorem-1"] = Derivation(
        id="tu-projections/theorem-1", parameter="sigma", expression=sigma_T1,
        printed={
            "as-printed": B * sigma_p * sp.sqrt(k + 2 * sp.sqrt(k * L2) + 2 * L2 * kenth_factor),
            "sqrt-closed": B * sigma_p * sp.sqrt(k + 2 * sp.sqrt(k * L2) + 2 * L2) * kenth_factor,
            "sqrt-closed-literal": B * sigma_p * sp.sqrt(k + 2 * sp.sqrt(k * L2) + 2 * L2)
            * sp.sqrt(2 * (sp.log(delta / 2) + epsilon)) / epsilon,
        },
        inputs=("epsilon", "delta", "k", "B", "sigma_p"),
        lemmas=("std/laurent-massart", "std/gaussian-mechanism-kenthapadi"),
        steps=("||zP||_F = ||z|| sigma_p sqrt(chi2_k) (tu-projections Lemma 1 proof)",
               "Laurent-Massart at x = log(2/delta): with prob >= 1 - delta/2, ||zP||_F <= Delta = "
               "B sigma_p sqrt(k + 2 sqrt(k log(2/delta)) + 2 log(2/delta))",
               "Kenthapadi (Lemma 2) at delta/2 with sensitivity Delta: sigma = Delta sqrt(2(log(1/delta) + eps))/eps",
               "total failure probability delta/2 + delta/2 = delta"),
        domain={"delta": "delta<1/2", "k": "int>=1"})

    # tu-projections/theorem-2: per-column Gaussian tail + Kenthapadi, advanced composition, e^x <= 1 + 2x
    e1 = sp.Symbol("epsilon_1", positive=True)
    eps_prime = _sub(DRV_EPSILON, {k_: k, e_: e1, _S.delta_prime: delta / 2})
    eps_prime_lin = eps_prime.subs(sp.exp(e1), _sub(EXP_LINEAR_BOUND, {x_: e1}))
    roots = sp.solve(sp.Eq(eps_prime_lin, epsilon), e1)
    pos = [r for r in roots if sp.N(r.subs({k: 3, delta: sp.Rational(1, 100), epsilon: sp.Rational(1, 2)})) > 0]
    eps1 = pos[0]
    delta1 = delta / (2 * k)  # per-column budget, split between the tail event and the mechanism
    Delta_col = B * sigma_p * _sub(GAUSS_TAIL_RADIUS, {dl_: delta1 / 2})
    sigma_T2 = _sub(KENTHAPADI_SIGMA, {e_: e1, dl_: delta1 / 2, D_: Delta_col}).subs(e1, eps1)
    eps1_printed = (sp.sqrt(2 * k * sp.log(2 / delta) + 8 * k * epsilon) - sp.sqrt(2 * k * sp.log(2 / delta))) / (4 * k)
    sigma_T2_printed = (B * sigma_p / eps1_printed) * sp.sqrt(
        4 * sp.log(k / delta) ** 2 + 2 * eps1_printed * sp.log(2 * k / delta))
    D["tu-projections/theorem-2"] = Derivation(
        id="tu-projections/theorem-2", parameter="sigma", expression=sigma_T2,
        printed={"as-printed": sigma_T2_printed},
        inputs=("epsilon", "delta", "k", "B", "sigma_p"),
        lemmas=("std/gaussian-tail", "std/gaussian-mechanism-kenthapadi", "std/advanced-composition",
                "std/exp-le-1-plus-2x"),
        steps=("per column i: |<z, P_i>| <= B sigma_p sqrt(2 log(1/t)) except with prob t (std/gaussian-tail)",
               "Kenthapadi at level t with that sensitivity: the column is (eps_1, 2t)-DP; t = delta_1/2, "
               "delta_1 = delta/(2k) so that k delta_1 + delta' = delta with delta' = delta/2",
               "advanced composition: eps' = sqrt(2k log(2/delta)) eps_1 + k eps_1 (e^eps_1 - 1)",
               "e^x <= 1 + 2x on (0,1): eps' <= sqrt(2k log(2/delta)) eps_1 + 2k eps_1^2",
               "solve sqrt(2k log(2/delta)) eps_1 + 2k eps_1^2 = eps for the positive root (sympy)",
               f"eps_1 = {eps1}"),
        domain={"epsilon": "epsilon<1", "delta": "delta<1/2", "k": "int>=1"})
    return D


def _jiang_wishart() -> dict[str, Derivation]:
    """jiang-wishart: the Laplace covariance (Algorithm 1) and the Wishart scale (Algorithm 2)."""
    D: dict[str, Derivation] = {}
    e_, D_ = _S.epsilon, _S.sensitivity
    # jiang-wishart/algorithm-1: Laplace with l1 sensitivity 2d/n of the covariance
    D["jiang-wishart/algorithm-1"] = Derivation(
        id="jiang-wishart/algorithm-1", parameter="scale",
        expression=_sub(LAPLACE_SCALE, {D_: _sub(COVARIANCE_L1_BOUND, {_S.d: d, _S.n: n}), e_: epsilon}),
        printed={"as-printed": 2 * d / (n * epsilon)}, inputs=("epsilon", "n", "d"),
        lemmas=("std/covariance-l1-sensitivity", "std/laplace-mechanism"),
        steps=("l1 sensitivity of (1/n) X X^T <= 2d/n (std/covariance-l1-sensitivity)",
               "Laplace scale b = s1/eps (std/laplace-mechanism)"),
        domain={"n": "int>=1", "d": "int>=1"})

    # jiang-wishart/algorithm-2: C = c I; log-ratio = (1/2) tr(C^-1 Delta) <= (1/2)(1/c) ||Delta||_* <= N/(2 c n)
    c = sp.Symbol("c", positive=True)
    a_, b_, c_ = sp.symbols("a b c", real=True)
    nuclear_max = RANK_TWO_NUCLEAR.subs({a_: 1, b_: 1, c_: 0})  # |v|, |w| <= 1, worst case v orthogonal to w
    log_ratio_bound = (1 / c) * (nuclear_max / n) / 2
    C_val = sp.solve(sp.Eq(log_ratio_bound, epsilon), c)[0]
    D["jiang-wishart/algorithm-2"] = Derivation(
        id="jiang-wishart/algorithm-2", parameter="C", expression=C_val,
        printed={"as-printed": sp.Rational(3, 2) / (n * epsilon)}, inputs=("epsilon", "n"),
        lemmas=("std/wishart-density-ratio", "std/von-neumann-trace", "std/rank-two-nuclear-norm"),
        steps=("log p(W0) - log p(W0 + Delta) = (1/2) tr(C^-1 Delta) where both are PD (std/wishart-density-ratio)",
               "von Neumann: tr(C^-1 Delta) <= ||C^-1||_2 ||Delta||_* = ||Delta||_*/c (std/von-neumann-trace)",
               "||v v^T - w w^T||_* = sqrt((|v|^2 + |w|^2)^2 - 4 (v.w)^2) <= 2 (std/rank-two-nuclear-norm); "
               "the paper bounds it by 3",
               "solve (1/2)(1/c)(2/n) = eps for c; the support condition (W0 + Delta PSD) is not handled by this chain"),
        domain={"n": "int>=1"})
    return D


def _showkatbakhsh_regression() -> dict[str, Derivation]:
    """showkatbakhsh-regression: additive and random-projection noise by channel capacity."""
    D: dict[str, Derivation] = {}
    # showkatbakhsh-regression/lemma-1: (1/2) log2(1 + 1/sigma^2) = eps
    s2 = sp.Symbol("s2", positive=True)
    cap = _sub(CAPACITY_BITS, {_S.P: 1, _S.sigma: sp.sqrt(s2)})
    s2_sol = sp.solve(sp.Eq(cap, epsilon), s2)[0]
    D["showkatbakhsh-regression/lemma-1"] = Derivation(
        id="showkatbakhsh-regression/lemma-1", parameter="sigma_AN", expression=sp.sqrt(s2_sol),
        printed={"as-printed": sp.sqrt(1 / (2 ** (2 * epsilon) - 1))}, inputs=("epsilon",),
        lemmas=("std/gaussian-channel-capacity",),
        steps=("|X_11| <= 1 implies E X_11^2 <= 1 (power P = 1)",
               "I(X_11; X_11 + sigma N) <= (1/2) log2(1 + 1/sigma^2) bits (std/gaussian-channel-capacity)",
               "solve (1/2) log2(1 + 1/sigma^2) = eps for sigma^2 (sympy)"))

    # showkatbakhsh-regression/lemma-2: (1/2) log2(1 + n'/(f^2 + sigma^2)) = eps, then the positive part
    cap_rp = _sub(CAPACITY_BITS, {_S.P: n_prime, _S.sigma: sp.sqrt(f2 + s2)})
    s2_rp = sp.solve(sp.Eq(cap_rp, epsilon), s2)[0]
    D["showkatbakhsh-regression/lemma-2"] = Derivation(
        id="showkatbakhsh-regression/lemma-2", parameter="sigma_RP", expression=sp.sqrt(sp.Max(0, s2_rp)),
        printed={"as-printed": sp.sqrt(sp.Max(0, n_prime / (2 ** (2 * epsilon) - 1) - f2))},
        inputs=("epsilon", "n_prime", "f2"),
        lemmas=("std/gaussian-channel-capacity",),
        steps=("coherent bound: I(X_11; z) <= I(X_11; z, S) <= E (1/2) log2(1 + |S_1|^2 / sigma_nu^2)",
               "Jensen: <= (1/2) log2(1 + n' / sigma_nu^2), sigma_nu^2 >= f^2(X) + sigma^2",
               "solve (1/2) log2(1 + n'/(f^2 + sigma^2)) = eps for sigma^2; negative -> no noise (positive part)"),
        domain={"n_prime": "int>=1"})
    return D


def _build() -> dict[str, Derivation]:
    """The derivations, paper by paper (the order of ``DERIVATIONS`` is the order of these builders)."""
    D: dict[str, Derivation] = {}
    for builder in (_lecture21_dp, _tu_projections, _jiang_wishart, _showkatbakhsh_regression):
        D.update(builder())
    return D


DERIVATIONS: Mapping[str, Derivation] = _build()


def get_derivation(id: str) -> Derivation:
    """The derivation with this claim ID; InvalidArgument listing the known IDs otherwise."""
    try:
        return DERIVATIONS[id]
    except (KeyError, TypeError):
        raise InvalidArgument(f"id={id!r} is not a known derivation; known: {sorted(DERIVATIONS)}.") from None
