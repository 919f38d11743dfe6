"""metric-conformance engine, in rooms:

- the public surface: ``protocol`` (the adapter protocol), ``functions`` (a plain
  function as an adapter), ``strategies`` (hypothesis strategies, one module per
  metric family), ``formats`` (the field's file formats), ``plugin`` (pytest),
  ``cli``, ``resolve`` (adapter loading), ``explain`` (explanations of a disagreement);
- ``engine``: plans, corpora, the runner, judgement, properties, divergence, the
  worker processes;
- ``casefiles``: the versioned data files a run judges besides the corpus (golden
  cases, bad-input tables, known failures);
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
    **{m: f"engine.{m}" for m in ("runner", "judge", "properties", "divergence", "invalid", "plans")},
    **{m: f"casefiles.{m}" for m in ("known", "cases")},
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
    # last, so that it is asked only for a name no other finder has: the user's imports
    # never pass through it
    sys.meta_path.append(_Moved())
