"""The automatic proposal for small delta: a translation tilt of the mechanism's own law.

A white-box mechanism with no ``proposal`` of its own still has what a proposal needs: its sampler
and its log density. For outputs in R^d (or on the integer lattice Z^d) the **translation tilt**

    q_t(o) = p_D(o - t),    drawn as o = x + t with x ~ M(D),    log q_t(o) = log_density(o - t, D),

moves the mechanism's whole law by a shift t (a float array of one output's shape; integers on
integer coordinates). It has the same base measure as p_D (Lebesgue measure and the counting
measure on Z^d are invariant under those shifts), so the weights w = p_D(o) / q_t(o) are exact and
the lower bounds of :mod:`dpverify.auditing.importance` stay valid for **every** t: a proposal only
lowers E_q[w g] below delta(eps) where it misses part of {p_D g > 0}. A poor t costs power, never
validity.

**Choosing t** (:func:`choose_tilt`), from pilot draws only (a seed stream of their own, never the
certification draws): multi-level cross-entropy for the location family. Round r draws
x_i ~ M(D), puts o_i = x_i + t_r, and computes L(o_i) = log p_D(o_i) - log p_D'(o_i) and
w_i = p_D(o_i) / p_D(x_i). The level gamma_r is the (1 - ``ELITE``) quantile of L, capped at eps; the
next shift matches the mean of the target p_D 1{L >= gamma_r} (at the last level, p_D g_eps, the
zero-variance proposal of delta(eps)):

    t_{r+1} = sum_i v_i o_i / sum_i v_i  -  mean_pilot(x),     v_i = w_i 1{L_i >= gamma_r}   (w_i g_eps(o_i) last)

(the cross-entropy optimum for a Gaussian law, a heuristic otherwise). It stops once the level
reaches eps, after :data:`MAX_ROUNDS`, or when the shift stops moving. In many dimensions the
weighted elite mean is noisy, so a line search along the mean difference u = E_D[o] - E_D'[o]
(estimated from the rounds' plain draws and as many pilot draws from D') adds the candidates
s c u, s in :data:`LINE_SEARCH` and c the projection of the cross-entropy shift on u. Each
candidate gets an evaluation round of its own draws, which estimates the relative variance of
Y = w g under the tilt and under plain sampling (E_p[g^2] = E_q[w g^2]); the candidate with the
smallest is kept, and it is used only when it has seen the event {L > eps} and beats plain
sampling.

**Where it does not apply** the audit samples plainly and says why (:attr:`TiltChoice.reason`):
outputs that are not numbers (or not finite), coordinates with atoms off the integer lattice (a
shift there would leave the support of a mass function), a ``log_density`` that raises, returns
NaN, or is -inf at every shifted point, and shifts that do not improve on plain sampling.
Coordinates whose values are all integers are shifted by integers only; coordinates with repeated
non-integer values (among the first pilot draws, or among all the rounds' plain draws) are never
shifted.

**Assumption** (stated in ``docs/auditing.md``): the density is w.r.t. a translation-invariant
base measure along t, i.e. Lebesgue measure on R^d (or on an affine subspace containing the
outputs: t is a difference of weighted means of outputs, so it lies in that subspace) or the
counting measure on Z^d. The white-box consistency check tests ``log_density`` against ``sample``
on plain draws; it does not test the density at the shifted points.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..messages import describe
from .draws import NO_ORIGIN, Origin, call_sampler, check_outputs

__all__ = ["TILT_PILOT", "MAX_ROUNDS", "ELITE", "LINE_SEARCH", "TranslationProposal", "TiltChoice", "choose_tilt"]

#: Pilot draws per cross-entropy round (and for the evaluation round), independent of the audit's.
TILT_PILOT = 4_000
#: Most cross-entropy rounds before the evaluation round.
MAX_ROUNDS = 10
#: Elite fraction of each round: the level is the (1 - ELITE) quantile of the pilot losses.
ELITE = 0.1
#: Multiples of the cross-entropy shift's projection on the mean difference tried by the line search.
LINE_SEARCH = (0.25, 0.5, 0.75, 1.0)


class TranslationProposal:
    """q_t(o) = p_D(o - t): the mechanism's own law on ``data`` moved by ``shift`` (the importance
    proposal protocol: ``sample(size, rng)``, ``log_density(outputs)``)."""

    def __init__(self, mechanism: Any, data: Any, shift: np.ndarray):
        self.mechanism, self.data, self.shift = mechanism, data, shift

    def sample(self, size, rng):
        return np.asarray(self.mechanism.sample(self.data, size, rng)) + self.shift

    def log_density(self, outputs):
        return self.mechanism.log_density(np.asarray(outputs) - self.shift, self.data)

    def __repr__(self) -> str:
        return f"TranslationProposal(shift={describe_shift(self.shift)})"


def describe_shift(shift: np.ndarray) -> str:
    """The shift in a few characters: its value (a scalar or a short vector) or its norm."""
    s = np.asarray(shift, dtype=float)
    if s.size <= 4:
        return np.array2string(s, precision=4, separator=", ") if s.ndim else f"{float(s):.4g}"
    return f"array of shape {s.shape}, l2 norm {float(np.linalg.norm(s)):.4g}"


@dataclass(frozen=True)
class TiltChoice:
    """The outcome of :func:`choose_tilt` for one direction: ``proposal`` (None: sample plainly, and
    ``reason`` says why), the ``shift``, the cross-entropy ``rounds``, the pilot draws used, and the
    evaluation round's estimates (delta, relative variance of Y under the tilt and plainly)."""

    proposal: Any
    shift: Any
    rounds: int
    pilot_draws: int
    reason: str
    delta_estimate: float = 0.0
    relative_variance: float = math.inf
    plain_relative_variance: float = math.inf

    def describe(self) -> str:
        if self.proposal is None:
            return f"plain sampling ({self.reason})"
        return (f"translation tilt t={describe_shift(self.shift)} after {self.rounds} cross-entropy round(s) on "
                f"{self.pilot_draws} pilot draws (pilot relative variance of w g: {self.relative_variance:.3g} "
                f"tilted, {self.plain_relative_variance:.3g} plain)")


