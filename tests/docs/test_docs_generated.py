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


def test_check_tables_were_generated_from_these_sources():
    """Cheap guard of the expensive regions: the modules the documented run imported are unchanged
    since the tables were written (else the documented run may no longer reproduce them)."""
    ok, why = docs.sources_are_current()
    assert ok, why


def test_a_source_change_is_detected(tmp_path):
    import json

    (tmp_path / "docs").mkdir()
    doc = json.loads((docs.ROOT / docs.SOURCES_FILE).read_text())
    (tmp_path / docs.SOURCES_FILE).write_text(json.dumps(dict(doc, digest="0" * 64)))
    ok, why = docs.sources_are_current(tmp_path)
    assert not ok and "python -m dpverify.report.docs" in why
    (tmp_path / docs.SOURCES_FILE).write_text(json.dumps(dict(doc, files=doc["files"] + ["dpverify/gone.py"])))
    assert not docs.sources_are_current(tmp_path)[0]
    (tmp_path / docs.SOURCES_FILE).write_text("[]")
    assert not docs.sources_are_current(tmp_path)[0]


def test_check_tables_carry_the_family_wise_confidence():
    """Each generated check table ends with the footer saying at which per-row confidence its
    verdicts are (the main job's family-wise control)."""
    from dpverify.report.check_table import family_note
    from dpverify.registry import load_entries

    text = (docs.ROOT / "docs/mechanisms.md").read_text()
    note = family_note(len(load_entries()))
    for name in ("check-mechanisms", "check-faulty"):
        region = docs.region_pattern(name).search(text).group(2)
        assert note in " ".join(region.split()), name


@pytest.mark.slow
def test_check_tables_match_a_fresh_seed_0_run():
    """Re-runs every audit of ``dpverify check`` (minutes) and compares every row of both tables;
    timings are not compared."""
    run = docs.Run()
    text = (docs.ROOT / "docs/mechanisms.md").read_text()
    for region in docs.REGIONS:
        if region.name.startswith("check-"):
            stored = docs.comparable(docs.region_pattern(region.name).search(text).group(2)).splitlines()
            fresh = docs.comparable(region.produce(run)).splitlines()
            assert fresh == stored, region.name
    assert docs.generate(check=True) == []


def test_documented_run_catches_every_control_at_the_strict_confidence():
    """The generated faulty table (verdicts at confidence 1 - 0.05/m per row) has every control as
    expected: the faulty ones caught, the correct ones left alone."""
    from dpverify.registry import load_entries

    n = sum(1 for e in load_entries() if e.section == "faulty")
    region = docs.region_pattern("check-faulty").search((docs.ROOT / "docs/mechanisms.md").read_text()).group(2)
    assert f"\n{n}/{n} as expected\n" in region
