"""torchmetrics (Lightning-AI/torchmetrics, 1.x): its functional API mapped onto the oracle.

The families live in helper modules, each with its calls, profile and sources:
``_torchmetrics_text`` (WER, CER, MER, WIL, WIP, BLEU and SacreBLEU, SQuAD, perplexity) and
``_torchmetrics_retrieval`` (hit rate, MRR, precision, recall, MAP, R-precision, nDCG, through
the stateful classes with query indexes) and ``_torchmetrics_classes`` (confusion matrix,
accuracy, per-class and balanced accuracy, precision, recall, F-beta; multilabel rows).

torchmetrics computes in float32 unless given float64 tensors: the text metrics build
their totals as float32 tensors (``tensor(0, dtype=torch.float)``), so their tolerances
are counted in float32 ULPs (``Tolerance.ulps32``); where the library keeps the caller's
dtype (perplexity's logits) the adapter passes float64, which judges the formula rather
than the precision the caller picks.

Findings are in ``known_failures/torchmetrics.json``; the defects with a model here:
- ``max-length-as-hits`` (MER, WIL, WIP): the hits are taken as
  ``max(len(ref), len(hyp)) - errors`` per pair (mer.py ``_mer_update``: ``total +=
  max(len(tgt_tokens), len(pred_tokens))``; wil.py/wip.py: ``errors - total``), which is
  H + S + max(D, I) - (S + D + I) = H - min(D, I): too few hits, and MER's denominator
  H + S + max(D, I) instead of H + S + D + I, whenever a minimum-cost alignment needs both a
  deletion and an insertion;
- ``smoothing-after-zero-check`` (BLEU with smooth=True): ``_bleu_score_compute`` returns 0
  when any order has no match (``if min(numerator) == 0.0``) before it smooths, so add-one
  smoothing never rescues a zero order.
"""
from __future__ import annotations

from typing import Mapping

from conformance.protocol import Adapter, LibraryOutput

from . import _torchmetrics_agreement as _agreement
from . import _torchmetrics_classes as _classes
from . import _torchmetrics_retrieval as _retrieval
from . import _torchmetrics_rouge as _rouge
from . import _torchmetrics_ter as _ter
from . import _torchmetrics_text as _text
from ._bleu_inputs import intl_entities, intl_without_entities


