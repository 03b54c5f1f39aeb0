"""One grey-box check of a pair: record on D, replay on D', and read what the frozen draws say.

:func:`replay_pair` runs ``sample(D, 1, rng)`` under a recording :class:`~dpverify.auditing.greybox.recorder.Recorder`
and ``sample(D', 1, rng)`` replaying its draws, twice (two seeds), and reports a :class:`PairCheck`:

* **control flow** -- the first call where the replay diverged (method or size), or None;
* **parameters** -- every parameter of a draw other than a location (a scale, a probability, a bound) whose
  value differs between D and D', with both values;
* **sensitivity** -- when every draw is of one location-scale family (Laplace or Gaussian) with one scale, the
  draws' elements are as many as the output's, and the two seeds show ``output = c + k noise`` (noise = draw -
  loc; one number k for every element and both datasets), the shift Delta = c(D') - c(D) is exact, and so is
  the privacy of this pair: eps = ||Delta||_1 / (|k| b) (Laplace) or mu = ||Delta||_2 / (|k| sigma) (Gaussian,
  mu-GDP). Otherwise, with several calls, scales or families, or a Laplace/Gaussian scale that depends on the
  data, the element-by-element model of :mod:`~dpverify.auditing.greybox.compose` (a third seed); with pairs of
  geometric draws, the discrete Laplace model of :mod:`~dpverify.auditing.greybox.discrete`. With no draw at all,
  outputs that differ are left to the statistical audit. Anything else is reported as not modelled, with why.

``finding`` is set only for an exact violation of the claim by the implied privacy, judged on its lower side (eps
above a pure claim; a lower bound of delta(eps) above the claim's; an infinite eps), and only when every seed used
repeats its draws and outputs on reruns (:func:`replay_pair`). A divergence or a changed parameter is reported but
is not by itself a violation (a sparse-vector mechanism legitimately draws a data-dependent number of times).
"""
from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...claims import GDPCurve, PrivacyClaim
from ...errors import DPVerifyError
from . import compose, discrete
from .recorder import Diverged, Recorder
from .selection import try_selection

__all__ = ["PairCheck", "replay_pair", "exact_findings", "raises_apart", "implied_violation", "EPS_GRID"]

#: The eps at which a Gaussian shift's GDP curve is compared with the claim's delta(eps).
EPS_GRID = tuple(np.round(np.concatenate([np.linspace(0, 2, 41), np.linspace(2.5, 20, 36)]), 6))
_TOL = 1e-9


@dataclass(frozen=True)
class PairCheck:
    """What record and replay showed on one pair (module docstring)."""

    pair_index: int
    calls: int
    divergence: str | None = None
    parameters: tuple = ()
    family: str | None = None
    scale: float | None = None
    shift: tuple | None = None
    implied: str | None = None
    epsilon: float | None = None
    finding: str | None = None
    unmodelled: tuple = ()
    not_modelled: str | None = None
    trace: tuple = field(default=(), repr=False)
    #: The privacy of each noise call (modelled pairs only): {call, family, scale, shift_norm, eps or mu}.
    per_call: tuple = field(default=(), repr=False)
    #: The selection model tried (``report-noisy-max`` or ``sparse-vector``, :mod:`.selection`), with why it did not
    #: fit when the check is otherwise as before; None when none was tried.
    selection: str | None = None

    def to_dict(self) -> dict:
        out = self._dict()
        if self.selection is not None:  # absent otherwise: the dict of every other check is as before
            out["selection"] = self.selection
        return out

    def _dict(self) -> dict:
        return {"pair_index": self.pair_index, "calls": self.calls, "divergence": self.divergence,
                "parameters": [list(p) for p in self.parameters], "family": self.family, "scale": self.scale,
                "shift": None if self.shift is None else list(self.shift), "implied": self.implied,
                "epsilon": self.epsilon, "finding": self.finding, "unmodelled": list(self.unmodelled),
                "not_modelled": self.not_modelled, "trace": list(self.trace),
                "per_call": [dict(row) for row in self.per_call]}


def _numbers(out: Any) -> np.ndarray | None:
    """The output as a flat float array, or None when it is not numbers (then only control flow and parameters
    are checked)."""
    try:
        return np.asarray(out, dtype=float).ravel()
    except (TypeError, ValueError):
        return None


