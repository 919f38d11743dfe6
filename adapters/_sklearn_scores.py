"""scikit-learn's ranking metrics of scores (``sklearn.metrics``), for the sklearn
adapter: ``average_precision_score(y_true, y_score, average=...)`` onto
``score_average_precision``, ``label_ranking_average_precision_score(y_true,
y_score)`` onto ``label_ranking_average_precision``, ``dcg_score(y_true, y_score,
k, log_base)`` and ``ndcg_score(y_true, y_score, k)`` (``ignore_ties=False``: tied
scores averaged) onto ``score_dcg`` and ``score_ndcg``; both take NumPy arrays of the
inputs (float64 scores: a float input is its own value, a rational string its
nearest double). ``sample_weight`` is passed to each (a float64 array)."""
from __future__ import annotations

import warnings
from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, LibraryOutput

from ._numbers import as_float
from oracle.compare import Tolerance

METRICS = ("score_average_precision", "label_ranking_average_precision", "score_dcg", "score_ndcg",
           "top_k_accuracy")
# every one takes sample_weight (sklearn/metrics/_ranking.py), judged on the weighted input form
INPUT_FORMS = {m: ("weighted",) for m in METRICS}
CAPABILITIES = {
    "score_average_precision": {"ties": ("step",), "no_relevant": ("zero",),
                                "average": ("macro", "micro", "weighted", "samples", "none")},
    "label_ranking_average_precision": {"ties": ("step",), "no_relevant": ("one",)},
    "score_dcg": {"k": ANY, "log_base": ANY},
    "score_ndcg": {"k": ANY},
    "top_k_accuracy": {"k": ANY, "ties": ("reverse-label-order",)},
}
# average_precision_score(average='macro'); both score a problem without a relevant item
# (0 and 1); a tied group is one threshold (precision_recall_curve, rankdata 'max')
PROFILES = {
    "score_average_precision": {"ties": "step", "no_relevant": "zero", "average": "macro"},
    "label_ranking_average_precision": {"ties": "step", "no_relevant": "one"},
    # dcg_score(k=None, log_base=2), ndcg_score(k=None); ignore_ties=False (ties averaged)
    "score_dcg": {"k": "none", "log_base": "2"},
    "score_ndcg": {"k": "none"},
    # top_k_accuracy_score(k=2); ties: a stable sort of the scores, reversed
    "top_k_accuracy": {"k": "2", "ties": "reverse-label-order"},
}
SOURCES = {
    "top_k_accuracy": {
        "k": "sklearn/metrics/_ranking.py top_k_accuracy_score(y_true, y_score, *, k=2, ...)",
        "ties": "sklearn/metrics/_ranking.py top_k_accuracy_score: 'sorted_pred = np.argsort(y_score, axis=1, "
                "kind=\"mergesort\")[:, ::-1]': mergesort is stable, so reversed the later of tied labels "
                "comes first (a deliberate stable sort: the same input always gets the same ranking)"},
    "score_average_precision": {
        "average": "sklearn/metrics/_ranking.py average_precision_score(y_true, y_score, *, average='macro', ...)",
        "ties": "sklearn/metrics/_ranking.py average_precision_score: 'AP = sum_n (R_n - R_{n-1}) P_n where P_n "
                "and R_n are the precision and recall at the nth threshold' (one threshold per distinct score)",
        "no_relevant": "sklearn/metrics/_ranking.py precision_recall_curve: 'No positive class found in y_true, "
                       "recall is set to one for all thresholds' (so AP = 0); sklearn/metrics/_base.py "
                       "_average_binary_score: weighted with zero support 'return 0'"},
    "label_ranking_average_precision": {
        "ties": "sklearn/metrics/_ranking.py label_ranking_average_precision_score: rankdata(scores_i, 'max')",
        "no_relevant": "sklearn/metrics/_ranking.py label_ranking_average_precision_score: 'if relevant.size == 0 "
                       "or relevant.size == n_labels: # If all labels are relevant or unrelevant, the score is "
                       "also equal to 1'"},
}
# float64: per problem a cumulative sum, divisions and a sum of up to n terms (AP), or a
# mean of ratios per sample, then a mean over the columns or samples: a few roundings
# of relative 2**-53 per term
TOLERANCES = {m: Tolerance(ulps=64, rel=Fraction(1, 10 ** 12)) for m in METRICS}


def _array(x):
    import numpy as np
    if isinstance(x, list) and x and isinstance(x[0], list):
        return np.array([[as_float(v) if isinstance(v, str) else v for v in row] for row in x], dtype=float)
    return np.array([as_float(v) if isinstance(v, str) else v for v in x], dtype=float)


def call(metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
    import numpy as np
    from sklearn import metrics as M

    y_score = _array(inputs["y_score"])
    sw = {"sample_weight": _array(inputs["sample_weight"])} if "sample_weight" in inputs else {}
    if metric == "top_k_accuracy":
        kw = dict({"labels": list(inputs["labels"])} if "labels" in inputs else {}, **sw)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")   # "'k' greater than or equal to 'n_classes'"
            v = M.top_k_accuracy_score(list(inputs["y_true"]), y_score, k=options["k"], **kw)
        return LibraryOutput(value=float(v))
    y_true = np.array(inputs["y_true"], dtype=int)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # "No positive class found in y_true"
        if metric == "label_ranking_average_precision":
            v = M.label_ranking_average_precision_score(y_true, y_score, **sw)
            return LibraryOutput(value=float(v))
        if metric in ("score_dcg", "score_ndcg"):
            k = options.get("k")
            if metric == "score_dcg":
                v = M.dcg_score(y_true, y_score, k=k, log_base=options.get("log_base", 2), **sw)
            else:
                v = M.ndcg_score(y_true, y_score, k=k, **sw)
            return LibraryOutput(value=float(v))
        average = options.get("average", "macro")
        v = M.average_precision_score(y_true, y_score, average=None if average == "none" else average, **sw)
    if average == "none" and y_true.ndim == 2:
        return LibraryOutput(value=[float(x) for x in v], raw=v)
    return LibraryOutput(value=float(v))
