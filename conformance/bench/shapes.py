"""Second generators for the benchmark workloads, shaped differently from the first.

A benchmark that runs on one generator can flatter whatever the code was tuned to
(distinct scores, uniform labels, lower-case words without punctuation). Each
workload is also run on data drawn from these generators, at the same sizes, so a
ratio that holds on one shape and not on the other shows up in the results:

- text: a Zipf vocabulary (exponent 1.07) with words of Zipf-distributed length,
  capitalised sentence starts, punctuation and numbers attached to words (work for
  the 13a tokenizer), log-normal sentence lengths (median 22, long tail), edit
  rates drawn per segment from a Beta distribution (some segments untouched, some
  rewritten), references that are paraphrases of each other;
- labels: class frequencies Zipf-distributed over the classes (a few classes hold
  most samples, many are rare or absent from the truth), errors that go to a
  "neighbouring" class most of the time, some predicted classes never true;
- ranking: BM25-like scores (a gamma body, a few high outliers, rounded to 2
  decimals, so that equal scores are common), graded judgements 0-3 skewed to 0,
  judged documents where a real pool puts them (mostly among the top ranks of the
  run), queries with very different numbers of judgements;
- tagging: sentence lengths from a geometric distribution, entity types in
  skewed proportions, long entities, IOB2 predictions with boundary and type errors;
- captions: captions of very different lengths, references sharing a skewed
  vocabulary.

Everything is seeded (``random.Random``); nothing depends on NumPy's generator
versions.
"""
from __future__ import annotations

import bisect
import itertools
import math
import random


def _zipf_weights(n: int, s: float) -> list[float]:
    return list(itertools.accumulate(1.0 / (i + 1) ** s for i in range(n)))


def _draw(rng: random.Random, items: list, cum: list[float]):
    return items[bisect.bisect_left(cum, rng.random() * cum[-1])]


def _zipf_vocabulary(rng: random.Random, size: int = 30000) -> list[str]:
    """Words whose length is small for frequent words and larger for rare ones, as in
    real text: the i-th word has about 2 + log2(i + 2) letters."""
    letters = "etaoinshrdlcumwfgypbvkjxqz"
    cum_letters = _zipf_weights(len(letters), 0.9)
    words, seen = [], set()
    while len(words) < size:
        i = len(words)
        n = max(1, int(rng.gauss(1.5 + math.log2(i + 2) * 0.6, 1.2)))
        w = "".join(_draw(rng, letters, cum_letters) for _ in range(n))
        if w not in seen:
            seen.add(w)
            words.append(w)
    return words


_ATTACHED = [",", ".", ";", ":", "?", "!", "'s", ")", "\"", "%"]
_NUMBERS = ["1,000", "3.5", "2014", "$20", "50%", "U.S.", "e-mail", "co-operate", "10:30"]


def _sentence(rng: random.Random, vocab: list[str], cum: list[float], n: int) -> list[str]:
    out = []
    for i in range(n):
        r = rng.random()
        if r < 0.03:
            w = rng.choice(_NUMBERS)
        else:
            w = _draw(rng, vocab, cum)
        if i == 0 or rng.random() < 0.04:
            w = w[:1].upper() + w[1:]
        if rng.random() < 0.09:
            w += rng.choice(_ATTACHED)
        if rng.random() < 0.02:
            w = "(" + w
        out.append(w)
    if out and rng.random() < 0.9:
        out[-1] += rng.choice((".", ".", ".", "?", "!"))
    return out


def _rewrite(rng: random.Random, tokens: list[str], vocab, cum, rate: float) -> list[str]:
    """``tokens`` with each position edited with probability ``rate``: substitutions (two
    thirds), deletions, insertions, and now and then a swapped neighbour pair."""
    out = []
    for t in tokens:
        r = rng.random()
        if r >= rate:
            out.append(t)
            continue
        op = rng.random()
        if op < 0.55:
            out.append(_draw(rng, vocab, cum))
        elif op < 0.75:
            continue
        elif op < 0.95:
            out.extend([t, _draw(rng, vocab, cum)])
        elif out:
            out.insert(len(out) - 1, t)
        else:
            out.append(t)
    return out or [_draw(rng, vocab, cum)]


