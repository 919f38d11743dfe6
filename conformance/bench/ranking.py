"""Ranking workloads (TREC-like qrels and runs with graded judgements and ties)
and audit workloads."""
from __future__ import annotations

import random

from conformance.bench.text import librispeech_like, newstest_like
from conformance.bench.workload import Workload



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

    from conformance.bench.shapes import librispeech_shaped, newstest_shaped, trec_dl_shaped
    shaped = " (second generator: conformance.bench.shapes)"
    return [
        Workload("audit-bleu-newstest", "audit 'BLEU 27.3' over 1,024 BLEU settings, 3,003 segments",
                 newstest_like, {"oracle audit": claim("BLEU 27.3", "bleu", {}, 100)}, {}),
        Workload("audit-bleu-newstest-shaped", "audit 'BLEU 27.3' over 1,024 BLEU settings, 3,003 segments" + shaped,
                 newstest_shaped, {"oracle audit": claim("BLEU 27.3", "bleu", {}, 100)}, {}),
        Workload("audit-wer-librispeech", "audit 'WER 4.2%' over 96 WER settings, 2,620 utterances",
                 librispeech_like, {"oracle audit": claim("WER 4.2%", "wer", {}, 100)}, {}),
        Workload("audit-wer-librispeech-shaped", "audit 'WER 4.2%' over 96 WER settings, 2,620 utterances" + shaped,
                 librispeech_shaped, {"oracle audit": claim("WER 4.2%", "wer", {}, 100)}, {}),
        Workload("audit-ndcg-msmarco", "audit 'nDCG@10 .3140' over 1,440 NDCG settings, 6,980 queries x 1,000",
                 msmarco_like, {"oracle audit": claim("nDCG@10 .3140", "ndcg", {"k": "10"}, 1)}, {}),
        Workload("audit-ndcg-msmarco-shaped", "audit 'nDCG@10 .3140' over 1,440 NDCG settings, 6,980 queries x "
                 "1,000, tied BM25-like scores" + shaped, lambda: trec_dl_shaped(6980, judgements=1, seed=6),
                 {"oracle audit": claim("nDCG@10 .3140", "ndcg", {"k": "10"}, 1)}, {}),
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

    from conformance.bench.shapes import trec_dl_shaped
    four = [("reciprocal_rank", {"k": "10"}, "recip_rank", "recip_rank", "mrr@10"),
            ("ndcg", {"k": "10"}, "ndcg_cut.10", "ndcg_cut_10", "ndcg@10"),
            ("average_precision", {}, "map", "map", "map"),
            ("recall_at_k", {"k": "1000"}, "recall.1000", "recall_1000", "recall@1000")]
    shaped = (" (second generator, conformance.bench.shapes: BM25-like scores rounded to 2 decimals, so ties are "
              "common, documents shuffled in the input)")
    out = []
    for name, desc, size, measures in [
            ("ranking-msmarco-shaped", "MS MARCO dev-sized run: 6,980 queries x 1,000 documents, 1-2 judged "
             "each; MRR@10, NDCG@10, MAP, R@1000" + shaped, lambda: trec_dl_shaped(6980, judgements=1, seed=6),
             four),
            ("ranking-trec-dl-shaped", "TREC-DL-sized graded run: 43 queries x 1,000 documents, 40-400 graded "
             "judgements each (about 215), grades 0-3 skewed to 0; MRR@10, NDCG@10, MAP, R@1000" + shaped,
             trec_dl_shaped, four),
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
            if callable(size):
                return size()
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
