"""zhou-compression Theorem 4.6 and what rests on it (Theorem 3.2, Remark 4.7, Theorem D.2, the corrected
Proposition D.1 step): the Coq theorems of proofs/coq/ZhouTheorem46.v and ZhouBinary.v (classical reals only; false
variants of their statements rejected by coqc with the same proof script, each false variant shown false here at an
explicit point), the encoded assembly statement (proved; its tight mutants are false at explicit points and not
proved), the Python side of the claims (Theorem 4.6's premises C.1/C.2 cap it; a premise's verdict propagates to
3.2, 4.7 and D.2 through kernel_premise). Deterministic (seeded instance checks only)."""
from __future__ import annotations

import functools
import importlib
import math
from dataclasses import replace

import mpmath
import pytest
import sympy as sp

from dpverify.symbolic import ProofVerdict, coq
from dpverify.symbolic.proof import proved, refuted
from dpverify.symbolic.verdicts import CheckResult, ClaimReport

from _coq_checks import coq_file_tests

Z = importlib.import_module("dpverify_proofs.zhou_compression")

FILE = "ZhouTheorem46.v"
THEOREMS = ("zhou_theorem_4_6", "renormalisation_bound", "neg_ln_1m_bound", "l1_frobenius", "loglik_difference",
            "sum_quad_scov", "trace_l1_bound")
BFILE = "ZhouBinary.v"


# ---------------------------------------------------------------- the Coq statement, evaluated at p = 1 (exact)
def _coq_statement_at_p1(*, S1, Ti, s, g, A, n, P1, Pi, x, C, Dmax, renorm=sp.Rational(4, 3), half=sp.Rational(1, 2),
                         A_low=0, kept_factor=1, m=1):
    """Evaluate zhou_theorem_4_6 at p = 1 (m rows all equal to x) with exact numbers: (hypotheses hold, lhs, rhs).
    T1 = 1/S1, Si = 1/Ti, l1 = S1, li = Si (the Rayleigh bounds of 1 x 1 matrices), ln|Sigma| = ld with ld1 = 0 and
    ldi from C.1. The keyword arguments after ``x`` are the mutation hooks of the tests below."""
    T1, Si = 1 / sp.nsimplify(S1), 1 / sp.nsimplify(Ti)
    l1, li, G = sp.nsimplify(S1), Si, sp.nsimplify(Ti) - 1 / sp.nsimplify(S1)
    ld1 = 0
    ldi = A - G * S1  # C.1: ldi - ld1 = A - tr(Gamma Sigma_1)
    t = C * sp.sqrt(sp.log(2 * n) / m) + Dmax
    scov = x**2
    hyps = [abs(S1 * 1) <= s, abs(G) <= g, s * g <= half, A_low <= A, A <= G**2 * s**2 / (2 * (1 - s * g) ** 2),
            0 <= P1 <= 1 / sp.Integer(n) ** 2, 0 <= Pi <= 1 / sp.Integer(n) ** 2, abs(scov - S1) <= kept_factor * t,
            n >= 2, l1 > 0, li > 0]
    loglik = lambda T, ld: m * (-sp.log(2 * sp.pi) / 2 - ld / 2 - T * x**2 / 2)  # noqa: E731
    lhs = abs((loglik(T1, ld1) - sp.log(1 - P1)) - (loglik(sp.nsimplify(Ti), ldi) - sp.log(1 - Pi)))
    F = abs(S1 - Si)
    rhs = m * F / (2 * li * l1) * (t + 2 * F * s**2 / (li * l1)) + renorm / sp.Integer(n) ** 2
    return all(bool(h) for h in hyps), sp.N(lhs, 40), sp.N(rhs, 40)


def test_coq_statement_holds_at_the_witness_points():
    """The points below satisfy every hypothesis and the theorem as stated (so the mutants' failures are theirs)."""
    for kw in (dict(S1=1, Ti=1, s=1, g=0, A=0, n=2, P1=0, Pi=sp.Rational(1, 4), x=1, C=0, Dmax=0),
               dict(S1=1, Ti=sp.Rational(1, 2), s=1, g=sp.Rational(1, 2), A=sp.Rational(1, 2), n=2, P1=0, Pi=0, x=1, C=0,
                    Dmax=0),
               dict(S1=1, Ti=sp.Rational(3, 2), s=1, g=sp.Rational(1, 2), A=0, n=2, P1=0, Pi=0, x=sp.sqrt(11), C=0, Dmax=10)):
        ok, lhs, rhs = _coq_statement_at_p1(**kw)
        assert ok and lhs <= rhs, (kw, lhs, rhs)
    # the second point is tight: (m/2) A = m ||Gamma||_F^2 ||Sigma_1||^2 = (15)'s last term at s g = 1/2
    ok, lhs, rhs = _coq_statement_at_p1(S1=1, Ti=sp.Rational(1, 2), s=1, g=sp.Rational(1, 2), A=sp.Rational(1, 2), n=2,
                                        P1=0, Pi=0, x=1, C=0, Dmax=0, renorm=0)
    assert ok and abs(lhs - rhs) < 1e-30


