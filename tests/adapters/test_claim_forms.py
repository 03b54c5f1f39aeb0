"""Claim forms (pure, approximate, zCDP, Renyi, profile): validation, safe-side delta_at, curve audits."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.special import ndtr

import dpverify
from dpverify import InvalidArgument, NeighbourRelation, PrivacyClaim
from dpverify.auditing.curve import CurveAuditResult, audit_curve
from dpverify.claims import ClaimForm


def gaussian_delta(eps: float, mu: float) -> float:
    """Exact profile of N(0,1) vs N(mu,1) (Balle & Wang 2018, Theorem 8)."""
    return float(ndtr(-eps / mu + mu / 2) - math.exp(eps) * ndtr(-eps / mu - mu / 2))


EPS_GRID = [0.0, 0.05, 0.3, 1.0, 2.0, 4.0, 8.0]


def test_plain_claim_is_unchanged():
    c = PrivacyClaim(1.0, 1e-5)
    assert (c.epsilon, c.delta, c.relation, c.curve) == (1.0, 1e-5, NeighbourRelation.REPLACE_ONE, None)
    assert repr(c) == "PrivacyClaim(epsilon=1.0, delta=1e-05)"
    assert c.to_dict() == {"epsilon": 1.0, "delta": 1e-5, "relation": "replace-one"}
    assert c == PrivacyClaim(1.0, 1e-5) and not c.is_curve
    assert c.form is ClaimForm.APPROXIMATE and PrivacyClaim(1.0).form is ClaimForm.PURE
    assert c.audit_points() == ((1.0, 1e-5),)
    assert c.delta_at(2.0) == 1e-5


@pytest.mark.parametrize("eps0,delta0", [(1.0, 0.0), (0.5, 1e-3), (3.0, 0.2)])
def test_plain_claim_below_its_epsilon_is_the_dominating_mechanism(eps0, delta0):
    # Randomized response with P(true) = e^eps0/(1+e^eps0), mixed with a delta0 atom: its profile.
    c = PrivacyClaim(eps0, delta0)
    for eps in (0.0, eps0 / 3, eps0 * 0.9):
        p = (1 - delta0) * math.exp(eps0) / (1 + math.exp(eps0))
        q = (1 - delta0) / (1 + math.exp(eps0))
        exact = delta0 + p - math.exp(eps) * q
        assert exact <= c.delta_at(eps) <= exact * (1 + 1e-9)


@pytest.mark.parametrize("rho", [0.01, 0.125, 0.5, 2.0, 8.0])
def test_zcdp_delta_is_between_the_gaussian_and_bun_steinke(rho):
    c = PrivacyClaim.zcdp(rho)
    mu = math.sqrt(2 * rho)  # the Gaussian with sensitivity/sigma = mu is exactly rho-zCDP
    for eps in EPS_GRID:
        d = c.delta_at(eps)
        assert gaussian_delta(eps, mu) <= d, (eps, d)  # safe side: never below a rho-zCDP mechanism
        if eps > rho:
            assert d <= math.exp(-(eps - rho) ** 2 / (4 * rho)) * (1 + 1e-9)
    assert c.form is ClaimForm.ZCDP and c.is_curve
    assert c.delta == pytest.approx(1e-6, rel=1e-3) and c.delta_at(c.epsilon) <= 1e-6


def test_renyi_list_and_callable_agree_with_zcdp_from_above():
    rho = 0.5
    z = PrivacyClaim.zcdp(rho)
    by_fn = PrivacyClaim.renyi(lambda a: a * rho)
    orders = [1.5, 2, 3, 4, 6, 8, 16, 32, 64]
    by_list = PrivacyClaim.renyi(orders, [a * rho for a in orders])
    for eps in EPS_GRID:
        assert z.delta_at(eps) <= by_fn.delta_at(eps) * (1 + 1e-9)  # a finite grid of orders is weaker
        assert by_fn.delta_at(eps) <= by_list.delta_at(eps) * (1 + 1e-9) or by_list.delta_at(eps) == 1.0
        # never weaker than Mironov's conversion at any listed order
        mironov = math.exp(min(0.0, min(-(a - 1) * (eps - a * rho) for a in orders)))
        assert by_list.delta_at(eps) <= mironov * (1 + 1e-9)
    assert by_list.form is ClaimForm.RENYI


def test_profile_points_and_callable():
    c = PrivacyClaim.profile([(1.0, 1e-6), (0.5, 1e-3)])
    assert c.audit_points() == ((0.5, 1e-3), (1.0, 1e-6))
    assert c.delta_at(0.7) == 1e-3 and c.delta_at(5.0) == 1e-6
    assert c.delta_at(0.2) > 1e-3  # below the first point: the dominating mechanism's profile
    f = PrivacyClaim.profile(lambda e: math.exp(-e))
    assert f.delta_at(1.0) == math.exp(-1.0) and f.form is ClaimForm.PROFILE
    assert [d for _, d in f.audit_points()] == pytest.approx([0.3, 0.1, 0.03, 0.01, 1e-3], rel=1e-6)


BAD = [
    ("zcdp-nan", lambda: PrivacyClaim.zcdp(float("nan")), "rho=nan"),
    ("zcdp-inf", lambda: PrivacyClaim.zcdp(math.inf), "rho=inf"),
    ("zcdp-negative", lambda: PrivacyClaim.zcdp(-1), "rho=-1"),
    ("renyi-order-1", lambda: PrivacyClaim.renyi([1.0], [0.1]), "orders[0]=1.0"),
    ("renyi-nan-value", lambda: PrivacyClaim.renyi([2.0], [float("nan")]), "epsilons[0]=nan"),
    ("renyi-inf-value", lambda: PrivacyClaim.renyi([2.0], [math.inf]), "epsilons[0]=inf"),
    ("renyi-lengths", lambda: PrivacyClaim.renyi([2.0, 3.0], [0.1]), "same length"),
    ("renyi-no-values", lambda: PrivacyClaim.renyi([2.0]), "needs epsilons"),
    ("renyi-callable-nan", lambda: PrivacyClaim.renyi(lambda a: float("nan")), "nan"),
    ("renyi-callable-raises", lambda: PrivacyClaim.renyi(lambda a: 1 / 0), "ZeroDivisionError"),
    ("profile-empty", lambda: PrivacyClaim.profile([]), "empty"),
    ("profile-delta-1", lambda: PrivacyClaim.profile([(1.0, 1.0)]), "points[0][1]=1.0"),
    ("profile-eps-inf", lambda: PrivacyClaim.profile([(math.inf, 0.1)]), "points[0][0]=inf"),
    ("profile-not-pair", lambda: PrivacyClaim.profile([1.0]), "points[0]=1.0"),
    ("profile-callable-out-of-range", lambda: PrivacyClaim.profile(lambda e: 2.0), "must lie in [0, 1]"),
    ("profile-callable-nan", lambda: PrivacyClaim.profile(lambda e: float("nan")), "nan"),
    ("delta-at-nan", lambda: PrivacyClaim.zcdp(1.0).delta_at(float("nan")), "epsilon=nan"),
    ("hand-made-curve", lambda: PrivacyClaim(1.0, 0.0, NeighbourRelation.REPLACE_ONE, "zcdp"), "curve="),
]


@pytest.mark.parametrize("make,text", [(m, t) for _, m, t in BAD], ids=[i for i, _, _ in BAD])
def test_bad_claims_are_refused(make, text):
    with pytest.raises(InvalidArgument, match=None) as info:
        make()
    assert text in str(info.value)


class Gauss:
    """White-box Gaussian noise on a scalar query with sensitivity 1."""

    def __init__(self, sigma, claim):
        self.sigma, self.claim = sigma, claim

    def sample(self, data, size, rng):
        return float(data) + self.sigma * rng.standard_normal(size)

    def log_density(self, o, data):
        return -0.5 * ((o - float(data)) / self.sigma) ** 2 - math.log(self.sigma * math.sqrt(2 * math.pi))


@pytest.mark.parametrize("seed", [1, 2])
def test_zcdp_claim_is_audited_on_its_whole_curve(seed):
    # sigma = 1/sqrt(2 rho) is exactly rho-zCDP for sensitivity 1. Claimed at rho it keeps the claim
    # (each point's delta_i >= the true delta, so a false `violated` has probability <= 0.05 by the
    # audit's guarantee); claimed at rho/2 it is violated at four of five points by a wide margin
    # (true delta 0.24 vs 0.10 claimed at eps 0.94: lower bounds of 0.13 at 1e5 samples).
    rho = 0.5
    sigma = 1 / math.sqrt(2 * rho)
    good = dpverify.audit(Gauss(sigma, PrivacyClaim.zcdp(rho)), (0.0, 1.0), samples=50_000, rng=seed)
    bad = dpverify.audit(Gauss(sigma, PrivacyClaim.zcdp(rho / 2)), (0.0, 1.0), samples=50_000, rng=seed)
    assert isinstance(good, CurveAuditResult) and isinstance(good, dpverify.AuditResult)
    assert good.verdict != "violated" and len(good.points) == 5
    assert bad.verdict == "violated"
    assert sum(p.verdict == "violated" for p in bad.points) >= 3
    assert bad.point_confidence == pytest.approx(1 - 0.05 / 5)
    assert bad.claim == PrivacyClaim.zcdp(rho / 2)
    d = bad.to_dict()
    assert d["claim"]["form"] == "zcdp" and len(d["points"]) == 5


def test_one_point_audit_of_a_curve_and_explicit_points():
    rho = 0.5
    mech = Gauss(1 / math.sqrt(2 * rho), PrivacyClaim.zcdp(rho / 2))
    r = audit_curve(mech, (0.0, 1.0), points=[1.0], samples=20_000, rng=3)
    assert len(r.points) == 1 and r.point_confidence == 0.95
    assert r.points[0].claim == PrivacyClaim(1.0, PrivacyClaim.zcdp(rho / 2).delta_at(1.0))
    with pytest.raises(InvalidArgument, match="points"):
        audit_curve(mech, (0.0, 1.0), points=[], samples=100)
