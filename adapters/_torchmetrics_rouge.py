"""torchmetrics' ROUGE (``torchmetrics.functional.text.rouge_score``, 1.x) mapped onto
``rouge_n`` and ``rouge_l``: ``rouge_score(preds, target, accumulate, rouge_keys=(key,))``
and the ``{key}_{fmeasure|precision|recall}`` entry of its result, where key is
``rouge{n}`` (n = 1..9, ``ALLOWED_ROUGE_KEYS``) or ``rougeL``.

Profile (1.9.0, functional/text/rouge.py): the text lowercased and every run outside
[a-z0-9] replaced by a space, then split (``_normalize_and_tokenize_text``, "follows the
implementation from rouge_score"): tokenizer=rouge-score; ``accumulate='best'`` (the
reference of highest F, ``torch.argmax``): multi_reference=best-f, and ``'avg'`` the mean
of each measure over the references: average; F1 (``_compute_metrics``): alpha=1/2; the
corpus value is the mean of the sentences' values (``_rouge_score_compute``):
aggregate=mean. ``use_stemmer=False`` only (the oracle has no Porter stemmer).
ROUGE-Lsum is not offered: torchmetrics splits sentences with ``nltk.sent_tokenize``
(Punkt, a trained model fetched at run time), which no knob of the oracle describes.
Values are float32 tensors."""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import LibraryOutput, Skip
from oracle.compare import Tolerance

METRICS = ("rouge_n", "rouge_l")
_FIELD = {"f": "fmeasure", "recall": "recall", "precision": "precision"}
_COMMON = {"measure": ("f", "recall", "precision"), "alpha": ("1/2",), "tokenizer": ("rouge-score",),
           "multi_reference": ("best-f", "average"), "aggregate": ("mean",), "scale": ("fraction",)}
CAPABILITIES = {"rouge_n": dict(_COMMON, n=lambda v, s: 1 <= int(v) <= 9), "rouge_l": dict(_COMMON)}
_PROFILE = {"measure": "f", "alpha": "1/2", "tokenizer": "rouge-score", "multi_reference": "best-f",
            "aggregate": "mean", "scale": "fraction"}
PROFILES = {"rouge_n": dict(_PROFILE, n="1"), "rouge_l": dict(_PROFILE)}
SOURCES = {
    "tokenizer": "torchmetrics/functional/text/rouge.py _normalize_and_tokenize_text: re.sub(r'[^a-z0-9]+', ' ', "
                 "text.lower()) ('replacing any non-alpha-numeric characters with spaces is default')",
    "multi_reference": "functional/text/rouge.py rouge_score(accumulate='best'): 'best - the maximum score among "
                       "the references' (torch.argmax of fmeasure)",
    "aggregate": "functional/text/rouge.py _rouge_score_compute: torch.tensor(scores).mean() over the sentences",
}
# float32: P, R and F of integer counts, then a float32 mean over sentences and references
TOLERANCES = {m: Tolerance(ulps32=16, abs=Fraction(1, 10 ** 6)) for m in METRICS}


def options(metric: str, settings: Mapping[str, str]) -> dict:
    key = f"rouge{int(settings['n'])}" if metric == "rouge_n" else "rougeL"
    return {"key": key, "field": _FIELD[settings["measure"]],
            "accumulate": "avg" if settings["multi_reference"] == "average" else "best"}


def call(metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
    from torchmetrics.functional.text import rouge_score

    hyps, refs = inputs["hypotheses"], inputs["references"]
    if isinstance(refs, list) and any(isinstance(r, list) and not r for r in refs):
        raise Skip("a segment with no reference: torchmetrics takes a list of references per prediction")
    out = rouge_score(list(hyps) if isinstance(hyps, list) else hyps, refs, accumulate=options["accumulate"],
                      rouge_keys=(options["key"],))
    return LibraryOutput(value=float(out[f"{options['key']}_{options['field']}"]))


def call_bare(metric: str, inputs: Mapping) -> LibraryOutput:
    """``rouge_score(preds, target)``: every key with accumulate='best'; rouge1 (rouge_n) or
    rougeL F taken from it (its default keys include rougeLsum, which needs Punkt: the bare
    call asks for the metric's own key)."""
    from torchmetrics.functional.text import rouge_score

    key = "rouge1" if metric == "rouge_n" else "rougeL"
    out = rouge_score(list(inputs["hypotheses"]), inputs["references"], rouge_keys=(key,))
    return LibraryOutput(value=float(out[f"{key}_fmeasure"]))
