"""Tumult Core's AddGeometricNoise on one number, audited without pairs (in Tumult's own environment)."""
import tmlt.core.measurements.noise_mechanisms as nmm; import dpverify; from dpverify.adapters import tmlt as adapter
print(dpverify.audit(adapter.measurement(nmm.AddGeometricNoise(alpha=1), 1), samples=2000, rng=1))
