"""score_average_precision and label_ranking_average_precision (oracle.score_ranking)
against independent formulations: the step integral from the precision and recall at
each threshold, built from sets; the expected AP by enumerating every order of the tied
items; LRAP from its documented rank formula. Hand-derived values are golden cases in
golden/topics/score_ranking.json."""
import itertools
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from conformance.strategies.scores import score_rows
from oracle.conventions import InputError
from oracle.registry import compute


def _threshold_ap(rel, scores):
    """sum_n (R_n - R_{n-1}) P_n over the distinct scores as thresholds (sklearn's docs)."""
    R = sum(rel)
    total, prev_recall = Fraction(0), Fraction(0)
    for t in sorted(set(scores), reverse=True):
        chosen = [r for r, s in zip(rel, scores) if s >= t]
        recall, precision = Fraction(sum(chosen), R), Fraction(sum(chosen), len(chosen))
        total += (recall - prev_recall) * precision
        prev_recall = recall
    return total


def _ranking_ap(rel_in_order):
    R = sum(rel_in_order)
    hits, total = 0, Fraction(0)
    for i, r in enumerate(rel_in_order, 1):
        if r:
            hits += 1
            total += Fraction(hits, i)
    return total / R


def _enumerated_expected_ap(rel, scores):
    """The mean AP over every order of the tied items (each group permuted on its own)."""
    groups = {}
    for r, s in zip(rel, scores):
        groups.setdefault(s, []).append(r)
    perms = [list(itertools.permutations(groups[k])) for k in sorted(groups, reverse=True)]
    values = [_ranking_ap([x for part in combo for x in part]) for combo in itertools.product(*perms)]
    return sum(values, Fraction(0)) / len(values)


def _exact(x):
    return Fraction(x)


binary = score_rows(binary=True, max_samples=7)


@given(binary)
def test_step_ap_is_the_threshold_sum(inputs):
    rel, scores = inputs["y_true"], [_exact(s) for s in inputs["y_score"]]
    v = compute("score_average_precision", inputs, {"no_relevant": "zero"}).value
    assert v == (_threshold_ap(rel, scores) if sum(rel) else 0)


@given(binary)
def test_expected_ap_is_the_mean_over_tie_orders(inputs):
    rel, scores = inputs["y_true"], [_exact(s) for s in inputs["y_score"]]
    if not sum(rel):
        return
    v = compute("score_average_precision", inputs, {"ties": "expected"}).value
    assert v == _enumerated_expected_ap(rel, scores)


@given(score_rows(binary=False))
def test_lrap_is_its_rank_formula(inputs):
    values = []
    for rel, scores in zip(inputs["y_true"], inputs["y_score"]):
        f = [_exact(s) for s in scores]
        relevant = [j for j, r in enumerate(rel) if r]
        if not relevant:
            values.append(Fraction(1))
            continue
        terms = [Fraction(sum(1 for k in relevant if f[k] >= f[j]), sum(1 for k in range(len(f)) if f[k] >= f[j]))
                 for j in relevant]
        values.append(sum(terms, Fraction(0)) / len(terms))
    v = compute("label_ranking_average_precision", inputs, {"no_relevant": "one"}).value
    assert v == sum(values, Fraction(0)) / len(values)


@given(score_rows(binary=False))
def test_averages_of_columns_and_rows(inputs):
    rel, sc = inputs["y_true"], inputs["y_score"]
    width = len(rel[0])
    cols = [compute("score_average_precision", {"y_true": [r[j] for r in rel], "y_score": [s[j] for s in sc]},
                    {"no_relevant": "zero"}).value for j in range(width)]
    conv = {"no_relevant": "zero"}
    assert compute("score_average_precision", inputs, {**conv, "average": "none"}).value == cols
    assert compute("score_average_precision", inputs, {**conv, "average": "macro"}).value == sum(cols) / width
    support = [sum(r[j] for r in rel) for j in range(width)]
    weighted = compute("score_average_precision", inputs, {**conv, "average": "weighted"}).value
    assert weighted == (sum(c * w for c, w in zip(cols, support)) / sum(support) if sum(support) else 0)
    flat = {"y_true": [x for r in rel for x in r], "y_score": [x for s in sc for x in s]}
    assert compute("score_average_precision", inputs, {**conv, "average": "micro"}).value == \
        compute("score_average_precision", flat, conv).value


def test_lrap_of_a_sample_equals_its_step_ap():
    # one sample: relevant labels 0 and 3; scores .5 .5 .2 .5 -> one group of 3 holding 2, then 1
    inputs = {"y_true": [[1, 0, 0, 1]], "y_score": [[0.5, 0.5, 0.2, 0.5]]}
    # each relevant label: 2 relevant among the 3 scoring >= .5: 2/3
    assert compute("label_ranking_average_precision", inputs, {}).value == Fraction(2, 3)
    assert compute("score_average_precision", {"y_true": [1, 0, 0, 1], "y_score": [0.5, 0.5, 0.2, 0.5]},
                   {}).value == Fraction(2, 3)