# (theorem, old, new, why the mutated statement is false; the point is checked in the test below)
MUTANTS = [
    ("zhou_theorem_4_6", "+ 4 / 3 / (n * n).", "+ 1 / 3 / (n * n).",
     "p = 1, Sigma_1 = Sigma_i = 1, P_i[E] = 1/4, n = 2: |ln(3/4)| = 0.288 > (1/3)/4"),
    ("zhou_theorem_4_6", "s * g <= 1 / 2 ->", "s * g <= 1 ->",
     "p = 1, Sigma_1 = 1, Theta_i = 1/10, s g = 9/10, A at C.2's bound 40.5: (m/2) A = 20.25 > (15) + 1/3 = 1.14"),
    ("zhou_theorem_4_6", "0 <= A ->", "-1 <= A ->", "p = 1, Gamma = 0, A = -1: |(m/2) A| = 1/2 > (4/3)/4"),
    ("zhou_theorem_4_6", "<= C * sqrt (ln (2 * n * INR p) / INR m) + Dmax)",
     "<= 2 * (C * sqrt (ln (2 * n * INR p) / INR m) + Dmax))",
     "p = 1, Sigma_1 = 1, Theta_i = 3/2, Delta_max = 10, X^T X/m - Sigma_1 = 20 (twice the kept set): 5 > 3.08"),
    ("neg_ln_1m_bound", "<= 4 / 3 * x.", "<= x.", "x = 1/4: -ln(3/4) = 0.2877 > 1/4"),
    ("trace_l1_bound", "<= INR p * c * t.", "<= c * t.",
     "p = 2, Gamma = all ones (||Gamma||_F = c = 2), M = t everywhere: sum Gamma_jk M_jk = 4t > 2t"),
]
WITNESSES = [
    (dict(S1=1, Ti=1, s=1, g=0, A=0, n=2, P1=0, Pi=sp.Rational(1, 4), x=1, C=0, Dmax=0), dict(renorm=sp.Rational(1, 3))),
    (dict(S1=1, Ti=sp.Rational(1, 10), s=1, g=sp.Rational(9, 10), A=sp.Rational(81, 2), n=2, P1=0, Pi=0, x=1, C=0, Dmax=0),
     dict(half=1)),
    (dict(S1=1, Ti=1, s=1, g=0, A=-1, n=2, P1=0, Pi=0, x=1, C=0, Dmax=0), dict(A_low=-1)),
    (dict(S1=1, Ti=sp.Rational(3, 2), s=1, g=sp.Rational(1, 2), A=0, n=2, P1=0, Pi=0, x=sp.sqrt(21), C=0, Dmax=10),
     dict(kept_factor=2)),
]


@pytest.mark.parametrize("k", range(len(WITNESSES)))
def test_theorem_mutants_are_false_at_their_points(k):
    point, hook = WITNESSES[k]
    ok, lhs, rhs = _coq_statement_at_p1(**point, **hook)
    assert ok and lhs > rhs, (MUTANTS[k][3], lhs, rhs)
    ok0, _, _ = _coq_statement_at_p1(**point)  # the original's hypotheses exclude the point (or its bound holds)
    assert not ok0 or _coq_statement_at_p1(**point)[1] <= _coq_statement_at_p1(**point)[2]


def test_trace_step_mutant_is_false_and_the_step_is_tight():
    """trace_l1_bound without its factor p is false (all-ones Gamma, M = t), and with it tight there (4t = p c t)."""
    G = [[1, 1], [1, 1]]
    c = math.sqrt(sum(v * v for row in G for v in row))
    t = 0.7
    total = sum(G[j][k] * t for j in range(2) for k in range(2))
    assert total > c * t and math.isclose(total, 2 * c * t)


