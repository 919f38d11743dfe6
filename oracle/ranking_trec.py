"""trec_eval's further measures, exactly: the counts, the set measures, relative
precision, precision at multiples of R, interpolated precision, bpref, infAP,
utility, binG and the geometric means (trec_eval 9.0.8, the m_*.c file named with
each measure; github.com/usnistgov/trec_eval).

Inputs and the query-set knobs are those of ``oracle.ranking``. A query's ranking is
ordered by the tie rule (``trec_eval``: score descending, then document id
descending, form_res_rels.c comp_sim_docno; ``input-order``: a stable sort), and each
retrieved document gets trec_eval's relevance code (form_res_rels.c): its grade when
the qrels judge it (grade >= 0); "not in the pool" when the qrels do not list it;
"in the pool, unjudged" when they list it with a negative grade ("In pool, but
unjudged (eg, infAP uses a sample of pool)"). With ranks i = 1..N, rel_i = [grade_i
>= threshold], R the qrels' documents with grade >= threshold, H_k = sum_{i <=
min(k, N)} rel_i, and "nonrelevant judged" a grade 0 <= g < threshold:

- num_retrieved = N, num_relevant = R, num_relevant_retrieved = H_N,
  num_nonrelevant_judged_retrieved (m_num_ret.c, m_num_rel.c, m_num_rel_ret.c,
  m_num_nonrel_judged_ret.c); their summary is the sum over the queries
  (te_calc_avg_meas_empty), and num_queries counts the queries (m_num_q.c).
- set_precision = H_N / N; set_recall = H_N / R; set_f = (x + 1) P R / (x P + R)
  with P, R those two and x trec_eval's parameter (x = beta^2 of van Rijsbergen's
  F; 0 when H_N = 0); set_ap = H_N^2 / (N R); set_relative_precision = H_N /
  min(N, R) (m_set_P.c, m_set_recall.c, m_set_F.c, m_set_map.c, m_set_rel_P.c).
- relative_precision_at_k = H_k / min(k, R) (m_rel_P.c).
- precision_at_r_multiple = H_c / c, c = (long)(x R + 0.9) (0 when c = 0;
  m_Rprec_mult.c).
- interpolated_precision = max_{i_c <= i <= N} H_i / i, c the recall level's count of
  relevant documents, i_c the rank of the c-th relevant retrieved one (i_0 = i_1), 0
  when c > H_N (m_iprec_at_recall.c; "Int_Prec (X) defined to be MAX (Prec (Y)) for
  all Y >= X"); eleven_point_ap, its mean at x = 0.0, 0.1, ..., 1.0 (m_11pt_avg.c).
- bpref = (1/R) sum over the relevant retrieved r of (1 - min(n_r, R) / min(N_n, R)),
  n_r the nonrelevant judged documents ranked above r, N_n those in the qrels; the
  term is 1 when n_r = 0 (m_bpref.c; Buckley and Voorhees 2004).
- infap = (1/R) sum over the relevant retrieved at rank i of 1 if i = 1, else 1/i +
  ((i - 1)/i) (p / (i - 1)) (r + e) / (r + n + 2e), with r, n the relevant and
  nonrelevant judged documents above i, p = r + n + u (u: in the pool, unjudged,
  above i) and e = 1/100000 (m_infap.c, INFAP_EPSILON; Yilmaz and Aslam 2006).
- utility = a H_N + b (N - H_N) + c (R - H_N) + d (D + H_N - N - R), (a, b, c, d)
  default (1, -1, 0, 0), D the collection size (trec_eval -N, default 0) (m_utility.c).
- bin_g = (1/R) sum over the relevant retrieved at rank i of 1/log2(2 + the
  documents above i that are not relevant, judged or not) (m_binG.c), a closed form
  like DCG's.
- g, rndcg, ndcg_rel: trec_eval's gain measures G, Rndcg and ndcg_rel
  (``oracle.ranking_trec_gain``).
- gm_ap, gm_bpref: AP (m_map.c) and bpref per query; the summary is the geometric
  mean exp(mean_q log max(v_q, 1/100000)) (m_gm_map.c, m_gm_bpref.c, meas_avg.c
  te_calc_avg_meas_s_gm, MIN_GEO_MEAN), kept as (prod_q max(v_q, 1/100000))^(1/|Q|).

Every other summary is the mean over the averaged queries. trec_eval's -J (only
judged documents ranked) and -M are transforms of the run: ``oracle.trec.judged_only``
and ``oracle.trec.truncate_run``.
"""
from __future__ import annotations

