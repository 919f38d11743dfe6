"""Separating probes of the ranking measures (``oracle.ranking_knobs``).

Each probe is a qrels/run pair exercising one rule; the last ones mix them for the
parametric knobs (a cutoff, a grade threshold, RBP's persistence, a recall level).
"""
from __future__ import annotations

# the relevance pattern 1,0,1,1,1,1,0,0,1 gives P@k = 1, 1/2, 2/3, 3/4, 4/5, 5/6 for k = 1..6
# and 6/9 over the whole ranking: every cutoff a different precision (and recall, AP@k, ...)
_CUTS_RUN = {f"d{i}": 20 - i for i in range(1, 10)}
_CUTS_REL = {f"d{i}": g for i, g in zip(range(1, 10), (1, 0, 1, 2, 3, 1, 0, 0, 1))}

PROBES = [
    # ties: "a" and "b" tie; trec_eval ranks b first (docno descending), input order a first;
    # expected puts the relevant b at rank 1 or 2 with probability 1/2 each
    ("tie-by-docno", {"qrels": {"q": {"a": 0, "b": 1}}, "run": {"q": {"a": 1, "b": 1}}}),
    # the same tie with the nonrelevant document unjudged (judged@k at a cutoff of 1)
    ("tie-judged-unjudged", {"qrels": {"q": {"b": 1}}, "run": {"q": {"a": 1, "b": 1}}}),
    # six tied documents across the usual cutoff of 5, the relevant f listed last: input order
    # ranks it 6th (P@5 = 0, hit@5 = 0), trec_eval's docno-descending rule first (P@5 = 1/5)
    ("tie-across-cutoff", {"qrels": {"q": {"f": 1}}, "run": {"q": [[d, 1] for d in "abcdef"]}}),
    ("equal-in-float32-unjudged", {"qrels": {"q": {"b": 1}}, "run": {"q": {"a": "1.00000001", "b": "1"}}}),
    ("equal-in-float64-unjudged", {"qrels": {"q": {"b": 1}}, "run": {"q": {"a": "1.0000000000000000001", "b": "1"}}}),
    # score_precision: 1.00000001 and 1 are one float32 (the nearest float32 of both is 1.0),
    # two doubles; 1.0000000000000000001 and 1 are one double, two exact numbers
    ("equal-in-float32", {"qrels": {"q": {"a": 0, "b": 1}}, "run": {"q": {"a": "1.00000001", "b": "1"}}}),
    ("equal-in-float64", {"qrels": {"q": {"a": 0, "b": 1}}, "run": {"q": {"a": "1.0000000000000000001", "b": "1"}}}),
    # the same, the higher exact score listed second: under ties=input-order the tie of the
    # rounded scores keeps b first, the exact scores put a first (listed first, as above, the
    # two agree; a list of pairs, as a probe's JSON sorts the keys of an object)
    ("equal-in-float32-listed-after", {"qrels": {"q": {"b": 1}}, "run": {"q": [["b", "1"], ["a", "1.00000001"]]}}),
    ("equal-in-float64-listed-after", {"qrels": {"q": {"b": 1}},
                                       "run": {"q": [["b", "1"], ["a", "1.0000000000000000001"]]}}),
    # relevant_count: the relevant b is judged and never retrieved (R = 2 judged, 1 ranked)
    ("relevant-unretrieved", {"qrels": {"q": {"a": 1, "b": 1}}, "run": {"q": {"x": 2, "a": 1}}}),
    # a second query whose only relevant document is unretrieved: no relevant ranked document
    ("query-without-ranked-relevant", {"qrels": {"q1": {"a": 1}, "q2": {"b": 1}},
                                       "run": {"q1": {"a": 1}, "q2": {"c": 1}}}),
    # no_relevant: q2 is judged, with no relevant document
    ("query-without-relevant", {"qrels": {"q1": {"a": 1}, "q2": {"b": 0}}, "run": {"q1": {"a": 1}, "q2": {"b": 1}}}),
    # queries / missing / empty_judgments: q2 judged but not run, q3 judged with {}, q4 run only
    ("query-sets", {"qrels": {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {}}, "run": {"q1": {"x": 2, "a": 1}, "q4": {"c": 1}}}),
    # duplicates: a listed twice, first with the low score
    ("duplicate-document", {"qrels": {"q": {"a": 1, "b": 1}}, "run": {"q": [["a", 1], ["b", 2], ["x", 3], ["a", 4]]}}),
    # the only relevant document listed last with a low score and first with a high one
    ("duplicate-relevant", {"qrels": {"q": {"a": 1, "x": 0}}, "run": {"q": [["a", 1], ["x", 3], ["a", 4]]}}),
    # a query judged with {} that the run retrieves for
    ("empty-judgments-retrieved", {"qrels": {"q1": {"a": 1}, "q3": {}}, "run": {"q1": {"a": 1}, "q3": {"c": 1}}}),
    # the first relevant document at rank 6 (q1) and 7 (q2): hit rate and RR at cutoffs 5, 6, none
    ("late-first-relevant", {"qrels": {"q1": {"r": 1}, "q2": {"r": 1}},
                             "run": {"q1": {**{f"x{i}": 10 - i for i in range(5)}, "r": 1},
                                     "q2": {**{f"x{i}": 10 - i for i in range(6)}, "r": 1}}}),
    # query q<g> retrieves g - 1 unjudged documents, then one of grade g, then a nonrelevant one:
    # each threshold leaves a different number of queries with a relevant document, and the
    # queries' values differ
    ("grade-per-query", {"qrels": {f"q{g}": {"d": g, "z": 0} for g in range(1, 7)},
                         "run": {f"q{g}": {**{f"u{i}": 3 for i in range(g - 1)}, "d": 2, "z": 1}
                                 for g in range(1, 7)}}),
    # grades 1..7, one document each, ranked in an order that is neither ascending nor descending:
    # every threshold from 1 to 7 a different set of relevant documents
    ("grades-to-7", {"qrels": {"q": {f"g{g}": g for g in range(1, 8)}},
                     "run": {"q": {"g3": 7, "g7": 6, "x": 5, "g1": 4, "g5": 3, "g2": 2, "g6": 1, "g4": 0}}}),
    # fewer documents retrieved than the cutoff; a relevant document beyond the ranking
    ("short-ranking", {"qrels": {"q": {"a": 1, "b": 1, "c": 1}}, "run": {"q": {"a": 2, "x": 1}}}),
    # grades 1..3, a negative grade and a zero grade retrieved, a graded document unretrieved:
    # gain, threshold, threshold_gains, negative, ideal, max_grade
    ("graded", {"qrels": {"q": {"a": 1, "b": 3, "c": 2, "n": -1, "z": 0, "u": 2}},
                "run": {"q": {"a": 6, "n": 5, "z": 4, "b": 3, "x": 2, "c": 1}}}),
    # every cutoff a different value (see _CUTS_REL), with a judged nonrelevant, graded,
    # unretrieved and negative documents beside them
    ("cutoffs", {"qrels": {"q": {**_CUTS_REL, "u1": 1, "u2": 2, "n": -1}}, "run": {"q": dict(_CUTS_RUN)}}),
    # two queries of different difficulty (geometric means, per-query sums) and a tie at the
    # cutoff boundary
    ("two-queries", {"qrels": {"q1": {**_CUTS_REL, "u1": 1}, "q2": {"a": 2, "b": 1, "c": 0, "e": 1}},
                     "run": {"q1": dict(_CUTS_RUN), "q2": {"x": 3, "a": 2, "c": 2, "b": 1, "y": 0}}}),
]

