"""Grey-box models of report-noisy-max and the sparse vector technique (dpverify.auditing.greybox: noisymax, sparse,
selection). Every check here is deterministic: a grey-box finding comes from replays and probe replays on fixed seeds
and exact (interval) arithmetic, so there is no false-failure rate to state; the random pairs below are drawn from
fixed seeds, and the counts asserted are those of these pairs."""
from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest

from dpverify import PrivacyClaim
from dpverify.auditing.greybox import replay_pair
from dpverify.auditing.greybox.noisymax import argmax_probabilities
from dpverify.auditing.greybox.sparse import pattern_probabilities
from dpverify_mechanisms.faulty.noisy_max import Noise, NoisyMaxArgmax, NoisyMaxValue
from dpverify_mechanisms.faulty.registry import TRUTH
from dpverify_mechanisms.faulty.svt import SVTChen, SVTLyu


def _checks(name):
    _, _, factory, pairs = TRUTH[name]
    mech = factory()
    return mech, [replay_pair(mech, p, i, mech.claim) for i, p in enumerate(pairs())]


def _row(check):
    return check.per_call[0]


# -- the registry's mechanisms: the reconstructed eps beside the true eps ---------------------------------------------

@pytest.mark.parametrize("name, true_eps", [("noisy-max-laplace-argmax", 1.0), ("noisy-max-exponential-argmax", 1.0),
                                            ("svt-alg1-lyu", 1.0), ("svt-alg2-dwork-roth", 1.0),
                                            ("numerical-svt", 0.1), ("svt-alg4-lee-clifton", 1.75)])
def test_the_theorem_eps_read_from_the_trace_is_the_true_eps_of_the_shipped_mechanism(name, true_eps):
    mech, checks = _checks(name)
    assert all(c.implied is not None for c in checks)
    theorem = max(_row(c)["theorem_eps"] for c in checks)
    assert theorem == pytest.approx(true_eps, rel=1e-8)
    for c in checks:  # the exact law of each pair never exceeds the mechanism's true privacy
        assert _row(c)["exact_eps"] <= true_eps * (1 + 1e-8) and c.epsilon <= _row(c)["exact_eps"] + 1e-9
    assert all(c.finding is None for c in checks) == (true_eps <= mech.claim.epsilon)


def test_the_correct_registry_mechanisms_get_no_finding_and_the_faulty_ones_do():
    for name in ("noisy-max-laplace-argmax", "noisy-max-exponential-argmax", "svt-alg1-lyu", "svt-alg2-dwork-roth",
                 "numerical-svt"):
        assert not any(c.finding for c in _checks(name)[1]), name
    for name in ("noisy-max-laplace-value", "noisy-max-exponential-value", "svt-alg4-lee-clifton",
                 "svt-alg5-stoddard", "svt-alg6-chen"):
        assert any(c.finding for c in _checks(name)[1]), name


def test_the_noisy_max_value_is_exact_with_laplace_and_infinite_with_exponential_noise():
    _, checks = _checks("noisy-max-laplace-value")  # true eps: k eps / 2 = 2.5 on the all-below pair
    row = _row(checks[0])
    assert checks[0].epsilon == pytest.approx(2.5, rel=1e-6) and row["eps_upper"] == pytest.approx(2.5, rel=1e-9)
    _, checks = _checks("noisy-max-exponential-value")
    assert checks[0].epsilon == math.inf and checks[0].finding


def test_the_sparse_vector_pairs_match_the_published_exact_losses():
    # svt-alg4-lee-clifton: the half/half pair 1.746 eps (benchmarks/bench_blackbox.py); alg6 4.45 (its docstring)
    assert _row(_checks("svt-alg4-lee-clifton")[1][0])["exact_eps"] == pytest.approx(1.746, abs=5e-4)
    assert _row(_checks("svt-alg6-chen")[1][0])["exact_eps"] == pytest.approx(4.45, abs=5e-3)
    c = _checks("svt-alg5-stoddard")[1][0]  # no query noise: a pattern impossible on D; finite certified bound
    assert _row(c)["exact_eps"] == math.inf and 10 < c.epsilon < math.inf and c.finding


def test_the_svt_that_releases_the_compared_noisy_answer_is_not_modelled():
    # Alg. 3 (Roth): its tuples are not numbers; as a float vector the TOP values are q_i + nu_i, the very noise
    # compared with the threshold: neither fresh answer noise nor a TOP code, so no layout fits
    for c in _checks("svt-alg3-roth")[1]:
        assert c.implied is None and c.finding is None and c.not_modelled == "outputs that are not numbers"
    for c in _checks("svt-alg3-roth-vector")[1]:
        assert c.implied is None and c.finding is None and c.selection.startswith("sparse-vector")


