"""torcheval (pytorch/torcheval, 0.0.x): its functional API mapped onto the oracle.

| metric | call |
| --- | --- |
| ``wer``, ``wil``, ``wip`` | ``word_error_rate(input, target)``, ``word_information_lost``, ``word_information_preserved`` |
| ``bleu`` | ``bleu_score(input, target, n_gram, weights)`` |
| ``perplexity`` | ``perplexity(input, target, ignore_index)`` on float32 logits (torch's default dtype) |
| ``accuracy`` | ``multiclass_accuracy(input, target, average='micro', num_classes)`` |
| ``balanced_accuracy`` | ``multiclass_accuracy(..., average='macro')`` (the mean per-class recall) |
| ``precision``, ``recall``, ``f1`` | ``multiclass_precision`` / ``_recall`` / ``_f1_score(average, num_classes)``; ``binary_*`` for ``average=binary`` |
| ``confusion_matrix`` | ``multiclass_confusion_matrix(input, target, num_classes, normalize)`` |
| ``label_reciprocal_rank`` | ``reciprocal_rank(input, target, k)``, the mean of its per-sample values (``_torcheval_ranks``) |
| ``top_k_accuracy`` | ``hit_rate(input, target, k)``, the mean of its per-sample values |
| ``precision_at_k`` | ``retrieval_precision(input, target, k, limit_k_to_size)`` per query of the run, the mean of its values (``_torcheval_retrieval``) |

Profiles, from the source (torcheval 0.0.7):
- error rates (``functional/text/word_error_rate.py``, ``helper.py``): ``ipt.split()`` /
  ``tgt.split()`` (tokenize=whitespace, mixed case, punctuation kept), summed edit distances over
  summed reference lengths in float64 (aggregate=corpus). WIL and WIP take the hits as
  ``max(len(target), len(input)) - errors`` per pair (``helper.py _get_errors_and_totals``:
  ``max_total += max(len(target_tokens), len(input_tokens))``), the defect torchmetrics has too
  (known failure ``max-length-as-hits``).
- BLEU (``functional/text/bleu.py``): whitespace tokens (tokenizer=none); the reference length is
  the shortest reference (``len_reference = min([len(ref) for ref in references_tokenized])``:
  ref_length=shortest); no smoothing; an order without a match gives ``exp(log 0) = 0``
  (no_match=zero); a corpus whose hypotheses have fewer tokens than the order raises ValueError
  ("the input is too short to find all n-gram matches"), recorded where the oracle has a value;
  n_gram 1 to 4 only (``_get_ngrams``); float32 counts and logs.
- classification (``functional/classification/precision.py``, ``recall.py``, ``f1_score.py``):
  ``average='micro'`` by default; a macro or weighted average leaves out a class with no sample
  and no prediction (``mask = (num_label != 0) | ((num_tp + num_fp) != 0)``), which only a declared
  label list creates (refused as for torchmetrics); a 0/0 is 0 (``torch.nan_to_num``):
  zero_division=zero. Values are float32 ratios of integer counts.
- perplexity (``functional/text/perplexity.py``): softmax over the vocabulary, the mean negative
  log-probability of the targets over the unmasked positions, exponentiated (aggregate=corpus-token).

Not mapped: ``multiclass_accuracy(k=...)`` (the top-k reading of score rows is judged through
``hit_rate``).
"""
from __future__ import annotations

from typing import Mapping

from conformance.protocol import Adapter, LibraryOutput, Skip
from oracle.compare import Tolerance

from . import _torcheval_ranks as _ranks
from . import _torcheval_retrieval as _retrieval
from . import _torchmetrics_classes as _tm_classes
from ._bleu_inputs import segments, weight_list

_RATES = ("wer", "wil", "wip")
_CLASSES = ("confusion_matrix", "accuracy", "balanced_accuracy", "precision", "recall", "f1")
_WORD = {"tokenize": ("whitespace",), "case": ("mixed",), "punctuation": ("keep",),
         "aggregate": ("corpus",), "empty_reference": ("undefined",), "tie": ("any",)}
