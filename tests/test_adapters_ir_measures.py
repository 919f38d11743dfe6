"""The ir_measures adapters (adapters/ir_measures.py): the measure each oracle metric
maps to, the default pipeline agreeing with the pytrec_eval provider it picks, the
provider's zero for a judged query missing from the run (a known failure for NumRel),
and a provider that cannot run reported unavailable with its reason."""
from fractions import Fraction

import pytest

pytest.importorskip("ir_measures")

from adapters.ir_measures import IRMeasures, IRMeasuresPytrecEval  # noqa: E402
from adapters.ir_measures_providers import IRMeasuresCwlEval, IRMeasuresGdeval, IRMeasuresRanx  # noqa: E402
from oracle.registry import compute  # noqa: E402


@pytest.fixture(scope="module")
def a():
    return IRMeasures()


@pytest.mark.parametrize("metric, knobs, expected", [
    ("precision_at_k", {"k": "5", "threshold": "2"}, "P(rel=2)@5"),
    ("precision_at_k", {"k": "none"}, "SetP"),
    ("recall_at_k", {"k": "10"}, "R@10"),
    ("average_precision", {}, "AP"),
    ("average_precision", {"k": "10"}, "AP@10"),
    ("reciprocal_rank", {}, "RR"),
    ("hit_rate", {"k": "3"}, "Success@3"),
    ("ndcg", {"k": "10"}, "nDCG@10"),
    ("r_precision", {}, "Rprec"),
    ("num_relevant", {}, "NumRel"),
    ("num_relevant_retrieved", {"threshold": "2"}, "NumRet(rel=2)"),
    ("judged_at_k", {"k": "10"}, "Judged@10"),
    ("set_f", {"x": "1/2"}, "SetF(beta=0.5)"),
    ("interpolated_precision", {"recall": "1/2"}, "IPrec@0.5"),
    ("infap", {}, "infAP"),
    ("num_queries", {}, "NumQ"),
    ("num_retrieved", {}, "NumRet"),
    ("rbp", {"p": "1/2"}, "RBP(p=0.5,rel=1)"),
])
def test_measure_names(a, metric, knobs, expected):
    settings = {**a.profile(metric), **knobs}
    assert str(a._measure(a.options(metric, settings))) == expected


def test_default_pipeline_gives_the_pytrec_eval_providers_values(a):
    inputs = {"qrels": {"q1": {"a": 2, "b": 0, "c": 1}, "q2": {"x": 1}},
              "run": {"q1": {"a": 0.3, "b": 0.9, "c": 0.5, "d": 0.1}, "q2": {"y": 1.0, "x": 0.5}}}
    p = IRMeasuresPytrecEval()
    for metric in ("precision_at_k", "average_precision", "ndcg", "reciprocal_rank", "bpref"):
        settings = a.profile(metric)
        v1 = a.call(metric, a.options(metric, settings), inputs).value
        v2 = p.call(metric, p.options(metric, settings), inputs).value
        assert v1 == v2
        # and the oracle's value under the profile (trec_eval's definitions, -c)
        assert abs(float(compute(metric, inputs, settings).value) - v1) < 1e-12


def test_a_judged_query_missing_from_the_run_counts_zero_relevant(a):
    # q2 judges x relevant and is not in the run: trec_eval -c counts num_rel 1 + 1 = 2,
    # the provider's filled-in 0 gives 1 (known failure ir_measures-num_relevant-0002's rule)
    inputs = {"qrels": {"q1": {"a": 1}, "q2": {"x": 1}}, "run": {"q1": {"a": 1.0}}}
    settings = a.profile("num_relevant")
    assert compute("num_relevant", inputs, settings).value == 2
    assert a.call("num_relevant", a.options("num_relevant", settings), inputs).value == 1.0
    assert a.defect_classifiers()["missing-query-zero-filled"]("num_relevant", settings, inputs)
    assert a.defect_models()["missing-query-zero-filled"]("num_relevant", settings, inputs) == 1


def test_an_empty_judgement_dict_is_scored_zero_and_averaged(a):
    # profile empty_judgments=query: q1 has no judgement and counts 0 in the mean
    inputs = {"qrels": {"q1": {}, "q2": {"a": 1}}, "run": {"q1": {"a": 1.0}, "q2": {"a": 1.0}}}
    settings = a.profile("reciprocal_rank")
    assert a.call("reciprocal_rank", a.options("reciprocal_rank", settings), inputs).value == 0.5
    assert compute("reciprocal_rank", inputs, settings).value == pytest.approx(0.5)


def test_the_ranx_provider_is_available_or_says_why():
    ok, why = IRMeasuresRanx().available()
    assert ok or ("ranx" in why and why)


def test_judged_breaks_ties_by_document_id_ascending(a):
    # only p01 judged, eleven documents tied: trec_eval's order (docno descending) puts p01
    # last, out of the top 10 (0); the judged provider's (docno ascending) first (1/10)
    inputs = {"qrels": {"q1": {"p01": 1}}, "run": {"q1": {f"p{i:02d}": 3 for i in range(1, 12)}}}
    settings = a.profile("judged_at_k")
    assert compute("judged_at_k", inputs, settings).value == 0
    assert a.call("judged_at_k", a.options("judged_at_k", settings), inputs).value == pytest.approx(0.1)
    assert a.defect_models()["judged-ties-docid-ascending"]("judged_at_k", settings, inputs) * 10 == 1


