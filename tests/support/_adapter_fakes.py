"""Small fakes with the interfaces the adapters use, so the default suite runs without the libraries.

Each ``install_*`` puts fake modules in ``sys.modules`` (through pytest's monkeypatch) and returns
the fake top-level module; the adapter module is then imported afresh against them.
"""
from __future__ import annotations

import json
import sys
import types

import numpy as np


def _module(monkeypatch, name, **attrs):
    mod = types.ModuleType(name)
    mod.__dict__.update(attrs)
    monkeypatch.setitem(sys.modules, name, mod)
    return mod


def fresh_adapter(monkeypatch, name):
    """Import dpverify.adapters.<name> again (against whatever is in sys.modules now).

    Both the sys.modules entry and the package attribute are recorded first, so that teardown puts
    back exactly what was there (or nothing): a fake-bound adapter never leaks into later tests.
    """
    import importlib

    import dpverify.adapters as pkg

    key = f"dpverify.adapters.{name}"
    monkeypatch.setitem(sys.modules, key, None)
    del sys.modules[key]
    monkeypatch.setattr(pkg, name, None, raising=False)
    delattr(pkg, name)
    try:
        return importlib.import_module(key)
    except BaseException:  # leave entries for teardown to remove
        setattr(pkg, name, None)
        sys.modules[key] = None
        raise


# -- diffprivlib ----------------------------------------------------------------------------------

class DPMechanism:
    def __init__(self, *, epsilon, delta, random_state=None):
        self.epsilon, self.delta = epsilon, delta
        self._rng = random_state if random_state is not None else np.random.RandomState()


class Laplace(DPMechanism):
    """diffprivlib.mechanisms.Laplace's interface: randomise(value) with scale sensitivity/epsilon.

    ``lie`` (a fake-only knob) multiplies the scale, to make a mechanism that breaks its claim.
    """

    lie = 1.0

    def __init__(self, *, epsilon, delta=0.0, sensitivity, random_state=None):
        super().__init__(epsilon=epsilon, delta=delta, random_state=random_state)
        self.sensitivity = sensitivity

    def randomise(self, value):
        return float(value + self._rng.laplace(0.0, self.lie * self.sensitivity / self.epsilon))


class HalfNoiseLaplace(Laplace):
    lie = 0.5


class BudgetAccountant:
    def __init__(self):
        self.spent = []

    def spend(self, eps, delta):
        self.spent.append((eps, delta))


def fake_sum(array, epsilon=1.0, bounds=None, random_state=None, accountant=None):
    """A bounded sum whose output is truncated to [n lo, n hi] (n = the dataset size), as diffprivlib's."""
    lo, hi = bounds
    x = np.clip(np.asarray(array, float), lo, hi)
    n = x.size
    accountant.spend(epsilon, 0)
    while True:
        out = x.sum() + random_state.laplace(0.0, (hi - lo) / epsilon)
        if n * lo <= out <= n * hi:
            return np.float64(out)


def fake_choice(array, epsilon=1.0, random_state=None, accountant=None):
    """Randomized response on one bit, returning strings: a structured output type."""
    keep = np.exp(epsilon) / (1 + np.exp(epsilon))
    bit = bool(np.asarray(array)[0])
    return ("yes" if bit else "no") if random_state.random_sample() < keep else ("no" if bit else "yes")


def install_diffprivlib(monkeypatch):
    mechanisms = _module(monkeypatch, "diffprivlib.mechanisms", DPMechanism=DPMechanism, Laplace=Laplace,
                         HalfNoiseLaplace=HalfNoiseLaplace)
    tools = _module(monkeypatch, "diffprivlib.tools", sum=fake_sum)
    top = _module(monkeypatch, "diffprivlib", mechanisms=mechanisms, tools=tools, BudgetAccountant=BudgetAccountant)
    return top


# -- opendp ---------------------------------------------------------------------------------------

GLOBAL_FEATURES = set()


class Measurement:
    """opendp's Measurement interface: called on data, output_measure, input_metric, map(d_in).

    Built from a JSON-able spec {"kind": "laplace"|"gaussian", "scale": s, "T": "f64"}; noise
    from the OS (np.random.default_rng() per call) as OpenDP draws its own randomness.
    """

    def __init__(self, spec):
        self.spec = spec
        self.output_measure = "MaxDivergence" if spec["kind"] == "laplace" else "ZeroConcentratedDivergence"
        self.input_metric = "AbsoluteDistance(f64)" if spec.get("vector") is None else "L1Distance(f64)"
        self.calls = 0

    def map(self, d_in):
        s = self.spec["scale"]
        return d_in / s if self.spec["kind"] == "laplace" else (d_in / s) ** 2 / 2

    def __call__(self, x):
        rng = np.random.default_rng()
        if isinstance(x, list):
            noise = rng.laplace(0, self.spec["scale"], len(x)) if self.spec["kind"] == "laplace" else \
                rng.normal(0, self.spec["scale"], len(x))
            return [float(a + b) for a, b in zip(x, noise)]
        return float(x + (rng.laplace(0, self.spec["scale"]) if self.spec["kind"] == "laplace"
                          else rng.normal(0, self.spec["scale"])))

    def __reduce__(self):  # like the real one: cannot be pickled
        raise TypeError("ctypes objects containing pointers cannot be pickled")


def serialize(meas):
    return json.dumps({"__function__": "make_" + meas.spec["kind"], "spec": meas.spec})


def deserialize(text):
    return Measurement(json.loads(text)["spec"])


def enable_features(*names):
    GLOBAL_FEATURES.update(names)


