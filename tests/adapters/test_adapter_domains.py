"""Every adapter states its input domain, its claim curve over d_in and what it cannot audit (issue 29).

Against fakes with the libraries' interfaces (the real libraries: test_libraries_domains.py), and the
OpenDP domain reader on the texts OpenDP writes (no OpenDP needed).
"""
from __future__ import annotations

import json
import math
import pickle

import numpy as np
import pytest

import dpverify
from dpverify import InputDomain, InvalidArgument, NeighbourRelation, PrivacyClaim
from dpverify.adapters.base import NotPicklable, ScalarDistanceCheck, one_number, signature_accepts
from dpverify.adapters.opendp_domain import clamp_values, counts_of, domain_tree, read_domain, type_range
from dpverify.auditing.space import Norm

import _adapter_fakes as fakes

AR, RO = NeighbourRelation.ADD_REMOVE_ONE, NeighbourRelation.REPLACE_ONE


def _map(d_in):
    """A privacy map eps = d_in (a tuple d_in: its l1 part), as the claim at d_in."""
    return PrivacyClaim(float(d_in[1] if isinstance(d_in, tuple) else d_in), 0.0, AR)


# -- the OpenDP domain reader ---------------------------------------------------------------------

@pytest.mark.parametrize("text,low,high,integer,nan", [
    ("AtomDomain(T=f64)", -math.inf, math.inf, False, False),          # nan=False: OpenDP omits it from the repr
    ("AtomDomain(nan=true, T=f64)", -math.inf, math.inf, False, True),
    ("AtomDomain(bounds=[0, 10], T=i32)", 0.0, 10.0, True, False),
    ("AtomDomain(T=i32)", -(2.0 ** 31), 2.0 ** 31 - 1, True, False),
    ("AtomDomain(T=u32)", 0.0, 2.0 ** 32 - 1, True, False),
    ("AtomDomain(bounds=[-1.5, 2.0], nan=true, T=f64)", -1.5, 2.0, False, True),
])
def test_a_scalar_atom_domain_is_one_answer_with_the_types_range(text, low, high, integer, nan):
    r = read_domain(domain_tree("", text), "AbsoluteDistance(f64)", 2.0, _map)
    d = r.domain
    assert (d.kind, d.low, d.high, d.integer, d.nan, d.length, d.sensitivity) == ("answers", low, high, integer, nan,
                                                                                   1, 2.0)
    # the claim curve: d steps of the sensitivity d_in = 2 -> the map at 2d
    assert d.distances == (1, 2, 3, 6) and [d.claim_for(k, None).epsilon for k in d.distances] == [2, 4, 6, 12]
    assert all(d.admits(x) for x in d.extremes())
    pickle.loads(pickle.dumps(d))


def test_int64_ends_are_doubles_that_fit_the_type():
    low, high, integer = type_range("i64")
    assert integer and int(high) < 2 ** 63 and int(low) == -(2 ** 63) and float(int(high)) == high


@pytest.mark.parametrize("metric,relation,scale,sizes", [
    ("SymmetricDistance()", AR, 1, (0, 1, 2, 10)),
    ("InsertDeleteDistance()", AR, 1, (0, 1, 2, 10)),
    ("ChangeOneDistance()", RO, 1, (0, 1, 2, 10)),
    ("HammingDistance()", RO, 1, (0, 1, 2, 10)),
])
def test_vector_domains_are_records_under_the_metrics_relation(metric, relation, scale, sizes):
    d = read_domain(domain_tree("", "VectorDomain(AtomDomain(T=f64))"), metric, 1, _map).domain
    assert d.kind == "records" and d.relation is relation and d.sizes == sizes and not d.nan
    assert [d.claim_for(k, None).epsilon for k in d.distances] == [scale * k for k in (1, 2, 3, 6)]


def test_a_sized_vector_under_the_symmetric_distance_replaces_one_at_distance_two():
    d = read_domain(domain_tree("", "VectorDomain(AtomDomain(bounds=[0.0, 1.0], T=f64), size=10)"),
                    "SymmetricDistance()", 1, _map).domain
    assert d.relation is RO and d.sizes == (10,) and (d.low, d.high) == (0.0, 1.0)
    assert d.claim_for(3, None).epsilon == 6  # three replacements = symmetric distance 6
    assert d.claim_for(3, None).relation is RO  # the claim is stated under the domain's relation


def test_vector_under_l1_and_l2_is_an_answer_vector():
    r = read_domain(domain_tree("", "VectorDomain(AtomDomain(T=f64), size=4)"), "L2Distance(f64)", 0.5, None)
    assert (r.domain.kind, r.domain.length, r.domain.norm, r.domain.sensitivity, r.domain.distances) == (
        "answers", 4, Norm.L2, 0.5, (1,))
    assert r.convert([1, 2]) == [1.0, 2.0]


