"""Sampler audit: are the batches a data loader produced consistent with the sampling accounted?

Training code often accounts for Poisson sampling while its loader draws fixed-size batches,
shuffles, or samples with weights at another rate (Opacus #80, #420, #813; jax_privacy #121).
:func:`audit_sampler` takes the batches (index arrays, or any iterable of index sequences such as
a PyTorch ``BatchSampler``), the dataset size and the accounted :class:`Sampling`, and tests:

* **deterministic checks** (no false alarm possible): indices in ``[0, dataset_size)``; no index
  twice in one batch (none of the three schemes draws with replacement); fixed size: every
  batch has the size accounted; shuffling: every epoch (``dataset_size // batch_size``
  consecutive batches) consists of disjoint batches of the accounted size.
* **statistical tests**, each a Monte Carlo test against the exact null law (``replicates``
  simulated ledgers of the accounted scheme, p-value ``(1 + #{as extreme}) / (replicates + 1)``,
  two-sided, which is valid at every sample size): Poisson: the total number of inclusions
  (the rate; an exact binomial test), the dispersion of the batch sizes, and the dispersion of
  the per-record inclusion counts; fixed size: the dispersion of the per-record counts.

The statistical tests share the false-alarm rate ``alpha`` by Bonferroni (each at
``alpha / number of tests``), so a sampler that *is* the accounted one is flagged with
probability at most ``alpha``. What is not tested: the order of the batches beyond the per-record
counts (e.g. a Poisson sampler whose draws depend on earlier batches but keep these marginals),
and the randomness of the permutation inside a shuffled epoch.

When the batches are flagged, ``fits`` names the scheme they are consistent with (sampling with
replacement, shuffling, fixed-size batches, Poisson at the fitted rate) or says none of them.
"""
from __future__ import annotations

import enum
import math
from dataclasses import dataclass

import numpy as np

from .. import validation as v
from ..errors import InvalidArgument

__all__ = ["Sampling", "SamplerCheck", "SamplerAudit", "audit_sampler"]


class Sampling(enum.Enum):
    """The sampling scheme an accountant assumes."""

    POISSON = "poisson"  # each record in each batch independently with probability rate
    FIXED_SIZE = "fixed-size"  # each batch a uniform subset of batch_size records, batches independent
    SHUFFLE = "shuffle"  # each epoch a random permutation cut into batches of batch_size


@dataclass(frozen=True)
class SamplerCheck:
    """One check: ``p_value`` (0.0 for a failed deterministic check, 1.0 for a passed one),
    ``level`` it is compared with, ``flagged`` and a human-readable ``detail``."""

    name: str
    p_value: float
    level: float
    flagged: bool
    detail: str

    def to_dict(self) -> dict:
        return {"name": self.name, "p_value": self.p_value, "level": self.level, "flagged": self.flagged,
                "detail": self.detail}


@dataclass(frozen=True)
class SamplerAudit:
    """Result of :func:`audit_sampler`. ``flagged``: some check rejected the accounted sampling
    (false-alarm probability at most ``alpha`` when the sampler is the accounted one);
    ``fits``: the sampling the batches are consistent with."""

    accounted: str
    flagged: bool
    alpha: float
    checks: tuple
    fits: str
    batches: int
    dataset_size: int

    @property
    def verdict(self) -> str:
        return "inconsistent" if self.flagged else "consistent"

    def to_dict(self) -> dict:
        return {"accounted": self.accounted, "verdict": self.verdict, "flagged": self.flagged, "alpha": self.alpha,
                "checks": [c.to_dict() for c in self.checks], "fits": self.fits, "batches": self.batches,
                "dataset_size": self.dataset_size}


# ---------------------------------------------------------------------------- input
def _batches(batches, n: int) -> list[np.ndarray]:
    if isinstance(batches, np.ndarray) and batches.ndim == 2:
        batches = list(batches)
    try:
        it = iter(batches)
    except TypeError:
        raise InvalidArgument(f"batches={batches!r:.80} must be an iterable of index arrays (e.g. a list of "
                              "numpy arrays, or a PyTorch BatchSampler).") from None
    out = []
    for t, b in enumerate(it):
        arr = np.asarray(list(b) if not isinstance(b, np.ndarray) else b)
        if arr.size == 0:
            out.append(np.zeros(0, dtype=np.int64))
            continue
        if arr.ndim != 1 or not (np.issubdtype(arr.dtype, np.integer) or
                                 (np.issubdtype(arr.dtype, np.floating) and np.all(arr == np.round(arr)))):
            raise InvalidArgument(f"batches[{t}]={arr!r:.80} must be a 1-d sequence of integer record indices.")
        arr = arr.astype(np.int64)
        if arr.min() < 0 or arr.max() >= n:
            raise InvalidArgument(f"batches[{t}] holds index {int(arr.min() if arr.min() < 0 else arr.max())} "
                                  f"outside [0, dataset_size={n}); give the indices of the records drawn.")
        out.append(arr)
    if len(out) < 2:
        raise InvalidArgument(f"batches holds {len(out)} batch(es); the audit needs at least 2 (a few hundred "
                              "give it power).")
    return out


