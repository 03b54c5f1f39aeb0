"""pipeline-dp's LaplaceMechanism on one number, audited without pairs."""
import dpverify; from dpverify.adapters import pipeline_dp as adapter
print(dpverify.audit(adapter.laplace(1.0), samples=2000, rng=1))
