"""High-precision recomputation of privacy losses where float64 cannot resolve them.

A loss L = log p_D(o) - log p_D'(o) computed in float64 carries an error of up to
``64 eps_machine (|log p_D| + |log p_D'| + 1)`` (the white-box audit's working assumption), and the
audit lowers every loss by that bound (safe side). When the two log densities are large and
nearly equal (|log p| ~ 1e12 and L ~ 1), or when a full-support density underflows to ``-inf`` in
a far tail, that bound swamps the loss. Then, **if the mechanism offers**

    log_density_mp(output, data, dps) -> mpmath.mpf

(the log density of one output at ``dps`` decimal digits), the flagged losses are recomputed with
mpmath and the float64 value is replaced by the high-precision one rounded **down** (one ulp below
the nearest float). The number of recomputed losses is reported in each direction's result
(``recomputed``); losses that stay flagged (no ``log_density_mp``, or beyond the per-batch limit)
keep their safe-side rounding, and their number is reported as ``imprecise``.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..validation import integer, positive
from ..errors import MechanismError, NumericalError
from ..messages import describe
from .draws import NO_ORIGIN, Origin

__all__ = ["PrecisionPolicy", "refine_losses", "has_mp"]

_ULP_FACTOR = 64 * np.finfo(float).eps


@dataclass(frozen=True)
class PrecisionPolicy:
    """When and how losses are recomputed at high precision.

    ``tolerance``: a loss whose float64 error bound exceeds it is recomputed (default 1e-9);
    ``dps``: mpmath decimal digits (default 50); ``max_per_batch``: at most this many
    recomputations per batch of outputs (default 4096), to bound the cost.
    """

    tolerance: float = 1e-9
    dps: int = 50
    max_per_batch: int = 4096

    def __post_init__(self) -> None:
        positive("tolerance", self.tolerance, fix="Use e.g. PrecisionPolicy(tolerance=1e-9).")
        integer("dps", self.dps, minimum=20, fix="mpmath needs at least 20 digits to beat float64 reliably.")
        integer("max_per_batch", self.max_per_batch, minimum=0)


DEFAULT_POLICY = PrecisionPolicy()


def has_mp(mechanism: Any) -> bool:
    return callable(getattr(mechanism, "log_density_mp", None))


def _mp_loss(mechanism, output, data, data_prime, dps, origin: Origin) -> float:
    import mpmath

    with mpmath.workdps(dps):
        try:
            la = mechanism.log_density_mp(output, data, dps)
            lb = mechanism.log_density_mp(output, data_prime, dps)
        except Exception as exc:
            raise MechanismError(
                f"{describe(mechanism)}.log_density_mp raised {type(exc).__name__}: {exc}; "
                f"at output {describe(output)}.", **origin.fields()
            ) from exc
        la, lb = mpmath.mpf(la), mpmath.mpf(lb)
        if mpmath.isnan(la) or mpmath.isnan(lb) or la == mpmath.inf or lb == mpmath.inf or la == -mpmath.inf:
            raise NumericalError(
                f"{describe(mechanism)}.log_density_mp returned {la} (data) and {lb} (data_prime) at "
                f"output {describe(output)}; it must be finite on the support, -inf outside it."
            )
        if lb == -mpmath.inf:
            return math.inf
        value = float(la - lb)  # nearest float; the mp error at dps >= 20 is far below one ulp
    return float(np.nextafter(value, -np.inf))  # rounded down


def refine_losses(mechanism, outputs, data, data_prime, a, b, loss, err, policy, *, origin: Origin = NO_ORIGIN):
    """Recompute flagged losses with ``log_density_mp``: return (loss, recomputed, imprecise).

    ``a``/``b`` are the float64 log densities, ``loss`` the losses already lowered by the batch
    error bound ``err``. Flagged: a finite ``a`` and (per-output error bound > tolerance, or
    ``b = -inf``, which for a full-support density may be an underflow). ``imprecise`` counts the
    losses whose error bound exceeds the tolerance and which were not recomputed (they keep the
    safe-side rounding). ``origin``: the batch's pair and direction, for a MechanismError's fields.
    """
    policy = DEFAULT_POLICY if policy is None else policy
    fa = np.isfinite(a)
    neg_inf = fa & (b == -np.inf)
    if err <= policy.tolerance and not neg_inf.any():
        return loss, 0, 0
    with np.errstate(invalid="ignore"):
        own = _ULP_FACTOR * (np.abs(a) + np.where(np.isfinite(b), np.abs(b), 0.0) + 1.0)
    imprecise = fa & (own > policy.tolerance)
    n_imprecise = int(np.count_nonzero(imprecise))
    if policy.max_per_batch == 0 or not has_mp(mechanism):
        return loss, 0, n_imprecise
    flagged = np.flatnonzero(imprecise | neg_inf)[: policy.max_per_batch]
    if flagged.size == 0:
        return loss, 0, 0
    loss = loss.copy()
    for i in flagged:
        loss[i] = _mp_loss(mechanism, outputs[i], data, data_prime, policy.dps, origin)
    return loss, int(flagged.size), n_imprecise - int(np.count_nonzero(imprecise[flagged]))


def underflow_rescue(mechanism, outputs, data, a, policy):
    """Recompute, with ``log_density_mp``, the ``-inf`` values of log p_D at outputs drawn from D
    (impossible for a correct density: a float64 underflow in a far tail). Returns (a, count).
    Values that stay ``-inf`` are left for the caller's error report."""
    import mpmath

    policy = DEFAULT_POLICY if policy is None else policy
    idx = np.flatnonzero(a == -np.inf)[: policy.max_per_batch]
    if idx.size == 0:
        return a, 0
    a = a.copy()
    for i in idx:
        with mpmath.workdps(policy.dps):
            value = mpmath.mpf(mechanism.log_density_mp(outputs[i], data, policy.dps))
        if mpmath.isfinite(value):
            a[i] = float(value)
    return a, int(idx.size)
