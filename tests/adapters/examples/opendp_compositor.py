"""An OpenDP interactive compositor (two Laplace queries, eps 0.5 each) audited without pairs, as the tuple of its answers."""
import opendp.prelude as dp; import dpverify; from dpverify.adapters import opendp as adapter
dp.enable_features("contrib"); sp = dp.vector_domain(dp.atom_domain(T=float, nan=False)), dp.symmetric_distance()
queries = [sp >> dp.t.then_clamp((0.0, 1.0)) >> dp.t.then_sum() >> dp.m.then_laplace(2.1), sp >> dp.t.then_count() >> dp.m.then_laplace(2.1)]
comp = dp.c.make_adaptive_composition(*sp, dp.max_divergence(), d_in=1, d_mids=[0.5, 0.5])
print(dpverify.audit(adapter.compositor(comp, queries, d_in=1), samples=2000, rng=1))
