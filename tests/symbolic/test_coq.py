"""Kernel-checked proofs (``proofs/coq/``, ``dpverify.symbolic.coq``): every manifest file compiles, no
admitted proof or axiom, ``Print Assumptions`` shows only the classical reals, mutated statements are
rejected by ``coqc`` (the adversary), and the ``dpverify prove`` hook reports ``kernel-checked`` only
when it should. Tests that need ``coqc`` skip with the install command when it is absent.

Cost: each file is compiled once per session (the ``compiled`` fixture; the hook shares the cache);
the compile times are printed (``pytest -s``) and kept in the failure messages.
"""
from __future__ import annotations

import re

import pytest

from dpverify.errors import InvalidArgument
from dpverify.symbolic import coq
from dpverify.symbolic.proof import proved, refuted
from dpverify.symbolic.verdicts import ClaimReport, ProofVerdict

needs_coq = pytest.mark.skipif(coq.coqc_path() is None, reason=f"coqc not on the PATH: {coq.INSTALL_HINT}")
FILES = sorted({e.file for e in coq.MANIFEST})


def _uses_interval(name: str) -> bool:
    src = (coq.coq_dir() / name).read_text()
    return "Interval" in src or any(_uses_interval(f"{d}.v") for d in coq.dependencies(src))


@pytest.fixture(scope="session")
def compiled():
    if coq.coqc_path() is None:
        pytest.skip(f"coqc not on the PATH: {coq.INSTALL_HINT}")
    res = coq.compile_files(FILES)
    print("\ncoqc " + coq.coqc_version() + ": " + ", ".join(f"{f} {r.seconds:.1f} s" for f, r in res.items()))
    return res


# ------------------------------------------------------------------ the files themselves (no coqc needed)
def test_manifest_names_existing_theorems():
    for e in coq.MANIFEST:
        src = (coq.coq_dir() / e.file).read_text()
        assert re.search(rf"^(Theorem|Lemma|Corollary)\s+{re.escape(e.theorem)}\b", src, flags=re.M), e
        assert e.statement.strip() and e.claim_id.count("/") >= 1
    assert {e.file for e in coq.MANIFEST} <= {p.name for p in coq.coq_dir().glob("*.v")}


def test_manifest_claim_ids_appear_in_the_proof_files():
    """Cheap guard: each component of a manifest claim id is written in the proof files (the full check,
    against the ids that run_proofs() reports, is the slow test below)."""
    from dpverify.symbolic.runner import proof_modules

    src = "\n".join(open(m.__file__).read() for m in proof_modules())
    for e in coq.MANIFEST:
        for part in e.claim_id.split("/")[1:]:
            assert re.search(rf"[/\"']{re.escape(part)}[\"'/]", src), (e.claim_id, part)


@pytest.mark.slow
def test_manifest_claim_ids_are_reported_claims():
    from dpverify.symbolic import run_proofs

    ids = {r.id for r in run_proofs(kernel_check=False)}
    assert {e.claim_id for e in coq.MANIFEST} <= ids, sorted({e.claim_id for e in coq.MANIFEST} - ids)


FORBIDDEN = re.compile(r"\b(Admitted|admit|Axiom|Axioms|Parameter|Parameters|Conjecture|Abort)\b")


@pytest.mark.parametrize("path", sorted(coq.coq_dir().glob("*.v")), ids=lambda p: p.name)
def test_no_admitted_or_axiom(path):
    src = path.read_text()
    bad = [(i + 1, ln.strip()) for i, ln in enumerate(src.splitlines()) if FORBIDDEN.search(ln)]
    assert not bad, f"{path.name}: {bad}"
    # every proof is closed with Qed (no Defined, no open proof)
    assert src.count("Proof.") == src.count("Qed."), path.name


