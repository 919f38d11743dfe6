"""The oracle's metrics by name. Metric modules are imported on first use."""
from __future__ import annotations

import importlib

from .conventions import ConventionError, Metric, nearest

# metric name -> "module:attribute" of its Metric declaration
_WHERE = {
    "bleu": "oracle.bleu:BLEU",
    "sentence_bleu": "oracle.bleu:SENTENCE_BLEU",
    "bleu_statistics": "oracle.bleu_statistics:BLEU_STATISTICS",
    "chrf": "oracle.chrf:CHRF",
    "sentence_chrf": "oracle.chrf:SENTENCE_CHRF",
    "exact_match": "oracle.qa:EXACT_MATCH",
    "squad_f1": "oracle.qa:SQUAD_F1",
    "perplexity": "oracle.perplexity:PERPLEXITY",
    "wer": "oracle.error_rates:WER",
    "cer": "oracle.error_rates:CER",
    "mer": "oracle.error_rates:MER",
    "wil": "oracle.error_rates:WIL",
    "wip": "oracle.error_rates:WIP",
    "error_counts": "oracle.error_rates:ERROR_COUNTS",
    "hit_rate": "oracle.ranking:HIT_RATE",
    "reciprocal_rank": "oracle.ranking:RECIPROCAL_RANK",
    "precision_at_k": "oracle.ranking:PRECISION_AT_K",
    "recall_at_k": "oracle.ranking:RECALL_AT_K",
    "average_precision": "oracle.ranking:AVERAGE_PRECISION",
    "r_precision": "oracle.ranking:R_PRECISION",
    "dcg": "oracle.ranking:DCG",
    "ndcg": "oracle.ranking:NDCG",
    "num_retrieved": "oracle.ranking_trec:NUM_RETRIEVED",
    "num_relevant": "oracle.ranking_trec:NUM_RELEVANT",
    "num_relevant_retrieved": "oracle.ranking_trec:NUM_RELEVANT_RETRIEVED",
    "num_nonrelevant_judged_retrieved": "oracle.ranking_trec:NUM_NONRELEVANT_JUDGED_RETRIEVED",
    "num_queries": "oracle.ranking_trec:NUM_QUERIES",
    "set_precision": "oracle.ranking_trec:SET_PRECISION",
    "set_recall": "oracle.ranking_trec:SET_RECALL",
    "set_f": "oracle.ranking_trec:SET_F",
    "set_ap": "oracle.ranking_trec:SET_AP",
    "set_relative_precision": "oracle.ranking_trec:SET_RELATIVE_PRECISION",
    "relative_precision_at_k": "oracle.ranking_trec:RELATIVE_PRECISION_AT_K",
    "precision_at_r_multiple": "oracle.ranking_trec:PRECISION_AT_R_MULTIPLE",
    "interpolated_precision": "oracle.ranking_trec:INTERPOLATED_PRECISION",
    "eleven_point_ap": "oracle.ranking_trec:ELEVEN_POINT_AP",
    "bpref": "oracle.ranking_trec:BPREF",
    "gm_bpref": "oracle.ranking_trec:GM_BPREF",
    "rbp": "oracle.ranking_user:RBP",
    "err": "oracle.ranking_user:ERR",
    "judged_at_k": "oracle.ranking_user:JUDGED_AT_K",
    "infap": "oracle.ranking_trec:INFAP",
    "utility": "oracle.ranking_trec:UTILITY",
    "bin_g": "oracle.ranking_trec:BIN_G",
    "gm_ap": "oracle.ranking_trec:GM_AP",
    "g": "oracle.ranking_trec:G",
    "rndcg": "oracle.ranking_trec:RNDCG",
    "ndcg_rel": "oracle.ranking_trec:NDCG_REL",
    "token_accuracy": "oracle.tagging:TOKEN_ACCURACY",
    "entity_f1": "oracle.tagging:ENTITY_F1",
    "entity_precision": "oracle.tagging:ENTITY_PRECISION",
    "entity_recall": "oracle.tagging:ENTITY_RECALL",
    "entity_report": "oracle.tagging:ENTITY_REPORT",
    "ner_schema_precision": "oracle.ner_schemas:NER_SCHEMA_PRECISION",
    "ner_schema_recall": "oracle.ner_schemas:NER_SCHEMA_RECALL",
    "ner_schema_f1": "oracle.ner_schemas:NER_SCHEMA_F1",
    "ner_schema_report": "oracle.ner_schemas:NER_SCHEMA_REPORT",
    "confusion_matrix": "oracle.classification:CONFUSION_MATRIX",
    "accuracy": "oracle.classification:ACCURACY",
    "per_class_accuracy": "oracle.classification:PER_CLASS_ACCURACY",
    "precision": "oracle.classification:PRECISION",
    "recall": "oracle.classification:RECALL",
    "f1": "oracle.classification:F1",
    "balanced_accuracy": "oracle.classification:BALANCED_ACCURACY",
    "classification_report": "oracle.classification:CLASSIFICATION_REPORT",
    "score_average_precision": "oracle.score_ranking:SCORE_AVERAGE_PRECISION",
    "label_ranking_average_precision": "oracle.score_ranking:LABEL_RANKING_AVERAGE_PRECISION",
    "score_dcg": "oracle.score_ranking:SCORE_DCG",
    "score_ndcg": "oracle.score_ranking:SCORE_NDCG",
    "top_k_accuracy": "oracle.score_ranking:TOP_K_ACCURACY",
    "label_reciprocal_rank": "oracle.class_ranks:LABEL_RECIPROCAL_RANK",
    "vqa_accuracy": "oracle.vqa:VQA_ACCURACY",
    "cross_modal_recall_at_k": "oracle.retrieval:RECALL_AT_K",
    "cider": "oracle.cider:CIDER",
    "cider_d": "oracle.cider:CIDER_D",
    "multilabel_confusion_matrix": "oracle.multilabel:MULTILABEL_CONFUSION_MATRIX",
    "matthews_corrcoef": "oracle.agreement:MATTHEWS_CORRCOEF",
    "cohen_kappa": "oracle.agreement:COHEN_KAPPA",
    "ter": "oracle.ter:TER",
    "rouge_n": "oracle.rouge:ROUGE_N",
    "rouge_l": "oracle.rouge:ROUGE_L",
    "rouge_lsum": "oracle.rouge:ROUGE_LSUM",
    "rouge_s": "oracle.rouge:ROUGE_S",
}

