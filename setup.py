"""Package list: pyproject.toml cannot combine `find` with renamed folders.

The repository keeps its top-level folders, but everything that `pip install` puts in
site-packages lives under the project's own names, so that no user module can collide with it:

- `dpverify/`   -> `dpverify` (the toolkit);
- `mechanisms/` -> `dpverify_mechanisms` (the source papers' mechanisms and the controls);
- `proofs/`     -> `dpverify_proofs` (one proof file per source paper, run by `dpverify prove`).
"""
from setuptools import find_packages, setup

packages = find_packages(include=["dpverify", "dpverify.*"])
packages += ["dpverify_mechanisms"] + [f"dpverify_mechanisms.{p}" for p in find_packages("mechanisms")]
packages += ["dpverify_proofs"]
setup(
    packages=packages,
    package_dir={"dpverify_mechanisms": "mechanisms", "dpverify_proofs": "proofs"},
    package_data={"dpverify_proofs": ["coq/*.v", "coq/_CoqProject"],  # the Coq theorems (dpverify.symbolic.coq)
                  # the premise verdicts (dpverify.calibrate.premises: python -m dpverify.calibrate.premises --write)
                  "dpverify.calibrate": ["premise_verdicts.json"]},
)
