"""Ranking and retrieval metrics (trec_eval measures, exactly, with named tie rules).

Inputs: ``{"qrels": {query: {doc: grade}}, "run": {query: {doc: score}}}``.
Grades are integers (negative allowed). A score is an int, a float (taken at
its exact binary value), a Fraction or Decimal, or a string read exactly
("0.1" is 1/10, "1/3" is 1/3). A query's ranking may also be a list of
``[doc, score]`` pairs, which can hold duplicate documents (as a TREC run
file can); the ``duplicates`` knob decides what they mean. The order in which
a ranking lists its documents is its input order.

Scores (knob ``score_precision``): ``exact`` (default: two scores tie only when
equal), ``float64`` (each score replaced by the double nearest it, as trec_eval's
``atof`` and every float64 library hold it), ``float32`` (then by the float32
nearest that double, as torch's ``.float()`` casts it; +-inf beyond its range).
A library that holds scores in fewer bits sees ties the input does not have;
those ties are then ranked by the tie rule below.

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
  documents (or of the retrieved ones), sorted descending, cut at K; under
  ``negative=ideal`` (torchmetrics' ideal) the zero and negative gains of that set
  follow the positive ones, so a negative grade inside the cut lowers idcg (it can
  make idcg negative: the quotient is taken as it is).
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
out (``no_relevant``; torchmetrics' empty_target_action also scores it 1, ``one``,
or refuses it, ``error``); this is decided before ``missing`` (except that
under ``one`` a query absent from the run is still left out by missing=skip), which decides
whether a query absent from the run scores 0 (trec_eval -c, default) or is
left out (trec_eval without -c, pytrec_eval). A query present with an empty
ranking retrieved nothing and scores 0 under both.

Several measures of one run: ``compute_many(inputs, [(metric, conventions),
...])`` returns the Results of one ``compute`` per measure, with the inputs
checked, each ranking sorted and each query profile built once (as trec_eval
computes all its measures in one pass).

Degenerate and invalid inputs
The table of degenerate and invalid inputs and what this module does with
each is data: golden/bad_input/ranking.json (rendered in docs/bad-input.md; every
row's examples run in tests/test_bad_input_tables.py).
"""
from __future__ import annotations

from fractions import Fraction

from .conventions import ConventionError, InputError, Metric, Result
from .exact import Undefined, log, power, product, total
from .gcpause import paused_gc
from .lazy import Lazy, Once
from .ranking_inputs import _check_inputs
from .ranking_measures import _ap, _cut, _dcg_form, _hit, _precision, _r_precision, _recall, _rr
from .ranking_query import (_Profile, _add_form, _form_expr, _form_quotient, _fraction_sum, _ideal_form, _profile,
                            _whole_gain, gain_of, gain_rule, ideal_sign)

from .ranking_knobs import (_COMMON, _DOC, _GAINS, _MN, _TREC, APDEN, DUPLICATES, EMPTY_JUDGMENTS,  # noqa: F401
                           GAIN, IDEAL, K, LOG_BASE, MISSING, NEGATIVE, NO_RELEVANT, PDEN, QUERIES, RELEVANT_COUNT,
                           THRESHOLD, THRESHOLD_GAINS, TIES, _k)


# ------------------------------------------------------------ the driver


def _query_set(qrels: dict, run: dict, which: str) -> list:
    if which == "equal":
        check_same_queries(qrels, run)
        return list(qrels)
    if which == "qrels":
        return list(qrels)
    if which == "run":
        return list(run)
    return [q for q in qrels if q in run]


def check_same_queries(qrels, run) -> None:
    """queries=equal: the qrels and the run must hold the same queries; the first query on
    one side only is refused (ranx ``evaluate(make_comparable=False)``: ``check_keys``)."""
    if set(qrels) != set(run):
        q = next(iter(sorted((set(qrels) ^ set(run)), key=str)))
        side, other = ("qrels", "run") if q in qrels else ("run", "qrels")
        raise InputError(f"{side}[{q!r}]: the query is not in the {other} (queries=equal: both must hold the "
                         "same queries)", item=side)