class TorchMetrics(Adapter):
    name = "torchmetrics"
    # the exceptions its own code refuses an input with: utilities/checks.py raises ValueError; torch's own tensor checks raise RuntimeError (an index out of range in bincount, a shape mismatch)
    refusals = {"*": ("ValueError", "TypeError", "RuntimeError")}
    library = "torchmetrics"
    import_name = "torchmetrics"
    versions = ">=1.0,<2"
    homepage = "https://lightning.ai/docs/torchmetrics/"
    issues = "https://github.com/Lightning-AI/torchmetrics/issues"
    capabilities = {**_text.CAPABILITIES, **_retrieval.CAPABILITIES, **_classes.CAPABILITIES,
                    **_agreement.CAPABILITIES, **_rouge.CAPABILITIES,
                    **_ter.CAPABILITIES}
    profiles = {**_text.PROFILES, **_retrieval.PROFILES, **_classes.PROFILES, **_agreement.PROFILES,
                **_rouge.PROFILES, **_ter.PROFILES}
    profile_sources = {"*": _text.SOURCES, **{m: _retrieval.SOURCES for m in _retrieval.METRICS},
                       **{m: _classes.SOURCES for m in _classes.METRICS},
                       **{m: _agreement.SOURCES for m in _agreement.METRICS},
                       **{m: _rouge.SOURCES for m in _rouge.METRICS}, "ter": _ter.SOURCES}
    tolerances = {**_text.TOLERANCES, **_retrieval.TOLERANCES, **_classes.TOLERANCES, **_agreement.TOLERANCES,
                  **_rouge.TOLERANCES, **_ter.TOLERANCES}
    undefined = dict(_agreement.UNDEFINED)
    input_forms = dict(_classes.INPUT_FORMS)

    def supports(self, metric: str, settings: Mapping[str, str]) -> str | None:
        why = super().supports(metric, settings)
        if why is None and metric in _classes.METRICS:
            why = _classes.supports(metric, settings)
        return why

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        if metric in _agreement.METRICS:
            return _agreement.options(metric, settings)
        if metric in _rouge.METRICS:
            return _rouge.options(metric, settings)
        if metric in _ter.METRICS:
            return _ter.options(settings)
        if metric in _classes.METRICS:
            return _classes.options(metric, settings)
        if metric in _retrieval.METRICS:
            return _retrieval.options(metric, settings)
        return _text.options(metric, settings)

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        _one_thread()
        if metric in _agreement.METRICS:
            return _agreement.call(metric, options, inputs)
        if metric in _rouge.METRICS:
            return _rouge.call(metric, options, inputs)
        if metric in _ter.METRICS:
            return _ter.call(metric, options, inputs)
        if metric in _classes.METRICS:
            return _classes.call(metric, options, inputs)
        if metric in _retrieval.METRICS:
            return _retrieval.call(metric, options, inputs)
        return _text.call(metric, options, inputs)

    # multiclass_accuracy(preds, target, num_classes) averages per class by default
    # (average='macro'): the mean of the per-class recalls, balanced accuracy
    bare_metrics = {"accuracy": "balanced_accuracy"}
    bare_sources = {"accuracy": "torchmetrics/functional/classification/accuracy.py multiclass_accuracy("
                                "average='macro'): 'macro: Calculate statistics for each label and average them'"}

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """The functional API with the inputs and the required arguments only: the text
        functions ``word_error_rate(preds, target)``..., ``bleu_score(preds, target)``,
        ``squad``, ``perplexity(preds, target)``; ``multiclass_*(preds, target, num_classes)``;
        the retrieval classes with no argument (``RetrievalMAP()``), one update with indexes."""
        _one_thread()
        if metric in _retrieval.METRICS:
            return _retrieval.call_bare(metric, inputs, self.bare_profile(metric))
        if metric in _classes.METRICS:
            return _classes.call_bare(metric, inputs)
        if metric in _rouge.METRICS:
            return _rouge.call_bare(metric, inputs)
        if metric in _ter.METRICS:
            return _ter.call_bare(metric, inputs)
        if metric in _agreement.METRICS:   # (preds, target, num_classes): no optional argument
            return _agreement.call(metric, _agreement.options(metric, self.bare_profile(metric)), inputs)
        return _text.call_bare(metric, inputs)

    def defect_classifiers(self) -> dict:
        return {"max-length-as-hits": _max_length_as_hits,
                "smoothing-after-zero-check": _smoothing_after_zero_check,
                "torch-sort-tie-order": _ties_in_run,
                "non-positive-score-not-relevant": _non_positive_relevant,
                "single-class-refused": _classes.single_class,
                "mcc-binary-degenerate": _agreement.binary_degenerate,
                "ter-swapped-roles": _ter.swapped_roles,
                "all-queries-skipped-zero": _all_skipped,
                "macro-drops-unseen-declared-classes": _classes.macro_drops_unseen,
                "topk-tie-order": _classes.topk_tie_order,
                "predicted-only-class-counts-zero": _classes.predicted_only_class,
                "negative-gain-in-ideal": _retrieval.has_negative_grade,
                "first-closest-reference": _first_closest_differs,
                "float32-softmax-underflow": _text.float32_softmax_underflow,
                "empty-tokens-f1-equality": _empty_tokens_f1_differs,
                "intl-no-entities": intl_entities,
                "no-reference-word": _no_reference_unit,
                "weighted-no-support-zero": _weighted_no_support,
                "beta-inf-nan": lambda metric, settings, inputs: metric == "f1" and settings.get("beta") == "inf"}

    def defect_models(self) -> dict:
        return {"max-length-as-hits": _max_length_model,
                "mcc-binary-degenerate": _agreement.binary_degenerate_model,
                "ter-swapped-roles": _ter.swapped_roles_model,
                "smoothing-after-zero-check": lambda metric, settings, inputs: 0,
                "torch-sort-tie-order": lambda m, s, i: _retrieval.library_model(m, s, i, positive_only=False),
                "non-positive-score-not-relevant": lambda m, s, i: _retrieval.library_model(m, s, i, positive_only=True),
                "macro-drops-unseen-declared-classes": _classes.macro_drops_unseen_model,
                "topk-tie-order": _classes.topk_tie_order_model,
                "all-queries-skipped-zero": lambda metric, settings, inputs: 0,
                "predicted-only-class-counts-zero": _classes.predicted_only_class_model,
                "negative-gain-in-ideal": _retrieval.negative_ideal_model,
                "first-closest-reference": _first_closest_model,
                "float32-softmax-underflow": lambda metric, settings, inputs: float("inf"),
                "empty-tokens-f1-equality": _empty_tokens_f1_model,
                "intl-no-entities": intl_without_entities,
                "no-reference-word": _no_reference_unit_model,
                "weighted-no-support-zero": lambda metric, settings, inputs: 0,
                "beta-inf-nan": lambda metric, settings, inputs: float("nan")}