def test_theorem_4_6_trace_step_is_checked_not_stated():
    """The trace step (|<Gamma, M>| <= p ||Gamma||_F t on the kept set) was a 'not machine-checked' step whose text said
    it was kernel-checked: it is now ZhouTheorem46.trace_l1_bound through kernel_step (or, without Coq, tested on random
    instances, saying so)."""
    step = Z.trace_l1_step()
    assert step.verdict is (ProofVerdict.KERNEL_CHECKED if coq.coqc_path() else ProofVerdict.TESTED), step.evidence
    assert "trace_l1_bound (ZhouTheorem46.v)" in step.evidence
    # the claim's steps: tests/proofs/test_proofs_zhou_compression.py (its module fixture computes every claim)


def test_renormalisation_lemma_mutant_is_false():
    with mpmath.workdps(50):
        assert -mpmath.log(1 - mpmath.mpf(1) / 4) > mpmath.mpf(1) / 4


# -m slow (test_coq.py compiles every manifest file by default): the false variants and Print Assumptions of every
# theorem listed
test_theorem46_compiles_with_classical_reals_only, _, test_theorem46_more_mutants_are_rejected = \
    coq_file_tests(FILE, THEOREMS, [], MUTANTS)

CFILE = "ZhouTheorem46C.v"
CMUTANTS = [
    ("zhou_theorem_4_6_composed", "+ 4 / 3 / (n * n).", "+ 1 / 3 / (n * n).",
     "p = 1, Theta_1 = Theta_i = 1 (M = 1, d = 0, B(v) = 1, det the identity), P_i[E] = 1/4, n = 2: |ln(3/4)| > 1/12"),
    ("zhou_theorem_4_6_composed", "s * g <= 1 / 2 ->", "s * g < 1 ->",
     "p = 1, Sigma_1 = 1, Theta_i = 1/100 (s g = 0.99 < 1), the real A = d - ln(1 + d) = 3.615 (d = -0.99): "
     "(m/2) A = 1.81 > (15) + (4/3)/4 = 0.98 + 0.33"),
]
test_composed_compiles_with_classical_reals_only, _, test_composed_mutants_are_rejected = coq_file_tests(
    CFILE, ("zhou_theorem_4_6_composed",), [], CMUTANTS)


def test_composed_mutants_are_false():
    """The witnesses of CMUTANTS with the real A of Proposition C.1 at p = 1 (A = d - ln(1 + d), d = theta_i/theta_1 - 1)."""
    ok, lhs, rhs = _coq_statement_at_p1(S1=1, Ti=1, s=1, g=0, A=0, n=2, P1=0, Pi=sp.Rational(1, 4), x=1, C=0, Dmax=0,
                                        renorm=sp.Rational(1, 3))
    assert ok and lhs > rhs
    d = sp.Rational(1, 100) - 1
    A = d - sp.log(1 + d)
    ok, lhs, rhs = _coq_statement_at_p1(S1=1, Ti=sp.Rational(1, 100), s=1, g=-d, A=A, n=2, P1=0, Pi=0, x=1, C=0, Dmax=0,
                                        half=sp.Rational(999, 1000))  # s g = 0.99 < 1
    assert ok and lhs > rhs, (lhs, rhs)


BMUTANTS = [
    ("zhou_binary_frobenius", "<= (sqrt 2 * INR p / n) * (sqrt 2 * INR p / n)", "<= (INR p / n) * (INR p / n)",
     "the printed Proposition D.1: p = 2, x = (1, 1), y = (1, -1), n = 1: 8 > 4"),
    ("zhou_binary_frobenius", "<= 2 / n)", "<= 1 / n)", "x = (1, 1), y = (1, -1): entry (0, 1) is 2/n"),
]
test_binary_compiles_with_classical_reals_only, _, test_binary_more_mutants_are_rejected = \
    coq_file_tests(BFILE, ("zhou_binary_frobenius", "sumn_outer"), [], BMUTANTS)


def test_binary_mutants_are_false():
    x, y = (1, 1), (1, -1)
    fro2 = sum((x[a] * x[b] - y[a] * y[b]) ** 2 for a in range(2) for b in range(2))
    assert fro2 == 2 * 2**2 - 2 * (x[0] * y[0] + x[1] * y[1]) ** 2 == 8 > 2**2
    assert abs(x[0] * x[1] - y[0] * y[1]) == 2 > 1