def test_the_redrawn_threshold_law_matches_quadrature_from_the_mechanisms_own_parameters():
    # svt-alg2-dwork-roth, eps = 1, c = 2: rho ~ Lap(4), nu ~ Lap(8), rho redrawn from Lap(4) after a TOP
    _, checks = _checks("svt-alg2-dwork-roth")
    d, dp = TRUTH["svt-alg2-dwork-roth"][3]()[0]
    F = lambda w: mpmath.exp(w) / 2 if w < 0 else 1 - mpmath.exp(-w) / 2  # noqa: E731

    def segment(q, answers):  # int f_rho(r) prod_i P(answer_i | r) dr, rho ~ Lap(4), nu ~ Lap(8), T = 0.5
        def g(r):
            v = mpmath.exp(-abs(r) / 4) / 8
            for i, top in answers:
                w = (0.5 + r - q[i]) / 8
                v *= (1 - F(w)) if top else F(w)
            return v
        return mpmath.quad(g, sorted(set([-mpmath.inf, 0.0] + [float(x) - 0.5 for x in q] + [mpmath.inf])))

    def law(q):  # pattern BBBBBTT---
        return segment(q, [(i, False) for i in range(5)] + [(5, True)]) * segment(q, [(6, True)])
    oracle = abs(float(mpmath.log(law(d) / law(dp))))
    assert checks[0].epsilon == pytest.approx(oracle, rel=1e-4) and checks[0].epsilon <= oracle
    assert "BBBBBTT---" in checks[0].implied


# -- the exact laws against independent quadrature --------------------------------------------------------------------

def _quad_argmax(family, a):
    if family == "laplace":
        f = lambda x: mpmath.exp(-abs(x)) / 2  # noqa: E731
        F = lambda x: mpmath.exp(x) / 2 if x < 0 else 1 - mpmath.exp(-x) / 2  # noqa: E731
    else:
        f = lambda x: mpmath.exp(-x) if x >= 0 else mpmath.mpf(0)  # noqa: E731
        F = lambda x: 1 - mpmath.exp(-x) if x >= 0 else mpmath.mpf(0)  # noqa: E731
    pts = sorted(set([-mpmath.inf] + [float(x) for x in a] + [mpmath.inf]))
    out = []
    for j in range(len(a)):
        g = lambda x, j=j: f(x - a[j]) * mpmath.fprod(F(x - a[i]) for i in range(len(a)) if i != j)  # noqa: E731
        out.append(mpmath.quad(g, pts))
    return out


@pytest.mark.parametrize("family", ["laplace", "exponential"])
def test_the_argmax_law_matches_quadrature_and_sums_to_one(family):
    a = np.array([0.0, -0.3, 1.25, -2.0, 0.7])
    got = argmax_probabilities(family, a)
    want = _quad_argmax(family, a)
    for (lo, hi), w in zip(got, want):
        assert lo <= hi and hi - lo < 1e-14 and float(w) == pytest.approx(lo, rel=1e-12)
    assert sum(lo for lo, _ in got) <= 1 <= sum(hi for _, hi in got)


def test_the_gumbel_argmax_is_the_softmax():
    a = np.array([0.5, -1.0, 2.0])
    got = argmax_probabilities("gumbel", a)
    soft = np.exp(a) / np.exp(a).sum()
    assert all(lo <= s <= hi for (lo, hi), s in zip(got, soft))


def test_an_svt_pattern_probability_matches_quadrature():
    u, beta = np.array([0.3, -0.2, 1.1, 0.0]), 0.5
    pats = np.array([[0, 1, -1, -1], [0, 0, 1, -1], [0, 0, 0, 1], [0, 0, 0, 0], [1, -1, -1, -1]])
    got = pattern_probabilities(pats, u, beta)
    F = lambda w: mpmath.exp(w) / 2 if w < 0 else 1 - mpmath.exp(-w) / 2  # noqa: E731
    for (lo, hi), p in zip(got, pats):
        g = lambda r, p=p: mpmath.exp(-abs(r)) / 2 * mpmath.fprod(  # noqa: E731
            F((r - u[i]) / beta) if p[i] == 0 else 1 - F((r - u[i]) / beta) for i in range(4) if p[i] >= 0)
        want = mpmath.quad(g, sorted(set([-mpmath.inf, 0.0] + u.tolist() + [mpmath.inf])))
        assert float(want) == pytest.approx(lo, rel=1e-12) and lo <= hi
    assert sum(lo for lo, _ in got) <= 1 <= sum(hi for _, hi in got)  # the five patterns of cutoff 1 cover all


