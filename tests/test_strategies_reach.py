"""The property strategies reach every knob's effect: for each knob of each metric, the
generated inputs (under generated settings of the other knobs) include one on which two
of its values give different exact values. A knob whose effect the strategies never
reach could differ in a library without any property noticing."""
import pytest
from hypothesis import HealthCheck, Phase, find, settings as hsettings, strategies as st
from hypothesis.errors import NoSuchExample

from conformance.engine.divergence import differs as _differs, exact_value as _value
from conformance.explain import candidate_values
from conformance.engine.plans import plan_for
from oracle.conventions import ConventionError
from oracle.registry import get_metric, metric_names

CASES = [(m, k.name) for m in metric_names() if plan_for(m) for k in get_metric(m).knobs
         if len(set(candidate_values(k)) | {str(k.default)}) >= 2]

# knobs that cannot change this metric's value, by its definition
NO_EFFECT = {
    ("wer", "tie"): "WER counts S + D + I, the same for every minimum-cost alignment",
    ("cer", "tie"): "CER counts S + D + I, the same for every minimum-cost alignment",
    ("entity_precision", "beta"): "beta weighs recall against precision in F only",
    ("entity_recall", "beta"): "beta weighs recall against precision in F only",
}
# trec_eval's counts and set measures (oracle.ranking_trec): a sum or a set does not depend
# on the order, and a query that a knob adds or drops contributes 0 to the sum
_ORDER_FREE = ("num_retrieved", "num_relevant", "num_relevant_retrieved", "num_nonrelevant_judged_retrieved",
               "num_queries", "set_precision", "set_recall", "set_f", "set_ap", "set_relative_precision", "utility")
NO_EFFECT.update({(m, "ties"): "a count or a set measure: the order within the ranking does not enter"
                  for m in _ORDER_FREE})
NO_EFFECT.update({(m, "score_precision"): "a count or a set measure: only the order (which rounding can turn "
                  "into ties) depends on the scores, and it does not enter" for m in _ORDER_FREE})
NO_EFFECT.update({
    (m, "missing"): "a query absent from the run adds 0 to this sum, counted or not"
    for m in ("num_retrieved", "num_relevant_retrieved", "num_nonrelevant_judged_retrieved")})
NO_EFFECT.update({
    ("num_relevant", "no_relevant"): "a query without relevant documents adds R = 0 to the sum",
    ("num_relevant", "empty_judgments"): "a query with no judgement adds R = 0 to the sum",
    ("num_relevant_retrieved", "no_relevant"): "a query without relevant documents adds 0 to the sum",
    ("num_relevant_retrieved", "queries"): "a query without judgements, or absent from the run, adds 0",
    ("num_relevant_retrieved", "empty_judgments"): "a query with no judgement adds 0 to the sum",
    ("num_nonrelevant_judged_retrieved", "queries"): "a query without judgements, or absent from the run, adds 0",
    ("num_nonrelevant_judged_retrieved", "empty_judgments"): "a query with no judgement adds 0 to the sum",
})
NO_EFFECT.update({
    ("entity_recall", "no_weight"): "with no gold entity recall is the zero_division value under both rules",
})
# knobs whose effect needs a conjunction of other knobs' values (no_weight: average=weighted,
# and no weight at all - under outside=keep every true label outside the declared ones):
# rarer among the drawn settings, so more examples
RARE = {(m, "no_weight"): 3000 for m in ("precision", "recall", "f1", "classification_report",
                                         "entity_f1", "entity_precision", "entity_report")}
# the recall level of interpolated precision changes the value only where the query's
# precision-recall curve steps between the two levels drawn (several relevant documents
# retrieved at spread ranks): 300 examples found it in the full test run but not when this
# file runs alone (the cause of that difference is not known); 3000 find it either way
RARE[("interpolated_precision", "recall_cutoff")] = 3000
# top_k acts only on rows of class scores (the scores form, one draw in four where it fits) whose
# true class is below the top: reached at 300 examples in one full run, not in another
RARE.update({(m, "top_k"): 3000 for m in ("accuracy", "precision", "recall", "f1")})
# score_precision changes a value only where a score near 1 (strategies.ranking.NEAR_ONE, a few
# in a hundred scores) ties, once rounded, with a score of 1 and the tie moves a relevant document
# across the measure's cutoff
RARE.update({(m, "score_precision"): 3000 for m in (
    "hit_rate", "reciprocal_rank", "recall_at_k", "r_precision", "ndcg", "relative_precision_at_k",
    "precision_at_r_multiple", "err", "judged_at_k")})
