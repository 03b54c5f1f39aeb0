"""Non-vacuity of the kernel-checked theorems (issue 14): for every ``Coverage.CLAIM`` entry of
``dpverify.symbolic.coq.MANIFEST``, a witness ``<theorem>_hyps_satisfiable`` in ``proofs/coq/Witnesses*.v`` proves
the theorem's hypotheses at a concrete instance; its statement is, term for term, what ``WitnessShape.hyps_of``
reads off the theorem's type, and it rests on the classical reals only.

A theorem whose hypotheses contradict each other is proved by anything, and ``coqc`` accepts it; the
adversaries below are such theorems (and witnesses that cheat: admitted, axiom-based, stated for weaker or
hidden hypotheses), and the check must not pass for them.

Cost: the default suite checks the witnesses of ``Laplace.v``'s three theorems and the adversaries (one scratch run
on ``WitnessShape.v`` and ``Witnesses.v``'s small dependencies, plus one for the per-witness axioms): ~10 s;
``-m slow`` checks all 16 CLAIM theorems (it compiles every manifest file: ~20 s of coqc on one core).
"""
from __future__ import annotations

import re

import pytest

from dpverify.errors import InvalidArgument
from dpverify.symbolic import coq

needs_coq = pytest.mark.skipif(coq.coqc_path() is None, reason=f"coqc not on the PATH: {coq.INSTALL_HINT}")
CLAIMS = [e for e in coq.MANIFEST if e.coverage is coq.Coverage.CLAIM]


# ------------------------------------------------------------------------------ no coqc needed
def test_every_claim_theorem_has_a_witness_lemma():
    """A CLAIM entry without a witness fails here (so every new kernel-checked theorem must add one)."""
    assert len(CLAIMS) >= 16
    missing = [f"{e.file}:{e.theorem}" for e in CLAIMS if coq.witness_for(e.theorem) is None]
    assert not missing, f"no {coq.WITNESS_SUFFIX} lemma in proofs/coq/Witnesses*.v for: {missing}"


@needs_coq
def test_a_claim_entry_without_witness_is_reported_missing():
    entry = coq.CoqEntry("scratch/none", "Laplace.v", "lap_density_pos", "no witness on purpose", coq.Coverage.CLAIM)
    assert coq.witness_for(entry.theorem) is None
    res = coq.check_witnesses([entry])
    assert res[("Laplace.v", "lap_density_pos")].status is coq.WitnessStatus.MISSING


def test_witness_files_cannot_cheat_textually():
    """No admitted proof, axiom or section hypothesis in a witness file (Print Assumptions and the shape check
    catch these too; this names the line)."""
    files = coq.witness_files()
    assert files and "WitnessShape.v" not in files
    proj = (coq.coq_dir() / "_CoqProject").read_text().split()
    for f in files + [coq.SHAPE_FILE]:
        assert f in proj, f"{f} is not listed in proofs/coq/_CoqProject"
        src = re.sub(r"\(\*.*?\*\)", "", (coq.coq_dir() / f).read_text(), flags=re.S)
        bad = re.findall(r"\b(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Hypothesis|Hypotheses|Variable|"
                         r"Variables|Context|Conjecture)\b", src)
        assert not bad, (f, bad)
        # coq.compile_file compiles every DPVerify module the file requires first: the parser must see them all
        listed = [n for m in re.finditer(r"From\s+DPVerify\s+Require\s+(?:Import\s+|Export\s+)?([^.]*)\.", src)
                  for n in m.group(1).split()]
        assert coq.dependencies(src) == listed, (f, listed)


def test_witness_names_follow_the_convention_and_are_unique():
    names = []
    for f in coq.witness_files():
        names += re.findall(r"^\s*(?:Lemma|Example|Theorem)\s+(\w+" + coq.WITNESS_SUFFIX + r")\b",
                            (coq.coq_dir() / f).read_text(), flags=re.M)
    assert len(names) == len(set(names))
    assert {e.theorem + coq.WITNESS_SUFFIX for e in CLAIMS} <= set(names)


def test_witness_source_rejects_bad_references():
    with pytest.raises(InvalidArgument, match="theorem="):
        coq.witness_check_source([("k", "not an ident", "w")])
    with pytest.raises(InvalidArgument, match="key="):
        coq.witness_check_source([("a key", "t", "w")])


# ------------------------------------------------------------------------------ the real witnesses
@needs_coq
@pytest.mark.slow
def test_scalar_claim_theorems_have_satisfiable_hypotheses():
    """The CLAIM theorems whose witnesses live in Witnesses.v (small theorem files; the default suite checks
    Laplace.v's three in test_kernel_checked_verdict_names_the_witness)."""
    entries = [e for e in CLAIMS if coq.witness_for(e.theorem)[0] == "Witnesses.v"]
    assert len(entries) >= 6
    res = coq.check_witnesses(entries)
    bad = {k: (v.status.value, v.message[:400]) for k, v in res.items() if not v.ok}
    assert not bad, bad


