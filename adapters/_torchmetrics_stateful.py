"""torchmetrics' stateful metric classes fed by several ``update`` calls, behind the names of
the functional API, so that ``_torchmetrics_text.call`` and ``_torchmetrics_classes.call``
judge them unchanged.

``Stateful(kind)`` is a namespace: ``Stateful("text").word_error_rate(preds, target)`` builds
``torchmetrics.text.WordErrorRate()``, feeds it the input in consecutive chunks of 1, 2, 3, ...
items (the first items one per call, so that every input of two or more items crosses at
least one ``update`` boundary; about sqrt(2n) calls for n items) and returns ``compute()``.
The keyword arguments of the functional call become the class's constructor arguments (the
two APIs share their names: ``num_classes``, ``average``, ``zero_division``, ``top_k``,
``ignore_index``, ``n_gram``, ``smooth``, ``weights``, ``tokenize``, ``lowercase``,
``normalize``, ``beta``). An input of no items is given no ``update`` at all: ``compute()``
then reads the states' defaults, which is what a training loop over an empty loader gets.

Chunks are taken along the first axis: list slices for the text metrics (``update`` takes a
list of strings), tensor slices for the classification figures and perplexity (the batch
rows), one question at a time for SQuAD (each target with the predictions of its id).
"""
from __future__ import annotations

from typing import Any

# functional name -> (module of the class, class)
CLASSES = {
    "word_error_rate": ("torchmetrics.text", "WordErrorRate"),
    "char_error_rate": ("torchmetrics.text", "CharErrorRate"),
    "match_error_rate": ("torchmetrics.text", "MatchErrorRate"),
    "word_information_lost": ("torchmetrics.text", "WordInfoLost"),
    "word_information_preserved": ("torchmetrics.text", "WordInfoPreserved"),
    "bleu_score": ("torchmetrics.text", "BLEUScore"),
    "sacre_bleu_score": ("torchmetrics.text", "SacreBLEUScore"),
    "perplexity": ("torchmetrics.text", "Perplexity"),
    "squad": ("torchmetrics.text", "SQuAD"),
    "multiclass_accuracy": ("torchmetrics.classification", "MulticlassAccuracy"),
    "multiclass_precision": ("torchmetrics.classification", "MulticlassPrecision"),
    "multiclass_recall": ("torchmetrics.classification", "MulticlassRecall"),
    "multiclass_fbeta_score": ("torchmetrics.classification", "MulticlassFBetaScore"),
    "multiclass_f1_score": ("torchmetrics.classification", "MulticlassF1Score"),
    "multiclass_confusion_matrix": ("torchmetrics.classification", "MulticlassConfusionMatrix"),
    "binary_precision": ("torchmetrics.classification", "BinaryPrecision"),
    "binary_recall": ("torchmetrics.classification", "BinaryRecall"),
    "binary_fbeta_score": ("torchmetrics.classification", "BinaryFBetaScore"),
    "multilabel_precision": ("torchmetrics.classification", "MultilabelPrecision"),
    "multilabel_recall": ("torchmetrics.classification", "MultilabelRecall"),
    "multilabel_fbeta_score": ("torchmetrics.classification", "MultilabelFBetaScore"),
}


def chunks(n: int) -> list[tuple[int, int]]:
    """[start, stop) of consecutive chunks of sizes 1, 2, 3, ... covering range(n) (the last
    one cut at n): chunks(0) == [], chunks(1) == [(0, 1)], chunks(4) == [(0, 1), (1, 3), (3, 4)]."""
    out, start, size = [], 0, 1
    while start < n:
        out.append((start, min(n, start + size)))
        start += size
        size += 1
    return out


class Stateful:
    """The functional names of one family, each a constructor, several updates and a compute."""

    def __init__(self):
        self.updates = 0   # update calls made through this namespace (tests read it)

    def __getattr__(self, name: str):
        if name not in CLASSES:
            raise AttributeError(name)
        import importlib
        module, cls_name = CLASSES[name]
        cls = getattr(importlib.import_module(module), cls_name)
        if name == "squad":
            return lambda preds, target: self._squad(cls(), preds, target)

        def fn(preds: Any, target: Any, **kwargs: Any):
            metric = cls(**kwargs)
            n = max(len(preds), len(target))
            for a, b in chunks(n):
                metric.update(preds[a:b], target[a:b])
                self.updates += 1
            return metric.compute()
        return fn

    def _squad(self, metric, preds: list, target: list):
        """One question per update: the target and the predictions of its id (none for an
        unanswered question, which the library scores 0 and counts)."""
        for t in target:
            metric.update([p for p in preds if p["id"] == t["id"]], [t])
            self.updates += 1
        return metric.compute()
