"""Classification: golden cases (document 003 and the topic file), properties
against independent counting, and the bad-input table of oracle/classification.py."""
from __future__ import annotations

from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from conformance.casefiles.cases import load_file, rederive
from conformance.strategies.classification import classification_inputs
from oracle import ConventionError, InputError, Undefined, compute, get_metric

GOLDEN = Path(__file__).resolve().parent.parent / "golden"
FILES = [GOLDEN / "documents" / "003_0a6ad6c781e30d47.json", GOLDEN / "topics" / "classification.json"]
CASES = [c for f in FILES for c in load_file(f)]
PRF = ("precision", "recall", "f1")


# ------------------------------------------------------------ golden cases

@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c.file}#{c.id}")
def test_golden_case_rederives(case):
    assert rederive(case) == []


@pytest.mark.parametrize("case", [c for c in CASES if str(c.expected["value"]).startswith("error(")],
                         ids=lambda c: f"{c.file}#{c.id}")
def test_golden_error_names_the_item(case):
    """An expected error's text (after 'InputError: ') is the start of the oracle's message."""
    want = case.expected["value"][len("error(InputError: "):-1]
    with pytest.raises(InputError) as e:
        compute(case.metric, case.inputs, case.conventions)
    assert str(e.value).startswith(want), (str(e.value), want)


def test_document_matrix_inputs_reproduce_the_printed_matrix():
    doc = [c for c in CASES if c.file.startswith("003") and c.metric == "confusion_matrix"][0]
    pairs = Counter(zip(doc.inputs["y_true"], doc.inputs["y_pred"]))
    assert len(doc.inputs["y_true"]) == 1000
    assert pairs == {(0, 0): 896, (0, 1): 4, (1, 0): 2, (1, 1): 88, (2, 0): 10}


def test_rederive_catches_a_wrong_matrix():
    case = CASES[0]
    bad = type(case)(**{**case.__dict__, "expected": {**case.expected, "value": [["896", "4", "0"], ["2", "88", "0"], ["0", "10", "0"]]}})
    assert any(p.startswith("value:") for p in rederive(bad))


# ------------------------------------------------------------ independent counting

def counted(inputs):
    """Classes (sorted union or declared), pair counts, per-class tp/predicted/support, by plain counting."""
    classes = list(inputs["labels"]) if "labels" in inputs else sorted(set(inputs["y_true"]) | set(inputs["y_pred"]))
    pairs = Counter(zip(inputs["y_true"], inputs["y_pred"]))
    tp = {c: pairs[(c, c)] for c in classes}
    predicted = {c: sum(v for (t, p), v in pairs.items() if p == c) for c in classes}
    support = {c: sum(v for (t, p), v in pairs.items() if t == c) for c in classes}
    return classes, pairs, tp, predicted, support


