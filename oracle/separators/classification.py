"""Separating probes of the classification measures (``oracle.classification``,
``oracle.classification_knobs``)."""
from __future__ import annotations

_LABELS = ("confusion_matrix", "accuracy", "per_class_accuracy", "precision", "recall", "f1",
           "balanced_accuracy", "classification_report")

def ranked_at(t: int, n: int) -> list[int]:
    """Scores of n classes under which class t is ranked (t + 1)-th: the other classes in
    order, t inserted at position t, scores n, n - 1, ..., 1 down that order."""
    order = [c for c in range(n) if c != t]
    order.insert(t, t)
    row = [0] * n
    for i, c in enumerate(order):
        row[c] = n - i
    return row


PROBES = [
    # three classes of supports 4, 2, 1; class 2 never predicted (its precision is 0/0); per-class
    # precision and recall unequal (beta, every average)
    ("imbalanced", {"y_true": [0, 0, 0, 0, 1, 1, 2], "y_pred": [0, 0, 0, 1, 1, 0, 1]}),
    # declared classes: one declared class absent from the data (label_set), one label outside them
    ("declared", {"y_true": [0, 1, 1, 3, 0], "y_pred": [0, 1, 2, 3, 1], "labels": [0, 1, 2]}),
    ("declared-absent", {"y_true": [0, 1, 1, 0], "y_pred": [0, 1, 0, 0], "labels": [0, 1, 2]}),
    # binary, with the positive class 1 (average=binary)
    ("binary", {"y_true": [0, 1, 1, 0, 1], "y_pred": [1, 1, 0, 0, 1]}),
    # no declared class has a true sample (a weighted average with no weight)
    ("no-support", {"y_true": [0, 0, 3], "y_pred": [1, 2, 1], "labels": [1, 2]}),
    # the same, one declared class predicted (its precision 0) and one not (0/0): the plain mean of
    # the per-class values is not 0
    ("no-support-half", {"y_true": [0, 0, 3], "y_pred": [1, 0, 3], "labels": [1, 2]}),
    # every sample of one true class: MCC's denominator is 0 (zero_denominator)
    ("one-true-class", {"y_true": [0, 0, 0], "y_pred": [0, 1, 0]}),
    # multilabel indicator rows (average=samples)
    ("multilabel", {"y_true": [[1, 0, 1], [0, 1, 0], [1, 1, 0]], "y_pred": [[1, 1, 0], [0, 1, 0], [0, 0, 0]]}),
    # score rows over 7 classes, the true class at rank 1, 2, ..., 7 (top_k)
    ("scores", {"y_true": list(range(7)), "y_score": [ranked_at(t, 7) for t in range(7)], "labels": list(range(7))}),
]


def never(metric: str, knob: str, a: str, b: str) -> str | None:
    if metric == "recall" and knob == "average" and {a, b} == {"micro", "weighted"}:
        return ("weighted recall is sum_k (s_k / S) TP_k / s_k = sum_k TP_k / S, micro recall, where the "
                "supports s_k sum to S > 0; with S = 0 both are the no-weight case")
    if metric == "recall" and knob == "no_weight" and {a, b} == {"unweighted", "zero-if-predicted"}:
        return ("where every class has support 0, every per-class recall is 0/0, i.e. zero_division: their "
                "plain mean is zero_division, which is what zero-if-predicted gives recall")
    if metric in ("precision", "recall") and knob == "beta":
        return "beta weighs recall against precision in F-beta; precision and recall do not read it"
    return None


CONTEXTS = {"no_weight": [{"average": "weighted", "outside": "keep"}, {"average": "weighted"},
                          {"average": "weighted", "outside": "keep", "zero_division": "one"},
                          {"average": "weighted", "outside": "keep", "zero_division": "zero"}],
            "outside": [{"label_set": "declared"}]}
