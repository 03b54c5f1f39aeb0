"""The package's layout rules (issue 28), measured on the source tree:

* no import circle between modules of ``dpverify``, counting function-local imports too;
* no module of ``dpverify`` outside ``dpverify/cli`` (and ``dpverify/__main__``) imports ``dpverify.cli`` or the
  mechanisms package ``dpverify_mechanisms``;
* a function-local import of the package's own modules only where it defers a heavy or optional
  dependency, and then it says so with a trailing ``# deferred: <why>`` comment;
* no module over 600 lines and no function over 100 lines (data tables are listed in ``TABLES``);
* tests reach no private name (``_x``) of a ``dpverify`` module (tests use what the modules export).

Each rule fails with the offending modules, lines or names listed.
"""
from __future__ import annotations

import ast
import functools
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "dpverify"
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 100
#: Functions that are data tables (a literal table written as code), exempt from the function length rule.
TABLES: set[tuple[str, str]] = set()


def _modules() -> dict[str, Path]:
    mods = {}
    for p in PACKAGE.rglob("*.py"):
        parts = list(p.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = p
    return mods


MODULES = _modules()


@functools.lru_cache(maxsize=None)
def _source(path: Path) -> tuple[str, ast.Module]:
    text = path.read_text()
    return text, ast.parse(text)


def _target(module: str, is_package: bool, node: ast.ImportFrom, name: str) -> str:
    if node.level:
        base = module.split(".")
        if not is_package:
            base = base[:-1]
        base = base[: len(base) - (node.level - 1)]
        mod = ".".join(base + ([node.module] if node.module else []))
    else:
        mod = node.module or ""
    return f"{mod}.{name}" if f"{mod}.{name}" in MODULES else mod


@functools.lru_cache(maxsize=None)
def _imports(module: str, path: Path):
    """(target module, line, inside a function?, source line) for every import of dpverify* in ``module``."""
    text, tree = _source(path)
    lines = text.splitlines()
    is_package = path.name == "__init__.py"
    out = []

    def visit(node, in_function):
        for child in ast.iter_child_nodes(node):
            inner = in_function or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            if isinstance(child, ast.Import):
                targets = [a.name for a in child.names]
            elif isinstance(child, ast.ImportFrom):
                targets = [_target(module, is_package, child, a.name) for a in child.names]
            else:
                visit(child, inner)
                continue
            for t in targets:
                if t.split(".")[0] in ("dpverify", "dpverify_mechanisms"):
                    out.append((t, child.lineno, in_function, lines[child.lineno - 1]))
    visit(tree, False)
    return out


def _graph() -> dict[str, set[str]]:
    graph = {m: set() for m in MODULES}
    for m, p in MODULES.items():
        for t, _, _, _ in _imports(m, p):
            if t in MODULES and t != m:
                graph[m].add(t)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    index, low, stack, on, found, counter = {}, {}, [], set(), [], [0]

    def strong(v):  # Tarjan's strongly connected components, iteratively deep enough for this package
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return found


def test_no_import_circles():
    assert _circles(_graph()) == []


def test_imports_point_down_to_the_toolkit():
    upward = [(m, line, t) for m, p in MODULES.items() if not (m.startswith("dpverify.cli") or m == "dpverify.__main__")
              for t, line, _, _ in _imports(m, p) if t.startswith(("dpverify.cli", "dpverify_mechanisms"))]
    assert upward == []


def test_function_local_imports_defer_a_heavy_dependency_and_say_so():
    unexplained = [(m, line, src.strip()) for m, p in MODULES.items() for t, line, inner, src in _imports(m, p)
                   if inner and t.startswith("dpverify") and "# deferred:" not in src]
    assert unexplained == []


def test_module_and_function_sizes():
    big = {m: n for m, p in MODULES.items() if (n := len(_source(p)[0].splitlines())) > MAX_MODULE_LINES}
    assert big == {}
    long = []
    for m, p in MODULES.items():
        for node in ast.walk(_source(p)[1]):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and (m, node.name) not in TABLES:
                n = node.end_lineno - node.lineno + 1
                if n > MAX_FUNCTION_LINES:
                    long.append((m, node.name, n))
    assert long == []


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_tests_reach_no_private_names():
    hits = []
    for p in sorted((ROOT / "tests").rglob("*.py")):
        tree = ast.parse(p.read_text())
        where = str(p.relative_to(ROOT))
        aliases = set()
        for n in ast.walk(tree):
            if isinstance(n, ast.ImportFrom) and n.module and n.module.split(".")[0] == "dpverify":
                private_module = any(_private(x) for x in n.module.split("."))
                for a in n.names:
                    if _private(a.name) or private_module:
                        hits.append((where, n.lineno, f"from {n.module} import {a.name}"))
                    else:
                        aliases.add(a.asname or a.name)
            elif isinstance(n, ast.Import):
                for a in n.names:
                    if a.name.split(".")[0] == "dpverify":
                        if any(_private(x) for x in a.name.split(".")):
                            hits.append((where, n.lineno, f"import {a.name}"))
                        aliases.add((a.asname or a.name).split(".")[0])
        for n in ast.walk(tree):
            if isinstance(n, ast.Attribute) and _private(n.attr) and isinstance(n.value, ast.Name) and n.value.id in aliases:
                hits.append((where, n.lineno, f"{n.value.id}.{n.attr}"))
    assert hits == [], f"{len(hits)} private references in {len(Counter(h[0] for h in hits))} test files"


def test_the_rules_catch_what_they_are_for(tmp_path):
    """The adversary: the checks above find a circle, a long function and a private reach when there is one."""
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []
    src = "def f():\n" + "    x = 1\n" * (MAX_FUNCTION_LINES + 1)
    node = ast.parse(src).body[0]
    assert node.end_lineno - node.lineno + 1 > MAX_FUNCTION_LINES
    assert _private("_runner") and not _private("__init__") and not _private("runner")


def test_the_architecture_doc_names_every_stage_module():
    """docs/architecture.md is the map: every module of the three pipelines (auditing, accounting, symbolic) is
    named there, so a new or renamed stage is a doc change too."""
    doc = (ROOT / "docs" / "architecture.md").read_text()
    missing = []
    for m, p in MODULES.items():
        parts = m.split(".")
        if len(parts) < 3 or parts[1] not in ("auditing", "accounting", "symbolic") or p.name == "__init__.py":
            continue
        if p.name not in doc and f"{p.stem}.py" not in doc:
            missing.append(str(p.relative_to(ROOT)))
    assert missing == []