def same(a, b) -> bool:
    """Equal values, any Undefined equal to any Undefined (reasons differ by design)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    return a == b or isinstance(a, Undefined) and isinstance(b, Undefined)


def plain(max_samples=12):
    """Inputs with every label inside the class set (no outside samples)."""
    return classification_inputs(max_samples=max_samples)


@given(plain())
def test_matrix_is_the_pair_count(inputs):
    m = compute("confusion_matrix", inputs).value
    classes, pairs, *_ = counted(inputs)
    assert m == [[pairs[(a, b)] for b in classes] for a in classes]
    assert sum(map(sum, m)) == len(inputs["y_true"])


@given(st.lists(st.tuples(st.integers(0, 2), st.integers(0, 2)), min_size=1, max_size=6), st.integers(2, 5))
def test_repeated_pairs_add_once_per_occurrence(pairs, times):
    inputs = {"y_true": [t for t, _ in pairs] * times, "y_pred": [p for _, p in pairs] * times, "labels": [0, 1, 2]}
    once = compute("confusion_matrix", {**inputs, "y_true": inputs["y_true"][:len(pairs)],
                                        "y_pred": inputs["y_pred"][:len(pairs)]}).value
    assert compute("confusion_matrix", inputs).value == [[times * x for x in row] for row in once]


@given(plain())
def test_accuracy_is_trace_over_n(inputs):
    m = compute("confusion_matrix", inputs).value
    n = len(inputs["y_true"])
    assert compute("accuracy", inputs).value == Fraction(sum(m[i][i] for i in range(len(m))), n)


@given(plain())
def test_swapping_truth_and_prediction_transposes_and_exchanges_precision_and_recall(inputs):
    swapped = {**inputs, "y_true": inputs["y_pred"], "y_pred": inputs["y_true"]}
    m, mt = compute("confusion_matrix", inputs).value, compute("confusion_matrix", swapped).value
    assert mt == [list(col) for col in zip(*m)]
    und = {"average": "none", "zero_division": "undefined"}
    p, r = compute("precision", inputs, und).value, compute("recall", inputs, und).value
    p2, r2 = compute("precision", swapped, und).value, compute("recall", swapped, und).value
    assert same(p2, r) and same(r2, p)
    assert compute("accuracy", swapped).value == compute("accuracy", inputs).value
    if m == mt:
        assert same(r2, r)


def test_swapping_a_non_symmetric_matrix_changes_per_class_recall():
    inputs = {"y_true": [0, 0, 0, 1, 2], "y_pred": [1, 1, 1, 1, 0]}
    swapped = {"y_true": inputs["y_pred"], "y_pred": inputs["y_true"]}
    assert compute("recall", inputs, {"average": "none"}).value != compute("recall", swapped, {"average": "none"}).value
    # not a theorem in general: a cyclic confusion has equal row and column sums, recall 0 both ways
    cyc = {"y_true": [0, 1, 2], "y_pred": [1, 2, 0]}
    cyc_swapped = {"y_true": cyc["y_pred"], "y_pred": cyc["y_true"]}
    assert compute("recall", cyc, {"average": "none"}).value == compute("recall", cyc_swapped, {"average": "none"}).value


@given(plain())
def test_micro_precision_recall_f1_equal_accuracy(inputs):
    acc = compute("accuracy", inputs).value
    for metric in PRF:
        assert compute(metric, inputs, {"average": "micro"}).value == acc


def _policy(num, den, zd):
    if den:
        return Fraction(num, den)
    return {"zero": Fraction(0), "one": Fraction(1)}.get(zd)   # None: undefined / exclude


@given(plain(), st.sampled_from(("zero", "one", "undefined", "exclude")), st.sampled_from(PRF))
def test_macro_and_weighted_by_independent_formulas(inputs, zd, metric):
    classes, _, tp, predicted, support = counted(inputs)

    def per_class(c):
        if metric == "precision":
            return _policy(tp[c], predicted[c], zd)
        if metric == "recall":
            return _policy(tp[c], support[c], zd)
        return _policy(2 * tp[c], predicted[c] + support[c], zd)   # 2tp/(2tp + fn + fp)

    vals = {c: per_class(c) for c in classes}
    macro = compute(metric, inputs, {"zero_division": zd}).value
    if zd == "undefined" and None in vals.values():
        assert isinstance(macro, Undefined)
    else:
        kept = [v for v in vals.values() if v is not None]
        assert macro == (sum(kept) / len(kept) if kept else macro) and (kept or isinstance(macro, Undefined))
    weighted = compute(metric, inputs, {"zero_division": zd, "average": "weighted"}).value
    with_support = [c for c in classes if support[c]]
    if zd == "undefined" and any(vals[c] is None for c in with_support):
        assert isinstance(weighted, Undefined)
    else:
        kept = [c for c in with_support if vals[c] is not None]
        if kept:
            assert weighted == sum(support[c] * vals[c] for c in kept) / sum(support[c] for c in kept)
        else:
            assert isinstance(weighted, Undefined)


@given(plain())
def test_balanced_accuracy_is_mean_recall_over_classes_with_samples(inputs):
    classes, _, tp, _, support = counted(inputs)
    recalls = [Fraction(tp[c], support[c]) for c in classes if support[c]]
    assert compute("balanced_accuracy", inputs).value == sum(recalls) / len(recalls)
    adj = compute("balanced_accuracy", inputs, {"adjusted": "yes"}).value
    if len(recalls) > 1:
        k = len(recalls)
        assert adj == (sum(recalls) / k - Fraction(1, k)) / (1 - Fraction(1, k))
    else:
        assert isinstance(adj, Undefined)


@given(plain())
def test_per_class_accuracy_is_per_class_recall(inputs):
    acc = compute("per_class_accuracy", inputs).value
    rec = compute("recall", inputs, {"average": "none", "zero_division": "undefined"}).value
    assert acc.keys() == rec.keys()
    for c in acc:
        assert acc[c] == rec[c] or (isinstance(acc[c], Undefined) and isinstance(rec[c], Undefined))


@given(plain(), st.sampled_from(("zero", "one", "exclude")))
def test_report_rows_agree_with_the_metrics(inputs, zd):
    rep = compute("classification_report", inputs, {"zero_division": zd}).value
    _, _, _, _, support = counted(inputs)
    for metric, key in (("precision", "precision"), ("recall", "recall"), ("f1", "f1-score")):
        per = compute(metric, inputs, {"average": "none", "zero_division": zd}).value
        for c, v in per.items():
            assert rep[str(c)][key] == v or (isinstance(v, Undefined) and isinstance(rep[str(c)][key], Undefined))
        for avg in ("macro", "weighted"):
            v = compute(metric, inputs, {"average": avg, "zero_division": zd}).value
            assert rep[f"{avg} avg"][key] == v or isinstance(v, Undefined) and isinstance(rep[f"{avg} avg"][key], Undefined)
    assert rep["accuracy"] == compute("accuracy", inputs).value
    assert "micro avg" not in rep
    assert rep["macro avg"]["support"] == len(inputs["y_true"])
    assert [rep[str(c)]["support"] for c in support] == list(support.values())


@given(plain(), st.data())
def test_sample_order_and_label_order_do_not_change_averages(inputs, data):
    order = data.draw(st.permutations(range(len(inputs["y_true"]))))
    moved = {**inputs, "y_true": [inputs["y_true"][i] for i in order], "y_pred": [inputs["y_pred"][i] for i in order]}
    if "labels" in inputs:
        moved["labels"] = data.draw(st.permutations(inputs["labels"]))
    for metric, conv in (("accuracy", {}), ("balanced_accuracy", {}), ("f1", {}), ("precision", {"average": "weighted"}),
                         ("recall", {"average": "none"}), ("per_class_accuracy", {})):
        a, b = compute(metric, inputs, conv).value, compute(metric, moved, conv).value
        assert a == b or isinstance(a, Undefined) and isinstance(b, Undefined)


@given(classification_inputs(outside=True))
def test_outside_samples_dropped_equal_the_filtered_input(inputs):
    keep = set(inputs["labels"])
    pairs = [(t, p) for t, p in zip(inputs["y_true"], inputs["y_pred"]) if t in keep and p in keep]
    filtered = {"y_true": [t for t, _ in pairs], "y_pred": [p for _, p in pairs], "labels": inputs["labels"]}
    assert compute("confusion_matrix", inputs, {"outside": "drop"}).value == compute("confusion_matrix", filtered).value
    a, b = compute("accuracy", inputs, {"outside": "drop"}).value, compute("accuracy", filtered).value
    assert a == b or isinstance(a, Undefined) and isinstance(b, Undefined)


@given(classification_inputs(outside=True))
def test_outside_keep_counts_every_sample(inputs):
    """keep: tp_k, fp_k, fn_k counted over all samples, so sum(tp + fn) = #samples whose true label is a class."""
    r = compute("recall", inputs, {"outside": "keep"})
    in_set = sum(1 for t in inputs["y_true"] if t in inputs["labels"])
    assert sum(r.stats["tp"]) + sum(r.stats["fn"]) == in_set
    assert r.stats["n"] == len(inputs["y_true"])
    assume(any(t not in inputs["labels"] or p not in inputs["labels"] for t, p in zip(inputs["y_true"], inputs["y_pred"])))
    with pytest.raises(InputError):
        compute("recall", inputs)


