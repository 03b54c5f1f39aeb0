"""White-box audit: Monte Carlo over the privacy loss, with Hoeffding-KL confidence bounds.

For a pair (D, D') and a direction, outputs o_i ~ M(D) give losses
L_i = log p_D(o_i) - log p_D'(o_i) (``+inf`` where o_i is impossible under D'). The privacy
profile is delta(eps) = E[(1 - exp(eps - L))_+], the mean of a [0, 1]-valued variable, so
Hoeffding's Theorem 1 (KL form, see :mod:`dpverify.auditing.bounds`) gives confidence bounds.
``docs/auditing.md`` states every inequality. The stages, one module each:

* :mod:`~dpverify.auditing.whitebox.losses` -- draw a batch and evaluate its losses, lowered by their
  floating-point error bound (safe side), recomputed with mpmath where float64 cannot resolve them
  (:mod:`dpverify.auditing.precision`); a batch leaves as its losses or as a mergeable summary
  (:mod:`dpverify.auditing.streaming`);
* :mod:`~dpverify.auditing.whitebox.estimators` -- delta(eps) estimates and bounds over the losses
  (plain, streamed, importance-weighted: :mod:`dpverify.auditing.importance`) and the epsilon lower
  bound on a fixed grid;
* :mod:`~dpverify.auditing.whitebox.directions` -- the batches of every direction through the
  executor (:mod:`dpverify.auditing.executor`, Dask: :mod:`dpverify.auditing.distributed`) into
  the estimators;
* :mod:`~dpverify.auditing.whitebox.consistency` -- does ``log_density`` describe ``sample``
  (likelihood-ratio identity), and the check of the violating event before a ``violated``;
* :mod:`~dpverify.auditing.whitebox.engine` -- :func:`audit_white_box`: plan -> thresholds ->
  certify -> consistency -> verdict, with the multiplicity correction.
"""
from __future__ import annotations

from ..draws import DEFAULT_MAX_SAMPLES, available_memory
from .directions import AUTO_PROPOSAL_MAX_DELTA, PILOT_SAMPLES
from .engine import CONSISTENCY_PILOT, CONSISTENCY_SAMPLES, audit_white_box
from .estimators import EPSILON_GRID, LossProfile
from .losses import privacy_losses, stream_batch, stream_group

__all__ = ["LossProfile", "EPSILON_GRID", "privacy_losses", "audit_white_box", "stream_batch", "stream_group",
           "AUTO_PROPOSAL_MAX_DELTA", "PILOT_SAMPLES", "DEFAULT_MAX_SAMPLES", "CONSISTENCY_PILOT",
           "CONSISTENCY_SAMPLES", "available_memory"]
