"""``assert_private``: a privacy audit as a test assertion, with a report that says how to reproduce."""
from __future__ import annotations

import secrets
import sys
from typing import Any

import numpy as np

from ..rounding import fmt_lower
from ..validation import integer, open_unit
from ..auditing import AuditResult, audit
from ..claims import PrivacyClaim, Verdict
from ..errors import InvalidArgument
from .profiles import DEFAULT_CONFIDENCE, DEFAULT_PROFILE, PROFILES

__all__ = ["assert_private", "draw_pairs", "is_strategy", "resolve_seed"]


def is_strategy(obj: Any) -> bool:
    """True for a hypothesis strategy (without importing hypothesis when it is not loaded: an
    object can only be a strategy if hypothesis has been imported already)."""
    mod = sys.modules.get("hypothesis.strategies")
    return mod is not None and isinstance(obj, mod.SearchStrategy)


def resolve_seed(rng: Any) -> int:
    """The integer seed of a check: ``rng`` itself if an int >= 0; one integer drawn from ``rng``
    if a ``numpy.random.Generator``; a fresh random seed if None (it is printed on failure)."""
    if rng is None:
        return secrets.randbits(63)
    if isinstance(rng, np.random.Generator):
        return int(rng.integers(0, 2**63 - 1))
    if isinstance(rng, (bool, np.bool_)) or not isinstance(rng, (int, np.integer)):
        raise InvalidArgument(
            f"rng={rng!r} must be an int seed >= 0, a numpy.random.Generator, or None (a fresh seed, "
            "printed on failure)."
        )
    return integer("rng", rng, minimum=0, fix="Seeds are non-negative integers.")


#: Mixed into a check's seed to seed the pair draws, so that they are independent of the audit's
#: own draws (which use the seed itself).
_PAIRS_STREAM = 0x5041495253  # "PAIRS"


def draw_pairs(strategy: Any, max_pairs: int, seed: int) -> list:
    """Up to ``max_pairs`` distinct pairs drawn from a hypothesis ``strategy``, deterministically
    from ``seed``; fewer when the strategy has fewer distinct values. Each drawn value must be a
    tuple ``(D, D_prime)``.

    The strategies of :mod:`dpverify.strategies` are drawn from a numpy Generator seeded with
    ``[seed, _PAIRS_STREAM]`` alone: nothing else (imported modules, the Hypothesis version, test
    selection) can change the pairs. Any other strategy is drawn by Hypothesis (``hypothesis.seed``,
    generation phase only, no example database) with its mixing of constants collected from locally
    imported modules switched off where the installed Hypothesis has that feature (best effort: it
    is Hypothesis internals; pass a strategy of :mod:`dpverify.strategies` for a guarantee).
    """
    from ..strategies import sample_pairs  # deferred: dpverify.strategies needs hypothesis (optional extra)

    max_pairs = integer("max_pairs", max_pairs, minimum=1, fix="Draw at least one pair from the strategy.")
    rng = np.random.default_rng([seed, _PAIRS_STREAM])
    drawn = sample_pairs(strategy, rng, 20 * max_pairs)
    if drawn is None:
        drawn = _hypothesis_draws(strategy, max_pairs, seed)
    pairs, seen = [], set()
    for i, pair in enumerate(drawn):
        if not (isinstance(pair, tuple) and len(pair) == 2):
            raise InvalidArgument(
                f"the strategy drew {_show(pair)}, which is not a pair; it must draw tuples (D, D_prime) "
                "(e.g. dpverify.strategies.vectors(5))."
            )
        key = tuple(np.asarray(x).tobytes() + str(np.shape(x)).encode() for x in pair)
        if key not in seen:
            seen.add(key)
            pairs.append(pair)
        if len(pairs) == max_pairs:
            break
    if not pairs:  # pragma: no cover - hypothesis always draws at least one example
        raise InvalidArgument(f"strategy={strategy!r} drew no pair.")
    return pairs


def _hypothesis_draws(strategy: Any, max_pairs: int, seed: int) -> list:
    from hypothesis import HealthCheck, Phase, given, settings
    from hypothesis import seed as hypothesis_seed

    drawn: list = []

    @hypothesis_seed(seed)
    @settings(max_examples=max_pairs, database=None, phases=[Phase.generate], deadline=None,
              suppress_health_check=list(HealthCheck), derandomize=False, report_multiple_bugs=False)
    @given(strategy)
    def collect(pair):
        drawn.append(pair)

    with _no_local_constants():
        collect()
    return drawn


