"""ir_measures (terrierteam/ir_measures), the common front end of IR evaluation:
``ir_measures.calc_aggregate([measure], qrels, run)`` and ``iter_calc`` for the
per-query values, mapped onto the ranking metrics, once through its default
pipeline (``ir_measures.DefaultPipeline``, which picks the first installed
provider that supports the measure) and once per installed provider that
supports it (``ir_measures.<provider>``, here pytrec_eval and ranx), so that a
provider's difference from the others is judged on its own.

| metric | measure |
| --- | --- |
| ``hit_rate`` | ``Success(rel=l)@K`` |
| ``reciprocal_rank`` | ``RR(rel=l)`` |
| ``precision_at_k`` | ``P(rel=l)@K``; k=none: ``SetP(rel=l)`` |
| ``recall_at_k`` | ``R(rel=l)@K``; k=none: ``SetR(rel=l)`` |
| ``average_precision`` | ``AP(rel=l)``, ``AP(rel=l)@K`` |
| ``r_precision`` | ``Rprec(rel=l)`` |
| ``ndcg`` | ``nDCG``, ``nDCG@K`` |
| ``set_ap`` | ``SetAP(rel=l)`` |
| ``bpref`` | ``Bpref(rel=l)`` |
| ``num_relevant`` | ``NumRel(rel=l)`` |
| ``num_relevant_retrieved`` | ``NumRet(rel=l)`` |
| ``judged_at_k`` | ``Judged@K`` (the judged provider; default pipeline only) |
| ``set_f`` | ``SetF(rel=l, beta=x)`` |
| ``interpolated_precision`` | ``IPrec(rel=l)@r`` (trec_eval's eleven recall levels) |
| ``infap`` | ``infAP(rel=l)`` |
| ``num_queries``, ``num_retrieved`` | ``NumQ``, ``NumRet`` |
| ``rbp`` | ``RBP(rel=l, p=p)`` (the cwl_eval provider) |
| ``err`` | ``ERR@K`` (the gdeval provider: gdeval.pl, run by perl) |

Four adapters: ``ir_measures`` (the default pipeline, every measure above),
``ir_measures-pytrec_eval`` (the pytrec_eval provider's 16), ``ir_measures-cwl_eval`` (P@K,
RR, AP and RBP as C/W/L's rulers compute them: AP over the relevant documents ranked) and
``ir_measures-gdeval`` (nDCG@K with exponential gains and ERR@K, as gdeval.pl prints them, to
five decimals); ``ir_measures-ranx`` reports itself unavailable here (below). The last three
live in ``adapters.ir_measures_providers``.

``l`` is the ``threshold`` knob (trec_eval's -l, which ir_measures passes to
pytrec_eval as ``relevance_level`` and to ranx as the ``-l`` suffix). Qrels and run
are dicts ({query: {doc: grade}}, {query: {doc: score}}), scores as doubles.

Profiles. The pytrec_eval provider (ir_measures/providers/pytrec_eval_provider.py)
evaluates with trec_eval's definitions (``ties=trec_eval``, ``gain=linear``,
``ideal=judged``), and ``iter_calc`` yields a value for every judged query: a
query the run lacks gets 0 for every measure (``missing=zero``,
``queries=qrels``: ``Evaluator.iter_calc`` in providers/base.py yields
``measure.DEFAULT`` for every judged query the provider did not score), and a
run query without judgements is left out. The mean is ``calc_aggregate``'s (the measure's aggregator over those
per-query values). The ranx provider builds ranx ``Qrels``/``Run`` objects and
calls ``ranx.evaluate`` (ranx's conventions: ``ties=input-order`` below 16
documents, ``threshold_gains=no``), again over the judged queries. The default
pipeline is the pytrec_eval provider for every measure here but Judged@k (it is
first in ``DefaultPipeline``'s order and supports them), and the judged provider
for Judged@k, which sorts each ranking by score and then document id ascending
(judged_provider.py:36; a known failure against trec_eval's descending order).
"""
from __future__ import annotations