import math
from dataclasses import replace
from fractions import Fraction

from .conventions import ConventionError, Knob, Metric, Result
from .exact import Undefined, power, product, total
from .ranking import _COMMON, _INPUTS, _TREC, K, NO_RELEVANT, TIES, Checked, query_set_inert, select_queries
from .ranking_inputs import _check_inputs, _exact
from .ranking_query import _form_expr
from .ranking_trec_gain import _bin_g, _g, _ndcg_rel, _rndcg

NONPOOL, UNJUDGED = -1, -2          # trec_eval.h RELVALUE_NONPOOL, RELVALUE_UNJUDGED
EPSILON = Fraction(1, 100000)       # trec_eval.h INFAP_EPSILON and MIN_GEO_MEAN (.00001)
ELEVEN = tuple(Fraction(i, 10) for i in range(11))

# ------------------------------------------------------------------ knobs

TREC_TIES = replace(TIES, choices=("trec_eval", "input-order"),
                    sources={c: TIES.sources[c] for c in ("trec_eval", "input-order")})
NO_RELEVANT_EVAL = replace(
    NO_RELEVANT, meaning="a query without relevant documents: evaluated as trec_eval does, or left out",
    default="evaluate", choices=("evaluate", "skip"),
    sources={"evaluate": f"{_TREC} trec_eval.c evaluates every query of the qrels; with R = 0 the ratio "
                         "measures stay 0 (e.g. m_set_recall.c 'if (res_rels.num_rel)'), the counts are counted",
             "skip": NO_RELEVANT.sources["skip"]})
BETA2 = Knob("x", "set_F's parameter x in (x + 1) P R / (x P + R), i.e. beta squared", "1", kind="rational",
             minimum=0, sources={"*": f"{_TREC} m_set_F.c: set_F_param_array = {{1.0}}, "
                                      "(x + 1.0) * P * R / (x * P + R)"})
MULTIPLE = Knob("multiple", "the multiple x of R at which precision is taken", "1", kind="rational",
                minimum=0, sources={"*": f"{_TREC} m_Rprec_mult.c: Rprec_mult_0.20 ... Rprec_mult_2.00, "
                                         "cutoff (long) (x * num_rel + 0.9)"})
RECALL = Knob("recall", "the recall level x, 0 <= x <= 1", "0", kind="rational", minimum=0,
              special=("3/10", "7/10"),   # levels where trec_eval 9's and 10's cutoffs part at small R
              sources={"*": f"{_TREC} m_iprec_at_recall.c: iprec_at_recall_0.00 ... iprec_at_recall_1.00"})
RECALL_CUTOFF = Knob(
    "recall_cutoff", "the number of relevant documents a recall level x stands for", "v9",
    choices=("v9", "v10"), key="rcut",
    sources={"v9": f"{_TREC} 9.0.8 m_iprec_at_recall.c, m_11pt_avg.c: (long) (x * num_rel + 0.9); pytrec_eval "
                   "embeds trec_eval 9",
             "v10": "trec_eval 10.0 m_iprec_at_recall.c, m_11pt_avg.c: lround (x * num_rel) ('In v9 and prior, "
                    "this was done by adding 0.9 and casting ... Changing to use rounding')"})
COEFFICIENTS = Knob("coefficients", "utility's a, b, c, d (four numbers)", "1,-1,0,0", kind="rationals",
                    special=("1,-1,0,0", "3,-1,-2,1"),   # tried by the strategies besides any list
                    sources={"*": f"{_TREC} m_utility.c: utility_param_array = {{1.0, -1.0, 0.0, 0.0}}"})