# ---------------------------------------------------------------------------- statistics
def _mc_two_sided(observed: float, null: np.ndarray) -> float:
    r = null.size
    lo = (1 + int(np.sum(null <= observed))) / (r + 1)
    hi = (1 + int(np.sum(null >= observed))) / (r + 1)
    return min(1.0, 2 * min(lo, hi))


def _counts(bs: list[np.ndarray], n: int) -> np.ndarray:
    return np.bincount(np.concatenate(bs), minlength=n) if bs else np.zeros(n, dtype=np.int64)


def _poisson_tests(bs, n, q, replicates, rng) -> list[tuple[str, float, str]]:
    from scipy.stats import binomtest

    T = len(bs)
    sizes = np.array([b.size for b in bs], dtype=float)
    total = int(sizes.sum())
    out = []
    p_rate = binomtest(total, n * T, q).pvalue if 0 < q < 1 else (1.0 if total == (n * T if q == 1 else 0) else 0.0)
    out.append(("rate", float(p_rate), f"{total} inclusions in {T} batches of {n} records: rate {total / (n * T):.4g} "
                                      f"(accounted {q:g})"))
    if q < 1:
        d_obs = float(np.sum((sizes - n * q) ** 2))
        sim = rng.binomial(n, q, size=(replicates, T)).astype(float)
        d_null = np.sum((sim - n * q) ** 2, axis=1)
        out.append(("batch-size dispersion", _mc_two_sided(d_obs, d_null),
                    f"variance of the batch sizes {np.var(sizes):.4g} (Poisson: {n * q * (1 - q):.4g})"))
        c = _counts(bs, n).astype(float)
        v_obs = float(np.sum((c - T * q) ** 2))
        v_null = np.array([float(np.sum((rng.binomial(T, q, size=n) - T * q) ** 2)) for _ in range(replicates)])
        out.append(("record-count dispersion", _mc_two_sided(v_obs, v_null),
                    f"variance of the per-record counts {np.var(c):.4g} (Poisson: {T * q * (1 - q):.4g})"))
    return out


def _fixed_tests(bs, n, m, replicates, rng) -> list[tuple[str, float, str]]:
    T = len(bs)
    c = _counts(bs, n).astype(float)
    mean = T * m / n
    v_obs = float(np.sum((c - mean) ** 2))
    v_null = np.empty(replicates)
    for r in range(replicates):  # T independent uniform m-subsets (cost T x replicates draws)
        idx = np.concatenate([rng.choice(n, m, replace=False) for _ in range(T)])
        v_null[r] = float(np.sum((np.bincount(idx, minlength=n) - mean) ** 2))
    return [("record-count dispersion", _mc_two_sided(v_obs, v_null),
             f"variance of the per-record counts {np.var(c):.4g} (independent fixed-size batches: "
             f"{T * (m / n) * (1 - m / n):.4g})")]


def _has_duplicates(bs) -> int | None:
    for t, b in enumerate(bs):
        if np.unique(b).size != b.size:
            return t
    return None


def _epochs_ok(bs, n, m) -> str | None:
    """None when the batches form epochs of n // m disjoint batches of size m, else why not."""
    k = n // m
    for t, b in enumerate(bs):
        if b.size != m:
            return f"batch {t} has {b.size} records, not {m}"
    for e in range(0, len(bs) - len(bs) % k, k):
        ep = np.concatenate(bs[e:e + k])
        if np.unique(ep).size != ep.size:
            return f"epoch starting at batch {e} draws a record twice"
    return None


