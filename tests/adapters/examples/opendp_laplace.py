"""OpenDP's scalar Laplace, audited without pairs: its domain (f64 without NaN) and its map at d_in = 1, 2, 3, 6."""
import opendp.prelude as dp; import dpverify; from dpverify.adapters import opendp as adapter
dp.enable_features("contrib")
meas = dp.m.make_laplace(dp.atom_domain(T=float, nan=False), dp.absolute_distance(T=float), scale=1.0)
print(dpverify.audit(adapter.measurement(meas, d_in=1.0), samples=2000, rng=1))
