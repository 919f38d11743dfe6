"""The property strategies reach every knob's effect: for each knob of each metric, the
generated inputs (under generated settings of the other knobs) include one on which two
of its values give different exact values. A knob whose effect the strategies never
reach could differ in a library without any property noticing."""
import pytest
from hypothesis import HealthCheck, find, settings as hsettings, strategies as st
from hypothesis.errors import NoSuchExample

from conformance.divergence import _differs, _value
from conformance.explain import candidate_values
from conformance.plans import plan_for
from oracle.conventions import ConventionError
from oracle.registry import get_metric, metric_names

CASES = [(m, k.name) for m in metric_names() if plan_for(m) for k in get_metric(m).knobs
         if len(set(candidate_values(k)) | {str(k.default)}) >= 2]


def _setting_and_inputs(metric: str, knob: str):
    m = get_metric(metric)
    others = {k.name: st.sampled_from(candidate_values(k) or [str(k.default)]) for k in m.knobs if k.name != knob}
    values = st.sampled_from(candidate_values(m.knob(knob)))

    @st.composite
    def draw(d):
        chosen = d(st.fixed_dictionaries(others))
        try:
            base = m.settings(chosen)
        except ConventionError:
            base = m.settings({})
        a, b = d(values), d(values)
        try:
            sa, sb = m.settings({**base, knob: a}), m.settings({**base, knob: b})
        except ConventionError:
            sa = sb = base
        return sa, sb, d(plan_for(metric).inputs(sa))
    return draw()


@pytest.mark.parametrize("metric,knob", CASES, ids=[f"{m}.{k}" for m, k in CASES])
def test_some_generated_input_separates_two_values_of_each_knob(metric, knob):
    hs = hsettings(max_examples=300, derandomize=True, database=None, deadline=None,
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