class Checked:
    """Inputs checked once and shared by several measures (``compute_many``): the
    qrels, and each query's prepared ranking (its sort keys, and their sorted list
    once a measure needs it), per value of the ``duplicates`` knob. Built from the
    inputs when created; the inputs must not change while it is in use."""

    def __init__(self, inputs):
        self.inputs = inputs
        self._by_dup: dict = {}
        self.profiles: dict = {}  # {(duplicates, the settings a profile depends on): {query: _Profile}}

    def checked(self, dup: str, precision: str = "exact"):
        hit = self._by_dup.get((dup, precision))
        if hit is None:
            if precision == "exact":
                hit = _check_inputs(self.inputs, dup)
            else:   # the exact check once, then the scores as held
                from .ranking_inputs import held
                hit = (self.checked(dup)[0], held(self.checked(dup)[1], precision))
            self._by_dup[(dup, precision)] = hit
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
        # the gain measures first: the rational measures' profiles are a part of theirs
        # (``_gains_profiles``); the results in the order asked
        order = sorted(range(len(metrics)), key=lambda i: metrics[i][0].name not in ("dcg", "ndcg"))
        results = [None] * len(metrics)
        for i in order:
            m, conventions = metrics[i]
            results[i] = m.compute(shared, conventions)
        del shared  # freed while paused: the collection that follows the pause need not visit it
    return results


class _ScoredOne:
    """The ranking of a query without relevant documents under no_relevant=one: it scores 1."""

    def __repr__(self) -> str:
        return "SCORED_ONE"


SCORED_ONE = _ScoredOne()


def ranked_judgements(judged: dict, rk) -> dict:
    """relevant_count=ranked: the judgements of the documents the prepared ranking ``rk``
    holds (none when the query is not ranked)."""
    return {d: g for d, g in judged.items() if rk is not None and d in rk.keys}


def select_queries(qrels: dict, run: dict, settings: dict, stats: dict, has_relevant=None):
    """The averaged queries as (query, its judgements, its prepared ranking or None),
    None for a query absent from the run under missing=zero, SCORED_ONE for a query
    without relevant documents under no_relevant=one; the knobs queries,
    empty_judgments, no_relevant and missing decide (see the module docstring).
    ``has_relevant(judged)`` says whether a query has a relevant document (default: a
    grade >= threshold). Counts go into ``stats``."""
    if settings["empty_judgments"] == "absent" and not all(qrels.values()):
        qrels = {q: judged for q, judged in qrels.items() if judged}   # as a qrels file reads them
    stats.update(queries=0, missing=0, no_relevant=0, skipped=0)
    thr = int(settings["threshold"])
    ranked_only = settings.get("relevant_count") == "ranked"
    for q in _query_set(qrels, run, settings["queries"]):
        judged = qrels.get(q, {})
        if ranked_only:
            judged = ranked_judgements(judged, run.get(q))
        one = False
        if not (has_relevant(judged) if has_relevant else any(g >= thr for g in judged.values())):
            stats["no_relevant"] += 1
            rule = settings["no_relevant"]
            if rule == "skip":
                stats["skipped"] += 1
                continue
            if rule == "error":
                raise InputError(f"qrels[{q!r}]: the query has no relevant document (no_relevant=error)",
                                 item="qrels")
            one = rule == "one"
        rk = run.get(q)
        if rk is None:
            stats["missing"] += 1
            if settings["missing"] == "skip":
                stats["skipped"] += 1
                continue
        yield q, judged, SCORED_ONE if one else rk


def _evaluate(inputs, settings: dict, with_gains: bool):
    """Per-query profiles of the averaged queries (``select_queries``); a query absent
    from the run under missing=zero gets the profile of an empty ranking."""
    if type(inputs) is Checked:
        prec = settings.get("score_precision", "exact")
        qrels, run = inputs.checked(settings["duplicates"], prec)
        key = (settings["duplicates"], settings["threshold"], settings["ties"], with_gains, settings.get("gain"),
               settings.get("ideal"), settings.get("threshold_gains"), settings.get("negative"), prec,
               settings.get("relevant_count"))
        cache = inputs.profiles.setdefault(key, {})
    else:
        qrels, run = _check_inputs(inputs, settings["duplicates"], settings.get("score_precision", "exact"))
        cache = {}
    has_relevant = None
    if with_gains:
        rule = gain_rule(settings)

        def has_relevant(judged):
            return any(_whole_gain(g, rule) > 0 for g in set(judged.values()))
    gains = _gains_profiles(inputs, key) if type(inputs) is Checked and not with_gains \
        and settings.get("relevant_count") != "ranked" else None
    thr = int(settings["threshold"])
    out, stats = {}, {}
    for q, judged, rk in select_queries(qrels, run, settings, stats, has_relevant):
        if rk is SCORED_ONE:
            out[q] = SCORED_ONE
            continue
        if rk is None:
            out[q] = _profile(None, judged, settings, with_gains)
            continue
        p = cache.get(q)
        if p is None:
            shared = gains.get(q) if gains else None
            p = cache[q] = (_relevant_part(shared, judged, thr) if shared is not None
                            else _profile(rk, judged, settings, with_gains))
        out[q] = p
    stats["queries"] = len(out)
    return out, stats