_WORD_PROFILE = {k: v[0] for k, v in _WORD.items()}


def _order_ok(value: str, settings: Mapping[str, str]) -> bool:
    return value.isdigit() and 1 <= int(value) <= 4


def _weights_ok(value: str, settings: Mapping[str, str]) -> bool:
    try:
        ws = weight_list(value, int(settings.get("order", "4")))
    except (ValueError, ZeroDivisionError):
        return False
    return all(w >= 0 for w in ws)


_BLEU = {"tokenizer": ("none",), "case": ("mixed",), "order": _order_ok, "weights": _weights_ok,
         "ref_length": ("shortest",), "smoothing": ("none",), "smoothing_value": ("-",), "no_match": ("zero",),
         "effective_order": ("no",), "level": ("corpus",), "scale": ("fraction",)}
_SETS = ("auto", "declared", "union")
_PRF = {"label_set": _SETS, "outside": ("error",), "average": ("micro", "macro", "weighted", "none", "binary"),
        "zero_division": ("zero",)}
_PRF_PROFILE = {"label_set": "auto", "outside": "error", "average": "micro", "zero_division": "zero"}

_SRC = "torcheval/metrics/functional"


class TorchEval(Adapter):
    name = "torcheval"
    # the exceptions its own code refuses an input with: its _*_input_check functions raise ValueError
    # (word_information_lost's asserts 'Arguments must contain the same number of strings');
    # torch's tensor checks RuntimeError
    refusals = {"*": ("ValueError", "TypeError", "RuntimeError", "AssertionError")}
    library = "torcheval"
    import_name = "torcheval.metrics.functional"
    homepage = "https://pytorch.org/torcheval/"
    issues = "https://github.com/pytorch/torcheval/issues"
    versions = ">=0.0.6,<0.1"
    capabilities = {
        **{m: dict(_WORD) for m in _RATES},
        "bleu": dict(_BLEU),
        "perplexity": {"aggregate": ("corpus-token",), "ignore_index": "*", "shift": ("none",),
                       "logit_precision": ("float32",)},
        "confusion_matrix": {"label_set": _SETS, "outside": ("error",), "normalize": ("none", "true", "pred", "all")},
        "accuracy": {"label_set": _SETS, "outside": ("error",)},
        "balanced_accuracy": {"label_set": _SETS, "outside": ("error",), "adjusted": ("no",)},
        "precision": dict(_PRF), "recall": dict(_PRF), "f1": dict(_PRF, beta=("1",)),
        **_ranks.CAPABILITIES, **_retrieval.CAPABILITIES,
    }
    profiles = {
        **{m: dict(_WORD_PROFILE) for m in _RATES},
        "bleu": {"tokenizer": "none", "case": "mixed", "order": "4", "weights": "uniform", "ref_length": "shortest",
                 "smoothing": "none", "no_match": "zero", "effective_order": "no", "level": "corpus",
                 "scale": "fraction"},
        "perplexity": {"aggregate": "corpus-token", "ignore_index": "none", "shift": "none",
                       "logit_precision": "float32"},
        "confusion_matrix": {"label_set": "auto", "outside": "error", "normalize": "none"},
        "accuracy": {"label_set": "auto", "outside": "error"},
        "balanced_accuracy": {"label_set": "auto", "outside": "error", "adjusted": "no"},
        "precision": dict(_PRF_PROFILE), "recall": dict(_PRF_PROFILE), "f1": dict(_PRF_PROFILE, beta="1"),
        **_ranks.PROFILES, **_retrieval.PROFILES,
    }
    profile_sources = {**_ranks.SOURCES, **_retrieval.SOURCES, "*": {
        "tokenize": f"{_SRC}/text/word_error_rate.py _word_error_rate_update: ipt.split(), tgt.split()",
        "case": f"{_SRC}/text/word_error_rate.py:61 ipt.split(): tokens compared as given (no case folding; "
                "helper.py:57 for WIL and WIP alike)",
        "aggregate": f"{_SRC}/text/word_error_rate.py: errors += _edit_distance(...), total += len(tgt_tokens); "
                     "errors / total",
        "tokenizer": f"{_SRC}/text/bleu.py _bleu_score_update: candidate.split(), ref.split()",
        "ref_length": f"{_SRC}/text/bleu.py: len_reference = min([len(ref) for ref in references_tokenized])",
        "no_match": f"{_SRC}/text/bleu.py _bleu_score_compute: torch.exp(torch.sum(weights * torch.log(precisions))), "
                    "exp(-inf) = 0",
        "average": f"{_SRC}/classification/precision.py multiclass_precision(average='micro') (recall, f1_score alike)",
        "zero_division": f"{_SRC}/classification/precision.py _precision_compute: precision = torch.nan_to_num(precision)",
        "outside": f"{_SRC}/classification/precision.py _precision_update: scatter_ into num_classes bins raises on an "
                   "index outside [0, num_classes)",
        "normalize": f"{_SRC}/classification/confusion_matrix.py multiclass_confusion_matrix(normalize=None)",
    }, "perplexity": {
        "aggregate": f"{_SRC}/text/perplexity.py: exp(sum of -log p(target) / count of unmasked tokens)",
        "logit_precision": "torch.tensor([...]) of Python floats is float32 (torch.get_default_dtype()), the "
                           "type a model's logits come in",
    }}
    # WER/WIL/WIP: float64 totals, one or three roundings. BLEU: float32 counts, logs, sum and
    # exp (a few float32 ULPs times the order). Classification: float32 ratios of integer counts,
    # and for macro/weighted a float32 mean. Perplexity: float32 logits.
    tolerances = {
        "wer": Tolerance(ulps=2), "wil": Tolerance(ulps=8), "wip": Tolerance(ulps=8),
        "bleu": Tolerance(ulps32=16), "perplexity": Tolerance(ulps32=256),   # float32 logits: see _torchmetrics_text
        "confusion_matrix": Tolerance(ulps32=1), "accuracy": Tolerance(ulps32=1),
        "balanced_accuracy": Tolerance(ulps32=8), "precision": Tolerance(ulps32=8), "recall": Tolerance(ulps32=8),
        "f1": Tolerance(ulps32=16), **_ranks.TOLERANCES, **_retrieval.TOLERANCES,
    }

    def supports(self, metric: str, settings: Mapping[str, str]) -> str | None:
        why = super().supports(metric, settings)
        if why is None and metric in _CLASSES:
            why = _tm_classes.supports(metric, settings)
            if why:
                why = why.replace("torchmetrics", "torcheval").replace(
                    "utilities/compute.py:92, weights[tp + fp + fn == 0] = 0",
                    "precision.py _precision_compute: mask = (num_label != 0) | ((num_tp + num_fp) != 0)")
        return why

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        if metric == "bleu":
            order = int(settings["order"])
            return {"n_gram": order, "weights": [float(w) for w in weight_list(settings["weights"], order)]}
        if metric == "perplexity":
            ig = settings["ignore_index"]
            return {"ignore_index": None if ig == "none" else int(ig)}
        if metric in _CLASSES:
            return _tm_classes.options(metric, settings)
        if metric in _ranks.METRICS:
            return _ranks.options(metric, settings)
        if metric in _retrieval.METRICS:
            return _retrieval.options(metric, settings)
        return {}

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        from .torchmetrics import _one_thread
        _one_thread()
        import torcheval.metrics.functional as F

        if metric in _RATES:
            refs, hyps = inputs.get("references"), inputs.get("hypotheses")
            if not isinstance(refs, list) or not isinstance(hyps, list):
                raise Skip("torcheval's error rates take lists of strings")
            fn = {"wer": F.word_error_rate, "wil": F.word_information_lost,
                  "wip": F.word_information_preserved}[metric]
            return LibraryOutput(value=float(fn(hyps, refs)))
        if metric == "bleu":
            import torch
            hyps, refs = segments(metric, inputs)
            v = F.bleu_score(hyps, refs, n_gram=options["n_gram"], weights=torch.tensor(options["weights"]))
            return LibraryOutput(value=float(v))
        if metric == "perplexity":
            return _perplexity(options, inputs)
        if metric in _ranks.METRICS:
            return _ranks.call(metric, options, inputs)
        if metric in _retrieval.METRICS:
            return _retrieval.call(metric, options, inputs)
        return _classification(metric, options, inputs)

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """``word_error_rate(input, target)`` and siblings, ``bleu_score(input, target)``,
        ``perplexity(input, target)``, ``multiclass_accuracy(input, target)``, ``multiclass_
        precision/recall/f1_score(input, target)`` and ``multiclass_confusion_matrix(input,
        target, num_classes)`` (num_classes is required there): nothing optional."""
        from .torchmetrics import _one_thread
        _one_thread()
        import torcheval.metrics.functional as F
        if metric in _RATES:
            return self.call(metric, {}, inputs)
        if metric == "bleu":
            hyps, refs = segments(metric, inputs)
            return LibraryOutput(value=float(F.bleu_score(hyps, refs)))
        if metric == "perplexity":
            from ._torchmetrics_text import unpadded_tensors
            return LibraryOutput(value=float(F.perplexity(*unpadded_tensors(inputs, "torcheval"))))
        fn = {"accuracy": F.multiclass_accuracy, "precision": F.multiclass_precision,
              "recall": F.multiclass_recall, "f1": F.multiclass_f1_score,
              "confusion_matrix": F.multiclass_confusion_matrix}.get(metric)
        if fn is None:
            raise Skip(f"the adapter maps torcheval's {metric} onto another function's options, or judges it "
                       "with required arguments only (its call is the bare one)")
        if "y_score" in inputs or _tm_classes._rows(inputs["y_true"]) or _tm_classes._rows(inputs["y_pred"]) \
                or "pos_label" in inputs:
            raise Skip("score rows, indicator rows and a pos_label go to other functions: the bare call is judged "
                       "on label inputs")
        target, preds, labels, _ = _tm_classes.tensors_ignoring(inputs, {"label_set": "auto"})
        if not labels:
            raise Skip("no label at all: torcheval needs num_classes >= 1")
        if metric == "confusion_matrix":
            return LibraryOutput(value=[[int(x) for x in row] for row in fn(preds, target, len(labels)).tolist()])
        return LibraryOutput(value=float(fn(preds, target)))

    def defect_classifiers(self) -> dict:
        from .torchmetrics import _max_length_as_hits
        return {"max-length-as-hits": _max_length_as_hits,
                "macro-drops-unseen-declared-classes": _tm_classes.macro_drops_unseen,
                "single-class-refused": lambda m, s, i: m == "confusion_matrix" and _tm_classes.single_class(m, s, i),
                "short-corpus-raises": _short_corpus,
                "no-reference-word-inf": lambda m, s, i: m == "wer" and _totals(i)[0] == 0,
                "recall-mask-broadcast": _recall_mask,
                "empty-side-nan": lambda m, s, i: m in ("wil", "wip") and 0 in _totals(i),
                "topk-tie-order": _retrieval.ties_at_cutoff,
                "empty-ranking-nan": _retrieval.empty_ranking_at_every_rank,
                "float32-softmax-underflow": _float32_softmax_underflow}

    def defect_models(self) -> dict:
        from .torchmetrics import _max_length_model
        return {"max-length-as-hits": _max_length_model,
                "macro-drops-unseen-declared-classes": _tm_classes.macro_drops_unseen_model,
                "no-reference-word-inf": lambda m, s, i: float("inf") if _totals(i)[1] else float("nan"),
                "recall-mask-broadcast": _recall_mask_model,
                "empty-side-nan": lambda m, s, i: float("nan"),
                "topk-tie-order": _retrieval.topk_model,
                "empty-ranking-nan": lambda m, s, i: float("nan"),
                "float32-softmax-underflow": lambda m, s, i: float("inf")}