# -- adversaries --------------------------------------------------------------------------------------------------------

class HalvedMax(NoisyMaxArgmax):
    """Report-noisy-max whose Laplace scale is 1/eps, half of the 2/eps its claim needs (truly 2 eps-DP)."""

    def __init__(self, epsilon, noise=Noise.LAPLACE):
        super().__init__(epsilon, noise)
        self.scale = 1.0 / epsilon


def _random_pairs(n, k=5, seed=0):
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        d = rng.uniform(0, 3, k)
        out.append((d, d + rng.choice([-1.0, 1.0], k) * rng.uniform(0.5, 1.0, k)))
    return out


@pytest.mark.parametrize("noise", [Noise.LAPLACE, Noise.EXPONENTIAL])
def test_a_halved_scale_is_found_where_the_pair_loses_more_than_the_claim_and_a_correct_one_never(noise):
    pairs = _random_pairs(12)
    good, bad = NoisyMaxArgmax(1.0, noise), HalvedMax(1.0, noise)
    for seeds in ((1, 2), (7, 8)):
        assert not any(replay_pair(good, p, i, good.claim, seeds=seeds).finding for i, p in enumerate(pairs))
    checks = [replay_pair(bad, p, i, bad.claim) for i, p in enumerate(pairs)]
    assert all(c.implied is not None for c in checks)
    # a finding exactly where the certified loss of the pair exceeds the claim: 10 of these 12 pairs
    assert [bool(c.finding) for c in checks] == [c.epsilon > 1.0 for c in checks]
    assert sum(bool(c.finding) for c in checks) == 10
    assert max(_row(c)["theorem_eps"] for c in checks) <= 2.0 + 1e-8  # 2 Delta_inf / b with b = 1


def test_the_halved_scale_is_found_on_the_registry_x_shape_pair():
    p = TRUTH["noisy-max-laplace-argmax"][3]()[1]
    c = replay_pair(HalvedMax(1.0), p, 0, PrivacyClaim(1.0))
    assert c.finding and c.epsilon > 1.0 and _row(c)["theorem_eps"] == pytest.approx(2.0)


def _svt_oracle(b_rho, b_nu, cutoff, d, dp, threshold=0.5):
    """max_o |log P(o) / P'(o)| by mpmath quadrature from the mechanism's own parameters (not from the replay)."""
    k = len(d)
    F = lambda w: mpmath.exp(w) / 2 if w < 0 else 1 - mpmath.exp(-w) / 2  # noqa: E731

    def prob(q, pat):
        def g(r):
            v = mpmath.exp(-abs(r) / b_rho) / (2 * b_rho)
            for i in range(k):
                if pat[i] >= 0:
                    w = (threshold + r - q[i]) / b_nu
                    v *= (1 - F(w)) if pat[i] == 1 else F(w)
            return v
        pts = sorted(set([-mpmath.inf, 0.0] + [float(x - threshold) for x in q] + [mpmath.inf]))
        return mpmath.quad(g, pts)

    pats = [[0] * i + [1] + [-1] * (k - i - 1) for i in range(k)] + [[0] * k] if cutoff == 1 else None
    return max(abs(mpmath.log(prob(d, p) / prob(dp, p))) for p in pats)


class WrongScaleSVT(SVTLyu):
    """Lyu et al. Alg. 1 with the query noise scale 2 c Delta / e2 replaced by c Delta / e2 (half)."""

    def _scales(self):
        b_rho, b_nu = super()._scales()
        return b_rho, b_nu / 2


@pytest.mark.parametrize("pair", [(np.ones(6), np.r_[np.full(3, 2.0), np.zeros(3)]),
                                  (np.ones(6), np.r_[0.0, np.ones(5)]),
                                  (np.ones(6), np.r_[2.0, np.ones(5)])])
def test_an_svt_with_a_wrong_scale_is_found_exactly_when_the_pair_loses_more_than_the_claim(pair):
    mech = WrongScaleSVT(1.0, threshold=0.5, cutoff=1)
    c = replay_pair(mech, pair, 0, mech.claim)
    oracle = float(_svt_oracle(2.0, 2.0, 1, *pair))
    assert _row(c)["exact_eps"] == pytest.approx(oracle, rel=1e-6)
    assert abs(oracle - 1.0) > 0.05  # away from the claim: the verdict cannot hinge on the margins
    assert bool(c.finding) == (oracle > 1.0)


