"""Privacy claims, neighbour relations and verdicts: the shared vocabulary."""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from . import validation as v
from .messages import describe

__all__ = ["ClaimForm", "NeighbourRelation", "PrivacyClaim", "PrivacyCurve", "Verdict", "claim_of"]


class NeighbourRelation(enum.Enum):
    """Which datasets count as neighbours."""

    #: D and D' have the same size and differ in one record (row, column or entry).
    REPLACE_ONE = "replace-one"
    #: D' is D with one record added or removed.
    ADD_REMOVE_ONE = "add-remove-one"


class Verdict(str, enum.Enum):
    """The outcome of an empirical audit. There is no "private": a test cannot prove privacy.

    ``Verdict.VIOLATED == "violated"`` is true, so results compare equal to plain strings.
    """

    #: A violation of the claim was found with the stated confidence.
    VIOLATED = "violated"
    #: The point estimate does not exceed the claim: no evidence of a violation.
    NOT_VIOLATED = "not-violated"
    #: The point estimate exceeds the claim, but not significantly at the stated confidence.
    INCONCLUSIVE = "inconclusive"
    #: The mechanism's ``log_density`` does not describe its ``sample`` (white-box audits): no
    #: privacy verdict is given, since the bounds would rest on a density the sampler does not follow.
    INCONSISTENT = "inconsistent"

    def __str__(self) -> str:  # "violated", not "Verdict.VIOLATED"
        return self.value


