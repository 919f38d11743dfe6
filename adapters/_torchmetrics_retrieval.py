"""torchmetrics' retrieval metrics (``torchmetrics.retrieval``, 1.x) mapped onto the ranking family.

| metric | class (``update(preds, target, indexes)``, then ``compute()``) |
| --- | --- |
| ``hit_rate`` | ``RetrievalHitRate(top_k=K)`` |
| ``reciprocal_rank`` | ``RetrievalMRR(top_k=K)`` |
| ``precision_at_k`` | ``RetrievalPrecision(top_k=K, adaptive_k=...)`` |
| ``recall_at_k`` | ``RetrievalRecall(top_k=K)`` |
| ``average_precision`` | ``RetrievalMAP(top_k=K)`` |
| ``r_precision`` | ``RetrievalRPrecision()`` |
| ``ndcg`` | ``RetrievalNormalizedDCG(top_k=K)`` |

The library sees one row per retrieved document: its score (float64 here, the double
nearest the exact score), its target and its query index. So it knows only the queries of
the run and only the judgements of retrieved documents (profile, from the source of 1.9.0):

- ``queries=run``: a query is a group of rows (retrieval/base.py ``compute``: the groups of
  ``indexes``); a qrels query absent from the run does not exist for it;
- ``no_relevant``: ``empty_target_action`` 'neg' (the default: a query without a positive
  target scores 0) is ``zero``, 'skip' is ``skip``, 'pos' (it scores 1) is ``one``, 'error'
  (ValueError) is ``error``;
- ``ap_denominator=retrieved-relevant``: ``retrieval_average_precision`` averages the
  precisions at the relevant documents of the top K it is given; ``ideal=retrieved`` for
  nDCG (``_dcg_sample_scores(target, target, ...)``: the ideal ranking of the given
  targets); ``relevant_count=ranked``: a relevant judgement of a document the run does not
  retrieve has no row, so recall and R-precision divide by the relevant rows
  (``target.sum()``), and a query whose relevant documents are all unretrieved is one
  without a positive target, for ``empty_target_action`` to decide (every measure);
- ``precision_denominator``: ``k`` (``adaptive_k=False``, the default: ``relevant / top_k``)
  or ``retrieved`` (``adaptive_k=True``: top_k capped at the number of rows);
- nDCG: linear gain, the target as the gain (``gain=linear``, ``negative=keep``,
  ``threshold_gains=no``), tied scores averaged (``_tie_average_dcg``: ``ties=expected``);
- the other measures rank with ``preds.topk(..., sorted=True)`` or ``torch.argsort(preds,
  descending=True)``, whose order among equal scores is not documented: the canonical
  ``ties=trec_eval`` is the profile, and an input whose value depends on the tie order is a
  finding of the run.
- The binary measures take ``target = grade >= threshold``.
- ``score_precision=float32``: the scores are cast to float32 before they are ranked
  (utilities/checks.py ``preds = preds.float()``), so two scores one float32 holds alike tie.
"""
from __future__ import annotations

from typing import Mapping

from conformance.protocol import ANY, LibraryOutput, Skip
from oracle.compare import Tolerance

from ._ranking_inputs import cut, float_run
from ._tensors import document_ids, grades, one_dtype

METRICS = ("hit_rate", "reciprocal_rank", "precision_at_k", "recall_at_k", "average_precision",
           "r_precision", "ndcg")
_CAPS = {"k": ANY, "threshold": ANY, "duplicates": ANY, "no_relevant": ("zero", "skip", "one", "error"),
         "queries": ("run",), "missing": ANY, "empty_judgments": ANY, "score_precision": ("float32",),
         "relevant_count": ("ranked",)}
_PROFILE = {"ties": "trec_eval", "threshold": "1", "no_relevant": "zero", "queries": "run",
            "score_precision": "float32", "relevant_count": "ranked"}

