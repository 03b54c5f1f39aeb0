"""Privacy statements encoded with the claim's own parameters, and checked from the mechanism's density.

* :func:`location_loss_sup` -- the supremum, over outputs ``x`` and neighbouring centres
  ``|mu - mu'| <= sensitivity``, of the privacy loss ``log p(x; mu) - log p(x; mu')`` of a location
  family given by its sympy log density. The loss must be piecewise linear in ``x`` and in the shift
  (checked: its second derivatives vanish off the kinks), so the supremum is attained at a kink or
  at infinity; the candidates are evaluated by sympy and their maximum simplified.
* :func:`laplace_log_density` -- ``log`` of the sympy.stats density of ``mu + b Laplace(0, 1)``.
* :func:`l1_product_loss_sup` -- the same for ``K`` independent coordinates of one family under an
  l1 sensitivity ``B``: the per-coordinate supremum must be ``k |u|`` (checked), so the loss of the
  product is ``k ||u||_1 <= k B``.
* :class:`ReducedStatement` -- a general statement reduced by named generic lemmas (which do not
  involve the claim's constants) to a *residual* inequality that does; a *witness* family of
  concrete mechanisms attains the bound, so a false residual is refuted on a concrete mechanism.

Every verdict is computed: by ``Lemma.check`` on statements that carry the claim's parameters, or by
the witness search (re-evaluated at 50 digits). Nothing here builds a verdict from a literal.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Mapping, Sequence

import sympy as sp

from ..errors import InvalidArgument
from .lemma import Lemma
from .proof import merge_domains
from .verdicts import CheckResult, ProofVerdict

__all__ = ["location_loss_sup", "laplace_log_density", "l1_product_loss_sup", "ReducedStatement"]


def laplace_log_density(x: sp.Symbol, mu: sp.Symbol, scale: sp.Expr) -> sp.Expr:
    """``log`` of the sympy.stats density of ``mu + scale * X``, ``X ~ Laplace(0, 1)``, at ``x``."""
    from sympy.stats import Laplace, density

    X = Laplace("X_laplace_unit", 0, 1)
    dens = density(mu + scale * X)(x)
    return sp.expand_log(sp.log(dens), force=True)


def _kinks(expr: sp.Expr, var: sp.Symbol) -> list[sp.Expr]:
    out = []
    for a in expr.atoms(sp.Abs):
        for root in sp.solve(a.args[0], var):
            if root.is_real is not False:
                out.append(root)
    return out


def _piecewise_linear(expr: sp.Expr, var: sp.Symbol) -> bool:
    d2 = sp.diff(expr, var, 2).replace(sp.DiracDelta, lambda *a: 0)
    return sp.simplify(d2) == 0


def location_loss_sup(logpdf: sp.Expr, x: sp.Symbol, mu: sp.Symbol, sensitivity: sp.Expr) -> sp.Expr:
    """sup over x real and |mu - mu'| <= sensitivity of ``logpdf(x; mu) - logpdf(x; mu')``.

    Raises InvalidArgument if the family is not translation invariant or the loss is not piecewise
    linear in x and in the shift (the only case this derivation covers; ``oo`` is returned when a
    limit at infinity is unbounded).
    """
    shift = sp.Symbol("shift_u", real=True)
    t = sp.Symbol("t_out", real=True)
    if sp.simplify(logpdf.subs(x, t + mu) - logpdf.subs({x: t, mu: 0})) != 0:
        raise InvalidArgument(f"logpdf={logpdf} is not a location family in {mu}.")
    loss = sp.simplify(logpdf.subs(mu, 0) - logpdf.subs(mu, shift))
    if not (_piecewise_linear(loss, x) and _piecewise_linear(loss, shift)):
        raise InvalidArgument(f"the privacy loss {loss} is not piecewise linear in {x} and the shift.")
    cands = [loss.subs(x, k) for k in _kinks(loss, x)]
    cands += [sp.limit(loss, x, sp.oo), sp.limit(loss, x, -sp.oo)]
    if any(c in (sp.oo, sp.zoo) for c in cands):
        return sp.oo
    sup_x = sp.simplify(sp.Max(*cands))
    # piecewise linear in the shift: the sup over [-s, s] is at an end or a kink inside
    ucands = [sup_x.subs(shift, sensitivity), sup_x.subs(shift, -sensitivity)]
    ucands += [sup_x.subs(shift, k) for k in _kinks(sup_x, shift)]
    return sp.simplify(sp.Max(*ucands))


def l1_product_loss_sup(logpdf: sp.Expr, x: sp.Symbol, mu: sp.Symbol, l1_sensitivity: sp.Expr) -> sp.Expr:
    """sup of the loss of K independent coordinates, each ``logpdf``, under ||mu - mu'||_1 <= B (any K).

    The loss of a product density is the sum of the coordinates' losses (log of a product); the
    supremum over the outputs separates by coordinate; the per-coordinate supremum for a shift u_i must
    be ``k |u_i|`` (checked by sympy), so the total is ``k ||u||_1 <= k B``.
    """
    u = sp.Symbol("u_coord", positive=True)
    per = location_loss_sup(logpdf, x, mu, u)
    k = sp.simplify(per / u)
    if k.has(u) or k.is_nonnegative is not True:
        raise InvalidArgument(f"per-coordinate supremum {per} is not k |u| with k >= 0 independent of u.")
    return sp.simplify(k * l1_sensitivity)


@dataclass(frozen=True)
class ReducedStatement:
    """A general statement = generic lemmas (``reduction``) + a claim-specific ``residual`` inequality.

    ``residual`` and ``witness`` are :class:`Lemma` values that share the statement's named
    ``constants`` (the mutation campaign perturbs them jointly). ``witness`` evaluates a concrete
    family of mechanisms that attains the bound (its conclusion is the claim on that family): a
    counterexample there refutes the general statement. ``check()``: witness search first (REFUTED
    with a 50-digit re-evaluated counterexample), else the residual's verdict capped by the reduction.
    """

    id: str
    statement: str
    reduction: Sequence[tuple[str, Lemma]]
    residual: Lemma
    witness: Lemma | None = None
    constants: Mapping[str, object] = field(default_factory=dict)
    #: True when the reduction only bounds the claim (the residual implies it, not conversely): a failing
    #: residual then leaves the statement UNKNOWN (the route fails), never REFUTED; only the witness refutes.
    relaxed: bool = False
    #: The region of the witness's symbols that the residual's parametrisation covers (e.g. delta <= 1/2 when the
    #: residual is written in L = log(1/(2 delta)) >= 0), a sympy relational. ``check`` requires it to be one of the
    #: witness's hypotheses; otherwise the route does not cover the statement and the verdict is UNKNOWN, never PROVED.
    domain: sp.Basic | None = None

    def __post_init__(self):
        object.__setattr__(self, "constants", {k: sp.nsimplify(v) for k, v in dict(self.constants).items()})
        object.__setattr__(self, "reduction", tuple(self.reduction))
        if self.domain is not None and not isinstance(self.domain, sp.Rel):
            raise InvalidArgument(f"{self.id}: domain={self.domain!r} must be a sympy relational (e.g. "
                                  "sp.Le(delta, sp.Rational(1, 2))), the region the residual covers, or None.")
        for name, lem in self.reduction:
            if set(lem.constants) & set(self.constants):
                raise InvalidArgument(f"{self.id}: reduction lemma {name} must not use the claim's constants.")

    def with_constants(self, **changes) -> "ReducedStatement":
        consts = {**self.constants, **changes}
        return replace(self, constants=consts,
                       residual=replace(self.residual, constants={**self.residual.constants, **_own(self.residual, consts)}),
                       witness=None if self.witness is None else replace(
                           self.witness, constants={**self.witness.constants, **_own(self.witness, consts)}))

    def _domain_covered(self) -> bool:
        """``self.domain`` is None or one of the witness's hypotheses, so every point of the statement lies in the
        region the residual covers."""
        if self.domain is None:
            return True
        if self.witness is None:
            return False
        dom = self.domain.canonical
        return any(isinstance(h, sp.Rel) and h.canonical == dom for h in self.witness.substituted().hypotheses)

    def check(self) -> CheckResult:
        res = self.with_constants()  # push the statement's constants into both lemmas
        if res.witness is not None:
            w = res.witness.check()
            if w.verdict is ProofVerdict.REFUTED:
                return CheckResult(ProofVerdict.REFUTED, f"{self.id}: on the witness family: {w.evidence}",
                                   counterexample=w.counterexample, details=w.details)
        if not res._domain_covered():
            return CheckResult(ProofVerdict.UNKNOWN, f"{self.id}: the residual covers only {self.domain}, which is not "
                                                     "among the statement's hypotheses; the route does not cover the "
                                                     "statement")
        r = res.residual.check()
        if r.verdict is ProofVerdict.REFUTED and self.relaxed:
            return CheckResult(ProofVerdict.UNKNOWN, f"{self.id}: the relaxed residual fails ({r.evidence}); the "
                                                     "statement itself is not refuted (its witness search found no "
                                                     "counterexample)", details=r.details)
        if r.verdict is ProofVerdict.REFUTED:
            return CheckResult(ProofVerdict.REFUTED, f"{self.id}: residual inequality fails: {r.evidence}",
                               counterexample=r.counterexample, details=r.details)
        red = [(name, lem.check()) for name, lem in self.reduction]
        order = [ProofVerdict.PROVED, ProofVerdict.CERTIFIED, ProofVerdict.TESTED, ProofVerdict.UNKNOWN,
                 ProofVerdict.REFUTED]
        worst = max([r.verdict] + [c.verdict for _, c in red], key=order.index)
        if worst is ProofVerdict.REFUTED:
            worst = ProofVerdict.UNKNOWN
        names = "; ".join(f"{n} ({c.verdict.value})" for n, c in red)
        return CheckResult(worst, f"{self.id}: reduced by generic lemmas [{names}] to the claim's residual: "
                                  f"{r.evidence}",
                           details=tuple(f"{n}: {c.evidence}" for n, c in red),
                           premises=tuple(dict.fromkeys(x for c in [r, *(c for _, c in red)] for x in c.premises)),
                           domain=merge_domains(r, *(c for _, c in red)))


def _own(lem: Lemma, consts: Mapping[str, object]) -> dict:
    """The constants of ``consts`` that occur in ``lem`` (by symbol name)."""
    exprs = [lem.conclusion, *lem.hypotheses, *(lem.reparam or {}).values()]
    names = {s.name for e in exprs for s in e.free_symbols}
    return {k: v for k, v in consts.items() if k in names}
