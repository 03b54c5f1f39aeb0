"""Package list: pyproject.toml cannot combine `find` with a renamed folder.

`proofs/` (one proof file per source paper) is installed as the package
`dpverify_proofs`; everything else is found under `dpverify*` and `mechanisms*`.
"""
from setuptools import find_packages, setup

packages = find_packages(include=["dpverify", "dpverify.*", "mechanisms", "mechanisms.*"])
setup(
    packages=packages + ["dpverify_proofs"],
    package_dir={"dpverify_proofs": "proofs"},
)
