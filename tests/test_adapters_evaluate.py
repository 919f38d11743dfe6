"""The Hugging Face evaluate adapter's plumbing. Its metric modules come from the Hub, which
CI cannot reach: without a module directory the adapter reports itself unavailable, naming the
reason; with ``METRIC_CONFORMANCE_EVALUATE_MODULES`` pointing at tests/data/evaluate_modules
(an ``accuracy`` and a ``wer`` module written for these tests after evaluate's module API,
deliberately naive: plain division, ``str.split``) the run loads them with ``evaluate.load``,
judges them like any library, and finds what such a module gets wrong."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("evaluate")

from adapters.hf_evaluate import ENV_DIR, ENV_HUB, HFEvaluate  # noqa: E402

MODULES = Path(__file__).resolve().parent / "data" / "evaluate_modules"


def test_without_modules_the_adapter_is_unavailable_and_says_why(monkeypatch):
    monkeypatch.delenv(ENV_DIR, raising=False)
    monkeypatch.delenv(ENV_HUB, raising=False)
    ok, why = HFEvaluate().available()
    assert not ok and "Hugging Face Hub" in why and ENV_DIR in why


def test_a_module_directory_that_is_not_a_directory_is_named(monkeypatch, tmp_path):
    monkeypatch.setenv(ENV_DIR, str(tmp_path / "nowhere"))
    ok, why = HFEvaluate().available()
    assert not ok and "nowhere" in why and "not a directory" in why


def test_local_modules_are_loaded_and_only_their_metrics_served(monkeypatch):
    monkeypatch.setenv(ENV_DIR, str(MODULES))
    a = HFEvaluate()
    assert a.available() == (True, "")
    assert set(a.capabilities) == {"accuracy", "wer"}


def test_the_run_judges_local_modules(tmp_path):
    report = tmp_path / "r.jsonl"
    env = dict(os.environ, **{ENV_DIR: str(MODULES)})
    proc = subprocess.run([sys.executable, "-m", "conformance", "run", "--adapter", "evaluate", "--examples", "20",
                           "--report", str(report), "--quiet"], env=env, capture_output=True, text=True, timeout=600)
    lines = [json.loads(line) for line in report.read_text().splitlines()]
    assert lines[0]["format"] == "metric-conformance-report" and lines[0]["adapters"][0]["metrics"] == ["accuracy", "wer"]
    records = [r for r in lines[1:] if "metric" in r]
    assert proc.returncode == 1, proc.stderr[-2000:]     # the naive modules fail: the run says so
    by = {}
    for r in records:
        by.setdefault((r["metric"], r["kind"]), []).append(r)
    # golden, property and invalid-input judgement all reach the modules
    assert {("accuracy", "golden"), ("accuracy", "property"), ("wer", "golden"), ("wer", "property")} <= set(by)
    # hand-checked: 'a x c d' against 'a b c' is a substitution and an insertion over 3 words; the
    # golden cases of valid input pass
    assert any(r["outcome"] == "pass" for r in by[("wer", "golden")])
    assert any(r["outcome"] == "pass" for r in by[("accuracy", "golden")])
    # no sample: the accuracy module divides by len(references) = 0 where the definition has no
    # value; the run records the crash as an error naming it
    empty = [r for r in by[("accuracy", "golden")] if r.get("inputs") == {"y_true": [], "y_pred": []}]
    assert empty and empty[0]["outcome"] == "error" and "ZeroDivisionError" in empty[0]["message"]
    # the wer module splits on whitespace while the profile (the Hub module's) applies jiwer's
    # transform: a non-breaking space is a word boundary for str.split, not for jiwer ('a\u00a0b'
    # is one word there), so the golden case on it fails
    nbsp = [r for r in by[("wer", "golden")] if "\u00a0" in json.dumps(r.get("inputs"), ensure_ascii=False)]
    assert nbsp and all(r["outcome"] == "fail" for r in nbsp)
