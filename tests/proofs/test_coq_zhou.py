"""The zhou-compression Coq theorems (proofs/coq/ZhouWeyl.v): they compile with the classical reals only, and
false variants of their statements are rejected by coqc with the same proof script. Deterministic (no sampling)."""
from __future__ import annotations

from dpverify.symbolic import coq

from _coq_checks import coq_file_tests


FILE = "ZhouWeyl.v"
THEOREMS = ("zhou_weyl_eigenvalue", "zhou_frobenius_entry_bound")

# (theorem, old, new, why the mutated statement is false)
MUTANTS = [
    ("zhou_weyl_eigenvalue", "lam >= l1 - d.", "lam >= l1 - d / 2.",
     "p = 1, Sigma_1 = l1, Delta = d > 0: the eigenvalue is l1 - d < l1 - d/2"),
]
SLOW_MUTANTS = [
    ("zhou_weyl_eigenvalue", "(forall x, Rabs (quad p D x) <= d * sq p x) ->\n", "",
     "without a bound on Delta the eigenvalue of Sigma_1 - Delta is unbounded below"),
    ("zhou_frobenius_entry_bound", "(INR p * M) * (INR p * M)", "(INR p * M) * M",
     "p = 2, all entries M = 1: the sum is 4 > 2"),
]


test_zhou_theorems_compile_with_classical_reals_only, test_zhou_mutant_is_rejected, test_more_zhou_mutants_are_rejected = \
    coq_file_tests(FILE, THEOREMS, MUTANTS, SLOW_MUTANTS, compile_slow=False)


def test_zhou_step_entries_do_not_upgrade_the_claims():
    entries = [e for e in coq.MANIFEST if e.file == FILE]
    assert {e.theorem for e in entries} == set(THEOREMS)
    assert all(e.coverage is coq.Coverage.STEP for e in entries)
