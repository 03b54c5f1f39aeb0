"""SmartNoise SQL's approx_bounds on a list of floats, audited without pairs (in SmartNoise's own environment)."""
import dpverify; from dpverify.adapters import smartnoise as adapter
print(dpverify.audit(adapter.approx_bounds(1.0), samples=300, rng=1))
