"""Queries on compiled theorems: what they rest on, and what they state.

* :func:`assumptions` -- ``Print Assumptions`` of theorems, parsed; :func:`disallowed_axioms` keeps the axioms outside
  :data:`ALLOWED_AXIOMS` (the standard library's classical reals and the kernel's primitive-arithmetic specifications
  used by the Interval library).
* :func:`theorem_types` -- the statement check: each theorem's type exactly as ``coqc`` prints it (``Check``), compared
  with a claim's formal statement after :func:`normalise_type` (whitespace only).
* :func:`first_error` -- the lines of a coqc message that say what failed (for evidence texts).

One ``coqc`` run per query (every item together), cached in this process per content of the files involved and in
the persistent build folder (:func:`~dpverify.symbolic.coq.build.persistent_query`).
"""
from __future__ import annotations

import hashlib
import re
from typing import Iterable, Sequence

from ...errors import InvalidArgument
from .build import (DEFAULT_TIMEOUT, INSTALL_HINT, LOGICAL, CoqResult, CoqStatus, coq_dir, coqc_path, compile_source,
                    persistent_query, process_cache, save_query, tree_hash)

__all__ = ["ALLOWED_AXIOMS", "EPSILON_AXIOM", "BOOLP_AXIOMS", "axioms_phrase", "normalise_type", "disallowed_axioms", "assumptions", "theorem_types", "first_error"]

#: Axioms a kernel-checked theorem may rest on: the standard library's classical real numbers
#: (Coq.Reals: excluded middle, the two decidability axioms of ClassicalDedekindReals, functional
#: extensionality), the kernel's specifications of its primitive 63-bit integers and binary64
#: floats, which the Interval library's reflexive tactic computes with, and Hilbert's epsilon
#: (:data:`EPSILON_AXIOM`, Coq.Logic.Epsilon: a choice function on an inhabited type), which mathcomp's
#: structures on Coq's R need (a mathcomp ring is a choice type), and mathcomp's classical axioms
#: (:data:`BOOLP_AXIOMS`: propositional and functional extensionality, constructive indefinite description), which
#: mathcomp-analysis rests on: standard classical axioms, consistent with the classical reals; a verdict resting on
#: them says so (:func:`axioms_phrase`).
EPSILON_AXIOM = "Epsilon.epsilon_statement"
ALLOWED_AXIOMS = (
    re.compile(r"^ClassicalDedekindReals\.sig_(not_dec|forall_dec)$"),
    re.compile(r"^FunctionalExtensionality\.functional_extensionality_dep$"),
    re.compile(r"^Classical_Prop\.classic$"),
    re.compile(r"^(PrimInt63|PrimFloat|Uint63|FloatAxioms)\.[A-Za-z0-9_]+$"),
    re.compile(r"^Epsilon\.epsilon_statement$"),
    re.compile(r"^boolp\.(propositional_extensionality|functional_extensionality_dep|"
               r"constructive_indefinite_description)$"),
)
#: mathcomp's classical axioms (mathcomp.classical.boolp), which mathcomp-analysis rests on
BOOLP_AXIOMS = ("boolp.propositional_extensionality", "boolp.functional_extensionality_dep",
                "boolp.constructive_indefinite_description")


def axioms_phrase(names: Iterable[str]) -> str:
    """What ``Print Assumptions`` showed, in words for a verdict: ``classical reals only``, or ``classical reals and
    Hilbert's epsilon (...)`` when :data:`EPSILON_AXIOM` is among ``names``."""
    names = set(names)
    extra = []
    if EPSILON_AXIOM in names:
        extra.append("Hilbert's epsilon (Coq.Logic.Epsilon.epsilon_statement: mathcomp's ring structure on R needs a "
                     "choice function)")
    if names & set(BOOLP_AXIOMS):
        extra.append("mathcomp's classical axioms (boolp: " + ", ".join(sorted(n.split(".", 1)[1] for n in
                                                                                   names & set(BOOLP_AXIOMS))) + ")")
    return "classical reals and " + " and ".join(extra) if extra else "classical reals only"


def normalise_type(text: str) -> str:
    """A Coq type as printed, compared modulo whitespace (line breaks of the printer, indentation)."""
    if not isinstance(text, str):
        raise InvalidArgument(f"text={text!r} must be a string (a Coq type).")
    return " ".join(text.split())


def disallowed_axioms(names: Iterable[str]) -> list[str]:
    """The names among ``names`` that :data:`ALLOWED_AXIOMS` does not allow."""
    return [n for n in names if not any(p.match(n) for p in ALLOWED_AXIOMS)]


_MARK = "@@dpverify-theorem "


def assumptions(items: Sequence[tuple[str, str]], *, timeout: float = DEFAULT_TIMEOUT,
                coqc: str | None = None) -> dict[tuple[str, str], tuple[str, ...]] | CoqResult:
    """``Print Assumptions`` of each ``(file, theorem)``: the axiom names it rests on (empty: closed).

    One ``coqc`` run for all items. Returns the failed/unavailable :class:`CoqResult` instead when the
    query does not compile."""
    items = list(dict.fromkeys(items))
    coqc = coqc or coqc_path()
    key = ("assumptions", coqc, tuple(items),
           tuple(hashlib.sha256((coq_dir() / f).read_bytes()).hexdigest() for f in sorted({f for f, _ in items})))
    if key not in _ASSUMPTIONS:
        saved = persistent_query("assumptions", key)
        if isinstance(saved, list):
            _ASSUMPTIONS[key] = {(f, t): tuple(ax) for f, t, ax in saved}
        else:
            _ASSUMPTIONS[key] = _assumptions(items, timeout=timeout, coqc=coqc)
            if isinstance(_ASSUMPTIONS[key], dict):
                save_query("assumptions", key, [[f, t, list(ax)] for (f, t), ax in _ASSUMPTIONS[key].items()])
    return _ASSUMPTIONS[key]


