"""Classification's NumPy counting (oracle/tally.py) agrees with the pair loop.

``tally`` counts with NumPy (``_int_codes``, ``_sorted_union``, ``_count_numpy``)
from ``_NUMPY_MIN_SAMPLES`` samples on; below, and whenever a label is outside
the classes, the pair loop counts. Every metric of the family gives the same
value, stats and parts (compared by repr, so types, key order and Python ints
count) and the same errors with the threshold at 0 (NumPy on every input it
accepts) and out of reach (the pair loop always), on small random inputs: ints
(0..K-1, negative, beyond int64), strings, declared labels in any order, labels
outside them, pos_label, bad labels, no samples.
"""
from __future__ import annotations

import random
from enum import IntEnum

import numpy as np
import pytest

from oracle import tally as classification
from oracle.conventions import InputError
from oracle.registry import get_metric

METRICS = ("confusion_matrix", "accuracy", "per_class_accuracy", "precision", "recall", "f1",
           "balanced_accuracy", "classification_report")


class Colour(IntEnum):
    RED = 0
    GREEN = 1


POOLS = {
    "range": [0, 1, 2, 3, 4, 5],
    "two": [0, 1],
    "offset": [1, 2, 3, 7],
    "negative": [-3, -1, 0, 2, 10 ** 6],
    "wide": [0, 5, 10 ** 5],
    "beyond int64": [0, 1, 2 ** 63 - 1, 2 ** 63, -2 ** 63, -2 ** 64],
    "strings": ["a", "b", "c", "0", "1", ""],
    "numpy and enum ints": [np.int64(0), np.int32(1), 2, Colour.GREEN],
    "bad": [0, 1, True, 2.0, "a", None, float("nan")],
}


def outcome(metric, inputs, settings):
    try:
        r = metric.compute_fn(inputs, settings)
    except InputError as e:
        return ("error", str(e), e.item)
    shared = r.value is r.stats.get("matrix") if metric.name == "confusion_matrix" else None
    return ("ok", repr(r.value), type(r.value), repr(r.stats), repr(r.parts), shared)


def both_ways(metric, inputs, settings):
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(classification, "_NUMPY_MIN_SAMPLES", 0)
        fast = outcome(metric, inputs, settings)
        mp.setattr(classification, "_NUMPY_MIN_SAMPLES", 10 ** 12)
        slow = outcome(metric, inputs, settings)
    return fast, slow


def random_inputs(rng: random.Random) -> dict:
    pool = POOLS[rng.choice(list(POOLS))]
    n = rng.choice((0, 1, 2, 3, 8, 30))
    inputs = {"y_true": [rng.choice(pool) for _ in range(n)], "y_pred": [rng.choice(pool) for _ in range(n)]}
    if rng.random() < 0.03 and n:
        inputs["y_pred"].pop()
    if rng.random() < 0.4:
        labels = rng.sample(pool, rng.randint(0, len(pool)))
        if rng.random() < 0.05 and labels:
            labels.append(labels[0])
        inputs["labels"] = labels
    if rng.random() < 0.2:
        inputs["pos_label"] = rng.choice(pool)
    if rng.random() < 0.1:
        inputs = {k: tuple(v) if isinstance(v, list) else v for k, v in inputs.items()}
    return inputs


@pytest.mark.parametrize("seed", range(10))
def test_numpy_counting_is_the_pair_loop(seed):
    rng = random.Random(seed)
    metrics = [get_metric(name) for name in METRICS]
    for _ in range(120):
        inputs = random_inputs(rng)
        for metric in metrics:
            conv = {k.name: rng.choice(k.choices) for k in metric.knobs if k.choices and rng.random() < 0.6}
            settings = metric.settings(conv)
            fast, slow = both_ways(metric, inputs, settings)
            assert fast == slow, (metric.name, inputs, settings)


def test_matrix_holds_python_ints_and_is_the_stats_matrix():
    metric = get_metric("confusion_matrix")
    y_true = [i % 7 for i in range(3000)]
    y_pred = [(i * i) % 7 for i in range(3000)]
    r = metric.compute({"y_true": y_true, "y_pred": y_pred})
    assert r.value is r.stats["matrix"]
    assert type(r.value) is list and all(type(row) is list for row in r.value)
    assert {type(x) for row in r.value for x in row} == {int}
    assert {type(x) for key in ("tp", "fp", "fn", "support") for x in r.stats[key]} == {int}
    assert type(r.stats["n"]) is int and r.stats["n"] == 3000
    assert r.stats["labels"] == list(range(7)) and all(type(c) is int for c in r.stats["labels"])
    direct = [[0] * 7 for _ in range(7)]
    for t, p in zip(y_true, y_pred):
        direct[t][p] += 1
    assert r.value == direct


