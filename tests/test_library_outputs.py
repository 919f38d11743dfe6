"""Regression snapshots of the pinned libraries' outputs on every golden input they can be
judged on (the setting each case runs at: units converted, knobs the library cannot set at
its own values): a new release that changes any output, by one bit, fails here."""
import pytest


@pytest.mark.parametrize("name", ["sacrebleu", "ranx"])
def test_library_outputs_on_the_golden_inputs(metric_outputs_regression, name):
    pytest.importorskip(name)
    from adapters import load_adapter
    from conformance.plugin import library_outputs
    a = load_adapter(name)
    outputs = library_outputs(a)
    golden = sum(1 for c in __import__("conformance.casefiles.cases", fromlist=["load_cases"]).load_cases()
                 if c.metric in a.metrics())
    assert len(outputs) >= 0.9 * golden, (len(outputs), golden)
    metric_outputs_regression(a, basename=f"outputs-{name}")
