"""Checks shared by the per-file Coq tests (imported from the test modules of this folder).

``assert_compiles_classically``: the file compiles, its theorems use the classical reals only, and nothing is
admitted. ``assert_mutant_rejected``: replacing ``old`` by ``new`` in one theorem's statement (the text between
``Theorem``/``Lemma`` and ``Proof.``) makes coqc fail with the same proof script, at the mutated theorem or later
(never a syntax error or an unknown name, which would make the check vacuous)."""
from __future__ import annotations

import re

import pytest

from dpverify.symbolic import coq

needs_coq = pytest.mark.skipif(coq.coqc_path() is None, reason=coq.INSTALL_HINT)


def statement_span(src: str, theorem: str) -> tuple[int, int]:
    m = re.search(rf"^(Theorem|Lemma)\s+{theorem}\b", src, flags=re.M)
    assert m, theorem
    return m.start(), src.index("Proof.", m.end())


def assert_compiles_classically(file: str, theorems: tuple[str, ...]) -> None:
    res = coq.compile_file(file)
    assert res.ok, res.message[-800:]
    ax = coq.assumptions([(file, t) for t in theorems])
    assert isinstance(ax, dict), getattr(ax, "message", ax)
    for t in theorems:
        assert not coq.disallowed_axioms(ax[(file, t)]), (t, ax[(file, t)])
    src = (coq.coq_dir() / file).read_text()
    assert not re.search(r"\b(Admitted|admit|Axiom|Parameter)\b", src)


def assert_mutant_rejected(file: str, theorem: str, old: str, new: str, why: str) -> None:
    src = (coq.coq_dir() / file).read_text()
    a, b = statement_span(src, theorem)
    assert old in src[a:b], (theorem, old)
    mutated = src[:a] + src[a:b].replace(old, new) + src[b:]
    res = coq.compile_source(mutated, module="Mutant_" + file.removesuffix(".v"))
    assert res.status is coq.CoqStatus.FAILED, f"mutant accepted ({why}): {theorem}: {old!r} -> {new!r}"
    assert "Syntax error" not in res.message and "was not found" not in res.message, res.message[-600:]
    line = int(re.findall(r"line (\d+)", res.message[: res.message.index("Error")])[-1])
    assert line >= src[:a].count("\n") + 1, (line, res.message[-600:])  # the mutated statement's proof fails


def coq_file_tests(file: str, theorems: tuple[str, ...], mutants: list, slow_mutants: list, *,
                   compile_slow: bool = True):
    """The three tests every Coq file of the manifest gets, to bind to ``test_*`` names in its test module:
    it compiles with the classical reals only (``-m slow`` when ``compile_slow``: test_coq.py compiles every
    manifest file and checks its claim theorems by default), its ``mutants`` are rejected by coqc, and so are
    its ``slow_mutants`` (``-m slow``). Each mutant is ``(theorem, old, new, why the mutated statement is false)``."""

    def ids(m):
        return f"{m[0]}:{m[3][:30]}"

    @needs_coq
    def test_compiles_with_classical_reals_only():
        assert_compiles_classically(file, theorems)

    @needs_coq
    @pytest.mark.parametrize("mutant", mutants, ids=ids)
    def test_mutant_is_rejected(mutant):
        assert_mutant_rejected(file, *mutant)

    @needs_coq
    @pytest.mark.slow
    @pytest.mark.parametrize("mutant", slow_mutants, ids=ids)
    def test_more_mutants_are_rejected(mutant):
        assert_mutant_rejected(file, *mutant)

    if compile_slow:
        test_compiles_with_classical_reals_only = pytest.mark.slow(test_compiles_with_classical_reals_only)
    return test_compiles_with_classical_reals_only, test_mutant_is_rejected, test_more_mutants_are_rejected
