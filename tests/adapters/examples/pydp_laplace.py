"""PyDP's Laplace mechanism on one number, audited without pairs."""
import pydp.algorithms.numerical_mechanisms as nm; import dpverify; from dpverify.adapters import pydp as adapter
print(dpverify.audit(adapter.mechanism(nm.LaplaceMechanism, epsilon=1.0, sensitivity=1.0), samples=2000, rng=1))
