"""One calibration function per mechanism of the source papers (internal; re-exported by the package)."""
from __future__ import annotations

import enum
from dataclasses import dataclass
import math
from typing import Any, Callable

import numpy as np

from ._numeric import round_up
from .. import validation as v
from ..errors import DPVerifyError, InvalidArgument, NumericalError
from . import gaussian_profile, laplace_profile, projection_profile
from ._result import Calibration, CalibrationMethod, Provenance

__all__ = [
    "ProjectionReading",
    "gaussian",
    "laplace",
    "random_projection",
    "wishart",
    "covariance_laplace",
    "mi_additive_noise",
    "mi_random_projection",
    "gaussian_delta",
    "laplace_delta",
    "projection_delta",
]

#: The exact Gaussian profile is Balle & Wang (2018), "Improving the Gaussian mechanism",
#: Theorem 8 -- an external reference (not one of the source papers), cited under this ID.
BALLE_WANG = "balle-wang-2018/theorem-8"


class ProjectionReading(str, enum.Enum):
    """How the projection matrix P of ``tu-projections`` is read.

    * ``FRESH``: P is random (i.i.d. N(0, sigma_p^2)), as the theorems' proofs use it (they spend
      part of delta on the event that ||zP|| is large); the profile averages over P.
    * ``FIXED``: P is a given matrix; the release is a Gaussian mechanism with sensitivity
      B s_max(P) (or ||zP|| for a given pair difference z).
    """

    FRESH = "fresh"
    FIXED = "fixed"


# ----------------------------------------------------------------------------- helpers

def _eps(epsilon: Any) -> float:
    return v.positive("epsilon", epsilon, fix="Calibrating noise needs a finite privacy target eps > 0.")


def _delta_open(delta: Any) -> float:
    return v.open_unit("delta", delta, fix="Pass a target delta with 0 < delta < 1 (e.g. 1e-6).")


def _sens(sensitivity: Any) -> float:
    return v.positive("sensitivity", sensitivity, fix="The sensitivity is max ||f(x) - f(x')|| over neighbours; it must be > 0.")


def _derivation(derivation_id: str):
    """The derivation ``derivation_id`` of :mod:`dpverify.symbolic.derivations`, or DPVerifyError."""
    try:
        from ..symbolic.derivations import get_derivation  # deferred: sympy (the derivations are sympy expressions)
    except ImportError as exc:
        raise DPVerifyError(
            f"the symbolic derivation {derivation_id!r} is unavailable: dpverify.symbolic.derivations "
            f"cannot be imported ({exc}). Lemma-derived calibrations are computed from it; use "
            f"method='exact' where an exact calibration exists."
        ) from None
    return get_derivation(derivation_id)


def _evaluate(derivation, allow_zero: bool = False, **values) -> float:
    value = derivation.evaluate(**values)
    try:
        x = float(value)
    except (TypeError, ValueError):
        raise NumericalError(f"derivation {derivation.id!r} evaluated to {value!r} at {values}, not a real number.") from None
    ok = (x >= 0) if allow_zero else (x > 0)
    if not (math.isfinite(x) and ok):
        raise NumericalError(
            f"derivation {derivation.id!r} evaluated to {x!r} at {values}; a noise parameter must be a finite "
            f"number {'>= 0' if allow_zero else '> 0'}."
        )
    return x


def _printed(derivation, **values) -> tuple[tuple[tuple[str, float], ...], tuple[str, ...]]:
    """The paper's printed formula under each reading, as comparisons (and notes for failures)."""
    comps, notes = [], []
    for reading in getattr(derivation, "printed", {}) or {}:
        try:
            x = float(derivation.evaluate_printed(reading, **values))
        except Exception as exc:  # a reading that does not evaluate (e.g. log of a negative) is reported
            notes.append(f"printed formula, reading {reading!r}: does not evaluate at these inputs ({exc}).")
            continue
        if math.isfinite(x):
            comps.append((f"printed formula ({reading})", x))
        else:
            notes.append(f"printed formula, reading {reading!r}: evaluates to {x!r} at these inputs.")
    return tuple(comps), tuple(notes)


def _printed_below(comps, exact: float, what: str) -> tuple[str, ...]:
    """Notes for printed-formula values below the exact minimum (they would not meet the target)."""
    return tuple(
        f"{label} = {value!r} is BELOW the exact minimal {what} {exact!r}: as printed it does not meet the target."
        for label, value in comps if value < exact
    )


