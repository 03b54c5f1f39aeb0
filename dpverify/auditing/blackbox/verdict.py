"""Stage 4, verdict: certified bounds -> epsilon / delta lower bounds, the delta(eps) curve, the verdict.

Each certified event E gives ``epsilon_lower = log((p1_low - delta) / p2_up)`` (or its paired bound,
when larger) and ``delta_lower(eps) = p1_low - e^eps p2_up`` (:mod:`~dpverify.auditing.blackbox.claimcheck`);
each direction of each pair reports its best event, its events and the profile eps -> delta_lower(eps)
over a grid of ``CURVE_POINTS`` (the maximum over the same certified events, so it holds for every eps of
the grid at once).

``violated`` when a certified bound contradicts the claim (or, for a claim that offers
``delta_at(eps)``, the certified curve exceeds it somewhere on the grid); ``inconclusive`` when some
event shows *evidence* against the claim short of certification: its bounds at the overall level
``EVIDENCE_ALPHA`` (each bound at ``EVIDENCE_ALPHA / (2K)``) already contradict the claim; ``not-violated``
otherwise. A pair on whose two datasets more than ``MOSTLY_RAISED_SHARE`` of the draws raised gets no
privacy verdict unless a violation was certified (MechanismError). The notes say how the samples and
alpha were spent, what raised, and where the audit stopped early.
"""
from __future__ import annotations

import math
import time

import numpy as np

from ...claims import Verdict
from ...errors import MechanismError
from ..bounds import clopper_pearson_lower, clopper_pearson_upper
from ..result import AuditResult, DirectionResult
from .budget import PAIRED_MARGIN_SHARE, PAIRED_SHARE, AlphaBudget, SamplePlan
from .claimcheck import contradicts, epsilon_lower, growth
from .outputs import PROBE_OUTPUTS
from .probe import degenerate_message, types_text
from .values import CertifiedEvent, PairRecord, direction_name

__all__ = ["decide", "EVIDENCE_ALPHA", "MOSTLY_RAISED_SHARE", "CURVE_POINTS"]

#: Overall level of the "evidence" test behind the inconclusive verdict (union bound over the 2K
#: bounds, like the certification): a correct mechanism is called inconclusive with probability
#: at most this.
EVIDENCE_ALPHA = 0.5
#: A pair on whose two datasets more than this share of the draws raised (probe, selection and
#: certification draws together) gets no privacy verdict unless a violation was certified: the
#: error outcomes are then most of what the audit saw, and an exception on both sides is far more
#: often a broken harness (a wrong ``sample`` signature, an adapter keyword the installed library
#: rejects, a wrong data parameter) than a release. A mechanism that raises on some inputs only is
#: unaffected: on a pair where one side raises and the other does not, the error outcome is a
#: privacy signal and stays one. (The probe's rule is the same with no draw to spare:
#: :func:`~dpverify.auditing.blackbox.probe.check_probes`.)
MOSTLY_RAISED_SHARE = 0.5
#: Points of the reported delta(eps) grid.
CURVE_POINTS = 33


def _best_epsilon(r: CertifiedEvent, delta: float) -> float:
    return max(float(epsilon_lower(np.array(r.p1), np.array(r.p2), delta)), r.joint)


def _curve(evs, grid: np.ndarray) -> np.ndarray:
    """The certified delta(eps) on ``grid``: the best of the events ``evs`` at each eps."""
    if not evs:
        return np.zeros_like(grid)
    p1 = np.array([r.p1 for r in evs])[:, None]
    p2 = np.array([r.p2 for r in evs])[:, None]
    return np.maximum(0.0, (p1 - np.exp(grid)[None, :] * p2).max(axis=0))