def _run(mechanism, d, dp, seed):
    rec = Recorder(np.random.default_rng(seed))
    out = _numbers(mechanism.sample(d, 1, rec))
    rep = Recorder(np.random.default_rng(seed), replay=rec.calls)
    try:
        out_p = _numbers(mechanism.sample(dp, 1, rep))
    except Diverged as exc:
        return rec, rep, out, None, str(exc)
    if len(rep.calls) != len(rec.calls):
        return rec, rep, out, out_p, (f"control flow diverged at call {len(rep.calls)}: on D "
                                      f"{rec.calls[len(rep.calls)].describe()}; on D' no more draws")
    return rec, rep, out, out_p, None


def _changed_parameters(rec, rep) -> tuple:
    out = []
    for a, b in zip(rec.calls, rep.calls):
        for (name, va), (_, vb) in zip(a.params, b.params):
            if name in ("loc", "size", "dtype", "out", "endpoint", "axis", "shuffle", "method"):
                continue
            if not np.array_equal(np.asarray(va, dtype=object), np.asarray(vb, dtype=object)):
                out.append((a.index, a.method, name, _plain(va), _plain(vb)))
    return tuple(out)


def _plain(v: Any) -> Any:
    return v.tolist() if isinstance(v, np.ndarray) else v


def _noise(calls, out) -> tuple:
    """(noise = draws - loc, family, scale, why-not) when the draws are one loc-scale family of one scale whose
    elements are as many as the output's."""
    fams = {c.family for c in calls}
    if len(fams) != 1 or "" in fams:
        return None, None, None, "draws other than one Laplace or Gaussian family"
    family = fams.pop()
    scales = {float(s) for c in calls for s in np.ravel(c.loc_scale()[1])}
    if len(scales) != 1:
        return None, None, None, "draws of several scales"
    noise = np.concatenate([np.ravel(np.asarray(c.output, float) - np.asarray(c.loc_scale()[0], float)) for c in calls])
    if noise.size != out.size:
        return None, None, None, f"{noise.size} noise elements for {out.size} output elements"
    return noise, family, scales.pop(), None


def _factor(out_a, out_b, noise_a, noise_b) -> float | None:
    """k when out = c + k noise on both seeds (k one number for every element), else None."""
    gap = noise_a - noise_b
    if np.any(gap == 0):
        return None
    with np.errstate(over="ignore", invalid="ignore"):  # outputs near the largest float: no finite k, not modelled
        k = (out_a - out_b) / gap
    if not np.all(np.isfinite(k)) or not np.allclose(k, k[0], rtol=1e-7, atol=1e-12) or k[0] == 0:
        return None
    return float(np.mean(k))


def implied_violation(family: str, scale: float, shift: np.ndarray, claim: PrivacyClaim, *,
                      shift_error: Any = 0.0, scale_error: float = 0.0) -> tuple:
    """(text of the implied privacy, its eps or None, finding or None) for an exact shift of one family's noise.

    ``shift_error`` (per element) and ``scale_error`` (relative) bound the float error of the fitted shift and scale:
    the text shows the fitted values, the decision uses the shift lowered and the scale raised by them."""
    if not np.all(np.isfinite(shift)):
        return "an infinite shift", math.inf, "the shift is infinite: D and D' are told apart with certainty"
    low = np.maximum(np.abs(shift) - np.asarray(shift_error, dtype=float), 0.0)
    scale_high = scale * (1 + scale_error)
    if family == "laplace":
        eps = float(np.sum(np.abs(shift))) / scale
        eps_low = float(np.sum(low)) / scale_high
        text = f"Laplace shift ||Delta||_1 = {eps * scale:.6g} at scale {scale:.6g}: eps = {eps:.6g}"
        if claim.delta == 0 and not claim.is_curve:
            if eps_low > claim.epsilon * (1 + _TOL) + 1e-12:
                return text, eps, f"the drawn Laplace noise gives eps = {eps:.6g} on this pair, above the claim {claim!r}"
            return text, eps, None
        if shift.size != 1:
            return text + " (an (eps, delta) or curve claim is judged for scalar outputs only)", eps, None
        from ...accounting.profiles import laplace_delta  # deferred: scipy (import dpverify loads the grey-box)

        for e in (EPS_GRID if claim.is_curve else (claim.epsilon,)):
            bound, got = claim.delta_at(float(e)), laplace_delta(eps_low, float(e))
            if bound < 1.0 and got > bound * (1 + _TOL) + 1e-15:
                return text, eps, (f"the drawn Laplace noise gives delta({e:g}) = {got:.4g} on this pair, above the "
                                   f"claim's {bound:.4g}")
        return text, eps, None
    if family == "normal":
        mu = float(np.linalg.norm(shift)) / scale
        text = f"Gaussian shift ||Delta||_2 = {mu * scale:.6g} at sigma {scale:.6g}: mu = {mu:.6g} (GDP)"
        curve = GDPCurve(mu)
        mu_low = float(np.linalg.norm(low)) / scale_high
        for e in EPS_GRID:
            bound = claim.delta_at(float(e))
            if bound < 1.0 and compose.gdp_delta_lower(mu_low, float(e)) > bound * (1 + _TOL):
                return text, None, (f"the drawn Gaussian noise gives mu = {mu:.6g}-GDP on this pair: delta({e:g}) = "
                                    f"{curve.delta_at(float(e)):.4g} > the claim's {bound:.4g}")
        return text, None, None
    return None, None, None