def test_f_beta_is_the_harmonic_form_where_p_and_r_are_defined():
    inputs = {"y_true": [0, 0, 0, 0, 1, 1, 2], "y_pred": [0, 0, 0, 1, 1, 0, 1]}
    for beta in (Fraction(1), Fraction(2), Fraction(1, 3)):
        f = compute("f1", inputs, {"average": "none", "beta": str(beta)}).value
        p = compute("precision", inputs, {"average": "none"}).value
        r = compute("recall", inputs, {"average": "none"}).value
        b2 = beta ** 2
        for c in (0, 1):
            assert f[c] == (1 + b2) * p[c] * r[c] / (b2 * p[c] + r[c])


def test_signatures_name_every_knob():
    assert get_metric("f1").signature() == "f1|labels:auto|outside:error|avg:macro|zd:undefined|nowt:undefined|beta:1|ign:none|topk:1|oracle:1"
    assert get_metric("balanced_accuracy").signature({"adjusted": True}) == \
        "balanced_accuracy|labels:auto|outside:error|adj:yes|ign:none|oracle:1"
    sigs = {get_metric("precision").signature({"average": a, "zero_division": z})
            for a in ("micro", "macro", "weighted", "none", "binary") for z in ("zero", "one", "undefined", "exclude")}
    assert len(sigs) == 20


