"""Ranking and retrieval metrics (trec_eval measures, exactly, with named tie rules).

Inputs: ``{"qrels": {query: {doc: grade}}, "run": {query: {doc: score}}}``.
Grades are integers (negative allowed). A score is an int, a float (taken at
its exact binary value), a Fraction or Decimal, or a string read exactly
("0.1" is 1/10, "1/3" is 1/3). A query's ranking may also be a list of
``[doc, score]`` pairs, which can hold duplicate documents (as a TREC run
file can); the ``duplicates`` knob decides what they mean. The order in which
a ranking lists its documents is its input order.

Ranking (knob ``ties``)
- ``trec_eval`` (default): score descending, ties by document id in
  descending lexical order: ``comp_sim_docno()`` in trec_eval's
  form_res_rels.c returns ``strcmp(p2->docno, p1->docno)``; the rank column
  of a run file is ignored. (Python str order is code point order, which is
  UTF-8 byte order, which is strcmp order.)
- ``input-order``: score descending, ties in input order (a stable sort,
  e.g. Python ``sorted(..., reverse=True)``).
- ``optimistic`` / ``pessimistic``: within each tie, relevant and higher-gain
  documents first / last.
- ``expected``: the mean of the metric over all orders of every group of tied
  documents, in closed form (McSherry and Najork 2008, "Computing information
  retrieval performance measures efficiently in the presence of tied
  scores", ECIR): every document of a tie group of size n starting at rank t
  is at each rank t..t+n-1 with probability 1/n, so
  E[gain at rank i] = G_g/n_g (G_g the group's gain sum); pairs of ranks in
  one group hold two relevant documents with probability
  r(r-1)/(n(n-1)); the first relevant document of a group with r relevant is
  at offset j (1-based) with probability C(n-j, r-1)/C(n, r); the number of
  relevant documents among the first m slots of a group is hypergeometric,
  P(x) = C(r,x)C(n-r,m-x)/C(n,m).

Per-query measures, with rank i = 1..N over the ranked list, rel_i = 1 when
the document at rank i has grade >= threshold, R = number of judged documents
with grade >= threshold, H_K = sum_{i<=K} rel_i, K the cutoff (``none``: the
whole list, K = N):
- hit_rate@K = [H_K > 0] (trec_eval m_success.c; document 004 hit_rate_at_k)
- reciprocal_rank@K = 1/min{i <= K: rel_i} or 0 (m_recip_rank.c; document 004)
- precision_at_k = H_K / K (m_P.c: missing ranks count as non-relevant), or
  H_K / min(K, N) under precision_denominator=retrieved; with k=none H_N / N
- recall_at_k = H_K / R (m_recall.c)
- average_precision@K = (1/D) sum_{i<=K} rel_i H_i / i (m_map.c, m_map_cut.c)
  with D = R (default), min(K, R), or H_K (``ap_denominator``)
- r_precision = H_R / R (m_Rprec.c)
- dcg@K = sum_{i<=K} gain_i / log2(i + 1) (m_ndcg.c, m_ndcg_cut.c)
- ndcg@K = dcg@K / idcg@K, the ideal from the positive gains of the judged
  documents (or of the retrieved ones), sorted descending, cut at K.
A value that would divide by zero (R = 0, N = 0, idcg = 0) is 0, as in
trec_eval. Gains: linear = grade (trec_eval), exponential = 2^grade - 1
(Burges et al. 2005), binary = [grade >= threshold] (document 004's dcg_at_k
over 0/1 relevances). Documents not in the qrels have grade 0 gain and are
not relevant.

Exact values: the discount 1/log2(i+1) is kept symbolic. Writing i+1 = b^e
with b not a perfect power, 1/log2(i+1) = (1/e) * log(2)/log(b) (rational
when b = 2), so a DCG is sum_b c_b * log(2)/log(b) with rational c_b summed
per base; an NDCG is a quotient of two such sums; the mean NDCG shares one
denominator among queries with the same ideal gain vector. The mean over
queries is value; ``parts["per_query"]`` = {query: exact value}; for the
deterministic tie rules ``parts["ranks"]`` = {query: {doc: rank}} for every
retrieved document that is relevant or has a nonzero gain.

The averaged queries (knob ``queries``): qrels (default), run, or both (the
intersection). A query without relevant documents (R = 0; for dcg and ndcg:
no judged document with a positive gain) is scored (0, as trec_eval) or left
out (``no_relevant``); this is decided before ``missing``, which decides
whether a query absent from the run scores 0 (trec_eval -c, default) or is
left out (trec_eval without -c, pytrec_eval). A query present with an empty
ranking retrieved nothing and scores 0 under both.

Several measures of one run: ``compute_many(inputs, [(metric, conventions),
...])`` returns the Results of one ``compute`` per measure, with the inputs
checked, each ranking sorted and each query profile built once (as trec_eval
computes all its measures in one pass).

Degenerate and invalid inputs
| input | value |
| --- | --- |
| no query to average (empty qrels, or all skipped) | Undefined("no queries to average") |
| empty run ({}) | every averaged query is missing: 0 (missing=zero) or Undefined (missing=skip) |
| query in qrels only | missing policy (0 or left out); with queries=run not averaged |
| query in run only | queries=qrels or both: not averaged; queries=run: it has no relevant documents (no_relevant) |
| query with no relevant document | no_relevant policy (0 or left out) |
| a query's ranking is empty ({} or []) | retrieved nothing: scores 0 |
| duplicate document in a list-form ranking | duplicates=error: InputError "run['q'][i]: duplicate document ..."; first: keep the first; max: keep the highest score (at its own position) |
| score NaN or infinite (float, Decimal or string) | InputError "run['q']['d']: score nan is not a finite number" |
| score of another type (bool, None, list) or a string that is not a number | InputError naming run['q']['d'] |
| grade not an integer (string, float, bool) | InputError "qrels['q']['d']: expected an integer grade" |
| negative grade | never relevant; gain 0 (negative=zero, trec_eval's "unjudged") or its own (negative=keep) |
| k < 1, or a knob value that does not exist | ConventionError |
| query or document id not a string | InputError naming it |
| missing or unknown input field | InputError naming it |
"""
from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import replace
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from itertools import chain, compress, repeat
from math import comb, lcm
from operator import itemgetter, mul, sub