def test_manifest_entries_are_steps_of_the_claims():
    ents = {(e.claim_id, e.theorem): e for e in coq.MANIFEST if e.file in (FILE, BFILE)}
    assert set(ents) == {("zhou-compression/theorem-4.6", "zhou_theorem_4_6"),
                         ("zhou-compression/remark-4.3", "renormalisation_bound"),
                         ("zhou-compression/proposition-d.1", "zhou_binary_frobenius"),
                         ("zhou-compression/theorem-d.2", "zhou_binary_frobenius")}
    # C.1 and C.2 are hypotheses of zhou_theorem_4_6: it is a STEP; only a theorem that composes it with the Coq
    # proofs of C.1 and C.2 (a file requiring both ZhouLogDet and ZhouTheorem46) may settle the claim
    assert all(e.coverage is coq.Coverage.STEP for e in ents.values())
    for e in coq.entries_for("zhou-compression/theorem-4.6"):
        if e.coverage is coq.Coverage.CLAIM:
            src = (coq.coq_dir() / e.file).read_text()
            assert "ZhouLogDet" in src and "ZhouTheorem46" in src, e
    e46 = ents[("zhou-compression/theorem-4.6", "zhou_theorem_4_6")]
    assert "Rayleigh definitions" in e46.statement and "(4/3)/n^2" in e46.statement and "s g <= 1/2" in e46.statement
    words = (coq.coq_dir() / "_CoqProject").read_text().split()
    assert FILE in words and BFILE in words


# ---------------------------------------------------------------- the encoded assembly statement
@pytest.mark.slow  # also in test_proofs_zhou_compression.py's check of every statement
def test_assembly_statement_is_proved():
    r = Z.theorem_4_6_statement().check()
    assert r.verdict is ProofVerdict.PROVED, r.evidence


def _tight_point(c_half, c_two):
    """At s g = 1 - u = c_half, A at C.2's bound, T = 0, t -> 0 and ||Delta||_F = ||Gamma||_F l_i l_1: lhs - rhs."""
    st = Z.theorem_4_6_statement()
    sym = {s.name: s for s in st.symbols}
    pt = {"m": 2, "p": 1, "L": 1, "s": 1, "t": sp.Rational(1, 10**6), "u": 1 - c_half, "Gamma_F": 1, "Delta_F": 1,
          "Gamma_1": sp.Rational(1, 10**6), "T": 0}
    pt["A"] = sp.Integer(pt["Gamma_F"]) ** 2 * pt["s"] ** 2 / (2 * sp.nsimplify(pt["u"]) ** 2)
    sub = {sym[k]: sp.nsimplify(v) for k, v in pt.items()}
    sub.update({sp.Symbol("c_half", positive=True): c_half, sp.Symbol("c_two", positive=True): c_two})
    hyps = [bool(h.subs(sub)) for h in st.hypotheses]
    c = st.conclusion
    return all(hyps), sp.N(c.lhs.subs(sub) - c.rhs.subs(sub), 30)


def test_assembly_is_tight_and_its_constant_mutants_are_false():
    ok, d = _tight_point(sp.Rational(1, 2), 2)
    assert ok and -1e-5 < d <= 0  # equality up to the t term
    for c_half, c_two in ((sp.Rational(11, 20), 2), (sp.Rational(1, 2), sp.Rational(9, 5))):
        ok, d = _tight_point(c_half, c_two)
        assert ok and d > 0, (c_half, c_two, d)


@pytest.mark.slow
def test_constant_mutants_of_the_assembly_are_not_proved():
    for c_half, c_two in ((sp.Rational(11, 20), 2), (sp.Rational(1, 2), sp.Rational(9, 5))):
        mut = replace(Z.theorem_4_6_statement(), constants={"c_half": c_half, "c_two": c_two})
        assert mut.check().verdict not in (ProofVerdict.PROVED, ProofVerdict.CERTIFIED)


@pytest.mark.slow
def test_a_false_assembly_leaves_theorem_4_6_weak(monkeypatch):
    """The flipped assembly (false: e.g. A, T -> 0) is not proved; the claim's steps name it and its conclusion is no
    stronger than the instance check (tested)."""
    st = Z.theorem_4_6_statement()
    flipped = replace(st, conclusion=sp.GreaterThan(st.conclusion.lhs, st.conclusion.rhs, evaluate=False))
    monkeypatch.setattr(Z, "theorem_4_6_statement", lambda: flipped)
    rep = Z.theorem_4_6.__wrapped__()
    assert rep.steps.verdict not in (ProofVerdict.PROVED, ProofVerdict.CERTIFIED, ProofVerdict.KERNEL_CHECKED)
    assert rep.conclusion.verdict in (ProofVerdict.TESTED, ProofVerdict.UNKNOWN, ProofVerdict.REFUTED)