def test_a_map_under_l01inf_is_keyed_records_counted_per_key():
    text = "MapDomain { key_domain: AtomDomain(T=String), value_domain: AtomDomain(T=i32) }"
    r = read_domain(domain_tree("", text), "L01InfDistance(AbsoluteDistance(i32))", (1, 1, 1), _map)
    d = r.domain
    assert d.keys[-1] == "new" and d.relation is AR
    assert d.data([("a", 0.0), ("a", 5.0), ("new", 1.0)]) == {"a": 2, "new": 1}
    assert d.claim_for(6, None).epsilon == 6  # d records move l0, l1, linf by at most d each
    assert counts_of("String", 1, {"x": 3}) == {"x": 3}  # the library's own data passes through
    bad = read_domain(domain_tree("", text), "L01InfDistance(AbsoluteDistance(i32))", (2, 1, 1), _map)
    assert bad.domain is None and "d_in" in bad.why


def test_unread_domains_say_why_and_clamp_bounds_become_values():
    r = read_domain(domain_tree("", "SomethingElse(...)"), "SymmetricDistance()", 1, _map)
    assert r.domain is None and "does not read" in r.why
    serialized = json.dumps({"__function__": "make_chain", "__kwargs__": {"t": {"__function__": "make_clamp",
                            "__kwargs__": {"bounds": {"__tuple__": [0.0, 5.0]}}}, "d": {"__function__": "atom_domain",
                            "__kwargs__": {"bounds": {"__tuple__": [-9.0, 9.0]}}}}})
    assert clamp_values(serialized) == (0.0, 5.0)  # an atom domain's bounds are its range, not a value


def test_frame_domain_from_its_repr_never_admits_nan_it_cannot_see():
    tree = domain_tree("", "FrameDomain(x: f64, k: str; margins=[{}])")
    d = read_domain(tree, "SymmetricDistance()", 1, _map).domain
    assert d.keys is not None and not d.nan and d.relation is AR


# -- OpenDP adapter on fakes ----------------------------------------------------------------------

class _Repr:
    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


class DomainMeasurement(fakes.Measurement):
    """The fake Laplace/Gaussian with OpenDP's input_domain; ``spec["metric"]`` overrides the input metric."""

    @property
    def input_domain(self):
        return _Repr(self.spec.get("domain", "AtomDomain(T=f64)"))

    def __init__(self, spec):
        super().__init__(spec)
        self.input_metric = spec.get("metric", self.input_metric)


def _unserialisable(meas):
    if meas.spec.get("unserialisable"):
        raise Exception("OpenDP JSON Encoder does not handle Approximate<MaxDivergence>")
    return fakes.serialize(meas)


def _deserialize(text):
    return DomainMeasurement(json.loads(text)["spec"])


def make_unserialisable():
    """A module-level factory (picklable) for the fake unserialisable measurement."""
    return DomainMeasurement({"kind": "laplace", "scale": 1.0, "unserialisable": True})


@pytest.fixture
def odp(monkeypatch):
    dp = fakes.install_opendp(monkeypatch)
    monkeypatch.setattr(dp.prelude, "serialize", _unserialisable)
    monkeypatch.setattr(dp.prelude, "deserialize", _deserialize)
    return fakes.fresh_adapter(monkeypatch, "opendp")


def test_opendp_states_the_domain_and_the_map_as_a_curve(odp):
    m = odp.measurement(DomainMeasurement({"kind": "laplace", "scale": 2.0}), 1.0)
    d = pickle.loads(pickle.dumps(m)).input_domain()
    assert d.kind == "answers" and d.low == -math.inf and not d.nan
    assert [d.claim_for(k, m.claim).epsilon for k in d.distances] == [0.5, 1.0, 1.5, 3.0]  # map(k)/scale
    assert m.limitations == ()
    out = m.sample(d.data([3.0]), 4, None)  # the domain's answer vector of length 1 is the scalar the library takes
    assert out.shape == (4,) and out.dtype == float


def test_opendp_unserialisable_runs_live_and_refuses_pickling_with_the_reason(odp):
    m = odp.measurement(make_unserialisable(), 1.0)
    assert any("cannot be serialised" in x for x in m.limitations) and "factory=" in m.limitations[0]
    assert m.sample(0.0, 3, None).shape == (3,)  # it runs, in this process
    with pytest.raises(NotPicklable, match="factory="):
        pickle.dumps(m)
    r = dpverify.audit(m, (0.0, 1.0), samples=500, rng=1)  # serially: the audit does not need pickling here
    assert r.verdict.value in ("not-violated", "inconclusive", "violated")