def _gains_profiles(checked: Checked, key: tuple) -> dict | None:
    """Profiles already made for a gain measure (DCG, NDCG) of the same run, duplicates
    rule, threshold and tie rule, under which the rational measures' profiles are a part
    (``_relevant_part``); None when there are none. Only for the rules under which a
    document's rank (or its tie group) does not depend on which other documents are
    members: trec_eval, input-order and expected (optimistic and pessimistic place the
    members of a group by their gains)."""
    dup, thr, ties = key[:3]
    if ties not in ("trec_eval", "input-order", "expected"):
        return None
    for k, profiles in checked.profiles.items():
        if k[:4] == (dup, thr, ties, True) and k[-1] == key[-1]:   # the same score precision
            return profiles
    return None


def _relevant_part(p: _Profile, judged: dict, thr: int) -> _Profile:
    """The rational measures' profile of a query (members: the relevant documents, gain 0)
    from its gain profile: those members are among the gain profile's (every document
    graded at or above the threshold is one), each group keeps its rank and size and its
    relevant count, and the ranks are those of the relevant documents."""
    part = p.relevant_part(thr)
    if part is not None:
        return part
    zero = Fraction(0)
    groups = [(t, n, r, zero) for t, n, r, _ in p.groups if r]
    ranks = None if p.ranks is None else {d: t for d, t in p.ranks.items() if judged[d] >= thr}
    return _Profile(p.n, p.relevant, (), groups, ranks)


def _ranks_part(profiles: dict):
    return {q: dict(p.ranks) for q, p in profiles.items() if p is not SCORED_ONE and p.ranks is not None}


def _lazy_ranks(profiles: dict) -> Lazy:
    """``parts["ranks"]``, made when something reads it (a copy of every query's ranks: as
    long as the measure itself on a TREC-DL-sized run)."""
    return Lazy(Once(_ranks_part, profiles))


def _closed_forms(entries: dict) -> dict:
    """{query: its value in closed form} from {query: a rational, or ("dcg", form), or
    ("ndcg", form, ideal form, the ideal's closed form)}: the per-query closed forms of
    DCG and NDCG, made when something reads ``parts["per_query"]`` (the mean needs the
    forms summed per ideal class, not these)."""
    out = {}
    for q, v in entries.items():
        if type(v) is not tuple:
            out[q] = v
        elif v[0] == "dcg":
            out[q] = _form_expr(v[1])
        else:
            out[q] = _form_quotient(*v[1:])
    return out


def _rational_metric(per_query_fn):
    def compute(inputs, settings: dict) -> Result:
        profiles, stats = _evaluate(inputs, settings, with_gains=False)
        one = Fraction(1)
        per_query = {q: per_query_fn(p, settings) if p is not SCORED_ONE else one for q, p in profiles.items()}
        parts = {"per_query": per_query}
        if settings["ties"] != "expected":
            parts["ranks"] = _lazy_ranks(profiles)
        if not per_query:
            return Result(Undefined("no queries to average"), stats=stats, parts=parts)
        sum_ = _fraction_sum(list(per_query.values()))
        stats["sum"] = sum_
        return Result(sum_ / len(per_query), stats=stats, parts=parts)
    compute.__doc__ = per_query_fn.__doc__
    return compute


