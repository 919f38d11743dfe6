"""Separating probes of exact match and SQuAD F1 (``oracle.qa``)."""
from __future__ import annotations

PROBES = [
    # normalization: case, an article, punctuation; a trailing period ("document" strips it)
    ("normalization", {"predictions": ["The Eiffel Tower.", "a cat", "Paris!"],
                       "references": [["Eiffel Tower"], ["cat"], ["paris"]]}),
    # normalization: "document" keeps the article and inner punctuation that squad drops
    ("inner-punctuation", {"predictions": ["the u.s. army"], "references": [["US Army"]]}),
    # missing: a null prediction beside an answered item
    ("missing", {"predictions": ["cat", None], "references": [["cat"], ["dog"]]}),
    # rule: a gold that normalizes to "" (only an article), the prediction empty too
    ("empty-gold", {"predictions": ["", "cat"], "references": [["the"], ["cat"]]}),
    # rule: an empty prediction against golds "the" (normalized to "") and "cat": v1.1 matches the
    # first, v2.0 drops it
    ("dropped-gold", {"predictions": [""], "references": [["the", "cat"]]}),
]
