"""The controls of ``mechanisms/faulty`` under the black-box audit.

* Faulty controls are caught (default run, reduced samples). Each setting's expected bound
  clears the claim by a wide margin (e.g. histogram-scale-eps: true 2 vs claim 0.5), so these
  fail only if the tester loses power, not by chance (estimated false-failure < 1e-6).
* Correct controls: the verdict "violated" has probability <= 1 - confidence = 0.05 per run
  (union bound). Over N independent seeded runs the number of violations is then stochastically
  below Binomial(N, 0.05); the tests fail only when the count reaches a level whose binomial tail
  is < 1e-6 (so a false failure has probability < 1e-6 per control).
"""
from __future__ import annotations

import math

import pytest
from scipy import stats

from dpverify import Verdict, audit
from dpverify_mechanisms.faulty.registry import REGISTRY, TRUTH

FAULTY = [e for e in REGISTRY if TRUTH[e.name][0]]
CORRECT = [e for e in REGISTRY if not TRUTH[e.name][0]]


def _limit(n: int, p: float = 0.05, tail: float = 1e-6) -> int:
    """Smallest c with P(Binomial(n, p) >= c) < tail."""
    c = 0
    while stats.binom.sf(c - 1, n, p) >= tail:
        c += 1
    return c


def test_registry_section_and_truth():
    assert FAULTY and CORRECT
    for e in REGISTRY:
        assert e.section == "faulty"
        m = e.factory()
        assert not hasattr(m, "log_density")  # audited black-box
        assert m.true_epsilon(TRUTH[e.name][1]) > 0


def test_faulty_module_is_in_project_registry():
    from dpverify_mechanisms.registry import ENTRIES

    names = {e.name for e in ENTRIES}
    assert {e.name for e in REGISTRY} <= names


@pytest.mark.parametrize("entry", [pytest.param(e, marks=pytest.mark.slow) if e.name == "svt-alg3-roth-vector" else e
                                   for e in FAULTY if e.name != "svt-alg3-roth"], ids=lambda e: e.name)
def test_faulty_controls_are_caught(entry):
    m = entry.factory()
    r = audit(m, entry.pairs(), samples=min(entry.samples, 100_000), rng=123)
    assert r.verdict is Verdict.VIOLATED, str(r)
    assert r.epsilon_lower > m.claim.epsilon


#: Controls whose six fast runs cost minutes (vector controls: learned fits on 20-40 features, 8 pairs) or
#: several seconds (histogram-laplace, svt-alg2-dwork-roth): run with the slow tests only, to keep the default
#: suite within its time budget (the other correct controls keep a false-alarm run in the default suite).
HEAVY = {"laplace-parallel", "numerical-svt", "prefix-sum", "histogram-laplace", "svt-alg2-dwork-roth"}


@pytest.mark.parametrize("entry", [pytest.param(e, marks=pytest.mark.slow) if e.name in HEAVY else e
                                   for e in CORRECT], ids=lambda e: e.name)
def test_correct_controls_violated_rate_fast(entry):
    runs = 6
    m = entry.factory()
    bad = sum(audit(m, entry.pairs(), samples=10_000, rng=seed).verdict is Verdict.VIOLATED for seed in range(runs))
    assert bad < _limit(runs), f"{bad} violations in {runs} runs"


@pytest.mark.slow
@pytest.mark.parametrize("entry", CORRECT, ids=lambda e: e.name)
def test_correct_controls_violated_rate_100_runs(entry):
    runs = 100
    m = entry.factory()
    bad = sum(audit(m, entry.pairs(), samples=entry.samples // 4, rng=1000 + s).verdict is Verdict.VIOLATED
              for s in range(runs))
    assert bad < _limit(runs), f"{bad} violations in {runs} runs"


@pytest.mark.slow
@pytest.mark.parametrize("entry", FAULTY, ids=lambda e: e.name)
def test_faulty_controls_acceptance(entry):
    """Acceptance: ratio >= 0.8 of a finite true eps; >= 2 x claim for infinite; 1e6 samples."""
    faulty, k, factory, pairs = TRUTH[entry.name]
    m = factory()
    true = m.true_epsilon(k)
    r = audit(m, pairs(), samples=1_000_000, rng=0)
    if math.isinf(true):
        assert r.epsilon_lower >= 2 * m.claim.epsilon, str(r)
    else:
        assert r.epsilon_lower >= 0.8 * true, str(r)
