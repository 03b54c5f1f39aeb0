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
