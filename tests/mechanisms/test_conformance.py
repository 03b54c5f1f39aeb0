"""Conformance suite: every registered mechanism goes through the same checks.

The mechanisms are those of :func:`dpverify.registry.load_entries` (every installed registry),
so a mechanism added to any registry is checked here without editing this file. Entries in
section ``"faulty"`` may lack ``log_density``; the white-box checks skip mechanisms without it.

**Checks per entry** (data: the datasets of the entry's default pairs)

* shapes: ``sample(D, size, rng)`` stacks ``size`` outputs on axis 0, with one output shape for
  every size and for both datasets of each pair; ``log_density`` returns shape ``(size,)``,
  finite on sampled outputs; ``claim`` is a :class:`~dpverify.PrivacyClaim`.
* reproducibility: the same seed gives the same outputs; another seed gives other outputs.
* neighbours: if the mechanism has ``check_neighbours(D, D')``, every default pair passes it.
* ``log_density`` agrees with the sampler, three ways (each with its false-failure rate):

  1. *likelihood-ratio identity* (what the white-box audit relies on). With
     ``L = log p_D - log p_D'`` computed by ``log_density``, the true densities satisfy, for
     every c >= 0, ``P_{D'}(L >= c) = E_D[exp(-L) 1{L >= c}]`` and
     ``P_D(L <= -c) = E_{D'}[exp(L) 1{L <= -c}]``; all four quantities are means of
     [0, 1]-valued variables (after scaling by min(1, e^c)). Both sides are estimated from
     independent samples of the two samplers (``N_RATIO`` to ``N_RATIO_MAX`` each, by output
     size) at c = -log 4, 0 and median |L| (from an independent pilot), with
     Hoeffding-KL intervals (:mod:`dpverify.auditing.bounds`) at level alpha/2 each; the check
     fails when the two intervals of an identity do not overlap. A data-dependent error in the
     normalising constant (e.g. using D's sigma under D') or a wrong covariance breaks them;
     checked on mutants (test_conformance_power.py): a scale error of 10% in a Gaussian density, an offset
     of 0.1 nats per unit of data, and a data-independent sigma_RP in the showkatbakhsh
     projection are all caught.
  2. *slice PIT* (on D of the first pair). For o ~ M(D) and a direction w = a - b built from two further independent
     outputs (so w lies in the span of the outputs, e.g. symmetric for symmetric-matrix
     outputs), the conditional law of the coefficient t of o along w, given the rest, has
     density proportional to ``p(o + t w)`` (t over the line). Integrating ``log_density`` on an
     adaptive grid (at least ``MIN_POINTS`` points where the density is within e^-40 of its
     maximum) gives the conditional CDF at t = 0, which is exactly Uniform(0, 1) and i.i.d.
     across samples when ``log_density`` is right up to a constant factor. A KS test on
     ``N_PIT`` values (``N_PIT_MIN`` for the largest outputs) fails at p < alpha. It catches
     gross errors of shape (a scale off by ~1.5x or more, a wrong mean or correlation); smaller
     errors are left to check 1, which is far more powerful.
     Quadrature error is below 1/MIN_POINTS, far below the KS critical distance (~0.1).
     It assumes continuous outputs (a density w.r.t. Lebesgue measure on the span of the
     outputs); a mechanism with a log *mass* sets ``output_is_discrete = True`` to skip it.
  3. *normalisation* (outputs with one element): the density integrates to 1 within 1e-3.

  A constant offset of ``log_density`` that is the same for every dataset is invisible to 1
  and 2 (and to every audit, which only uses differences of log densities); 3 catches it for
  scalar outputs.

  **False-failure rate**: each mechanism runs at most ``2 * 3 * (number of pairs)`` identity
  checks (two intervals each) and 1 KS test, with alpha split so that the total is at most 1e-6 per mechanism
  (union bound).
* bad input: ``InvalidArgument`` from every row of the registry modules' tables (below).
* ``dpverify check --only NAME ... --samples-scale 0.01 --json`` (one subprocess for all
  entries) lists every entry with a verdict.

**Tables of bad input** (convention). A registry module -- the module that defines an entry's
``factory`` (``factory.__module__``) -- may define:

* ``BAD_ARGUMENTS = [(factory, kwargs, reason), ...]``: ``factory(**kwargs)`` must raise
  :class:`~dpverify.InvalidArgument` (``reason`` is the readable test id);
* ``BAD_DATA = [(make_mechanism, good_data, bad_data, reason), ...]``: with
  ``m = make_mechanism()``, ``m.sample(bad_data, 2, rng)`` and
  ``m.log_density(m.sample(good_data, 2, rng), bad_data)`` must raise InvalidArgument (data
  violating the paper's bounds is rejected, never clipped).

Every module that registers entries of section ``"mechanisms"`` must define both, non-empty.
"""
from __future__ import annotations