def compute_dcg(inputs, settings: dict) -> Result:
    """Mean DCG@K = (1/|Q|) sum_q sum_{i<=K} gain_i / log2(i+1), a closed form
    sum_b c_b log(2)/log(b) with the coefficients summed over all queries."""
    if settings["no_relevant"] == "one":
        raise ConventionError("dcg.no_relevant: one scores a query without relevant documents at the measure's "
                              "maximum, and DCG has none; write zero, skip or error")
    profiles, stats = _evaluate(inputs, settings, with_gains=True)
    acc: dict = {}
    per_query = {}
    for q, p in profiles.items():
        form = _dcg_form(p, _cut(settings["k"], p.n))
        _add_form(acc, form)
        per_query[q] = ("dcg", form)
    parts = {"per_query": Lazy(Once(_closed_forms, per_query))}
    if settings["ties"] != "expected":
        parts["ranks"] = _lazy_ranks(profiles)
    if not per_query:
        return Result(Undefined("no queries to average"), stats=stats, parts=parts)
    stats["sum"] = _form_expr(acc)
    value = _form_expr({b: c / len(per_query) for b, c in acc.items()})
    base = int(settings.get("log_base", "2"))
    if base != 2:
        # 1/log_B(i+1) = log2(B)/log2(i+1): every term, so the mean, times log2(B)
        scale = product([log(Fraction(base)), power(log(Fraction(2)), Fraction(-1))])
        parts["per_query"] = {q: product([scale, v]) for q, v in parts["per_query"].items()}
        value = product([scale, value])
    return Result(value, stats=stats, parts=parts)


def compute_ndcg(inputs, settings: dict) -> Result:
    """Mean NDCG@K = (1/|Q|) sum_q DCG_q@K / IDCG_q@K (0 when IDCG = 0); queries
    with the same ideal gain vector share one denominator: the value is
    sum_c (sum_{q in c} DCG_q) / (|Q| IDCG_c)."""
    profiles, stats = _evaluate(inputs, settings, with_gains=True)
    classes: dict = {}
    ideals: dict = {}  # {ideal gains within the cut: (their DCG form, its key)}
    per_query = {}
    ones = 0
    for q, p in profiles.items():
        if p is SCORED_ONE:
            per_query[q], ones = Fraction(1), ones + 1
            continue
        k = _cut(settings["k"], p.n)
        # without a cutoff the ideal ranking holds every positive gain (m_ndcg.c goes on past num_ret)
        top = p.ideal if settings["k"] == "none" else p.ideal[:k]
        known = ideals.get(top)
        if known is None:
            # the class of this ideal vector: its form's key is hashed once per vector (a
            # tuple of Fractions hashes slowly), two vectors of one form sharing the class
            ideal = _ideal_form(top, len(top))
            key = tuple(sorted(ideal.items()))
            entry = classes.get(key)
            if ideal and entry is None:
                if settings["negative"] == "ideal":
                    ideal_sign(ideal)   # a negative term: the ideal DCG is not 0 (or a clear error)
                classes[key] = entry = (_form_expr(ideal), {})
            known = ideals[top] = (ideal, entry)
        ideal, entry = known
        form = _dcg_form(p, k)
        if not ideal:
            per_query[q] = Fraction(0)
            continue
        coeffs = entry[1]   # the DCG forms' coefficients per base, summed at the end
        for b, c in form.items():
            coeffs.setdefault(b, []).append(c)
        per_query[q] = ("ndcg", form, ideal, entry[0])
    parts = {"per_query": Lazy(Once(_closed_forms, per_query))}
    if settings["ties"] != "expected":
        parts["ranks"] = _lazy_ranks(profiles)
    if not per_query:
        return Result(Undefined("no queries to average"), stats=stats, parts=parts)
    n = len(per_query)
    summed = {key: (den, {b: _fraction_sum(cs) for b, cs in num.items()}) for key, (den, num) in classes.items()}
    terms = [_form_quotient({b: c / n for b, c in num.items() if c}, dict(key), den)
             for key, (den, num) in sorted(summed.items(), key=lambda kv: kv[0])]
    if ones:
        terms.append(Fraction(ones, n))
    stats["ideal_classes"] = len(classes)
    return Result(total(terms) if terms else Fraction(0), stats=stats, parts=parts)


_INPUTS = {"qrels": "{query: {document: integer grade}}",
           "run": "{query: {document: score}} or {query: [[document, score], ...]}; scores are numbers "
                  "or exact numeric strings"}


