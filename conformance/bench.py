"""`metric-conformance bench`: time the oracle against the peer libraries.

Workloads are generated deterministically (a seeded ``random.Random``) at
realistic sizes. Contenders run interleaved in one process (each repeat runs
every contender once, in rotating order), so the shared machine's noise hits
them alike; the report gives medians and the ratio oracle / fastest peer.
"""
from __future__ import annotations

import json
import random
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass, field
from typing import Callable


@dataclass
class Workload:
    name: str
    description: str
    setup: Callable[[], object]
    oracle: dict                     # contender name -> fn(data)
    peers: dict                      # contender name -> fn(data) (may be empty when missing)
    pairs: dict = field(default_factory=dict)  # oracle contender -> peers doing the same work (same tokenizer)
    missing: list = field(default_factory=list)


# ------------------------------------------------------------ text generation

def _vocabulary(rng: random.Random, size: int = 8000) -> list[str]:
    letters = "abcdefghijklmnopqrstuvwxyz"
    words = set()
    while len(words) < size:
        words.add("".join(rng.choice(letters) for _ in range(rng.randint(2, 9))))
    words = sorted(words)
    punct = [",", ".", "'s", "(", ")", "-", "\"", "3.5", "1,000", "U.S."]
    return words + punct


def _zipf_sentence(rng: random.Random, vocab: list[str], n: int) -> list[str]:
    out = []
    for _ in range(n):
        r = int(rng.paretovariate(1.1)) - 1
        out.append(vocab[min(r, len(vocab) - 1)] if rng.random() < 0.85 else rng.choice(vocab))
    return out


def newstest_like(n_segments: int = 3003, n_refs: int = 1, seed: int = 2014) -> dict:
    """3,003 segments of about 27 tokens (newstest size); hypotheses are edited references."""
    rng = random.Random(seed)
    vocab = _vocabulary(rng)
    hyps, refs = [], []
    for _ in range(n_segments):
        length = max(3, int(rng.gauss(27, 9)))
        seg_refs = []
        base = _zipf_sentence(rng, vocab, length)
        for j in range(n_refs):
            r = list(base)
            for _ in range(int(length * 0.3 * (j > 0))):
                r[rng.randrange(len(r))] = rng.choice(vocab)
            seg_refs.append(" ".join(r))
        h = list(base)
        for _ in range(int(length * 0.4)):
            op = rng.random()
            i = rng.randrange(len(h)) if h else 0
            if op < 0.5 and h:
                h[i] = rng.choice(vocab)
            elif op < 0.75 and len(h) > 1:
                del h[i]
            else:
                h.insert(i, rng.choice(vocab))
        hyps.append(" ".join(h))
        refs.append(seg_refs)
    return {"hypotheses": hyps, "references": refs}