def newstest_shaped(n_segments: int = 3003, n_refs: int = 1, seed: int = 7) -> dict:
    """3,003 segments, log-normal lengths (median 22 tokens, some over 80), per-segment
    edit rates from Beta(2, 3) (mean 0.4), ``n_refs`` references that paraphrase one
    another (each a rewrite of a common source at rate 0.25)."""
    rng = random.Random(seed)
    vocab = _zipf_vocabulary(rng)
    cum = _zipf_weights(len(vocab), 1.07)
    hyps, refs = [], []
    for _ in range(n_segments):
        n = max(1, min(120, int(rng.lognormvariate(math.log(22), 0.55))))
        source = _sentence(rng, vocab, cum, n)
        seg = [" ".join(source if j == 0 else _rewrite(rng, source, vocab, cum, 0.25)) for j in range(n_refs)]
        hyps.append(" ".join(_rewrite(rng, source, vocab, cum, rng.betavariate(2, 3))))
        refs.append(seg)
    return {"hypotheses": hyps, "references": refs}


def librispeech_shaped(n_utterances: int = 2620, seed: int = 11) -> dict:
    """2,620 lower-case utterances, log-normal lengths (median 17 words, some over 60), word
    error rates skewed: most utterances under 10%, a tail above 30%."""
    rng = random.Random(seed)
    vocab = _zipf_vocabulary(rng, 20000)
    cum = _zipf_weights(len(vocab), 1.0)
    refs, hyps = [], []
    for _ in range(n_utterances):
        n = max(1, min(90, int(rng.lognormvariate(math.log(17), 0.6))))
        ref = [_draw(rng, vocab, cum) for _ in range(n)]
        rate = min(0.9, rng.expovariate(1 / 0.08))
        refs.append(" ".join(ref))
        hyps.append(" ".join(_rewrite(rng, ref, vocab, cum, rate)))
    return {"references": refs, "hypotheses": hyps}


def imagenet_shaped(n: int = 50000, n_classes: int = 1000, seed: int = 5) -> dict:
    """50,000 labels over 1,000 classes with Zipf(0.8) class frequencies (the largest class
    holds about 2% of the samples, some classes none); 30% errors, three in four of them to
    one of the true class's five 'neighbours', the rest anywhere (so some predicted classes
    are never true)."""
    rng = random.Random(seed)
    classes = list(range(n_classes))
    rng.shuffle(classes)
    cum = _zipf_weights(n_classes, 0.8)
    y_true = [_draw(rng, classes, cum) for _ in range(n)]
    y_pred = []
    for t in y_true:
        if rng.random() >= 0.3:
            y_pred.append(t)
        elif rng.random() < 0.75:
            y_pred.append((t + rng.randint(1, 5)) % n_classes)
        else:
            y_pred.append(rng.randrange(n_classes))
    return {"y_true": y_true, "y_pred": y_pred}


def trec_dl_shaped(n_queries: int = 43, depth: int = 1000, seed: int = 2020, judgements: int = 200) -> dict:
    """TREC-DL-sized: 43 queries x 1,000 retrieved documents with BM25-like scores (a gamma
    body plus a few high outliers, rounded to 2 decimals: ties are common); about 215
    graded judgements per query (from 40 to 400), grades 0-3 skewed to 0, judged
    documents mostly from the top of the run (a pool) and some from elsewhere. With
    ``judgements`` small (MS MARCO: 1), a query has that many judgements or one more."""
    rng = random.Random(seed)
    qrels, run = {}, {}
    for i in range(n_queries):
        q = str(19335 + 1000 * i + rng.randrange(1000))
        docs = [str(x) for x in rng.sample(range(8841823), depth)]
        scores = [round(rng.gammavariate(2.0, 2.5) + (rng.expovariate(0.3) if rng.random() < 0.02 else 0), 2)
                  for _ in range(depth)]
        scores.sort(reverse=True)
        ranking = dict(zip(docs, scores))
        rank_of = {d: r for r, d in enumerate(docs)}
        if judgements >= 40:
            target = max(40, min(400, int(rng.lognormvariate(math.log(judgements), 0.45))))
        else:
            target = judgements + (rng.random() < 0.3)
        judged = {}
        while len(judged) < target:
            if rng.random() < 0.85:
                d = docs[min(depth - 1, int(rng.expovariate(1 / 60)))]
            else:
                d = str(9000000 + rng.randrange(10 ** 6))
            top = rank_of.get(d, depth) < 100
            judged[d] = rng.choices((0, 1, 2, 3), (50, 25, 15, 10) if top else (80, 12, 6, 2))[0]
        if not any(g > 0 for g in judged.values()):
            judged[docs[0]] = 3
        qrels[q] = judged
        # a run file lists documents in rank order; shuffled here so that the
        # evaluator, not the input order, does the sorting (ties broken by the tool's rule)
        items = list(ranking.items())
        rng.shuffle(items)
        run[q] = dict(items)
    return {"qrels": qrels, "run": run}


