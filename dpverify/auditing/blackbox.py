"""Black-box audit: certified lower bounds on epsilon from samples of M(D) and M(D') alone.

**Method.** For every pair (D, D'), ``samples`` outputs are drawn from each of M(D) and M(D').
The first ``selection_fraction`` of them (the *selection* samples) choose events; the rest (the
*certification* samples, fresh and independent) certify them. For the direction "D->D'" the
events favour D: for each *family* (:mod:`dpverify.auditing.scores`)

* ``half-line``: ``feature >= t`` or ``feature <= t`` for every 1-D post-processing (each
  coordinate, sum, max, min; for structured outputs the numbers found in them);
* ``exact outcome``: a set of exact outcomes (discrete outputs; floats by their exact bits);
* ``outcome branch``: a set of outcomes with their numbers masked (structured outputs);
* ``learned score``: a naive-Bayes histogram log density-ratio score thresholded at ``t``,

one event maximising the *predicted certified* epsilon bound and one maximising the predicted
delta bound at ``claim.epsilon`` are chosen, over every distinct threshold (no event probability
is fixed in advance, so the reportable epsilon is not capped). The direction "D'->D" is the same
with the roles swapped.

**Certification.** Each chosen event E gets two exact one-sided Clopper-Pearson bounds from the
certification counts (a lower bound on P_D(E), an upper bound on P_D'(E)), each at level
``alpha / (2K)`` where ``alpha = 1 - confidence`` and ``K`` is the number of distinct events
certified over all pairs, directions and families: 2K bounds in all, so by the union bound they
hold together with probability >= confidence. For E,

    P_D(E) <= e^eps P_D'(E) + delta   for an (eps, delta)-DP mechanism, so
    epsilon_lower = log((p1_low - delta) / p2_up),     delta_lower(eps) = p1_low - e^eps p2_up

are lower confidence bounds on the smallest epsilon (at the claim's delta) and on delta(eps) for
the pairs tested. The result reports the best certified event in words, its pair and direction.
The verdict is ``violated`` when a bound contradicts the claim, ``inconclusive`` when the point
estimate ``p1_hat - e^eps p2_hat`` of some certified event exceeds the claim's delta without
significance, ``not-violated`` otherwise.

**Randomness and workers.** Every (pair, dataset) gets a child of the root SeedSequence and
every batch a grandchild; batch sizes depend only on the output size, so the result depends on
the seed alone, never on the number of workers. Without an ``executor``, runs of at least
:data:`AUTO_POOL_MIN_OUTPUTS` outputs use a process pool of ``min(2, cpu count)`` workers when the
mechanism and pairs can be pickled (serial otherwise; a note says so).
"""
from __future__ import annotations

import math
import os
import pickle
import time
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from typing import Any

import numpy as np

from .._validate import open_unit
from ..claims import PrivacyClaim, Verdict
from ..errors import InvalidArgument, MechanismError
from . import _runner
from .bounds import clopper_pearson_lower, clopper_pearson_upper
from .events import OutputTable, to_table
from .result import AuditResult, DirectionResult
from .scores import select_events

__all__ = ["audit_black_box", "InlineExecutor", "AUTO_POOL_MIN_OUTPUTS", "SELECTION_FRACTION", "MIN_SAMPLES"]

#: Total outputs (over pairs and datasets) from which the default run uses a process pool.
AUTO_POOL_MIN_OUTPUTS = 400_000
#: Share of the samples used to choose events (the rest certify them).
SELECTION_FRACTION = 0.4
#: Fewest samples per dataset a black-box audit accepts.
MIN_SAMPLES = 20
#: Outputs per batch at most (fewer for large outputs); fixed, so results do not depend on workers.
BATCH_OUTPUTS = 1 << 16
STRUCTURED_BATCH_OUTPUTS = 1 << 14


class InlineExecutor(Executor):
    """An executor that runs every task at once in the calling process (forces a serial audit)."""

    def submit(self, fn, /, *args, **kwargs):
        f: Future = Future()
        try:
            f.set_result(fn(*args, **kwargs))
        except BaseException as exc:  # delivered through the future, as a pool would
            f.set_exception(exc)
        return f