def replay_pair(mechanism: Any, pair: tuple, index: int, claim: PrivacyClaim, seeds=(1, 2),
                probes: bool = True) -> PairCheck:
    """The grey-box check of one pair (module docstring), on two seeds (three or more where the model needs them).

    A finding is kept only if the mechanism behaves as a function of its ``rng``: every seed used, run
    :data:`RERUNS` more times on D and D', gives the draws and outputs of its first run bit for bit
    (:func:`_reproducible`). A mechanism that also draws from a generator of its own (a scale picked by its own
    coin) is then told apart unless its own draws repeat on every rerun (a fair coin: 2^-8 per seed).
    ``probes=False`` skips the selection models (report-noisy-max, sparse vector: :mod:`.selection`), whose probe
    replays cost hundreds of outputs per pair."""
    d, dp = pair
    memo: dict = {}

    def run(seed):
        if seed not in memo:
            memo[seed] = _run(mechanism, d, dp, seed)
        return memo[seed]

    check = _check(mechanism, pair, index, claim, tuple(seeds), run)
    if probes and check.implied is None and check.finding is None and check.not_modelled and not check.divergence:
        check = try_selection(mechanism, pair, claim, [run(s) for s in seeds],
                              lambda runs: _more_runs(run, tuple(seeds), runs, 3), _changed_parameters, EPS_GRID, check)
    if check.finding and not _reproducible(mechanism, pair, memo):
        return dataclasses.replace(check, finding=None, not_modelled=(
            "randomness drawn outside rng: a seed run again gave different draws or outputs, so the replay does not "
            "freeze all of the mechanism's randomness (the finding it would give is not certain)"))
    return check


#: How many times each seed of a finding is run again (:func:`_reproducible`).
RERUNS = 4


def _reproducible(mechanism: Any, pair: tuple, memo: dict) -> bool:
    """Every seed in ``memo`` (seed -> first run), run :data:`RERUNS` more times on D and D', gives the same draws
    and outputs as its first run (bit for bit)."""
    d, dp = pair
    for s, a in memo.items():
        for _ in range(RERUNS):
            try:
                b = _run(mechanism, d, dp, s)
            except Exception:  # it did not raise on the first run: raising now is not a function of rng
                return False
            if not _same_run(a, b):
                return False
    return True


def _same_run(a, b) -> bool:
    if a[4] != b[4]:
        return False
    for x, y in ((a[2], b[2]), (a[3], b[3])):
        if (x is None) != (y is None) or (x is not None and not np.array_equal(x, y, equal_nan=True)):
            return False
    for side in (0, 1):
        ca, cb = a[side].calls, b[side].calls
        if len(ca) != len(cb) or any(u.method != v.method or not np.array_equal(np.asarray(u.output),
                                                                                np.asarray(v.output))
                                     for u, v in zip(ca, cb)):
            return False
    return True


