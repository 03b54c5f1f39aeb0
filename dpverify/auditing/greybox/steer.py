"""Rare branches: steer a uniform draw to the end of its range, find a branch that releases the data, certify it.

A mechanism that leaks with a small probability -- ``if rng.random() < 1e-4: return exact_value`` -- passes every
black-box and white-box audit of ordinary size, and record-and-replay sees nothing either: the leak is not on the
recorded path. It is on a path the recorder can *steer* to, because every uniform draw comes through ``rng``.

**Search** (:func:`find_rare_branch`, on one pair, with ``size=1`` runs). A recorded run on D lists the uniform draws
(``random``, ``uniform``). For each element of each such draw (at most :data:`MAX_PROBES` in all) and each end of its
range (``u = 2^-40`` and ``u = 1 - 2^-40``), the mechanism is run with that one element steered to the end and
every other draw live from a seeded generator, on D and on D', under three seeds. The probe is a **branch that
releases the data** when, under the steered value, the output on D is the same bit for bit under all three seeds, the
same holds on D', and the two outputs differ: the mechanism's other randomness does not reach the output, and the
data does. The branch's probability is then measured on the steered draw alone: bisection between the end and 1/2
for the last value that still gives the same output (under every seed), and :data:`CHECK_POINTS` evenly spaced
values inside checked to give it too. ``p`` is that length.

**Certification** (:func:`certify_rare`). The search *chooses* an event, E = {the output is exactly o_D}, and sizes a
run; it proves nothing by itself (the branch set might not be an interval, the other draws might matter on seeds
not tried). The proof is statistical, on fresh draws of the unmodified mechanism: ``n = ceil(TARGET_HITS / p)``
outputs per dataset (at least the audit's ``samples``, at most :data:`MAX_DRAWS`), Clopper-Pearson bounds on
P_D(E) (lower) and P_D'(E) (upper), each at ``alpha / 2`` of the share given to it, and the claim is violated when
``P_D(E)_low - e^eps P_D'(E)_up > delta(eps)``. Because E was chosen on other draws, these bounds hold at their
stated level whatever the search did. A correct mechanism whose rare branch releases its data *as part of a
private mechanism* (randomized response that reports the true bit in a branch) is judged by the same bounds, so it
is not flagged beyond the stated rate.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from ...claims import PrivacyClaim
from ..blackbox.event_families import to_table
from ..blackbox.outputs import as_outputs
from ..bounds import clopper_pearson_lower, clopper_pearson_upper
from . import compose
from .recorder import Recorder, _short
from .replay import EPS_GRID

__all__ = ["RareBranch", "RareCertificate", "find_rare_branch", "certify_rare", "MAX_PROBES", "MAX_DRAWS",
           "TARGET_HITS", "CHECK_POINTS"]

#: Uniform elements steered per pair (in the order drawn), each at both ends of its range.
MAX_PROBES = 32
#: Values inside a found branch interval checked to give the same output.
CHECK_POINTS = 16
#: Certification draws per dataset: about this many expected hits of the event on D.
TARGET_HITS = 200
#: Certification draws per dataset at most (the branch is reported, not certified, when it needs more).
MAX_DRAWS = 5_000_000
_ENDS = (2.0 ** -40, 1.0 - 2.0 ** -40)
_UNIFORM = ("random", "uniform")
_SEEDS = (7_001, 7_002, 7_003)
_BATCH = 250_000


class _Steered(Recorder):
    """A recording generator whose ``target``-th uniform element (counting every element of every ``random`` /
    ``uniform`` draw in order) is replaced by ``value`` (scaled into [low, high) for ``uniform``). The real draw is
    still made, so every later draw is the one an unsteered run would get."""

    def __init__(self, rng: np.random.Generator, target: int, value: float):
        super().__init__(rng)
        self.target, self.value, self.seen = target, value, 0

    def _call(self, name, args, kwargs):
        out = super()._call(name, args, kwargs)
        if name not in _UNIFORM:
            return out
        arr = np.array(out, dtype=float, copy=True)
        k = arr.size
        if self.seen <= self.target < self.seen + k:
            flat = arr.reshape(-1)
            if name == "random":
                flat[self.target - self.seen] = self.value
            else:
                params = dict(self.calls[-1].params)
                low = np.broadcast_to(np.asarray(params.get("low", 0.0), dtype=float), arr.shape).reshape(-1)
                high = np.broadcast_to(np.asarray(params.get("high", 1.0), dtype=float), arr.shape).reshape(-1)
                i = self.target - self.seen
                flat[i] = low[i] + self.value * (high[i] - low[i])
            out = arr if np.ndim(out) else arr[()]
        self.seen += k
        return out


@dataclass(frozen=True)
class RareBranch:
    """A branch that releases the data: steering uniform element ``element`` to the ``end`` of its range gives the
    output ``output_d`` on D and ``output_dp`` on D' whatever the other draws (on the seeds tried); ``probability``
    is the measured length of the steered values that give it."""

    pair_index: int
    element: int
    end: str  # "low" or "high"
    probability: float
    output_d: object
    output_dp: object
    code_d: int

    def describe(self) -> str:
        return (f"uniform draw element {self.element} steered to its {self.end} end: the output is "
                f"{_short(self.output_d)} on D and {_short(self.output_dp)} on D' whatever the other draws, for a "
                f"range of that draw of length {self.probability:.3g} (its probability)")


@dataclass(frozen=True)
class RareCertificate:
    """The certification of a rare branch's event on fresh draws: counts, bounds and the verdict's numbers."""

    branch: RareBranch
    draws: int
    hits_d: int
    hits_dp: int
    p_d_lower: float
    p_dp_upper: float
    epsilon_lower: float
    delta_lower: float
    violated: bool

    def describe(self) -> str:
        return (f"event 'output is exactly {_short(self.branch.output_d)}' on {self.draws:,} fresh draws per dataset: "
                f"{self.hits_d} on D, {self.hits_dp} on D'; P_D(E) >= {self.p_d_lower:.4g}, P_D'(E) <= "
                f"{self.p_dp_upper:.4g}; eps_lower {self.epsilon_lower:.4g}, delta_lower {self.delta_lower:.4g} (at the claim's eps; a curve: the largest on its grid)")


def _run(mechanism, data, seed: int, target: int | None = None, value: float = 0.0):
    """(the outputs of a one-draw batch, the recorder) under a fresh seeded generator, steered when ``target``."""
    rng = np.random.default_rng(seed)
    rec = Recorder(rng) if target is None else _Steered(rng, target, value)
    return mechanism.sample(data, 1, rec), rec


def _codes(outputs, where: str) -> np.ndarray:
    """The black-box audit's exact-outcome codes of a batch (bits, types and structure all count)."""
    arr = as_outputs(outputs)
    arr = arr if isinstance(arr, np.ndarray) else np.asarray(arr)
    return to_table(arr, where, structured=True if arr.dtype.kind not in "biuf" else None).codes