_ASSUMPTIONS: dict = process_cache()


def _assumptions(items, *, timeout, coqc):
    mods = sorted({f[:-2] for f, _ in items})
    lines = [f"From {LOGICAL} Require {' '.join(mods)}."]
    for f, thm in items:
        lines.append(f'Goal True. idtac "{_MARK}{f} {thm}". exact I. Abort.')
        lines.append(f"Print Assumptions {f[:-2]}.{thm}.")
    res = compile_source("\n".join(lines) + "\n", module="DPVerifyAssumptions", timeout=timeout, coqc=coqc)
    if not res.ok:
        return res
    out: dict[tuple[str, str], list[str]] = {}
    current = None
    for line in res.message.splitlines():
        if line.startswith(_MARK):
            f, thm = line[len(_MARK):].split()
            current = out.setdefault((f, thm), [])
            continue
        if current is None or not line or line[0].isspace() or line.startswith(("Axioms:", "Closed under")):
            continue
        m = re.match(r"^([A-Za-z_][A-Za-z0-9_.']*)\s*(?::|$)", line)
        if m:
            current.append(m.group(1))
    missing = [it for it in items if it not in out]
    if missing:
        return CoqResult("DPVerifyAssumptions.v", CoqStatus.FAILED, res.seconds,
                         f"no Print Assumptions output for {missing}: {res.message[:500]}", res.coqc_version)
    return {k: tuple(v) for k, v in out.items()}


_TMARK = "@@dpverify-type "
_TYPES: dict = process_cache()


def theorem_types(items: Sequence[tuple[str, str]], *, timeout: float = DEFAULT_TIMEOUT,
                  coqc: str | None = None) -> dict[tuple[str, str], str] | CoqResult:
    """The type of each ``(file, theorem)`` as ``coqc`` prints it (``Check``, the real numbers' notations open, the
    theorem's own module imported, printing width unbounded), :func:`normalise_type`-d. One ``coqc`` run for all items,
    cached per content of every ``.v`` file in this process. The failed/unavailable :class:`CoqResult` instead when the
    query does not compile (e.g. no such theorem)."""
    items = list(dict.fromkeys(items))
    for f, t in items:
        if not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_']*", t) or not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*\.v", f):
            raise InvalidArgument(f"(file, theorem)={(f, t)!r} must name a .v file of proofs/coq/ and a Coq identifier.")
    coqc = coqc or coqc_path()
    if coqc is None:
        return CoqResult("DPVerifyTypes.v", CoqStatus.UNAVAILABLE, message=f"Coq not available: {INSTALL_HINT}")
    key = ("types", coqc, tuple(items), tree_hash())
    if key not in _TYPES:
        saved = persistent_query("types", key)
        if isinstance(saved, list):
            _TYPES[key] = {(f, t): ty for f, t, ty in saved}
        else:
            _TYPES[key] = _theorem_types(items, timeout=timeout, coqc=coqc)
            if isinstance(_TYPES[key], dict):
                save_query("types", key, [[f, t, ty] for (f, t), ty in _TYPES[key].items()])
    return _TYPES[key]


def _theorem_types(items, *, timeout, coqc):
    mods = sorted({f[:-2] for f, _ in items})
    lines = ["From Coq Require Import Reals.", "Open Scope R_scope.", "Set Printing Width 100000.",
             f"From {LOGICAL} Require {' '.join(mods)}."]
    for i, (f, t) in enumerate(items):
        lines.append(f'Module DPVerifyQ{i}. Import {f[:-2]}. Goal True. idtac "{_TMARK}{f} {t}". exact I. Abort. '
                     f"Check {f[:-2]}.{t}. End DPVerifyQ{i}.")
    res = compile_source("\n".join(lines) + "\n", module="DPVerifyTypes", timeout=timeout, coqc=coqc)
    if not res.ok:
        return res
    out: dict[tuple[str, str], list[str]] = {}
    current = None
    for line in res.message.splitlines():
        if line.startswith(_TMARK):
            f, t = line[len(_TMARK):].split()
            current = out.setdefault((f, t), [])
        elif current is not None:
            current.append(line)
    types = {}
    for it in items:
        text = " ".join(out.get(it, []))
        _, colon, ty = normalise_type(text).partition(" : ")
        if not colon:
            return CoqResult("DPVerifyTypes.v", CoqStatus.FAILED, res.seconds,
                             f"no Check output for {it}: {res.message[:500]}", res.coqc_version)
        types[it] = normalise_type(ty)
    return types


def first_error(message: str) -> str:
    """The first error of a coqc message with a line of context (at most 300 characters), else its first lines."""
    lines = [ln.strip() for ln in message.splitlines() if ln.strip()]
    err = [i for i, ln in enumerate(lines) if ln.startswith("Error")]
    if err:
        i = err[0]
        return " ".join(lines[max(0, i - 1): i + 3])[:300]
    return " ".join(lines[:3])[:300]

