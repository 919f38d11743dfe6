"""The torchmetrics adapter: its input mapping, its defect models against the library
itself, and the float32 tolerance it relies on."""
from fractions import Fraction

import pytest

from conformance.protocol import Skip
from oracle.compare import Tolerance, compare

pytest.importorskip("torchmetrics")

from adapters import _torchmetrics_retrieval as R  # noqa: E402
from adapters import _torchmetrics_text as T  # noqa: E402
from adapters.torchmetrics import TorchMetrics, _max_length_model  # noqa: E402


def test_float32_ulps_accept_the_nearest_float32_and_refuse_the_next_but_one():
    import numpy as np
    x = Fraction(2, 7)
    f = float(np.float32(2 / 7))
    assert compare(f, x, Tolerance()).verdict == "outside"            # 1.3e-8 away: far past double ULPs
    assert compare(f, x, Tolerance(ulps32=1)).verdict == "within"
    g = float(np.nextafter(np.nextafter(np.float32(f), np.float32(1)), np.float32(1)))
    assert compare(g, x, Tolerance(ulps32=1)).verdict == "outside"


def test_mer_counts_max_length_as_hits_plus_errors():
    # By hand: ref 'x a b', hyp 'a b y': deleting x and inserting y costs 2 (three
    # substitutions cost 3): H = 2, D = I = 1, MER = 2/4 = 1/2. max(N, P) = 3, so the
    # library's MER is 2/3; its hits max(N, P) - d = 1, WIP = 1/9 (canonical 4/9).
    inputs = {"references": ["x a b"], "hypotheses": ["a b y"]}
    out = T.call("mer", {}, inputs).value
    assert out == pytest.approx(2 / 3, rel=2 ** -23)
    assert _max_length_model("mer", {}, inputs) == Fraction(2, 3)
    assert _max_length_model("wip", {}, inputs) == Fraction(1, 9)
    assert T.call("wip", {}, inputs).value == pytest.approx(1 / 9, rel=2 ** -22)
    from oracle.registry import compute
    assert compute("mer", inputs).value == Fraction(1, 2)


def test_squad_percent_is_converted_to_a_fraction():
    # By hand: 'cat sat' against 'the cat sat down': P = 1, R = 2/3, F1 = 4/5; the library
    # says 80.0 (percent), the adapter 0.8
    v = T.call("squad_f1", {}, {"predictions": ["cat sat"], "references": [["the cat sat down"]]}).value
    assert v == pytest.approx(0.8, rel=2 ** -22)


def test_probabilities_reach_the_library_as_logits():
    # The logits reach it as float32 (torch's default dtype: logit_precision=float32), so the
    # values hold to a few float32 roundings (relative 1e-6), not to float64's.
    # By hand: 0.5, 0.25, 0.5, 1 -> PPL = 16**(1/4) = 2 (golden perplexity case)
    v = T.call("perplexity", {"ignore_index": None}, {"probs": [["1/2", "1/4", "1/2", "1"]]}).value
    assert v == pytest.approx(2.0, rel=1e-6)
    # texts of unequal length reach it padded with an ignore_index no target holds. By hand:
    # 1/2, 1/2, 1/4 -> -ln p sum = 4 ln 2 over 3 tokens: PPL = 2**(4/3)
    v = T.call("perplexity", {"ignore_index": None}, {"probs": [["1/2"], ["1/2", "1/4"]]}).value
    assert v == pytest.approx(2 ** (4 / 3), rel=1e-6)
    # log-probabilities too (ln 1/2, ln 1/4 -> PPL = 2**(3/2)); a masked position under an
    # ignore_index is dropped (1/2, null, 1/8 -> 2**(4/2) = 4)
    import math
    v = T.call("perplexity", {"ignore_index": None}, {"logprobs": [[math.log(0.5), math.log(0.25)]]}).value
    assert v == pytest.approx(2 ** 1.5, rel=1e-6)
    v = T.call("perplexity", {"ignore_index": -100}, {"probs": [["1/2", None, "1/8"]]}).value
    assert v == pytest.approx(4.0, rel=1e-6)
    with pytest.raises(Skip, match="without an ignore_index"):
        T.call("perplexity", {"ignore_index": None}, {"probs": [["1/2", None]]})