CAPABILITIES = {
    "hit_rate": dict(_CAPS), "reciprocal_rank": dict(_CAPS),
    "precision_at_k": dict(_CAPS, precision_denominator=("k", "retrieved")),
    "recall_at_k": dict(_CAPS),
    "average_precision": dict(_CAPS, ap_denominator=("retrieved-relevant",)),
    "r_precision": dict(_CAPS),
    "ndcg": dict(_CAPS, threshold=("1",), ties=("expected",), ideal=("retrieved",), gain=("linear",),
                 negative=("keep",), threshold_gains=("no",)),
}
PROFILES = {
    "hit_rate": dict(_PROFILE, k="none"), "reciprocal_rank": dict(_PROFILE, k="none"),
    "precision_at_k": dict(_PROFILE, k="none", precision_denominator="k"),
    "recall_at_k": dict(_PROFILE, k="none"),
    "average_precision": dict(_PROFILE, k="none", ap_denominator="retrieved-relevant"),
    "r_precision": dict(_PROFILE),
    "ndcg": dict(_PROFILE, k="none", ties="expected", ideal="retrieved", gain="linear", negative="keep",
                 threshold_gains="no"),
}
SOURCES = {
    "queries": "torchmetrics/retrieval/base.py RetrievalMetric.compute: one value per group of indexes, then "
               "their mean (aggregation='mean')",
    "no_relevant": "retrieval/base.py: empty_target_action='neg' (default) 'consider the query as negative', "
                   "'skip' leaves it out, 'pos' 'consider the query as positive' (1.0), 'error' raises ValueError",
    "ap_denominator": "functional/retrieval/average_precision.py: (arange(len(positions)) + 1) / positions, "
                      ".mean() over the relevant documents of the top K",
    "ideal": "functional/retrieval/ndcg.py: normalized_gain = _dcg_sample_scores(target, target, top_k, "
             "ignore_ties=True), the given rows only",
    "ties": "functional/retrieval/ndcg.py _tie_average_dcg (ties averaged, for nDCG)",
    "precision_denominator": "functional/retrieval/precision.py: relevant / top_k; adaptive_k=True caps top_k "
                             "at preds.shape[-1]",
    "k": "every class: top_k=None (the whole ranking)",
    "relevant_count": "retrieval/base.py RetrievalMetric.update(preds, target, indexes): the rows are the only "
                      "judgements it is given; functional/retrieval/recall.py: relevant / target.sum(); compute: "
                      "'if not mini_target.sum()' then empty_target_action",
    "negative": "functional/retrieval/ndcg.py: the target values are the gains, as given",
    "threshold_gains": "functional/retrieval/ndcg.py _dcg_sample_scores: the gain of a row is its target value, "
                       "with no relevance level below which it is dropped",
    "score_precision": "utilities/checks.py _check_retrieval_target_and_prediction_types: 'preds = preds.float()' "
                       "(its docstring: 'preds: as torch.float32'): scores a float32 cannot tell apart tie",
}
# float64 scores; the values are float32 (torch.arange(..., dtype=torch.float32),
# .float()) means of per-query float32 values: a few float32 roundings per query and a mean.
TOLERANCES = {m: Tolerance(ulps32=16) for m in METRICS}


_EMPTY_ACTION = {"zero": "neg", "skip": "skip", "one": "pos", "error": "error"}


def options(metric: str, settings: Mapping[str, str]) -> dict:
    return {"top_k": cut(settings), "threshold": int(settings.get("threshold", "1")),
            "empty_target_action": _EMPTY_ACTION[settings.get("no_relevant", "zero")],
            "adaptive_k": settings.get("precision_denominator") == "retrieved", "metric": metric}


def _rows(metric: str, options: Mapping, inputs: Mapping):
    document_ids(inputs)
    grades(inputs, graded=metric == "ndcg")
    run, qrels = float_run(inputs), inputs["qrels"]
    preds, target, index = [], [], []
    for qi, (q, ranking) in enumerate(run.items()):
        if not ranking:
            raise Skip(f"run[{q!r}] is empty: torchmetrics has no row to stand for a query without documents")
        judged = qrels.get(q, {})
        for d, s in ranking.items():
            g = judged.get(d, 0)
            preds.append(s)
            index.append(qi)
            target.append(g if metric == "ndcg" else int(g >= options["threshold"]))
    if not preds:
        raise Skip("an empty run: torchmetrics has no row")
    one_dtype("run scores", preds)
    return preds, target, index


