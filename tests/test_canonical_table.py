"""Canonical means published: every knob's canonical value cites a publication or a
canonical tool, or says why the sources leave it open (``Knob.unspecified``); the docs'
table of them (docs/canonical.md) is what the declarations say."""
from __future__ import annotations

import re

from conformance.reports import canonical
from oracle.registry import get_metric, metric_names

# what a published source names: a year, or a canonical tool or script of the field
PUBLISHED = re.compile(r"\b(19|20)\d\d\b|trec_eval|mteval|conlleval|sclite|SCTK|SQuAD|vqaEval|coco-caption|"
                       r"gdeval|ROUGE-1\.5\.5|tercom|chrF\+\+\.py|source document|the definition|Jurafsky and Martin")
# the libraries this project judges: none of them may be a canonical value's only source
JUDGED = ("scikit-learn", "sklearn", "seqeval", "sacrebleu", "jiwer", "torchmetrics", "torch", "ranx", "nltk",
          "nervaluate", "Hugging Face", "rapidfuzz", "RapidFuzz", "torcheval", "ir_measures", "pytrec_eval")


def _defaults():
    for name in metric_names():
        for k in get_metric(name).knobs:
            yield name, k, k.sources.get(str(k.default)) or k.sources.get("*") or ""


def test_every_canonical_value_cites_a_publication_or_a_canonical_tool():
    missing = sorted({(k.name, str(k.default), src[:60]) for name, k, src in _defaults()
                      if not k.unspecified and not PUBLISHED.search(src)})
    assert missing == []


def test_no_canonical_value_rests_on_a_judged_library_alone():
    def only_libraries(src: str) -> bool:
        rest = src
        for lib in JUDGED:
            rest = rest.replace(lib, "")
        return any(lib in src for lib in JUDGED) and not PUBLISHED.search(rest)
    assert sorted({(k.name, str(k.default)) for _, k, src in _defaults()
                   if not k.unspecified and only_libraries(src)}) == []


def test_an_open_choice_says_why():
    for _, k, _src in _defaults():
        if k.unspecified:
            assert len(k.unspecified) > 40 and k.kind in ("enum", "int", "rational"), k.name


def test_the_docs_table_is_up_to_date():
    assert canonical.DOC.read_text(encoding="utf-8") == canonical.render(), \
        "docs/canonical.md is out of date: python -m conformance.reports.canonical --write"


def test_the_table_lists_zero_division_as_undefined_and_who_differs():
    row = next(r for r in canonical.rows() if r["family"] == "classification" and r["knob"] == "zero_division")
    assert row["canonical"] == "undefined" and not row["unspecified"]
    assert any(adapter == "sklearn" and value == "zero" for adapter, value in row["differ"])
