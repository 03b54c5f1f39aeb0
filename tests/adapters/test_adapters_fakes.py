"""Adapters against small fakes with the libraries' interfaces (the real libraries: test_libraries.py)."""
from __future__ import annotations

import pickle
import sys

import numpy as np
import pytest

import dpverify
from dpverify import InvalidArgument, NeighbourRelation, PrivacyClaim
from dpverify.adapters import absent_records
from dpverify.adapters.base import as_outputs

import _adapter_fakes as fakes

ADAPTERS = [("opendp", "opendp"), ("diffprivlib", "diffprivlib"), ("pydp", "pydp"),
            ("pipeline_dp", "pipeline_dp"), ("tmlt", "tmlt"), ("smartnoise", "snsql")]


@pytest.mark.parametrize("adapter,module", ADAPTERS)
def test_import_without_the_library_says_how_to_install(monkeypatch, adapter, module):
    monkeypatch.setitem(sys.modules, module, None)  # makes `import module` fail
    for sub in [m for m in list(sys.modules) if m.startswith(module + ".")]:
        monkeypatch.setitem(sys.modules, sub, None)
    with pytest.raises(ImportError) as info:
        fakes.fresh_adapter(monkeypatch, adapter)
    msg = str(info.value)
    assert "\n" not in msg and "pip install" in msg and f"dpverify[{adapter}]" in msg


