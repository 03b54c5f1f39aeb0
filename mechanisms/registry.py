"""The registry of shipped mechanisms audited by ``dpverify check``.

Each paper module defines ``REGISTRY`` (a list of :class:`dpverify.registry.RegistryEntry`);
this module concatenates them in the order of ``_MODULES``. Add a module name here when a new
paper module ships mechanisms.
"""
from __future__ import annotations

import importlib

_MODULES = (
    "lecture21_dp_registry",
    "tu_projections_registry",
    "showkatbakhsh_registry",
    "jiang_wishart_registry",
    "zhou_registry",
    "faulty.registry",
    "exact_samplers_registry",
)

ENTRIES = []
for _name in _MODULES:
    ENTRIES.extend(importlib.import_module(f"dpverify_mechanisms.{_name}").REGISTRY)
