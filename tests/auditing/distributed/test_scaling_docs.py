"""The measured figures in docs/scaling.md and docs/performance.md are generated from the JSON
files of benchmarks/results/scaling/ (``bench_scaling.py docs``), never typed: regenerate and compare."""
from __future__ import annotations

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[3]


def _bench():
    spec = importlib.util.spec_from_file_location("bench_scaling", ROOT / "benchmarks" / "bench_scaling.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_scaling_tables_are_generated_from_the_measurements(monkeypatch):
    bench = _bench()
    monkeypatch.chdir(ROOT)
    text = bench._markdown("benchmarks/results/scaling")
    assert "| white-box | Dask LocalCluster, 2 workers |" in text  # the measurements are there
    for doc in ("docs/scaling.md", "docs/performance.md"):
        region = (ROOT / doc).read_text().split(bench.BEGIN, 1)[1].split(bench.END, 1)[0]
        assert region.strip("\n") == text.strip("\n"), f"{doc}: run bench_scaling.py docs --write {doc}"
