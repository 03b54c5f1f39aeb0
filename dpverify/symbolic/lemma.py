"""Lemmas as sympy statements that can be checked: :class:`Lemma`, :class:`Strategy`, :class:`Range`.

A lemma is: symbols (with sympy assumptions), hypotheses (relationals), a conclusion (a
relational ``lhs <= rhs``, ``lhs < rhs``, ``>=``, ``>`` or ``Eq``), its source, and a strategy
that says how ``check()`` should try to settle it. ``check()`` returns a
:class:`~dpverify.symbolic.verdicts.CheckResult`:

* identities: ``simplify(lhs - rhs) == 0`` or ``.equals(0) is True`` -> PROVED;
* inequalities by a stated strategy -> PROVED: ``NONNEG_TERMS`` (every term of the expanded
  margin ``rhs - lhs`` is nonnegative under the symbols' assumptions), ``DERIVATIVE`` (margin
  >= 0 at the lower end and its derivative >= 0), ``CONCAVE`` (margin >= 0 at both ends of an
  interval and its second derivative <= 0);
* ``MONOTONE`` -> CERTIFIED: the sign of every partial derivative of ``lhs`` and ``rhs`` is
  established (sympy, or ``mpmath.iv`` on the box; an integer axis enters as its whole hull), then
  branch and bound over the box compares the largest ``lhs`` with the smallest ``rhs`` of each cell,
  both enclosed in Arb balls (python-flint, 256 bits): a cell counts only if the ball of the margin is > 0;
* ``INTERVAL`` -> CERTIFIED: branch and bound with Arb balls on the margin (integer axes enumerated);
* without python-flint no strategy gives CERTIFIED: the lemma is TESTED and the evidence says
  "python-flint not installed";
* ``REPARAM`` -> PROVED: each hypothesis parametrised exactly by a fresh nonnegative symbol, then the
  rewritten margin shown >= 0 by sympy;
* always: a search over random and boundary points of the box (without a box: fixed and seeded
  random points of each symbol's assumption domain, see ``_domain``); a violation re-evaluated at 50
  digits gives REFUTED with the counterexample; no violation and no proof gives TESTED with the
  number of points actually evaluated (finite, real, hypotheses holding), or UNKNOWN if there were
  none. An identity that ``.equals`` declares false without a counterexample found is UNKNOWN.

sympy's ``None`` ("don't know") never counts as true or false.
"""
from __future__ import annotations

import enum
import itertools
import math
from dataclasses import dataclass, field, replace
from typing import Callable, Mapping

import mpmath
import numpy as np
import sympy as sp
from mpmath import iv

from ..errors import InvalidArgument
from .arb import NOT_INSTALLED, PREC_BITS, ArbUnsupported, arb_eval, ball, flint_or_none, gaussian_delta_arb
from .numeric import DPS, decimal, mp_value
from .verdicts import CheckResult, ProofVerdict

__all__ = ["Strategy", "Range", "Lemma"]


class Strategy(enum.Enum):
    """How ``Lemma.check`` tries to settle an inequality (identities are always tried symbolically)."""

    IDENTITY = "identity"
    NONNEG_TERMS = "sum of nonnegative terms"
    DERIVATIVE = "sign of a derivative"
    CONCAVE = "concavity and endpoints"
    MONOTONE = "monotone enclosure (branch and bound, Arb balls)"
    INTERVAL = "ball arithmetic (Arb, branch and bound)"
    SAMPLED = "sampled search"
    CASES = "case split, each case a sum of nonnegative terms"
    PROFILE = "Gaussian privacy-profile enclosure (branch and bound, Arb balls)"
    REPARAM = "hypotheses parametrised exactly, then a sign proof of the margin"


@dataclass(frozen=True)
class Range:
    """A parameter range of a check box: ``[lo, hi]``, split linearly, geometrically (``log``) or by integers (``int``)."""

    lo: float
    hi: float
    scale: str = "lin"

    def __post_init__(self):
        if self.scale not in ("lin", "log", "int"):
            raise InvalidArgument(f"scale={self.scale!r} must be 'lin', 'log' or 'int'.")
        if not (math.isfinite(self.lo) and math.isfinite(self.hi) and self.lo <= self.hi):
            raise InvalidArgument(f"Range({self.lo!r}, {self.hi!r}) needs finite lo <= hi.")
        if self.scale == "log" and not self.lo > 0:
            raise InvalidArgument(f"Range({self.lo!r}, {self.hi!r}, 'log') needs lo > 0.")

    def describe(self) -> str:
        return f"[{self.lo:g}, {self.hi:g}]" + (" (integers)" if self.scale == "int" else "")


_IV_NS = {"exp": iv.exp, "log": iv.log, "sqrt": iv.sqrt, "mpf": iv.mpf, "e": iv.e, "E": iv.e, "pi": iv.pi,
          "expm1": iv.expm1, "log1p": iv.log1p}


class _iv_dps:
    """Set ``mpmath.iv`` precision for a block (the interval context has no ``workdps``)."""

    def __init__(self, dps: int):
        self.dps = dps

    def __enter__(self):
        self.saved = iv.dps
        iv.dps = self.dps

    def __exit__(self, *exc):
        iv.dps = self.saved
        return False


def _domain(sym: sp.Symbol):
    """``(scale, fixed points, description, sampler)`` of a symbol's assumption domain (no-box searches).

    integer: positive -> 1..60, nonnegative -> 0..60, else -60..60; positive -> (0, oo) sampled
    log-uniformly on [1e-3, 1e3]; nonnegative -> the same plus 0; negative / nonpositive -> mirrored;
    real (or no assumption: only real points are sampled) -> [-1e3, 1e3] with sign and magnitude
    sampled separately. The fixed points include 1/2, 1, 2 and the domain's boundary.
    """
    if sym.is_integer:
        lo = 1 if sym.is_positive else 0 if sym.is_nonnegative else -60
        hi = -1 if sym.is_negative else 0 if sym.is_nonpositive else 60
        fixed = [float(v) for v in (1, 2, 3, 0, -1, 5, 10) if lo <= v <= hi] or [float(lo)]
        return "int", fixed, f"integers in [{lo}, {hi}]", lambda rng: float(rng.integers(lo, hi + 1))

    def pos(rng):
        return float(math.exp(rng.uniform(math.log(1e-3), math.log(1e3))))

    if sym.is_positive:
        return "lin", [1.0, 0.5, 2.0, 1e-3, 1e3, 0.1, 10.0], "in (0, oo) (sampled on [1e-3, 1e3])", pos
    if sym.is_nonnegative:
        return "lin", [1.0, 0.5, 2.0, 0.0, 1e3, 0.1, 10.0], "in [0, oo) (sampled on [0, 1e3])", pos
    if sym.is_negative:
        return "lin", [-1.0, -0.5, -2.0, -1e-3, -1e3], "in (-oo, 0) (sampled on [-1e3, -1e-3])", lambda r: -pos(r)
    if sym.is_nonpositive:
        return "lin", [-1.0, -0.5, -2.0, 0.0, -1e3], "in (-oo, 0] (sampled on [-1e3, 0])", lambda r: -pos(r)
    what = "real" if sym.is_real else "with no real assumption (only real points sampled)"
    return ("lin", [1.0, -1.0, 0.5, -2.0, 0.0, 3.0, -0.1], f"{what} (sampled on [-1e3, 1e3])",
            lambda rng: float((1 if rng.random() < 0.5 else -1) * pos(rng)))