import importlib
import json
import math
import subprocess
import sys

import numpy as np
import pytest
from scipy import stats
from scipy.special import logsumexp

from dpverify import InvalidArgument, PrivacyClaim, is_white_box
from dpverify.auditing.bounds import kl_lower, kl_upper
from dpverify.registry import load_entries

ENTRIES = load_entries()
IDS = [e.name for e in ENTRIES]

#: Total false-failure rate of the statistical checks, per mechanism.
ALPHA_TOTAL = 1e-6
N_RATIO = 20_000
#: ... raised up to N_RATIO_MAX for small outputs (RATIO_ELEMENTS output elements per sampler, shared
#: by the entry's pairs).
N_RATIO_MAX = 100_000
RATIO_ELEMENTS = 2_000_000
#: The identities are also checked at c = -C_WIDE (weighted variables in [0, 4], scaled by 1/4):
#: nearly all the mass, so a data-dependent offset of log_density shows.
C_WIDE = math.log(4.0)
N_PIT = 400
#: ... lowered to PIT_ELEMENTS / (output elements), at least N_PIT_MIN, for large outputs.
PIT_ELEMENTS = 26_000
N_PIT_MIN = 100
GRID = 601
MIN_POINTS = 300
MAX_ROUNDS = 12
#: Outputs passed to one log_density call in the slice check (memory bound).
ELEMENTS_PER_CALL = 1 << 21


def _modules():
    mods = {}
    for e in ENTRIES:
        name = getattr(e.factory, "__module__", None)
        if name and name not in mods:
            mods[name] = importlib.import_module(name)
    return mods


MODULES = _modules()
BAD_ARGUMENTS = [row for m in MODULES.values() for row in getattr(m, "BAD_ARGUMENTS", ())]
BAD_DATA = [row for m in MODULES.values() for row in getattr(m, "BAD_DATA", ())]


def _pairs(entry):
    pairs = entry.pairs()
    return [pairs] if isinstance(pairs, tuple) else list(pairs)


def _n_statistical_tests(entry) -> int:
    return 2 * 2 * 3 * len(_pairs(entry)) + 1


# ---------------------------------------------------------------------------------------------
# Structure
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_shapes_claim_and_reproducibility(entry):
    mech = entry.factory()
    assert isinstance(mech.claim, PrivacyClaim)
    shapes = set()
    for d, dp in _pairs(entry):
        for data in (d, dp):
            a = np.asarray(mech.sample(data, 5, np.random.default_rng(11)))
            b = np.asarray(mech.sample(data, 5, np.random.default_rng(11)))
            c = np.asarray(mech.sample(data, 5, np.random.default_rng(12)))
            one = np.asarray(mech.sample(data, 1, np.random.default_rng(13)))
            assert a.shape[0] == 5 and one.shape[0] == 1 and a.shape[1:] == one.shape[1:]
            shapes.add(a.shape[1:])
            np.testing.assert_array_equal(a, b)
            assert not np.array_equal(a, c), "different seeds gave identical outputs"
            if is_white_box(mech):
                ld = np.asarray(mech.log_density(a, data), dtype=float)
                assert ld.shape == (5,)
                assert np.all(np.isfinite(ld)), f"log_density not finite on sampled outputs: {ld}"
    assert len(shapes) == 1, f"outputs of one pair have different shapes: {shapes}"


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_default_pairs_are_neighbours(entry):
    mech = entry.factory()
    check = getattr(mech, "check_neighbours", None)
    if check is None:
        pytest.skip("the mechanism has no check_neighbours")
    for d, dp in _pairs(entry):
        check(d, dp)