def _provenance(derivation) -> Provenance:
    return Provenance(claim=derivation.id, derivation=derivation.id,
                      lemmas=tuple(derivation.lemmas), steps=tuple(derivation.steps))


def _verdict(d, err, target: float) -> bool | None:
    """True: certified <= target; False: certified > target; None: within the evaluation error."""
    if d + err <= target:
        return True
    if d - err > target:
        return False
    return None


# ----------------------------------------------------------------------------- exact profiles

def gaussian_delta(epsilon: float, sigma: float, sensitivity: float = 1.0) -> tuple[float, float]:
    """Certified **upper bound** on delta(eps) of f + N(0, sigma^2 I), and its error bound.

    Balle & Wang (2018) Theorem 8, evaluated at 50 digits with mpmath (``erfc``, never 1 + erf);
    the returned bound already includes the evaluation error (the second value).
    """
    eps = v.nonnegative("epsilon", epsilon)
    s = v.positive("sigma", sigma)
    return gaussian_profile.certified_delta(eps, s, _sens(sensitivity))


def laplace_delta(epsilon: float, scale: float, sensitivity: float = 1.0) -> tuple[float, float]:
    """Certified upper bound on delta(eps) = max(0, 1 - exp((eps - Delta/b)/2)) of the scalar Laplace mechanism."""
    eps = v.nonnegative("epsilon", epsilon)
    b = v.positive("scale", scale)
    return laplace_profile.certified_delta(eps, b, _sens(sensitivity))


def projection_delta(epsilon: float, sigma: float, *, k: int, norm: float, sigma_p: float = 1.0,
                     rtol: float = 1e-3) -> tuple[float, float]:
    """Bracket (lower, certified upper) on the FRESH-P delta(eps) of ``tu-projections`` XP + G.

    ``norm`` is ||z|| (use B for the worst pair). The upper bound is re-checked at 30 digits.
    """
    eps = v.positive("epsilon", epsilon)
    s = v.positive("sigma", sigma)
    kk = v.integer("k", k, minimum=1)
    nz = v.positive("norm", norm)
    sp = v.positive("sigma_p", sigma_p)
    rt = v.open_unit("rtol", rtol)
    up, _tol, lower = projection_profile.fresh_delta_certified(eps, s, kk, nz, sp, rt)
    return lower, up


# ----------------------------------------------------------------------------- Gaussian

_GAUSS_METHODS = (CalibrationMethod.EXACT, CalibrationMethod.CLASSICAL, CalibrationMethod.KENTHAPADI)
_GAUSS_DERIVATION = {CalibrationMethod.CLASSICAL: "lecture21-dp/lemma-6", CalibrationMethod.KENTHAPADI: "tu-projections/lemma-2"}


def _gaussian_exact_steps(epsilon, delta, sensitivity, nudges) -> tuple[str, ...]:
    return (
        "delta(eps) = Phi(Delta/(2 sigma) - eps sigma/Delta) - e^eps Phi(-Delta/(2 sigma) - eps sigma/Delta) "
        "(Balle & Wang 2018, Theorem 8: exact for the Gaussian mechanism)",
        "solve log delta(eps; sigma) = log delta for u = log(sigma/Delta) with brentq "
        "(float64, log_ndtr and log-subtraction)",
        (f"re-check at {gaussian_profile.CERT_DPS} digits with mpmath (erfc) and an explicit error bound; "
         f"nudged upward {nudges} time(s) until the certified delta(eps) <= {delta!r}") if nudges >= 0 else
        (f"the float root could not be certified (float64 cannot resolve the profile here): 50-digit "
         f"mpmath bisection instead, rounded up to a float whose certified delta(eps) <= {delta!r}"),
    )