def _sign(expr: sp.Expr) -> int | None:
    """+1 if sympy proves expr >= 0, -1 if <= 0, 0 if it is identically 0, None if undecided."""
    if expr == 0 or expr.is_zero is True:
        return 0
    if expr.is_nonnegative is True:
        return 1
    if expr.is_nonpositive is True:
        return -1
    s = sp.simplify(expr)
    if s == 0:
        return 0
    if s.is_nonnegative is True:
        return 1
    if s.is_nonpositive is True:
        return -1
    return None


def _sqrt_rule(expr: sp.Expr, strict: bool) -> bool:
    """``R + a sqrt(Q)`` (one square-root term, ``Q`` shown >= 0) is >= 0 (> 0 if strict): for ``a > 0`` when
    ``R >= 0``, or ``-R >= 0`` and ``a^2 Q - R^2 >= 0``; for ``a < 0`` when ``R >= 0`` and ``R^2 - a^2 Q >= 0`` (squaring
    two nonnegative sides); each side condition shown by :func:`_nonneg_proof`."""
    e = sp.expand(expr)
    roots = [t for t in sp.Add.make_args(e) if any(isinstance(f, sp.Pow) and f.exp == sp.S.Half
                                                  for f in sp.Mul.make_args(t))]
    qs = {f.base for t in roots for f in sp.Mul.make_args(t) if isinstance(f, sp.Pow) and f.exp == sp.S.Half}
    if len(qs) != 1:
        return False
    Q = qs.pop()
    a = sp.expand(sp.Add(*roots) / sp.sqrt(Q))
    R = sp.expand(e - sp.Add(*roots))
    if a.has(sp.sqrt(Q)) or R.has(sp.sqrt(Q)) or not _nonneg_proof(Q):
        return False
    if a.is_positive is True:
        if _nonneg_proof(R, strict):
            return True
        return _nonneg_proof(-R) and _nonneg_proof(sp.expand(a**2 * Q - R**2), strict)
    if a.is_negative is True:
        return _nonneg_proof(R, strict) and _nonneg_proof(sp.expand(R**2 - a**2 * Q), strict)
    return False


def _nonneg_proof(expr: sp.Expr, strict: bool = False) -> bool:
    """True if sympy shows ``expr >= 0`` (``> 0`` if strict): directly, or as a fraction whose expanded
    numerator is a sum of nonnegative terms (one positive if strict) over a positive denominator."""
    want = "is_positive" if strict else "is_nonnegative"
    if _sqrt_rule(expr, strict):
        return True
    for cand in (expr, sp.simplify(expr), sp.factor(expr)):
        if getattr(cand, want) is True:
            return True
        num, den = sp.fraction(sp.together(cand))
        den_terms = sp.Add.make_args(sp.expand(den))
        if not (den.is_positive is True or all(t.is_positive is True for t in den_terms)):
            continue
        terms = sp.Add.make_args(sp.expand(num))
        if all(t.is_nonnegative is True for t in terms) and (not strict or any(t.is_positive for t in terms)):
            return True
    return False