from fractions import Fraction
from typing import Mapping

from conformance.protocol import ANY, Adapter, LibraryOutput, Skip
from oracle.compare import Tolerance

from ._ranking_inputs import cut, float_run, int_qrels
from .pytrec_eval import SCORE_PRECISION_SOURCE as _SCORE_PRECISION_SOURCE, skip_all_negative_queries

_QUERY_CAPS = {"threshold": ANY, "duplicates": ANY}
_TREC_CAPS = dict(_QUERY_CAPS, score_precision=("float32",))   # the pytrec_eval provider: trec_eval's C floats
_TREC = {"ties": "trec_eval", "threshold": "1", "no_relevant": "zero", "missing": "zero", "duplicates": "error",
         "queries": "qrels", "empty_judgments": "query", "score_precision": "float32"}

_FLOAT64_SOURCE = ("ir_measures/util.py RunConverter: the run's scores are Python floats (ScoredDoc.score), "
                   "which cwl_eval sorts and gdeval_provider writes as text for perl to read as doubles")

# oracle metric -> (ir_measures measure name, takes rel=, the knob holding its parameter or None)
_MEASURES = {
    "hit_rate": ("Success", True, "k"),
    "reciprocal_rank": ("RR", True, None),
    "precision_at_k": ("P", True, "k"),
    "recall_at_k": ("R", True, "k"),
    "average_precision": ("AP", True, "k"),
    "r_precision": ("Rprec", True, None),
    "ndcg": ("nDCG", False, "k"),
    "set_ap": ("SetAP", True, None),
    "bpref": ("Bpref", True, None),
    "num_relevant": ("NumRel", True, None),
    "num_relevant_retrieved": ("NumRet", True, None),
    "judged_at_k": ("Judged", False, "k"),   # the judged provider (the default pipeline's choice)
    "set_f": ("SetF", True, None),
    "interpolated_precision": ("IPrec", True, "recall"),
    "infap": ("infAP", True, None),
    "num_queries": ("NumQ", False, None),
    "num_retrieved": ("NumRet", False, None),
    "rbp": ("RBP", True, None),              # the cwl_eval provider (the default pipeline's choice)
    "err": ("ERR", False, "k"),              # the gdeval provider (gdeval.pl, run by perl)
}
# oracle knob -> the measure's parameter, passed by name
_PARAMS = {"set_f": {"x": "beta"}, "rbp": {"p": "p"}}
_SET_FORM = {"P": "SetP", "R": "SetR"}   # the measure of the whole ranking (k=none)


_TREC_FURTHER = ("set_ap", "bpref", "num_relevant", "num_relevant_retrieved", "judged_at_k", "set_f",
                 "interpolated_precision", "infap", "num_queries", "num_retrieved", "rbp", "err")
_PYTHON_FLOATS = ("judged_at_k", "rbp", "err")   # providers that rank the scores as doubles, not C floats


def _iprec_point(value: str, settings) -> bool:
    """trec_eval's iprec_at_recall has the eleven levels 0, 0.1, ..., 1 (ir_measures names the
    measure f'iprec_at_recall_{recall:.2f}', pytrec_eval_provider.py:156)."""
    try:
        r = Fraction(value)
    except (ValueError, ZeroDivisionError):
        return False
    return 0 <= r <= 1 and (r * 10).denominator == 1


def _beta_ok(value: str, settings) -> bool:
    try:
        return Fraction(value) > 0
    except (ValueError, ZeroDivisionError):
        return False


def _persistence_ok(value: str, settings) -> bool:
    try:
        return 0 < Fraction(value) < 1
    except (ValueError, ZeroDivisionError):
        return False


