"""The mutation campaign: every PROVED/CERTIFIED encoded statement mutated, each mutant checked afresh.

:func:`run_campaign` generates the mutants (:mod:`~dpverify.symbolic.mutation.generate`), decides which are false
(:func:`~dpverify.symbolic.mutation.falsify.numerically_false`) and runs each one's fresh ``check()``, each under the
campaign's time limit (:func:`dpverify.symbolic.timeouts.timed`); the result is a :class:`CampaignReport` of
:class:`Outcome` values. :func:`proof_statements` gathers the statements of the proof files.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Mapping

from ..proof_files import proof_modules
from ..timeouts import timed
from ..verdicts import ProofVerdict
from .evaluate import MutantTimeout
from .falsify import equivalent, evaluable, numerically_false
from .generate import Mutant, mutants
from .search import SearchedPoint

__all__ = ["GOOD", "Outcome", "CampaignReport", "proof_statements", "run_campaign"]

GOOD = (ProofVerdict.PROVED, ProofVerdict.CERTIFIED)


@dataclass(frozen=True)
class Outcome:
    mutant: Mutant
    false: bool
    verdict: ProofVerdict
    witness: Mapping | None
    #: sympy shows the mutant's conclusion and hypotheses identical to the original's (e.g. a literal that sympy had
    #: collected on both sides of an identity, changed on both): a true mutant by construction
    equivalent: bool = False
    #: the mutant's fresh check ran out of the campaign's time limit: no verdict (``verdict`` is UNKNOWN), and the
    #: mutant is never counted as killed
    check_timed_out: bool = False
    #: the numeric (falseness) check ran out of time: the mutant's truth is undecided (``false`` is False)
    false_timed_out: bool = False
    #: seconds spent on this mutant (numeric check and fresh check)
    seconds: float = 0.0
    #: the numeric check found no failing point because the statement has no finite real value at any sampled point
    #: (e.g. a constant set to 0 under a division: ``zoo <= epsilon``): neither true nor false
    not_evaluable: bool = False

    @property
    def killed(self) -> bool:
        return not self.check_timed_out and self.verdict not in GOOD

    @property
    def found_by_search(self) -> bool:
        """The failing point came from the local search (the sampled screen alone called this mutant true)."""
        return isinstance(self.witness, SearchedPoint)

    @property
    def undecided(self) -> bool:
        """The numeric check ran out of time and the checker did not kill it: possibly a false mutant that stays
        PROVED/CERTIFIED (or a check that timed out too)."""
        return self.false_timed_out and not self.killed


@dataclass(frozen=True)
class CampaignReport:
    claims: tuple[str, ...]
    outcomes: tuple[Outcome, ...]

    @property
    def false_mutants(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.false]

    @property
    def survivors(self) -> list[Outcome]:
        return [o for o in self.false_mutants if not o.killed]

    @property
    def kill_rate(self) -> float:
        f = self.false_mutants
        return 1.0 if not f else sum(o.killed for o in f) / len(f)

    @property
    def undecided(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.undecided]

    @property
    def timed_out(self) -> list[Outcome]:
        return [o for o in self.outcomes if o.check_timed_out or o.false_timed_out]

    def summary(self) -> str:
        f = self.false_mutants
        eq = sum(o.equivalent for o in self.outcomes)
        to = self.timed_out
        ne = [o for o in self.outcomes if o.not_evaluable]
        ne_text = (f"; {len(ne)} not evaluable at any sampled point (neither true nor false; checks: "
                   + ", ".join(f"{v} {sum(o.verdict.value == v for o in ne)}" for v in sorted({o.verdict.value for o in ne}))
                   + ")") if ne else ""
        return (f"{len(self.claims)} proved/certified encoded claims, {len(self.outcomes)} mutants, {len(f)} false by "
                f"the numeric check (whole domain, or the box of a box-limited certificate; {sum(o.found_by_search for o in f)} of them found by the local "
                f"search, not by the sampled screen), {sum(o.killed for o in f)} killed (kill rate "
                f"{100 * self.kill_rate:.1f}%), {len(self.outcomes) - len(f) - len(ne)} found true (not counted; {eq} "
                f"of them equivalent to the original by sympy){ne_text}; {len(to)} ran out of the time limit "
                f"({sum(o.check_timed_out for o in to)} checks, never counted as killed; "
                f"{sum(o.false_timed_out for o in to)} numeric checks), {len(self.undecided)} undecided")

    def per_claim(self) -> list[tuple[str, int, int, int, int, int, float]]:
        """(claim, mutants, false, killed, survivors, timed out, seconds) per claim."""
        rows = []
        for cid in self.claims:
            os_ = [o for o in self.outcomes if o.mutant.claim == cid]
            f = [o for o in os_ if o.false]
            rows.append((cid, len(os_), len(f), sum(o.killed for o in f), sum(not o.killed for o in f),
                         sum(o.check_timed_out or o.false_timed_out for o in os_), sum(o.seconds for o in os_)))
        return rows

    def table(self) -> str:
        """One line per mutant: claim, mutation, false/true (equivalent), checker verdict, killed/SURVIVOR."""
        rows = []
        for o in self.outcomes:
            truth = (("false (found by the local search at " + ", ".join(f"{k} = {v:.10g}" for k, v in o.witness.items())
                      + ")") if o.found_by_search else "false") if o.false else (
                "undecided (numeric check timed out)" if o.false_timed_out else "true (equivalent)" if o.equivalent
                else "not evaluable at any sampled point" if o.not_evaluable else "true")
            verdict = "check timed out" if o.check_timed_out else o.verdict.value
            fate = ("killed" if o.killed else "SURVIVOR") if o.false else ("UNDECIDED" if o.undecided else "")
            rows.append(f"{o.mutant.claim}: {o.mutant.description}: {truth}, {verdict} {fate}".rstrip())
        return "\n".join(rows)


def proof_statements(modules=None) -> dict:
    """claim ID -> encoded statement, from ``statements()`` of every proof module that has it."""
    out = {}
    for mod in modules or proof_modules():
        fn = getattr(mod, "statements", None)
        if callable(fn):
            out.update(fn())
    return out


def run_campaign(statements: Mapping | None = None, *, n: int = 300, progress=None,
                 time_limit: float | None = 60.0) -> CampaignReport:
    """Mutate every PROVED/CERTIFIED statement and check each mutant afresh.

    ``time_limit`` (seconds, None for none) bounds each mutant's numeric check and its fresh check separately; a
    fresh check that runs out of time is never counted as killed, a numeric check that does leaves the mutant
    undecided (see the module docstring). The originals' checks are not limited."""
    statements = proof_statements() if statements is None else statements
    claims, outcomes = [], []
    for cid, st in statements.items():
        if st.check().verdict not in GOOD:
            continue
        claims.append(cid)
        for m in mutants(cid, st):
            t0 = time.perf_counter()
            pt, f_to = timed(lambda: numerically_false(m.statement, n=n), time_limit, MutantTimeout)
            # a fresh check of the mutated object (no verdict is cached on it)
            res, c_to = timed(lambda: m.statement.check(), time_limit, MutantTimeout)
            v = ProofVerdict.UNKNOWN if c_to else res.verdict
            eq = pt is None and not f_to and equivalent(st, m.statement)
            ne = pt is None and not f_to and not eq and not evaluable(m.statement, n=n)
            outcomes.append(Outcome(m, pt is not None, v, pt, equivalent=eq, check_timed_out=c_to,
                                    false_timed_out=f_to, seconds=time.perf_counter() - t0, not_evaluable=ne))
            if progress is not None:
                truth = ("false (local search: " + ", ".join(f"{k} = {v:.10g}" for k, v in pt.items()) + ")"
                         if isinstance(pt, SearchedPoint) else "false") if pt is not None else (
                    "undecided (numeric check timed out)" if f_to else "not evaluable at any sampled point" if ne else "true")
                progress(f"{cid}: {m.description}: {truth}, {'check timed out' if c_to else v.value} "
                         f"({outcomes[-1].seconds:.1f} s)")
    return CampaignReport(tuple(claims), tuple(outcomes))


