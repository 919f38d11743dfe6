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

my_em.adapter.version = lambda: os.environ.get("EM_VERSION", "1.0")

def test_outputs(metric_outputs_regression):
    metric_outputs_regression(my_em.adapter, metrics=["exact_match"])
''')
    args = (*_plugin_args(), "-p", "no:cacheprovider")
    first = pytester.runpytest_subprocess(*args)
    assert first.parseoutcomes().get("failed") == 1          # no recorded outputs yet: recorded now
    assert "File not found in data directory, created" in first.stdout.str()
    second = pytester.runpytest_subprocess(*args)
    assert second.parseoutcomes().get("passed") == 1         # same outputs
    monkeypatch.setenv("EM_VERSION", "2.0")                  # an upgrade that changes no output
    upgraded = pytester.runpytest_subprocess(*args)
    assert upgraded.parseoutcomes().get("passed") == 1
    monkeypatch.setenv("EM_BUMP", "0.25")                    # "a new version" changes its outputs
    third = pytester.runpytest_subprocess(*args)
    assert third.parseoutcomes().get("failed") == 1
    assert "outputs" in third.stdout.str()


def test_items_are_collected_like_any_others(pytester, monkeypatch):
    """The header counts the conformance items, -k selects among them and --lf reruns
    only the failed ones (they used to be added after collection: 'collected 0 items',
    and --lf reran everything)."""
    monkeypatch.setenv("PYTHONPATH", _env()["PYTHONPATH"])
    pytester.makepyfile(test_placeholder="def test_placeholder():\n    assert True\n")
    args = (*_plugin_args(), "--metric-adapter", "tests.inhouse_text:bleu2_without_clipping", "--metric-examples", "10")
    full = pytester.runpytest_subprocess(*args)
    out = full.stdout.str()
    total = sum(full.parseoutcomes().get(k, 0) for k in ("passed", "failed", "skipped", "xfailed", "xpassed"))
    import re
    collected = int(re.search(r"collected (\d+) items", out).group(1))
    assert collected == total and collected > 2
    failed = full.parseoutcomes()["failed"]
    only = pytester.runpytest_subprocess(*args, "-k", "property and oracle-equal")
    assert only.parseoutcomes().get("failed") == 1 and "deselected" in only.stdout.str()
    again = pytester.runpytest_subprocess(*args, "--lf")
    assert again.parseoutcomes().get("failed") == failed and not again.parseoutcomes().get("passed")


def test_the_known_failure_folder_option(pytester, monkeypatch, tmp_path):
    """--metric-known-dir reads the lists the CLI writes with --known-dir: the same baseline
    on both routes (the failing items become expected failures)."""
    monkeypatch.setenv("PYTHONPATH", _env()["PYTHONPATH"])
    from conformance.cli import main
    spec = "tests.inhouse_text:bleu2_without_clipping"
    known, report = tmp_path / "known", tmp_path / "base.jsonl"
    assert main(["run", "--adapter", spec, "--examples", "10", "--quiet", "--report", str(report)]) == 1
    assert main(["known", "--adapter", spec, "--report", str(report), "--known-dir", str(known), "--write"]) == 0
    pytester.makepyfile(test_placeholder="def test_placeholder():\n    assert True\n")
    args = (*_plugin_args(), "--metric-adapter", spec, "--metric-examples", "10", "-p", "no:cacheprovider")
    plain = pytester.runpytest_subprocess(*args).parseoutcomes()
    with_known = pytester.runpytest_subprocess(*args, "--metric-known-dir", str(known)).parseoutcomes()
    assert plain.get("failed", 0) >= 2 and not plain.get("xfailed")
    assert not with_known.get("failed") and with_known.get("xfailed", 0) >= plain["failed"]


def test_a_golden_item_also_judges_its_input_at_the_librarys_defaults(pytester, monkeypatch):
    monkeypatch.setenv("PYTHONPATH", _env()["PYTHONPATH"])
    pytester.makepyfile(test_placeholder="def test_placeholder():\n    assert True\n")
    xml = pytester.path / "report.xml"
    result = pytester.runpytest_subprocess(
        *_plugin_args(), "--metric-adapter", "tests.inhouse_text:bleu2_without_clipping",
        "--metric-examples", "5", "-p", "no:cacheprovider", "-k", "golden", f"--junitxml={xml}")
    out = result.stdout.str()
    assert "at defaults: at its defaults" in out   # a failing golden item's report ends with it
    import xml.etree.ElementTree as ET
    props = [p.get("value") for p in ET.parse(xml).iter("property") if p.get("name") == "at_defaults"]
    assert props and all(v.startswith("at its defaults") for v in props)