def query_set_inert(knob: str, a: str, b: str, settings) -> str | None:
    """The knobs that another one makes irrelevant: under queries=run or both every averaged
    query is in the run, so ``missing`` cannot matter; under missing=skip the queries the run
    lacks are left out, so queries=qrels and queries=both average the same set; under
    relevant_count=ranked the ideal ranking of the judged documents is that of the retrieved
    ones (unless negative=ideal puts the retrieved zeros above the negatives); under
    threshold_gains=no a negative grade gives no gain."""
    if knob == "missing" and settings.get("queries") in ("run", "both", "equal"):
        return f"queries={settings['queries']}: every averaged query is in the run"
    if knob == "queries" and {a, b} == {"qrels", "both"} and settings.get("missing") == "skip" \
            and settings.get("no_relevant") != "error":
        # (no_relevant=error refuses a judged query without relevant documents before missing=skip
        # leaves it out: under queries=qrels such a query absent from the run is refused)
        return "missing=skip: the judged queries absent from the run are left out either way"
    if knob == "ideal" and settings.get("relevant_count") == "ranked" and settings.get("negative") != "ideal":
        return ("relevant_count=ranked: only the judgements of ranked documents count, so the judged documents "
                "are retrieved ones and both ideals hold the same positive gains")
    if knob == "empty_judgments" and settings.get("queries") == "run":
        return ("queries=run: a run query judged with {} and one absent from the qrels are both queries without "
                "judged documents")
    if knob == "negative" and settings.get("threshold_gains") == "no":
        return "threshold_gains=no: a negative grade is below every threshold and gives no gain either way"
    return None


def _metric(name, summary, fn, knobs):
    return Metric(name=name, family="ranking", summary=summary, knobs=tuple(knobs), inputs=_INPUTS, compute_fn=fn,
                  inert_fn=query_set_inert)


_hit.__doc__ = "hit@K = 1 if a relevant document is in the top K, else 0 (trec_eval success)."
_rr.__doc__ = "RR@K = 1/rank of the first relevant document within the top K, else 0 (trec_eval recip_rank)."
_precision.__doc__ = "P@K = H_K / K, or H_K / min(K, N) (trec_eval P)."
_recall.__doc__ = "R@K = H_K / R (trec_eval recall)."
_r_precision.__doc__ = "R-precision = H_R / R (trec_eval Rprec)."
_ap.__doc__ = "AP@K = (1/D) sum_{i<=K} rel_i H_i / i (trec_eval map, map_cut)."

HIT_RATE = _metric("hit_rate", "Fraction of queries with a relevant document in the top K",
                   _rational_metric(_hit), (_k("5"), TIES, RELEVANT_COUNT) + _COMMON)
RECIPROCAL_RANK = _metric("reciprocal_rank", "Mean reciprocal rank of the first relevant document (MRR)",
                          _rational_metric(_rr), (_k("none"), TIES, RELEVANT_COUNT) + _COMMON)
PRECISION_AT_K = _metric("precision_at_k", "Mean fraction of the top K that is relevant (P@K)",
                         _rational_metric(_precision), (_k("5"), TIES, PDEN, RELEVANT_COUNT) + _COMMON)
RECALL_AT_K = _metric("recall_at_k", "Mean fraction of the relevant documents found in the top K (R@K)",
                      _rational_metric(_recall), (_k("5"), TIES, RELEVANT_COUNT) + _COMMON)
AVERAGE_PRECISION = _metric("average_precision", "Mean average precision (MAP), optionally cut at K",
                            _rational_metric(_ap), (_k("none"), TIES, APDEN, RELEVANT_COUNT) + _COMMON)
R_PRECISION = _metric("r_precision", "Mean precision at rank R, R the number of relevant documents",
                      _rational_metric(_r_precision), (TIES, RELEVANT_COUNT) + _COMMON)
DCG = _metric("dcg", "Mean discounted cumulative gain, sum of gain / log2(rank + 1)",
              compute_dcg, (_k("none"), TIES, LOG_BASE) + _GAINS + _COMMON)
NDCG = _metric("ndcg", "Mean normalized DCG: DCG over the DCG of the ideal ranking",
               compute_ndcg, (_k("none"), TIES, IDEAL, RELEVANT_COUNT) + _GAINS + _COMMON)
