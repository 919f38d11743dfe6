"""Multilabel indicator input (oracle.multilabel) against a second derivation:
each label column as its own binary problem through the single-label path, each
sample as a pair of label sets, subset accuracy by comparing rows; NumPy arrays
and bools read as the lists they hold. Hand-derived values are golden cases in
golden/topics/classification.json (tag multilabel)."""
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from conformance.strategies.classification import multilabel_inputs
from oracle.conventions import InputError
from oracle.registry import compute

ZD = {"zero": Fraction(0), "one": Fraction(1)}


def _set_ratio(num: int, den: int, zd: str) -> Fraction:
    return Fraction(num, den) if den else ZD[zd]


@given(multilabel_inputs(), st.sampled_from(["precision", "recall", "f1"]), st.sampled_from(["zero", "one"]))
def test_macro_is_the_mean_of_each_column_as_a_binary_problem(inputs, metric, zd):
    if not inputs["y_true"]:
        return
    width = len(inputs["y_true"][0])
    per_column = []
    for j in range(width):
        binary = {"y_true": [r[j] for r in inputs["y_true"]], "y_pred": [r[j] for r in inputs["y_pred"]],
                  "labels": [0, 1]}
        per_column.append(compute(metric, binary, {"average": "binary", "zero_division": zd}).value)
    got = compute(metric, {"y_true": inputs["y_true"], "y_pred": inputs["y_pred"]},
                  {"average": "macro", "zero_division": zd}).value
    assert got == sum(per_column, Fraction(0)) / width


@given(multilabel_inputs(), st.sampled_from(["precision", "recall", "f1"]), st.sampled_from(["zero", "one"]))
def test_samples_is_the_mean_over_rows_of_set_ratios(inputs, metric, zd):
    rows = list(zip(inputs["y_true"], inputs["y_pred"]))
    if not rows:
        return
    cols = inputs.get("labels") or list(range(len(rows[0][0])))
    values = []
    for t, p in rows:
        T = {j for j in cols if t[j]}
        P = {j for j in cols if p[j]}
        hit = len(T & P)
        if metric == "precision":
            values.append(_set_ratio(hit, len(P), zd))
        elif metric == "recall":
            values.append(_set_ratio(hit, len(T), zd))
        else:
            values.append(_set_ratio(2 * hit, len(T) + len(P), zd))
    conv = {"average": "samples", "zero_division": zd, "outside": "keep"}
    assert compute(metric, inputs, conv).value == sum(values, Fraction(0)) / len(values)


@given(multilabel_inputs())
def test_subset_accuracy_compares_whole_rows(inputs):
    rows = list(zip(inputs["y_true"], inputs["y_pred"]))
    if not rows:
        return
    cols = inputs.get("labels") or list(range(len(rows[0][0])))
    same = sum(1 for t, p in rows if [t[j] for j in cols] == [p[j] for j in cols])
    assert compute("accuracy", inputs, {"outside": "drop"}).value == Fraction(same, len(rows))


@given(multilabel_inputs(), st.sampled_from(["micro", "macro", "weighted", "samples", "none"]))
def test_arrays_and_bools_read_as_the_lists_they_hold(inputs, average):
    if not inputs["y_true"]:
        return
    plain = {"y_true": inputs["y_true"], "y_pred": inputs["y_pred"]}
    as_arrays = {k: np.array(v, dtype=np.int8) for k, v in plain.items()}
    as_bools = {k: [[bool(x) for x in row] for row in v] for k, v in plain.items()}
    want = compute("f1", plain, {"average": average}).value
    assert compute("f1", as_arrays, {"average": average}).value == want
    assert compute("f1", as_bools, {"average": average}).value == want


def test_micro_f_is_the_harmonic_mean_of_micro_p_and_r():
    inputs = {"y_true": [[1, 0, 1], [0, 1, 0], [1, 1, 0]], "y_pred": [[1, 1, 0], [0, 1, 1], [1, 0, 0]]}
    # pooled: tp 3 (col 0 twice, col 1 once), fp 2 (col 1 row 0, col 2 row 1), fn 2: P = R = 3/5, F = 3/5
    p = compute("precision", inputs, {"average": "micro"}).value
    r = compute("recall", inputs, {"average": "micro"}).value
    f = compute("f1", inputs, {"average": "micro"}).value
    assert (p, r, f) == (Fraction(3, 5), Fraction(3, 5), Fraction(3, 5)) and f == 2 * p * r / (p + r)


@pytest.mark.parametrize("inputs, conv, message", [
    ({"y_true": [[1, 0], [0, 1]], "y_pred": [[1, 0]]}, {"average": "macro"}, "y_pred: 1 rows but y_true has 2"),
    ({"y_true": [[1, 0], [0, 1]], "y_pred": [[1, 0], [0, 1]], "labels": [0, 2]}, {"average": "macro"},
     r"labels\[1\]: 2 is not a column index 0..1"),
    ({"y_true": [[1, 0], [0, 1]], "y_pred": [[1, 0], [0, 1]], "labels": [1, 1]}, {"average": "macro"},
     r"labels\[1\]: 1 is already declared"),
    ({"y_true": [[1, 0], [0, 1]], "y_pred": [[1, 0], [0, 1]]}, {"average": "macro", "label_set": "declared"},
     "label_set=declared needs inputs.labels"),
    ({"y_true": [[1, 0], [0, 1]], "y_pred": [[1, 0], [0, 0.5]]}, {"average": "macro"},
     r"y_pred\[1\]\[1\]: 0.5 is not an indicator"),
    ({"y_true": [[1, 0], [0, 1]], "y_pred": [[1, 0], [0, 1]]}, {"average": "macro"}, None),
])
def test_bad_indicator_input_names_the_item(inputs, conv, message):
    if message is None:
        assert compute("precision", inputs, conv).value == 1
        return
    with pytest.raises(InputError, match=message):
        compute("precision", inputs, conv)


@pytest.mark.parametrize("metric", ["confusion_matrix", "per_class_accuracy", "balanced_accuracy",
                                    "classification_report"])
def test_single_label_metrics_refuse_rows(metric):
    with pytest.raises(InputError, match="y_true: rows of indicators"):
        compute(metric, {"y_true": [[1, 0], [0, 1]], "y_pred": [[1, 0], [0, 0]]}, {})
