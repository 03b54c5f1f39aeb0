"""Learned score functions for vector outputs: approximations of the log likelihood ratio.

The most powerful event for a pair of output laws P, P' is a super-level set of the log
likelihood ratio log(dP/dP') (Neyman-Pearson). For vector outputs no single coordinate carries
it: for 20 coordinates with Laplace noise of scale 200 it is, up to a constant, the *count* of
coordinates above the midpoint of the two centres; for prefix sums it is the same count on the
consecutive differences. This module fits, on the **selection** draws only, score functions
meant to approximate it:

* :class:`CountScore` - the number of columns of a group (the coordinates, or their consecutive
  differences) above the pooled selection median of that column. No fitted weights, so no
  estimation noise: the right score when every coordinate carries a small equal share of the
  loss (the naive-Bayes histogram score drowns in bin noise there).
* :class:`LogisticScore` - logistic regression (L2-penalised, fitted by L-BFGS on numpy/scipy)
  on engineered features: each coordinate, difference, sum, max and min (clipped to their pooled
  0.1 %/99.9 % quantiles and standardised), the indicator of each above its median, indicators of
  +-inf, the counts above, counts of the most frequent exact values (e.g. "BOTTOM" zeros,
  "not answered" infinities), the sorted coordinates, and the float granularity (lowest set bit,
  :mod:`dpverify.auditing.blackbox.floatbits`) when present. Its logit is an estimate of the log ratio.

Both are plain functions of the output once fitted, so events ``score >= t`` certified on
independent draws give valid bounds however poor the fit; the fit only decides the power. The
audit counts each fitted score's events in its multiplicity correction (see
:mod:`dpverify.auditing.blackbox`).

Optional stronger classifiers (gradient boosting) would come from an optional extra, imported
lazily; none is needed for the shipped controls.
"""
from __future__ import annotations

import numpy as np
from scipy import optimize

from .event_families import OutputTable

__all__ = ["CountScore", "LogisticScore", "fit_scores", "feature_groups", "FIT_ROWS"]

#: Rows per dataset used to fit the logistic regression (the first ones; draws are i.i.d.).
FIT_ROWS = 25_000
#: L2 penalty of the logistic regression (on standardised features).
PENALTY = 1e-4
#: Exact values counted across coordinates when they make at least this share of the entries.
FREQUENT_SHARE = 0.05


def feature_groups(names: tuple[str, ...]) -> tuple[list[int], list[int], list[int], int | None]:
    """``(coordinates, differences, other features, granularity or None)``: the indices of the
    feature ``names`` of a table (:func:`~dpverify.auditing.blackbox.event_families.to_table`) by kind."""
    coords = [j for j, nm in enumerate(names) if nm.startswith("output") or nm.startswith("number[")]
    diffs = [j for j, nm in enumerate(names) if nm.startswith("difference")]
    others = [j for j, nm in enumerate(names) if j not in coords and j not in diffs and nm != "granularity"]
    gran = next((j for j, nm in enumerate(names) if nm == "granularity"), None)
    return coords, diffs, others, gran


class _Design:
    """Engineered features, with every constant (quantiles, medians, values) fitted on selection."""

    def __init__(self, x1: np.ndarray, x2: np.ndarray, names: tuple[str, ...]):
        self.coords, self.diffs, self.others, self.gran = feature_groups(names)
        self.base = self.coords + self.diffs + self.others
        # constants from the first FIT_ROWS rows of each sample (i.i.d. draws; the same rows the
        # regression is fitted on)
        x1, x2 = x1[:FIT_ROWS], x2[:FIT_ROWS]
        pooled = np.concatenate([x1[:, self.base], x2[:, self.base]])
        fin = np.where(np.isfinite(pooled), pooled, np.nan)
        with np.errstate(all="ignore"):
            self.lo = np.nan_to_num(np.nanquantile(fin, 0.001, axis=0), nan=0.0)
            self.hi = np.nan_to_num(np.nanquantile(fin, 0.999, axis=0), nan=0.0)
            self.med = np.nan_to_num(np.nanmedian(fin, axis=0), nan=0.0)
        self.has_pinf = np.isposinf(pooled).any(axis=0)
        self.has_ninf = np.isneginf(pooled).any(axis=0)
        vals = pooled[:, : len(self.coords)].ravel() if self.coords else np.zeros(0)
        if vals.size:
            u, c = np.unique(vals, return_counts=True)
            keep = c >= FREQUENT_SHARE * vals.size
            self.frequent = u[keep][:4]
        else:
            self.frequent = np.zeros(0)
        raw = self._raw(np.concatenate([x1, x2]))
        self.mean = raw.mean(axis=0)
        sd = raw.std(axis=0)
        self.sd = np.where(sd > 0, sd, 1.0)

    def above(self, x: np.ndarray, cols: list[int]) -> np.ndarray:
        pos = [self.base.index(j) for j in cols]
        return x[:, cols] > self.med[pos]

    def _raw(self, x: np.ndarray) -> np.ndarray:
        b = x[:, self.base]
        clipped = np.clip(np.where(np.isnan(b), 0.0, b), self.lo, self.hi)
        parts = [clipped, (b > self.med).astype(float)]
        if self.has_pinf.any():
            parts.append(np.isposinf(b[:, self.has_pinf]).astype(float))
        if self.has_ninf.any():
            parts.append(np.isneginf(b[:, self.has_ninf]).astype(float))
        for grp in (self.coords, self.diffs):
            if len(grp) > 1:
                parts.append(self.above(x, grp).sum(axis=1, keepdims=True).astype(float))
        if self.frequent.size and self.coords:
            c = x[:, self.coords]
            parts.append(np.stack([(c == v).sum(axis=1) for v in self.frequent], axis=1).astype(float))
        if len(self.coords) > 1:
            k = len(self.coords)
            parts.append(np.sort(clipped[:, :k], axis=1))
        if self.gran is not None:
            g = x[:, self.gran]
            parts.append(np.clip(np.where(g > 1e3, 0.0, g), -1100, 1100)[:, None])
        return np.concatenate(parts, axis=1)

    def __call__(self, x: np.ndarray) -> np.ndarray:
        return (self._raw(x) - self.mean) / self.sd