@dataclass(frozen=True)
class PrivacyClaim:
    """The promise "(epsilon, delta)-DP under ``relation``", validated at construction.

    ``epsilon`` must be finite and >= 0, ``delta`` in [0, 1); NaN is rejected.

    Libraries also state their promise as a *curve*; build those claims with
    :meth:`zcdp` (rho-zCDP), :meth:`renyi` (Renyi DP at orders alpha), :meth:`profile` (a privacy
    profile delta(eps)), :meth:`gdp` (mu-GDP), :meth:`fdp` (a trade-off function) and :meth:`curve_of` (an
    accountant's delta(eps)). A curve claim keeps ``epsilon``/``delta`` as one point of its curve (the
    headline point, where delta is :data:`HEADLINE_DELTA` or the smallest delta the curve reaches),
    carries the curve in ``curve``, and :func:`dpverify.audit` tests several points of the whole
    curve (:mod:`dpverify.auditing.curve`). Every form answers :meth:`delta_at`, the delta it
    implies at any epsilon, on the safe side (never smaller than what the claim truly implies).
    """

    epsilon: float
    delta: float = 0.0
    relation: NeighbourRelation = NeighbourRelation.REPLACE_ONE
    #: The curve of a zCDP / Renyi / profile claim; None for a plain (epsilon, delta) claim.
    curve: "PrivacyCurve | None" = None

    def __post_init__(self) -> None:
        if self.curve is not None and not isinstance(self.curve, PrivacyCurve):
            raise v.InvalidArgument(
                f"curve={self.curve!r} must be built by PrivacyClaim.zcdp/.renyi/.profile, not passed "
                "by hand.")
        eps = v.nonnegative("epsilon", self.epsilon, fix="A privacy claim needs a finite epsilon >= 0.")
        delta = v.probability("delta", self.delta, fix="A privacy claim needs 0 <= delta < 1.")
        if not isinstance(self.relation, NeighbourRelation):
            raise v.InvalidArgument(
                f"relation={self.relation!r} must be a NeighbourRelation "
                f"(e.g. NeighbourRelation.REPLACE_ONE), not {type(self.relation).__name__}."
            )
        object.__setattr__(self, "epsilon", eps)
        object.__setattr__(self, "delta", delta)

    def __repr__(self) -> str:
        extra = "" if self.relation is NeighbourRelation.REPLACE_ONE else f", relation={self.relation}"
        if self.curve is not None:
            return f"PrivacyClaim.{self.curve.describe()[:-1]}{extra})"
        return f"PrivacyClaim(epsilon={self.epsilon!r}, delta={self.delta!r}{extra})"

    def to_dict(self) -> dict:
        d = {"epsilon": self.epsilon, "delta": self.delta, "relation": self.relation.value}
        if self.curve is not None:
            d["form"] = self.curve.form.value
            d["curve"] = self.curve.to_dict()
        return d

    # -- claim forms ------------------------------------------------------------------------

    @property
    def form(self) -> "ClaimForm":
        """How the claim was stated: ``PURE``, ``APPROXIMATE``, ``ZCDP``, ``RENYI`` or ``PROFILE``."""
        if self.curve is not None:
            return self.curve.form
        return ClaimForm.PURE if self.delta == 0 else ClaimForm.APPROXIMATE

    @property
    def is_curve(self) -> bool:
        """True for zCDP, Renyi and profile claims: the audit tests several points of the curve."""
        return self.curve is not None

    def delta_at(self, epsilon: float) -> float:
        """The delta this claim implies at ``epsilon``, on the safe side (an upper bound on the true one).

        Plain (eps0, delta0): delta0 for epsilon >= eps0; below eps0 the exact profile of the
        dominating (eps0, delta0) mechanism, delta0 + (1 - delta0)(e^eps0 - e^eps)/(1 + e^eps0)
        (Kairouz, Oh & Viswanath 2015, Theorem 2.1). Curves: see :class:`PrivacyCurve`.
        """
        eps = v.nonnegative("epsilon", epsilon, fix="delta_at needs a finite epsilon >= 0.")
        if self.curve is not None:
            return self.curve.delta_at(eps)
        return _dominating_delta(eps, self.epsilon, self.delta)

    def audit_points(self, count: int = 5) -> tuple[tuple[float, float], ...]:
        """The (epsilon, delta) points an audit tests: the claim itself, or ``count`` points of a curve.

        For a curve the points are where :meth:`delta_at` falls to the targets
        :data:`CURVE_DELTA_TARGETS` (those below delta_at(0)), since a Monte Carlo audit has power
        where delta is not tiny; a profile given as points uses (up to ``count`` of) its own points.
        Each point's delta is ``delta_at`` at its epsilon, so a violation at any point is a
        violation of the claim.
        """
        count = v.integer("count", count, minimum=1)
        if self.curve is None:
            return ((self.epsilon, self.delta),)
        return self.curve.audit_points(count)

    @classmethod
    def zcdp(cls, rho: float, relation: NeighbourRelation = NeighbourRelation.REPLACE_ONE) -> "PrivacyClaim":
        """rho-zero-concentrated DP (Bun & Steinke 2016): D_alpha(M(D)||M(D')) <= alpha rho for all alpha > 1."""
        return cls._from_curve(ZCDPCurve(v.nonnegative("rho", rho, fix="A zCDP claim needs a finite rho >= 0.")),
                               relation)

    @classmethod
    def renyi(cls, orders: Any, epsilons: Any = None,
              relation: NeighbourRelation = NeighbourRelation.REPLACE_ONE) -> "PrivacyClaim":
        """Renyi DP (Mironov 2017): ``renyi([2, 4, 8], [0.1, 0.3, 0.9])``, or ``renyi(fn)`` with fn(alpha) -> eps(alpha).

        Orders must be > 1; values finite and >= 0. A callable is evaluated at
        :data:`RENYI_ORDERS` (and must give finite values >= 0 there).
        """
        return cls._from_curve(RenyiCurve.build(orders, epsilons), relation)

    @classmethod
    def profile(cls, points: Any, relation: NeighbourRelation = NeighbourRelation.REPLACE_ONE) -> "PrivacyClaim":
        """A privacy profile: (eps, delta(eps)) points ``[(0.5, 1e-3), (1.0, 1e-6)]`` or a callable eps -> delta.

        A callable is trusted at every epsilon the audit asks about (its values must lie in
        [0, 1]); points each state (eps_i, delta_i)-DP.
        """
        return cls._from_curve(ProfileCurve.build(points), relation)

    @classmethod
    def gdp(cls, mu: float, relation: NeighbourRelation = NeighbourRelation.REPLACE_ONE) -> "PrivacyClaim":
        """mu-Gaussian DP (Dong, Roth & Su 2022): as hard to tell apart as N(0, 1) from N(mu, 1)."""
        return cls._from_curve(GDPCurve(v.nonnegative("mu", mu, fix="A GDP claim needs a finite mu >= 0.")), relation)

    @classmethod
    def fdp(cls, tradeoff: Any, relation: NeighbourRelation = NeighbourRelation.REPLACE_ONE) -> "PrivacyClaim":
        """f-DP (Dong, Roth & Su 2022) for a trade-off function ``tradeoff(x)`` on [0, 1] (non-increasing, values
        in [0, 1], at most 1 - x): every test of type I error x has type II error at least f(x)."""
        return cls._from_curve(TradeoffCurve.build(tradeoff), relation)

    @classmethod
    def curve_of(cls, source: Any, relation: NeighbourRelation | None = None) -> "PrivacyClaim":
        """The curve delta(eps) of ``source`` read as the claim: a :class:`dpverify.Accountant` (its certified
        upper bound ``delta(eps)``, and its neighbour relation) -- "my mechanism is what my accountant says" --
        or a callable eps -> delta (as :meth:`profile`). (Not named ``curve``: that is the field holding a
        claim's curve.)"""
        if callable(getattr(source, "delta", None)) and hasattr(source, "compose"):
            rel = relation or getattr(source, "relation", None) or NeighbourRelation.REPLACE_ONE
            return cls._from_curve(AccountantCurve(source), rel)
        if callable(source):
            return cls._from_curve(ProfileCurve.build(source), relation or NeighbourRelation.REPLACE_ONE)
        raise v.InvalidArgument(f"source={describe(source)} must be a dpverify.Accountant or a callable eps -> delta.")

    @classmethod
    def _from_curve(cls, curve: "PrivacyCurve", relation: NeighbourRelation) -> "PrivacyClaim":
        eps, delta = curve.headline()
        return cls(eps, delta, relation, curve)


