"""The nervaluate adapter: registry and profile, agreement with the oracle on generated
inputs under every schema (nervaluate is the canonical tool of these schemas: the oracle's
rule is checked against it here), settings it cannot take, and the one divergence of its
profile (min_overlap 1/100) on the input that shows it."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings as hsettings

pytest.importorskip("nervaluate")

from adapters import BUILTIN, load_adapter  # noqa: E402
from conformance.protocol import Unsupported  # noqa: E402
from conformance.strategies.tagging import encode, tagging_inputs  # noqa: E402
from oracle.registry import get_metric  # noqa: E402
from tests.adapter_helpers import run  # noqa: E402

SCHEMAS = ("strict", "exact", "partial", "type")
METRICS = ("ner_schema_precision", "ner_schema_recall", "ner_schema_f1", "ner_schema_report")


@pytest.fixture(scope="module")
def a():
    return load_adapter("nervaluate")


def test_registry_names_the_adapter(a):
    assert BUILTIN["nervaluate"] == "adapters.nervaluate:NERvaluate"
    assert a.name == "nervaluate" and a.available() == (True, "")
    assert set(a.info().metrics) == set(METRICS)


def test_profile_is_a_valid_setting_with_sources(a):
    for m in METRICS:
        s = get_metric(m).settings(a.profiles[m])
        assert s["min_overlap"] == "1/100" and s["zero_division"] == "zero"
        assert "min_overlap_percentage" in a.profile_source(m, "min_overlap")


def _close(x, y):
    return abs(Fraction(x) - y) <= Fraction(1, 10 ** 12)


@pytest.mark.parametrize("schema", SCHEMAS)
@given(inputs=tagging_inputs(types=("PER", "LOC", "ORG")))
@hsettings(max_examples=60, deadline=None)
def test_agrees_with_the_oracle_on_generated_inputs(a, schema, inputs):
    _, out, res = run(a, "ner_schema_report", {"schema": schema}, inputs)
    assert set(out.value) == set(res.value)
    for row, fields in res.value.items():
        for k, v in fields.items():
            assert _close(out.value[row][k], v), (schema, row, k, out.value[row][k], v)


def test_worked_example_all_schemas(a):
    # gold PER[0,2) LOC[3,4), predicted PER[0,1) PER[3,4) (derivations in golden/topics/ner_schemas.json)
    inputs = {"gold": [["B-PER", "I-PER", "O", "B-LOC"]], "pred": [["B-PER", "O", "O", "B-PER"]]}
    expected = {"strict": 0.0, "exact": 0.5, "partial": 0.75, "type": 0.5}
    for schema, f1 in expected.items():
        _, out, res = run(a, "ner_schema_f1", {"schema": schema}, inputs)
        assert out.value == f1 and res.value == Fraction(f1)


@pytest.mark.parametrize("conventions", [{"zero_division": "one"}, {"min_overlap": "0"}, {"scheme": "iobes"},
                                         {"tag_format": "type-prefix"}, {"reading": "valid-only"}])
def test_settings_it_cannot_take_are_unsupported(a, conventions):
    m = get_metric("ner_schema_f1")
    cfg = a.configure("ner_schema_f1", m.settings({**a.profiles["ner_schema_f1"], **conventions}))
    assert isinstance(cfg, Unsupported)


def test_min_overlap_profile_differs_only_beyond_100_tokens(a):
    n = 101
    inputs = {"gold": [encode([(0, n, "PER")], n, "iob2")], "pred": [encode([(n - 1, n, "PER")], n, "iob2")]}
    _, out, res = run(a, "ner_schema_report", {"schema": "partial"}, inputs)
    assert out.value["overall"]["partial"] == 0 and res.value["overall"]["partial"] == 0   # both at 1/100
    canonical = get_metric("ner_schema_report").compute(inputs, {"schema": "partial"}).value
    assert canonical["overall"]["partial"] == 1


def test_no_sentences_is_skipped_not_misjudged(a):
    from conformance.protocol import Skip
    cfg = a.configure("ner_schema_f1", get_metric("ner_schema_f1").settings(a.profiles["ner_schema_f1"]))
    with pytest.raises(Skip):
        a.run(cfg, {"gold": [], "pred": []})
