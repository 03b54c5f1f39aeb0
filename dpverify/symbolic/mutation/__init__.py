"""Automatic mutation campaign over the encoded statements of the proof files.

The package reads as its stages: :mod:`.generate` (the mutants), :mod:`.points` (the sampled points),
:mod:`.evaluate` (a statement at a point, the confirmation), :mod:`.search` (the local search), :mod:`.falsify`
(the numeric check that decides which mutants are false) and :mod:`.campaign` (:func:`run_campaign` and its report).
Time limits come from :mod:`dpverify.symbolic.timeouts`. The full campaign, with a table per proof file, is the
benchmark script ``benchmarks/mutation_campaign.py``.

For every claim whose encoded statement (``statements()`` of a proof module: claim ID -> :class:`Lemma`
or :class:`ReducedStatement`) is PROVED or CERTIFIED, :func:`mutants` perturbs the statement:

* each named constant (``constants``) x 9/10 and x 11/10, and set to 0 (the boundary of a positive constant);
* each numeric literal of the conclusion (other than 0, 1, -1) x 9/10 and x 11/10, wherever the statement carries
  it, and -- when it occurs on both sides -- on one side only (sympy collects terms, so a literal changed on both
  sides of an identity can leave it true: an *equivalent* mutant);
* the inequality flipped (``a <= b`` -> ``a >= b``; identities are not flipped);
* each hypothesis dropped (for a ReducedStatement: from its residual and its witness together).

:func:`numerically_false` decides independently of the checker whether a mutant is false, on the statement's
*whole domain*: the box's corners and seeded draws, then every symbol's assumption domain (positive reals over
10^-9 .. 10^9 with corner values, nonnegative adds 0, integers >= 1 up to 10^3, ...), restricted only by the
hypotheses; screening at 30 digits, a failing point confirmed by sympy at 40 and at 80 digits. A box is where a
certificate is computed, not part of a claim: a box end that the claim assumes must be a hypothesis. The one exception
is a lemma class that never looks beyond its box (``search_outside_box = False``, a certificate whose every point is a
quadrature): its verdict names the box and claims nothing beyond it, so it is judged on the box.

**Local search.** Sampling alone misses a false region that is narrow (zhou-compression Proposition 3.4's statement
as first written, with its own symbol for <B, P^ - P>_F: the mutant c_delta x 11/10 is false only in a thin slab and
was called true). So when no sampled point fails, :func:`~dpverify.symbolic.mutation.search.local_search` starts from the (at most
:data:`SEARCH_STARTS`) sampled points of smallest relative margin -- (rhs - lhs)/(|lhs| + |rhs|) for ``<=``, its
negative for ``>=``, -|rhs - lhs|/(...) for an identity -- and minimises that margin: scipy's Nelder-Mead, then a
compass search, in log-magnitude coordinates (each symbol keeps its start's sign; integer symbols rounded, +-1 steps;
reals within 10^-12 .. 10^12, integers up to 10^3 or the box's end), at most :data:`SEARCH_EVALS` evaluations per
start (:data:`SEARCH_SECONDS` per statement only as a safety net). A point where a hypothesis does not hold, or where
the statement has no finite real value, scores worse than any margin: it is rejected, never counted. A candidate is
confirmed exactly like a sampled point (:func:`~dpverify.symbolic.mutation.evaluate.fails_at`: sympy at 40 and 80 digits, every hypothesis holding), so
the search can add false verdicts only where the confirmation agrees: it cannot call a true statement false any more
than the screen could. Such a point is a :class:`SearchedPoint` and the campaign's table says "found by the local
search". The search is local: a false region far from every sampled point, with no descent of the margin towards
it, can still be missed (tests/symbolic/test_symbolic_mutation_search.py holds the adversaries it does find).

**Points where every hypothesis is tight.** A statement with a reparametrisation (``reparam``: each entry turns one
hypothesis margin into a fresh slack t >= 0) also gets points built through it (:func:`~dpverify.symbolic.mutation.points.reparam_points`): slacks
drawn or set to 0, the substituted symbols computed at 50 digits and rounded up into the hypothesis region. Sampling
each symbol on its own almost never makes five hypotheses tight at once, which is where zhou-compression Theorem
4.6's assembly is false under c_two x 9/10 or c_half x 11/10. These points are candidates only, confirmed like any
other (every hypothesis re-evaluated exactly).

**Not evaluable means "does not hold".** A hypothesis that is NaN or zoo at a point (a constant mutated to 0 under a
division: ``c/(c + c^2)`` at c = 0) does not hold there, in this check (:func:`~dpverify.symbolic.mutation.evaluate.holds`) and in the checker
(``point_search.hypotheses_hold``): the point is skipped, never counted, and nothing crashes. A mutant is
*killed* when its checker verdict (a fresh ``check()`` of the mutated object) is not PROVED/CERTIFIED. The kill
rate is killed / false mutants; a false mutant that stays PROVED/CERTIFIED is a survivor (a soundness defect of
the checker). A mutant whose statement has no finite real value at any sampled point (:func:`evaluable`; e.g. a
constant set to 0 under a division) is reported as not evaluable, neither true nor false. Mutants found true are
counted separately; those that sympy shows identical to the original are flagged ``equivalent``.

**Time limits.** sympy's ``simplify`` of some mutants does not finish in minutes (e.g. a literal of the Wishart
normaliser of ``jiang-wishart/definition-2`` changed). :func:`run_campaign` gives each mutant's fresh check and each
numeric check ``time_limit`` seconds (:func:`dpverify.symbolic.timeouts.time_limit`: SIGALRM in the main thread; no limit elsewhere). A check that runs out of time
has no verdict: the mutant is *timed out* and is **never counted as killed** (``Outcome.killed`` is False), so a false
mutant whose check timed out is a survivor. A numeric check that runs out of time leaves the mutant's truth
*undecided*: it is not counted as false, and the report lists it apart (``undecided``) with its checker verdict.
"""
from __future__ import annotations

from __future__ import annotations

from .campaign import GOOD, CampaignReport, Outcome, proof_statements, run_campaign
from .evaluate import MutantTimeout, PointTimeout, fails_at
from .falsify import equivalent, evaluable, numerically_false
from .generate import Mutant, mutants
from .search import SearchedPoint

__all__ = ["Mutant", "Outcome", "CampaignReport", "MutantTimeout", "PointTimeout", "SearchedPoint", "GOOD", "mutants",
           "numerically_false", "evaluable", "fails_at", "run_campaign", "proof_statements", "equivalent"]
