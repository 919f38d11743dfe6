"""The convention knobs of the classification figures (oracle.classification), each value
with its source."""
from __future__ import annotations

from dataclasses import dataclass

from .conventions import ConventionError, Knob

_SK = "scikit-learn sklearn.metrics"
# the published definitions of the per-class ratios and their averages
_SOKOLOVA = ("Sokolova and Lapalme 2009, A systematic analysis of performance measures for classification "
             "tasks, Information Processing and Management 45(4), Table 3")
_YANG = "Yang 1999, An evaluation of statistical approaches to text categorization, Information Retrieval 1, sec. 4"
_DOC = "source document 003_0a6ad6c781e30d47.txt"

LABEL_SET = Knob(
    "label_set", "the classes (and their order) the matrix and the averages run over", "auto",
    choices=("auto", "declared", "union"),
    sources={"auto": f"declared when inputs.labels is given (the class set C of {_SOKOLOVA}), else the union of "
                     f"the labels seen ({_SK}: labels=None -> unique_labels)",
             "declared": f"inputs.labels in its order ({_SK} labels=[...]; {_DOC}: a fixed K)",
             "union": f"sorted union of the labels seen in y_true and y_pred ({_SK} unique_labels)"},
    key="labels",
    unspecified="the definitions run over a given class set C; which classes an undeclared label set holds "
                "(the union seen, or the true labels only) is no published rule")

_OUTSIDE_SOURCES = {
    "error": "a label outside the declared classes is bad input",
    "drop": f"{_SK} confusion_matrix(labels=...): samples with a label not in labels are eliminated",
    "keep": f"{_SK} precision_recall_fscore_support(labels=...): counts over all samples, "
            "only the listed labels reported and averaged"}
_OUTSIDE_OPEN = ("the definitions assume every label lies in the declared classes; whether a label outside them is "
                 "refused, dropped or kept is no published rule")
OUTSIDE = Knob(
    "outside", "a sample whose true or predicted label is not a declared class", "error",
    choices=("error", "drop"), sources={k: _OUTSIDE_SOURCES[k] for k in ("error", "drop")},
    unspecified=_OUTSIDE_OPEN)
OUTSIDE_PRF = Knob(
    "outside", "a sample whose true or predicted label is not a declared class", "error",
    choices=("error", "drop", "keep"), sources=_OUTSIDE_SOURCES, unspecified=_OUTSIDE_OPEN)
AVERAGE = Knob(
    "average", "how per-class values are combined", "macro",
    choices=("micro", "macro", "weighted", "none", "binary", "samples"),
    sources={"micro": f"{_YANG} (micro-averaging: tp, fp, fn pooled over the classes); {_SOKOLOVA}",
             "samples": f"{_SK} average='samples' (multilabel indicator input only): 'Calculate metrics for "
                        "each instance, and find their average'",
             "macro": f"{_YANG} (macro-averaging: the unweighted mean of the per-class values); {_SOKOLOVA}",
             "weighted": f"{_SK}: mean weighted by support",
             "none": f"{_SK} average=None: the per-class values",
             "binary": f"{_SK} average='binary' (its default): the class pos_label only"},
    key="avg",
    unspecified=f"{_YANG} and {_SOKOLOVA} define micro and macro averages side by side and prescribe neither: "
                "the average is the user's choice")
ZERO_DIVISION = Knob(
    "zero_division", "value of a ratio whose denominator is 0", "undefined",
    choices=("zero", "one", "undefined", "exclude"),
    sources={"zero": f"{_SK} zero_division='warn' (default) or 0",
             "one": f"{_SK} zero_division=1",
             "undefined": f"the definition: P = tp/(tp + fp), R = tp/(tp + fn), F_beta ({_SOKOLOVA}; van "
                          "Rijsbergen 1979) have no value when the denominator is 0 (the oracle's Undefined); a "
                          "library's 0, 1 or NaN there is a representation of its own",
             "exclude": f"{_SK} zero_division=np.nan: NaN per class, left out of averages by _nanaverage"},
    key="zd")
NORMALIZE = Knob(
    "normalize", "the confusion matrix as counts, or divided by the true (row), predicted (column) or all sums",
    "none", choices=("none", "true", "pred", "all"), key="norm",
    sources={"none": "Kohavi and Provost 1998, Glossary of terms, Machine Learning 30(2-3), 'confusion "
                     "matrix': the counts of actual against predicted classes",
             "true": f"{_SK} confusion_matrix(normalize='true'): cm / cm.sum(axis=1), nan_to_num (a class "
                     "without samples: a row of 0)",
             "pred": f"{_SK} confusion_matrix(normalize='pred'): cm / cm.sum(axis=0), nan_to_num",
             "all": f"{_SK} confusion_matrix(normalize='all'): cm / cm.sum(), nan_to_num"})