def _direction(k: int, j: int, evs: list, record: PairRecord, claim, budget: AlphaBudget, grid: np.ndarray):
    """``(DirectionResult, evidence)`` of direction ``j`` of pair ``k`` from its certified events ``evs``."""
    name = direction_name(j)
    first, second = ("D", "D'") if j == 0 else ("D'", "D")
    rows, best = [], None
    d_low = d_hat = 0.0
    evidence = False
    g = growth(claim.epsilon)
    for r in evs:
        e = _best_epsilon(r, claim.delta)
        dl = max(0.0, r.p1 - g * r.p2)
        dh = max(0.0, (r.k1 - g * r.k2) / r.n) if r.n else 0.0
        d_low, d_hat = max(d_low, dl), max(d_hat, dh)
        if r.n:
            w1 = float(clopper_pearson_lower(r.k1, r.n, budget.evidence_level(EVIDENCE_ALPHA)))
            w2 = float(clopper_pearson_upper(r.k2, r.n, budget.evidence_level(EVIDENCE_ALPHA)))
            evidence = evidence or contradicts(np.array([w1]), np.array([w2]), claim)
        # r.k1, r.p1 belong to the favoured (numerator) side: D for D->D', D' for D'->D; the
        # count keys name the dataset they were counted on, the bound keys the role
        k_d, k_dp = (r.k1, r.k2) if j == 0 else (r.k2, r.k1)
        rows.append({"family": r.family, "goal": r.goal, "event": r.text, "stage": r.stage,
                     "count_D": k_d, "count_D_prime": k_dp, "certification_samples": r.n,
                     "numerator": first, "denominator": second,
                     "p_numerator_lower": r.p1, "p_denominator_upper": r.p2,
                     "epsilon_lower": e, "delta_lower": dl,
                     "epsilon_lower_paired": r.joint if r.discordant is not None else None,
                     "discordant_pairs": r.discordant})
        if best is None or e > best[0] or (e == best[0] and dl > best[2]):
            best = (e, r, dl)
    text = "none certified" if best is None else (
        f"{best[1].text} (certified: P_{first}(E) >= {best[1].p1:.4g} from {best[1].k1}/{best[1].n}, "
        f"P_{second}(E) <= {best[1].p2:.4g} from {best[1].k2}/{best[1].n}, {best[1].stage} round)")
    if best is not None and best[1].discordant is not None and best[1].joint >= best[0] > 0:
        text += (f"; paired bound log(P_{first}(E)/P_{second}(E)) >= {best[1].joint:.4g} from "
                 f"{best[1].discordant[0]} vs {best[1].discordant[1]} discordant pairs")
    cv = _curve(evs, grid)
    level = record.level if record.level is not None else budget.default_level()
    result = DirectionResult(k, name, record.drawn, best[0] if best else 0.0, d_low, d_hat, 0,
                             extra={"event": text, "events": rows, "event_slots": budget.slots,
                                    "bound_level_final": level,
                                    "delta_curve": [[float(a), float(b)] for a, b in zip(grid, cv)]})
    return result, evidence


def _resolution_note(records: list[PairRecord], claim, budget: AlphaBudget, plan: SamplePlan, used: int) -> str | None:
    """For an inconclusive audit: the certification outputs per dataset at which the event with the largest estimated
    delta would contradict the claim if its frequencies are as seen (its counts scaled, bounds at the final level),
    or None when no event's estimate is above the claim."""
    g = growth(claim.epsilon)
    best = max(((r, rec) for rec in records for r in rec.events if r.n and (r.k1 - g * r.k2) / r.n > claim.delta),
               key=lambda t: (t[0].k1 - g * t[0].k2) / t[0].n, default=None)
    if best is None:
        return None
    r, rec = best
    level = rec.level if rec.level is not None else budget.default_level()
    n = r.n
    while n < 2 ** 40:
        n *= 2
        k1, k2 = round(r.k1 * n / r.n), round(r.k2 * n / r.n)
        if contradicts(np.array([float(clopper_pearson_lower(k1, n, level))]),
                       np.array([float(clopper_pearson_upper(k2, n, level))]), claim):
            break
    else:
        return None
    scale = used / max(plan.certification, 1)
    return (f"inconclusive: if the frequencies of the event {r.text} are as seen ({r.k1} and {r.k2} of {r.n}), its "
            f"bounds would contradict the claim by about {n} certification outputs per dataset (a doubling search; "
            f"samples={math.ceil(n * scale)} or so at this audit's split); a projection, not a promise")


def _raised_notes(mechanism, pairs, records: list[PairRecord], violated: bool) -> tuple[list, list]:
    """``(raised_draws, notes)``: per pair the draws of D and D' that raised, and the notes on raised
    draws and constant releases; MechanismError for a pair on which most draws of both datasets raised."""
    raised_draws, notes = [], []
    for k, rec in enumerate(records):
        total = PROBE_OUTPUTS + rec.drawn
        r = rec.raised.counts()
        raised_draws.append((r[0], r[1]))
        if r[0] > MOSTLY_RAISED_SHARE * total and r[1] > MOSTLY_RAISED_SHARE * total and not violated:
            raise MechanismError(degenerate_message(mechanism, k, pairs[k], rec.raised, total, "most draws"), pair=k)
        if rec.constant is not None and not (r[0] or r[1]):
            notes.append(f"every selection output of both datasets of pair {k} was the same outcome, {rec.constant}: "
                         "a constant release is private, but if the mechanism should depend on its data, check that "
                         "the data reaches it (e.g. an adapter's data_param)")
        if r[0] or r[1]:
            notes.append(f"sample raised on {r[0]} of {total} draws of D and {r[1]} of {total} draws of D' (pair {k}; "
                         f"{types_text(rec.raised.as_dicts())}): each such draw is the outcome error:<TypeName>")
    return raised_draws, notes


