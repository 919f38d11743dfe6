"""Caption workloads: COCO-like candidates and references for CIDEr-D."""
from __future__ import annotations

import random

from conformance.bench.text import _vocabulary
from conformance.bench.workload import Workload



def coco_like(n_images: int = 5000, n_refs: int = 5, seed: int = 2015) -> dict:
    """5,000 images with 5 references each (the COCO Karpathy test split's size), captions of
    about 10 tokens drawn from a Zipf vocabulary (3,000 words, P(rank r) proportional to 1/r,
    so the commonest word is about 12% of tokens, as "a" is in COCO captions); each image's
    references are a base caption with 0-4 words replaced, and its candidate is one of them
    after round(0.3 * length) random substitutions, deletions and insertions."""
    rng = random.Random(seed)
    vocab = _vocabulary(rng, 3000)[:3000]
    rng.shuffle(vocab)
    cum, acc = [], 0.0
    for r in range(len(vocab)):
        acc += 1.0 / (r + 1)
        cum.append(acc)

    def words(k: int) -> list[str]:
        return rng.choices(vocab, cum_weights=cum, k=k)

    cands, refs = [], []
    for _ in range(n_images):
        length = max(4, round(rng.gauss(10, 2.5)))
        base = words(length)
        rs = []
        for _ in range(n_refs):
            r = list(base)
            for w in words(rng.randint(0, 4)):
                r[rng.randrange(len(r))] = w
            rs.append(r)
        c = list(rng.choice(rs))
        for _ in range(round(0.3 * len(c))):
            op = rng.random()
            i = rng.randrange(len(c))
            if op < 0.5:
                c[i] = words(1)[0]
            elif op < 0.75 and len(c) > 1:
                del c[i]
            else:
                c.insert(i, words(1)[0])
        cands.append(" ".join(c))
        refs.append([" ".join(r) for r in rs])
    return {"candidates": cands, "references": refs}


def _cider_workloads() -> list[Workload]:
    from oracle.certified import digits
    from oracle.registry import get_metric
    try:
        from pycocoevalcap.cider.cider import Cider
    except ImportError:
        Cider = None
    cider_d = get_metric("cider_d")

    def oracle_cider_d(d):
        value = cider_d.compute(d, {}).value
        return value, digits(value, 30)

    peers, pairs, missing = {}, {"oracle cider_d (exact + 30 digits)": []}, []
    if Cider:
        def coco(d):
            gts = {i: rs for i, rs in enumerate(d["references"])}
            res = {i: [c] for i, c in enumerate(d["candidates"])}
            return Cider().compute_score(gts, res)[0]
        peers["pycocoevalcap Cider"] = coco
        pairs["oracle cider_d (exact + 30 digits)"].append("pycocoevalcap Cider")
    else:
        missing.append("pycocoevalcap")
    from conformance.bench.shapes import coco_shaped
    contenders = {"oracle cider_d (exact + 30 digits)": oracle_cider_d}
    return [Workload("cider-d-coco", "CIDEr-D, 5,000 images x 5 references of about 10 tokens (COCO Karpathy "
                     "test size), candidates edited from a reference", coco_like, contenders, peers, pairs, missing),
            Workload("cider-d-coco-shaped", "CIDEr-D, 5,000 images x 5 references of 3 to 30 tokens, candidates "
                     "rewritten from a reference (second generator: conformance.bench.shapes)", coco_shaped,
                     contenders, peers, pairs, missing)]