def test_disallowed_axioms_filter():
    assert coq.disallowed_axioms(["Classical_Prop.classic", "ClassicalDedekindReals.sig_not_dec",
                                  "FloatAxioms.add_spec", "PrimInt63.add"]) == []
    assert coq.disallowed_axioms(["Laplace.my_axiom", "Classical_Prop.classicX"]) == ["Laplace.my_axiom",
                                                                                     "Classical_Prop.classicX"]


def test_bad_file_name_is_rejected():
    with pytest.raises(InvalidArgument, match="name="):
        coq.compile_file("../setup.py")
    with pytest.raises(InvalidArgument, match="name="):
        coq.compile_file("NoSuchFile.v")


# ------------------------------------------------------------------ coqc
@needs_coq
def test_every_manifest_file_compiles(compiled):
    """Every file compiles, except one needing a Coq library not installed here (mathcomp-algebra for the real
    determinant's files: then the claims keep their other theorems; tests/proofs/test_coq_zhou_det_mathcomp.py)."""
    failed = {f: r.message[-800:] for f, r in compiled.items()
              if not r.ok and not coq.missing_libraries((coq.coq_dir() / f).read_text())}
    assert not failed, failed
    assert set(compiled) == set(FILES)


@needs_coq
def test_print_assumptions_only_classical_reals(compiled):
    """The theorems that decide a verdict (coverage CLAIM; the same query as the hook's, cached):
    the allowed axioms only (the classical reals; Hilbert's epsilon for the mathcomp files, named in the verdict).
    The STEP theorems (Coquelicot and Interval: Print Assumptions walks those libraries for tens of seconds) are the
    slow test below."""
    items = [(e.file, e.theorem) for e in coq.MANIFEST if e.coverage is coq.Coverage.CLAIM and compiled[e.file].ok]
    ax = coq.assumptions(items)
    assert isinstance(ax, dict), ax
    for item, names in ax.items():
        assert not coq.disallowed_axioms(names), (item, names)
        assert not any(n.startswith(("PrimFloat", "FloatAxioms", "Uint63", "PrimInt63")) for n in names), (item, names)


@needs_coq
@pytest.mark.slow
def test_print_assumptions_step_theorems(compiled):
    """STEP theorems: the classical reals, and for those built with the Interval library the kernel's
    primitive int63/float64 specifications (nothing else)."""
    items = [(e.file, e.theorem) for e in coq.MANIFEST if e.coverage is coq.Coverage.STEP]
    assert items
    ax = coq.assumptions(items)
    assert isinstance(ax, dict), ax
    for item, names in ax.items():
        assert not coq.disallowed_axioms(names), (item, names)
        if not _uses_interval(item[0]):
            assert not any(n.startswith(("PrimFloat", "FloatAxioms", "Uint63", "PrimInt63")) for n in names), item


@needs_coq
def test_print_assumptions_catches_an_axiom(compiled):
    """The adversary of the axiom check: a theorem proved from a declared axiom is flagged."""
    src = ("From Coq Require Import Reals.\nOpen Scope R_scope.\nAxiom cheat : forall x : R, x <= 0.\n"
           "Theorem bogus : 1 <= 0. Proof. apply cheat. Qed.\n"
           'Goal True. idtac "@@dpverify-theorem Cheat.v bogus". exact I. Abort.\nPrint Assumptions bogus.\n')
    res = coq.compile_source(src, module="Cheat")
    assert res.ok, res.message
    assert "cheat" in res.message


# ------------------------------------------------------------------ mutants: false statements, same proof script
def _statement_span(src: str, theorem: str) -> tuple[int, int]:
    m = re.search(rf"^(Theorem|Lemma|Corollary|Definition)\s+{re.escape(theorem)}\b", src, flags=re.M)
    assert m, theorem
    end = src.index("Proof." if not src[m.start():].startswith("Definition") else ".\n", m.end())
    return m.start(), end