def gaussian(epsilon: float, delta: float, sensitivity: float = 1.0, method: CalibrationMethod | str = "exact") -> Calibration:
    """sigma of the Gaussian mechanism f + N(0, sigma^2 I) for an (eps, delta) target.

    ``method``: ``"exact"`` (the smallest sigma meeting the exact profile, certified),
    ``"classical"`` (``lecture21-dp/lemma-6``) or ``"kenthapadi"`` (``tu-projections/lemma-2``,
    needs delta < 1/2). Every result carries the exact minimum, ``tightness = sigma / exact``
    and ``safe`` (False when a lemma's sigma is below the exact minimum, e.g. the classical formula
    for large eps: the returned value is then reported, not hidden, and does not meet the target).
    """
    m = CalibrationMethod.parse(method, _GAUSS_METHODS, mechanism="the Gaussian mechanism")
    eps, dlt, sens = _eps(epsilon), _delta_open(delta), _sens(sensitivity)
    inputs = (("epsilon", eps), ("delta", dlt), ("sensitivity", sens))
    s_exact, ach, tol, nudges = gaussian_profile.minimal_sigma(eps, dlt, sens)
    if m is CalibrationMethod.EXACT:
        return Calibration(
            mechanism="gaussian", parameter_name="sigma", value=s_exact, method=m, inputs=inputs,
            provenance=Provenance(claim="lecture21-dp/lemma-6", lemmas=(BALLE_WANG,),
                                  steps=_gaussian_exact_steps(eps, dlt, sens, nudges)),
            achieved_delta=ach, tolerance=tol, exact_value=s_exact, tightness=1.0, safe=True,
            notes=("exact: the smallest float sigma whose 50-digit delta(eps) is certified <= delta "
                   "(within a relative 1e-9 of the true minimum)",),
        )
    if m is CalibrationMethod.KENTHAPADI and not dlt < 0.5:
        raise InvalidArgument(
            f"delta={dlt!r}: tu-projections Lemma 2 (Kenthapadi et al.) holds only for delta < 1/2; "
            f"use method='exact' or 'classical'."
        )
    der = _derivation(_GAUSS_DERIVATION[m])
    sigma = _evaluate(der, epsilon=eps, delta=dlt, sensitivity=sens)
    d, err = gaussian_profile.delta_mp(eps, sigma, sens)
    safe = _verdict(d, err, dlt)
    comps, pnotes = _printed(der, epsilon=eps, delta=dlt, sensitivity=sens)
    notes = list(pnotes) + list(_printed_below(comps, s_exact, "sigma"))
    if m is CalibrationMethod.CLASSICAL and eps >= 1:
        notes.append("lecture21-dp Lemma 6 states no bound on eps; the classical analysis (Dwork & Roth, "
                     "Theorem A.1) needs eps < 1.")
    if safe is False:
        notes.append(f"UNSAFE: sigma is below the exact minimum {s_exact!r}; the mechanism with this sigma is "
                     f"NOT ({eps!r}, {dlt!r})-DP (its delta(eps) is {float(d):.6g}).")
    return Calibration(
        mechanism="gaussian", parameter_name="sigma", value=sigma, method=m, inputs=inputs,
        provenance=_provenance(der), achieved_delta=round_up(d + err), tolerance=round_up(err),
        exact_value=s_exact, tightness=sigma / s_exact, safe=safe,
        comparisons=comps + (("exact minimal sigma", s_exact),), notes=tuple(notes),
    )


# ----------------------------------------------------------------------------- Laplace

def laplace(epsilon: float, delta: float = 0.0, sensitivity: float = 1.0, method: CalibrationMethod | str = "exact") -> Calibration:
    """Scale b of the scalar Laplace mechanism f + Lap(0, b) (``lecture21-dp/lemma-1``).

    ``method``: ``"exact"`` (b* = Delta / (eps - 2 log(1 - delta)), from the exact profile
    delta(eps) = max(0, 1 - exp((eps - Delta/b)/2)); Delta/eps for delta = 0) or ``"lemma"``
    (Lemma 1's b = Delta/eps, pure DP whatever delta is). ``delta`` in [0, 1).
    """
    m = CalibrationMethod.parse(method, (CalibrationMethod.EXACT, CalibrationMethod.LEMMA), mechanism="the Laplace mechanism")
    eps, sens = _eps(epsilon), _sens(sensitivity)
    dlt = v.probability("delta", delta, fix="Pass 0 for pure DP or a target 0 < delta < 1.")
    inputs = (("epsilon", eps), ("delta", dlt), ("sensitivity", sens))
    b_exact, ach, tol, nudges = laplace_profile.minimal_scale(eps, dlt, sens)
    if m is CalibrationMethod.EXACT:
        return Calibration(
            mechanism="laplace", parameter_name="scale", value=b_exact, method=m, inputs=inputs,
            provenance=Provenance(
                claim="lecture21-dp/lemma-1", lemmas=("lecture21-dp/lemma-1",),
                steps=("privacy loss of Lap(0,b) vs Lap(Delta,b): Delta/b, (Delta-2y)/b, -Delta/b on three pieces",
                       "delta(eps) = 1 - exp((eps - Delta/b)/2) for eps < Delta/b, else 0 (exact)",
                       "b* = Delta / (eps - 2 log(1 - delta)) (closed form)",
                       f"re-checked at {laplace_profile.CERT_DPS} digits; moved up {nudges} ulp(s)")),
            achieved_delta=ach, tolerance=tol, exact_value=b_exact, tightness=1.0, safe=True,
        )
    der = _derivation("lecture21-dp/lemma-1")
    b = _evaluate(der, epsilon=eps, sensitivity=sens)
    d, err = laplace_profile.delta_mp(eps, b, sens)
    return Calibration(
        mechanism="laplace", parameter_name="scale", value=b, method=m, inputs=inputs,
        provenance=_provenance(der), achieved_delta=round_up(d + err), tolerance=round_up(err),
        exact_value=b_exact, tightness=b / b_exact, safe=_verdict(d, err, dlt),
        comparisons=(("exact minimal scale", b_exact),),
    )


