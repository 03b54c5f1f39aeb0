"""Shared test setup: the helper modules of ``tests/support`` (test doubles, fakes of the DP libraries,
Coq test builders) are importable from every test folder, whatever its depth."""
from __future__ import annotations

import sys
from pathlib import Path

SUPPORT = str(Path(__file__).resolve().parent / "support")
if SUPPORT not in sys.path:
    sys.path.insert(0, SUPPORT)


# -- mpmath's global precision: a test changes it only through ``mp.workdps`` / ``mp.workprec`` -----------------

import mpmath  # noqa: E402
import pytest  # noqa: E402

_START_PREC = mpmath.mp.prec


def pytest_collection_finish(session):
    """A test module that assigns ``mp.dps`` at import time changes every later test's arithmetic."""
    if mpmath.mp.prec != _START_PREC:
        raise pytest.UsageError(
            f"collecting the tests changed mpmath's global precision from {_START_PREC} to {mpmath.mp.prec} bits: a "
            "test module assigns mp.dps/mp.prec at import time; use `with mpmath.mp.workdps(N):` inside the test.")


@pytest.fixture(autouse=True)
def _mpmath_precision_restored(request):
    """Fails a test that leaves mpmath's global precision changed (use ``with mp.workdps(N):``)."""
    before = mpmath.mp.prec
    yield
    after = mpmath.mp.prec
    if after != before:
        mpmath.mp.prec = before  # the next test starts from the usual precision either way
        pytest.fail(f"{request.node.nodeid} changed mpmath's global precision from {before} to {after} bits and did "
                    "not restore it; use `with mpmath.mp.workdps(N):`.", pytrace=False)


# -- scheduling: the longest test files first ---------------------------------------------------------------------

#: Test files that take 20-75 s each (module fixtures that run every proof file or a whole `dpverify check`). The
#: README's command spreads whole files over the workers in collection order (`--dist loadfile`); started last,
#: one of them keeps one worker busy while the other idles. Listing them first only changes the order, never
#: which tests run; a stale entry costs time, not coverage.
LONGEST_FIRST = (
    "tests/mechanisms/test_conformance.py",
    "tests/proofs/test_symbolic_proofs.py",
    "tests/proofs/test_proofs_without_flint.py",
    "tests/proofs/test_proofs_zhou_compression.py",
    "tests/symbolic/test_symbolic_lemmas.py",
    "tests/auditing/blackbox/test_audit_blackbox_controls.py",
    "tests/proofs/test_proofs_jiang_wishart.py",
)


def pytest_collection_modifyitems(session, config, items):
    root = Path(__file__).resolve().parent.parent
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}

    def key(item):
        try:
            where = Path(str(item.fspath)).resolve().relative_to(root).as_posix()
        except ValueError:
            where = ""
        return rank.get(where, len(rank))

    items.sort(key=key)  # stable: the order within a file and among the other files is kept