# knobs whose effect the strategies do not reach yet (found by this test at 300 examples):
# skipped in the default run, run under HYPOTHESIS_PROFILE=metric-conformance-nightly (2000 examples), where
# they fail until the strategies reach them.
GAPS: dict = {(m, "score_precision"): "a near-1 score must tie, once rounded, with a 1 across the cutoff k (or "
              "the R-multiple, or the judged/unjudged boundary) of the measure: not drawn in 3000 examples"
              for m in ("hit_rate", "recall_at_k", "precision_at_r_multiple", "judged_at_k", "precision_at_k")}
# (precision_at_k: reached at 300 examples until relevant_count joined its knobs and moved the
# derandomized walk; not reached since, at 3000)
# reached at 3000 examples when this file runs alone, not in the full run (as for
# interpolated_precision above; the cause of that difference is not known)
GAPS[("reciprocal_rank", "score_precision")] = "reached alone at 3000 examples, not in the full run"


def _setting_and_inputs(metric: str, knob: str):
    m = get_metric(metric)
    others = {k.name: st.sampled_from(candidate_values(k) or [str(k.default)]) for k in m.knobs if k.name != knob}
    values = sorted(set(candidate_values(m.knob(knob))) | {str(m.knob(knob).default)})

    @st.composite
    def draw(d):
        chosen = d(st.fixed_dictionaries(others))
        try:
            base = m.settings(chosen)
        except ConventionError:
            base = m.settings({})
        # two different values of the knob
        a, b = d(st.permutations(values))[:2]
        try:
            sa, sb = m.settings({**base, knob: a}), m.settings({**base, knob: b})
        except ConventionError:
            sa = sb = base
        # the metric's inputs, or now and then another shape of them it takes (score rows,
        # sample weights, indicator rows: ``Plan.forms``), where a knob such as top_k acts
        plan = plan_for(metric)
        forms = [f for f, (fits, _) in plan.forms.items() if fits(sa) and fits(sb)]
        form = d(st.sampled_from([None, None, None] + forms)) if forms else None
        return sa, sb, d(plan.forms[form][1](sa) if form else plan.inputs(sa))
    return draw()


@pytest.mark.parametrize("metric,knob", CASES, ids=[f"{m}.{k}" for m, k in CASES])
def test_some_generated_input_separates_two_values_of_each_knob(metric, knob):
    import os
    if (metric, knob) in NO_EFFECT:
        pytest.skip(f"{metric}.{knob} cannot change the value: {NO_EFFECT[(metric, knob)]}")
    nightly = os.environ.get("HYPOTHESIS_PROFILE") == "metric-conformance-nightly"
    if (metric, knob) in GAPS and not nightly:
        pytest.skip(f"known gap of the strategies: {GAPS[(metric, knob)]} (runs under the metric-conformance-nightly profile)")
    # only the existence of a separating input matters: no shrinking (Phase.generate alone)
    hs = hsettings(max_examples=max(2000 if nightly else 300, RARE.get((metric, knob), 0)), derandomize=True,
                   database=None, deadline=None,
                   phases=[Phase.generate],
                   suppress_health_check=list(HealthCheck))

    def separates(t) -> bool:
        sa, sb, x = t
        if sa == sb:
            return False
        a, b = _value(metric, x, sa), _value(metric, x, sb)
        return not (isinstance(a, tuple) and isinstance(b, tuple)) and _differs(a, b)

    try:
        find(_setting_and_inputs(metric, knob), separates, settings=hs)
    except NoSuchExample:
        pytest.fail(f"no generated input separates two values of {metric}.{knob}")
