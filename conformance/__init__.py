"""metric-conformance engine, in rooms:

- the public surface: ``protocol`` (the adapter protocol), ``functions`` (a plain
  function as an adapter), ``strategies`` (hypothesis strategies, one module per
  metric family), ``formats`` (the field's file formats), ``plugin`` (pytest),
  ``cli``;
- ``engine``: cases, plans, the runner, judgement, properties, divergence,
  explanation, known failures, adapter resolution;
- ``reports``: records and their writers (console, JSONL, Markdown, JUnit), tracking;
- ``audit``: audits of published figures; ``bench``: benchmarks.

The modules of the flat layout of release 0.1 (``conformance.runner``,
``conformance.strategies_ranking``, ...) still import, with a
DeprecationWarning, until the next release.
"""
from __future__ import annotations

import importlib
import importlib.abc
import importlib.util
import sys
import warnings

_MOVED = {f"conformance.{old}": f"conformance.{new}" for old, new in {
    **{m: f"engine.{m}" for m in ("runner", "judge", "properties", "explain", "known", "divergence", "invalid",
                                 "cases", "plans")},
    **{f"strategies_{m}": f"strategies.{m}" for m in ("classification", "multimodal", "ranking", "speech",
                                                       "tagging")},
    "report": "reports.writers", "records": "reports.records", "tracking": "reports.tracking",
}.items()}


class _Moved(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """Imports a module of the old flat layout as its new module, with a warning."""

    def find_spec(self, name, path=None, target=None):
        if name in _MOVED:
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        warnings.warn(f"{spec.name} moved to {_MOVED[spec.name]}; the old name goes in the next release",
                      DeprecationWarning, stacklevel=2)
        return importlib.import_module(_MOVED[spec.name])

    def exec_module(self, module):
        pass


if not any(isinstance(f, _Moved) for f in sys.meta_path):
    sys.meta_path.insert(0, _Moved())
