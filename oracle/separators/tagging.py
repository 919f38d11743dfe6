"""Separating probes of the tagging measures (``oracle.tagging``, ``oracle.ner_schemas``)."""
from __future__ import annotations

_SEQ = ("token_accuracy", "entity_f1", "entity_precision", "entity_recall", "entity_report")
_SCHEMA = ("ner_schema_precision", "ner_schema_recall", "ner_schema_f1", "ner_schema_report")


def _both(name, inputs):
    return [(name, inputs, _SEQ + _SCHEMA)]


def _transition_probes():
    """One sentence per tag transition (``oracle.chunks.transitions``): gold is the pair then
    O, the prediction keeps the first tag only, so the value says whether the reading ended
    the first chunk before the second tag (the prediction matches it) or not."""
    from oracle.chunks import transitions
    return [p for prev, cur in transitions()
            for p in _both(f"transition-{prev}-{cur}", {"gold": [[prev, cur, "O"]], "pred": [[prev, "O", "O"]]})]


# type names that share the part before a hyphen, or the first letters: a library that
# compares types by a prefix of their names merges them
SHARED_PREFIX = [
    *_both("types-share-first-part", {"gold": [["B-LOC-CITY", "I-LOC-CITY", "O", "B-LOC"]],
                                      "pred": [["B-LOC-REGION", "I-LOC-REGION", "O", "B-LOC"]]}),
    *_both("type-inside-another-type", {"gold": [["B-LOC", "I-LOC-CITY", "O"]], "pred": [["B-LOC", "I-LOC", "O"]]}),
    *_both("types-share-first-letters", {"gold": [["B-PER", "O", "B-PERSON"]], "pred": [["B-PERSON", "O", "B-PER"]]}),
]


PROBES = [
    *_transition_probes(),
    *SHARED_PREFIX,
    # types of different support and accuracy (average, beta), a type only predicted and one only
    # in gold (zero_division), an I- that starts a chunk and a type change inside one (reading),
    # a type name with a hyphen inside it that shares its first part with another (tag_format's
    # split at the first hyphen)
    *_both("mixed", {"gold": [["B-PER", "I-PER", "O", "B-LOC", "O", "B-ORG", "I-ORG", "O"],
                              ["B-LOC", "O", "B-PER", "O", "B-LOC-CITY", "I-LOC-CITY", "O"]],
                     "pred": [["B-PER", "I-PER", "O", "I-LOC", "O", "B-ORG", "I-PER", "O"],
                              ["B-LOC", "B-MISC", "B-PER", "I-PER", "B-LOC", "I-LOC-CITY", "O"]]}),
    # the chunk prefixes of every scheme (E-, S-, L-, U- and IOB1's B- only between chunks of one type):
    # read under each scheme, they give different chunks
    *_both("schemes", {"gold": [["S-PER", "O", "B-LOC", "E-LOC", "U-ORG", "B-MISC", "L-MISC", "I-PER", "B-PER", "O"]],
                       "pred": [["S-PER", "O", "B-LOC", "I-LOC", "U-ORG", "B-MISC", "I-MISC", "I-PER", "I-PER", "O"]]}),
    *_both("iob1", {"gold": [["I-PER", "I-PER", "B-PER", "O", "I-LOC", "E-LOC", "O"]],
                    "pred": [["I-PER", "B-PER", "I-PER", "O", "I-LOC", "I-LOC", "O"]]}),
    # IOBES tags only: an S- chunk, an E-X directly followed by a B-X (seqeval's boundary, none in
    # conlleval.pl)
    *_both("iobes", {"gold": [["S-PER", "O", "B-LOC", "E-LOC", "B-LOC", "I-LOC", "E-LOC", "O"]],
                     "pred": [["S-PER", "O", "B-LOC", "E-LOC", "B-LOC", "E-LOC", "O", "S-LOC"]]}),
    # IOE: a chunk without E- (valid in IOE1, not in IOE2), an E- inside a run of one type
    *_both("ioe", {"gold": [["I-PER", "I-PER", "O", "E-LOC", "O", "I-ORG", "E-ORG", "I-ORG"]],
                   "pred": [["I-PER", "E-PER", "O", "E-LOC", "O", "I-ORG", "I-ORG", "I-ORG"]]}),
    # a type only in gold (its precision is 0/0)
    *_both("type-only-in-gold", {"gold": [["B-PER", "O", "B-LOC"]], "pred": [["B-PER", "O", "O"]]}),
    # every tag O on both sides: every ratio 0/0
    *_both("all-o", {"gold": [["O", "O"]], "pred": [["O", "O"]]}),
    # types of supports 3 and 1, the larger one predicted well, the smaller badly (weighted average)
    *_both("supports", {"gold": [["B-PER", "O", "B-PER", "O", "B-PER", "O", "B-LOC", "O"]],
                        "pred": [["B-PER", "O", "B-PER", "O", "B-PER", "B-LOC", "O", "B-LOC"]]}),
    # the type written before the prefix (PER-B)
    *_both("type-prefix", {"gold": [["PER-B", "PER-I", "O", "LOC-B"]], "pred": [["PER-B", "O", "O", "LOC-B"]]}),
    # no gold entity at all, entities predicted (a weighted average with no weight)
    *_both("no-gold", {"gold": [["O", "O", "O"]], "pred": [["B-PER", "O", "B-LOC"]]}),
    # the same (type, text) predicted at another position (matching=pooled-type-text)
    ("moved", {"tokens": [["Budi", "met", "Budi", "today"]], "gold": [["B-PER", "O", "O", "O"]],
               "pred": [["O", "O", "B-PER", "O"]]}, _SEQ),
    # partial overlaps of one third and two thirds of a gold entity, a type error on an exact span
    ("overlaps", {"gold": [["B-PER", "I-PER", "I-PER", "O", "B-LOC", "I-LOC", "I-LOC", "O", "B-ORG", "I-ORG"]],
                  "pred": [["B-PER", "O", "O", "O", "O", "B-LOC", "I-LOC", "O", "B-PER", "I-PER"]]}, _SCHEMA),
]