def test_rbp_through_cwl_eval_by_hand(a):
    """RBP (Moffat and Zobel 2008, eq. 3), p = 1/2, through the default pipeline (cwl_eval):
    q1 ranks d2 (grade 0), d1 (grade 1), d4 (unjudged): RBP = (1 - p) p^1 = 1/4; q2 ranks
    its one relevant document first: 1/2; the mean is 3/8. Ties keep the run's order (the
    profile's ties=input-order): d5 and d6 tie for q3, d5 relevant and listed first, 1/2."""
    inputs = {"qrels": {"q1": {"d1": 1, "d2": 0}, "q2": {"x": 2}, "q3": {"d5": 1}},
              "run": {"q1": {"d2": 2.0, "d1": 1.0, "d4": 0.5}, "q2": {"x": 0.1}, "q3": {"d5": 1.0, "d6": 1.0}}}
    settings = {**a.profile("rbp"), "p": "1/2"}
    value = a.call("rbp", a.options("rbp", settings), inputs).value
    assert abs(value - (1 / 4 + 1 / 2 + 1 / 2) / 3) < 1e-12
    assert compute("rbp", inputs, settings).value == Fraction(5, 12)


def test_counts_of_queries_the_provider_does_not_score_are_zero(a):
    """NumQ and NumRet: a judged query absent from the run and a query with empty judgements
    are yielded with measure.DEFAULT (0) by Evaluator.iter_calc; trec_eval -c counts them
    (known failures ir_measures-num_queries-0002, ir_measures-num_retrieved-0002)."""
    inputs = {"qrels": {"q1": {"a": 1}, "q2": {"x": 1}, "q3": {}}, "run": {"q1": {"a": 1.0}, "q3": {"b": 1.0, "c": 0.5}}}
    nq, nr = a.profile("num_queries"), a.profile("num_retrieved")
    # by hand: three judged queries evaluated (q2 on an empty ranking): num_q 3; retrieved 1 + 0 + 2 = 3
    assert compute("num_queries", inputs, nq).value == 3
    assert compute("num_retrieved", inputs, nr).value == 3
    # the library: q1 alone is scored (q2 absent, q3 without judgements): 1 query, 1 document
    assert a.call("num_queries", a.options("num_queries", nq), inputs).value == 1.0
    assert a.call("num_retrieved", a.options("num_retrieved", nr), inputs).value == 1.0
    for metric, settings in (("num_queries", nq), ("num_retrieved", nr)):
        assert a.defect_classifiers()["missing-query-zero-filled"](metric, settings, inputs)
        assert a.defect_models()["missing-query-zero-filled"](metric, settings, inputs) == 1


def test_cwl_eval_ap_averages_over_the_relevant_documents_ranked():
    """C/W/L's AP (cwl/ruler/measures/cwl_ap.py: rels counts the ranking's own relevant items):
    q ranks a (relevant), x, b (relevant), y with c relevant and unranked. By hand: precisions at
    the relevant ranks 1/1 and 2/3; trec_eval's AP divides by R = 3: (1 + 2/3)/3 = 5/9; the
    profile's ap_denominator=retrieved-relevant divides by the 2 ranked: 5/6."""
    a = IRMeasuresCwlEval()
    inputs = {"qrels": {"1": {"a": 1, "b": 1, "c": 1}}, "run": {"1": {"a": 4.0, "x": 3.0, "b": 2.0, "y": 1.0}}}
    settings = a.profile("average_precision")
    assert settings["ap_denominator"] == "retrieved-relevant"
    assert abs(a.call("average_precision", a.options("average_precision", settings), inputs).value - 5 / 6) < 1e-12
    assert compute("average_precision", inputs, settings).value == Fraction(5, 6)
    assert compute("average_precision", inputs, {}).value == Fraction(5, 9)


def test_gdeval_prints_five_decimals_and_refuses_query_ids_that_are_not_digits():
    """nDCG@2 with exponential gains: query 7 ranks b (grade 1), a (grade 2). By hand: DCG =
    1/log2(2) + 3/log2(3), ideal 3/log2(2) + 1/log2(3): 0.80...; gdeval.pl prints '%.5f'."""
    import math
    import subprocess
    a = IRMeasuresGdeval()
    inputs = {"qrels": {"7": {"a": 2, "b": 1}}, "run": {"7": {"b": 2.0, "a": 1.0}}}
    settings = dict(a.profile("ndcg"), k="2")
    value = a.call("ndcg", a.options("ndcg", settings), inputs).value
    exact = (1 + 3 / math.log2(3)) / (3 + 1 / math.log2(3))
    assert value == round(exact, 5)
    assert abs(float(compute("ndcg", inputs, settings).value) - exact) < 1e-12
    with pytest.raises(subprocess.CalledProcessError):
        a.call("ndcg", a.options("ndcg", settings), {"qrels": {"q7": {"a": 2}}, "run": {"q7": {"a": 1.0}}})
    assert a.defect_classifiers()["gdeval-topic-not-digits"]("ndcg", settings, {"qrels": {"q7": {"a": 2}}, "run": {}})
    assert not a.defect_classifiers()["gdeval-topic-not-digits"]("ndcg", settings, inputs)
