"""Adapters: one small module per judged library, mapping its API onto the protocol.

``BUILTIN`` names the adapters shipped here ("module:Class"); third-party
packages add theirs through the entry-point group ``metric_conformance.adapters``
(each entry point loads an ``Adapter`` subclass or instance).
"""
from __future__ import annotations

import importlib.metadata

from conformance.protocol import Adapter, load_object

BUILTIN = {
    "sacrebleu": "adapters.sacrebleu:SacreBLEU",
    "nltk": "adapters.nltk:NLTK",
    "sklearn": "adapters.sklearn:SKLearn",
    "jiwer": "adapters.jiwer:JiWER",
    "seqeval": "adapters.seqeval:SeqEval",
    "ranx": "adapters.ranx:Ranx",
    "pytrec_eval": "adapters.pytrec_eval:PyTrecEval",
    "pycocoevalcap": "adapters.pycocoevalcap:PyCocoEvalCap",
}

ENTRY_POINT_GROUP = "metric_conformance.adapters"


def _entry_points() -> dict:
    """{name: entry point} of the third-party adapters installed in this environment."""
    try:
        eps = importlib.metadata.entry_points(group=ENTRY_POINT_GROUP)
    except TypeError:  # Python < 3.10 API
        eps = importlib.metadata.entry_points().get(ENTRY_POINT_GROUP, [])
    return {ep.name: ep for ep in eps}


def adapter_names() -> list[str]:
    """Built-in adapter names, then third-party ones (a built-in name wins)."""
    return list(BUILTIN) + [n for n in _entry_points() if n not in BUILTIN]


def _instance(obj, where: str) -> Adapter:
    if isinstance(obj, type) and issubclass(obj, Adapter):
        return obj()
    if isinstance(obj, Adapter):
        return obj
    raise TypeError(f"{where}: expected an Adapter subclass or instance, got {type(obj).__name__}")


def load_adapter(name: str) -> Adapter:
    """The adapter called ``name``: built-in, a third-party entry point, or 'module:Class'."""
    if name in BUILTIN:
        return _instance(load_object(BUILTIN[name]), name)
    eps = _entry_points()
    if name in eps:
        return _instance(eps[name].load(), f"entry point {name!r} ({eps[name].value})")
    if ":" in name:
        return _instance(load_object(name), name)
    known = ", ".join(adapter_names())
    raise KeyError(f"unknown adapter {name!r}; adapters are {known} (or give 'package.module:Class')")


def builtin_adapters(include_entry_points: bool = True) -> tuple[list[Adapter], list[tuple[str, str]]]:
    """(instances of the adapters whose library imports, [(name, reason)] for the others)."""
    ready, missing = [], []
    names = adapter_names() if include_entry_points else list(BUILTIN)
    for name in names:
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
