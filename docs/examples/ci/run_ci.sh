#!/usr/bin/env sh
# CI for noisy_stats: a fresh virtual environment, the package with its test extra, the tests.
# DPVERIFY names where to install dpverify from (default: the package index; e.g. a checkout path).
set -eu
cd "$(dirname "$0")"
python -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip
python -m pip install -q "${DPVERIFY:-dpverify}[test]"
python -m pip install -q -e ".[test]"
# The privacy tests use the `ci` profile and the fixed seed from pyproject.toml; a failure prints
# the exact `pytest ... --dpverify-seed ...` line that reproduces it.
python -m pytest -q "$@"
