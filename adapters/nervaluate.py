"""nervaluate 1.2: ``Evaluator(true, pred, tags, loader='list', min_overlap_percentage).evaluate()``
mapped onto the SemEval-2013 task 9.1 schema metrics (oracle.ner_schemas).

| metric | read from ``evaluate()`` |
| --- | --- |
| ``ner_schema_precision`` | ``['overall'][schema].precision`` |
| ``ner_schema_recall`` | ``['overall'][schema].recall`` |
| ``ner_schema_f1`` | ``['overall'][schema].f1`` |
| ``ner_schema_report`` | ``['overall'][schema]`` and ``['entities'][type][schema]``: correct, incorrect, partial, missed, spurious, possible, actual, precision, recall, f1 |

Knobs and the arguments they set:

- ``schema``: ``strict`` -> 'strict', ``exact`` -> 'exact', ``partial`` -> 'partial', ``type`` ->
  'ent_type' (the library computes all four in one call; the adapter reads one).
- ``min_overlap``: ``min_overlap_percentage = float(min_overlap * 100)``, which the library takes in
  [1, 100] (``strategies.py:17-18``): offered for min_overlap in [1/100, 1]. The library's default
  1.0 is the profile's 1/100 (the oracle's canonical 0, "any shared token", differs from it only on
  a gold entity of more than 100 tokens).
- ``zero_division``: ``zero`` only (``entities.py:43-51``: ``if self.actual > 0 else 0``, also for F1).

Fixed: the tags are read by the library's ``ListLoader`` (``loaders.py:97-156``): an entity starts at
a B- or at an I- that does not continue an entity of its type, which is the oracle's seqeval reading
on B, I and O tags (offered for the schemes iob1 and iob2, written prefix-type; the loader raises on
any other prefix where an entity starts). ``tags`` is every type found in gold and prediction (the
oracle's entities are all counted).

Values: Python floats (precision, recall, f1; ``0`` an int where the library writes the literal) and
ints (counts), as returned.

Releases: the strategies of 1.x (``nervaluate/strategies.py``); 1.0 has no ``min_overlap_percentage``
and pairs a type-schema prediction with the first overlapping gold entity of its type, not the
closest (CHANGELOG, entries after 1.0.0): the adapter maps 1.2 only. 0.x is another algorithm and
API (``compute_metrics``, a (results, per-type) tuple).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import Adapter, LibraryOutput, Skip

from oracle.compare import Tolerance

_SCHEMA_KEY = {"strict": "strict", "exact": "exact", "partial": "partial", "type": "ent_type"}
_FIELDS = ("correct", "incorrect", "partial", "missed", "spurious", "possible", "actual",
           "precision", "recall", "f1")
_COUNTS = _FIELDS[:7]


def _min_overlap_ok(value: str, settings: Mapping[str, str]) -> bool:
    return Fraction(1, 100) <= Fraction(value) <= 1


_CAPS = {"scheme": ("iob1", "iob2"), "reading": ("seqeval",), "tag_format": ("prefix-type",),
         "schema": tuple(_SCHEMA_KEY), "min_overlap": _min_overlap_ok, "zero_division": ("zero",)}
_PROFILE = {"scheme": "iob2", "reading": "seqeval", "tag_format": "prefix-type", "schema": "strict",
            "min_overlap": "1/100", "zero_division": "zero"}
_METRICS = ("ner_schema_precision", "ner_schema_recall", "ner_schema_f1", "ner_schema_report")


class NERvaluate(Adapter):
    name = "nervaluate"
    # the exceptions its own code refuses an input with: its loaders raise ValueError and TypeError
    refusals = {"*": ("ValueError", "TypeError")}
    library = "nervaluate"
    import_name = "nervaluate"
    homepage = "https://github.com/MantisAI/nervaluate"
    issues = "https://github.com/MantisAI/nervaluate/issues"
    versions = ">=1.2,<2"
    matrix_versions = ("1.2.1",)
    capabilities = {m: dict(_CAPS) for m in _METRICS}
    profiles = {m: dict(_PROFILE) for m in _METRICS}
    profile_sources = {"*": {
        "min_overlap": "nervaluate/evaluator.py Evaluator(..., min_overlap_percentage=1.0); strategies.py:41-42 "
                       "(overlap_span / true_span) * 100.0 >= min_overlap_percentage",
        "scheme": "nervaluate/loaders.py ListLoader: B- and I- tags only (README examples are IOB2)",
        "reading": "loaders.py:125-149: an entity starts at B-, or where the type changes, as seqeval's reading",
        "schema": "evaluate() returns every schema; the adapter reads the one asked for (no default)",
        "zero_division": "nervaluate/entities.py:43-51 compute_metrics: 'precision = ... / self.actual if "
                         "self.actual > 0 else 0' (recall and F1 alike)",
    }}
    # P and R are one float division (with 0.5 * partial added first); F1 = 2PR/(P+R):
    # a few roundings of float64.
    tolerances = {m: Tolerance(ulps=8) for m in _METRICS}

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        return {"schema": _SCHEMA_KEY[settings["schema"]],
                "min_overlap_percentage": float(Fraction(settings["min_overlap"]) * 100)}

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        from nervaluate import Evaluator

        true = [list(s) for s in inputs["gold"]]
        pred = [list(s) for s in inputs["pred"]]
        if not true:
            raise Skip("no sentences: nervaluate's evaluate() returns no row to read")
        tags = sorted({t[2:] for doc in true + pred for t in doc if t != "O"})
        overlap = options["min_overlap_percentage"]
        ev = Evaluator(true, pred, tags=tags, loader="list",
                       **({} if overlap is None else {"min_overlap_percentage": overlap}))
        res = ev.evaluate()
        key = options["schema"]
        overall = _row(res["overall"][key])
        stats = {k: overall[k] for k in _COUNTS}
        if metric == "ner_schema_report":
            value = {"overall": overall}
            for t, by_schema in sorted(res["entities"].items()):
                value[t] = _row(by_schema[key])
            return LibraryOutput(value=value, stats=stats, raw=res)
        which = metric.rsplit("_", 1)[1]
        return LibraryOutput(value=overall[which], stats=stats, raw=res["overall"][key])


    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """``Evaluator(true, pred, tags, loader="list").evaluate()`` (tags and loader are
        required for lists of tags): no min_overlap_percentage; the profile's schema row."""
        return self.call(metric, dict(self.options(metric, self.bare_profile(metric)), min_overlap_percentage=None),
                         inputs)


def _row(result) -> dict:
    return {k: getattr(result, k) for k in _FIELDS}