SAMPLEWISE = Knob(
    "samplewise", "multilabel_confusion_matrix: one 2 x 2 matrix per label, or per sample (over its labels)", "no",
    choices=("no", "yes"), key="sw",
    sources={"no": "Tsoumakas and Katakis 2007, Multi-label classification: an overview (binary relevance: one "
                   "binary problem per label)",
             "yes": f"{_SK} multilabel_confusion_matrix(samplewise=True): 'the confusion matrix ... for each sample'"})
NO_WEIGHT = Knob(
    "no_weight", "a weighted average whose classes all have support 0 (no weight to average with)", "undefined",
    choices=("undefined", "unweighted", "zero-if-predicted"),
    sources={"undefined": "the weighted mean sum w_k v_k / sum w_k is 0/0: no value (no published definition "
                          "gives one)",
             "unweighted": f"{_SK} >= 1.3 _nanaverage (sklearn/utils/extmath.py): 'except ZeroDivisionError: "
                           "# this is when all weights are zero, then ignore them' - the unweighted mean of the "
                           "per-class values that are not NaN",
             "zero-if-predicted": f"{_SK} 0.22-1.2 precision_recall_fscore_support, average='weighted' with "
                                  "weights.sum() == 0: 'precision is zero_division if there are no positive "
                                  "predictions, recall is zero_division if there are no positive labels, fscore "
                                  "is zero_division if all labels AND predictions are negative' (P and F 0 when "
                                  "something is predicted; seqeval 1.x the same)"},
    key="nowt",
    unspecified="a support-weighted mean whose weights are all 0 is a 0/0; no publication gives it a value "
                "(the representative is the definition's undefined)")
BETA = Knob(
    "beta", "relative weight of recall in F-beta ('inf': recall alone)", "1", kind="rational", minimum=0,
    special=("inf",),
    sources={"*": "van Rijsbergen 1979: F_beta = (1 + b^2) P R / (b^2 P + R)",
             "inf": f"{_SK} fbeta_score(beta=np.inf): 'if np.isposinf(beta): f_score = recall' (the limit of "
                    "F_beta as beta grows)"}, key="beta")


@dataclass(frozen=True)
class IgnoreKnob(Knob):
    """``none`` or one label, as text: an int label's decimal text (``-100``) or a string label."""

    def canonical(self, value, metric: str = "") -> str:
        where = f"{metric}.{self.name}" if metric else self.name
        if isinstance(value, bool) or not isinstance(value, (int, str)):
            raise ConventionError(f"{where}: {value!r}: write none or a label (an int or a string)")
        v = str(value).strip()
        if not v:
            raise ConventionError(f"{where}: an empty label; write none or a label")
        return v


IGNORE_INDEX = IgnoreKnob(
    "ignore_index", "a true label whose samples are left out of every count, and which is no class", "none",
    kind="label",
    sources={"none": f"every sample counts ({_SOKOLOVA}: the measures are over all n samples)",
             "*": "torchmetrics ignore_index (functional/classification/stat_scores.py: idx = target != "
                  "ignore_index; preds, target = preds[idx], target[idx]): 'a target value that is ignored and "
                  "does not contribute to the metric calculation'"},
    key="ign")
ADJUSTED = Knob(
    "adjusted", "chance-adjusted balanced accuracy", "no", choices=("no", "yes"),
    sources={"no": "Brodersen et al. 2010: mean per-class recall",
             "yes": f"{_SK} balanced_accuracy_score(adjusted=True): (score - 1/K) / (1 - 1/K)"},
    key="adj")

TOP_K = Knob(
    "top_k", "score rows (y_score): a sample counts as predicting its true label when that label is among "
    "its k highest-scored classes, else its highest-scored class", "1", kind="int", minimum=1,
    sources={"1": "Russakovsky et al. 2015, ImageNet Large Scale Visual Recognition Challenge, IJCV 115 (top-1: "
                  "the highest-scored class is the prediction; among equal scores the first column, numpy "
                  "argmax's rule, which no publication fixes)",
             "*": "torchmetrics multiclass_accuracy / _precision / _recall / _fbeta_score(top_k): 'Number of "
                  "highest probability or logit score predictions considered to find the correct label' "
                  "(functional/classification/stat_scores.py _refine_preds_oh, from pull request #2839, 2024-11)"},
    key="topk")
