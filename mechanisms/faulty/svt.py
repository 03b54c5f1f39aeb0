"""The sparse vector technique and its variants, as analysed by Lyu, Su & Li (2017).

Reference: M. Lyu, D. Su, N. Li, *Understanding the Sparse Vector Technique for Differential
Privacy*, PVLDB 10(6), 2017, Figure 1 (Algorithms 1-6) and Table 1. Input: the query answers
``q_i(D)`` (``data``, sensitivity ``Delta`` each), thresholds ``T`` (one for all queries), cutoff
``c``. Each algorithm draws a threshold noise rho and query noises nu_i and answers ``TOP`` when
``q_i + nu_i >= T + rho``:

======  =====================  ===============  =================  ==========  ==================
 Alg.    source                 rho              nu_i               stop at c   true privacy
======  =====================  ===============  =================  ==========  ==================
 1       Lyu et al. (proposed)  Lap(D/e1)        Lap(2cD/e2)        yes         eps-DP
 2       Dwork & Roth 2014      Lap(cD/e1)*      Lap(2cD/e1)        yes         eps-DP
 3       Roth 2011 (notes)      Lap(D/e1)        Lap(cD/e2)         yes         infinite (outputs q_i + nu_i)
 4       Lee & Clifton 2014     Lap(D/e1), e1=e/4 Lap(D/e2)         yes         ((1 + 6c)/4) eps
 5       Stoddard et al. 2014   Lap(D/e1)        0                  no          infinite
 6       Chen et al. 2015       Lap(D/e1)        Lap(D/e2)          no          infinite
======  =====================  ===============  =================  ==========  ==================

with e1 = eps/2, e2 = eps - e1 unless stated; * Alg. 2 redraws rho (scale cD/e2) after each TOP.
"Infinite" means: not eps'-DP for any eps' independent of the number of queries (Alg. 5 is not
eps'-DP for any eps' already with two queries; Algs. 3 and 6 lose privacy linearly in the number
of queries).

Outputs (``size`` rows): an ``int8`` array of shape (size, k) with 1 = TOP, 0 = BOTTOM, -1 = not
answered (after the c-th TOP); Alg. 3 returns, per output, a tuple of k entries: ``False`` for
BOTTOM, the float ``q_i + nu_i`` for TOP, ``None`` when not answered (its true output).
"""
from __future__ import annotations

import math

import numpy as np

from dpverify import InvalidArgument, PrivacyClaim
from dpverify import validation as v

from ._common import ControlBase, queries

__all__ = ["SVTLyu", "SVTDworkRoth", "SVTRoth", "SVTLeeClifton", "SVTStoddard", "SVTChen", "SVTRedrawnThreshold"]

PAPER = "lyu-svt"


class _SVT(ControlBase):
    algorithm = 0
    cutoff_applies = True
    redraw_every_query = False  # True: the threshold noise rho is drawn afresh before every query

    def __init__(self, epsilon: float, threshold: float = 0.5, cutoff: int = 1, sensitivity: float = 1.0):
        self.epsilon = v.positive("epsilon", epsilon, fix="The sparse vector technique needs eps > 0.")
        self.threshold = v.real("threshold", threshold)
        self.cutoff = v.integer("cutoff", cutoff, minimum=1, fix="c is the number of TOP answers allowed (>= 1).")
        self.sensitivity = v.positive("sensitivity", sensitivity)
        self.claim = PrivacyClaim(self.epsilon)
        self.paper = f"{PAPER}/algorithm-{self.algorithm}"

    def __repr__(self) -> str:
        return (f"{type(self).__name__}(epsilon={self.epsilon!r}, threshold={self.threshold!r}, "
                f"cutoff={self.cutoff!r}, sensitivity={self.sensitivity!r})")

    # scales (rho, nu); nu scale 0 means no query noise
    def _scales(self) -> tuple[float, float]:  # pragma: no cover - overridden
        raise NotImplementedError

    def _resample_scale(self) -> float | None:
        return None

    def _run(self, data, size, rng, values: bool):
        q = queries(data)
        n = self._size(size)
        rng = self._rng(rng)
        b_rho, b_nu = self._scales()
        rho = rng.laplace(0.0, b_rho, n)
        state = np.full((n, q.size), -1, dtype=np.int8)
        noisy = np.zeros((n, q.size)) if values else None
        count = np.zeros(n, dtype=np.int64)
        alive = np.ones(n, dtype=bool)
        again = self._resample_scale()
        for i in range(q.size):
            if self.redraw_every_query:
                rho = rng.laplace(0.0, b_rho, n)
            nu = rng.laplace(0.0, b_nu, n) if b_nu > 0 else 0.0
            value = q[i] + nu
            top = value >= self.threshold + rho
            state[alive, i] = top[alive]
            if values:
                noisy[:, i] = value
            hit = alive & top
            if again is not None:
                rho = np.where(hit, rng.laplace(0.0, again, n), rho)
            if self.cutoff_applies:
                count += hit
                alive &= count < self.cutoff
        return state, noisy

    def sample(self, data, size, rng):
        return self._run(data, size, rng, values=False)[0]


