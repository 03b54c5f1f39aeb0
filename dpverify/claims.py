"""Privacy claims, neighbour relations and verdicts: the shared vocabulary."""
from __future__ import annotations

import enum
from dataclasses import dataclass

from . import _validate as v

__all__ = ["NeighbourRelation", "PrivacyClaim", "Verdict"]


class NeighbourRelation(enum.Enum):
    """Which datasets count as neighbours."""

    #: D and D' have the same size and differ in one record (row, column or entry).
    REPLACE_ONE = "replace-one"
    #: D' is D with one record added or removed.
    ADD_REMOVE_ONE = "add-remove-one"


class Verdict(str, enum.Enum):
    """The outcome of an empirical audit. There is no "private": a test cannot prove privacy.

    ``Verdict.VIOLATED == "violated"`` is true, so results compare equal to plain strings.
    """

    #: A violation of the claim was found with the stated confidence.
    VIOLATED = "violated"
    #: The point estimate does not exceed the claim: no evidence of a violation.
    NOT_VIOLATED = "not-violated"
    #: The point estimate exceeds the claim, but not significantly at the stated confidence.
    INCONCLUSIVE = "inconclusive"
    #: The mechanism's ``log_density`` does not describe its ``sample`` (white-box audits): no
    #: privacy verdict is given, since the bounds would rest on a density the sampler does not follow.
    INCONSISTENT = "inconsistent"

    def __str__(self) -> str:  # "violated", not "Verdict.VIOLATED"
        return self.value


@dataclass(frozen=True)
class PrivacyClaim:
    """The promise "(epsilon, delta)-DP under ``relation``", validated at construction.

    ``epsilon`` must be finite and >= 0, ``delta`` in [0, 1); NaN is rejected.
    """

    epsilon: float
    delta: float = 0.0
    relation: NeighbourRelation = NeighbourRelation.REPLACE_ONE

    def __post_init__(self) -> None:
        eps = v.nonnegative("epsilon", self.epsilon, fix="A privacy claim needs a finite epsilon >= 0.")
        delta = v.probability("delta", self.delta, fix="A privacy claim needs 0 <= delta < 1.")
        if not isinstance(self.relation, NeighbourRelation):
            raise v.InvalidArgument(
                f"relation={self.relation!r} must be a NeighbourRelation "
                f"(e.g. NeighbourRelation.REPLACE_ONE), not {type(self.relation).__name__}."
            )
        object.__setattr__(self, "epsilon", eps)
        object.__setattr__(self, "delta", delta)

    def __repr__(self) -> str:
        extra = "" if self.relation is NeighbourRelation.REPLACE_ONE else f", relation={self.relation}"
        return f"PrivacyClaim(epsilon={self.epsilon!r}, delta={self.delta!r}{extra})"

    def to_dict(self) -> dict:
        return {"epsilon": self.epsilon, "delta": self.delta, "relation": self.relation.value}