def _profile(metric: str, base: dict) -> dict:
    from oracle.registry import get_metric
    from .pytrec_eval import _FURTHER_PROFILE
    names = {k.name for k in get_metric(metric).knobs}
    if metric in _TREC_FURTHER:   # trec_eval's own measures: their knobs at trec_eval's values
        base = dict(_FURTHER_PROFILE, missing=base["missing"], queries=base["queries"],
                    empty_judgments=base["empty_judgments"])
    extra = {"k": "5" if metric in ("hit_rate", "precision_at_k", "recall_at_k") else
             "10" if metric == "judged_at_k" else "none",
             "precision_denominator": "k", "ap_denominator": "relevant", "gain": "linear",
             "threshold_gains": "yes", "negative": "zero", "ideal": "judged"}
    out = {k: v for k, v in {**base, **extra}.items() if k in names}
    if metric == "judged_at_k":   # the judged provider ranks the scores as Python floats
        out.pop("score_precision", None)
    elif metric in _PYTHON_FLOATS:   # the cwl_eval and gdeval providers: doubles
        out["score_precision"] = "float64"
    if metric == "rbp":
        out.update(ties="input-order", empty_judgments="absent")
    if metric == "err":
        out.update(k="20", max_grade="4", empty_judgments="absent")
    return out


def _caps(metric: str, provider_caps: dict) -> dict:
    caps = dict(provider_caps)
    if metric == "judged_at_k":
        caps.pop("score_precision", None)
    elif metric in _PYTHON_FLOATS:
        caps["score_precision"] = ("float64",)
    if _MEASURES[metric][2] == "k":
        caps["k"] = ANY
    caps.update({"interpolated_precision": {"recall": _iprec_point}, "set_f": {"x": _beta_ok},
                 "rbp": {"p": _persistence_ok}}.get(metric, {}))
    return caps


# pytrec_eval computes in double as trec_eval does; calc_aggregate's mean adds the
# per-query values in its own order: relative 1e-12 covers it
_TOL = Tolerance(ulps=8, rel=Fraction(1, 10 ** 12))