# ------------------------------------------------------------ bad input (the module's table)

BAD = [
    ("accuracy", {}, {"y_true": [0, 1, 1], "y_pred": [0, 1]}, "y_pred: 2 items but y_true has 3"),
    ("confusion_matrix", {}, {"y_true": [0, 2], "y_pred": [0, 1], "labels": [0, 1]}, "y_true[1]: label 2 is not among"),
    ("confusion_matrix", {}, {"y_true": [0, 1], "y_pred": [0, 5], "labels": [0, 1]}, "y_pred[1]: label 5 is not among"),
    ("confusion_matrix", {}, {"y_true": [0, 1], "y_pred": [0, 1], "labels": [0, 1, 1]}, "labels[2]: 1 is already declared at labels[1]"),
    ("confusion_matrix", {}, {"y_true": [0, 1], "y_pred": [0, 1], "labels": []}, "labels: an empty list"),
    ("confusion_matrix", {"label_set": "declared"}, {"y_true": [0], "y_pred": [0]}, "labels: label_set=declared needs"),
    ("accuracy", {}, {"y_true": [0, 1.0], "y_pred": [0, 1]}, "y_true[1]: 1.0 is a float"),
    ("accuracy", {}, {"y_true": [0, 1], "y_pred": [0, 2.5]}, "y_pred[1]: 2.5 is a float"),
    ("accuracy", {}, {"y_true": [0, float("nan")], "y_pred": [0, 1]}, "y_true[1]: NaN is not a label"),
    ("accuracy", {}, {"y_true": [0, 1], "y_pred": [True, 1]}, "y_pred[0]: a boolean label"),
    ("accuracy", {}, {"y_true": [0, None], "y_pred": [0, 1]}, "y_true[1]: a missing label"),
    ("accuracy", {}, {"y_true": [0, [1]], "y_pred": [0, 1]}, "y_true[1]: expected an int or string label"),
    ("accuracy", {}, {"y_true": ["a", "b"], "y_pred": ["a", 1]}, "y_pred[1]: an int label among string labels (1)"),
    ("accuracy", {}, {"y_true": [0, 1], "y_pred": [0, 1], "labels": ["0", "1"]}, "labels[0]: a string label"),
    ("accuracy", {}, {"y_true": "01", "y_pred": [0, 1]}, "y_true: expected a list"),
    ("accuracy", {}, {"y_true": [0]}, "inputs: missing field 'y_pred'"),
    ("accuracy", {}, {"y_true": [0], "y_pred": [0], "weights": [1]}, "inputs: unknown field 'weights'"),
    ("accuracy", {}, [[0], [0]], "inputs: expected an object"),
    ("precision", {"average": "binary"}, {"y_true": [0, 1, 2], "y_pred": [0, 1, 2]}, "average=binary needs at most two classes"),
    ("precision", {"average": "binary"}, {"y_true": [0, 2], "y_pred": [0, 2]}, "pos_label: 1 is not one of the classes"),
    ("precision", {"average": "binary"}, {"y_true": ["a", "b"], "y_pred": ["a", "b"]}, "pos_label: an int label"),
]


