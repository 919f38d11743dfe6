"""scikit-learn's agreement measures, for the sklearn adapter:
``matthews_corrcoef(y_true, y_pred, sample_weight)`` onto ``matthews_corrcoef`` and
``cohen_kappa_score(y1, y2, labels, weights, sample_weight)`` onto ``cohen_kappa``.

``matthews_corrcoef`` takes no labels: its classes are the union of the labels seen
(``LabelEncoder`` over both), so a declared label list cannot be passed (an absent
declared class adds an empty row and column, which changes no sum), and a zero
denominator returns 0.0 (_classification.py:1337-1338): zero_denominator=zero.
``cohen_kappa_score`` builds ``confusion_matrix(y1, y2, labels=labels)``, which drops a
sample with a label outside ``labels`` (outside=drop), and returns
``replace_undefined_by`` (np.nan by default) where kappa is 0/0."""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import LibraryOutput
from oracle.compare import Tolerance

METRICS = ("matthews_corrcoef", "cohen_kappa")
CAPABILITIES = {
    "matthews_corrcoef": {"label_set": ("auto", "union"), "outside": ("error",), "zero_denominator": ("zero",)},
    "cohen_kappa": {"label_set": ("auto", "declared", "union"), "outside": ("drop",),
                    "weights": ("none", "linear", "quadratic")},
}
PROFILES = {
    "matthews_corrcoef": {"label_set": "auto", "outside": "error", "zero_denominator": "zero"},
    "cohen_kappa": {"label_set": "auto", "outside": "drop", "weights": "none"},
}
SOURCES = {
    "matthews_corrcoef": {
        "zero_denominator": "sklearn/metrics/_classification.py:1337-1338 matthews_corrcoef: 'if cov_ypyp_ytyt == 0: "
                            "return 0.0'"},
    "cohen_kappa": {
        "outside": "sklearn/metrics/_classification.py:978 cohen_kappa_score builds confusion_matrix(y1, y2, "
                   "labels=labels), which eliminates the samples with a label not in labels",
        "undefined": "sklearn/metrics/_classification.py:938-949 cohen_kappa_score(replace_undefined_by=np.nan): "
                     "'Sets the return value when the metric is undefined' (np.nan by default, since 1.9)"},
}
UNDEFINED = {"cohen_kappa": ("nan", "raise"), "matthews_corrcoef": ("raise",)}
UNPASSED = {"matthews_corrcoef": ("labels",)}
# float64: MCC one square root and a division of exact integer sums (a few ULPs); kappa a
# ratio of two weighted sums of floats, subtracted from 1 (an absolute error near 0)
TOLERANCES = {"matthews_corrcoef": Tolerance(ulps=8, abs=Fraction(1, 10 ** 14)),
              "cohen_kappa": Tolerance(ulps=8, abs=Fraction(1, 10 ** 14))}


def options(metric: str, settings: Mapping[str, str]) -> dict:
    return {"label_set": settings["label_set"],
            "weights": None if settings.get("weights", "none") == "none" else settings.get("weights")}


def call(metric: str, options: Mapping, inputs: Mapping, labels, sample_weight) -> LibraryOutput:
    import numpy as np
    from sklearn import metrics as M

    with np.errstate(all="ignore"):
        if metric == "matthews_corrcoef":
            return LibraryOutput(value=float(M.matthews_corrcoef(inputs["y_true"], inputs["y_pred"],
                                                                 sample_weight=sample_weight)))
        return LibraryOutput(value=float(M.cohen_kappa_score(inputs["y_true"], inputs["y_pred"], labels=labels,
                                                             weights=options["weights"], sample_weight=sample_weight)))