class IRMeasures(Adapter):
    """ir_measures through its default pipeline."""
    name = "ir_measures"
    # the exceptions its own code refuses an input with: its readers and measures raise ValueError and TypeError
    refusals = {"*": ("ValueError", "TypeError")}
    library = "ir-measures"
    versions = ">=0.3,<0.5"
    import_name = "ir_measures"
    homepage = "https://ir-measur.es/"
    issues = "https://github.com/terrierteam/ir_measures/issues"
    provider: str | None = None      # None: ir_measures.DefaultPipeline
    capabilities = {m: _caps(m, _TREC_CAPS) for m in _MEASURES}
    profiles = {m: _profile(m, _TREC) for m in _MEASURES}
    # measures/base.py:117-130 MeanAgg(default=float('NaN')): a mean over no query is NaN, by design
    undefined = {"*": ("nan",)}
    profile_sources = {"*": {
        "undefined": "ir_measures/measures/base.py:117-130 MeanAgg.__init__(default=float('NaN')); result(): 'if "
                     "self.count == 0: return self.default' (the mean of no query is NaN)",
        "score_precision": _SCORE_PRECISION_SOURCE,
        "missing": "ir_measures/providers/base.py Evaluator.iter_calc: every judged query the provider did not "
                   "score is yielded with 'value=measure.DEFAULT' (0): a query absent from the run scores 0",
        "queries": "ir_measures/providers/pytrec_eval_provider.py: the values are those of the judged queries "
                   "(pytrec_eval skips a run query 'not found in relevance judgments')",
        "empty_judgments": "ir_measures/providers/base.py Evaluator.iter_calc yields every query of the qrels "
                           "(self.qrel_qids), one with an empty judgement dict too (pytrec_eval drops it, iter_calc "
                           "fills in measure.DEFAULT, 0): it is scored 0 and averaged",
    }}
    profile_sources["rbp"] = {"score_precision": _FLOAT64_SOURCE, "ties": (
        "ir_measures/util.py:229-233 RunConverter.as_sorted_namedtuple_iter, which the cwl_eval provider ranks "
        "by (providers/cwl_eval.py:143): sorted(items, key=lambda x: x.score, reverse=True), a stable sort, "
        "so equal scores keep the run's order"),
        "empty_judgments": "ir_measures/providers/cwl_eval.py:127-128: the provider's query ids are those of the "
                           "qrels rows (QrelsConverter(qrels).as_namedtuple_iter()), so a query whose judgement dict "
                           "is empty does not exist for it"}
    profile_sources["err"] = {
        "score_precision": _FLOAT64_SOURCE,
        "max_grade": "ir_measures/bin/gdeval.pl: my $MAX_JUDGMENT = 4 (a qrels grade above it is a format error)",
        "empty_judgments": "ir_measures/providers/gdeval_provider.py:47: the evaluator's query ids are those of "
                           "the qrels rows (set(q.query_id for q in qrels)), so a query whose judgement dict is "
                           "empty does not exist for it",
        "ties": "ir_measures/bin/gdeval.pl sub runOrder: by score descending, then docno descending "
                "('$docnoA lt $docnoB' returns 1), trec_eval's order"}
    # gdeval.pl prints ERR with printf '%.5f' (gdeval.pl:181): half a unit of the fifth decimal,
    # and the double ulps of pytrec_eval's values elsewhere
    tolerances = dict({m: _TOL for m in _MEASURES}, err=Tolerance(abs=Fraction(1, 200000), ulps=8))
    cannot_receive = {"invalid:duplicate-id": "a run is {query: {doc: score}}, a dict, which cannot list a "
                                              "document twice"}

    def options(self, metric: str, settings: Mapping[str, str]) -> dict:
        if metric not in _MEASURES:
            raise Skip(f"ir_measures adapter does not implement {metric}")
        name, rel, param = _MEASURES[metric]
        k = cut(settings) if param == "k" else float(Fraction(settings["recall"])) if param == "recall" else None
        if k is None and name in _SET_FORM:
            name = _SET_FORM[name]
        params = {p: float(Fraction(settings[knob])) for knob, p in _PARAMS.get(metric, {}).items()}
        return {"measure": name, "rel": int(settings["threshold"]) if rel else None, "cutoff": k, "params": params,
                "rounded": settings.get("score_precision") == "float64"}

    def _measure(self, options):
        import ir_measures
        m = getattr(ir_measures.measures, options["measure"])
        params = dict(options.get("params", {}))
        if options["rel"] is not None:
            params["rel"] = options["rel"]
        m = m(**params) if params else m
        return m @ options["cutoff"] if options["cutoff"] is not None else m

    def _provider(self):
        import ir_measures
        if self.provider is None:
            return ir_measures.DefaultPipeline
        p = ir_measures.providers.registry[self.provider]
        if not p.is_available():
            raise Skip(f"ir_measures provider {self.provider} is not available here")
        return p

    def call(self, metric: str, options: Mapping, inputs: Mapping) -> LibraryOutput:
        measure = self._measure(options)
        provider = self._provider()
        qrels, run = int_qrels(inputs), float_run(inputs, options.get("rounded", False))
        if options["measure"] == "nDCG":   # pytrec_eval computes it: the same hazard
            skip_all_negative_queries(qrels, run)
        if not self.provider_supports(provider, measure):
            raise Skip(f"ir_measures provider {self.provider or 'default'} does not support {measure}")
        # one evaluation: calc gives the aggregate and the per-query values together
        result = provider.calc([measure], qrels, run)
        per_query = {m.query_id: float(m.value) for m in result.per_query}
        value = result.aggregated.get(measure)
        return LibraryOutput(value=None if value is None else float(value), raw={"per_query": per_query})

    def call_bare(self, metric: str, inputs: Mapping) -> LibraryOutput:
        """The measure with no parameter but its cutoff (``nDCG@10``, ``RBP``, ``AP``: no
        ``rel=``, ``p=``...) through the provider's ``calc``, as ``ir_measures.calc_aggregate``
        does."""
        return self.call(metric, dict(self.options(metric, self.bare_profile(metric)), rel=None, params={}), inputs)

    def defect_classifiers(self) -> dict:
        return {"missing-query-zero-filled": _missing_query_counts,
                "judged-ties-docid-ascending": _judged_ties_differ,
                "judged-empty-ranking": _judged_empty_ranking,
                "gdeval-topic-not-digits": lambda m, s, i: m == "err" and _gdeval_refuses(m, s, i),
                "empty-ranking-nan": _empty_ranking_nan}

    def defect_models(self) -> dict:
        """The library's value: the oracle with the judged queries absent from the run left out
        of the sum (ir_measures gives them 0); Judged@k over the ranking the judged provider
        sorts."""
        return {"missing-query-zero-filled": _missing_query_model,
                "judged-ties-docid-ascending": _judged_model,
                "judged-empty-ranking": lambda metric, settings, inputs: _JUDGED_EMPTY_RAISES,
                "gdeval-topic-not-digits": lambda metric, settings, inputs: _GDEVAL_RAISES,
                "empty-ranking-nan": lambda metric, settings, inputs: float("nan")}

    @staticmethod
    def provider_supports(provider, measure) -> bool:
        try:
            return bool(provider.supports(measure))
        except Exception:
            return False


