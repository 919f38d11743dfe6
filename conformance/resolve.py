"""Adapter resolution, in one place for the CLI, the runner and the plugin.

An adapter is named by
- an entry point of the group ``metric_conformance.adapters`` (this project
  registers its own adapters there, in pyproject.toml; a third-party package
  adds its own the same way), each loading an ``Adapter`` subclass or instance;
- ``package.module:Class`` (or an instance), or ``package.module:function``
  decorated with ``conformance.functions.implementation``.

Either way the named module is imported and runs: name only code you trust.
The engine never imports the ``adapters`` package itself: arrows run
adapters -> conformance -> oracle.
"""
from __future__ import annotations

import importlib.metadata

from conformance.protocol import Adapter, load_object

ENTRY_POINT_GROUP = "metric_conformance.adapters"
_OWN_DISTRIBUTION = "metric-conformance"


def _entry_points() -> list:
    try:
        return list(importlib.metadata.entry_points(group=ENTRY_POINT_GROUP))
    except TypeError:  # Python < 3.10 API
        return list(importlib.metadata.entry_points().get(ENTRY_POINT_GROUP, []))


def _by_name(own: bool | None = None) -> dict:
    """{name: entry point}: this project's adapters first, then third-party ones, each
    in name order; a name registered by this project wins."""
    mine, others = {}, {}
    for ep in sorted(_entry_points(), key=lambda e: e.name):
        dist = getattr(getattr(ep, "dist", None), "name", None)
        (mine if dist and dist.lower().replace("_", "-") == _OWN_DISTRIBUTION else others).setdefault(ep.name, ep)
    if own is True:
        return mine
    if own is False:
        return {n: ep for n, ep in others.items() if n not in mine}
    return {**mine, **{n: ep for n, ep in others.items() if n not in mine}}


def adapter_names(include_third_party: bool = True) -> list[str]:
    """This project's adapter names, then third-party ones."""
    return list(_by_name(None if include_third_party else True))


def _instance(obj, where: str) -> Adapter:
    if isinstance(obj, type) and issubclass(obj, Adapter):
        return obj()
    if isinstance(obj, Adapter):
        return obj
    raise TypeError(f"{where}: expected an Adapter subclass or instance, got {type(obj).__name__}")


def load_adapter(name: str) -> Adapter:
    """The adapter called ``name``: a registered entry point, or 'module:Class'."""
    eps = _by_name()
    if name in eps:
        return _instance(eps[name].load(), f"entry point {name!r} ({eps[name].value})")
    if ":" in name:
        return _instance(load_object(name), name)
    known = ", ".join(eps) or f"none registered (is the project installed? the group is {ENTRY_POINT_GROUP})"
    from oracle.conventions import nearest
    raise KeyError(f"unknown adapter {name!r}{nearest(name, eps)}; adapters are {known} "
                   "(or give 'package.module:Class')")


def resolve_adapter(spec: str) -> Adapter:
    """An adapter name, an entry point, 'module:AdapterClass', or 'module:function'
    decorated with ``conformance.functions.implementation``."""
    if ":" in spec:
        obj = load_object(spec)
        adapter = obj.adapter if hasattr(obj, "adapter") else load_adapter(spec)
        try:
            adapter.spec = spec   # how to load it again: reproduce lines name it so
        except AttributeError:
            pass
        return adapter
    return load_adapter(spec)


def builtin_adapters(include_entry_points: bool = True) -> tuple[list[Adapter], list[tuple[str, str]]]:
    """(instances of the adapters whose library imports, [(name, reason)] for the others):
    this project's, and with ``include_entry_points`` the third-party ones too."""
    ready, missing = [], []
    for name in adapter_names(include_entry_points):
        try:
            adapter = load_adapter(name)
        except Exception as e:  # a broken third-party plugin must not stop the others
            missing.append((name, f"cannot load adapter ({type(e).__name__}: {e})"))
            continue
        ok, why = adapter.available()
        if ok:
            ready.append(adapter)
        else:
            missing.append((name, why))
    return ready, missing
