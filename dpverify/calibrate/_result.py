"""The values a calibration returns: :class:`Calibration`, :class:`CalibrationMethod`, :class:`Provenance`."""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass, field
from typing import Any

from ..errors import InvalidArgument

__all__ = ["CalibrationMethod", "Provenance", "Calibration", "PARAMETER_NAMES"]

#: The noise parameters a calibration can return, each under its paper's name.
PARAMETER_NAMES = ("sigma", "scale", "C", "sigma_AN", "sigma_RP")


class CalibrationMethod(str, enum.Enum):
    """How a noise parameter was obtained.

    * ``EXACT``: the smallest parameter whose exact privacy profile meets the target
      (root finder + 50-digit re-check, moved to the safe side).
    * ``CLASSICAL``: ``lecture21-dp/lemma-6`` (sigma = sqrt(2 log(1.25/delta)) Delta / eps).
    * ``KENTHAPADI``: ``tu-projections/lemma-2`` (sigma^2 = 2 Delta^2 (log(1/(2 delta)) + eps) / eps^2).
    * ``THEOREM_1`` / ``THEOREM_2``: ``tu-projections/theorem-1`` / ``theorem-2``.
    * ``LEMMA``: the paper's own lemma or algorithm for a mechanism with a single published
      calibration (Laplace ``lecture21-dp/lemma-1``, ``jiang-wishart/algorithm-1`` and
      ``algorithm-2``, ``showkatbakhsh-regression/lemma-1`` and ``lemma-2``).
    """

    EXACT = "exact"
    CLASSICAL = "classical"
    KENTHAPADI = "kenthapadi"
    THEOREM_1 = "theorem-1"
    THEOREM_2 = "theorem-2"
    LEMMA = "lemma"

    @classmethod
    def parse(cls, value: Any, allowed: tuple["CalibrationMethod", ...], *, mechanism: str) -> "CalibrationMethod":
        """``value`` (a CalibrationMethod or its string value) as a member of ``allowed``, else InvalidArgument."""
        names = ", ".join(repr(m.value) for m in allowed)
        if isinstance(value, CalibrationMethod):
            member = value
        elif isinstance(value, str):
            try:
                member = cls(value)
            except ValueError:
                raise InvalidArgument(
                    f"method={value!r} is not a calibration method; for {mechanism} use one of {names}."
                ) from None
        else:
            raise InvalidArgument(
                f"method={value!r} must be a dpverify.calibrate.CalibrationMethod or one of the strings {names} "
                f"(got {type(value).__name__})."
            )
        if member not in allowed:
            raise InvalidArgument(
                f"method={member.value!r} does not apply to {mechanism}; use one of {names}."
            )
        return member


@dataclass(frozen=True)
class Provenance:
    """Where a calibration comes from.

    ``claim`` is the paper claim ID (``<paper-key>/<label>``) or ``"balle-wang-2018/theorem-8"``
    style reference for exact profiles; ``derivation`` is the ID in
    :data:`dpverify.symbolic.derivations.DERIVATIONS` the value was computed from (None for exact
    calibrations, which are computed from a privacy profile, not a lemma chain); ``lemmas`` the
    lemma IDs used; ``steps`` the derivation or computation steps, in order.
    """

    claim: str
    lemmas: tuple[str, ...] = ()
    steps: tuple[str, ...] = ()
    derivation: str | None = None

    def to_dict(self) -> dict:
        return {"claim": self.claim, "derivation": self.derivation,
                "lemmas": list(self.lemmas), "steps": list(self.steps)}