def _empty_ranking_nan(metric, settings, inputs) -> bool:
    """The pytrec_eval provider's interpolated precision of a run query with an empty ranking
    is trec_eval's 0.0/0.0 (m_iprec_at_recall.c:74; ``adapters.pytrec_eval``'s classifier of
    the same name), and the mean over the queries is NaN. A judged query the run lacks is
    not evaluated there (``iter_calc`` gives it 0). Applies as that classifier does, to the
    queries the run lists."""
    from .pytrec_eval import _empty_ranking_nan as trec
    return trec(metric, {**settings, "missing": "skip"}, inputs)


def _missing_query_counts(metric, settings, inputs) -> bool:
    """``Evaluator.iter_calc`` (ir_measures/providers/base.py) yields ``measure.DEFAULT`` (0)
    for every judged query the provider did not score: one absent from the run, and one whose
    judgement dict is empty (pytrec_eval drops it). For a mean that is the profile's
    ``missing=zero``; for a count it is not the count of what the query has: trec_eval -c
    (an empty ranking: ``missing=zero``, ``queries=qrels``) counts a missing query's
    relevant judgements (NumRel) and the query itself (NumQ), and a query kept with empty
    judgements (``empty_judgments=query``) its retrieved documents (NumRet) and itself (NumQ).
    Applies: num_relevant with a judged query the run lacks that has a judgement at or above
    the threshold; num_queries with a judged query the run lacks or whose judgements are
    empty; num_retrieved with a query of empty judgements that the run retrieves documents for."""
    if metric not in ("num_relevant", "num_queries", "num_retrieved"):
        return False
    thr = int(settings.get("threshold", "1"))
    run, qrels = inputs.get("run", {}), inputs.get("qrels", {})
    if metric == "num_relevant":
        return any(q not in run and any(int(g) >= thr for g in judged.values()) for q, judged in qrels.items())
    if metric == "num_queries":
        return any(q not in run or not judged for q, judged in qrels.items())
    return any(not judged and run.get(q) for q, judged in qrels.items())


def _judged_empty_ranking(metric, settings, inputs) -> bool:
    """The judged provider (ir_measures/providers/judged_provider.py:44-57) shortens the
    cutoff to the ranking's length and divides by it: a query with judgements whose
    ranking in the run is empty divides by zero."""
    if metric != "judged_at_k":
        return False
    run, qrels = inputs.get("run", {}), inputs.get("qrels", {})
    return any(judged and q in run and not run[q] for q, judged in qrels.items())