class SVTLyu(_SVT):
    """Lyu et al. Algorithm 1 (their proposed SVT): rho ~ Lap(D/e1), nu_i ~ Lap(2cD/e2), stop at c.

    True privacy: eps-DP (Lyu et al., Theorem 2). A *correct* control.
    """

    algorithm = 1

    def _scales(self):
        e1 = self.epsilon / 2
        return self.sensitivity / e1, 2 * self.cutoff * self.sensitivity / (self.epsilon - e1)

    def true_epsilon(self, k: int) -> float:
        return self.epsilon  # an upper bound; the audit must not exceed it


class SVTDworkRoth(_SVT):
    """Lyu et al. Algorithm 2 (Dwork & Roth 2014, Alg. 2): rho ~ Lap(cD/e1), nu_i ~ Lap(2cD/e1),
    rho redrawn from Lap(cD/e2) after each TOP, stop at c.

    True privacy: eps-DP (Lyu et al., Table 1). A *correct* control.
    """

    algorithm = 2

    def _scales(self):
        e1 = self.epsilon / 2
        return self.cutoff * self.sensitivity / e1, 2 * self.cutoff * self.sensitivity / e1

    def _resample_scale(self):
        return self.cutoff * self.sensitivity / (self.epsilon - self.epsilon / 2)

    def true_epsilon(self, k: int) -> float:
        return self.epsilon


class SVTRoth(_SVT):
    """Lyu et al. Algorithm 3 (Roth 2011 lecture notes): rho ~ Lap(D/e1), nu_i ~ Lap(cD/e2), stop
    at c, and each TOP is released as the noisy answer ``q_i + nu_i``.

    True privacy: not eps'-DP for any eps' (Lyu et al., Table 1: "infinity-DP"): releasing the
    noisy answers of the TOP queries reveals how far the BOTTOM queries were from the threshold,
    and the loss grows with the number of queries. A *faulty* control.
    """

    algorithm = 3

    def _scales(self):
        e1 = self.epsilon / 2
        return self.sensitivity / e1, self.cutoff * self.sensitivity / (self.epsilon - e1)

    def sample(self, data, size, rng):
        state, noisy = self._run(data, size, rng, values=True)
        n, k = state.shape
        out = np.empty(n, dtype=object)
        vals = noisy.tolist()
        st = state.tolist()
        out[:] = [tuple(None if s < 0 else (x if s == 1 else False) for s, x in zip(srow, vrow))
                  for srow, vrow in zip(st, vals)]
        return out

    def true_epsilon(self, k: int) -> float:
        return math.inf


class SVTLeeClifton(_SVT):
    """Lyu et al. Algorithm 4 (Lee & Clifton 2014): e1 = eps/4, rho ~ Lap(D/e1), nu_i ~ Lap(D/e2)
    with e2 = eps - e1 (no factor c), stop at c.

    True privacy: ((1 + 6c)/4) eps-DP and not better (Lyu et al., Sec. 4 and Table 1); claimed
    eps. With c = 1 and ten queries the half/half pair alone has a privacy loss of 1.746 eps
    (exact by quadrature, ``benchmarks/bench_blackbox.py``), against 1.75 eps. A *faulty* control.
    """

    algorithm = 4

    def _scales(self):
        e1 = self.epsilon / 4
        return self.sensitivity / e1, self.sensitivity / (self.epsilon - e1)

    def true_epsilon(self, k: int) -> float:
        return (1 + 6 * self.cutoff) / 4 * self.epsilon