def test_opendp_factory_rebuilds_in_each_process_and_must_pickle(odp):
    m = odp.measurement(factory=make_unserialisable, d_in=1.0)
    clone = pickle.loads(pickle.dumps(m))
    assert clone.limitations == () and clone.sample(0.0, 2, None).shape == (2,)
    assert clone.input_domain().claim_for(2, clone.claim).epsilon == 2.0
    with pytest.raises(InvalidArgument, match="cannot be pickled"):
        odp.measurement(factory=lambda: make_unserialisable(), d_in=1.0)
    with pytest.raises(InvalidArgument, match="needs meas"):
        odp.measurement(d_in=1.0)


def test_opendp_metric_it_cannot_compute_is_said_not_skipped(odp):
    m = odp.measurement(DomainMeasurement({"kind": "laplace", "scale": 1.0, "metric": "PartitionDistance(x)"}), 1.0)
    assert not hasattr(m, "check_neighbours")  # no check that passes everything silently
    assert any("not checked against the input metric PartitionDistance" in x for x in m.limitations)
    assert any("no input domain stated" in x for x in m.limitations)
    with pytest.raises(InvalidArgument, match="states no input domain"):
        m.input_domain()


def test_opendp_given_domain_replaces_the_read_one(odp):
    mine = InputDomain.answers(1, sensitivity=1.0)
    m = odp.measurement(DomainMeasurement({"kind": "laplace", "scale": 1.0, "metric": "PartitionDistance(x)"}), 1.0,
                        domain=mine)
    assert m.input_domain() is mine
    with pytest.raises(InvalidArgument, match="domain="):
        odp.measurement(DomainMeasurement({"kind": "laplace", "scale": 1.0}), 1.0, domain="records")


# -- diffprivlib on fakes: random_state by signature ----------------------------------------------

class OldLaplace(fakes.DPMechanism):
    """diffprivlib < 0.5: no random_state (draws from numpy's global generator)."""

    def __init__(self, *, epsilon, delta=0.0, sensitivity):
        self.epsilon, self.delta, self.sensitivity = epsilon, delta, sensitivity

    def randomise(self, value):
        return float(value + np.random.laplace(0.0, self.sensitivity / self.epsilon))


def old_sum(array, epsilon=1.0, bounds=None, accountant=None):
    lo, hi = bounds
    return float(np.clip(np.asarray(array, float), lo, hi).sum() + np.random.laplace(0.0, (hi - lo) / epsilon))


@pytest.fixture
def dpl(monkeypatch):
    top = fakes.install_diffprivlib(monkeypatch)
    return top, fakes.fresh_adapter(monkeypatch, "diffprivlib")


def test_diffprivlib_without_random_state_is_never_passed_it(dpl):
    top, A = dpl
    m = A.mechanism(OldLaplace(epsilon=1.0, sensitivity=1.0), kwargs={"epsilon": 1.0, "sensitivity": 1.0})
    assert not m.honours_rng and not m.reproducible
    assert any("random_state" in x and "not from the audit's rng" in x for x in m.limitations)
    a, b = m.sample(0.0, 20, np.random.default_rng(1)), m.sample(0.0, 20, np.random.default_rng(1))
    assert a.shape == (20,) and not np.array_equal(a, b)  # draws do not follow rng (said above)
    t = A.tool(old_sum, epsilon=1.0, bounds=(0.0, 1.0))
    assert not t.honours_rng and t.sample([0.5, 1.0], 3, np.random.default_rng(0)).shape == (3,)
    new = A.mechanism(top.mechanisms.Laplace(epsilon=1.0, sensitivity=1.0))
    assert new.honours_rng and not any("random_state" in x for x in new.limitations)


def test_diffprivlib_domains_state_distance_one_only(dpl):
    top, A = dpl
    m = A.mechanism(top.mechanisms.Laplace(epsilon=1.0, sensitivity=2.0))
    d = m.input_domain()
    assert (d.kind, d.sensitivity, d.distances, d.nan) == ("answers", 2.0, (1,), False)
    assert "no group privacy" in d.note
    t = A.tool(top.tools.sum, epsilon=1.0, bounds=(0.0, 3.0))
    td = pickle.loads(pickle.dumps(t)).input_domain()
    assert td.kind == "records" and td.values == (0.0, 3.0) and td.relation is RO and td.distances == (1,)
    assert not td.nan and any("NaN records are left out" in x for x in t.limitations)


