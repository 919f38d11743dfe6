"""Two in-house-style BLEU implementations, judged by the suite in the tests.

``document_bleu2`` is the script of source document 000 (part 3), lifted into
a function: whitespace tokens, one reference, clipped precisions, BP, the
geometric mean of P1 and P2. ``bleu2_without_clipping`` is the same with the
classic mistake: n-gram matches are not clipped by the reference counts (it
guards empty inputs, so that missing clipping is its only defect).
"""
import math
import os
from collections import Counter

from conformance.functions import implementation


def _precision(cand, ref, n, clip=True, guard=False):
    c = Counter(tuple(cand[i:i + n]) for i in range(len(cand) - n + 1))
    r = Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1))
    total = sum(c.values())
    if guard and total == 0:
        return 0.0
    if clip:
        match = sum(min(k, r.get(g, 0)) for g, k in c.items())
    else:
        match = sum(k for g, k in c.items() if g in r)
    return match / total


def _bleu2(inputs, clip, guard=False):
    hyp = inputs["hypotheses"][0].split()
    ref = inputs["references"][0][0].split()
    if guard and not hyp:
        return 0.0
    p1, p2 = _precision(hyp, ref, 1, clip, guard), _precision(hyp, ref, 2, clip, guard)
    bp = 1.0 if len(hyp) >= len(ref) else math.exp(1 - len(ref) / len(hyp))
    return math.sqrt(p1 * p2) * bp


SETTINGS = {"tokenizer": "none", "order": "2", "smoothing": "none"}


@implementation("bleu", conventions=SETTINGS, name="document-bleu2")
def document_bleu2(inputs):
    if len(inputs["hypotheses"]) != 1 or len(inputs["references"][0]) != 1:
        from conformance.protocol import Skip
        raise Skip("the document's script scores one hypothesis against one reference")
    return _bleu2(inputs, clip=True)


@implementation("bleu", conventions=SETTINGS, name="bleu2-without-clipping")
def bleu2_without_clipping(inputs):
    if len(inputs["hypotheses"]) != 1 or len(inputs["references"][0]) != 1:
        from conformance.protocol import Skip
        raise Skip("one hypothesis against one reference only")
    # INHOUSE_FIXED=1 plays "the next release", which adds clipping (for the CI-regression tests)
    return _bleu2(inputs, clip=os.environ.get("INHOUSE_FIXED") == "1", guard=True)
