"""Every PROVED/CERTIFIED claim-level verdict of ``run_proofs()`` is backed by a mutation test.

A mutation test changes one constant, exponent, factor or relation of the statement being checked
(or replaces a library lemma the verdict rests on by a false variant of it), re-runs the SAME
function of the proof file that builds the claim's report, and asserts that the verdict is no
longer PROVED/CERTIFIED (REFUTED with a counterexample wherever the checking code can produce one).

``MUTATED`` maps ``"<claim-id>:<part>"`` (part = ``steps`` or ``conclusion``) to the test that
mutates it: a bare name is a test of this file, ``"<file>::<name>"`` a test of another file of
this folder. :func:`test_every_proved_or_certified_verdict_has_a_registered_mutation` fails when a
PROVED/CERTIFIED verdict appears without an entry (or an entry outlives its verdict), so a new
proof cannot be added without its mutation test.

Each test of this file first checks the link: the unmutated function gives the verdict (and the
evidence) that ``run_proofs()`` reported for the claim, so the mutated code is the code behind it.
All checks here are deterministic (symbolic, or seeded searches re-evaluated at 50 digits): no
false-failure rate to state.
"""
from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest
import sympy as sp

from dpverify.symbolic import ProofVerdict, get_lemma, run_proofs
from dpverify.symbolic.library import CLASSICAL_SIGMA, KENTHAPADI_SIGMA, S, gaussian_profile_expr

HERE = Path(__file__).resolve().parent
GOOD = {ProofVerdict.PROVED, ProofVerdict.CERTIFIED}

JW = importlib.import_module("dpverify_proofs.jiang_wishart")
LEC = importlib.import_module("dpverify_proofs.lecture21_dp")
SK = importlib.import_module("dpverify_proofs.showkatbakhsh_regression")
TU = importlib.import_module("dpverify_proofs.tu_projections")
ZC = importlib.import_module("dpverify_proofs.zhou_compression")

_J = "test_proofs_jiang_wishart.py::"
_Z = "test_proofs_zhou_compression.py::"
_P = "test_symbolic_proofs.py::"

#: "<claim-id>:<part>" -> the test that mutates the statement behind that verdict.
MUTATED = {
    # jiang-wishart
    "jiang-wishart/definition-1:steps": _J + "test_definition_1_mutation",
    "jiang-wishart/definition-1:conclusion": _J + "test_definition_1_mutation",
    "jiang-wishart/definition-2:steps": _J + "test_definition_2_mutation",
    "jiang-wishart/definition-2:conclusion": _J + "test_definition_2_mutation",
    "jiang-wishart/theorem-1:conclusion": "test_jiang_theorem_1_rests_on_the_laplace_lemma",
    "jiang-wishart/theorem-2/eps-below-1:conclusion": "test_jiang_theorem_2_eps_below_1_rests_on_the_classical_lemma",
    "jiang-wishart/lemma-2/lower-bound-d-at-least-2:conclusion": _J + "test_lemma_2_bounds_mutation",
    "jiang-wishart/lemma-2/upper-bound:conclusion": _J + "test_lemma_2_bounds_mutation",
    "jiang-wishart/theorem-3:conclusion": _J + "test_algorithm_1_privacy_mutation",
    "jiang-wishart/algorithm-1:conclusion": _J + "test_algorithm_1_privacy_mutation",
    "jiang-wishart/theorem-5:steps": "test_jiang_theorem_5_crossover_ratio",
    # lecture21-dp
    "lecture21-dp/definition-1:steps": _P + "test_mutations_of_claim_level_proofs",
    "lecture21-dp/definition-1:conclusion": _P + "test_mutations_of_claim_level_proofs",
    "lecture21-dp/lemma-1:conclusion": "test_lecture21_laplace_lemmas_rest_on_the_laplace_lemma",
    "lecture21-dp/lemma-2:conclusion": "test_lecture21_laplace_lemmas_rest_on_the_laplace_lemma",
    "lecture21-dp/lemma-4:conclusion": "test_lecture21_lemma_4_rests_on_subadditivity",
    "lecture21-dp/lemma-5/independent:conclusion": "test_lecture21_lemma_5_rests_on_basic_composition",
    "lecture21-dp/lemma-6/eps-le-1:conclusion": "test_lecture21_lemma_6_eps_le_1_constant",
    # showkatbakhsh-regression
    "showkatbakhsh-regression/proposition-1/some-delta:steps": "test_showkatbakhsh_proposition_1_some_delta",
    "showkatbakhsh-regression/proposition-1/some-delta:conclusion": "test_showkatbakhsh_proposition_1_some_delta",
    # tu-projections
    "tu-projections/lemma-1:steps": "test_tu_lemma_1_mutations",
    "tu-projections/lemma-1:conclusion": "test_tu_lemma_1_mutations",
    "tu-projections/lemma-2/one-over-two-delta:conclusion": "test_tu_lemma_2_rests_on_kenthapadi",
    "tu-projections/lemma-4:steps": "test_tu_lemma_4_mutations",
    "tu-projections/lemma-4:conclusion": "test_tu_lemma_4_mutations",
    "tu-projections/theorem-1/derived:steps": "test_tu_theorem_1_derived_rests_on_lemmas_1_and_2",
    # zhou-compression
    "zhou-compression/theorem-2.5:steps": _Z + "test_theorem_2_5_mutation",
    "zhou-compression/theorem-2.5:conclusion": _Z + "test_theorem_2_5_mutation",
    "zhou-compression/corollary-3.7:steps": "test_zhou_corollary_3_7_exponent",
    "zhou-compression/remark-4.7:steps": "test_zhou_remark_4_7_decomposition",
}


