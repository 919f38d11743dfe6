"""The scikit-learn adapter: configuration, agreement with the oracle on hand-checked
inputs, unsupported settings, and the recorded known failures."""
from __future__ import annotations

import inspect
import json

from conformance.protocol import Skip  # noqa: E402
from conformance.casefiles.known import same_library_value  # noqa: E402
from conformance.casefiles.known import _number  # NaN and infinities are stored as strings
import math

import pytest

pytest.importorskip("sklearn")

from adapters import BUILTIN, load_adapter  # noqa: E402
from conformance.casefiles.cases import parse_expected  # noqa: E402
from conformance.engine.judge import judge  # noqa: E402
from conformance.casefiles.known import KnownIndex, load_known  # noqa: E402
from conformance.protocol import Configured, Unsupported  # noqa: E402
from oracle.compare import compare_value  # noqa: E402
from oracle.exact import Undefined, exact_json, exact_str, is_structured
from oracle.certified import same_value  # noqa: E402
from oracle.registry import get_metric  # noqa: E402
from tests.adapter_helpers import (configure as _configure, run as _run, known_file, is_invalid_entry, in_installed_range,
                                   exact_from_table, on_bad_input_rows,
                                   check_invalid_entry, defect_is_recorded)  # noqa: E402



@pytest.fixture(scope="module")
def sk():
    return load_adapter("sklearn")


# ----------------------------------------------------------------- registry and profiles

def test_registry_names_the_adapter(sk):
    assert BUILTIN["sklearn"] == "adapters.sklearn:SKLearn"
    info = sk.info()
    assert (info.name, info.library) == ("sklearn", "scikit-learn")
    assert set(info.metrics) == {"confusion_matrix", "accuracy", "per_class_accuracy", "precision", "recall",
                                 "f1", "balanced_accuracy", "classification_report", "score_average_precision",
                                 "label_ranking_average_precision", "score_dcg", "score_ndcg",
                                 "top_k_accuracy", "matthews_corrcoef", "cohen_kappa", "multilabel_confusion_matrix"}
    assert sk.available() == (True, "")


def test_profiles_are_the_library_defaults(sk):
    from sklearn import metrics as M

    for fn in (M.precision_score, M.recall_score, M.f1_score):
        params = inspect.signature(fn).parameters
        assert params["average"].default == "binary" and params["pos_label"].default == 1
        assert params["zero_division"].default == "warn" and params["labels"].default is None
    assert inspect.signature(M.classification_report).parameters["zero_division"].default == "warn"
    assert inspect.signature(M.balanced_accuracy_score).parameters["adjusted"].default is False
    for metric in ("precision", "recall", "f1"):
        p = sk.profile(metric)
        assert (p["average"], p["zero_division"], p["label_set"], p["outside"]) == ("binary", "zero", "auto", "error")
    assert sk.profile("f1")["beta"] == "1"
    assert sk.profile("confusion_matrix")["outside"] == "drop"
    assert sk.profile("classification_report")["outside"] == "keep"
    assert sk.profile("balanced_accuracy")["adjusted"] == "no"


def test_options_map_the_knobs_onto_arguments(sk):
    cfg = _configure(sk, "precision", {"average": "none", "zero_division": "exclude", "label_set": "union"})
    # outside is passed on where the adapter reads it (a non-binary average: error cannot refuse)
    assert cfg.options == {"label_set": "union", "average": None, "zero_division": "nan", "outside": "error"}
    cfg = _configure(sk, "f1", {"average": "weighted", "zero_division": "one", "beta": "1/2"})
    assert cfg.options["average"] == "weighted" and cfg.options["zero_division"] == 1
    assert cfg.options["beta"] == 0.5
    assert _configure(sk, "recall", {}).options == {"label_set": "auto", "average": "binary",
                                                    "zero_division": "warn"}
    assert _configure(sk, "balanced_accuracy", {"adjusted": "yes"}).options["adjusted"] is True


# ------------------------------------------------- agreement on hand-checked inputs

# A: y_true [0,0,1,1,2], y_pred [0,1,1,1,0]. Pairs (0,0) (0,1) (1,1) (1,1) (2,0): rows (true)
# [1,1,0], [0,2,0], [1,0,0]. tp = [1,2,0], support = [2,2,1], predicted = [2,3,0],
# fp = [1,1,0], fn = [1,0,1].
A = {"y_true": [0, 0, 1, 1, 2], "y_pred": [0, 1, 1, 1, 0]}
# B: labels [0, 1] with a true 2 (sample 3) and a predicted 2 (sample 4).
B = {"y_true": [0, 0, 1, 2, 1], "y_pred": [0, 1, 1, 0, 2], "labels": [0, 1]}
# binary: pairs (0,1) (1,1) (1,0) (0,0) (1,0); positive class 1: tp 1, fp 1, fn 2.
BIN = {"y_true": [0, 1, 1, 0, 1], "y_pred": [1, 1, 0, 0, 0]}

