"""The README's Python blocks run as written and show what the README says they show."""
import pathlib
import re

import pytest

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
    # every figure typed in a print line's comment is what that line prints (no hand-kept digits)
    typed = [m.group(1).strip() for b in blocks for line in b.splitlines()
             if (m := re.match(r"\s*print\(.*\)\s+#\s*(.+)$", line))]
    assert len(typed) >= 2
    for k, text in enumerate(typed):
        assert out[k].startswith(text), (text, out[k])


@pytest.mark.slow  # the calibration's exact minimum at 50 digits takes seconds
def test_readme_shell_comment_figures_are_what_the_command_prints(capsys, monkeypatch):
    """``#   a ... b`` under a ``dpverify`` line of a sh block: each ``...``-separated fragment is in
    the command's output (run in-process; only cheap commands carry such comments). The premise
    look-up of ``calibrate`` (it runs a paper's proof file; tested in tests/cli) is skipped here:
    the figures checked do not depend on it."""
    from dpverify.calibrate import check_section
    from dpverify.cli import main

    monkeypatch.setattr(check_section, "premise_of", lambda cal, announce=True: None)

    blocks = re.findall(r"```sh\n(.*?)```", README.read_text(), re.S)
    pairs = []
    for b in blocks:
        lines = b.splitlines()
        for cmd, nxt in zip(lines, lines[1:]):
            if cmd.startswith("dpverify ") and re.match(r"#\s{2,}\S", nxt):
                pairs.append((cmd.split()[1:], [f.strip() for f in nxt.lstrip("#").split("...")]))
    assert pairs, "the README's calibrate example lost its output comment"
    for argv, fragments in pairs:
        assert main(argv) == 0
        out = capsys.readouterr().out
        for f in fragments:
            assert f in out, (argv, f)


def test_readme_has_the_two_commands_that_ci_runs():
    text = README.read_text()
    assert re.search(r'^pip install "\.\[rigorous\]" && dpverify check$', text, re.M)
    assert re.search(r'^pip install -e "\.\[test\]" && pytest -n auto --dist loadfile$', text, re.M)