_THREADS_SET_IN: list = []


def _one_thread() -> None:
    """torch's intra-op thread pool, once per process, set to one thread. A worker forked from
    a process whose OpenMP pool is running (a test that called torch before the run) hangs in
    its first parallel op (softmax, for one) unless it runs single-threaded; the inputs here
    are small, so one thread costs nothing."""
    import os
    if _THREADS_SET_IN != [os.getpid()]:
        import torch
        torch.set_num_threads(1)
        _THREADS_SET_IN[:] = [os.getpid()]


def _all_skipped(metric, settings, inputs) -> bool:
    """Applies: a retrieval measure under no_relevant=skip where no retrieved row of any query
    is relevant (every query is skipped; retrieval/base.py returns tensor(0.0))."""
    if metric not in _retrieval.METRICS or settings.get("no_relevant") != "skip" or "run" not in inputs:
        return False
    try:
        t = int(settings.get("threshold", "1"))
        return all(int(inputs["qrels"].get(q, {}).get(d, 0)) < t for q, r in inputs["run"].items()
                   for d in (r if isinstance(r, dict) else [row[0] for row in r]))
    except Exception:
        return False


def _ties_in_run(metric, settings, inputs) -> bool:
    """Applies: a binary retrieval measure (nDCG averages ties) and a query with two scores equal
    as float32 (the library's ``preds.float()``)."""
    if metric not in _retrieval.METRICS or metric == "ndcg" or "run" not in inputs:
        return False
    try:
        import numpy as np
        run = _retrieval.float_run(inputs)
    except Exception:
        return False
    with np.errstate(over="ignore"):   # ties as the library sees them: its scores are float32
        return any(len({float(np.float32(v)) for v in r.values()}) < len(r) for r in run.values())


def _non_positive_relevant(metric, settings, inputs) -> bool:
    """Applies: AP, MRR, precision or recall, and a retrieved relevant document of score <= 0."""
    if metric not in ("average_precision", "reciprocal_rank", "precision_at_k", "recall_at_k") or "run" not in inputs:
        return False
    try:
        run = _retrieval.float_run(inputs)
    except Exception:
        return False
    t = int(settings.get("threshold", "1"))
    return any(s <= 0 and int(inputs["qrels"].get(q, {}).get(d, 0)) >= t
               for q, r in run.items() for d, s in r.items())


def _pairs(inputs: Mapping):
    return [(r.split(), h.split()) for r, h in zip(inputs.get("references", []), inputs.get("hypotheses", []))]


def _max_length_as_hits(metric, settings, inputs) -> bool:
    """Applies: MER, WIL or WIP on non-empty lists of equal length (the model then says whether
    the library's hits, sum of max(N, P) - d, give the value found)."""
    if metric not in ("mer", "wil", "wip"):
        return False
    refs, hyps = inputs.get("references"), inputs.get("hypotheses")
    return isinstance(refs, list) and isinstance(hyps, list) and len(refs) == len(hyps) and bool(refs)


def _max_length_model(metric, settings, inputs):
    """The library's value: d = sum of the Levenshtein distances, T = sum of max(N_u, P_u),
    N and P the reference and hypothesis token totals; MER = d / T, WIP = (T - d)**2 / (N P),
    WIL = 1 - WIP (Fractions; NaN where a denominator is 0)."""
    from fractions import Fraction
    from oracle.alignment import levenshtein
    pairs = _pairs(inputs)
    d = sum(levenshtein(r, h) for r, h in pairs)
    t = sum(max(len(r), len(h)) for r, h in pairs)
    n, p = sum(len(r) for r, _ in pairs), sum(len(h) for _, h in pairs)
    if metric == "mer":
        return Fraction(d, t) if t else float("nan")
    if not n or not p:
        return float("nan")   # 0 / 0 in tensors
    wip = Fraction((t - d) ** 2, n * p)
    return wip if metric == "wip" else 1 - wip