class CountScore:
    """Number of columns of a group above their pooled selection medians."""

    def __init__(self, design: _Design, cols: list[int], names: tuple[str, ...], group: str):
        self.design, self.cols, self.group = design, list(cols), group
        self.names = [names[j] for j in cols]

    def __call__(self, table: OutputTable) -> np.ndarray:
        return self.design.above(table.features, self.cols).sum(axis=1).astype(float)

    def describe(self) -> str:
        return (f"number of {self.group} ({len(self.cols)}: {', '.join(self.names[:2])}, ...) above their "
                "selection medians")


class LogisticScore:
    """Logit of an L2-penalised logistic regression (D = 1, D' = 0) on engineered features."""

    def __init__(self, design: _Design, weights: np.ndarray, bias: float, n_features: int):
        self.design, self.weights, self.bias, self.n_features = design, weights, bias, n_features
        # the standardisation folded into the weights: one pass over the raw features per batch
        self._w = np.ascontiguousarray(weights / design.sd)
        self._b = float(bias - design.mean @ self._w)

    def __call__(self, table: OutputTable) -> np.ndarray:
        return _matvec(self.design._raw(table.features), self._w) + self._b

    def describe(self) -> str:
        return (f"learned log likelihood-ratio score (logistic regression on {self.n_features} engineered "
                "features: coordinates, differences, counts past medians, sorted values, bits; fitted on "
                "the selection samples)")


def _matvec(x: np.ndarray, w: np.ndarray) -> np.ndarray:
    """``x @ w`` for a tall ``x`` without BLAS: OpenBLAS runs matrix-vector products of this size on
    all its threads, which on a busy machine (or inside each worker of a process pool) spin and
    cost 10-20 times the CPU of numpy's own single-threaded loop."""
    return np.einsum("ij,j->i", x, w)


def _fit_logistic(X: np.ndarray, y: np.ndarray) -> tuple[np.ndarray, float]:
    n, p = X.shape
    # the products in single precision (twice as fast; ample for a fit), on the transposed copy
    # (contiguous rows of one feature) and without BLAS threads (see _matvec)
    XT = np.ascontiguousarray(X.T, dtype=np.float32)

    def loss(theta):
        w, b = theta[:p], theta[p]
        z = np.einsum("ji,j->i", XT, w.astype(np.float32)).astype(float) + b
        m = -y * z
        val = np.logaddexp(0.0, m).mean() + 0.5 * PENALTY * (w @ w)
        s = -y * 0.5 * (1.0 + np.tanh(0.5 * m))  # -y * sigmoid(m)
        grad_w = np.einsum("ji,i->j", XT, s.astype(np.float32)).astype(float) / n + PENALTY * w
        return val, np.concatenate([grad_w, [s.mean()]])

    res = optimize.minimize(loss, np.zeros(p + 1), jac=True, method="L-BFGS-B", options={"maxiter": 100})
    return res.x[:p], float(res.x[p])


def fit_scores(t1: OutputTable, t2: OutputTable) -> list[tuple[str, object]]:
    """(family name, score) pairs fitted on the selection tables of D (``t1``) and D' (``t2``).

    Large scores favour D for :class:`LogisticScore`; a :class:`CountScore` has no orientation
    (both tails are scanned). Numeric tables with at least two columns only.
    """
    if t1.kind != "numeric" or t1.features.shape[1] < 2:
        return []
    design = _Design(t1.features, t2.features, t1.names)
    out: list[tuple[str, object]] = []
    for cols, group in ((design.coords, "coordinates"), (design.diffs, "consecutive differences")):
        if len(cols) > 1:
            out.append((f"count past medians ({group})", CountScore(design, cols, t1.names, group)))
    m = min(FIT_ROWS, t1.size, t2.size)
    X = np.concatenate([design(t1.features[:m]), design(t2.features[:m])])
    y = np.concatenate([np.ones(m), -np.ones(m)])
    w, b = _fit_logistic(X, y)
    out.append(("logistic score", LogisticScore(design, w, b, X.shape[1])))
    return out