class ClaimForm(str, enum.Enum):
    """The form in which a privacy claim was stated."""

    PURE = "pure"                #: epsilon-DP
    APPROXIMATE = "approximate"  #: (epsilon, delta)-DP
    ZCDP = "zcdp"                #: rho-zCDP
    RENYI = "renyi"              #: (alpha, eps(alpha))-RDP
    PROFILE = "profile"          #: delta(eps) for every eps
    GDP = "gdp"                  #: mu-Gaussian DP
    FDP = "f-dp"                 #: a trade-off function f
    CURVE = "curve"              #: delta(eps) of an accountant (or a function), read as the claim

    def __str__(self) -> str:
        return self.value


#: delta of the headline point of a curve claim (its ``epsilon``/``delta`` fields).
HEADLINE_DELTA = 1e-6
#: Where an audit tests a curve: the epsilons at which delta_at falls to these deltas.
CURVE_DELTA_TARGETS = (0.3, 0.1, 0.03, 0.01, 1e-3)
#: Orders at which a Renyi claim given as a callable is evaluated (and zCDP optimised from).
RENYI_ORDERS = tuple([1.0 + x for x in (0.01, 0.05, 0.1, 0.25, 0.5, 0.75)]
                     + [2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0, 12.0, 16.0, 20.0, 24.0, 32.0, 48.0, 64.0,
                        128.0, 256.0, 512.0, 1024.0])
#: Relative margin added to computed deltas so float64 round-off never lands on the unsafe side.
_SAFETY = 1e-12


def _dominating_delta(eps: float, eps0: float, delta0: float) -> float:
    """delta(eps) of the (eps0, delta0) mechanism that dominates every (eps0, delta0)-DP one."""
    if eps >= eps0:
        return delta0
    # delta0 + (1 - delta0) (e^eps0 - e^eps) / (1 + e^eps0), written to avoid overflow for large eps0
    frac = -math.expm1(eps - eps0) / (1.0 + math.exp(-eps0))
    return min(1.0, (delta0 + (1.0 - delta0) * frac) * (1 + _SAFETY))