@dataclass(frozen=True)
class Lemma:
    """A checkable statement. See the module docstring for the strategies and verdicts.

    ``box`` maps symbol names to :class:`Range` (the parameter box of numeric checks and of
    certificates); ``var``/``interval`` name the variable and interval of ``DERIVATIVE``/``CONCAVE``.
    """

    id: str
    source: str
    statement: str
    symbols: tuple[sp.Symbol, ...]
    conclusion: sp.Basic
    hypotheses: tuple[sp.Basic, ...] = ()
    strategy: Strategy = Strategy.SAMPLED
    box: Mapping[str, Range] = field(default_factory=dict)
    var: sp.Symbol | None = None
    interval: tuple | None = None
    samples: int = 400
    seed: int = 20240601
    max_cells: int = 3000
    note: str = ""
    cases: tuple = ()
    evaluate: Callable | None = None
    profile: Mapping | None = None
    #: named numeric constants of the statement (symbol name -> exact value), substituted before checking;
    #: the mutation campaign perturbs them (``dpverify.symbolic.mutation``).
    constants: Mapping[str, object] = field(default_factory=dict)
    #: REPARAM: symbol -> expression in fresh nonnegative symbols that parametrises a hypothesis exactly.
    reparam: Mapping | None = None

    def __post_init__(self):
        if not isinstance(self.conclusion, (sp.Rel, sp.Eq)):
            raise InvalidArgument(f"{self.id}: conclusion={self.conclusion!r} must be a sympy relational.")
        if not isinstance(self.strategy, Strategy):
            raise InvalidArgument(f"{self.id}: strategy={self.strategy!r} must be a Strategy member.")
        names = {s.name for s in self.symbols}
        extra = set(self.box) - names
        if extra:
            raise InvalidArgument(f"{self.id}: box names {sorted(extra)} are not symbols of the lemma.")
        object.__setattr__(self, "box", dict(self.box))
        object.__setattr__(self, "constants", {k: sp.nsimplify(v) for k, v in dict(self.constants).items()})

    # ------------------------------------------------------------------ pieces
    @property
    def is_identity(self) -> bool:
        return isinstance(self.conclusion, sp.Equality)

    @property
    def lhs(self) -> sp.Expr:
        c = self.conclusion
        return c.lhs if isinstance(c, (sp.LessThan, sp.StrictLessThan, sp.Equality)) else c.rhs

    @property
    def rhs(self) -> sp.Expr:
        c = self.conclusion
        return c.rhs if isinstance(c, (sp.LessThan, sp.StrictLessThan, sp.Equality)) else c.lhs

    @property
    def strict(self) -> bool:
        return isinstance(self.conclusion, (sp.StrictLessThan, sp.StrictGreaterThan))

    @property
    def margin(self) -> sp.Expr:
        """``rhs - lhs``: the conclusion holds where the margin is >= 0 (> 0 if strict; == 0 for identities)."""
        return self.rhs - self.lhs

    def mutated(self, **changes) -> "Lemma":
        """A copy with fields replaced (e.g. ``conclusion=...``): used to check that a check can fail."""
        return replace(self, **changes)

    def _syms(self):
        return {s.name: s for s in self.symbols}

    # ------------------------------------------------------------------ check
    def substituted(self) -> "Lemma":
        """The lemma with its named constants replaced by their values (itself when it has none)."""
        if not self.constants:
            return self
        exprs = [self.conclusion, *self.hypotheses, *(self.reparam or {}).values(), *(self.profile or {}).values()]
        exprs += [v for c in self.cases for v in c.values()]
        free = set().union(*(e.free_symbols for e in exprs if isinstance(e, sp.Basic)))
        sub = {s: self.constants[s.name] for s in free if s.name in self.constants}

        def f(e):
            if isinstance(e, sp.Rel):  # keep the relation unevaluated (eps <= eps must stay a statement)
                return type(e)(e.lhs.xreplace(sub), e.rhs.xreplace(sub), evaluate=False)
            return e.xreplace(sub) if isinstance(e, sp.Basic) else e

        return replace(self, constants={}, conclusion=f(self.conclusion),
                       hypotheses=tuple(f(h) for h in self.hypotheses),
                       reparam=None if self.reparam is None else {k: f(v) for k, v in self.reparam.items()},
                       profile=None if self.profile is None else {k: f(v) for k, v in self.profile.items()},
                       cases=tuple({k: f(v) for k, v in c.items()} for c in self.cases))

    def check(self) -> CheckResult:
        """Settle the lemma; never raises for a false lemma (that is a REFUTED result)."""
        if self.constants:
            sub = self.substituted()
            if sub.conclusion.has(sp.zoo, sp.nan, sp.oo, -sp.oo):
                return CheckResult(ProofVerdict.UNKNOWN, f"{self.id}: with constants {self.constants} the statement is "
                                                         f"degenerate ({sub.conclusion})")
            res = sub.check()
            consts = ", ".join(f"{k} = {v}" for k, v in self.constants.items())
            return replace(res, evidence=f"{res.evidence} [statement constants: {consts}]")
        if self.is_identity:
            return self._check_identity()
        counter = self._search()
        if counter is not None:
            return counter
        result = None
        if self.strategy is Strategy.NONNEG_TERMS:
            result = self._nonneg_terms()
        elif self.strategy is Strategy.DERIVATIVE:
            result = self._derivative()
        elif self.strategy is Strategy.CONCAVE:
            result = self._concave()
        elif self.strategy is Strategy.MONOTONE:
            result = self._monotone()
        elif self.strategy is Strategy.INTERVAL:
            result = self._interval()
        elif self.strategy is Strategy.CASES:
            result = self._cases()
        elif self.strategy is Strategy.PROFILE:
            result = self._profile()
        elif self.strategy is Strategy.REPARAM:
            result = self._reparam()
        elif self.strategy is Strategy.SAMPLED:
            result = None
        else:  # pragma: no cover - Enum is closed
            raise InvalidArgument(f"{self.id}: unknown strategy {self.strategy!r}.")
        if isinstance(result, CheckResult):
            return result
        why = f" ({result})" if isinstance(result, str) else ""
        unsettled = f"; {self.strategy.value} did not settle it{why}" if self.strategy is not Strategy.SAMPLED else ""
        n = self._evaluated
        if n == 0:
            return CheckResult(ProofVerdict.UNKNOWN,
                               f"{self.id}: no point of {self._domain_text()} could be evaluated{unsettled}")
        return CheckResult(ProofVerdict.TESTED,
                           f"{self.id}: no counterexample at {n} evaluated points of {self._domain_text()}{unsettled}")

    # identities ------------------------------------------------------------
    def _check_identity(self) -> CheckResult:
        diff = self.lhs - self.rhs
        if sp.simplify(diff) == 0:
            return CheckResult(ProofVerdict.PROVED, f"{self.id}: simplify(lhs - rhs) == 0")
        # the (cheap) counterexample search before sympy's equals, whose solve/factor can take minutes on a false
        # identity (a literal of the Wishart normaliser changed); a counterexample is re-evaluated at 50 digits
        counter = self._search(identity=True)
        if counter is not None:
            return counter
        n = self._evaluated
        eq = diff.equals(0)
        if eq is True:
            return CheckResult(ProofVerdict.PROVED, f"{self.id}: (lhs - rhs).equals(0) is True")
        if eq is False:
            # sympy decided the identity is false, but no sampled point shows it: never TESTED
            return CheckResult(ProofVerdict.UNKNOWN,
                               f"{self.id}: sympy's (lhs - rhs).equals(0) is False, but no counterexample was found "
                               f"among {n} evaluated points of {self._domain_text()}")
        if n == 0:
            return CheckResult(ProofVerdict.UNKNOWN,
                               f"{self.id}: sympy could not decide (equals -> {eq}) and no point of "
                               f"{self._domain_text()} could be evaluated")
        return CheckResult(ProofVerdict.TESTED,
                           f"{self.id}: sympy could not decide (equals -> {eq}); lhs == rhs at "
                           f"{n} evaluated points of {self._domain_text()}")

    # numeric search ----------------------------------------------------------
    def _box_text(self) -> str:
        return ", ".join(f"{k} in {r.describe()}" for k, r in self.box.items()) or "(no box)"

    def _centre_refutation(self, names, cell) -> CheckResult | None:
        """When a certifier's cell fails: the cell's centre evaluated rigorously (exact rationals for the hypotheses, an
        Arb ball for the margin). REFUTED when every hypothesis holds there and the margin's ball lies strictly below 0
        (at or below 0 for a strict inequality): a refutation beats ``tested``. None otherwise."""
        if flint_or_none() is None:
            return None
        syms = self._syms()
        point = {}
        for n, (lo, hi) in zip(names, cell):
            point[n] = int(lo) if self.box[n].scale == "int" else (float(lo) + float(hi)) / 2  # a float: exact in Arb
        sub = {syms[n]: sp.Rational(v) for n, v in point.items()}
        for h in self.hypotheses:
            try:
                if sp.sympify(h).xreplace(sub) is not sp.true:
                    return None
            except (TypeError, ValueError):
                return None
        try:
            m = arb_eval(self.margin, {syms[n]: ball(v) for n, v in point.items()})
        except (ArbUnsupported, TypeError, ValueError, ZeroDivisionError):
            return None
        if not (m.upper() < 0 or (self.strict and m.upper() <= 0)):
            return None
        ce = {n: repr(v) for n, v in point.items()}
        ce["margin_upper"] = str(float(m.upper()))
        return CheckResult(ProofVerdict.REFUTED, f"{self.id}: a certifier's cell failed and its centre {ce} violates the "
                                                 f"statement: the margin rhs - lhs is an Arb ball below 0 (upper end "
                                                 f"{float(m.upper()):.6g}, {PREC_BITS}-bit python-flint)",
                           counterexample=ce)

    def _certified_domain(self) -> str:
        """``WHOLE`` when the box covers the statement's whole domain on every axis -- the symbol's assumption domain cut
        by the hypotheses that involve that symbol alone (sympy ``solveset``) -- else the box in words. Undecided (a
        hypothesis sympy cannot solve, an unbounded domain) counts as not covered: ``certified on B``."""
        from .verdicts import WHOLE

        syms = self._syms()
        for name, rng in self.box.items():
            sym = syms.get(name)
            if sym is None:
                return self._box_text()
            dom = sp.S.Reals
            if sym.is_positive:
                dom = sp.Interval.open(0, sp.oo)
            elif sym.is_nonnegative:
                dom = sp.Interval(0, sp.oo)
            elif sym.is_negative:
                dom = sp.Interval.open(-sp.oo, 0)
            for h in self.hypotheses:
                if not isinstance(h, sp.Basic) or h.free_symbols != {sym}:
                    continue
                try:
                    sol = sp.solveset(h, sym, sp.S.Reals)
                except Exception:  # noqa: BLE001 - sympy cannot solve it: undecided, the box stays
                    return self._box_text()
                dom = dom.intersect(sol)
            try:
                inf, sup = dom.inf, dom.sup
            except (AttributeError, NotImplementedError):
                return self._box_text()
            if not (inf.is_finite and sup.is_finite):
                return self._box_text()
            lo_ok = (sp.Float(rng.lo) <= (sp.ceiling(inf) if sym.is_integer else inf)) == sp.true
            hi_ok = (sp.Float(rng.hi) >= (sp.floor(sup) if sym.is_integer else sup)) == sp.true
            if not (lo_ok and hi_ok):
                return self._box_text()
        return WHOLE if self.box else self._box_text()

    def _domain_text(self) -> str:
        if self.box:
            return self._box_text() + " (and points of the symbols' domains outside the box)"
        return ("the symbols' assumption domains (no box: " + ", ".join(
            f"{n} {_domain(s)[2]}" for n, s in self._syms().items() if n in self._free_names()) + ")")

    def _free_names(self) -> list[str]:
        """Names of the symbols the conclusion depends on (the coordinates of a no-box search)."""
        free = {s.name for s in self.conclusion.free_symbols}
        return [s.name for s in self.symbols if s.name in free]

    @property
    def _evaluated(self) -> int:
        """Points at which the last ``_search`` evaluated the conclusion (finite real value, hypotheses holding)."""
        return self.__dict__.get("_n_evaluated", 0)

    def _scale(self, name: str) -> str:
        if name in self.box:
            return self.box[name].scale
        return _domain(self._syms()[name])[0]

    def _points(self):
        """Boundary points (every corner/midpoint combination) then seeded random points."""
        names = list(self.box)
        rng = np.random.default_rng(self.seed)
        per_dim = []
        for n in names:
            r = self.box[n]
            mid = math.exp((math.log(r.lo) + math.log(r.hi)) / 2) if r.scale == "log" else (r.lo + r.hi) / 2
            if r.scale == "int":
                mid = float(round(mid))
            per_dim.append(sorted({r.lo, mid, r.hi}))
        if names:
            for combo in itertools.product(*per_dim):
                yield dict(zip(names, combo))
        if not names:
            yield from self._assumption_points()
            return
        box_pts = []
        for _ in range(self.samples):
            pt = {}
            for n in names:
                r = self.box[n]
                if r.scale == "log":
                    pt[n] = float(math.exp(rng.uniform(math.log(r.lo), math.log(r.hi))))
                elif r.scale == "int":
                    pt[n] = float(rng.integers(int(r.lo), int(r.hi) + 1))
                else:
                    pt[n] = float(rng.uniform(r.lo, r.hi))
            box_pts.append(pt)
            yield pt
        # an evaluate hook is a numerical evaluator written for its box: not beyond it; nor for a lemma class whose
        # statement costs too much per point outside its box (``search_outside_box = False``; its verdict names the box)
        if self.evaluate is None and getattr(type(self), "search_outside_box", True):
            yield from self._outside_points(names, box_pts, rng)

    def _outside_points(self, names, box_pts, rng):
        """Points of the symbols' assumption domains outside the box (the box is where a certificate is computed;
        the statement claims its whole domain, restricted only by its hypotheses): on each axis, half the time a
        power of ten 10^-6 .. 10^6 (with the signs and 0 the assumptions allow; integers up to 10^2 and twice the box end) outside the box,
        else a draw just beyond one end of the box (up to a factor 10 beyond a positive end, or 3 box widths),
        put into box points one axis at a time and all axes at once. Nothing when the box is the domain (and nothing
        for a lemma with an ``evaluate`` hook: a numerical evaluator written for its box)."""
        syms = self._syms()
        samplers = {}
        for n in names:
            r, sym = self.box[n], syms[n]
            if sym.is_integer:
                # integers up to 10^2 and 2 hi (a statement evaluated by a k-term sum, e.g. optimal composition, costs ~k)
                mags = [10.0 ** k for k in range(0, 3)] + [2.0, 3.0, 5.0, r.hi + 1, 2 * r.hi, r.lo - 1]
            else:
                mags = [10.0 ** k for k in range(-6, 7)] + [0.5, 2.0, 3.0, 0.9, 1.1]

            def allowed(v, sym=sym, r=r):
                if r.lo <= v <= r.hi or (sym.is_integer and v != int(v)):
                    return False
                return not ((sym.is_positive and not v > 0) or (sym.is_nonnegative and not v >= 0) or
                            (sym.is_negative and not v < 0) or (sym.is_nonpositive and not v <= 0))
            fixed = [v for v in sorted({float(m) for mm in mags for m in (mm, -mm)} | {0.0}) if allowed(v)]

            def near(rng, r=r, sym=sym, allowed=allowed):
                for _ in range(4):
                    up = rng.random() < 0.5
                    w = max(r.hi - r.lo, 1e-9)
                    if up:
                        v = r.hi * math.exp(rng.uniform(0, math.log(10))) if r.hi > 0 else r.hi + w * rng.uniform(0, 3)
                    else:
                        v = r.lo * math.exp(-rng.uniform(0, math.log(10))) if r.lo > 0 else r.lo - w * rng.uniform(0, 3)
                    if sym.is_integer:
                        v = float(math.ceil(v) if up else math.floor(v))
                    if allowed(v):
                        return v
                return None
            if fixed or near(np.random.default_rng(0)) is not None:
                samplers[n] = (fixed, near)
        if not samplers or not box_pts:
            return

        def draw(n):
            fixed, near = samplers[n]
            v = near(rng) if (not fixed or rng.random() < 0.5) else None
            return v if v is not None else (fixed[int(rng.integers(len(fixed)))] if fixed else None)
        k = max(1, min(len(box_pts), self.samples // 2, 150))
        for i in range(k):
            base = box_pts[i]
            for n in samplers:
                v = draw(n)
                if v is not None:
                    yield {**base, n: v}
            pt = {n: draw(n) for n in samplers}
            yield {**base, **{n: v for n, v in pt.items() if v is not None}}

    def _assumption_points(self):
        """No box: fixed and seeded random points of each free symbol's assumption domain (see ``_domain``)."""
        names = self._free_names()
        if not names:
            return
        rng = np.random.default_rng(self.seed)
        doms = [_domain(self._syms()[n]) for n in names]
        fixed = [d[1] for d in doms]
        for k in range(max(len(f) for f in fixed)):
            yield {n: f[k % len(f)] for n, f in zip(names, fixed)}
        for _ in range(self.samples):
            yield {n: d[3](rng) for n, d in zip(names, doms)}

    def _hyp_fast(self, pt: Mapping[str, float]) -> bool | None:
        """The hypotheses (strict or weak inequalities) evaluated by lambdify at 30 digits; None (let sympy
        decide) for any other hypothesis, a point that does not evaluate to a finite real, or a margin of 0."""
        cache = self.__dict__.setdefault("_hcache", {})
        names = tuple(sorted(pt))
        if names not in cache:
            fs = []
            try:
                syms = [self._syms()[n] for n in names]
                for h in self.hypotheses:
                    if not isinstance(h, (sp.StrictLessThan, sp.LessThan, sp.StrictGreaterThan, sp.GreaterThan)):
                        raise TypeError(h)
                    less = isinstance(h, (sp.StrictLessThan, sp.LessThan))
                    fs.append((less, sp.lambdify(syms, h.lhs - h.rhs, modules="mpmath")))
            except Exception:  # noqa: BLE001 - not a plain inequality: sympy's subs decides
                fs = None
            cache[names] = fs
        fs = cache[names]
        if fs is None:
            return None
        with mpmath.workdps(30):
            args = [mpmath.mpf(pt[n]) for n in names]
            for less, f in fs:
                try:
                    m = f(*args)
                except Exception:  # noqa: BLE001 - a symbol without a value, a domain error: sympy decides
                    return None
                if not isinstance(m, mpmath.mpf) or not mpmath.isfinite(m) or m == 0:
                    return None
                if (m > 0) if less else (m < 0):
                    return False
        return True

    def _hyp_ok(self, pt: Mapping[str, float]) -> bool:
        fast = self._hyp_fast(pt)
        if fast is not None:
            return fast
        syms = self._syms()
        for h in self.hypotheses:
            try:
                val = h.subs({syms[k]: sp.Float(v, 30) for k, v in pt.items() if k in syms})
            except (TypeError, ValueError, ZeroDivisionError, ArithmeticError):
                # e.g. "Invalid NaN comparison": a side is NaN or zoo there (a constant mutated to 0 divides by
                # zero): the hypothesis does not hold at this point, which is skipped
                return False
            if val is sp.false:
                return False
            if isinstance(val, sp.Basic) and val.has(sp.nan, sp.zoo, sp.oo, -sp.oo):
                return False  # not a finite real comparison there: not shown to hold, skipped
            if isinstance(val, sp.Basic) and val.free_symbols:
                return False  # a symbol of the hypothesis has no value at this point: not shown to hold, skipped
        return True

    def _coords(self) -> list[str]:
        return list(self.box) if self.box else self._free_names()

    def _fast(self, expr):
        syms = [self._syms()[n] for n in self._coords()]
        return sp.lambdify(syms, expr, modules="mpmath")

    def _eval_pair(self, values: Mapping[str, str], dps: int):
        """(lhs, rhs) at ``dps`` digits: the ``evaluate`` hook if given, else the sympy sides."""
        if self.evaluate is not None:
            with mpmath.workdps(dps + 10):
                return self.evaluate({k: mpmath.mpf(v) for k, v in values.items()})
        return mp_value(self.lhs, values, dps), mp_value(self.rhs, values, dps)

    def _eval_pair_float(self, values: Mapping[str, str], dps: int):
        """(lhs, rhs) at ``dps`` digits with the point as ``dps + 10``-digit Floats (not exact rationals: at extreme
        magnitudes sympy would expand a power like (11/20)^(10^9) exactly)."""
        if self.evaluate is not None:
            return self._eval_pair(values, dps)
        syms = self._syms()
        sub = {syms[k]: (sp.Integer(int(v)) if self._scale(k) == "int" else sp.Float(str(v), dps + 10))
               for k, v in values.items() if k in syms}
        with mpmath.workdps(dps + 10):
            out = []
            for e in (self.lhs, self.rhs):
                val = sp.N(e.xreplace(sub), dps + 10)
                if not val.is_real:
                    re, im = val.as_real_imag()
                    if abs(sp.N(im, dps)) > 0:
                        raise ValueError("not real")
                    val = re
                out.append(mpmath.mpf(str(val)))
        return tuple(out)

    def _search(self, identity: bool = False) -> CheckResult | None:
        """Search the box (or, without a box, the symbols' assumption domains) for a counterexample.

        Sets ``_n_evaluated``: the number of points at which the conclusion was actually evaluated to a
        finite real value with every hypothesis holding (points that raise, are complex, or violate a
        hypothesis are not counted).
        """
        names = self._coords()
        count = 0
        self.__dict__["_n_evaluated"] = 0
        if not names:
            return None
        check_hyp = bool(self.hypotheses)
        if self.evaluate is not None:
            for pt in self._points():
                with mpmath.workdps(30):
                    try:
                        lhs, rhs = self.evaluate({n: mpmath.mpf(pt[n]) for n in names})
                        m = rhs - lhs
                    except Exception:  # noqa: BLE001 - not evaluable there (domain error, no convergence)
                        continue
                    if not (mpmath.isfinite(m) and mpmath.im(m) == 0):
                        continue
                bad = (m <= 0) if self.strict else (m < 0)
                if identity:
                    bad = abs(m) > mpmath.mpf(10) ** -20 * (1 + abs(lhs))
                if check_hyp and not self._hyp_ok(pt):
                    continue
                count += 1
                self.__dict__["_n_evaluated"] = count
                if bad:
                    res = self._refute(pt, identity)
                    if res is not None:
                        return res
            return None
        f = self._fast(self.margin)
        flhs = self._fast(self.lhs) if identity else None
        with mpmath.workdps(30):
            for pt in self._points():
                args = [mpmath.mpf(pt[n]) if self._scale(n) != "int" else int(pt[n]) for n in names]
                try:
                    m = f(*args)
                    ref = flhs(*args) if identity else 0
                except Exception:  # noqa: BLE001 - a domain error, an overflow, a series that does not converge
                    continue
                if isinstance(m, mpmath.mpc):
                    if abs(m.imag) > 0:
                        continue
                    m = m.real
                if isinstance(ref, mpmath.mpc):
                    ref = abs(ref)
                try:
                    if not mpmath.isfinite(m):
                        continue
                except TypeError:
                    continue
                bad = (abs(m) > mpmath.mpf(10) ** -20 * (1 + abs(ref))) if identity else \
                      (m <= 0 if self.strict else m < 0)
                if check_hyp and not self._hyp_ok(pt):
                    continue
                count += 1
                self.__dict__["_n_evaluated"] = count
                if bad:
                    res = self._refute(pt, identity)
                    if res is not None:
                        return res
        return None

    def _refute(self, pt: Mapping[str, float], identity: bool) -> CheckResult | None:
        """Re-evaluate at 50 digits with the point as exact decimals; REFUTED only if it still fails."""
        try:
            return self._refute_at(pt, identity)
        except Exception:  # noqa: BLE001 - not a real number there (or no convergence): no refutation
            return None

    def _refute_at(self, pt: Mapping[str, float], identity: bool) -> CheckResult | None:
        values = {n: (str(int(v)) if self._scale(n) == "int" else decimal(v, 25)) for n, v in pt.items()}
        out_of_box = any(not (self.box[n].lo <= float(v) <= self.box[n].hi) for n, v in pt.items() if n in self.box)
        if out_of_box:  # far from the box (extreme magnitudes): the failure must persist at twice the digits too
            lhs2, rhs2 = self._eval_pair_float(values, 2 * DPS)
            with mpmath.workdps(2 * DPS):
                m2 = rhs2 - lhs2
                if isinstance(m2, mpmath.mpc) or not mpmath.isfinite(m2):
                    return None
                tol2 = mpmath.mpf(10) ** -(DPS - 10) * (abs(lhs2) + abs(rhs2))
                if not ((abs(m2) > tol2) if identity else (m2 <= tol2) if self.strict else (m2 < -tol2)):
                    return None
        lhs, rhs = self._eval_pair_float(values, DPS) if out_of_box else self._eval_pair(values, DPS)
        with mpmath.workdps(DPS):
            m = rhs - lhs
            tol = mpmath.mpf(10) ** -(DPS - 10) * (abs(lhs) + abs(rhs))
            if identity:
                fails = abs(m) > tol
            else:
                fails = (m <= tol) if self.strict else (m < -tol)
            if not fails or isinstance(m, mpmath.mpc) or not mpmath.isfinite(m):
                return None
            return CheckResult(
                ProofVerdict.REFUTED,
                f"{self.id}: counterexample {values}: lhs = {mpmath.nstr(lhs, 12)}, rhs = {mpmath.nstr(rhs, 12)} "
                f"(at {DPS} digits{f' and {2 * DPS}; outside the check box {self._box_text()}' if out_of_box else ''})",
                counterexample=values,
            )

    # symbolic strategies -----------------------------------------------------
    def _nonneg_terms(self):
        m = sp.expand(self.margin)
        terms = sp.Add.make_args(m)
        undecided = [t for t in terms if t.is_nonnegative is not True]
        if undecided and _nonneg_proof(self.margin, strict=self.strict):
            return CheckResult(ProofVerdict.PROVED,
                               f"{self.id}: rhs - lhs = {sp.factor(sp.together(self.margin))}: over a positive "
                               f"denominator its expanded numerator is a sum of nonnegative terms (or a square-root "
                               f"rule applies) under the symbols' assumptions")
        if undecided:
            return f"terms not shown nonnegative: {undecided[:3]}"
        if self.strict and not any(t.is_positive for t in terms):
            return "no term shown positive (strict inequality)"
        return CheckResult(ProofVerdict.PROVED,
                           f"{self.id}: rhs - lhs expands into {len(terms)} terms, each nonnegative under the "
                           f"symbols' assumptions")

    def _derivative(self):
        if self.var is None or self.interval is None:
            return "DERIVATIVE needs var and interval"
        g = self.margin
        a = self.interval[0]
        g_a = sp.simplify(g.subs(self.var, a))
        if g_a.is_nonnegative is not True:
            return f"margin at {self.var}={a} not shown >= 0 ({g_a})"
        dg = sp.simplify(sp.diff(g, self.var))
        if dg.is_nonnegative is not True:
            return f"derivative {dg} not shown >= 0"
        return CheckResult(ProofVerdict.PROVED,
                           f"{self.id}: margin at {self.var}={a} is {g_a} >= 0 and d/d{self.var} margin = {dg} >= 0")

    def _concave(self):
        if self.var is None or self.interval is None:
            return "CONCAVE needs var and interval"
        g = self.margin
        a, b = self.interval
        ends = [sp.simplify(g.subs(self.var, a)), sp.simplify(g.subs(self.var, b))]
        if any(e.is_nonnegative is not True for e in ends):
            return f"endpoint margins {ends} not shown >= 0"
        d2 = sp.simplify(sp.diff(g, self.var, 2))
        if d2.is_nonpositive is not True:
            return f"second derivative {d2} not shown <= 0"
        return CheckResult(ProofVerdict.PROVED,
                           f"{self.id}: on [{a}, {b}] the margin is concave (d2 = {d2} <= 0) and >= 0 at both "
                           f"ends ({ends[0]}, {ends[1]})")

    # certificates -----------------------------------------------------------
    def _cells(self):
        """Initial cells: integer ranges enumerated, continuous ranges whole."""
        names = list(self.box)
        axes = []
        for n in names:
            r = self.box[n]
            if r.scale == "int":
                axes.append([(float(i), float(i)) for i in range(int(r.lo), int(r.hi) + 1)])
            else:
                axes.append([(r.lo, r.hi)])
        return names, [list(c) for c in itertools.product(*axes)]

    def _split(self, names, cell):
        widths = []
        for n, (lo, hi) in zip(names, cell):
            r = self.box[n]
            if r.scale == "int" or hi == lo:
                widths.append(-1.0)
            elif r.scale == "log":
                widths.append(math.log(hi / lo) / max(1e-300, math.log(r.hi / r.lo)))
            else:
                widths.append((hi - lo) / max(1e-300, r.hi - r.lo))
        i = int(np.argmax(widths))
        if widths[i] <= 1e-9:
            return None
        lo, hi = cell[i]
        mid = math.exp((math.log(lo) + math.log(hi)) / 2) if self.box[names[i]].scale == "log" else (lo + hi) / 2
        a, b = list(cell), list(cell)
        a[i] = (lo, mid)
        b[i] = (mid, hi)
        return a, b

    def _direction(self, expr, sym, names, cell=None) -> int | None:
        """Sign of d expr / d sym: sympy first, else an ``mpmath.iv`` enclosure on ``cell`` (default: the box)."""
        d = sp.diff(expr, sym)
        if cell is None:
            s = _sign(d)
            if s is not None:
                return s
        key = (str(expr), sym.name)
        cache = self.__dict__.setdefault("_dcache", {})
        if key not in cache:
            try:
                cache[key] = sp.lambdify([self._syms()[n] for n in names], sp.simplify(d), modules=[_IV_NS, "mpmath"])
            except Exception:  # noqa: BLE001
                cache[key] = None
        f = cache[key]
        if f is None:
            return None
        bounds = cell if cell is not None else [(self.box[n].lo, self.box[n].hi) for n in names]
        try:
            with _iv_dps(30):
                # every axis as its whole range (an integer axis too: its hull, never one end of it)
                val = f(*[iv.mpf([lo, hi]) for n, (lo, hi) in zip(names, bounds)])
            if val.a >= 0:
                return 1
            if val.b <= 0:
                return -1
        except Exception:  # noqa: BLE001 - iv lacks the function: undecided
            return None
        return None

    def _monotone(self):
        names, cells = self._cells()
        syms = self._syms()
        dirs = {}
        for n in names:
            if self.box[n].scale == "int":
                continue
            dl = self._direction(self.lhs, syms[n], names)
            dr = self._direction(self.rhs, syms[n], names)
            if dl is None or dr is None:
                return f"monotonicity in {n} not established (lhs: {dl}, rhs: {dr})"
            dirs[n] = (dl, dr)
        if flint_or_none() is None:
            return NOT_INSTALLED
        checked = 0
        stack = list(cells)
        while stack:
            cell = stack.pop()
            checked += 1
            if checked > self.max_cells:
                return self._centre_refutation(names, cell) or f"cell budget {self.max_cells} exhausted"
            hi_l, lo_r = {}, {}
            for n, (lo, hi) in zip(names, cell):
                if self.box[n].scale == "int":
                    hi_l[syms[n]] = lo_r[syms[n]] = ball(int(lo))
                    continue
                dl, dr = dirs[n]
                hi_l[syms[n]] = ball(hi if dl >= 0 else lo)
                lo_r[syms[n]] = ball(lo if dr >= 0 else hi)
            try:
                L, R = arb_eval(self.lhs, hi_l), arb_eval(self.rhs, lo_r)
            except ArbUnsupported as exc:
                return f"Arb: {exc}"
            # certified sign of the cell: the ball of R - L lies strictly above 0
            if (R - L).lower() > 0:
                continue
            parts = self._split(names, cell)
            if parts is None:
                return self._centre_refutation(names, cell) or \
                    f"a cell of width ~0 near {dict(zip(names, cell))} could not be certified"
            stack.extend(parts)
        directions = ", ".join(f"{n}: lhs {'up' if a > 0 else 'down' if a < 0 else 'flat'}, rhs "
                               f"{'up' if b > 0 else 'down' if b < 0 else 'flat'}" for n, (a, b) in dirs.items())
        return CheckResult(ProofVerdict.CERTIFIED,
                           f"{self.id}: certified on {self._box_text()} by monotone enclosure ({directions}; directions "
                           f"by sympy or mpmath.iv); {checked} cells, each corner margin an Arb ball > 0 "
                           f"({PREC_BITS}-bit python-flint)", domain=self._certified_domain())

    def _interval(self):
        names, cells = self._cells()
        syms = self._syms()
        if flint_or_none() is None:
            return NOT_INSTALLED
        checked = 0
        stack = list(cells)
        while stack:
            cell = stack.pop()
            checked += 1
            if checked > self.max_cells:
                return self._centre_refutation(names, cell) or f"cell budget {self.max_cells} exhausted"
            try:
                val = arb_eval(self.margin, {syms[n]: ball(lo, hi) for n, (lo, hi) in zip(names, cell)})
            except ArbUnsupported as exc:
                return f"Arb: {exc}"
            if (val.lower() > 0) if self.strict else (val.lower() >= 0):
                continue
            parts = self._split(names, cell)
            if parts is None:
                return self._centre_refutation(names, cell) or \
                    f"a cell of width ~0 near {dict(zip(names, cell))} could not be certified"
            stack.extend(parts)
        return CheckResult(ProofVerdict.CERTIFIED,
                           f"{self.id}: certified on {self._box_text()} by branch and bound with Arb balls "
                           f"({PREC_BITS}-bit python-flint): the margin's enclosure is >= 0 on each of {checked} cells", domain=self._certified_domain())

    # hypotheses parametrised ------------------------------------------------------
    def _reparam(self):
        """Each substituted symbol v = e(others, t) must turn one hypothesis margin (increasing in v) into
        exactly the fresh symbol t >= 0, so the substitution covers the hypothesis region; then the margin
        of the conclusion, rewritten, must be shown >= 0 (> 0 if strict) for all fresh values. The entries are
        taken in order: an entry may use the symbols substituted before it (their expressions are substituted
        into it and into the hypotheses), and each entry introduces one fresh symbol of its own."""
        if not self.reparam:
            return "REPARAM needs reparam={symbol: expression}"
        targets = set(self.reparam)
        used = set()
        done: dict = {}
        fresh_seen: set = set()
        for v, e in self.reparam.items():
            e = e.subs(done)
            if e.free_symbols & targets:
                return f"reparam of {v} uses a symbol substituted after it (or itself)"
            fresh = [t for t in e.free_symbols if t not in set(self.symbols) and t not in fresh_seen]
            if len(fresh) != 1 or fresh[0].is_nonnegative is not True:
                return f"reparam of {v} must use exactly one fresh nonnegative symbol of its own"
            t = fresh[0]
            hit = None
            for i, h in enumerate(self.hypotheses):
                if i in used or not isinstance(h, (sp.GreaterThan, sp.StrictGreaterThan, sp.LessThan,
                                                   sp.StrictLessThan)):
                    continue
                hm = h.lhs - h.rhs if isinstance(h, (sp.GreaterThan, sp.StrictGreaterThan)) else h.rhs - h.lhs
                hm = hm.subs(done)
                if v not in hm.free_symbols or sp.diff(hm, v).is_positive is not True:
                    continue
                if sp.simplify(hm.subs(v, e) - t) == 0:
                    hit = i
                    break
            if hit is None:
                return f"no hypothesis is parametrised exactly by {v} = {e}"
            used.add(hit)
            fresh_seen.add(t)
            done[v] = e
        m = self.margin.subs(done)
        if _nonneg_proof(m, strict=self.strict):
            hyps = "; ".join(str(self.hypotheses[i]) for i in sorted(used))
            return CheckResult(ProofVerdict.PROVED,
                               f"{self.id}: hypotheses {hyps} parametrised exactly ({done}); the margin "
                               f"rhs - lhs becomes {sp.simplify(m)}, shown >= 0 under the symbols' assumptions")
        return f"margin {sp.simplify(m)} not shown >= 0 after the reparametrisation"

    # case split ---------------------------------------------------------------
    def _cases(self):
        if not self.cases:
            return "CASES needs a tuple of substitutions"
        for i, case in enumerate(self.cases):
            m = sp.expand(sp.simplify(self.margin.subs(case, simultaneous=True)))
            terms = sp.Add.make_args(m)
            bad = [t for t in terms if t.is_nonnegative is not True]
            if bad:
                return f"case {i} ({case}): terms not shown nonnegative: {bad[:3]}"
        return CheckResult(ProofVerdict.PROVED,
                           f"{self.id}: {len(self.cases)} cases cover every sign pattern; in each the margin "
                           f"rhs - lhs is a sum of nonnegative terms")

    # Gaussian privacy profiles -----------------------------------------------
    def _profile(self):
        """Certify delta_BW(eps; ratio) <= rhs on the box.

        ``profile`` = {"epsilon": sympy expression of eps, "sigma": sympy expression of sigma / sensitivity}.
        delta_BW(eps; 1, sigma) is nonincreasing in eps and in sigma (lemmas
        std/gaussian-profile-monotone-epsilon and -sensitivity: it depends on sensitivity/sigma
        and grows with it); the directions of eps, sigma and rhs in each variable are established
        by sympy, or by ``mpmath.iv`` on the cell, so each cell is bounded by one evaluation at
        its smallest eps and smallest sigma (taken separately: a relaxation), at 50 digits.
        """
        from .numeric import gaussian_delta

        prof = self.profile or {}
        eps_expr, ratio = prof.get("epsilon"), prof.get("sigma")
        if eps_expr is None or ratio is None:
            return "PROFILE needs profile={'epsilon': expr, 'sigma': expr}"
        names, cells = self._cells()
        syms = self._syms()
        dirs = {}
        for n in names:
            if self.box[n].scale == "int":
                continue
            dirs[n] = (self._direction(eps_expr, syms[n], names), self._direction(ratio, syms[n], names),
                       self._direction(self.rhs, syms[n], names))
        from .library import gaussian_profile_expr

        # the certificate encloses the Balle-Wang profile at (eps, sigma): the conclusion's lhs must be exactly that
        if self.lhs != gaussian_profile_expr(eps_expr, 1, ratio) and \
                sp.simplify(self.lhs - gaussian_profile_expr(eps_expr, 1, ratio)) != 0:
            return "the conclusion's lhs is not the Gaussian profile at the PROFILE's (epsilon, sigma)"
        if flint_or_none() is None:
            return NOT_INSTALLED
        checked = 0
        stack = list(cells)
        if True:
            while stack:
                cell = stack.pop()
                checked += 1
                if checked > self.max_cells:
                    return f"cell budget {self.max_cells} exhausted"
                # smallest eps and smallest sigma over the cell (taken separately: a relaxation)
                eps_at, ratio_at, low_r = [], [], []
                for n, (lo, hi) in zip(names, cell):
                    if self.box[n].scale == "int":
                        for lst in (eps_at, ratio_at, low_r):
                            lst.append(int(lo))
                        continue
                    de, dr, dh = (dd if dd is not None else self._direction(ex, syms[n], names, cell)
                                  for dd, ex in zip(dirs[n], (eps_expr, ratio, self.rhs)))
                    if None in (de, dr, dh):
                        break
                    eps_at.append(lo if de >= 0 else hi)
                    ratio_at.append(lo if dr >= 0 else hi)
                    low_r.append(lo if dh >= 0 else hi)
                if len(low_r) == len(names):
                    sy = [syms[n] for n in names]
                    try:
                        L = gaussian_delta_arb(arb_eval(eps_expr, {k: ball(v) for k, v in zip(sy, eps_at)}),
                                               arb_eval(ratio, {k: ball(v) for k, v in zip(sy, ratio_at)}))
                        R = arb_eval(self.rhs, {k: ball(v) for k, v in zip(sy, low_r)})
                    except ArbUnsupported as exc:
                        return f"Arb: {exc}"
                    if (R - L).lower() > 0:
                        continue
                parts = self._split(names, cell)
                if parts is None:
                    return f"a cell of width ~0 near {dict(zip(names, cell))} could not be certified"
                stack.extend(parts)
        return CheckResult(ProofVerdict.CERTIFIED,
                           f"{self.id}: exact Gaussian profile <= bound certified on {self._box_text()} "
                           f"(monotone enclosure: profile decreasing in eps and in sigma; "
                           f"directions by sympy or mpmath.iv per cell; {checked} cells, each margin an Arb ball > 0, "
                           f"{PREC_BITS}-bit python-flint)", domain=self._certified_domain())