U = "undefined"

AGREE = [
    # sample weights [1, 2, 1/2, 1/4] (floats sklearn holds exactly): cells (0,0) 1 + 1/4, (1,1) 2,
    # (1,0) 1/2; N = 15/4; accuracy (5/4 + 2)/(15/4) = 13/15
    ("confusion_matrix", {}, {"y_true": [0, 1, 1, 0], "y_pred": [0, 1, 0, 0], "sample_weight": [1, 2, 0.5, 0.25]},
     [["5/4", "0"], ["1/2", "2"]]),
    ("accuracy", {}, {"y_true": [0, 1, 1, 0], "y_pred": [0, 1, 0, 0], "sample_weight": [1, 2, 0.5, 0.25]}, "13/15"),
    ("confusion_matrix", {}, A, [["1", "1", "0"], ["0", "2", "0"], ["1", "0", "0"]]),
    # declared order dog, cat, bird: dog->cat; cat->cat, cat->dog; bird->bird
    ("confusion_matrix", {}, {"y_true": ["cat", "dog", "bird", "cat"], "y_pred": ["cat", "cat", "bird", "dog"],
                              "labels": ["dog", "cat", "bird"]},
     [["0", "1", "0"], ["1", "1", "0"], ["0", "0", "1"]]),
    # outside=drop (the profile): samples 3 and 4 leave; (0,0) (0,1) (1,1) remain
    ("confusion_matrix", {}, B, [["1", "1"], ["0", "1"]]),
    # union ignores the declared list: classes 0, 1, 2 and nothing is dropped
    ("confusion_matrix", {"label_set": "union"}, B, [["1", "1", "0"], ["0", "1", "1"], ["1", "0", "0"]]),
    # diagonal 1 + 2 + 0 over 5
    ("accuracy", {}, A, "3/5"),
    # rows over their sums: 1/2, 2/2; class 2 in labels [0,1,2] of the second input has no row
    ("per_class_accuracy", {}, A, {0: "1/2", 1: "1", 2: "0"}),
    ("per_class_accuracy", {}, {"y_true": [0, 0, 1, 1], "y_pred": [0, 2, 1, 0], "labels": [0, 1, 2]},
     {0: "1/2", 1: "1/2", 2: U}),
    # binary (the profile): P = 1/(1+1), R = 1/(1+2), F1 = 2*1/(2*1 + 2 + 1)
    ("precision", {}, BIN, "1/2"),
    ("recall", {}, BIN, "1/3"),
    ("f1", {}, BIN, "2/5"),
    # string classes with pos_label spam: (spam,spam) (ham,spam) (spam,ham): tp 1, fp 1
    ("precision", {}, {"y_true": ["spam", "ham", "spam"], "y_pred": ["spam", "spam", "ham"], "pos_label": "spam"},
     "1/2"),
    # P = [1/2, 2/3, 0/0 -> 0]: macro (1/2 + 2/3 + 0)/3 = 7/18
    ("precision", {"average": "macro"}, A, "7/18"),
    # zero_division=1: (1/2 + 2/3 + 1)/3 = 13/18
    ("precision", {"average": "macro", "zero_division": "one"}, A, "13/18"),
    # np.nan: class 2 leaves the mean: (1/2 + 2/3)/2 = 7/12
    ("precision", {"average": "macro", "zero_division": "exclude"}, A, "7/12"),
    # weighted by support 2, 2, 1: (1 + 4/3 + 0)/5 = 7/15
    ("precision", {"average": "weighted"}, A, "7/15"),
    # weighted, class 2 excluded: (2*1/2 + 2*2/3)/4 = 7/12
    ("precision", {"average": "weighted", "zero_division": "exclude"}, A, "7/12"),
    # pooled: 3 correct of 5 predictions
    ("precision", {"average": "micro"}, A, "3/5"),
    ("precision", {"average": "micro", "zero_division": "undefined"}, A, "3/5"),
    ("precision", {"average": "none"}, A, {0: "1/2", 1: "2/3", 2: "0"}),
    ("precision", {"average": "none", "zero_division": "undefined"}, A, {0: "1/2", 1: "2/3", 2: U}),
    # keep: predictions of 0 are samples 0 (right) and 3 (true 2), of 1 samples 1 and 2: P = 1/2, 1/2
    ("precision", {"average": "macro", "outside": "keep"}, B, "1/2"),
    # R = [1/2, 1, 0]: macro 1/2; weighted (1 + 2 + 0)/5 = 3/5
    ("recall", {"average": "macro"}, A, "1/2"),
    ("recall", {"average": "weighted"}, A, "3/5"),
    # F1 = 2tp/(2tp + fn + fp): 2/4, 4/5, 0/1: macro (1/2 + 4/5)/3 = 13/30
    ("f1", {"average": "macro"}, A, "13/30"),
    # beta 2: 5tp/(5tp + 4fn + fp): 5/10, 10/11, 0/4: (1/2 + 10/11)/3 = 31/66
    ("f1", {"average": "macro", "beta": "2"}, A, "31/66"),
    # beta 1/3 (b^2 = 1/9, times 9): 10tp/(10tp + fn + 9fp): 10/20, 20/29, 0/1: (1/2 + 20/29)/3 = 23/58
    ("f1", {"average": "macro", "beta": "1/3"}, A, "23/58"),
    # beta 0 is precision: 7/18
    ("f1", {"average": "macro", "beta": "0"}, A, "7/18"),
    # mean recall over the classes with samples: (1/2 + 1 + 0)/3 = 1/2; adjusted (1/2 - 1/3)/(2/3) = 1/4
    ("balanced_accuracy", {}, A, "1/2"),
    ("balanced_accuracy", {"adjusted": "yes"}, A, "1/4"),
    # one class, all right: (1 - 1)/(1 - 1) has no value and sklearn gives NaN: both undefined
    ("balanced_accuracy", {"adjusted": "yes"}, {"y_true": [0, 0], "y_pred": [0, 0]}, U),
    ("classification_report", {}, A, {
        "0": {"precision": "1/2", "recall": "1/2", "f1-score": "1/2", "support": "2"},
        "1": {"precision": "2/3", "recall": "1", "f1-score": "4/5", "support": "2"},
        "2": {"precision": "0", "recall": "0", "f1-score": "0", "support": "1"},
        "accuracy": "3/5",
        "macro avg": {"precision": "7/18", "recall": "1/2", "f1-score": "13/30", "support": "5"},
        # weighted: P (1 + 4/3)/5 = 7/15, R (1 + 2)/5 = 3/5, F (1 + 8/5)/5 = 13/25
        "weighted avg": {"precision": "7/15", "recall": "3/5", "f1-score": "13/25", "support": "5"}}),
    # keep: class 0 P 1/2 (samples 0, 3), R 1/2 (samples 0, 1), F 2/4; class 1 P 1/2 (1, 2), R 1/2
    # (2, 4), F 2/4; a label outside: "micro avg", pooled tp 2 of 4 predictions and 4 samples
    ("classification_report", {}, B, {
        "0": {"precision": "1/2", "recall": "1/2", "f1-score": "1/2", "support": "2"},
        "1": {"precision": "1/2", "recall": "1/2", "f1-score": "1/2", "support": "2"},
        "micro avg": {"precision": "1/2", "recall": "1/2", "f1-score": "1/2", "support": "4"},
        "macro avg": {"precision": "1/2", "recall": "1/2", "f1-score": "1/2", "support": "4"},
        "weighted avg": {"precision": "1/2", "recall": "1/2", "f1-score": "1/2", "support": "4"}}),
]


