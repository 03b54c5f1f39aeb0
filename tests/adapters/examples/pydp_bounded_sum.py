"""PyDP's BoundedSum, audited without pairs (add/remove one record, the bounds tried as values)."""
import pydp.algorithms.laplacian as L; import dpverify; from dpverify.adapters import pydp as adapter
print(dpverify.audit(adapter.algorithm(L.BoundedSum, epsilon=1.0, lower_bound=0, upper_bound=1, dtype="float"), samples=2000, rng=1))
