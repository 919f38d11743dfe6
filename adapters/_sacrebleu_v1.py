"""sacrebleu 1.x (before 2.0): ``sacrebleu.corpus_bleu`` with the options as keywords, for
the sacrebleu adapter (its releases with the 1.x API)."""
from __future__ import annotations

from typing import Mapping

from conformance.protocol import LibraryOutput, Skip

from ._bleu_inputs import bleu_inputs, sentence_inputs

_NONE_REFS = ">=1.5.0"     # a missing reference (None) is dropped: 1.5.0's 'variable number of references'


def call_v1(adapter, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
    """1.x: ``sacrebleu.corpus_bleu`` (its BLEUScore has score, counts, totals, sys_len,
    ref_len); a sentence as a corpus of one segment (1.x ``BLEU.sentence_score``)."""
    if metric == "bleu":
        hyps, refs = bleu_inputs(inputs)
    elif metric == "sentence_bleu":
        hyp, refs = sentence_inputs(inputs)
        if not refs:
            raise Skip("sacrebleu's sentence_score needs at least one reference (it reads refs[0])")
        # 1.x BLEU.sentence_score passes the hypothesis on to corpus_score as given (which
        # wraps a str in a list): one that is no str reaches corpus_score itself, as there
        hyps, refs = ([hyp] if isinstance(hyp, str) else hyp), [list(refs)]
    else:
        raise Skip(f"sacrebleu adapter does not implement {metric}")
    for i, r in enumerate(refs):
        if not r:
            raise Skip(f"references[{i}] is empty: sacrebleu needs at least one reference per segment")
    width = max((len(r) for r in refs), default=1)
    if any(len(r) != width for r in refs) and not adapter.in_versions(_NONE_REFS):
        raise Skip(f"sacrebleu {adapter.version()} needs the same number of references for every segment "
                   "(corpus_bleu: zip_longest and 'None in lines' raise EOFError)")
    if metric == "sentence_bleu":
        streams = [[r] for r in refs[0]]
    else:
        streams = [[r[j] if j < len(r) else None for r in refs] for j in range(width)]
    score = _corpus_bleu_v1(hyps, streams, options)
    stats = {"matches": list(score.counts), "totals": list(score.totals),
             "hyp_len": int(score.sys_len), "ref_len": int(score.ref_len)}
    if options["smooth_method"] == "add-k":   # compute_bleu adds k in place here too
        raw = _corpus_bleu_v1(hyps, streams, dict(options, smooth_method="none", smooth_value=None))
        stats = {"matches": [int(x) for x in raw.counts], "totals": [int(x) for x in raw.totals],
                 "hyp_len": int(raw.sys_len), "ref_len": int(raw.ref_len)}
    return LibraryOutput(value=score.score, stats=stats, raw=score)


def _corpus_bleu_v1(hyps, streams, options):
    import sacrebleu
    return sacrebleu.corpus_bleu(hyps, streams, smooth_method=options["smooth_method"],
                                 smooth_value=options["smooth_value"], force=True,
                                 lowercase=options["lowercase"], tokenize=options["tokenize"],
                                 use_effective_order=options["effective_order"])
