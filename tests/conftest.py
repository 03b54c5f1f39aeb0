"""Shared test setup: the helper modules of ``tests/support`` (test doubles, fakes of the DP libraries,
Coq test builders) are importable from every test folder, whatever its depth."""
from __future__ import annotations

import sys
from pathlib import Path

SUPPORT = str(Path(__file__).resolve().parent / "support")
if SUPPORT not in sys.path:
    sys.path.insert(0, SUPPORT)