class FakeAccountant:
    def __init__(self, slack=0.0):
        self.spent, self.slack = [], slack

    def spend(self, eps, delta):
        self.spent.append((eps, delta))

    def total(self):
        return sum(e for e, _ in self.spent), sum(d for _, d in self.spent)


class FakeNB:
    """A diffprivlib-like classifier: get_params/fit, noisy class means in theta_."""

    _estimator_type = "classifier"

    def __init__(self, epsilon=1.0, bounds=None, random_state=None, accountant=None):
        self.epsilon, self.bounds, self.random_state, self.accountant = epsilon, bounds, random_state, accountant

    def get_params(self, deep=True):
        return {"epsilon": self.epsilon, "bounds": self.bounds, "random_state": self.random_state,
                "accountant": self.accountant}

    def fit(self, X, y):
        rs = self.random_state
        classes = np.unique(y)
        self.theta_ = np.array([[np.clip(X[y == c], *self.bounds).mean()] for c in classes]) + rs.laplace(0, 1, (len(classes), 1))
        return self


def test_diffprivlib_models_and_sequences_on_fakes(dpl, monkeypatch):
    top, A = dpl
    monkeypatch.setattr(top, "BudgetAccountant", FakeAccountant)
    M = fakes.fresh_adapter(monkeypatch, "diffprivlib_models")
    m = M.model(FakeNB(epsilon=0.5, bounds=(0.0, 1.0)))
    d = m.input_domain()
    assert m.claim == PrivacyClaim(0.5) and d.keys == (0, 1, 2) and 0 not in d.sizes and not d.nan
    assert any("reads its classes from the data" in x for x in m.limitations)
    data = [(0, 0.2), (1, 0.9), (0, 0.4)]
    a = m.sample(data, 3, np.random.default_rng(5))
    assert a.shape == (3, 2) and np.array_equal(a, pickle.loads(pickle.dumps(m)).sample(data, 3, np.random.default_rng(5)))
    with pytest.raises(InvalidArgument, match="unfitted diffprivlib.models"):
        M.model(object())
    s = M.sequence([(top.tools.sum, {"epsilon": 0.25, "bounds": (0.0, 1.0)}),
                    (top.tools.sum, {"epsilon": 0.5, "bounds": (0.0, 2.0)})])
    assert s.claim == PrivacyClaim(0.75) and s.input_domain().values == (0.0, 1.0, 2.0)
    assert s.sample([0.5, 1.0], 4, np.random.default_rng(0)).shape == (4, 2)
    with pytest.raises(InvalidArgument, match="accountant"):
        M.sequence([(top.tools.sum, {"epsilon": 1.0, "accountant": None})])


# -- PyDP and Tumult on fakes; shared pieces -------------------------------------------------------

def test_pydp_and_tmlt_domains_on_fakes(monkeypatch):
    fp = fakes.install_pydp(monkeypatch)
    P = fakes.fresh_adapter(monkeypatch, "pydp")
    m = P.mechanism(fp.algorithms.numerical_mechanisms.LaplaceMechanism, epsilon=1.0, sensitivity=1.0)
    assert m.input_domain().kind == "answers" and m.sample(np.array([2.0]), 2, None).shape == (2,)
    s = P.algorithm(fp.algorithms.laplacian.BoundedSum, epsilon=1.0, lower_bound=0, upper_bound=1, dtype="float")
    sd = pickle.loads(pickle.dumps(s)).input_domain()
    assert sd.relation is AR and sd.values == (0.0, 1.0) and sd.nan and sd.distances == (1,)
    fakes.install_tmlt(monkeypatch)
    T = fakes.fresh_adapter(monkeypatch, "tmlt")
    g = T.measurement(fakes.AddGeometricNoise(2, 1), d_in=1)
    gd = g.input_domain()
    assert gd.integer and gd.distances == (1, 2, 3, 6)
    assert [round(gd.claim_for(k, g.claim).epsilon, 9) for k in (1, 6)] == [0.5, 3.0]


def test_shared_pieces():
    assert signature_accepts(OldLaplace, "random_state") is False
    assert signature_accepts(fakes.Laplace, "random_state") is True
    assert signature_accepts(lambda x, **kw: x, "random_state") is True
    assert one_number(np.array([2.5])) == 2.5 and one_number(3) == 3.0
    with pytest.raises(InvalidArgument, match="one number"):
        one_number([1.0, 2.0])
    ScalarDistanceCheck(1.0)(np.array([0.0]), np.array([1.0]))  # length-1 answer vectors are numbers
    with pytest.raises(InvalidArgument, match="exceeds"):
        ScalarDistanceCheck(1.0)(np.array([0.0]), np.array([1.5]))
