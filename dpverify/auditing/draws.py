"""Draws: seeds, batch plans, sampler calls and the up-front sample plan, shared by every tester.

Randomness: the caller's generator yields one root ``SeedSequence`` (:func:`root_seed`); every
(pair, direction) gets a child and every batch a grandchild, so the outputs depend only on the seed
and the batch size (fixed by the output size, :func:`batch_plan`), never on the number of workers or
on the executor (:mod:`dpverify.auditing.executor`) that runs the batches.

A sampler's outputs are checked (:func:`check_outputs`), and its exceptions named
(:func:`call_sampler`), here; :func:`honours_rng` probes whether a sampler draws from its ``rng``.
:func:`plan_samples` decides, before any draw, how much an audit will draw (:class:`SamplesPlan`).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from ..validation import as_rng, integer
from ..errors import InvalidArgument, MechanismError
from ..messages import describe

__all__ = ["BATCH_ELEMENTS", "DIRECTIONS", "Origin", "NO_ORIGIN", "root_seed", "scalar_outputs", "BatchPlan", "batch_plan", "check_outputs", "call_sampler", "honours_rng",
           "same_outputs", "validate_samples", "DEFAULT_MAX_SAMPLES", "SamplesPlan", "plan_samples",
           "available_memory"]

#: Elements (not outputs) per batch: a few MB, cache-friendly, whatever the output shape. Read by
#: :func:`batch_plan` at each call (a test may lower it to get many small batches).
BATCH_ELEMENTS = 1 << 18
#: The two directions of a pair, in the order of an audit's results (D -> D' first).
DIRECTIONS = ("D->D'", "D'->D")


@dataclass(frozen=True)
class Origin:
    """Where a batch belongs: the index of its pair in the audit's list and its direction (``"D->D'"``,
    ``"D'->D"``), each None when not tied to one. Batches carry it so that a
    :class:`~dpverify.errors.MechanismError` raised while drawing or evaluating them fills its
    ``pair``/``direction`` fields (the message text is unchanged)."""

    pair: int | None = None
    direction: str | None = None

    @classmethod
    def of(cls, index: int) -> "Origin":
        """The origin of the ``index``-th direction of an audit (pair ``index // 2``, D -> D' first)."""
        return cls(index // 2, DIRECTIONS[index % 2])

    def fields(self) -> dict:
        """The keyword fields of a MechanismError raised for this origin."""
        return {"pair": self.pair, "direction": self.direction}


#: A batch not tied to one pair (e.g. :func:`dpverify.auditing.whitebox.privacy_losses`).
NO_ORIGIN = Origin()


def root_seed(rng: Any) -> np.random.SeedSequence:
    """The root SeedSequence of a run, drawn from ``rng`` (Generator, int seed, or None)."""
    gen = as_rng(rng)
    return np.random.SeedSequence([int(x) for x in gen.integers(0, 2**63 - 1, size=4)])


@dataclass(frozen=True)
class BatchPlan:
    """The outputs of each batch of one stream, in order (fixed by the output size only)."""

    sizes: tuple[int, ...]

    @property
    def total(self) -> int:
        return sum(self.sizes)


def batch_plan(samples: int, elements_per_output: int) -> BatchPlan:
    """Split ``samples`` outputs into batches of at most BATCH_ELEMENTS elements."""
    per = max(1, BATCH_ELEMENTS // max(1, elements_per_output))
    full, rest = divmod(samples, per)
    return BatchPlan(tuple([per] * full + ([rest] if rest else [])))


def check_outputs(mechanism: Any, outputs: Any, size: int, where: str, *, origin: Origin = NO_ORIGIN) -> np.ndarray:
    """``outputs`` as an array with ``size`` rows, or MechanismError naming the mechanism (fields from
    ``origin``)."""
    try:
        arr = np.asarray(outputs)
    except Exception as exc:  # pragma: no cover - exotic containers
        raise MechanismError(f"{describe(mechanism)}.sample returned {type(outputs).__name__}, "
                             f"which is not array-like ({exc}); {where}.", **origin.fields()) from None
    if arr.ndim == 0 or arr.shape[0] != size:
        raise MechanismError(
            f"{describe(mechanism)}.sample(size={size}) returned shape {arr.shape}; it must return "
            f"{size} outputs stacked on axis 0; {where}.", **origin.fields()
        )
    return arr


def call_sampler(mechanism: Any, sample: Callable[[], Any], where: str, *, what: str = "sample",
                 hint: str = "", origin: Origin = NO_ORIGIN) -> Any:
    """``sample()``, with any exception turned into a MechanismError naming the mechanism and ``where``.

    ``what`` names the method for the message (``sample``, ``proposal.sample``); ``hint`` is
    appended to it; ``origin`` fills the error's ``pair``/``direction``. A MechanismError raised by the
    mechanism itself passes through unchanged.
    """
    try:
        return sample()
    except MechanismError:
        raise
    except Exception as exc:
        raise MechanismError(
            f"{describe(mechanism)}.{what} raised {type(exc).__name__}: {exc}; {where}.{hint}", **origin.fields()
        ) from exc


def honours_rng(mechanism: Any, data: Any, size: int = 32) -> bool | None:
    """Whether ``mechanism.sample`` honours its ``rng``: two calls with generators from the same
    seed give the same outputs. False means the sampler draws from some other state (global
    ``np.random``, ``scipy.stats`` without ``random_state``, a library's own generator): its
    runs cannot be repeated from a seed, and forked workers could repeat each other's draws.
    None when the probe itself fails (the audit then reports the sampler's error)."""
    try:
        a = mechanism.sample(data, size, np.random.default_rng(20261123))
        b = mechanism.sample(data, size, np.random.default_rng(20261123))
        return same_outputs(a, b)
    except Exception:
        return None


def same_outputs(a: Any, b: Any) -> bool:
    """Whether two draws are equal: numbers exactly (NaN equal to NaN), other outputs by their repr."""
    x, y = np.asarray(a), np.asarray(b)
    if x.shape != y.shape:
        return False
    if x.dtype.kind in "biufc" and y.dtype.kind in "biufc":
        return bool(np.array_equal(x, y, equal_nan=True))
    return bool(repr(a) == repr(b))


def validate_samples(samples: Any) -> int:
    """``samples`` as an int >= 1, or InvalidArgument."""
    return integer("samples", samples, minimum=1, fix="Ask for at least one sample per direction.")


# -- up-front sample limits ------------------------------------------------------------------------

#: Default cap on the outputs drawn per dataset (black-box) or direction (white-box): ``max_samples``.
DEFAULT_MAX_SAMPLES = 100_000_000
#: Bytes the batch plan holds per batch before any draw (its SeedSequence and list entries; measured
#: 386 bytes per spawned SeedSequence, numpy 2, rounded up).
_BYTES_PER_PLANNED_BATCH = 512
#: Smallest number of outputs per batch of any audit path (black-box structured outputs); the plan's
#: memory estimate assumes it, so it is an upper bound.
_MIN_BATCH_OUTPUTS = 1 << 14


@dataclass(frozen=True)
class SamplesPlan:
    """What an audit will draw for a requested sample count, decided before any draw.

    ``samples`` is the count per dataset (black-box) or direction (white-box) after the cap;
    ``capped`` says whether the request was above ``max_samples``; ``note`` is the sentence the
    audit adds to its result when capped (None otherwise); ``plan_bytes`` is an upper bound on the
    memory the batch plan takes up front for ``streams`` streams (datasets or directions)."""

    requested: int
    samples: int
    max_samples: int
    capped: bool
    note: str | None
    plan_bytes: int


def plan_samples(samples: Any, max_samples: Any = None, *, streams: int = 2, name: str = "samples",
                 max_name: str = "max_samples") -> SamplesPlan:
    """The up-front estimate and cap of an audit's size: a :class:`SamplesPlan`, or InvalidArgument.

    ``samples`` above ``max_samples`` (default :data:`DEFAULT_MAX_SAMPLES`) is capped at it, with a
    note (as white-box audits cap ``delta_resolution``); a plan whose batch seeds alone would take
    more than 80 % of the available memory (only reachable with a raised ``max_samples``) is refused.
    ``name`` and ``max_name`` are the arguments as the caller's user typed them (e.g. ``--samples``,
    or a product such as ``--samples-scale`` x a mechanism's default, for ``dpverify check``): the
    messages name them. Nothing is drawn.
    """
    samples = integer(name, samples, minimum=1, fix="Ask for at least one sample per direction.")
    cap = DEFAULT_MAX_SAMPLES if max_samples is None else integer(
        max_name, max_samples, minimum=1, fix=f"Give a cap on the samples, e.g. {max_name}={DEFAULT_MAX_SAMPLES}.")
    streams = integer("streams", streams, minimum=1)
    n = min(samples, cap)
    capped = samples > cap
    note = (f"{name}={samples} is above {max_name}={cap}; capped at {cap} per dataset and direction "
            f"(raise {max_name} to draw more)") if capped else None
    plan_bytes = streams * (-(-n // _MIN_BATCH_OUTPUTS)) * _BYTES_PER_PLANNED_BATCH
    have = available_memory()
    if have is not None and plan_bytes > 0.8 * have:
        raise InvalidArgument(
            f"{name}={samples} (with {max_name}={cap}) would hold about {plan_bytes / 2**30:.1f} GiB of batch seeds "
            f"before the first draw, more than the {have / 2**30:.1f} GiB available; ask for fewer samples or lower "
            f"{max_name}.")
    return SamplesPlan(samples, n, cap, capped, note, plan_bytes)


def available_memory() -> int | None:
    """Bytes of memory available to this process (MemAvailable on Linux), or None if unknown."""
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        import os

        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return None


def as_scalars(outputs: Any) -> np.ndarray | None:
    """``outputs`` as a flat float array when they are one number per draw, else None."""
    try:
        x = np.asarray(outputs, dtype=float)
    except (TypeError, ValueError):
        return None
    return x.reshape(-1) if x.ndim == 1 or (x.ndim == 2 and x.shape[1] == 1) else None


def scalar_outputs(outputs: Any, where: str, test: str, fix: str) -> np.ndarray:
    """``outputs`` as a flat float array when they are one number per draw; else InvalidArgument naming ``where``
    (the dataset), the ``test`` that needs scalar outputs, and the ``fix``."""
    x = as_scalars(outputs)
    if x is None:
        raise InvalidArgument(f"{where}: {test} needs scalar outputs (got {type(outputs).__name__} of shape "
                              f"{np.shape(outputs)}); {fix}")
    return x
