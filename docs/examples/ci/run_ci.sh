#!/usr/bin/env sh
# CI for noisy_stats: a fresh virtual environment, the package with its test extra, the tests.
# DPVERIFY names where to install dpverify from: a checkout path (DPVERIFY=/path/to/dpverify) or a
# git URL (DPVERIFY="dpverify @ git+https://<host>/<repo>.git"); the default, the package name,
# works only once dpverify is published on the package index.
set -eu
cd "$(dirname "$0")"
python -m venv .venv
. .venv/bin/activate
python -m pip install -q --upgrade pip
case "${DPVERIFY:-dpverify}" in
  *" @ "*) python -m pip install -q "${DPVERIFY%% @ *}[pytest] @ ${DPVERIFY#* @ }" ;;
  *) python -m pip install -q "${DPVERIFY:-dpverify}[pytest]" ;;
esac
python -m pip install -q -e ".[test]"
# The privacy tests use the `ci` profile and the fixed seed from pyproject.toml; a failure prints
# the exact `pytest ... --dpverify-seed ...` line that reproduces it.
python -m pytest -q "$@"
