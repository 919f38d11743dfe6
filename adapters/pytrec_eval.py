"""pytrec_eval (pytrec-eval-terrier, the trec_eval 9 measures as Python bindings):
``RelevanceEvaluator(qrels, measures, relevance_level=...).evaluate(run)``.

| metric | trec_eval measure (per-query key) |
| --- | --- |
| ``hit_rate`` | ``success.K`` (``success_K``); k=none: ``success.N``, N the longest ranking |
| ``reciprocal_rank`` | ``recip_rank`` (no cutoff in trec_eval: k=none only) |
| ``precision_at_k`` | ``P.K`` (``P_K``); k=none: ``set_P`` |
| ``recall_at_k`` | ``recall.K`` (``recall_K``); k=none: ``set_recall`` |
| ``average_precision`` | ``map``; ``map_cut.K`` (``map_cut_K``) |
| ``r_precision`` | ``Rprec`` |
| ``ndcg`` | ``ndcg``; ``ndcg_cut.K`` (``ndcg_cut_K``) |
| trec_eval's further measures (``oracle.ranking_trec``) | ``num_ret``, ``num_rel``, ``num_rel_ret``, ``num_nonrel_judged_ret``, ``num_q`` (summed or counted), ``set_P``, ``set_recall``, ``set_F.x``, ``set_map``, ``set_relative_P``, ``relative_P.K``, ``Rprec_mult.x``, ``iprec_at_recall.x``, ``11pt_avg``, ``bpref``, ``infAP``, ``utility``, ``binG``, ``G``, ``Rndcg``, ``ndcg_rel``, ``gm_map`` and ``gm_bpref`` (per query trec_eval's log(max(v, 1e-5)); the summary exp of their mean, ``te_calc_avg_meas_s_gm``) |

``threshold`` is ``relevance_level`` (trec_eval -l). pytrec_eval returns one
dict of measures per query and no mean; the value here is the mean as
trec_eval's summary line computes it: the per-query values added in double,
in query-id order (strcmp order, which is Python's str order), by
``te_acc_meas_s`` (meas_acc.c), then divided by the number of evaluated
queries (``te_calc_avg_meas_s``, meas_avg.c; ``num_q_rels`` under -c). The
evaluated queries are those of the run that have judgments
(``RelevanceEvaluator_evaluate`` in src/pytrec_eval.cpp skips a run query
"not found in relevance judgments"): ``queries=both``. The per-query values
are returned as ``raw``.

Profile (trec_eval's definitions): ``ties=trec_eval`` (``comp_sim_docno`` in
form_res_rels.c re-sorts every ranking by score descending, then docno
descending), ``gain=linear`` with ``threshold_gains=yes`` (m_ndcg.c takes the
grade as gain whatever -l says), ``negative=zero`` (a negative grade is
RELVALUE_UNJUDGED), ``ideal=judged``, ``precision_denominator=k`` (m_P.c),
``ap_denominator=relevant`` (m_map.c, m_map_cut.c), ``no_relevant=zero`` (a
query whose judgments are all below the level scores 0 and is averaged),
``missing=skip`` with ``queries=both`` (pytrec_eval sets
``average_complete_flag = 0``: there is no -c).

Offered besides: ``missing=zero`` with ``queries=qrels``, trec_eval's -c: the
adapter gives the library an empty ranking ``{}`` for every judged query the
run lacks, which trec_eval evaluates to 0 for every measure, and divides by
the number of judged queries, as ``te_calc_avg_meas_s`` does under -c. (The
four combinations of ``queries`` in {qrels, both} and ``missing`` are offered:
``queries=both`` leaves no averaged query missing, and ``queries=qrels`` with
``missing=skip`` averages the intersection.) ``k`` is any cutoff (a
parameter of the measure), ``threshold`` any level. ``duplicates``: a dict
cannot repeat a document; a list-form ranking that does is skipped.

Scores are passed as doubles (``_ranking_inputs``), but trec_eval keeps a
score in ``TEXT_RESULTS.sim``, a C ``float`` (trec_format.h), and
``ResultRankingBuilder::ProcessQueryDocumentPair`` stores the double there:
distinct doubles that round to one float32 tie. That is trec_eval's declared
representation, so it is the profile's ``score_precision=float32`` (until
2026-12-04 it was recorded as a defect, ``float32-scores``); the run shows its
divergence from the exact scores with a minimal input.

With no evaluated query there is no mean and the adapter returns no value
(trec_eval's summary would print 0: ``te_calc_avg_meas_s`` skips the
division; pytrec_eval's own ``compute_aggregated_measure`` gives
``np.mean([])``, NaN).

A query whose judgments are all negative is skipped for ``ndcg``: form_res_rels.c
finds ``max_rel < 0``, so its loop over the levels ``0..max_rel`` never sets
``num_rel_levels`` and ``rel_levels`` is a zero-length reuse of the previous
buffer; m_ndcg.c builds the ideal ranking from those stale counts, which after
an earlier ``evaluate`` point to freed memory (seen: a loop that did not end
within minutes, depending on the heap). The value would be 0 either way (no
positive gain, DCG 0), so nothing is hidden but the hang.

Not recorded as a known failure because it depends on the process's history,
not on the input: ``te_form_res_rels`` caches its result under the last query
id (``static char *current_query = "no query"``, form_res_rels.c) and
``te_form_res_rels_cleanup``, called at the end of every ``evaluate``, resets
that id to ``"no_query"`` after freeing the cached lists. So the first query
of the first ``evaluate`` in a process, if it is called "no query", gets the
zeroed cache (every measure 0), and the first query of any later
``evaluate``, if it is called "no_query", gets the previous call's freed
cache (tests/test_adapters_ranking.py shows both in fresh processes).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, Adapter, Era, LibraryOutput, Skip
from oracle.compare import Tolerance

from ._ranking_inputs import cut, exact_score, float_run, int_qrels

_QUERY_CAPS = {"threshold": ANY, "duplicates": ANY, "queries": ("both", "qrels"), "missing": ("skip", "zero"),
               "score_precision": ("float32",)}
_PROFILE = {"ties": "trec_eval", "threshold": "1", "no_relevant": "zero", "missing": "skip",
            "duplicates": "error", "queries": "both", "empty_judgments": "absent", "score_precision": "float32"}
# trec_eval holds every score in a C float (trec_format.h: 'typedef struct { char *docno; float sim; }
# TEXT_RESULTS'), pytrec_eval's copy of it too: two scores one float32 holds alike tie
SCORE_PRECISION_SOURCE = ("trec_eval 9 trec_format.h TEXT_RESULTS: 'float sim; /* score */' (the run's scores are "
                          "held as C floats, so scores one float32 holds alike tie and go to comp_sim_docno)")


def _decimal(q: str) -> str | None:
    """A rational setting as the decimal text trec_eval parses (atof), or None when it has none."""
    from decimal import Decimal
    f = Fraction(q)
    d = f.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    return None if d != 1 else format(Decimal(f.numerator) / Decimal(f.denominator), "f")


# trec_eval's further measures: oracle metric -> (trec_eval measure, the knob carrying its
# parameter or None, the summary: mean, sum, count or geometric)
_FURTHER = {
    "num_retrieved": ("num_ret", None, "sum"), "num_relevant": ("num_rel", None, "sum"),
    "num_relevant_retrieved": ("num_rel_ret", None, "sum"),
    "num_nonrelevant_judged_retrieved": ("num_nonrel_judged_ret", None, "sum"),
    "num_queries": ("num_q", None, "count"),
    "set_precision": ("set_P", None, "mean"), "set_recall": ("set_recall", None, "mean"),
    "set_f": ("set_F", "x", "mean"), "set_ap": ("set_map", None, "mean"),
    "set_relative_precision": ("set_relative_P", None, "mean"),
    "relative_precision_at_k": ("relative_P", "k", "mean"),
    "precision_at_r_multiple": ("Rprec_mult", "multiple", "mean"),
    "interpolated_precision": ("iprec_at_recall", "recall", "mean"),
    "eleven_point_ap": ("11pt_avg", None, "mean"), "bpref": ("bpref", None, "mean"),
    "infap": ("infAP", None, "mean"), "utility": ("utility", None, "mean"), "bin_g": ("binG", None, "mean"),
    "g": ("G", None, "mean"), "rndcg": ("Rndcg", None, "mean"), "ndcg_rel": ("ndcg_rel", None, "mean"),
    "gm_ap": ("gm_map", None, "geometric"), "gm_bpref": ("gm_bpref", None, "geometric"),
}
_GAIN_MEASURES = ("ndcg", "ndcg_cut", "G", "Rndcg", "ndcg_rel")   # setup_gains reads rel_levels


def _decimal_ok(v, s) -> bool:
    return _decimal(v) is not None


_FURTHER_CAPS = {"x": _decimal_ok, "k": ANY, "multiple": _decimal_ok, "recall": _decimal_ok}
_FURTHER_PROFILE = dict(_PROFILE, no_relevant="evaluate", recall_cutoff="v9", coefficients="1,-1,0,0",
                        collection_size="0", x="1", k="5", multiple="1", recall="0")


def _further_knobs(metric: str) -> set:
    from oracle.registry import get_metric
    return {k.name for k in get_metric(metric).knobs}

# trec_eval computes in double: a ratio of counts (one rounding), AP a running sum of
# precisions over the relevant documents, NDCG sums of gain / log2(rank + 1) with the
# C library's log (within an ULP) and one division; the mean a sequential sum over the
# queries and one division. Relative 1e-12 covers thousands of roundings of 2**-53.
_TOL = Tolerance(ulps=8, rel=Fraction(1, 10 ** 12))

class PyTrecEval(Adapter):
    name = "pytrec_eval"
    # the exceptions its own code refuses an input with: the extension's argument parsing raises TypeError and ValueError
    refusals = {"*": ("ValueError", "TypeError")}
    library = "pytrec-eval-terrier"
    # the terrier fork (the maintained one; the original pytrec_eval 0.5 does not build on
    # Python 3.11); 0.5.1-0.5.4 have no wheel for 3.11 either
    versions = ">=0.5.1,<0.6"
    matrix_versions = ("0.5.5", "0.5.11")
    # before 0.5.8 a query whose judgement dict is empty is evaluated (every measure 0);
    # 0.5.8 drops it (the fix of pytrec_eval issue 57, __init__.py:125-126)
    eras = (Era("<0.5.8", {"*": {"empty_judgments": "query"}}, {
        "empty_judgments": "pytrec-eval-terrier before 0.5.8 passes a query with an empty judgement dict to "
                           "trec_eval, which scores it 0 (releases 0.5.7 and 0.5.8 compared here: "
                           "RelevanceEvaluator({'q1': {}, 'q2': {'d': 1}}, {'P_5'}) evaluates q1 in 0.5.7, drops "
                           "it in 0.5.8; the fix cites https://github.com/cvangysel/pytrec_eval/issues/57)"}),)
    import_name = "pytrec_eval"
    homepage = "https://github.com/terrierteam/pytrec_eval"
    issues = "https://github.com/terrierteam/pytrec_eval/issues"
    capabilities = {
        "hit_rate": dict(_QUERY_CAPS, k=ANY),
        "reciprocal_rank": dict(_QUERY_CAPS),
        "precision_at_k": dict(_QUERY_CAPS, k=ANY),
        "recall_at_k": dict(_QUERY_CAPS, k=ANY),
        "average_precision": dict(_QUERY_CAPS, k=ANY),
        "r_precision": dict(_QUERY_CAPS),
        "ndcg": dict(_QUERY_CAPS, k=ANY),
        **{m: dict(_QUERY_CAPS, **({param: _FURTHER_CAPS[param]} if param else {}))
           for m, (_, param, _) in _FURTHER.items()},
    }
    profiles = {
        "hit_rate": dict(_PROFILE, k="5"),
        "reciprocal_rank": dict(_PROFILE, k="none"),
        "precision_at_k": dict(_PROFILE, k="5", precision_denominator="k"),
        "recall_at_k": dict(_PROFILE, k="5"),
        "average_precision": dict(_PROFILE, k="none", ap_denominator="relevant"),
        "r_precision": dict(_PROFILE),
        "ndcg": dict(_PROFILE, k="none", gain="linear", threshold_gains="yes", negative="zero",
                     ideal="judged"),
        **{m: {k: v for k, v in _FURTHER_PROFILE.items() if k in _further_knobs(m)} for m in _FURTHER},
    }
    # no evaluated query: pytrec_eval gives no per-query value, and the adapter no mean (module docstring)
    undefined = {"*": ("none",)}
    profile_sources = {"*": {
        "undefined": "RelevanceEvaluator.evaluate returns a dict without the query (no evaluated query gives "
                     "{}): there is no value to average, which the adapter returns as None",
        "score_precision": SCORE_PRECISION_SOURCE,
        "missing": "trec_eval (which pytrec_eval embeds) without -c: 'Average over the complete set of queries in "
                   "the relevance judgements instead of the queries in the intersection ... Default is off' "
                   "(trec_eval.c:45-50); pytrec_eval.cpp:374 average_complete_flag = 0",
        "queries": "pytrec_eval.cpp:632-634 '// Query not found in relevance judgments; skipping.'; trec_eval's "
                   "default evaluates the intersection of judged and retrieved queries (trec_eval.c:45-47)",
        "empty_judgments": "pytrec_eval/__init__.py:125-126 RelevanceEvaluator.__init__ '# fixes "
                           "https://github.com/cvangysel/pytrec_eval/issues/57' query_relevance = {query_id: qrels "
                           "for ... if len(qrels) > 0}: a query with an empty judgement dict is dropped, as a "
                           "trec_eval qrels file (get_qrels.c: queries made from judgement lines) cannot hold one",
    }}
    tolerances = {m: _TOL for m in capabilities}

    # properties whose inputs the library's types cannot hold: its rankings are dicts
    cannot_receive = {"invalid:duplicate-id": "a run is {query: {doc: score}}, a dict, which cannot list a "
                                              "document twice (the adapter skips a list-form ranking that does)"}

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        k = cut(settings)
        if metric == "hit_rate":
            measure = ("success", k)          # k=None: the longest ranking, set per call
        elif metric == "reciprocal_rank":
            measure = ("recip_rank", None)
        elif metric == "precision_at_k":
            measure = ("P", k) if k is not None else ("set_P", None)
        elif metric == "recall_at_k":
            measure = ("recall", k) if k is not None else ("set_recall", None)
        elif metric == "average_precision":
            measure = ("map_cut", k) if k is not None else ("map", None)
        elif metric == "r_precision":
            measure = ("Rprec", None)
        elif metric == "ndcg":
            measure = ("ndcg_cut", k) if k is not None else ("ndcg", None)
        elif metric in _FURTHER:
            base, param, summary = _FURTHER[metric]
            value = None if param is None else (settings[param] if param == "k" else _decimal(settings[param]))
            complete = settings["queries"] == "qrels" and settings["missing"] == "zero"
            return {"measure": (base, value), "relevance_level": int(settings["threshold"]), "complete": complete,
                    "summary": summary}
        else:
            raise Skip(f"pytrec_eval adapter does not implement {metric}")
        complete = settings["queries"] == "qrels" and settings["missing"] == "zero"
        return {"measure": measure, "relevance_level": int(settings["threshold"]), "complete": complete}

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        per_query, n = self.per_query(options, inputs)
        summary = options.get("summary", "mean")
        if summary == "count":
            return LibraryOutput(value=float(n), raw={"per_query": per_query})
        acc = 0.0
        for q in sorted(per_query):
            acc += per_query[q]
        if summary == "sum":   # te_calc_avg_meas_empty: the accumulated sum
            return LibraryOutput(value=acc, raw={"per_query": per_query})
        if n == 0:
            return LibraryOutput(value=None, raw={"per_query": per_query})
        if summary == "geometric":   # te_calc_avg_meas_s_gm: exp of the mean of the per-query logs
            import math
            return LibraryOutput(value=math.exp(acc / n), raw={"per_query": per_query})
        return LibraryOutput(value=acc / n, raw={"per_query": per_query})

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """``RelevanceEvaluator(qrels, {measure}).evaluate(run)`` with no relevance_level and
        no query added to the run, averaged as the adapter averages (pytrec_eval returns
        per-query values only); the measure's name and parameter are the profile's."""
        options = dict(self.options(metric, self.bare_profile(metric)), relevance_level=None, complete=False)
        return self.call(metric, options, inputs)

    def per_query(self, options: Mapping, inputs: Mapping) -> tuple[dict, int]:
        """({query: value} as pytrec_eval returns them, the divisor of the mean)."""
        import pytrec_eval

        qrels, run = int_qrels(inputs), float_run(inputs)
        base, k = options["measure"]
        if base == "success" and k is None:
            k = max([1] + [len(r) for r in run.values()])
        measure = base if k is None else f"{base}.{k}"
        key = base if k is None or base == "set_F" else f"{base}_{k}"
        if options["complete"]:
            for q in qrels:
                if q not in run:
                    run[q] = {}
        if base in _GAIN_MEASURES:
            skip_all_negative_queries(qrels, run)
        level = {} if options["relevance_level"] is None else {"relevance_level": options["relevance_level"]}
        ev = pytrec_eval.RelevanceEvaluator(qrels, {measure}, **level)
        out = ev.evaluate(run)
        if base in ("Rprec_mult", "iprec_at_recall"):   # the key prints the parameter as %.2f
            per_query = {q: float(next(v for name, v in m.items() if name.startswith(base + "_")))
                         for q, m in out.items()}
        else:
            per_query = {q: float(m[key]) for q, m in out.items()}
        # under -c every judged query is in the run now: the evaluated queries are all of them
        return per_query, len(per_query)

    # ------------------------------------------------------------ known failures

    def defect_classifiers(self) -> dict:
        return {
            "empty-judgments-zero-success": self._empty_judgments_zero_success,
            "empty-ranking-nan": _empty_ranking_nan,
            "rndcg-last-point": _rndcg_last_point,
        }

    def _empty_judgments_zero_success(self, metric, settings, inputs) -> bool:
        """Before 0.5.8, with a query whose judgement dict is empty, success@k of the other
        queries comes back 0 (0.5.7: success_5 of a query ranking its relevant document first is
        0; P_5, recip_rank, map and ndcg of that query are right). Seen on releases 0.5.5-0.5.7;
        0.5.8 drops the empty query. No model: recorded on its input. Applies: before 0.5.8,
        hit_rate, an empty-judged query and another judged one."""
        if metric != "hit_rate" or not self.in_versions("<0.5.8"):
            return False
        qrels = inputs.get("qrels", {})
        return any(not j for j in qrels.values()) and any(j for j in qrels.values())

    def defect_models(self) -> dict:
        """The library's value each defect predicts. (Dropping a query with an empty judgement dict was modelled here as a defect; it is
        the deliberate fix of pytrec_eval issue 57, now the profile's empty_judgments=absent.)"""
        return {"empty-ranking-nan": lambda metric, settings, inputs: "no value",
                "rndcg-last-point": _rndcg_last_point_model}


