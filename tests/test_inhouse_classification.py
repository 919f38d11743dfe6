"""The engine finds document 003's classification mistakes by itself, in in-house functions."""
import json

from conformance.reports import writers as R
from conformance.casefiles.known import KnownIndex
from conformance.engine.properties import run_property
from conformance.engine.runner import run_all
from tests.inhouse_classification import (confusion_matrix_by_pairs, confusion_matrix_fancy_index,
                                          per_class_accuracy_by_rows, per_class_accuracy_swapped)

ALL = (confusion_matrix_fancy_index, confusion_matrix_by_pairs, per_class_accuracy_swapped,
       per_class_accuracy_by_rows)


def _prop(fn, metric, name="oracle-equal", examples=100):
    a = fn.adapter
    return run_property(a, metric, name, KnownIndex(a, []), examples)


def test_fancy_index_is_found_with_two_identical_pairs():
    r = _prop(confusion_matrix_fancy_index, "confusion_matrix")
    assert r.outcome == "fail", r.message
    y_true, y_pred = r.inputs["y_true"], r.inputs["y_pred"]
    # minimal: the defect needs a repeated (true, predicted) pair, so two samples, the same pair
    assert len(y_true) == 2 and (y_true[0], y_pred[0]) == (y_true[1], y_pred[1]), r.inputs
    # the repeated pair's cell holds 2 (counted pair by pair), the fancy index leaves 1
    exact = json.loads(r.exact)
    cell = r.comparison["path"]
    i, j = (int(x) for x in cell.strip("[]").split("]["))
    assert exact[i][j] == "2" and r.library_value[i][j] == 1
    # (normalize=... can match a 2-sample matrix by coincidence: rejected on the neighbours)
    assert r.explanation.startswith("no knob setting reproduces the library's value: a defect")
    assert r.reproduce.startswith("metric-conformance compare --adapter tests.inhouse_classification:confusion_matrix_fancy_index "
                                  "--metric confusion_matrix")


def test_swapped_orientation_is_found_with_one_misclassified_sample():
    r = _prop(per_class_accuracy_swapped, "per_class_accuracy")
    assert r.outcome == "fail", r.message
    y_true, y_pred = r.inputs["y_true"], r.inputs["y_pred"]
    # minimal: one sample predicted as another class. Its true class t has a row (a_t = 0/1)
    # but no prediction, so the swapped matrix leaves t's row empty ("not measured"), and the
    # predicted class gets the sample's row.
    assert len(y_true) == 1 and y_true[0] != y_pred[0], r.inputs
    t, p = y_true[0], y_pred[0]
    assert r.library_value[t] is None and r.library_value[p] == 0.0
    # the oracle: a_t = 0/1 = 0 (one sample, misclassified); class p has no samples
    exact = json.loads(r.exact)
    assert exact[str(t)] == "0" and exact[str(p)].startswith("undefined(class")
    assert r.explanation == "no knob setting reproduces the library's value: a defect"


def test_swapped_orientation_keeps_global_accuracy_but_not_the_per_class_figures():
    # document 003 (swapped example, case 46031bec): the transpose keeps the diagonal.
    # Printed matrix rows (true) [896, 4, 0], [2, 88, 0], [10, 0, 0]: by rows a = 896/900,
    # 88/90, 0/10; swapped, by the columns: 896/908, 88/92 and class 2 is never predicted.
    y_true = [0] * 900 + [1] * 90 + [2] * 10
    y_pred = [0] * 896 + [1] * 4 + [0] * 2 + [1] * 88 + [0] * 10
    inputs = {"y_true": y_true, "y_pred": y_pred}
    assert per_class_accuracy_by_rows(inputs) == {0: 896 / 900, 1: 88 / 90, 2: 0.0}
    assert per_class_accuracy_swapped(inputs) == {0: 896 / 908, 1: 88 / 92, 2: None}


def test_correct_forms_pass_every_property():
    for fn, metric in ((confusion_matrix_by_pairs, "confusion_matrix"),
                       (per_class_accuracy_by_rows, "per_class_accuracy")):
        for name in ("oracle-equal", "bounds", "invariance:sample-order"):
            r = _prop(fn, metric, name, examples=60)
            assert r.outcome == "pass", (fn.adapter.name, name, r.inputs, r.message)
            assert r.examples > 0


def test_run_all_reports_each_defect_and_passes_the_correct_forms(tmp_path):
    adapters = {fn.adapter.name: fn.adapter for fn in ALL}
    records = run_all(adapters, {n: n for n in adapters}, metrics=["confusion_matrix", "per_class_accuracy"],
                      examples=30, jobs=1)
    by = {}
    for r in records:
        by.setdefault(r.adapter, []).append(r)
    # the correct forms: nothing fails on valid inputs, and document 003's golden cases pass
    for name in ("confusion-matrix-by-pairs", "per-class-accuracy-by-rows"):
        bad = [(r.kind, r.test, r.outcome, r.message) for r in by[name]
               if r.outcome in ("fail", "error") and not r.test.startswith("bad-input.")]
        assert not bad, bad
        assert sum(r.kind == "golden" and r.outcome == "pass" for r in by[name]) >= 5
    outcome = {(r.adapter, r.kind, r.test): r.outcome for r in records}
    # but the document's loop checks no label's type, and the bad-input rows every run sends
    # show it: y_true [0, 1], y_pred [0, 2.5] (row 6, example 1) gives a 3 x 3 matrix with 2.5
    # as a third class, where the spec refuses a float label
    assert outcome[("confusion-matrix-by-pairs", "golden", "bad-input.classification.6.1")] == "fail"
    # the fancy index fails the document's own duplicate-pair case (cm_benar: 3 in cell (0, 1))
    assert outcome[("confusion-matrix-fancy-index", "golden", "32de8502")] == "fail"
    assert outcome[("confusion-matrix-fancy-index", "property", "oracle-equal")] == "fail"
    # the swapped orientation fails the document's printed per-class accuracies
    assert outcome[("per-class-accuracy-swapped", "golden", "fa523074")] == "fail"
    assert outcome[("per-class-accuracy-swapped", "property", "oracle-equal")] == "fail"
    # and the invariances cannot see either mistake: only the oracle can
    assert outcome[("confusion-matrix-fancy-index", "property", "invariance:sample-order")] == "pass"
    assert outcome[("per-class-accuracy-swapped", "property", "invariance:sample-order")] == "pass"
    head = R.header([a.info().to_json() for a in adapters.values()], [], {})
    text = R.console(records, head)
    assert "FAIL confusion-matrix-fancy-index" in text and "FAIL per-class-accuracy-swapped" in text
    # the correct forms fail only where the bad-input rows show their missing validation
    failing = [line for line in text.splitlines()
               if line.startswith(("FAIL confusion-matrix-by-pairs", "FAIL per-class-accuracy-by-rows"))]
    assert failing and all(" bad-input." in line for line in failing), failing
    R.write_all(records, head, md=tmp_path / "r.md")
    md = (tmp_path / "r.md").read_text()
    assert "confusion-matrix-fancy-index" in md and "reproduce:" in md