class _no_local_constants:
    """Switch off Hypothesis's use of constants found in locally imported modules for the duration:
    its ``providers._get_local_constants`` returns an empty collection and its ``CONSTANTS_CACHE``
    is a fresh one (it caches the local constants too). Best effort: these are Hypothesis internals;
    a no-op when they are absent or have another shape."""

    _NAMES = ("_get_local_constants", "CONSTANTS_CACHE")

    def __enter__(self):
        self._saved: dict = {}
        try:
            from hypothesis.internal.conjecture import providers
            from sortedcontainers import SortedSet

            empty = providers.Constants(integers=SortedSet(), floats=SortedSet(key=providers.float_to_int),
                                        bytes=SortedSet(), strings=SortedSet())
            cache = type(providers.CONSTANTS_CACHE)(1024)
            saved = {name: getattr(providers, name) for name in self._NAMES}
        except Exception:  # pragma: no cover - another Hypothesis layout: nothing to switch off
            return self
        self._providers, self._saved = providers, saved
        providers._get_local_constants = lambda: empty
        providers.CONSTANTS_CACHE = cache
        return self

    def __exit__(self, *exc):
        for name, value in self._saved.items():
            setattr(self._providers, name, value)
        return False


def _show(x: Any, limit: int = 200) -> str:
    if isinstance(x, np.ndarray) or isinstance(x, (list, tuple)) and not isinstance(x, str):
        try:
            text = np.array2string(np.asarray(x), separator=", ", threshold=12, precision=6)
        except Exception:  # pragma: no cover - ragged or exotic containers
            text = repr(x)
    else:
        text = repr(x)
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _name(mechanism: Any) -> str:
    """The mechanism's repr, prefixed by its class when the repr does not name it (a subclass
    that inherits its parent's repr)."""
    text = _show(mechanism, 120)
    cls = type(mechanism).__name__
    return text if text.startswith(cls) else f"{cls}: {text}"


def _violating_direction(result: AuditResult):
    claim = result.claim
    bad = [d for d in result.directions if d.epsilon_lower > claim.epsilon or d.delta_lower > claim.delta]
    return max(bad, key=lambda d: (d.epsilon_lower, d.delta_lower)) if bad else None


def format_report(mechanism: Any, result: AuditResult, pairs: list | None, *, source: str, seed: int,
                  reproduce: str) -> str:
    """The failure message of :func:`assert_private` (see ``docs/testing.md``)."""
    claim = result.claim
    d = _violating_direction(result)
    k = d.pair_index if d is not None else result.pair_index
    direction = d.direction if d is not None else result.direction
    if pairs is not None:
        count, (dd, ddp) = len(pairs), pairs[k]
    else:  # a neighbour generator: the result keeps the pair of its headline direction
        count, (dd, ddp) = "the selected", (result.pair if k == result.pair_index else ("?", "?"))
    lines = [f"privacy claim violated by {_name(mechanism)}",
             f"  claim       epsilon={claim.epsilon:g}, delta={claim.delta:g} ({claim.relation.value})"]
    eps_low = d.epsilon_lower if d is not None else result.epsilon_lower
    delta_low = d.delta_lower if d is not None else result.delta_lower
    delta_est = d.delta_estimate if d is not None else result.delta_estimate
    if eps_low > claim.epsilon:
        lines.append(f"  found       epsilon_lower={fmt_lower(eps_low, 4)} > claimed epsilon={claim.epsilon:g} "
                     f"(a lower confidence bound on the epsilon this pair needs at delta={claim.delta:g})")
    if delta_low > claim.delta:
        lines.append(f"  found       delta_lower={fmt_lower(delta_low, 4)} > claimed delta={claim.delta:g} at "
                     f"epsilon={claim.epsilon:g} (estimate {delta_est:.4g})")
    lines.append(f"  pair        #{k} of {count} ({source})")
    lines.append(f"              D  = {_show(dd)}")
    lines.append(f"              D' = {_show(ddp)}")
    src, other = ("D", "D'") if direction == "D->D'" else ("D'", "D")
    if result.method.startswith("white-box"):
        what = f"privacy loss L = log p_{src}(o) - log p_{other}(o), outputs o drawn from M({src})"
    else:
        what = f"outputs drawn from M({src}) and M({other})"
    lines.append(f"  direction   {direction}: {what}")
    if d is not None:
        if d.infinite_loss_count:
            lines.append(f"  loss        {d.infinite_loss_count} of {d.samples} outputs are impossible under "
                         f"{other} (infinite loss)")
        event = {key: val for key, val in d.extra.items() if key in ("event", "threshold", "statistic")}
        if event:
            lines.append("  event       " + ", ".join(f"{key}={_show(val, 400)}" for key, val in event.items()))
    alpha = 1.0 - result.confidence
    lines.append(f"  evidence    {result.method}, {result.samples} samples per direction, confidence "
                 f"{result.confidence:.10g}: a mechanism that keeps its claim fails this check with "
                 f"probability <= {alpha:.3g}")
    lines.append(f"  seed        {seed}")
    lines.append(f"  reproduce   {reproduce}")
    return "\n".join(lines)