@pytest.mark.parametrize("metric,conv,inputs,message", BAD, ids=[b[3][:40] for b in BAD])
def test_bad_input_is_a_typed_error_naming_the_item(metric, conv, inputs, message):
    with pytest.raises(InputError) as e:
        compute(metric, inputs, conv)
    assert message in str(e.value)


@pytest.mark.parametrize("metric,conv", [("precision", {"average": "sample"}), ("f1", {"beta": "-1"}),
                                         ("balanced_accuracy", {"adjusted": "maybe"}), ("accuracy", {"average": "micro"}),
                                         ("confusion_matrix", {"outside": "keep"})])
def test_bad_knob_is_a_convention_error(metric, conv):
    with pytest.raises(ConventionError):
        compute(metric, {"y_true": [0], "y_pred": [0]}, conv)


@pytest.mark.parametrize("metric", ["accuracy", "precision", "recall", "f1", "balanced_accuracy", "classification_report"])
def test_no_samples_is_undefined_never_nan(metric):
    for inputs in ({"y_true": [], "y_pred": []}, {"y_true": [], "y_pred": [], "labels": [0, 1]},
                   {"y_true": [3], "y_pred": [3], "labels": [0, 1]}):
        conv = {"outside": "drop"} if metric in ("accuracy", "balanced_accuracy") else {"outside": "drop", "zero_division": "one"}
        if metric == "accuracy":
            conv = {"outside": "drop"}
        assert isinstance(compute(metric, inputs, conv).value, Undefined)


def test_empty_matrix_shapes():
    assert compute("confusion_matrix", {"y_true": [], "y_pred": []}).value == []
    assert compute("confusion_matrix", {"y_true": [], "y_pred": [], "labels": ["a", "b"]}).value == [[0, 0], [0, 0]]
    assert compute("per_class_accuracy", {"y_true": [], "y_pred": []}).value == {}


def test_weighted_average_with_no_support_under_each_no_weight_rule():
    """Declared classes 0 and 1, every true label outside them (kept): supports 0, 0, so the
    weighted mean has no weight. By hand: predictions 0 and 1 once each, no true positive.
    Class 0: P = 0/1 = 0, R = 0/0; class 1: P = 0, R = 0/0; F = 0/(0 + 0 + 1) = 0 each.
    undefined: no value; unweighted (sklearn >= 1.3): plain mean of the values left -
    P (0 + 0)/2 = 0, R under zero_division one (1 + 1)/2 = 1; zero-if-predicted (sklearn
    0.22-1.2): something is predicted, so P = F = 0 and R = zero_division = 1."""
    from oracle.registry import compute
    inputs = {"y_true": [5, 5], "y_pred": [0, 1], "labels": [0, 1]}
    base = {"outside": "keep", "average": "weighted", "zero_division": "one"}
    assert isinstance(compute("precision", inputs, base).value, Undefined)
    un = dict(base, no_weight="unweighted")
    assert (compute("precision", inputs, un).value, compute("recall", inputs, un).value) == (0, 1)
    zp = dict(base, no_weight="zero-if-predicted")
    assert [compute(m, inputs, zp).value for m in ("precision", "recall", "f1")] == [0, 1, 0]
    # nothing predicted inside the classes either: all three are the zero_division value
    none = {"y_true": [5, 5], "y_pred": [5, 5], "labels": [0, 1]}
    assert [compute(m, none, zp).value for m in ("precision", "recall", "f1")] == [1, 1, 1]


def test_ignore_index_leaves_out_the_samples_of_one_true_label():
    # an independent formulation: the knob equals deleting those samples from the input
    inputs = {"y_true": [3, -100, 1, 3, -100, 2], "y_pred": [3, 3, 2, 1, -100, 2]}
    kept = {"y_true": [3, 1, 3, 2], "y_pred": [3, 2, 1, 2]}
    for m, conv in (("accuracy", {}), ("confusion_matrix", {}), ("precision", {"average": "none"}),
                    ("recall", {"average": "macro"}), ("f1", {"average": "weighted"}), ("balanced_accuracy", {})):
        a = get_metric(m).compute(inputs, {**conv, "ignore_index": "-100"})
        b = get_metric(m).compute(kept, conv)
        assert a.value == b.value and a.stats == b.stats, m