@needs_coq
@pytest.mark.slow
def test_every_claim_theorem_has_satisfiable_hypotheses():
    res = coq.check_witnesses()
    assert set(res) == {(e.file, e.theorem) for e in CLAIMS}
    bad = {k: (v.status.value, v.message[:400]) for k, v in res.items() if not v.ok}
    assert not bad, bad
    print(f"\n{len(res)} CLAIM theorems: hypotheses shown satisfiable; check run "
          f"{max(v.seconds for v in res.values()):.1f} s")


# ------------------------------------------------------------------------------ adversaries
# One coqc run checks them all (a second run, per witness, attributes the axioms); each is its own test below.
_BAD = """From Coq Require Import Reals Lra.
Open Scope R_scope.
(* an inconsistent hypothesis set: proved by anything *)
Lemma bad_thm : forall x : R, 0 < x -> x < 0 -> 1 = 2.
Proof. intros x H1 H2. lra. Qed.
(* a consistent one, the positive control *)
Lemma good_thm : forall x : R, 0 < x -> x < 2 -> x * x < 4.
Proof. intros x H1 H2. nra. Qed.
Lemma good_thm_hyps_satisfiable : exists x : R, 0 < x /\\ x < 2.
Proof. exists 1. lra. Qed.
"""
_CHEATS = (
    # admitted: compiles, Print Assumptions lists the lemma itself
    "Lemma w_admitted : exists x : R, 0 < x /\\ x < 0.\nAdmitted.\n"
    # from an axiom
    "Axiom cheat : False.\nLemma w_axiom : exists x : R, 0 < x /\\ x < 0.\nProof. destruct cheat. Qed.\n"
    # the hypothesis that makes the set inconsistent dropped: provable, but not the theorem's hypotheses
    "Lemma w_weaker : exists x : R, 0 < x.\nProof. exists 1. lra. Qed.\n"
    # a section hypothesis False proves anything inside; closed, the witness reads False -> exists x, ...
    "Section Cheat.\nHypothesis h : False.\n"
    "Lemma w_hidden : exists x : R, 0 < x /\\ x < 0.\nProof. destruct h. Qed.\nEnd Cheat.\n"
    # the good theorem's hypotheses in another order: the shape is strict
    "Lemma w_swapped : exists x : R, x < 2 /\\ 0 < x.\nProof. exists 1. lra. Qed.\n"
)
# A real witness weakened: Laplace's with |mu - mu'| <= 2 M in place of <= M still compiles (true at the instance).
_LAPLACE_OLD = "exists eps M mu mu' x : R, 0 < eps /\\ 0 < M /\\ Rabs (mu - mu') <= M."


@pytest.fixture(scope="module")
def adversaries():
    if coq.coqc_path() is None:
        pytest.skip(coq.INSTALL_HINT)
    wsrc = (coq.coq_dir() / "Witnesses.v").read_text()
    assert _LAPLACE_OLD in wsrc
    weakened = wsrc.replace(_LAPLACE_OLD, _LAPLACE_OLD.replace("<= M.", "<= 2 * M."))
    items = [("good", "good_thm", "good_thm_hyps_satisfiable"), ("admitted", "bad_thm", "w_admitted"),
             ("axiom", "bad_thm", "w_axiom"), ("weaker", "bad_thm", "w_weaker"), ("hidden", "bad_thm", "w_hidden"),
             ("swapped", "good_thm", "w_swapped"),
             ("laplace", "Laplace.laplace_loss_scalar", "laplace_loss_scalar_hyps_satisfiable")]
    res = coq.run_witness_checks(items, requires=["Laplace"], preamble=_BAD + _CHEATS + weakened)
    assert isinstance(res, dict), getattr(res, "message", res)[-800:]
    return res


def test_positive_control_passes(adversaries):
    assert adversaries["good"].ok, adversaries["good"]


def test_admitted_witness_is_rejected(adversaries):
    r = adversaries["admitted"]
    assert r.status is coq.WitnessStatus.AXIOMS and "w_admitted" in r.message, r


def test_axiom_based_witness_is_rejected_and_attributed(adversaries):
    """The combined Print Assumptions shows the axioms; the per-witness pass attributes each to its witness only
    (the positive control in the same run stays satisfiable)."""
    r = adversaries["axiom"]
    assert r.status is coq.WitnessStatus.AXIOMS and "cheat" in r.message and "w_admitted" not in r.message, r


def test_witness_of_weaker_hypotheses_is_a_mismatch(adversaries):
    r = adversaries["weaker"]
    assert r.status is coq.WitnessStatus.MISMATCH and "x < 0" in r.message, r


def test_witness_under_a_hidden_hypothesis_is_a_mismatch(adversaries):
    assert adversaries["hidden"].status is coq.WitnessStatus.MISMATCH, adversaries["hidden"]


def test_conjuncts_must_follow_the_theorem(adversaries):
    assert adversaries["swapped"].status is coq.WitnessStatus.MISMATCH, adversaries["swapped"]