def test_every_mechanism_module_has_bad_input_tables():
    missing = []
    for e in ENTRIES:
        if e.section != "mechanisms":
            continue
        mod = MODULES[e.factory.__module__]
        for table in ("BAD_ARGUMENTS", "BAD_DATA"):
            if not getattr(mod, table, None):
                missing.append(f"{mod.__name__}.{table} (entry {e.name})")
    assert not missing, ("registry modules must define non-empty bad-input tables "
                         "(see this file's docstring): " + ", ".join(sorted(set(missing))))


# ---------------------------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("factory,kwargs,reason", BAD_ARGUMENTS, ids=[r[2] for r in BAD_ARGUMENTS])
def test_bad_arguments_raise(factory, kwargs, reason):
    with pytest.raises(InvalidArgument) as info:
        factory(**kwargs)
    assert str(info.value), "InvalidArgument without a message"


@pytest.mark.parametrize("make,good,bad,reason", BAD_DATA, ids=[r[3] for r in BAD_DATA])
def test_bad_data_raise(make, good, bad, reason):
    mech = make()
    with pytest.raises(InvalidArgument):
        mech.sample(bad, 2, np.random.default_rng(0))
    if is_white_box(mech):
        out = mech.sample(good, 2, np.random.default_rng(0))
        with pytest.raises(InvalidArgument):
            mech.log_density(out, bad)


# ---------------------------------------------------------------------------------------------
# log_density against the sampler
# ---------------------------------------------------------------------------------------------


def _losses(mech, outputs, d, dp):
    a = np.asarray(mech.log_density(outputs, d), dtype=float)
    b = np.asarray(mech.log_density(outputs, dp), dtype=float)
    assert not np.any(np.isnan(a) | np.isnan(b))
    with np.errstate(invalid="ignore"):
        loss = a - b
    loss[np.isinf(a) & np.isinf(b)] = np.nan  # impossible under both: cannot be sampled
    assert not np.any(np.isnan(loss)), "an output sampled from one dataset has density 0 under both"
    return loss


