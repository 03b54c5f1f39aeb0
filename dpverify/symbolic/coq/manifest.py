"""The manifest: which Coq theorem serves which claim, gathered from the claims themselves.

Each proof file (``proofs/<paper>.py``) declares its Coq theorems beside the claims they serve, as a module-level
``COQ`` tuple of :class:`CoqEntry` values; nothing paper-specific is written here. :func:`manifest_entries` (the package's
``MANIFEST``) gathers every proof module's ``COQ`` in the order :func:`~dpverify.symbolic.proof_files.proof_modules`
gives (the order ``dpverify prove`` runs them), once per process; :func:`using_manifest` replaces it for a block (a
test's entries, a mapping mutant); :func:`entries_for` is one claim's entries.

An entry's :class:`Coverage` says how much of the claim the theorem settles: ``CLAIM`` (its conclusion, in the
claim's own parameters: the claim may become ``kernel-checked``) or ``STEP`` (one step of its proof, or the claim on a
restricted domain: the claim keeps its verdict and the report names the step).
"""
from __future__ import annotations

import enum
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Iterable, Iterator

from ...errors import InvalidArgument
from ..proof_files import proof_modules
from ..verdicts import Premise
from .queries import normalise_type

__all__ = ["Coverage", "CoqEntry", "manifest_entries", "gather_manifest", "using_manifest", "entries_for"]


class Coverage(str, enum.Enum):
    """How much of a claim a Coq theorem settles."""

    CLAIM = "claim"  # the claim's conclusion, in its own parameters
    STEP = "step"  # one step of its proof, or the claim on a restricted domain: the claim keeps its verdict


@dataclass(frozen=True)
class CoqEntry:
    """One (claim, Coq theorem) pair.

    ``checks`` (``CLAIM`` entries): the claim's formal statement, i.e. the theorem's type exactly as ``coqc`` must print
    it (``Check``; compared after :func:`normalise_type`): a theorem whose type differs -- weaker, other hypotheses,
    another theorem -- never makes the claim ``kernel-checked``. ``premises``: what the theorem takes as hypotheses
    beyond the claim's own (the spectral theorem, the laws of det, ...): the verdict is then ``kernel-checked given``
    them. ``claim_premises``: other claims whose conclusions the theorem takes as hypotheses; the verdict is capped at
    the weakest of their verdicts (the weakest-premise rule)."""

    claim_id: str
    file: str  # a file name in proofs/coq/
    theorem: str
    statement: str  # one line: what the theorem proves, in the claim's own parameters
    coverage: Coverage
    checks: str = ""
    premises: tuple[Premise, ...] = ()
    claim_premises: tuple[str, ...] = ()

    def __post_init__(self):
        if not isinstance(self.coverage, Coverage):
            raise InvalidArgument(f"coverage={self.coverage!r} must be a Coverage member (Coverage.CLAIM or Coverage.STEP).")
        if not self.file.endswith(".v") or "/" in self.file:
            raise InvalidArgument(f"file={self.file!r} must be the name of a .v file in proofs/coq/.")
        if any(not isinstance(x, Premise) for x in self.premises):
            raise InvalidArgument(f"premises={self.premises!r} must be Premise values.")
        object.__setattr__(self, "premises", tuple(self.premises))
        object.__setattr__(self, "claim_premises", tuple(self.claim_premises))
        object.__setattr__(self, "checks", normalise_type(self.checks))

    @property
    def where(self) -> str:
        return f"{self.theorem} (proofs/coq/{self.file})"




def gather_manifest() -> tuple[CoqEntry, ...]:
    """Every proof module's ``COQ`` declarations (each Coq theorem is declared at the claim it serves, in
    ``proofs/<paper>.py``), in the order of :func:`~dpverify.symbolic.proof_files.proof_modules`; empty when the
    proofs package is not installed."""
    try:
        mods = proof_modules()
    except InvalidArgument:  # the proofs package is not installed: no Coq declarations
        return ()
    out = []
    for m in mods:
        for e in getattr(m, "COQ", ()):
            if not isinstance(e, CoqEntry):
                raise InvalidArgument(f"{m.__name__}.COQ holds {e!r}, not a CoqEntry.")
            out.append(e)
    return tuple(out)


#: the gathered manifest (``gathered``) and the replacements of enclosing :func:`using_manifest` blocks (``stack``)
_STATE: dict = {"gathered": None, "stack": []}


def manifest_entries() -> tuple[CoqEntry, ...]:
    """The entries in force: those of the innermost :func:`using_manifest` block, else :func:`gather_manifest`'s
    (gathered on first use, then kept for the process)."""
    if _STATE["stack"]:
        return _STATE["stack"][-1]
    if _STATE["gathered"] is None:
        _STATE["gathered"] = gather_manifest()
    return _STATE["gathered"]


@contextmanager
def using_manifest(entries: Iterable[CoqEntry]) -> Iterator[tuple[CoqEntry, ...]]:
    """For the block, :func:`manifest_entries` (and ``coq.MANIFEST``) is ``entries``; the previous one after."""
    entries = tuple(entries)
    bad = [e for e in entries if not isinstance(e, CoqEntry)]
    if bad:
        raise InvalidArgument(f"entries holds {bad[0]!r}, not a CoqEntry.")
    _STATE["stack"].append(entries)
    try:
        yield entries
    finally:
        _STATE["stack"].pop()


def entries_for(claim_id: str) -> list[CoqEntry]:
    """The manifest entries of ``claim_id`` (possibly none)."""
    return [e for e in manifest_entries() if e.claim_id == claim_id]