@pytest.fixture(scope="module")
def reports():
    """All reports of the installed proof files (one run per session of this module: ~25 s), the proof
    files' own verdicts (the Coq theorems have their own mutants: tests/symbolic/test_coq.py)."""
    return {r.id: r for r in run_proofs(kernel_check=False)}


# ------------------------------------------------------------------ helpers
def _le(a, b):
    return sp.Le(a, b, evaluate=False)


def _eq(a, b):
    return sp.Eq(a, b, evaluate=False)


#: library lemma id -> a false variant of it (one constant changed); each must check REFUTED.
FALSE_LEMMAS = {
    # Laplace loss bounded by HALF the sensitivity
    "std/laplace-mechanism": lambda L: L.mutated(conclusion=_le(L.lhs, L.rhs / 2)),
    # reversed subadditivity of the positive part
    "std/positive-part-subadditive": lambda L: L.mutated(conclusion=_le(L.rhs, L.lhs)),
    # composed loss bounded by eps1 + eps2 - 1
    "std/basic-composition": lambda L: L.mutated(conclusion=_le(L.lhs, L.rhs - 1)),
    # capacity doubled
    "std/gaussian-channel-capacity": lambda L: L.mutated(conclusion=_eq(L.lhs, 2 * L.rhs)),
    # Laurent-Massart with 2x replaced by x
    "std/laurent-massart": lambda L: L.mutated(conclusion=_le(
        sp.uppergamma(S.k / 2, (S.k + sp.sqrt(S.k * S.x) + S.x) / 2) / sp.gamma(S.k / 2), sp.exp(-S.x))),
    # Gaussian tail radius s sqrt(2 log(1/delta)) replaced by s sqrt(log(1/delta)): erfc(sqrt(log(1/delta)/2)) <= delta
    "std/gaussian-tail": lambda L: L.mutated(conclusion=_le(sp.erfc(sp.sqrt(sp.log(1 / S.delta) / 2)), S.delta)),
    # classical / Kenthapadi sigma divided by 3
    "std/gaussian-mechanism-classical": lambda L: L.mutated(
        conclusion=_le(gaussian_profile_expr(S.epsilon, 1, CLASSICAL_SIGMA.subs(S.sensitivity, 1) / 3), S.delta),
        profile={"epsilon": S.epsilon, "sigma": CLASSICAL_SIGMA.subs(S.sensitivity, 1) / 3}),
    # triangle inequality with the right-hand side halved
    "std/triangle-inequality-reals": lambda L: L.mutated(conclusion=_le(L.lhs, L.rhs / 2)),
    "std/gaussian-mechanism-kenthapadi": lambda L: L.mutated(
        conclusion=_le(gaussian_profile_expr(S.epsilon, 1, KENTHAPADI_SIGMA.subs(S.sensitivity, 1) / 3), S.delta),
        profile={"epsilon": S.epsilon, "sigma": KENTHAPADI_SIGMA.subs(S.sensitivity, 1) / 3}),
    # linear-form MGF with the new term's variance doubled: exp(t^2 s^2 (A + 2 z_n^2)/2)
    "std/normal-linear-form-mgf": lambda L: L.mutated(conclusion=_eq(L.lhs, L.rhs.subs(
        L.symbols[2] ** 2, 2 * L.symbols[2] ** 2))),
    # the sum of k squares given the chi2_(2k) MGF (exponent k -> 2k on the left)
    "std/chi-square-mgf": lambda L: L.mutated(conclusion=_eq(L.lhs ** 2, L.rhs)),
}


