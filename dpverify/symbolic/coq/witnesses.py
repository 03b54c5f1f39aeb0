"""Non-vacuity: the hypotheses of each kernel-checked theorem are shown satisfiable.

A theorem whose hypotheses can never hold together is proved by anything, and ``coqc`` accepts it. For each ``CLAIM``
theorem ``thm`` a lemma ``thm`` + :data:`WITNESS_SUFFIX` in one of the files ``proofs/coq/Witnesses*.v`` proves
``exists <thm's universally quantified objects>, H_1 /\\ ... /\\ H_n`` at a concrete instance. Its statement is
compared, term for term (Coq's ``constr_eq``: syntactic, up to the names of bound variables), with the hypotheses that
the tactic ``WitnessShape.hyps_of`` reads off ``thm``'s own type (every binder an existential, every non-dependent
propositional premise a conjunct, the conclusion dropped), so a witness of other, easier hypotheses does not count;
and it must rest on the classical reals only.

* :func:`witness_for` / :func:`witness_files` -- where a theorem's witness is;
* :func:`witness_check_source` / :func:`run_witness_checks` -- the Coq source of the check and its run (one ``coqc``
  for every item);
* :func:`check_witnesses` -- the check of manifest entries (default: every ``CLAIM`` entry), cached per content.
"""
from __future__ import annotations

import enum
import hashlib
import re
from dataclasses import dataclass
from typing import Iterable, Sequence

from ...errors import InvalidArgument
from .build import (DEFAULT_TIMEOUT, INSTALL_HINT, LOGICAL, CoqResult, coq_dir, coqc_path, compile_files,
                    compile_source, persistent_query, process_cache, save_query)
from .manifest import CoqEntry, Coverage, manifest_entries
from .queries import disallowed_axioms, first_error

__all__ = ["WITNESS_SUFFIX", "WITNESS_GLOB", "SHAPE_FILE", "WitnessStatus", "WitnessCheck", "witness_files",
           "witness_for", "witness_check_source", "run_witness_checks", "check_witnesses"]

WITNESS_SUFFIX = "_hyps_satisfiable"
WITNESS_GLOB = "Witnesses*.v"
SHAPE_FILE = "WitnessShape.v"
_WMARK = "@@dpverify-witness "


class WitnessStatus(str, enum.Enum):
    SATISFIABLE = "hypotheses shown satisfiable"
    MISSING = "no witness"
    FAILED = "witness did not compile"
    MISMATCH = "witness statement is not the theorem's hypotheses"
    AXIOMS = "witness rests on axioms outside the classical reals"
    UNAVAILABLE = "coq not available"


@dataclass(frozen=True)
class WitnessCheck:
    file: str  # the theorem's .v file
    theorem: str
    status: WitnessStatus
    witness: str = ""  # "<Module>.<lemma>", when one exists
    message: str = ""  # why not, or the witness's axioms
    seconds: float = 0.0  # the one coqc run that checked the shapes and axioms (shared by every item)

    @property
    def ok(self) -> bool:
        return self.status is WitnessStatus.SATISFIABLE


def witness_files() -> list[str]:
    """The witness files ``proofs/coq/Witnesses*.v``, sorted."""
    return sorted(p.name for p in coq_dir().glob(WITNESS_GLOB))


def witness_for(theorem: str) -> tuple[str, str] | None:
    """``(file, lemma)`` of the witness of ``theorem`` (``<theorem>_hyps_satisfiable`` in a ``Witnesses*.v``),
    or None. Raises :class:`InvalidArgument` if two files define it."""
    name = theorem + WITNESS_SUFFIX
    hits = [f for f in witness_files()
            if re.search(rf"^\s*(Lemma|Example|Theorem)\s+{re.escape(name)}\b", (coq_dir() / f).read_text(), flags=re.M)]
    if len(hits) > 1:
        raise InvalidArgument(f"theorem={theorem!r}: its witness {name} is defined in several files {hits}; keep one.")
    return (hits[0], name) if hits else None