def _bleu_workloads() -> list[Workload]:
    from oracle.registry import get_metric
    out = []
    try:
        import sacrebleu
        from sacrebleu.metrics import BLEU as SB
    except ImportError:
        sacrebleu = None
    try:
        from nltk.translate import bleu_score as nb
    except ImportError:
        nb = None
    bleu = get_metric("bleu")
    sbleu = get_metric("sentence_bleu")
    for n_refs in (1, 4):
        def setup(n_refs=n_refs):
            return newstest_like(n_refs=n_refs)

        def oracle_13a(d):
            return bleu.compute(d, {"tokenizer": "13a"}).value

        def oracle_none(d):
            return bleu.compute(d, {"tokenizer": "none"}).value

        peers, pairs, missing = {}, {"oracle tok:13a": [], "oracle tok:none": []}, []
        if sacrebleu:
            def sacre(d, tok="13a"):
                streams = [list(s) for s in zip(*d["references"])]
                return SB(tokenize=tok).corpus_score(d["hypotheses"], streams).score
            peers["sacrebleu tok:13a"] = sacre
            peers["sacrebleu tok:none"] = lambda d: sacre(d, "none")
            pairs["oracle tok:13a"].append("sacrebleu tok:13a")
            pairs["oracle tok:none"].append("sacrebleu tok:none")
        else:
            missing.append("sacrebleu")
        if nb:
            def nltk_corpus(d):
                return nb.corpus_bleu([[r.split() for r in rs] for rs in d["references"]],
                                      [h.split() for h in d["hypotheses"]])
            peers["nltk (split)"] = nltk_corpus
            pairs["oracle tok:none"].append("nltk (split)")
        else:
            missing.append("nltk")
        out.append(Workload(f"corpus-bleu-{n_refs}ref", f"corpus BLEU, 3,003 segments, {n_refs} reference(s)",
                            setup, {"oracle tok:13a": oracle_13a, "oracle tok:none": oracle_none},
                            peers, pairs, missing))

        def s_oracle_13a(d):
            return [sbleu.compute({"hypothesis": h, "references": rs},
                                  {"tokenizer": "13a", "smoothing": "exp", "effective_order": "yes"}).value
                    for h, rs in zip(d["hypotheses"], d["references"])]

        def s_oracle_none(d):
            return [sbleu.compute({"hypothesis": h, "references": rs}, {"tokenizer": "none"}).value
                    for h, rs in zip(d["hypotheses"], d["references"])]

        speers, spairs = {}, {"oracle tok:13a": [], "oracle tok:none": []}
        if sacrebleu:
            def s_sacre(d, tok="13a"):
                m = SB(tokenize=tok, effective_order=True)
                return [m.sentence_score(h, rs).score for h, rs in zip(d["hypotheses"], d["references"])]
            speers["sacrebleu tok:13a"] = s_sacre
            speers["sacrebleu tok:none"] = lambda d: s_sacre(d, "none")
            spairs["oracle tok:13a"].append("sacrebleu tok:13a")
            spairs["oracle tok:none"].append("sacrebleu tok:none")
        if nb:
            def s_nltk(d):
                return [nb.sentence_bleu([r.split() for r in rs], h.split())
                        for h, rs in zip(d["hypotheses"], d["references"])]
            speers["nltk (split)"] = s_nltk
            spairs["oracle tok:none"].append("nltk (split)")
        out.append(Workload(f"sentence-bleu-{n_refs}ref", f"3,003 sentence BLEUs, {n_refs} reference(s)",
                            setup, {"oracle tok:13a": s_oracle_13a, "oracle tok:none": s_oracle_none},
                            speers, spairs, list(missing)))
    return out


def librispeech_like(n_utterances: int = 2620, seed: int = 2620) -> dict:
    """2,620 utterances of about 20 words (LibriSpeech test-clean size); each hypothesis is
    its reference after round(rate * length) random substitutions, deletions and
    insertions, with the rate drawn from 5% to 15%."""
    rng = random.Random(seed)
    vocab = _vocabulary(rng)
    refs, hyps = [], []
    for _ in range(n_utterances):
        length = max(4, int(rng.gauss(20, 6)))
        ref = _zipf_sentence(rng, vocab, length)
        hyp = list(ref)
        for _ in range(round(length * rng.uniform(0.05, 0.15))):
            op = rng.random()
            i = rng.randrange(len(hyp)) if hyp else 0
            if op < 0.5 and hyp:
                hyp[i] = rng.choice(vocab)
            elif op < 0.75 and len(hyp) > 1:
                del hyp[i]
            else:
                hyp.insert(i, rng.choice(vocab))
        refs.append(" ".join(ref))
        hyps.append(" ".join(hyp))
    return {"references": refs, "hypotheses": hyps}