def _use_false_lemma(monkeypatch, module, lemma_id):
    """Make ``module.check_lemma(lemma_id)`` return the check of the false variant (REFUTED); others unchanged."""
    res = FALSE_LEMMAS[lemma_id](get_lemma(lemma_id)).check()
    assert res.verdict is ProofVerdict.REFUTED and res.counterexample, res.evidence
    real = module.check_lemma
    monkeypatch.setattr(module, "check_lemma", lambda i: res if i == lemma_id else real(i))
    return res


def _same(report_part, result):
    """The unmutated function reproduces the reported verdict and evidence (the link to run_proofs)."""
    assert report_part.verdict in GOOD
    assert result.verdict is report_part.verdict
    assert result.evidence == report_part.evidence


def _matches(report_part, result, verdict):
    """The unmutated function reproduces the reported verdict (``verdict``, not PROVED/CERTIFIED) and evidence."""
    assert report_part.verdict is verdict, report_part.evidence
    assert result.verdict is verdict
    assert result.evidence == report_part.evidence


def _by_id(reports_list):
    return {r.id: r for r in reports_list}


def _refuted(result):
    assert result.verdict is ProofVerdict.REFUTED, result.evidence
    assert result.counterexample


def _not_good(result):
    assert result.verdict not in GOOD, result.evidence


# ------------------------------------------------------------------ the meta-test
def _test_exists(target: str) -> bool:
    path, name = (HERE / target.split("::")[0], target.split("::")[1]) if "::" in target else (Path(__file__), target)
    if not path.is_file():
        return False
    return re.search(rf"^def {re.escape(name)}\(", path.read_text(), flags=re.M) is not None


def test_every_proved_or_certified_verdict_has_a_registered_mutation(reports):
    """Fails if a PROVED/CERTIFIED claim-level verdict has no entry in MUTATED, if an entry names a
    missing test, or if an entry outlives its verdict (the registry must track run_proofs() exactly)."""
    good = {f"{i}:{part}" for i, r in reports.items() for part in ("steps", "conclusion")
            if getattr(r, part).verdict in GOOD}
    assert good, "run_proofs() settles some claims"
    missing = sorted(good - set(MUTATED))
    assert not missing, f"PROVED/CERTIFIED verdicts without a registered mutation test: {missing}"
    stale = sorted(set(MUTATED) - good)
    assert not stale, f"registered mutations of verdicts that are no longer PROVED/CERTIFIED: {stale}"
    absent = sorted({t for t in MUTATED.values() if not _test_exists(t)})
    assert not absent, f"registered mutation tests that do not exist: {absent}"


# ------------------------------------------------------------------ jiang-wishart
def test_jiang_theorem_1_rests_on_the_laplace_lemma(reports, monkeypatch):
    """Mutation: std/laplace-mechanism with the loss bound halved (|y-f'| - |y-f| <= |f-f'|/2, false).
    Expected: theorem-1 conclusion REFUTED (was PROVED)."""
    _same(reports["jiang-wishart/theorem-1"].conclusion, JW.theorem_1().conclusion)
    _use_false_lemma(monkeypatch, JW, "std/laplace-mechanism")
    _refuted(JW.theorem_1().conclusion)