def mutate(file: str, theorem: str, old: str, new: str) -> str:
    """``file`` with ``old`` -> ``new`` inside the statement of ``theorem`` (its proof script unchanged)."""
    src = (coq.coq_dir() / file).read_text()
    a, b = _statement_span(src, theorem)
    stmt = src[a:b]
    assert old in stmt, (file, theorem, old)
    return src[:a] + stmt.replace(old, new) + src[b:]


# (file, theorem, old, new, why the mutated statement is false)
MUTANTS = [
    ("Laplace.v", "laplace_loss_vector", "(B / eps)", "(B / (2 * eps))",
     "scale halved: the loss reaches 2 eps at x = F(S), ||F(S) - F(S')||_1 = B"),
    ("Kenthapadi.v", "kenthapadi_identity", "8 * (L + eps)", "4 * (L + eps)",
     "constant 8 -> 4: the identity's two sides differ by eps^2/(8(L + eps)) > 0"),
    ("LaurentMassart.v", "laurent_massart_scalar", "<= k * t ^ 2 / (1 - 2 * t)", ">= k * t ^ 2 / (1 - 2 * t)",
     "inequality flipped: strict for every t in (0, 1/2)"),
]
SLOW_MUTANTS = [
    ("Laplace.v", "laplace_loss_scalar", "(M / eps)", "(M / (2 * eps))", "scale halved (scalar)"),
    ("Laplace.v", "laplace_loss_jiang", "lam > s1 / eps", "lam > s1 / (2 * eps)",
     "lam = 0.6 s1/eps gives loss s1/lam = 1.67 eps"),
    ("LaurentMassart.v", "laurent_massart_scalar", "k * t ^ 2 / (1 - 2 * t)", "k * t ^ 2 / 2",
     "-(1/2) ln(1 - 2t) - t = t^2 + O(t^3) > t^2/2"),
    ("Kenthapadi.v", "kenthapadi_tail_level", "/ 2 * exp (- t ^ 2 / 2) <= delta", "exp (- t ^ 2 / 2) <= delta / 4",
     "the bound is tight up to the constant eps^2/(8(L+eps)): false for small eps"),
    ("ExpLinear.v", "exp_le_1_plus_2x", "x <= 5 / 4", "x <= 3 / 2", "e^1.5 = 4.48 > 4"),
    ("TuTheorem2.v", "eps1", "8 * k * eps", "4 * k * eps", "then s eps_1 + 2k eps_1^2 = eps/2, not eps"),
    ("FiniteDP.v", "basic_composition_independent", "(eps1 + eps2)", "eps1",
     "randomized response in the second coordinate"),
    ("FiniteDP.v", "post_processing", "pure_dp lB eps (push", "pure_dp lB (eps / 2) (push",
     "the identity kernel keeps exactly eps"),
    ("ApproxToTV.v", "approx_dp_to_zero_eps", "approx_dp 0 (delta2 eps delta)", "approx_dp 0 (delta2 eps (delta / 2))",
     "randomized response mixed with delta attains delta''"),
]


def _check_rejected(file, theorem, old, new, why):
    src = mutate(file, theorem, old, new)
    module = "Mutant_" + file[:-2]
    res = coq.compile_source(src, module=module)
    assert res.status is coq.CoqStatus.FAILED, f"mutant accepted ({why}): {theorem}: {old!r} -> {new!r}"
    msg = res.message
    assert "Syntax error" not in msg and "was not found" not in msg, msg[-600:]
    # the error is at or after the mutated statement (the proof of the false statement fails)
    err = msg.index("Error")
    line = int(re.findall(r'line (\d+)', msg[:err])[-1])
    stmt_line = src[: _statement_span(src, theorem)[0]].count("\n") + 1
    assert line >= stmt_line, (line, stmt_line, msg[-600:])
    return res


@needs_coq
@pytest.mark.parametrize("mutant", MUTANTS, ids=lambda m: f"{m[1]}:{m[3]}")
def test_mutant_is_rejected(compiled, mutant):
    assert compiled[mutant[0]].ok  # the unmutated file compiles: the rejection is the mutation's doing
    _check_rejected(*mutant)