def _check(mechanism: Any, pair: tuple, index: int, claim: PrivacyClaim, seeds, run) -> PairCheck:
    """The check itself; ``run(seed)`` runs (once per seed) record and replay."""
    d, dp = pair
    runs = [run(s) for s in seeds]
    rec, rep, out, out_p, diverged = runs[0]
    trace = tuple(c.describe() for c in rec.calls)
    unmodelled = tuple(sorted({m for r in runs for m in r[0].unmodelled + r[1].unmodelled}))
    base = dict(pair_index=index, calls=len(rec.calls), unmodelled=unmodelled, trace=trace)
    if diverged:
        return _sides(mechanism, pair, claim, base, diverged)
    params = _changed_parameters(rec, rep)
    if unmodelled:
        return PairCheck(**base, parameters=params, not_modelled=f"unmodelled generator methods: {list(unmodelled)}")
    if any(r[2] is None or r[3] is None for r in runs):
        return PairCheck(**base, parameters=params, not_modelled="outputs that are not numbers")
    if not rec.calls:
        # no draw through rng: deterministic only if each dataset gave the same output on both runs; otherwise the
        # mechanism draws its randomness elsewhere (its own generator), which replay cannot freeze
        if not all(np.array_equal(a[i], b[i], equal_nan=True) for a, b in zip(runs, runs[1:]) for i in (2, 3)):
            return PairCheck(**base, not_modelled="randomness drawn outside rng (no draw through it, and the outputs "
                                                  "changed between runs)")
        # Equal outputs on two runs do not show that the mechanism is deterministic: a sampler with its own generator
        # whose outputs take one value with high probability looks the same (a correct eps = 1 one, once in three
        # pairs; tests/auditing/test_greybox.py). So differing outputs are never an exact finding here: the
        # statistical audit judges them (a mechanism that forgot its noise is found there in a few draws).
        if np.array_equal(out, out_p, equal_nan=True):
            return PairCheck(**base, implied="no draw through rng, and equal outputs on D and D' on both runs")
        return PairCheck(**base, not_modelled="no draw through rng, and the outputs on D and D' differ: replay cannot tell "
                                              "a deterministic mechanism from one with its own generator")
    if params and not all(method in compose.FAMILIES and name == "scale" for _, method, name, _, _ in params):
        return PairCheck(**base, parameters=params, not_modelled="a parameter of the draws depends on the data")
    if params:  # only Laplace or Gaussian scales changed: the general model judges it (compose.py)
        return _general(run, seeds, runs, claim, base, params, None)
    parts = [(_noise(r[0].calls, r[2]), _noise(r[1].calls, r[3])) for r in runs]
    why = next((w for pr in parts for (_, _, _, w) in pr if w), None)
    if why:
        if discrete.is_geometric_pairs(rec.calls):
            return _discrete(run, seeds, runs, claim, base, why)
        if why.startswith("draws other than") and not all(c.family in compose.FAMILIES for c in rec.calls):
            return PairCheck(**base, not_modelled=why)
        return _general(run, seeds, runs, claim, base, (), why)
    (n0, family, scale, _), (n1, *_) = parts[0]
    (n0b, *_), (n1b, *_) = parts[1]
    (_, _, out0, out1, _), (_, _, out0b, out1b, _) = runs
    k0, k1 = _factor(out0, out0b, n0, n0b), _factor(out1, out1b, n1, n1b)
    if k0 is None or k1 is None or not np.isclose(k0, k1, rtol=1e-7):
        legacy = "the output is not a fixed part plus a multiple of the drawn noise"
        general = _general(run, seeds, runs, claim, base, (), legacy)
        if general.implied is None:
            return PairCheck(**base, family=family, scale=scale, not_modelled=legacy)
        return general
    c0, c1 = out0 - k0 * n0, out1 - k0 * n1
    scale = abs(k0) * scale  # the released noise: k x the drawn one
    shift = c1 - c0
    shift_error, scale_error = _legacy_errors(runs, k0, n0, n0b, n1, n1b)
    implied, eps, finding = implied_violation(family, scale, shift, claim, shift_error=shift_error,
                                              scale_error=scale_error)
    return PairCheck(**base, family=family, scale=scale, shift=tuple(float(x) for x in shift), implied=implied,
                     epsilon=eps, finding=finding, per_call=_legacy_per_call(rec.calls, family, scale, shift))


def _legacy_errors(runs, k, n0, n0b, n1, n1b) -> tuple:
    """(per-element shift error, relative scale error) of the one-k fit, from :func:`compose.fit_error` on D and D'
    (k's spread over the elements, allowed up to 1e-7 relative by the fit, counts in the scale error)."""
    (rec, rep, out0, out1, _), (_, _, out0b, out1b, _) = runs[:2]
    errs, rel = [], 0.0
    for calls, o, ob, n, nb in ((rec.calls, out0, out0b, n0, n0b), (rep.calls, out1, out1b, n1, n1b)):
        locs = np.concatenate([np.broadcast_to(np.asarray(c.loc_scale()[0], dtype=float),
                                               np.shape(c.output)).ravel() for c in calls])
        kk = (o - ob) / (n - nb)
        err_k, err_c = compose.fit_error(o, ob, n, nb, locs, kk)
        spread = np.abs(kk - k)  # the one k (a mean) is off each element's own by this
        errs.append(err_c + np.abs(n) * spread)
        rel = max(rel, float(np.max((err_k + spread) / abs(k))))
    return errs[0] + errs[1], rel