def _wer_workloads() -> list[Workload]:
    from oracle.alignment import admissible_counts
    from oracle.error_rates import words
    from oracle.registry import get_metric
    try:
        import jiwer
    except ImportError:
        jiwer = None
    wer = get_metric("wer")
    jiwer_tok = wer.settings({"tokenize": "jiwer"})

    def oracle_wer(d):
        return wer.compute(d, {"tokenize": "jiwer"}).value

    def oracle_sets(d):
        return [admissible_counts(words(r, jiwer_tok), words(h, jiwer_tok))
                for r, h in zip(d["references"], d["hypotheses"])]

    peers, pairs, missing = {}, {"oracle corpus WER": [], "oracle S/D/I sets": []}, []
    if jiwer:
        peers["jiwer.wer"] = lambda d: jiwer.wer(d["references"], d["hypotheses"])
        peers["jiwer.process_words"] = lambda d: jiwer.process_words(d["references"], d["hypotheses"])
        pairs["oracle corpus WER"].append("jiwer.wer")
        pairs["oracle S/D/I sets"].append("jiwer.process_words")
    else:
        missing.append("jiwer")
    return [Workload("wer-librispeech", "corpus WER and per-utterance admissible S/D/I sets, 2,620 utterances "
                     "of about 20 words at 5-15% WER", librispeech_like,
                     {"oracle corpus WER": oracle_wer, "oracle S/D/I sets": oracle_sets}, peers, pairs, missing)]


def _import_time(repeat: int) -> dict:
    times = []
    for _ in range(repeat):
        code = "import time; t = time.perf_counter(); import oracle, oracle.bleu; print(time.perf_counter() - t)"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
        times.append(float(out.stdout))
    return {"workload": "import-oracle", "description": "`import oracle` (with the BLEU module), fresh process",
            "median_s": {"oracle": statistics.median(times)}, "ratios": {}, "target": "< 0.1 s"}


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
    return [Workload("cider-d-coco", "CIDEr-D, 5,000 images x 5 references of about 10 tokens (COCO Karpathy "
                     "test size), candidates edited from a reference", coco_like,
                     {"oracle cider_d (exact + 30 digits)": oracle_cider_d}, peers, pairs, missing)]


def _audit_workloads() -> list[Workload]:
    """`metric-conformance audit` of one corpus figure over the metric's whole knob space
    (conformance.audit.SPACES) on full-size test sets; the target is under a minute each."""
    from conformance.audit import Claim, audit, parse_figure

    def msmarco_like(n_queries: int = 6980, depth: int = 1000, seed: int = 6980) -> dict:
        """6,980 queries (MS MARCO dev) x 1,000 retrieved passages with float scores; one or two
        judged relevant passages per query (grades 1-3), a third of them not retrieved."""
        rng = random.Random(seed)
        pool = [f"D{i}" for i in range(200000)]
        qrels, run = {}, {}
        for qi in range(n_queries):
            docs = rng.sample(pool, depth)
            rel = {d: rng.choice((1, 1, 2, 3)) for d in rng.sample(docs, rng.choice((1, 1, 1, 2)))}
            if rng.random() < 0.3:
                rel[rng.choice(pool)] = 1
            qrels[f"Q{qi}"] = rel
            run[f"Q{qi}"] = {d: rng.random() * 10 + (3 * rng.random() if d in rel else 0) for d in docs}
        return {"qrels": qrels, "run": run}

    def claim(text, metric, fixed, scale):
        return lambda d: audit(Claim(text, parse_figure(text), metric, fixed, {}, d, scale=scale)).verdict

    return [
        Workload("audit-bleu-newstest", "audit 'BLEU 27.3' over 1,024 BLEU settings, 3,003 segments",
                 newstest_like, {"oracle audit": claim("BLEU 27.3", "bleu", {}, 100)}, {}),
        Workload("audit-wer-librispeech", "audit 'WER 4.2%' over 96 WER settings, 2,620 utterances",
                 librispeech_like, {"oracle audit": claim("WER 4.2%", "wer", {}, 100)}, {}),
        Workload("audit-ndcg-msmarco", "audit 'nDCG@10 .3140' over 1,440 NDCG settings, 6,980 queries x 1,000",
                 msmarco_like, {"oracle audit": claim("nDCG@10 .3140", "ndcg", {"k": "10"}, 1)}, {}),
    ]


