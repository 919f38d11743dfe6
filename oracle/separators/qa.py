"""Separating probes of exact match and SQuAD F1 (``oracle.qa``)."""
from __future__ import annotations

def _rule_probes():
    """One item per normalization rule (``oracle.qa.RULE_PAIRS``): its prediction against its
    gold, beside an item matched under every normalization (so the mean is not only the rule)."""
    from oracle.qa import RULE_PAIRS
    return [(f"normalization-{rule}", {"predictions": [pred, "cat"], "references": [[gold], ["cat"]]})
            for rule, pred, gold in RULE_PAIRS]


PROBES = [
    *_rule_probes(),
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