def _log_delta_rdp(alpha: float, eps_alpha: float, eps: float) -> float:
    """log delta from (alpha, eps_alpha)-RDP at eps (Canonne, Kamath & Steinke 2020, Proposition 12).

    delta = exp((alpha - 1)(eps_alpha - eps)) / alpha * (1 - 1/alpha)^(alpha - 1), valid for every
    alpha > 1 and eps >= 0; it is never worse than Mironov's exp((alpha - 1)(eps_alpha - eps)).
    """
    return (alpha - 1.0) * (eps_alpha - eps + math.log1p(-1.0 / alpha)) - math.log(alpha)


def _invert(delta_at: Callable[[float], float], target: float, hi: float = 1.0) -> float | None:
    """The smallest eps (to 1e-9 relative) with delta_at(eps) <= target, or None beyond eps = 1e6."""
    if delta_at(0.0) <= target:
        return 0.0
    while delta_at(hi) > target:
        hi *= 2.0
        if hi > 1e6:
            return None
    lo = 0.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if delta_at(mid) <= target:
            hi = mid
        else:
            lo = mid
        if hi - lo <= 1e-9 * max(1.0, hi):
            break
    return hi  # delta_at(hi) <= target holds: the returned eps is on the safe side


class PrivacyCurve:
    """A claim stated as a curve; subclasses implement ``delta_at`` on the safe side."""

    form: ClaimForm

    def delta_at(self, eps: float) -> float:  # pragma: no cover - abstract
        raise NotImplementedError

    def describe(self) -> str:  # pragma: no cover - abstract
        raise NotImplementedError

    def to_dict(self) -> dict:  # pragma: no cover - abstract
        raise NotImplementedError

    def headline(self) -> tuple[float, float]:
        """(eps, delta_at(eps)) where delta first reaches HEADLINE_DELTA (or the curve's smallest delta)."""
        eps = _invert(self.delta_at, HEADLINE_DELTA)
        if eps is None:
            eps = 1e6
        return eps, min(self.delta_at(eps), 1.0 - 1e-12)

    def audit_points(self, count: int) -> tuple[tuple[float, float], ...]:
        top = self.delta_at(0.0)
        eps_list = []
        for target in CURVE_DELTA_TARGETS:
            if target < top:
                e = _invert(self.delta_at, target)
                if e is not None:
                    eps_list.append(e)
        if not eps_list:
            eps_list = [0.0]
        if len(eps_list) > count:  # keep the ends and spread the rest
            idx = sorted({round(i * (len(eps_list) - 1) / (count - 1)) for i in range(count)}) if count > 1 else [0]
            eps_list = [eps_list[i] for i in idx]
        return tuple((e, min(self.delta_at(e), 1.0 - 1e-12)) for e in eps_list)


class ZCDPCurve(PrivacyCurve):
    """rho-zCDP. delta_at(eps) = min over alpha > 1 of the Canonne-Kamath-Steinke conversion with
    eps_alpha = alpha rho (their Proposition 12 / Corollary 13), minimised numerically over alpha.
    Every alpha gives a valid bound, so the minimiser's accuracy affects only tightness, never safety.
    It is below Bun & Steinke's exp(-(eps - rho)^2 / (4 rho)) (2016, Proposition 1.3) everywhere.
    At eps = 0 it is also capped by total variation <= sqrt(1 - e^-rho) (Bretagnolle-Huber, KL <= rho).
    """

    form = ClaimForm.ZCDP

    def __init__(self, rho: float):
        self.rho = rho

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ZCDPCurve) and other.rho == self.rho

    def __hash__(self) -> int:
        return hash(("zcdp", self.rho))

    def describe(self) -> str:
        return f"zcdp(rho={self.rho!r})"

    def to_dict(self) -> dict:
        return {"rho": self.rho}

    def delta_at(self, eps: float) -> float:
        rho = self.rho
        if rho == 0:
            return 0.0
        tv = math.sqrt(-math.expm1(-rho))  # delta(eps) <= delta(0) = TV
        # f(alpha) = log delta is convex in alpha; golden-section search on a bracket, then take
        # the best alpha evaluated (any alpha > 1 is a valid bound).
        def f(a: float) -> float:
            return _log_delta_rdp(a, a * rho, eps)
        a_star = 1.0 + max(eps - rho, 0.0) / (2.0 * rho)  # minimiser of the Mironov form, a good start
        lo, hi = 1.0 + 1e-9, max(4.0 * a_star, 2.0)
        g = (math.sqrt(5) - 1) / 2
        c, d = hi - g * (hi - lo), lo + g * (hi - lo)
        fc, fd = f(c), f(d)
        best = min(fc, fd, f(a_star) if a_star > 1 else fc)
        for _ in range(200):
            if fc < fd:
                hi, d, fd = d, c, fc
                c = hi - g * (hi - lo)
                fc = f(c)
            else:
                lo, c, fc = c, d, fd
                d = lo + g * (hi - lo)
                fd = f(d)
            best = min(best, fc, fd)
            if hi - lo < 1e-10 * hi:
                break
        delta = math.exp(best) if best < 700 else math.inf
        return min(1.0, tv, delta * (1 + _SAFETY))