CUTOFF = replace(K, default="5", special=(),
                 sources={"*": f"{_TREC} m_rel_P.c: relative_P.5, .10, ... (long_cutoff_array)"})
COLLECTION = Knob("collection_size", "the number of documents in the collection (utility's d term)", "0",
                  kind="int", minimum=0, key="ndocs",
                  sources={"*": f"{_TREC} -N: epi->num_docs_in_coll, default 0"})

_BASE = (TREC_TIES, NO_RELEVANT_EVAL) + tuple(k for k in _COMMON if k.name != "no_relevant")


# ------------------------------------------------------------ one query


class Judged:
    """One query as trec_eval's RES_RELS: the relevance codes of the ranking in rank
    order (a grade >= 0, NONPOOL or UNJUDGED), R, and N_n (the nonrelevant judged
    documents of the qrels); ``missing``: absent from the run (scored 0 under -c)."""
    __slots__ = ("codes", "relevant", "nonrelevant", "thr", "missing", "ideal")

    def __init__(self, codes: list, relevant: int, nonrelevant: int, thr: int, missing: bool = False,
                 ideal: tuple = ()):
        self.codes, self.relevant, self.nonrelevant, self.thr = codes, relevant, nonrelevant, thr
        self.missing, self.ideal = missing, ideal

    @property
    def flags(self) -> list:
        thr = self.thr
        return [c >= thr for c in self.codes]


def _order(rk, rule: str) -> list:
    """The documents of a ranking in rank order, scores compared exactly."""
    docs = list(rk.scores)
    if rk.rounded:
        key = {d: _exact(s) for d, s in rk.scores.items()}
    else:
        key = rk.keys
    if rule == "trec_eval":
        return sorted(docs, key=lambda d: (key[d], d), reverse=True)
    return sorted(docs, key=key.__getitem__, reverse=True)   # stable: ties in input order


def judged_query(rk, judged: dict, settings: dict) -> Judged:
    thr = int(settings["threshold"])
    relevant = sum(1 for g in judged.values() if g >= thr)
    nonrelevant = sum(1 for g in judged.values() if 0 <= g < thr)
    codes = []
    if rk is not None:
        get = judged.get
        for d in _order(rk, settings["ties"]):
            g = get(d)
            codes.append(NONPOOL if g is None else (UNJUDGED if g < 0 else g))
    ideal = tuple(sorted((g for g in judged.values() if g > 0), reverse=True))
    return Judged(codes, relevant, nonrelevant, thr, rk is None, ideal)


# ------------------------------------------------- per-query measures


def _ret(j: Judged) -> int:
    return sum(j.flags)


def _set_p(j: Judged, s):
    return Fraction(_ret(j), len(j.codes)) if j.codes else Fraction(0)


def _set_recall(j: Judged, s):
    return Fraction(_ret(j), j.relevant) if j.relevant else Fraction(0)


def _set_f(j: Judged, s):
    h = _ret(j)
    if not h:
        return Fraction(0)
    p, r, x = Fraction(h, len(j.codes)), Fraction(h, j.relevant), Fraction(s["x"])
    return (x + 1) * p * r / (x * p + r)


def _set_ap(j: Judged, s):
    h = _ret(j)
    return Fraction(h * h, len(j.codes) * j.relevant) if j.codes and j.relevant else Fraction(0)


def _set_relative_p(j: Judged, s):
    n = len(j.codes)
    return Fraction(_ret(j), min(n, j.relevant)) if n and j.relevant else Fraction(0)


def _hits(j: Judged, k: int) -> int:
    return sum(j.flags[:k])


def _relative_p(j: Judged, s):
    k = int(s["k"])
    return Fraction(_hits(j, k), min(k, j.relevant)) if j.relevant else Fraction(0)