from .conventions import InputError, Knob, Metric, Result
from .exact import Mul, Rat, Undefined, log, power, product, total
from .gcpause import paused_gc
from .trec import ScoreTexts

_TREC = "trec_eval 9.0 (github.com/usnistgov/trec_eval)"
_DOC = "source document 004_2f957d850e34831f.txt"
_MN = "McSherry and Najork 2008, Computing IR performance measures efficiently in the presence of tied scores (ECIR)"

# ------------------------------------------------------------------ knobs

K = Knob(
    "k", "cutoff: only the top k ranks count ('none': the whole ranking)", "none",
    kind="int", minimum=1, special=("none",),
    sources={"*": f"{_TREC}: measure.cutoff (P.5, recall.10, ndcg_cut.10, success.1, map_cut.5)",
             "none": f"{_TREC}: map, recip_rank, ndcg, Rprec use the whole ranking"})
TIES = Knob(
    "ties", "order of documents with equal scores", "trec_eval",
    choices=("trec_eval", "input-order", "expected", "optimistic", "pessimistic"),
    sources={"trec_eval": f"{_TREC} form_res_rels.c comp_sim_docno(): sim descending, then "
                          "strcmp(p2->docno, p1->docno), i.e. document id descending",
             "input-order": "stable sort by score descending: ties keep the order the run lists them",
             "expected": f"{_MN}: the mean over all orders of each tie group, in closed form",
             "optimistic": f"{_MN}: best case, relevant documents first within ties",
             "pessimistic": f"{_MN}: worst case, relevant documents last within ties"})
THRESHOLD = Knob(
    "threshold", "a document is relevant when its grade is at least this", "1",
    kind="int", minimum=1, key="rel",
    sources={"*": f"{_TREC} -l (level_for_rel), default 1; ranx rel_lvl, default 1"})
NO_RELEVANT = Knob(
    "no_relevant", "a query without relevant documents: scored (0) or left out of the mean", "zero",
    choices=("zero", "skip"), key="norel",
    sources={"zero": f"{_TREC}: every measure of such a query is 0 and it is averaged (e.g. m_recall.c "
                     "'if (0 == res_rels.num_rel) return (0)' leaves the value 0)",
             "skip": f"{_DOC} recall_at_k(): 'if not relevant_ids: continue  # skip items with no "
                     "annotated relevant chunks'"})
MISSING = Knob(
    "missing", "a query in the averaged set but absent from the run: 0, or left out", "zero",
    choices=("zero", "skip"),
    sources={"zero": f"{_TREC} -c: 'Missing queries will contribute a value of 0 to all evaluation measures'",
             "skip": f"{_TREC} without -c (the default), pytrec_eval: only queries with results are averaged"})
DUPLICATES = Knob(
    "duplicates", "a document listed twice in one query's ranking", "error",
    choices=("error", "first", "max"), key="dup",
    sources={"error": f"{_TREC} form_res_rels.c: 'duplicate docs' is an error",
             "first": "the first occurrence counts, later ones are dropped",
             "max": "the occurrence with the highest score counts (at its own position)"})
QUERIES = Knob(
    "queries", "the set of queries the mean runs over", "qrels",
    choices=("qrels", "run", "both"),
    sources={"qrels": f"{_TREC} trec_eval.c: the loop runs over the queries of the relevance judgements",
             "run": "every query of the run (ranx with make_comparable fills the other side)",
             "both": f"{_TREC} without -c: 'the queries in the intersection of relevance judgements and results'"})
GAIN = Knob(
    "gain", "gain of a document from its grade", "linear",
    choices=("linear", "exponential", "binary"),
    sources={"linear": f"{_TREC} m_ndcg.c setup_gains(): 'gain = (double) i' for relevance level i; "
                       "Jarvelin and Kekalainen 2002",
             "exponential": "Burges et al. 2005: 2^grade - 1 (ranx ndcg_burges)",
             "binary": f"{_DOC} ndcg_at_k(): relevances = [1 if rid in relevant_ids else 0 ...]"})
IDEAL = Knob(
    "ideal", "which documents the ideal ranking is built from", "judged",
    choices=("judged", "retrieved"),
    sources={"judged": f"{_TREC} m_ndcg.c: ideal from the relevance levels of all judged documents",
             "retrieved": "only the documents of the ranking (sklearn ndcg_score sorts the scored items "
                          "by their true relevance)"})
THRESHOLD_GAINS = Knob(
    "threshold_gains", "whether grades below the threshold still give their gain", "yes",
    choices=("yes", "no"), key="tg",
    sources={"yes": f"{_TREC} m_ndcg.c / m_ndcg_cut.c: gains are the grades, -l is not consulted",
             "no": "ranx _dcg(): clean_qrels(qrels, rel_lvl) drops grades below rel_lvl before taking gains"})
NEGATIVE = Knob(
    "negative", "gain of a negative grade", "zero",
    choices=("zero", "keep"), key="neg",
    sources={"zero": f"{_TREC} form_res_rels.c: a negative qrels grade is RELVALUE_UNJUDGED, get_gain() "
                     "gives it 0 and it is not a relevance level of the ideal",
             "keep": "the grade's own (negative) gain; never in the ideal ranking"})
