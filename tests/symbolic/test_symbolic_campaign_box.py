"""A certificate on a box must not hide a statement that is false outside it: the optimal-composition lemma
(tu-projections Lemma 3, certified for k <= 20) with the square root's exponent 1/2 -> 9/20 holds on the box but
fails at larger k; the numeric check finds it false on the whole domain and the checker refutes it (its search probes
outside the box since the KOV sum skips its zero terms). Deterministic (seeded searches, Arb, 50-digit re-checks)."""
from __future__ import annotations

import importlib

import mpmath

from dpverify.symbolic import ProofVerdict
from dpverify.symbolic.mutation import mutants, numerically_false
from dpverify.symbolic.numeric import optimal_composition_delta

TU = importlib.import_module("dpverify_proofs.tu_projections")


def _naive_kov(T, e, k):
    with mpmath.workdps(60):
        e, T = mpmath.mpf(e), mpmath.mpf(T)
        tot = mpmath.fsum(mpmath.binomial(k, l) * max(mpmath.exp(e * (k - l)) - mpmath.exp(T + e * l), 0)
                          for l in range(k + 1))
        return tot / (1 + mpmath.exp(e)) ** k


def test_kov_shortcut_is_exact():
    """Skipping the terms with eps (k - l) <= T + eps l changes nothing (they are <= 0)."""
    for T, e, k in ((0.5, 0.1, 10), (1.0, 0.3, 25), (0.0, 0.2, 7), (3.0, 1.0, 12), (2.0, 0.1, 40)):
        a, b = optimal_composition_delta(T, e, k), _naive_kov(T, e, k)
        assert abs(a - b) <= mpmath.mpf(10) ** -45 * (1 + abs(b)), (T, e, k, a, b)
    # an extreme total eps: every term is 0, returned at once (exp(T) is never evaluated)
    assert optimal_composition_delta(mpmath.mpf(10) ** 40, 100, 50) == 0


def test_box_certificate_does_not_hide_a_false_mutant():
    st = TU.statements()["tu-projections/lemma-3"]
    assert st.box["k"].hi <= 60
    (m,) = [m for m in mutants("tu-projections/lemma-3", st) if m.description == "literal 1/2 x 9/10"]
    pt = numerically_false(m.statement, n=100)
    assert pt is not None and pt["k"] > st.box["k"].hi, pt
    res = m.statement.check()
    assert res.verdict is ProofVerdict.REFUTED, res.evidence
    assert int(res.counterexample["k"]) > st.box["k"].hi, res.counterexample