def call(metric: str, options: Mapping, inputs: Mapping, chunked: bool = False) -> LibraryOutput:
    """One metric object, one ``update`` with every row (or, ``chunked``, the rows in
    consecutive chunks of 1, 2, 3, ... rows, one ``update`` each: the stateful use across
    batches, a query's rows possibly split between two batches), then ``compute()``."""
    import torch
    import torchmetrics.retrieval as R

    preds, target, index = _rows(metric, options, inputs)
    k, empty = options["top_k"], options["empty_target_action"]
    cls = {"hit_rate": R.RetrievalHitRate, "reciprocal_rank": R.RetrievalMRR, "precision_at_k": R.RetrievalPrecision,
           "recall_at_k": R.RetrievalRecall, "average_precision": R.RetrievalMAP,
           "r_precision": R.RetrievalRPrecision, "ndcg": R.RetrievalNormalizedDCG}[metric]
    kwargs = {"empty_target_action": empty}
    if metric != "r_precision":
        kwargs["top_k"] = k
    if metric == "precision_at_k":
        kwargs["adaptive_k"] = options["adaptive_k"]
    m = cls() if options.get("bare") else cls(**kwargs)
    # NDCG's targets are the grades (int64, or float as torch.tensor makes them), the others'
    # grade >= threshold; scores float64, or bool ones as torch.tensor makes them
    t = torch.tensor(target, dtype=None if any(isinstance(g, float) for g in target) else torch.long) \
        if metric == "ndcg" else torch.tensor(target, dtype=torch.bool)
    p = torch.tensor(preds) if isinstance(preds[0], bool) else torch.tensor(preds, dtype=torch.float64)
    i = torch.tensor(index, dtype=torch.long)
    if not chunked:
        m.update(p, t, indexes=i)
    else:
        from ._torchmetrics_stateful import chunks
        for a, b in chunks(len(preds)):
            m.update(p[a:b], t[a:b], indexes=i[a:b])
    return LibraryOutput(value=float(m.compute()))


def call_bare(metric: str, inputs: Mapping, profile: Mapping[str, str]) -> LibraryOutput:
    """The class with no argument (``RetrievalRecall()``: top_k=None, empty_target_action=
    'neg', adaptive_k=False), one ``update(preds, target, indexes)``, ``compute()``; the rows
    are the adapter's (targets: grade >= the profile's threshold, 1)."""
    return call(metric, dict(options(metric, profile), bare=True), inputs)


def _torch_orders(metric: str, run: dict) -> dict:
    """{query: the positions of its rows (in the run's order) in the order the library ranks
    them}. retrieval/base.py compute first sorts the rows by query (``torch.sort(indexes)``,
    not a stable sort: the rows of a query can come out permuted), then ranks each query's
    rows by ``preds.topk(n, sorted=True)`` (AP, MRR, precision) or ``torch.argsort(preds,
    descending=True)`` (recall, R-precision, hit rate), on float32 preds (``.float()`` in
    ``_check_retrieval_inputs``)."""
    import torch
    queries = [q for q in run if run[q]]
    scores, index = [], []
    for qi, q in enumerate(queries):
        for s in run[q].values():
            scores.append(s)
            index.append(qi)
    if not scores:
        return {}
    _, perm = torch.sort(torch.tensor(index, dtype=torch.long))
    preds = torch.tensor(scores, dtype=torch.float64).float()[perm]
    starts = [0]
    for q in queries:
        starts.append(starts[-1] + len(run[q]))
    out = {}
    for qi, q in enumerate(queries):
        lo, hi = starts[qi], starts[qi + 1]
        rows = perm[lo:hi].tolist()          # original row numbers, in the sorted order
        p = preds[lo:hi]
        if metric in ("average_precision", "reciprocal_rank", "precision_at_k"):
            ranked = p.topk(hi - lo, sorted=True)[1].tolist()
        else:
            ranked = torch.argsort(p, descending=True).tolist()
        out[q] = [rows[i] - lo for i in ranked]
    return out


def library_model(metric: str, settings: Mapping[str, str], inputs: Mapping, positive_only: bool):
    """The library's value as the oracle computes it on the rows as torch orders them
    (``ties=input-order`` on that order), with, when ``positive_only``, a document of score
    <= 0 counted as not relevant (``torch.where(preds > 0, target, 0)`` in average_precision.py,
    reciprocal_rank.py, precision.py and recall.py; recall.py still divides by every relevant row)."""
    from oracle.conventions import InputError
    from oracle.registry import compute
    run = float_run(inputs)
    # the library's judgements are its rows' targets (relevant_count=ranked): a judgement of a
    # document no row holds does not exist for it
    qrels = {q: {d: g for d, g in j.items() if d in run.get(q, {})} for q, j in inputs["qrels"].items()}
    ordered = {}
    orders = _torch_orders(metric, run)
    for q, ranking in run.items():
        docs = list(ranking)
        order = orders.get(q, [])
        n = len(docs)
        # input order that torch's order reproduces: descending positions as strictly decreasing scores
        ordered[q] = {docs[i]: n - r for r, i in enumerate(order)}
        if positive_only and metric != "recall_at_k":
            judged = qrels.get(q, {})
            t = int(settings.get("threshold", "1"))
            had = any(int(judged.get(d, 0)) >= t for d in docs)
            for d in docs:
                if ranking[d] <= 0 and d in judged:
                    judged[d] = 0
            if had and not any(int(judged.get(d, 0)) >= t for d in docs):
                # the library decides "no positive target" (empty_target_action) on the rows
                # before masking them: the query is not empty for it, it scores 0; a relevant
                # document no row holds keeps it so for the oracle without changing its value
                judged["\x00masked"] = t
    if positive_only and metric == "recall_at_k":
        # relevant / target.sum(): the numerator drops the rows of score <= 0, the denominator keeps them
        return _recall_positive_only(settings, run, ordered, qrels)
    try:
        return compute(metric, {"run": ordered, "qrels": qrels},
                       {**settings, "ties": "input-order", "relevant_count": "judged"}).value
    except InputError:   # no_relevant=error: empty_target_action='error' raises
        return "raised ValueError"