PDEN = Knob(
    "precision_denominator", "what P@K divides by", "k",
    choices=("k", "retrieved"), key="pden",
    sources={"k": f"{_TREC} m_P.c: 'If the cutoff is larger than the number of docs retrieved, then it is "
                  f"assumed nonrelevant docs fill in the rest'; {_DOC} precision_at_k(): relevant_retrieved / k",
             "retrieved": f"divides by min(K, N), the documents actually ranked ({_TREC} set_P with -M K)"})
APDEN = Knob(
    "ap_denominator", "what AP@K divides the sum of precisions by", "relevant",
    choices=("relevant", "min-k-relevant", "retrieved-relevant"), key="apden",
    sources={"relevant": f"{_TREC} m_map.c / m_map_cut.c: sum / num_rel",
             "min-k-relevant": "min(K, R), the most relevant documents the top K can hold",
             "retrieved-relevant": "the relevant documents found in the top K"})


def _k(default: str) -> Knob:
    return replace(K, default=default)


_COMMON = (THRESHOLD, NO_RELEVANT, MISSING, DUPLICATES, QUERIES)
_GAINS = (GAIN, THRESHOLD_GAINS, NEGATIVE)

# Shortcuts taken when no interesting document shares its score (the usual case):
# the same exact values by a shorter way. Tests turn them off to compare.
_SHORTCUTS = True

# ------------------------------------------------------------- validation


def _where(q, d) -> str:
    return f"run[{q!r}][{d!r}]"


def _bad_score(where: str, s) -> InputError:
    if isinstance(s, float) or isinstance(s, Decimal):
        return InputError(f"{where}: score {s!r} is not a finite number", item=where)
    if isinstance(s, str):
        return InputError(f"{where}: score {s!r} is not a finite number (write '0.25', '1/3', '-2')", item=where)
    return InputError(f"{where}: expected a number or a numeric string as score, got {type(s).__name__}",
                      item=where)


def _exact(s) -> Fraction:
    """The exact value of a validated score."""
    if isinstance(s, str):
        return Fraction(s.strip())
    return Fraction(s)


def _check_score(s, where: str) -> None:
    """Raise InputError unless s is a finite number or an exact numeric string."""
    t = type(s)
    if t is float:
        if not math.isfinite(s):
            raise _bad_score(where, s)
        return
    if isinstance(s, Decimal):
        if not s.is_finite():
            raise _bad_score(where, s)
        return
    if t is int or isinstance(s, Fraction):
        return
    if isinstance(s, str):
        if "_" in s:
            raise _bad_score(where, s)
        try:
            if math.isfinite(float(s)):
                return
        except ValueError:
            pass
        try:
            Fraction(s.strip())  # '1/3', or a decimal too large for a float
        except (ValueError, ZeroDivisionError):
            raise _bad_score(where, s) from None
        return
    raise _bad_score(where, s)


def _rounded(s) -> float:
    """A primary sort key: the float nearest to the score (+-inf beyond the float
    range). Rounding is monotone, so it never inverts an order; documents whose
    keys are equal are then told apart by their exact values."""
    if isinstance(s, str):
        try:
            return float(s)
        except ValueError:  # '1/3'
            s = Fraction(s.strip())
    try:
        return float(s)
    except OverflowError:
        return math.inf if s > 0 else -math.inf


class _Ranking:
    """One query's ranking: docs in input order with their scores, sort keys and
    (for non-float scores) exact values on demand."""

    __slots__ = ("scores", "keys", "rounded", "_asc", "_table")

    def __init__(self, scores: dict, keys: dict, rounded: bool):
        self.scores, self.keys, self.rounded, self._asc, self._table = scores, keys, rounded, None, None

    @property
    def asc(self) -> list:
        if self._asc is None:
            self._asc = sorted(self.keys.values())
        return self._asc

    def table(self, judged: dict) -> tuple[list, list, list]:
        """(docs, ranks, sizes) of the judged documents this ranking holds, in the
        order of ``judged``: rank = 1 + the number of documents with a larger sort key,
        size = the number of documents sharing the key. A document of size 1 is
        untied: the rounded order is the exact order there (rounding is monotone) and
        its rank is its rank under every tie rule. Kept for the last ``judged`` asked,
        so the measures of one ``compute_many`` find it once."""
        kept = self._table
        if kept is not None and kept[0] is judged:
            return kept[1]
        keys, asc = self.keys, self.asc
        docs = list(filter(keys.__contains__, judged))
        n = len(docs)
        ss = list(map(keys.__getitem__, docs))
        his = list(map(bisect_right, repeat(asc, n), ss))
        sizes = list(map(sub, his, map(bisect_left, repeat(asc, n), ss)))
        out = (docs, list(map(sub, repeat(len(keys) + 1, n), his)), sizes)
        self._table = (judged, out)
        return out


def _prepare_ranking(q, ranking, dup: str) -> _Ranking:
    if type(ranking) is ScoreTexts:
        floats = ranking.floats()
        if floats is not None:  # read from a run file and checked there: decimal texts, finite floats
            return _Ranking(ranking, floats, True)
    if isinstance(ranking, dict):
        doc_types = set(map(type, ranking))
        if doc_types - {str}:
            d = next(d for d in ranking if type(d) is not str)
            raise InputError(f"run[{q!r}]: document id {d!r} is not a string", item=f"run[{q!r}]")
        scores = ranking
        types = set(map(type, ranking.values()))
        if types <= {float, int}:
            try:
                ok = math.isfinite(sum(ranking.values())) if float in types else True
            except OverflowError:
                ok = False
            if not ok:
                for d, s in ranking.items():
                    if type(s) is float and not math.isfinite(s):
                        raise _bad_score(_where(q, d), s)
            return _Ranking(ranking, ranking, False)
        if types == {str}:
            # decimal text: one map(float) checks the whole ranking; exact values only for ties
            texts = list(ranking.values())
            try:
                rounded = list(map(float, texts))
                ok = math.isfinite(sum(rounded)) and "_" not in "".join(texts)
            except (ValueError, OverflowError):
                ok = False
            if ok:
                return _Ranking(ranking, dict(zip(ranking, rounded)), True)
        for d, s in ranking.items():
            _check_score(s, _where(q, d))
    elif isinstance(ranking, (list, tuple)):
        scores = _dedupe(q, ranking, dup)
    else:
        raise InputError(f"run[{q!r}]: expected an object {{document: score}} or a list of [document, score] "
                         f"pairs, got {type(ranking).__name__}", item=f"run[{q!r}]")
    types = set(map(type, scores.values()))
    if types <= {float, int}:
        return _Ranking(scores, scores, False)
    return _Ranking(scores, {d: _rounded(s) for d, s in scores.items()}, True)


