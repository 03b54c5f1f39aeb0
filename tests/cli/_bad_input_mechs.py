"""Mechanisms and pairs for the bad-input table (tests/cli/test_bad_inputs.py), importable as
MODULE:ATTR by the CLI (pytest puts this folder on sys.path)."""
from __future__ import annotations

import math

import numpy as np

from dpverify import PrivacyClaim


class Laplace:
    """A correct scalar Laplace mechanism (scale 1, claim (1, 0))."""

    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        return float(data) + rng.laplace(0.0, 1.0, size)

    def log_density(self, outputs, data):
        return -math.log(2.0) - np.abs(np.asarray(outputs, dtype=float) - float(data))


class RaisingDensity(Laplace):
    def log_density(self, outputs, data):
        raise ZeroDivisionError("boom")


class StringDensity(Laplace):
    def log_density(self, outputs, data):
        return np.array(["x"] * len(outputs))


class NoneDensity(Laplace):
    def log_density(self, outputs, data):
        return None


class ObjectDensity(Laplace):
    def log_density(self, outputs, data):
        return [object()] * len(outputs)


class ScalarDensity(Laplace):
    def log_density(self, outputs, data):
        return 0.0


class NoClaim:
    def sample(self, data, size, rng):
        return rng.laplace(0.0, 1.0, size)


class NoSample:
    claim = PrivacyClaim(1.0)


def make_laplace():
    return Laplace()


def make_raises():
    raise RuntimeError("factory failed")


LAPLACE = Laplace()
RAISING_DENSITY = RaisingDensity()
STRING_DENSITY = StringDensity()
PAIR = (0.0, 1.0)
PAIRS = [(0.0, 1.0)]
STRING_PAIR = ("a", "b")
EMPTY_PAIRS: list = []
NOT_A_PAIR = 5
TRIPLE = [(0.0, 1.0, 2.0)]
NONE = None


def pairs_raise():
    raise RuntimeError("pairs factory failed")