def _c_cutoff(x: Fraction, r: int, rule: str) -> int:
    """trec_eval's cutoff for a fraction x of R, in its double arithmetic: x is the
    double trec_eval parses from the measure name (atof), so x R + 0.9 is rounded as
    C rounds it; exact rationals would differ at 0.7 * 3 + 0.9 (2.9999999999999996 in
    doubles, so trec_eval cuts at 2)."""
    xf = float(x)
    if rule == "v10":
        v = xf * r
        return int(math.floor(v + 0.5)) if v >= 0 else -int(math.floor(-v + 0.5))  # lround: half away from 0
    return int(xf * r + 0.9)


def _r_multiple(j: Judged, s):
    c = _c_cutoff(Fraction(s["multiple"]), j.relevant, "v9")
    return Fraction(_hits(j, c), c) if c > 0 else Fraction(0)


def _iprec(j: Judged, x: Fraction, rule: str) -> Fraction:
    flags = j.flags
    h_n = sum(flags)
    c = _c_cutoff(x, j.relevant, rule)
    if c > h_n or not flags:
        return Fraction(0)
    if h_n == 0:
        return Fraction(0)               # c = 0: trec_eval's int_precis = num_rel_ret / num_ret = 0
    rel_ranks = [i for i, f in enumerate(flags, start=1) if f]
    start = rel_ranks[max(c, 1) - 1]
    best, h = Fraction(0), sum(flags[:start - 1])
    for i in range(start, len(flags) + 1):
        h += flags[i - 1]
        v = Fraction(h, i)
        if v > best:
            best = v
    return best


def _interpolated(j: Judged, s):
    x = Fraction(s["recall"])
    if x > 1:
        raise ConventionError(f"interpolated_precision.recall: {s['recall']} is above 1")
    return _iprec(j, x, s["recall_cutoff"])


def _eleven(j: Judged, s):
    return sum((_iprec(j, x, s["recall_cutoff"]) for x in ELEVEN), Fraction(0)) / 11


def _bpref(j: Judged, s=None):
    thr, big_r = j.thr, j.relevant
    nonrel, acc = 0, Fraction(0)
    for c in j.codes:
        if c < 0:
            continue                     # not in the pool, or in the pool unjudged: skipped
        if c < thr:
            nonrel += 1
        elif nonrel > 0:
            acc += 1 - Fraction(min(nonrel, big_r), min(j.nonrelevant, big_r))
        else:
            acc += 1
    return acc / big_r if big_r else Fraction(0)


def _infap(j: Judged, s):
    thr = j.thr
    rel = nonrel = unjudged = 0
    acc = Fraction(0)
    for i0, c in enumerate(j.codes):
        if c == NONPOOL:
            continue
        if c == UNJUDGED:
            unjudged += 1
            continue
        if c < thr:
            nonrel += 1
            continue
        rel += 1
        if i0 == 0:
            acc += 1
        else:
            r = rel - 1
            acc += (Fraction(1, i0 + 1) + Fraction(i0, i0 + 1) * Fraction(r + nonrel + unjudged, i0)
                    * (r + EPSILON) / (r + nonrel + 2 * EPSILON))
    return acc / j.relevant if j.relevant else Fraction(0)


def _utility(j: Judged, s):
    coefficients = [Fraction(v) for v in s["coefficients"].split(",")]
    if len(coefficients) != 4:
        raise ConventionError(f"utility.coefficients: {s['coefficients']!r} has {len(coefficients)} numbers; "
                              "utility takes four, a,b,c,d (trec_eval: 'improper number of coefficients')")
    a, b, c, d = coefficients
    h, n, r = _ret(j), len(j.codes), j.relevant
    return a * h + b * (n - h) + c * (r - h) + d * (int(s["collection_size"]) + h - n - r)


def _ap(j: Judged, s=None):
    acc, h = Fraction(0), 0
    for i, f in enumerate(j.flags, start=1):
        if f:
            h += 1
            acc += Fraction(h, i)
    return acc / j.relevant if h else Fraction(0)


