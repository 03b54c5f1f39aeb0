"""SmartNoise SQL's private reader on SELECT COUNT(x), audited without pairs (in SmartNoise's own environment)."""
import dpverify; from dpverify.adapters import smartnoise as adapter
print(dpverify.audit(adapter.query("SELECT COUNT(x) AS n FROM T.D"), samples=2000, rng=1))
