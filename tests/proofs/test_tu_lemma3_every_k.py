"""tu-projections Lemma 3 (advanced composition) for every k (round 12).

The box certificate covered k <= 20; the every-k argument (a Chernoff bound on k-fold randomised response, the binomial
theorem and Hoeffding's lemma for the two-point law, each step by sympy with symbolic k) extends it to the statement's
domain, given the optimal composition theorem (Kairouz, Oh & Viswanath 2015), which reduces the claim to delta_opt and
is named as a published premise. The adversary: eps' with its sqrt(2k log(1/delta')) eps term halved is false (the
exact delta_opt exceeds delta' at k = 100, beyond the old box), and the argument must then not be proved.
Deterministic (sympy, mpmath): no false-failure rate to state.
"""
from __future__ import annotations

import importlib

import mpmath
import pytest

from dpverify.symbolic import ProofVerdict
from dpverify.symbolic.numeric import optimal_composition_delta

T = importlib.import_module("dpverify_proofs.tu_projections")


def _delta_opt(c_sqrt, k, eps, delta_prime):
    with mpmath.workdps(40):
        e, L = mpmath.mpf(eps), mpmath.log(1 / mpmath.mpf(delta_prime))
        total = c_sqrt * mpmath.sqrt(2 * k * L) * e + k * e * (mpmath.exp(e) - 1)
        return optimal_composition_delta(total, e, k)


def test_every_k_is_proved_given_the_optimal_composition_theorem():
    res = T.lemma_3_every_k()
    assert res.verdict is ProofVerdict.PROVED, res.evidence
    assert res.domain == "whole"
    assert [p.reference for p in res.premises] == ["Kairouz, Oh & Viswanath (2015), Thm 3.3"]
    assert res.strength_label.startswith("proved given optimal composition theorem")


@pytest.mark.parametrize("k,eps,dp", [(1, "0.5", "1e-3"), (60, "0.05", "1e-6"), (1000, "0.01", "1e-6"),
                                      (10000, "0.001", "1e-6")])
def test_the_bound_holds_beyond_the_old_box(k, eps, dp):
    assert _delta_opt(1, k, eps, dp) <= mpmath.mpf(dp)


def test_halved_sqrt_term_is_false_and_not_proved():
    assert _delta_opt(mpmath.mpf(1) / 2, 100, "0.05", "1e-3") > mpmath.mpf("1e-3")  # 0.0025 > 0.001
    res = T.lemma_3_every_k(c_sqrt="1/2")
    assert res.verdict is not ProofVerdict.PROVED
    assert "-L" in res.evidence  # the failing step is named


def test_claim_report_uses_the_every_k_route():
    rep = T.lemma_3()
    assert rep.conclusion.verdict is ProofVerdict.PROVED
    assert rep.strength == "proved given" and rep.conclusion.domain == "whole"
    assert any("cross-check" in n for n in rep.notes)