class SVTStoddard(_SVT):
    """Lyu et al. Algorithm 5 (Stoddard et al. 2014): rho ~ Lap(D/e1), **no** query noise, no cutoff.

    True privacy: not eps'-DP for any eps' (Lyu et al., Table 1): with two queries q = (1, 0)
    and q' = (0, 1), the output (BOTTOM, TOP) has positive probability under one and zero under
    the other. A *faulty* control.
    """

    algorithm = 5
    cutoff_applies = False

    def _scales(self):
        return self.sensitivity / (self.epsilon / 2), 0.0

    def true_epsilon(self, k: int) -> float:
        return math.inf


class SVTChen(_SVT):
    """Lyu et al. Algorithm 6 (Chen et al. 2015): rho ~ Lap(D/e1), nu_i ~ Lap(D/e2), no cutoff.

    True privacy: not eps'-DP for any eps' (Lyu et al., Table 1): the loss grows linearly with
    the number of TOP answers. With ten queries and eps = 1 the half/half pair alone has a loss
    of 4.45 (exact by quadrature). A *faulty* control.
    """

    algorithm = 6
    cutoff_applies = False

    def _scales(self):
        e1 = self.epsilon / 2
        return self.sensitivity / e1, self.sensitivity / (self.epsilon - e1)

    def true_epsilon(self, k: int) -> float:
        return math.inf


class SVTRedrawnThreshold(SVTLyu):
    """Lyu et al. Algorithm 1 with one change, the bug of issue 30: the threshold noise rho ~ Lap(D/e1) is
    drawn **afresh before every query** instead of once (nu_i ~ Lap(2cD/e2) as in Alg. 1, stop at c).

    Not in Lyu et al.'s table; a faulty control written for the curve and sequential tests. With rho redrawn,
    every BOTTOM answer costs privacy like a TOP, so the loss grows with the number of queries: not eps'-DP for
    any eps' independent of k. With eps = 1, c = 1, threshold 0.5 and ten queries, the pair q = (1, ..., 1)
    against q' = (0, ..., 0) has a loss of 1.663 on the outcome "no TOP" (its probability 4.1e-4 under q,
    2.2e-3 under q'), exact by quadrature (``tests/mechanisms/test_svt_redrawn.py``). That outcome is the middle
    value 0 of the last coordinate, which no half-line of a coordinate expresses.
    """

    algorithm = 1
    redraw_every_query = True

    def __init__(self, epsilon: float, threshold: float = 0.5, cutoff: int = 1, sensitivity: float = 1.0):
        super().__init__(epsilon, threshold, cutoff, sensitivity)
        self.paper = f"{PAPER}/algorithm-1 (threshold noise redrawn per query)"

    def true_epsilon(self, k: int) -> float:
        return math.inf

    def output_law(self, data) -> dict:
        """The exact law of the output on ``data`` for the cutoff c = 1: ``{i: P(first TOP at query i), "none":
        P(no TOP)}``. Query i is TOP independently with p_i = P(nu - rho >= T - q_i) (rho, nu redrawn), a
        one-dimensional integral (scipy ``quad``, absolute error below 1e-10 here)."""
        from scipy import integrate
        from scipy.stats import laplace

        if self.cutoff != 1:
            raise InvalidArgument(f"cutoff={self.cutoff!r}: output_law covers the cutoff c = 1 only (the first TOP "
                                  "ends the output); build the mechanism with cutoff=1 to get its law.")
        b_rho, b_nu = self._scales()
        out, alive = {}, 1.0
        for i, q in enumerate(queries(data)):
            shift = self.threshold - float(q)
            f = lambda r, s=shift: laplace.sf(s + r, scale=b_nu) * laplace.pdf(r, scale=b_rho)
            p = integrate.quad(f, -40 * b_rho, 40 * b_rho, limit=400, points=[0.0, -shift])[0]
            out[i], alive = alive * p, alive * (1 - p)
        out["none"] = alive
        return out
