"""The conformance suite's likelihood-ratio check catches wrong densities (power, not false alarms).

Each mutant below has a log_density that disagrees with its sampler in a way that moves the
privacy loss; the check must fail on it. The deviations are several times the check's interval
widths (see the printed numbers in the failure messages of test_conformance.py), so a pass here
is not a lucky seed.
"""
from __future__ import annotations

import numpy as np
import pytest

from dpverify.registry import RegistryEntry
from dpverify_mechanisms import showkatbakhsh_registry as sr
from dpverify_mechanisms.showkatbakhsh_regression import AdditiveNoiseRelease, RandomProjectionRelease, projection_sigma

import test_conformance as conformance  # the suite's directory is on sys.path (pytest rootdir mode)


class _ScaleOff(AdditiveNoiseRelease):
    """log_density with sigma 10% too large (normalised consistently)."""

    def log_density(self, outputs, data):
        true = self.sigma
        self.sigma = 1.1 * true
        try:
            return super().log_density(outputs, data)
        finally:
            self.sigma = true


class _FrozenSigma(RandomProjectionRelease):
    """log_density with the first dataset's sigma_RP under every dataset (ignores eq. (13)'s data)."""

    frozen = None

    def covariance(self, data):
        x, y = self.check_data(data)
        a = np.column_stack([x, y])
        if self.frozen is None:
            self.frozen = projection_sigma(self.mi_epsilon_bits, self.projection_dim, x)
        cov = a.T @ a
        idx = np.arange(x.shape[1])
        cov[idx, idx] += self.frozen ** 2
        return cov


@pytest.mark.parametrize("make,pairs", [
    (lambda: _ScaleOff(0.5), sr._additive_pairs),
    (lambda: _FrozenSigma(0.5, 7), lambda: [sr._projection_pairs()[2]]),
], ids=["gaussian-scale-10pc", "projection-frozen-sigma"])
def test_likelihood_ratio_check_catches_mutant(make, pairs):
    entry = RegistryEntry(name="mutant", paper="x/mutant", factory=make, pairs=pairs)
    with pytest.raises(AssertionError, match="likelihood ratio"):
        conformance.test_likelihood_ratio_identity(entry)
