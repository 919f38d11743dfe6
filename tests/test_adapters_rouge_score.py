"""The rouge_score adapter: registry and profile, agreement with the oracle on generated
summaries where no two references tie on F, the settings it cannot take, the bare call,
and the recorded float-tie defect reproduced by the library and predicted by its model."""
from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings as hsettings

pytest.importorskip("rouge_score")

from adapters import BUILTIN, load_adapter  # noqa: E402
from adapters.rouge_score import float_tie_applies, float_tie_model  # noqa: E402
from conformance.protocol import Unsupported  # noqa: E402
from conformance.strategies.summaries import summaries  # noqa: E402
from oracle.registry import get_metric  # noqa: E402
from tests.adapter_helpers import known_file, run  # noqa: E402

METRICS = ("rouge_n", "rouge_l", "rouge_lsum")


@pytest.fixture(scope="module")
def a():
    return load_adapter("rouge_score")


def test_registry_names_the_adapter(a):
    assert BUILTIN["rouge_score"] == "adapters.rouge_score:RougeScore"
    assert a.available() == (True, "") and set(a.info().metrics) == set(METRICS)


def test_profile_is_a_valid_setting_with_sources(a):
    for m in METRICS:
        s = get_metric(m).settings(a.profiles[m])
        assert s["tokenizer"] == "rouge-score" and s["multi_reference"] == "best-f"
        assert "tokenize.py" in a.profile_source(m, "tokenizer")
        assert "score_multi" in a.profile_source(m, "multi_reference")


@pytest.mark.parametrize("metric", METRICS)
@pytest.mark.parametrize("measure", ["f", "recall", "precision"])
@given(inputs=summaries())
@hsettings(max_examples=40, deadline=None)
def test_agrees_with_the_oracle_on_generated_summaries(a, metric, measure, inputs):
    conventions = {"measure": measure}
    if float_tie_applies(metric, get_metric(metric).settings({**a.profiles[metric], **conventions}), inputs):
        return   # the recorded defect, checked below
    _, out, res = run(a, metric, conventions, inputs)
    assert abs(Fraction(out.value) - res.value) <= Fraction(1, 10 ** 12), (inputs, out.value, res.value)


def test_settings_it_cannot_take_are_unsupported(a):
    for metric, conventions in (("rouge_n", {"n": "10"}), ("rouge_n", {"tokenizer": "rouge-1.5.5"}),
                                ("rouge_l", {"multi_reference": "pooled"}), ("rouge_lsum", {"lcs_path": "left"}),
                                ("rouge_l", {"alpha": "1/10"})):
        assert isinstance(a.configure(metric, {**a.profiles[metric], **conventions}), Unsupported), conventions


def test_the_bare_call_is_the_profile_f_of_rouge1(a):
    x = {"hypotheses": ["the cat sat on the mat"], "references": [["the cat is on the mat"]]}
    assert abs(a.call_bare("rouge_n", x).value - 5 / 6) < 1e-15


def test_the_float_tie_defect_is_the_librarys_and_its_model_predicts_it(a):
    e = known_file("rouge_score")["entries"][0]
    s = get_metric(e["metric"]).settings({**a.profiles[e["metric"]], **e["conventions"]})
    _, out, res = run(a, e["metric"], e["conventions"], e["inputs"])
    assert res.value == Fraction(e["exact"]) == Fraction(3, 5)
    assert out.value == e["library_value"] == 1.0
    assert float_tie_applies(e["metric"], s, e["inputs"])
    assert float_tie_model(e["metric"], s, e["inputs"]) == out.value
    # the same segment scored for F: equal either way, so no defect there
    _, out_f, res_f = run(a, "rouge_n", {"measure": "f"}, e["inputs"])
    assert abs(Fraction(out_f.value) - res_f.value) <= Fraction(1, 10 ** 15)