def _dedupe(q, pairs, dup: str) -> dict:
    kept: dict = {}
    for i, item in enumerate(pairs):
        where = f"run[{q!r}][{i}]"
        if not isinstance(item, (list, tuple)) or len(item) != 2:
            raise InputError(f"{where}: expected a [document, score] pair, got {item!r}", item=where)
        d, s = item
        if not isinstance(d, str):
            raise InputError(f"{where}: document id {d!r} is not a string", item=where)
        _check_score(s, where)
        if d in kept:
            j, prev = kept[d]
            if dup == "error":
                raise InputError(f"{where}: duplicate document {d!r} (also at run[{q!r}][{j}])", item=where)
            if dup == "max" and _exact(s) > _exact(prev):
                kept[d] = (i, s)
            continue
        kept[d] = (i, s)
    return {d: s for d, (i, s) in sorted(kept.items(), key=lambda kv: kv[1][0])}


def _check_qrels(qrels) -> None:
    if not isinstance(qrels, dict):
        raise InputError(f"qrels: expected an object {{query: {{document: grade}}}}, got {type(qrels).__name__}",
                         item="qrels")
    for q, judged in qrels.items():
        if not isinstance(q, str):
            raise InputError(f"qrels: query id {q!r} is not a string", item="qrels")
        if not isinstance(judged, dict):
            raise InputError(f"qrels[{q!r}]: expected an object {{document: grade}}, got {type(judged).__name__}",
                             item=f"qrels[{q!r}]")
        if set(map(type, judged)) - {str}:
            d = next(d for d in judged if type(d) is not str)
            raise InputError(f"qrels[{q!r}]: document id {d!r} is not a string", item=f"qrels[{q!r}]")
        if set(map(type, judged.values())) - {int}:
            d, g = next((d, g) for d, g in judged.items() if type(g) is not int)
            where = f"qrels[{q!r}][{d!r}]"
            raise InputError(f"{where}: expected an integer grade, got {type(g).__name__} {g!r}", item=where)


def _check_inputs(inputs, dup: str):
    if not isinstance(inputs, dict):
        raise InputError(f"inputs: expected an object with qrels and run, got {type(inputs).__name__}")
    unknown = sorted(set(inputs) - {"qrels", "run"})
    if unknown:
        raise InputError(f"inputs: unknown field {unknown[0]!r}; fields are qrels, run", item=unknown[0])
    for name in ("qrels", "run"):
        if name not in inputs:
            raise InputError(f"inputs: missing field {name!r}", item=name)
    qrels, run = inputs["qrels"], inputs["run"]
    _check_qrels(qrels)
    if not isinstance(run, dict):
        raise InputError(f"run: expected an object {{query: {{document: score}}}}, got {type(run).__name__}",
                         item="run")
    prepared = {}
    for q, ranking in run.items():
        if not isinstance(q, str):
            raise InputError(f"run: query id {q!r} is not a string", item="run")
        prepared[q] = _prepare_ranking(q, ranking, dup)
    return qrels, prepared


# ---------------------------------------------------------- query profile


def gain_of(grade: int, settings: dict) -> Fraction:
    """Gain of a grade: linear g, exponential 2^g - 1, binary [g >= threshold];
    0 for g < 0 under negative=zero and for g < threshold under threshold_gains=no."""
    thr = int(settings["threshold"])
    mode = settings.get("gain", "binary")
    if mode == "binary":
        return Fraction(int(grade >= thr))
    if grade < 0 and settings["negative"] == "zero":
        return Fraction(0)
    if grade < thr and settings["threshold_gains"] == "no":
        return Fraction(0)
    if mode == "linear":
        return Fraction(grade)
    return Fraction(2) ** grade - 1


