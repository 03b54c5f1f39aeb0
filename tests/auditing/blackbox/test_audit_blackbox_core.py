"""Black-box audit: contract, events, structured outputs, determinism, bad mechanisms.

Monte Carlo assertions and their false-failure rates: a "violated" verdict on a correct
mechanism happens with probability <= 1 - confidence (the union bound behind the audit), so each
assertion of "not violated" below runs at confidence 1 - 1e-7 (false failure <= 1e-7). Assertions
that a faulty mechanism is caught use settings whose expected bound clears the threshold by many
standard errors (stated at each test); they fail only if the tester loses power.
"""
from __future__ import annotations

import math
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import pytest

from dpverify import InvalidArgument, MechanismError, PrivacyClaim, Verdict, audit
from dpverify.auditing.blackbox import InlineExecutor

CONF_SAFE = 1 - 1e-7


class Lap:
    """Scalar Laplace, black-box (no log_density)."""

    def __init__(self, eps=1.0, scale=1.0):
        self.claim = PrivacyClaim(eps)
        self.scale = scale

    def sample(self, data, size, rng):
        return data + rng.laplace(0.0, self.scale, size)


def test_result_contract_and_event():
    r = audit(Lap(1.0, 0.5), (0.0, 1.0), samples=50_000, rng=3)
    # true eps = 2; half-line events at 30k certification samples give ~1.9 (sd ~0.03).
    assert r.method == "black-box"
    assert r.verdict is Verdict.VIOLATED
    assert 1.5 < r.epsilon_lower <= 2.0 + 1e-9
    assert r.delta_lower > 0
    assert r.pair == (0.0, 1.0) and r.direction in ("D->D'", "D'->D")
    assert r.event and "certified" in r.event
    d = r.to_dict()
    assert d["method"] == "black-box" and d["event"] == r.event
    assert len(r.directions) == 2


def test_no_artificial_cap_on_epsilon():
    """Disjoint supports: the bound must exceed ln 100 (the cap of a fixed 1% event)."""

    class Shift:
        claim = PrivacyClaim(1.0)

        def sample(self, data, size, rng):
            return data + rng.uniform(0, 1, size)

    r = audit(Shift(), (0.0, 0.9), samples=40_000, rng=4)
    # P_D(output < 0.9) = 0.9, P_D'(.) = 0: bound ~ log(0.9 * 24000 / 7) ~ 8.
    assert r.epsilon_lower > math.log(100)


def test_correct_mechanism_not_violated_at_high_confidence():
    r = audit(Lap(1.0, 1.0), [(0.0, 1.0), (0.0, -1.0)], samples=40_000, rng=5, confidence=CONF_SAFE)
    assert r.verdict is not Verdict.VIOLATED
    assert r.epsilon_lower <= 1.0


def test_same_result_one_vs_two_workers():
    m = Lap(1.0, 0.7)
    pairs = [(0.0, 1.0), (0.0, 0.5)]
    a = audit(m, pairs, samples=30_000, rng=11, executor=InlineExecutor())
    with ProcessPoolExecutor(1) as ex:
        b = audit(m, pairs, samples=30_000, rng=11, executor=ex)
    with ProcessPoolExecutor(2) as ex:
        c = audit(m, pairs, samples=30_000, rng=11, executor=ex)
    for x in (b, c):
        assert x.epsilon_lower == a.epsilon_lower
        assert x.delta_lower == a.delta_lower
        assert x.event == a.event
        assert [d.to_dict() for d in x.directions] == [d.to_dict() for d in a.directions]


class Structured:
    """Returns tuples, None, booleans and exception instances as outcomes."""

    claim = PrivacyClaim(1.0)

    def sample(self, data, size, rng):
        u = rng.random(size)
        out = np.empty(size, dtype=object)
        p_err = 0.3 if data == 1 else 0.01
        for i in range(size):
            if u[i] < p_err:
                out[i] = ValueError("bad")
            elif u[i] < 0.5:
                out[i] = None
            else:
                out[i] = (bool(u[i] < 0.75), float(rng.normal(data)), 3)
        return out