# ---------------------------------------------------------------------------- the audit
def audit_sampler(batches, dataset_size: int, sampling: Sampling, *, rate: float | None = None,
                  batch_size: int | None = None, alpha: float = 0.01, replicates: int = 999,
                  rng=None) -> SamplerAudit:
    """Test whether ``batches`` (index arrays over records ``0 .. dataset_size - 1``) are consistent
    with ``sampling`` (with ``rate`` for :attr:`Sampling.POISSON`, ``batch_size`` otherwise). The
    accounted sampling is flagged with probability at most ``alpha`` when it is the one that ran
    (module docstring); ``rng`` seeds the Monte Carlo null draws."""
    n = v.integer("dataset_size", dataset_size, minimum=1, fix="Give the number of records the loader draws from.")
    if not isinstance(sampling, Sampling):
        raise InvalidArgument(f"sampling={sampling!r} must be a Sampling (e.g. Sampling.POISSON); strings are not "
                              "accepted.")
    alpha = v.open_unit("alpha", alpha, fix="Give a false-alarm rate such as 0.01.")
    replicates = v.integer("replicates", replicates, minimum=19, fix="Use at least 19 Monte Carlo replicates.")
    if not replicates + 1 >= 6 / alpha:  # two-sided p >= 2/(R+1) must reach alpha / 3 (three tests)
        raise InvalidArgument(f"replicates={replicates} is too few for alpha={alpha:g}: a two-sided Monte Carlo "
                              f"p-value is at least 2/(replicates+1) and must be able to reach alpha/3; use "
                              f"replicates >= {math.ceil(6 / alpha) - 1}.")
    if sampling is Sampling.POISSON:
        if rate is None:
            raise InvalidArgument("rate=None: Poisson sampling needs the accounted rate (e.g. rate=0.01).")
        q = v.probability("rate", rate, low_open=True, high_open=False, fix="The sampling rate lies in (0, 1].")
        accounted = f"poisson(rate={q:g})"
    else:
        if batch_size is None:
            raise InvalidArgument(f"batch_size=None: {sampling.value} sampling needs the accounted batch size.")
        m = v.integer("batch_size", batch_size, minimum=1, fix="Give the batch size accounted for.")
        if m > n:
            raise InvalidArgument(f"batch_size={m} exceeds dataset_size={n}; give batch_size <= dataset_size.")
        accounted = f"{sampling.value}(batch_size={m})"
    gen = v.as_rng(rng)
    bs = _batches(batches, n)
    T = len(bs)
    checks: list[SamplerCheck] = []
    dup = _has_duplicates(bs)
    checks.append(SamplerCheck("no record twice in a batch", 0.0 if dup is not None else 1.0, 0.0, dup is not None,
                               f"batch {dup} draws a record twice (sampling with replacement)" if dup is not None
                               else "every batch draws distinct records"))
    if sampling is Sampling.POISSON:
        stats = _poisson_tests(bs, n, q, replicates, gen)
    elif sampling is Sampling.FIXED_SIZE:
        bad = next((t for t, b in enumerate(bs) if b.size != m), None)
        checks.append(SamplerCheck("batch size", 0.0 if bad is not None else 1.0, 0.0, bad is not None,
                                   f"batch {bad} has {bs[bad].size} records, not {m}" if bad is not None
                                   else f"every batch has {m} records"))
        stats = _fixed_tests(bs, n, m, replicates, gen)
    else:
        why = _epochs_ok(bs, n, m)
        checks.append(SamplerCheck("epochs of disjoint batches", 0.0 if why else 1.0, 0.0, why is not None,
                                   why or f"epochs of {n // m} disjoint batches of {m}"))
        stats = []
    level = alpha / max(1, len(stats))
    for name, p, detail in stats:
        checks.append(SamplerCheck(name, p, level, p <= level, detail))
    flagged = any(c.flagged for c in checks)
    fits = accounted if not flagged else _fit(bs, n, alpha, replicates, gen)
    return SamplerAudit(accounted, flagged, alpha, tuple(checks), fits, T, n)


def _fit(bs, n, alpha, replicates, gen) -> str:
    """The scheme the batches are consistent with (same tests, same level), or none."""
    if _has_duplicates(bs) is not None:
        return "sampling with replacement (a record drawn twice in one batch): none of Poisson, fixed-size, shuffling"
    sizes = {b.size for b in bs}
    if len(sizes) == 1:
        (m,) = sizes
        if m and _epochs_ok(bs, n, m) is None and len(bs) >= n // m:
            return f"shuffling (epochs of {n // m} disjoint batches of {m})"
        if m and all(p > alpha for _, p, _ in _fixed_tests(bs, n, m, replicates, gen)):
            return f"fixed-size batches of {m}"
    total = sum(b.size for b in bs)
    q_hat = total / (n * len(bs))
    if 0 < q_hat < 1:
        stats = _poisson_tests(bs, n, q_hat, replicates, gen)[1:]  # the rate is fitted
        if all(p > alpha / len(stats) for _, p, _ in stats):
            return f"Poisson sampling at rate {q_hat:.4g}"
    return "none of Poisson, fixed-size, shuffling"