# ------------------------------------------------------------ sample weights

_WEIGHTED = ("confusion_matrix", "accuracy", "per_class_accuracy", "precision", "recall", "f1",
             "balanced_accuracy", "classification_report")


@given(classification_inputs(max_samples=8), st.lists(st.integers(0, 3), min_size=8, max_size=8),
       st.sampled_from(_WEIGHTED), st.sampled_from(("macro", "micro", "weighted", "none")))
def test_integer_weights_are_repeated_samples(inputs, ws, metric, average):
    # an independent formulation: a weight w is the sample written w times (0: not at all,
    # but its labels stay in the union label set, so the union is declared on both sides)
    n = len(inputs["y_true"])
    ws = ws[:n]
    labels = inputs.get("labels") or sorted(set(inputs["y_true"]) | set(inputs["y_pred"]))
    settings = {"average": average} if metric in ("precision", "recall", "f1") else {}
    weighted = {**inputs, "labels": labels, "sample_weight": ws}
    repeated = {"labels": labels,
                "y_true": [t for t, w in zip(inputs["y_true"], ws) for _ in range(w)],
                "y_pred": [p for p, w in zip(inputs["y_pred"], ws) for _ in range(w)]}
    got = compute(metric, weighted, settings)
    want = compute(metric, repeated, settings)
    assert str(got.value) == str(want.value) or got.value == want.value


def test_weights_scale_out_and_read_exactly():
    base = {"y_true": [0, 1, 1, 2], "y_pred": [0, 1, 2, 2]}
    # one weight for all (a float, a text, a Fraction) is the unweighted value
    for w in (0.5, "3/7", Fraction(5, 2), 10):
        assert compute("f1", {**base, "sample_weight": [w] * 4}, {}).value == compute("f1", base, {}).value
    # 0.1 is read as its exact binary value, not as 1/10: accuracy = 1 * 0.1 / (0.1 + 1)
    v = compute("accuracy", {"y_true": [0, 1], "y_pred": [0, 0], "sample_weight": [0.1, 1]}, {}).value
    assert v == Fraction(0.1) / (Fraction(0.1) + 1) and v != Fraction(1, 11)


def test_weights_are_refused_where_they_are_not_counts():
    base = {"y_true": [0, 1], "y_pred": [0, 1]}
    for ws, item in (([1, -2], "sample_weight[1]"), ([1, float("inf")], "sample_weight[1]"),
                     ([False, 1], "sample_weight[0]"), ([1], "sample_weight"), ("1 1", "sample_weight"),
                     ([1, None], "sample_weight[1]")):
        with pytest.raises(InputError) as e:
            compute("accuracy", {**base, "sample_weight": ws}, {})
        assert e.value.item == item, ws
    with pytest.raises(InputError, match="1 weights but y_true has 2"):
        compute("accuracy", {"y_true": [[0, 1], [1, 1]], "y_pred": [[0, 1], [1, 0]], "sample_weight": [1]}, {})


@given(st.integers(1, 5), st.integers(2, 4), st.data(), st.sampled_from(("precision", "recall", "f1", "accuracy")),
       st.sampled_from(("macro", "micro", "weighted", "samples", "none")))
def test_integer_weights_on_indicator_rows_are_repeated_rows(n, width, data, metric, average):
    # the same independent formulation on multilabel indicator rows (weighted label counts,
    # the weighted mean of the rows under samples, weighted subset accuracy)
    row = st.lists(st.integers(0, 1), min_size=width, max_size=width)
    yt = data.draw(st.lists(row, min_size=n, max_size=n))
    yp = data.draw(st.lists(row, min_size=n, max_size=n))
    ws = data.draw(st.lists(st.integers(0, 3), min_size=n, max_size=n).filter(any))
    settings = {"average": average, "zero_division": "zero"} if metric != "accuracy" else {}
    got = compute(metric, {"y_true": yt, "y_pred": yp, "sample_weight": ws}, settings)
    want = compute(metric, {"y_true": [r for r, w in zip(yt, ws) for _ in range(w)],
                            "y_pred": [r for r, w in zip(yp, ws) for _ in range(w)]}, settings)
    assert got.value == want.value