def _recall_counts(inputs, settings):
    """(tp, labels, predictions) per class index, as the adapter numbers the classes."""
    import numpy as np
    target, preds, labels, _ = _tm_classes.tensors_ignoring(inputs, settings)
    t, p, k = target.numpy(), preds.numpy(), len(labels)
    return (np.bincount(t[t == p], minlength=k), np.bincount(t, minlength=k), np.bincount(p, minlength=k))


def _recall_mask(metric, settings, inputs) -> bool:
    """Applies: recall under average=macro or weighted, single labels, and a class of the
    label set with neither a sample nor a prediction (torcheval's mask then drops it)."""
    if metric != "recall" or settings.get("average") not in ("macro", "weighted"):
        return False
    try:
        if _tm_classes._rows(inputs["y_true"]) or "y_score" in inputs:
            return False
        _, n_labels, n_pred = _recall_counts(inputs, settings)
    except Exception:
        return False
    return bool(((n_labels == 0) & (n_pred == 0)).any())


def _recall_mask_model(metric, settings, inputs):
    """torcheval's ``_recall_compute`` (functional/classification/recall.py:184-215): under
    macro and weighted it masks the classes with no sample and no prediction out of
    ``num_tp`` but not out of ``num_labels``, so the m kept true-positive counts are
    divided by all K label counts (broadcast when m is 1; a size error otherwise): x/0 is
    inf; where a NaN (0/0) appears, ``torch.nan_to_num`` sets NaN to 0 and inf to the
    largest float32. Macro: the mean; weighted: the sum of recall times
    ``num_labels[mask] / num_labels.sum()`` (broadcast again). In float32."""
    import numpy as np
    tp, n_labels, n_pred = _recall_counts(inputs, settings)
    mask = (n_labels != 0) | (n_pred != 0)
    kept = tp[mask].astype(np.float32)
    if len(kept) not in (1, len(n_labels)):
        return "raised RuntimeError: the size of tensor a must match the size of tensor b"
    with np.errstate(divide="ignore", invalid="ignore"):
        recall = kept / n_labels.astype(np.float32)
        if np.isnan(recall).any():
            recall = np.nan_to_num(recall, nan=0.0, posinf=np.finfo(np.float32).max,
                                   neginf=np.finfo(np.float32).min).astype(np.float32)
        if settings.get("average") == "macro":
            return float(recall.mean(dtype=np.float32))
        weights = (n_labels[mask] / n_labels.sum()).astype(np.float32)
        if len(weights) not in (1, len(recall)):
            return "raised RuntimeError: the size of tensor a must match the size of tensor b"
        return float((recall * weights).sum(dtype=np.float32))


