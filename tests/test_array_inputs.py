"""NumPy arrays are inputs as users hold them: integer and string label arrays of any
width give the same exact values as lists, with the same typed errors; large integer
arrays go to the counting path without a list round trip."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracle import ConventionError, InputError, compute

labels = st.lists(st.sampled_from([0, 0, 0, 1, 1, 2, 5]), min_size=1, max_size=40)   # skewed classes


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64])
@given(pairs=st.lists(st.tuples(labels, labels), min_size=1, max_size=1))
def test_integer_arrays_give_the_values_of_lists(dtype, pairs):
    t, p = pairs[0]
    n = min(len(t), len(p))
    t, p = t[:n], p[:n]
    for metric, conv in (("accuracy", {}), ("f1", {"average": "macro"}), ("confusion_matrix", {}),
                         ("balanced_accuracy", {})):
        as_list = compute(metric, {"y_true": t, "y_pred": p}, conv).value
        as_array = compute(metric, {"y_true": np.array(t, dtype=dtype), "y_pred": np.array(p, dtype=dtype)}, conv).value
        assert as_array == as_list, (metric, dtype)


def test_large_integer_arrays_count_like_lists():
    rng = np.random.default_rng(7)
    zipf = np.minimum(rng.zipf(1.3, 60000), 1000) - 1          # a skewed class distribution
    t, p = zipf[:30000], zipf[30000:]
    for metric, conv in (("f1", {"average": "macro"}), ("confusion_matrix", {}), ("accuracy", {})):
        assert compute(metric, {"y_true": t, "y_pred": p}, conv).value == \
            compute(metric, {"y_true": t.tolist(), "y_pred": p.tolist()}, conv).value


def test_string_arrays():
    v = compute("f1", {"y_true": np.array(["a", "b", "a"]), "y_pred": np.array(["a", "a", "a"])}, {"average": "macro"})
    # class a: P 2/3, R 1, F 4/5; class b: never predicted, P 0 (zero_division), R 0: F 0; mean 2/5
    assert v.value == pytest.approx(0.4) and str(v.value) == "2/5"


@pytest.mark.parametrize("bad, message", [
    (np.array([1.0, 2.0]), r"y_true\[0\]: 1.0 is a float"),
    (np.array([np.nan, 1.0]), r"y_true\[0\]: NaN is not a label"),
    (np.array([True, False]), r"y_true\[0\]: a boolean label"),
    # 2-d is multilabel indicator input (oracle.multilabel): here beside 1-d predictions
    (np.array([[1, 2], [3, 4]]), r"y_pred: a list of labels beside indicator rows"),
    (np.array([[[1], [2]], [[3], [4]]]), r"y_true: expected a 1-d array of labels, got 3 dimensions"),
])
def test_array_errors_are_the_typed_errors_of_lists(bad, message):
    with pytest.raises(InputError, match=message):
        compute("accuracy", {"y_true": bad, "y_pred": np.array([1, 1])})


@pytest.mark.parametrize("declared, conv", [
    ([0, 1, 2], {"label_set": "declared", "outside": "drop"}),
    ([0, 1, 2], {"label_set": "declared", "outside": "keep"}),
    ([2, 0, 1, 7], {"label_set": "declared"}),
    (None, {}),
])
def test_large_arrays_on_every_counting_path_equal_lists(declared, conv):
    """From 2,000 samples on, int arrays are counted without a list; labels outside the
    declared ones, declared labels out of order, and negative labels take the paths that
    need the labels one by one: the same values, and the same error, as lists."""
    rng = np.random.default_rng(11)
    t = rng.integers(-1, 4, 3000)
    p = np.where(rng.random(3000) < 0.3, rng.integers(-1, 4, 3000), t)
    for metric, extra in (("f1", {"average": "macro"}), ("confusion_matrix", {}), ("accuracy", {}),
                          ("balanced_accuracy", {}), ("classification_report", {})):
        arrays, lists = {"y_true": t, "y_pred": p}, {"y_true": t.tolist(), "y_pred": p.tolist()}
        if declared is not None:
            arrays["labels"] = lists["labels"] = declared
        outcomes = []
        for inputs in (arrays, lists):
            try:
                outcomes.append(("ok", compute(metric, inputs, {**conv, **extra}).value))
            except InputError as e:
                outcomes.append(("error", str(e), e.item))
            except ConventionError as e:   # a knob value the metric does not have: the same for both
                outcomes.append(("setting", str(e)))
        assert outcomes[0] == outcomes[1], metric
    if declared == [2, 0, 1, 7] and metric == "classification_report":
        # label -1 is outside: the first sample holding it is named, as for lists
        assert outcomes[0][0] == "error" and "is not among the declared labels" in outcomes[0][1]
