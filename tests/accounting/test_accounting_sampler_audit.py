"""Sampler audit (issue 32): batches a loader produced against the sampling accounted for.

False-failure rates: the Monte Carlo tests are seeded (``rng=0``) and the loaders are seeded, so
each default test is deterministic; the seeds were not searched. The 100-seed false-alarm test is
under ``slow``; its bound (at most 4 flags in 100 at alpha = 0.01) fails with probability below
0.004 when the false-alarm rate is the stated 1 %."""
from __future__ import annotations

import numpy as np
import pytest

from dpverify.accounting.sampler_audit import Sampling, audit_sampler
from dpverify.errors import InvalidArgument

N = 1000


def poisson_batches(seed, T=200, q=0.05, n=N):
    rng = np.random.default_rng(seed)
    return [np.flatnonzero(rng.random(n) < q) for _ in range(T)]


def test_true_poisson_is_consistent():
    a = audit_sampler(poisson_batches(11), N, Sampling.POISSON, rate=0.05, alpha=0.05, replicates=199, rng=0)
    assert not a.flagged and a.verdict == "consistent" and a.fits == "poisson(rate=0.05)"
    assert {c.name for c in a.checks} == {"no record twice in a batch", "rate", "batch-size dispersion",
                                          "record-count dispersion"}


def test_fixed_size_accounted_as_poisson_is_flagged_and_named():
    rng = np.random.default_rng(12)
    fixed = [rng.choice(N, 50, replace=False) for _ in range(200)]
    a = audit_sampler(fixed, N, Sampling.POISSON, rate=0.05, alpha=0.05, replicates=199, rng=0)
    assert a.flagged and a.fits == "fixed-size batches of 50"
    assert next(c for c in a.checks if c.name == "batch-size dispersion").flagged


def test_weighted_sampler_with_replacement_is_flagged():
    """torch's WeightedRandomSampler draws with replacement: a record twice in one batch is
    impossible under every scheme accounted, so the flag is certain (no false alarm)."""
    rng = np.random.default_rng(13)
    w = rng.random(N)
    w /= w.sum()
    weighted = [rng.choice(N, 60, replace=True, p=w) for _ in range(200)]
    a = audit_sampler(weighted, N, Sampling.POISSON, rate=0.05, alpha=0.05, replicates=199, rng=0)
    assert a.flagged and "replacement" in a.fits
    assert a.checks[0].flagged and a.checks[0].p_value == 0.0


def test_weighted_poisson_at_a_wrong_rate_is_flagged():
    """Per-record inclusion probabilities proportional to weights, averaging twice the rate
    accounted (the Opacus #813 pattern, here only 2x off)."""
    rng = np.random.default_rng(14)
    p = rng.random(N)
    p *= 0.1 / p.mean()
    batches = [np.flatnonzero(rng.random(N) < p) for _ in range(200)]
    a = audit_sampler(batches, N, Sampling.POISSON, rate=0.05, alpha=0.05, replicates=199, rng=0)
    assert a.flagged and next(c for c in a.checks if c.name == "rate").flagged
    assert "none of" in a.fits or "Poisson" in a.fits


def test_shuffling_accounted_as_poisson_is_flagged_and_named():
    rng = np.random.default_rng(15)
    sh = []
    for _ in range(5):
        perm = rng.permutation(N)
        sh += [perm[i * 50:(i + 1) * 50] for i in range(20)]
    a = audit_sampler(sh, N, Sampling.POISSON, rate=0.05, alpha=0.05, replicates=199, rng=0)
    assert a.flagged and a.fits.startswith("shuffling")
    assert not audit_sampler(sh, N, Sampling.SHUFFLE, batch_size=50).flagged


def test_shuffle_checks_are_deterministic():
    rng = np.random.default_rng(16)
    fixed = [rng.choice(N, 50, replace=False) for _ in range(40)]  # independent batches overlap
    a = audit_sampler(fixed, N, Sampling.SHUFFLE, batch_size=50)
    assert a.flagged and "epoch" in a.checks[1].detail


def test_pytorch_style_batch_sampler_is_accepted():
    class BatchSampler:  # yields lists of ints, like torch.utils.data.BatchSampler
        def __init__(self, seed):
            self.batches = poisson_batches(seed, T=60)

        def __iter__(self):
            for b in self.batches:
                yield [int(i) for i in b]

    a = audit_sampler(BatchSampler(17), N, Sampling.POISSON, rate=0.05, alpha=0.05, replicates=199, rng=0)
    assert a.batches == 60 and not a.flagged


@pytest.mark.parametrize("kwargs, match", [
    (dict(batches=[[0, 1], [N]], dataset_size=N, sampling=Sampling.POISSON, rate=0.05), "outside"),
    (dict(batches=[[0, 1], [-1]], dataset_size=N, sampling=Sampling.POISSON, rate=0.05), "outside"),
    (dict(batches=[[0.5, 1], [2]], dataset_size=N, sampling=Sampling.POISSON, rate=0.05), "integer"),
    (dict(batches=[[0, 1]], dataset_size=N, sampling=Sampling.POISSON, rate=0.05), "at least 2"),
    (dict(batches=[[0], [1]], dataset_size=N, sampling="poisson", rate=0.05), "Sampling"),
    (dict(batches=[[0], [1]], dataset_size=N, sampling=Sampling.POISSON), "rate"),
    (dict(batches=[[0], [1]], dataset_size=N, sampling=Sampling.POISSON, rate=float("nan")), "rate"),
    (dict(batches=[[0], [1]], dataset_size=N, sampling=Sampling.FIXED_SIZE), "batch_size"),
    (dict(batches=[[0], [1]], dataset_size=N, sampling=Sampling.FIXED_SIZE, batch_size=N + 1), "batch_size"),
    (dict(batches=[[0], [1]], dataset_size=N, sampling=Sampling.POISSON, rate=0.05, replicates=99), "replicates"),
    (dict(batches=5, dataset_size=N, sampling=Sampling.POISSON, rate=0.05), "iterable"),
])
def test_bad_input_is_refused(kwargs, match):
    with pytest.raises(InvalidArgument, match=match):
        audit_sampler(**kwargs)


@pytest.mark.slow
def test_true_poisson_false_alarm_rate_over_100_seeds():
    """The stated false-alarm rate is 1 %: over 100 independent Poisson loaders (1000 batches
    each) at most 4 are flagged (probability of more: < 0.004 at a true 1 %)."""
    flags = sum(audit_sampler(poisson_batches(1000 + s, T=1000), N, Sampling.POISSON, rate=0.05, alpha=0.01,
                              rng=s).flagged for s in range(100))
    assert flags <= 4