class _NotApplicable(Exception):
    pass


def _lattice_mask(x: np.ndarray) -> np.ndarray:
    """Per coordinate of the flattened outputs: 1 free (continuous), 2 integer lattice; raises
    _NotApplicable for outputs a translation cannot move."""
    if x.dtype.kind in "iu":
        return np.full(x.shape[1], 2)
    if x.dtype.kind != "f":
        raise _NotApplicable(f"outputs of dtype {x.dtype} are not real numbers")
    if not np.all(np.isfinite(x)):
        raise _NotApplicable("some pilot outputs are not finite")
    kind = np.ones(x.shape[1], dtype=int)
    for j in range(x.shape[1]):
        col = x[:, j]
        if np.all(col == np.round(col)):
            kind[j] = 2
        elif np.unique(col).size < col.size:
            kind[j] = 0  # atoms off the integer lattice: never shifted
    if not np.any(kind):
        raise _NotApplicable("every output coordinate has atoms off the integer lattice")
    return kind


def _recheck_atoms(kind: np.ndarray, free: np.ndarray) -> np.ndarray:
    """``kind`` with the free (continuous) coordinates whose values repeat among ``free`` (every
    round's plain draws of those coordinates) turned to 0: atoms, never shifted."""
    kind = kind.copy()
    cols = np.flatnonzero(kind == 1)
    for c, col in zip(cols, free.T):
        if np.unique(col).size < col.size:
            kind[c] = 0
    if not np.any(kind):
        raise _NotApplicable("every output coordinate has atoms off the integer lattice")
    return kind


def _round_shift(t: np.ndarray, kind: np.ndarray) -> np.ndarray:
    out = np.where(kind == 2, np.round(t), t)
    return np.where(kind == 0, 0.0, out)


