"""Labelling workloads: CoNLL-2003-like tag sequences, ImageNet-like labels with
skewed classes, Flickr30k-like similarity matrices."""
from __future__ import annotations

import random

from conformance.bench.workload import Workload



def conll2003_like(n_sentences: int = 3453, n_tokens: int = 46435, seed: int = 2003) -> dict:
    """CoNLL-2003 test size: 3,453 sentences, 46,435 tokens, about 5,600 gold entities of
    PER/LOC/ORG/MISC (in the test set's proportions) of 1-3 tokens, in IOB2. Predictions are
    the gold tags with about 10% of the entities perturbed (a third each: type changed,
    boundary moved by one token, dropped) plus a spurious one-token entity in 3% of sentences."""
    rng = random.Random(seed)
    types, weights = ("PER", "LOC", "ORG", "MISC"), (1617, 1668, 1661, 702)
    lengths = [max(2, round(rng.gauss(n_tokens / n_sentences, 8))) for _ in range(n_sentences)]
    diff = n_tokens - sum(lengths)
    while diff:
        i = rng.randrange(n_sentences)
        if diff > 0:
            lengths[i], diff = lengths[i] + 1, diff - 1
        elif lengths[i] > 2:
            lengths[i], diff = lengths[i] - 1, diff + 1
    start_rate = 1.23 * 5600 / n_tokens  # a start probability per free token giving about 5,600 entities
    gold, pred = [], []
    for n in lengths:
        tags, spans, j = ["O"] * n, [], 0
        while j < n:
            if rng.random() < start_rate:
                size, t = min(n - j, rng.choice((1, 1, 1, 2, 2, 3))), rng.choices(types, weights)[0]
                tags[j:j + size] = ["B-" + t] + ["I-" + t] * (size - 1)
                spans.append((j, j + size, t))
                j += size + 1
            else:
                j += 1
        p = list(tags)
        for s, e, t in spans:
            if rng.random() >= 0.10:
                continue
            op = rng.randrange(3)
            if op == 0:
                u = rng.choice([x for x in types if x != t])
                p[s:e] = ["B-" + u] + ["I-" + u] * (e - s - 1)
            elif op == 1:
                if e < n and p[e] == "O" and rng.random() < 0.5:
                    p[e] = "I-" + t
                elif e - s > 1:
                    p[e - 1] = "O"
                else:
                    p[s] = "O"
            else:
                p[s:e] = ["O"] * (e - s)
        if rng.random() < 0.03:
            free = [m for m in range(n) if p[m] == "O" and (m + 1 == n or not p[m + 1].startswith("I-"))]
            if free:
                p[rng.choice(free)] = "B-" + rng.choice(types)
        gold.append(tags)
        pred.append(p)
    return {"gold": gold, "pred": pred}


def imagenet_like(n: int = 50000, n_classes: int = 1000, seed: int = 1000) -> dict:
    """ImageNet validation size: 50,000 int labels over 1,000 classes; predictions are the
    truth with about 25% replaced by a uniformly random class."""
    rng = random.Random(seed)
    y_true = [rng.randrange(n_classes) for _ in range(n)]
    return {"y_true": y_true,
            "y_pred": [rng.randrange(n_classes) if rng.random() < 0.25 else t for t in y_true]}


def flickr30k_like(n_images: int = 1000, per_image: int = 5, seed: int = 30) -> dict:
    """Flickr30k test size: a 1,000 x 5,000 float64 image-text similarity matrix drawn from
    numpy.random.default_rng(30) (uniform [0, 1): no signal, recall near chance); image i's
    correct captions are 5i..5i+4."""
    import numpy as np
    rng = np.random.default_rng(seed)
    return {"similarity": rng.random((n_images, n_images * per_image)),
            "matches": [list(range(per_image * i, per_image * (i + 1))) for i in range(n_images)]}


