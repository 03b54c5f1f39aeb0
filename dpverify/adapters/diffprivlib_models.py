"""diffprivlib models and ``BudgetAccountant`` sequences as dpverify mechanisms.

* ``model(estimator)`` -- an unfitted ``diffprivlib.models`` estimator (``LinearRegression``,
  ``LogisticRegression``, ``GaussianNB``, ``KMeans``, ``PCA``, ``RandomForestClassifier``, ...). Each
  output is one fit on ``data``, released as a numeric vector of the fitted parameters (coefficients
  and intercept; class means, variances and priors; sorted cluster centres; components, explained
  variance and mean; for a forest, ``predict_proba`` on a fixed probe grid). The claim is the
  estimator's ``epsilon``. Data: records. A classifier's records are ``(label, x)`` (the domain's
  keys are its classes; a 2-D array's last column is the label); a regressor's records are numbers
  ``x`` read as the observation ``(x, y = x)`` (or a 2-D array with ``y`` last); an unsupervised
  model's records are numbers (one feature) or the rows of a 2-D array.
* ``sequence(calls)`` -- several ``diffprivlib.tools`` calls on the same data, sharing one
  ``BudgetAccountant``; the output is the tuple of their results, the claim the accountant's
  ``total()`` after spending each call's (epsilon, delta) (its own composition, with ``slack``).

Seeding follows :mod:`dpverify.adapters.diffprivlib` (``random_state`` when the signature takes it).
diffprivlib states no neighbour relation for its models: replace-one is assumed unless ``relation=``.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .. import validation as v
from ..auditing.domain import LARGEST_FLOAT, InputDomain
from ..claims import NeighbourRelation, PrivacyClaim
from ..errors import InvalidArgument
from .base import as_outputs, relation_of, require, signature_accepts
from .diffprivlib import GROUP_NOTE, NO_SEED, DiffprivlibCall, seeded, tool_values

_dpl = require("diffprivlib", "diffprivlib", "diffprivlib")

__all__ = ["model", "sequence", "DiffprivlibModel", "DiffprivlibSequence", "PROBE_POINTS", "parameters"]

#: Points (one feature) where a forest's ``predict_proba`` is released.
PROBE_POINTS = 5
_CLASSIFIERS = ("LogisticRegression", "GaussianNB", "RandomForestClassifier", "DecisionTreeClassifier")
_REGRESSORS = ("LinearRegression",)
_TREES = ("RandomForestClassifier", "DecisionTreeClassifier")


def _kind(est: Any) -> str:
    name = type(est).__name__
    if name in _CLASSIFIERS or getattr(est, "_estimator_type", "") == "classifier":
        return "classifier"
    if name in _REGRESSORS or getattr(est, "_estimator_type", "") == "regressor":
        return "regressor"
    return "unsupervised"


def _xy(kind: str, data: Any) -> tuple:
    """(X, y) for a fit: see the module docstring for the record forms."""
    if isinstance(data, np.ndarray) and data.ndim == 2:
        return (data[:, :-1], data[:, -1]) if kind != "unsupervised" else (data, None)
    recs = list(data)
    if kind == "classifier":
        if recs and not all(isinstance(r, (tuple, list)) and len(r) == 2 for r in recs):
            raise InvalidArgument("a classifier's records are (label, x) tuples (or a 2-D array with the label last).")
        X = np.asarray([[float(r[1])] for r in recs], dtype=float).reshape(len(recs), 1)
        return X, np.asarray([r[0] for r in recs])
    x = np.asarray(recs, dtype=float).reshape(len(recs), 1)
    return (x, x[:, 0].copy()) if kind == "regressor" else (x, None)


def _probe(params: dict) -> np.ndarray:
    b = params.get("bounds") or params.get("bounds_X")
    lo, hi = (float(np.min(b[0])), float(np.max(b[1]))) if b is not None else (0.0, 1.0)
    return np.linspace(lo, hi, PROBE_POINTS).reshape(-1, 1)


def parameters(fitted: Any, params: dict) -> np.ndarray:
    """The released parameters of a fitted model as one float vector (see the module docstring)."""
    name = type(fitted).__name__
    parts: list = []
    if name in ("RandomForestClassifier", "DecisionTreeClassifier"):
        parts.append(fitted.predict_proba(_probe(params)))
    elif name == "KMeans":
        centres = np.asarray(fitted.cluster_centers_, dtype=float)
        parts.append(centres[np.lexsort(centres.T[::-1])])  # the label order is arbitrary: released as a set
    else:
        for attr in ("coef_", "intercept_", "theta_", "var_", "sigma_", "class_prior_", "components_",
                     "explained_variance_", "mean_"):
            if hasattr(fitted, attr):
                parts.append(getattr(fitted, attr))
    if not parts:
        raise InvalidArgument(f"{name}: no fitted parameters dpverify knows (coef_, theta_, cluster_centers_, ...).")
    return np.concatenate([np.asarray(p, dtype=float).ravel() for p in parts])


class DiffprivlibModel(DiffprivlibCall):
    def _sample(self, obj, data, size, rng):
        cls, params, kind = self._recipe
        X, y = _xy(kind, data)
        out = []
        for _ in range(size):
            est = cls(**{**params, "accountant": _dpl.BudgetAccountant()}, **seeded(self.honours_rng, rng))
            fitted = est.fit(X) if y is None else est.fit(X, y)
            out.append(parameters(fitted, params))
        return as_outputs(out)


def model(estimator: Any, *, relation: NeighbourRelation | None = None, keys: Any = None,
          absent: Any = None) -> DiffprivlibModel:
    """An unfitted ``diffprivlib.models`` estimator, claiming its ``epsilon`` per fit (see the module docstring).

    ``keys``: the class labels a classifier's records take (default: its ``classes`` parameter, else (0, 1)).
    """
    get = getattr(estimator, "get_params", None)
    if not callable(get) or not hasattr(estimator, "fit") or "epsilon" not in get():
        raise InvalidArgument(f"estimator={estimator!r} must be an unfitted diffprivlib.models estimator, e.g. "
                              "diffprivlib.models.GaussianNB(epsilon=1.0, bounds=(0, 1)).")
    params = {k: val for k, val in get(deep=False).items() if k not in ("random_state", "accountant")}
    eps = v.positive("epsilon", params["epsilon"], fix="diffprivlib models need epsilon > 0.")
    rel = relation_of(relation, NeighbourRelation.REPLACE_ONE)
    cls, kind = type(estimator), _kind(estimator)
    accepts = signature_accepts(cls, "random_state")
    limitations = [GROUP_NOTE, "one feature per record in the searched domain (pairs may give 2-D arrays)"]
    if not accepts:
        limitations.append(NO_SEED.format(name=cls.__name__))
    if kind == "regressor":
        limitations.append("records are observations (x, y = x): the searched datasets lie on one line")
    if kind == "classifier":
        if keys is None and not params.get("classes"):
            limitations.append(f"{cls.__name__} reads its classes from the data: the domain's last key (2) is a class "
                               "the base datasets lack")
        keys = tuple(keys) if keys is not None else tuple(params.get("classes") or (0, 1, 2))
        if len(keys) < 2:
            raise InvalidArgument(f"keys={keys!r}: a classifier needs at least two class labels.")
    else:
        keys = None
    # scikit-learn's input check refuses NaN and +-inf: the domain is the finite floats (float32 for trees)
    top = float(np.finfo(np.float32).max) if cls.__name__ in _TREES else LARGEST_FLOAT
    limitations.append("the empty dataset is left out of the domain: scikit-learn refuses to fit on it")
    domain = InputDomain.records(low=-top, high=top, nan=False, sizes=(1, 2, 10), relation=rel,
                                 values=tool_values(params), keys=keys, note=" ".join(limitations))
    out = DiffprivlibModel(name=f"models.{cls.__name__}(epsilon={eps!r})", recipe=(cls, params, kind),
                           claim=PrivacyClaim(eps, 0.0, rel), absent=absent, domain=domain,
                           limitations=tuple(limitations))
    out.honours_rng = accepts
    return out


class DiffprivlibSequence(DiffprivlibCall):
    def _sample(self, obj, data, size, rng):
        calls, slack, accepts = self._recipe
        data = np.asarray(data, dtype=float) if not isinstance(data, np.ndarray) else data
        out = []
        for _ in range(size):
            acc = _dpl.BudgetAccountant(slack=slack) if slack else _dpl.BudgetAccountant()
            row = []
            for (func, kwargs), ok in zip(calls, accepts):
                r = func(data, **kwargs, **seeded(ok and self.honours_rng, rng), accountant=acc)
                row.extend(np.asarray(r[0] if isinstance(r, tuple) else r, dtype=float).ravel().tolist())
            out.append(np.asarray(row, dtype=float))
        return as_outputs(out)


def sequence(calls: Any, *, slack: float = 0.0, relation: NeighbourRelation | None = None,
             absent: Any = None) -> DiffprivlibSequence:
    """``[(diffprivlib.tools.mean, {"epsilon": 0.5, "bounds": (0, 1)}), ...]`` run in order on one dataset with one
    ``BudgetAccountant(slack=slack)``; claims the accountant's total over the calls (its own composition)."""
    calls = [(f, dict(kw)) for f, kw in calls]
    if not calls:
        raise InvalidArgument("calls=[] is empty: give (tool, kwargs) pairs, e.g. [(diffprivlib.tools.mean, "
                              "{'epsilon': 0.5, 'bounds': (0, 1)})].")
    acc = _dpl.BudgetAccountant(slack=slack) if slack else _dpl.BudgetAccountant()
    for i, (f, kw) in enumerate(calls):
        if not callable(f) or "epsilon" not in kw:
            raise InvalidArgument(f"calls[{i}]=({f!r}, {kw!r}) must be (a diffprivlib.tools function, kwargs with "
                                  "epsilon).")
        for k in ("random_state", "accountant"):
            if k in kw:
                raise InvalidArgument(f"calls[{i}] sets {k}=; the adapter sets it (seed from rng; one accountant).")
        acc.spend(float(kw["epsilon"]), float(kw.get("delta", 0.0)))
    eps, delta = acc.total()
    rel = relation_of(relation, NeighbourRelation.REPLACE_ONE)
    accepts = tuple(signature_accepts(f, "random_state") for f, _ in calls)
    limitations = [GROUP_NOTE, "the empty dataset is left out (mean and var raise on it)"] + [NO_SEED.format(name=f"tools.{getattr(f, '__name__', f)}")
                                  for (f, _), ok in zip(calls, accepts) if not ok]
    nan = all(str(getattr(f, "__name__", "")).startswith("nan") for f, _ in calls)
    if not nan:
        limitations.append("NaN records are left out: diffprivlib's plain tools return NaN on them")
    values: tuple = tuple(sorted({x for _, kw in calls for x in tool_values(kw)}))
    names = ", ".join(getattr(f, "__name__", "tool") for f, _ in calls)
    out = DiffprivlibSequence(name=f"BudgetAccountant[{names}]", recipe=(calls, slack, accepts),
                              claim=PrivacyClaim(float(eps), float(delta), rel), absent=absent,
                              domain=InputDomain.records(nan=nan, sizes=(1, 2, 10), relation=rel, values=values,
                                                         note=" ".join(limitations)),
                              limitations=tuple(limitations))
    out.honours_rng = all(accepts)
    return out