def _float32_softmax_underflow(metric, settings, inputs) -> bool:
    from ._torchmetrics_text import float32_softmax_underflow
    return float32_softmax_underflow(metric, settings, inputs)


def _totals(inputs: Mapping) -> tuple:
    """(reference words, hypothesis words) of an error-rate input, as the library splits them
    ((-1, -1) when the input is not two lists of strings)."""
    refs, hyps = inputs.get("references"), inputs.get("hypotheses")
    try:
        return sum(len(r.split()) for r in refs), sum(len(h.split()) for h in hyps)
    except (AttributeError, TypeError):
        return -1, -1


def _short_corpus(metric: str, settings: Mapping[str, str], inputs: Mapping) -> bool:
    """Applies: BLEU, and the hypotheses hold fewer whitespace tokens in every segment than the
    order needs for some order (bleu.py:106 raises when an order has no candidate n-gram)."""
    if metric != "bleu":
        return False
    try:
        hyps, _ = segments(metric, inputs)
        n = int(settings.get("order", "4"))
        return max((len(h.split()) for h in hyps), default=0) < n
    except Exception:
        return False


def _perplexity(options: Mapping, inputs: Mapping) -> LibraryOutput:
    from torcheval.metrics.functional import perplexity

    from ._torchmetrics_text import perplexity_tensors
    z, t, ignore = perplexity_tensors(inputs, "torcheval", options["ignore_index"])
    return LibraryOutput(value=float(perplexity(z, t, ignore_index=ignore)))


