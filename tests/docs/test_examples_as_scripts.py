"""Every Python example of README.md and docs/*.md, saved as a script and run as a user would (issue 27,
item 4): exit 0, at its default settings, with no ``if __name__ == "__main__":`` guard.

Each example is classified below (a new or moved example fails ``test_every_example_is_classified``
until it is): a *script* is run as ``python example.py`` in a fresh interpreter (after the blocks it
continues, when it continues one); a *template* has placeholder names the reader fills in (checked:
they are used and not defined in the block); an *expected error* shows a library's crash on purpose.

Default suite (cheap representatives, a few seconds each): the accounting example, the audit without
pairs (a forgotten clamp found by the unaided search), and a script with a counter-driven sampler that ignores ``rng``, audited black-box at the default samples (the
path that died with BrokenProcessPool when workers were spawned and re-ran the script). Marked slow:
the README tour (also run in-process by test_readme_examples.py), the white-box profile example, the
calibration example (runs a paper's proof file on first use), and every example needing an optional
library (skipped with the reason when the library is not installed).
No example is statistical beyond what its own seed fixes (exit status only: no false-failure rate).
"""
from __future__ import annotations

import ast
import importlib.util
import pathlib
import re
import subprocess
import sys
import textwrap

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FENCE = re.compile(r"^```(?:python|py)\n(.*?)^```", re.S | re.M)

SCRIPT, TEMPLATE, EXPECTED_ERROR = "script", "template", "expected-error"

#: (file, index of the Python block in it) -> (kind, details). ``continues``: indices of earlier blocks
#: of the same file run first; ``needs``: importable modules; ``slow``: outside the default suite.
EXAMPLES: dict[tuple[str, int], tuple[str, dict]] = {
    ("README.md", 0): (SCRIPT, {"slow": True}),
    ("README.md", 1): (SCRIPT, {"continues": (0,), "slow": True}),
    ("README.md", 2): (TEMPLATE, {"placeholders": ("MyMechanism", "dataset", "neighbouring_dataset"),
                                  "why": "a pytest test of the reader's own mechanism"}),
    ("README.md", 3): (SCRIPT, {"needs": ("opendp",), "slow": True}),
    ("docs/accounting.md", 0): (SCRIPT, {}),
    ("docs/accounting.md", 1): (TEMPLATE, {"placeholders": ("sigma_schedule",),
                                          "why": "the reader's training loop over its own noise schedule"}),
    ("docs/accounting.md", 2): (SCRIPT, {"needs": ("dp_accounting",), "slow": True}),
    ("docs/auditing.md", 0): (SCRIPT, {"slow": True}),
    ("docs/auditing.md", 1): (TEMPLATE, {"placeholders": (), "why": "the signature of a mechanism method"}),
    ("docs/auditing.md", 2): (TEMPLATE, {"placeholders": (), "why": "the signature of a mechanism method"}),
    ("docs/auditing.md", 3): (SCRIPT, {}),
    ("docs/calibration.md", 0): (SCRIPT, {"slow": True}),
    ("docs/libraries.md", 0): (SCRIPT, {"needs": ("opendp",), "slow": True}),
    ("docs/libraries.md", 1): (EXPECTED_ERROR, {"needs": ("pipeline_dp",), "error": "ValueError", "slow": True}),
    ("docs/scaling.md", 0): (TEMPLATE, {"placeholders": ("mechanism", "pairs"),
                                       "why": "the reader's mechanism on a Dask cluster, 10^9 samples"}),
    ("docs/testing.md", 0): (TEMPLATE, {"placeholders": ("MyMechanism", "dataset", "neighbouring_dataset"),
                                       "why": "a pytest test of the reader's own mechanism"}),
    ("docs/testing.md", 1): (TEMPLATE, {"placeholders": ("NoisyMean",), "why": "a pytest test of the reader's own mechanism"}),
}


def _blocks() -> dict[tuple[str, int], str]:
    out = {}
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        rel = path.relative_to(ROOT).as_posix()
        for i, m in enumerate(FENCE.finditer(path.read_text())):
            out[(rel, i)] = m.group(1)
    return out


BLOCKS = _blocks()


def test_every_example_is_classified():
    assert set(BLOCKS) == set(EXAMPLES), (
        f"unclassified: {sorted(set(BLOCKS) - set(EXAMPLES))}; gone: {sorted(set(EXAMPLES) - set(BLOCKS))}")


