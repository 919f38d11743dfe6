"""Judge plain functions, not only libraries.

    from conformance.functions import implementation

    @implementation("bleu", conventions={"tokenizer": "none", "scale": "percent"})
    def my_bleu(inputs):
        ...
        return score

``my_bleu`` stays callable; ``my_bleu.adapter`` is an adapter that the runner,
``compare`` and the pytest plugin accept (``--adapter package.module:my_bleu``).
The function receives the metric's inputs as a dict and returns a number.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Callable, Mapping

from oracle.compare import Tolerance
from oracle.registry import get_metric

from conformance.protocol import Adapter, LibraryOutput


class FunctionAdapter(Adapter):
    """An adapter around one function implementing one metric under fixed conventions."""

    library = "user-function"
    homepage = ""
    issues = ""

    def __init__(self, fn: Callable, metric: str, conventions: Mapping | None = None, name: str | None = None,
                 tolerance: Tolerance | None = None):
        get_metric(metric).settings(conventions or {})  # validates the declared conventions now
        self.fn = fn
        self.name = name or f"{fn.__module__}.{fn.__qualname__}"
        self.capabilities = {metric: {}}
        self.profiles = {metric: dict(conventions or {})}
        self.tolerances = {metric: tolerance or Tolerance(ulps=8, rel=Fraction(1, 10 ** 12))}

    def available(self):
        return True, ""

    def version(self) -> str:
        return "n/a"

    def options(self, metric, settings):
        return {}

    def call(self, metric, options, inputs):
        return LibraryOutput(self.fn(inputs))


def implementation(metric: str, conventions: Mapping | None = None, name: str | None = None,
                   tolerance: Tolerance | None = None):
    """Decorator: register a plain function as an implementation of ``metric``."""
    def wrap(fn):
        fn.adapter = FunctionAdapter(fn, metric, conventions, name, tolerance)
        return fn
    return wrap