# ----------------------------------------------------------------------------- random projection

_RP_METHODS = (CalibrationMethod.EXACT, CalibrationMethod.THEOREM_1, CalibrationMethod.THEOREM_2)


def _parse_reading(reading) -> ProjectionReading:
    if isinstance(reading, ProjectionReading):
        return reading
    try:
        return ProjectionReading(reading)
    except ValueError:
        raise InvalidArgument(
            f"reading={reading!r} must be one of {[r.value for r in ProjectionReading]} (a ProjectionReading)."
        ) from None


def _smax_upper(P: np.ndarray) -> float:
    """An upper bound on the largest singular value of P (LAPACK value inflated by its error bound)."""
    s = float(np.linalg.norm(P, 2))
    # a backward-stable SVD has |s_hat - s| <= c max(d, k) eps ||P||_2; c = 10 is generous
    return s * (1 + 10 * max(P.shape) * np.finfo(float).eps)


@dataclass(frozen=True)
class _ProjectionInputs:
    """The validated inputs of :func:`random_projection`."""

    method: CalibrationMethod
    reading: ProjectionReading
    epsilon: float
    delta: float
    k: int
    norm: float  # B, or ||z|| when a pair difference z is given
    sigma_p: float
    rtol: float
    z: np.ndarray | None
    P: np.ndarray | None


def _projection_inputs(epsilon, delta, k, B, sigma_p, method, reading, z, P, rtol) -> _ProjectionInputs:
    """Validate :func:`random_projection`'s arguments (each error names the argument and the fix)."""
    m = CalibrationMethod.parse(method, _RP_METHODS, mechanism="the random projection release")
    rd = _parse_reading(reading)
    eps, dlt = _eps(epsilon), _delta_open(delta)
    sp = v.positive("sigma_p", sigma_p, fix="sigma_p is the standard deviation of P's entries.")
    rt = v.open_unit("rtol", rtol)
    zv = None
    if z is not None:
        zv = v.finite_array("z", z, ndim=1, fix="z = X_i - X'_i is a row difference (a 1-D vector).")
        if not np.any(zv != 0):
            raise InvalidArgument("z is the zero vector; neighbouring rows must differ (pass a non-zero z or B).")
    Pm = None
    if P is not None:
        Pm = v.finite_array("P", P, ndim=2, fix="P is the d x k projection matrix.")
    if k is not None:
        k = v.integer("k", k, minimum=1, fix="k is the projection dimension.")
    if Pm is not None:
        if k is not None and k != Pm.shape[1]:
            raise InvalidArgument(f"k={k!r} does not match P's {Pm.shape[1]} columns; omit k or fix P.")
        k = Pm.shape[1]
        if zv is not None and zv.shape[0] != Pm.shape[0]:
            raise InvalidArgument(f"z has {zv.shape[0]} entries but P has {Pm.shape[0]} rows; they must match (d).")
    if k is None:
        raise InvalidArgument("k=None: the projection dimension k is required (or pass P).")
    if B is not None:
        B = v.positive("B", B, fix="B bounds the norm of a row difference ||X_i - X'_i||.")
    norm = float(np.linalg.norm(zv)) if zv is not None else B
    if norm is None:
        raise InvalidArgument("B=None and z=None: pass the bound B on ||X_i - X'_i|| or a pair difference z.")
    if zv is not None and B is not None and norm > B:
        raise InvalidArgument(f"z has norm {norm!r} > B={B!r}; a pair difference must satisfy ||z|| <= B.")
    if rd is ProjectionReading.FIXED and Pm is None:
        raise InvalidArgument("reading='fixed' needs the projection matrix P (d x k); pass P=... or use reading='fresh'.")
    if rd is ProjectionReading.FRESH and Pm is not None:
        raise InvalidArgument("P was given with reading='fresh', which averages over P; use reading='fixed' to use P.")
    if m is CalibrationMethod.THEOREM_1 and not dlt < 0.5:
        raise InvalidArgument(f"delta={dlt!r}: tu-projections Theorem 1 needs 0 < delta < 1/2.")
    if m is CalibrationMethod.THEOREM_2 and not (eps < 1 and dlt < 0.5):
        raise InvalidArgument(
            f"epsilon={eps!r}, delta={dlt!r}: tu-projections Theorem 2 needs 0 < eps < 1 and 0 < delta < 1/2; "
            f"use method='theorem-1' or 'exact'."
        )
    return _ProjectionInputs(m, rd, eps, dlt, k, norm, sp, rt, zv, Pm)