def skip_all_negative_queries(qrels: dict, run: dict) -> None:
    """Skip an input where a judged query of the run has only negative judgements, for the
    gain measures (the module docstring: trec_eval then reads freed memory)."""
    for q, judged in qrels.items():
        grades = [g for g in judged.values() if type(g) is int]
        if grades and len(grades) == len(judged) and q in run and max(grades) < 0:
            raise Skip(f"qrels[{q!r}]: every judgment is negative; trec_eval's te_form_res_rels then "
                       "leaves num_rel_levels and rel_levels from an earlier query (its loop over the "
                       "levels 0..max_rel never runs), and m_ndcg.c reads them: after an earlier "
                       "evaluate() freed them, this reads freed memory and can loop for minutes")


def _rndcg_short(judged: dict, ranking) -> bool:
    """N is one more than the qrels' documents of positive grade (and there is one)."""
    positive = sum(1 for g in judged.values() if isinstance(g, int) and g > 0)
    return positive > 0 and len(ranking) == positive + 1


def _rndcg_last_point(metric, settings, inputs) -> bool:
    """m_Rndcg.c leaves its first loop at i = num_ret when the ideal gain falls to 0 at the
    last rank (i = N - 1), so ``if (i < res_rels.num_ret)`` fails and the final point at N
    (DCG@N / IDCG) is never added to the mean. Applies to rndcg when some evaluated query
    has N = (positive grades) + 1."""
    if metric != "rndcg":
        return False
    qrels = inputs.get("qrels", {})
    return any(_rndcg_short(qrels.get(q, {}), r) for q, r in inputs.get("run", {}).items() if qrels.get(q))