@needs_coq
@pytest.mark.slow
@pytest.mark.parametrize("mutant", SLOW_MUTANTS, ids=lambda m: f"{m[1]}:{m[3]}")
def test_more_mutants_are_rejected(compiled, mutant):
    assert compiled[mutant[0]].ok
    _check_rejected(*mutant)


def test_mutants_change_the_statement():
    for file, theorem, old, new, _ in MUTANTS + SLOW_MUTANTS:
        assert mutate(file, theorem, old, new) != (coq.coq_dir() / file).read_text()


# ------------------------------------------------------------------ the hook of dpverify prove
def _report(cid, conclusion):
    return ClaimReport(cid, "a statement", steps=conclusion, conclusion=conclusion)


@needs_coq
def _laplace_entry():
    """Laplace.v's entry of lecture21-dp/lemma-1 (the claim also has LaplaceMeasure.v's where mathcomp-analysis is
    installed); the hook tests below pin the manifest to it."""
    return [e for e in coq.MANIFEST if e.claim_id == "lecture21-dp/lemma-1" and e.file == "Laplace.v"]


def test_hook_reports_kernel_checked(compiled):
    with coq.using_manifest(_laplace_entry()):
        r = coq.apply_kernel_checks([_report("lecture21-dp/lemma-1", proved("sympy says so"))])[0]
    assert r.conclusion.verdict is ProofVerdict.KERNEL_CHECKED
    assert "laplace_loss_scalar" in r.evidence and "proofs/coq/Laplace.v" in r.evidence
    assert any("before the Coq check: proved" in d for d in r.conclusion.details)
    assert r.to_dict()["conclusion"] == "kernel-checked"


@needs_coq
def test_hook_never_hides_a_refutation(compiled):
    r = coq.apply_kernel_checks([_report("lecture21-dp/lemma-1", refuted("a counterexample", {"x": "1"}))])[0]
    assert r.conclusion.verdict is ProofVerdict.REFUTED
    assert r.conclusion.counterexample == {"x": "1"}
    assert "CONTRADICTION" in r.evidence and "laplace_loss_scalar" in r.evidence


@needs_coq
def test_hook_step_theorems_do_not_upgrade(compiled):
    r = coq.apply_kernel_checks([_report("tu-projections/lemma-1", proved("x"))])[0]
    assert r.conclusion.verdict is ProofVerdict.PROVED
    assert any("kernel-checked step" in n and "laurent_massart_scalar" in n for n in r.notes)


def test_hook_without_coq(monkeypatch):
    monkeypatch.setenv("DPVERIFY_COQC", "")
    r = coq.apply_kernel_checks([_report("lecture21-dp/lemma-1", proved("sympy says so")),
                                 _report("no-such-paper/claim", proved("y"))])
    assert r[0].conclusion.verdict is ProofVerdict.PROVED
    assert "Coq not available: install coq libcoq-interval libcoq-coquelicot" in r[0].evidence
    assert r[1].evidence == "y"


@needs_coq
def test_hook_with_a_false_theorem_file_is_not_kernel_checked(compiled, monkeypatch, tmp_path):
    """The adversary of the hook: proofs/coq/Laplace.v replaced by a mutant (scale halved) must not give
    kernel-checked (it does not compile; the claim keeps its own verdict and says so)."""
    (tmp_path / "Laplace.v").write_text(mutate("Laplace.v", "laplace_loss_scalar", "(M / eps)", "(M / (2 * eps))"))
    with coq.using_tree(tmp_path), coq.using_manifest(_laplace_entry()):  # a fresh build directory: no Laplace.vo
        r = coq.apply_kernel_checks([_report("lecture21-dp/lemma-1", proved("sympy says so"))])[0]
    assert r.conclusion.verdict is ProofVerdict.PROVED
    assert "did NOT compile" in r.evidence