def _where(k: int, data: Any, data_prime: Any, which: str) -> str:
    return (f"pair {k} (data={_runner.describe(data, 40)}, data_prime={_runner.describe(data_prime, 40)}), "
            f"outputs drawn from {which}")


def _draw(mechanism: Any, data: Any, size: int, seed: np.random.SeedSequence, where: str) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = _runner.call_sampler(
        mechanism, lambda: mechanism.sample(data, size, rng), where,
        hint=(" A black-box audit treats a raising sample() as a broken mechanism; to make an error an "
              "outcome, return the exception instance (or None) as that output."))
    if isinstance(out, (list, tuple)) and not isinstance(out, np.ndarray):
        arr = np.empty(len(out), dtype=object)
        arr[:] = list(out) if not all(isinstance(o, (tuple, list)) for o in out) else [tuple(o) for o in out]
        out = arr
    return _runner.check_outputs(mechanism, out, size, where)


def _batch(mechanism, data, size, seed, where, structured) -> OutputTable:
    """Worker task: draw one batch and turn it into an OutputTable."""
    outputs = _draw(mechanism, data, size, seed, where)
    try:
        return to_table(outputs, where, structured=structured)
    except MechanismError as exc:
        raise MechanismError(f"{_runner.describe(mechanism)}.sample returned a bad output: {exc}") from None


def _merge(tables: list[OutputTable]) -> OutputTable:
    if len(tables) == 1:
        return tables[0]
    t0 = tables[0]
    if t0.kind == "structured":  # pad the number block of narrower batches with -inf
        width = max(t.features.shape[1] for t in tables) - 2
        feats = []
        for t in tables:
            w = t.features.shape[1] - 2
            block = np.full((t.size, width + 2), -np.inf)
            block[:, :w] = t.features[:, :w]
            block[:, width:] = t.features[:, w:]
            feats.append(block)
        names = tuple(f"number[{j}]" for j in range(width)) + t0.names[-2:]
    else:
        feats = [t.features for t in tables]
        names = t0.names
    examples: dict = {}
    for t in tables:
        for c, e in t.examples.items():
            if len(examples) < 256:
                examples.setdefault(c, e)
    return OutputTable(t0.kind, np.concatenate([t.codes for t in tables]),
                       np.concatenate([t.skeleton for t in tables]), np.concatenate(feats), names, examples)


def _pad_like(a: OutputTable, b: OutputTable) -> tuple[OutputTable, OutputTable]:
    """Give two structured tables the same number block (for comparing D with D')."""
    if a.kind != "structured" or a.features.shape[1] == b.features.shape[1]:
        return a, b
    merged = _merge([a, b])
    n = a.size
    return (OutputTable(a.kind, a.codes, a.skeleton, merged.features[:n], merged.names, a.examples),
            OutputTable(b.kind, b.codes, b.skeleton, merged.features[n:], merged.names, b.examples))


def _probe(mechanism, data, seed, where):
    out = _draw(mechanism, data, 1, seed, where + " (probe draw)")
    arr = np.asarray(out)
    numeric = arr.dtype.kind in "biuf"
    return numeric, (arr.shape[1:] if numeric else None), max(1, int(arr[0].size) if arr.ndim > 1 else 1)


def _auto_executor(total: int, mechanism: Any, pairs: list) -> tuple[Executor | None, str | None]:
    workers = min(2, os.cpu_count() or 1)
    if total < AUTO_POOL_MIN_OUTPUTS or workers < 2:
        return None, None
    try:
        pickle.dumps((mechanism, pairs))
    except Exception as exc:  # lambdas, open handles...: serial, said in the notes
        return None, f"ran serially: the mechanism or pairs cannot be pickled for worker processes ({type(exc).__name__})"
    import multiprocessing

    ctx = multiprocessing.get_context("fork") if "fork" in multiprocessing.get_all_start_methods() else None
    return ProcessPoolExecutor(max_workers=workers, mp_context=ctx), None


