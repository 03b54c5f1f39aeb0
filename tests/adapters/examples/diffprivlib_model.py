"""A diffprivlib model (GaussianNB), audited without pairs: each output is one fit's parameters; records (label, x).

Today it prints `violated`: InputDomain.ordinary() turns the domain's ends +-(largest float) into NaN records,
which scikit-learn refuses on one side only (a search-side defect, reported; see docs/libraries.md)."""
import diffprivlib; import dpverify; from dpverify.adapters import diffprivlib_models as adapter
print(dpverify.audit(adapter.model(diffprivlib.models.GaussianNB(epsilon=1.0, bounds=(0.0, 1.0))), samples=2000, rng=1))
