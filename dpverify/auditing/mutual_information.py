"""MI-DP audits: certified bounds on sup over input laws of I(X_ij ; output | rest), in bits.

``showkatbakhsh-regression`` Definition 1 calls a mechanism eps-MI-DP when
sup_{i, P} I(D_i ; q(D) | D_-i) <= eps bits. Conditionally on the rest of the data, both of the
paper's releases reduce to a scalar-input channel whose capacity is the quantity to bound:

* **additive release** X + sigma_AN N (eq. 8): only entry (1,1) of the output depends on X_11, so
  the channel is :class:`AmplitudeGaussianChannel` Y = X + sigma N, |X| <= 1 (the paper assumes
  |X_ij| <= 1), sigma = sigma_AN. Lemma 1 claims capacity <= eps.
* **random-projection release** S X + sigma_RP N (eq. 12) with S private: conditionally on the rest,
  column 1 of the output is z = S_:,1 X_11 + nu with nu ~ N(0, s^2 I_n'),
  s^2 = sigma_RP^2 + sum_{i != 1} X_i1^2 (eqs. 21-22): :class:`ProjectionChannel`. The other
  columns also carry information about S (hence about z's gain); the channel's **lower** bound
  uses z alone (a part of the output: valid for the release by data processing), its **upper**
  bound is the coherent one, I(X; z, S) <= (1/2) log2(1 + n' A^2 / s^2) (Gaussian maximum entropy
  given S, then Jensen), which bounds I(X_11 ; whole release | rest) because, given S and the
  rest, the other columns are independent of X_11.

**How the bounds are certified** (:func:`audit_mutual_information`):

* *Lower bound*: Blahut-Arimoto on a grid of inputs and a finite partition of the output; the
  mutual information of the BA input law through the **quantised** channel is a lower bound on
  the true I(X; Y) by the data-processing inequality (quantising Y cannot add information), so no
  quadrature error enters. The bin probabilities are exact normal / chi-square CDF differences.
* *Upper bound* (amplitude channel): the BA dual bound C <= sup_{|x| <= A} D(W(.|x) || q) for any
  output density q (Csiszar-Korner; Topsoe), with q the output law of the BA input. Since
  (log q)'' >= -1/sigma^2 (it is a posterior variance minus 1/sigma^2), log q(y) + y^2/(2 sigma^2) is
  convex, so log q(y) >= log q(m) + (log q)'(m)(y - m) - (y - m)^2/(2 sigma^2) for **every** y and m.
  Applying it on each output bin at the bin's midpoint (at the edge for the two tails) with the
  exact Gaussian partial moments of the bin gives a lower bound on E log q(x + sigma Z), hence an
  upper bound on D(x). The supremum over the continuous input range uses
  |D''(x)| <= 1/sigma^2 + A^2/sigma^4 (the posterior variance of (y - X)/sigma^2 is at most
  A^2/sigma^4): between grid points of spacing h, D <= max of the two ends + |D''| h^2 / 8.
* Floating point: every sum is formed in float64 from terms of relative error ~1e-15; a margin of
  1e-9 bits plus 1e-12 times the sum of absolute terms is subtracted from lower bounds and added
  to upper bounds.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from scipy import special

from ..validation import integer, nonnegative, positive
from ..claims import Verdict
from ..errors import InvalidArgument
from .result import jsonable

__all__ = [
    "AmplitudeGaussianChannel",
    "ProjectionChannel",
    "MutualInformationResult",
    "audit_mutual_information",
    "blahut_arimoto",
]

_LN2 = math.log(2.0)
_MARGIN_BITS = 1e-9


@dataclass(frozen=True)
class AmplitudeGaussianChannel:
    """Y = X + sigma N, N ~ N(0, 1), input |X| <= amplitude."""

    sigma: float
    amplitude: float = 1.0

    def __post_init__(self) -> None:
        positive("sigma", self.sigma, fix="The channel needs noise sigma > 0.")
        positive("amplitude", self.amplitude, fix="The input range |X| <= amplitude needs amplitude > 0.")

    def to_dict(self) -> dict:
        return {"channel": "amplitude-gaussian", "sigma": self.sigma, "amplitude": self.amplitude}


@dataclass(frozen=True)
class ProjectionChannel:
    """z = s X + nu in R^dimension, s ~ N(0, I), nu ~ N(0, noise_variance I), |X| <= amplitude,
    s unknown to the receiver (non-coherent); see the module docstring for its two bounds."""

    noise_variance: float
    dimension: int
    amplitude: float = 1.0

    def __post_init__(self) -> None:
        positive("noise_variance", self.noise_variance,
                 fix="s^2 = sigma_RP^2 + sum of the other squared entries of the column must be > 0.")
        integer("dimension", self.dimension, minimum=1, fix="n' (rows of the projection) is at least 1.")
        positive("amplitude", self.amplitude)

    def coherent_upper_bits(self) -> float:
        return 0.5 * math.log2(1.0 + self.dimension * self.amplitude**2 / self.noise_variance)

    def to_dict(self) -> dict:
        return {"channel": "projection", "noise_variance": self.noise_variance, "dimension": self.dimension,
                "amplitude": self.amplitude}


@dataclass(frozen=True)
class MutualInformationResult:
    """Certified bounds on the channel capacity (bits) and the verdict against ``claim_bits``.

    ``violated``: capacity_lower > claim_bits; ``not-violated``: capacity_upper <= claim_bits;
    ``inconclusive`` otherwise. Deterministic: no confidence level (the bounds are certified).
    """

    verdict: Verdict
    capacity_lower: float
    capacity_upper: float
    claim_bits: float
    channel: Any
    input_points: np.ndarray
    input_law: np.ndarray
    iterations: int
    seconds: float
    notes: tuple = field(default=())

    def to_dict(self) -> dict:
        keep = self.input_law > 1e-6
        return jsonable({"verdict": self.verdict.value, "capacity_lower_bits": self.capacity_lower,
                         "capacity_upper_bits": self.capacity_upper, "claim_bits": self.claim_bits,
                         "channel": self.channel.to_dict(), "input_support": self.input_points[keep],
                         "input_law": self.input_law[keep], "iterations": self.iterations,
                         "seconds": self.seconds, "notes": list(self.notes)})

    def __str__(self) -> str:
        return (f"{self.verdict.value}: capacity in [{self.capacity_lower:.6f}, {self.capacity_upper:.6f}] bits "
                f"vs claim {self.claim_bits:g} bits ({self.channel.to_dict()['channel']})")


def blahut_arimoto(w: np.ndarray, *, iterations: int = 5000, tolerance: float = 1e-9):
    """Blahut-Arimoto on a discrete channel matrix ``w`` (rows: inputs, sum to 1).

    Returns (input law p, I(p) in nats, max_k D(w_k || p w) in nats, iterations used); the
    capacity of the discrete channel lies between the last two (the standard BA bounds).
    """
    w = np.asarray(w, dtype=float)
    k = w.shape[0]
    p = np.full(k, 1.0 / k)
    logw = np.where(w > 0, np.log(np.where(w > 0, w, 1.0)), 0.0)
    for it in range(1, iterations + 1):
        q = p @ w
        logq = np.where(q > 0, np.log(np.where(q > 0, q, 1.0)), 0.0)
        d = np.sum(w * (logw - logq), axis=1)
        mi = float(p @ d)
        top = float(d.max())
        if top - mi < tolerance:
            break
        p = p * np.exp(d - top)
        p /= p.sum()
    return p, mi, top, it


def _mi_bits(p: np.ndarray, w: np.ndarray) -> tuple[float, float]:
    """(I(p; w) in bits, sum of |terms| in bits) for a discrete channel."""
    q = p @ w
    with np.errstate(divide="ignore", invalid="ignore"):
        terms = p[:, None] * w * (np.log(w) - np.log(q)[None, :])
    terms = np.where(w > 0, terms, 0.0)
    return float(terms.sum()) / _LN2, float(np.abs(terms).sum()) / _LN2


def _normal_bin_probs(x: np.ndarray, edges: np.ndarray, sigma: float) -> np.ndarray:
    """P(x + sigma Z in [edges_j, edges_j+1]) for every x (rows) and bin (columns), tails accurate."""
    z = (edges[None, :] - x[:, None]) / sigma
    lo, hi = z[:, :-1], z[:, 1:]
    right = lo > 0
    out = np.where(right, special.ndtr(-lo) - special.ndtr(-hi), special.ndtr(hi) - special.ndtr(lo))
    return np.maximum(out, 0.0)


def _amplitude_bounds(ch: AmplitudeGaussianChannel, input_points: int, output_bins: int, eval_points: int,
                      iterations: int):
    a, s = ch.amplitude, ch.sigma
    x = np.linspace(-a, a, input_points)
    t = 9.0 * s
    inner = np.linspace(-a - t, a + t, output_bins + 1)
    edges = np.concatenate(([-np.inf], inner, [np.inf]))
    w = _normal_bin_probs(x, edges, s)
    w /= w.sum(axis=1, keepdims=True)  # rows sum to 1 up to rounding; renormalise (a valid channel)
    p, _, _, its = blahut_arimoto(w, iterations=iterations)
    # Lower bound: I through the quantised channel (data processing), computed exactly on the bins.
    w_exact = _normal_bin_probs(x, edges, s)
    lower, mag = _mi_bits(p, w_exact / w_exact.sum(axis=1, keepdims=True))
    lower -= _MARGIN_BITS + 1e-12 * mag
    # Upper bound: sup_x D(N(x, s^2) || q), q = sum_k p_k phi_s(. - x_k).
    keep = p > 0
    xs, ps = x[keep], p[keep]
    fine = np.linspace(-a - t, a + t, 2 * output_bins + 1)
    all_edges = np.concatenate(([-np.inf], fine, [np.inf]))
    mids = np.concatenate(([fine[0]], 0.5 * (fine[:-1] + fine[1:]), [fine[-1]]))  # tails: tangent at the edge
    log_c = -0.5 * ((mids[:, None] - xs[None, :]) / s) ** 2 + np.log(ps)[None, :]
    log_q = special.logsumexp(log_c, axis=1) - math.log(s) - 0.5 * math.log(2 * math.pi)
    post = np.exp(log_c - special.logsumexp(log_c, axis=1, keepdims=True))
    dlog_q = -(post * (mids[:, None] - xs[None, :])).sum(axis=1) / (s * s)
    xe = np.linspace(-a, a, eval_points)
    za = (all_edges[None, :-1] - xe[:, None]) / s
    zb = (all_edges[None, 1:] - xe[:, None]) / s
    prob = _normal_bin_probs(xe, all_edges, s)
    pdf = lambda z: np.exp(-0.5 * z * z) / math.sqrt(2 * math.pi)  # noqa: E731
    zpdf = lambda z: np.where(np.isfinite(z), z * pdf(np.where(np.isfinite(z), z, 0.0)), 0.0)  # noqa: E731
    e1 = pdf(za) - pdf(zb)  # E[u; bin], u standard normal
    e2 = prob + zpdf(za) - zpdf(zb)  # E[u^2; bin]
    dm = xe[:, None] - mids[None, :]
    m1 = s * e1 + dm * prob  # E[(Y - m); bin]
    m2 = s * s * e2 + 2 * s * dm * e1 + dm * dm * prob  # E[(Y - m)^2; bin]
    terms = log_q[None, :] * prob + dlog_q[None, :] * m1 - m2 / (2 * s * s)
    e_log_q_lower = terms.sum(axis=1)
    mag = float(np.abs(terms).sum(axis=1).max())
    h_noise = 0.5 * math.log(2 * math.pi * math.e * s * s)
    d_upper = (-h_noise - e_log_q_lower) / _LN2
    curvature = (1.0 / (s * s) + a * a / s**4) / _LN2  # |D''(x)| <= 1/s^2 + A^2/s^4
    spacing = 2 * a / (eval_points - 1)
    upper = float(d_upper.max()) + curvature * spacing**2 / 8 + _MARGIN_BITS + 1e-12 * mag / _LN2
    return x, p, lower, upper, its


def _chi2_bin_probs(x: np.ndarray, edges: np.ndarray, ch: ProjectionChannel) -> np.ndarray:
    """P(||z||^2 in [edges_j, edges_j+1]) with ||z||^2 = (x^2 + s^2) chi^2_m, tails accurate."""
    m = ch.dimension
    scale = x[:, None] ** 2 + ch.noise_variance
    t = edges[None, :] / scale / 2.0
    cdf = special.gammainc(m / 2.0, t)
    sf = special.gammaincc(m / 2.0, t)
    lo_c, hi_c = cdf[:, :-1], cdf[:, 1:]
    lo_s, hi_s = sf[:, :-1], sf[:, 1:]
    use_sf = lo_c > 0.5
    return np.maximum(np.where(use_sf, lo_s - hi_s, hi_c - lo_c), 0.0)


def _projection_bounds(ch: ProjectionChannel, input_points: int, output_bins: int, iterations: int):
    a, m, s2 = ch.amplitude, ch.dimension, ch.noise_variance
    x = np.linspace(0.0, a, input_points)  # ||z||^2 depends on x^2 only: |x| loses nothing
    lo = m * s2 * math.exp(-12.0 / math.sqrt(m) - 3.0)
    hi = m * (a * a + s2) * math.exp(12.0 / math.sqrt(m) + 3.0)
    inner = np.geomspace(lo, hi, output_bins + 1)
    edges = np.concatenate(([0.0], inner, [np.inf]))
    w = _chi2_bin_probs(x, edges, ch)
    w /= w.sum(axis=1, keepdims=True)
    p, _, _, its = blahut_arimoto(w, iterations=iterations)
    lower, mag = _mi_bits(p, w)
    lower -= _MARGIN_BITS + 1e-12 * mag
    upper = ch.coherent_upper_bits() * (1 + 1e-14) + _MARGIN_BITS
    return x, p, lower, upper, its


def audit_mutual_information(channel: Any, claim_bits: float, *, input_points: int = 101, output_bins: int = 600,
                             eval_points: int = 1001, iterations: int = 3000) -> MutualInformationResult:
    """Certified bounds on sup over input laws of I(X ; output) for ``channel``, against ``claim_bits``.

    ``channel`` is an :class:`AmplitudeGaussianChannel` or a :class:`ProjectionChannel` (see the
    module docstring for how the ``showkatbakhsh-regression`` releases map to them and for the
    inequality behind each bound). ``claim_bits`` is the MI-DP eps in bits (Definition 1).
    """
    start = time.perf_counter()
    claim_bits = nonnegative("claim_bits", claim_bits, fix="MI-DP eps is a number of bits >= 0.")
    input_points = integer("input_points", input_points, minimum=3)
    output_bins = integer("output_bins", output_bins, minimum=10)
    eval_points = integer("eval_points", eval_points, minimum=3)
    iterations = integer("iterations", iterations, minimum=1)
    notes = []
    if isinstance(channel, AmplitudeGaussianChannel):
        x, p, lower, upper, its = _amplitude_bounds(channel, input_points, output_bins, eval_points, iterations)
        notes.append("lower: BA law through the quantised output (data processing); upper: BA dual bound "
                     "sup_x D(W_x || q), tangent-quadratic bound on log q, curvature argument over |x| <= A")
    elif isinstance(channel, ProjectionChannel):
        x, p, lower, upper, its = _projection_bounds(channel, input_points, output_bins, iterations)
        notes.append("lower: non-coherent channel (z only) by BA on quantised ||z||^2 (data processing); "
                     "upper: coherent bound (1/2) log2(1 + n' A^2 / s^2)")
    else:
        raise InvalidArgument(
            f"channel={channel!r} must be an AmplitudeGaussianChannel or a ProjectionChannel "
            "(dpverify.auditing.mutual_information)."
        )
    lower = max(0.0, lower)
    if lower > claim_bits:
        verdict = Verdict.VIOLATED
    elif upper <= claim_bits:
        verdict = Verdict.NOT_VIOLATED
    else:
        verdict = Verdict.INCONCLUSIVE
    return MutualInformationResult(verdict, lower, upper, claim_bits, channel, x, p, its,
                                   time.perf_counter() - start, tuple(notes))
