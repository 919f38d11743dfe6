"""The settings an audit searches: per metric, the knobs that matter and their
choices (``SPACES``), bounded to ``_MAX_SETTINGS`` per claim."""
from __future__ import annotations

import itertools

from oracle.conventions import ConventionError
from oracle.registry import get_metric

from conformance.audit.signatures import ClaimError

# ------------------------------------------------------------------ the space

_BLEU = {"tokenizer": ("none", "13a", "intl", "char"), "case": ("mixed", "lower"),
         "ref_length": ("closest-shorter", "closest-first", "shortest", "average"),
         "smoothing": ("none", "floor", "add-k", "exp", "cc4", "cc5", "cc6", "cc7", "coco",
                       "nltk4", "nltk5", "nltk7"),
         "no_match": ("smooth", "zero"), "effective_order": ("no", "yes")}
_WORDS = {"tokenize": ("whitespace", "spaces", "jiwer"), "case": ("mixed", "lower"), "punctuation": ("keep", "remove"),
          "aggregate": ("corpus", "mean", "contiguous"), "empty_reference": ("undefined", "insertions")}
_QA = {"normalization": ("none", "document", "squad"), "missing": ("zero", "skip"), "rule": ("v1.1", "v2.0")}
_ENTITY = {"scheme": ("iob1", "iob2", "iobes"), "reading": ("seqeval", "conlleval", "valid-only"),
           "average": ("micro", "macro", "weighted"), "matching": ("span", "pooled-type-text")}
_PRF = {"average": ("micro", "macro", "weighted"), "zero_division": ("zero", "one")}
_RANK = {"ties": ("trec_eval", "input-order", "expected", "optimistic", "pessimistic"), "threshold": ("1", "2"),
         "no_relevant": ("zero", "skip"), "missing": ("zero", "skip"), "queries": ("qrels", "run", "both")}
_GAINS = {"gain": ("linear", "exponential", "binary"), "threshold_gains": ("yes", "no")}
_CIDER = {"clip": ("yes", "no"), "penalty": ("gaussian", "none"), "factor": ("1", "10"), "tf": ("raw", "normalized"),
          "duplicates": ("keep", "collapse")}

SPACES = {
    "bleu": {**_BLEU, "level": ("corpus", "sentence-mean")},
    "sentence_bleu": dict(_BLEU),
    "wer": {**_WORDS, "tie": ("any", "sclite")},
    "mer": {**_WORDS, "tie": ("any", "prefer-substitution", "prefer-deletion-insertion", "diagonal-first",
                              "rapidfuzz", "sclite")},
    "cer": {"case": ("mixed", "lower"), "punctuation": ("keep", "remove"),
            "whitespace": ("strip", "keep", "collapse", "remove"), "unit": ("codepoint", "grapheme", "nfc-codepoint"),
            "aggregate": ("corpus", "mean"), "empty_reference": ("undefined", "insertions"), "tie": ("any", "sclite")},
    "error_counts": {**{k: v for k, v in _WORDS.items() if k in ("tokenize", "case", "punctuation")},
                     "aggregate": ("corpus", "contiguous")},
    "exact_match": _QA, "squad_f1": _QA,
    "perplexity": {"aggregate": ("corpus-token", "mean-per-text")},
    "token_accuracy": {},
    "entity_f1": _ENTITY, "entity_precision": _ENTITY, "entity_recall": _ENTITY,
    "entity_report": {k: v for k, v in _ENTITY.items() if k != "average"},
    "confusion_matrix": {}, "accuracy": {}, "per_class_accuracy": {},
    "precision": _PRF, "recall": _PRF, "f1": _PRF, "balanced_accuracy": {"adjusted": ("no", "yes")},
    "classification_report": {"zero_division": ("zero", "one")},
    "vqa_accuracy": {"rule": ("official", "at-least-3", "binary-3", "majority", "any"),
                     "normalization": ("official", "none"),
                     "normalize_side": ("official-2021", "official-2016", "both", "prediction", "answers")},
    "cross_modal_recall_at_k": {"direction": ("image-to-text", "text-to-image"),
                                "ties": ("expected", "optimistic", "pessimistic", "index-order")},
    "cider": _CIDER, "cider_d": _CIDER,
    "hit_rate": _RANK, "reciprocal_rank": _RANK, "recall_at_k": _RANK, "r_precision": _RANK,
    "precision_at_k": {**_RANK, "precision_denominator": ("k", "retrieved")},
    "average_precision": {**_RANK, "ap_denominator": ("relevant", "min-k-relevant", "retrieved-relevant")},
    "dcg": {**_RANK, **_GAINS},
    "ndcg": {**_RANK, "ideal": ("judged", "retrieved"), **_GAINS},
}
SPACES["wil"] = SPACES["wip"] = SPACES["mer"]
# trec_eval's further measures: its two deterministic tie rules and the query set
_TREC_FURTHER = {"ties": ("trec_eval", "input-order"), "threshold": ("1", "2"), "no_relevant": ("evaluate", "skip"),
                 "missing": ("zero", "skip"), "queries": ("qrels", "run", "both")}