def _log_density(mechanism, outputs, data, what):
    try:
        arr = np.asarray(mechanism.log_density(outputs, data), dtype=float)
    except Exception as exc:
        raise _NotApplicable(f"log_density raised {type(exc).__name__} at {what} ({exc})") from None
    if arr.shape != (len(outputs),):
        raise _NotApplicable(f"log_density returned shape {arr.shape} at {what}")
    if np.isnan(arr).any():
        raise _NotApplicable(f"log_density returned NaN at {what}")
    return arr


def _round(mechanism, data, data_prime, shift, size, seed, origin):
    """One pilot round at ``shift``: (x, o, L, log w), outputs flattened to (size, k)."""
    rng = np.random.default_rng(seed)
    where = f"data={describe(data)}, data_prime={describe(data_prime)} (tilt pilot)"
    x = check_outputs(mechanism, call_sampler(mechanism, lambda: mechanism.sample(data, size, rng), where,
                                              origin=origin), size, where, origin=origin)
    if x.dtype.kind in "iu" and np.asarray(shift).dtype.kind == "f":
        shift = shift.astype(x.dtype)
    o = x + shift
    lq = _log_density(mechanism, x, data, "the pilot's own draws")
    if not np.all(np.isfinite(lq)):
        raise _NotApplicable("log_density is not finite at some of the mechanism's own draws")
    la = _log_density(mechanism, o, data, "shifted outputs (data)")
    lb = _log_density(mechanism, o, data_prime, "shifted outputs (data_prime)")
    if np.any(la == np.inf) or np.any(lb == np.inf):
        raise _NotApplicable("log_density returned +inf")
    if np.any(shift != 0):
        back = _log_density(mechanism, o - shift, data, "shifted outputs moved back")
        if not np.all(np.isfinite(back)):
            raise _NotApplicable("o - t leaves the support in float64 (log q would be -inf at a draw of q)")
    with np.errstate(invalid="ignore"):
        loss = np.where(la == -np.inf, -np.inf, la - lb)
    log_w = np.where(la == -np.inf, -np.inf, la - lq)
    return x.reshape(size, -1), o.reshape(size, -1), loss, log_w


def _g(loss, eps):
    with np.errstate(over="ignore", invalid="ignore"):
        return np.where(loss > eps, np.where(loss == np.inf, 1.0, -np.expm1(eps - np.minimum(loss, 1e300))), 0.0)