def conll_shaped(n_sentences: int = 3453, seed: int = 3) -> dict:
    """About 3,453 sentences of geometric length (mean 13, some over 60), entities of 1 to 6
    tokens with types in proportions 5:3:2:1:1 over five types, 12% of gold entities
    perturbed in the prediction (type, boundary on either side, dropped) and spurious
    entities in 5% of sentences."""
    rng = random.Random(seed)
    types = ("ORG", "PER", "LOC", "MISC", "DATE")
    tw = (5, 3, 2, 1, 1)
    gold, pred = [], []
    for _ in range(n_sentences):
        n = 1
        while rng.random() < 12 / 13 and n < 120:
            n += 1
        tags, spans, j = ["O"] * n, [], 0
        while j < n:
            if rng.random() < 0.14:
                size = min(n - j, rng.choices((1, 2, 3, 4, 6), (40, 30, 15, 10, 5))[0])
                t = rng.choices(types, tw)[0]
                tags[j:j + size] = ["B-" + t] + ["I-" + t] * (size - 1)
                spans.append((j, j + size, t))
                j += size + rng.randint(0, 2)
            else:
                j += 1
        p = list(tags)
        for s, e, t in spans:
            if rng.random() >= 0.12:
                continue
            op = rng.randrange(4)
            if op == 0:
                u = rng.choice([x for x in types if x != t])
                p[s:e] = ["B-" + u] + ["I-" + u] * (e - s - 1)
            elif op == 1 and e - s > 1:
                p[e - 1] = "O"
            elif op == 2 and s > 0 and p[s - 1] == "O":
                p[s - 1], p[s] = "B-" + t, "I-" + t
            else:
                p[s:e] = ["O"] * (e - s)
        if rng.random() < 0.05:
            k = rng.randrange(n)
            if p[k] == "O" and (k + 1 == n or not p[k + 1].startswith("I-")):
                p[k] = "B-" + rng.choice(types)
        gold.append(tags)
        pred.append(p)
    return {"gold": gold, "pred": pred}


def coco_shaped(n_images: int = 5000, n_refs: int = 5, seed: int = 17) -> dict:
    """5,000 images x 5 references, caption lengths from 3 to 30 tokens (log-normal), a shared
    Zipf vocabulary; candidates are rewrites of one reference at rates from Beta(2, 4)."""
    rng = random.Random(seed)
    vocab = [w.lower() for w in _zipf_vocabulary(rng, 9000)]
    cum = _zipf_weights(len(vocab), 1.1)
    cands, refs = [], []
    for _ in range(n_images):
        rs = []
        for _ in range(n_refs):
            n = max(3, min(30, int(rng.lognormvariate(math.log(10), 0.35))))
            rs.append([_draw(rng, vocab, cum) for _ in range(n)])
        cands.append(" ".join(_rewrite(rng, rng.choice(rs), vocab, cum, rng.betavariate(2, 4))))
        refs.append([" ".join(r) for r in rs])
    return {"candidates": cands, "references": refs}


def flickr30k_shaped(n_images: int = 1000, per_image: int = 5, seed: int = 31):
    """A 1,000 x 5,000 image-text similarity matrix with signal: cosine-like scores from
    random 64-d unit embeddings, each caption's embedding near its image's; rounded to
    3 decimals (float16-like output): ties are common. Image i's captions are 5i..5i+4."""
    import numpy as np
    rng = np.random.default_rng(seed)
    img = rng.normal(size=(n_images, 64))
    img /= np.linalg.norm(img, axis=1, keepdims=True)
    txt = np.repeat(img, per_image, axis=0) * 0.35 + rng.normal(size=(n_images * per_image, 64)) * 0.13
    txt /= np.linalg.norm(txt, axis=1, keepdims=True)
    return {"similarity": np.round(img @ txt.T, 3),
            "matches": [list(range(per_image * i, per_image * (i + 1))) for i in range(n_images)]}
