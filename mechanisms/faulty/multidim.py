"""Multi-dimensional controls: outputs that are vectors of floats.

These are the harder cases of the black-box audit, where no single coordinate, sum or maximum
carries the privacy loss and an event must combine the coordinates.

* :class:`LaplaceParallel` - ``k`` independent Laplace noises added to ``k`` query answers, each
  of scale ``k * sensitivity / eps`` (DP-Sniper's "LaplaceParallel": Bichsel et al., S&P 2021,
  Table 2, 20 x Lap(1/0.005)). Under "all-differ" pairs (every answer moves by the sensitivity)
  the privacy loss is the sum of ``k`` per-coordinate losses, each at most ``eps / k``: eps-DP
  exactly (basic composition, tight on the all-differ pair). A *correct* control.
* :class:`NumericalSVT` - Lyu, Su & Li (PVLDB 2017), Sec. 4, Algorithm 7 ("NumericalSVT"), the numeric
  sparse vector: ``rho ~ Lap(D/e1)``, ``nu_i ~ Lap(2cD/e2)``, and a TOP query is answered with
  ``q_i + Lap(cD/e3)``, ``e1 = e2 = e3 = eps/3`` (the split of StatDP's benchmark). eps-DP (Lyu et
  al., Sec. 4). Output: float (size, k): the fresh noisy answer for TOP, 0.0 for BOTTOM,
  ``-inf`` once the ``c``-th TOP has stopped the run. A *correct* control.
* :class:`PrefixSum` - the prefix sums of the answers with Laplace noise of scale
  ``k * sensitivity / eps`` on each answer (StatDP's / DP-Sniper's "PrefixSum", with the scale
  set so that all-differ pairs are eps-DP, the post-processing of :class:`LaplaceParallel`).
  A *correct* control.
* :class:`SVTRothVector` - Lyu et al. Algorithm 3 (Roth 2011) released as a float vector:
  ``q_i + nu_i`` for TOP, ``-inf`` for BOTTOM, ``+inf`` when not answered. Not eps'-DP for any
  eps' independent of the number of queries (Lyu et al., Table 1). A *faulty* control.
"""
from __future__ import annotations

import math

import numpy as np

from dpverify import PrivacyClaim
from dpverify import validation as v

from ._common import ControlBase, queries
from .svt import SVTRoth

__all__ = ["LaplaceParallel", "NumericalSVT", "PrefixSum", "SVTRothVector"]


class LaplaceParallel(ControlBase):
    """``q_i(D) + Lap(k * sensitivity / eps)`` for each of the ``k`` answers. Output: float (size, k).

    True privacy: eps-DP under pairs whose answers each move by at most ``sensitivity`` (sum of
    k losses of eps/k each); tight on all-differ pairs. A *correct* control.
    """

    paper_label = "laplace-parallel"

    def __init__(self, epsilon: float, sensitivity: float = 1.0):
        self.epsilon = v.positive("epsilon", epsilon)
        self.sensitivity = v.positive("sensitivity", sensitivity)
        self.claim = PrivacyClaim(self.epsilon)

    def __repr__(self) -> str:
        return f"LaplaceParallel(epsilon={self.epsilon!r}, sensitivity={self.sensitivity!r})"

    def sample(self, data, size, rng):
        q = queries(data)
        n = self._size(size)
        scale = q.size * self.sensitivity / self.epsilon
        return q + self._rng(rng).laplace(0.0, scale, (n, q.size))

    def true_epsilon(self, k: int) -> float:
        return self.epsilon


class PrefixSum(LaplaceParallel):
    """Prefix sums ``sum_{j <= i} (q_j(D) + Lap(k * sensitivity / eps))``. Output: float (size, k).

    True privacy: eps-DP on pairs whose answers each move by at most ``sensitivity`` (a
    post-processing of :class:`LaplaceParallel`); tight on all-differ pairs. A *correct* control.
    """

    paper_label = "prefix-sum"

    def __repr__(self) -> str:
        return f"PrefixSum(epsilon={self.epsilon!r}, sensitivity={self.sensitivity!r})"

    def sample(self, data, size, rng):
        return np.cumsum(super().sample(data, size, rng), axis=1)


class NumericalSVT(ControlBase):
    """Lyu et al. Algorithm 7 (see the module docstring). Output: float (size, k).

    True privacy: eps-DP (Lyu et al., Sec. 4, the proof of Algorithm 7). A *correct* control.
    """

    paper_label = "numerical-svt"

    def __init__(self, epsilon: float, threshold: float = 0.5, cutoff: int = 1, sensitivity: float = 1.0):
        self.epsilon = v.positive("epsilon", epsilon)
        self.threshold = v.real("threshold", threshold)
        self.cutoff = v.integer("cutoff", cutoff, minimum=1, fix="c is the number of TOP answers allowed (>= 1).")
        self.sensitivity = v.positive("sensitivity", sensitivity)
        self.claim = PrivacyClaim(self.epsilon)

    def __repr__(self) -> str:
        return (f"NumericalSVT(epsilon={self.epsilon!r}, threshold={self.threshold!r}, cutoff={self.cutoff!r}, "
                f"sensitivity={self.sensitivity!r})")

    def sample(self, data, size, rng):
        q = queries(data)
        n = self._size(size)
        rng = self._rng(rng)
        e = self.epsilon / 3
        c, d = self.cutoff, self.sensitivity
        rho = rng.laplace(0.0, d / e, n)
        out = np.full((n, q.size), -math.inf)
        count = np.zeros(n, dtype=np.int64)
        for i in range(q.size):
            alive = count < c
            nu = rng.laplace(0.0, 2 * c * d / e, n)
            answer = q[i] + rng.laplace(0.0, c * d / e, n)
            top = q[i] + nu >= self.threshold + rho
            out[:, i] = np.where(alive, np.where(top, answer, 0.0), -math.inf)
            count += alive & top
        return out

    def true_epsilon(self, k: int) -> float:
        return self.epsilon


class SVTRothVector(SVTRoth):
    """Lyu et al. Algorithm 3 as a float vector: ``q_i + nu_i`` for TOP, ``-inf`` for BOTTOM,
    ``+inf`` when not answered. Output: float (size, k). A *faulty* control (see SVTRoth)."""

    def sample(self, data, size, rng):
        state, noisy = self._run(data, size, rng, values=True)
        return np.where(state == 1, noisy, np.where(state == 0, -math.inf, math.inf))
