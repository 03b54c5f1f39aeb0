"""Events are validated at construction; the accountant is atomic."""
import math

import pytest

from dpverify import InvalidArgument, NeighbourRelation, UnsupportedEvent
from dpverify.accounting import (
    Accountant, ApproxDP, Composed, DiscreteGaussian, DiscreteLaplace, Gaussian, Laplace, Method,
    PoissonSubsampled, PureDP, RandomizedResponse, SelfComposed,
)

AR = NeighbourRelation.ADD_REMOVE_ONE
nan, inf = math.nan, math.inf

BAD_EVENTS = [
    ("gaussian-negative-sigma", lambda: Gaussian(-1.0)),
    ("gaussian-nan-sigma", lambda: Gaussian(nan)),
    ("gaussian-inf-sigma", lambda: Gaussian(inf)),
    ("gaussian-zero-sensitivity", lambda: Gaussian(1.0, 0.0)),
    ("gaussian-string-sigma", lambda: Gaussian("1")),
    ("laplace-negative-scale", lambda: Laplace(-2.0)),
    ("laplace-nan-sensitivity", lambda: Laplace(1.0, nan)),
    ("rr-zero-epsilon", lambda: RandomizedResponse(0.0)),
    ("rr-one-category", lambda: RandomizedResponse(1.0, 1)),
    ("dlap-float-sensitivity", lambda: DiscreteLaplace(1.0, 1.5)),
    ("dgauss-nan", lambda: DiscreteGaussian(nan)),
    ("pure-negative", lambda: PureDP(-0.1)),
    ("approx-delta-one", lambda: ApproxDP(1.0, 1.0)),
    ("approx-delta-nan", lambda: ApproxDP(1.0, nan)),
    ("subsampled-rate-zero", lambda: PoissonSubsampled(Gaussian(1.0, relation=AR), 0.0)),
    ("subsampled-rate-big", lambda: PoissonSubsampled(Gaussian(1.0, relation=AR), 1.5)),
    ("subsampled-replace-inner", lambda: PoissonSubsampled(Gaussian(1.0), 0.1)),
    ("subsampled-unsupported-inner", lambda: PoissonSubsampled(ApproxDP(1.0, 1e-6, relation=AR), 0.1)),
    ("selfcomposed-count-zero", lambda: SelfComposed(Gaussian(1.0), 0)),
    ("selfcomposed-count-float", lambda: SelfComposed(Gaussian(1.0), 2.0)),
    ("composed-empty", lambda: Composed(())),
    ("composed-mixed-relations", lambda: Composed((Gaussian(1.0), Gaussian(1.0, relation=AR)))),
    ("relation-string", lambda: Gaussian(1.0, relation="replace-one")),
]


@pytest.mark.parametrize("build", [b for _, b in BAD_EVENTS], ids=[i for i, _ in BAD_EVENTS])
def test_bad_event_raises_invalid_argument(build):
    with pytest.raises(InvalidArgument):
        build()


def test_error_message_names_argument_and_value():
    with pytest.raises(InvalidArgument, match=r"sigma=-1\.0 must be > 0"):
        Gaussian(-1.0)


def test_events_are_frozen_and_hashable():
    g = Gaussian(2.0)
    with pytest.raises(Exception):
        g.sigma = 3.0  # type: ignore[misc]
    assert hash(g) == hash(Gaussian(2.0)) and g == Gaussian(2.0)


BAD_ACCOUNTANT_CALLS = [
    ("count-zero", lambda a: a.compose(Gaussian(1.0), 0)),
    ("count-negative", lambda a: a.compose(Gaussian(1.0), -3)),
    ("not-an-event", lambda a: a.compose("gaussian")),
    ("other-relation", lambda a: a.compose(Gaussian(1.0, relation=AR))),
]


@pytest.mark.parametrize("call", [c for _, c in BAD_ACCOUNTANT_CALLS], ids=[i for i, _ in BAD_ACCOUNTANT_CALLS])
def test_failed_compose_leaves_accountant_unchanged(call):
    acc = Accountant(Method.RDP).compose(Gaussian(3.0), 5)
    before_ledger, before_eps = acc.ledger, acc.epsilon(1e-5)
    with pytest.raises(InvalidArgument):
        call(acc)
    assert acc.ledger == before_ledger
    assert acc.epsilon(1e-5) == before_eps


@pytest.mark.parametrize("method", [Method.BASIC, Method.ADVANCED, Method.KOV, Method.RDP])
def test_unsupported_event_names_event_and_method_and_leaves_ledger(method):
    acc = Accountant(method).compose(Laplace(1.0), 3)
    before = acc.ledger
    bad = Gaussian(1.0) if method is not Method.RDP else ApproxDP(1.0, 1e-6)
    with pytest.raises(UnsupportedEvent) as info:
        acc.compose(bad)
    assert repr(bad) in str(info.value) and method.value in str(info.value)
    assert info.value.event == bad and info.value.method == method.value  # the structured fields
    assert acc.ledger == before
    assert not method.default().supports(bad)


@pytest.mark.parametrize("delta", [0.0, 1.0, -1e-5, nan, inf, 2.0], ids=str)
def test_delta_outside_open_unit_interval(delta):
    acc = Accountant(Method.RDP).compose(Gaussian(3.0))
    with pytest.raises(InvalidArgument):
        acc.epsilon(delta)


@pytest.mark.parametrize("eps", [-1.0, nan, inf], ids=str)
def test_bad_epsilon_query(eps):
    with pytest.raises(InvalidArgument):
        Accountant(Method.RDP).compose(Gaussian(3.0)).delta(eps)


def test_method_must_be_enum_not_string():
    with pytest.raises(InvalidArgument):
        Accountant("pld")


def test_empty_accountant_is_zero():
    acc = Accountant(Method.PLD)
    assert acc.epsilon(1e-5) == 0.0 and acc.delta(1.0) == 0.0