def _groups(rk: _Ranking, members: list, rule: str):
    """Tie groups holding the interesting documents ``members`` = [(doc, rel, gain)].

    Returns ([(start, size, relevant_count, gain_sum)] in rank order, {doc: rank} or None).
    Under a deterministic rule every group is a single rank (members without ties
    take the shortcut of ``_untied_profile``)."""
    keys, n_all = rk.keys, len(rk.keys)
    asc = rk.asc
    found: dict = {}
    for d, rel, g in members:
        s = keys[d]
        lo, hi = bisect_left(asc, s), bisect_right(asc, s)
        t, n, docs = n_all - hi + 1, hi - lo, None
        if n > 1 and (rk.rounded or rule in ("trec_eval", "input-order")):
            docs = [x for x, v in keys.items() if v == s]
            if rk.rounded:
                ex = {x: _exact(rk.scores[x]) for x in docs}
                e = ex[d]
                t += sum(1 for x in docs if ex[x] > e)
                docs = [x for x in docs if ex[x] == e]
                n = len(docs)
        entry = found.get(t)
        if entry is None:
            found[t] = entry = (t, n, docs, [])
        entry[3].append((d, rel, g))
    groups, ranks = [], ({} if rule != "expected" else None)
    for t in sorted(found):
        _, n, docs, mem = found[t]
        if rule == "expected" or n == 1:
            groups.append((t, n, sum(1 for m in mem if m[1]), sum((m[2] for m in mem), Fraction(0))))
            if n == 1 and ranks is not None:
                ranks[mem[0][0]] = t
            continue
        if rule in ("optimistic", "pessimistic"):
            zero = (False, Fraction(0))
            ordered = sorted(mem, key=lambda m: (m[1], m[2]), reverse=True)
            better = [m for m in ordered if (m[1], m[2]) > zero]
            worse = [m for m in ordered if (m[1], m[2]) < zero]
            seq = better + [None] * (n - len(mem)) + worse
            if rule == "pessimistic":
                seq.reverse()
            placed = [(t + i, m) for i, m in enumerate(seq) if m is not None]
        else:
            order = sorted(docs, reverse=True) if rule == "trec_eval" else docs
            at = {x: i for i, x in enumerate(order)}
            placed = sorted((t + at[m[0]], m) for m in mem)
        for rank, m in placed:
            groups.append((rank, 1, int(m[1]), m[2]))
            ranks[m[0]] = rank
    groups.sort()
    return groups, ranks


class _Profile:
    """One query: N ranked, R relevant, the ideal gains, the tie groups of the
    interesting documents, their ranks. ``top`` is set when every group is a
    single rank: the ranks of the relevant documents, ascending (the measures then
    take shortcuts that give the same exact values)."""
    __slots__ = ("n", "relevant", "ideal", "groups", "ranks", "top")

    def __init__(self, n, relevant, ideal, groups, ranks, top=None):
        self.n, self.relevant, self.ideal, self.groups, self.ranks = n, relevant, ideal, groups, ranks
        self.top = top
        if top is None and _SHORTCUTS and (not groups or max(map(itemgetter(1), groups)) == 1):
            self.top = [t for t, _, r, _ in groups if r]


def _profile(rk: _Ranking | None, judged: dict, settings: dict, with_gains: bool) -> _Profile:
    thr = int(settings["threshold"])
    relevant = sum(map(thr.__le__, judged.values()))  # grades are ints
    scores = rk.scores if rk is not None else {}
    members, ideal = [], ()
    table = rk.table(judged) if _SHORTCUTS and rk is not None else None
    if with_gains:
        # one gain per distinct grade; the ideal vector from the count of each positive gain
        gain = {g: gain_of(g, settings) for g in set(judged.values())}
        if settings.get("ideal", "judged") == "judged":
            counts = Counter(judged.values())
        else:
            counts = Counter(g for d, g in judged.items() if d in scores)
        per_gain = Counter()
        for g, c in counts.items():
            if gain[g] > 0:
                per_gain[gain[g]] += c
        ideal = tuple(chain.from_iterable(repeat(v, per_gain[v]) for v in sorted(per_gain, reverse=True)))
        wanted = {g for g, v in gain.items() if v != 0 or g >= thr}
        if table is not None:
            p = _untied_profile(len(scores), relevant, ideal, table, judged, wanted.__contains__, gain, thr,
                                settings["ties"])
            if p is not None:
                return p
        members = [(d, g >= thr, gain[g]) for d, g in judged.items() if g in wanted and d in scores]
    else:
        zero = Fraction(0)
        if table is not None:
            p = _untied_profile(len(scores), relevant, ideal, table, judged, thr.__le__, None, thr, settings["ties"])
            if p is not None:
                return p
        members = [(d, True, zero) for d, g in judged.items() if g >= thr and d in scores]
    if not members:
        return _Profile(len(scores), relevant, ideal, [], {} if settings["ties"] != "expected" else None)
    groups, ranks = _groups(rk, members, settings["ties"])
    return _Profile(len(scores), relevant, ideal, groups, ranks)


def _untied_profile(n, relevant, ideal, table, judged, wanted, gain, thr, rule) -> _Profile | None:
    """The profile of a query when none of its members (the retrieved judged documents
    whose grade is ``wanted``) shares its sort key (see ``_Ranking.table``), else None:
    what ``_groups`` gives, one single-rank group per member in rank order, built by
    C-level passes. ``gain`` None: the members are the relevant documents, with gain 0
    (the rational measures)."""
    docs, ranks, sizes = table
    grades = list(map(judged.__getitem__, docs))
    sel = list(map(wanted, grades))
    if max(compress(sizes, sel), default=1) != 1:
        return None
    placed = sorted(zip(compress(ranks, sel), compress(docs, sel), compress(grades, sel)))
    ts = list(map(itemgetter(0), placed))
    if gain is None:
        groups = list(zip(ts, repeat(1), repeat(1), repeat(Fraction(0))))
        top = ts
    else:
        gs = list(map(itemgetter(2), placed))
        groups = list(zip(ts, repeat(1), map(int, map(thr.__le__, gs)), map(gain.__getitem__, gs)))
        top = list(compress(ts, map(thr.__le__, gs)))
    by_doc = None if rule == "expected" else dict(zip(map(itemgetter(1), placed), ts))
    return _Profile(n, relevant, ideal, groups, by_doc, top)


# ------------------------------------------------- per-query measures


def _cut(k: str, n: int) -> int:
    return n if k == "none" else int(k)


def _in_top(t: int, n: int, k: int) -> int:
    """How many ranks of the group t..t+n-1 lie within the top k."""
    return max(0, min(n, k - t + 1))


def _hits(p: _Profile, k: int) -> Fraction:
    """E[H_k] = sum_g r_g * m_g / n_g (without ties: the relevant ranks up to k)."""
    if p.top is not None:
        return Fraction(bisect_right(p.top, k))
    return sum((Fraction(r * _in_top(t, n, k), n) for t, n, r, _ in p.groups if r), Fraction(0))


