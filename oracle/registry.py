"""The oracle's metrics by name. Metric modules are imported on first use."""
from __future__ import annotations

import importlib

from .conventions import ConventionError, Metric, nearest

# metric name -> "module:attribute" of its Metric declaration
_WHERE = {
    "bleu": "oracle.bleu:BLEU",
    "sentence_bleu": "oracle.bleu:SENTENCE_BLEU",
    "exact_match": "oracle.qa:EXACT_MATCH",
    "squad_f1": "oracle.qa:SQUAD_F1",
    "perplexity": "oracle.perplexity:PERPLEXITY",
}

_cache: dict[str, Metric] = {}


def metric_names() -> list[str]:
    return list(_WHERE)


def get_metric(name: str) -> Metric:
    if name in _cache:
        return _cache[name]
    if name not in _WHERE:
        raise ConventionError(f"unknown metric {name!r}; metrics are {', '.join(_WHERE)}" + nearest(name, _WHERE))
    mod, attr = _WHERE[name].split(":")
    m = getattr(importlib.import_module(mod), attr)
    _cache[name] = m
    return m


def compute(metric: str, inputs, conventions=None):
    """Exact result of ``metric`` on ``inputs`` under ``conventions``."""
    return get_metric(metric).compute(inputs, conventions)
