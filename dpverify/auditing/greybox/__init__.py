"""Grey-box audits by record and replay (issue 31): exact findings from one pair of executions per pair.

``dpverify.audit(mechanism, pairs, mode="grey-box")`` replays every pair
(:func:`~dpverify.auditing.greybox.replay.replay_pair`: record the draws on D with
:class:`~dpverify.auditing.greybox.recorder.Recorder`, replay them on D', twice). An exact finding -- the drawn
noise implies more privacy loss on the pair than the claim allows, or a deterministic difference -- is the
verdict ``violated`` (method ``grey-box``), with the finding, the implied privacy and the trace in the notes and
``result.greybox``. Without a finding the statistical audit (white-box or black-box) runs as usual and its
verdict stands; the grey-box checks are attached (what was modelled, what was not and why, divergences and
data-dependent parameters). A grey-box finding is never weakened by that fallback: the fallback runs only when
there is none.

What is modelled: one Laplace or Gaussian family of one scale (``replay.py``); several calls, scales and families, and
Laplace/Gaussian scales that depend on the data (``compose.py``); differences of two geometric draws, the discrete
Laplace (``discrete.py``). Where none of these fits, the selection mechanisms (``selection.py``, by *probe replays*
that run the mechanism on chosen frozen noise, ``probe.py``): report-noisy-max -- the argmax of scores plus Laplace,
exponential or Gumbel noise, or their max with Laplace or exponential noise (``noisymax.py``) -- and the sparse vector
technique -- one noisy threshold against noisy queries with a cutoff or none, no query noise, a threshold redrawn
after each TOP, or TOPs released with fresh noise (``sparse.py``). Their parameters are recovered by bisection on the
noise and verified on three seeds and 24 probes per dataset; the exact law of the output at those parameters is
computed in mpmath interval arithmetic (closed forms), and a finding rests only on its certified lower bound; the
published theorem bound (2 Delta_inf / b for RNM, Lyu et al.'s for SVT) is reported beside it as an upper bound.
When the replays find nothing, a uniform draw steered to the end of its range can reveal a rare branch that releases
the data (``steer.py``); its event is then certified on fresh draws at half of alpha, the statistical audit getting
the other half. docs/auditing.md, "Grey-box", states each model, its exact privacy and what it assumes.
"""
from __future__ import annotations

from .recorder import Call, Diverged, Recorder
from .replay import PairCheck, replay_pair

__all__ = ["Recorder", "Call", "Diverged", "PairCheck", "replay_pair"]
