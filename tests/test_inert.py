"""A knob the definition makes irrelevant (``Metric.inert``) gives the same value at both of
its values: the divergence search skips such a knob, so a wrong claim would hide a
divergence. Checked on generated inputs, over every metric that makes such claims."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from conformance.engine.plans import plan_for
from oracle import ConventionError, InputError
from oracle.exact import Undefined
from oracle.registry import get_metric, metric_names

CLAIMING = [n for n in metric_names() if get_metric(n).inert_fn is not None]


def _value(m, inputs, s):
    try:
        v = m.compute(inputs, s).value
    except (InputError, ConventionError) as e:
        return ("refused", type(e).__name__)
    return ("undefined",) if isinstance(v, Undefined) else v


def test_the_claims_are_made_somewhere():
    assert {"num_retrieved", "num_relevant", "ndcg", "rbp", "f1", "precision", "recall"} <= set(CLAIMING)


@pytest.mark.parametrize("metric", CLAIMING)
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_an_inert_knob_gives_the_same_value_at_both_values(metric, data):
    m = get_metric(metric)
    enums = [k for k in m.knobs if k.choices and len(k.choices) > 1]
    base = {k.name: data.draw(st.sampled_from(k.choices), label=k.name) for k in enums}
    try:
        s = m.settings(base)
    except ConventionError:
        assume(False)
    inputs = data.draw(plan_for(metric).inputs(s), label="inputs")
    claims = 0
    for k in enums:
        for a, b in itertools.combinations(k.choices, 2):
            if not m.inert(k.name, a, b, s):
                continue
            claims += 1
            va = _value(m, inputs, m.settings({**base, k.name: a}))
            vb = _value(m, inputs, m.settings({**base, k.name: b}))
            assert va == vb, (metric, k.name, a, b, base)
    assume(claims > 0)   # an example without a claim tested nothing (too many of them: Unsatisfiable)