def _legacy_per_call(calls, family: str, scale: float, shift: np.ndarray) -> tuple:
    """Per call of the one-family, one-scale model: its elements' shift norm and eps (Laplace) or mu (Gaussian)."""
    rows, start = [], 0
    for c in calls:
        n = int(np.size(c.output))
        part = shift[start:start + n]
        start += n
        if family == "laplace":
            norm = float(np.sum(np.abs(part)))
            rows.append({"call": c.index, "family": family, "scale": scale, "shift_norm": norm, "eps": norm / scale})
        else:
            norm = float(np.linalg.norm(part))
            rows.append({"call": c.index, "family": family, "scale": scale, "shift_norm": norm, "mu": norm / scale})
    return tuple(rows)


class _LocScale:
    """A recorder's Laplace and Gaussian calls only (``calls``), for :func:`_sides`."""

    def __init__(self, rec: Recorder):
        self.calls = [c for c in rec.calls if c.family in compose.FAMILIES]


#: Seeds of the independent record runs of :func:`_sides` (D on the first of each pair, D' on the second).
SIDE_SEEDS = tuple((100 + i, 200 + i) for i in range(1, 9))


def _sides(mechanism: Any, pair: tuple, claim: PrivacyClaim, base: dict, divergence: str) -> PairCheck:
    """A diverged control flow, each dataset modelled on its own: D and D' are each *recorded* (not replayed) on
    eight seeds; when on each the output is a fixed part plus a multiple of one Laplace or Gaussian noise element
    (the general model's fit, :func:`compose.fit`, on the Laplace and Gaussian draws only, fitted on two seeds and
    the same model on every other, and every run repeated bit for bit), the two output laws are known and so is the
    privacy of the pair
    (:func:`compose.judge`: a shift, or two scales). Draws of other kinds must not reach the output (the fit on the
    third seed checks it, as it checks the affine form). Otherwise the divergence is reported, not modelled, as
    before."""
    d, dp = pair
    runs = []
    try:
        for sd, sdp in SIDE_SEEDS:
            sides = []
            for data, seed in ((d, sd), (dp, sdp)):
                outs = []
                for _ in range(3):  # the run and two reruns: a mechanism with a generator of its own is not modelled
                    rec = Recorder(np.random.default_rng(seed))
                    outs.append((rec, _numbers(mechanism.sample(data, 1, rec))))
                rec, out = outs[0]
                if out is None or rec.unmodelled or any(o is None or not np.array_equal(o, out) for _, o in outs[1:]):
                    return PairCheck(**base, divergence=divergence)
                sides.append((_LocScale(rec), out))
            runs.append((sides[0][0], sides[1][0], sides[0][1], sides[1][1], None))
    except Exception:  # a side that raises: the divergence stays as reported
        return PairCheck(**base, divergence=divergence)
    # the model fitted on the first three seeds must be the one every other seed gives with the first two: D and D'
    # are recorded on different streams, so a scale picked by a coin drawn from rng (a private scale mixture) must
    # not look like two scales; it does only if all eight seeds of each side agree (about 2^-14 for a fair coin)
    fits = [compose.fit([runs[0], runs[1], runs[j]]) for j in range(2, len(runs))]
    model = fits[0][0]
    if model is None or any(m is None or not _same_model(model, m) for m, _ in fits[1:]):
        return PairCheck(**base, divergence=divergence)
    implied, eps, finding = compose.judge(model, claim, EPS_GRID)
    implied = f"each dataset recorded on its own (the control flow diverged): {implied}"
    if finding:
        finding = f"the control flow diverged ({divergence}); each dataset recorded on its own on 8 seeds: {finding}"
    return PairCheck(**base, divergence=divergence, family=model.family[0] if len(set(model.family)) == 1 else "mixed",
                     implied=implied, epsilon=eps, finding=finding, per_call=compose.per_call(model))


