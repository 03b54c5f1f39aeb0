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
