"""torcheval's ``retrieval_precision(input, target, k, limit_k_to_size)``
(``functional/ranking/retrieval_precision.py``) -> the oracle's ``precision_at_k``.

It scores one ranking: ``input`` the scores of the retrieved documents, ``target`` their
0/1 relevance. A run is passed query by query (its rows: the query's retrieved documents,
float64 scores, ``target = grade >= threshold``), and the metric is the mean of the
returned values, taken here exactly (a Fraction of each float), so that only the
library's own arithmetic is judged. Profile, from the source of torcheval 0.0.7:

- ``queries=run``: only the rankings passed exist for it; ``no_relevant=zero``: a ranking
  without a relevant document scores 0/k (there is no other action);
- ``k``: ``k=None`` takes every element (``get_topk``: ``k = nb_samples``), else
  ``t.topk(min(k, nb_samples))``;
- ``precision_denominator``: ``k`` (``compute_total_number_items_retrieved`` returns ``k``)
  or ``retrieved`` (``limit_k_to_size=True``: ``min(k, len(input))``; it refuses
  ``limit_k_to_size`` without k, where the two denominators are the same);
- ties: ``get_topk``'s own comment, "Ties are sorted in an unpredictable way": no tie rule
  is documented, so the canonical ``ties=trec_eval`` is the profile and an input whose
  value depends on the order of tied scores at the cutoff is a finding of the run;
- values: an int64 count divided by a Python int, a float32 tensor (torch's default dtype).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, LibraryOutput, Skip
from oracle.compare import Tolerance

from ._ranking_inputs import cut, float_run
from ._tensors import document_ids, grades, one_dtype

_SRC = "torcheval/metrics/functional/ranking/retrieval_precision.py"
METRICS = ("precision_at_k",)
CAPABILITIES = {"precision_at_k": {"k": ANY, "threshold": ANY, "duplicates": ANY, "no_relevant": ("zero",),
                                   "queries": ("run",), "missing": ANY, "empty_judgments": ANY,
                                   "precision_denominator": ("k", "retrieved")}}
PROFILES = {"precision_at_k": {"ties": "trec_eval", "threshold": "1", "no_relevant": "zero", "queries": "run",
                               "k": "none", "precision_denominator": "k"}}
SOURCES = {"precision_at_k": {
    "k": f"{_SRC} retrieval_precision(k=None): 'if `k` is None, all the `input` elements are considered'",
    "precision_denominator": f"{_SRC} compute_total_number_items_retrieved: return k, or min(k, nb_samples) "
                             "with limit_k_to_size=True",
    "queries": f"{_SRC}: one ranking per call (num_tasks rows of equal length); the run's rankings are passed "
               "one by one and their values averaged",
    "no_relevant": f"{_SRC} _retrieval_precision_compute: nb_relevant_items / nb_retrieved_items (0 without a "
                   "relevant element)",
}}
# per query one float32 rounding of a ratio of integers; the mean is exact here
TOLERANCES = {"precision_at_k": Tolerance(ulps32=2)}


def options(metric: str, settings: Mapping[str, str]) -> dict:
    k = cut(settings)
    return {"k": k, "limit_k_to_size": settings.get("precision_denominator") == "retrieved" and k is not None,
            "threshold": int(settings.get("threshold", "1"))}


def rows(options: Mapping, inputs: Mapping) -> list:
    """[(query, float64 scores, 0/1 targets)] of the run's rankings, in run order."""
    document_ids(inputs)
    grades(inputs, graded=False)
    run, qrels = float_run(inputs), inputs["qrels"]
    out = []
    for q, ranking in run.items():
        judged = qrels.get(q, {})
        one_dtype(f"run[{q!r}] scores", list(ranking.values()))
        out.append((q, list(ranking.values()),
                    [int(judged.get(d, 0) >= options["threshold"]) for d in ranking]))
    if not out:
        raise Skip("an empty run: torcheval's retrieval_precision scores one ranking per call")
    return out


def call(metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
    import torch
    from torcheval.metrics.functional import retrieval_precision
    values = []
    for q, scores, target in rows(options, inputs):
        # float64 scores, or bool ones as torch.tensor makes them (for the library to refuse)
        x = torch.tensor(scores) if scores and isinstance(scores[0], bool) else torch.tensor(scores, dtype=torch.float64)
        v = retrieval_precision(x, torch.tensor(target, dtype=torch.int64),
                                k=options["k"], limit_k_to_size=options["limit_k_to_size"])
        values.append(float(v))
    if any(v != v for v in values):   # a NaN (0/0 of an empty ranking at k=None) is the library's value
        return LibraryOutput(value=float("nan"), raw=values)
    return LibraryOutput(value=sum(map(Fraction, values), Fraction(0)) / len(values), raw=values)


def ties_at_cutoff(metric: str, settings: Mapping[str, str], inputs: Mapping) -> bool:
    """Applies: a query whose k-th and (k+1)-th highest scores are equal (the retrieved set
    then depends on how ``topk`` orders the tie)."""
    if metric != "precision_at_k" or "run" not in inputs:
        return False
    try:
        k = cut(settings)
        run = float_run(inputs)
    except Exception:
        return False
    for ranking in run.values():
        s = sorted(ranking.values(), reverse=True)
        if k is not None and 0 < k < len(s) and s[k - 1] == s[k]:
            return True
    return False


def empty_ranking_at_every_rank(metric: str, settings: Mapping[str, str], inputs: Mapping) -> bool:
    """Applies: k=None and a query of the run with no retrieved document (``nb_relevant /
    nb_samples`` is 0/0, NaN)."""
    if metric != "precision_at_k" or "run" not in inputs or settings.get("k", "none") != "none":
        return False
    try:
        return any(len(r) == 0 for r in float_run(inputs).values())
    except Exception:
        return False


def topk_model(metric: str, settings: Mapping[str, str], inputs: Mapping):
    """The value with the retrieved set that ``torch.topk`` picks among tied scores: the
    relevant elements among the indices ``topk(min(k, n))`` returns, over the library's
    denominator, averaged exactly."""
    import torch
    opts = options(metric, settings)
    total = Fraction(0)
    parts = rows(opts, inputs)
    for _, scores, target in parts:
        n, k = len(scores), opts["k"]
        kk = n if k is None else min(k, n)
        picked = torch.tensor(scores, dtype=torch.float64).topk(kk).indices.tolist() if kk else []
        den = n if k is None else (min(k, n) if opts["limit_k_to_size"] else k)
        total += Fraction(sum(target[i] for i in picked), den) if den else Fraction(0)
    return float(total / len(parts))
