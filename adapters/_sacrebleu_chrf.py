"""sacrebleu's chrF and chrF++ (``sacrebleu.metrics.CHRF``, 2.0 and later), for the
sacrebleu adapter: ``CHRF(char_order, word_order, beta, lowercase, whitespace,
eps_smoothing).corpus_score(hyps, streams)`` and ``.sentence_score(hyp, refs)``; the
score is in percent (``CHRFScore.score``, 100 * F)."""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, LibraryOutput, Skip
from oracle.compare import Tolerance

from ._bleu_inputs import bleu_inputs, sentence_inputs

METRICS = ("chrf", "sentence_chrf")
CAPABILITIES = {m: {"char_order": ANY, "word_order": ANY, "beta": ANY, "whitespace": ("no", "yes"),
                    "case": ("mixed", "lower"), "smoothing": ("effective-order", "eps")} for m in METRICS}
# CHRF() defaults: char_order=6, word_order=0, beta=2, lowercase=False, whitespace=False,
# eps_smoothing=False; the score is 100 * F
PROFILES = {m: {"char_order": "6", "word_order": "0", "beta": "2", "whitespace": "no", "case": "mixed",
                "smoothing": "effective-order", "scale": "percent"} for m in METRICS}
SOURCES = {
    "scale": "sacrebleu/metrics/chrf.py _compute_f_score: 'return 100 * score' (CHRFScore.score in 0-100)",
}
# float64: a mean of up to C + W ratios and one F: a few roundings of relative 2**-53
TOLERANCES = {m: Tolerance(ulps=16, rel=Fraction(1, 10 ** 12)) for m in METRICS}


def options(settings: Mapping[str, str]) -> dict:
    return {"char_order": int(settings["char_order"]), "word_order": int(settings["word_order"]),
            "beta": int(settings["beta"]), "lowercase": settings["case"] == "lower",
            "whitespace": settings["whitespace"] == "yes", "eps_smoothing": settings["smoothing"] == "eps"}


def corpus_streams(inputs: Mapping) -> tuple[list, list]:
    """(hypotheses, reference streams) of a corpus input as sacrebleu's corpus scores take
    them: stream j holds each segment's j-th reference, None where a segment has fewer.
    Skip an empty corpus (Metric._check_corpus_score_args reads hyps[0]) and a segment with
    no reference."""
    hyps, refs = bleu_inputs(inputs)
    if not hyps:
        raise Skip("sacrebleu cannot score an empty corpus (Metric._check_corpus_score_args reads hyps[0])")
    for i, r in enumerate(refs):
        if not r:
            raise Skip(f"references[{i}] is empty: sacrebleu needs at least one reference per segment")
    width = max(len(r) for r in refs)
    return hyps, [[r[j] if j < len(r) else None for r in refs] for j in range(width)]


def call(metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
    from sacrebleu.metrics import CHRF
    chrf = CHRF(**options)
    if metric == "chrf":
        score = chrf.corpus_score(*corpus_streams(inputs))
    else:
        hyp, refs = sentence_inputs(inputs)
        if not refs:
            raise Skip("sacrebleu's sentence_score needs at least one reference")
        score = chrf.sentence_score(hyp, refs)
    return LibraryOutput(value=score.score, raw=score)
