"""Empirical privacy testers: :func:`audit` dispatches to the white-box or black-box tester."""
from __future__ import annotations

from typing import Any

from .._validate import open_unit
from ..claims import PrivacyClaim
from ..errors import InvalidArgument
from ..mechanism import is_white_box
from . import _runner
from .pairs import UNCHECKED, check_pairs
from .result import AuditResult, DirectionResult

__all__ = ["audit", "AuditResult", "DirectionResult", "DEFAULT_SAMPLES"]

#: Outputs drawn per direction of each pair when ``samples`` is not given.
DEFAULT_SAMPLES = 200_000

_WHITE_BOX_DEFAULTS = {"proposal": "auto", "delta_resolution": None, "max_samples": None, "progress": None,
                       "precision": None, "profile": False}


def audit(mechanism: Any, pairs: Any, *, claim: PrivacyClaim | None = None, samples: int = DEFAULT_SAMPLES,
          confidence: float = 0.95, rng: Any = None, executor: Any = None, proposal: Any = "auto",
          delta_resolution: float | None = None, max_samples: int | None = None, progress: Any = None,
          precision: Any = None, profile: bool = False, **black_box: Any) -> AuditResult:
    """Test whether ``mechanism`` keeps ``claim`` (default: ``mechanism.claim``) on ``pairs``.

    ``pairs`` is one pair ``(D, D_prime)`` (a tuple), a list of such tuples, or a neighbour
    generator (:class:`dpverify.auditing.neighbours.NeighbourGenerator`: built-in patterns or an
    adversarial search), whose candidates are chosen on draws independent of the certifying ones
    (see ``docs/auditing.md``). Both directions of every pair are tested.
    The white-box options ``proposal``, ``delta_resolution``, ``max_samples``, ``progress``,
    ``precision`` and ``profile`` are described at :func:`dpverify.auditing.whitebox.audit_white_box`
    (``max_samples=None`` means its default). ``rng`` is a ``numpy.random.Generator``, an int seed,
    or None; ``black_box`` options (``stop_early``, ``float_bits``, ``learned``, ``selection_fraction``) go to
    :func:`dpverify.auditing.blackbox.audit_black_box`;
    ``executor`` an optional ``concurrent.futures.Executor`` over which batches are spread (the
    result depends only on the seed, not on the executor).

    White-box when the mechanism has ``log_density`` (see :mod:`dpverify.auditing.whitebox` for the
    estimator and the inequality behind each bound); black-box otherwise.

    The result's ``epsilon_lower`` and ``delta_lower`` are **lower** confidence bounds, valid
    simultaneously over all pairs and directions with probability >= ``confidence``. The verdict
    is ``violated`` when they contradict the claim, ``inconclusive`` when the point estimate of
    delta(claim.epsilon) exceeds claim.delta without significance, ``not-violated`` otherwise.
    """
    if claim is None:
        claim = getattr(mechanism, "claim", None)
        if claim is None:
            raise InvalidArgument(
                f"mechanism={_runner.describe(mechanism)} has no `claim` and claim=None; pass "
                "claim=PrivacyClaim(epsilon, delta)."
            )
    if not isinstance(claim, PrivacyClaim):
        raise InvalidArgument(
            f"claim={_runner.describe(claim)} must be a dpverify.PrivacyClaim, e.g. PrivacyClaim(1.0, 1e-5)."
        )
    if claim.is_curve:  # zCDP / Renyi / profile claims: audited at several points (auditing/curve.py)
        from .curve import audit_curve
        return audit_curve(mechanism, pairs, claim=claim, **{k: v for k, v in locals().items() if k in audit.__kwdefaults__ and k != "claim"})
    if not callable(getattr(mechanism, "sample", None)):
        raise InvalidArgument(
            f"mechanism={_runner.describe(mechanism)} has no sample(data, size, rng) method; it does not "
            "follow the dpverify.Mechanism protocol."
        )
    samples = _runner.validate_samples(samples)
    confidence = open_unit("confidence", confidence, fix="Use e.g. confidence=0.95.")
    # White-box options that differ from their defaults (black-box audits refuse them).
    white_box = {k: v for k, v in (("proposal", proposal), ("delta_resolution", delta_resolution),
                                   ("max_samples", max_samples), ("progress", progress),
                                   ("precision", precision), ("profile", profile))
                 if v is not _WHITE_BOX_DEFAULTS[k] and v != _WHITE_BOX_DEFAULTS[k]}
    from .neighbours import resolve_pairs

    pair_list, rng, search = resolve_pairs(pairs, mechanism, claim, rng)
    if is_white_box(mechanism) and black_box:
        raise InvalidArgument(f"{', '.join(f'{k}={v!r}' for k, v in black_box.items())}: these options apply to "
                              "black-box audits only, and the mechanism has log_density. Drop them.")
    if search is None:
        checks = check_pairs(pair_list, mechanism, claim.relation)
    else:
        checks = tuple(f"generator space: {search['space']['relation']} {search['space']['unit']}"
                       if isinstance(search.get("space"), dict) else "generator space" for _ in pair_list)
    if is_white_box(mechanism):
        from .whitebox import audit_white_box

        result = audit_white_box(mechanism, pair_list, claim=claim, samples=samples,
                                 confidence=confidence, rng=rng, executor=executor, search=search,
                                 **white_box)
        return _with_checks(result, checks)
    if white_box:
        raise InvalidArgument(
            f"{', '.join(f'{k}={v!r}' for k, v in white_box.items())}: these options apply to white-box "
            f"audits only, and mechanism={_runner.describe(mechanism)} has no log_density. Drop them."
        )
    from .blackbox import audit_black_box

    result = audit_black_box(mechanism, pair_list, claim=claim, samples=samples, confidence=confidence,
                             rng=rng, executor=executor, search=search, **black_box)
    return _with_checks(result, checks)


def _with_checks(result: AuditResult, checks: tuple) -> AuditResult:
    """The result with how each pair's neighbourhood was checked (and a note for unchecked pairs)."""
    import dataclasses

    notes = result.notes
    unchecked = [i for i, c in enumerate(checks) if c == UNCHECKED]
    if unchecked:
        notes = notes + (f"pairs {unchecked} unchecked: neither their records nor a neighbourhood stated by the "
                         "mechanism could confirm they are neighbours; the bounds hold for these pairs as given",)
    return dataclasses.replace(result, neighbour_checks=checks, notes=notes)