def _long():
    """Gold entities of 1,001 tokens, predicted on their first 2, first 1 and first 50 tokens:
    overlaps of 2/1001, 1/1001 and 50/1001, on either side of min_overlap 1/1000, 1/100 and 1/10."""
    gold = ["B-X"] + ["I-X"] * 1000
    return {"gold": [gold, gold, gold], "pred": [["B-X", "I-X"] + ["O"] * 999, ["B-X"] + ["O"] * 1000,
                                                 ["B-X"] + ["I-X"] * 49 + ["O"] * 951]}


LARGE = {"min_overlap": [("long-entities", _long)]}
CONTEXTS = {"min_overlap": [{"schema": "partial"}],
            "no_weight": [{"average": "weighted"}, {"average": "weighted", "zero_division": "one"}],
            "zero_division": [{"average": "macro"}]}


def never(metric: str, knob: str, a: str, b: str) -> str | None:
    if metric == "entity_recall" and knob == "average" and {a, b} == {"micro", "weighted"}:
        return ("weighted recall is sum_t (s_t / S) TP_t / s_t = sum_t TP_t / S, micro recall, where the gold "
                "supports s_t sum to S > 0; with S = 0 both are the no-weight case")
    if metric == "entity_recall" and knob == "no_weight":
        return ("where no type has a gold entity, recall is 0/0 under both rules, settled by zero_division (the "
                "sources of zero-if-predicted: 'recall is zero_division if there are no positive labels')")
    if metric == "entity_f1" and knob == "zero_division" and {a, b} == {"undefined", "exclude"}:
        return ("F from counts, (1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP), is 0/0 only for a type with no gold "
                "and no predicted entity, which no type of the averages is; pooled (micro), it is 0/0 only when "
                "there is no entity at all, where excluding it leaves nothing to average: no value either way")
    if metric in ("entity_precision", "entity_recall", "ner_schema_precision", "ner_schema_recall") \
            and knob == "beta":
        return "beta weighs recall against precision in F-beta; precision and recall do not read it"
    return None