@pytest.mark.parametrize("case", ["range", "declared order", "strings", "offset", "outside drop",
                                  "outside keep", "outside error", "beyond int64", "binary"])
def test_large_inputs_at_the_default_threshold(case):
    rng = random.Random(case)
    n = 3 * classification._NUMPY_MIN_SAMPLES
    labels = list(range(12))
    conv: dict = {}
    y_true = [rng.choice(labels) for _ in range(n)]
    y_pred = [t if rng.random() < 0.6 else rng.choice(labels) for t in y_true]
    inputs = {"y_true": y_true, "y_pred": y_pred}
    if case == "declared order":
        inputs["labels"] = rng.sample(labels, len(labels))
    elif case == "strings":
        inputs = {k: [f"c{x}" for x in v] for k, v in inputs.items()}
    elif case == "offset":
        inputs = {k: [x + 5 for x in v] for k, v in inputs.items()}
    elif case.startswith("outside"):
        inputs["labels"] = labels[:9]
        conv["outside"] = case.split()[1]
    elif case == "beyond int64":
        inputs["y_pred"] = [2 ** 70 if x == 3 else x for x in y_pred]
    elif case == "binary":
        inputs = {k: [x % 2 for x in v] for k, v in inputs.items()}
        conv["average"] = "binary"
    for name in METRICS:
        metric = get_metric(name)
        settings = metric.settings({k: v for k, v in conv.items() if k in metric.settings()
                                    and v in next(kn.choices for kn in metric.knobs if kn.name == k)})
        default = outcome(metric, inputs, settings)  # n is above the threshold: NumPy counts
        with pytest.MonkeyPatch.context() as mp:
            mp.setattr(classification, "_NUMPY_MIN_SAMPLES", 10 ** 12)
            assert outcome(metric, inputs, settings) == default, (name, case)


@pytest.mark.parametrize("values", [[0, 1, 5, 2], [3, 3, 3], [0], [10 ** 6, 0, 7], [-1, 0, 1],
                                    [2 ** 62, 1], [7000, 0]])
def test_sorted_union_is_sorted_set_union(values):
    y_true, y_pred = values, values[::-1]
    codes = classification._int_codes(y_true, y_pred)
    got = classification._sorted_union(y_true, y_pred, codes)
    assert got == sorted(set(y_true) | set(y_pred)) and all(type(c) is int for c in got)


def test_int_codes_declines_strings_and_ints_beyond_int64():
    assert classification._int_codes(["a"], ["b"]) is None
    assert classification._int_codes([2 ** 63], [0]) is None
    assert classification._int_codes([], []) is None
    t, p = classification._int_codes([-2 ** 63, 2 ** 63 - 1], [0, 1])
    assert t.tolist() == [-2 ** 63, 2 ** 63 - 1] and p.tolist() == [0, 1]


@pytest.mark.parametrize("bad, item", [(True, "y_pred[2]"), (2.0, "y_pred[2]"), ("a", "y_pred[2]")])
def test_one_odd_label_after_plain_ints_is_refused_by_position(bad, item):
    # the type check is one count of the first item's type: a bool (type bool, not int), a
    # float or a string among ints falls to the item-by-item check, which names it
    with pytest.raises(InputError) as e:
        get_metric("confusion_matrix").compute({"y_true": [0, 1, 1], "y_pred": [0, 1, bad]}, {})
    assert e.value.item == item


def test_the_callers_lists_are_read_not_changed():
    # pairs (true, pred) per block of four: (2, 2), (0, 1), (1, 1), (1, 0); 600 blocks, above the
    # NumPy threshold: row 0 holds 600 at column 1, row 1 600 at columns 0 and 1, row 2 600 at 2
    y_true, y_pred = [2, 0, 1, 1] * 600, [2, 1, 1, 0] * 600
    before = (list(y_true), list(y_pred))
    m = get_metric("confusion_matrix")
    value = m.compute({"y_true": y_true, "y_pred": y_pred}, {}).value
    assert (y_true, y_pred) == before
    assert value == m.compute({"y_true": tuple(y_true), "y_pred": tuple(y_pred)}, {}).value \
        == [[0, 600, 0], [600, 600, 0], [0, 0, 600]]