def _num_retrieved(j: Judged, s):
    """num_ret = N (trec_eval m_num_ret.c); summary: the sum."""
    return Fraction(len(j.codes))


def _num_relevant(j: Judged, s):
    """num_rel = R (trec_eval m_num_rel.c); summary: the sum."""
    return Fraction(j.relevant)


def _num_relevant_retrieved(j: Judged, s):
    """num_rel_ret = H_N (trec_eval m_num_rel_ret.c); summary: the sum."""
    return Fraction(_ret(j))


def _num_nonrelevant_judged(j: Judged, s):
    """num_nonrel_judged_ret = retrieved with 0 <= grade < threshold (m_num_nonrel_judged_ret.c)."""
    return Fraction(sum(1 for c in j.codes if 0 <= c < j.thr))


# ------------------------------------------------------------ the driver


def _judged_queries(inputs, settings: dict) -> tuple[dict, dict]:
    prec = settings.get("score_precision", "exact")
    if type(inputs) is Checked:
        qrels, run = inputs.checked(settings["duplicates"], prec)
    else:
        qrels, run = _check_inputs(inputs, settings["duplicates"], prec)
    out, stats = {}, {}
    for q, judged, rk in select_queries(qrels, run, settings, stats):
        out[q] = judged_query(rk, judged, settings)
    stats["queries"] = len(out)
    return out, stats


def _compute(per_query_fn, summary: str = "mean"):
    """The measure's compute: per-query values (0 for a query absent from the run, as
    trec_eval -c scores it, except num_relevant, which te_calc_avg_num_rel counts from
    the qrels under -c), and the summary: the mean (of rationals, of closed forms, or
    of DCG-like forms {b: c} summed base by base), the sum, the count, or the geometric
    mean."""
    def compute(inputs, settings: dict) -> Result:
        queries, stats = _judged_queries(inputs, settings)
        zero = Fraction(0)
        keep = per_query_fn is _num_relevant
        raw = {q: (zero if j.missing and not keep else per_query_fn(j, settings)) for q, j in queries.items()}
        forms = {q: v for q, v in raw.items() if type(v) is dict}
        per_query = {q: (_form_expr(v) if type(v) is dict else v) for q, v in raw.items()}
        parts = {"per_query": per_query}
        if summary == "count":   # each query counts 1 (pytrec_eval's per-query num_q)
            return Result(Fraction(len(per_query)), stats=stats, parts={"per_query": dict.fromkeys(per_query,
                                                                                                  Fraction(1))})
        if summary == "sum":
            return Result(sum(per_query.values(), zero), stats=stats, parts=parts)
        if not per_query:
            return Result(Undefined("no queries to average"), stats=stats, parts=parts)
        n = len(per_query)
        if summary == "geometric":
            floor = [max(v, EPSILON) for v in per_query.values()]
            return Result(power(product(floor), Fraction(1, n)), stats=stats, parts=parts)
        if forms:
            acc: dict = {}
            for f in forms.values():
                for b, c in f.items():
                    acc[b] = acc.get(b, zero) + c / n
            return Result(_form_expr({b: c for b, c in acc.items() if c}), stats=stats, parts=parts)
        if all(type(v) is Fraction for v in per_query.values()):
            stats["sum"] = sum(per_query.values(), zero)
            return Result(stats["sum"] / n, stats=stats, parts=parts)
        return Result(product([Fraction(1, n), total(per_query.values())]), stats=stats, parts=parts)
    compute.__doc__ = per_query_fn.__doc__
    return compute


