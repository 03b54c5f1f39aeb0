"""SmartNoise SQL's Laplace mechanism on an exact bounded sum, audited without pairs (in SmartNoise's environment)."""
import dpverify; from dpverify.adapters import smartnoise as adapter
print(dpverify.audit(adapter.mechanism("laplace", 1.0, lower=0.0, upper=1.0), samples=2000, rng=1))