def test_a_refuted_assembly_refutes_theorem_4_6(monkeypatch):
    lie = refuted("a made-up counterexample of the assembly (this test)", {"A": "1"})
    monkeypatch.setattr(Z, "theorem_4_6_statement", lambda: _Fixed(lie))
    monkeypatch.setattr(Z, "theorem_4_6_instances", functools.partial(Z.theorem_4_6_instances, cases=20))
    monkeypatch.setattr(coq, "kernel_premise", lambda rep, **kw: rep.conclusion)  # no Coq here: the file's logic only
    for name in ("proposition_c_1", "lemma_c_2", "proposition_3_1", "remark_4_3"):  # stand-ins: fast, tested
        stand_in = _report(_tested_stand_in(name))
        monkeypatch.setattr(Z, name, lambda r=stand_in: r)
    rep = Z.theorem_4_6.__wrapped__()
    assert rep.conclusion.verdict is ProofVerdict.REFUTED and rep.conclusion.counterexample == {"A": "1"}


def _tested_stand_in(name):
    from dpverify.symbolic.proof import tested

    return tested(f"stand-in for {name} (this test)")


class _Fixed:
    """A stand-in statement whose check returns a fixed result."""

    def __init__(self, result):
        self._r = result

    def check(self):
        return self._r


# ---------------------------------------------------------------- the claims
@pytest.mark.slow  # the real report (Coq compile, C.1/C.2 checks); test_proofs_zhou_compression.py builds it too
def test_theorem_4_6_report_reads_the_o1s_explicitly_and_is_capped_by_c1_c2():
    rep = Z.theorem_4_6()
    assert rep.conclusion.verdict is ProofVerdict.TESTED  # C.1 and C.2 are tested in Python (the file's own verdict)
    assert "Proposition C.1" in rep.conclusion.evidence and "Lemma C.2" in rep.conclusion.evidence
    assert any("||Sigma_1||_2 ||Gamma||_2 <= 1/2" in n and "(4/3)/n^2" in n for n in rep.notes)


def test_instance_check_against_the_explicit_reading():
    worst, used, worst_a, worst0 = Z.theorem_4_6_instances(cases=60, renorm=True, details=True)
    assert used > 10 and worst <= worst0 <= 1 and worst_a <= 0.25 + 1e-9  # (m/2) A <= m ||G||_F^2 s^2 / 4 here (s g < 1/2)
    shrunk, _ = Z.theorem_4_6_instances(cases=60, renorm=True, first_factor=worst / 4)
    assert shrunk > 1


def _report(verdict_result: CheckResult) -> ClaimReport:
    """A stand-in report of Theorem 4.6 with the given conclusion (its STEP theorem leaves the verdict as it is)."""
    return ClaimReport("zhou-compression/theorem-4.6", "stand-in (this test)", steps=verdict_result, conclusion=verdict_result)


@pytest.mark.parametrize("premise,expected", [
    (proved("a stand-in for the composed kernel check of Theorem 4.6 (this test)"), ProofVerdict.PROVED),
    (refuted("a made-up counterexample for this test", {"x": "1"}), ProofVerdict.UNKNOWN),
])
def test_dependents_follow_theorem_4_6(monkeypatch, premise, expected):
    """3.2 (both readings), 4.7 and D.2 take Theorem 4.6's verdict through kernel_premise: strong when it is, never
    stronger; a refuted premise leaves them unknown, not refuted."""
    _fast_statements(monkeypatch)
    rep = _report(premise)
    monkeypatch.setattr(Z, "theorem_4_6", lambda: rep)
    monkeypatch.setattr(coq, "kernel_premise", lambda r, **kw: r.conclusion)  # as without Coq (a STEP keeps the verdict)
    l44 = _report(proved("stand-in for Lemma 4.4 (this test)"))
    monkeypatch.setattr(Z, "lemma_4_4", lambda: l44)
    reps = [*Z.theorem_3_2(), Z.remark_4_7(), Z.theorem_d_2(Z.proposition_d_1())]
    for r in reps:
        assert r.conclusion.verdict is expected, (r.id, r.conclusion.evidence)
    # Theorem 3.2 also rests on Lemma 4.4 (the truncation 4.6 assumes): capped by it
    cert = _report(CheckResult(ProofVerdict.CERTIFIED, "stand-in for Lemma 4.4 (this test)"))
    monkeypatch.setattr(Z, "lemma_4_4", lambda: cert)
    if expected is ProofVerdict.PROVED:
        assert all(r.conclusion.verdict is ProofVerdict.CERTIFIED for r in Z.theorem_3_2())
        assert Z.remark_4_7().conclusion.verdict is ProofVerdict.PROVED


