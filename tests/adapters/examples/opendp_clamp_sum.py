"""OpenDP clamp >> sum >> Laplace on a vector of floats under the symmetric distance, audited without pairs."""
import opendp.prelude as dp; import dpverify; from dpverify.adapters import opendp as adapter
dp.enable_features("contrib"); vec = dp.vector_domain(dp.atom_domain(T=float, nan=False))
meas = dp.t.make_clamp(vec, dp.symmetric_distance(), bounds=(0.0, 1.0)) >> dp.t.then_sum() >> dp.m.then_laplace(1.0)
print(dpverify.audit(adapter.measurement(meas, d_in=1), samples=2000, rng=1))