def _rndcg_last_point_model(metric, settings, inputs):
    """The oracle with each such query's last document (in trec_eval's order) left out: the
    cutoffs are the same and the missing point is the one at N."""
    from oracle.registry import compute
    qrels = inputs["qrels"]
    run = {}
    for q, ranking in inputs["run"].items():
        pairs = dict(ranking) if not isinstance(ranking, dict) else ranking
        if qrels.get(q) and _rndcg_short(qrels[q], pairs):
            last = sorted(pairs, key=lambda d: (exact_score(pairs[d]), d))[0]
            pairs = {d: v for d, v in pairs.items() if d != last}
        run[q] = pairs
    return compute(metric, {**inputs, "run": run}, settings).value


def _empty_ranking_nan(metric, settings, inputs) -> bool:
    """Interpolated precision of a query that trec_eval evaluates with no retrieved document
    is 0.0/0.0 (m_iprec_at_recall.c:74, m_11pt_avg.c:83) and reaches the value when a recall
    level's cutoff is 0: always for 11pt_avg (level 0.0), and for iprec_at_recall when
    (long)(x R + 0.9) = 0. Such a query: judged (an empty judgement dict is dropped) and
    given an empty ranking, or (under -c, which the adapter emulates with {}) absent from
    the run. Applies to interpolated_precision and eleven_point_ap."""
    if metric not in ("interpolated_precision", "eleven_point_ap"):
        return False
    qrels, run = inputs.get("qrels", {}), inputs.get("run", {})
    complete = settings.get("queries") == "qrels" and settings.get("missing") == "zero"
    thr = int(settings.get("threshold", "1"))
    for q, judged in qrels.items():
        if not judged or (q not in run and not complete) or (q in run and len(run[q]) > 0):
            continue
        if metric == "eleven_point_ap":
            return True
        r = sum(1 for g in judged.values() if isinstance(g, int) and g >= thr)
        if int(float(Fraction(settings.get("recall", "0"))) * r + 0.9) == 0:
            return True
    return False