def _many() -> dict:
    """3,000 retrieved documents, R = 1,500 of them relevant: one in two, the first ranked
    first. P@(multiple x R) at multiples down to 1/1000 reads a cutoff of at least 1; the
    interpolated precision at recall 1/1000 starts at the 2nd relevant document (trec_eval 9:
    (long)(1.5 + 0.9) = 2; trec_eval 10: lround(1.5) = 2), where the precision is 2/3, and at
    recall 0 at the first (precision 1)."""
    qrels, run = {}, {}
    for i in range(3000):
        d = f"d{i:04d}"
        qrels[d] = 1 if i % 2 == 0 else 0
        run[d] = 3000 - i
    return {"qrels": {"q": qrels}, "run": {"q": run}}


# large probes, tried only for the knobs they are built for (after the small ones)
LARGE = {"multiple": [("many-relevant", _many)], "recall": [("many-relevant", _many)]}

CONTEXTS = {
    # ties only change a value where the ranking has ties
    "relevant_count": [{"no_relevant": "skip"}],
    # a threshold that leaves a query without relevant documents matters where such queries are
    # skipped; gdeval's measures read grades up to max_grade
    "threshold": [{"no_relevant": "skip"}, {"no_relevant": "skip", "max_grade": "6"}],
}


def variants(inputs):
    """The probe with its query ids renamed 1, 2, ... (a tool that reads query ids as
    numbers: gdeval) and its document ids prefixed with a digit-free letter kept."""
    if not isinstance(inputs, dict) or "qrels" not in inputs:
        return
    names = sorted(set(inputs["qrels"]) | set(inputs["run"]))
    renamed = {q: str(i + 1) for i, q in enumerate(names)}
    yield {"qrels": {renamed[q]: v for q, v in inputs["qrels"].items()},
           "run": {renamed[q]: v for q, v in inputs["run"].items()}}