def _units(metric: str, inputs) -> tuple[int, int]:
    """(reference units, hypothesis units) as torchmetrics counts them: words split at
    whitespace for WER, characters for CER."""
    refs, hyps = inputs.get("references"), inputs.get("hypotheses")
    if isinstance(refs, str):
        refs, hyps = [refs], [hyps]
    if metric == "cer":
        return sum(len(r) for r in refs), sum(len(h) for h in hyps)
    return sum(len(r.split()) for r in refs), sum(len(h.split()) for h in hyps)


def _no_reference_unit(metric, settings, inputs) -> bool:
    """Applies: WER or CER on lists of texts whose references hold no word (no character):
    torchmetrics divides the errors by a total of 0 (functional/text/wer.py
    ``_wer_compute``: ``errors / total``; cer.py alike), where the rate is undefined."""
    if metric not in ("wer", "cer"):
        return False
    try:
        return _units(metric, inputs)[0] == 0
    except (AttributeError, TypeError):
        return False


def _no_reference_unit_model(metric, settings, inputs):
    """The library's value: every hypothesis unit an insertion over a total of 0, inf;
    0 / 0 (no hypothesis unit either), NaN."""
    return float("inf") if _units(metric, inputs)[1] else float("nan")


def _weighted_no_support(metric, settings, inputs) -> bool:
    """Applies: precision, recall or F1 with average=weighted on indicator rows where no
    label is ever positive in y_true: every weight (tp + fn) is 0 and torchmetrics'
    ``_adjust_weights_safe_divide`` (functional/classification/stat_scores.py) divides by
    their sum of 0 with ``_safe_divide``, which gives 0 where the average is undefined."""
    if metric not in ("precision", "recall", "f1") or settings.get("average") != "weighted":
        return False
    y = inputs.get("y_true")
    return isinstance(y, list) and bool(y) and all(isinstance(r, list) for r in y) and not any(any(r) for r in y)


def _smoothing_after_zero_check(metric, settings, inputs) -> bool:
    """Applies: smoothing=add-k and some order of the pooled counts has no match."""
    if metric not in ("bleu", "sentence_bleu") or settings.get("smoothing") != "add-k":
        return False
    from oracle.registry import compute
    try:
        stats = compute(metric, inputs, dict(settings)).stats
    except Exception:
        return False
    return any(m == 0 for m in stats.get("matches", [])[:int(settings.get("order", "4"))])


def _first_closest_model(metric, settings, inputs):
    """The library's BLEU: the oracle's with ref_length=closest-first (the first of the equally
    close references, bleu.py ``target_len_diff.index(min(target_len_diff))``)."""
    from oracle.registry import compute
    return compute(metric, inputs, {**settings, "ref_length": "closest-first"}).value


def _first_closest_differs(metric, settings, inputs) -> bool:
    """Applies: BLEU, and a segment whose first closest reference is longer than a later one as
    close (a hypothesis of 4 tokens with references of 5 and 3), where the two rules can give
    different values."""
    if metric not in ("bleu", "sentence_bleu") or settings.get("ref_length") != "closest-shorter":
        return False
    from oracle.registry import compute
    try:
        return compute(metric, inputs, {**settings, "ref_length": "closest-first"}).value != \
            compute(metric, inputs, dict(settings)).value
    except Exception:
        return False


def _empty_tokens_f1_model(metric, settings, inputs):
    """The library's SQuAD F1: the golds as given (the v1.1 script's, the profile's rule) and,
    where a side normalizes to no token, int(pred_tokens == gold_tokens) (the v2.0 script's
    compute_f1; torchmetrics/functional/text/squad.py _compute_f1_score)."""
    from fractions import Fraction
    from oracle.qa import _score_items, token_f1
    scores, _ = _score_items(inputs, {**settings, "rule": "v1.1"},
                             lambda p, g, s: token_f1(p.split(), g.split(), "v2.0"))
    counted = [x for x in scores if x is not None]
    return sum(counted, Fraction(0)) / len(counted) if counted else None


def _empty_tokens_f1_differs(metric, settings, inputs) -> bool:
    """Applies: SQuAD F1 under rule=v1.1 where the library's F1 of an answer without tokens
    gives another value than the v1.1 script's."""
    if metric != "squad_f1" or settings.get("rule") != "v1.1":
        return False
    from oracle.registry import compute
    try:
        return _empty_tokens_f1_model(metric, settings, inputs) != compute(metric, inputs, dict(settings)).value
    except Exception:
        return False