def _first(outputs):
    arr = outputs if isinstance(outputs, np.ndarray) else np.asarray(outputs, dtype=object)
    return arr[0] if arr.ndim else arr


def _steady(mechanism, data, target, value):
    """(code, output) when the steered one-draw output is the same under every seed, else (None, None) (also when
    the mechanism raises on the steered value: that probe shows nothing)."""
    codes, first = [], None
    for s in _SEEDS:
        try:
            out, _ = _run(mechanism, data, s, target, value)
            codes.append(int(_codes(out, "the rare-branch search")[0]))
        except Exception:
            return None, None
        first = _first(out) if first is None else first
    return (codes[0], first) if len(set(codes)) == 1 else (None, None)


def find_rare_branch(mechanism, pair: tuple, index: int) -> RareBranch | None:
    """The first branch that releases the data (module docstring) on ``pair``, or None."""
    d, dp = pair
    try:
        _, rec = _run(mechanism, d, _SEEDS[0])
    except Exception:
        return None
    elements = sum(int(np.size(c.output)) for c in rec.calls if c.method in _UNIFORM)
    for target in range(min(elements, MAX_PROBES)):
        for end, value in zip(("low", "high"), _ENDS):
            code_d, out_d = _steady(mechanism, d, target, value)
            if code_d is None:
                continue
            code_dp, out_dp = _steady(mechanism, dp, target, value)
            if code_dp is None or code_dp == code_d:
                continue
            p = _length(mechanism, d, target, value, code_d)
            if p > 0:
                return RareBranch(index, target, end, p, out_d, out_dp, code_d)
    return None


def _length(mechanism, d, target, end_value, code) -> float:
    """The measured probability of the branch: bisection for its edge, then CHECK_POINTS values inside it."""
    same = lambda v: _steady(mechanism, d, target, v)[0] == code
    inside, outside = end_value, 0.5
    if same(outside):
        return 0.0  # the "branch" holds at the middle of the range: not a rare branch (the audit sees it anyway)
    for _ in range(48):
        mid = 0.5 * (inside + outside)
        if same(mid):
            inside = mid
        else:
            outside = mid
    low, high = (end_value, inside) if end_value < 0.5 else (inside, end_value)
    if not all(same(v) for v in np.linspace(low, high, CHECK_POINTS)):
        return 0.0
    return float(high - low)


def _hits(mechanism, data, code: int, n: int, seed: np.random.SeedSequence) -> int:
    hits, left, rng = 0, n, np.random.default_rng(seed)
    while left > 0:
        m = min(_BATCH, left)
        codes = _codes(mechanism.sample(data, m, rng), "the rare-branch certification")
        hits += int(np.count_nonzero(codes == np.uint64(code)))
        left -= m
    return hits


def draws_for(branch: RareBranch, samples: int) -> int:
    """Certification draws per dataset for ``branch`` (module docstring); 0 when it would need more than MAX_DRAWS."""
    n = max(int(samples), int(math.ceil(TARGET_HITS / branch.probability)))
    return n if n <= MAX_DRAWS else 0


def certify_rare(mechanism, pair: tuple, branch: RareBranch, claim: PrivacyClaim, alpha: float, samples: int,
                 seed: np.random.SeedSequence) -> RareCertificate | None:
    """The event of ``branch`` certified on fresh draws at level ``alpha`` (module docstring); None when it would
    need more than MAX_DRAWS draws."""
    n = draws_for(branch, samples)
    if n == 0:
        return None
    code = branch.code_d
    sd, sdp = seed.spawn(2)
    a, b = _hits(mechanism, pair[0], code, n, sd), _hits(mechanism, pair[1], code, n, sdp)
    lo = float(clopper_pearson_lower(a, n, alpha / 2))
    up = float(clopper_pearson_upper(b, n, alpha / 2))
    # the claim's (eps, delta) points (the grid for a curve): violated where the certified gap exceeds delta there
    gaps = [(lo - math.exp(e) * up - bound, lo - math.exp(e) * up) for e, bound in compose._points(claim, EPS_GRID)]
    violated = any(g > 0 for g, _ in gaps)
    ds = [d for _, d in gaps] if claim.is_curve else [d for _, d in gaps[:1]]  # a curve: the grid's largest
    delta_lower = max([0.0] + ds)
    eps_lower = math.log((lo - claim.delta) / up) if lo > claim.delta and up > 0 else 0.0
    return RareCertificate(branch, n, a, b, lo, up, max(eps_lower, 0.0), delta_lower, violated)