def _hit(p: _Profile, s: dict):
    k = _cut(s["k"], p.n)
    for t, n, r, _ in p.groups:
        if not r:
            continue
        m = _in_top(t, n, k)
        if m == 0:
            return Fraction(0)
        if m == n:
            return Fraction(1)
        return 1 - Fraction(comb(n - r, m), comb(n, m))
    return Fraction(0)


def _rr(p: _Profile, s: dict):
    k = _cut(s["k"], p.n)
    if p.top is not None:
        return Fraction(1, p.top[0]) if p.top and p.top[0] <= k else Fraction(0)
    for t, n, r, _ in p.groups:
        if not r:
            continue
        acc = Fraction(0)
        for j in range(1, n - r + 2):
            if t + j - 1 > k:
                break
            acc += Fraction(comb(n - j, r - 1), t + j - 1)
        return acc / comb(n, r)
    return Fraction(0)


def _precision(p: _Profile, s: dict):
    if s["k"] == "none":
        return _hits(p, p.n) / p.n if p.n else Fraction(0)
    k = int(s["k"])
    den = k if s["precision_denominator"] == "k" else min(k, p.n)
    return _hits(p, k) / den if den else Fraction(0)


def _recall(p: _Profile, s: dict):
    return _hits(p, _cut(s["k"], p.n)) / p.relevant if p.relevant else Fraction(0)


def _r_precision(p: _Profile, s: dict):
    return _hits(p, p.relevant) / p.relevant if p.relevant else Fraction(0)


def _harmonic(t: int, m: int) -> tuple[Fraction, Fraction]:
    """(sum_{a<m} 1/(t+a), sum_{a<m} a/(t+a))."""
    h = sum((Fraction(1, t + a) for a in range(m)), Fraction(0))
    w = sum((Fraction(a, t + a) for a in range(1, m)), Fraction(0))
    return h, w


def _ap_terms(t: int, n: int, r: int, m: int, before: int) -> Fraction:
    """E[sum over the group's first m ranks i of rel_i * H_i / i] with `before`
    relevant documents ranked above the group: rank t+a holds a relevant document
    with probability r/n, and a relevant one together with a given earlier rank
    of the group with probability r(r-1)/(n(n-1))."""
    if r == 0 or m == 0:
        return Fraction(0)
    h, w = _harmonic(t, m)
    out = Fraction(r * (before + 1), n) * h
    if n > 1 and r > 1:
        out += Fraction(r * (r - 1), n * (n - 1)) * w
    return out


def _ap_untied(top: list, k: int) -> tuple[Fraction, int]:
    """(sum, hits) of AP without ties: the j-th relevant document at rank t_j <= k adds
    j / t_j; the sum is taken over the common denominator L = lcm(t_1..t_m) as one integer."""
    m = bisect_right(top, k)
    if not m:
        return Fraction(0), 0
    ts = top[:m]
    den = lcm(*ts)
    return Fraction(sum(map(mul, range(1, m + 1), map(den.__floordiv__, ts))), den), m


def _ap(p: _Profile, s: dict):
    k = _cut(s["k"], p.n)
    den_rule = s["ap_denominator"]
    straddle = None
    if p.top is not None:
        num, hits = _ap_untied(p.top, k)
    else:
        before, num, hits = 0, Fraction(0), Fraction(0)
        for t, n, r, _ in p.groups:
            m = _in_top(t, n, k)
            if r and m:
                if m < n and den_rule == "retrieved-relevant":
                    straddle = (t, n, r, m, before)
                else:
                    num += _ap_terms(t, n, r, m, before)
                    hits += Fraction(r * m, n)
            before += r
    if den_rule == "relevant":
        return num / p.relevant if p.relevant else Fraction(0)
    if den_rule == "min-k-relevant":
        den = min(k, p.relevant) if s["k"] != "none" else p.relevant
        return num / den if den else Fraction(0)
    if straddle is None:
        return num / hits if hits else Fraction(0)
    t, n, r, m, before = straddle
    out = Fraction(0)
    for x in range(max(0, m - (n - r)), min(r, m) + 1):
        px = Fraction(comb(r, x) * comb(n - r, m - x), comb(n, m))
        h = hits + x
        if h:
            # given x relevant among the group's m ranks within the cut, they are uniform over those m
            out += px * (num + _ap_terms(t, m, x, m, before)) / h
    return out


# ------------------------------------------------------------ DCG forms


@lru_cache(maxsize=None)
def _base_exp(x: int) -> tuple[int, int]:
    """x = b**e with b not a perfect power (e maximal)."""
    for e in range(x.bit_length(), 1, -1):
        b = round(x ** (1.0 / e))
        for c in (b - 1, b, b + 1):
            if c >= 2 and c ** e == x:
                return _base_exp(c)[0], e * _base_exp(c)[1]
    return x, 1


def _add_discounted(acc: dict, rank: int, c: Fraction) -> None:
    """acc += c / log2(rank + 1), stored as {b: coefficient of 1/log2(b)}."""
    b, e = _base_exp(rank + 1)
    v = c / e if e != 1 else c
    if type(v) is not Fraction:
        v = Fraction(v)
    prev = acc.get(b)
    acc[b] = v if prev is None else prev + v


def _dcg_form(p: _Profile, k: int) -> dict:
    acc: dict = {}
    for t, n, _, g in p.groups:
        if t > k:
            break  # groups are in rank order
        if not g:
            continue
        share = g / n if n != 1 else g
        for i in range(t, t + _in_top(t, n, k)):
            _add_discounted(acc, i, share)
    return {b: c for b, c in acc.items() if c}


