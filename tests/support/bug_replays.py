"""Replays of privacy bugs really reported in DP libraries, each as a faulty mechanism and its fixed twin.

Issue 29's first acceptance item: with no pair given, ``dpverify.audit(faulty)`` must find each of these bug
classes by itself, and the fixed twin must stay un-violated. Every class below is a plain dpverify mechanism:
``sample(data, size, rng)`` draws only from ``rng`` and returns ``size`` outputs, ``claim`` is the library's
claim, and ``input_domain()`` states the domain *the library states* (never one narrowed to the bug). Each
replica re-implements, in numpy, what the cited release's code does (read from its source, not copied), and
raises where that code raises (a raise is an observable outcome the search counts).

=====================  ==========================================  =============================================
bug class              faulty (release, report)                    fixed twin
=====================  ==========================================  =============================================
extreme record         SmartNoise SQL <= 1.0.1 ``approx_bounds``   SmartNoise SQL 1.0.2 (PR #580)
                       (opendp/smartnoise-sdk#574, #572)
biased randomized      OpenDP 0.4.0 ``make_randomized_response_    OpenDP 0.5.0 (PR #481)
response               bool`` (opendp/opendp#480)
group-distance map     OpenDP 0.3.0 ``make_bounded_resize``        OpenDP 0.4.0 (stability 2 d_in)
                       stability map (opendp/opendp#355)
partition-threshold    OpenDP ``make_laplace_threshold`` (current  the same mechanism with the delta that counts
delta                  releases; opendp/opendp#2922, open)         the mass at the threshold (no release has it)
=====================  ==========================================  =============================================

:data:`REPLAYS` lists them with the pair a person who knew the bug would hand to the audit, and the true
privacy there (computed by hand in each docstring). Everything pickles (module-level classes, functions and
``functools.partial``), so the audits may run on process pools.
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from dpverify import InputDomain, NeighbourRelation, PrivacyClaim

__all__ = ["ApproxBoundsSmartNoise101", "ApproxBoundsSmartNoise102", "RandomizedResponseBoolOpenDP04",
           "RandomizedResponseBoolOpenDP05", "BoundedResizeSumOpenDP03", "BoundedResizeSumOpenDP04",
           "LaplaceThresholdOpenDP", "LaplaceThresholdCorrectDelta", "AtDistance", "Replay", "REPLAYS",
           "OpenDPRandomizedResponseBool", "OpenDPBoundedResizeSum", "OpenDPLaplaceThreshold", "opendp_version", "SmartNoiseApproxBounds",
           "smartnoise_sql_version"]

ADD_REMOVE = NeighbourRelation.ADD_REMOVE_ONE
REPLACE = NeighbourRelation.REPLACE_ONE


# -- 1. extreme record: SmartNoise SQL approx_bounds ---------------------------------------------------------------

#: The histogram of ``approx_bounds``: 64 bins below 0 and 64 at or above it, with edges at powers of two:
#: bin 64 is [0, 1), bin 64 + j + 1 is [2^j, 2^(j+1)) (j = 0..62, the last [2^62, 2^63)), bin 63 is [-1, 0),
#: bin 62 - j is [-2^(j+1), -2^j) (the first, bin 0, [-2^63, -2^62)). Values outside [-2^63, 2^63) have no bin.
_BINS = 64
_LOWEST, _HIGHEST = -(2.0 ** 63), 2.0 ** 63
#: The failure probabilities ``approx_bounds`` tries in turn (10E-9 times 10^i while <= 1 / (2 x 128 bins)).
_FAILURE_PROBS = tuple(1e-8 * 10.0 ** i for i in range(6))


def _bin(v: float) -> int:
    """The bin of a value v in [-2^63, 2^63): 64 for [0, 1), 65 + j for [2^j, 2^(j+1)), 63 for [-1, 0),
    62 - j for [-2^(j+1), -2^j) (the edges of ``approx_bounds``, :data:`_BINS`)."""
    v = float(v)
    mag = abs(v)
    if mag < 1.0 or v == -1.0:
        return _BINS if v >= 0 else _BINS - 1
    j = math.floor(math.log2(mag))
    if v > 0:  # 2^j <= v < 2^(j+1), against float error in log2 at the edges
        j += int(2.0 ** (j + 1) <= v) - int(2.0 ** j > v)
        return _BINS + 1 + j
    j += int(2.0 ** (j + 1) < mag) - int(2.0 ** j >= mag)  # 2^j < -v <= 2^(j+1)
    return _BINS - 2 - j


def _histogram(vals: np.ndarray) -> np.ndarray:
    """Counts of the 128 bins (every value already inside [-2^63, 2^63))."""
    hist = np.zeros(2 * _BINS)
    for v in vals:
        hist[_bin(v)] += 1.0
    return hist


def _bounds_release(hist: np.ndarray, epsilon: float, size: int, rng: np.random.Generator) -> np.ndarray:
    """``size`` releases of approx_bounds' noisy-histogram step: Laplace(1/eps) on every bin, then the first
    failure probability whose threshold K some bin exceeds; the output is (lowest, highest) exceeding bin
    (post-processing of the library's (lower edge, upper edge), one to one), (-1, -1) for its (None, None)."""
    n_bins = hist.size
    noisy = hist[None, :] + rng.laplace(0.0, 1.0 / epsilon, size=(size, n_bins))
    out = np.full((size, 2), -1, dtype=np.int64)
    todo = np.ones(size, dtype=bool)
    for failure in _FAILURE_PROBS:
        k = -math.log(2.0 - 2.0 * (1.0 - failure) ** (1.0 / (n_bins - 1))) / epsilon
        over = noisy > k
        hit = todo & over.any(axis=1)
        if hit.any():
            rows = over[hit]
            out[hit, 0] = np.argmax(rows, axis=1)
            out[hit, 1] = n_bins - 1 - np.argmax(rows[:, ::-1], axis=1)
        todo &= ~hit
    return out


class ApproxBoundsSmartNoise101:
    """SmartNoise SQL 1.0.1 ``snsql.sql._mechanisms.approx_bounds(vals, epsilon)`` (faulty).

    * Library: SmartNoise SQL (PyPI ``smartnoise-sql``); affected: every release with ``approx_bounds`` up to
      1.0.1; fixed in 1.0.2 (PR https://github.com/opendp/smartnoise-sdk/pull/580, 2023-11-04, "Fix privacy bug
      in approx_bounds").
    * Reports: https://github.com/opendp/smartnoise-sdk/issues/574 (``inf``/``NaN``) and #572; the PR also names
      "values lower than the smallest bin edge".
    * What the code did: a histogram over 128 bins with power-of-two edges covering [-2^63, 2^63), Laplace noise
      of scale 1/eps on every bin count, then the lowest and highest bin above a threshold. A value in no bin
      (NaN, +-inf, anything below -2^63 or at/above 2^63) made it ``raise ValueError("Value ... is outside of the
      range we can use to infer bounds")``.
    * Exact privacy: the claim is eps-DP under adding/removing a record (histogram sensitivity 1). At the pair
      D = [] (or any in-range data), D' = D + [-1e30] (or +-inf, NaN, +-largest float), the call raises with
      probability 1 on D' and 0 on D: the true epsilon is infinite (delta = 1 at every epsilon).
    """

    faulty = True
    release = "smartnoise-sql 1.0.1"

    def __init__(self, epsilon: float = 1.0):
        self.epsilon = float(epsilon)
        self.claim = PrivacyClaim(self.epsilon, relation=ADD_REMOVE)

    def _prepare(self, data: Any) -> np.ndarray:
        vals = np.asarray(data, dtype=np.float64).ravel()
        bad = np.isnan(vals) | (vals < _LOWEST) | (vals >= _HIGHEST)
        if bad.any():
            raise ValueError(f"Value {vals[bad][0]} is outside of the range we can use to infer bounds")
        return vals

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        return _bounds_release(_histogram(self._prepare(data)), self.epsilon, int(size), rng)

    def input_domain(self) -> InputDomain:
        return InputDomain.records(nan=True, relation=ADD_REMOVE,
                                   note="approx_bounds takes any list of numbers (floats, NaN and +-inf included)")

    def true_epsilon(self) -> float:
        return math.inf


class ApproxBoundsSmartNoise102(ApproxBoundsSmartNoise101):
    """SmartNoise SQL 1.0.2 ``approx_bounds`` (fixed twin of :class:`ApproxBoundsSmartNoise101`).

    The fix (PR #580) drops NaN and +-inf, clips the rest to [-2^63, 2^63 - 1] (2^63 in float64), and puts a
    value that still has no bin into the last one. A record then changes one bin count by at most 1 (or none):
    eps-DP under add/remove, as claimed; the released pair of bins is post-processing of the noisy histogram."""

    faulty = False
    release = "smartnoise-sql 1.0.2"

    def _prepare(self, data: Any) -> np.ndarray:
        vals = np.asarray(data, dtype=np.float64).ravel()
        vals = vals[np.isfinite(vals)]
        vals = np.clip(vals, _LOWEST, _HIGHEST - 1.0)
        return np.where(vals >= _HIGHEST, np.nextafter(_HIGHEST, 0.0), vals)  # "no bin" -> the last bin

    def true_epsilon(self) -> float:
        return self.epsilon


# -- 2. biased randomized response: OpenDP 0.4 make_randomized_response_bool ---------------------------------------

def _one_bool(records: Any) -> bool:
    """The datum of randomized response: a single bool (the domain's one record, 0 or 1)."""
    items = list(records)
    if len(items) != 1:
        raise ValueError(f"randomized response takes exactly one bool, got {len(items)} records")
    return bool(items[0])


class RandomizedResponseBoolOpenDP04:
    """OpenDP 0.4.0 ``make_randomized_response_bool(prob)`` (faulty).

    * Library: OpenDP (PyPI ``opendp``); affected: 0.4.0 (the first release with the constructor); fixed in
      0.5.0 (PR https://github.com/opendp/opendp/pull/481, "fix `make_randomized_response_bool`").
    * Report: https://github.com/opendp/opendp/issues/480.
    * What the code did: ``lie = Bernoulli(prob)``; return ``arg`` with probability ``prob``, else ``lie``. The
      lie is not "the other bool" (nor a fair coin): it is True with probability ``prob``. So
      P(True | True) = p + (1 - p) p and P(False | False) = p + (1 - p)^2.
    * Claim: eps = ln(p / (1 - p)) when the bool changes (ln 3 = 1.0986 at p = 0.75).
    * Exact privacy at the pair (True, False): the larger log-ratio is at output False,
      ln((p + (1 - p)^2) / (1 - p)^2) = ln 13 = 2.565 at p = 0.75 (output True gives ln((2 - p) / (1 - p)) =
      ln 5). (Read under 0.4's SymmetricDistance, changing the bool is distance 2 and the map says 2 ln 3 =
      2.197: still below ln 13.)
    """

    faulty = True
    release = "opendp 0.4.0"

    def __init__(self, prob: float = 0.75):
        if not 0.5 <= prob < 1.0:
            raise ValueError(f"prob={prob!r} must be in [0.5, 1), as the library requires")
        self.prob = float(prob)
        self.claim = PrivacyClaim(math.log(self.prob / (1.0 - self.prob)), relation=REPLACE)

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        arg = bool(data)
        size = int(size)
        lie = rng.random(size) < self.prob
        honest = rng.random(size) < self.prob
        return np.where(honest, arg, lie).astype(np.int64)

    def input_domain(self) -> InputDomain:
        return InputDomain.records(low=0, high=1, integer=True, sizes=(1,), relation=REPLACE, encode=_one_bool,
                                   note="one bool (local model): the neighbour of True is False")

    def true_epsilon(self) -> float:
        p = self.prob
        return max(math.log((p + (1 - p) ** 2) / (1 - p) ** 2), math.log((2 - p) / (1 - p)))


class RandomizedResponseBoolOpenDP05(RandomizedResponseBoolOpenDP04):
    """OpenDP 0.5.0 ``make_randomized_response_bool`` (fixed twin): ``arg XOR NOT Bernoulli(prob)``, i.e. the
    truth with probability p and its negation otherwise; exact privacy ln(p / (1 - p)) = the claim (tight)."""

    faulty = False
    release = "opendp 0.5.0"

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        honest = rng.random(int(size)) < self.prob
        return np.where(honest, bool(data), not bool(data)).astype(np.int64)

    def true_epsilon(self) -> float:
        return math.log(self.prob / (1.0 - self.prob))


# -- 3. group-distance map: OpenDP 0.3 make_bounded_resize ---------------------------------------------------------

def resize_sum_map_v03(d_in: int, *, width: float, scale: float) -> PrivacyClaim:
    """OpenDP 0.3.0's claim for clamp >> bounded_resize >> sized_bounded_sum >> base_laplace at d_in: the resize's
    stability d_mid = d_in + d_in % 2, the sized sum's d_mid (U - L) / 2, the Laplace's / scale."""
    d_mid = d_in + d_in % 2
    return PrivacyClaim(d_mid * width / 2.0 / scale, relation=ADD_REMOVE)


def resize_sum_map_v04(d_in: int, *, width: float, scale: float) -> PrivacyClaim:
    """OpenDP 0.4.0's claim for the same chain: the resize's stability 2 d_in, so d_in (U - L) / scale."""
    return PrivacyClaim(2 * d_in * width / 2.0 / scale, relation=ADD_REMOVE)


class BoundedResizeSumOpenDP03:
    """OpenDP 0.3.0 ``make_clamp(bounds) >> make_bounded_resize(size, bounds, constant) >>
    make_sized_bounded_sum(size, bounds) >> make_base_laplace(scale)`` with the library's privacy map (faulty).

    * Library: OpenDP (PyPI ``opendp``); affected: 0.2.0-0.3.0 (``make_resize_constant``, in 0.3.0 exposed as
      ``make_resize``/``make_bounded_resize``; the real 0.3.0 is replayed); fixed in 0.4.0 (``d_out = 2 d_in``).
    * Report: https://github.com/opendp/opendp/issues/355 ("Resize relation stability constant").
    * What the code did: resize truncates to the first ``size`` records or pads with ``constant``; its stability
      map was ``d_out = d_in + d_in % 2`` (right at d_in = 1, where it gives 2; wrong at every even d_in, where
      removing d_in records pads d_in constants: d_out = 2 d_in). Clamping raises on NaN ("f64 cannot not be
      null when clamping"), NaN being outside the library's float domain.
    * The chain's claim at d_in (the library's map): (d_in + d_in % 2) (U - L) / (2 scale).
    * Exact privacy at d_in: adding d_in records at U to a dataset shorter than ``size`` by at least d_in
      replaces d_in constants (at L) by U: the sum moves by d_in (U - L), so eps(d_in) = d_in (U - L) / scale.
      With bounds (0, 1), constant 0, scale 1: at d_in = 2 the map says 1 and the truth is 2; at d_in = 6, 3
      against 6. At d_in = 1 both are 1.
    """

    faulty = True
    release = "opendp 0.3.0"
    _map: Callable = staticmethod(resize_sum_map_v03)
    distances = (1, 2, 3, 6)

    def __init__(self, size: int = 10, bounds: tuple = (0.0, 1.0), constant: float = 0.0, scale: float = 1.0):
        self.size, self.lower, self.upper = int(size), float(bounds[0]), float(bounds[1])
        self.constant, self.scale = float(constant), float(scale)
        self.claim = self.claim_at(1)

    def claim_at(self, d_in: int) -> PrivacyClaim:
        return self._map(d_in, width=self.upper - self.lower, scale=self.scale)

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        vals = np.asarray(data, dtype=np.float64).ravel()
        if np.isnan(vals).any():
            raise ValueError("f64 cannot not be null when clamping.")
        vals = np.clip(vals, self.lower, self.upper)
        if vals.size >= self.size:
            vals = vals[:self.size]
        else:
            vals = np.concatenate([vals, np.full(self.size - vals.size, self.constant)])
        return float(np.sum(vals)) + rng.laplace(0.0, self.scale, int(size))

    def input_domain(self) -> InputDomain:
        claim_at = functools.partial(self._map, width=self.upper - self.lower, scale=self.scale)
        return InputDomain.records(relation=ADD_REMOVE, distances=self.distances, claim_at=claim_at,
                                   values=(self.lower, self.upper, self.constant),
                                   note="vectors of non-null f64 (the library's AllDomain<f64> excludes NaN)")

    def true_epsilon(self, d_in: int = 1) -> float:
        return d_in * (self.upper - self.lower) / self.scale


class BoundedResizeSumOpenDP04(BoundedResizeSumOpenDP03):
    """The same chain in OpenDP 0.4.0 (fixed twin): the resize's stability is 2 d_in, so the map gives
    d_in (U - L) / scale, the exact privacy (tight: Laplace noise on a sum moved by d_in (U - L))."""

    faulty = False
    release = "opendp 0.4.0"
    _map: Callable = staticmethod(resize_sum_map_v04)


# -- 4. partition-threshold delta: OpenDP make_laplace_threshold ---------------------------------------------------

def _keys_of(records: Any) -> list:
    """The data of a count-by-key: the key of every (key, value) record (the value is unused)."""
    return [r[0] for r in records]


def discrete_laplace_tail(scale: float, t: int) -> float:
    """P[X > t] for X discrete Laplace (P[X = x] proportional to exp(-|x| / scale)), t >= 0:
    exp(-t / scale) / (exp(1 / scale) + 1) (OpenDP's conservative_discrete_laplacian_tail_to_alpha)."""
    return math.exp(-t / scale) / (math.exp(1.0 / scale) + 1.0)


class LaplaceThresholdOpenDP:
    """OpenDP ``make_count_by(...) >> then_laplace_threshold(scale, threshold)`` (faulty; still open).

    * Library: OpenDP (PyPI ``opendp``); affected: the releases with ``make_laplace_threshold`` (and the
      earlier ``make_base_laplace_threshold``) through the current one; no fixed release exists.
    * Report: https://github.com/opendp/opendp/issues/2922 ("`make_laplace_threshold` and
      `make_gaussian_threshold` both report an incorrectly small delta", open).
    * What the code does: adds discrete Laplace noise (scale s) to each partition's count and keeps the
      partitions whose noisy count is >= the threshold T; the privacy map's delta is P[X > T - l_inf] (strictly
      greater), which leaves out the mass P[X = T - l_inf] at the threshold itself.
    * Claim at d_in = 1 (one record, one partition): eps = 1 / s, delta = P[X > T - 1] = e^(-(T-1)/s) /
      (e^(1/s) + 1): 0.03640 for s = 1, T = 3 (the default here), 0.004926 for s = 1, T = 5 (the report's).
    * Exact privacy at the pair D, D' = D + one record in a new partition: the new key appears with
      probability P[1 + X >= T] = P[X > T - 2] = e^(-(T-2)/s) / (e^(1/s) + 1) on D' and never on D, so
      delta(eps) = P[X > T - 2] at every eps: 0.09894 (s = 1, T = 3; 0.01339 at T = 5), e^(1/s) = 2.72 times
      the claimed delta whatever T. (T = 3 is the default because the larger deltas need fewer draws to
      certify; the bug and the ratio do not depend on T.)

    The output is one row per draw, one column per key of ``keys``: the released noisy count, or T - 1 where
    the key is not released (a one-to-one encoding of the library's map: released counts are >= T).
    """

    faulty = True
    release = "opendp (make_laplace_threshold, through the current release)"

    def __init__(self, scale: float = 1.0, threshold: int = 3, keys: tuple = ("a", "b", "new")):
        self.scale, self.threshold, self.keys = float(scale), int(threshold), tuple(keys)
        self.claim = PrivacyClaim(1.0 / self.scale, self.claimed_delta(), relation=ADD_REMOVE)

    def claimed_delta(self) -> float:
        return discrete_laplace_tail(self.scale, self.threshold - 1)

    def true_delta(self) -> float:
        return discrete_laplace_tail(self.scale, self.threshold - 2)

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        size = int(size)
        counts = {}
        for key in data:
            if key not in self.keys:
                raise ValueError(f"key {key!r} is outside this replica's key universe {self.keys}")
            counts[key] = counts.get(key, 0) + 1
        out = np.full((size, len(self.keys)), self.threshold - 1, dtype=np.int64)
        q = -math.expm1(-1.0 / self.scale)
        for j, key in enumerate(self.keys):
            if key not in counts:
                continue  # a key absent from the data is never released
            noisy = counts[key] + rng.geometric(q, size) - rng.geometric(q, size)
            out[:, j] = np.where(noisy >= self.threshold, noisy, self.threshold - 1)
        return out

    def input_domain(self) -> InputDomain:
        return InputDomain.records(low=0, high=0, integer=True, relation=ADD_REMOVE, keys=self.keys,
                                   encode=_keys_of,
                                   note="records are keys (a count by key); the value part is unused and fixed at 0")


class LaplaceThresholdCorrectDelta(LaplaceThresholdOpenDP):
    """The same mechanism with the delta that counts the mass at the threshold, P[X >= T - 1] = P[X > T - 2]
    (fixed twin; a replica of the correction the report asks for -- no OpenDP release has it). Exact: at the
    new-partition pair delta(eps) = P[X > T - 2] for every eps >= 0 (tight); a changed count in an existing
    partition is (1/s)-DP (discrete Laplace, and a threshold is post-processing of the noisy count)."""

    faulty = False
    release = "replica of the corrected map (no release)"

    def claimed_delta(self) -> float:
        return discrete_laplace_tail(self.scale, self.threshold - 2)


# -- the real old releases, where they install (tests marked `libraries`, the benchmark) ---------------------------

def _installed(dist: str) -> str | None:
    """The installed version of the distribution ``dist``, or None."""
    try:
        from importlib.metadata import version

        return version(dist)
    except Exception:
        return None


opendp_version = functools.partial(_installed, "opendp")
smartnoise_sql_version = functools.partial(_installed, "smartnoise-sql")


def _library_epsilon(meas: Any, d_in: int) -> float:
    """The library's own epsilon at ``d_in``, read from its ``check(d_in, eps)`` relation (OpenDP 0.3-0.5 have no
    ``map`` on every measurement): bisection on [0, 64], the upper end (the smallest eps it accepts, to 1e-12)."""
    lo, hi = 0.0, 64.0
    if not meas.check(d_in, hi):
        return math.inf
    for _ in range(80):
        mid = 0.5 * (lo + hi)
        lo, hi = (lo, mid) if meas.check(d_in, mid) else (mid, hi)
    return hi


class _OpenDPObject:
    """The installed OpenDP's measurement, built on first use and after unpickling (a ctypes pointer does not
    pickle). Its draws come from OpenDP's generator, not ``rng`` (the audit says so: ``result.reproducible``)."""

    def __getstate__(self):
        return {k: v for k, v in self.__dict__.items() if k != "_meas"}

    def meas(self) -> Any:
        if "_meas" not in self.__dict__:
            from opendp.mod import enable_features

            enable_features("contrib", "floating-point")
            self.__dict__["_meas"] = self.build()
        return self.__dict__["_meas"]


class OpenDPRandomizedResponseBool(_OpenDPObject, RandomizedResponseBoolOpenDP04):
    """The installed OpenDP's own ``make_randomized_response_bool(prob)`` (0.4.0: faulty; 0.5.0: fixed), with
    the claim the library's relation gives at d_in = 1 and the domain of :class:`RandomizedResponseBoolOpenDP04`."""

    def __init__(self, prob: float = 0.75):
        self.prob = float(prob)
        self.release = f"opendp {opendp_version()}"
        self.faulty = self.release == "opendp 0.4.0"
        self.claim = PrivacyClaim(_library_epsilon(self.meas(), 1), relation=REPLACE)

    def build(self) -> Any:
        from opendp.meas import make_randomized_response_bool

        return make_randomized_response_bool(self.prob)

    def true_epsilon(self) -> float:
        if self.faulty:
            return super().true_epsilon()
        return math.log(self.prob / (1.0 - self.prob))

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        meas, arg = self.meas(), bool(data)
        return np.array([meas(arg) for _ in range(int(size))], dtype=np.int64)


class OpenDPBoundedResizeSum(_OpenDPObject, BoundedResizeSumOpenDP03):
    """The installed OpenDP's own ``make_clamp >> make_bounded_resize >> make_sized_bounded_sum >>
    make_base_laplace`` (0.3.0: faulty map; 0.4.0: fixed), its claim at every d_in read from the library's
    relation, and the domain of :class:`BoundedResizeSumOpenDP03`."""

    def __init__(self, size: int = 10, bounds: tuple = (0.0, 1.0), constant: float = 0.0, scale: float = 1.0):
        self.release = f"opendp {opendp_version()}"
        self.faulty = self.release == "opendp 0.3.0"
        super().__init__(size, bounds, constant, scale)

    def build(self) -> Any:
        import opendp.meas as m
        import opendp.trans as t

        bounds = (self.lower, self.upper)
        return (t.make_clamp(bounds=bounds) >> t.make_bounded_resize(size=self.size, bounds=bounds,
                                                                     constant=self.constant)
                >> t.make_sized_bounded_sum(size=self.size, bounds=bounds) >> m.make_base_laplace(scale=self.scale))

    def claim_at(self, d_in: int) -> PrivacyClaim:
        return PrivacyClaim(_library_epsilon(self.meas(), int(d_in)), relation=ADD_REMOVE)

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        meas, vals = self.meas(), [float(v) for v in np.ravel(np.asarray(data, dtype=np.float64))]
        return np.array([meas(vals) for _ in range(int(size))], dtype=np.float64)

    def input_domain(self) -> InputDomain:
        return InputDomain.records(relation=ADD_REMOVE, distances=self.distances, claim_at=self.claim_at,
                                   values=(self.lower, self.upper, self.constant),
                                   note="vectors of non-null f64 (the library's AllDomain<f64> excludes NaN)")


class OpenDPLaplaceThreshold(_OpenDPObject, LaplaceThresholdOpenDP):
    """The installed OpenDP's own ``make_count_by >> then_laplace_threshold(scale, threshold)`` (OpenDP >= 0.12; every
    release to date has the bug), its claim the library's ``map(1)``, with the domain and output encoding of
    :class:`LaplaceThresholdOpenDP`."""

    def __init__(self, scale: float = 1.0, threshold: int = 3, keys: tuple = ("a", "b", "new")):
        self.scale, self.threshold, self.keys = float(scale), int(threshold), tuple(keys)
        self.release = f"opendp {opendp_version()}"
        eps, delta = self.meas().map(1)
        self.claim = PrivacyClaim(float(eps), float(delta), relation=ADD_REMOVE)

    def build(self) -> Any:
        import opendp.prelude as dp

        count = dp.t.make_count_by(dp.vector_domain(dp.atom_domain(T=str)), dp.symmetric_distance())
        return count >> dp.m.then_laplace_threshold(scale=self.scale, threshold=self.threshold)

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        meas, keys = self.meas(), [str(k) for k in data]
        for key in keys:
            if key not in self.keys:
                raise ValueError(f"key {key!r} is outside this replay's key universe {self.keys}")
        out = np.full((int(size), len(self.keys)), self.threshold - 1, dtype=np.int64)
        for i in range(int(size)):
            for key, value in meas(keys).items():
                out[i, self.keys.index(key)] = int(value)
        return out


class SmartNoiseApproxBounds(ApproxBoundsSmartNoise101):
    """The installed SmartNoise SQL's own ``approx_bounds`` (1.0.1: faulty; 1.0.2: fixed), domain and claim of
    :class:`ApproxBoundsSmartNoise101`. Output: its (lower, upper) bin edges, (0, 0) for its (None, None) (never a
    pair it returns: the upper edge is >= 1 when the lower one is 0); noise from OpenDP's generator, not ``rng``."""

    def __init__(self, epsilon: float = 1.0):
        super().__init__(epsilon)
        self.release = f"smartnoise-sql {smartnoise_sql_version()}"
        self.faulty = self.release in ("smartnoise-sql 1.0.0", "smartnoise-sql 1.0.1")

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        from snsql.sql._mechanisms.approx_bounds import approx_bounds

        vals = [float(v) for v in np.ravel(np.asarray(data, dtype=np.float64))]
        out = [approx_bounds(vals, self.epsilon) for _ in range(int(size))]
        return np.array([[0.0 if v is None else v for v in pair] for pair in out], dtype=np.float64)

    def true_epsilon(self) -> float:
        return math.inf if self.faulty else self.epsilon


# -- a known pair at a group distance, for audits given the pair ----------------------------------------------------

class AtDistance:
    """``mechanism`` audited on a given pair at group distance ``distance``, against ``claim_at(distance)``: an
    audit given pairs checks them as distance-1 neighbours, so this states the rule (``check_neighbours``: the
    longer dataset is the shorter plus ``distance`` records). The baseline the unaided search is compared with."""

    def __init__(self, mechanism: Any, distance: int):
        self.mechanism, self.distance = mechanism, int(distance)
        self.claim = mechanism.claim_at(self.distance)

    def sample(self, data: Any, size: int, rng: np.random.Generator) -> np.ndarray:
        return self.mechanism.sample(data, size, rng)

    def check_neighbours(self, data: Any, data_prime: Any) -> None:
        a, b = sorted((list(np.ravel(data)), list(np.ravel(data_prime))), key=len)
        if len(b) - len(a) != self.distance or b[:len(a)] != a:
            raise ValueError(f"not at add/remove distance {self.distance}: {len(a)} and {len(b)} records")


# -- the registry --------------------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Replay:
    """One bug class: faulty and fixed factories, the pair a person who knew the bug would give the audit
    (``records``, before the domain's ``encode``) at ``distance``, the report and the truth there."""

    name: str
    faulty: Callable
    fixed: Callable
    records: tuple
    distance: int
    source: str
    truth: str
    #: Samples per dataset at which the unaided search found the faulty one on every seed tried (tests, benchmark).
    samples: int

    def pair(self, mechanism: Any) -> tuple:
        """The known pair as ``mechanism.sample`` takes it (``input_domain().data`` of each side)."""
        dom = mechanism.input_domain()
        return dom.data(list(self.records[0])), dom.data(list(self.records[1]))

    def given(self, mechanism: Any) -> Any:
        """What an audit given the known pair takes: ``mechanism`` itself at distance 1, else
        :class:`AtDistance` (the claim at the pair's distance, and the rule that makes it a neighbouring pair)."""
        return mechanism if self.distance == 1 else AtDistance(mechanism, self.distance)


REPLAYS = (
    Replay("extreme-record", ApproxBoundsSmartNoise101, ApproxBoundsSmartNoise102, ((0.5,), (0.5, -1e30)), 1,
           "https://github.com/opendp/smartnoise-sdk/issues/574",
           "eps = inf: D' = [0.5, -1e30] raises, D = [0.5] never does", 300),
    Replay("biased-randomized-response", RandomizedResponseBoolOpenDP04, RandomizedResponseBoolOpenDP05,
           ((1,), (0,)), 1, "https://github.com/opendp/opendp/issues/480",
           "eps = ln 13 = 2.565 against the claimed ln 3 = 1.099", 300),
    Replay("group-distance-map", BoundedResizeSumOpenDP03, BoundedResizeSumOpenDP04, ((0.5,), (0.5, 1.0, 1.0)), 2,
           "https://github.com/opendp/opendp/issues/355",
           "eps(2) = 2 against the map's 1 (eps(6) = 6 against 3); eps(1) = 1 as mapped", 1000),
    Replay("partition-threshold-delta", LaplaceThresholdOpenDP, LaplaceThresholdCorrectDelta,
           ((("a", 0),), (("a", 0), ("new", 0))), 1, "https://github.com/opendp/opendp/issues/2922",
           "delta = 0.09894 against the claimed 0.03640 (s = 1, T = 3)", 2000),
)