def _sum_inert(per_query_fn):
    """The query-set knobs a sum over the queries makes irrelevant, besides
    ``query_set_inert``'s: a query that adds 0 may as well be left out. A judged query
    absent from the run adds 0 (``_compute``), except to num_relevant; a query judged by
    nothing adds 0 relevant, relevant retrieved and judged nonrelevant documents; a query
    without a relevant document adds 0 relevant and relevant retrieved documents."""
    no_ranking_is_zero = per_query_fn is not _num_relevant
    no_judgement_is_zero = per_query_fn in (_num_relevant, _num_relevant_retrieved, _num_nonrelevant_judged)
    no_relevant_is_zero = per_query_fn in (_num_relevant, _num_relevant_retrieved)

    def inert(knob: str, a: str, b: str, settings) -> str | None:
        why = query_set_inert(knob, a, b, settings)
        if why:
            return why
        if no_ranking_is_zero and (knob == "missing" or (knob == "queries" and {a, b} == {"qrels", "both"})):
            return "a sum over the queries: a judged query absent from the run adds 0 to it"
        if no_judgement_is_zero and knob == "empty_judgments" and settings.get("queries") != "equal":
            # (under queries=equal a query judged by nothing is one the run must hold too)
            return "a sum over the queries: a query judged by nothing adds 0 to it"
        if no_relevant_is_zero and knob == "no_relevant":
            return "a sum over the queries: a query without a relevant document adds 0 to it"
        return None
    return inert


# the measures of the retrieved set as a set: counts of documents by judgement (trec_eval's
# num_*, set_* and utility read no rank), so nothing that orders the run can change them
_ORDER_FREE = (_num_retrieved, _num_relevant, _num_relevant_retrieved, _num_nonrelevant_judged, _set_p, _set_recall,
               _set_f, _set_ap, _set_relative_p, _utility)


def _order_free_inert(inert):
    """``inert``, and the knobs that only order the run: how ties are broken, how the scores
    are held (rounding makes ties, never new documents), and which occurrence of a listed-twice
    document counts (first or highest-scored: the same document either way)."""
    def order_free(knob: str, a: str, b: str, settings) -> str | None:
        if knob in ("ties", "score_precision") or (knob == "duplicates" and {a, b} == {"first", "max"}):
            return f"{knob} only orders the run, and this measure counts the retrieved documents as a set"
        return inert(knob, a, b, settings)
    return order_free


def _metric(name, summary, fn, knobs=(), how="mean"):
    inert = _sum_inert(fn) if how == "sum" else query_set_inert
    if fn in _ORDER_FREE:
        inert = _order_free_inert(inert)
    return Metric(name=name, family="ranking", summary=summary, knobs=tuple(knobs) + _BASE, inputs=_INPUTS,
                  compute_fn=_compute(fn, how), inert_fn=inert, aggregate=how)


_set_p.__doc__ = "set_P = H_N / N (trec_eval m_set_P.c)."
_set_recall.__doc__ = "set_recall = H_N / R (trec_eval m_set_recall.c)."
_set_f.__doc__ = "set_F = (x + 1) P R / (x P + R) over the whole retrieved set (trec_eval m_set_F.c)."
_set_ap.__doc__ = "set_map = H_N^2 / (N R) (trec_eval m_set_map.c)."
_set_relative_p.__doc__ = "set_relative_P = H_N / min(N, R) (trec_eval m_set_rel_P.c)."
_relative_p.__doc__ = "relative_P@k = H_k / min(k, R) (trec_eval m_rel_P.c)."
_r_multiple.__doc__ = "Rprec_mult_x = H_c / c, c = (long)(x R + 0.9) (trec_eval m_Rprec_mult.c)."
_interpolated.__doc__ = "iprec_at_recall_x = max_{i >= i_c} H_i / i (trec_eval m_iprec_at_recall.c)."
_eleven.__doc__ = "11pt_avg = mean of iprec_at_recall at 0.0, 0.1, ..., 1.0 (trec_eval m_11pt_avg.c)."
_bpref.__doc__ = "bpref = (1/R) sum_r (1 - min(n_r, R)/min(N_n, R)) (trec_eval m_bpref.c)."
_infap.__doc__ = "infAP (trec_eval m_infap.c; Yilmaz and Aslam 2006), epsilon 1/100000."
_utility.__doc__ = "utility = a H_N + b (N - H_N) + c (R - H_N) + d (D + H_N - N - R) (trec_eval m_utility.c)."
_ap.__doc__ = "AP per query (trec_eval m_map.c); gm_map is the geometric mean of max(AP, 1/100000)."