def _ideal_form(ideal: tuple, k: int) -> dict:
    acc: dict = {}
    for i, g in enumerate(ideal[:k], start=1):
        _add_discounted(acc, i, g)
    return {b: c for b, c in acc.items() if c}


@lru_cache(maxsize=4096)
def _discount(b: int):
    """log(2) / log(b), i.e. 1/log2(b), in closed form."""
    return product([log(Fraction(2)), power(log(Fraction(b)), -1)])


def _form_expr(form: dict):
    """sum_b c_b / log2(b) = sum_b c_b * log(2) / log(b); rational for b = 2."""
    terms = []
    for b in sorted(form):
        c = form[b]
        if b == 2:
            terms.append(c)
            continue
        d = _discount(b)
        if c != 0 and c != 1 and type(d) is Mul and not any(type(f) is Rat for f in d.factors):
            # what product([c, d]) builds: the coefficient first, then d's factors
            terms.append(Mul((Rat(c),) + d.factors))
        else:
            terms.append(product([c, d]))
    return total(terms) if terms else Fraction(0)


def _add_form(acc: dict, form: dict, scale: Fraction = Fraction(1)) -> None:
    one = scale == 1
    for b, c in form.items():
        v = c if one else c * scale
        if type(v) is not Fraction:
            v = Fraction(v)
        prev = acc.get(b)
        acc[b] = v if prev is None else prev + v


def _form_ratio(num: dict, den: dict):
    """num/den as a rational when the two sums are proportional term by term, else None."""
    if not num:
        return Fraction(0)
    if num.keys() != den.keys():
        return None
    ratios = {num[b] / den[b] for b in den}
    return ratios.pop() if len(ratios) == 1 else None


def _form_quotient(num: dict, den: dict, den_expr):
    """The closed form of num/den (den != 0), rational when it is."""
    q = _form_ratio(num, den)
    if q is not None:
        return q
    return product([_form_expr(num), power(den_expr, -1)])


# ------------------------------------------------------------ the driver


def _query_set(qrels: dict, run: dict, which: str) -> list:
    if which == "qrels":
        return list(qrels)
    if which == "run":
        return list(run)
    return [q for q in qrels if q in run]


class Checked:
    """Inputs checked once and shared by several measures (``compute_many``): the
    qrels, and each query's prepared ranking (its sort keys, and their sorted list
    once a measure needs it), per value of the ``duplicates`` knob. Built from the
    inputs when created; the inputs must not change while it is in use."""

    def __init__(self, inputs):
        self.inputs = inputs
        self._by_dup: dict = {}
        self.profiles: dict = {}  # {(duplicates, the settings a profile depends on): {query: _Profile}}

    def checked(self, dup: str):
        hit = self._by_dup.get(dup)
        if hit is None:
            hit = self._by_dup[dup] = _check_inputs(self.inputs, dup)
        return hit


def compute_many(inputs, measures) -> list:
    """Several ranking measures of one run, as ``[(metric or name, conventions), ...]``:
    the same Results as one ``compute`` per measure, with the inputs checked and
    each ranking prepared once (as trec_eval and pytrec_eval evaluate every measure
    in one pass over the run)."""
    from .registry import get_metric
    metrics = [(get_metric(m) if isinstance(m, str) else m, conventions) for m, conventions in measures]
    for m, _ in metrics:
        if m.family != "ranking":
            raise ValueError(f"compute_many: {m.name} is not a ranking measure")
    with paused_gc():  # no reference cycles are made (see oracle.gcpause)
        shared = Checked(inputs)
        results = [m.compute(shared, conventions) for m, conventions in metrics]
        del shared  # freed while paused: the collection that follows the pause need not visit it
    return results


def _evaluate(inputs, settings: dict, with_gains: bool):
    """Per-query profiles of the averaged queries, or None for a query scored 0
    without a ranking (missing under missing=zero); skipped queries are left out."""
    if type(inputs) is Checked:
        qrels, run = inputs.checked(settings["duplicates"])
        key = (settings["duplicates"], settings["threshold"], settings["ties"], with_gains, settings.get("gain"),
               settings.get("ideal"), settings.get("threshold_gains"), settings.get("negative"))
        cache = inputs.profiles.setdefault(key, {})
    else:
        qrels, run = _check_inputs(inputs, settings["duplicates"])
        cache = {}
    out, stats = {}, {"queries": 0, "missing": 0, "no_relevant": 0, "skipped": 0}
    for q in _query_set(qrels, run, settings["queries"]):
        judged = qrels.get(q, {})
        if with_gains:
            has_rel = any(gain_of(g, settings) > 0 for g in set(judged.values()))
        else:
            thr = int(settings["threshold"])
            has_rel = any(g >= thr for g in judged.values())
        if not has_rel:
            stats["no_relevant"] += 1
            if settings["no_relevant"] == "skip":
                stats["skipped"] += 1
                continue
        if q not in run:
            stats["missing"] += 1
            if settings["missing"] == "skip":
                stats["skipped"] += 1
                continue
            out[q] = _profile(None, judged, settings, with_gains)
            continue
        p = cache.get(q)
        if p is None:
            p = cache[q] = _profile(run[q], judged, settings, with_gains)
        out[q] = p
    stats["queries"] = len(out)
    return out, stats


def _ranks_part(profiles: dict):
    return {q: dict(p.ranks) for q, p in profiles.items() if p.ranks is not None}


def _rational_metric(per_query_fn):
    def compute(inputs, settings: dict) -> Result:
        profiles, stats = _evaluate(inputs, settings, with_gains=False)
        per_query = {q: per_query_fn(p, settings) for q, p in profiles.items()}
        parts = {"per_query": per_query}
        if settings["ties"] != "expected":
            parts["ranks"] = _ranks_part(profiles)
        if not per_query:
            return Result(Undefined("no queries to average"), stats=stats, parts=parts)
        sum_ = sum((v * c for v, c in Counter(per_query.values()).items()), Fraction(0))
        stats["sum"] = sum_
        return Result(sum_ / len(per_query), stats=stats, parts=parts)
    compute.__doc__ = per_query_fn.__doc__
    return compute