def _expected(x):
    if isinstance(x, list):
        return [_expected(v) for v in x]
    if isinstance(x, dict):
        return {k: _expected(v) for k, v in x.items()}
    return Undefined("by hand") if x == U else parse_expected(x)


def _same_shape_and_values(oracle_value, hand) -> bool:
    if isinstance(hand, Undefined):
        return isinstance(oracle_value, Undefined)
    if isinstance(hand, list):
        return isinstance(oracle_value, list) and len(oracle_value) == len(hand) and all(
            _same_shape_and_values(o, h) for o, h in zip(oracle_value, hand))
    if isinstance(hand, dict):
        return isinstance(oracle_value, dict) and list(oracle_value) == list(hand) and all(
            _same_shape_and_values(oracle_value[k], h) for k, h in hand.items())
    return same_value(oracle_value, hand)


@pytest.mark.parametrize("metric,conv,inputs,hand", AGREE,
                         ids=[f"{m}-{i}" for i, (m, *_r) in enumerate(AGREE)])
def test_adapter_agrees_with_the_oracle(sk, metric, conv, inputs, hand):
    cfg, out, res = _run(sk, metric, conv, inputs)
    assert _same_shape_and_values(res.value, _expected(hand)), (exact_json(res.value), hand)
    c = compare_value(out.value, res.value, sk.tolerance(metric))
    assert c.agrees, (c.to_json(), out.value)
    # the library's structure carries the oracle's keys: labels for per-class values,
    # sklearn's string label keys in the report
    if isinstance(res.value, dict):
        assert list(out.value) == list(res.value)


