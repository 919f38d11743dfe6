"""The torcheval adapter: registration, hand-checked values through the library, and every
recorded known failure reproduced: the library still returns the recorded value (or raises) on
the stored input, and where a defect has a model, the model predicts the library's value."""
from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

import pytest

pytest.importorskip("torcheval")

from adapters import BUILTIN, load_adapter  # noqa: E402
from conformance.protocol import Configured  # noqa: E402
from conformance.reports.records import decode_values  # noqa: E402
from oracle.registry import get_metric  # noqa: E402
from tests.adapter_helpers import run  # noqa: E402

KNOWN = json.loads((Path(__file__).resolve().parent.parent / "adapters" / "known_failures" / "torcheval.json")
                   .read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def a():
    return load_adapter("torcheval")


def test_the_adapter_is_registered_and_available(a):
    assert BUILTIN["torcheval"] == "adapters.torcheval:TorchEval"
    assert a.available() == (True, "")
    assert {"wer", "wil", "wip", "bleu", "perplexity", "accuracy", "precision", "recall", "f1",
            "confusion_matrix", "balanced_accuracy"} <= set(a.info().metrics)


def test_wer_by_hand(a):
    # 'a b c' -> 'a x c d': one substitution, one insertion over 3 reference words: 2/3
    _, out, res = run(a, "wer", {}, {"references": ["a b c"], "hypotheses": ["a x c d"]})
    assert res.value == Fraction(2, 3) and out.value == pytest.approx(2 / 3, rel=1e-15)


def test_bleu_takes_the_shortest_reference(a):
    # hyp 'a b' vs refs 'a b' and 'a': unigram 2/2, bigram 1/1, BP 1 under closest and under
    # shortest (c = 2 > r = 1): 1; the profile's ref_length is shortest
    _, out, res = run(a, "bleu", {"order": "2"}, {"hypotheses": ["a b"], "references": [["a b", "a"]]})
    assert a.profiles["bleu"]["ref_length"] == "shortest"
    assert res.value == 1 and out.value == pytest.approx(1.0, rel=1e-6)


def test_micro_precision_is_accuracy(a):
    inputs = {"y_true": [0, 1, 2, 2], "y_pred": [0, 2, 2, 1]}   # 2 of 4 correct
    _, out, res = run(a, "precision", {}, inputs)
    assert a.profiles["precision"]["average"] == "micro"
    assert res.value == Fraction(1, 2) and out.value == 0.5


@pytest.mark.parametrize("entry", KNOWN["entries"], ids=lambda e: e["id"])
def test_known_failure_is_reproduced(a, entry):
    m = get_metric(entry["metric"])
    settings = m.settings({**a.profiles[entry["metric"]], **entry["conventions"]})
    cfg = a.configure(entry["metric"], settings)
    assert isinstance(cfg, Configured)
    lib = decode_values(entry["library_value"])
    entry = dict(entry, inputs=decode_values(entry["inputs"]))
    if isinstance(lib, str) and lib.startswith("raised "):
        with pytest.raises(Exception) as e:
            a.run(cfg, entry["inputs"])
        assert type(e.value).__name__ in lib
        return
    value = a.run(cfg, entry["inputs"]).value
    if isinstance(lib, str):   # nan, inf as strings
        assert math.isnan(value) if lib == "nan" else value == float(lib)
    elif isinstance(lib, float) and not math.isfinite(lib):   # stored as {"$float": ...}
        assert math.isnan(value) if math.isnan(lib) else value == lib
    else:
        assert value == pytest.approx(lib, rel=1e-6)
    model = a.defect_models().get(entry.get("classifier"))
    if model is not None:
        predicted = model(entry["metric"], settings, entry["inputs"])
        if isinstance(predicted, float) and math.isnan(predicted):
            assert math.isnan(value)
        else:
            assert float(predicted) == pytest.approx(value, rel=1e-6)
    if entry.get("classifier"):
        assert a.defect_classifiers()[entry["classifier"]](entry["metric"], settings, entry["inputs"])


def test_binary_labels_other_than_0_and_1_are_renamed(a):
    # By hand: positive 'spam'; pairs (spam, spam), (ham, spam), (spam, ham): tp 1, fp 1: P = 1/2
    _, out, res = run(a, "precision", {"average": "binary"},
                      {"y_true": ["spam", "ham", "spam"], "y_pred": ["spam", "spam", "ham"], "pos_label": "spam"})
    assert res.value == Fraction(1, 2) and out.value == pytest.approx(0.5)


def test_multilabel_accuracy_is_subset_accuracy(a):
    # By hand: rows [1,0]/[1,0] equal, [0,1]/[1,1] not, [1,1]/[1,1] equal: 2/3
    _, out, res = run(a, "accuracy", {}, {"y_true": [[1, 0], [0, 1], [1, 1]], "y_pred": [[1, 0], [1, 1], [1, 1]]})
    assert res.value == Fraction(2, 3) and out.value == pytest.approx(2 / 3, rel=2 ** -22)


# torcheval's documented example (functional/ranking/reciprocal_rank.py docstring):
# per-sample reciprocal ranks [1, 1/3, 1/3, 1/2], and with k=2 [1, 0, 0, 1/2]; hit_rate
# (k=2) [1, 0, 0, 1] (hit_rate.py docstring)
_DOC = {"y_true": [2, 1, 1, 0], "y_score": [[0.3, 0.1, 0.6], [0.5, 0.2, 0.3], [0.2, 0.1, 0.7], [0.3, 0.3, 0.4]]}


def test_reciprocal_rank_of_the_documented_example(a):
    _, out, res = run(a, "label_reciprocal_rank", {}, _DOC)
    assert a.profiles["label_reciprocal_rank"] == {"k": "none", "ties": "optimistic"}
    assert res.value == Fraction(13, 24)                     # (1 + 1/3 + 1/3 + 1/2) / 4
    assert out.raw == pytest.approx([1.0, 1 / 3, 1 / 3, 0.5], rel=1e-7)   # float32 reciprocals
    assert float(out.value) == pytest.approx(13 / 24, rel=1e-7)
    _, out, res = run(a, "label_reciprocal_rank", {"k": "2"}, _DOC)
    assert res.value == Fraction(3, 8) and out.value == Fraction(3, 8)


def test_hit_rate_is_top_k_accuracy_with_the_target_first_among_ties(a):
    # sample 3: class 0 scores 0.3, one class above (0.4), tied with class 1: a hit at k=2 only
    # when the target comes first among its ties (the oracle's default, expected, counts it 1/2: 3/8)
    _, out, res = run(a, "top_k_accuracy", {"k": "2"}, _DOC)
    assert res.value == Fraction(1, 2) and out.value == Fraction(1, 2)
    assert out.raw == [1.0, 0.0, 0.0, 1.0]


# retrieval_precision's documented example (functional/ranking/retrieval_precision.py docstring):
# scores [0.2, 0.3, 0.5, 0.1, 0.3, 0.5, 0.2], targets [0, 0, 1, 1, 1, 0, 1]: 4 relevant of 7;
# the top 2 are the two 0.5s (d2 relevant, d5 not): 1/2; the top 4 add the two 0.3s (d1 not,
# d4 relevant): 2/4; k=10 divides the 4 relevant by 10, limit_k_to_size by min(10, 7) = 7
_SCORES = [0.2, 0.3, 0.5, 0.1, 0.3, 0.5, 0.2]
_RUN = {"qrels": {"q": {f"d{i}": t for i, t in enumerate([0, 0, 1, 1, 1, 0, 1])}},
        "run": {"q": {f"d{i}": s for i, s in enumerate(_SCORES)}}}


@pytest.mark.parametrize("conv,hand,printed", [({}, Fraction(4, 7), 0.571), ({"k": "2"}, Fraction(1, 2), 0.5),
                                               ({"k": "4"}, Fraction(1, 2), 0.5), ({"k": "10"}, Fraction(2, 5), 0.4),
                                               ({"k": "10", "precision_denominator": "retrieved"}, Fraction(4, 7), 0.571)])
def test_retrieval_precision_of_the_documented_example(a, conv, hand, printed):
    _, out, res = run(a, "precision_at_k", conv, _RUN)
    assert res.value == hand
    assert float(out.value) == pytest.approx(printed, abs=5e-4) and float(out.value) == pytest.approx(hand, rel=1e-7)


def test_retrieval_precision_averages_the_queries_of_the_run(a):
    # q1: 1 relevant of 2 at k=2: 1/2; q2: 0 of 2: 0; a qrels-only query q3 is not in the run
    # (queries=run): mean (1/2 + 0)/2 = 1/4
    inputs = {"qrels": {"q1": {"x": 1}, "q2": {}, "q3": {"z": 1}},
              "run": {"q1": {"x": 2.0, "y": 1.0}, "q2": {"u": 2.0, "v": 1.0}}}
    _, out, res = run(a, "precision_at_k", {"k": "2"}, inputs)
    assert res.value == Fraction(1, 4) and out.value == Fraction(1, 4)