def install_opendp(monkeypatch):
    prelude = _module(monkeypatch, "opendp.prelude", Measurement=Measurement, serialize=serialize,
                      deserialize=deserialize, enable_features=enable_features)
    mod = _module(monkeypatch, "opendp.mod", GLOBAL_FEATURES=GLOBAL_FEATURES)
    return _module(monkeypatch, "opendp", prelude=prelude, mod=mod)


# -- PyDP -----------------------------------------------------------------------------------------

class NumericalMechanism:
    pass


class PyDPLaplace(NumericalMechanism):
    """pydp LaplaceMechanism's interface (epsilon, sensitivity, add_noise); draws its own randomness."""

    def __init__(self, epsilon, sensitivity):
        self.epsilon, self.sensitivity = epsilon, sensitivity
        self.draws = 0

    def add_noise(self, x):
        self.draws += 1
        return float(x + np.random.default_rng().laplace(0, self.sensitivity / self.epsilon))

    def __reduce__(self):
        raise TypeError("cannot pickle 'pydp._pydp._mechanisms.LaplaceMechanism' object")


class BoundedSum:
    def __init__(self, epsilon, lower_bound, upper_bound, dtype, delta=0.0):
        self.epsilon, self.lo, self.hi = epsilon, lower_bound, upper_bound

    def quick_result(self, records):
        s = float(np.clip(np.asarray(records, float), self.lo, self.hi).sum())
        return s + np.random.default_rng().laplace(0, max(abs(self.lo), abs(self.hi)) / self.epsilon)


PyDPLaplace.__name__ = "LaplaceMechanism"


def install_pydp(monkeypatch):
    nm = _module(monkeypatch, "pydp.algorithms.numerical_mechanisms", NumericalMechanism=NumericalMechanism,
                 LaplaceMechanism=PyDPLaplace)
    PyDPLaplace.__module__ = "pydp"  # as pybind11 reports it: not importable by that name
    lap = _module(monkeypatch, "pydp.algorithms.laplacian", BoundedSum=BoundedSum)
    ps = _module(monkeypatch, "pydp.algorithms.partition_selection")
    alg = _module(monkeypatch, "pydp.algorithms", numerical_mechanisms=nm, laplacian=lap, partition_selection=ps)
    return _module(monkeypatch, "pydp", algorithms=alg)


# -- Tumult Core ----------------------------------------------------------------------------------

class PureDP:
    pass


class ApproxDP:
    pass


class RhoZCDP:
    pass


class AbsoluteDifference:
    pass


class NumpyIntegerDomain:
    pass


class Exact:
    """An exact number (like tmlt's ExactNumber): to_float(round_up) rounds in the asked direction."""

    def __init__(self, num, den):
        self.num, self.den = num, den

    def to_float(self, round_up):
        x = self.num / self.den
        from fractions import Fraction

        if round_up and Fraction(x) < Fraction(self.num, self.den):
            x = float(np.nextafter(x, np.inf))
        return x


class TmltMeasurement:
    pass


class AddGeometricNoise(TmltMeasurement):
    def __init__(self, alpha_num, alpha_den=1, zcdp=False):
        self.alpha = (alpha_num, alpha_den)
        self.input_domain, self.input_metric = NumpyIntegerDomain(), AbsoluteDifference()
        self.output_measure = RhoZCDP() if zcdp else PureDP()

    def privacy_function(self, d_in):
        # epsilon = d_in / alpha, as an exact fraction
        return Exact(d_in * self.alpha[1], self.alpha[0])

    def __call__(self, x):
        return np.int64(x + np.random.default_rng().geometric(0.5) - np.random.default_rng().geometric(0.5))


def install_tmlt(monkeypatch):
    measures = _module(monkeypatch, "tmlt.core.measures", PureDP=PureDP, ApproxDP=ApproxDP, RhoZCDP=RhoZCDP)
    base = _module(monkeypatch, "tmlt.core.measurements.base", Measurement=TmltMeasurement)
    measurements = _module(monkeypatch, "tmlt.core.measurements", base=base)
    core = _module(monkeypatch, "tmlt.core", measures=measures, measurements=measurements)
    return _module(monkeypatch, "tmlt", core=core)


# -- SmartNoise SQL -------------------------------------------------------------------------------

def fake_approx_bounds(vals, epsilon):
    """A stand-in for snsql's approx_bounds: raises on a record below -1 (the 1.0.1 bug class), else (0, 1) when
    len(vals) + Laplace(1/epsilon) > 3, else (None, None)."""
    vals = np.asarray(vals, dtype=float)
    if np.any(vals[np.isfinite(vals)] < -1):
        raise ValueError("below the smallest bin edge")
    return (0.0, 1.0) if len(vals) + np.random.default_rng().laplace(0.0, 1.0 / epsilon) > 3 else (None, None)


class FakeSNLaplace:
    def __init__(self, epsilon, *ignore, delta=0.0, lower=None, upper=None, max_contrib=1, **kw):
        self.scale = max_contrib * max(abs(lower), abs(upper)) / epsilon

    def release(self, vals):
        return [float(v) + np.random.default_rng().laplace(0.0, self.scale) for v in vals]


def install_snsql(monkeypatch):
    ab = _module(monkeypatch, "snsql.sql._mechanisms.approx_bounds", approx_bounds=fake_approx_bounds)
    mech = _module(monkeypatch, "snsql.sql._mechanisms", Laplace=FakeSNLaplace, Gaussian=FakeSNLaplace,
                   approx_bounds=ab)
    sql = _module(monkeypatch, "snsql.sql", _mechanisms=mech)
    return _module(monkeypatch, "snsql", sql=sql, Privacy=dict, from_df=None)