def _sets(mechanism, pairs, samples, n_sel, root, executor):
    """Yield (k, sel_D, sel_D', cert_D, cert_D') per pair; all batches of a pair run together."""
    for k, ((d, dp), seed) in enumerate(zip(pairs, root.spawn(len(pairs)))):
        sides = []
        per_side = seed.spawn(2)
        probes = []
        for which, data, s in (("D", d, per_side[0]), ("D'", dp, per_side[1])):
            probe_seed, sel_seed, cert_seed = s.spawn(3)
            probes.append(_probe(mechanism, data, probe_seed, _where(k, d, dp, which)))
            sides.append((which, data, sel_seed, cert_seed))
        structured = not (probes[0][0] and probes[1][0] and probes[0][1] == probes[1][1])
        elements = max(p[2] for p in probes)
        per = STRUCTURED_BATCH_OUTPUTS if structured else max(1, min(BATCH_OUTPUTS, _runner.BATCH_ELEMENTS // elements))
        tasks, slots = [], []
        for which, data, sel_seed, cert_seed in sides:
            for part, size, s in (("selection", n_sel, sel_seed), ("certification", samples - n_sel, cert_seed)):
                full, rest = divmod(size, per)
                sizes = [per] * full + ([rest] if rest else [])
                for bsize, bseed in zip(sizes, s.spawn(len(sizes))):
                    tasks.append((mechanism, data, bsize, bseed, _where(k, d, dp, which), structured))
                    slots.append((which, part))
        parts = _runner.run_batches(_batch, tasks, executor)
        grouped: dict = {}
        for slot, t in zip(slots, parts):
            grouped.setdefault(slot, []).append(t)
        sel1, sel2 = _pad_like(_merge(grouped[("D", "selection")]), _merge(grouped[("D'", "selection")]))
        cert1, cert2 = _merge(grouped[("D", "certification")]), _merge(grouped[("D'", "certification")])
        yield k, sel1, sel2, cert1, cert2


def _conform(table: OutputTable, like: OutputTable) -> OutputTable:
    """A certification table with the selection table's feature layout (structured outputs)."""
    if table.kind != "structured" or table.features.shape[1] == like.features.shape[1]:
        return table
    width, w = like.features.shape[1] - 2, table.features.shape[1] - 2
    block = np.full((table.size, width + 2), -np.inf)
    k = min(w, width)
    block[:, :k] = table.features[:, :k]
    block[:, width:] = table.features[:, w:]
    return OutputTable(table.kind, table.codes, table.skeleton, block, like.names, table.examples)


def audit_black_box(mechanism, pairs, *, claim: PrivacyClaim, samples: int, confidence: float, rng=None,
                    executor=None, search=None, selection_fraction: float = SELECTION_FRACTION) -> AuditResult:
    """Black-box audit (see the module docstring); called by :func:`dpverify.audit`.

    ``samples`` outputs are drawn from each dataset of each pair (selection and certification
    together). Raises MechanismError (naming the mechanism and the pair) when ``sample`` raises,
    returns the wrong number of outputs, or returns NaN.
    """
    start = time.perf_counter()
    if samples < MIN_SAMPLES:
        raise InvalidArgument(
            f"samples={samples!r} is too few for a black-box audit: it needs at least {MIN_SAMPLES} outputs per "
            "dataset (split between selecting events and certifying them); use e.g. samples=200_000."
        )
    selection_fraction = open_unit("selection_fraction", selection_fraction, fix="Use e.g. 0.4.")
    n_sel = min(samples - 1, max(1, int(round(samples * selection_fraction))))
    n_cert = samples - n_sel
    alpha = 1.0 - confidence
    notes: list[str] = []
    own_pool = None
    if executor is None:
        executor, why = _auto_executor(2 * samples * len(pairs), mechanism, pairs)
        own_pool = executor
        if why:
            notes.append(why)
    root = _runner.root_seed(rng)
    # Per (pair, direction): the selected events and their certification counts.
    chosen: list[tuple[int, str, list]] = []
    # Plan level for the selection's predictions: 2 directions x up to 4 families x 2 goals per pair.
    alpha_plan = alpha / (16 * len(pairs))
    try:
        for k, sel1, sel2, cert1, cert2 in _sets(mechanism, pairs, samples, n_sel, root, executor):
            cert1, cert2 = _conform(cert1, sel1), _conform(cert2, sel1)
            for name, a, b, ca, cb in (("D->D'", sel1, sel2, cert1, cert2), ("D'->D", sel2, sel1, cert2, cert1)):
                cands = select_events(a, b, (n_sel, n_sel, n_cert, n_cert), alpha_plan, claim.delta, claim.epsilon)
                seen, certified = set(), []
                for c in cands:
                    key = (c.family, c.event.describe())
                    if key in seen or not math.isfinite(c.predicted):
                        continue
                    seen.add(key)
                    certified.append((c, int(np.count_nonzero(c.event.contains(ca))),
                                      int(np.count_nonzero(c.event.contains(cb)))))
                chosen.append((k, name, certified))
    finally:
        if own_pool is not None:
            own_pool.shutdown()
    K = max(1, sum(len(c) for _, _, c in chosen))
    a_each = alpha / (2 * K)  # two one-sided bounds per certified event (union bound over 2K)
    eps_c = claim.epsilon
    with np.errstate(over="ignore"):
        growth = math.exp(min(eps_c, 700.0))
    results = []
    for k, name, certified in chosen:
        best = None  # (eps_lower, event text, counts)
        d_low, d_hat = 0.0, 0.0
        events = []
        for c, k1, k2 in certified:
            p1 = float(clopper_pearson_lower(k1, n_cert, a_each))
            p2 = float(clopper_pearson_upper(k2, n_cert, a_each))
            e = math.log((p1 - claim.delta) / p2) if p1 > claim.delta else 0.0
            e = max(e, 0.0)
            dl = max(0.0, p1 - growth * p2)
            dh = max(0.0, k1 / n_cert - growth * k2 / n_cert)
            d_low, d_hat = max(d_low, dl), max(d_hat, dh)
            text = f"{c.family}: {c.event.describe()}"
            events.append({"family": c.family, "goal": c.goal, "event": text, "count_D": k1, "count_D_prime": k2,
                           "p_D_lower": p1, "p_D_prime_upper": p2, "epsilon_lower": e, "delta_lower": dl})
            if best is None or e > best[0] or (e == best[0] and dl > best[3]):
                best = (e, text, (k1, k2, p1, p2), dl)
        eps_low = best[0] if best else 0.0
        first, second = ("D", "D'") if name == "D->D'" else ("D'", "D")
        event_text = "none certified" if best is None else (
            f"{best[1]} (certified: P_{first}(E) >= {best[2][2]:.4g} from {best[2][0]}/{n_cert}, "
            f"P_{second}(E) <= {best[2][3]:.4g} from {best[2][1]}/{n_cert})")
        results.append(DirectionResult(k, name, samples, eps_low, d_low, d_hat, 0,
                                       extra={"event": event_text, "events": events}))
    best_r = max(results, key=lambda r: (r.epsilon_lower, r.delta_lower))
    violated = any(r.delta_lower > claim.delta or r.epsilon_lower > claim.epsilon for r in results)
    if violated:
        verdict = Verdict.VIOLATED
    elif any(r.delta_estimate > claim.delta for r in results):
        verdict = Verdict.INCONCLUSIVE
    else:
        verdict = Verdict.NOT_VIOLATED
    notes = [f"best event (pair {best_r.pair_index}, {best_r.direction}): {best_r.extra['event']}",
             f"{n_sel} selection + {n_cert} certification outputs per dataset; {K} events certified, each at "
             f"level {a_each:.3g} (union bound over all pairs, directions and families)"] + notes
    kb = best_r.pair_index
    return AuditResult(
        verdict=verdict,
        epsilon_lower=best_r.epsilon_lower,
        delta_lower=max(r.delta_lower for r in results),
        delta_estimate=max(r.delta_estimate for r in results),
        confidence=confidence,
        samples=samples,
        claim=claim,
        pair_index=kb,
        pair=pairs[kb],
        direction=best_r.direction,
        method="black-box",
        seconds=time.perf_counter() - start,
        directions=tuple(results),
        notes=tuple(notes),
        search=search,
        event=best_r.extra["event"],
    )
