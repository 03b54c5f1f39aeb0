"""Library lemmas: verdicts, and a mutation of every PROVED/CERTIFIED lemma that the checker must catch."""
from __future__ import annotations

import sympy as sp
import pytest

from dpverify.symbolic import LEMMAS, ProofVerdict, get_lemma
from dpverify.symbolic.library import CLASSICAL_SIGMA, KENTHAPADI_SIGMA, S, gaussian_profile_expr
from dpverify.errors import InvalidArgument

GOOD = {ProofVerdict.PROVED, ProofVerdict.CERTIFIED}


def _le(a, b):
    return sp.Le(a, b, evaluate=False)


def _eq(a, b):
    return sp.Eq(a, b, evaluate=False)


def _mutations():
    """lemma id -> a function of the lemma returning a mutated (false) lemma: one constant changed."""
    e, dl, x, t = S.epsilon, S.delta, S.x, S.t
    return {
        "std/chi-square-sf": lambda L: L.mutated(conclusion=_eq(L.lhs, 2 * L.rhs)),
        "std/laurent-massart": lambda L: L.mutated(conclusion=_le(
            sp.uppergamma(S.k / 2, (S.k + sp.sqrt(S.k * x) + x) / 2) / sp.gamma(S.k / 2), sp.exp(-x))),
        "std/gaussian-tail": lambda L: L.mutated(conclusion=_le(sp.erfc(sp.sqrt(sp.log(1 / dl) / 2)), dl)),
        "std/laplace-tail": lambda L: L.mutated(conclusion=_eq(L.lhs, sp.exp(-2 * t / S.b))),
        "std/gaussian-loss-boundary": lambda L: L.mutated(conclusion=_eq(L.lhs, 2 * e)),
        "std/gaussian-profile": lambda L: L.mutated(conclusion=_eq(L.lhs, L.rhs * 2)),
        "std/gaussian-profile-monotone-epsilon": lambda L: L.mutated(conclusion=_eq(L.lhs, 2 * L.rhs)),
        "std/gaussian-profile-monotone-sensitivity": lambda L: L.mutated(conclusion=_eq(L.lhs, 2 * L.rhs)),
        "std/gaussian-mechanism-classical": lambda L: L.mutated(
            conclusion=_le(gaussian_profile_expr(e, 1, CLASSICAL_SIGMA.subs(S.sensitivity, 1) / 3), dl),
            profile={"epsilon": e, "sigma": CLASSICAL_SIGMA.subs(S.sensitivity, 1) / 3}),
        "std/gaussian-mechanism-kenthapadi": lambda L: L.mutated(
            conclusion=_le(gaussian_profile_expr(e, 1, KENTHAPADI_SIGMA.subs(S.sensitivity, 1) / 3), dl),
            profile={"epsilon": e, "sigma": KENTHAPADI_SIGMA.subs(S.sensitivity, 1) / 3}),
        "std/laplace-mechanism": lambda L: L.mutated(conclusion=_le(L.lhs, L.rhs / 2)),
        "std/positive-part-subadditive": lambda L: L.mutated(conclusion=_le(L.rhs, L.lhs)),
        "std/basic-composition": lambda L: L.mutated(conclusion=_le(L.lhs, L.rhs - 1)),
        "std/exp-le-1-plus-2x": lambda L: L.mutated(conclusion=_le(sp.exp(x), 1 + sp.Rational(3, 2) * x)),
        "std/gaussian-channel-capacity": lambda L: L.mutated(conclusion=_eq(L.lhs, 2 * L.rhs)),
        "std/mi-dp-to-tv": lambda L: L.mutated(conclusion=_eq(L.lhs, 2 * L.rhs)),
        "std/rank-two-nuclear-norm": lambda L: L.mutated(conclusion=_eq(L.lhs, L.rhs + 1)),
        "std/covariance-l1-sensitivity": lambda L: L.mutated(conclusion=_eq(L.lhs, L.rhs / 4)),
        "std/wishart-density-ratio": lambda L: L.mutated(conclusion=_eq(L.lhs, 2 * L.rhs)),
        # the new term of the Gaussian linear form with its variance doubled
        "std/normal-linear-form-mgf": lambda L: L.mutated(conclusion=_eq(L.lhs, L.rhs.subs(
            L.symbols[2] ** 2, 2 * L.symbols[2] ** 2))),
        # k squared normals given the chi2_(2k) MGF
        "std/chi-square-mgf": lambda L: L.mutated(conclusion=_eq(L.lhs ** 2, L.rhs)),
        "std/triangle-inequality-reals": lambda L: L.mutated(conclusion=_le(L.lhs, L.rhs / 2)),
        "std/wishart-tail-zhu": lambda L: L.mutated(conclusion=_le(
            sp.uppergamma(S.m / 2, (S.m + sp.sqrt(S.m * S.theta) + S.theta) / 2) / sp.gamma(S.m / 2), sp.exp(-S.theta))),
    }


def test_every_proved_or_certified_lemma_has_a_mutation():
    good = [i for i, L in LEMMAS.items() if L.check().verdict in GOOD]
    assert good, "the library settles some lemmas"
    missing = sorted(set(good) - set(_mutations()))
    assert not missing, f"PROVED/CERTIFIED lemmas without a mutation test: {missing}"


@pytest.mark.parametrize("lemma_id", sorted(_mutations()))
def test_lemma_is_settled_and_its_mutation_is_caught(lemma_id):
    lemma = get_lemma(lemma_id)
    assert lemma.check().verdict in GOOD
    mutant = _mutations()[lemma_id](lemma)
    res = mutant.check()
    assert res.verdict is ProofVerdict.REFUTED, res.evidence
    assert res.counterexample


@pytest.mark.parametrize("lemma_id", ["std/advanced-composition", "std/pinsker-binary", "std/von-neumann-trace"])
def test_sampled_lemmas_are_tested_not_more(lemma_id):
    assert get_lemma(lemma_id).check().verdict is ProofVerdict.TESTED


def test_sympy_none_is_not_a_proof():
    # an inequality sympy cannot decide, outside any strategy, is at best TESTED
    L = get_lemma("std/exp-le-1-plus-2x").mutated(strategy=get_lemma("std/advanced-composition").strategy)
    assert L.check().verdict is ProofVerdict.TESTED


def test_exp_bound_range_is_where_the_paper_uses_it():
    # e^x <= 1 + 2x fails beyond x ~ 1.2564: the checker finds it when the box is widened
    from dpverify.symbolic import Range

    L = get_lemma("std/exp-le-1-plus-2x")
    wide = L.mutated(hypotheses=(), box={"x": Range(1e-9, 2.0)}, interval=(0, 2))
    res = wide.check()
    assert res.verdict is ProofVerdict.REFUTED
    assert float(res.counterexample["x"]) > 1.25


def test_get_lemma_unknown_id_lists_known():
    with pytest.raises(InvalidArgument, match="std/laurent-massart"):
        get_lemma("std/nope")