def test_fbeta_is_called_with_beta_and_f1_without(sk, monkeypatch):
    from sklearn import metrics as M

    calls = []
    real_f1, real_fb = M.f1_score, M.fbeta_score
    monkeypatch.setattr(M, "f1_score", lambda *a, **k: calls.append("f1") or real_f1(*a, **k))
    monkeypatch.setattr(M, "fbeta_score", lambda *a, **k: calls.append(("fbeta", k["beta"])) or real_fb(*a, **k))
    _run(sk, "f1", {"average": "macro"}, A)
    _run(sk, "f1", {"average": "macro", "beta": "2"}, A)
    assert calls == ["f1", ("fbeta", 2.0)]


def test_binary_profile_refuses_multiclass_like_the_oracle(sk):
    # sklearn's default average='binary' raises on three classes; the oracle refuses the input
    # too (InputError), so the suite never counts it against the library
    settings = sk.profile("precision")
    v = judge(sk, "precision", settings, A)
    assert v.status == "oracle-error" and "average=binary" in v.message
    with pytest.raises(ValueError, match="Target is multiclass but average='binary'"):
        sk.run(_configure(sk, "precision", {}), A)


# ------------------------------------------------------------ unsupported settings

UNSUPPORTED = [
    ("precision", {"average": "macro", "zero_division": "undefined"}, "zero_division"),
    ("recall", {"average": "weighted", "zero_division": "undefined"}, "zero_division"),
    ("precision", {"outside": "keep"}, "outside"),            # with the binary profile
    ("f1", {"average": "macro", "outside": "drop"}, "outside"),
    ("accuracy", {"outside": "drop"}, "outside"),
    ("per_class_accuracy", {"outside": "drop"}, "outside"),
    ("balanced_accuracy", {"outside": "drop"}, "outside"),
    ("classification_report", {"zero_division": "undefined"}, "zero_division"),
    ("classification_report", {"outside": "drop"}, "outside"),
]


@pytest.mark.parametrize("metric,conv,knob", UNSUPPORTED, ids=[f"{m}-{k}-{i}" for i, (m, _c, k) in
                                                                enumerate(UNSUPPORTED)])
def test_unsupported_settings_name_the_knob(sk, metric, conv, knob):
    cfg = sk.configure(metric, {**sk.profiles[metric], **conv})
    assert isinstance(cfg, Unsupported)
    assert cfg.reason.startswith(f"{knob}="), cfg.reason


# ----------------------------------------------------------------- known failures

def _file():
    return known_file("sklearn")


ENTRIES = _file()["entries"]
HERE = [e for e in ENTRIES if in_installed_range("scikit-learn", e)]


def test_known_failure_file_is_well_formed(sk):
    data = _file()
    assert (data["adapter"], data["library"]) == ("sklearn", "scikit-learn")
    ids = [e["id"] for e in ENTRIES]
    assert len(ids) == len(set(ids))
    for e in ENTRIES:
        assert e["kind"] in ("convention", "defect")
        assert (e["kind"] == "convention") == bool(e.get("knobs"))
        assert e["kind"] != "defect" or defect_is_recorded(e)
        assert e["explanation"].startswith("By hand:")
        assert e["id"].startswith(f"sklearn-{e['metric']}-")
        if e.get("classifier"):
            assert e["classifier"] in sk.defect_classifiers()
    assert len(load_known("sklearn")) == len(ENTRIES)


def _library_value(a, cfg, inputs):
    try:
        return a.run(cfg, inputs).value
    except Exception as e:  # the recorded form of a raise, as the judge writes it
        return f"raised {type(e).__name__}: {e}"


