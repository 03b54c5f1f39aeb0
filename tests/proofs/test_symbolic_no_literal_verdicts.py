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


def _truthy_constant(node: ast.AST) -> bool:
    """``x or True``-style tests: an ``or`` with a constant truthy operand (or ``and`` with a falsy one) is constant."""
    if isinstance(node, ast.BoolOp):
        want = isinstance(node.op, ast.Or)
        for v in node.values:
            if isinstance(v, ast.Constant) and bool(v.value) is want:
                return True
    return False


def _assignments(func: ast.AST) -> dict:
    """name -> the value expressions assigned to it inside ``func`` (plain, annotated and augmented assignments;
    loop targets and other bindings map to None, i.e. computed)."""
    out: dict = {}
    for n in ast.walk(func):
        if isinstance(n, ast.Assign):
            for t in n.targets:
                for nm in ast.walk(t):
                    if isinstance(nm, ast.Name):
                        out.setdefault(nm.id, []).append(n.value if isinstance(t, ast.Name) else None)
        elif isinstance(n, (ast.AnnAssign, ast.AugAssign)) and isinstance(n.target, ast.Name):
            out.setdefault(n.target.id, []).append(n.value if isinstance(n, ast.AnnAssign) else None)
        elif isinstance(n, (ast.For, ast.comprehension, ast.With, ast.NamedExpr)):
            tgt = getattr(n, "target", None)
            for nm in ast.walk(tgt) if tgt is not None else ():
                if isinstance(nm, ast.Name):
                    out.setdefault(nm.id, []).append(None)
    return out


def _computed(test: ast.AST, scope_assign: dict, params: set, module_assign: dict, depth: int = 0) -> bool:
    """Does ``test`` depend on a computation? A call, a parameter, an attribute of a name, or a name assigned (in the
    function, else at module level) from something computed. Names bound only to constants are constants: a guard
    ``if flag:`` with ``flag = True`` decides nothing."""
    if depth > 20 or _truthy_constant(test):
        return False
    for n in ast.walk(test):
        if isinstance(n, (ast.Call, ast.Attribute, ast.Subscript)):
            return True
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load):
            if n.id in params:
                return True
            vals = scope_assign.get(n.id, module_assign.get(n.id))
            if vals is None:
                return True  # a builtin or an import: computed elsewhere
            if any(v is None or _computed(v, scope_assign, params, module_assign, depth + 1) for v in vals):
                return True
    return False


def _leaves(stmt: ast.stmt) -> bool:
    return any(isinstance(n, (ast.Return, ast.Continue, ast.Break, ast.Raise)) for n in ast.walk(stmt))


def _parents(tree):
    par = {}
    for node in ast.walk(tree):
        for child in ast.iter_child_nodes(node):
            par[child] = node
    return par