def test_recall_divides_by_the_relevant_rows_it_is_given():
    """relevant_count=ranked: the unretrieved relevant b has no row, so torchmetrics' recall of
    the run {a} is 1/1 = 1 (the canonical relevant_count=judged gives 1/2); the input is passed,
    not skipped, and the oracle at the profile agrees."""
    from oracle.registry import compute
    inputs = {"run": {"q": {"a": 1.0}}, "qrels": {"q": {"a": 1, "b": 1}}}
    opts = R.options("recall_at_k", {"k": "none", "threshold": "1", "no_relevant": "zero"})
    assert R.call("recall_at_k", opts, inputs).value == 1.0
    a = TorchMetrics()
    assert compute("recall_at_k", inputs, a.profile("recall_at_k")).value == 1
    assert compute("recall_at_k", inputs, {"k": "none"}).value == Fraction(1, 2)
    # AP divides by the relevant documents found (ap_denominator=retrieved-relevant): passed
    assert R.call("average_precision", R.options("average_precision", {"k": "none"}),
                  {"run": {"q": {"a": 1.0}}, "qrels": {"q": {"a": 1, "b": 1}}}).value == 1.0


@pytest.mark.parametrize("metric", ["reciprocal_rank", "average_precision", "precision_at_k", "recall_at_k",
                                    "r_precision", "hit_rate"])
def test_the_tie_and_score_models_predict_the_library(metric):
    """The defect models (torch's own order, scores <= 0 not relevant) against the library on
    inputs with ties and non-positive scores, where the canonical value differs."""
    import random
    a = TorchMetrics()
    settings = dict(a.profile(metric), **({"k": "1"} if metric == "hit_rate" else {}))   # k=none: ties cannot matter
    rnd = random.Random(3)
    differ = 0
    for _ in range(40):
        n = rnd.randint(2, 12)
        # q: relevant documents among scores <= 0 now and then; r: one relevant document
        # among tied scores (trec_eval puts the higher document id first)
        run = {"q": {f"d{i}": float(rnd.choice([-1, 0, 1, 1, 2])) for i in range(n)},
               "r": {f"e{i}": 3.0 for i in range(rnd.randint(2, 6))}}
        qrels = {"q": {d: int(rnd.random() < (0.7 if s <= 0 else 0.2)) for d, s in run["q"].items()},
                 "r": {rnd.choice(sorted(run["r"])): 1}}
        inputs = {"run": run, "qrels": qrels}
        lib = a.call(metric, a.options(metric, settings), inputs).value
        model = R.library_model(metric, settings, inputs, positive_only=metric not in ("r_precision", "hit_rate"))
        assert compare(lib, model, a.tolerance(metric)).agrees, (inputs, lib, model)
        from oracle.registry import compute
        differ += not compare(lib, compute(metric, inputs, settings).value, a.tolerance(metric)).agrees
    assert differ   # the inputs do reach the defects


def test_the_adapter_is_registered_and_available():
    from adapters import BUILTIN
    assert BUILTIN["torchmetrics"] == "adapters.torchmetrics:TorchMetrics"
    ok, why = TorchMetrics().available()
    assert ok, why


def test_string_labels_are_numbered_in_the_oracle_label_order():
    # By hand: y_true [cat, dog, dog], y_pred [cat, cat, dog]: recall cat 1/1, dog 1/2
    from adapters import _torchmetrics_classes as C
    inputs = {"y_true": ["cat", "dog", "dog"], "y_pred": ["cat", "cat", "dog"]}
    v = C.call("per_class_accuracy", C.options("per_class_accuracy", {"label_set": "auto"}), inputs).value
    assert v == {"cat": 1.0, "dog": 0.5}
    cm = C.call("confusion_matrix", C.options("confusion_matrix", {"label_set": "auto", "normalize": "none"}),
                inputs).value
    assert cm == [[1, 0], [1, 1]]


def test_the_classification_models_predict_the_library():
    from adapters import _torchmetrics_classes as C
    a = TorchMetrics()
    # By hand: y_true [0, 0, 1], y_pred [0, 2, 1], labels [0, 1, 2, 3]: class 3 is never seen.
    # Recall 1/2, 1, 0/0 -> 0 (class 2 only predicted): over the seen labels (1/2 + 1 + 0)/3 = 1/2
    inputs = {"y_true": [0, 0, 1], "y_pred": [0, 2, 1], "labels": [0, 1, 2, 3]}
    s = a.profile("recall")
    assert C.macro_drops_unseen("recall", s, inputs)
    assert C.macro_drops_unseen_model("recall", s, inputs) == Fraction(1, 2)
    assert a.call("recall", a.options("recall", s), inputs).value == pytest.approx(0.5, rel=2 ** -22)
    # balanced accuracy: the same recalls without the declared list, class 2 counted as 0
    b = {"y_true": [0, 0, 1], "y_pred": [0, 2, 1]}
    sb = a.profile("balanced_accuracy")
    assert C.predicted_only_class("balanced_accuracy", sb, b)
    assert C.predicted_only_class_model("balanced_accuracy", sb, b) == Fraction(1, 2)
    assert a.call("balanced_accuracy", a.options("balanced_accuracy", sb), b).value == pytest.approx(0.5, rel=2 ** -22)
    from oracle.registry import compute
    assert compute("balanced_accuracy", b).value == Fraction(3, 4)   # (1/2 + 1)/2 over the classes with samples