def _same_library_value(got, recorded) -> bool:
    if isinstance(recorded, str) and not recorded.startswith("raised "):
        # "-inf", "nan": the repr of the float
        return isinstance(got, float) and (repr(got) == recorded or (recorded == "nan" and got != got))
    if isinstance(recorded, dict):   # a report: NaN leaves equal NaN
        return same_library_value(got, recorded)
    if isinstance(got, float) and isinstance(recorded, float) and got != got and recorded != recorded:
        return True   # NaN is the recorded NaN
    return got == recorded and type(got) is type(recorded)


@pytest.mark.parametrize("entry", HERE, ids=[e["id"] for e in HERE])
def test_known_failure_reproduces(sk, entry):
    if _file()["version"] != sk.version():
        pytest.skip(f"recorded against scikit-learn {_file()['version']}, installed {sk.version()}")
    metric = entry["metric"]
    if is_invalid_entry(entry):
        return check_invalid_entry(sk, entry)
    cfg = _configure(sk, metric, entry["conventions"])
    res = get_metric(metric).compute(entry["inputs"], cfg.settings)
    got = _library_value(sk, cfg, entry["inputs"])
    # the library still returns (or raises) what was recorded
    assert _same_library_value(got, _number(entry["library_value"])), (got, entry["library_value"])
    # the recorded exact value is the oracle's, in the text the runner's replay compares
    shown = json.dumps(exact_json(res.value), ensure_ascii=False) if is_structured(res.value) \
        else exact_str(res.value)
    assert entry["exact"] == shown
    # and the two disagree: a raise, or a value outside the tolerance (or, where the value is
    # undefined, an undeclared NaN: judged below)
    if not str(got).startswith("raised ") and not isinstance(res.value, Undefined):
        assert not compare_value(got, res.value, sk.tolerance(metric)).agrees
    if entry.get("classifier"):
        assert sk.defect_classifiers()[entry["classifier"]](metric, cfg.settings, entry["inputs"])
    v = judge(sk, metric, cfg.settings, entry["inputs"], explain_it=False)
    assert v.status in ("disagree", "error")


def test_recorded_exact_values_match_the_hand_derivations():
    # each entry's exact value, derived by hand in its explanation
    by_id = {e["id"]: e for e in ENTRIES}
    hand = {
        "sklearn-confusion_matrix-0001": [],                       # K = 0
        "sklearn-confusion_matrix-0009": [["0"]],                  # the only sample is dropped
        "sklearn-per_class_accuracy-0008": {"0": U},               # class 0 has no row
        "sklearn-confusion_matrix-0200": [["0"]],                  # the one sample has weight 0
        "sklearn-per_class_accuracy-0207": {"0": U},               # class 0's row weighs 0
        "sklearn-multilabel_confusion_matrix-0001": [],            # no label, no matrix
        "sklearn-multilabel_confusion_matrix-0200": [[["0", "0"], ["0", "0"]]],   # the one sample weighs 0
    }
    # tp 0, fp 1, fn 1: F1 = 2 tp / (2 tp + fp + fn) = 0/2, no zero division (the 1.3 entries)
    assert by_id["sklearn-f1-0101"]["exact"] == by_id["sklearn-f1-0102"]["exact"] == "0"
    hand.update({"sklearn-f1-0101": None, "sklearn-f1-0102": None})
    # both weights 0: no weighted relevant item (R_w = 0), which the profile's no_relevant=zero
    # (scikit-learn's own rule) scores 0; the library refuses the weights first
    assert by_id["sklearn-score_average_precision-0001"]["exact"] == "0"
    hand["sklearn-score_average_precision-0001"] = None
    # one document of grade 3: DCG = 3 / log2(2) = 3, its own ideal: NDCG = 1 (both refused)
    assert by_id["sklearn-score_dcg-0002"]["exact"] == "3" and by_id["sklearn-score_ndcg-0002"]["exact"] == "1"
    hand.update({"sklearn-score_dcg-0002": None, "sklearn-score_ndcg-0002": None})
    for i, expected in hand.items():
        if expected is None:
            continue
        assert _same_shape_and_values(parse_expected(json.loads(by_id[i]["exact"])), _expected(expected))
    for e in ENTRIES:
        if on_bad_input_rows(e):   # recorded on bad-input rows: the table's hand-derived outcome
            assert exact_from_table(e), e["id"]
        elif e["id"] not in hand and e["metric"] != "classification_report":
            assert e["exact"].startswith(("undefined(", "error(")), e["id"]


