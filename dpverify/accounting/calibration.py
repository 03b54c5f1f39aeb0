"""Calibration for compositions: the smallest noise that keeps a composition within (eps, delta).

:func:`calibrate_noise` is generic: ``family`` maps a noise parameter (larger = more private) to a
:class:`~dpverify.accounting.events.DpEvent`, and the result is the smallest parameter, up to a
relative tolerance ``rtol``, whose composition a method certifies as (epsilon, delta)-DP. It
brackets the answer geometrically, bisects in log space, and returns the *upper* end of the final
bracket, for which the method's certified epsilon was computed and found ``<= epsilon``: the
returned parameter is on the safe side by construction (the safe-side re-check of
``dp_accounting``'s ``mechanism_calibration``, done on every returned value rather than nudged
afterwards). It assumes epsilon is non-increasing in the parameter (true for noise scales); where
the assumption fails the answer is still safe (it was checked), only perhaps not the smallest.

Shortcuts: :func:`gaussian_sigma_for_composition` (k uses of the Gaussian mechanism: exact, via
mu-GDP, Dong--Roth--Su 2022 Cor. 3.3 and Balle--Wang 2018 Thm 8), :func:`laplace_scale_for_composition`
(k uses of Laplace, PLD) and :func:`dpsgd_sigma` (DP-SGD's noise multiplier for
(rate, steps, epsilon, delta), PLD; Abadi et al. 2016 with the accounting of Koskela et al. 2020).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable

from .. import validation as v
from ..claims import NeighbourRelation
from ..errors import InvalidArgument
from .base import CompositionMethod
from .conversions import gdp_delta
from .events import DpEvent, Gaussian, Laplace, PoissonSubsampled, SelfComposed
from .registry import Method

__all__ = ["CompositionCalibration", "calibrate_noise", "dpsgd_sigma", "gaussian_sigma_for_composition",
           "laplace_scale_for_composition"]


@dataclass(frozen=True)
class CompositionCalibration:
    """``parameter``: the calibrated value (safe side); ``epsilon``: the certified epsilon at it
    (``<= target_epsilon``); ``below``: the largest value tried that did *not* certify (the
    smallest safe value lies in ``(below, parameter]``; ``None`` if the lower search bound
    already certified); ``evaluations``: accountant calls."""

    parameter: float
    epsilon: float
    target_epsilon: float
    delta: float
    below: float | None
    evaluations: int
    method: str


def calibrate_noise(family: Callable[[float], DpEvent], epsilon: float, delta: float, *,
                    method: Method | CompositionMethod = Method.PLD, start: float = 1.0, rtol: float = 1e-3,
                    max_evaluations: int = 80) -> CompositionCalibration:
    """The smallest noise parameter ``p`` (within ``rtol``) with ``method.epsilon(family(p), delta)
    <= epsilon`` (module docstring). ``start`` is the first parameter tried (> 0). (Named apart from
    the package :mod:`dpverify.calibrate`, which calibrates single mechanisms from lemmas.)"""
    if not callable(family):
        raise InvalidArgument(f"family={family!r} must be a callable mapping a noise parameter to a DpEvent "
                              "(e.g. lambda s: SelfComposed(Gaussian(s), 100)).")
    epsilon = v.positive("epsilon", epsilon, fix="Calibrate to a finite target epsilon > 0.")
    delta = v.open_unit("delta", delta, fix="Calibrate to a delta strictly between 0 and 1.")
    start = v.positive("start", start, fix="Start the search at a noise parameter > 0.")
    rtol = v.positive("rtol", rtol, fix="Use a relative tolerance such as 1e-3.")
    if not rtol < 1:
        raise InvalidArgument(f"rtol={rtol!r} must be < 1; use e.g. 1e-3.")
    max_evaluations = v.integer("max_evaluations", max_evaluations, minimum=4, fix="Allow at least 4 evaluations.")
    if isinstance(method, Method):
        method = method.default()
    if not isinstance(method, CompositionMethod):
        raise InvalidArgument(f"method={method!r} must be a Method or a composition method instance.")
    n = 0

    def eps_at(p: float) -> float:
        nonlocal n
        n += 1
        ev = family(p)
        if not isinstance(ev, DpEvent):
            raise InvalidArgument(f"family({p!r}) returned {ev!r}, not a DpEvent.")
        return method.epsilon(ev, delta)

    lo, hi = None, None
    e_hi = math.inf
    p = start
    e = eps_at(p)
    if e <= epsilon:
        hi, e_hi = p, e
        while n < max_evaluations:
            p = p / 2
            if p < 1e-300:
                break
            e = eps_at(p)
            if e <= epsilon:
                hi, e_hi = p, e
            else:
                lo = p
                break
    else:
        lo = p
        while n < max_evaluations:
            p = p * 2
            if p > 1e300:
                break
            e = eps_at(p)
            if e <= epsilon:
                hi, e_hi = p, e
                break
            lo = p
    if hi is None:
        raise InvalidArgument(f"no parameter in the search range certifies epsilon={epsilon!r} at delta={delta!r} "
                              f"with {method.name}; the target may be unreachable for this family.")
    while lo is not None and hi / lo > 1 + rtol and n < max_evaluations:
        mid = math.sqrt(lo * hi)
        e = eps_at(mid)
        if e <= epsilon:
            hi, e_hi = mid, e
        else:
            lo = mid
    # safe side: hi was evaluated and certified (e_hi <= epsilon); re-check to be explicit
    if not e_hi <= epsilon:  # pragma: no cover - cannot happen by construction
        raise AssertionError("calibration lost its certificate")
    return CompositionCalibration(hi, e_hi, epsilon, delta, lo, n, method.name)


def gaussian_sigma_for_composition(count: int, epsilon: float, delta: float, sensitivity: float = 1.0,
                                   rtol: float = 1e-9) -> float:
    """Smallest sigma (within ``rtol``, safe side) such that ``count`` uses of the Gaussian
    mechanism are (epsilon, delta)-DP: ``sigma = sqrt(count) sensitivity / mu*`` with ``mu*`` the
    largest mu whose exact GDP profile has ``delta(epsilon) <= delta`` (Dong--Roth--Su Cor. 3.3 and
    Balle--Wang Thm 8); re-checked with the exact profile of the result."""
    count = v.integer("count", count, minimum=1, fix="Compose at least once.")
    epsilon = v.positive("epsilon", epsilon, fix="Calibrate to a finite epsilon > 0.")
    delta = v.open_unit("delta", delta, fix="Calibrate to a delta strictly between 0 and 1.")
    sensitivity = v.positive("sensitivity", sensitivity, fix="Give the query's L2 sensitivity (> 0).")
    lo, hi = 0.0, 1.0
    while gdp_delta(hi, epsilon) <= delta:
        lo, hi = hi, hi * 2
    while hi - lo > rtol * max(lo, 1e-300) and hi - lo > 1e-300:
        mid = 0.5 * (lo + hi)
        if gdp_delta(mid, epsilon) <= delta:
            lo = mid
        else:
            hi = mid
    if lo == 0.0:
        raise InvalidArgument(f"epsilon={epsilon!r}, delta={delta!r}: no Gaussian noise level reaches this target.")
    sigma = math.sqrt(count) * sensitivity / lo
    sigma *= 1 + 1e-12
    while not gdp_delta(math.sqrt(count) * sensitivity / sigma, epsilon) <= delta:  # safe-side re-check
        sigma *= 1 + 1e-9
    return sigma


def laplace_scale_for_composition(count: int, epsilon: float, delta: float, sensitivity: float = 1.0, *,
                                  method: Method | CompositionMethod = Method.PLD,
                                  rtol: float = 1e-3) -> CompositionCalibration:
    """Smallest Laplace scale b (within ``rtol``, safe side) for ``count`` uses to be (epsilon, delta)-DP."""
    count = v.integer("count", count, minimum=1, fix="Compose at least once.")
    sensitivity = v.positive("sensitivity", sensitivity, fix="Give the query's L1 sensitivity (> 0).")
    start = sensitivity * max(1.0, math.sqrt(count)) / v.positive("epsilon", epsilon, fix="epsilon > 0.")
    return calibrate_noise(lambda b: SelfComposed(Laplace(b, sensitivity), count), epsilon, delta, method=method,
                     start=start, rtol=rtol)


def dpsgd_sigma(rate: float, steps: int, epsilon: float, delta: float, *,
                method: Method | CompositionMethod = Method.PLD, rtol: float = 1e-3) -> CompositionCalibration:
    """DP-SGD's smallest noise multiplier sigma (within ``rtol``, safe side) for ``steps``
    Poisson-subsampled Gaussian steps at sampling ``rate`` to be (epsilon, delta)-DP under
    add/remove-one (clipping norm = sensitivity = 1)."""
    rate = v.probability("rate", rate, low_open=True, high_open=False, fix="The sampling rate lies in (0, 1].")
    steps = v.integer("steps", steps, minimum=1, fix="Give the number of steps (>= 1).")

    def family(s: float) -> DpEvent:
        return SelfComposed(PoissonSubsampled(Gaussian(s, relation=NeighbourRelation.ADD_REMOVE_ONE), rate), steps)

    return calibrate_noise(family, epsilon, delta, method=method, start=1.0, rtol=rtol)
