"""A randomized-response test double with a correct or an unnormalised stated mass (white-box consistency tests)."""
from __future__ import annotations

import math

import numpy as np

import dpverify
from dpverify import PrivacyClaim


class RandomizedResponse:
    """Report the bit with probability e^eps / (1 + e^eps). ``mass_factor`` != 1 scales the stated
    mass under data = 1 (an unnormalised mass: the classic typo)."""

    def __init__(self, epsilon=1.0, mass_factor=1.0):
        self.epsilon, self.mass_factor = epsilon, mass_factor
        self.claim = PrivacyClaim(epsilon)
        self.p = math.exp(epsilon) / (1 + math.exp(epsilon))

    def check_neighbours(self, d, dp):
        if {int(d), int(dp)} != {0, 1}:
            raise dpverify.InvalidArgument("randomized response compares the bits 0 and 1")

    def sample(self, data, size, rng):
        keep = rng.random(size) < self.p
        return np.where(keep, int(data), 1 - int(data)).astype(np.int64)

    def log_density(self, outputs, data):
        o = np.asarray(outputs)
        lp = np.where(o == int(data), math.log(self.p), math.log(1 - self.p))
        return lp + (math.log(self.mass_factor) if int(data) == 1 else 0.0)
