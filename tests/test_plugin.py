"""The pytest plugin: judging a user's function, and the regression fixture."""
import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _plugin_args():
    """-p conformance.plugin unless the installed entry point already loads it."""
    from importlib.metadata import entry_points
    installed = any(ep.value == "conformance.plugin" for ep in entry_points(group="pytest11"))
    return () if installed else ("-p", "conformance.plugin")


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_a_users_function_is_judged_through_the_plugin(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", _env()["PYTHONPATH"])
    pytester.makepyfile(test_placeholder="def test_placeholder():\n    assert True\n")
    result = pytester.runpytest_subprocess(
        *_plugin_args(), "--metric-adapter", "tests.inhouse_text:bleu2_without_clipping",
        "--metric-examples", "20", "-p", "no:cacheprovider")
    out = result.stdout.str()
    assert "bleu2-without-clipping::bleu::property::oracle-equal" in out
    assert "FAIL bleu2-without-clipping" in out and "reproduce:" in out
    outcomes = result.parseoutcomes()
    assert outcomes.get("failed", 0) >= 2 and outcomes.get("passed", 0) >= 2


def test_the_regression_fixture_catches_a_changed_output(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", _env()["PYTHONPATH"])
    pytester.makepyfile(test_outputs='''
import os
from conformance.functions import implementation

@implementation("exact_match", conventions={"normalization": "document"}, name="my-em")
def my_em(inputs):
    bump = float(os.environ.get("EM_BUMP", "0"))
    hits = sum(p.strip().rstrip(".,!?").lower() == g[0] for p, g in zip(inputs["predictions"], inputs["references"]))
    return hits / len(inputs["predictions"]) + bump

def test_outputs(metric_outputs_regression):
    metric_outputs_regression(my_em.adapter, metrics=["exact_match"])
''')
    args = (*_plugin_args(), "-p", "no:cacheprovider")
    first = pytester.runpytest_subprocess(*args)
    assert first.parseoutcomes().get("failed") == 1          # no recorded outputs yet: recorded now
    assert "File not found in data directory, created" in first.stdout.str()
    second = pytester.runpytest_subprocess(*args)
    assert second.parseoutcomes().get("passed") == 1         # same outputs
    monkeypatch.setenv("EM_BUMP", "0.25")                    # "a new version" changes its outputs
    third = pytester.runpytest_subprocess(*args)
    assert third.parseoutcomes().get("failed") == 1
    assert "outputs" in third.stdout.str()