def test_a_real_witness_weakened_is_a_mismatch(adversaries):
    r = adversaries["laplace"]
    assert r.status is coq.WitnessStatus.MISMATCH and "Rabs (mu - mu') <= M" in r.message, r


@needs_coq
def test_inconsistent_hypotheses_have_no_witness():
    """The honest attempt at a witness for 0 < x and x < 0 does not compile: lra finds no proof, at that lemma."""
    pre = "Lemma bad_thm_hyps_satisfiable : exists x : R, 0 < x /\\ x < 0.\nProof. exists 1. lra. Qed.\n"
    items = [("bad", "bad_thm", "bad_thm_hyps_satisfiable")]
    res = coq.run_witness_checks(items, preamble=_BAD + pre)
    assert isinstance(res, coq.CoqResult) and res.status is coq.CoqStatus.FAILED, res
    assert "Syntax error" not in res.message and "was not found" not in res.message, res.message[-600:]
    source = coq.witness_check_source(items, preamble=_BAD + pre)
    line = int(re.findall(r"line (\d+)", res.message[: res.message.index("Error")])[-1])
    assert source.splitlines()[line - 1].startswith("Proof. exists 1. lra."), (line, res.message[-400:])


# ------------------------------------------------------------------------------ verdict text (opt-in)
def _report(cid):
    from dpverify.symbolic.proof import proved
    from dpverify.symbolic.verdicts import ClaimReport

    c = proved("sympy says so")
    return ClaimReport(cid, "a statement", steps=c, conclusion=c)


def test_witness_check_is_not_optional(monkeypatch):
    """Since round 9 the hook runs the witness check by default (no environment variable), and ``witnesses=False``
    promotes nothing: a theorem whose hypotheses are not shown satisfiable is never kernel-checked."""
    from dpverify.symbolic.verdicts import ProofVerdict

    called = []
    monkeypatch.setattr(coq.kernel, "check_witnesses", lambda *a, **kw: called.append(kw) or {})  # the hook's
    with pytest.raises(InvalidArgument, match="witnesses="):
        coq.apply_kernel_checks([_report("lecture21-dp/lemma-1")], witnesses="yes")
    r = coq.apply_kernel_checks([_report("lecture21-dp/lemma-1")], witnesses=False)[0]
    assert called == [] and r.conclusion.verdict is not ProofVerdict.KERNEL_CHECKED
    if coq.coqc_path() is not None:
        r = coq.apply_kernel_checks([_report("lecture21-dp/lemma-1")])[0]
        assert len(called) == 1  # by default: the check ran (here faked to give no result)
        assert r.conclusion.verdict is ProofVerdict.PROVED and "NOT shown satisfiable" in r.conclusion.evidence


@needs_coq
def test_kernel_checked_verdict_names_the_witness(monkeypatch):
    """The kernel-checked evidence names the witness; with the witness gone the claim is NOT kernel-checked (the
    witness decides). The check is restricted to Laplace.v's entries here to stay cheap."""
    from dpverify.symbolic.verdicts import ProofVerdict

    real = coq.check_witnesses
    laplace = [e for e in CLAIMS if e.file == "Laplace.v"]
    checked = real(laplace)  # the real check of Laplace.v's three witnesses (cached for the hook below)
    assert len(checked) == 3 and all(v.ok for v in checked.values()), checked
    pinned = coq.using_manifest([e for e in laplace if e.claim_id == "lecture21-dp/lemma-1"])
    with pinned:  # Laplace.v's entry only (the claim also has LaplaceMeasure.v's, with its own witness)
        r = coq.apply_kernel_checks([_report("lecture21-dp/lemma-1")])[0]
    assert r.conclusion.verdict is ProofVerdict.KERNEL_CHECKED
    assert "hypotheses shown satisfiable by Witnesses.laplace_loss_scalar_hyps_satisfiable" in r.conclusion.evidence
    monkeypatch.setattr(coq.witnesses, "witness_for", lambda theorem: None)  # what check_witnesses looks up
    r = coq.apply_kernel_checks([_report("lecture21-dp/lemma-1")])[0]  # every entry of the claim: no witness, none
    assert r.conclusion.verdict is ProofVerdict.PROVED
    assert "hypotheses are NOT shown satisfiable (no witness" in r.conclusion.evidence


@needs_coq
@pytest.mark.slow
def test_kernel_checked_verdicts_name_their_witnesses_for_every_claim():
    from dpverify.symbolic.verdicts import ProofVerdict

    reps = coq.apply_kernel_checks([_report(e.claim_id) for e in CLAIMS])
    for e, r in zip(CLAIMS, reps):
        if e.claim_premises:  # capped by the claims it takes as hypotheses (not in this list): not kernel-checked
            continue
        assert r.conclusion.verdict is ProofVerdict.KERNEL_CHECKED, (e.claim_id, r.conclusion.evidence[-300:])
        assert "hypotheses shown satisfiable by " in r.conclusion.evidence, (e.claim_id, r.conclusion.evidence[-300:])
