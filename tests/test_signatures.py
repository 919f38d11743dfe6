"""Signatures: two settings that score some input differently never share a signature."""
import pytest
from hypothesis import assume, given, settings, strategies as st

from conformance.explain import candidate_values
from conformance.engine.plans import plan_for
from oracle.conventions import ConventionError, InputError
from oracle.certified import same_value
from oracle.registry import get_metric, metric_names


@st.composite
def setting(draw, metric):
    m = get_metric(metric)
    out = {}
    for k in m.knobs:
        vals = candidate_values(k)
        if vals and draw(st.booleans()):
            out[k.name] = draw(st.sampled_from(vals))
    try:
        return m.settings(out)
    except ConventionError:
        assume(False)


HEAVY = {"cider", "cider_d"}   # certified comparison of large closed forms: fewer examples


def _check_signatures(metric, data):
    m = get_metric(metric)
    plan = plan_for(metric)
    a = data.draw(setting(metric), label="setting a")
    b = data.draw(setting(metric), label="setting b")
    inputs = data.draw(plan.inputs(a), label="inputs")
    try:
        va = m.compute(inputs, a).value
        vb = m.compute(inputs, b).value
    except (InputError, ConventionError, ValueError):
        assume(False)
    if not same_value(va, vb, 30):
        assert m.signature(a) != m.signature(b)


@pytest.mark.parametrize("metric", [n for n in metric_names() if n not in HEAVY])
@given(data=st.data())
def test_different_values_have_different_signatures(metric, data):
    _check_signatures(metric, data)


@pytest.mark.parametrize("metric", sorted(HEAVY))
@settings(max_examples=15)
@given(data=st.data())
def test_different_values_have_different_signatures_heavy(metric, data):
    _check_signatures(metric, data)


@pytest.mark.parametrize("metric", metric_names())
def test_signature_names_every_knob_and_is_canonical(metric):
    m = get_metric(metric)
    sig = m.signature({})
    for k in m.knobs:
        assert f"|{k.sig_key}:" in sig
    assert m.signature(m.settings({})) == sig