def _recall_positive_only(settings, run, ordered, qrels):
    from fractions import Fraction
    k = cut(settings)
    t = int(settings.get("threshold", "1"))
    values = []
    for q, ranking in ordered.items():
        rel = {d for d, g in qrels.get(q, {}).items() if int(g) >= t}
        if not rel:
            rule = settings.get("no_relevant", "zero")
            if rule == "error":
                return "raised ValueError"
            if rule in ("zero", "one"):
                values.append(Fraction(rule == "one"))
            continue
        top = sorted(ranking, key=lambda d: -ranking[d])[:k]
        values.append(Fraction(sum(1 for d in top if d in rel and run[q][d] > 0), len(rel)))
    return sum(values, Fraction(0)) / len(values) if values else None


def has_negative_grade(metric, settings, inputs) -> bool:
    """Applies: nDCG and a retrieved row whose grade is negative."""
    if metric != "ndcg" or "run" not in inputs:
        return False
    try:
        run = float_run(inputs)
        return any(int(inputs["qrels"].get(q, {}).get(d, 0)) < 0 for q, r in run.items() for d in r)
    except Exception:
        return False


def negative_ideal_model(metric, settings, inputs):
    """The library's nDCG when a grade is negative, in floats (torchmetrics 1.x):
    - the scores are float32 (utilities/checks.py ``preds = preds.float()``), so scores one
      float32 holds alike are one tie group;
    - retrieval/base.py compute: a query whose targets sum to 0 (``if not mini_target.sum()``)
      is empty: 0.0 under empty_target_action='neg', 1.0 under 'pos', left out under 'skip',
      a ValueError under 'error';
    - functional/retrieval/ndcg.py: DCG with the tie-averaged gains (``_tie_average_dcg``:
      the mean target of a tie group times the sum of its positions' discounts 1/log2(i + 1),
      positions past top_k discounted by 0), divided by the ideal DCG
      ``_dcg_sample_scores(target, target, top_k, ignore_ties=True)``: the targets sorted in
      descending order, the negative ones included (at the bottom of the ranking); an ideal
      DCG of exactly 0 gives 0.
    The mean of the per-query values; None when no query is left."""
    import math

    import numpy as np
    run, qrels = float_run(inputs), inputs["qrels"]
    k = cut(settings)
    rule = settings.get("no_relevant", "zero")
    values = []
    for q, ranking in run.items():
        with np.errstate(over="ignore"):   # the scores as the library holds them: float32
            ranking = {d: float(np.float32(v)) for d, v in ranking.items()}
        docs = list(ranking)
        target = [int(qrels.get(q, {}).get(d, 0)) for d in docs]
        if sum(target) == 0:
            if rule == "error":   # empty_target_action='error': base.py raises ValueError
                return "raised ValueError"
            if rule in ("zero", "one"):
                values.append(float(rule == "one"))
            continue
        n = len(docs)
        disc = [1 / math.log2(i + 2) if (k is None or i < k) else 0.0 for i in range(n)]
        order = sorted(range(n), key=lambda i: -ranking[docs[i]])
        dcg, i = 0.0, 0
        while i < n:
            j = i
            while j < n and ranking[docs[order[j]]] == ranking[docs[order[i]]]:
                j += 1
            mean = sum(target[order[x]] for x in range(i, j)) / (j - i)
            dcg += mean * sum(disc[i:j])
            i = j
        ideal = sum(t * w for t, w in zip(sorted(target, reverse=True), disc))
        values.append(dcg / ideal if ideal != 0 else 0.0)
    return sum(values) / len(values) if values else None
