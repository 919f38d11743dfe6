"""Shared scaffolding of the adapter tests: configure an adapter to its profile plus
some knob changes, and run it beside the oracle."""
import warnings

from conformance.protocol import Configured
from oracle.registry import get_metric


def configure(a, metric, conventions):
    """The adapter configured to its declared profile overridden by ``conventions``."""
    settings = get_metric(metric).settings({**a.profiles[metric], **conventions})
    cfg = a.configure(metric, settings)
    assert isinstance(cfg, Configured), getattr(cfg, "reason", cfg)
    return cfg


def run(a, metric, conventions, inputs):
    """(configuration, the library's output, the oracle's result) on ``inputs``."""
    cfg = configure(a, metric, conventions)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        out = a.run(cfg, inputs)
    return cfg, out, get_metric(metric).compute(inputs, cfg.settings)


def known_file(adapter: str) -> dict:
    """The adapter's known-failure file (adapters/known_failures/<adapter>.json) as JSON."""
    import json
    from pathlib import Path
    path = Path(__file__).resolve().parent.parent / "adapters" / "known_failures" / f"{adapter}.json"
    with open(path, encoding="utf-8") as f:
        return json.load(f)
