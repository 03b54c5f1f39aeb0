"""Privacy tests of every shipped mechanism under the pytest plugin's ``ci`` profile: wall time.

Generates a test module with one privacy test per registered mechanism (``dpverify.registry``,
section "mechanisms"): ``dp_auditor.assert_private(entry.factory(), entry.pairs())``, runs it with
``pytest --dpverify-profile ci`` in a subprocess (one process, one core), and, as the reference
in the same run, times the same audits called directly (``dpverify.audit`` at the same samples,
confidence and seeds). Prints a markdown table for docs/performance.md.

    python benchmarks/bench_testing_ci_profile.py
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TEST_MODULE = '''
import pytest
from dpverify.registry import load_entries

ENTRIES = [e for e in load_entries() if e.section == "mechanisms"]


@pytest.mark.parametrize("entry", ENTRIES, ids=[e.name for e in ENTRIES])
def test_shipped_mechanism_keeps_its_claim(dp_auditor, entry):
    dp_auditor.assert_private(entry.factory(), entry.pairs())
'''


def main() -> None:
    from dpverify import audit
    from dpverify.registry import load_entries
    from dpverify.testing import DEFAULT_ALPHA_RUN, DEFAULT_SEED, PROFILES, Profile
    from dpverify.testing.profiles import check_confidence, check_seed

    entries = [e for e in load_entries() if e.section == "mechanisms"]
    samples = PROFILES[Profile.CI].samples
    with tempfile.TemporaryDirectory() as tmp:
        Path(tmp, "test_shipped_privacy.py").write_text(TEST_MODULE)
        Path(tmp, "pytest.ini").write_text("[pytest]\n")
        start = time.perf_counter()
        out = subprocess.run([sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-p", "no:hypothesispytest",
                              "--dpverify-profile", "ci", "--durations=0", "-q", "-rf", "--tb=line"],
                             cwd=tmp, capture_output=True, text=True)
        wall = time.perf_counter() - start
    durations = {m.group(2): float(m.group(1)) for m in
                 re.finditer(r"([0-9.]+)s call\s+\S+\[([^\]]+)\]", out.stdout)}
    failed = set(re.findall(r"^FAILED \S+::test_shipped_mechanism_keeps_its_claim\[([^\]]+)\]", out.stdout, re.M))

    # Reference: the same audits, called directly, in this process.
    confidence = check_confidence(DEFAULT_ALPHA_RUN, len(entries))
    direct = {}
    verdicts = {}
    t0 = time.perf_counter()
    for e in entries:
        nodeid = f"test_shipped_privacy.py::test_shipped_mechanism_keeps_its_claim[{e.name}]"
        t = time.perf_counter()
        r = audit(e.factory(), e.pairs(), samples=samples, confidence=confidence,
                  rng=check_seed(DEFAULT_SEED, nodeid, 0))
        direct[e.name] = time.perf_counter() - t
        verdicts[e.name] = r.verdict.value
    direct_total = time.perf_counter() - t0

    load = os.getloadavg()
    print(f"ci profile: {samples} samples per direction, seed {DEFAULT_SEED}, alpha_run {DEFAULT_ALPHA_RUN}, "
          f"{len(entries)} privacy tests, confidence {confidence:.6g} each; {os.cpu_count()} cores, "
          f"load average {load[0]:.1f}")
    print()
    print("| mechanism | pytest verdict | audit verdict | test seconds | direct audit seconds |")
    print("|---|---|---|---|---|")
    for e in entries:
        print(f"| {e.name} | {'failed' if e.name in failed else 'passed'} | {verdicts[e.name]} | "
              f"{durations.get(e.name, float('nan')):.2f} | {direct[e.name]:.2f} |")
    print()
    print(f"pytest wall time (process start to exit): {wall:.1f} s; direct audits: {direct_total:.1f} s; "
          f"ratio {wall / direct_total:.2f}")
    print(out.stdout.strip().splitlines()[-1])


if __name__ == "__main__":
    main()