NUM_RETRIEVED = _metric("num_retrieved", "Documents retrieved, summed over the queries (trec_eval num_ret)",
                        _num_retrieved, how="sum")
NUM_RELEVANT = _metric("num_relevant", "Relevant documents, summed over the queries (trec_eval num_rel)",
                       _num_relevant, how="sum")
NUM_RELEVANT_RETRIEVED = _metric("num_relevant_retrieved",
                                 "Relevant documents retrieved, summed over the queries (trec_eval num_rel_ret)",
                                 _num_relevant_retrieved, how="sum")
NUM_NONRELEVANT_JUDGED_RETRIEVED = _metric(
    "num_nonrelevant_judged_retrieved",
    "Judged nonrelevant documents retrieved, summed over the queries (trec_eval num_nonrel_judged_ret)",
    _num_nonrelevant_judged, how="sum")
NUM_QUERIES = _metric("num_queries", "The number of queries averaged over (trec_eval num_q)", _num_retrieved,
                      how="count")
SET_PRECISION = _metric("set_precision", "Precision of the whole retrieved set (trec_eval set_P)", _set_p)
SET_RECALL = _metric("set_recall", "Recall of the whole retrieved set (trec_eval set_recall)", _set_recall)
SET_F = _metric("set_f", "F of the whole retrieved set, (x+1)PR/(xP+R) (trec_eval set_F)", _set_f, (BETA2,))
SET_AP = _metric("set_ap", "Unranked AP: relevant retrieved squared over N R (trec_eval set_map)", _set_ap)
SET_RELATIVE_PRECISION = _metric("set_relative_precision",
                                 "Set precision over the largest possible (trec_eval set_relative_P)",
                                 _set_relative_p)
RELATIVE_PRECISION_AT_K = _metric("relative_precision_at_k",
                                  "Precision at K over the largest possible, H_K / min(K, R) (trec_eval relative_P)",
                                  _relative_p, (CUTOFF,))
PRECISION_AT_R_MULTIPLE = _metric("precision_at_r_multiple",
                                  "Precision at x times R documents (trec_eval Rprec_mult)", _r_multiple,
                                  (MULTIPLE,))
INTERPOLATED_PRECISION = _metric("interpolated_precision",
                                 "Interpolated precision at a recall level (trec_eval iprec_at_recall)",
                                 _interpolated, (RECALL, RECALL_CUTOFF))
ELEVEN_POINT_AP = _metric("eleven_point_ap", "Mean interpolated precision at 11 recall levels (trec_eval 11pt_avg)",
                          _eleven, (RECALL_CUTOFF,))
BPREF = _metric("bpref", "Binary preference over judged documents (trec_eval bpref)", _bpref)
INFAP = _metric("infap", "Inferred AP from a sampled pool (trec_eval infAP)", _infap)
UTILITY = _metric("utility", "Linear utility of the retrieved set (trec_eval utility)", _utility,
                  (COEFFICIENTS, COLLECTION))
BIN_G = _metric("bin_g", "Binary G: mean over relevant documents of 1/log2(2 + nonrelevant above) (trec_eval binG)",
                _bin_g)
G = _metric("g", "Normalized gain G, each gain over log2 of 2 plus the cost still missed (trec_eval G)", _g)
RNDCG = _metric("rndcg", "NDCG averaged at the points where the ideal gain changes (trec_eval Rndcg)", _rndcg)
NDCG_REL = _metric("ndcg_rel", "NDCG averaged over the documents of positive gain (trec_eval ndcg_rel)", _ndcg_rel)
GM_AP = _metric("gm_ap", "Geometric mean of AP, floored at 1/100000 (trec_eval gm_map)", _ap, how="geometric")
GM_BPREF = _metric("gm_bpref", "Geometric mean of bpref, floored at 1/100000 (trec_eval gm_bpref)", _bpref,
                   how="geometric")