# an input each classifier must not fire on, under the entry's settings, where the library
# agrees with the oracle; and a near miss beside each
CLEAN = {
    "empty-input-raises": [A, {"y_true": [0], "y_pred": [1]}],
    # one true label among the declared ones is enough for confusion_matrix
    "no-declared-label-in-y-true": [A, {"y_true": [1, 0], "y_pred": [0, 0], "labels": [0]}],
    # two classes with samples
    "adjusted-single-class-division": [A, {"y_true": [0, 1], "y_pred": [0, 0]}],
    "adjusted-single-class-nan": [A, {"y_true": [0, 1], "y_pred": [0, 1]}],
    # one weight not 0 is enough
    "all-zero-weights-raise": [{"y_true": [0, 1], "y_pred": [0, 1], "sample_weight": [0, 0.5]}],
    # the score-ranking metrics' inputs (one weight 0 beside a positive one)
    ("all-zero-weights-raise", "score_dcg"): [{"y_true": [[1, 0], [0, 2]], "y_score": [[0.5, 0.1], [0.2, 0.3]],
                                               "sample_weight": [0, 2]}],
    ("all-zero-weights-raise", "score_ndcg"): [{"y_true": [[1, 0], [0, 2]], "y_score": [[0.1, 0.5], [0.2, 0.3]],
                                                "sample_weight": [0, 2]}],
    ("all-zero-weights-raise", "top_k_accuracy"): [{"y_true": [0, 1, 2], "y_score": [[3, 2, 1]] * 3,
                                                    "sample_weight": [0, 1, 2]}],
    ("all-zero-weights-raise", "score_average_precision"): [{"y_true": [1, 0, 1], "y_score": [0.9, 0.8, 0.1],
                                                             "sample_weight": [1, 2, 0]}],
    # two documents in a row are enough
    "one-document-rows-refused": [{"y_true": [[3, 0]], "y_score": [[0.2, 0.1]]}],
}


@pytest.mark.parametrize("entry", [e for e in HERE if e.get("classifier")],
                         ids=[e["id"] for e in HERE if e.get("classifier")])
def test_classifier_does_not_fire_on_a_clean_input(sk, entry):
    metric = entry["metric"]
    cfg = _configure(sk, metric, entry["conventions"])
    for clean in CLEAN.get((entry["classifier"], metric)) or CLEAN[entry["classifier"]]:
        try:
            out = sk.run(cfg, clean)
        except Skip as e:   # label_set=declared on a clean input without labels
            assert entry["conventions"].get("label_set") == "declared", e
            continue
        res = get_metric(metric).compute(clean, cfg.settings)
        assert compare_value(out.value, res.value, sk.tolerance(metric)).agrees, (clean, out.value)
        assert not sk.defect_classifiers()[entry["classifier"]](metric, cfg.settings, clean), clean


def test_engine_recognises_every_entry(sk):
    index = KnownIndex(sk, load_known("sklearn"))
    for e in index.entries:
        settings = get_metric(e.metric).settings({**sk.profiles[e.metric], **e.conventions})
        found = index.recognise(e.metric, settings, e.inputs, None, library_value=e.library_value)
        assert found is not None and found.classifier == e.classifier, e.id


def test_adjusted_balanced_accuracy_is_minus_infinity_below_a_perfect_single_class(sk):
    # recall 1/2 of the one class: (1/2 - 1)/(1 - 1) -> -inf in float64; the oracle: undefined
    cfg = _configure(sk, "balanced_accuracy", {"adjusted": "yes"})
    out = sk.run(cfg, {"y_true": [0, 0], "y_pred": [0, 1]})
    assert out.value == -math.inf


@pytest.mark.parametrize("metric,prop,examples", [
    ("balanced_accuracy", "oracle-equal[adjusted=yes]", 60),
    # every true label outside the declared list is rarer among the drawn inputs
    ("confusion_matrix", "oracle-equal", 200)])
def test_property_tests_find_the_recorded_defects_on_their_own(sk, metric, prop, examples):
    """With an empty known-failure list the property finds a disagreement by itself and
    shrinks it; the recorded list recognises that minimal input."""
    from conformance.engine.properties import _settings_for, run_property

    r = run_property(sk, metric, prop, KnownIndex(sk, []), examples=examples)
    assert r.outcome in ("fail", "error"), r.message
    assert len(r.inputs["y_true"]) <= 2, r.inputs
    full = KnownIndex(sk, load_known("sklearn"))
    assert full.recognise(metric, _settings_for(sk, metric, prop), r.inputs, None, library_value=r.library_value) \
        is not None, r.inputs