def _classification(metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
    import torch
    import torcheval.metrics.functional as F

    _tm_classes.untranslatable(inputs, "torcheval")
    if _tm_classes.declared_none(inputs) and metric != "per_class_accuracy":
        target, preds, _ = _tm_classes._tensors(dict(inputs, labels=None), dict(options, label_set="union"))
        fn = {"confusion_matrix": F.multiclass_confusion_matrix, "accuracy": F.multiclass_accuracy,
              "balanced_accuracy": F.multiclass_accuracy, "precision": F.multiclass_precision,
              "recall": F.multiclass_recall, "f1": F.multiclass_f1_score}[metric]
        v = fn(preds, target, num_classes=0)
        return LibraryOutput(value=v.tolist() if v.dim() else float(v))
    if _tm_classes._rows(inputs["y_true"]) or _tm_classes._rows(inputs["y_pred"]):
        if metric != "accuracy":
            raise Skip("torcheval has no multilabel precision, recall, F1 or confusion matrix "
                       "(its multilabel_accuracy takes accuracy only)")
        # subset accuracy is multilabel_accuracy's default criteria="exact_match"
        # (multilabel_accuracy.py; 0/1 indicators against threshold=0.5)
        return LibraryOutput(value=float(F.multilabel_accuracy(torch.tensor(inputs["y_pred"]),
                                                               torch.tensor(inputs["y_true"]))))
    target, preds, labels = _tm_classes._tensors(inputs, options)
    c = len(labels)
    if c == 0 and metric == "accuracy":
        # no sample and no label: micro accuracy does not depend on the class count, and the
        # library needs num_classes >= 1
        return LibraryOutput(value=float(F.multiclass_accuracy(preds, target, average="micro", num_classes=1)))
    if c == 0:
        raise Skip("no label at all: torcheval needs num_classes >= 1")
    if metric == "confusion_matrix":
        how = options["normalize"]
        cm = F.multiclass_confusion_matrix(preds, target, c, normalize=None if how == "none" else how)
        cast = int if how == "none" else float
        return LibraryOutput(value=[[cast(x) for x in row] for row in cm.tolist()])
    if metric == "accuracy":
        return LibraryOutput(value=float(F.multiclass_accuracy(preds, target, average="micro", num_classes=c)))
    if metric == "balanced_accuracy":
        return LibraryOutput(value=float(F.multiclass_accuracy(preds, target, average="macro", num_classes=c)))
    average = options["average"]
    if average == "binary":
        # the binary functions take 1 as the positive class: the positive label becomes 1 and
        # the other label 0 (a renaming; the counts tp, fp, fn do not change)
        pos = inputs.get("pos_label", 1)
        if len(labels) > 2 or (pos not in labels and not set(labels) <= {0, 1}):
            raise Skip("average=binary: torcheval's binary functions take two labels, one of them pos_label")
        t = torch.tensor([int(_tm_classes._py(y) == pos) for y in inputs["y_true"]], dtype=torch.long)
        p = torch.tensor([int(_tm_classes._py(y) == pos) for y in inputs["y_pred"]], dtype=torch.long)
        fn = {"precision": F.binary_precision, "recall": F.binary_recall, "f1": F.binary_f1_score}[metric]
        return LibraryOutput(value=float(fn(p, t)))
    fn = {"precision": F.multiclass_precision, "recall": F.multiclass_recall, "f1": F.multiclass_f1_score}[metric]
    v = fn(preds, target, num_classes=c, average=None if average == "none" else average)
    if average == "none":
        return LibraryOutput(value={lab: float(x) for lab, x in zip(labels, v.tolist())})
    return LibraryOutput(value=float(v))