def witness_check_source(items: Sequence[tuple[str, str, str]], *, requires: Sequence[str] = (),
                         preamble: str = "", per_item: bool = False) -> str:
    """The Coq source that checks each ``(key, theorem reference, witness reference)``: ``check_witness`` inside
    ``first [...]`` (a mismatch prints the expected statement and does not stop the others), each output after a
    marker line naming ``key``; then ``Print Assumptions`` of all the witnesses together (one traversal: a tuple of
    their proofs), or of each one when ``per_item``. ``requires``: the modules to load (``From DPVerify
    Require``); ``preamble``: Coq text placed after them (e.g. a scratch theorem and its witness)."""
    mods = " ".join(dict.fromkeys([SHAPE_FILE[:-2], *requires]))
    lines = [f"From {LOGICAL} Require {mods}.", f"Import {SHAPE_FILE[:-2]}.", preamble]
    for key, thm, wit in items:
        for ref, what in ((thm, "theorem"), (wit, "witness")):
            if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.']*", ref):
                raise InvalidArgument(f"{what}={ref!r} must be a Coq identifier (qualified names allowed).")
        if not re.fullmatch(r"[A-Za-z0-9_.:']+", key):
            raise InvalidArgument(f"key={key!r} must be letters, digits and '_', '.', ':' (it is printed in the output).")
        lines.append(f'Goal True. idtac "{_WMARK}{key} shape". '
                     f'first [ check_witness {thm} {wit}; idtac "@@match" '
                     f'| idtac "@@mismatch"; show_hyps {thm} ]. exact I. Qed.')
        if per_item:
            lines.append(f'Goal True. idtac "{_WMARK}{key} axioms". exact I. Abort.')
            lines.append(f"Print Assumptions {wit}.")
    if items and not per_item:
        lines.append(f"Definition dpverify_all_witnesses := ({', '.join(w for _, _, w in items)}).")
        lines.append(f'Goal True. idtac "{_WMARK}* axioms". exact I. Abort.')
        lines.append("Print Assumptions dpverify_all_witnesses.")
    return "\n".join(lines) + "\n"


def _parse_witness_output(message: str) -> dict[str, dict]:
    out: dict[str, dict] = {}
    cur, part = None, None
    for line in message.splitlines():
        if line.startswith(_WMARK):
            key, part = line[len(_WMARK):].split()
            cur = out.setdefault(key, {"match": None, "expected": [], "axioms": []})
            continue
        if cur is None:
            continue
        if part == "shape":
            if line.strip() == "@@match":
                cur["match"] = True
            elif line.strip() == "@@mismatch":
                cur["match"] = False
            elif cur["match"] is False:
                cur["expected"].append(line)
        elif part == "axioms":
            if not line or line[0].isspace() or line.startswith(("Axioms:", "Closed under")):
                continue
            m = re.match(r"^([A-Za-z_][A-Za-z0-9_.']*)\s*(?::|$)", line)
            if m:
                cur["axioms"].append(m.group(1))
    return out


def run_witness_checks(items: Sequence[tuple[str, str, str]], *, requires: Sequence[str] = (), preamble: str = "",
                       timeout: float = DEFAULT_TIMEOUT, coqc: str | None = None) -> dict[str, WitnessCheck] | CoqResult:
    """Check ``(key, theorem reference, witness reference)`` items in one ``coqc`` run (see
    :func:`witness_check_source`; a second run with ``Print Assumptions`` per witness only when the witnesses
    together rest on an axiom outside the classical reals, to say which). Returns ``{key: WitnessCheck}``
    (``file``/``theorem``: the key split at its first ':'), or the failed/unavailable :class:`CoqResult` when
    the source does not compile (e.g. a witness in ``preamble`` whose proof fails)."""
    res = compile_source(witness_check_source(items, requires=requires, preamble=preamble),
                         module="DPVerifyWitnessCheck", timeout=timeout, coqc=coqc)
    if not res.ok:
        return res
    parsed = _parse_witness_output(res.message)
    seconds = res.seconds
    if disallowed_axioms(parsed.get("*", {}).get("axioms", [])):
        res = compile_source(witness_check_source(items, requires=requires, preamble=preamble, per_item=True),
                             module="DPVerifyWitnessCheck", timeout=timeout, coqc=coqc)
        if not res.ok:
            return res
        parsed, seconds = _parse_witness_output(res.message), seconds + res.seconds
    common = parsed.get("*", {}).get("axioms")
    out = {}
    for key, thm, wit in items:
        f, _, t = key.partition(":") if ":" in key else ("", "", key)
        got = parsed.get(key)
        axioms = got["axioms"] if got is not None and common is None else (common or [])
        if got is None or got["match"] is None:
            out[key] = WitnessCheck(f, t, WitnessStatus.FAILED, wit, f"no output for {key}: {res.message[-300:]}",
                                    seconds)
        elif not got["match"]:
            expected = " ".join(" ".join(got["expected"]).split())
            out[key] = WitnessCheck(f, t, WitnessStatus.MISMATCH, wit,
                                    f"{wit} does not state the hypotheses of {thm}; they read: {expected[:1500]}",
                                    seconds)
        elif disallowed_axioms(axioms):
            out[key] = WitnessCheck(f, t, WitnessStatus.AXIOMS, wit, ", ".join(disallowed_axioms(axioms)), seconds)
        else:
            out[key] = WitnessCheck(f, t, WitnessStatus.SATISFIABLE, wit,
                                    "axioms: " + (", ".join(axioms) or "none"), seconds)
    return out