def _ranking_workloads() -> list[Workload]:
    """MS MARCO dev-sized (6,980 queries x 1,000 documents, 1-2 relevant each: MRR@10,
    NDCG@10, MAP, R@1000) and TREC-DL-sized (43 x 1,000, about 200 graded judgments each:
    NDCG@10, MAP) runs, in memory and from TREC files (reading included)."""
    import os
    import tempfile

    from oracle import ranking, trec
    from oracle.registry import get_metric
    try:
        import pytrec_eval
    except ImportError:
        pytrec_eval = None
    try:
        import ranx
    except ImportError:
        ranx = None

    def generate(n_queries, judged_range, grades, seed):
        """Scores descending by rank (distinct doubles); judged documents at ranks skewed to
        the top, a fifth of them not retrieved; passage-like numeric document ids."""
        rng = random.Random(seed)
        qrels, run = {}, {}
        for i in range(n_queries):
            q = str(1000000 + i * 7)
            docs = [str(x) for x in rng.sample(range(8841823), 1000)]
            scores = sorted((rng.uniform(0.0, 40.0) for _ in range(1000)), reverse=True)
            judged = {}
            target = rng.randint(*judged_range)
            while len(judged) < target:
                # retrieved (80%) at a rank skewed to the top: P(rank <= 10) is about 0.3
                if rng.random() < 0.8:
                    d = docs[int(1000 * rng.random() ** 4)]
                else:
                    d = str(9000000 + rng.randrange(10 ** 6))
                judged[d] = rng.choice(grades)
            if not any(g > 0 for g in judged.values()):
                judged[docs[rng.randrange(1000)]] = max(grades)
            qrels[q] = judged
            run[q] = dict(zip(docs, scores))
        return {"qrels": qrels, "run": run}

    def with_files(data):
        tmp = tempfile.TemporaryDirectory(prefix="bench-ranking-")
        qpath, rpath = os.path.join(tmp.name, "qrels.txt"), os.path.join(tmp.name, "run.txt")
        with open(qpath, "w", encoding="utf-8") as f:
            f.writelines(f"{q} 0 {d} {g}\n" for q, judged in data["qrels"].items() for d, g in judged.items())
        with open(rpath, "w", encoding="utf-8") as f:
            f.writelines(f"{q} Q0 {d} {i} {s!r} bench\n" for q, ranking in data["run"].items()
                         for i, (d, s) in enumerate(ranking.items(), start=1))
        return {**data, "qrels_path": qpath, "run_path": rpath, "_tmp": tmp}

    out = []
    for name, desc, size, measures in [
            ("ranking-msmarco", "MS MARCO dev-sized run: 6,980 queries x 1,000 documents, 1-2 relevant "
             "each; MRR@10, NDCG@10, MAP, R@1000", (6980, (1, 2), (1,), 6980),
             [("reciprocal_rank", {"k": "10"}, "recip_rank", "recip_rank", "mrr@10"),
              ("ndcg", {"k": "10"}, "ndcg_cut.10", "ndcg_cut_10", "ndcg@10"),
              ("average_precision", {}, "map", "map", "map"),
              ("recall_at_k", {"k": "1000"}, "recall.1000", "recall_1000", "recall@1000")]),
            ("ranking-trec-dl", "TREC-DL-sized graded run: 43 queries x 1,000 documents, about 200 "
             "judgments each, grades 0-3; NDCG@10, MAP", (43, (180, 220), (0, 0, 1, 2, 3), 2019),
             [("ndcg", {"k": "10"}, "ndcg_cut.10", "ndcg_cut_10", "ndcg@10"),
              ("average_precision", {}, "map", "map", "map")])]:
        metrics = [(get_metric(m), conv) for m, conv, *_ in measures]
        te_measures = {t for _, _, t, _, _ in measures}
        te_keys = [k for _, _, _, k, _ in measures]
        ranx_names = [r for *_, r in measures]

        def setup(size=size):
            n, judged_range, grades, seed = size
            return generate(n, judged_range, grades, seed)

        def oracle(d, metrics=metrics):
            # every measure in one pass, as pytrec_eval's evaluate() does
            return [r.value for r in ranking.compute_many(d, metrics)]

        def te_means(per_query, keys):
            # trec_eval's summary: the per-query values summed in query-id order, over their count
            return {k: sum(per_query[q][k] for q in sorted(per_query)) / len(per_query) for k in keys}

        def pytrec(d, te_measures=te_measures, te_keys=te_keys):
            ev = pytrec_eval.RelevanceEvaluator(d["qrels"], te_measures)
            return te_means(ev.evaluate(d["run"]), te_keys)

        def ranx_eval(d, names=ranx_names):
            return ranx.evaluate(ranx.Qrels(d["qrels"]), ranx.Run(d["run"]), names, make_comparable=True)

        peers, pairs, missing = {}, {"oracle": []}, []
        if pytrec_eval:
            peers["pytrec_eval"] = pytrec
            pairs["oracle"].append("pytrec_eval")
        else:
            missing.append("pytrec-eval-terrier")
        if ranx:
            peers["ranx"] = ranx_eval
            pairs["oracle"].append("ranx")
        else:
            missing.append("ranx")
        note = " (pytrec_eval's recip_rank has no cutoff: RR over the whole ranking)" \
            if name == "ranking-msmarco" else ""
        how = ("; the oracle computes all measures in one oracle.ranking.compute_many call (inputs checked and "
               "rankings sorted once), as pytrec_eval's evaluate() does")
        out.append(Workload(name, f"{desc}, in memory{note}{how}", setup, {"oracle": oracle}, peers, pairs, missing))

        def setup_files(size=size):
            return with_files(setup(size))

        def oracle_files(d, metrics=metrics):
            data = {"qrels": trec.read_qrels(d["qrels_path"]), "run": trec.read_run(d["run_path"])}
            return [r.value for r in ranking.compute_many(data, metrics)]

        def pytrec_files(d, te_measures=te_measures, te_keys=te_keys):
            with open(d["qrels_path"], encoding="utf-8") as f:
                qrels = pytrec_eval.parse_qrel(f)
            with open(d["run_path"], encoding="utf-8") as f:
                run = pytrec_eval.parse_run(f)
            ev = pytrec_eval.RelevanceEvaluator(qrels, te_measures)
            return te_means(ev.evaluate(run), te_keys)

        fpeers, fpairs = {}, {"oracle (oracle.trec + compute)": []}
        if pytrec_eval:
            fpeers["pytrec_eval (parse_qrel/parse_run + evaluate)"] = pytrec_files
            fpairs["oracle (oracle.trec + compute)"].append("pytrec_eval (parse_qrel/parse_run + evaluate)")
        out.append(Workload(f"{name}-files", f"{desc}, from the TREC files, whole process{note}; scores read as "
                            f"exact text (oracle.trec.read_run), the floats of a query's block kept for sorting",
                            setup_files,
                            {"oracle (oracle.trec + compute)": oracle_files}, fpeers, fpairs,
                            [m for m in missing if m != "ranx"]))
    return out


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

    entity_f1 = get_metric("entity_f1")
    peers, pairs, missing = {}, {"oracle entity_f1 (micro)": []}, []
    try:
        from seqeval.metrics import f1_score as seqeval_f1
        peers["seqeval f1_score"] = lambda d: seqeval_f1(d["gold"], d["pred"])
        pairs["oracle entity_f1 (micro)"].append("seqeval f1_score")
    except ImportError:
        missing.append("seqeval")
    out.append(Workload("entity-f1-conll2003", "micro entity F1 (default conventions; seqeval default mode), "
                        "CoNLL-2003 test size: 3,453 sentences, 46,435 tokens, about 5,600 entities in IOB2, "
                        "about 10% of them perturbed in the prediction", conll2003_like,
                        {"oracle entity_f1 (micro)": lambda d: entity_f1.compute(d, {}).value}, peers, pairs, missing))

    cm, acc, f1 = get_metric("confusion_matrix"), get_metric("accuracy"), get_metric("f1")
    oracle = {"oracle confusion_matrix": lambda d: cm.compute(d, {}).value,
              "oracle accuracy": lambda d: acc.compute(d, {}).value,
              "oracle f1 (macro)": lambda d: f1.compute(d, {"average": "macro"}).value}
    peers, pairs, missing = {}, {name: [] for name in oracle}, []
    try:
        from sklearn import metrics as skm
        peers["sklearn confusion_matrix"] = lambda d: skm.confusion_matrix(d["y_true"], d["y_pred"])
        peers["sklearn accuracy_score"] = lambda d: skm.accuracy_score(d["y_true"], d["y_pred"])
        peers["sklearn f1_score (macro)"] = lambda d: skm.f1_score(d["y_true"], d["y_pred"], average="macro")
        for o, p in zip(oracle, list(peers)):
            pairs[o].append(p)
    except ImportError:
        missing.append("scikit-learn")
    out.append(Workload("classification-imagenet", "confusion matrix, accuracy, macro F1: 50,000 samples, 1,000 "
                        "classes (ImageNet val size), 25% wrong; both sides get Python lists (given NumPy "
                        "arrays, sklearn measured about 15 ms instead of 16 for the matrix and 19 instead of "
                        "34 for macro F1 on this machine)", imagenet_like, oracle, peers, pairs, missing))

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
    return out


