"""Numbers in the docs are generated, not hand-kept: ``python -m dpverify.report.docs`` rewrites the
marked regions, and these tests fail when a region differs from a fresh run."""
from __future__ import annotations

import pytest

from dpverify.report import docs


def test_cheap_regions_match_a_fresh_run():
    assert docs.generate(check=True, cheap_only=True) == []


def test_drift_is_detected(tmp_path):
    """A region edited by hand (a mutated verdict) is reported, and regeneration repairs it."""
    for region in docs.REGIONS:
        target = tmp_path / region.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text((docs.ROOT / region.path).read_text())
    path = tmp_path / "docs/faulty.md"
    lines = path.read_text().splitlines(keepends=True)
    k = next(i for i, line in enumerate(lines) if line.startswith("svt-alg3-roth "))
    lines[k] = lines[k].replace("faulty control   violated", "faulty control   not violated")
    path.write_text("".join(lines))
    assert docs.generate(check=True, cheap_only=True, root=tmp_path) == ["controls-registry"]
    docs.generate(cheap_only=True, root=tmp_path)
    assert docs.generate(check=True, cheap_only=True, root=tmp_path) == []


@pytest.mark.slow
def test_check_tables_match_a_fresh_seed_0_run():
    """Re-runs every audit of ``dpverify check`` (minutes); timings are not compared."""
    assert docs.generate(check=True) == []