def _projection_exact(a: _ProjectionInputs):
    """The exact minimal sigma under the chosen reading: ``(s_hi, s_lo or None, achieved delta, tolerance,
    steps, note, fixed-P sensitivity or None)``."""
    eps, dlt, k, norm, sp, rt = a.epsilon, a.delta, a.k, a.norm, a.sigma_p, a.rtol
    if a.reading is ProjectionReading.FRESH:
        s_hi, s_lo, ach_exact, tol_exact, cells = projection_profile.fresh_minimal_sigma(eps, dlt, k, norm, sp, rt)
        exact_steps = (
            "conditionally on P, XP + G is a Gaussian mechanism with Delta = ||zP|| (one non-zero row)",
            "||zP||^2 = ||z||^2 sigma_p^2 W, W ~ chi^2_k; delta(eps) = E_W[g(||z|| sigma_p sqrt(W)/sigma)], "
            "g the Gaussian profile (Balle & Wang Theorem 8); worst pair ||z|| = B since g is increasing",
            f"rigorous bracket of the average by monotone sums over {cells} chi^2_k cells "
            f"(relative width <= {rt}); solve each sum = delta",
            f"upper sum re-checked at {projection_profile._MP_DPS} digits (mpmath gammainc, erfc)",
        )
        exact_note = ("FRESH-P reading: delta averages over P; exact when P is released with the output, "
                      "an upper bound otherwise.")
        return s_hi, s_lo, ach_exact, tol_exact, exact_steps, exact_note, None
    Pm, zv = a.P, a.z
    if zv is not None:
        sens_fixed = float(np.linalg.norm(zv @ Pm)) * (1 + 10 * max(Pm.shape) * np.finfo(float).eps)
    else:
        sens_fixed = float(norm * _smax_upper(Pm))
    s_hi, ach_exact, tol_exact, nudges = gaussian_profile.minimal_sigma(eps, dlt, sens_fixed)
    exact_steps = (
        "FIXED-P: XP + G is a Gaussian mechanism with Delta = ||zP|| <= B s_max(P)",
        f"Delta = {sens_fixed!r} (computed value inflated by its rounding-error bound)",
    ) + _gaussian_exact_steps(eps, dlt, sens_fixed, nudges)
    exact_note = "FIXED-P reading: P is the given matrix; sensitivity B s_max(P) (or ||zP|| for the given z)."
    return s_hi, None, ach_exact, tol_exact, exact_steps, exact_note, sens_fixed


