"""pipeline-dp with its PLD accountant (needs dp-accounting): the claim is the PLD accountant's total."""
import pipeline_dp; import dpverify; from dpverify.adapters import pipeline_dp as adapter
params = dict(max_partitions_contributed=1, max_contributions_per_partition=1, min_value=0.0, max_value=1.0, noise_kind=pipeline_dp.NoiseKind.GAUSSIAN)
print(dpverify.audit(adapter.aggregate([pipeline_dp.Metrics.SUM], epsilon=1.0, delta=1e-5, public_partitions=["a"], accountant="pld", **params), samples=300, rng=1))
