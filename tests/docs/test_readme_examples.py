"""The README's Python blocks run as written and show what the README says they show."""
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_readme_python_blocks_run_and_give_the_stated_verdicts(capsys):
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)
    assert len(blocks) >= 2
    namespace: dict = {}
    exec(compile("\n".join(blocks), str(README), "exec"), namespace)
    out = capsys.readouterr().out.split("\n")
    # 1st block: the correct Laplace; 2nd: the half-scale bug (rng=0 in both: deterministic).
    assert out[0].startswith("not-violated 0.99")
    assert out[1].startswith("violated 1.9")


def test_readme_has_the_two_commands_that_ci_runs():
    text = README.read_text()
    assert "pip install . && dpverify check" in text
    assert re.search(r'^pip install -e "\.\[test\]" && pytest -n auto --dist loadfile$', text, re.M)
