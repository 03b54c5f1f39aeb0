"""A diffprivlib model (GaussianNB), audited without pairs: each output is one fit's parameters; records (label, x).

It prints `violated`: the search adds a record of a class the base dataset lacks, and GaussianNB reads its classes
from the data, so the fitted parameters tell D and D' apart (see docs/libraries.md)."""
import diffprivlib; import dpverify; from dpverify.adapters import diffprivlib_models as adapter
print(dpverify.audit(adapter.model(diffprivlib.models.GaussianNB(epsilon=1.0, bounds=(0.0, 1.0))), samples=2000, rng=1))
