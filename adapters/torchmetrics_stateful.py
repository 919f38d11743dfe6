"""torchmetrics' stateful metric classes (``torchmetrics.text``, ``torchmetrics.classification``)
as a training loop uses them: one object, several ``update`` calls, one ``compute()``.

The functional adapter (``adapters.torchmetrics``) judges one call over the whole input. Here
the same inputs go to the classes in consecutive chunks of 1, 2, 3, ... items
(``_torchmetrics_stateful.chunks``: every input of two or more items crosses an ``update``
boundary), so that a state that does not add up across batches (a per-batch mean averaged
again, a maximum taken per batch, a count kept in too narrow a type) shows as a failure with a
minimal input. The metrics, knobs and profile are the functional adapter's: each class's
``update`` calls the same ``_*_update`` function as the functional call and ``compute`` the
same ``_*_compute`` (torchmetrics 1.9.0, text/wer.py, text/bleu.py, text/squad.py,
classification/stat_scores.py), so the conventions are the same and cited
there.

One difference of precision, from the source: ``Perplexity`` keeps its sums in states created
as ``tensor(0.0)``, float32 (text/perplexity.py:78-79), and ``self.total_log_probs +=
total_log_probs`` adds the float64 sum of a float64 batch into that float32 tensor in place,
so the class returns a float32 perplexity where the functional ``perplexity`` keeps the
logits' float64 (Metric.set_dtype is the documented way to change the states' dtype). The
tolerance here is therefore float32's, as for the other text metrics, whose states are float32
in both APIs.

Known failures are in ``known_failures/torchmetrics-stateful.json``: the functional adapter's
defects, found again by this adapter's own run wherever the class shares the function's code,
and two that only the classes have (found by this adapter's first run):
- ``BLEUScore.update`` and ``SacreBLEUScore.update`` do not check that there is one reference
  set per hypothesis; the functional ``bleu_score`` does, in its wrapper
  (functional/text/bleu.py:193-194);
- the multiclass classes check each batch's count of distinct values against num_classes
  (functional/classification/stat_scores.py:320-324) rather than each value's range, so a
  label past num_classes goes through whenever no single batch holds too many distinct values,
  where the functional call, seeing every sample at once, refuses the same input.
"""
from __future__ import annotations

from typing import Mapping

from conformance.protocol import LibraryOutput
from oracle.compare import Tolerance

from . import _torchmetrics_classes as _classes
from . import _torchmetrics_retrieval as _retrieval
from . import _torchmetrics_text as _text
from ._torchmetrics_stateful import Stateful
from .torchmetrics import TorchMetrics, _one_thread


# torchmetrics has no per-class accuracy metric: the functional adapter reads it from
# multiclass_recall(average="none", zero_division=nan), NaN marking a class without samples;
# MulticlassRecall validates zero_division as 0 or 1 (classification/stat_scores.py:318-322,
# precision_recall.py:79 'Should be `0` or `1`'), so the class cannot say "not measured" and
# per-class recall is judged as recall (average=none, zero_division 0 or 1) instead.
#
# The retrieval measures are judged through their classes by the torchmetrics adapter already
# (one update); several updates append to list states that compute() concatenates
# (retrieval/base.py: update appends to self.indexes, self.preds, self.target; compute calls
# dim_zero_cat), the very tensors of one update, so they are not judged a second time here
# (tests/test_adapters_torchmetrics_stateful.py checks the chunked call against the single one).
#
# Precision and recall are left to the torchmetrics adapter too: their classes are subclasses
# of the stat-score classes (MulticlassPrecision, MultilabelRecall ... of MulticlassStatScores,
# MultilabelStatScores: classification/precision_recall.py), whose update is the one F-beta's
# and accuracy's classes use, judged here; what differs is the final formula, the functional
# calls' (_precision_recall_reduce), judged there. (Judging them here too cost a fifth of the
# test run's strict pass, for the same update code.)
#
# MCC, Cohen's kappa, ROUGE and TER are judged through the functional calls only (the torchmetrics
# adapter): their classes are not mapped here yet.
_METRICS = tuple(m for m in TorchMetrics.capabilities
                 if m not in ("per_class_accuracy", "precision", "recall") and m not in _retrieval.METRICS
                 and m not in ("matthews_corrcoef", "cohen_kappa", "rouge_n", "rouge_l", "ter"))


class TorchMetricsStateful(TorchMetrics):
    name = "torchmetrics-stateful"
    capabilities = {m: TorchMetrics.capabilities[m] for m in _METRICS}
    profiles = {m: TorchMetrics.profiles[m] for m in _METRICS}
    tolerances = {**TorchMetrics.tolerances,
                  # float32 logits and states (text/perplexity.py:78-79), the sum of the
                  # log-probabilities rounded once per update: see _torchmetrics_text
                  "perplexity": Tolerance(ulps32=256)}

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """The classes with no optional argument (``WordErrorRate()``, ``BLEUScore()``,
        ``MulticlassAccuracy(num_classes)``...), fed in several updates."""
        _one_thread()
        if metric in _classes.METRICS:
            return _classes.call_bare(metric, inputs, Stateful())
        return _text.call_bare(metric, inputs, Stateful())

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        _one_thread()
        if metric in _classes.METRICS:
            return _classes.call(metric, options, inputs, Stateful())
        return _text.call(metric, options, inputs, Stateful())
