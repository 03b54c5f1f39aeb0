"""run_proofs compiles the Coq tree in a background thread while the proof files' Python checks run (a cold
``dpverify prove`` uses both cores): the thread never outlives the call, and the verdicts are those of the proof
file's claims with the Coq theorems applied directly, without run_proofs (the same reports, claim by claim).
Deterministic."""
from __future__ import annotations

import importlib
import threading
from pathlib import Path

from dpverify.symbolic import coq, run_proofs

from _coq_checks import needs_coq

PROOFS = Path(__file__).resolve().parents[2] / "proofs"


@needs_coq
def test_the_prefetch_is_joined_and_changes_no_verdict():
    got = run_proofs([PROOFS / "lecture21_dp.py"])
    assert not [t for t in threading.enumerate() if t.name == "dpverify-coq-prefetch"]
    module = importlib.import_module("dpverify_proofs.lecture21_dp")
    direct = coq.apply_kernel_checks(list(module.claims()))
    assert [(r.id, r.strength_label, r.conclusion.evidence) for r in got] == \
           [(r.id, r.strength_label, r.conclusion.evidence) for r in direct]