_JUDGED_EMPTY_RAISES = "raised ZeroDivisionError: division by zero"
_GDEVAL_RAISES = "raised CalledProcessError: gdeval.pl: format error (a query id that is not digits)"


def gdeval_topic(query: str) -> str:
    r"""The topic gdeval.pl reads from a query id: ``$topic =~ s/^.*\-//`` (gdeval.pl:38, 58),
    everything up to the last dash removed."""
    return query.rsplit("-", 1)[-1]


def _gdeval_refuses(metric, settings, inputs) -> bool:
    r"""gdeval.pl dies ('format error on line N', exit status 25) on a qrels or run line whose
    topic, after ``s/^.*\-//``, is not digits (gdeval.pl:39-42 and 59-61: ``$topic =~
    /^[0-9]+$/``), and ir_measures' gdeval provider lets the CalledProcessError of
    ``subprocess.check_output`` through (providers/gdeval_provider.py:59). Applies: err, and a
    query id of a qrels row or of the run (the provider writes every run line) whose topic is
    not digits (ndcg too, for the gdeval provider's adapter, where gdeval.pl computes nDCG@k)."""
    if metric not in ("err", "ndcg"):
        return False
    try:
        ids = [q for q, judged in inputs.get("qrels", {}).items() if judged] + list(inputs.get("run", {}))
        return any(not (gdeval_topic(q).isascii() and gdeval_topic(q).isdigit()) for q in ids)
    except (AttributeError, TypeError):
        return False


def _judged_order(inputs) -> dict:
    """Each ranking as the judged provider sorts it, ``sorted(run[q].items(), key=lambda x:
    (-x[1], x[0]))`` (ir_measures/providers/judged_provider.py:36): score descending, then
    document id ascending."""
    from ._ranking_inputs import exact_score
    out = {}
    for q, ranking in inputs.get("run", {}).items():
        pairs = list(ranking.items()) if isinstance(ranking, dict) else [tuple(p) for p in ranking]
        out[q] = [[d, v] for d, v in sorted(pairs, key=lambda p: (-exact_score(p[1]), p[0]))]
    return out


def _judged_model(metric, settings, inputs):
    from oracle.registry import compute
    return compute(metric, {**inputs, "run": _judged_order(inputs)}, {**settings, "ties": "input-order"}).value


def _judged_ties_differ(metric, settings, inputs) -> bool:
    """The judged provider breaks a tie of scores by document id ascending (its sort key
    ``(-x[1], x[0])``, judged_provider.py:36), trec_eval by document id descending
    (comp_sim_docno): the top k differ when a tie straddles the cutoff. Applies:
    judged_at_k under ties=trec_eval where the two orders give different values."""
    if metric != "judged_at_k" or settings.get("ties") != "trec_eval":
        return False
    from oracle.registry import compute
    try:
        return _judged_model(metric, settings, inputs) != compute(metric, inputs, settings).value
    except Exception:
        return False


def _missing_query_model(metric, settings, inputs):
    """The library's count: the oracle's over the judged queries the provider scores (in the
    run, with a judgement), the others adding ``measure.DEFAULT``, 0."""
    from oracle.registry import compute
    run = inputs.get("run", {})
    qrels = {q: j for q, j in inputs["qrels"].items() if q in run and j}
    if not qrels:
        return 0
    return compute(metric, {**inputs, "qrels": qrels}, settings).value


_PYTREC_MEASURES = tuple(m for m in _MEASURES if m not in _PYTHON_FLOATS)


class IRMeasuresPytrecEval(IRMeasures):
    """ir_measures through its pytrec_eval provider (``ir_measures.pytrec_eval``)."""
    name = "ir_measures-pytrec_eval"
    provider = "pytrec_eval"
    capabilities = {m: _caps(m, _TREC_CAPS) for m in _PYTREC_MEASURES}
    profiles = {m: _profile(m, _TREC) for m in _PYTREC_MEASURES}
    tolerances = {m: _TOL for m in _PYTREC_MEASURES}
