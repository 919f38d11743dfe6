"""Judge plain functions, not only libraries.

    from conformance.functions import implementation

    @implementation("bleu", conventions={"tokenizer": "none", "scale": "percent"})
    def my_bleu(inputs):
        ...
        return score

``my_bleu`` stays callable; ``my_bleu.adapter`` is an adapter that the runner,
``compare`` and the pytest plugin accept (``--adapter package.module:my_bleu``).
The function receives the metric's inputs as a dict and returns a number. A
ranking metric's function receives each query's ranking as ``{doc: score}``: a
list-form ranking (``[[doc, score], ...]``) is passed as that dict, and one that
names a document twice is not passed (skipped), unless the decorator says
``rankings="as-given"`` (the function then reads lists and the duplicates knob
itself).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Callable, Mapping

from oracle.compare import Tolerance
from oracle.registry import get_metric

from conformance.protocol import Adapter, LibraryOutput, Skip


class FunctionAdapter(Adapter):
    """An adapter around one function implementing one metric under fixed conventions."""

    library = "user-function"
    takes_options = False   # its one call is the call with no optional argument
    homepage = ""
    issues = ""

    def __init__(self, fn: Callable, metric: str, conventions: Mapping | None = None, name: str | None = None,
                 tolerance: Tolerance | None = None, rankings: str = "dict", forms=()):
        if rankings not in ("dict", "as-given"):
            raise ValueError(f"rankings={rankings!r}: expected 'dict' or 'as-given'")
        self.rankings = rankings
        get_metric(metric).settings(conventions or {})  # validates the declared conventions now
        self.fn = fn
        self.name = name or f"{fn.__module__}.{fn.__qualname__}"
        if "<locals>" not in fn.__qualname__:   # how to load it again: reproduce lines name it so
            self.spec = f"{fn.__module__}:{fn.__qualname__}"
        self.capabilities = {metric: {}}
        self.profiles = {metric: dict(conventions or {})}
        self.tolerances = {metric: tolerance or Tolerance(ulps=8, rel=Fraction(1, 10 ** 12))}
        self.input_forms = {metric: tuple(forms)}   # e.g. ("weighted",): it reads sample_weight

    def available(self):
        return True, ""

    def version(self) -> str:
        return "n/a"

    def options(self, metric, settings):
        return {}

    def call(self, metric, options, inputs):
        if self.rankings == "dict" and isinstance(inputs, Mapping) and isinstance(inputs.get("run"), Mapping):
            inputs = {**inputs, "run": {q: _as_dict(q, r) for q, r in inputs["run"].items()}}
        return LibraryOutput(self.fn(inputs))


def _as_dict(q, ranking):
    """A list-form ranking as {doc: score}; Skip when it names a document twice."""
    if isinstance(ranking, Mapping):
        return ranking
    out = {}
    for i, (d, score) in enumerate(ranking):
        if d in out:
            raise Skip(f"run[{q!r}][{i}]: document {d!r} is listed twice; the function takes {{doc: score}}")
        out[d] = score
    return out


def implementation(metric: str, conventions: Mapping | None = None, name: str | None = None,
                   tolerance: Tolerance | None = None, rankings: str = "dict", forms=(),
                   undefined: tuple = ("raise",)):
    """Decorator: register a plain function as an implementation of ``metric``. ``forms``:
    the other input shapes it reads (``"weighted"``: classification inputs with
    ``sample_weight``; ``"multilabel"``: indicator rows); cases of other shapes are not
    given to it.

    The contract, as the run judges it:
    - an input the spec refuses (lists of unequal length, a non-string utterance): raise
      an exception of your own, ``ValueError`` or ``TypeError``; an ``IndexError``,
      ``KeyError``, ``AttributeError``, ``ZeroDivisionError`` (and the other
      ``isolation.UNRELATED_CRASHES``) is a crash, never a refusal;
    - where the definition has no value (WER without reference words): raise your own
      ``ValueError`` (``undefined=("raise",)``, the default), or return NaN or None and
      declare it (``undefined=("nan",)``, ``("none",)``); an undeclared NaN or None is a
      defect, and a ``ZeroDivisionError`` is a crash;
    - otherwise return a number (or the metric's structure as plain lists and dicts)."""
    for rep in undefined:
        if rep not in ("raise", "nan", "none"):
            raise ValueError(f"undefined={undefined!r}: each representation is 'raise', 'nan' or 'none'")

    def wrap(fn):
        fn.adapter = FunctionAdapter(fn, metric, conventions, name, tolerance, rankings, forms)
        fn.adapter.undefined = {metric: tuple(undefined)}
        return fn
    return wrap
