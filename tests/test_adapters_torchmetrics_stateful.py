"""torchmetrics' stateful classes fed by several update calls (adapters/torchmetrics_stateful.py):
the chunking, the namespace that stands for the functional API, and the differences from the
functional calls that the run found (each a known failure of torchmetrics-stateful)."""
import math
import warnings

import pytest

pytest.importorskip("torchmetrics")

from adapters._torchmetrics_stateful import Stateful, chunks  # noqa: E402
from adapters import BUILTIN, load_adapter  # noqa: E402
from oracle.registry import compute  # noqa: E402


def test_chunks_grow_by_one_and_cover_the_input():
    assert chunks(0) == []
    assert chunks(1) == [(0, 1)]
    assert chunks(2) == [(0, 1), (1, 2)]
    assert chunks(4) == [(0, 1), (1, 3), (3, 4)]
    assert chunks(10) == [(0, 1), (1, 3), (3, 6), (6, 10)]
    for n in range(60):
        parts = chunks(n)
        assert [i for a, b in parts for i in range(a, b)] == list(range(n))


def test_the_namespace_makes_several_updates_and_sums_across_them():
    # by hand: "a b" -> "a x" is one substitution, "c" -> "c" none, "d e f" -> "d f" one
    # deletion: WER = 2 / (2 + 1 + 3) = 1/3
    ns = Stateful()
    refs, hyps = ["a b", "c", "d e f"], ["a x", "c", "d f"]
    value = float(ns.word_error_rate(hyps, refs))
    assert ns.updates == 2   # chunks(3): [0:1], [1:3]
    assert abs(value - 1 / 3) < 2 ** -23
    assert compute("wer", {"references": refs, "hypotheses": hyps}, {}).value * 3 == 1


def test_squad_is_fed_one_question_at_a_time():
    ns = Stateful()
    preds = [{"id": "0", "prediction_text": "the cat"}]
    target = [{"id": "0", "answers": {"text": ["the cat"], "answer_start": [0]}},
              {"id": "1", "answers": {"text": ["a dog"], "answer_start": [0]}}]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # "Unanswered question 1 will receive score 0."
        out = ns.squad(preds, target)
    assert ns.updates == 2
    # by hand: question 0 exact, question 1 unanswered (0, counted): 50 percent
    assert float(out["exact_match"]) == 50.0


def test_bleu_class_accepts_a_hypothesis_without_references_the_function_refuses():
    """torchmetrics-stateful-bleu-0004: the corpus-size check is in the functional wrapper
    only (functional/text/bleu.py:193-194)."""
    from torchmetrics.functional.text import bleu_score
    with pytest.raises(ValueError, match="different size"):
        bleu_score([""], [])
    assert float(Stateful().bleu_score([""], [])) == 0.0


def test_a_label_past_num_classes_passes_the_per_batch_check():
    """torchmetrics-stateful-accuracy-0006: stat_scores.py:320-324 counts the distinct values of
    each batch; the five samples at once have three (> num_classes = 2), no chunk has more than 2."""
    import torch
    import torchmetrics.functional.classification as C
    preds, target = torch.tensor([0, 1, 1, 0, 2]), torch.tensor([0, 0, 1, 2, 1])
    with pytest.raises(RuntimeError, match="more unique values"):
        C.multiclass_accuracy(preds, target, num_classes=2, average="micro")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        v = float(Stateful().multiclass_accuracy(preds, target, num_classes=2, average="micro"))
    assert abs(v - 2 / 5) < 2 ** -23   # samples 0 and 2 right, the stray index counted


def test_perplexity_states_are_float32_even_for_float64_logits():
    """text/perplexity.py:78-79 creates the sums as tensor(0.0) and adds into them in place:
    the class returns float32 where the functional call keeps float64 (the adapter's float32
    tolerance for perplexity)."""
    import torch
    from torchmetrics.functional.text import perplexity
    torch.manual_seed(0)
    z = torch.randn(3, 4, 5, dtype=torch.float64)
    t = torch.randint(0, 5, (3, 4))
    f = perplexity(z, t)
    s = Stateful().perplexity(z, t, ignore_index=None)
    assert f.dtype == torch.float64 and s.dtype == torch.float32
    assert math.isclose(float(s), float(f), rel_tol=2 ** -20)


def test_the_adapter_is_registered_and_judges_the_text_and_classification_metrics():
    assert BUILTIN["torchmetrics-stateful"] == "adapters.torchmetrics_stateful:TorchMetricsStateful"
    a = load_adapter("torchmetrics-stateful")
    f = load_adapter("torchmetrics")
    assert a.available()[0]
    from adapters import _torchmetrics_retrieval as R
    assert set(a.metrics()) == set(f.metrics()) - {"per_class_accuracy", "precision", "recall"} - set(R.METRICS) \
        - {"matthews_corrcoef", "cohen_kappa", "rouge_n", "rouge_l", "ter"}
    # the same mapped call, through the classes. MER by hand: "a b" -> "a c" one substitution
    # and one hit, "x" -> "x" one hit: (S + D + I) / (H + S + D + I) = 1 / 3
    settings = a.profile("mer")
    out = a.call("mer", a.options("mer", settings), {"references": ["a b", "x"], "hypotheses": ["a c", "x"]})
    assert abs(out.value - 1 / 3) < 2 ** -23


def test_retrieval_classes_fed_in_chunks_give_the_single_updates_value():
    """Why the stateful adapter leaves the retrieval measures to the torchmetrics adapter: their
    list states concatenate to the tensors of one update (retrieval/base.py), so chunked and
    single updates agree exactly, on ties and across queries split between batches too."""
    import random
    from adapters import _torchmetrics_retrieval as R
    a = load_adapter("torchmetrics")
    rng = random.Random(5)
    compared = 0
    for _ in range(40):
        run = {f"q{i}": {f"d{j}": float(rng.randint(0, 3)) for j in range(rng.randint(1, 6))}
               for i in range(rng.randint(1, 3))}
        qrels = {q: {d: rng.choice([0, 1, 2]) for d in r} for q, r in run.items()}
        inputs = {"qrels": qrels, "run": run}
        for metric in R.METRICS:
            settings = a.profile(metric)
            try:
                options = a.options(metric, settings)
                one = R.call(metric, options, inputs)
            except Exception:
                continue
            many = R.call(metric, options, inputs, chunked=True)
            assert one.value == many.value or (one.value != one.value and many.value != many.value)
            compared += 1
    assert compared >= 150
