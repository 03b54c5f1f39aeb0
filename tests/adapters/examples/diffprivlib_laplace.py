"""diffprivlib's Laplace mechanism, audited without pairs (one answer within its sensitivity; seeded from rng)."""
import diffprivlib; import dpverify; from dpverify.adapters import diffprivlib as adapter
print(dpverify.audit(adapter.mechanism(diffprivlib.mechanisms.Laplace(epsilon=1.0, sensitivity=1.0)), samples=2000, rng=1))