def choose_tilt(mechanism: Any, data: Any, data_prime: Any, epsilon: float, seed: np.random.SeedSequence,
                pilot: int = TILT_PILOT, origin: Origin = NO_ORIGIN) -> TiltChoice:
    """The translation tilt for delta(epsilon) of ``data`` vs ``data_prime`` (see the module docstring),
    from pilot draws on ``seed`` only. Never raises for a mechanism the tilt cannot move: the choice then
    has ``proposal=None`` and a ``reason``. A sampler that raises is reported as the plain path would
    (MechanismError)."""
    seeds = seed.spawn(MAX_ROUNDS + 2 + len(LINE_SEARCH) + 1)
    draws = 0
    try:
        x0 = check_outputs(mechanism, call_sampler(
            mechanism, lambda: mechanism.sample(data, pilot, np.random.default_rng(seeds[0])),
            f"data={describe(data)} (tilt pilot)", origin=origin), pilot, "tilt pilot", origin=origin)
        shape = x0.shape[1:]
        kind = _lattice_mask(x0.reshape(pilot, -1))
        int_dtype = x0.dtype.kind in "iu"
        shift = np.zeros(int(np.prod(shape, dtype=int)))
        mean_x = np.zeros_like(shift)
        rounds = 0
        reached = False
        seen = []  # the rounds' plain draws: atoms are looked for in all of them
        for r in range(MAX_ROUNDS):
            cur = _round_shift(shift, kind).reshape(shape)
            if int_dtype:
                cur = cur.astype(x0.dtype)
            x, o, loss, log_w = _round(mechanism, data, data_prime, cur, pilot, seeds[r], origin)
            draws += pilot
            rounds = r + 1
            seen.append(x[:, kind == 1])
            mean_x = mean_x + (x.mean(axis=0) - mean_x) / rounds  # plain draws of every round: E_pD[o]
            fin = loss[np.isfinite(log_w)]
            if fin.size == 0:
                raise _NotApplicable("log_density is -inf at every shifted pilot output")
            level = min(float(epsilon), float(np.quantile(fin, 1.0 - ELITE)))
            if level >= epsilon:
                v_log = np.where(loss > epsilon, log_w + np.log(np.maximum(_g(loss, epsilon), 1e-300)), -np.inf)
                reached = True
            else:
                v_log = np.where(loss >= level, log_w, -np.inf)
            if not np.any(np.isfinite(v_log)):
                break
            v = np.exp(v_log - v_log.max())
            new = (v @ o) / v.sum() - mean_x
            moved = float(np.linalg.norm(_round_shift(new, kind) - _round_shift(shift, kind)))
            shift = new
            if reached or moved <= 1e-9 * (1.0 + float(np.linalg.norm(shift))):
                break
        if seen and seen[0].shape[1]:
            kind = _recheck_atoms(kind, np.concatenate(seen))
        candidates = [shift]
        n_prime = pilot * min(rounds, 5)
        where = f"data_prime={describe(data_prime)} (tilt pilot)"
        xp = check_outputs(mechanism, call_sampler(
            mechanism, lambda: mechanism.sample(data_prime, n_prime, np.random.default_rng(seeds[MAX_ROUNDS])),
            where, origin=origin), n_prime, where, origin=origin)
        draws += n_prime
        if xp.dtype.kind in "iuf" and np.all(np.isfinite(xp)):
            u = mean_x - xp.reshape(n_prime, -1).mean(axis=0)
            uu = float(u @ u)
            c = float(shift @ u) / uu if uu > 0 else 0.0
            if c > 0:
                candidates += [f * c * u for f in LINE_SEARCH]
        best = None
        for i, cand in enumerate(candidates):
            final = _round_shift(cand, kind).reshape(shape)
            if int_dtype:
                final = final.astype(x0.dtype)
            if not np.any(final != 0):
                continue
            _, _, loss, log_w = _round(mechanism, data, data_prime, final, pilot, seeds[MAX_ROUNDS + 1 + i],
                                       origin)
            draws += pilot
            est = _evaluate(loss, log_w, epsilon)
            if est is not None and (best is None or est[1] < best[2]):
                best = (final, *est)
    except _NotApplicable as exc:
        return TiltChoice(None, None, 0, draws, f"translation tilt not applicable: {exc}")
    if best is None:
        return TiltChoice(None, _round_shift(shift, kind).reshape(shape), rounds, draws,
                          f"no shifted pilot draw reached L > {epsilon:g}")
    final, d_hat, rv_tilt, rv_plain = best
    if not rv_tilt < rv_plain:
        return TiltChoice(None, final, rounds, draws,
                          f"the tilt t={describe_shift(final)} did not beat plain sampling on its pilot (relative "
                          f"variance {rv_tilt:.3g} vs {rv_plain:.3g})", d_hat, rv_tilt, rv_plain)
    return TiltChoice(TranslationProposal(mechanism, data, final), final, rounds, draws, "", d_hat, rv_tilt,
                      rv_plain)


def _evaluate(loss, log_w, epsilon):
    """(delta estimate, relative variance of Y = w g under the tilt, and plainly) from one evaluation
    round, or None when no draw reached L > epsilon."""
    g = _g(loss, epsilon)
    w = np.exp(np.minimum(log_w, 700.0))
    y = w * g
    d_hat = float(y.mean())
    if not d_hat > 0:
        return None
    return d_hat, float(np.mean(y * y)) / d_hat ** 2 - 1.0, float(np.mean(w * g * g)) / d_hat ** 2 - 1.0