def test_structured_outputs_and_error_outcomes():
    r = audit(Structured(), (0, 1), samples=20_000, rng=6)
    # P(error) = 0.3 vs 0.01: eps ~ log 30 = 3.4 on the exact outcome "error:ValueError".
    assert r.verdict is Verdict.VIOLATED
    assert r.epsilon_lower > 2.5
    # the error outcome is an event of its own (the best event may be a learned score whose
    # outcome-branch term singles out the same outputs)
    assert any("ValueError" in e["event"] for d in r.directions for e in d.extra["events"])


def test_boolean_and_integer_vectors():
    class RR:
        claim = PrivacyClaim(0.5)

        def sample(self, data, size, rng):
            keep = rng.random((size, 3)) < 0.9  # randomised response with p = 0.9: eps = log 9
            return np.where(keep, np.asarray(data, bool), ~np.asarray(data, bool))

    r = audit(RR(), (np.array([True, False, True]), np.array([False, False, True])), samples=20_000, rng=7)
    # true eps = log 9 = 2.197 on the first coordinate; 12k certification samples give ~2.0.
    assert r.verdict is Verdict.VIOLATED
    assert 1.6 < r.epsilon_lower <= math.log(9) + 1e-9


# -- bad mechanisms: clear MechanismError naming the mechanism and the pair --------------------

class WrongCount:
    claim = PrivacyClaim(1.0)

    def __repr__(self):
        return "WrongCount()"

    def sample(self, data, size, rng):
        return np.zeros(size + (1 if data == 1 else 0))


class Raises:
    claim = PrivacyClaim(1.0)

    def __repr__(self):
        return "Raises()"

    def sample(self, data, size, rng):
        if data == 1:
            raise ZeroDivisionError("boom")
        return np.zeros(size)


