"""Tumult Core's NoisyQuantile on a pandas Series of floats, audited without pairs (in Tumult's own environment)."""
from tmlt.core.domains.numpy_domains import NumpyFloatDomain as F; from tmlt.core.domains.pandas_domains import PandasSeriesDomain as S; from tmlt.core.measurements.pandas_measurements.series import NoisyQuantile; from tmlt.core.measures import PureDP; import dpverify; from dpverify.adapters import tmlt as adapter
print(dpverify.audit(adapter.measurement(NoisyQuantile(S(F()), PureDP(), 0.5, 0.0, 1.0, 1), 1), samples=1000, rng=1))