@needs_coq
def test_a_result_cached_in_another_build_directory_is_not_reused(compiled, monkeypatch):
    """A file first compiled while another build directory was current (a test's ``coq.using_tree()``)
    must be compiled again in the current one: reusing that cached success sent the assumption query
    to a .vo that was not there ("Cannot find a physical path ... ApproxToTV")."""
    monkeypatch.setenv("DPVERIFY_COQ_CACHE", "0")  # temporary directories: two distinct ones, no query result on disk
    with coq.using_tree():  # the session's directory, for this test
        coq.clear_caches()  # forget the session's compilations: the next one happens in the fresh directory
        with coq.using_tree():
            assert coq.compile_file("ApproxToTV.v").ok
        fresh_dir_entries = coq.compiled_results()
        # back in the session's directory: the query must find ApproxToTV.vo there
        items = [(e.file, e.theorem) for e in coq.MANIFEST if e.file == "ApproxToTV.v"]
        ax = coq.assumptions(items)
        assert isinstance(ax, dict), getattr(ax, "message", ax)
        assert len(coq.compiled_results()) > len(fresh_dir_entries)  # it was compiled again, in the session's directory


def test_a_dependency_shared_by_one_wave_compiles_once(monkeypatch, tmp_path):
    """compile_files runs a wave of files in parallel: Top.v's thread compiles its dependency Mid.v while Mid.v's own
    thread compiles it too. One of them must compile it and the other reuse the result (two coqc writing the same
    .vo at once could fail at random). A fake coqc (a shell script) that records its calls and sleeps, so the two
    threads overlap."""
    src = tmp_path / "src"
    src.mkdir()
    (src / "Base.v").write_text("Lemma base : True. Proof. exact I. Qed.\n")
    (src / "Mid.v").write_text("From DPVerify Require Import Base.\nLemma mid : True. Proof. exact I. Qed.\n")
    (src / "Top.v").write_text("From DPVerify Require Import Mid.\nLemma top : True. Proof. exact I. Qed.\n")
    log = tmp_path / "calls.log"
    fake = tmp_path / "fake-coqc"
    fake.write_text('#!/bin/sh\nif [ "$1" = "--version" ]; then echo "The Coq Proof Assistant, version fake0"; exit 0; fi\n'
                    'for a in "$@"; do last="$a"; done\n'
                    f'basename "$last" >> "{log}"\nsleep 0.3\nexit 0\n')
    fake.chmod(0o755)
    monkeypatch.setenv("DPVERIFY_COQ_CACHE", "0")
    with coq.using_tree(src):
        out = coq.compile_files(["Base.v", "Mid.v", "Top.v"], coqc=str(fake), workers=2)
    assert all(r.ok for r in out.values())
    calls = log.read_text().split()
    assert sorted(calls) == ["Base.v", "Mid.v", "Top.v"]  # Mid.v once, not twice


def test_dependency_parser_reads_multi_line_requires():
    """compile_file compiles a file's DPVerify dependencies first; a Require whose module list spans lines (or has
    no Import/Export) must not hide one, and other libraries' Requires are not DPVerify dependencies."""
    src = ("From Coq Require Import Reals Lra.\nFrom DPVerify Require Import FiniteSums\n    ZhouRayleigh.\n"
           "From DPVerify Require Laplace.\nFrom DPVerify Require Export\n  ZhouLogDet  .\n")
    assert coq.dependencies(src) == ["FiniteSums", "ZhouRayleigh", "Laplace", "ZhouLogDet"]
    # every file of proofs/coq/: the parser agrees with a plain reading of its Require statements
    for f in sorted(coq.coq_dir().glob("*.v")):
        text = f.read_text()
        plain = [n for line in re.findall(r"From\s+DPVerify\s+Require\s+(?:Import\s+|Export\s+)?([^.]*)\.", text)
                 for n in line.split()]
        assert coq.dependencies(text) == plain, f.name
