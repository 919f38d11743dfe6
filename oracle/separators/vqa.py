"""Separating probes of VQA accuracy (``oracle.vqa``)."""
from __future__ import annotations

PROBES = [
    # rule: the predicted answer given by 1, 2, 3 and 6 of the ten annotators
    ("annotator-counts", {"predictions": ["a", "b", "c", "d"],
                          "answers": [["a"] + ["x"] * 9, ["b"] * 2 + ["x"] * 8, ["c"] * 3 + ["x"] * 7,
                                      ["d"] * 6 + ["x"] * 4]}),
    # normalize_side: unanimous answers "2" against the prediction "Two" (processed only on the
    # prediction's side in 2016, not at all in 2021); answers "Yes" (nine) and "no" against "yes"
    ("sides", {"predictions": ["Two", "yes", "the dog", "a cat"],
               "answers": [["2"] * 10, ["Yes"] * 9 + ["no"], ["dog"] * 9 + ["x"], ["A Cat"] * 8 + ["cat", "x"]]}),
    # answers with punctuation, not unanimous: processPunctuation on the answers (2016) or none
    ("answer-punctuation", {"predictions": ["dog"], "answers": [["dog."] * 9 + ["x"]]}),
]
