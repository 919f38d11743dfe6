"""Audit a published figure: which convention settings reproduce it, exactly.

A claim is a figure as printed (``BLEU 27.3``, ``WER 4.2%``, ``nDCG@10 .7140``)
with the files it was computed on and, optionally, the conventions it states.
The audit computes the metric exactly under every setting of the knobs that
matter for it (a bounded product, ``SPACES``), compares each value with the
printed number at its printed precision, and gives a verdict:

- ``consistent``: the stated setting (the claim's conventions over the
  metric's canonical defaults) reproduces the figure;
- ``consistent only under undeclared settings``: the stated setting does
  not, some other setting does (they are named, with the knobs that differ);
- ``inconsistent``: no searched setting does.

Reproduces: |v * s - p| <= 1/2 * 10**-d, where p is the printed number, d
its number of decimal places, s the scale (100 for a percent figure) and v
the exact value; decided on certified rational bounds of v (never on a
float), so the verdict is exact. A half-way value counts as reproducing
(the printing code may have rounded either way).

Claim line format (a claims file: one claim per line, ``#`` comments and
blank lines skipped; the same tokens on the command line):

    FIGURE [key=value ...]

FIGURE is a metric name and a number: ``BLEU 27.3``, ``WER 4.2%``,
``F1 = 91.2``, ``MRR@10: 0.372``, ``nDCG@10 .7140``. The name is an alias
(``ALIASES``: case, spaces, ``-`` and ``_`` ignored) that may carry a cutoff
(``@10``) or an order (``BLEU-2``). Values are shell-quoted (``shlex``). Keys:

| key | meaning |
| --- | --- |
| format | text, conll, trec, coco, vqa, squad, labels (``conformance.formats``), or case; guessed from the file keys when omitted |
| hyp, ref, conll, qrels, run, results, annotations, questions, dataset, predictions, truth, pred | the files (``ref`` repeatable, one per reference set); paths relative to the claims file |
| gold_col, pred_col, token_col | CoNLL columns (0-based, negative from the end) |
| case | a golden case ``FILE.json#ID``: its inputs, and its conventions as the stated ones |
| sacrebleu (or signature) | a sacrebleu signature ``nrefs:1|case:mixed|eff:no|tok:13a|smooth:exp|version:2.0.0`` (or the 1.x ``BLEU+case.mixed+...`` form) |
| trec_eval | a trec_eval command line ``trec_eval -m ndcg_cut.10 -l 2 -c`` |
| part | the figure is this part of the result (``bp``, ``precision_avg``, ``class[0]``) instead of its value |
| scale | percent or fraction (otherwise: ``%`` means percent; a number above 1, above 10 for CIDEr, means percent; perplexity and DCG are never scaled) |
| metric | the oracle metric, when the alias is ambiguous |
| any knob of the metric | stated, e.g. ``tokenizer=intl``, ``k=10`` |

A line that starts with ``{`` is a JSON object with the same keys and
``"claim": "BLEU 27.3"`` (``ref`` may be a list; ``conventions`` an object of knobs).

Search and shared statistics. Each metric's space lists the knobs searched
and their choices; the stated value of each is searched too; knobs outside
the space keep their stated value; knobs fixed by the name (``@10``,
``BLEU-2``) are not varied. Settings that normalize to the same signature
are computed once. Where the inputs are large, the sufficient statistics
are shared across settings instead of recomputed: BLEU counts n-grams
(orders 1..N+1) once per (tokenizer, case) and derives every smoothing,
reference-length rule, effective order and level from them
(``oracle.bleu.bleu_from_stats``); the word and character error rates align
once per distinct token sequence pair; ranking measures prepare each run once,
build the per-query profiles once per (tie rule, threshold, gain mapping,
ideal), sum the per-query values per query category once, and combine the
categories for each query-set choice. A mean of thousands of closed forms
(sentence-level BLEU) is kept as a ``TermMean``, whose certified bounds come
from integer fixed-point arithmetic. Bounds: at most 20,000 settings per
claim; sentence-level BLEU under smoothing cc4-cc7 and nltk4-nltk7 is searched up to
``SENTENCE_MEAN_CC_LIMIT`` segments (the audit notes what it left out).

Command: ``metric-conformance audit FIGURE key=value ...`` or ``--claims
FILE``; ``--json`` prints one object per claim with every setting. Exit 0
when every claim is consistent, 1 when one is not, 2 for a claim, file or
convention that cannot be read (a one-line message naming it).
"""
from __future__ import annotations

# the public names, each read from its module when first asked for (``score`` reads
# trec_eval's measure names from ``signatures`` without loading the audit's search)
_WHERE = {
    "ALIASES": "claims", "Claim": "claims", "Figure": "claims", "parse_claim": "claims", "parse_figure": "claims",
    "read_claims": "claims", "resolve_metric": "claims", "VERDICTS": "judge", "Audit": "judge", "Row": "judge",
    "audit": "judge", "audit_claims": "judge", "main": "render", "render": "render", "ClaimError": "signatures",
    "parse_sacrebleu": "signatures", "parse_trec_eval": "signatures", "SPACES": "space", "knob_space": "space",
}


def __getattr__(name: str):
    if name == "TermMean":
        from oracle.certified import TermMean
        return TermMean
    if name in _WHERE:
        import importlib
        return getattr(importlib.import_module(f"conformance.audit.{_WHERE[name]}"), name)
    raise AttributeError(f"module 'conformance.audit' has no attribute {name!r}")

__all__ = ["Figure", "Claim", "ClaimError", "Row", "Audit", "parse_figure", "resolve_metric", "parse_sacrebleu",
           "parse_trec_eval", "parse_claim", "read_claims", "audit", "audit_claims", "render", "main", "SPACES",
           "ALIASES", "VERDICTS", "knob_space", "TermMean"]
