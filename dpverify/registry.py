"""Registries of mechanisms for ``dpverify check``.

A registry is an iterable of :class:`RegistryEntry` published under the entry-point group
``dpverify.registries`` (this project's own is ``dpverify_mechanisms.registry:ENTRIES``). dpverify never
imports ``mechanisms`` directly: it loads whatever registries are installed.
"""
from __future__ import annotations

from dataclasses import dataclass
from importlib import metadata
from typing import Any, Callable

from .validation import integer
from .errors import InvalidArgument

__all__ = ["RegistryEntry", "load_entries", "ENTRY_POINT_GROUP"]

ENTRY_POINT_GROUP = "dpverify.registries"


@dataclass(frozen=True)
class RegistryEntry:
    """One mechanism as ``dpverify check`` audits it.

    ``paper`` is the claim ID ``<paper-key>/<label>``; ``factory`` builds the mechanism with
    default parameters (fast to audit); ``pairs`` returns the neighbouring pairs a reviewer of
    the paper would try first; ``samples`` is the default number of outputs per direction;
    ``section`` groups the table ("mechanisms" for the papers' mechanisms, "faulty" for
    negative controls); ``parameters`` describes the defaults for the table.
    """

    name: str
    paper: str
    factory: Callable[[], Any]
    pairs: Callable[[], Any]
    samples: int = 200_000
    section: str = "mechanisms"
    parameters: str = ""
    description: str = ""

    def __post_init__(self) -> None:
        if not self.name or not isinstance(self.name, str):
            raise InvalidArgument(f"name={self.name!r} must be a non-empty string.")
        if not isinstance(self.paper, str) or "/" not in self.paper:
            raise InvalidArgument(
                f"paper={self.paper!r} must be a claim ID '<paper-key>/<label>', e.g. 'lecture21-dp/lemma-1'."
            )
        integer("samples", self.samples, minimum=1)


def load_entries(group: str = ENTRY_POINT_GROUP) -> list[RegistryEntry]:
    """Every entry of every installed registry, in registration order; names must be unique."""
    entries: list[RegistryEntry] = []
    eps = metadata.entry_points(group=group)
    for ep in sorted(eps, key=lambda e: e.name):
        for entry in ep.load():
            if not isinstance(entry, RegistryEntry):
                raise InvalidArgument(
                    f"registry {ep.value!r} holds {entry!r}, which is not a dpverify.registry.RegistryEntry."
                )
            entries.append(entry)
    seen: set[str] = set()
    for e in entries:
        if e.name in seen:
            raise InvalidArgument(f"two registered mechanisms share the name {e.name!r}; names must be unique.")
        seen.add(e.name)
    return entries