class RenyiCurve(PrivacyCurve):
    """(alpha, eps(alpha))-RDP at finitely many orders. delta_at(eps) = min over the orders of the
    Canonne-Kamath-Steinke conversion (Proposition 12); each order gives a valid bound."""

    form = ClaimForm.RENYI

    def __init__(self, orders: tuple, values: tuple, function: Callable | None):
        self.orders, self.values, self.function = orders, values, function

    @classmethod
    def build(cls, orders: Any, epsilons: Any) -> "RenyiCurve":
        function = None
        if callable(orders):
            if epsilons is not None:
                raise v.InvalidArgument(
                    f"epsilons={epsilons!r} must be None when orders is a callable alpha -> eps(alpha).")
            function = orders
            orders = RENYI_ORDERS
            values = []
            for a in orders:
                try:
                    val = function(a)
                except Exception as exc:
                    raise v.InvalidArgument(
                        f"orders={function!r} raised {type(exc).__name__} at alpha={a}: {exc}; a Renyi "
                        "claim given as a callable must accept every order alpha > 1.") from None
                values.append(v.nonnegative(f"orders({a})", val,
                                            fix="A Renyi claim needs eps(alpha) finite and >= 0."))
        else:
            if epsilons is None:
                raise v.InvalidArgument(
                    f"orders={orders!r} needs epsilons (one eps(alpha) per order), or pass a callable.")
            orders, values = list(orders), list(epsilons)
            if not orders or len(orders) != len(values):
                raise v.InvalidArgument(
                    f"orders (length {len(orders)}) and epsilons (length {len(values)}) must be non-empty "
                    "and of the same length.")
            orders = [v.real(f"orders[{i}]", a, fix="Renyi orders must be finite.") for i, a in enumerate(orders)]
            for i, a in enumerate(orders):
                if not a > 1:
                    raise v.InvalidArgument(f"orders[{i}]={a!r} must be > 1 (Renyi DP is stated at alpha > 1).")
            values = [v.nonnegative(f"epsilons[{i}]", e, fix="A Renyi claim needs eps(alpha) finite and >= 0.")
                      for i, e in enumerate(values)]
        return cls(tuple(float(a) for a in orders), tuple(values), function)

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, RenyiCurve) and (other.orders, other.values, other.function)
                == (self.orders, self.values, self.function))

    def __hash__(self) -> int:
        return hash(("renyi", self.orders, self.values))

    def describe(self) -> str:
        if self.function is not None:
            return f"renyi({getattr(self.function, '__name__', repr(self.function))})"
        return f"renyi(orders={list(self.orders)!r}, epsilons={list(self.values)!r})"

    def to_dict(self) -> dict:
        return {"orders": list(self.orders), "epsilons": list(self.values),
                "function": None if self.function is None else repr(self.function)}

    def delta_at(self, eps: float) -> float:
        best = min(_log_delta_rdp(a, e, eps) for a, e in zip(self.orders, self.values))
        return min(1.0, math.exp(best) * (1 + _SAFETY)) if best < 700 else 1.0