def _enclosing(node, par):
    cur = par.get(node)
    while cur is not None and not isinstance(cur, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
        cur = par.get(cur)
    return cur


def _params(func) -> set:
    if func is None:
        return set()
    a = func.args
    return {x.arg for x in (*a.posonlyargs, *a.args, *a.kwonlyargs)} | {x.arg for x in (a.vararg, a.kwarg) if x}


def _guards(node, par):
    """The tests that decide whether ``node`` runs: enclosing if/while/conditional tests, and earlier ifs of the
    same blocks that leave the block."""
    child, cur = node, par.get(node)
    while cur is not None:
        if isinstance(cur, (ast.If, ast.IfExp, ast.While)) and child is not cur.test:
            yield cur.test
        for field in ("body", "orelse", "finalbody"):
            block = getattr(cur, field, None)
            if isinstance(block, list) and child in block:
                for prev in block[: block.index(child)]:
                    if isinstance(prev, ast.If) and _leaves(prev):
                        yield prev.test
        child, cur = cur, par.get(cur)


def _guarded(node, par, module_assign=None) -> bool:
    func = _enclosing(node, par)
    scope = _assignments(func) if func is not None else {}
    params = _params(func)
    module_assign = module_assign or {}
    return any(not _constant(t) and _computed(t, scope, params, module_assign) for t in _guards(node, par))


def _param_only_guards(node, par, module_assign) -> set | None:
    """If every guard of ``node`` that is computed depends only on parameters of the enclosing function (no call,
    no attribute, no computed local): those parameter names, else None."""
    func = _enclosing(node, par)
    if func is None or isinstance(func, ast.Lambda):
        return None
    params = _params(func)
    scope = _assignments(func)
    names = set()
    for t in _guards(node, par):
        if _constant(t) or not _computed(t, scope, params, module_assign):
            continue
        if any(isinstance(n, (ast.Call, ast.Attribute, ast.Subscript)) for n in ast.walk(t)):
            return None
        used = {n.id for n in ast.walk(t) if isinstance(n, ast.Name)}
        if not used <= params:
            return None
        names |= used
    return names or None


def _constant_call_args(tree, func: ast.FunctionDef, names: set) -> list[int]:
    """Line numbers of calls of ``func`` (by name, in this file) that give one of ``names`` a constant (explicitly,
    or by leaving a constant default)."""
    pos = [a.arg for a in (*func.args.posonlyargs, *func.args.args)]
    defaults = dict(zip(pos[len(pos) - len(func.args.defaults):], func.args.defaults))
    defaults.update({a.arg: d for a, d in zip(func.args.kwonlyargs, func.args.kw_defaults) if d is not None})
    bad = []
    for n in ast.walk(tree):
        if not (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == func.name):
            continue
        given = {pos[i]: a for i, a in enumerate(n.args) if i < len(pos)}
        given.update({k.arg: k.value for k in n.keywords if k.arg})
        for nm in names:
            v = given.get(nm, defaults.get(nm))
            if v is not None and _constant(v):
                bad.append(n.lineno)
                break
    return bad


def _stored_verdicts(tree, par) -> list[int]:
    """Decisive ProofVerdict members (or ProofVerdict("...") / ProofVerdict[...]) used other than in a comparison
    or as the verdict of a CheckResult call: e.g. kept in a dict of strings and looked up."""
    out = []
    for n in ast.walk(tree):
        member = isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name) and n.value.id == "ProofVerdict" \
            and n.attr in DECISIVE
        made = (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "ProofVerdict") or \
            (isinstance(n, ast.Subscript) and isinstance(n.value, ast.Name) and n.value.id == "ProofVerdict") or \
            (isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "getattr" and n.args
             and isinstance(n.args[0], ast.Name) and n.args[0].id == "ProofVerdict")
        if not (member or made):
            continue
        child, cur = n, par.get(n)
        ok = False
        while cur is not None and not isinstance(cur, ast.stmt):
            if isinstance(cur, ast.Compare):
                ok = True
                break
            if isinstance(cur, ast.Call) and isinstance(cur.func, ast.Name) and cur.func.id == "CheckResult" \
                    and cur.args and cur.args[0] is child and member:
                ok = True
                break
            if isinstance(cur, (ast.Tuple, ast.List, ast.Set)):
                child, cur = cur, par.get(cur)
                continue
            break
        if isinstance(cur, ast.Assign) and not ok:  # NAME = (ProofVerdict.PROVED, ...) used in comparisons only
            tgt = [t.id for t in cur.targets if isinstance(t, ast.Name)]
            uses = [u for u in ast.walk(tree) if isinstance(u, ast.Name) and u.id in tgt and isinstance(u.ctx, ast.Load)]
            ok = bool(tgt) and isinstance(child, (ast.Tuple, ast.List, ast.Set)) and all(
                _inside_compare(u, par) for u in uses)
        if not ok:
            out.append(n.lineno)
    return out


def _inside_compare(node, par) -> bool:
    cur = par.get(node)
    while cur is not None and not isinstance(cur, ast.stmt):
        if isinstance(cur, ast.Compare):
            return True
        cur = par.get(cur)
    return False