def _defined(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


@pytest.mark.parametrize("key", [k for k, (kind, _) in EXAMPLES.items() if kind == TEMPLATE],
                         ids=lambda k: f"{k[0]}[{k[1]}]")
def test_templates_are_templates(key):
    """A template is not run; what makes it one is checked: its placeholders are used and never defined."""
    _, spec = EXAMPLES[key]
    assert spec["why"]
    text = BLOCKS[key]
    try:
        tree = ast.parse(text)
    except SyntaxError:  # a bare signature line (no body): a template by construction
        assert not spec["placeholders"] and re.match(r"\s*def \w+\(", text)
        return
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    for name in spec["placeholders"]:
        assert name in used and name not in _defined(tree), (key, name)
    if not spec["placeholders"]:  # a signature: one def whose body is at most a docstring
        (fn,) = tree.body
        assert isinstance(fn, ast.FunctionDef) and all(isinstance(s, ast.Expr) for s in fn.body)


def _run_script(text: str, tmp_path: pathlib.Path, timeout: float = 900) -> subprocess.CompletedProcess:
    script = tmp_path / "example.py"
    script.write_text(text)
    return subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True,
                          timeout=timeout)


def _params():
    out = []
    for key, (kind, spec) in EXAMPLES.items():
        if kind == TEMPLATE:
            continue
        marks = [pytest.mark.slow] if spec.get("slow") else []
        out.append(pytest.param(key, marks=marks, id=f"{key[0]}[{key[1]}]"))
    return out


@pytest.mark.parametrize("key", _params())
def test_example_runs_as_a_script(key, tmp_path):
    kind, spec = EXAMPLES[key]
    missing = [m for m in spec.get("needs", ()) if importlib.util.find_spec(m) is None]
    if missing:
        pytest.skip(f"needs {', '.join(missing)}, not installed here (pip install \"dpverify[{missing[0]}]\")")
    text = "\n".join(BLOCKS[(key[0], i)] for i in (*spec.get("continues", ()), key[1]))
    proc = _run_script(text, tmp_path)
    if kind == EXPECTED_ERROR:
        assert proc.returncode != 0 and f"{spec['error']}:" in proc.stderr, proc.stderr[-2000:]
        return
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert "BrokenProcessPool" not in proc.stderr and "bootstrapping phase" not in proc.stderr


COUNTER_SCRIPT = textwrap.dedent('''
    import numpy as np
    import dpverify
    from dpverify import PrivacyClaim

    class CounterRR:
        """Randomised response at eps = 1 whose randomness comes from a call counter, not from rng."""
        claim = PrivacyClaim(1.0)

        def __init__(self):
            self.calls = 0

        def sample(self, data, size, rng):
            self.calls += 1
            keep = np.random.default_rng([self.calls, 7]).random(size) < np.e / (1 + np.e)
            return np.where(keep, data, 1 - data)

    print("started", flush=True)  # printed twice if anything re-ran this script
    r = dpverify.audit(CounterRR(), (0, 1))
    print(r.verdict, r.samples, r.reproducible)
    assert any("ran serially" in n and "repeated" in n for n in r.notes)
''')


def test_an_unguarded_script_with_a_sampler_that_ignores_rng_runs_at_the_default_samples(tmp_path):
    proc = _run_script(COUNTER_SCRIPT, tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    lines = proc.stdout.split("\n")
    assert lines.count("started") == 1
    verdict, samples, reproducible = lines[1].split()
    assert verdict in ("not-violated", "inconclusive", "violated") and int(samples) > 0 and reproducible == "False"


HONEST_SCRIPT = textwrap.dedent('''
    import os
    import dpverify
    from dpverify import PrivacyClaim

    class Laplace:
        claim = PrivacyClaim(1.0)
        sensitivity = 1.0

        def sample(self, data, size, rng):
            return float(data) + rng.laplace(0.0, 1.0, size)

    print("started", os.getpid(), flush=True)
    r = dpverify.audit(Laplace(), (0.0, 1.0))   # default samples: the audit's own (forked) pool
    print(r.verdict, r.samples)
''')


@pytest.mark.slow
def test_an_unguarded_script_whose_sampler_honours_rng_runs_on_the_pool(tmp_path):
    proc = _run_script(HONEST_SCRIPT, tmp_path, timeout=300)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert sum(line.startswith("started") for line in proc.stdout.split("\n")) == 1
