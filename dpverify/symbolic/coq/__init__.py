"""Kernel-checked proofs: the Coq theorems under ``proofs/coq/`` and the claims they settle.

The package reads as its stages, each a module:

* :mod:`.manifest` -- ``MANIFEST``: one :class:`CoqEntry` per (claim id, Coq theorem), gathered from the ``COQ``
  declarations of the proof files (``proofs/<paper>.py``: each theorem declared at the claim it serves, with the
  ``.v`` file, the theorem, a one-line statement in the claim's own parameters, its :class:`Coverage` and, for a
  ``CLAIM`` entry, the claim's formal statement ``checks``). Nothing paper-specific lives in the toolkit.
* :mod:`.build` -- ``coqc`` on the ``.v`` files (:func:`compile_file`, :func:`compile_files`, :func:`compile_source`;
  their ``From DPVerify Require`` dependencies first), in a build folder of this process or the persistent cache of
  the shipped tree (:func:`cache_root`); :func:`using_tree` / :func:`scratch_tree` put another tree in use for a block.
* :mod:`.queries` -- what a compiled theorem rests on (:func:`assumptions`, :func:`disallowed_axioms`,
  :data:`ALLOWED_AXIOMS`) and what it states (:func:`theorem_types`, the statement check: its type as ``coqc`` prints
  it, compared with the claim's ``checks`` after :func:`normalise_type`).
* :mod:`.witnesses` -- non-vacuity: each ``CLAIM`` theorem's witness ``<theorem>_hyps_satisfiable``
  (``proofs/coq/Witnesses*.v``) proves exactly the theorem's hypotheses at a concrete instance
  (:func:`check_witnesses`).
* :mod:`.kernel` -- the hook of :func:`dpverify.symbolic.run_proofs`: :func:`apply_kernel_checks` (``kernel-checked``
  only when the theorem compiles with allowed axioms, its printed type is the claim's statement and its witness
  passes; never hiding a refutation), :func:`kernel_premise`, :func:`kernel_step`, :class:`kernel_premises`.
* :mod:`.premises` -- standard facts the theorems take as hypotheses (:data:`SPECTRAL`, :data:`RAYLEIGH`,
  :data:`DET_LAWS`, :data:`INTEGRATION`), named in ``kernel-checked given ...`` verdicts, and
  :data:`SPECTRAL_PROVED`, what the statements of the theorems built on the proved spectral theorem say instead.

``coqc`` is found on the PATH, or named by the environment variable ``DPVERIFY_COQC`` (empty: none).
"""
from __future__ import annotations

from .build import (DEFAULT_TIMEOUT, INSTALL_HINT, LOGICAL, CoqResult, CoqStatus, build_dir, cache_root, clear_caches,
                    coq_dir, coqc_path, coqc_version, compile_file, compile_files, compile_source, compiled_results,
                    dependencies, missing_libraries, scratch_tree, tree_hash, using_tree)
from .kernel import apply_kernel_checks, kernel_premise, kernel_premises, kernel_step
from .manifest import CoqEntry, Coverage, entries_for, gather_manifest, manifest_entries, using_manifest
from .premises import DET_LAWS, INTEGRATION, LAPLACE_BRIDGE, RAYLEIGH, SPECTRAL, SPECTRAL_PROVED
from .queries import (ALLOWED_AXIOMS, BOOLP_AXIOMS, EPSILON_AXIOM, assumptions, axioms_phrase, disallowed_axioms, first_error,
                      normalise_type, theorem_types)
from .witnesses import (SHAPE_FILE, WITNESS_GLOB, WITNESS_SUFFIX, WitnessCheck, WitnessStatus, check_witnesses,
                        run_witness_checks, witness_check_source, witness_files, witness_for)

__all__ = ["Coverage", "CoqEntry", "CoqStatus", "CoqResult", "MANIFEST", "ALLOWED_AXIOMS", "BOOLP_AXIOMS", "EPSILON_AXIOM",
           "axioms_phrase", "INSTALL_HINT",
           "LOGICAL", "DEFAULT_TIMEOUT", "coq_dir", "coqc_path", "coqc_version", "compile_file", "compile_files",
           "compile_source", "compiled_results", "dependencies", "missing_libraries", "build_dir", "tree_hash",
           "using_tree", "scratch_tree",
           "clear_caches", "assumptions", "disallowed_axioms", "first_error", "manifest_entries", "gather_manifest",
           "using_manifest", "entries_for", "apply_kernel_checks", "kernel_premise", "kernel_premises", "kernel_step",
           "WITNESS_SUFFIX", "WITNESS_GLOB", "SHAPE_FILE", "WitnessStatus", "WitnessCheck", "witness_files",
           "witness_for", "witness_check_source", "run_witness_checks", "check_witnesses", "theorem_types",
           "normalise_type", "SPECTRAL", "RAYLEIGH", "DET_LAWS", "INTEGRATION", "LAPLACE_BRIDGE",
           "SPECTRAL_PROVED", "cache_root"]


def __getattr__(name):
    """``MANIFEST``: the entries in force (:func:`manifest_entries`: gathered from the proof files on first use, or those of
    an enclosing :func:`using_manifest` block)."""
    if name == "MANIFEST":
        return manifest_entries()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