def test_jiang_theorem_2_eps_below_1_rests_on_the_classical_lemma(reports, monkeypatch):
    """Mutation: the classical Gaussian sigma = sqrt(2 log(1.25/delta))/eps divided by 3.
    Expected: theorem-2/eps-below-1 conclusion REFUTED (was CERTIFIED)."""
    cid = "jiang-wishart/theorem-2/eps-below-1"
    _same(reports[cid].conclusion, _by_id(JW.theorem_2())[cid].conclusion)
    _use_false_lemma(monkeypatch, JW, "std/gaussian-mechanism-classical")
    _refuted(_by_id(JW.theorem_2())[cid].conclusion)


def test_jiang_theorem_5_crossover_ratio(reports):
    """Mutation: the printed crossover ratio sqrt(d) log d replaced by d log d (an exponent changed).
    Expected: theorem-5 steps no longer PROVED (TESTED: sympy's crossover differs from the printed one)."""
    _same(reports["jiang-wishart/theorem-5"].steps, JW.theorem_5().steps)
    _not_good(JW.theorem_5(threshold=lambda d: d * sp.log(d)).steps)
    _not_good(JW.theorem_5(threshold=lambda d: 2 * sp.sqrt(d) * sp.log(d)).steps)


# ------------------------------------------------------------------ lecture21-dp
def test_lecture21_laplace_lemmas_rest_on_the_laplace_lemma(reports, monkeypatch):
    """Mutation: std/laplace-mechanism with the loss bound halved (false).
    Expected: lemma-1 and lemma-2 conclusions REFUTED (were PROVED)."""
    _same(reports["lecture21-dp/lemma-1"].conclusion, LEC.lemma_1().conclusion)
    _same(reports["lecture21-dp/lemma-2"].conclusion, LEC.lemma_2().conclusion)
    _use_false_lemma(monkeypatch, LEC, "std/laplace-mechanism")
    _refuted(LEC.lemma_1().conclusion)
    _refuted(LEC.lemma_2().conclusion)


def test_lecture21_lemma_3_threshold(reports):
    """Not registered (lemma-3 is TESTED: Boole's inequality is checked exactly only for K = 1..4 events;
    the conclusion is TESTED on the exact tail of the max).
    Mutations: (a) the threshold log(K/delta) B/eps replaced by log(1/delta) B/eps (union over K forgotten):
    the union-bound step and the exact-tail conclusion REFUTED; (b) Boole's inequality strengthened to
    sum_i P(E_i) - P(u E_i) >= sum_w |w| p_w (each atom's count lowered by 1): REFUTED."""
    r = reports["lecture21-dp/lemma-3"]
    ok = LEC.lemma_3()
    _matches(r.steps, ok.steps, ProofVerdict.TESTED)
    _matches(r.conclusion, ok.conclusion, ProofVerdict.TESTED)
    assert LEC.sup_norm_step().verdict is ProofVerdict.PROVED
    assert LEC.boole_step().verdict is ProofVerdict.TESTED
    _refuted(LEC.boole_step(slack=1))
    d = sp.Symbol("delta", positive=True)
    bad = LEC.lemma_3(threshold=sp.log(1 / d))
    _refuted(bad.steps)
    _refuted(bad.conclusion)


def test_lecture21_lemma_4_rests_on_subadditivity(reports, monkeypatch):
    """Mutation: std/positive-part-subadditive reversed (max(0,a)+max(0,b) <= max(0,a+b), false).
    Expected: lemma-4 conclusion REFUTED (was PROVED)."""
    _same(reports["lecture21-dp/lemma-4"].conclusion, LEC.lemma_4().conclusion)
    _use_false_lemma(monkeypatch, LEC, "std/positive-part-subadditive")
    _refuted(LEC.lemma_4().conclusion)


def test_lecture21_lemma_5_rests_on_basic_composition(reports, monkeypatch):
    """Mutation: std/basic-composition with the bound eps1 + eps2 - 1 (false).
    Expected: lemma-5/independent conclusion REFUTED (was PROVED)."""
    cid = "lecture21-dp/lemma-5/independent"
    _same(reports[cid].conclusion, _by_id(LEC.lemma_5())[cid].conclusion)
    _use_false_lemma(monkeypatch, LEC, "std/basic-composition")
    _refuted(_by_id(LEC.lemma_5())[cid].conclusion)


