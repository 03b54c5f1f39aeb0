"""The full mapping-mutant campaign (``dpverify.symbolic.mapping_mutation``): the link between each kernel-checked
claim and its Coq theorem, attacked.

    python benchmarks/mapping_campaign.py [THEOREM ...]

Runs :func:`dpverify.symbolic.mapping_mutation.run_mapping_campaign` on every ``CLAIM`` entry of the Coq manifest (or
those whose theorem is named), with progress on stderr and the summary on stdout. Exit status 1 when a mutant keeps
``kernel-checked`` or a control is not. Needs ``coqc``. The figures of ``docs/proofs.md`` ("Mapping mutants") come from
this script; the test suite runs Laplace.v's entries (``tests/symbolic/test_mapping_mutation.py``).
"""
from __future__ import annotations

import sys

from dpverify.symbolic import coq
from dpverify.symbolic.mapping_mutation import run_mapping_campaign
from dpverify.symbolic.verdicts import ProofVerdict


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    entries = [e for e in coq.MANIFEST if e.coverage is coq.Coverage.CLAIM and (not argv or e.theorem in argv)]
    rep = run_mapping_campaign(entries, progress=lambda s: print(s, file=sys.stderr, flush=True))
    print(rep.summary())
    return 1 if rep.survivors or any(v is not ProofVerdict.KERNEL_CHECKED for _, v in rep.controls) else 0


if __name__ == "__main__":
    raise SystemExit(main())
