"""In-house implementations with planted defects, for the strict-referee tests.

Each is a plain function judged through ``conformance.functions.implementation``;
the defects are the classic ones (an NDCG@10 whose ideal DCG is not cut at 10,
BLEU without clipping or without a brevity penalty, float32 arithmetic, ties
broken against the input order)."""
import math
import os
import struct
from collections import Counter

from conformance.functions import implementation


@implementation("ndcg", conventions={"k": "10", "ties": "input-order"}, name="ndcg10-uncut-ideal")
def ndcg10_uncut_ideal(inputs):
    """NDCG@10 with the ideal DCG summed over every judged document, not the best 10."""
    vals = []
    for q, judged in inputs["qrels"].items():
        ranking = inputs["run"].get(q, {})
        docs = sorted(ranking, key=lambda d: -float(ranking[d]))   # stable: input order on ties
        dcg = sum(max(judged.get(d, 0), 0) / math.log2(i + 2) for i, d in enumerate(docs[:10]))
        ideal = sorted((max(g, 0) for g in judged.values()), reverse=True)
        idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))   # the defect: no [:10]
        vals.append(dcg / idcg if idcg > 0 else 0.0)
    return sum(vals) / len(vals) if vals else 0.0


@implementation("ndcg", conventions={"k": "10", "ties": "input-order"}, name="ndcg10-reversed-ties")
def ndcg10_reversed_ties(inputs):
    """NDCG@10 whose sort puts tied documents in reversed input order (argsort(x)[::-1],
    the sort of ranx before 0.2.12)."""
    vals = []
    for q, judged in inputs["qrels"].items():
        ranking = inputs["run"].get(q, {})
        docs = list(ranking)[::-1]
        docs = sorted(docs, key=lambda d: -float(ranking[d]))
        dcg = sum(max(judged.get(d, 0), 0) / math.log2(i + 2) for i, d in enumerate(docs[:10]))
        ideal = sorted((max(g, 0) for g in judged.values()), reverse=True)[:10]
        idcg = sum(g / math.log2(i + 2) for i, g in enumerate(ideal))
        vals.append(dcg / idcg if idcg > 0 else 0.0)
    return sum(vals) / len(vals) if vals else 0.0


def _precision(cand, ref, n, clip):
    c = Counter(tuple(cand[i:i + n]) for i in range(len(cand) - n + 1))
    r = Counter(tuple(ref[i:i + n]) for i in range(len(ref) - n + 1))
    total = sum(c.values())
    if total == 0:
        return 0.0
    match = sum(min(k, r.get(g, 0)) if clip else (k if g in r else 0) for g, k in c.items())
    return match / total


@implementation("bleu", conventions={"tokenizer": "none", "order": "2"}, name="bleu2-one-defect")
def bleu2_one_defect(inputs):
    """BLEU-2 of one segment with one planted defect, chosen by INHOUSE_DEFECT: ``clip``
    (matches not clipped) or ``order1`` (the bigram precision replaced by the unigram one)."""
    from conformance.protocol import Skip
    if len(inputs["hypotheses"]) != 1 or len(inputs["references"][0]) != 1:
        raise Skip("one hypothesis against one reference only")
    defect = os.environ.get("INHOUSE_DEFECT", "clip")
    hyp, ref = inputs["hypotheses"][0].split(), inputs["references"][0][0].split()
    if not hyp:
        return 0.0
    p1, p2 = _precision(hyp, ref, 1, defect != "clip"), _precision(hyp, ref, 2, defect != "clip")
    if defect == "order1":
        p2 = p1
    bp = 1.0 if len(hyp) >= len(ref) else math.exp(1 - len(ref) / len(hyp))
    return math.sqrt(p1 * p2) * bp


def _unclipped(inputs) -> float:
    """``bleu2_one_defect``'s value under INHOUSE_DEFECT=clip, whatever the variable says now
    (the model of that defect)."""
    hyp, ref = inputs["hypotheses"][0].split(), inputs["references"][0][0].split()
    if not hyp:
        return 0.0
    p1, p2 = _precision(hyp, ref, 1, False), _precision(hyp, ref, 2, False)
    bp = 1.0 if len(hyp) >= len(ref) else math.exp(1 - len(ref) / len(hyp))
    return math.sqrt(p1 * p2) * bp


def _f32(x: float) -> float:
    return struct.unpack("f", struct.pack("f", x))[0]


@implementation("bleu", conventions={"tokenizer": "none", "scale": "fraction"}, name="bleu-float32-percent")
def bleu_float32_percent(inputs):
    """BLEU computed right, but returned on the percent scale in single precision (what a
    float32 tensor library printing percent gives)."""
    from oracle.certified import to_float
    from oracle.registry import compute
    return _f32(100 * to_float(compute("bleu", inputs, {"tokenizer": "none"}).value))


@implementation("token_accuracy", name="strict-token-accuracy")
def strict_token_accuracy(inputs):
    """Token accuracy that refuses sentences of unequal length, as the spec does."""
    gold, pred = inputs["gold"], inputs["pred"]
    if len(gold) != len(pred) or any(len(g) != len(p) for g, p in zip(gold, pred)):
        raise ValueError("gold and pred differ in shape")
    pairs = [(a, b) for g, p in zip(gold, pred) for a, b in zip(g, p)]
    if not pairs:
        return None
    return sum(a == b for a, b in pairs) / len(pairs)