def test_an_svt_without_its_cutoff_is_found_on_a_pair_that_shows_it_and_not_on_one_that_does_not():
    class NoCutoff(SVTLyu):
        cutoff_applies = False
    mech = NoCutoff(1.0, threshold=0.5, cutoff=1)
    shows = (np.ones(10), np.r_[np.full(5, 2.0), np.zeros(5)])
    c = replay_pair(mech, shows, 0, mech.claim)
    assert c.finding and _row(c)["cutoff"] is None and c.epsilon > 1.0
    hides = (np.ones(10), np.r_[1.25, np.ones(9)])  # one query moves by 1/4: the pair loses little
    c = replay_pair(mech, hides, 0, mech.claim)
    assert c.implied is not None and c.finding is None and c.epsilon < 1.0


class ArgmaxButNotOnSeedThree(NoisyMaxArgmax):
    """An argmax on the draws of seeds 1 and 2 (and on every probe), the smallest index on seed 3's draws."""

    trap = float(np.random.default_rng(3).laplace(0.0, 2.0, (1, 5))[0, 0])

    def sample(self, data, size, rng):
        noise = rng.laplace(0.0, self.scale, (size, len(data)))
        if noise[0, 0] == self.trap:
            return np.zeros(size, dtype=np.int64)
        return np.argmax(np.asarray(data) + noise, axis=1)


def test_a_mechanism_that_is_an_argmax_on_two_seeds_but_not_the_third_is_not_modelled():
    mech = ArgmaxButNotOnSeedThree(1.0)
    pair = (np.r_[1.0, 1.0, 0.0, 0.0, 0.0], np.r_[0.0, 0.0, 1.0, 1.0, 1.0])
    assert int(np.argmax(pair[0] + np.random.default_rng(3).laplace(0.0, 2.0, (1, 5)))) != 0  # the trap differs
    c = replay_pair(mech, pair, 0, mech.claim)
    assert c.implied is None and c.finding is None and c.selection.startswith("report-noisy-max: the output is not")


class OwnJitter(NoisyMaxArgmax):
    """Report-noisy-max whose noise also has a part from a generator of its own (the replay cannot freeze it)."""

    def sample(self, data, size, rng):
        own = np.random.default_rng()
        noise = rng.laplace(0.0, self.scale, (size, len(data))) + own.laplace(0.0, 1.0, (size, len(data)))
        return np.argmax(np.asarray(data) + noise, axis=1)


def test_a_mechanism_drawing_its_own_randomness_is_not_modelled():
    mech = OwnJitter(1.0)
    for i, pair in enumerate(_random_pairs(3, seed=5)):
        c = replay_pair(mech, pair, i, mech.claim)
        assert c.implied is None and c.finding is None and c.selection.startswith("report-noisy-max")


def test_an_svt_that_reads_one_noise_for_two_queries_is_not_modelled():
    class Shared(SVTChen):  # query i compared with nu_{i-1}: not one noise per query in order
        def _run(self, data, size, rng, values):
            q = np.asarray(data, dtype=float)
            rho = rng.laplace(0.0, 2.0, size)
            nus = [rng.laplace(0.0, 2.0, size) for _ in q]
            state = np.array([[int(q[i] + nus[max(i - 1, 0)][0] >= 0.5 + rho[0]) for i in range(q.size)]], np.int8)
            return state, None
    mech = Shared(1.0)
    pair = (np.ones(4), np.r_[2.0, 2.0, 0.0, 0.0])
    c = replay_pair(mech, pair, 0, mech.claim)
    assert c.implied is None and c.finding is None and c.selection.startswith("sparse-vector")


def test_an_approximate_claim_is_judged_on_a_certified_delta():
    mech = NoisyMaxValue(1.0, Noise.LAPLACE)
    p = TRUTH["noisy-max-laplace-value"][3]()[0]
    c = replay_pair(mech, p, 0, PrivacyClaim(1.0, 1e-3))
    assert c.finding and "delta(1)" in c.finding
    c = replay_pair(mech, p, 0, PrivacyClaim(2.5 * (1 + 1e-6), 1e-3))  # the true eps: delta(2.5) = 0
    assert c.finding is None


def test_a_grey_box_audit_reports_the_selection_finding_without_sampling():
    import json

    import dpverify

    mech = NoisyMaxValue(1.0, Noise.LAPLACE)
    r = dpverify.audit(mech, TRUTH["noisy-max-laplace-value"][3](), mode="grey-box", samples=1000, rng=0)
    assert r.verdict.value == "violated" and r.method.value == "grey-box"
    assert 2.49 < r.epsilon_lower <= 2.5  # the certified lower bound of the true k eps / 2 = 2.5
    doc = json.loads(json.dumps(r.to_dict()))
    g = doc["directions"][0]["greybox"]
    assert g["selection"] == "report-noisy-max" and g["per_call"][0]["eps_upper"] == pytest.approx(2.5)
