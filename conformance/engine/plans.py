"""Per-metric plans for the property templates: which inputs to draw, the
value's bounds, the transformations that must not change it, and the inputs
whose value is known without computing (a hypothesis equal to its reference).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Callable, Mapping

from hypothesis import strategies as st

from conformance import strategies as S
from conformance.strategies import summaries as SU
from conformance.strategies import translations as ST_


@dataclass(frozen=True)
class Plan:
    metric: str
    inputs: Callable[[Mapping], st.SearchStrategy]           # settings -> strategy of inputs
    upper: Callable[[Mapping], Fraction | None] = lambda s: Fraction(1)   # None: no upper bound
    lower: Callable[[Mapping], Fraction | None] = lambda s: Fraction(0)   # None: no lower bound
    invariances: Mapping[str, Callable] = field(default_factory=dict)  # name -> (inputs, data) -> inputs
    identity: Callable | None = None                          # (inputs, settings) -> (inputs', exact value) | None
    # other shapes of input the metric takes (multilabel indicator rows, say): name ->
    # (settings -> whether the form applies, settings -> strategy of inputs of that form)
    forms: Mapping[str, tuple] = field(default_factory=dict)


def _scale(s: Mapping) -> Fraction:
    return Fraction(100) if s.get("scale") == "percent" else Fraction(1)


def _bleu_upper(s: Mapping) -> Fraction | None:
    """1 (or 100); none under Chen and Cherry 5 and 7 and NLTK's 5 and 7, whose averaged
    counts (precisions) can exceed the totals (1)."""
    return None if s.get("smoothing") in ("cc5", "cc7", "nltk5", "nltk7") else _scale(s)


def _permute_segments(inputs, data):
    keys = [k for k in inputs if isinstance(inputs[k], list)]
    n = len(inputs[keys[0]])
    order = data.draw(st.permutations(range(n)), label="segment order")
    return {k: ([inputs[k][i] for i in order] if k in keys else inputs[k]) for k in inputs}


def _permute_references(inputs, data):
    """Each segment's (or question's) references in another order: sentence BLEU's one
    list; corpus BLEU's and QA's list per segment or question (a permutation of that
    outer list would pair references with other hypotheses)."""
    if "references" not in inputs:
        return inputs
    out = dict(inputs)
    if "hypothesis" in inputs:
        out["references"] = data.draw(st.permutations(inputs["references"]), label="reference order")
    else:
        out["references"] = [data.draw(st.permutations(r), label="reference order") for r in inputs["references"]]
    return out


def _bleu_identity(inputs, settings):
    """Each hypothesis replaced by its first reference: BLEU is 1 when every
    hypothesis has at least N tokens (all precisions 1, BP 1). Not under
    smoothing=coco, whose epsilons keep every precision and BP below 1."""
    if settings.get("smoothing") == "coco":
        return None
    n = int(settings.get("order", "4"))
    refs = inputs["references"] if "hypotheses" in inputs else [inputs["references"]]
    firsts = [r[0] for r in refs]
    # every tokenizer splits at least at whitespace, so N words give at least N tokens
    if any(len(x.split()) < n for x in firsts):
        return None
    new = dict(inputs)
    if "hypotheses" in inputs:
        new["hypotheses"] = firsts
    else:
        new["hypothesis"] = firsts[0]
    return new, _scale(settings)


def _ter_identity(inputs, settings):
    """Each hypothesis replaced by its first reference: no edit, TER 0 (the references of the
    strategy have words, so the reference length is positive)."""
    if not all(rs[0].strip() for rs in inputs["references"]):
        return None   # an empty reference: no word to divide by, or none to match
    new = dict(inputs)
    new["hypotheses"] = [r[0] for r in inputs["references"]]
    return new, Fraction(0)


def _em_identity(inputs, settings):
    new = dict(inputs)
    new["predictions"] = [g[0] for g in inputs["references"]]
    return new, Fraction(1)


PLANS: dict[str, Plan] = {
    "bleu": Plan(
        "bleu",
        lambda s: S.bleu_corpus(S.tricky_words if s.get("tokenizer") != "none" else S.words),
        upper=_bleu_upper,
        invariances={"segment-order": _permute_segments, "reference-order": _permute_references},
        identity=_bleu_identity),
    "sentence_bleu": Plan(
        "sentence_bleu",
        lambda s: S.sentence_bleu_inputs(S.tricky_words if s.get("tokenizer") != "none" else S.words),
        upper=_bleu_upper,
        invariances={"reference-order": _permute_references},
        identity=_bleu_identity),
    "bleu_statistics": Plan(
        "bleu_statistics", lambda s: S.bleu_statistics(int(s.get("order", "4"))), upper=_bleu_upper),
    # chrF: a segment's best reference is the first of equal F, so reference order can matter
    "chrf": Plan(
        "chrf", lambda s: S.bleu_corpus(S.tricky_words), upper=_scale,
        invariances={"segment-order": _permute_segments}),
    "sentence_chrf": Plan(
        "sentence_chrf", lambda s: S.sentence_bleu_inputs(S.tricky_words), upper=_scale),
    # ROUGE: the mean and the pooled statistics are sums over segments (their order is
    # free); pooled and averaged references are sums over references, and the best
    # reference is the first of equal ones, which another order can change
    **{name: Plan(name, lambda s: SU.summaries(), upper=_scale, invariances={"segment-order": _permute_segments})
       for name in ("rouge_n", "rouge_l", "rouge_lsum", "rouge_s")},
    # TER: edits over reference words, unbounded above (insertions); a hypothesis equal to
    # a reference needs no edit
    "ter": Plan("ter", lambda s: ST_.translations(), upper=lambda s: None,
                invariances={"segment-order": _permute_segments, "reference-order": _permute_references},
                identity=_ter_identity),
    "exact_match": Plan(
        "exact_match", lambda s: S.qa_items(),
        invariances={"item-order": _permute_segments, "reference-order": _permute_references},
        identity=_em_identity),
    "squad_f1": Plan(
        "squad_f1", lambda s: S.qa_items(),
        invariances={"item-order": _permute_segments, "reference-order": _permute_references}),
    "perplexity": Plan(
        "perplexity", lambda s: S.token_probabilities(),
        upper=lambda s: Fraction(10 ** 9),
        invariances={"text-order": _permute_segments},
        # the logits form (the shift and logit_precision knobs act there only)
        forms={"logits": (lambda s: True, lambda s: S.token_logits())}),
}


from conformance.strategies import classification as SC  # noqa: E402

PLANS.update({name: Plan(name, SC.for_settings, upper=SC.upper(name), invariances=SC.invariances(name),
                         identity=SC.perfect_prediction(name), forms=SC.forms(name)) for name in SC.METRICS})
# chance-adjusted balanced accuracy goes down to -1/(K-1)
PLANS["balanced_accuracy"] = Plan(
    "balanced_accuracy", SC.for_settings, upper=SC.upper("balanced_accuracy"),
    lower=lambda s: None if s.get("adjusted") == "yes" else Fraction(0),
    invariances=SC.invariances("balanced_accuracy"), identity=SC.perfect_prediction("balanced_accuracy"),
    forms=SC.forms("balanced_accuracy"))


# MCC in [-1, 1]; kappa at most 1 and, weighted, with no lower bound of its own (a weighted
# disagreement may exceed twice the chance one). The order of declared labels weighs kappa.
for _name, _lower in (("matthews_corrcoef", Fraction(-1)), ("cohen_kappa", None)):
    PLANS[_name] = Plan(_name, SC.for_settings, upper=lambda s: Fraction(1), lower=lambda s, v=_lower: v,
                        invariances={"sample-order": SC.permute_samples}, forms=SC.forms(_name))

# per-label (or per-sample) counts: no upper bound; samplewise matrices exist for indicator rows only
PLANS["multilabel_confusion_matrix"] = Plan(
    "multilabel_confusion_matrix",
    lambda s: SC.multilabel_for(s) if s.get("samplewise") == "yes" else SC.for_settings(s), upper=lambda s: None,
    invariances={"sample-order": SC.permute_samples},
    forms={"multilabel": (lambda s: s.get("samplewise") != "yes", SC.multilabel_for), **SC.forms("confusion_matrix")})

from conformance.strategies import tagging as ST  # noqa: E402

PLANS.update({name: Plan(name, ST.for_settings, upper=ST.upper(name), invariances=ST.invariances(name),
                         identity=ST.perfect_prediction(name)) for name in ST.METRICS})


from conformance.strategies import ranking as SR  # noqa: E402

PLANS.update({name: Plan(name, SR.for_settings, upper=SR.upper(name), lower=SR.lower(name),
                         invariances=SR.invariances(name), identity=SR.identity(name)) for name in SR.METRICS})


from conformance.strategies import speech as SS  # noqa: E402

PLANS.update({name: Plan(name, SS.for_settings, upper=SS.upper(name), invariances=SS.invariances(name),
                         identity=SS.identity(name)) for name in SS.METRICS})


from conformance.strategies import multimodal as SM  # noqa: E402

PLANS.update({
    "vqa_accuracy": Plan("vqa_accuracy", lambda s: SM.vqa_items(),
                         invariances={"question-order": SM.permute_questions,
                                      "annotator-order": SM.permute_annotators},
                         identity=SM.vqa_identity),
    "cross_modal_recall_at_k": Plan("cross_modal_recall_at_k", SM.similarity_for_settings,
                                    invariances={"query-order": SM.permute_images,
                                                 "candidate-order": SM.permute_candidates},
                                    identity=SM.retrieval_identity),
    "cider": Plan("cider", lambda s: SM.caption_inputs(), upper=SM.cider_upper,
                  invariances={"image-order": SM.permute_images_cider,
                               "reference-order": SM.permute_references_cider}),
    "cider_d": Plan("cider_d", lambda s: SM.caption_inputs(), upper=SM.cider_upper,
                    invariances={"image-order": SM.permute_images_cider,
                                 "reference-order": SM.permute_references_cider}),
})


from conformance.strategies import scores as SCO  # noqa: E402


PLANS.update({name: Plan(name, SCO.for_settings(name), invariances=SCO.invariances(name),
                         forms=SCO.weighted_forms(name))
              for name in ("score_average_precision", "label_ranking_average_precision", "score_ndcg",
                           "top_k_accuracy", "label_reciprocal_rank")})
# DCG has no upper bound (gains add up), and goes below 0 with negative grades
PLANS["score_dcg"] = Plan("score_dcg", SCO.for_settings("score_dcg"), upper=lambda s: None, lower=lambda s: None,
                          invariances=SCO.invariances("score_dcg"), forms=SCO.weighted_forms("score_dcg"))


def plan_for(metric: str) -> Plan | None:
    return PLANS.get(metric)
