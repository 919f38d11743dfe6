"""Separating probes of perplexity (``oracle.perplexity``)."""
from __future__ import annotations

PROBES = [
    # two texts of different lengths and probabilities: the corpus mean over tokens against the
    # mean of the texts' perplexities; a null position (ignore_index on probs)
    ("two-texts", {"probs": [["1/2", "1/4"], ["1/8"]]}),
    ("two-texts-null", {"probs": [["1/2", "1/4", None], ["1/8"]]}),
    # logits: every shift and ignore_index differ (targets hold 0, 1, 2 and -100); logits 1e-10
    # apart that one float32 holds as one number (logit_precision)
    ("logits", {"logits": [[[0, "1e-10", 2], [1, 0, 0], [0, 3, 1], [2, 2, 0]],
                           [[0, 1, 0], ["0.1", 0, 0], [0, 0, 1]]],
                "targets": [[2, 0, -100, 1], [1, 0, 2]]}),
    ("logits-float32", {"logits": [[["0.1", "0.2", 0]]], "targets": [[1]]}),
]