def compute_dcg(inputs, settings: dict) -> Result:
    """Mean DCG@K = (1/|Q|) sum_q sum_{i<=K} gain_i / log2(i+1), a closed form
    sum_b c_b log(2)/log(b) with the coefficients summed over all queries."""
    profiles, stats = _evaluate(inputs, settings, with_gains=True)
    acc: dict = {}
    per_query = {}
    for q, p in profiles.items():
        form = _dcg_form(p, _cut(settings["k"], p.n))
        _add_form(acc, form)
        per_query[q] = _form_expr(form)
    parts = {"per_query": per_query}
    if settings["ties"] != "expected":
        parts["ranks"] = _ranks_part(profiles)
    if not per_query:
        return Result(Undefined("no queries to average"), stats=stats, parts=parts)
    stats["sum"] = _form_expr(acc)
    return Result(_form_expr({b: c / len(per_query) for b, c in acc.items()}), stats=stats, parts=parts)


def compute_ndcg(inputs, settings: dict) -> Result:
    """Mean NDCG@K = (1/|Q|) sum_q DCG_q@K / IDCG_q@K (0 when IDCG = 0); queries
    with the same ideal gain vector share one denominator: the value is
    sum_c (sum_{q in c} DCG_q) / (|Q| IDCG_c)."""
    profiles, stats = _evaluate(inputs, settings, with_gains=True)
    classes: dict = {}
    ideals: dict = {}  # {ideal gains within the cut: (their DCG form, its key)}
    per_query = {}
    for q, p in profiles.items():
        k = _cut(settings["k"], p.n)
        # without a cutoff the ideal ranking holds every positive gain (m_ndcg.c goes on past num_ret)
        top = p.ideal if settings["k"] == "none" else p.ideal[:k]
        known = ideals.get(top)
        if known is None:
            ideal = _ideal_form(top, len(top))
            known = ideals[top] = (ideal, tuple(sorted(ideal.items())))
        ideal, key = known
        form = _dcg_form(p, k)
        if not ideal:
            per_query[q] = Fraction(0)
            continue
        entry = classes.get(key)
        if entry is None:
            classes[key] = entry = (_form_expr(ideal), {})
        _add_form(entry[1], form)
        per_query[q] = _form_quotient(form, ideal, entry[0])
    parts = {"per_query": per_query}
    if settings["ties"] != "expected":
        parts["ranks"] = _ranks_part(profiles)
    if not per_query:
        return Result(Undefined("no queries to average"), stats=stats, parts=parts)
    n = len(per_query)
    terms = [_form_quotient({b: c / n for b, c in num.items() if c}, dict(key), den)
             for key, (den, num) in sorted(classes.items(), key=lambda kv: kv[0])]
    stats["ideal_classes"] = len(classes)
    return Result(total(terms) if terms else Fraction(0), stats=stats, parts=parts)


_INPUTS = {"qrels": "{query: {document: integer grade}}",
           "run": "{query: {document: score}} or {query: [[document, score], ...]}; scores are numbers "
                  "or exact numeric strings"}


def _metric(name, summary, fn, knobs):
    return Metric(name=name, family="ranking", summary=summary, knobs=tuple(knobs), inputs=_INPUTS, compute_fn=fn)


_hit.__doc__ = "hit@K = 1 if a relevant document is in the top K, else 0 (trec_eval success)."
_rr.__doc__ = "RR@K = 1/rank of the first relevant document within the top K, else 0 (trec_eval recip_rank)."
_precision.__doc__ = "P@K = H_K / K, or H_K / min(K, N) (trec_eval P)."
_recall.__doc__ = "R@K = H_K / R (trec_eval recall)."
_r_precision.__doc__ = "R-precision = H_R / R (trec_eval Rprec)."
_ap.__doc__ = "AP@K = (1/D) sum_{i<=K} rel_i H_i / i (trec_eval map, map_cut)."

HIT_RATE = _metric("hit_rate", "Fraction of queries with a relevant document in the top K",
                   _rational_metric(_hit), (_k("5"), TIES) + _COMMON)
RECIPROCAL_RANK = _metric("reciprocal_rank", "Mean reciprocal rank of the first relevant document (MRR)",
                          _rational_metric(_rr), (_k("none"), TIES) + _COMMON)
PRECISION_AT_K = _metric("precision_at_k", "Mean fraction of the top K that is relevant (P@K)",
                         _rational_metric(_precision), (_k("5"), TIES, PDEN) + _COMMON)
RECALL_AT_K = _metric("recall_at_k", "Mean fraction of the relevant documents found in the top K (R@K)",
                      _rational_metric(_recall), (_k("5"), TIES) + _COMMON)
AVERAGE_PRECISION = _metric("average_precision", "Mean average precision (MAP), optionally cut at K",
                            _rational_metric(_ap), (_k("none"), TIES, APDEN) + _COMMON)
R_PRECISION = _metric("r_precision", "Mean precision at rank R, R the number of relevant documents",
                      _rational_metric(_r_precision), (TIES,) + _COMMON)
DCG = _metric("dcg", "Mean discounted cumulative gain, sum of gain / log2(rank + 1)",
              compute_dcg, (_k("none"), TIES) + _GAINS + _COMMON)
NDCG = _metric("ndcg", "Mean normalized DCG: DCG over the DCG of the ideal ranking",
               compute_ndcg, (_k("none"), TIES, IDEAL) + _GAINS + _COMMON)
