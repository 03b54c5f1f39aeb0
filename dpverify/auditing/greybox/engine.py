"""The grey-box audit: grey-box checks first, an exact finding is the verdict, else the statistical audit decides.

See :mod:`dpverify.auditing.greybox` for the method.
"""
from __future__ import annotations

import dataclasses
import time
from typing import Any

import numpy as np

from ...claims import PrivacyClaim, Verdict
from ...errors import InvalidArgument
from ..intake import plan_audit
from ..point import with_checks
from ..result import AuditMethod, AuditResult, Direction, DirectionResult
from ..draws import root_seed
from .replay import replay_pair

#: The spawn key of the rare-branch certification's seed (apart from every stream of the statistical audit).
RARE_SPAWN_KEY = 0x72617265

__all__ = ["audit_grey_box", "mode_of", "grey_box_checks", "finding_result", "rare_result", "with_grey_box", "MODES"]

#: The audit modes besides the default (None: the statistical audit): grey-box checks first ("auto" is the same).
MODES = ("grey-box", "auto")


def mode_of(mode: Any) -> str | None:
    """``mode`` checked: None, or one of :data:`MODES`."""
    if mode is None or mode in MODES:
        return mode
    raise InvalidArgument(f"mode={mode!r} must be None (the statistical audit) or one of {MODES} (grey-box checks "
                          "first, then the statistical audit when they find nothing).")


def audit_grey_box(statistical: Any, mechanism: Any, pairs: Any, claim: PrivacyClaim, rng: Any,
                   options: Any) -> AuditResult:
    """Grey-box first (module docstring): the pairs read and checked by the intake, every pair replayed; an exact
    finding is the result, else ``statistical()`` (the audit without ``mode``) with the checks attached."""
    start = time.time()
    plan = plan_audit(mechanism, pairs, claim, rng, options)
    pair_list = list(plan.pairs)
    checks = grey_box_checks(plan.mechanism, pair_list, claim)
    if any(c.finding for c in checks):
        return with_checks(finding_result(pair_list, claim, checks, plan.confidence, start), plan.checks)
    from .steer import MAX_DRAWS, certify_rare, draws_for, find_rare_branch  # deferred: scipy

    branch = next((b for b in (find_rare_branch(plan.mechanism, p, i) for i, p in enumerate(pair_list)) if b), None)
    if branch is None or draws_for(branch, plan.samples) == 0:
        extra = () if branch is None else (f"grey-box: a rare branch on pair {branch.pair_index} ({branch.describe()}) "
                                           f"would need more than {MAX_DRAWS:,} draws per dataset to certify; not "
                                           "certified",)
        return with_grey_box(statistical(), checks, extra)
    # a rare branch that releases the data: its event certified on fresh draws at half of alpha, the statistical
    # audit at the other half (union bound; the split is decided by the replays alone)
    alpha = 1.0 - plan.confidence
    seed = np.random.SeedSequence(root_seed(plan.rng).entropy, spawn_key=(RARE_SPAWN_KEY,))
    cert = certify_rare(plan.mechanism, pair_list[branch.pair_index], branch, claim, alpha / 2, plan.samples, seed)
    if cert.violated:
        return with_checks(rare_result(pair_list, claim, checks, cert, plan.confidence, start), plan.checks)
    note = (f"grey-box: a rare branch on pair {branch.pair_index} ({branch.describe()}); its event certified at "
            f"alpha/2: {cert.describe()}: no violation; the statistical audit ran at confidence {1 - alpha / 2:.6g}")
    return with_grey_box(statistical(confidence=1 - alpha / 2), checks, (note,))


def rare_result(pairs: list, claim: PrivacyClaim, checks: tuple, cert: Any, confidence: float,
                start: float) -> AuditResult:
    """The ``violated`` result of a rare branch's certified event (``cert``: a :class:`.steer.RareCertificate`)."""
    b = cert.branch
    dirs = (DirectionResult(b.pair_index, Direction.D_TO_D_PRIME, cert.draws, cert.epsilon_lower, cert.delta_lower,
                            cert.hits_d / cert.draws, 0, {"rare_branch": b.describe(), "certificate": cert.describe()}),)
    notes = (f"grey-box rare branch on pair {b.pair_index}: {b.describe()}. Certified on fresh draws of the mechanism "
             f"at alpha/2 (the event chosen by the steered replays, not by these draws): {cert.describe()}",
             _summary(checks))
    return AuditResult(Verdict.VIOLATED, cert.epsilon_lower, cert.delta_lower, cert.hits_d / cert.draws, confidence,
                       cert.draws, claim, b.pair_index, pairs[b.pair_index], Direction.D_TO_D_PRIME,
                       AuditMethod.GREY_BOX, time.time() - start, dirs, notes, event=f"output is exactly {b.output_d!r}")


def grey_box_checks(mechanism: Any, pairs: list, claim: PrivacyClaim) -> tuple:
    """One :class:`PairCheck` per pair."""
    return tuple(replay_pair(mechanism, p, i, claim) for i, p in enumerate(pairs))


def _summary(checks: tuple) -> str:
    modelled = sum(c.implied is not None for c in checks)
    parts = [f"grey-box: {len(checks)} pair(s) replayed, {modelled} with the privacy of the drawn noise modelled"]
    for c in checks:
        if c.implied:
            parts.append(f"pair {c.pair_index}: {c.implied}")
        if c.divergence:
            parts.append(f"pair {c.pair_index}: {c.divergence}")
        for idx, method, name, a, b in c.parameters:
            parts.append(f"pair {c.pair_index}: call {idx} {method}: {name} = {a!r} on D, {b!r} on D'")
        if c.not_modelled:
            parts.append(f"pair {c.pair_index}: not modelled ({c.not_modelled})")
    return "; ".join(parts)


def finding_result(pairs: list, claim: PrivacyClaim, checks: tuple, confidence: float, start: float) -> AuditResult:
    """The ``violated`` result of the first pair with an exact finding."""
    c = next(c for c in checks if c.finding)
    eps = c.epsilon if c.epsilon is not None else claim.epsilon
    dirs = (DirectionResult(c.pair_index, Direction.D_TO_D_PRIME, 1, eps, claim.delta, claim.delta, 0,
                            {"greybox": c.to_dict()}),)
    notes = (f"grey-box finding on pair {c.pair_index} (exact, from replays: nothing sampled): {c.finding}", _summary(checks))
    return AuditResult(Verdict.VIOLATED, eps, claim.delta, claim.delta, confidence, 1, claim, c.pair_index,
                       pairs[c.pair_index], Direction.D_TO_D_PRIME, AuditMethod.GREY_BOX, time.time() - start, dirs,
                       notes)


def with_grey_box(result: AuditResult, checks: tuple, extra: tuple = ()) -> AuditResult:
    """The statistical result with the grey-box checks that found nothing attached as a note (and ``extra``)."""
    return dataclasses.replace(result, notes=tuple(result.notes) + (_summary(checks),) + tuple(extra))
