"""When scikit-learn's recorded defects (``adapters/known_failures/sklearn.json``) apply:
the predicates the sklearn adapter's ``defect_classifiers`` name, each with the library's
source lines that make the defect."""
from __future__ import annotations

from typing import Mapping


def _passed_labels(settings: Mapping, inputs: Mapping):
    """The ``labels=`` the adapter passes: the declared list, or None (the union)."""
    if settings.get("label_set", "auto") == "union" or "labels" not in inputs:
        return None
    return list(inputs["labels"])


def empty_input(metric, settings, inputs) -> bool:
    """``_check_targets`` raises "Found empty input array (e.g., `y_true` or `y_pred`)
    while a minimum of 1 sample is required" (sklearn/metrics/_classification.py:119-123)
    for every metric here. The oracle gives an empty (or zero) matrix, per-class values
    that are not measured, and Undefined ("no samples") elsewhere. Applies: no sample."""
    return len(inputs.get("y_true", ())) == 0 and len(inputs.get("y_pred", ())) == 0


def all_zero_weights(metric, settings, inputs) -> bool:
    """``_check_targets`` passes ``sample_weight`` to ``_check_sample_weight``, whose
    ``allow_all_zero_weights=False`` raises "Sample weights must contain at least one
    non-zero number." (sklearn/utils/validation.py:2200-2204). The oracle counts a total
    weight of 0 as no samples. Applies: at least one sample, every weight 0."""
    from fractions import Fraction
    ws = inputs.get("sample_weight")
    return bool(ws) and all(Fraction(str(w)) == 0 for w in ws)


def one_document_rows(metric, settings, inputs) -> bool:
    """``ndcg_score`` raises "Computing NDCG is only meaningful when there is more than 1
    document" (_ranking.py:2059-2063) and ``dcg_score``'s ``_check_dcg_target_type`` reads
    a one-column y_true as 'binary' and raises "Only (...) formats are supported"
    (_ranking.py:1763-1775); DCG and NDCG of a one-document ranking are defined (its own
    ideal). Applies: score_dcg or score_ndcg, rows of one document."""
    rows = inputs.get("y_true")
    return metric in ("score_dcg", "score_ndcg") and bool(rows) and all(
        hasattr(r, "__len__") and len(r) == 1 for r in rows)


def no_declared_label_in_y_true(metric, settings, inputs) -> bool:
    """``confusion_matrix(labels=...)`` raises "At least one label specified must be in
    y_true" when no true label is in ``labels`` (_classification.py:567-568); with
    outside=drop every such sample is dropped and the oracle's matrix is all zeros.
    Applies: confusion_matrix, labels passed to sklearn, at least one sample, and no true
    label among them."""
    if metric != "confusion_matrix":
        return False
    labels = _passed_labels(settings, inputs)
    y_true = list(inputs.get("y_true", ()))
    return labels is not None and bool(y_true) and not (set(y_true) & set(labels))


def adjusted_single_class(metric, settings, inputs) -> bool:
    """``balanced_accuracy_score(adjusted=True)`` sets chance = 1/n_classes with n_classes
    the classes with support, then ``score /= 1 - chance`` (_classification.py:2942-2946):
    with one such class that divides by 0.0, giving -inf when the class's recall is below
    1. Applies: adjusted, every true label the same, and some prediction differs from it."""
    if metric != "balanced_accuracy" or settings.get("adjusted") != "yes":
        return False
    y_true, y_pred = list(inputs["y_true"]), list(inputs["y_pred"])
    return len(set(map(repr, y_true))) == 1 and any(t != p for t, p in zip(y_true, y_pred))


def adjusted_single_class_perfect(metric, settings, inputs) -> bool:
    """The same division where the one class's recall is 1: (1 - 1) / 0.0 is NaN, where the
    value is undefined (the canonical representation of no value is an exception). Applies:
    adjusted, every true label the same, every prediction equal to it."""
    if metric != "balanced_accuracy" or settings.get("adjusted") != "yes":
        return False
    y_true, y_pred = list(inputs["y_true"]), list(inputs["y_pred"])
    return len(set(map(repr, y_true))) == 1 and y_true == y_pred
