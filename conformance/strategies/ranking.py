"""Hypothesis strategies for ranking metrics: qrels and runs.

Random scores almost never tie and random runs almost never find a relevant
document, so a property over them checks only the empty branch. These
strategies draw scores from a small set (ties are frequent), grades from
0..max_grade with some negative ones, and place relevant documents near the
top of the run on purpose. Scores are small integers or dyadic decimal
strings, so a float library receives them exactly, and now and then a score
one float32 or one double cannot tell from 1 (``NEAR_ONE``).
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from conformance.strategies._st import st

DOC_IDS = ("d1", "d2", "d3", "d4", "d5", "d6", "d7", "d8", "D1", "a", "b", "doc-10", "doc-9")
# a long query's documents: enough for cutoffs on both sides of k=10 and ideal rankings
# longer than the cutoff
LONG_IDS = tuple(f"p{i:02d}" for i in range(1, 41))
SCORES = (3, 2, 1, 0, "0.5", "1.5", "2.25", -1)
# now and then (the highest byte codes) a score one float32, or one double, cannot tell from 1:
# 1 + 10**-8 is a double of its own but rounds to the float32 1; 1 + 10**-19 rounds to the
# double 1 (score_precision)
NEAR_ONE = ("1.00000001", "1.0000000000000000001")

# ``st`` (conformance.strategies._st) returns one strategy object for equal arguments of
# integers, sampled_from and booleans; the lists of distinct scores and the byte strings
# below are memoized here
_BOOL = st.booleans()
_SCORE = st.sampled_from(SCORES)


@lru_cache(maxsize=None)
def _distinct_scores(n: int):
    return st.lists(st.integers(-20, 20), unique=True, min_size=n, max_size=n)


_WHERE = st.sampled_from(("both", "both", "both", "qrels", "run"))


@lru_cache(maxsize=None)
def _codes(n: int):
    """n bytes in one draw: one code per document (a judgement, a grade, a sort key, a
    score). One draw instead of one or two per document keeps a 40-document query cheap
    to generate, and bytes shrink towards 0, the first choice of each."""
    return st.binary(min_size=n, max_size=n)


def _order(draw, n: int) -> list[int]:
    """A permutation of range(n) from sort keys (shrinks towards the identity)."""
    keys = draw(_codes(n))
    return sorted(range(n), key=lambda i: (keys[i], i))


@st.composite
def qrels_for(draw, query: str, docs, max_grade: int = 3, negative: bool = True):
    """{doc: grade} judgements of one query over a subset of ``docs``: each document is
    judged three times in four, at a grade from -1 (or 0) to ``max_grade``."""
    low = -1 if negative else 0
    levels = max_grade - low + 1
    codes = draw(_codes(len(docs)))
    return {d: low + (c // 4) % levels for d, c in zip(docs, codes) if c % 4}


@st.composite
def ranking_for(draw, judged: dict, docs, ties: bool = True, max_len: int = 7, near_top: bool = True,
                lists: bool = True):
    """{doc: score} of one query: a few documents, relevant ones often near the top; with
    ``lists``, sometimes a list of [doc, score] pairs, half of them naming a document twice."""
    pool = list(docs)
    if len(pool) > 10:
        # a long ranking: a length on either side of the usual cutoffs
        n = draw(st.sampled_from(tuple(x for x in (4, 9, 10, 11, 15, 25, 35) if x <= min(max_len, len(pool)))))
    else:
        n = draw(st.integers(0, min(max_len, len(pool))))
    chosen = [pool[i] for i in _order(draw, len(pool))[:n]]
    if near_top and judged and draw(_BOOL):
        best = max(judged, key=lambda d: judged[d])
        if best not in chosen:
            chosen.insert(0, best)
    if ties:
        scores = [SCORES[c % len(SCORES)] if c < 248 else NEAR_ONE[c >= 252] for c in draw(_codes(len(chosen)))]
    else:
        scores = draw(_distinct_scores(len(chosen)))
    if near_top and scores and draw(_BOOL):
        # the first chosen document (often the best judged one) gets the top score
        top = max(_num(s) for s in scores)
        scores[0] = int(top) + 1
    if not lists or not chosen or draw(st.integers(0, 5)):
        return dict(zip(chosen, scores))
    # a list of [doc, score] pairs, as a TREC run file gives them; half of them name a
    # document twice (the duplicates knob decides what that means)
    pairs = [[d, s] for d, s in zip(chosen, scores)]
    if draw(_BOOL):
        at = draw(st.integers(0, len(pairs)))
        pairs.insert(at, [draw(st.sampled_from(tuple(chosen))), draw(_SCORE)])
    return pairs


# every choice of the knobs all ranking metrics share (k and ties included), and of the others
COMMON_KNOBS = st.fixed_dictionaries({
    "ties": st.sampled_from(["trec_eval", "input-order", "expected", "optimistic", "pessimistic"]),
    "k": st.sampled_from(["none", "1", "2", "3", "5", "10"]),
    "threshold": st.sampled_from(["1", "2"]),
    "no_relevant": st.sampled_from(["zero", "skip"]),
    "missing": st.sampled_from(["zero", "skip"]),
    "queries": st.sampled_from(["qrels", "run", "both"]),
})
METRIC_KNOBS = st.fixed_dictionaries({
    "gain": st.sampled_from(["linear", "exponential", "binary"]),
    "ideal": st.sampled_from(["judged", "retrieved"]),
    "threshold_gains": st.sampled_from(["yes", "no"]),
    "negative": st.sampled_from(["zero", "keep"]),
    "precision_denominator": st.sampled_from(["k", "retrieved"]),
    "ap_denominator": st.sampled_from(["relevant", "min-k-relevant", "retrieved-relevant"]),
})


def _num(s):
    return float(s) if isinstance(s, str) else s


@st.composite
def ranking_inputs(draw, max_queries: int = 3, max_grade: int = 3, ties: bool = True, negative: bool = True,
                   extra_queries: bool = True, max_len: int = 7, threshold: int = 1, lists: bool = True):
    """Inputs of the ranking metrics: {"qrels": ..., "run": ...} with graded
    judgements, frequent ties (``ties``), some queries on one side only
    (``extra_queries``), list-form rankings with repeated documents (``lists``).
    Long queries grade most documents at or above ``threshold`` (so a query has
    relevant documents whatever the level)."""
    n = draw(st.integers(1, max_queries))
    queries = [f"q{i}" for i in range(1, n + 1)]
    qrels, run = {}, {}
    for q in queries:
        if draw(st.integers(0, 2)) == 0:
            # a long query: 12 to 40 documents, most of them judged (mostly relevant, so the
            # ideal ranking is longer than a cutoff of 10), up to 35 ranked
            size = draw(st.sampled_from((12, 20, 30, 40)))
            docs = list(LONG_IDS[:size])
            grades = [g for g in (threshold, threshold, threshold + 1, threshold + 2, 0, threshold - 1, -1)
                      if negative or g >= 0]
            # four documents in five judged, at one of the grades
            codes = draw(_codes(size))
            judged = {d: grades[(c // 5) % len(grades)] for d, c in zip(docs, codes) if c % 5}
            where = draw(_WHERE) if extra_queries else "both"
            if where in ("both", "qrels"):
                qrels[q] = judged
            if where in ("both", "run"):
                run[q] = draw(ranking_for(judged, docs, ties, max(max_len, 35), lists=lists))
            continue
        docs = [DOC_IDS[i] for i in _order(draw, len(DOC_IDS))[:draw(st.integers(1, 8))]]
        judged = draw(qrels_for(q, docs, max_grade, negative))
        where = draw(_WHERE) if extra_queries else "both"
        if where in ("both", "qrels"):
            qrels[q] = judged
        if where in ("both", "run"):
            run[q] = draw(ranking_for(judged, docs, ties, max_len, lists=lists))
    if not qrels:
        qrels[queries[0]] = {DOC_IDS[0]: 1}
    return {"qrels": qrels, "run": run}


# ---------------------------------------------------------- plan pieces

METRICS = ("hit_rate", "reciprocal_rank", "precision_at_k", "recall_at_k", "average_precision", "r_precision",
           "dcg", "ndcg",
           # trec_eval's further measures (oracle.ranking_trec)
           "num_retrieved", "num_relevant", "num_relevant_retrieved", "num_nonrelevant_judged_retrieved",
           "num_queries", "set_precision", "set_recall", "set_f", "set_ap", "set_relative_precision",
           "relative_precision_at_k", "precision_at_r_multiple", "interpolated_precision", "eleven_point_ap",
           "bpref", "gm_bpref", "infap", "utility", "bin_g", "gm_ap", "g", "rndcg", "ndcg_rel",
           # the user-model measures (oracle.ranking_user)
           "rbp", "err", "judged_at_k")
# values without an upper bound of 1: sums of counts, the utility
UNBOUNDED = ("dcg", "num_retrieved", "num_relevant", "num_relevant_retrieved", "num_nonrelevant_judged_retrieved",
             "num_queries", "utility")


def for_settings(settings):
    """Inputs of every ranking metric. Grades reach past the relevance threshold
    of the setting (a threshold above every grade would leave only the
    no-relevant branch)."""
    thr = int(settings.get("threshold", "1"))
    return ranking_inputs(max_grade=max(3, thr + 1), threshold=thr)


def upper(name: str):
    if name in UNBOUNDED:
        return lambda s: None
    return lambda s: Fraction(1)


def lower(name: str):
    """0, except DCG and NDCG under negative=keep (negative gains)."""
    if name in ("dcg", "ndcg"):
        return lambda s: None if s.get("negative") == "keep" else Fraction(0)
    if name == "utility":
        return lambda s: None      # negative coefficients
    return lambda s: Fraction(0)


def _permute_queries(inputs, data):
    out = {}
    for side in ("qrels", "run"):
        keys = list(inputs[side])
        order = data.draw(st.permutations(keys), label=f"{side} query order")
        out[side] = {q: inputs[side][q] for q in order}
    return out


def _permute_documents(inputs, data):
    """Reorder each ranking, keeping the relative order of documents with equal
    scores (so every tie rule, input order included, ranks them the same). A
    list-form ranking stays a list; one that names a document twice is left as it
    is (which of the two comes first is what duplicates=first reads)."""
    run = {}
    for q, ranking in inputs["run"].items():
        if not isinstance(ranking, dict):
            if len({p[0] for p in ranking}) < len(ranking):
                run[q] = ranking
                continue
            as_list, ranking = True, {p[0]: p[1] for p in ranking}
        else:
            as_list = False
        docs = list(ranking)
        keys = list(data.draw(_codes(len(docs)), label=f"order of {q}"))
        by_score: dict = {}
        for i, d in enumerate(docs):
            by_score.setdefault(Fraction(str(ranking[d])), []).append(i)
        for idx in by_score.values():
            for i, k in zip(idx, sorted(keys[i] for i in idx)):
                keys[i] = k
        order = sorted(range(len(docs)), key=lambda i: (keys[i], i))
        run[q] = ([[docs[i], ranking[docs[i]]] for i in order] if as_list
                  else {docs[i]: ranking[docs[i]] for i in order})
    return {"qrels": inputs["qrels"], "run": run}


def invariances(name: str) -> dict:
    return {"query-order": _permute_queries, "document-order": _permute_documents}


def _ideal_inputs(inputs, keep):
    """Qrels reduced to the queries with a document passing ``keep(grade)``; the
    run ranks exactly those documents, better grades first, distinct scores."""
    qrels, run = {}, {}
    for q, judged in inputs["qrels"].items():
        good = sorted((d for d, g in judged.items() if keep(g)), key=lambda d: (-judged[d], d))
        if good:
            qrels[q] = judged
            run[q] = {d: len(good) - i for i, d in enumerate(good)}
    return ({"qrels": qrels, "run": run}, Fraction(1)) if qrels else None


def identity(name: str):
    """Relevant documents ranked first: hit rate, reciprocal rank and NDCG are 1; judged
    documents only: Judged@k is 1."""
    if name in ("hit_rate", "reciprocal_rank"):
        return lambda inputs, s: _ideal_inputs(inputs, lambda g: g >= int(s.get("threshold", "1")))
    if name == "ndcg":
        from oracle.ranking_query import gain_of
        return lambda inputs, s: _ideal_inputs(inputs, lambda g: gain_of(g, s) > 0)
    if name == "judged_at_k":   # a run of judged documents only: every rank is judged
        return lambda inputs, s: _ideal_inputs(inputs, lambda g: True)
    return None