@pytest.mark.slow
def test_dependents_carry_theorem_4_6s_verdict():
    """With the real reports: while Theorem 4.6 is tested (C.1/C.2 not composed in Coq, or no coqc) 3.2, 4.7 and D.2
    are tested; once its CLAIM theorem is kernel-checked, 4.7 and D.2 are proved and 3.2 certified (Lemma 4.4)."""
    strong = coq.kernel_premise(Z.theorem_4_6()).verdict is ProofVerdict.KERNEL_CHECKED
    want = {"zhou-compression/remark-4.7": ProofVerdict.PROVED, "zhou-compression/theorem-d.2": ProofVerdict.PROVED,
            "zhou-compression/theorem-3.2/sqrt-reading": ProofVerdict.CERTIFIED,
            "zhou-compression/theorem-3.2/no-sqrt-reading": ProofVerdict.CERTIFIED}
    for r in [*Z.theorem_3_2(), Z.remark_4_7(), Z.theorem_d_2(Z.proposition_d_1())]:
        assert r.conclusion.verdict is (want[r.id] if strong else ProofVerdict.TESTED), r.id
        assert "Theorem 4.6" in r.conclusion.evidence


def _fast_statements(monkeypatch):
    """The dependents' encoded statements (checked for real in test_flipped_dependent_statements_are_not_proved and in
    test_proofs_zhou_compression.py) replaced by proved stand-ins: these tests are about the propagation."""
    ok = proved("stand-in for an encoded statement (this test)")
    for name in ("remark_4_7_statement", "theorem_d_2_statement"):
        monkeypatch.setattr(Z, name, lambda: _Fixed(ok))
    monkeypatch.setattr(Z, "theorem_3_2_statement", lambda reading="sqrt-reading": _Fixed(ok))


def test_dependents_adversaries(monkeypatch):
    _fast_statements(monkeypatch)
    rep = _report(proved("stand-in (this test)"))
    monkeypatch.setattr(Z, "theorem_4_6", lambda: rep)
    monkeypatch.setattr(coq, "kernel_premise", lambda r, **kw: r.conclusion)
    l44 = _report(proved("stand-in for Lemma 4.4 (this test)"))
    monkeypatch.setattr(Z, "lemma_4_4", lambda: l44)
    assert Z.theorem_3_2(decay=0)[0].conclusion.verdict is ProofVerdict.UNKNOWN  # O(.) instead of o(.): no limit 0
    assert Z.remark_4_7(second_factor=2).conclusion.verdict is ProofVerdict.UNKNOWN
    broken = refuted("stand-in (this test)", {"p": "2"})
    monkeypatch.setattr(Z, "binary_frobenius_step", lambda: broken)
    d2 = Z.theorem_d_2(Z.proposition_d_1())
    assert d2.conclusion.verdict is ProofVerdict.UNKNOWN and "corrected route is broken" in d2.conclusion.evidence