class ProfileCurve(PrivacyCurve):
    """A privacy profile. Points: delta_at(eps) = min over the points (eps_i, delta_i) of the profile
    of the mechanism dominating (eps_i, delta_i)-DP (so delta_i for eps >= eps_i). A callable is
    trusted as the claim itself: delta_at(eps) = fn(eps)."""

    form = ClaimForm.PROFILE

    def __init__(self, points: tuple, function: Callable | None):
        self.points, self.function = points, function

    @classmethod
    def build(cls, points: Any) -> "ProfileCurve":
        if callable(points):
            fn = points
            for e in (0.0, 0.5, 1.0, 4.0):  # fail early on a callable that cannot be a profile
                cls(( ), fn).delta_at(e)
            return cls((), fn)
        pts = list(points)
        if not pts:
            raise v.InvalidArgument("points=[] is empty; a privacy profile needs at least one (eps, delta).")
        out = []
        for i, p in enumerate(pts):
            if not (isinstance(p, (tuple, list)) and len(p) == 2):
                raise v.InvalidArgument(f"points[{i}]={p!r} must be a pair (eps, delta).")
            out.append((v.nonnegative(f"points[{i}][0]", p[0], fix="A profile's eps must be finite and >= 0."),
                        v.probability(f"points[{i}][1]", p[1], fix="A profile's delta must lie in [0, 1).")))
        return cls(tuple(sorted(out)), None)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ProfileCurve) and (other.points, other.function) == (self.points, self.function)

    def __hash__(self) -> int:
        return hash(("profile", self.points))

    def describe(self) -> str:
        if self.function is not None:
            return f"profile({getattr(self.function, '__name__', repr(self.function))})"
        return f"profile({[tuple(p) for p in self.points]!r})"

    def to_dict(self) -> dict:
        return {"points": [list(p) for p in self.points],
                "function": None if self.function is None else repr(self.function)}

    def delta_at(self, eps: float) -> float:
        if self.function is not None:
            try:
                val = self.function(eps)
            except Exception as exc:
                raise v.InvalidArgument(f"profile={self.function!r} raised {type(exc).__name__} at "
                                        f"eps={eps}: {exc}.") from None
            return v.probability(f"profile({eps})", val, high_open=False,
                                 fix="A privacy profile's delta(eps) must lie in [0, 1].")
        return min(_dominating_delta(eps, e0, d0) for e0, d0 in self.points)

    def audit_points(self, count: int) -> tuple[tuple[float, float], ...]:
        if self.function is not None:
            return super().audit_points(count)
        pts = [p for p in self.points if p[1] > 0] or list(self.points)
        if len(pts) > count:
            idx = sorted({round(i * (len(pts) - 1) / (count - 1)) for i in range(count)}) if count > 1 else [0]
            pts = [pts[i] for i in idx]
        return tuple((e, min(self.delta_at(e), 1.0 - 1e-12)) for e, _ in pts)


def _phi(x: float) -> float:
    return 0.5 * math.erfc(-x / math.sqrt(2.0))


class GDPCurve(PrivacyCurve):
    """mu-GDP. delta_at(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2) (Dong, Roth & Su 2022,
    Corollary 2.13), plus 1e-12 x its first term (the difference's float64 error is far smaller), so never below it."""

    form = ClaimForm.GDP

    def __init__(self, mu: float):
        self.mu = mu

    def __eq__(self, other: object) -> bool:
        return isinstance(other, GDPCurve) and other.mu == self.mu

    def __hash__(self) -> int:
        return hash(("gdp", self.mu))

    def describe(self) -> str:
        return f"gdp(mu={self.mu!r})"

    def to_dict(self) -> dict:
        return {"mu": self.mu}

    def delta_at(self, eps: float) -> float:
        mu = self.mu
        if mu == 0:
            return 0.0
        a = _phi(-eps / mu + mu / 2)
        b = _phi(-eps / mu - mu / 2)
        second = math.exp(eps + math.log(b)) if b > 0 else 0.0
        return min(1.0, max(a - second + _SAFETY * a, 5e-324))  # the smallest float: the truth is > 0 but may underflow


