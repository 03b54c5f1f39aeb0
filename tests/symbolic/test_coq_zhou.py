"""The zhou-compression Coq theorems (proofs/coq/ZhouWeyl.v): they compile with the classical reals only, and
false variants of their statements are rejected by coqc with the same proof script. Deterministic (no sampling)."""
from __future__ import annotations

import re

import pytest

from dpverify.symbolic import coq

needs_coq = pytest.mark.skipif(coq.coqc_path() is None, reason=coq.INSTALL_HINT)

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


def _span(src: str, theorem: str) -> tuple[int, int]:
    m = re.search(rf"^Theorem\s+{theorem}\b", src, flags=re.M)
    assert m, theorem
    return m.start(), src.index("Proof.", m.end())


@needs_coq
def test_zhou_theorems_compile_with_classical_reals_only():
    res = coq.compile_file(FILE)
    assert res.ok, res.message[-800:]
    ax = coq.assumptions([(FILE, t) for t in THEOREMS])
    assert isinstance(ax, dict), getattr(ax, "message", ax)
    for t in THEOREMS:
        assert not coq.disallowed_axioms(ax[(FILE, t)]), (t, ax[(FILE, t)])
    src = (coq.coq_dir() / FILE).read_text()
    assert not re.search(r"\b(Admitted|admit|Axiom|Parameter)\b", src)


@needs_coq
@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: f"{m[0]}:{m[3][:30]}")
def test_zhou_mutant_is_rejected(mutant):
    _check_rejected(*mutant)


@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize("mutant", SLOW_MUTANTS, ids=lambda m: f"{m[0]}:{m[3][:30]}")
def test_more_zhou_mutants_are_rejected(mutant):
    _check_rejected(*mutant)


def _check_rejected(theorem, old, new, why):
    src = (coq.coq_dir() / FILE).read_text()
    a, b = _span(src, theorem)
    assert old in src[a:b], (theorem, old)
    res = coq.compile_source(src[:a] + src[a:b].replace(old, new) + src[b:], module="Mutant_ZhouWeyl")
    assert res.status is coq.CoqStatus.FAILED, f"mutant accepted ({why})"
    assert "Syntax error" not in res.message and "was not found" not in res.message, res.message[-600:]
    err_line = int(re.findall(r"line (\d+)", res.message[: res.message.index("Error")])[-1])
    assert err_line >= src[:a].count("\n") + 1  # the proof of the mutated statement fails, not an earlier line


def test_zhou_step_entries_do_not_upgrade_the_claims():
    entries = [e for e in coq.MANIFEST if e.file == FILE]
    assert {e.theorem for e in entries} == set(THEOREMS)
    assert all(e.coverage is coq.Coverage.STEP for e in entries)
