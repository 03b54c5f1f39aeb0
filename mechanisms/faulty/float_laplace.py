"""Laplace noise in floating point: the textbook sampler (leaky) and a discrete Laplace (exact).

Reference: I. Mironov, *On Significance of the Least Significant Bits for Differential Privacy*,
CCS 2012. The textbook sampler draws u uniform on [-1/2, 1/2) and returns
``f(D) - b sign(u) log(1 - 2|u|)`` in floating point. The set of doubles it can reach depends on
f(D): outputs reachable from one dataset are unreachable from its neighbour, so it is not
eps'-DP for any eps' (Mironov, Sec. 3-4), whatever b.

A black-box test sees this leak only through *repeated exact outputs* (the event "the output is
one of the doubles seen from D"). With the 53-bit uniform of ``numpy.random.Generator.random``
every double carries at most 2^-53 of the mass, so no sample of practical size repeats; the
leak is real but invisible to a sample-based audit. :class:`NaiveFloatLaplace` therefore takes
the uniform's resolution ``uniform_bits`` (default 53): with a coarse uniform (a 20-bit source,
as produced by legacy ``rand()``-style generators) the reachable doubles are few enough to be
seen, and the audit shows the violation within 10^6 samples.

:class:`DiscreteLaplace` is the correct counterpart for integer-valued queries: the two-sided
geometric mechanism of Ghosh, Roughgarden & Sundararajan (STOC 2009), computed in integers.
"""
from __future__ import annotations

import math

import numpy as np

from dpverify import InvalidArgument, PrivacyClaim
from dpverify import validation as v

from ._common import ControlBase

__all__ = ["NaiveFloatLaplace", "DiscreteLaplace"]


class NaiveFloatLaplace(ControlBase):
    """``f(D) - b sign(u) log(1 - 2|u|)`` in float64, u = k/2^bits - 1/2 with k uniform on
    {0, ..., 2^bits - 1}, b = sensitivity/eps. Output: float (size,). ``data``: the scalar f(D).

    True privacy: not eps'-DP for any eps' (Mironov 2012): the supports of the outputs on
    neighbouring inputs differ. Claimed eps. A *faulty* control. (With k = 0, u = -1/2 and the
    output is -inf, as in the textbook formula; that outcome has the same mass 2^-bits for every
    dataset.)
    """

    paper_label = "naive-laplace"

    def __init__(self, epsilon: float, sensitivity: float = 1.0, uniform_bits: int = 53):
        self.epsilon = v.positive("epsilon", epsilon)
        self.sensitivity = v.positive("sensitivity", sensitivity)
        self.uniform_bits = v.integer("uniform_bits", uniform_bits, minimum=1)
        if self.uniform_bits > 53:
            raise InvalidArgument(f"uniform_bits={uniform_bits!r} must be at most 53 (a float64 uniform has 53 bits).")
        self.scale = self.sensitivity / self.epsilon
        self.claim = PrivacyClaim(self.epsilon)

    def __repr__(self) -> str:
        return (f"NaiveFloatLaplace(epsilon={self.epsilon!r}, sensitivity={self.sensitivity!r}, "
                f"uniform_bits={self.uniform_bits!r})")

    def sample(self, data, size, rng):
        f = v.real("data", data, fix="Pass the scalar query answer f(D).")
        n = self._size(size)
        k = self._rng(rng).integers(0, 1 << self.uniform_bits, size=n, dtype=np.int64)
        u = k / float(1 << self.uniform_bits) - 0.5
        with np.errstate(divide="ignore"):
            y = -self.scale * np.sign(u) * np.log(1 - 2 * np.abs(u))
        return f + y

    def true_epsilon(self, k: int = 1) -> float:
        return math.inf


class DiscreteLaplace(ControlBase):
    """``f(D) + G1 - G2`` with G1, G2 i.i.d. geometric on {1, 2, ...}, success probability
    ``1 - exp(-eps/sensitivity)``; ``f(D)`` an integer. P(Z = z) is proportional to
    exp(-eps |z| / sensitivity), so for integer answers at distance <= sensitivity the mechanism is
    eps-DP exactly (Ghosh et al. 2009). Output: int64 (size,). A *correct* control.
    """

    paper_label = "discrete-laplace"

    def __init__(self, epsilon: float, sensitivity: int = 1):
        self.epsilon = v.positive("epsilon", epsilon)
        self.sensitivity = v.integer("sensitivity", sensitivity, minimum=1)
        self.claim = PrivacyClaim(self.epsilon)

    def __repr__(self) -> str:
        return f"DiscreteLaplace(epsilon={self.epsilon!r}, sensitivity={self.sensitivity!r})"

    def sample(self, data, size, rng):
        if isinstance(data, bool) or not isinstance(data, (int, np.integer)):
            raise InvalidArgument(f"data={data!r} must be an integer query answer (the discrete Laplace "
                                  "mechanism releases integers).")
        n = self._size(size)
        rng = self._rng(rng)
        p = -math.expm1(-self.epsilon / self.sensitivity)
        return int(data) + rng.geometric(p, n) - rng.geometric(p, n)

    def true_epsilon(self, k: int = 1) -> float:
        return self.epsilon
