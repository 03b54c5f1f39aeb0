"""OpenDP count_by >> laplace_threshold (Approximate<MaxDivergence>: opendp.serialize cannot encode it), rebuilt
from a picklable factory, audited without pairs (records with keys, a new partition among them).

It prints `violated` (about 9 runs in 10): OpenDP's delta leaves out the mass of the noisy count exactly at the
threshold, opendp/opendp#2922 (open); at threshold 3 the true delta is 0.099 against the 0.036 claimed."""
import opendp.prelude as dp; import dpverify; from dpverify.adapters import opendp as adapter


def count_by_threshold():
    dp.enable_features("contrib")
    vec = dp.vector_domain(dp.atom_domain(T=str))
    return dp.t.make_count_by(vec, dp.symmetric_distance(), TV=int) >> dp.m.then_laplace_threshold(scale=1.0, threshold=3)


print(dpverify.audit(adapter.measurement(factory=count_by_threshold, d_in=1), samples=2000, rng=1))
