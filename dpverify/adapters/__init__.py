"""Adapters: the objects of deployed DP libraries as dpverify mechanisms, with the library's own claim.

One module per library, each imported on its own (importing ``dpverify`` or this package loads
none of the libraries)::

    from dpverify.adapters import opendp, diffprivlib, diffprivlib_models, pydp, pipeline_dp, tmlt, smartnoise

Importing a module whose library is not installed raises ``ImportError`` with the install command.
Every adapter states the library's own input domain (``input_domain()``: record type and range, NaN,
relation, the claim curve over d_in), so ``dpverify.audit(adapter)`` searches without pairs, and says
what it cannot audit (``limitations``).
Every adapter is picklable (it keeps how to rebuild the library object and rebuilds it in each
worker process), says whether the library draws from the ``rng`` dpverify gives it
(``honours_rng``; results of libraries that draw their own randomness are not reproducible from
the seed), and returns outputs of whatever type the library returns. See ``docs/libraries.md``.
"""
from __future__ import annotations

from .base import LibraryMechanism, absent_records, bound_pairs, library_version, require

__all__ = ["LibraryMechanism", "absent_records", "bound_pairs", "library_version", "require", "ADAPTERS"]

#: Adapter modules and the PyPI distributions they need (also the names of the pyproject extras).
ADAPTERS = {
    "opendp": "opendp",
    "diffprivlib": "diffprivlib",
    "pydp": "python-dp",
    "pipeline_dp": "pipeline-dp",
    "tmlt": "tmlt.core",
    "smartnoise": "smartnoise-sql",
}
