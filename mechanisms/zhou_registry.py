"""Registry entries for the ``zhou-compression`` procedures (4.1 truncation, 4.2 renormalisation).

Defaults follow the paper's binary game (Example 3.6): the reference X_1 is an n x p matrix of
+-1 entries with orthogonal columns (Sigma_1 = I, columns normalised to ||X_j||^2 = n as eq. (4)
requires), n = 200, p = 2; a neighbour flips the sign of one bit of one record (tau = 1/2), which
keeps the columns normalised and changes Sigma by 2/n off the diagonal, the largest change a
one-row flip can make (Delta_max = 2/n, as in the proof of Theorem D.2). m = 137 is the smallest m
Lemma 4.4 allows (2 (C1 + C2) ln(2np) = 136.3). The claim is then alpha = 2.873 (Theorem 4.6).

The Procedure 4.1 entry draws Phi in the reduced form (Phi Q, the same law as the full m x n
draw; ``tests/mechanisms/test_zhou_compression.py`` checks the two against each other) so that
its audit takes seconds.
"""
from __future__ import annotations

import numpy as np

from dpverify import InvalidArgument
from dpverify.registry import RegistryEntry

from .zhou_compression import PhiDraw, ZhouRenormalised, ZhouTruncation

__all__ = ["REGISTRY", "BAD_ARGUMENTS", "BAD_DATA", "reference_data", "flip", "default_pairs"]

N, P, M = 200, 2, 137
DELTA_MAX = 2.0 / N


def reference_data(n: int = N, p: int = P) -> np.ndarray:
    """X_1: +-1 entries, orthogonal columns (Walsh-like: column j alternates in blocks of 2^j)."""
    rows = np.arange(n)
    cols = [np.where((rows // (1 << j)) % 2 == 0, 1.0, -1.0) if j else np.ones(n) for j in range(p)]
    if n % (1 << p):
        raise InvalidArgument(f"n={n} must be a multiple of 2^p={1 << p} for orthogonal +-1 columns.")
    return np.stack(cols, axis=1)


def flip(x: np.ndarray, row: int, cols) -> np.ndarray:
    """A copy of x with the signs of ``cols`` flipped in ``row`` (Example 3.6's neighbour)."""
    y = x.copy()
    y[row, cols] *= -1.0
    return y


def default_pairs() -> list:
    x = reference_data()
    return [(x, flip(x, 0, [1]))]


REGISTRY = [
    RegistryEntry(
        name="zhou-truncation",
        paper="zhou-compression/procedure-4.1",
        factory=lambda: ZhouTruncation(reference_data(), M, DELTA_MAX, phi=PhiDraw.REDUCED),
        pairs=default_pairs,
        samples=100_000,
        parameters="n=200, p=2, m=137, Delta_max=2/n, alpha=2.873; Phi drawn reduced",
        description="Phi X redrawn until (12); +-1 data, one bit flipped",
    ),
    RegistryEntry(
        name="zhou-renormalised",
        paper="zhou-compression/procedure-4.2",
        factory=lambda: ZhouRenormalised(reference_data(), M, DELTA_MAX),
        pairs=default_pairs,
        samples=100_000,
        parameters="n=200, p=2, m=137, Delta_max=2/n, alpha=2.873",
        description="renormalised density (14); +-1 data, one bit flipped",
    ),
]


def _bad_arguments():
    x = reference_data()
    unnormalised = x * 1.5
    nan = x.copy()
    nan[3, 1] = float("nan")
    wide = reference_data(4, 2)[:2]  # p = n: 2 x 2
    dependent = np.ones((N, 2))  # Sigma_1 singular
    good = {"reference": x, "m": M, "delta_max": DELTA_MAX}
    rows = [
        ("reference-unnormalised", {"reference": unnormalised}),
        ("reference-nan", {"reference": nan}),
        ("reference-p-not-below-n", {"reference": wide}),
        ("reference-singular", {"reference": dependent}),
        ("reference-vector", {"reference": x[:, 0]}),
        ("m-below-lemma-4.4", {"m": 136}),
        ("m-zero", {"m": 0}),
        ("m-float", {"m": 137.0}),
        ("delta-zero", {"delta_max": 0.0}),
        ("delta-negative", {"delta_max": -0.01}),
        ("delta-one", {"delta_max": 1.0}),
        ("delta-nan", {"delta_max": float("nan")}),
        ("delta-inf", {"delta_max": float("inf")}),
        ("delta-assumption-1", {"delta_max": 0.5}),  # p * delta_max = 1 = lambda_min(Sigma_1)
    ]
    out = []
    for cls, tag in ((ZhouTruncation, "zhou-truncation"), (ZhouRenormalised, "zhou-renormalised")):
        for rid, change in rows:
            kw = dict(good)
            kw.update(change)
            out.append((cls, kw, f"{tag}-{rid}"))
    out.append((ZhouTruncation, dict(good, phi="full"), "zhou-truncation-phi-string"))
    return out


#: ``(factory, kwargs, reason)``: ``factory(**kwargs)`` must raise InvalidArgument.
BAD_ARGUMENTS = _bad_arguments()


def _bad_data():
    x = reference_data()
    unnormalised = x.copy()
    unnormalised[0, 0] = 2.0  # ||X_0||^2 = n + 3
    far = flip(x, [0, 1, 4, 5], [1])  # 4 rows with x_0 x_1 = +1 flipped: |Delta_12| = 8/n > Delta_max
    nan = x.copy()
    nan[5, 0] = float("nan")
    return [
        ("unnormalised-column", unnormalised),
        ("outside-S_n", far),
        ("nan-entry", nan),
        ("transposed", x.T),
        ("missing-row", x[:-1]),
    ]


#: ``(make_mechanism, good_data, bad_data, reason)``: sample/log_density on bad_data must raise.
BAD_DATA = [
    (make, reference_data(), bad, f"{tag}-{rid}")
    for tag, make in (("zhou-truncation", lambda: ZhouTruncation(reference_data(), M, DELTA_MAX, phi=PhiDraw.REDUCED)),
                      ("zhou-renormalised", lambda: ZhouRenormalised(reference_data(), M, DELTA_MAX)))
    for rid, bad in _bad_data()
]