def _literal_counterexample(call: ast.Call) -> bool:
    ce = call.args[1] if len(call.args) > 1 else next((k.value for k in call.keywords if k.arg == "counterexample"), None)
    if isinstance(ce, ast.Dict):
        return all(_constant(v) for v in ce.values)
    return False


def violations(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(), filename=str(path))
    par = _parents(tree)
    module_assign = {k: v for k, v in _assignments(ast.Module(body=[s for s in tree.body if isinstance(
        s, (ast.Assign, ast.AnnAssign))], type_ignores=[])).items()}
    funcs = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    out = []
    for node in ast.walk(tree):
        kind = _is_verdict_call(node)
        if kind is None:
            continue
        where = f"{path.name}:{node.lineno}"
        if not _guarded(node, par, module_assign):
            out.append(f"{where}: {kind}(...) is built unconditionally (no computed test decides it)")
        else:
            names = _param_only_guards(node, par, module_assign)
            func = _enclosing(node, par)
            if names and isinstance(func, ast.FunctionDef) and funcs.get(func.name) is func:
                lines = _constant_call_args(tree, func, names)
                if lines:
                    out.append(f"{where}: {kind}(...) is decided only by parameters {sorted(names)} of "
                               f"{func.name}(), which line(s) {lines} pass as constants")
        if kind == "refuted" and _literal_counterexample(node):
            out.append(f"{where}: refuted(...) with a counterexample made of literals only")
    for line in _stored_verdicts(tree, par):
        out.append(f"{path.name}:{line}: a decisive ProofVerdict member kept or built outside a comparison or a "
                   f"CheckResult verdict (a verdict chosen by lookup)")
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


ATTACKS = {
    # a refutation built in a helper, decided only by a flag that its caller passes as a constant
    "helper_flag": ("def _verdict(msg, ok):\n    if ok:\n        return refuted(msg, {'x': msg})\n    return tested(msg)\n\n"
                    "def claim():\n    return _verdict('the claim is false', True)\n", "decided only by parameters"),
    # the verdict chosen by a dict lookup of strings
    "dict_lookup": ("VERDICTS = {'false': ProofVerdict.REFUTED, 'true': ProofVerdict.PROVED}\n\n"
                    "def claim(x):\n    if x > 0:\n        return CheckResult(VERDICTS['false'], 'by table')\n    return tested('x')\n",
                    "outside a comparison"),
    # a value computed and never compared: the guard is a name bound to a constant, or 'x or True'
    "unused_value": ("def claim():\n    value = compute_something()\n    decided = True\n    if decided:\n"
                     "        return proved('holds')\n    if value or True:\n        return refuted('no', {'v': str(value)})\n",
                     "unconditionally"),
}


@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_the_checker_catches_disguised_literal_verdicts(tmp_path, name):
    """Three disguised literal verdicts (the adversary): each must be reported."""
    src, expect = ATTACKS[name]
    f = tmp_path / f"{name}.py"
    f.write_text(src)
    bad = violations(f)
    assert any(expect in b for b in bad), (name, bad)
    if name == "unused_value":
        assert len([b for b in bad if "unconditionally" in b]) == 2, bad


def test_computed_guards_still_pass(tmp_path):
    """The strengthened rules do not flag verdicts decided by a computation (no false alarms on honest code)."""
    f = tmp_path / "honest.py"
    f.write_text("def _verdict(msg, ok):\n    if ok:\n        return refuted(msg, {'x': msg})\n    return tested(msg)\n\n"
                 "def claim(v):\n    value = compute(v)\n    flag = value > 1\n    if flag:\n        return proved('ok')\n"
                 "    if r.verdict is ProofVerdict.REFUTED:\n        return CheckResult(ProofVerdict.REFUTED, 'x', counterexample=r.c)\n"
                 "    return _verdict('no', value < 0)\n")
    assert violations(f) == []
