"""A diffprivlib tool (median with bounds), audited without pairs: records of floats, the bounds tried as values."""
import diffprivlib; import dpverify; from dpverify.adapters import diffprivlib as adapter
print(dpverify.audit(adapter.tool(diffprivlib.tools.median, epsilon=1.0, bounds=(0.0, 1.0)), samples=2000, rng=1))
