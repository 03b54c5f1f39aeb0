"""The candidate pairs an unaided audit screens: every kind of neighbouring pair a domain admits.

:func:`candidate_pairs` turns an :class:`~dpverify.auditing.domain.InputDomain` and the audit's claim into
:class:`Candidate` pairs, each at one distance ``d`` of the domain and carrying the claim at that distance:

* records -- base datasets of every size in ``domain.sizes``: empty, ordinary values, one value
  duplicated, values at the domain's ends; the change adds (add/remove) or substitutes (replace) ``d``
  copies of one record, the record being every value of ``domain.extremes()`` (the ends, the largest
  float and infinity where a side is unbounded, 0 and +-1, NaN where admitted, the stated ``values`` and
  their neighbours) and one ordinary value; with ``keys``, the record goes into a new partition
  (``keys[-1]``) and into an existing one;
* answers -- base vectors (zeros, ordinary values, ties, large values, every stated value) and changes of norm
  ``d * sensitivity`` along the StatDP patterns (one answer up or down, all up, half up and half down,
  one up and one down).

Each candidate says what it covers (``category``) so the search record can list the coverage.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...claims import NeighbourRelation, PrivacyClaim
from ..domain import LARGEST_FLOAT, InputDomain
from ..space import Norm

__all__ = ["Candidate", "candidate_pairs"]


@dataclass(frozen=True)
class Candidate:
    """One neighbouring pair to screen: its records (or answer vectors), its distance and claim, and what
    it is (``label``, e.g. "add 1 record -inf to 10 ordinary records") and covers (``category``)."""

    records: Any
    records_prime: Any
    distance: int
    claim: PrivacyClaim
    label: str
    category: str
    unit: int = 0  # which (mechanism, domain) of a parameter sweep the pair belongs to

    def pair(self, domain: InputDomain) -> tuple:
        """The pair as the mechanism takes it (``domain.data`` of each side)."""
        return domain.data(self.records), domain.data(self.records_prime)


def _text(v: float) -> str:
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    if abs(v) == LARGEST_FLOAT:
        return "+largest float" if v > 0 else "-largest float"
    return f"{v:g}"


def _category(v: float, domain: InputDomain) -> str:
    if math.isnan(v) or math.isinf(v):
        return "non-finite record"
    if abs(v) >= 2**31 - 1 or v in (domain.low, domain.high):
        return "extreme record"
    if v in domain.values or v - 1.0 in domain.values or v + 1.0 in domain.values:
        return "record at a stated value"
    return "ordinary record"


def _bases(domain: InputDomain) -> list:
    """(name, records) of the base datasets: empty, ordinary, duplicated, at the ends."""
    out = []
    finite_ends = [e for e in (domain.low, domain.high) if math.isfinite(e)]
    for n in domain.sizes:
        if n == 0:
            out.append(("empty dataset", []))
            continue
        out.append((f"{n} ordinary records", domain.ordinary(n)))
        if n >= 2:
            out.append((f"{n} copies of one record", domain.ordinary(1) * n))
            if finite_ends:
                ends = [finite_ends[i % len(finite_ends)] for i in range(n)]
                out.append((f"{n} records at the domain's ends", ends))
    return out


def _keyed(domain: InputDomain, values: list) -> list:
    old = domain.keys[:-1]
    return [(old[i % len(old)], v) for i, v in enumerate(values)]


def _record_changes(domain: InputDomain) -> list:
    """(record value, category) of the changed record: every extreme, and one ordinary value."""
    mid = domain.ordinary(1)[0]
    out = [(v, _category(v, domain)) for v in domain.extremes()]
    if all(not (v == mid) for v, _ in out):
        out.append((mid, "ordinary record"))
    return out


def _records(domain: InputDomain, claim: PrivacyClaim) -> list:
    out = []
    for d in domain.distances:
        claim_d = domain.claim_for(d, claim)
        many = "" if d == 1 else f"{d} x "
        for base_name, base in _bases(domain):
            for v, category in _record_changes(domain):
                if domain.keys is None:
                    out.extend(_plain_changes(domain, base, base_name, v, category, d, claim_d, many))
                else:
                    out.extend(_keyed_changes(domain, base, base_name, v, category, d, claim_d, many))
    return out


def _plain_changes(domain, base, base_name, v, category, d, claim_d, many) -> list:
    if domain.relation is NeighbourRelation.ADD_REMOVE_ONE:
        return [Candidate(tuple(base), tuple(base) + (v,) * d, d, claim_d, f"add {many}{_text(v)} to {base_name}",
                          category)]
    if len(base) < d or all(_same(b, v) for b in base[:d]):
        return []
    changed = (v,) * d + tuple(base[d:])
    return [Candidate(tuple(base), changed, d, claim_d, f"replace {many}record by {_text(v)} in {base_name}",
                      category)]


def _keyed_changes(domain, base, base_name, v, category, d, claim_d, many) -> list:
    records = tuple(_keyed(domain, base))
    new, old = domain.keys[-1], domain.keys[0]
    out = []
    for key, where in ((new, "a new partition"), (old, "an existing partition")):
        if domain.relation is NeighbourRelation.ADD_REMOVE_ONE:
            out.append(Candidate(records, records + ((key, v),) * d, d, claim_d,
                                 f"add {many}{_text(v)} in {where} to {base_name}",
                                 f"{category} in {where}"))
        elif len(records) >= d:
            changed = ((key, v),) * d + records[d:]
            if changed != records:
                out.append(Candidate(records, changed, d, claim_d,
                                     f"replace {many}record by {_text(v)} in {where} in {base_name}",
                                     f"{category} in {where}"))
    return out


def _same(a: float, b: float) -> bool:
    return a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))


#: The change patterns of query answers (the StatDP patterns), as functions of the length.
_PATTERNS = {
    "one answer up": lambda n: np.eye(1, n, 0)[0],
    "one answer down": lambda n: -np.eye(1, n, 0)[0],
    "last answer up": lambda n: np.eye(1, n, n - 1)[0],
    "all answers up": lambda n: np.ones(n),
    "half up, half down": lambda n: np.where(np.arange(n) < (n + 1) // 2, 1.0, -1.0),
    "one up, one down": lambda n: np.eye(1, n, 0)[0] - (np.eye(1, n, 1)[0] if n > 1 else 0.0),
}


def _scaled(u: np.ndarray, norm: Norm, radius: float) -> np.ndarray:
    size = float(np.linalg.norm(u, ord=norm.value))
    return u * (radius / size) * (1 - 1e-12)


def _answer_bases(domain: InputDomain) -> list:
    n = domain.length
    mid = domain.ordinary(1)[0]
    out = [("zero answers", np.zeros(n)), ("tied answers", np.full(n, mid)),
           ("ordinary answers", np.asarray(domain.ordinary(n)) if n > 1 else np.full(n, mid))]
    big = [e for e in (domain.low, domain.high) if math.isfinite(e)] or [2**31 - 1 if domain.integer
                                                                         else LARGEST_FLOAT / 4]
    out.append(("answers at the domain's end", np.full(n, big[-1])))
    for v in domain.values:  # the stated values (a threshold, the answers of an example dataset)
        if domain.admits(v):
            out.append((f"answers all {_text(v)}", np.full(n, v)))
    return out


def _answers(domain: InputDomain, claim: PrivacyClaim) -> list:
    out = []
    for d in domain.distances:
        claim_d = domain.claim_for(d, claim)
        radius = d * domain.sensitivity
        for base_name, base in _answer_bases(domain):
            for pattern, make in _PATTERNS.items():
                u = make(domain.length)
                if not np.any(u != 0):
                    continue
                changed = np.clip(base + _scaled(u, domain.norm, radius), domain.low, domain.high)
                if domain.integer:  # whole-number answers: the rounded change, if it stays inside the norm ball
                    changed = np.rint(changed)
                    if float(np.linalg.norm(changed - base, ord=domain.norm.value)) > radius * (1 + 1e-9):
                        continue
                if np.array_equal(changed, base):
                    continue
                category = "extreme answers" if "end" in base_name else "answer pattern"
                at = "" if d == 1 else f" (distance {d})"
                out.append(Candidate(tuple(base), tuple(changed), d, claim_d, f"{pattern} from {base_name}{at}",
                                     category))
    return out


def candidate_pairs(domain: InputDomain, claim: PrivacyClaim) -> list:
    """Every candidate pair of ``domain`` (see the module docstring), without repeats, in a fixed order."""
    raw = _records(domain, claim) if domain.kind == "records" else _answers(domain, claim)
    seen, out = set(), []
    for c in raw:
        key = (repr(c.records), repr(c.records_prime), c.distance)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