def random_projection(epsilon: float, delta: float, *, k: int | None = None, B: float | None = None,
                      sigma_p: float = 1.0, method: CalibrationMethod | str = "exact",
                      reading: ProjectionReading | str = "fresh", z: Any = None, P: Any = None,
                      rtol: float = 1e-3) -> Calibration:
    """sigma of ``tu-projections``' release XP + G, G i.i.d. N(0, sigma^2), for rows differing by ||z|| <= B.

    ``method``: ``"theorem-1"`` / ``"theorem-2"`` (the paper's calibrations, from the symbolic
    derivations; shown next to the printed formula under each reading and the exact minimum) or
    ``"exact"``. ``reading`` (see :class:`ProjectionReading`): ``"fresh"`` averages the
    conditional Gaussian profile over P (needs k, sigma_p and B or a pair difference ``z``);
    ``"fixed"`` needs the matrix ``P`` (d x k) and uses sensitivity B s_max(P) (or ||zP||).
    ``rtol`` is the relative width of the rigorous bracket on the FRESH-P delta.
    """
    a = _projection_inputs(epsilon, delta, k, B, sigma_p, method, reading, z, P, rtol)
    m, rd, eps, dlt, k, norm, sp, rt = a.method, a.reading, a.epsilon, a.delta, a.k, a.norm, a.sigma_p, a.rtol
    inputs = [("epsilon", eps), ("delta", dlt), ("k", k), ("B" if a.z is None else "norm_z", norm),
              ("sigma_p", sp), ("reading", rd.value)]
    s_hi, s_lo, ach_exact, tol_exact, exact_steps, exact_note, sens_fixed = _projection_exact(a)
    if sens_fixed is not None:
        inputs.append(("sensitivity_fixed_P", float(sens_fixed)))
    inputs_t = tuple(inputs)
    bracket = (s_lo, s_hi) if s_lo is not None else None

    if m is CalibrationMethod.EXACT:
        return Calibration(
            mechanism="random-projection", parameter_name="sigma", value=s_hi, method=m, inputs=inputs_t,
            provenance=Provenance(claim="tu-projections/theorem-1", lemmas=(BALLE_WANG,), steps=exact_steps),
            achieved_delta=ach_exact, tolerance=tol_exact, exact_value=s_hi, exact_bracket=bracket,
            tightness=1.0, safe=True, notes=(exact_note,),
        )

    der = _derivation("tu-projections/theorem-1" if m is CalibrationMethod.THEOREM_1 else "tu-projections/theorem-2")
    vals = dict(epsilon=eps, delta=dlt, k=k, B=norm, sigma_p=sp)
    sigma = _evaluate(der, **vals)
    comps, pnotes = _printed(der, **vals)
    if rd is ProjectionReading.FRESH:
        up, tol, lower = projection_profile.fresh_delta_certified(eps, sigma, k, norm, sp, rt, target=dlt)
        safe = True if up <= dlt else (False if lower > dlt else None)
    else:
        d, err = gaussian_profile.delta_mp(eps, sigma, sens_fixed)
        up, tol = round_up(d + err), round_up(err)
        safe = _verdict(d, err, dlt)
    notes = list(pnotes) + list(_printed_below(comps, s_hi, "sigma")) + [exact_note]
    if safe is False:
        notes.append(f"UNSAFE: sigma={sigma!r} is below the exact minimum under the {rd.value} reading.")
    return Calibration(
        mechanism="random-projection", parameter_name="sigma", value=sigma, method=m, inputs=inputs_t,
        provenance=_provenance(der), achieved_delta=up, tolerance=tol, exact_value=s_hi,
        exact_bracket=bracket, tightness=sigma / s_hi, safe=safe,
        comparisons=comps + ((f"exact minimal sigma ({rd.value} P)", s_hi),), notes=tuple(notes),
    )


# ----------------------------------------------------------------------------- no exact profile

def _no_delta(what: str) -> dict:
    return dict(achieved_delta=None, achieved_delta_reason=what, exact_value=None, exact_reason=what)


def wishart(epsilon: float, *, n: int, d: int | None = None) -> Calibration:
    """Scale C = c I_d of ``jiang-wishart/algorithm-2`` (Wishart input perturbation, (eps, 0)-DP).

    Returns c (the paper: "C has d same eigenvalues equal to 3/(2 n eps)"), computed from the
    symbolic derivation. ``d`` is recorded but the scale does not depend on it.
    """
    eps = _eps(epsilon)
    nn = v.integer("n", n, minimum=1, fix="n is the number of data points (columns of D).")
    inputs = [("epsilon", eps), ("n", nn)]
    if d is not None:
        inputs.append(("d", v.integer("d", d, minimum=1)))
    der = _derivation("jiang-wishart/algorithm-2")
    c = _evaluate(der, epsilon=eps, n=nn)
    comps, notes = _printed(der, epsilon=eps, n=nn)
    return Calibration(
        mechanism="wishart", parameter_name="C", value=c, method=CalibrationMethod.LEMMA, inputs=tuple(inputs),
        provenance=_provenance(der), comparisons=comps, notes=notes,
        **_no_delta("no exact privacy profile of the Wishart mechanism is implemented; the paper's (eps, 0) "
                    "claim rests on a density-ratio bound (its Theorem 4), and the support of A + W, "
                    "{M : M - A positive definite}, depends on A (see the derivation's steps)"),
    )