class TradeoffCurve(PrivacyCurve):
    """f-DP for a trade-off function f. delta(eps) = sup over x in [0, 1] of 1 - e^eps x - f(x) (Dong, Roth & Su
    2022, Proposition 2.12), bounded from above on a grid x_0 < ... < x_m (uniform and log-spaced to 1e-15):
    on [x_i, x_(i+1)] the supremand is at most 1 - f(x_(i+1)) - e^eps x_i because f is non-increasing, so the
    largest of those is never below the supremum."""

    form = ClaimForm.FDP
    GRID = np.unique(np.concatenate([[0.0], np.logspace(-15, 0, 1500), np.linspace(0.0, 1.0, 2001)]))

    def __init__(self, function: Callable, values: np.ndarray):
        self.function, self.values = function, values

    @classmethod
    def build(cls, tradeoff: Any) -> "TradeoffCurve":
        if not callable(tradeoff):
            raise v.InvalidArgument(f"tradeoff={describe(tradeoff)} must be a callable x -> f(x) on [0, 1].")
        try:
            fx = np.array([float(tradeoff(float(x))) for x in cls.GRID])
        except Exception as exc:
            raise v.InvalidArgument(f"tradeoff raised {type(exc).__name__}: {exc}; it must take x in [0, 1].") from None
        bad = ("a value outside [0, 1]" if not np.all((fx >= 0) & (fx <= 1)) else
               "an increase" if np.any(np.diff(fx) > 1e-12) else
               "a value above 1 - x" if np.any(fx > 1 - cls.GRID + 1e-12) else None)
        if bad is not None:
            raise v.InvalidArgument(f"tradeoff has {bad} on [0, 1]; a trade-off function is non-increasing with "
                                    "values in [0, 1] and f(x) <= 1 - x.")
        return cls(tradeoff, fx)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TradeoffCurve) and other.function is self.function

    def __hash__(self) -> int:
        return hash(("f-dp", id(self.function)))

    def describe(self) -> str:
        return f"fdp({getattr(self.function, '__name__', repr(self.function))})"

    def to_dict(self) -> dict:
        return {"tradeoff": repr(self.function)}

    def delta_at(self, eps: float) -> float:
        x, fx = self.GRID, self.values
        upper = 1.0 - fx[1:] - math.exp(min(eps, 700.0)) * x[:-1]
        return float(min(1.0, max(0.0, float(np.max(upper))) + 1e-15))


class AccountantCurve(PrivacyCurve):
    """The certified upper bound delta(eps) of a dpverify Accountant, read as the claim (cached per eps)."""

    form = ClaimForm.CURVE

    def __init__(self, accountant: Any):
        self.accountant, self._cache = accountant, {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, AccountantCurve) and other.accountant is self.accountant

    def __hash__(self) -> int:
        return hash(("accountant", id(self.accountant)))

    def describe(self) -> str:
        return f"curve({type(self.accountant).__name__} of {getattr(self.accountant, 'events', '?')} events)"

    def to_dict(self) -> dict:
        return {"accountant": repr(self.accountant)}

    def delta_at(self, eps: float) -> float:
        if eps not in self._cache:
            self._cache[eps] = min(1.0, float(self.accountant.delta(eps)))
        return self._cache[eps]


def claim_of(mechanism: Any, claim: Any) -> PrivacyClaim:
    """The claim to audit: ``claim``, or the mechanism's own when ``claim`` is None."""
    if claim is None:
        claim = getattr(mechanism, "claim", None)
        if claim is None:
            raise v.InvalidArgument(
                f"mechanism={describe(mechanism)} has no `claim` and claim=None; pass "
                "claim=PrivacyClaim(epsilon, delta)."
            )
    if not isinstance(claim, PrivacyClaim):
        raise v.InvalidArgument(
            f"claim={describe(claim)} must be a dpverify.PrivacyClaim, e.g. PrivacyClaim(1.0, 1e-5)."
        )
    return claim
