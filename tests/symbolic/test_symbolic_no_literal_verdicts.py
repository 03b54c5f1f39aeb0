"""No literal verdicts: every decisive verdict built in a proof file is decided by a computation.

The test reads the proof files' syntax trees. A *verdict constructor* is a call to ``proved``,
``certified``, ``refuted`` or ``CheckResult(ProofVerdict.PROVED | CERTIFIED | REFUTED, ...)``. Each one
must be

* guarded: inside the branch of an ``if`` / conditional expression whose test is not a constant, or
  after an earlier ``if`` of the same block (non-constant test) that leaves the block (return,
  continue, break, raise) -- so that some computed comparison decides whether the verdict is built;
* for ``refuted``: its counterexample must not be a dict display of constants only (the point must be
  the one the computation found, not typed in).

Verdicts that come from checkers (``Lemma.check``, ``ReducedStatement.check``, the library's searches)
do not appear as constructor calls in the proof files at all.
"""
from __future__ import annotations

import ast
from pathlib import Path

import pytest

PROOFS = Path(__file__).resolve().parents[2] / "proofs"
FILES = sorted(p for p in PROOFS.glob("*.py") if not p.name.startswith("_"))
CONSTRUCTORS = {"proved", "certified", "refuted"}
DECISIVE = {"PROVED", "CERTIFIED", "REFUTED"}


def _is_verdict_call(node: ast.AST) -> str | None:
    if not isinstance(node, ast.Call):
        return None
    fn = node.func
    name = fn.id if isinstance(fn, ast.Name) else fn.attr if isinstance(fn, ast.Attribute) else None
    if name in CONSTRUCTORS:
        return name
    if name == "CheckResult" and node.args:
        a = node.args[0]
        if isinstance(a, ast.Attribute) and a.attr in DECISIVE:
            return a.attr.lower()
    return None


def _constant(node: ast.AST) -> bool:
    return all(isinstance(n, (ast.Constant, ast.Load, ast.UnaryOp, ast.unaryop, ast.BoolOp, ast.boolop))
               for n in ast.walk(node))


def _leaves(stmt: ast.stmt) -> bool:
    return any(isinstance(n, (ast.Return, ast.Continue, ast.Break, ast.Raise)) for n in ast.walk(stmt))


def _parents(tree):
    par = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            par[child] = node
    return par


def _guarded(node, par) -> bool:
    child, cur = node, par.get(node)
    while cur is not None:
        if isinstance(cur, (ast.If, ast.IfExp, ast.While)) and child is not cur.test and not _constant(cur.test):
            return True
        if isinstance(cur, ast.comprehension) is False:
            for field in ("body", "orelse", "finalbody"):
                block = getattr(cur, field, None)
                if isinstance(block, list) and child in block:
                    for prev in block[: block.index(child)]:
                        if isinstance(prev, ast.If) and not _constant(prev.test) and _leaves(prev):
                            return True
        if isinstance(cur, (ast.FunctionDef, ast.Lambda)) and not isinstance(par.get(cur), (ast.Module, ast.ClassDef)):
            pass
        child, cur = cur, par.get(cur)
    return False


def _literal_counterexample(call: ast.Call) -> bool:
    ce = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "counterexample"), None)
    if isinstance(ce, ast.Dict):
        return all(_constant(v) for v in ce.values)
    return False


def violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    par = _parents(tree)
    out = []
    for node in ast.walk(tree):
        kind = _is_verdict_call(node)
        if kind is None:
            continue
        where = f"{path.name}:{node.lineno}"
        if not _guarded(node, par):
            out.append(f"{where}: {kind}(...) is built unconditionally (no computed test decides it)")
        if kind == "refuted" and _literal_counterexample(node):
            out.append(f"{where}: refuted(...) with a counterexample made of literals only")
    return out


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_no_literal_verdicts(path):
    bad = violations(path)
    assert not bad, "literal verdicts:\n" + "\n".join(bad)


def test_the_checker_catches_literal_verdicts(tmp_path):
    """The adversary: a file with an unconditional refutation and a literal counterexample is caught."""
    f = tmp_path / "fake.py"
    f.write_text("def c():\n    return refuted('false', {'x': '1'})\n\n"
                 "def d(v):\n    if v > 1:\n        return refuted('no', {'x': str(v)})\n    return tested('ok')\n")
    bad = violations(f)
    assert any("unconditionally" in b and ":2:" in b for b in bad)
    assert any("literals only" in b for b in bad)
    assert not any(":6:" in b for b in bad)