# measures of the sets of documents retrieved and judged (the ranking's order is not read)
_ORDER_FREE = ("num_retrieved", "num_relevant", "num_relevant_retrieved", "num_nonrelevant_judged_retrieved",
               "num_queries", "set_precision", "set_recall", "set_f", "set_ap", "set_relative_precision", "utility")
# per-query counts summed over the queries: a query that adds 0 changes no sum
_SUMS = ("num_retrieved", "num_relevant", "num_relevant_retrieved", "num_nonrelevant_judged_retrieved")


def never(metric: str, knob: str, a: str, b: str) -> str | None:
    """Why ``knob=a`` and ``knob=b`` give the same value of ``metric`` on every input."""
    if metric in _ORDER_FREE and knob in ("ties", "score_precision"):
        return (f"{metric} reads the sets of retrieved and judged documents, not their order: the tie rule and "
                "the precision of the scores (which only create ties) cannot change it")
    if metric in _SUMS and knob == "missing":
        return f"a query absent from the run retrieves nothing: it adds 0 to {metric} whether counted or skipped"
    if metric in _SUMS and knob == "queries":
        return (f"{metric} is a sum over the queries; the query sets differ only by queries judged but not run "
                "(they retrieve nothing) or run but not judged (nothing of theirs is judged), and each adds 0 "
                "to it")
    if metric in ("num_relevant", "num_relevant_retrieved") and knob == "no_relevant" and "one" not in (a, b) \
            and "error" not in (a, b):
        return f"a query without relevant documents adds 0 to {metric}: counted as 0 or skipped, the sum is the same"
    if metric in _ORDER_FREE and knob == "duplicates" and "error" not in (a, b):
        return (f"{metric} reads which documents were retrieved: keeping a duplicate's first or highest score "
                "changes only the order")
    if metric == "dcg" and knob == "negative" and {a, b} == {"keep", "ideal"}:
        return ("negative=ideal differs from keep only in the ideal ranking, which DCG (unnormalised) never "
                "builds")
    if metric == "rbp" and knob == "p" and _outside_unit(a) and _outside_unit(b):
        return "RBP refuses a persistence outside (0, 1) on every input: both values are that refusal"
    return None


def _outside_unit(v: str) -> bool:
    from fractions import Fraction
    try:
        x = Fraction(v)
    except (ValueError, ZeroDivisionError):
        return False
    return not 0 < x < 1