def _same_model(a: "compose.Elements", b: "compose.Elements") -> bool:
    """Two fits of :func:`_sides` agree: same families and calls, scales and shifts within the fit's tolerances."""
    if a.family != b.family or not np.array_equal(a.call, b.call):
        return False
    tol = compose.SCALE_SAME
    return bool(np.all(np.abs(a.scale - b.scale) <= tol * a.scale)
                and np.all(np.abs(a.scale_prime - b.scale_prime) <= tol * a.scale_prime)
                and np.all(np.abs(a.shift - b.shift) <= a.error + b.error))


def _more_runs(run, seeds, runs, count: int) -> list:
    """``runs`` and further runs on new seeds (after the largest of ``seeds``), up to ``count`` runs in all."""
    out = list(runs)
    nxt = max(seeds) + 1
    while len(out) < count:
        out.append(run(nxt))
        nxt += 1
    return out


def _general(run, seeds, runs, claim, base, params, legacy_why) -> PairCheck:
    """Several calls, scales and families, or a data-dependent scale (compose.py), on a third seed."""
    runs = _more_runs(run, seeds, runs, 3)
    third = runs[2]
    if third[4]:
        return PairCheck(**base, parameters=params, not_modelled=f"on a third seed, {third[4]}")
    if third[2] is None or third[3] is None:
        return PairCheck(**base, parameters=params, not_modelled="outputs that are not numbers")
    model, why = compose.fit(runs)
    if model is None:  # the one-family model's reason when it got as far as the fit, else the general model's
        keep = legacy_why and not legacy_why.startswith("draws")
        return PairCheck(**base, parameters=params, not_modelled=legacy_why if keep else why)
    implied, eps, finding = compose.judge(model, claim, EPS_GRID)
    families = sorted(set(model.family))
    scales = np.unique(model.scale)
    return PairCheck(**base, parameters=params, family=families[0] if len(families) == 1 else "mixed",
                     scale=float(scales[0]) if scales.size == 1 else None,
                     shift=tuple(float(x) for x in model.shift), implied=implied, epsilon=eps, finding=finding,
                     per_call=compose.per_call(model))


def _discrete(run, seeds, runs, claim, base, legacy_why) -> PairCheck:
    """Pairs of geometric draws (discrete.py), on as many seeds as the model needs."""
    # fit_discrete numbers its runs 1, 2, ...: the runs after ``seeds`` take the seeds after the largest of them
    model, why = discrete.fit_discrete(lambda i: run(max(seeds) + i - len(seeds)), runs)
    if model is None:
        return PairCheck(**base, not_modelled=why)
    implied, eps, finding, rows = discrete.judge_discrete(model, claim, EPS_GRID)
    return PairCheck(**base, family="discrete-laplace", shift=tuple(float(x) for x in model[0]), implied=implied,
                     epsilon=eps, finding=finding, per_call=rows)


def exact_findings(mechanism: Any, pairs: list, claims: list, probes: bool = True) -> tuple:
    """``(findings, raised)`` for the unaided search's screen: ``findings`` are (index, PairCheck) of every pair whose
    replay shows an exact violation of its claim; ``raised`` the indices of the pairs whose replay raised (they
    are not judged here: the caller checks whether the raise tells the two datasets apart). ``probes``: as in
    :func:`replay_pair`."""
    out, raised = [], []
    for i, (pair, claim) in enumerate(zip(pairs, claims)):
        try:
            check = replay_pair(mechanism, pair, i, claim, probes=probes)
        except Exception:
            raised.append(i)
            continue
        if check.finding:
            out.append((i, check))
    return out, raised


def raises_apart(mechanism: Any, pair: tuple, seeds=(1, 2)) -> str | None:
    """The exception's type name when ``sample(data, 1, rng)`` raised on one dataset of ``pair`` under every seed and
    on the other under none (each dataset run on its own generator of each seed): an exception that tells the
    datasets apart on every run; else None. A screen, not a verdict: the search certifies the pair on fresh draws."""
    seen, names = [], set()
    for data in pair:
        count = 0
        for s in seeds:
            try:
                mechanism.sample(data, 1, np.random.default_rng(s))
            except DPVerifyError:
                raise
            except Exception as exc:
                count += 1
                names.add(type(exc).__name__)
        seen.append(count)
    return "/".join(sorted(names)) if sorted(seen) == [0, len(seeds)] else None
