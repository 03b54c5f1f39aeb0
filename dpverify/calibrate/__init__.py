"""Noise calibration: lemma-derived and exact, always on the safe side (see ``docs/calibration.md``).

Each function returns an immutable :class:`Calibration`: the parameter under its paper's name
(``.sigma``, ``.scale``, ``.C``, ``.sigma_AN``, ``.sigma_RP``), the :class:`CalibrationMethod`, the
:class:`Provenance` (claim, lemmas, steps), the achieved delta(eps) re-evaluated at high precision
where an exact profile exists, and ``tightness = value / exact minimum``.

* Exact: :func:`gaussian` (Balle & Wang 2018 Theorem 8), :func:`laplace`,
  :func:`random_projection` (``tu-projections``, fresh or fixed P).
* Lemma-derived (from :mod:`dpverify.symbolic.derivations`): the classical and Kenthapadi Gaussian,
  Laplace Lemma 1, ``tu-projections`` Theorems 1 and 2, :func:`wishart`, :func:`covariance_laplace`,
  :func:`mi_additive_noise`, :func:`mi_random_projection`.
"""
from __future__ import annotations

from ._api import (
    CALIBRATORS,
    ProjectionReading,
    covariance_laplace,
    gaussian,
    gaussian_delta,
    laplace,
    laplace_delta,
    mi_additive_noise,
    mi_random_projection,
    projection_delta,
    random_projection,
    wishart,
)
from ._result import Calibration, CalibrationMethod, Provenance

__all__ = [
    "CALIBRATORS",
    "Calibration",
    "CalibrationMethod",
    "ProjectionReading",
    "Provenance",
    "covariance_laplace",
    "gaussian",
    "gaussian_delta",
    "laplace",
    "laplace_delta",
    "mi_additive_noise",
    "mi_random_projection",
    "projection_delta",
    "random_projection",
    "wishart",
]