@dataclass(frozen=True)
class Calibration:
    """A noise parameter, how it was obtained, and how it compares with the exact minimum.

    The parameter is available as ``.value`` and under its paper's name: ``.sigma``, ``.scale``,
    ``.C``, ``.sigma_AN`` or ``.sigma_RP`` (exactly one of these works, the one named by
    ``parameter_name``; the others raise AttributeError naming the right one). These are explicit
    properties, not ``__getattr__``, so that ``dir()``, IDEs and typos behave predictably.

    Fields:

    * ``mechanism``: the mechanism calibrated (e.g. ``"gaussian"``).
    * ``method``: a :class:`CalibrationMethod`.
    * ``inputs``: the target and mechanism inputs, as ``(name, value)`` pairs.
    * ``provenance``: a :class:`Provenance`.
    * ``achieved_delta``: delta(epsilon) of the mechanism with this parameter, from an exact
      privacy profile evaluated at high precision (an **upper bound**: evaluation error
      included); None when no exact profile exists, with ``achieved_delta_reason``.
    * ``tolerance``: the absolute error bound of that evaluation (already added to
      ``achieved_delta``), or None.
    * ``exact_value``: the smallest parameter that meets the target according to the exact
      profile (for exact calibrations, the returned value itself, which is at most a few ulps
      above the true minimum for the Gaussian; see ``exact_bracket``), or None with
      ``exact_reason``.
    * ``exact_bracket``: ``(low, high)`` known to contain the true minimum, or None.
    * ``tightness``: ``value / exact_value`` (> 1: noise wasted; < 1: below the exact minimum,
      so the target is NOT met), or None with ``exact_reason``.
    * ``safe``: True when ``achieved_delta <= delta`` (certified), False when the parameter is
      below the exact minimum (the calibration does not meet the target), None when unknown.
    * ``comparisons``: other values shown beside this one, as ``(label, value)`` pairs (e.g. the
      paper's printed formula under each reading).
    * ``notes``: plain-language remarks (readings chosen, hypotheses, warnings).
    """

    mechanism: str
    parameter_name: str
    value: float
    method: CalibrationMethod
    inputs: tuple[tuple[str, Any], ...]
    provenance: Provenance
    achieved_delta: float | None = None
    achieved_delta_reason: str | None = None
    tolerance: float | None = None
    exact_value: float | None = None
    exact_reason: str | None = None
    exact_bracket: tuple[float, float] | None = None
    tightness: float | None = None
    safe: bool | None = None
    comparisons: tuple[tuple[str, float], ...] = ()
    notes: tuple[str, ...] = field(default=())

    def __post_init__(self):
        if self.parameter_name not in PARAMETER_NAMES:
            raise InvalidArgument(
                f"parameter_name={self.parameter_name!r} must be one of {PARAMETER_NAMES}."
            )
        if not isinstance(self.method, CalibrationMethod):
            raise InvalidArgument(f"method={self.method!r} must be a CalibrationMethod.")
        if not (isinstance(self.value, float) and math.isfinite(self.value) and self.value >= 0):
            raise InvalidArgument(f"value={self.value!r} must be a finite float >= 0.")
        if self.exact_value is None and self.exact_reason is None:
            raise InvalidArgument("exact_value is None: exact_reason must say why.")
        if self.achieved_delta is None and self.achieved_delta_reason is None:
            raise InvalidArgument("achieved_delta is None: achieved_delta_reason must say why.")

    def _named(self, name: str) -> float:
        if self.parameter_name != name:
            raise AttributeError(
                f"this {self.mechanism} calibration's parameter is {self.parameter_name!r}, not "
                f"{name!r}; use .{self.parameter_name} or .value."
            )
        return self.value

    @property
    def sigma(self) -> float:
        """The Gaussian standard deviation (when ``parameter_name == "sigma"``)."""
        return self._named("sigma")

    @property
    def scale(self) -> float:
        """The Laplace scale b (when ``parameter_name == "scale"``)."""
        return self._named("scale")

    @property
    def C(self) -> float:  # noqa: N802 - the paper's name
        """The Wishart scale: C = c I_d, this is c (when ``parameter_name == "C"``)."""
        return self._named("C")

    @property
    def sigma_AN(self) -> float:  # noqa: N802
        """``showkatbakhsh-regression`` additive-noise sigma_AN (when ``parameter_name == "sigma_AN"``)."""
        return self._named("sigma_AN")

    @property
    def sigma_RP(self) -> float:  # noqa: N802
        """``showkatbakhsh-regression`` random-projection sigma_RP (when ``parameter_name == "sigma_RP"``)."""
        return self._named("sigma_RP")

    @property
    def input_dict(self) -> dict:
        return dict(self.inputs)

    def to_dict(self) -> dict:
        """A JSON-ready dict of every field (``method`` as its string value)."""
        return {
            "mechanism": self.mechanism,
            "parameter": self.parameter_name,
            self.parameter_name: self.value,
            "value": self.value,
            "method": self.method.value,
            "inputs": {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.inputs},
            "provenance": self.provenance.to_dict(),
            "achieved_delta": self.achieved_delta,
            "achieved_delta_reason": self.achieved_delta_reason,
            "tolerance": self.tolerance,
            "exact_value": self.exact_value,
            "exact_reason": self.exact_reason,
            "exact_bracket": list(self.exact_bracket) if self.exact_bracket is not None else None,
            "tightness": self.tightness,
            "safe": self.safe,
            "comparisons": {label: value for label, value in self.comparisons},
            "notes": list(self.notes),
        }
