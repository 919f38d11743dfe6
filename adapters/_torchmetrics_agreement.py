"""torchmetrics' agreement measures (``torchmetrics.functional.classification``, 1.x):
``multiclass_matthews_corrcoef(preds, target, num_classes)`` onto ``matthews_corrcoef`` and
``multiclass_cohen_kappa(preds, target, num_classes, weights)`` onto ``cohen_kappa``; the
labels numbered in the oracle's label order, as the classification adapter does.

MCC: a zero denominator gives 0 (matthews_corrcoef.py ``_matthews_corrcoef_reduce``:
``elif denom == 0: return 0``) except for a 2 x 2 matrix, where the library applies its own
rules first (lines 46-52: all correct 1, all wrong -1; lines 67-85: an empty margin replaced
by a float32 epsilon, citing Chicco and Jurman 2020). Kappa: 0/0 is NaN. Values are float32."""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import LibraryOutput, Skip
from oracle.compare import Tolerance

METRICS = ("matthews_corrcoef", "cohen_kappa")
_SETS = ("auto", "declared", "union")
CAPABILITIES = {
    "matthews_corrcoef": {"label_set": _SETS, "outside": ("error",), "zero_denominator": ("zero",)},
    "cohen_kappa": {"label_set": _SETS, "outside": ("error",), "weights": ("none", "linear", "quadratic")},
}
PROFILES = {
    "matthews_corrcoef": {"label_set": "auto", "outside": "error", "zero_denominator": "zero"},
    "cohen_kappa": {"label_set": "auto", "outside": "error", "weights": "none"},
}
SOURCES = {
    "zero_denominator": "torchmetrics/functional/classification/matthews_corrcoef.py _matthews_corrcoef_reduce: "
                        "'elif denom == 0: return torch.tensor(0, ...)'",
    "weights": "torchmetrics/functional/classification/cohen_kappa.py multiclass_cohen_kappa(weights=None)",
    "outside": "classification/stat_scores.py _multiclass_stat_scores_tensor_validation: values of target or "
               "preds outside [0, num_classes) raise RuntimeError",
    "undefined": "cohen_kappa.py _cohen_kappa_reduce: 1 - sum(w * confmat) / sum(w * expected), a float 0/0 "
                 "(NaN) where chance agreement is certain",
}
UNDEFINED = {"cohen_kappa": ("nan",)}
# float32 sums and products of counts, one square root (MCC) or division (kappa)
TOLERANCES = {m: Tolerance(ulps32=8, abs=Fraction(1, 10 ** 6)) for m in METRICS}


def options(metric: str, settings: Mapping[str, str]) -> dict:
    return {"label_set": settings["label_set"], "weights": settings.get("weights", "none"), "ignore_index": "none",
            "average": None, "zero_division": 0, "normalize": "none", "top_k": 1}


def call(metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
    import torchmetrics.functional.classification as C

    from ._torchmetrics_classes import _rows, tensors_ignoring, untranslatable

    untranslatable(inputs)
    if _rows(inputs["y_true"]) or _rows(inputs["y_pred"]):
        raise Skip(f"{metric} is judged on lists of labels; torchmetrics' multilabel form is another function")
    target, preds, labels, _ = tensors_ignoring(inputs, options)
    if not labels:
        raise Skip("no label at all: torchmetrics needs num_classes >= 1")
    if metric == "matthews_corrcoef":
        v = C.multiclass_matthews_corrcoef(preds, target, num_classes=len(labels))
    else:
        w = None if options["weights"] == "none" else options["weights"]
        v = C.multiclass_cohen_kappa(preds, target, num_classes=len(labels), weights=w)
    return LibraryOutput(value=float(v))


# -- the library's own rules for a 2 x 2 matrix (known failures)

def _binary_counts(settings: Mapping[str, str], inputs: Mapping):
    """(tn, fp, fn, tp) of a two-class input as the library reshapes its matrix, or None."""
    from oracle import compute
    m = compute("confusion_matrix", inputs, {"label_set": settings.get("label_set", "auto"),
                                             "outside": settings.get("outside", "error")}).value
    if len(m) != 2:
        return None
    return m[0][0], m[0][1], m[1][0], m[1][1]


def binary_degenerate(metric: str, settings: Mapping[str, str], inputs: Mapping) -> bool:
    """Two classes, and all samples right, all wrong, or an empty margin: where
    ``_matthews_corrcoef_reduce`` returns 1, -1 or its epsilon value before the formula."""
    if metric != "matthews_corrcoef":
        return False
    try:
        c = _binary_counts(settings, inputs)
    except Exception:
        return False
    if c is None:
        return False
    tn, fp, fn, tp = c
    return fp + fn == 0 or tp + tn == 0 or 0 in (tp + fp, tp + fn, tn + fp, tn + fn)


def binary_degenerate_model(metric: str, settings: Mapping[str, str], inputs: Mapping):
    """matthews_corrcoef.py:46-88 in float32: 1 when all are right, -1 when all are wrong;
    with a zero denominator, a numerator of sqrt(eps) times a difference of counts (or a
    product, by which counts are 0) over sqrt of the four margins each plus eps."""
    import numpy as np
    tn, fp, fn, tp = (np.float32(x) for x in _binary_counts(settings, inputs))
    if tp + tn != 0 and fp + fn == 0:
        return 1.0
    if tp + tn == 0 and fp + fn != 0:
        return -1.0
    eps = np.float32(np.finfo(np.float32).eps)
    tk, pk = (tn + fp, fn + tp), (tn + fn, fp + tp)
    s = tn + fp + fn + tp
    denom = (s * s - (pk[0] * pk[0] + pk[1] * pk[1])) * (s * s - (tk[0] * tk[0] + tk[1] * tk[1]))
    if denom != 0:
        return None
    root = np.sqrt(eps)
    if fn == 0 and tn == 0:
        num = root * (tp - fp)
    elif fp == 0 and tn == 0:
        num = root * (tp - fn)
    elif tp == 0 and fn == 0:
        num = root * (tn - fp)
    elif tp == 0 and fp == 0:
        num = root * (tn - fn)
    elif tp == 0:
        num = tn - fp * fn
    elif tn == 0:
        num = tp - fp * fn
    elif fp == 0 or fn == 0:
        num = tp * tn
    else:
        return 0.0
    d = (tp + fp + eps) * (tp + fn + eps) * (tn + fp + eps) * (tn + fn + eps)
    return float(np.float32(num) / np.sqrt(np.float32(d)))