SPACES.update({name: dict(_TREC_FURTHER) for name in (
    "num_retrieved", "num_relevant", "num_relevant_retrieved", "num_nonrelevant_judged_retrieved", "num_queries",
    "set_precision", "set_recall", "set_f", "set_ap", "set_relative_precision", "relative_precision_at_k",
    "precision_at_r_multiple", "bpref", "gm_bpref", "infap", "utility", "bin_g", "gm_ap", "g", "rndcg", "ndcg_rel")})
SPACES["interpolated_precision"] = dict(_TREC_FURTHER, recall_cutoff=("v9", "v10"))
SPACES["rbp"] = dict(_TREC_FURTHER, p=("1/2", "4/5", "19/20"))
SPACES["err"] = dict(_TREC_FURTHER, max_grade=("3", "4"))
SPACES["judged_at_k"] = dict(_TREC_FURTHER)
SPACES["eleven_point_ap"] = dict(_TREC_FURTHER, recall_cutoff=("v9", "v10"))

# a stated dependent knob is carried only into settings where its parent keeps its stated value
_DEPENDENT = {"smoothing_value": "smoothing", "sigma": "penalty", "tf": "clip", "normalize_side": "normalization"}
_MAX_SETTINGS = 20000
# sentence-level BLEU under Chen and Cherry methods 4-7 is searched up to this many segments
SENTENCE_MEAN_CC_LIMIT = 20000


def knob_space(metric: str, stated: dict, fixed: dict) -> list[dict]:
    """Canonical settings to evaluate, the stated one first; duplicates (same signature) removed."""
    m = get_metric(metric)
    space = {k: v for k, v in SPACES.get(metric, {}).items() if k not in fixed}
    stated_full = m.settings({**stated, **fixed})
    names = list(space)
    choices = []
    for k in names:
        vals = list(space[k])
        if stated_full[k] not in vals:
            vals.insert(0, stated_full[k])
        choices.append(vals)
    n = 1
    for c in choices:
        n *= len(c)
    if n > _MAX_SETTINGS:
        raise ClaimError(f"{metric}: {n} settings exceed the audit's bound of {_MAX_SETTINGS}; fix some knobs")
    out, seen = [stated_full], {m.signature(stated_full)}
    carried = {k: v for k, v in stated.items() if k not in space and k not in fixed}
    for combo in itertools.product(*choices):
        conv = dict(zip(names, combo))
        base = {}
        for k, v in carried.items():
            parent = _DEPENDENT.get(k)
            if parent is not None and parent in conv and conv[parent] != stated_full[parent]:
                continue
            base[k] = v
        if metric == "bleu" or metric == "sentence_bleu":
            base["scale"] = "fraction"
        try:
            s = m.settings({**base, **conv, **fixed})
        except ConventionError:
            continue
        sig = m.signature(s)
        if sig not in seen:
            seen.add(sig)
            out.append(s)
    return out