_NO_REL = {"qrels": {"q1": {"a": 1}, "q2": {"b": 0}}, "run": {"q1": {"x": 2, "a": 1}, "q2": {"b": 1}}}


def test_empty_target_actions_pos_and_error():
    # By hand: q1 ranks its relevant a second (RR 1/2); q2 has no relevant row.
    # 'pos' scores q2 1: (1/2 + 1)/2 = 3/4; 'neg' 0: 1/4; 'error' raises ValueError.
    for rule, want in (("one", 0.75), ("zero", 0.25)):
        opts = R.options("reciprocal_rank", {"k": "none", "no_relevant": rule})
        assert R.call("reciprocal_rank", opts, _NO_REL).value == pytest.approx(want)
    with pytest.raises(ValueError, match="no positive target"):
        R.call("reciprocal_rank", R.options("reciprocal_rank", {"k": "none", "no_relevant": "error"}), _NO_REL)
    # a relevant document the run does not hold: the library sees a query without a positive
    # row, which 'pos' scores 1; so does the oracle under the profile's relevant_count=ranked
    # (the canonical judged: q1 has a relevant document, not found: 0)
    from oracle.registry import compute
    unretrieved = {"qrels": {"q1": {"a": 1}}, "run": {"q1": {"x": 2}}}
    assert R.call("hit_rate", R.options("hit_rate", {"k": "none", "no_relevant": "one"}), unretrieved).value == 1.0
    profile = dict(TorchMetrics().profile("hit_rate"), no_relevant="one")
    assert compute("hit_rate", unretrieved, profile).value == 1
    assert compute("hit_rate", unretrieved, dict(profile, relevant_count="judged")).value == 0


def test_the_tie_order_model_sorts_rows_by_query_first():
    # Seven rows tied in q1 and ten in q3: torch.sort(indexes) (not stable) permutes them
    # before topk. The library gives 0.2222, which with one relevant row per query can only
    # be (1/3 + 1/9)/2 = 2/9 (d7 3rd, p10 9th); the model must predict it. Without the index
    # sort it ranked both 2nd: 1/2.
    inputs = {"qrels": {"q1": {"d7": 1}, "q3": {"p10": 1}},
              "run": {"q1": {f"d{i}": 3 for i in range(1, 8)}, "q3": {f"p{i:02d}": 3 for i in range(1, 11)}}}
    settings = {"k": "none", "ties": "trec_eval", "ap_denominator": "retrieved-relevant", "threshold": "1",
                "no_relevant": "zero", "missing": "zero", "duplicates": "error", "queries": "run",
                "empty_judgments": "query"}
    lib = R.call("average_precision", R.options("average_precision", settings), inputs).value
    model = R.library_model("average_precision", settings, inputs, positive_only=False)
    assert float(model) == pytest.approx(lib, rel=2 ** -20)
    assert model == Fraction(2, 9)


def test_negative_grades_enter_the_ideal_ranking():
    # By hand (known failure torchmetrics-ndcg-0005): q2 = d1 (0), d2 (-1) tied: DCG
    # (-1/2)(1 + 1/log2 3), ideal -1/log2 3: 1.2925; q1 0.7853; mean 1.0389.
    inputs = {"qrels": {"q1": {"p03": 1, "p04": 1}, "q2": {"d2": -1}},
              "run": {"q1": {"p01": 3, "p02": 3, "p03": 3, "p04": 3}, "q2": {"d1": 3, "d2": 3}}}
    settings = {"k": "none", "no_relevant": "zero"}
    lib = R.call("ndcg", R.options("ndcg", settings), inputs).value
    assert lib == pytest.approx(1.0389, abs=1e-4)
    assert R.negative_ideal_model("ndcg", settings, inputs) == pytest.approx(lib, rel=2 ** -20)