class ReturnsNaN:
    claim = PrivacyClaim(1.0)

    def __repr__(self):
        return "ReturnsNaN()"

    def sample(self, data, size, rng):
        out = np.zeros(size)
        if data == 1:
            out[size // 2] = np.nan
        return out


class ReturnsNaNInTuple(ReturnsNaN):
    def __repr__(self):
        return "ReturnsNaNInTuple()"

    def sample(self, data, size, rng):
        out = np.empty(size, dtype=object)
        out[:] = [(1, float("nan") if data == 1 else 0.0)] * size
        return out


@pytest.mark.parametrize("mech, words", [
    (WrongCount(), "returned shape"),
    (ReturnsNaN(), "NaN"),
    (ReturnsNaNInTuple(), "NaN"),
], ids=["wrong-count", "nan", "nan-in-tuple"])
def test_bad_mechanism_reported(mech, words):
    with pytest.raises(MechanismError) as info:
        audit(mech, [(0, 2), (0, 1)], samples=200, rng=0)
    msg = str(info.value)
    assert words in msg
    assert repr(mech) in msg
    assert "pair 1" in msg and "data_prime=1" in msg


@pytest.mark.parametrize("samples", [0, 5, 19], ids=["zero", "five", "nineteen"])
def test_too_few_samples(samples):
    with pytest.raises(InvalidArgument):
        audit(Lap(), (0.0, 1.0), samples=samples, rng=0)


def test_unsupported_output_type():
    class Odd:
        claim = PrivacyClaim(1.0)

        def sample(self, data, size, rng):
            out = np.empty(size, dtype=object)
            out[:] = [object()] * size
            return out

    with pytest.raises(MechanismError, match="cannot compare exactly"):
        audit(Odd(), (0, 1), samples=100, rng=0)


def test_each_certified_event_spends_alpha_over_2k():
    """Two one-sided Clopper-Pearson bounds per event slot: each must be at level alpha / (2K),
    K the number of event slots (fixed from the output layout before any selection draw), for
    the union bound to give the stated confidence. Recompute every reported bound from its
    counts and compare exactly."""
    from dpverify.auditing.blackbox import PAIRED_MARGIN_SHARE, PAIRED_SHARE, SELECTION_FRACTION
    from dpverify.auditing.bounds import clopper_pearson_lower, clopper_pearson_upper, paired_log_ratio_lower

    samples, confidence = 20_000, 0.9
    r = audit(Lap(1.0), [(0.0, 1.0), (0.0, -1.0)], samples=samples, confidence=confidence, rng=4)
    events = [e for d in r.directions for e in d.extra["events"]]
    K = r.directions[0].extra["event_slots"]
    assert K >= len(events) >= 4
    n_cert = samples - min(samples - 1, max(1, int(round(samples * SELECTION_FRACTION))))
    # pure claim: each pair's top event gets a paired bound at PAIRED_SHARE (+ margin) of the pair's
    # share a * 2 slots / K; every Clopper-Pearson bound the rest: the levels add up to alpha.
    rest = 1 - PAIRED_SHARE - PAIRED_MARGIN_SHARE
    a_each = rest * (1 - confidence) / (2 * K)
    assert r.directions[0].extra["bound_level_final"] == a_each
    share = (1 - confidence) / len(r.directions) * 2  # two pairs with the same layout: equal shares
    # one top event per pair, or two (one per direction, when the second's score separates): the
    # pair's paired share is then split evenly between them
    per_pair = {d.pair_index: [] for d in r.directions}
    for d in r.directions:
        per_pair[d.pair_index] += [e for e in d.extra["events"] if e["epsilon_lower_paired"] is not None]
    assert all(len(v) in (1, 2) for v in per_pair.values()) and len(per_pair) == 2
    paired = [(e, len(v)) for v in per_pair.values() for e in v]
    assert 2 * K * a_each + sum((PAIRED_SHARE + PAIRED_MARGIN_SHARE) * share / m for _, m in paired) == \
        pytest.approx(1 - confidence, rel=1e-12)
    for e in events:
        assert e["certification_samples"] == n_cert
        k_num, k_den = ((e["count_D"], e["count_D_prime"]) if e["numerator"] == "D"
                        else (e["count_D_prime"], e["count_D"]))
        assert e["p_numerator_lower"] == float(clopper_pearson_lower(k_num, n_cert, a_each))
        assert e["p_denominator_upper"] == float(clopper_pearson_upper(k_den, n_cert, a_each))
    for e, m in paired:
        n10, n01 = e["discordant_pairs"]
        k_num, k_den = ((e["count_D"], e["count_D_prime"]) if e["numerator"] == "D"
                        else (e["count_D_prime"], e["count_D"]))
        want = paired_log_ratio_lower(n10, n01, k_num, k_den, n_cert,
                                      PAIRED_SHARE * share / m, PAIRED_MARGIN_SHARE * share / m)
        assert e["epsilon_lower_paired"] == max(0.0, want)
        assert e["epsilon_lower"] >= e["epsilon_lower_paired"]


def test_event_rows_name_their_datasets_in_a_d_prime_to_d_violation():
    """An asymmetric coin: P_D(1) = 0.05, P_D'(1) = 0.5, claim eps = 0.3. The strongest event is
    {1} favouring D' (true log ratio ln 10 = 2.3; the D->D' side, {0}, reaches only ln 1.9 = 0.64),
    so the audit's bound comes from D'->D. Its row must give the count on D under count_D (about
    0.05 n, not D''s 0.5 n), name D' as the numerator, and its bounds must be the Clopper-Pearson
    bounds of the counts of the side they name (a JSON reader recomputing eps from them gets the
    certified figure). At 6,000 certification samples the counts sit ~20 sd from any mix-up."""

    class Coin:
        claim = PrivacyClaim(0.3)

        def sample(self, data, size, rng):
            return (rng.random(size) < (0.05 if data == 0 else 0.5)).astype(float)

    r = audit(Coin(), (0, 1), samples=10_000, rng=7)
    assert r.verdict is Verdict.VIOLATED and r.direction == "D'->D"
    d = next(x for x in r.to_dict()["directions"] if x["direction"] == "D'->D")
    best = max(d["events"], key=lambda e: e["epsilon_lower"])
    n = best["certification_samples"]
    assert (best["numerator"], best["denominator"]) == ("D'", "D")
    assert best["count_D"] < 0.1 * n < 0.4 * n < best["count_D_prime"]
    assert best["p_numerator_lower"] <= best["count_D_prime"] / n
    assert best["p_denominator_upper"] >= best["count_D"] / n
    assert best["p_denominator_upper"] < 0.1 < 0.4 < best["p_numerator_lower"]
    assert r.epsilon_lower >= math.log(best["p_numerator_lower"] / best["p_denominator_upper"]) - 1e-12
    forward = next(x for x in r.to_dict()["directions"] if x["direction"] == "D->D'")
    for e in forward["events"]:
        assert (e["numerator"], e["denominator"]) == ("D", "D'")