def test_lecture21_lemma_6_eps_le_1_constant(reports):
    """Mutation: the constant 1.25 in sigma = sqrt(2 log(1.25/delta)) B/eps replaced by 0.25.
    Expected: lemma-6/eps-le-1 conclusion REFUTED (was CERTIFIED)."""
    cid = "lecture21-dp/lemma-6/eps-le-1"
    _same(reports[cid].conclusion, _by_id(LEC.lemma_6())[cid].conclusion)
    _refuted(_by_id(LEC.lemma_6(constant="0.25"))[cid].conclusion)


# ------------------------------------------------------------------ showkatbakhsh-regression
def test_showkatbakhsh_proposition_1_some_delta(reports, monkeypatch):
    """Mutation: the summed DP inequality's constant e^eps - 1 + 2 delta replaced by e^eps - 1 + 3 delta.
    Expected: proposition-1/some-delta steps and conclusion REFUTED (were PROVED)."""
    cid = "showkatbakhsh-regression/proposition-1/some-delta"
    ok = _by_id(SK.proposition_1())[cid]
    _same(reports[cid].steps, ok.steps)
    _same(reports[cid].conclusion, ok.conclusion)
    real = SK.tv_from_dp_lemma

    def false_tv():
        L = real()
        a, b, e, d = L.symbols
        return L.mutated(conclusion=_eq(L.lhs, (1 + sp.exp(e)) * (a - b) - (sp.exp(e) - 1 + 3 * d)))

    monkeypatch.setattr(SK, "tv_from_dp_lemma", false_tv)
    bad = _by_id(SK.proposition_1())[cid]
    _refuted(bad.steps)
    _refuted(bad.conclusion)


def test_showkatbakhsh_lemma_1_rests_on_channel_capacity(reports, monkeypatch):
    """Not registered (lemma-1 rests on the cited maximum-entropy bound: UNKNOWN).
    Mutation: std/gaussian-channel-capacity with the capacity doubled (false).
    Expected: lemma-1 steps and conclusion REFUTED (the refuted capacity step is the first failing step)."""
    r = reports["showkatbakhsh-regression/lemma-1"]
    ok = SK.lemma_1()
    _matches(r.steps, ok.steps, ProofVerdict.UNKNOWN)
    _matches(r.conclusion, ok.conclusion, ProofVerdict.UNKNOWN)
    _use_false_lemma(monkeypatch, SK, "std/gaussian-channel-capacity")
    bad = SK.lemma_1()
    _refuted(bad.steps)
    _refuted(bad.conclusion)


def test_showkatbakhsh_lemma_4_diagonal_identity(reports, monkeypatch):
    """Not registered (lemma-4 steps cite the triangle inequality: UNKNOWN).
    Mutation: the diagonal identity (35) with its right-hand side halved. Expected: lemma-4 steps REFUTED."""
    _matches(reports["showkatbakhsh-regression/lemma-4"].steps, SK.lemma_4().steps, ProofVerdict.UNKNOWN)
    real = SK.ridge_lemma

    def false_ridge():
        L = real()
        return L.mutated(conclusion=_eq(L.lhs, L.rhs / 2))

    monkeypatch.setattr(SK, "ridge_lemma", false_ridge)
    _refuted(SK.lemma_4().steps)


# ------------------------------------------------------------------ tu-projections
def test_tu_lemma_1_mutations(reports, monkeypatch):
    """Mutations of the statements behind lemma-1 (steps and conclusion CERTIFIED):
    (a) Laurent-Massart with the term 2x replaced by x (false): steps and conclusion REFUTED; (b) the linear-form
    MGF with the new term's variance doubled, (c) the sum of k squared normals given the chi2_(2k) MGF: steps
    REFUTED, conclusion UNKNOWN (the conclusion rests on the refuted chi2_k premise); (d) the joint-MGF exponent
    of the columns doubled: steps and conclusion no longer CERTIFIED (sympy cannot factor it: UNKNOWN)."""
    r = reports["tu-projections/lemma-1"]
    ok = TU.lemma_1()
    _same(r.steps, ok.steps)
    _same(r.conclusion, ok.conclusion)
    with monkeypatch.context() as m:
        _use_false_lemma(m, TU, "std/laurent-massart")
        bad = TU.lemma_1()
        _refuted(bad.steps)
        _refuted(bad.conclusion)
    for lemma_id in ("std/normal-linear-form-mgf", "std/chi-square-mgf"):
        with monkeypatch.context() as m:
            _use_false_lemma(m, TU, lemma_id)
            bad = TU.lemma_1()
            _refuted(bad.steps)
            assert bad.conclusion.verdict is ProofVerdict.UNKNOWN, bad.conclusion.evidence
    real = TU.columns_independent_step
    monkeypatch.setattr(TU, "columns_independent_step", lambda: real(factor=2))
    bad = TU.lemma_1()
    _not_good(bad.steps)
    _not_good(bad.conclusion)