def test_binary_frobenius_step_and_mutant():
    assert Z.binary_frobenius_step().verdict is ProofVerdict.PROVED
    bad = Z.binary_frobenius_step(factor=sp.Rational(19, 10))
    assert bad.verdict is ProofVerdict.REFUTED
    ce = bad.counterexample
    assert sp.Integer(ce["frobenius_sq"]) > sp.nsimplify(ce["bound"])
    # the corrected bound is exact at x.y = 0 (p even): 2 p^2
    for p in (2, 4, 6):
        x = [1] * p
        y = [1] * (p // 2) + [-1] * (p // 2)
        assert sum((x[a] * x[b] - y[a] * y[b]) ** 2 for a in range(p) for b in range(p)) == 2 * p * p
    assert math.isclose(float(Z.binary_frobenius(4, 2, 4)[0]), math.sqrt(2) * 4 / 4)


# ---------------------------------------------------------------- the dependents' encoded statements
def _flip(st):
    c = st.conclusion
    return replace(st, conclusion=sp.GreaterThan(c.lhs, c.rhs, evaluate=False))


def test_dependent_statements_are_tight_where_stated():
    """Remark 4.7: c_sum < 1 is false at a = B_1 = b = B_2 = 1; D.2: c_frob x 11/10 is false when the last term
    dominates; Theorem 3.2: c_rate x 11/10 is false for large g (the C term decays like 1/g exactly)."""
    st = Z.remark_4_7_statement()
    a, b, B1, B2 = st.symbols
    assert abs(a + b).subs({a: 1, b: 1}) > sp.Rational(9, 10) * 2
    d2 = Z.theorem_d_2_statement()
    m, p, e, lam, C, Lq, nrm, F, Dm = d2.symbols
    cf = sp.Symbol("c_frob", positive=True)
    pt = {m: 1, p: 1, e: 1, lam: 1, C: sp.Rational(1, 1000), Lq: sp.Rational(1, 1000), nrm: 10, Dm: 2,
          F: sp.sqrt(2) * sp.Rational(11, 10)}
    assert all(bool(h.subs({**pt, cf: sp.sqrt(2) * sp.Rational(11, 10), sp.Symbol("c_dmax", positive=True): 2}))
               for h in d2.hypotheses)
    assert sp.N(d2.conclusion.lhs.subs(pt) - d2.conclusion.rhs.subs(pt), 30) > 0
    t32 = Z.theorem_3_2_statement("sqrt-reading")
    p, m, L, lam, nrm, C, g = t32.symbols
    pt = {p: 1, m: 1, L: 1, lam: 1, nrm: 1, C: 1, g: 10**12}
    lhs, rhs = t32.conclusion.lhs.subs(pt), t32.conclusion.rhs.subs(pt).subs(sp.Symbol("c_rate", positive=True),
                                                                              sp.Rational(11, 10))
    assert sp.N(lhs - rhs, 30) > 0


@pytest.mark.parametrize("name,make", [("remark_4_7_statement", lambda: Z.remark_4_7_statement()),
                                       ("theorem_d_2_statement", lambda: Z.theorem_d_2_statement())])
def test_a_refuted_dependent_statement_breaks_the_route(monkeypatch, name, make):
    lie = refuted(f"a made-up counterexample of {name} (this test)", {"x": "1"})
    monkeypatch.setattr(Z, name, lambda: _Fixed(lie))
    rep = _report(proved("stand-in (this test)"))
    monkeypatch.setattr(Z, "theorem_4_6", lambda: rep)
    monkeypatch.setattr(coq, "kernel_premise", lambda r, **kw: r.conclusion)
    got = Z.remark_4_7() if name.startswith("remark") else Z.theorem_d_2(Z.proposition_d_1())
    assert got.conclusion.verdict is ProofVerdict.UNKNOWN and "broken" in got.conclusion.evidence


def test_a_refuted_rate_statement_breaks_theorem_3_2(monkeypatch):
    lie = refuted("a made-up counterexample of the rate (this test)", {"g": "2"})
    monkeypatch.setattr(Z, "theorem_3_2_statement", lambda reading="sqrt-reading": _Fixed(lie))
    rep = _report(proved("stand-in (this test)"))
    monkeypatch.setattr(Z, "theorem_4_6", lambda: rep)
    monkeypatch.setattr(coq, "kernel_premise", lambda r, **kw: r.conclusion)
    l44 = _report(proved("stand-in for Lemma 4.4 (this test)"))
    monkeypatch.setattr(Z, "lemma_4_4", lambda: l44)
    for r in Z.theorem_3_2():
        assert r.conclusion.verdict is ProofVerdict.UNKNOWN and "broken" in r.conclusion.evidence


@pytest.mark.slow
def test_flipped_dependent_statements_are_not_proved():
    for st in (Z.remark_4_7_statement(), Z.theorem_d_2_statement(), Z.theorem_3_2_statement("sqrt-reading"),
               Z.theorem_3_2_statement("no-sqrt-reading")):
        assert st.check().verdict is ProofVerdict.PROVED, st.id
        assert _flip(st).check().verdict not in (ProofVerdict.PROVED, ProofVerdict.CERTIFIED), st.id
