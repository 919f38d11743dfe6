"""NumPy arrays are inputs as users hold them: integer and string label arrays of any
width give the same exact values as lists, with the same typed errors; large integer
arrays go to the counting path without a list round trip."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from oracle import InputError, compute

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
    (np.array([[1, 2], [3, 4]]), r"y_true: expected a 1-d array of labels, got 2 dimensions"),
])
def test_array_errors_are_the_typed_errors_of_lists(bad, message):
    with pytest.raises(InputError, match=message):
        compute("accuracy", {"y_true": bad, "y_pred": np.array([1, 1])})
