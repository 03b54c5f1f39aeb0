"""Black-box audit: certified lower bounds on epsilon from samples of M(D) and M(D') alone.

**Pipeline** (one module per stage; :func:`audit_black_box` in :mod:`.engine` reads as the four
calls; the stages exchange the frozen values of :mod:`.values`):

1. *Probe* (:mod:`.probe`): ``PROBE_OUTPUTS`` outputs per dataset (their own seeds) fix each pair's
   :class:`~.values.Layout` (numeric arrays of one shape, else structured outputs; the feature names;
   the batch size) and so the number of candidate events per direction (:func:`.scores.slots`); the
   multiplicity ``K`` is fixed before any selection draw, and the alpha budget
   (:class:`~.budget.AlphaBudget`) is split once from it. A later batch that does not fit a numeric
   layout stops the audit with a MechanismError.
2. *Select* (:mod:`.selection`): ``min(SELECTION_CAP, selection_fraction * samples)`` outputs per
   dataset are drawn, kept, and used to choose events. For the direction "D->D'" (events favouring
   D) each *family* (:mod:`.scores`, :mod:`.learned`, over the outputs encoded by
   :mod:`.event_families`) gives one event maximising the predicted certified epsilon and one
   maximising the predicted delta at ``claim.epsilon``: half-lines on every 1-D feature (coordinates,
   differences, sum, max, min, float granularity), sets of exact outcomes, outcome branches
   (structured outputs), a naive-Bayes histogram score, and - for vectors - learned scores (counts
   past the selection medians, a logistic regression on engineered features), each thresholded at
   the best of every distinct value. "D'->D" is the same with the roles swapped. The result is a
   :class:`~.values.Selection`.
3. *Certify* (:mod:`.certify`): fresh outputs are drawn in batches; each batch is reduced at once to
   the counts of every chosen event (a few bytes per event; counts merge by addition, so any
   executor gives the same result) and dropped. Each event E gets a lower bound on P_D(E) and an
   upper bound on P_D'(E) at level ``alpha_c / (2K)`` (``alpha = 1 - confidence``): 2K bounds in
   all, simultaneous by the union bound. The result is a :class:`~.values.Certification`.
4. *Verdict* (:mod:`.verdict`): for an (eps, delta)-DP mechanism P_D(E) <= e^eps P_D'(E) + delta, so

       epsilon_lower = log((p1_low - delta) / p2_up),     delta_lower(eps) = p1_low - e^eps p2_up.

   The whole profile eps -> delta_lower(eps) over a grid is reported (``delta_curve`` of each
   direction): it is the maximum over the same certified events, so it holds for every eps of
   the grid at once.

   *Paired bound* (pure claims, delta = 0): the i-th certification output of D and the i-th of
   D' form an i.i.d. pair, so the event with the best predicted epsilon (chosen on selection
   draws) also gets a joint lower bound on log(P_D(E) / P_D'(E)) from its discordant pairs
   (:func:`dpverify.auditing.bounds.paired_log_ratio_lower`), about 40 % tighter than the two
   separate bounds. Weighted union bound: of each pair's share of the final alpha,
   ``PAIRED_SHARE`` goes to that bound, ``PAIRED_MARGIN_SHARE`` to its margin correction and the
   rest to the 2K Clopper-Pearson bounds (each at ``0.25 alpha / (2K)``); the weights depend on
   the selection draws only, which are independent of the certification draws
   (:class:`~.budget.RoundBudget`). Which event gets it, and at which threshold, is decided on the
   selection draws by :mod:`.ranking`: the event is ranked on the last ``VALIDATION_SHARE`` of the
   selection draws, held out from the threshold scans (an unfitted event - a half-line, a count past
   medians - on all the selection pairs, :func:`.ranking.all_draws_paired`; and when some score's
   paired rank z reaches ``RANK_Z_MIN``, only such scores compete), by the paired bound it is
   predicted to get (:func:`.ranking.held_out_paired`: the held-out discordant pairs' odds ratio at
   its ``HELD_OUT_LEVEL`` lower bound, so rare events do not win on their noise, minus the
   certification's penalty and the margin correction). Each threshold event also competes in a
   version whose threshold maximises that prediction on the fitting draws
   (``PAIRED_THRESHOLD_LEVEL``). The winner's threshold is then chosen for the paired bound: for a
   half-line or a score without fitted weights, from a two-parameter logistic calibration of its
   score on all the selection draws (:func:`.ranking.calibrated_tails`: the far tails, where the best
   paired event of a small per-coordinate loss lives, are too noisy to choose from by counts); for a
   fitted score, again on the held-out draws. The Mann-Whitney rule (:func:`.ranking.rank_top`) only
   when no prediction is finite. The other direction's best event also gets a paired bound when its
   score's z reaches ``RANK_Z_MIN`` and at most ``SECOND_OVERLAP_MAX`` of its discordant selection
   pairs are the first's (:func:`.ranking.discordant_overlap`); the paired share is then split evenly
   between the two (weighted union bound).

**Early stopping** (``stop_early=True``): a pilot round (2,000 selection + up to 8,000
certification outputs per dataset, at ``alpha/10``) and the main round (``alpha/10``) look at the
counts after every batch with anytime-valid confidence sequences
(:mod:`.sequential`), and the audit stops as soon as one certifies a violation;
the final counts of the main round are certified with Clopper-Pearson at the remaining
``0.8 alpha``. The bounds stay valid under this optional stopping (Ville's inequality, union
bound over the three parts). Without it (the default) all of ``alpha`` goes to Clopper-Pearson.

**Verdict.** ``violated`` when a certified bound contradicts the claim (or, for a claim that
offers ``delta_at(eps)``, the certified curve exceeds it somewhere on the grid);
``inconclusive`` when some event shows *evidence* against the claim short of certification: its
bounds at the overall level ``EVIDENCE_ALPHA = 0.5`` (each bound at ``0.5 / (2K)``) already
contradict the claim, i.e. the data would be a violation at confidence 0.5 (so a 3-vs-0 count of
a rare outcome, which carries no evidence, does not make a delta = 0 claim inconclusive, and a
correct mechanism is inconclusive with probability at most 0.5, usually far less unless its claim
is tight); ``not-violated`` otherwise.

**Errors are outcomes.** When ``sample`` raises on a batch, the batch is drawn again one output
at a time with the same generator; each output whose draw raises is the outcome
``error:<TypeName>``, counted per dataset like any other (a mechanism that fails only on D' is
caught by the event "sample raised"). Wrong output counts and NaN remain MechanismError (with
``.pair`` and ``.direction``, the dataset whose draw failed). The
draws that raised are counted per dataset (``AuditResult.raised_draws``, and a note); a pair on
whose two datasets more than ``MOSTLY_RAISED_SHARE`` of the draws raised gets no privacy verdict
unless a violation was certified: MechanismError (the audit saw the exception on both sides, not
the mechanism), raised already after the probe when every probe draw of both raised one type.

**Float bits** (``float_bits=True``): float outputs also get the granularity feature of
:mod:`.floatbits` (Mironov 2012), which exposes textbook floating-point noise at
full 53-bit precision. It is off by default because it flags *every* mechanism that adds
floating-point noise to differing values (the correct controls included): the verdict is then
about the implementation's bits, not the idealised real-valued mechanism.

**Randomness and workers.** Every (pair, stage, dataset) gets a child of the root SeedSequence and
every batch a grandchild; batch sizes depend only on the output size, so the result depends on
the seed alone, never on the number of workers. Without an ``executor``, runs of at least
:data:`AUTO_POOL_MIN_OUTPUTS` outputs use a forked process pool of ``min(2, cpu count)`` workers when the
mechanism and pairs can be pickled and the sampler honours ``rng`` or draws independently in the workers
(serial otherwise; a note says so:
:func:`dpverify.auditing.executor.auto_executor`).
"""
from __future__ import annotations

from ..executor import InlineExecutor  # public here too: tests and benchmarks force a serial audit
from .budget import MIN_SAMPLES, PAIRED_MARGIN_SHARE, PAIRED_SHARE, SELECTION_CAP, SELECTION_FRACTION, AlphaBudget
from .outputs import PROBE_OUTPUTS
from .engine import AUTO_POOL_MIN_OUTPUTS, audit_black_box
from .ranking import RANK_Z_MIN
from .values import CertifiedEvent, Layout, SelectedEvent, Selection

__all__ = ["audit_black_box", "InlineExecutor", "AUTO_POOL_MIN_OUTPUTS", "SELECTION_FRACTION", "MIN_SAMPLES",
           "SELECTION_CAP", "PROBE_OUTPUTS", "PAIRED_SHARE", "PAIRED_MARGIN_SHARE", "RANK_Z_MIN", "AlphaBudget",
           "Layout", "SelectedEvent", "Selection", "CertifiedEvent"]

