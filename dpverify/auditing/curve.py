"""Audit a claim stated as a curve (rho-zCDP, Renyi DP, a privacy profile) at several of its points.

**Method.** A curve claim promises (eps, delta(eps))-DP at every eps. The audit picks ``K`` points
(eps_i, delta_i) of the curve (:meth:`dpverify.PrivacyClaim.audit_points`: where the claim's safe-side
``delta_at`` falls to 0.3, 0.1, 0.03, 0.01 and 0.001, or points the caller gives) and runs the
audit of one point (:func:`dpverify.auditing.point.audit_point`, what :func:`dpverify.audit` runs for a
plain claim) at each with the plain claim ``PrivacyClaim(eps_i, delta_i)`` and
confidence ``1 - (1 - confidence) / K`` (Bonferroni), on an independent seed per point. Because
delta_i is never below what the curve implies at eps_i, a violation at any point is a violation of
the curve claim, and by the union bound all K per-point bounds hold together with probability at
least ``confidence``.

The result is a :class:`CurveAuditResult`: the fields of the worst point's audit (the one whose
lower bound on delta exceeds its claimed delta_i by the most, violations first), the curve claim,
the overall confidence, and every point's result in ``points``. The verdict is ``violated`` when
some point is violated, ``inconclusive`` when none is but some point is inconclusive, otherwise
``not-violated``. The sample count is per point and per direction (K times the work of one audit).
"""
from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass
from typing import Any

from ..validation import as_rng, integer, nonnegative, open_unit
from ..claims import PrivacyClaim, Verdict
from ..errors import InvalidArgument
from .point import audit_point
from .result import AuditResult, jsonable

__all__ = ["audit_curve", "CurveAuditResult", "DEFAULT_POINTS"]

#: Points of the curve tested when ``points`` is not given.
DEFAULT_POINTS = 5

_RANK = {Verdict.VIOLATED: 2, Verdict.INCONCLUSIVE: 1, Verdict.NOT_VIOLATED: 0}


@dataclass(frozen=True)
class CurveAuditResult(AuditResult):
    """An :class:`AuditResult` for a curve claim: the worst point's bounds, plus every point.

    ``epsilon_lower``/``delta_lower`` are those of the worst point (at its delta_i and eps_i;
    ``worst_point`` names them); ``points`` holds each point's own AuditResult (at the per-point
    confidence ``point_confidence``).
    """

    points: tuple = ()
    worst_point: tuple = ()
    point_confidence: float = 0.0

    def to_dict(self) -> dict:
        d = super().to_dict()
        d["worst_point"] = jsonable(list(self.worst_point))
        d["point_confidence"] = self.point_confidence
        d["points"] = [{"epsilon": p.claim.epsilon, "delta": p.claim.delta, "verdict": p.verdict.value,
                        "epsilon_lower": jsonable(p.epsilon_lower), "delta_lower": jsonable(p.delta_lower),
                        "delta_estimate": jsonable(p.delta_estimate)} for p in self.points]
        return d

    def __str__(self) -> str:
        lines = [f"{self.verdict.value}: {self.claim!r} audited at {len(self.points)} points of its curve "
                 f"(confidence {self.confidence:g} overall, {self.point_confidence:.4g} per point); worst "
                 f"point eps={self.worst_point[0]:.4g}, delta={self.worst_point[1]:.3g}"]
        lines += [f"  {p}" for p in self.points]
        return "\n".join(lines)


def _margin(r: AuditResult) -> float:
    return float(r.delta_lower) - r.claim.delta


def audit_curve(mechanism: Any, pairs: Any, *, claim: PrivacyClaim | None = None, points: Any = None,
                count: int = DEFAULT_POINTS, confidence: float = 0.95, rng: Any = None,
                **options: Any) -> CurveAuditResult:
    """Audit ``mechanism`` against every point of a curve claim (default ``mechanism.claim``).

    ``points`` is an optional list of epsilons at which to test (delta_i = ``claim.delta_at(eps)``);
    otherwise ``claim.audit_points(count)``. Other keyword arguments (``samples``, ``executor``,
    white-box options) go to :func:`dpverify.auditing.point.audit_point` (the audit of one point, with
    :func:`dpverify.audit`'s options) at each point. A plain (eps, delta) claim is
    audited at its one point, so the function accepts every claim.
    """
    if claim is None:
        claim = getattr(mechanism, "claim", None)
    if not isinstance(claim, PrivacyClaim):
        raise InvalidArgument(f"claim={claim!r} must be a dpverify.PrivacyClaim, e.g. PrivacyClaim.zcdp(0.5); "
                              "pass claim= or give the mechanism a `claim`.")
    confidence = open_unit("confidence", confidence, fix="Use e.g. confidence=0.95.")
    count = integer("count", count, minimum=1)
    if points is None:
        grid = claim.audit_points(count)
    else:
        eps_list = [nonnegative(f"points[{i}]", e, fix="Audit points are epsilons >= 0.")
                    for i, e in enumerate(points)]
        if not eps_list:
            raise InvalidArgument("points=[] is empty; give at least one epsilon, or points=None.")
        grid = tuple((e, min(claim.delta_at(e), 1.0 - 1e-12)) for e in eps_list)
    for e, d in grid:
        if not d < 1.0:  # pragma: no cover - audit_points caps below 1
            raise InvalidArgument(f"the claim implies delta={d} at eps={e}: nothing to test there.")
    k = len(grid)
    point_conf = 1.0 - (1.0 - confidence) / k
    gen = as_rng(rng)
    start = time.perf_counter()
    results = []
    for e, d in grid:
        seed = int(gen.integers(0, 2**63 - 1))
        results.append(audit_point(mechanism, pairs, claim=PrivacyClaim(e, d, claim.relation), confidence=point_conf,
                                   rng=seed, **options))
    worst = max(results, key=lambda r: (_RANK[r.verdict], _margin(r)))
    verdict = max((r.verdict for r in results), key=_RANK.__getitem__)
    fields = {f.name: getattr(worst, f.name) for f in dataclasses.fields(AuditResult)}
    fields.update(verdict=verdict, claim=claim, confidence=confidence, seconds=time.perf_counter() - start,
                  notes=tuple(getattr(worst, "notes", ())) + (
                      f"curve claim audited at {k} points with Bonferroni confidence {point_conf:.6g} each; "
                      f"worst point (eps={worst.claim.epsilon:.6g}, delta={worst.claim.delta:.6g})",))
    return CurveAuditResult(**fields, points=tuple(results), worst_point=(worst.claim.epsilon, worst.claim.delta),
                            point_confidence=point_conf)