def workloads() -> list[Workload]:
    return (_bleu_workloads() + _wer_workloads() + _cider_workloads() + _audit_workloads()
            + _ranking_workloads() + _labelling_workloads())


def measure(w: Workload, repeat: int, log=print) -> dict:
    data = w.setup()
    contenders = {**w.oracle, **w.peers}
    names = list(contenders)
    samples: dict = {n: [] for n in names}
    for i in range(repeat):
        rot = names[i % len(names):] + names[:i % len(names)]
        for n in rot:
            t0 = time.perf_counter()
            contenders[n](data)
            samples[n].append(time.perf_counter() - t0)
    med = {n: statistics.median(v) for n, v in samples.items()}
    ratios = {}
    for o, ps in w.pairs.items():
        for p in ps:
            ratios[f"{o} / {p}"] = med[o] / med[p]
        if ps:
            fastest = min(ps, key=lambda p: med[p])
            ratios[f"{o} / fastest peer doing the same work ({fastest})"] = med[o] / med[fastest]
    return {"workload": w.name, "description": w.description, "repeat": repeat, "median_s": med,
            "ratios": ratios, "missing_peers": w.missing}


def main(args) -> int:
    results = []
    chosen = args.workload
    for w in workloads():
        if chosen and w.name not in chosen:
            continue
        print(f"{w.name}: {w.description} ...", file=sys.stderr, flush=True)
        results.append(measure(w, args.repeat))
    if not chosen or "import-oracle" in chosen:
        results.append(_import_time(max(3, args.repeat)))
    for r in results:
        print(f"\n{r['workload']}: {r['description']}")
        for n, t in r["median_s"].items():
            print(f"  {n:<24} median {t * 1000:9.1f} ms")
        for n, x in r["ratios"].items():
            print(f"  ratio {n:<58} {x:6.2f}x")
        if r.get("missing_peers"):
            print(f"  not measured (not installed): {', '.join(r['missing_peers'])}")
    if args.output:
        with open(args.output, "w", encoding="utf-8") as f:
            json.dump({"python": sys.version.split()[0], "results": results}, f, indent=2)
    return 0