def _labelling_workloads() -> list[Workload]:
    """Entity F1 (CoNLL-2003 test), classification (ImageNet val), cross-modal recall@K (Flickr30k test)."""
    from oracle.registry import get_metric
    out = []

    from conformance.bench.shapes import conll_shaped, imagenet_shaped
    shaped = " (second generator: conformance.bench.shapes)"
    entity_f1 = get_metric("entity_f1")
    peers, pairs, missing = {}, {"oracle entity_f1 (micro)": []}, []
    try:
        from seqeval.metrics import f1_score as seqeval_f1
        peers["seqeval f1_score"] = lambda d: seqeval_f1(d["gold"], d["pred"])
        pairs["oracle entity_f1 (micro)"].append("seqeval f1_score")
    except ImportError:
        missing.append("seqeval")
    contenders = {"oracle entity_f1 (micro)": lambda d: entity_f1.compute(d, {}).value}
    out.append(Workload("entity-f1-conll2003", "micro entity F1 (default conventions; seqeval default mode), "
                        "CoNLL-2003 test size: 3,453 sentences, 46,435 tokens, about 5,600 entities in IOB2, "
                        "about 10% of them perturbed in the prediction", conll2003_like, contenders, peers, pairs,
                        missing))
    out.append(Workload("entity-f1-conll2003-shaped", "micro entity F1, 3,453 sentences of geometric length, five "
                        "entity types in skewed proportions, entities up to 6 tokens, 12% perturbed" + shaped,
                        conll_shaped, contenders, peers, pairs, missing))

    cm, f1 = get_metric("confusion_matrix"), get_metric("f1")
    oracle = {"oracle confusion_matrix (lists)": lambda d: cm.compute(d["lists"], {}).value,
              "oracle f1 macro (lists)": lambda d: f1.compute(d["lists"], {"average": "macro"}).value,
              "oracle confusion_matrix (arrays)": lambda d: cm.compute(d["arrays"], {}).value,
              "oracle f1 macro (arrays)": lambda d: f1.compute(d["arrays"], {"average": "macro"}).value}
    peers, pairs, missing = {}, {name: [] for name in oracle}, []
    try:
        from sklearn import metrics as skm
        peers["sklearn confusion_matrix (arrays)"] = lambda d: skm.confusion_matrix(d["arrays"]["y_true"],
                                                                                  d["arrays"]["y_pred"])
        peers["sklearn f1_score macro (arrays)"] = lambda d: skm.f1_score(d["arrays"]["y_true"],
                                                                         d["arrays"]["y_pred"], average="macro")
        peers["sklearn f1_score macro (lists)"] = lambda d: skm.f1_score(d["lists"]["y_true"], d["lists"]["y_pred"],
                                                                        average="macro")
        # the oracle given lists is held to scikit-learn given arrays, its fastest input
        pairs["oracle confusion_matrix (lists)"].append("sklearn confusion_matrix (arrays)")
        pairs["oracle confusion_matrix (arrays)"].append("sklearn confusion_matrix (arrays)")
        pairs["oracle f1 macro (lists)"] += ["sklearn f1_score macro (arrays)", "sklearn f1_score macro (lists)"]
        pairs["oracle f1 macro (arrays)"].append("sklearn f1_score macro (arrays)")
    except ImportError:
        missing.append("scikit-learn")

    def both(generator):
        def setup():
            import numpy as np
            d = generator()
            return {"lists": d, "arrays": {k: np.asarray(v, dtype=np.int64) for k, v in d.items()}}
        return setup

    for name, generator, desc in (
            ("classification-imagenet", imagenet_like, "50,000 samples, 1,000 uniform classes (ImageNet val "
             "size), 25% wrong"),
            ("classification-imagenet-shaped", imagenet_shaped, "50,000 samples, 1,000 classes of Zipf "
             "frequencies, 30% wrong, mostly to a neighbouring class" + shaped)):
        out.append(Workload(name, f"confusion matrix and macro F1, {desc}; Python lists and int64 NumPy arrays "
                            "in (converted before timing)", both(generator), oracle, peers, pairs, missing))

    recall = get_metric("cross_modal_recall_at_k")
    name = "oracle recall@1,5,10 (3 calls, array compared in NumPy)"

    def oracle_recall(d):
        return [recall.compute(d, {"k": str(k)}).value for k in (1, 5, 10)]

    def numpy_recall(d):
        import numpy as np
        s = d["similarity"]
        top = np.argsort(-s, axis=1)[:, :10]
        correct = np.zeros(s.shape, dtype=bool)
        for i, js in enumerate(d["matches"]):
            correct[i, js] = True
        hit = np.take_along_axis(correct, top, axis=1)
        return [hit[:, :k].any(axis=1).mean() for k in (1, 5, 10)]

    out.append(Workload("recall-at-k-flickr30k", "image-to-text recall@1, @5, @10 over a 1,000 x 5,000 float64 "
                        "similarity matrix (Flickr30k test size, 5 captions per image); the oracle takes the "
                        "NumPy array as given and is called once per K; it does not convert the array to lists: "
                        "the tie counts, ranks and top-K candidates are exact float comparisons in NumPy, and "
                        "each call still checks the input and returns every part (per-query hits as Fractions, "
                        "optimistic and pessimistic values and ranks, the top-K lists with Fraction scores)",
                        flickr30k_like, {name: oracle_recall},
                        {"numpy argsort (top 10, membership)": numpy_recall},
                        {name: ["numpy argsort (top 10, membership)"]}))
    from conformance.bench.shapes import flickr30k_shaped
    out.append(Workload("recall-at-k-flickr30k-shaped", "image-to-text recall@1, @5, @10 over a 1,000 x 5,000 "
                        "similarity matrix with signal (cosines of nearby embeddings), rounded to 3 decimals so "
                        "that ties are common" + shaped, flickr30k_shaped, {name: oracle_recall},
                        {"numpy argsort (top 10, membership)": numpy_recall},
                        {name: ["numpy argsort (top 10, membership)"]}))
    return out
