"""Two diffprivlib tools on one BudgetAccountant, audited without pairs against the accountant's total."""
import diffprivlib; import dpverify; from dpverify.adapters import diffprivlib_models as adapter
calls = [(diffprivlib.tools.sum, {"epsilon": 0.5, "bounds": (0.0, 1.0)}), (diffprivlib.tools.count_nonzero, {"epsilon": 0.5})]
print(dpverify.audit(adapter.sequence(calls), samples=2000, rng=1))