def test_import_dpverify_loads_no_library():
    import subprocess

    code = ("import sys, dpverify, dpverify.adapters; "
            "print(sorted(m for m in ('opendp', 'diffprivlib', 'pydp', 'pipeline_dp', 'tmlt', 'snsql') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


# -- diffprivlib ----------------------------------------------------------------------------------

def test_diffprivlib_mechanism_claim_seed_and_pickle(monkeypatch):
    dl = fakes.install_diffprivlib(monkeypatch)
    A = fakes.fresh_adapter(monkeypatch, "diffprivlib")
    m = A.mechanism(dl.mechanisms.Laplace(epsilon=0.5, sensitivity=2.0))
    assert m.claim == PrivacyClaim(0.5, 0.0) and m.honours_rng and m.reproducible
    a = m.sample(1.0, 50, np.random.default_rng(7))
    b = pickle.loads(pickle.dumps(m)).sample(1.0, 50, np.random.default_rng(7))
    assert a.dtype == float and np.array_equal(a, b)  # seeded from rng through random_state
    assert not np.array_equal(a, m.sample(1.0, 50, np.random.default_rng(8)))
    with pytest.raises(InvalidArgument, match="sensitivity"):
        m.check_neighbours(0.0, 2.5)
    with pytest.raises(InvalidArgument, match="diffprivlib.mechanisms"):
        A.mechanism(object())


def test_diffprivlib_audit_keeps_a_correct_laplace_and_catches_a_lying_one(monkeypatch):
    # Black-box, 20k samples per direction: the correct one has true epsilon = the claim, so a false
    # `violated` has probability <= 0.05 (the audit's guarantee); the lying one (half the noise) is
    # 2-DP against a claim of 1: certified epsilon_lower ~1.7 at this size, far above 1.
    dl = fakes.install_diffprivlib(monkeypatch)
    A = fakes.fresh_adapter(monkeypatch, "diffprivlib")
    good = dpverify.audit(A.mechanism(dl.mechanisms.Laplace(epsilon=1.0, sensitivity=1.0)), (0.0, 1.0),
                          samples=20_000, rng=3)
    bad = dpverify.audit(A.mechanism(dl.mechanisms.HalfNoiseLaplace(epsilon=1.0, sensitivity=1.0)), (0.0, 1.0),
                         samples=20_000, rng=3)
    assert good.verdict != "violated"
    assert bad.verdict == "violated" and bad.epsilon_lower > 1.3


def test_diffprivlib_tool_truncated_sum_under_add_remove(monkeypatch):
    # The output range [n lo, n hi] depends on n: with records in [0, 1], D = [1, 1] never outputs
    # above 2 while D' = [1, 1, 1] does half the time, so the loss is infinite (violated at any eps).
    dl = fakes.install_diffprivlib(monkeypatch)
    A = fakes.fresh_adapter(monkeypatch, "diffprivlib")
    s = A.tool(dl.tools.sum, epsilon=1.0, bounds=(0.0, 1.0), relation=NeighbourRelation.ADD_REMOVE_ONE)
    r = dpverify.audit(s, ([1.0, 1.0], [1.0, 1.0, 1.0]), samples=5_000, rng=1)
    assert r.verdict == "violated" and r.epsilon_lower > 3
    # the same through same-size padding (NaN marks the absent record)
    p = A.tool(dl.tools.sum, epsilon=1.0, bounds=(0.0, 1.0), relation=NeighbourRelation.ADD_REMOVE_ONE,
               absent=float("nan"))
    r2 = dpverify.audit(p, ([1.0, 1.0, float("nan")], [1.0, 1.0, 1.0]), samples=5_000, rng=1)
    assert r2.verdict == "violated"
    # replace-one keeps n fixed, but truncating by rejection renormalises the two laws differently:
    # sums 2 and 1 on [0, 2] with Lap(1) have loss 1 + log((1 - e^-1) / ((1 - e^-2) / 2)) = 1.381 at
    # output 2, so even replace-one is not 1-DP. The audit's lower bound may show it but never exceeds
    # the truth (a lower confidence bound; failure probability <= 0.05).
    q = A.tool(dl.tools.sum, epsilon=1.0, bounds=(0.0, 1.0))
    true_eps = 1 + np.log(-np.expm1(-1.0) / (-np.expm1(-2.0) / 2))
    assert dpverify.audit(q, ([1.0, 1.0], [1.0, 0.0]), samples=5_000, rng=1).epsilon_lower <= true_eps
    with pytest.raises(InvalidArgument, match="epsilon"):
        A.tool(dl.tools.sum, bounds=(0, 1))
    with pytest.raises(InvalidArgument, match="random_state"):
        A.tool(dl.tools.sum, epsilon=1.0, random_state=1)


def test_structured_outputs_are_audited_as_they_come(monkeypatch):
    # strings from a fake tool (randomized response with p = e/(1+e)): exactly eps-DP, so not violated,
    # and a claim of eps/4 is violated (true epsilon 1 vs 0.25).
    dl = fakes.install_diffprivlib(monkeypatch)
    A = fakes.fresh_adapter(monkeypatch, "diffprivlib")
    rr = A.tool(fakes.fake_choice, epsilon=1.0)
    out = rr.sample([True], 10, np.random.default_rng(0))
    assert isinstance(out, list) and set(out) <= {"yes", "no"}
    assert dpverify.audit(rr, ([True], [False]), samples=3_000, rng=2).verdict != "violated"
    r = dpverify.audit(rr, ([True], [False]), claim=PrivacyClaim(0.25), samples=3_000, rng=2)
    assert r.verdict == "violated"


@pytest.mark.parametrize("values,kind", [
    ([1.0, np.float64(2.0)], "f"), ([1, np.int64(2)], "i"), ([True, np.bool_(False)], "b"),
    ([np.array([1.0, 2.0]), np.array([3.0, 4.0])], "f2"),
])
def test_as_outputs_numeric(values, kind):
    out = as_outputs(values)
    assert isinstance(out, np.ndarray) and out.dtype.kind == kind[0] and len(out) == 2


@pytest.mark.parametrize("values", [["a", "b"], [(1, "x"), (2, "y")], [((("p", (1.0, 2.0)),)), ()],
                                    [1, "mixed"]])
def test_as_outputs_structured_kept(values):
    assert as_outputs(values) == list(values)


def test_absent_records():
    assert absent_records([1.0, float("nan"), 2.0], float("nan")) == [1.0, 2.0]
    np.testing.assert_array_equal(absent_records(np.array([[1, 2], [-1, -1]]), -1), [[1, 2]])
    assert absent_records([1, 2], None) == [1, 2]


# -- opendp ---------------------------------------------------------------------------------------

def test_opendp_claim_from_the_measure_and_rebuild(monkeypatch):
    dp = fakes.install_opendp(monkeypatch)
    A = fakes.fresh_adapter(monkeypatch, "opendp")
    lap = A.measurement(dp.prelude.Measurement({"kind": "laplace", "scale": 2.0}), 1.0)
    assert lap.claim == PrivacyClaim(0.5) and not lap.honours_rng and not lap.reproducible
    gau = A.measurement(dp.prelude.Measurement({"kind": "gaussian", "scale": 1.0}), 1.0)
    assert gau.claim == PrivacyClaim.zcdp(0.5) and gau.claim.is_curve
    clone = pickle.loads(pickle.dumps(gau))  # the fake Measurement itself refuses to pickle
    assert clone.sample(0.0, 5, np.random.default_rng(0)).shape == (5,)
    with pytest.raises(InvalidArgument, match="d_in"):
        lap.check_neighbours(0.0, 1.5)
    with pytest.raises(InvalidArgument, match="opendp Measurement"):
        A.measurement(42, 1.0)


def test_opendp_compositor_refuses_what_it_cannot_run(monkeypatch):
    dp = fakes.install_opendp(monkeypatch)
    A = fakes.fresh_adapter(monkeypatch, "opendp")
    lap = dp.prelude.Measurement({"kind": "laplace", "scale": 2.0})
    with pytest.raises(InvalidArgument, match="needs meas"):
        A.compositor()
    with pytest.raises(InvalidArgument, match="must be an opendp Measurement"):
        A.compositor(42, [lap])
    with pytest.raises(InvalidArgument, match=r"queries\[0\]=42 must be an opendp Measurement"):
        A.compositor(lap, [42])
    with pytest.raises(InvalidArgument, match="queries=5 must be a list"):
        A.compositor(lap, 5)
    with pytest.raises(InvalidArgument, match="not both"):
        A.compositor(lap, [lap], factory=lambda: (lap, [lap]))
    with pytest.raises(InvalidArgument, match="give one or the other"):
        A.compositor(queries=[lap], factory=lambda: (lap, [lap]))


def test_opendp_zcdp_claim_audited_on_its_curve(monkeypatch):
    # A Gaussian with scale 1 at d_in = 1 is 0.5-zCDP; claimed as such it is not violated (the audit
    # tests 5 points; false alarm <= 0.05 overall).
    dp = fakes.install_opendp(monkeypatch)
    A = fakes.fresh_adapter(monkeypatch, "opendp")
    gau = A.measurement(dp.prelude.Measurement({"kind": "gaussian", "scale": 1.0}), 1.0)
    r = dpverify.audit(gau, (0.0, 1.0), samples=2_000, rng=4)
    assert len(r.points) == 5 and r.verdict != "violated"


# -- PyDP -----------------------------------------------------------------------------------------

def test_pydp_rebuilds_from_class_reference_and_drains_once_per_process(monkeypatch):
    fp = fakes.install_pydp(monkeypatch)
    A = fakes.fresh_adapter(monkeypatch, "pydp")
    m = A.mechanism(fp.algorithms.numerical_mechanisms.LaplaceMechanism, epsilon=2.0, sensitivity=1.0)
    assert m.claim == PrivacyClaim(2.0) and not m.honours_rng
    clone = pickle.loads(pickle.dumps(m))  # the fake object refuses pickling, as pybind11's does
    assert clone.sample(0.0, 4, None).shape == (4,)
    with pytest.raises(InvalidArgument, match="sensitivity"):
        m.check_neighbours(0.0, 3.0)
    s = A.algorithm(fp.algorithms.laplacian.BoundedSum, epsilon=1.0, lower_bound=0, upper_bound=1, dtype="float")
    assert s.claim.relation is NeighbourRelation.ADD_REMOVE_ONE
    assert s.sample([1.0, 1.0], 3, None).dtype == float
    with pytest.raises(InvalidArgument, match="numerical mechanism"):
        A.mechanism(object)


# -- Tumult ---------------------------------------------------------------------------------------

def test_tmlt_claim_rounds_exact_numbers_up(monkeypatch):
    ft = fakes.install_tmlt(monkeypatch)
    A = fakes.fresh_adapter(monkeypatch, "tmlt")
    m = A.measurement(fakes.AddGeometricNoise(3, 1), d_in=1)  # eps = 1/3 exactly
    from fractions import Fraction

    assert Fraction(m.claim.epsilon) >= Fraction(1, 3) and m.claim.epsilon == pytest.approx(1 / 3)
    z = A.measurement(fakes.AddGeometricNoise(2, 1, zcdp=True), d_in=1)
    assert z.claim == PrivacyClaim.zcdp(0.5)
    assert pickle.loads(pickle.dumps(m)).sample(3, 5, None).dtype.kind == "i"
    with pytest.raises(InvalidArgument, match="d_in"):
        m.check_neighbours(0, 2)


def test_bound_pairs_put_the_changed_record_at_a_bound():
    from dpverify.adapters import bound_pairs

    ar = bound_pairs([0.5, 1.0], 0.0, 1.0, NeighbourRelation.ADD_REMOVE_ONE)
    assert ar == [([0.5, 1.0], [0.5, 1.0, 1.0]), ([0.5, 1.0], [0.5, 1.0, 0.0]), ([0.5, 1.0], [1.0])]
    ro = bound_pairs([1.0, 0.5], 0.0, 1.0, NeighbourRelation.REPLACE_ONE)
    assert ro == [([1.0, 0.5], [0.0, 0.5])]  # replacing 1.0 by the upper bound 1.0 changes nothing: left out
    arr = bound_pairs(np.array([0.2]), -1.0, 1.0, NeighbourRelation.REPLACE_ONE)
    assert all(isinstance(d, np.ndarray) for pair in arr for d in pair)
    with pytest.raises(InvalidArgument, match="lower"):
        bound_pairs([1.0], 2.0, 1.0, NeighbourRelation.REPLACE_ONE)
    with pytest.raises(InvalidArgument, match="upper"):
        bound_pairs([1.0], 0.0, float("nan"), NeighbourRelation.REPLACE_ONE)


def test_bound_pairs_feed_an_audit_of_the_truncated_sum(monkeypatch):
    dl = fakes.install_diffprivlib(monkeypatch)
    A = fakes.fresh_adapter(monkeypatch, "diffprivlib")
    from dpverify.adapters import bound_pairs

    s = A.tool(dl.tools.sum, epsilon=1.0, bounds=(0.0, 1.0), relation=NeighbourRelation.ADD_REMOVE_ONE)
    r = dpverify.audit(s, bound_pairs([1.0, 1.0], 0.0, 1.0, NeighbourRelation.ADD_REMOVE_ONE), samples=3_000, rng=5)
    assert r.verdict == "violated"