# ------------------------------------------------------------ rows of class scores (top_k)

from conformance.strategies.classification import _scores_for  # noqa: E402


@given(_scores_for({}), st.integers(1, 4), st.sampled_from(("precision", "recall", "f1", "accuracy")),
       st.sampled_from(("macro", "micro", "weighted", "none")))
def test_score_rows_predict_by_argmax_or_the_target_among_the_top_k(inputs, k, metric, average):
    # an independent formulation: NumPy's argmax (its documented first of equal maxima) and
    # its stable argsort of the negated scores for the k highest
    import numpy as np
    classes = inputs["labels"]
    assume(k <= len(classes))
    scores = np.array([[float(x) for x in r] for r in inputs["y_score"]])
    y_pred = []
    for t, row in zip(inputs["y_true"], scores):
        top = [classes[j] for j in np.argsort(-row, kind="stable")[:k]]
        y_pred.append(t if t in top else classes[int(np.argmax(row))])
    settings = {"top_k": str(k)}
    if metric != "accuracy":
        settings["average"] = average
    want = compute(metric, {"y_true": inputs["y_true"], "y_pred": y_pred, "labels": classes}, settings).value
    assert compute(metric, inputs, settings).value == want


@st.composite
def _distinct_score_rows(draw):
    c = draw(st.integers(3, 5))
    n = draw(st.integers(1, 8))
    rows = [[Fraction(x, 8) for x in draw(st.permutations(range(c)))] for _ in range(n)]
    return {"y_true": [draw(st.integers(0, c - 1)) for _ in range(n)], "y_score": rows, "labels": list(range(c))}


@given(_distinct_score_rows(), st.integers(1, 5))
def test_top_k_accuracy_of_distinct_scores_is_the_share_of_hits(inputs, k):
    # with distinct scores no tie rule matters: the score-ranking family's top_k_accuracy agrees
    assume(k <= len(inputs["labels"]))
    got = compute("accuracy", inputs, {"top_k": str(k)}).value
    assert got == compute("top_k_accuracy", inputs, {"k": str(k)}).value
    if k == len(inputs["labels"]):
        assert got == 1


def test_score_rows_are_refused_with_the_offending_row_named():
    with pytest.raises(InputError) as e:
        compute("accuracy", {"y_true": [0, 1], "y_score": [[1, 0], [0, 1, 2]]}, {})
    assert e.value.item == "y_score[1]"
    with pytest.raises(InputError, match="top_k: 3 is more than the 2 classes"):
        compute("accuracy", {"y_true": [0], "y_score": [[1, 0]]}, {"top_k": "3"})


def test_the_ignored_label_is_no_class_of_the_averages():
    # torchmetrics' tracker, issue 2441: y_true [0, 0, 1, 1], predictions [0, 0, 0, 1], ignore 0.
    # Samples 0 and 1 (true 0) leave; the classes are {1}: R_1 = 1/2 (sample 2, true 1, predicted
    # the ignored 0, is a miss), so the macro mean is 1/2, not (0 + 1/2)/2.
    x = {"y_true": [0, 0, 1, 1], "y_pred": [0, 0, 0, 1]}
    assert compute("recall", x, {"ignore_index": "0", "average": "macro"}).value == Fraction(1, 2)
    assert compute("recall", x, {"ignore_index": "0", "average": "none"}).value == {1: Fraction(1, 2)}
    # issue 1692: a perfect predictor with class 0 ignored has macro precision 1 (not 2/3)
    y = [0, 1, 2, 0, 1, 2]
    assert compute("precision", {"y_true": y, "y_pred": y}, {"ignore_index": "0", "average": "macro"}).value == 1
    # accuracy counts the miss: (1, 0) is wrong, (1, 1) right: 1/2
    assert compute("accuracy", x, {"ignore_index": "0"}).value == Fraction(1, 2)
    # a declared ignored label is not a class either
    d = {**x, "labels": [0, 1]}
    assert compute("recall", d, {"ignore_index": "0", "average": "macro"}).value == Fraction(1, 2)