_cache: dict[str, Metric] = {}


def metric_names() -> list[str]:
    return list(_WHERE)


def ranking_metrics() -> tuple[str, ...]:
    """The metrics of qrels and a run (oracle.ranking and trec_eval's further measures in
    oracle.ranking_trec, the user-model measures of oracle.ranking_user), in registry order."""
    return tuple(n for n, w in _WHERE.items()
                 if w.startswith(("oracle.ranking:", "oracle.ranking_trec:", "oracle.ranking_user:")))


def get_metric(name: str) -> Metric:
    if name in _cache:
        return _cache[name]
    if name not in _WHERE:
        raise ConventionError(f"unknown metric {name!r}" + (nearest(name, _WHERE) or
                              ": not supported") + f"; the oracle has {', '.join(_WHERE)}")
    mod, attr = _WHERE[name].split(":")
    m = getattr(importlib.import_module(mod), attr)
    _cache[name] = m
    return m


def compute(metric: str, inputs, conventions=None):
    """Exact result of ``metric`` on ``inputs`` under ``conventions``."""
    return get_metric(metric).compute(inputs, conventions)


def modern_names(text: str) -> str:
    """``text`` (a report's test name or signature, a known failure's title) with every
    renamed knob value written ``knob=old`` or ``key:old`` given its new name."""
    import re
    for name in metric_names():
        for k in get_metric(name).knobs:
            for old, new in k.renamed.items():
                for sep, label in (("=", k.name), (":", k.sig_key)):
                    text = re.sub(rf"(?<![\w-]){re.escape(label)}{sep}{re.escape(old)}(?![\w-])",
                                  f"{label}{sep}{new}", text)
    return text