def test_arrays_read_as_lists():
    rows = {"y_true": [[1, 0, 1], [0, 1, 0]], "y_score": [[0.3, 0.2, 0.3], [0.9, 0.1, 0.5]]}
    arrays = {"y_true": np.array(rows["y_true"]), "y_score": np.array(rows["y_score"])}
    for metric in ("score_average_precision", "label_ranking_average_precision"):
        assert compute(metric, arrays, {}).value == compute(metric, rows, {}).value


@pytest.mark.parametrize("metric, inputs, message", [
    ("score_average_precision", {"y_true": [1, 0], "y_score": [0.5]}, "y_score: 1 scores but y_true has 2"),
    ("score_average_precision", {"y_true": [1, 2], "y_score": [0.5, 0.1]}, r"y_true\[1\]: 2 is not a binary label"),
    ("score_average_precision", {"y_true": [1, 0], "y_score": [0.5, float("nan")]},
     r"y_score\[1\]: score nan is not a finite number"),
    ("score_average_precision", {"y_true": [1, 0], "y_score": [0.5, "1e999999"]}, "exponent beyond 400"),
    ("score_average_precision", {"y_true": [[1, 0], [0, 1]], "y_score": [[0.5, 0.1], [0.2]]},
     r"y_score\[1\]: 1 scores but y_true\[1\] has 2"),
    ("label_ranking_average_precision", {"y_true": [1, 0], "y_score": [0.5, 0.1]}, "expected rows of 0/1"),
    ("label_ranking_average_precision", {"y_true": [], "y_score": []}, "y_true: no samples"),
    ("score_average_precision", {"y_true": [1], "y_score": [True]}, "a boolean score"),
])
def test_bad_input_names_the_item(metric, inputs, message):
    with pytest.raises(InputError, match=message):
        compute(metric, inputs, {})


def _dcg_of_order(gains, k, base):
    import math
    return sum(g / (math.log(r + 1) / math.log(base)) for r, g in enumerate(gains[:k], 1))


@given(st.lists(st.tuples(st.sampled_from([0, 0, 1, 2, 3]), st.sampled_from([0, 0.5, 1])), min_size=2, max_size=6),
       st.sampled_from([None, 1, 2, 3]), st.sampled_from([2, 10]))
def test_dcg_and_ndcg_are_means_over_tie_orders(items, k, base):
    """DCG with tied scores averaged equals the mean DCG over every order of the tied items
    (enumerated, in floats), and NDCG that over the ideal DCG."""
    grades, scores = [g for g, _ in items], [s for _, s in items]
    groups = {}
    for g, s in items:
        groups.setdefault(s, []).append(g)
    keys = sorted(groups, reverse=True)
    perms = [list(itertools.permutations(groups[s])) for s in keys]
    kk = k or len(items)
    values = [_dcg_of_order([g for part in combo for g in part], kk, base) for combo in itertools.product(*perms)]
    expected = sum(values) / len(values)
    conv = {"k": str(k) if k else "none"}
    got = compute("score_dcg", {"y_true": [grades], "y_score": [scores]}, {**conv, "log_base": str(base)}).value
    assert abs(float(got) - expected) < 1e-9
    ideal = _dcg_of_order(sorted(grades, reverse=True), kk, 2)
    nd = compute("score_ndcg", {"y_true": [grades], "y_score": [scores]}, conv).value
    want = 0.0 if ideal == 0 else (expected if base == 2 else sum(
        _dcg_of_order([g for part in combo for g in part], kk, 2) for combo in itertools.product(*perms)) / len(values)) / ideal
    assert abs(float(nd) - want) < 1e-9


@given(st.lists(st.sampled_from([0, 0.5, 1]), min_size=3, max_size=5), st.data())
def test_top_k_expected_is_the_mean_over_tie_orders(row, data):
    """ties=expected: the true class's chance of a top-k place, over every order of the
    tied classes (enumerated), and optimistic/pessimistic its best and worst order."""
    true = data.draw(st.integers(0, len(row) - 1))
    k = data.draw(st.integers(1, len(row)))
    inputs = {"y_true": [true], "y_score": [row], "labels": list(range(len(row)))}
    outcomes = []
    for order in itertools.permutations(range(len(row))):
        # a total order: by score descending, ties by their place in this permutation
        rank = sorted(range(len(row)), key=lambda j: (-row[j], order.index(j)))
        outcomes.append(true in rank[:k])
    exp = Fraction(sum(outcomes), len(outcomes))
    assert compute("top_k_accuracy", inputs, {"k": str(k), "ties": "expected"}).value == exp
    assert compute("top_k_accuracy", inputs, {"k": str(k), "ties": "optimistic"}).value == int(any(outcomes))
    assert compute("top_k_accuracy", inputs, {"k": str(k), "ties": "pessimistic"}).value == int(all(outcomes))
