"""Mapping mutants (issue 33): the link between a claim and its Coq theorem, attacked; every mutant must lose the
strong verdict. The default suite builds the mutants of every claim entry (text only) and runs the statement mutant of
Laplace.v's scalar theorem (no recompilation); ``-m slow`` runs the four mutants of Laplace.v's entries, and the full
campaign is ``python benchmarks/mapping_campaign.py`` (figures in the round's report)."""
from __future__ import annotations

import pytest

from dpverify.symbolic import coq
from dpverify.symbolic.mapping_mutation import KINDS, check_mapping, mapping_mutants, run_mapping_campaign
from dpverify.symbolic.verdicts import ProofVerdict

from _coq_checks import needs_coq

CLAIMS = [e for e in coq.MANIFEST if e.coverage is coq.Coverage.CLAIM]


@pytest.mark.parametrize("entry", CLAIMS, ids=lambda e: e.theorem)
def test_every_claim_entry_gets_four_real_mutants(entry):
    ms = mapping_mutants(entry)
    assert [m.kind for m in ms] == list(KINDS)
    src = {name: (coq.coq_dir() / name).read_text() for m in ms for name, _ in m.edits}
    for m in ms:
        changed_entry = m.entry.checks != entry.checks
        changed_file = any(text != src[name] for name, text in m.edits)
        assert changed_entry or changed_file, m.kind  # never a no-op mutant
        if m.kind == "contradictory":
            assert "dpverify_s < 0" in m.entry.checks and changed_file
        if m.kind == "no-witness":
            [(name, text)] = m.edits
            assert f"{entry.theorem}_hyps_satisfiable" not in text


@needs_coq
def test_the_statement_mutant_loses_kernel_checked():
    [e] = [e for e in CLAIMS if e.theorem == "laplace_loss_scalar"]
    assert check_mapping(e).verdict is ProofVerdict.KERNEL_CHECKED  # the control
    [m] = [m for m in mapping_mutants(e) if m.kind == "statement"]
    res = check_mapping(m.entry, m.edits)
    assert res.verdict is ProofVerdict.PROVED and "STATEMENT MISMATCH" in res.evidence


@needs_coq
@pytest.mark.slow
def test_laplace_mapping_mutants_all_lose_kernel_checked():
    rep = run_mapping_campaign([e for e in CLAIMS if e.file == "Laplace.v"])
    assert all(v is ProofVerdict.KERNEL_CHECKED for _, v in rep.controls), rep.controls
    assert len(rep.outcomes) == 4 * 3 and rep.kill_rate == 1.0, rep.summary()