def _summary(best_r, plan: SamplePlan, budget: AlphaBudget, stop_early: bool, claim) -> list[str]:
    """The notes that open the result: the best event, how samples and alpha were spent, the curve."""
    split = (f"alpha split: pilot {budget.pilot:.3g}, sequential looks {budget.sequential:.3g}, final "
             f"{budget.final:.3g}; " if stop_early else "")
    return [f"best event (pair {best_r.pair_index}, {best_r.direction}): {best_r.extra['event']}",
            f"{plan.selection} selection + up to {plan.certification} certification outputs per dataset; {split}"
            f"{budget.slots} event slots, each "
            f"event's two bounds at level alpha/(2K) of its part (union bound over all pairs, directions, "
            f"families and parts)" + (
                f"; pure claim: in the final part, each pair's top event (and the other direction's, when its "
                f"score separates) also gets a paired bound on its log ratio at {PAIRED_SHARE:g} + "
                f"{PAIRED_MARGIN_SHARE:g} of that pair's share (split evenly), the Clopper-Pearson "
                f"bounds the remaining {1 - PAIRED_SHARE - PAIRED_MARGIN_SHARE:g}" if claim.delta == 0 else ""),
            "delta_curve (each direction): certified lower bounds on delta(eps) over a grid of eps, valid "
            "simultaneously"]


def decide(mechanism, pairs, records: list[PairRecord], stopped, *, claim, confidence: float, plan: SamplePlan,
            budget: AlphaBudget, stop_early: bool, notes: list[str], search, start: float) -> AuditResult:
    """The AuditResult of the rounds' ``records`` (one per pair); ``stopped`` is ``(pair, round label)``
    when a sequential look certified a violation, else None; ``notes`` the notes gathered so far."""
    all_events = [r for rec in records for j in (0, 1) for r in rec.events if r.direction == j]
    best_e = max([_best_epsilon(r, claim.delta) for r in all_events] or [0.0])
    top = max(2.0 * claim.epsilon, 1.0, 1.25 * best_e if math.isfinite(best_e) else 0.0)
    grid = np.union1d(np.linspace(0.0, min(top, 50.0), CURVE_POINTS), [claim.epsilon])
    results = []
    evidence = False
    for k, rec in enumerate(records):
        for j in (0, 1):
            res, ev = _direction(k, j, [r for r in rec.events if r.direction == j], rec, claim, budget, grid)
            results.append(res)
            evidence = evidence or ev
    best_r = max(results, key=lambda r: (r.epsilon_lower, r.delta_lower))
    overall = _curve(all_events, grid)
    violated = any(r.delta_lower > claim.delta or r.epsilon_lower > claim.epsilon for r in results)
    notes = list(notes)
    delta_at = getattr(claim, "delta_at", None)
    if callable(delta_at):
        limits = np.array([float(delta_at(float(e))) for e in grid])
        over = overall > limits
        if over.any():
            violated = True
            i = int(np.argmax(over))
            notes.append(f"the certified privacy profile exceeds the claimed curve: delta_lower({grid[i]:.3g}) = "
                         f"{overall[i]:.3g} > claim.delta_at({grid[i]:.3g}) = {limits[i]:.3g}")
        evidence = evidence or bool(np.any(overall > limits))
    raised_draws, more = _raised_notes(mechanism, pairs, records, violated)
    notes += more
    if violated:
        verdict_ = Verdict.VIOLATED
    elif evidence:
        verdict_ = Verdict.INCONCLUSIVE
    else:
        verdict_ = Verdict.NOT_VIOLATED
    used = max(rec.drawn for rec in records)
    if verdict_ is Verdict.INCONCLUSIVE:
        more_note = _resolution_note(records, claim, budget, plan, used)
        if more_note:
            notes.append(more_note)
    if stopped is not None:
        notes.append(f"stopped early: a violation was certified in the {stopped[1]} round of pair {stopped[0]} "
                     f"after {used} outputs per dataset (anytime-valid confidence sequences)")
    kb = best_r.pair_index
    return AuditResult(
        verdict=verdict_, epsilon_lower=best_r.epsilon_lower, delta_lower=max(r.delta_lower for r in results),
        delta_estimate=max(r.delta_estimate for r in results), confidence=confidence, samples=used, claim=claim,
        pair_index=kb, pair=pairs[kb], direction=best_r.direction, method="black-box",
        seconds=time.perf_counter() - start, directions=tuple(results),
        notes=tuple(_summary(best_r, plan, budget, stop_early, claim) + notes), search=search,
        event=best_r.extra["event"], raised_draws=tuple(raised_draws),
    )