def _interval(values, alpha):
    mean = float(np.mean(values))
    n = values.size
    return float(kl_lower(mean, n, alpha / 2)), float(kl_upper(mean, n, alpha / 2))


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_likelihood_ratio_identity(entry):
    mech = entry.factory()
    if not is_white_box(mech):
        pytest.skip("no log_density")
    alpha = ALPHA_TOTAL / _n_statistical_tests(entry)
    rng = np.random.default_rng(20240611)
    for k, (d, dp) in enumerate(_pairs(entry)):
        pilot = _losses(mech, mech.sample(d, 1000, rng), d, dp)
        c_pos = float(np.median(np.abs(pilot[np.isfinite(pilot)]))) if np.any(np.isfinite(pilot)) else 0.0
        elements = _flat(mech.sample(d, 1, rng))[0].shape[1] * len(_pairs(entry))
        n = min(N_RATIO_MAX, max(N_RATIO, RATIO_ELEMENTS // elements))
        loss_d = _losses(mech, mech.sample(d, n, rng), d, dp)    # L on outputs of M(D)
        loss_dp = _losses(mech, mech.sample(dp, n, rng), d, dp)  # L on outputs of M(D')
        for c in [c0 + 1e-7 for c0 in sorted({-C_WIDE, 0.0, c_pos})]:  # off atoms of L (L = 0 rounds to +-ulp)
            scale = min(1.0, math.exp(c))  # the weighted variables lie in [0, exp(-c)]
            # P_{D'}(L >= c) = E_D[exp(-L) 1{L >= c}]
            lhs = (loss_dp >= c).astype(float) * scale
            rhs = np.exp(-np.where(loss_d >= c, loss_d, np.inf)) * scale
            # P_D(L <= -c) = E_{D'}[exp(L) 1{L <= -c}]
            lhs2 = (loss_d <= -c).astype(float) * scale
            rhs2 = np.exp(np.where(loss_dp <= -c, loss_dp, -np.inf)) * scale
            for name, x, y in (("P_D'(L>=c) vs E_D[e^-L;L>=c]", lhs, rhs),
                               ("P_D(L<=-c) vs E_D'[e^L;L<=-c]", lhs2, rhs2)):
                assert np.all((y >= 0) & (y <= 1 + 1e-9)), "a weighted variable left [0, 1]"
                (a_lo, a_hi), (b_lo, b_hi) = _interval(x, alpha), _interval(np.minimum(y, 1.0), alpha)
                assert a_lo <= b_hi and b_lo <= a_hi, (
                    f"pair {k}, c={c:.4g}: {name} (both x {scale:.3g}): {x.mean():.5f} [{a_lo:.5f}, "
                    f"{a_hi:.5f}] vs {y.mean():.5f} [{b_lo:.5f}, {b_hi:.5f}]; log_density does not give "
                    "the likelihood ratio of the sampler")


def _flat(outputs):
    arr = np.asarray(outputs, dtype=float)
    return arr.reshape(arr.shape[0], -1), arr.shape[1:]


def _log_density_on(mech, data, points, shape):
    """log_density of flattened ``points`` (m, E), in chunks."""
    m, e = points.shape
    per = max(1, ELEMENTS_PER_CALL // max(1, e))
    parts = [np.asarray(mech.log_density(points[i:i + per].reshape(-1, *shape), data), dtype=float)
             for i in range(0, m, per)]
    return np.concatenate(parts)


def _line_grids(lo, hi, g):
    """Per-row grids with 0 included: g//2 points on [lo, 0] and g//2 + 1 on [0, hi]."""
    h = g // 2
    left = lo[:, None] * (1 - np.linspace(0, 1, h, endpoint=False))[None, :]   # lo .. (not 0)
    right = hi[:, None] * np.linspace(0, 1, g - h)[None, :]                    # 0 .. hi
    return np.concatenate([left, right], axis=1), h  # column h is t = 0


def _conditional_cdf_at_zero(mech, data, origins, directions, shape):
    """For each row i: int_{-inf}^0 p(o_i + t w_i) dt / int p(o_i + t w_i) dt, by adaptive trapezoid."""
    m = origins.shape[0]
    span = np.linalg.norm(directions, axis=1)
    w = directions / span[:, None]
    lo, hi = -8 * span, 8 * span
    todo = np.arange(m)
    result = np.full(m, np.nan)
    for _ in range(MAX_ROUNDS):
        if todo.size == 0:
            break
        t, zero = _line_grids(lo[todo], hi[todo], GRID)
        pts = origins[todo, None, :] + t[:, :, None] * w[todo, None, :]
        g = _log_density_on(mech, data, pts.reshape(-1, origins.shape[1]), shape).reshape(todo.size, GRID)
        assert not np.any(np.isnan(g)), "log_density returned NaN on a line through a sampled output"
        gmax = g.max(axis=1)
        region = g > gmax[:, None] - 40
        first = region.argmax(axis=1)
        last = GRID - 1 - region[:, ::-1].argmax(axis=1)
        count = region.sum(axis=1)
        widen_lo = first == 0
        widen_hi = last == GRID - 1
        sparse = count < MIN_POINTS
        done = ~(widen_lo | widen_hi | sparse)
        # finished rows: trapezoid in log space
        for r in np.flatnonzero(done):
            tr, gr = t[r], g[r]
            seg = np.logaddexp(gr[:-1], gr[1:]) + np.log(np.diff(tr) / 2)
            below = logsumexp(seg[:zero])
            total = logsumexp(seg)
            result[todo[r]] = math.exp(below - total)
        # the others: widen an open side, or zoom onto the mass region (keeping t = 0 inside)
        nlo, nhi = lo[todo].copy(), hi[todo].copy()
        for r in np.flatnonzero(~done):
            if widen_lo[r] or widen_hi[r]:
                width = hi[todo[r]] - lo[todo[r]]
                if widen_lo[r]:
                    nlo[r] = lo[todo[r]] - 4 * width
                if widen_hi[r]:
                    nhi[r] = hi[todo[r]] + 4 * width
            else:
                tr = t[r]
                nlo[r] = min(tr[max(first[r] - 1, 0)], -1e-300)
                nhi[r] = max(tr[min(last[r] + 1, GRID - 1)], 1e-300)
        lo[todo], hi[todo] = nlo, nhi
        todo = todo[~done]
    assert todo.size == 0, (f"{todo.size} lines through sampled outputs could not be resolved in "
                            f"{MAX_ROUNDS} rounds (density too narrow or too wide along the line)")
    return result


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_slice_pit_uniform(entry):
    mech = entry.factory()
    if not is_white_box(mech):
        pytest.skip("no log_density")
    if getattr(mech, "output_is_discrete", False):
        pytest.skip("discrete outputs: log_density is a log mass")
    alpha = ALPHA_TOTAL / _n_statistical_tests(entry)
    rng = np.random.default_rng(7)
    data = _pairs(entry)[0][0]
    elements = _flat(mech.sample(data, 1, rng))[0].shape[1]
    m = int(min(N_PIT, max(N_PIT_MIN, PIT_ELEMENTS // elements)))
    flat, shape = _flat(mech.sample(data, 3 * m, rng))
    origins, a, b = flat[:m], flat[m:2 * m], flat[2 * m:]
    u = _conditional_cdf_at_zero(mech, data, origins, a - b, shape)
    p = stats.kstest(u, "uniform").pvalue
    assert p >= alpha, (f"conditional PIT values along {m} random lines are not uniform (KS p = {p:.3g} "
                        f"< {alpha:.3g}): log_density disagrees with the sampler")


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_scalar_density_integrates_to_one(entry):
    """Deterministic quadrature (no false failures): the total mass on the line is 1 within 1e-3."""
    mech = entry.factory()
    if not is_white_box(mech) or getattr(mech, "output_is_discrete", False):
        pytest.skip("no continuous log_density")
    d = _pairs(entry)[0][0]
    flat, shape = _flat(mech.sample(d, 2, np.random.default_rng(3)))
    if flat.shape[1] != 1:
        pytest.skip("outputs have more than one element")
    centre = flat[0, 0]
    half = abs(flat[1, 0] - centre) + 1.0
    for _ in range(MAX_ROUNDS):
        t = np.linspace(centre - half, centre + half, 200_001)
        g = _log_density_on(mech, d, t.reshape(-1, 1), shape)
        region = g > g.max() - 40
        if not (region[0] or region[-1]):
            break
        half *= 4
    else:
        pytest.fail("the density does not decay within the widest grid tried")
    assert region.sum() >= 10_000, "grid too coarse for the density's width"
    seg = np.logaddexp(g[:-1], g[1:]) + np.log(np.diff(t) / 2)
    total = math.exp(logsumexp(seg))
    assert abs(total - 1) < 1e-3, f"the density integrates to {total!r}, not 1"


# ---------------------------------------------------------------------------------------------
# dpverify check
# ---------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def check_rows():
    cmd = [sys.executable, "-c", "import sys; from dpverify.cli import main; sys.exit(main())",
           "check", "--samples-scale", "0.01", "--json"]
    for e in ENTRIES:
        cmd += ["--only", e.name]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"dpverify check failed ({proc.returncode}): {proc.stderr[-2000:]}"
    doc = json.loads(proc.stdout)
    rows = {}
    for key, value in doc.items():
        if isinstance(value, list):
            for r in value:
                if isinstance(r, dict) and "name" in r and "verdict" in r:
                    rows[r["name"]] = r
    return rows


@pytest.mark.parametrize("entry", ENTRIES, ids=IDS)
def test_dpverify_check_gives_a_verdict(entry, check_rows):
    assert entry.name in check_rows, f"dpverify check --json has no row for {entry.name}"
    row = check_rows[entry.name]
    assert row["verdict"] in {"violated", "not-violated", "inconclusive"}
    assert row["samples"] == max(1, int(round(entry.samples * 0.01)))