_WITNESS_CACHE: dict = process_cache()


def check_witnesses(entries: Iterable[CoqEntry] | None = None, *, timeout: float = DEFAULT_TIMEOUT,
                    coqc: str | None = None) -> dict[tuple[str, str], WitnessCheck]:
    """The non-vacuity check of each ``(file, theorem)`` of ``entries`` (default: every ``CLAIM`` entry of
    the manifest (:func:`~dpverify.symbolic.coq.manifest.manifest_entries`)): its witness exists, compiles, states exactly the theorem's hypotheses and rests on the
    classical reals only. Cached per content of the files involved, in this process."""
    entries = [e for e in manifest_entries() if e.coverage is Coverage.CLAIM] if entries is None else list(entries)
    pairs = list(dict.fromkeys((e.file, e.theorem) for e in entries))
    coqc = coqc or coqc_path()
    out: dict[tuple[str, str], WitnessCheck] = {}
    if coqc is None:
        return {(f, t): WitnessCheck(f, t, WitnessStatus.UNAVAILABLE, message=f"Coq not available: {INSTALL_HINT}")
                for f, t in pairs}
    found = {}
    for f, t in pairs:
        w = witness_for(t)
        if w is None:
            out[(f, t)] = WitnessCheck(f, t, WitnessStatus.MISSING,
                                       message=f"no lemma {t}{WITNESS_SUFFIX} in proofs/coq/{WITNESS_GLOB}")
        else:
            found[(f, t)] = w
    files = sorted({f for f, _ in found} | {w for w, _ in found.values()} | {SHAPE_FILE})
    compiled = compile_files(files, timeout=timeout, coqc=coqc)
    items, mods = [], []
    for (f, t), (wf, wn) in found.items():
        bad = [n for n in (f, wf, SHAPE_FILE) if not compiled[n].ok]
        if bad:
            out[(f, t)] = WitnessCheck(f, t, WitnessStatus.FAILED, f"{wf[:-2]}.{wn}",
                                       f"{bad[0]} did not compile: {first_error(compiled[bad[0]].message)}")
            continue
        items.append((f"{f}:{t}", f"{f[:-2]}.{t}", f"{wf[:-2]}.{wn}"))
        mods += [f[:-2], wf[:-2]]
    if items:
        key = ("witness", coqc, tuple(items), tuple(
            hashlib.sha256((coq_dir() / n).read_bytes()).hexdigest() for n in sorted(set(files))))
        if key not in _WITNESS_CACHE:
            saved = persistent_query("witnesses", key)
            if isinstance(saved, dict):
                _WITNESS_CACHE[key] = {k: WitnessCheck(v["file"], v["theorem"], WitnessStatus(v["status"]), v["witness"],
                                                       v["message"], v["seconds"]) for k, v in saved.items()}
            else:
                _WITNESS_CACHE[key] = run_witness_checks(items, requires=sorted(set(mods)), timeout=timeout, coqc=coqc)
                if isinstance(_WITNESS_CACHE[key], dict):
                    save_query("witnesses", key, {k: {"file": v.file, "theorem": v.theorem, "status": v.status.value,
                                                            "witness": v.witness, "message": v.message,
                                                            "seconds": v.seconds}
                                                        for k, v in _WITNESS_CACHE[key].items()})
        got = _WITNESS_CACHE[key]
        for k, _, wit in items:
            f, t = k.split(":", 1)
            if isinstance(got, CoqResult):
                out[(f, t)] = WitnessCheck(f, t, WitnessStatus.FAILED, wit,
                                           f"the check did not compile: {first_error(got.message)}", got.seconds)
            else:
                out[(f, t)] = got[k]
    return {p: out[p] for p in pairs}