def covariance_laplace(epsilon: float, *, n: int, d: int) -> Calibration:
    """Laplace scale of ``jiang-wishart/algorithm-1`` (symmetric Laplace noise on D D^T / n, (eps, 0)-DP)."""
    eps = _eps(epsilon)
    nn = v.integer("n", n, minimum=1, fix="n is the number of data points.")
    dd = v.integer("d", d, minimum=1, fix="d is the data dimension.")
    der = _derivation("jiang-wishart/algorithm-1")
    b = _evaluate(der, epsilon=eps, n=nn, d=dd)
    comps, notes = _printed(der, epsilon=eps, n=nn, d=dd)
    return Calibration(
        mechanism="covariance-laplace", parameter_name="scale", value=b, method=CalibrationMethod.LEMMA,
        inputs=(("epsilon", eps), ("n", nn), ("d", dd)), provenance=_provenance(der), comparisons=comps,
        notes=notes,
        **_no_delta("no exact minimum is implemented: it depends on the true l1 sensitivity of the upper "
                    "triangle of D D^T / n over the data domain, which the paper only bounds (its Lemma 2)"),
    )


_MI_REASON = ("MI-DP (showkatbakhsh-regression Definition 1) bounds a conditional mutual information in "
              "bits; it is not an (eps, delta) privacy profile, and no exact minimum is implemented for it")


def mi_additive_noise(epsilon: float) -> Calibration:
    """sigma_AN of ``showkatbakhsh-regression/lemma-1`` (X + sigma_AN N is eps-MI-DP; eps in **bits**)."""
    eps = _eps(epsilon)
    der = _derivation("showkatbakhsh-regression/lemma-1")
    s = _evaluate(der, epsilon=eps)
    comps, notes = _printed(der, epsilon=eps)
    return Calibration(
        mechanism="mi-additive-noise", parameter_name="sigma_AN", value=s, method=CalibrationMethod.LEMMA,
        inputs=(("epsilon_bits", eps),), provenance=_provenance(der), comparisons=comps,
        notes=notes + ("epsilon is in bits (MI-DP), not an (eps, delta)-DP epsilon.",), **_no_delta(_MI_REASON),
    )


def mi_random_projection(epsilon: float, *, n_prime: int, f2: float) -> Calibration:
    """sigma_RP of ``showkatbakhsh-regression/lemma-2``: sigma_RP^2 = (n'/(2^{2 eps} - 1) - f^2(X))_+.

    ``epsilon`` in bits; ``f2`` is f^2(X) (computed from the data: the calibration is itself
    data-dependent, which the note in the result states). sigma_RP may be 0 (the positive part).
    """
    eps = _eps(epsilon)
    npr = v.integer("n_prime", n_prime, minimum=1, fix="n' is the number of rows of the projection S.")
    f2v = v.nonnegative("f2", f2, fix="f2 = f^2(X) is a squared norm, >= 0.")
    der = _derivation("showkatbakhsh-regression/lemma-2")
    s = _evaluate(der, allow_zero=True, epsilon=eps, n_prime=npr, f2=f2v)
    comps, notes = _printed(der, epsilon=eps, n_prime=npr, f2=f2v)
    return Calibration(
        mechanism="mi-random-projection", parameter_name="sigma_RP", value=s, method=CalibrationMethod.LEMMA,
        inputs=(("epsilon_bits", eps), ("n_prime", npr), ("f2", f2v)), provenance=_provenance(der),
        comparisons=comps,
        notes=notes + ("epsilon is in bits (MI-DP).",
                       "sigma_RP depends on the data through f^2(X): releasing it, or the noise level it "
                       "implies, is itself data-dependent."),
        **_no_delta(_MI_REASON),
    )


#: Mechanism name (as the CLI spells it) -> calibration function.
CALIBRATORS: dict[str, Callable[..., Calibration]] = {
    "gaussian": gaussian,
    "laplace": laplace,
    "random-projection": random_projection,
    "wishart": wishart,
    "covariance-laplace": covariance_laplace,
    "mi-additive-noise": mi_additive_noise,
    "mi-random-projection": mi_random_projection,
}