def test_tu_lemma_2_rests_on_kenthapadi(reports, monkeypatch):
    """Mutation: the Kenthapadi sigma divided by 3. Expected: lemma-2/one-over-two-delta conclusion REFUTED
    (was CERTIFIED); its steps are UNKNOWN (no proof in the note: cited) and stay so."""
    cid = "tu-projections/lemma-2/one-over-two-delta"
    ok = _by_id(TU.lemma_2())[cid]
    _matches(reports[cid].steps, ok.steps, ProofVerdict.UNKNOWN)
    _same(reports[cid].conclusion, ok.conclusion)
    _use_false_lemma(monkeypatch, TU, "std/gaussian-mechanism-kenthapadi")
    bad = _by_id(TU.lemma_2())[cid]
    assert bad.steps.verdict is ProofVerdict.UNKNOWN
    _refuted(bad.conclusion)


def test_tu_lemma_4_mutations(reports, monkeypatch):
    """Mutations behind lemma-4 (steps and conclusion CERTIFIED): (a) the Gaussian tail radius s sqrt(2 log(1/delta))
    replaced by s sqrt(log(1/delta)), i.e. erfc(sqrt(log(1/delta)/2)) <= delta (false): steps and conclusion
    REFUTED; (b) the linear-form MGF with the new term's variance doubled: steps REFUTED, conclusion UNKNOWN
    (it rests on a refuted premise)."""
    r = reports["tu-projections/lemma-4"]
    ok = TU.lemma_4()
    _same(r.steps, ok.steps)
    _same(r.conclusion, ok.conclusion)
    with monkeypatch.context() as m:
        _use_false_lemma(m, TU, "std/gaussian-tail")
        bad = TU.lemma_4()
        _refuted(bad.steps)
        _refuted(bad.conclusion)
    _use_false_lemma(monkeypatch, TU, "std/normal-linear-form-mgf")
    bad = TU.lemma_4()
    _refuted(bad.steps)
    assert bad.conclusion.verdict is ProofVerdict.UNKNOWN, bad.conclusion.evidence


def test_tu_theorem_1_derived_rests_on_lemmas_1_and_2(reports, monkeypatch):
    """Steps CERTIFIED (Lemmas 1 and 2). Mutations: (a) Kenthapadi sigma divided by 3; (b) Laurent-Massart with
    2x replaced by x. Expected: theorem-1/derived steps REFUTED in each case."""
    cid = "tu-projections/theorem-1/derived"
    _same(reports[cid].steps, _by_id(TU.theorem_1())[cid].steps)
    for lemma_id in ("std/gaussian-mechanism-kenthapadi", "std/laurent-massart"):
        with monkeypatch.context() as m:
            _use_false_lemma(m, TU, lemma_id)
            _refuted(_by_id(TU.theorem_1())[cid].steps)


# ------------------------------------------------------------------ zhou-compression
def test_zhou_theorem_3_2_little_o_becomes_big_o(reports):
    """Not registered (both readings rest on Theorem 4.6, TESTED). Mutation: Delta_max = o(rate) replaced by
    Delta_max = O(rate) (exponent of g 1 -> 0), in both readings. Expected: TESTED -> UNKNOWN (the limit of
    (15) is not 0)."""
    ok, bad = _by_id(ZC.theorem_3_2()), _by_id(ZC.theorem_3_2(decay=0))
    for reading in ("sqrt-reading", "no-sqrt-reading"):
        cid = f"zhou-compression/theorem-3.2/{reading}"
        _matches(reports[cid].steps, ok[cid].steps, ProofVerdict.TESTED)
        assert bad[cid].steps.verdict is ProofVerdict.UNKNOWN, bad[cid].steps.evidence