def _python_line(mechanism: Any, pairs_or_strategy: Any, claim: Any, samples: int, confidence: float,
                 max_pairs: int | None, seed: int, mode: Any = None) -> str:
    pairs_text = " ".join(repr(pairs_or_strategy).split())
    if len(pairs_text) > 200:
        pairs_text = "<the pairs above>"
    args = [_show(mechanism, 120), pairs_text]
    if claim is not None:
        args.append(f"claim={claim!r}")
    args += [f"samples={samples}", f"confidence={confidence!r}"]
    if max_pairs is not None:
        args.append(f"max_pairs={max_pairs}")
    if mode is not None:
        args.append(f"mode={mode!r}")
    args.append(f"rng={seed}")
    return "dpverify.testing.assert_private(" + ", ".join(args) + ")"


def check_private(mechanism: Any, pairs_or_strategy: Any, claim: PrivacyClaim | None, *, samples: int,
                  confidence: float, seed: int, max_pairs: int, reproduce: str | None = None,
                  drawn: list | None = None, mode: Any = None) -> AuditResult:
    """The work of :func:`assert_private` with an explicit integer ``seed``; ``reproduce`` is the
    line printed on failure (default: the Python call); the pairs drawn from a strategy are
    appended to ``drawn`` when it is a list."""
    __tracebackhide__ = True
    samples = integer("samples", samples, minimum=1, fix="Ask for at least one sample per direction.")
    confidence = open_unit("confidence", confidence, fix="Use e.g. confidence=0.999.")
    strategy = is_strategy(pairs_or_strategy)
    if strategy:
        pairs = draw_pairs(pairs_or_strategy, max_pairs, seed)
        if drawn is not None:
            drawn.extend(pairs)
        source = f"{len(pairs)} pairs drawn from {pairs_or_strategy!r} with seed {seed}"
    else:
        pairs = pairs_or_strategy
        source = "as given"
    result = audit(mechanism, pairs, claim=claim, samples=samples, confidence=confidence, rng=seed,
                   **({} if mode is None else {"mode": mode}))
    if result.verdict is Verdict.INCONSISTENT:  # the density lies about the sampler: no privacy verdict
        line = reproduce or _python_line(mechanism, pairs_or_strategy, claim, samples, confidence,
                                         max_pairs if strategy else None, seed)
        raise AssertionError(f"{_name(mechanism)}: log_density is inconsistent with sample, so the audit gives no "
                             f"privacy verdict.\n  {result.notes[0] if result.notes else ''}\n  reproduce   {line}")
    if result.verdict is Verdict.VIOLATED:
        if isinstance(pairs, tuple):
            audited = [pairs]
        elif isinstance(pairs, list):
            audited = pairs
        else:
            audited = None
            source = f"selected by {type(pairs_or_strategy).__name__}"
        line = reproduce or _python_line(mechanism, pairs_or_strategy, claim, samples, confidence,
                                         max_pairs if strategy else None, seed, mode)
        raise AssertionError(format_report(mechanism, result, audited, source=source, seed=seed, reproduce=line))
    return result


def assert_private(mechanism: Any, pairs_or_strategy: Any, claim: PrivacyClaim | None = None, *,
                   samples: int | None = None, confidence: float = DEFAULT_CONFIDENCE, rng: Any = None,
                   max_pairs: int | None = None, mode: Any = None) -> AuditResult:
    """Fail (``AssertionError``) when an audit finds that ``mechanism`` violates ``claim``.

    ``pairs_or_strategy`` is what :func:`dpverify.audit` takes (one pair ``(D, D_prime)``, a list
    of pairs, or a neighbour generator), or a hypothesis strategy of pairs (e.g. from
    :mod:`dpverify.strategies`): then ``max_pairs`` distinct pairs (default 8) are drawn from it
    deterministically from the seed and audited **together**, so the audit's multiplicity
    correction covers all of them, and the report names the pair that failed.

    ``claim`` defaults to ``mechanism.claim``; ``samples`` (default 200 000, the ``ci`` profile)
    are outputs per direction of each pair; ``rng`` is an int seed, a ``numpy.random.Generator``
    (one seed is drawn from it) or None (a fresh seed). The check fails only on the verdict
    ``violated``: on a mechanism that keeps its claim that happens with probability at most
    ``1 - confidence`` (default 0.999). ``not-violated`` and ``inconclusive`` pass; the
    :class:`~dpverify.AuditResult` is returned for further checks. The failure message gives the
    pair, the direction, the lower bounds against the claim, the seed and a line that reproduces
    the failure.

    ``mode="grey-box"`` replays every pair with its draws frozen first (:mod:`dpverify.auditing.greybox`): an
    exact finding fails the check at once (no sampling, no false alarm); without one the audit runs as usual.

    Inside pytest, prefer the ``dp_auditor`` fixture of the dpverify plugin: it uses the run's
    seed and profile and splits the run's false-alarm budget over its privacy tests.
    """
    __tracebackhide__ = True
    seed = resolve_seed(rng)
    profile = PROFILES[DEFAULT_PROFILE]
    return check_private(mechanism, pairs_or_strategy, claim,
                         samples=profile.samples if samples is None else samples, confidence=confidence,
                         seed=seed, max_pairs=profile.max_pairs if max_pairs is None else max_pairs, mode=mode)

