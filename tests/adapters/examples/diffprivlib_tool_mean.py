"""diffprivlib's mean, audited without pairs: the domain admits NaN records, which diffprivlib accepts."""
import diffprivlib; import dpverify; from dpverify.adapters import diffprivlib as adapter
print(dpverify.audit(adapter.tool(diffprivlib.tools.mean, epsilon=1.0, bounds=(0.0, 1.0)), samples=2000, rng=1))
