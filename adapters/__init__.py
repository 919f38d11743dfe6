"""Adapters: one small module per judged library, mapping its API onto the protocol.

They are registered once, in pyproject.toml's entry-point group
``metric_conformance.adapters`` (where third-party packages add theirs); ``BUILTIN``
reads the ones shipped here from that registration ("name" -> "module:Class"), so
there is no second list to drift. Loading goes through ``conformance.resolve`` (the
engine never imports this package).
"""
from __future__ import annotations

from conformance.resolve import ENTRY_POINT_GROUP, adapter_names, builtin_adapters, load_adapter


def __getattr__(name: str):
    if name == "BUILTIN":   # read when asked for: importlib.metadata is not imported with the package
        from importlib.metadata import entry_points
        return {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)
                if ep.value.startswith("adapters.")}
    raise AttributeError(f"module 'adapters' has no attribute {name!r}")


__all__ = ["BUILTIN", "ENTRY_POINT_GROUP", "adapter_names", "builtin_adapters", "load_adapter"]