def test_zhou_procedures_geometric_series(reports):
    """Not registered (procedure-4.1 rests on Lemma 4.4: TESTED; procedure-4.2's normalisation is stated:
    UNKNOWN). Mutation of the sympy step: the geometric series started at k = 1 instead of k = 0 (the first
    draw dropped). Expected: the law step PROVED -> UNKNOWN, and procedure-4.1 TESTED -> UNKNOWN."""
    assert ZC.geometric_law().verdict is ProofVerdict.PROVED
    assert ZC.geometric_law(first_draw=1).verdict is ProofVerdict.UNKNOWN
    ok, bad = _by_id(ZC.procedures()), _by_id(ZC.procedures(first_draw=1))
    cid = "zhou-compression/procedure-4.1"
    _matches(reports[cid].conclusion, ok[cid].conclusion, ProofVerdict.TESTED)
    assert bad[cid].conclusion.verdict is ProofVerdict.UNKNOWN


def test_zhou_remark_4_7_decomposition(reports, monkeypatch):
    """Steps PROVED (sympy decomposition and std/triangle-inequality-reals). Mutations: (a) ln(f_k/f_j) =
    ln(f_k/f_1) + 2 ln(f_1/f_j) (factor 1 -> 2): the decomposition step PROVED -> UNKNOWN, steps no longer PROVED;
    (b) the triangle inequality with its right-hand side halved (false): steps REFUTED. The conclusion rests on
    Theorem 4.6 (TESTED) and stays TESTED."""
    r = reports["zhou-compression/remark-4.7"]
    ok, bad = ZC.remark_4_7(), ZC.remark_4_7(second_factor=2)
    _same(r.steps, ok.steps)
    _matches(r.conclusion, ok.conclusion, ProofVerdict.TESTED)
    assert any(d.startswith("decomposition") and ": proved: " in d for d in ok.steps.details)
    assert any(d.startswith("decomposition") and ": unknown: " in d for d in bad.steps.details)
    _not_good(bad.steps)
    _use_false_lemma(monkeypatch, ZC, "std/triangle-inequality-reals")
    _refuted(ZC.remark_4_7().steps)


def test_zhou_theorem_5_1_isserlis_constant(reports):
    """Not registered (the conclusion rests on P[E] <= 1/n^2 from Lemma 4.4, TESTED). Mutation: Var(x_j x_k) =
    1 + rho^2 (Isserlis) replaced by 2 + rho^2. Expected: the conclusion of both readings TESTED -> UNKNOWN."""
    ok, bad = _by_id(ZC.theorem_5_1()), _by_id(ZC.theorem_5_1(var_constant=2))
    for reading in ("theta-reading", "omega-reading"):
        cid = f"zhou-compression/theorem-5.1/{reading}"
        _matches(reports[cid].conclusion, ok[cid].conclusion, ProofVerdict.TESTED)
        assert bad[cid].conclusion.verdict is ProofVerdict.UNKNOWN, bad[cid].conclusion.evidence


def test_zhou_theorem_5_1_omega_step_rate(reports):
    """Not registered (the omega-reading steps include two stated steps: UNKNOWN). Mutation: the claimed rate
    p tau = o(1) strengthened to p tau = o(1/sqrt(g)). Expected: the rate step PROVED -> UNKNOWN (limit C, not 0)."""
    cid = "zhou-compression/theorem-5.1/omega-reading"
    ok = _by_id(ZC.theorem_5_1())[cid].steps
    _matches(reports[cid].steps, ok, ProofVerdict.UNKNOWN)
    assert any(d.startswith("p tau = o(1): proved") for d in ok.details)
    bad = _by_id(ZC.theorem_5_1(rate=lambda g: 1 / sp.sqrt(g)))[cid].steps
    assert any(d.startswith("p tau = o(1): unknown") for d in bad.details)


def test_zhou_corollary_3_7_exponent(reports):
    """Mutation: the exponent of p = (n/ln 2np)^(1/4) changed to 1/2. Expected: corollary-3.7 steps no
    longer PROVED (TESTED)."""
    cid = "zhou-compression/corollary-3.7"
    _same(reports[cid].steps, _by_id(ZC.asymptotic_claims())[cid].steps)
    _not_good(_by_id(ZC.asymptotic_claims(p_exponent=sp.Rational(1, 2)))[cid].steps)
