"""Privacy events: immutable, validated descriptions of what was released.

An event says *which mechanism ran, with which parameters, under which neighbour relation*;
it does not compute anything. Composition methods (:mod:`~dpverify.accounting.basic`,
:mod:`~dpverify.accounting.rdp`, :mod:`~dpverify.accounting.pld`, ...) read events.

Every event is a frozen dataclass validated at construction: negative, zero (where the
parameter must be positive), NaN or infinite parameters, and counts below one raise
:class:`~dpverify.errors.InvalidArgument`. The meaning of an existing event class or parameter
never changes; new mechanisms get new classes.

**Neighbour relations.** Each event carries the relation its parameters refer to:

* additive-noise events (:class:`Laplace`, :class:`Gaussian`, :class:`DiscreteLaplace`,
  :class:`DiscreteGaussian`) take ``sensitivity`` to be the sensitivity of the query *under
  that relation* (for a sum of records of norm <= C: ``C`` under add/remove-one, ``2C``
  under replace-one). The privacy
  profile of the worst-case pair (output shifted by ``sensitivity``) is the same function for
  either relation; only the meaning of ``sensitivity`` changes.
* :class:`RandomizedResponse`: replace-one means the one record changes its value.
* :class:`PureDP` / :class:`ApproxDP` are black boxes with a guarantee under ``relation``.
* :class:`PoissonSubsampled` is stated for :attr:`~dpverify.NeighbourRelation.ADD_REMOVE_ONE`
  only (Poisson sampling includes each record independently, so adding or removing a record is
  the natural change); its inner event must be declared under ``ADD_REMOVE_ONE`` too, i.e.
  its ``sensitivity`` is the add/remove sensitivity of the query run on the sample.
* :class:`SampledWithoutReplacement` (fixed-size batches) is stated for
  :attr:`~dpverify.NeighbourRelation.REPLACE_ONE` only, as in Balle--Barthe--Gaboardi 2018: the
  dataset size is public and a neighbour replaces one record; the inner event is declared under
  ``REPLACE_ONE`` (its ``sensitivity`` is the replace-one sensitivity of the query on the batch).
* :class:`SelfComposed` and :class:`Composed` inherit the relation of their parts, which must
  all agree (a mix raises InvalidArgument).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterator

from .. import validation as v
from ..claims import NeighbourRelation
from ..errors import InvalidArgument

__all__ = [
    "DpEvent",
    "Laplace",
    "Gaussian",
    "RandomizedResponse",
    "DiscreteLaplace",
    "DiscreteGaussian",
    "PureDP",
    "ApproxDP",
    "PoissonSubsampled",
    "SampledWithoutReplacement",
    "ZCDP",
    "SelfComposed",
    "Composed",
    "Shuffled",
    "RandomAllocation",
    "amplified_allocation",
    "leaves",
]

_REPLACE = NeighbourRelation.REPLACE_ONE
_ADD_REMOVE = NeighbourRelation.ADD_REMOVE_ONE


def _relation(value) -> NeighbourRelation:
    if not isinstance(value, NeighbourRelation):
        raise InvalidArgument(
            f"relation={value!r} must be a NeighbourRelation (e.g. NeighbourRelation.REPLACE_ONE), "
            f"not {type(value).__name__}."
        )
    return value


class DpEvent:
    """Base class of privacy events (frozen dataclasses; see the module docstring)."""

    relation: NeighbourRelation

    def _set(self, name: str, value) -> None:
        object.__setattr__(self, name, value)

    def __repr__(self) -> str:
        import dataclasses

        parts = []
        for f in dataclasses.fields(self):
            value = getattr(self, f.name)
            if f.name == "relation":
                if not f.init or value is _REPLACE:
                    continue
                parts.append(f"relation=NeighbourRelation.{value.name}")
            else:
                parts.append(f"{f.name}={value!r}")
        return f"{type(self).__name__}({', '.join(parts)})"


@dataclass(frozen=True, repr=False)
class Laplace(DpEvent):
    """Additive Laplace noise of scale ``scale`` on a query of L1 ``sensitivity``.

    Pure ``sensitivity/scale``-DP (``lecture21-dp/lemma-1``); profile in closed form.
    """

    scale: float
    sensitivity: float = 1.0
    relation: NeighbourRelation = _REPLACE

    def __post_init__(self) -> None:
        self._set("scale", v.positive("scale", self.scale, fix="Laplace noise needs a finite scale > 0."))
        self._set("sensitivity", v.positive("sensitivity", self.sensitivity,
                                            fix="Give the query's L1 sensitivity (> 0)."))
        self._set("relation", _relation(self.relation))

    @property
    def epsilon(self) -> float:
        """The pure-DP epsilon ``sensitivity / scale``."""
        return self.sensitivity / self.scale


@dataclass(frozen=True, repr=False)
class Gaussian(DpEvent):
    """Additive Gaussian noise N(0, sigma^2) on a query of L2 ``sensitivity``.

    Its exact profile is Balle--Wang (2018) Theorem 8 with ``mu = sensitivity / sigma``.
    """

    sigma: float
    sensitivity: float = 1.0
    relation: NeighbourRelation = _REPLACE

    def __post_init__(self) -> None:
        self._set("sigma", v.positive("sigma", self.sigma, fix="Gaussian noise needs a finite sigma > 0."))
        self._set("sensitivity", v.positive("sensitivity", self.sensitivity,
                                            fix="Give the query's L2 sensitivity (> 0)."))
        self._set("relation", _relation(self.relation))

    @property
    def mu(self) -> float:
        """``sensitivity / sigma``: the mean shift of the standardised pair N(0,1) vs N(mu,1)."""
        return self.sensitivity / self.sigma


@dataclass(frozen=True, repr=False)
class RandomizedResponse(DpEvent):
    """k-ary randomized response: report the true category with probability
    ``e^epsilon / (e^epsilon + categories - 1)``, each other category with probability
    ``1 / (e^epsilon + categories - 1)``. Pure epsilon-DP; replace-one changes one record's value.
    """

    epsilon: float
    categories: int = 2
    relation: NeighbourRelation = _REPLACE

    def __post_init__(self) -> None:
        self._set("epsilon", v.positive("epsilon", self.epsilon, fix="Randomized response needs epsilon > 0."))
        self._set("categories", v.integer("categories", self.categories, minimum=2,
                                          fix="Randomized response needs at least two categories."))
        self._set("relation", _relation(self.relation))


@dataclass(frozen=True, repr=False)
class DiscreteLaplace(DpEvent):
    """Discrete Laplace noise on the integers, P(z) proportional to exp(-|z| / scale), on an
    integer-valued query of L1 ``sensitivity`` (an integer). Pure ``sensitivity/scale``-DP."""

    scale: float
    sensitivity: int = 1
    relation: NeighbourRelation = _REPLACE

    def __post_init__(self) -> None:
        self._set("scale", v.positive("scale", self.scale, fix="Discrete Laplace noise needs a scale > 0."))
        self._set("sensitivity", v.integer("sensitivity", self.sensitivity, minimum=1,
                                           fix="An integer-valued query has an integer sensitivity >= 1."))
        self._set("relation", _relation(self.relation))

    @property
    def epsilon(self) -> float:
        return self.sensitivity / self.scale


@dataclass(frozen=True, repr=False)
class DiscreteGaussian(DpEvent):
    """Discrete Gaussian noise on the integers, P(z) proportional to exp(-z^2 / (2 sigma^2))
    (Canonne--Kamath--Steinke 2020), on an integer query of L2 ``sensitivity`` (an integer)."""

    sigma: float
    sensitivity: int = 1
    relation: NeighbourRelation = _REPLACE

    def __post_init__(self) -> None:
        self._set("sigma", v.positive("sigma", self.sigma, fix="Discrete Gaussian noise needs sigma > 0."))
        self._set("sensitivity", v.integer("sensitivity", self.sensitivity, minimum=1,
                                           fix="An integer-valued query has an integer sensitivity >= 1."))
        self._set("relation", _relation(self.relation))


@dataclass(frozen=True, repr=False)
class PureDP(DpEvent):
    """A black box known only to be (epsilon, 0)-DP. Accounted as its dominating pair
    (binary randomized response with ``epsilon``), which is tight for the class."""

    epsilon: float
    relation: NeighbourRelation = _REPLACE

    def __post_init__(self) -> None:
        self._set("epsilon", v.nonnegative("epsilon", self.epsilon, fix="A DP guarantee needs a finite epsilon >= 0."))
        self._set("relation", _relation(self.relation))


@dataclass(frozen=True, repr=False)
class ApproxDP(DpEvent):
    """A black box known only to be (epsilon, delta)-DP. Accounted as its dominating pair
    (Kairouz--Oh--Viswanath 2015: randomized response plus a delta atom), tight for the class."""

    epsilon: float
    delta: float
    relation: NeighbourRelation = _REPLACE

    def __post_init__(self) -> None:
        self._set("epsilon", v.nonnegative("epsilon", self.epsilon, fix="A DP guarantee needs a finite epsilon >= 0."))
        self._set("delta", v.probability("delta", self.delta, fix="A DP guarantee needs 0 <= delta < 1."))
        self._set("relation", _relation(self.relation))


@dataclass(frozen=True, repr=False)
class ZCDP(DpEvent):
    """A black box known only to be ``rho``-zero-concentrated DP (Bun--Steinke 2016, Def. 1.1:
    ``D_alpha(M(x) || M(x')) <= rho alpha`` for every alpha > 1). Accounted by Rényi DP (it is
    its RDP curve); the PLD method refuses it (no single dominating pair exists for the class).
    """

    rho: float
    relation: NeighbourRelation = _REPLACE

    def __post_init__(self) -> None:
        self._set("rho", v.nonnegative("rho", self.rho, fix="zCDP needs a finite rho >= 0."))
        self._set("relation", _relation(self.relation))


@dataclass(frozen=True, repr=False)
class PoissonSubsampled(DpEvent):
    """Run ``event`` on a Poisson sample (each record kept independently with probability
    ``rate``). Supported inner events: :class:`Gaussian`, :class:`Laplace`, and the pure
    atom-valued :class:`PureDP`, :class:`RandomizedResponse`, :class:`DiscreteLaplace`, declared
    under ``NeighbourRelation.ADD_REMOVE_ONE``. The relation of the result is ``ADD_REMOVE_ONE``.
    For an inner dominating pair (P, Q), "remove" is dominated by ((1-q) Q + q P, Q) and "add" by
    (Q, (1-q) Q + q P) (Zhu--Dong--Wang 2022, "Optimal accounting of differential privacy via
    characteristic function", Thm 11 / Balle--Barthe--Gaboardi 2018).

    The two directions differ: "remove" compares ``(1-q) A + q B`` with ``A`` and "add" the
    reverse; methods account for both and report the worse.
    """

    event: DpEvent
    rate: float
    relation: NeighbourRelation = field(default=_ADD_REMOVE, init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.event, (Gaussian, Laplace, PureDP, RandomizedResponse, DiscreteLaplace)):
            raise InvalidArgument(
                f"event={self.event!r}: PoissonSubsampled supports Gaussian, Laplace, PureDP, RandomizedResponse "
                "and DiscreteLaplace inner events. "
                "Account for other subsampled mechanisms as ApproxDP with their amplified guarantee."
            )
        if self.event.relation is not _ADD_REMOVE:
            raise InvalidArgument(
                f"event={self.event!r} is declared under {self.event.relation.value}; Poisson subsampling is "
                "accounted under add/remove-one. Declare the inner event with "
                "relation=NeighbourRelation.ADD_REMOVE_ONE (its sensitivity to adding or removing a record)."
            )
        rate = v.probability("rate", self.rate, low_open=True, high_open=False,
                             fix="The sampling rate must lie in (0, 1].")
        self._set("rate", rate)


_SUBSAMPLED_INNER = (Gaussian, Laplace, PureDP, RandomizedResponse, DiscreteLaplace)


@dataclass(frozen=True, repr=False)
class SampledWithoutReplacement(DpEvent):
    """Run ``event`` on a uniformly random batch of ``sample_size`` distinct records out of the
    ``dataset_size`` records (fixed-size batches, sampling without replacement), under the
    replace-one relation; ``rate = sample_size / dataset_size``.

    Balle--Barthe--Gaboardi 2018 ("Privacy amplification by subsampling: tight analyses via
    couplings and divergences", sampling without replacement under the substitution relation):
    if the inner mechanism has privacy profile ``H`` under replace-one, the subsampled one has
    ``H'(log(1 + g (e^eps - 1))) <= g H(eps)`` for ``eps >= 0`` (g the rate), in both directions.
    For composition the method needs a dominating *pair*: with (P, Q) the inner pair and
    R = ((1-g) Q + g P, Q), the symmetric pair whose privacy loss has R's law above 0, its mirror
    image below 0 and an atom at 0 carrying the rest (the PLD of Dong--Roth--Su's
    ``C_g(f) = min{f_g, f_g^{-1}}**``) has exactly that profile for every eps >= 0 and, being
    symmetric, dominates both orders at every eps < 0 too; see
    :func:`dpverify.accounting.losses.privacy_loss_pmf`. Supported inner events: :class:`Gaussian`,
    :class:`Laplace`, :class:`PureDP`, :class:`RandomizedResponse`, :class:`DiscreteLaplace`.

    Add/remove-one is refused: a fixed-size batch of a dataset whose size changes is not the
    sampling scheme of these results (use :class:`PoissonSubsampled` for add/remove).
    """

    event: DpEvent
    sample_size: int
    dataset_size: int
    relation: NeighbourRelation = field(default=_REPLACE, init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.event, _SUBSAMPLED_INNER):
            raise InvalidArgument(
                f"event={self.event!r}: SampledWithoutReplacement supports Gaussian, Laplace, PureDP, "
                "RandomizedResponse and DiscreteLaplace inner events. Account for other subsampled mechanisms "
                "as ApproxDP with their amplified guarantee."
            )
        if self.event.relation is not _REPLACE:
            raise InvalidArgument(
                f"event={self.event!r} is declared under {self.event.relation.value}; sampling without "
                "replacement is accounted under replace-one (Balle--Barthe--Gaboardi 2018). Declare the inner "
                "event with relation=NeighbourRelation.REPLACE_ONE (its sensitivity to replacing a record), or "
                "use PoissonSubsampled for add/remove-one."
            )
        n = v.integer("dataset_size", self.dataset_size, minimum=1,
                      fix="Give the number of records the batch is drawn from (>= 1).")
        m = v.integer("sample_size", self.sample_size, minimum=1,
                      fix="Give the fixed batch size (>= 1).")
        if m > n:
            raise InvalidArgument(f"sample_size={self.sample_size!r} exceeds dataset_size={self.dataset_size!r}; "
                                  "a batch drawn without replacement has at most dataset_size records. "
                                  "Give sample_size <= dataset_size.")
        self._set("sample_size", m)
        self._set("dataset_size", n)

    @property
    def rate(self) -> float:
        """The sampling rate ``sample_size / dataset_size``."""
        return self.sample_size / self.dataset_size


@dataclass(frozen=True, repr=False)
class SelfComposed(DpEvent):
    """``event`` run ``count`` times (adaptively) on the same data."""

    event: DpEvent
    count: int
    relation: NeighbourRelation = field(default=_REPLACE, init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.event, DpEvent):
            raise InvalidArgument(f"event={self.event!r} must be a DpEvent, not {type(self.event).__name__}.")
        self._set("count", v.integer("count", self.count, minimum=1, fix="Compose an event at least once."))
        self._set("relation", self.event.relation)


@dataclass(frozen=True, repr=False)
class Composed(DpEvent):
    """The adaptive composition of ``events`` (a non-empty tuple), all under one relation."""

    events: tuple
    relation: NeighbourRelation = field(default=_REPLACE, init=False)

    def __post_init__(self) -> None:
        try:
            events = tuple(self.events)
        except TypeError:
            raise InvalidArgument(f"events={self.events!r} must be a sequence of DpEvent.") from None
        if not events:
            raise InvalidArgument("events=() must contain at least one DpEvent.")
        for i, e in enumerate(events):
            if not isinstance(e, DpEvent):
                raise InvalidArgument(f"events[{i}]={e!r} must be a DpEvent, not {type(e).__name__}.")
        rels = {e.relation for e in events}
        if len(rels) > 1:
            raise InvalidArgument(
                f"events mix neighbour relations {sorted(r.value for r in rels)}; a composition is accounted "
                "under one relation. Declare every event under the same NeighbourRelation."
            )
        self._set("events", events)
        self._set("relation", events[0].relation)


@dataclass(frozen=True, repr=False)
class Shuffled(DpEvent):
    """``event`` run on each batch of ``epochs`` shuffled epochs (each epoch a uniformly random
    permutation of the records cut into ``batches_per_epoch`` batches), so each record is in
    exactly one batch per epoch. The relation is that of ``event`` (its sensitivity is that of
    the query on a batch).

    **Accounted as** ``epochs`` runs of ``event`` (``SelfComposed(event, epochs)``): a certified
    upper bound (the record is used once per epoch; the other batches do not see it), with no
    amplification claimed, because no published certified amplification bound for shuffling is
    implemented here. The gap to what Poisson accounting would claim is real: shuffled DP-SGD can
    be far less private than Poisson accounting says (Chua et al. 2024; Annamalai et al. 2024);
    :func:`dpverify.accounting.shuffle_lower.shuffled_epochs_epsilon_lower` gives a certified
    *lower* bound for ``epochs`` reshuffled epochs of the Gaussian case, which exceeds the Poisson
    upper bound under the same (zero-out / add-remove) adjacency at the sigmas of docs/accounting.md."""

    event: DpEvent
    batches_per_epoch: int
    epochs: int = 1
    relation: NeighbourRelation = field(default=_REPLACE, init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.event, DpEvent) or isinstance(self.event, (Composed, SelfComposed)):
            raise InvalidArgument(f"event={self.event!r} must be one DpEvent run per batch (e.g. Gaussian(1.0)).")
        self._set("batches_per_epoch", v.integer("batches_per_epoch", self.batches_per_epoch, minimum=1,
                                                 fix="Give the number of batches in an epoch (>= 1)."))
        self._set("epochs", v.integer("epochs", self.epochs, minimum=1, fix="Give the number of epochs (>= 1)."))
        self._set("relation", self.event.relation)


@dataclass(frozen=True, repr=False)
class RandomAllocation(DpEvent):
    """``event`` run at each of ``steps`` steps, each record taking part in exactly
    ``participations`` of them chosen uniformly at random ("balls in bins", k-out-of-t; Feldman
    and Shenfeld's random allocation). The relation is that of ``event``.

    **Accounted as**, by the PLD method, for a :class:`Gaussian` under add/remove with at least two
    steps per participation: ``participations`` runs of 1-out-of-``steps // participations``
    allocation (Feldman--Shenfeld, Lemma 3.2), each with the certified PLD of its dominating pair
    (:mod:`dpverify.accounting.allocation`; the pair is Feldman--Shenfeld's Theorem 3.1 and Chua et
    al.'s "balls and bins" Theorem 1, a published premise). Every other case, and every other
    method, accounts ``participations`` runs of ``event``: a certified upper bound without the
    amplification. For ``participations = 1`` the leaf's optimistic PLD is the maximum statistic's
    cells on the same pair (:func:`dpverify.accounting.shuffle_lower.allocation_epoch_pmf`), so the
    ``lower`` of :meth:`PLDComposition.bounds <dpverify.accounting.pld.PLDComposition.bounds>` bounds it
    from below, alone or composed with other events."""

    event: DpEvent
    steps: int
    participations: int = 1
    relation: NeighbourRelation = field(default=_REPLACE, init=False)

    def __post_init__(self) -> None:
        if not isinstance(self.event, DpEvent) or isinstance(self.event, (Composed, SelfComposed)):
            raise InvalidArgument(f"event={self.event!r} must be one DpEvent run per step (e.g. Gaussian(1.0)).")
        t = v.integer("steps", self.steps, minimum=1, fix="Give the number of steps (>= 1).")
        k = v.integer("participations", self.participations, minimum=1,
                      fix="Give how many steps each record takes part in (>= 1).")
        if k > t:
            raise InvalidArgument(f"participations={k} exceeds steps={t}; a record takes part in at most every step.")
        self._set("steps", t)
        self._set("participations", k)
        self._set("relation", self.event.relation)


def leaves(event: DpEvent, count: int = 1, allocation: bool = False) -> Iterator[tuple[DpEvent, int]]:
    """Yield ``(leaf, count)`` for each non-composite event inside ``event``, in order.

    Equal leaves are not merged here (see :func:`grouped`). With ``allocation=True`` (the PLD
    accountant) a :class:`RandomAllocation` that :func:`amplified_allocation` accepts stays a leaf, as
    1-out-of-``steps // participations`` allocation run ``participations`` times (Feldman--Shenfeld's
    Lemma 3.2); otherwise it is ``participations`` runs of its event.
    """
    if isinstance(event, Composed):
        for e in event.events:
            yield from leaves(e, count, allocation)
    elif isinstance(event, SelfComposed):
        yield from leaves(event.event, count * event.count, allocation)
    elif isinstance(event, Shuffled):  # accounted as epochs runs of the event (class docstring)
        yield from leaves(event.event, count * event.epochs, allocation)
    elif isinstance(event, RandomAllocation):  # class docstring
        k = event.participations
        if allocation and amplified_allocation(event):
            yield RandomAllocation(event.event, event.steps // k), count * k
        else:
            yield from leaves(event.event, count * k, allocation)
    elif isinstance(event, DpEvent):
        yield event, count
    else:
        raise InvalidArgument(f"event={event!r} must be a DpEvent, not {type(event).__name__}.")


def amplified_allocation(event: DpEvent) -> bool:
    """Whether the PLD accountant accounts ``event`` with the amplification of random allocation: a
    :class:`RandomAllocation` of a :class:`Gaussian` under add/remove with at least two steps per
    participation (the dominating pair of :mod:`~dpverify.accounting.allocation`)."""
    return (isinstance(event, RandomAllocation) and isinstance(event.event, Gaussian)
            and event.relation is NeighbourRelation.ADD_REMOVE_ONE
            and event.steps // event.participations >= 2)


def grouped(event: DpEvent, allocation: bool = False) -> list[tuple[DpEvent, int]]:
    """Leaves of ``event`` with equal leaves merged (counts added), in first-seen order
    (``allocation``: as in :func:`leaves`)."""
    out: dict[DpEvent, int] = {}
    for leaf, c in leaves(event, allocation=allocation):
        out[leaf] = out.get(leaf, 0) + c
    return list(out.items())


def describe(event: DpEvent) -> str:
    """A short human-readable name for messages."""
    return repr(event)


def is_pure_or_approx(event: DpEvent) -> tuple[float, float] | None:
    """The (epsilon, delta) guarantee a leaf event carries by itself, or None if it has none.

    Laplace, randomized response and discrete Laplace are pure; PoissonSubsampled(Laplace) is
    pure with the amplified epsilon ``log(1 + q (e^eps - 1))`` (Balle--Barthe--Gaboardi 2018,
    add/remove relation). Gaussian-type events have no single (epsilon, delta).
    """
    if isinstance(event, PureDP):
        return event.epsilon, 0.0
    if isinstance(event, ApproxDP):
        return event.epsilon, event.delta
    if isinstance(event, (Laplace, DiscreteLaplace)):
        return event.epsilon, 0.0
    if isinstance(event, RandomizedResponse):
        return event.epsilon, 0.0
    if isinstance(event, PoissonSubsampled) and isinstance(event.event, (Laplace, PureDP, RandomizedResponse,
                                                                        DiscreteLaplace)):
        eps = event.event.epsilon
        return math.log1p(event.rate * math.expm1(eps)), 0.0
    if isinstance(event, SampledWithoutReplacement) and isinstance(event.event, (Laplace, PureDP, RandomizedResponse,
                                                                                DiscreteLaplace)):
        # Balle--Barthe--Gaboardi 2018, sampling without replacement, replace-one relation
        eps = event.event.epsilon
        return math.log1p(event.rate * math.expm1(eps)), 0.0
    return None
