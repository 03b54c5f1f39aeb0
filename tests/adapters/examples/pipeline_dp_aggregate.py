"""pipeline-dp COUNT and SUM on a public partition, audited without pairs ((partition, value) records, one per id)."""
import pipeline_dp; import dpverify; from dpverify.adapters import pipeline_dp as adapter
params = dict(max_partitions_contributed=1, max_contributions_per_partition=1, min_value=0.0, max_value=1.0, noise_kind=pipeline_dp.NoiseKind.LAPLACE)
print(dpverify.audit(adapter.aggregate([pipeline_dp.Metrics.COUNT, pipeline_dp.Metrics.SUM], epsilon=1.0, public_partitions=["a"], **params), samples=2000, rng=1))
