"""Report noisy max: add noise to each query answer and release the index (or, wrongly, the value).

References: Dwork & Roth, *The Algorithmic Foundations of Differential Privacy* (2014), Sec. 3.3
(report noisy max, Laplace noise); McKenna & Sheldon, *Permute-and-Flip* (NeurIPS 2020) and Ding
et al., *The Permute-and-Flip Mechanism is Identical to Report-Noisy-Max with Exponential Noise*
(2021) (exponential noise); Ding, Wang, Wang, Zhang, Kifer, *Detecting Violations of Differential
Privacy* (CCS 2018, "StatDP"), which lists the value-returning variants as incorrect.

Queries have sensitivity 1 each (every answer may move by 1, as in the all-differ patterns);
noise scale 2/eps, which makes the argmax eps-DP with either noise.
"""
from __future__ import annotations

import enum
import math

import numpy as np

from dpverify import PrivacyClaim
from dpverify import validation as v

from ._common import ControlBase, queries

__all__ = ["Noise", "NoisyMaxArgmax", "NoisyMaxValue"]


class Noise(enum.Enum):
    """The noise added to every query answer (scale 2/eps)."""

    LAPLACE = "laplace"
    EXPONENTIAL = "exponential"


class _NoisyMax(ControlBase):
    query_sensitivity = 1.0  # every answer may move by 1 (module docstring)

    def __init__(self, epsilon: float, noise: Noise = Noise.LAPLACE):
        self.epsilon = v.positive("epsilon", epsilon, fix="Report noisy max needs eps > 0.")
        if not isinstance(noise, Noise):
            from dpverify import InvalidArgument

            raise InvalidArgument(f"noise={noise!r} must be Noise.LAPLACE or Noise.EXPONENTIAL.")
        self.noise = noise
        self.scale = 2.0 / self.epsilon
        self.claim = PrivacyClaim(self.epsilon)

    def __repr__(self) -> str:
        return f"{type(self).__name__}(epsilon={self.epsilon!r}, noise=Noise.{self.noise.name})"

    def _noisy(self, data, size, rng):
        q = queries(data)
        n = self._size(size)
        rng = self._rng(rng)
        if self.noise is Noise.LAPLACE:
            return q + rng.laplace(0.0, self.scale, (n, q.size))
        return q + rng.exponential(self.scale, (n, q.size))


class NoisyMaxArgmax(_NoisyMax):
    """Index of the largest noisy answer. True privacy: eps-DP with either noise (Dwork & Roth
    Claim 3.9 with scale 2/eps for non-monotone queries; exponential noise: McKenna & Sheldon
    2020). A *correct* control. Output: ``int64`` array of shape (size,).
    """

    paper_label = "report-noisy-max/argmax"

    def sample(self, data, size, rng):
        return np.argmax(self._noisy(data, size, rng), axis=1)

    def true_epsilon(self, k: int) -> float:
        return self.epsilon


class NoisyMaxValue(_NoisyMax):
    """The largest noisy answer itself (StatDP's incorrect variants). Output: float (size,).

    True privacy on k queries:

    * Laplace noise: exactly ``k eps / 2``. Upper bound: the max is a post-processing of the k
      noisy answers, each (1/scale)-DP, so k/scale = k eps/2. Attained: with every answer moved
      by 1 (q' = q - 1), for t <= min(q') the events {max <= t} have probability ratio
      (F(t - q' ) / F(t - q))^k = e^(k/scale) exactly (Laplace CDF F(x) = e^(x/b)/2, x <= 0).
    * Exponential noise: not eps'-DP for any eps' (infinite): the max is >= max(q), so
      {max < max(q)} has probability 0 under q and positive under q - 1.

    A *faulty* control (claimed eps).
    """

    paper_label = "report-noisy-max/value"

    def sample(self, data, size, rng):
        return np.max(self._noisy(data, size, rng), axis=1)

    def true_epsilon(self, k: int) -> float:
        return k * self.epsilon / 2 if self.noise is Noise.LAPLACE else math.inf
